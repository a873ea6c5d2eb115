"""Each lesson's stated time is at least the course's yardstick (benchmarks/lesson_time.py); TEACHERS.md's course
plan gives each lesson the yardstick, the honest estimate and the periods that script prints; no lesson spans more
than two periods, and one whose honest estimate passes 50 minutes is planned as two; the short paths' periods
are the script's."""
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


lesson_time = _yardstick_module()
yardstick = lesson_time.yardstick


def stated_minutes(path: Path) -> int:
    opening = "".join(json.loads(path.read_text(encoding="utf-8"))["cells"][0]["source"])
    found = re.search(r"\*\*Time:\*\*\s*about (\d+) minutes", opening)
    assert found, f"{path.name} does not state its time as '**Time:** about N minutes'"
    return int(found[1])


def plan_rows() -> dict[str, tuple[str, int, int]]:
    """(periods, yardstick, honest estimate) per lesson in TEACHERS.md's course plan table."""
    text = (ROOT / "notebooks" / "TEACHERS.md").read_text(encoding="utf-8")
    plan = text[text.index("## Course plan"):text.index("## Running a class")]
    return {m["stem"]: (m["periods"], int(m["yardstick"]), int(m["honest"])) for m in lesson_time.ROW.finditer(plan)}


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_the_stated_time_is_at_least_the_yardstick(path: Path) -> None:
    assert yardstick(path)["minutes"] <= stated_minutes(path)


def test_the_course_plan_gives_what_lesson_time_prints() -> None:
    spans = lesson_time.plan(LESSONS)
    want = {p.stem: (lesson_time.periods_text(spans[p.stem]), yardstick(p)["minutes"], lesson_time.honest(p)["minutes"])
            for p in LESSONS}
    assert plan_rows() == want
    text = (ROOT / "notebooks" / "TEACHERS.md").read_text(encoding="utf-8")
    assert f"**{lesson_time.course_periods(spans)} periods of 50 minutes**" in text


def test_no_lesson_spans_more_than_two_periods_and_a_long_one_is_planned_as_two() -> None:
    spans = lesson_time.plan(LESSONS)
    for path in LESSONS:
        first, last = spans[path.stem]
        assert last - first <= 1, path.stem
        if lesson_time.honest(path)["minutes"] > PERIOD:
            assert last - first == 1, path.stem


def test_the_short_paths_periods_are_lesson_times() -> None:
    text = (ROOT / "notebooks" / "TEACHERS.md").read_text(encoding="utf-8")
    for kept in lesson_time.SHORT_PATHS.values():
        path = lesson_time.with_prerequisites(kept, LESSONS)
        periods = max(last for _, last in lesson_time.plan(path).values())
        assert f"| {', '.join(p.stem.split('_')[0] for p in path)} | {periods} |" in text


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


def test_a_solution_cell_counts_with_the_exercise_it_leads_to(tmp_path: Path) -> None:
    solution = {"cell_type": "code", "metadata": {"tags": ["solution"]}}
    nb = {"cells": [{**solution, "source": ["def f(x):\n", "    # a note\n", "\n", "    return x\n"]},
                    {**solution, "source": ["def g(x):\n", "    return f(x) + 1\n"]},
                    {"cell_type": "code", "source": ['check("02.g", g)']},
                    {"cell_type": "code", "source": ['check("02.h", 3)']}]}
    path = tmp_path / "x.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    assert lesson_time.exercise_lines(path) == [("02.g", 4), ("02.h", 0)]


@pytest.mark.parametrize("path", [p for p in LESSONS if p.stem >= "02"], ids=lambda p: p.stem)
def test_each_lesson_from_02_on_has_an_exercise_a_student_writes(path: Path) -> None:
    """A function of a few lines at least (08's count of layouts is three lines of thought), and none a period
    cannot hold."""
    lines = dict(lesson_time.exercise_lines(path))
    assert any(3 <= n <= 25 for n in lines.values()), f"{path.stem}: the exercises' lines are {lines}"
