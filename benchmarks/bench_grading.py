"""A graded check's time per exercise: the practice ``check`` in process, beside ``grade`` in a fresh process (the
answer's code in the tournament's sandbox, and without it), on the teacher's own answer of each exercise.

    python benchmarks/bench_grading.py [--only 02b.waste_moves 07.dfs] [--results]

Each exercise's answer is the teacher's solution in the lesson's notebook, run with the lesson's imports and
functions: in this process for the practice check, and sent as source for the graded ones, as a course's autograde
sends it (copies are not looked for: the teacher's text is the teacher's solution). A graded check is timed twice
on a fresh grading process: ``cold``, its first answer of the exercise, which includes working out the expected
answers of the secret inputs once (a course's autograde pays that once for all its students), and ``warm``, the
next answer (what each further student costs). Beside wall time it gives the CPU seconds of the answer's own
processes and how many messages crossed the pipe; ``--results`` writes the table into benchmarks/RESULTS.md.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import resource
import sys
import time
from contextlib import redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from solitaire.classroom.course import grade_id, lesson_notebooks  # noqa: E402
from solitaire.classroom.graded import graded_program  # noqa: E402
from solitaire.lessons import check  # noqa: E402
from solitaire.lessons.grading import run_grader, stop_graders  # noqa: E402
from solitaire.lessons.remote import UNSANDBOXED  # noqa: E402
from solitaire.tournament.sandbox import detect  # noqa: E402


def cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def teachers_programs() -> dict[str, tuple[list, str]]:
    """Each exercise's program (the lesson's cells, then the teacher's solution cells) and its answer's name."""
    out = {}
    for path, exercises in lesson_notebooks(ROOT / "notebooks").items():
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for cell in cells:
            if "solution" in cell.get("metadata", {}).get("tags", []):
                cell.setdefault("metadata", {})["nbgrader"] = {"solution": True}
        for e in exercises:
            out[e.check_id] = (graded_program(cells, e.check_cell), e.answer)
    return out


def practice(name: str, program: list, answer: str) -> tuple[float, float, bool]:
    """The practice check of the answer, run in this process: wall and CPU seconds, and its verdict."""
    namespace: dict = {"__name__": "__main__"}
    for text, _ in program:
        exec(compile(text, "<bench>", "exec"), namespace)
    value = eval(answer, namespace)
    wall, used = time.perf_counter(), cpu()
    with redirect_stdout(io.StringIO()):
        ok = check(name, value, quiet=True)
    return time.perf_counter() - wall, cpu() - used, ok


def graded(name: str, program: list, answer: str, secret: str) -> dict:
    request = {"exercise": name, "kind": "source", "payload": program, "answer": answer}
    wall = time.perf_counter()
    [verdict] = run_grader([request], secret=secret, teacher=[])[0]
    return {"wall": time.perf_counter() - wall, "cpu": verdict.cpu, "calls": verdict.calls, "state": verdict.state}


def measure(names: list[str], programs: dict) -> list[dict]:
    rows = []
    for name in names:
        program, answer = programs[name]
        p_wall, p_cpu, p_ok = practice(name, program, answer)
        secret = f"bench {name}"
        cold = graded(name, program, answer, secret)
        warm = graded(name, program, answer, secret)
        os.environ[UNSANDBOXED] = "1"  # a grading process started now runs answers without one
        bare = graded(name, program, answer, secret + " bare")
        bare = graded(name, program, answer, secret + " bare")
        del os.environ[UNSANDBOXED]
        stop_graders()
        row = {"exercise": name, "practice": p_wall, "practice_cpu": p_cpu, "cold": cold["wall"], "warm": warm["wall"],
               "answer_cpu": warm["cpu"], "calls": warm["calls"], "unsandboxed": bare["wall"],
               "verdicts": (p_ok, cold["state"], warm["state"], bare["state"])}
        print(f"{name:<22} practice {p_wall:7.3f} s ({p_cpu:6.3f} CPU)   graded cold {cold['wall']:6.2f} s, warm "
              f"{warm['wall']:6.2f} s ({warm['cpu']:5.2f} s answer CPU, {warm['calls']} messages), without the "
              f"sandbox {bare['wall']:6.2f} s   {row['verdicts']}", flush=True)
        rows.append(row)
    return rows


def table(rows: list[dict]) -> str:
    lines = ["| exercise | practice check | graded, first answer | graded, next answer | answer's CPU | messages | "
             "next answer, no sandbox |", "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['exercise']} | {r['practice']:.3f} s | {r['cold']:.1f} s | {r['warm']:.1f} s | "
                     f"{r['answer_cpu']:.2f} s | {r['calls']:,} | {r['unsandboxed']:.1f} s |")
    total = {k: sum(r[k] for r in rows) for k in ("practice", "cold", "warm", "unsandboxed")}
    lines.append(f"| all {len(rows)} | {total['practice']:.0f} s | {total['cold']:.0f} s | {total['warm']:.0f} s | | | "
                 f"{total['unsandboxed']:.0f} s |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, help="exercise ids (default: every exercise)")
    parser.add_argument("--results", action="store_true", help="write the table into benchmarks/RESULTS.md")
    args = parser.parse_args()
    programs = teachers_programs()
    names = args.only or sorted(programs)
    print(detect().line)
    started = time.perf_counter()
    rows = measure(names, programs)
    text = table(rows)
    print(text)
    wrong = [r["exercise"] for r in rows if r["verdicts"][0] is not True or set(r["verdicts"][1:]) - {"right", "hand"}]
    if wrong:
        raise SystemExit(f"the teacher's answer was not right everywhere for: {', '.join(wrong)}")
    if args.results:
        from results_page import write_section
        load = os.getloadavg()[0]
        write_section("grading", f"""A graded check's time per exercise, on the teacher's own answer of each (the wall
time of one answer; the machine's load average was {load:.1f} on its 2 cores, so the wall times are long): the
practice `check` in the kernel; `grade` as a course's autograde runs it, its first answer of the exercise (which
works out the secret inputs' expected answers, once for all the students) and the next one (what each further
student costs); the CPU of the answer's own processes and the messages that crossed the pipe; and the next answer
again without the sandbox. `python benchmarks/bench_grading.py --results` ({time.perf_counter() - started:.0f} s
here; {detect().line}).

{text}""")


if __name__ == "__main__":
    main()
