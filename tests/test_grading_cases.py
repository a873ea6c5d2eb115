"""Every lesson's cases graded (issue 53): each right answer of ``tests/test_exercises.py``'s ``EVERY_CASE`` (the
cases of test_exercises, test_engine_cases, test_lesson_stats and test_flow_cases) is accepted by ``grade``, and
each honest mistake and nonsense answer refused, as the practice ``check`` does. A record of play (lesson 01a) is
checked for legality and left to the teacher: its right answer comes back for hand grading, never right.

All answers are graded once, by two grading processes at once (each exercise's answers in one of them, so the
secret inputs' expected answers are worked out once), each answer in a fresh process of its own.
"""
from __future__ import annotations

import pytest

from test_exercises import EVERY_CASE
from solitaire.lessons.grading import graded_verdicts

SECRET = "the cases' course secret"


def _answers() -> list[tuple[str, str, object]]:
    out = []
    for name, (right, wrong, nonsense) in sorted(EVERY_CASE.items()):
        out.append((name, "right", right))
        out += [(name, f"wrong {i + 1}", w) for i, w in enumerate(wrong)]
        out.append((name, "nonsense", nonsense))
    return out


ANSWERS = _answers()


@pytest.fixture(scope="module")
def verdicts() -> dict[tuple[str, str], object]:
    graded = graded_verdicts([(name, answer) for name, _, answer in ANSWERS], secret=SECRET, workers=2)
    spent: dict[str, float] = {}
    for (name, _, _), v in zip(ANSWERS, graded):
        spent[name] = spent.get(name, 0.0) + v.seconds
    print("\nseconds graded, by exercise:", ", ".join(f"{k} {t:.0f}" for k, t in sorted(spent.items(), key=lambda x: -x[1])))
    return {(name, label): v for (name, label, _), v in zip(ANSWERS, graded)}


@pytest.mark.parametrize("name", sorted(EVERY_CASE))
def test_the_right_answer_is_accepted_by_grade(name: str, verdicts: dict) -> None:
    v = verdicts[name, "right"]
    assert v.state == ("hand" if name.startswith("01a.") else "right"), v


@pytest.mark.parametrize("name, label", [(n, label) for n, label, _ in ANSWERS if label != "right"])
def test_every_mistake_is_refused_by_grade(name: str, label: str, verdicts: dict) -> None:
    v = verdicts[name, label]
    assert v.state == "wrong", v
