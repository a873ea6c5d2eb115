"""What a check says, and the ways a student's answer can stop one: the small types every checking module shares.

``Verdict`` is a check's answer; ``NotAnswered`` (and ``KitCalled``) a refusal raised from deep inside a check;
``TookTooLong`` the time limit, a BaseException so that a student's ``except Exception`` cannot swallow it.
"""
from __future__ import annotations

from typing import NamedTuple


class Verdict(NamedTuple):
    """A checker's answer: right or not, and what to tell the student.

    >>> Verdict(True, "all 12 right").ok
    True
    """

    ok: bool
    message: str


class NotAnswered(Exception):
    """The student has not written an answer yet (or wrote something a check cannot take)."""


class KitCalled(NotAnswered):
    """The student's answer called a kit piece that the exercise asks them to write (switched off meanwhile, or
    absent from a graded answer's process)."""


class TookTooLong(BaseException):
    """A check ran past its time limit. A BaseException, so that a student's ``except Exception`` cannot swallow
    it."""
