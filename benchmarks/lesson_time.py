"""How long each lesson takes: the course's time yardstick, and (with --run) its Run All time.

The yardstick (the course issue's, used in notebooks/TEACHERS.md), a floor and not an estimate: 1 minute per
code cell, 1 minute per 100 words of prose, 1 minute per 10 lines of code written or shown (a code cell's own
non-blank lines, plus the lines that ``show_source`` prints in its saved output), 8 minutes per exercise
(distinct ``check("…")`` ids). With ``--run`` each lesson is also
executed in a fresh kernel on a temporary copy (the lesson file is left as it is) and its Run All wall time and
the kernel's CPU seconds are printed, with the machine's load beside them.

    python benchmarks/lesson_time.py                      # every lesson in notebooks/
    python benchmarks/lesson_time.py notebooks/06_experiments.ipynb --run
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import resource
import shutil
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
    args = parser.parse_args(argv)
    lessons = args.lessons or sorted((ROOT / "notebooks").glob("*.ipynb"))
    missing = [str(p) for p in lessons if not p.is_file()]
    if missing:
        parser.error(f"no such lesson: {', '.join(missing)}")
    print(f"{'lesson':28} {'minutes':>7} {'cells':>5} {'words':>6} {'lines':>5} {'exer.':>5}" + ("  run-all s  cpu s" if args.run else ""))
    for path in lessons:
        y = yardstick(path)
        line = f"{path.stem:28} {y['minutes']:>7} {y['code cells']:>5} {y['words']:>6} {y['lines']:>5} {y['exercises']:>5}"
        if args.run:
            wall, cpu = run_all(path)
            line += f"  {wall:9.1f}  {cpu:5.1f}"
        print(line, flush=True)
    if args.run:
        print(f"load average (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
