"""Checks for the exercises of lesson 02b (moves), registered with ``solitaire.lessons.check``.

The student writes part of the engine: the waste's moves (the kit's ``moves._waste_moves``) and the draw (the
kit's ``apply`` of a ``draw``). Each check replays the student's function against the kit's on positions from
seeded random playouts of every variant (``random.Random(seed)``: the same positions on every run) and names
the first position where the two differ.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from functools import lru_cache
from typing import Any

from ..cards import Card
from ..moves import DRAW, Move, apply, column_targets, foundation_wants, legal_moves, rules
from ..render import text_diagram
from ..state import Position, deal
from ..variants import ITALIAN, KLONDIKE, SOLIJOY, Variant
from .checks import NotAnswered, Verdict, call_student, described, exercise

KLONDIKE_DRAW_3 = replace(KLONDIKE, name="Klondike draw 3", draw=3)
POSITIONS_PER_VARIANT = 1000


@lru_cache(maxsize=16)
def playout_positions(variant: Variant, wanted: str, n: int = POSITIONS_PER_VARIANT) -> tuple[Position, ...]:
    """``n`` positions of ``variant`` met in seeded random playouts (deal ``seed``, moves picked by
    ``random.Random(seed)``, at most 80 moves a deal), keeping those with cards in the pile ``wanted``
    ("waste" or "stock"). The same positions on every run and every machine."""
    found: list[Position] = []
    seed = 0
    while len(found) < n:
        p, rng = deal(variant, seed), random.Random(seed)
        for _ in range(80):
            if getattr(p, wanted):
                found.append(p)
            moves = legal_moves(p)
            if not moves or len(found) >= n:
                break
            p = apply(p, rng.choice(moves))
        seed += 1
    return tuple(found[:n])


first_difference: Position | None = None  # the position a check last found wrong, to try the function on


_TRY_IT = "  (the position is solitaire.lessons.lesson02b.first_difference: try your function on it)"


def _differ(p: Position, got: Any, want: Any, call: str, difference: str = "") -> Verdict:
    global first_difference
    first_difference = p
    return Verdict(False, f"on this {p.variant.name} position (one of the random playouts' positions):\n"
                          f"{text_diagram(p)}\n  {call} returned {got!r}\n  the kit's answer is {want!r}\n"
                          f"{difference}{_TRY_IT}")


def _call(fn: Any, p: Position, *args: Any) -> Any:
    """``call_student`` on a playout position; if it raises, the position is kept in ``first_difference``."""
    global first_difference
    try:
        return call_student(fn, p, *args)
    except NotAnswered as e:
        if "raised" not in str(e):
            raise
        first_difference = p
        raise NotAnswered(f"{e}\n{_TRY_IT}") from None


def _missing_and_extra(got: list[Move], want: list[Move]) -> str:
    """Which moves the kit lists and the student's answer does not, and the other way round, with every field."""
    missing, extra = Counter(want) - Counter(got), Counter(got) - Counter(want)
    said = [f"  missing: {', '.join(repr(m) for m in missing)}"] if missing else []
    said += [f"  not legal here, or listed too often: {', '.join(repr(m) for m in extra.elements())}"] if extra else []
    return "\n".join(said) + "\n" if said else ""


def _as_moves(got: Any, call: str) -> list[Move]:
    if isinstance(got, (str, bytes, Move)) or not hasattr(got, "__iter__"):
        raise NotAnswered(f"{call} should return a list of Move values, got {type(got).__name__} {got!r}")
    moves = list(got)
    wrong = [m for m in moves if not isinstance(m, Move)]
    if wrong:
        raise NotAnswered(f"{call} returned {wrong[0]!r}, which is not a Move: make one with Move(kind, source, "
                          "target, count), e.g. Move(WASTE_TO_COLUMN, target=2)")
    return moves


@exercise("02b.waste_moves", "Write waste_moves(p, targets, wants): the moves of the waste's top card, as "
                             "legal_moves would list them (targets = column_targets(p, rules(p.variant)), "
                             "wants = foundation_wants(p)).", pieces=["solitaire.moves._waste_moves"])
def _waste_moves(fn: Any) -> Verdict:
    from ..moves import _waste_moves as kit
    checked = 0
    for v in (KLONDIKE, SOLIJOY, ITALIAN):
        r = rules(v)
        for p in playout_positions(v, "waste"):
            targets, wants = column_targets(p, r), foundation_wants(p, r)
            want = kit(p, r, targets, wants)
            got = _as_moves(_call(fn, p, targets, wants), "waste_moves(p, targets, wants)")
            if Counter(got) != Counter(want):
                return _differ(p, [str(m) for m in got], [str(m) for m in want], "waste_moves(p, targets, wants)",
                               _missing_and_extra(got, want))
            checked += 1
    return Verdict(True, f"waste_moves agrees with the kit on all {checked} positions ({POSITIONS_PER_VARIANT} "
                         "from random playouts of each of Klondike, SoliJoy and the Italian game).")


@exercise("02b.apply_draw", "Write draw(p): the position after a draw (the variant's `draw` cards, or what the "
                            "stock has left, turned over one by one onto the waste).", pieces=["solitaire.moves._draw"])
def _apply_draw(fn: Any) -> Verdict:
    checked = 0
    for v in (KLONDIKE, SOLIJOY, ITALIAN, KLONDIKE_DRAW_3):
        for p in playout_positions(v, "stock"):
            want = apply(p, Move(DRAW))
            got = _call(fn, p)
            if not isinstance(got, Position):
                raise NotAnswered(f"draw(p) should return a Position (p._replace(...) makes one), got "
                                  f"{type(got).__name__} {described(got)}")
            if got != want:
                diff = [f for f in Position._fields if getattr(got, f) != getattr(want, f)]
                return _differ(p, {f: _short(getattr(got, f)) for f in diff},
                               {f: _short(getattr(want, f)) for f in diff}, "draw(p), in the fields that differ,")
            checked += 1
    return Verdict(True, f"draw agrees with the kit on all {checked} positions (random playouts of Klondike, "
                         "SoliJoy, the Italian game and Klondike draw 3).")


def _short(value: Any) -> Any:
    """Piles as text (bottom first), other fields as they are."""
    if isinstance(value, tuple) and all(isinstance(x, Card) for x in value):
        return " ".join(map(str, value)) or "(empty)"
    if isinstance(value, tuple) and value and all(isinstance(x, tuple) for x in value):
        return tuple(_short(x) for x in value)
    return value
