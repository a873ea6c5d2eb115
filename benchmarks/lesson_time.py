"""How long each lesson takes: the course's time yardstick, and (with --run) its Run All time.

The yardstick (the course issue's, used in notebooks/TEACHERS.md), a floor and not an estimate: 1 minute per
code cell, 1 minute per 100 words of prose, 1 minute per 10 lines of code written or shown (a code cell's own
non-blank lines, plus the lines that ``show_source`` prints in its saved output), 8 minutes per exercise
(distinct ``check("…")`` ids). With ``--run`` each lesson is also
executed in a fresh kernel on a temporary copy (the lesson file is left as it is) and its Run All wall time and
the kernel's CPU seconds are printed, with the machine's load beside them.

    python benchmarks/lesson_time.py                      # every lesson in notebooks/
    python benchmarks/lesson_time.py notebooks/06_experiments.ipynb --run
    python benchmarks/lesson_time.py --results           # also rewrite "Lesson times" in benchmarks/RESULTS.md
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHECK = re.compile(r"check\(\s*[\"']([^\"']+)[\"']")


def shown_lines(cell: dict) -> int:
    """Lines of source a code cell prints with ``show_source`` (read from its saved output)."""
    if "show_source" not in "".join(cell["source"]):
        return 0
    printed = "".join("".join(out.get("text", "")) for out in cell.get("outputs", [])
                      if out.get("output_type") == "stream")
    return sum(1 for line in printed.splitlines() if line.strip())


def yardstick(path: Path) -> dict[str, int]:
    """Code cells, words of prose, lines of code written or shown, distinct exercises, and their minutes."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    code_cells = [c for c in cells if c["cell_type"] == "code"]
    code = ["".join(c["source"]) for c in code_cells]
    words = sum(len("".join(c["source"]).split()) for c in cells if c["cell_type"] == "markdown")
    lines = sum(1 for source in code for line in source.splitlines() if line.strip())
    lines += sum(shown_lines(c) for c in code_cells)
    exercises = {name for source in code for name in CHECK.findall(source)}
    minutes = len(code) + words / 100 + lines / 10 + 8 * len(exercises)
    return {"code cells": len(code), "words": words, "lines": lines, "exercises": len(exercises),
            "minutes": math.ceil(minutes)}


def run_all(path: Path) -> tuple[float, float]:
    """Execute a copy of the lesson top to bottom in a fresh kernel: (wall seconds, kernel CPU seconds)."""
    import nbformat
    from nbclient import NotebookClient

    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / path.name
        shutil.copy(path, copy)
        nb = nbformat.read(copy, as_version=4)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        NotebookClient(nb, timeout=600, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lessons", nargs="*", type=Path, help="lesson notebooks (default: notebooks/*.ipynb)")
    parser.add_argument("--run", action="store_true", help="also time Run All in a fresh kernel")
    parser.add_argument("--results", action="store_true",
                        help='write the table into benchmarks/RESULTS.md ("Lesson times"), with its command')
    args = parser.parse_args(argv)
    lessons = args.lessons or sorted((ROOT / "notebooks").glob("*.ipynb"))
    missing = [str(p) for p in lessons if not p.is_file()]
    if missing:
        parser.error(f"no such lesson: {', '.join(missing)}")
    print(f"{'lesson':28} {'minutes':>7} {'cells':>5} {'words':>6} {'lines':>5} {'exer.':>5}" + ("  run-all s  cpu s" if args.run else ""))
    rows = []
    for path in lessons:
        y = yardstick(path)
        line = f"{path.stem:28} {y['minutes']:>7} {y['code cells']:>5} {y['words']:>6} {y['lines']:>5} {y['exercises']:>5}"
        row = [path.stem, y["minutes"], y["code cells"], y["words"], y["lines"], y["exercises"]]
        if args.run:
            wall, cpu = run_all(path)
            line += f"  {wall:9.1f}  {cpu:5.1f}"
            row += [f"{wall:.1f}", f"{cpu:.1f}"]
        rows.append(row)
        print(line, flush=True)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    if args.run:
        print(f"load average (1, 5, 15 min): {load}")
    if args.results:
        write_results(rows, args.run, load, argv)


def write_results(rows: list[list], ran: bool, load: str, argv: list[str] | None) -> None:
    """The table as Markdown in RESULTS.md's "Lesson times" section, with the command that made it."""
    sys.path.insert(0, str(Path(__file__).parent))
    from results_page import write_section

    head = ["lesson", "yardstick minutes", "code cells", "words", "lines", "exercises"]
    head += ["Run All s", "kernel CPU s"] if ran else []
    command = " ".join(["python benchmarks/lesson_time.py", *(sys.argv[1:] if argv is None else argv)])
    text = [f"Written by `{command}`: the course's yardstick (1 minute a code cell, 1 a 100 words, 1 a 10 lines "
            "of code, 8 an exercise), a floor and not an estimate" + (f"; load average {load}" if ran else "") + ".",
            "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    text += ["| " + " | ".join(map(str, r)) + " |" for r in rows]
    write_section("lesson-times", "\n".join(text))
    print("wrote the lesson times into benchmarks/RESULTS.md")


if __name__ == "__main__":
    main()
