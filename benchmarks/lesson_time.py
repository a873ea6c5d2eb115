"""How long each lesson takes: the course's time yardstick, and (with --run) its Run All time.

The yardstick (the course issue's, used in notebooks/TEACHERS.md), a floor and not an estimate: 1 minute per
code cell, 1 minute per 100 words of prose, 1 minute per 10 lines of code written or shown (a code cell's own
non-blank lines, plus the lines that ``show_source`` prints in its saved output), 8 minutes per exercise
(distinct ``check("…")`` ids).

Beside it, the honest estimate: what a class at the stated level really needs, by the same counts at rates fitted
(non-negative least squares, ``--calibrate`` prints the fit) to the minutes an independent reviewer took for each of
19 lessons as a teacher of 16-year-olds with one term of Python would (1,600 minutes in all; the counts each lesson
had then are kept in ``REVIEWED``): 1.2 minutes per code cell (run it, read its output), 1 minute per 30 words of
prose, 1 minute per 6.5 lines of code written or shown, 11.5 minutes per exercise, and a tenth of a minute more per
line of the solution a student writes (the cells tagged ``solution``, comments and blank lines left out). The fit
misses single lessons by up to half an hour (06, with its new statistics, took 32 minutes more than its counts say):
a lesson heavy with new ideas needs room under the 50 minutes. A lesson whose estimate passes 50 minutes is
planned as two periods (``periods``). notebooks/TEACHERS.md's course plan carries both figures and the periods, and
tests/test_lesson_times.py keeps it equal to what this script prints. Only the main path counts: the optional
"Going deeper" notebooks in ``notebooks/deeper/`` are outside the plan. With ``--run`` each lesson is also
executed in a fresh kernel on a temporary copy (the lesson file is left as it is) and its Run All wall time and
the kernel's CPU seconds are printed, with the machine's load beside them.

    python benchmarks/lesson_time.py                      # every lesson in notebooks/
    python benchmarks/lesson_time.py notebooks/06_experiments.ipynb --run
    python benchmarks/lesson_time.py --results           # also rewrite "Lesson times" in benchmarks/RESULTS.md
    python benchmarks/lesson_time.py --update-plan        # rewrite TEACHERS.md's course-plan figures
    python benchmarks/lesson_time.py --exercises          # each exercise and the lines a student writes for it
    python benchmarks/lesson_time.py --calibrate          # fit the honest rates to the reviewer's minutes again
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


HONEST_RATES = {"code cell": 1.2, "words per minute": 30, "lines per minute": 6.5, "exercise": 11.5, "solution line": 0.1}
# The reviewer's minutes for each lesson (issue 52), with the lesson's counts at the time of the review: code cells,
# words of prose, lines written or shown, exercises, solution lines. ``--calibrate`` fits HONEST_RATES to them.
REVIEWED = {
    "00_index": (1, 926, 4, 0, 0, 30), "01_cards": (12, 890, 140, 2, 9, 80), "01a_play": (16, 964, 44, 2, 5, 65),
    "01b_shuffles": (13, 897, 89, 1, 6, 75), "02_rules": (13, 1063, 185, 1, 15, 95),
    "02a_tables": (15, 1012, 157, 1, 16, 95), "02b_moves": (14, 1006, 139, 1, 18, 75),
    "02c_apply": (20, 1166, 123, 2, 25, 105), "03_variants": (17, 928, 116, 1, 8, 70),
    "03b_new_games": (14, 848, 145, 1, 17, 90), "05_strategies": (16, 1108, 78, 3, 33, 105),
    "05b_tournament": (14, 1056, 75, 1, 18, 65), "06_experiments": (15, 1063, 67, 2, 10, 120),
    "06a_winnability": (14, 1032, 69, 2, 10, 95), "06b_rules_and_players": (19, 1206, 90, 2, 14, 110),
    "07_search": (11, 802, 72, 2, 18, 85), "07b_solver_ideas": (13, 1137, 96, 3, 21, 95),
    "08_uncertainty": (12, 688, 49, 2, 8, 60), "08b_playing_blind": (12, 996, 85, 2, 10, 85),
}


def calibrate() -> None:
    """Fit the honest rates to the reviewer's minutes (non-negative least squares) and print each lesson's fit."""
    import numpy as np
    from scipy.optimize import nnls

    counts = np.array([row[:5] for row in REVIEWED.values()], dtype=float)
    minutes = np.array([row[5] for row in REVIEWED.values()], dtype=float)
    rates, _ = nnls(counts, minutes)
    print(f"per code cell {rates[0]:.2f} min, 1 min per {1 / rates[1]:.0f} words, 1 min per {1 / rates[2]:.1f} lines, "
          f"per exercise {rates[3]:.1f} min, per solution line {rates[4]:.2f} min")
    ours = np.array([HONEST_RATES["code cell"], 1 / HONEST_RATES["words per minute"],
                     1 / HONEST_RATES["lines per minute"], HONEST_RATES["exercise"], HONEST_RATES["solution line"]])
    for name, row, fitted, used in zip(REVIEWED, minutes, counts @ rates, counts @ ours):
        print(f"{name:24} reviewer {row:4.0f}  fitted {fitted:4.0f}  HONEST_RATES {used:4.0f}")
    print(f"in all: reviewer {minutes.sum():.0f}, fitted {(counts @ rates).sum():.0f}, "
          f"HONEST_RATES {(counts @ ours).sum():.0f} minutes")
PERIOD = 50  # minutes


def solution_lines(path: Path) -> int:
    """Non-blank, non-comment lines of the cells tagged ``solution``: the code a student writes."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return sum(1 for c in cells if "solution" in c.get("metadata", {}).get("tags", [])
               for line in "".join(c["source"]).splitlines() if line.strip() and not line.strip().startswith("#"))


def exercise_lines(path: Path) -> list[tuple[str, int]]:
    """Each exercise of a lesson, in order, with the lines its solution cells hold: a solution cell belongs to the
    first ``check("…")`` at or after it (an ungraded first step counts with the exercise it leads to)."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    found: dict[str, int] = {}
    waiting = 0
    for c in cells:
        if c["cell_type"] != "code":
            continue
        source = "".join(c["source"])
        if "solution" in c.get("metadata", {}).get("tags", []):
            waiting += sum(1 for line in source.splitlines() if line.strip() and not line.strip().startswith("#"))
        for name in CHECK.findall(source):
            found[name] = found.get(name, 0) + waiting
            waiting = 0
    return list(found.items())


# The minutes cold reviews of the course needed, lesson by lesson (each a teacher who had never seen the kit,
# working the lessons as a 16-year-old student would; notebooks/TEACHERS.md, "How long the lessons take"), each
# review with the lesson's counts when it was made (code cells, words, lines, exercises, solution lines, as in
# ``REVIEWED``): the first two on main at 6c60bec (7 December 2026), the third and fourth (two reviewers, seven lessons each) on
# a1b6e2d (8 December, after the long lessons were split or cut). A lesson heavy with new ideas takes longer than its counts say. Where reviews
# measured a lesson, its honest estimate is at least their mean, each review's minutes scaled by how much the
# lesson's counts have changed since it: a lesson cut to two thirds of its counts is taken to need two thirds of
# the minutes a review measured before the cut. A lesson split from another and not reviewed itself is scaled from
# that lesson's reviews (``SPLIT_FROM``).
COLD_REVIEWS: dict[str, list[tuple[tuple[int, int, int, int, int], tuple[int, ...]]]] = {
    "01_cards": [((7, 605, 29, 1, 6), (40, 55)), ((7, 605, 29, 1, 6), (40,))],
    "01a_play": [((8, 415, 15, 2, 5), (55, 50)), ((8, 338, 15, 2, 5), (45,))],
    "01b_shuffles": [((8, 619, 47, 1, 6), (50,))],
    "02_rules": [((8, 603, 45, 1, 8), (55, 65)), ((7, 476, 26, 1, 8), (45,))],
    "02a_tables": [((8, 613, 38, 1, 16), (50,))],
    "02b_moves": [((7, 614, 39, 1, 9), (45, 60)), ((7, 546, 39, 1, 9), (45,))],
    "02c_apply": [((6, 440, 20, 1, 5), (40,))],
    "02d_builds": [((5, 593, 31, 1, 10), (60,)), ((4, 427, 28, 1, 10), (50,))],
    "03_variants": [((6, 595, 51, 1, 8), (35, 30))],
    "05_strategies": [((7, 521, 63, 1, 12), (55, 75)), ((5, 405, 31, 1, 8), (50,))],
    "05a_own_strategy": [((4, 341, 24, 1, 12), (50,))],
    "05b_tournament": [((7, 596, 46, 1, 18), (45,))],
    "05c_intervals": [((5, 349, 30, 1, 4), (50,))],
    "06_experiments": [((6, 483, 41, 1, 5), (55, 85)), ((4, 299, 16, 1, 5), (40,))],
    "06a_winnability": [((6, 444, 38, 1, 5), (35,))],
    "06b_rules_and_players": [((6, 417, 49, 1, 6), (60, 75)), ((5, 286, 28, 1, 4), (40,))],
    "06c_real_or_luck": [((5, 274, 25, 1, 6), (40,))],
    "07_search": [((6, 609, 46, 1, 16), (65, 80)), ((3, 385, 21, 1, 16), (55,))],
    "07a_search_work": [((4, 363, 21, 1, 9), (30,))],
    "07b_solver_ideas": [((6, 345, 42, 2, 18), (50,)), ((6, 344, 42, 2, 18), (60,))],
    "08_uncertainty": [((9, 606, 44, 1, 4), (40, 50))],
    "08b_playing_blind": [((6, 607, 33, 1, 4), (40,))],
}
SPLIT_FROM: dict[str, str] = {"05a_own_strategy": "05_strategies", "05c_intervals": "06_experiments",
                              "06c_real_or_luck": "06b_rules_and_players", "07a_search_work": "07_search"}


def counts(path: Path) -> tuple[int, int, int, int, int]:
    """A lesson's counts: code cells, words of prose, lines written or shown, exercises, solution lines."""
    y = yardstick(path)
    return y["code cells"], y["words"], y["lines"], y["exercises"], solution_lines(path)


def counted(numbers: tuple[int, int, int, int, int]) -> float:
    """The minutes a lesson's counts give at ``HONEST_RATES`` (see the module's docstring).

    >>> counted((2, 140, 4, 1, 2))  # 2 x 1.2 + 140 / 30 + 4 / 6.5 + 11.5 + 2 x 0.1
    19.382...
    """
    cells, words, lines, exercises, written = numbers
    r = HONEST_RATES
    return (r["code cell"] * cells + words / r["words per minute"] + lines / r["lines per minute"]
            + r["exercise"] * exercises + r["solution line"] * written)


def honest(path: Path) -> dict[str, int]:
    """The honest estimate in minutes: the counted minutes, or, where cold reviews measured the lesson (or the
    lesson it was split from), their mean scaled by the lesson's counts now against then, whichever is more;
    with the solution lines it counts.

    >>> import tempfile, pathlib
    >>> nb = {"cells": [{"cell_type": "markdown", "source": ["word " * 140]},
    ...                 {"cell_type": "code", "metadata": {"tags": ["solution"]}, "source": ["x = 1\\n# note\\ny = 2\\n"]},
    ...                 {"cell_type": "code", "metadata": {}, "source": ['check("01.a", x)']}]}
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "x.ipynb"
    >>> _ = path.write_text(json.dumps(nb), encoding="utf-8")
    >>> honest(path)  # 2 cells x 1.2 + 140 words / 30 + 4 lines / 6.5 + 1 exercise x 11.5 + 2 solution lines x 0.1
    {'minutes': 20, 'solution lines': 2}
    >>> COLD_REVIEWS["x"] = [((2, 140, 4, 1, 2), (25, 35))]  # two reviews of it as it is: 30 minutes on average
    >>> honest(path)["minutes"]
    30
    >>> COLD_REVIEWS["x"] = [((4, 440, 17, 1, 2), (55, 65))]  # 60 minutes at 33.8 counted minutes, cut since to 19.4
    >>> honest(path)["minutes"]  # 60 x 19.4 / 33.8
    35
    >>> COLD_REVIEWS["x"].append(((2, 140, 4, 1, 2), (40,)))  # and a later review of it as it is: (32 + 38 + 40) / 3
    >>> honest(path)["minutes"]
    37
    >>> del COLD_REVIEWS["x"]
    """
    now = counts(path)
    minutes = math.ceil(counted(now))
    stem = Path(path).stem
    reviewed = COLD_REVIEWS.get(stem) or COLD_REVIEWS.get(SPLIT_FROM.get(stem, stem), [])
    scaled = [m * (1 if now == then else counted(now) / counted(then)) for then, reviews in reviewed for m in reviews]
    if scaled:
        minutes = max(minutes, math.ceil(sum(scaled) / len(scaled) - 1e-9))
    return {"minutes": minutes, "solution lines": solution_lines(path)}


LEAST_START = 20  # minutes: a lesson starts in what is left of a period only if that is this much


def plan(lessons: list[Path]) -> dict[str, tuple[int, int]]:
    """The periods each lesson spans, in course order, by its honest estimate; no lesson spans more than two.
    A lesson starts in what the lesson before left of its period when that is at least ``LEAST_START`` minutes
    and the lesson then ends in the next period at the latest; else it starts the next period. Lesson 00 (the
    install) is homework and takes no period.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> for name, words in [("00_index", 30), ("01_a", 1800), ("01b_b", 900), ("02_c", 600), ("02a_d", 300)]:
    ...     _ = (folder / f"{name}.ipynb").write_text(json.dumps({"cells": [{"cell_type": "markdown",
    ...                                               "source": ["w " * words]}]}), encoding="utf-8")
    >>> plan(sorted(folder.glob("*.ipynb")))  # 60 min: 0-60; 30 in the 40 left: 60-90; 20 (10 left): 100-120; 10
    {'00_index': (0, 0), '01_a': (1, 2), '01b_b': (2, 2), '02_c': (3, 3), '02a_d': (3, 3)}
    """
    out, clock = {}, 0
    for path in lessons:
        minutes = honest(path)["minutes"]
        if path.stem.startswith("00"):
            out[path.stem] = (0, 0)
            continue
        left = -clock % PERIOD
        if left < LEAST_START or minutes > left + PERIOD:
            clock += left  # start the next period
        first = clock // PERIOD + 1
        clock += minutes
        out[path.stem] = (first, math.ceil(clock / PERIOD))
    return out


def periods_text(span: tuple[int, int]) -> str:
    """How the course plan writes a span of periods: "before 1", "3" or "3–4"."""
    first, last = span
    return "before 1" if last == 0 else str(first) if first == last else f"{first}–{last}"


BEFORE = re.compile(r"\*\*Before:\*\*([^\n]*)")
SHORT_PATHS = {  # the short paths of TEACHERS.md: the lessons a teacher keeps; what they depend on comes with them
    "rules, play and strategies": ["05"],
    "... and how sure we can be": ["05", "06"],
    "... and the class tournament": ["05", "05b", "06"],
}


def prerequisites(path: Path) -> list[str]:
    """The lessons a lesson's opening names under **Before:** (its numbers, such as "02" or "01a"); lesson 00 and
    what is in parentheses or after a ";" (a lesson that only helps) are left out.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "06a_x.ipynb"
    >>> _ = path.write_text(json.dumps({"cells": [{"cell_type": "markdown", "source": [
    ...     "**Before:** lesson 06 (intervals 05), lesson 05b; lesson 07 helps"]}]}), encoding="utf-8")
    >>> prerequisites(path)
    ['06', '05b']
    """
    opening = "".join(json.loads(path.read_text(encoding="utf-8"))["cells"][0]["source"])
    found = BEFORE.search(opening)
    if not found:
        return []
    named = re.sub(r"\([^)]*\)", "", found[1]).split(";")[0].split(". ")[0]
    return [n for n in re.findall(r"\b(0\d[a-z]?)\b", named) if n != "00"]


def with_prerequisites(kept: list[str], lessons: list[Path]) -> list[Path]:
    """The lessons ``kept`` (by number) and every lesson they depend on, however indirectly, in course order."""
    by_number = {p.stem.split("_")[0]: p for p in lessons}
    unknown = [n for n in kept if n not in by_number]
    if unknown:
        raise ValueError(f"no lesson numbered {', '.join(unknown)}: the lessons are {', '.join(by_number)}")
    needed, todo = set(), list(kept)
    while todo:
        n = todo.pop()
        if n not in needed:
            needed.add(n)
            todo += [m for m in prerequisites(by_number[n]) if m in by_number]
    return [p for p in lessons if p.stem.split("_")[0] in needed]


PROJECT_PERIODS = 3  # the final projects, after the last lesson
ROW = re.compile(r"^\| (?P<periods>[^|]+) \| (?P<link>\[[^]]+\]\((?P<stem>0\w+)\.ipynb\)) \| (?P<yardstick>\d+) \| "
                 r"(?P<honest>\d+) \|", re.M)
TOTAL = re.compile(r"\*\*(\d+) periods of 50 minutes\*\*")
SHORT_ROW = re.compile(r"^\| (?P<keep>[^|]+) \| (?P<path>01(?:, 0\w+)*) \| \d+ \|$", re.M)


def course_periods(spans: dict[str, tuple[int, int]]) -> int:
    """The course's periods: the lessons' and the final projects'."""
    return max(last for _, last in spans.values()) + PROJECT_PERIODS


def update_plan(teachers: Path, lessons: list[Path]) -> list[str]:
    """Rewrite the figures of the course plan in ``teachers`` (TEACHERS.md): each lesson row's periods, yardstick
    and honest estimate, and the course's total of periods; return the lessons whose row is missing."""
    text = teachers.read_text(encoding="utf-8")
    spans = plan(lessons)
    figures = {p.stem: (periods_text(spans[p.stem]), yardstick(p)["minutes"], honest(p)["minutes"]) for p in lessons}

    def row(m: re.Match) -> str:
        if m["stem"] not in figures:
            return m[0]
        periods, y, h = figures[m["stem"]]
        return f"| {periods} | {m['link']} | {y} | {h} |"

    text = ROW.sub(row, text)
    text = TOTAL.sub(f"**{course_periods(spans)} periods of 50 minutes**", text, count=1)
    short = iter(SHORT_PATHS.values())

    def short_row(m: re.Match) -> str:  # the short paths' table, in the order of SHORT_PATHS
        path = with_prerequisites(next(short), lessons)
        periods = max(last for _, last in plan(path).values())
        return f"| {m['keep']} | {', '.join(p.stem.split('_')[0] for p in path)} | {periods} |"

    text = SHORT_ROW.sub(short_row, text)
    teachers.write_text(text, encoding="utf-8")
    return sorted(set(figures) - {m["stem"] for m in ROW.finditer(text)})


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
    parser.add_argument("--update-plan", action="store_true",
                        help="rewrite the figures of notebooks/TEACHERS.md's course plan from these counts")
    parser.add_argument("--calibrate", action="store_true",
                        help="fit the honest rates to the reviewer's minutes and print the fit (instead of the times)")
    parser.add_argument("--exercises", action="store_true",
                        help="list each exercise with the lines of its solution (instead of the times)")
    args = parser.parse_args(argv)
    lessons = args.lessons or sorted((ROOT / "notebooks").glob("*.ipynb"))
    missing = [str(p) for p in lessons if not p.is_file()]
    if missing:
        parser.error(f"no such lesson: {', '.join(missing)}")
    if args.calibrate:
        calibrate()
        return
    if args.exercises:
        listed = [(path.stem, name, n) for path in lessons for name, n in exercise_lines(path)]
        for stem, name, n in listed:
            print(f"{stem:28} {name:24} {n:>3} lines")
        print(f"{len(listed)} exercises; {sum(1 for *_, n in listed if n <= 2)} of them 2 lines or fewer")
        return
    if args.update_plan:
        missing = update_plan(ROOT / "notebooks" / "TEACHERS.md", sorted((ROOT / "notebooks").glob("0*.ipynb")))
        if missing:
            parser.error(f"TEACHERS.md's course plan has no row for {', '.join(missing)}: add one, then run again")
        print("notebooks/TEACHERS.md: the course plan's figures rewritten")
    rows = table(lessons, args.run)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    if args.run:
        print(f"load average (1, 5, 15 min): {load}")
    if args.results:
        write_results(rows, args.run, load, argv)


def table(lessons: list[Path], run: bool) -> list[list]:
    """Print each lesson's yardstick, honest estimate and periods (and Run All times); return the rows."""
    spans = plan(lessons)
    print(f"{'lesson':28} {'minutes':>7} {'honest':>6} {'periods':>7} {'cells':>5} {'words':>6} {'lines':>5} "
          f"{'exer.':>5} {'sol.':>4}" + ("  run-all s  cpu s" if run else ""))
    rows = []
    for path in lessons:
        y, h = yardstick(path), honest(path)
        line = (f"{path.stem:28} {y['minutes']:>7} {h['minutes']:>6} {periods_text(spans[path.stem]):>7} "
                f"{y['code cells']:>5} {y['words']:>6} {y['lines']:>5} {y['exercises']:>5} {h['solution lines']:>4}")
        row = [path.stem, y["minutes"], h["minutes"], periods_text(spans[path.stem]), y["code cells"], y["words"],
               y["lines"], y["exercises"]]
        if run:
            wall, cpu = run_all(path)
            line += f"  {wall:9.1f}  {cpu:5.1f}"
            row += [f"{wall:.1f}", f"{cpu:.1f}"]
        rows.append(row)
        print(line, flush=True)
    print(f"the course: {course_periods(spans)} periods of 50 minutes ({PROJECT_PERIODS} of them the final projects)")
    everything = sorted((ROOT / "notebooks").glob("0*.ipynb"))
    for name, kept in SHORT_PATHS.items():
        path = with_prerequisites(kept, everything)
        periods = max(last for _, last in plan(path).values())
        print(f"short path {name!r}: {periods} periods: {', '.join(p.stem.split('_')[0] for p in path)}")
    return rows


def write_results(rows: list[list], ran: bool, load: str, argv: list[str] | None) -> None:
    """The table as Markdown in RESULTS.md's "Lesson times" section, with the command that made it."""
    sys.path.insert(0, str(Path(__file__).parent))
    from results_page import write_section

    head = ["lesson", "yardstick minutes", "honest minutes", "periods", "code cells", "words", "lines", "exercises"]
    head += ["Run All s", "kernel CPU s"] if ran else []
    command = " ".join(["python benchmarks/lesson_time.py", *(sys.argv[1:] if argv is None else argv)])
    text = [f"Written by `{command}`: the course's yardstick (1 minute a code cell, 1 a 100 words, 1 a 10 lines "
            "of code, 8 an exercise), a floor, beside the honest estimate (rates calibrated on a reviewer's timings) and the periods" + (f"; load average {load}" if ran else "") + ".",
            "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    text += ["| " + " | ".join(map(str, r)) + " |" for r in rows]
    write_section("lesson-times", "\n".join(text))
    print("wrote the lesson times into benchmarks/RESULTS.md")


if __name__ == "__main__":
    main()
