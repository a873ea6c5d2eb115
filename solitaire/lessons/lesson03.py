"""Checks for the exercises of lesson 03 (variants), registered with ``solitaire.lessons.check``."""
from __future__ import annotations

import dataclasses
from typing import Any

from ..variants import ITALIAN, KLONDIKE, SOLIJOY, Variant
from .checks import Verdict, NotAnswered, exercise, texts, same_set


@exercise("03.differences", "Which rule fields does SoliJoy change from Klondike? (a set of field names)")
def _differences(answer: Any) -> Verdict:
    got = set(texts(answer, "field names")) - {"name"}  # the name is not a rule: with or without it is fine
    return same_set(got, set(SOLIJOY.changes_from(KLONDIKE)) - {"name"}, "rules SoliJoy changes",
                     hint="Compare the two variants field by field (the rules table of this lesson).")


@exercise("03.vera_francese", "Build 'la vera francese' from ITALIAN with dataclasses.replace: foundations "
                              "A 7 8 9 10 J Q K, columns built down (K Q J ... 8 7) as in Klondike, only Kings on "
                              "empty columns, and two passes through the stock.")
def _vera_francese(v: Any) -> Verdict:
    if not isinstance(v, Variant):
        raise NotAnswered(f"expected a Variant (made with dataclasses.replace), got {type(v).__name__} {v!r}")
    wanted = {"ranks": ("A", "7", "8", "9", "10", "J", "Q", "K"), "empty_column_ranks": ("K",),
              "columns_follow_foundation_order": False, "passes": 2}  # computed here, not importable as an answer
    hints = {"ranks": "the foundations go A 7 8 9 10 J Q K (the Ace is low)",
             "empty_column_ranks": "only a King may start an empty column",
             "columns_follow_foundation_order": "the columns are built down, against the foundations, as in "
                                                "Klondike: which field says which way columns go?",
             "passes": "the stock may be gone through twice"}
    wrong = [f"{k} is not right yet ({hints[k]})" for k, w in wanted.items() if getattr(v, k) != w]
    if wrong:
        return Verdict(False, "; ".join(wrong) + ".")
    kept = {f.name for f in dataclasses.fields(Variant)} - set(wanted) - {"name"}
    changed = sorted(k for k in kept if getattr(v, k) != getattr(ITALIAN, k))
    if changed:
        return Verdict(False, f"the four rules are right, but you also changed {', '.join(changed)} from ITALIAN.")
    return Verdict(True, "ranks, column direction, empty columns and passes are right, and every other rule is "
                         "ITALIAN's.")
