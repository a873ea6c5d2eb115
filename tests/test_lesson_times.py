"""Each lesson's stated time is honest by the course's yardstick (benchmarks/lesson_time.py), fits one class
period, and is the time the teacher's course plan gives."""
from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks").glob("0*.ipynb"))
PERIOD = 50  # minutes


def _yardstick_module():
    spec = importlib.util.spec_from_file_location("lesson_time", ROOT / "benchmarks" / "lesson_time.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


yardstick = _yardstick_module().yardstick


def stated_minutes(path: Path) -> int:
    opening = "".join(json.loads(path.read_text(encoding="utf-8"))["cells"][0]["source"])
    found = re.search(r"\*\*Time:\*\*\s*about (\d+) minutes", opening)
    assert found, f"{path.name} does not state its time as '**Time:** about N minutes'"
    return int(found[1])


def planned_minutes() -> dict[str, int]:
    """Minutes per lesson in TEACHERS.md's course plan table."""
    text = (ROOT / "notebooks" / "TEACHERS.md").read_text(encoding="utf-8")
    plan = text[text.index("## Course plan"):text.index("## Running a class")]
    return {name: int(minutes) for name, minutes in re.findall(r"\]\((0[\w]+)\.ipynb\) \| (\d+) \|", plan)}


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_the_stated_time_is_honest_and_fits_a_period(path: Path) -> None:
    assert yardstick(path)["minutes"] <= stated_minutes(path) <= PERIOD


def test_the_course_plan_gives_each_lessons_stated_time() -> None:
    assert planned_minutes() == {p.stem: stated_minutes(p) for p in LESSONS}


def test_the_yardstick_counts_cells_words_lines_and_exercises(tmp_path: Path) -> None:
    shown = "".join(f"line {i}\n" for i in range(25))
    nb = {"cells": [{"cell_type": "markdown", "source": ["word " * 250]},
                    {"cell_type": "code", "source": ['check("01.a", 1)\n', '\n', 'check("01.a", 2)']},
                    {"cell_type": "code", "source": ['check("01.b", x)']},
                    {"cell_type": "code", "source": ["show_source(moves.rules)"],
                     "outputs": [{"output_type": "stream", "name": "stdout", "text": [shown]}]}]}
    path = tmp_path / "x.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    # 3 cells + 2.5 min of prose + (4 lines written + 25 shown) / 10 + 2 exercises of 8 min = 24.4, rounded up
    assert yardstick(path) == {"code cells": 3, "words": 250, "lines": 29, "exercises": 2, "minutes": 25}
