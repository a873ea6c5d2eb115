"""Lesson-only code: the friendly checks of each lesson's "your turn" exercises, one module a lesson.

``check("01.red_cards", answer)`` prints what is right or what is off and returns True or False; it
never raises. Expected answers are computed from the kit itself, so they follow the rules as the code
implements them. Importing this package registers every lesson's checks.

``grade("01.red_cards", answer)`` is the same check where a grade rests on it: in a fresh process, on secret
hidden inputs, the student's code in a process of its own whose kit lacks the exercise's piece
(``solitaire.lessons.grading``).
"""
from __future__ import annotations

from .checks import EXERCISES, NotAnswered, Verdict, check, exercise, question, show_source
from .grading import grade
from . import (  # noqa: F401  (each lesson module registers its checks)
    lesson01, lesson01a, lesson02, lesson02b, lesson03, lesson05, lesson05b, lesson05c, lesson06, lesson06a, lesson06b,
    lesson07, lesson07b, lesson08,
)

__all__ = ["EXERCISES", "NotAnswered", "Verdict", "check", "exercise", "grade", "question", "show_source"]
