"""Checks for the exercises of lessons 02b (the waste's moves), 02c (the draw) and 02d (a build moved between
columns, exercise 02c.build), where the student writes part of the engine. Each check runs the student's
function on positions of hidden deals (seeded random playouts of every variant: the same positions on every run)
with the kit's own piece switched off, and names the first position where the student's answer and the rules
differ. ``forgets_auto_flip`` is the wrong piece on which lesson 02d runs a search.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from ..cards import Card
from ..moves import (COLUMN_TO_COLUMN, DRAW, WASTE_TO_COLUMN, WASTE_TO_FOUNDATION, Move, _draw, _move_cards,
                     _waste_moves, apply, column_targets, foundation_wants, legal_moves, rules)
from ..render import text_diagram
from ..state import Position
from ..variants import ITALIAN, KLONDIKE, SOLIJOY
from .checks import NotAnswered, Verdict, described
from .pieces import (CARDS_COME_BACK, KLONDIKE_DRAW_3, THREE_PASSES_DRAW_3, as_moves, missing_and_extra,
                     playout_positions, register, run_student, what_differs)

first_difference: Position | None = None  # the position a check last found wrong, to try the function on
_TRY_IT = "  (the position is solitaire.lessons.lesson02b.first_difference: try your function on it)"


def _differ(p: Position, said: str) -> Verdict:
    global first_difference
    first_difference = p
    return Verdict(False, f"on this {p.variant.name} position (from a random playout of a deal no lesson shows):\n"
                          f"{text_diagram(p)}\n{said}\n{_TRY_IT}")


@register("02b.waste_moves", "Write waste_moves(p, targets, wants): the moves of the waste's top card, as "
                             "legal_moves would list them (targets = column_targets(p, rules(p.variant)), "
                             "wants = foundation_wants(p)).",
          pieces=(_waste_moves, legal_moves, "solitaire.engine.Engine.legal_moves"))
def _waste_moves_check(fn: Any) -> Verdict:
    calls, wanted = [], []
    for v in (KLONDIKE, SOLIJOY, ITALIAN, CARDS_COME_BACK):
        r = rules(v)
        for p in playout_positions(v, "waste"):
            targets, wants = column_targets(p, r), foundation_wants(p, r)
            calls.append((p, targets, wants))
            wanted.append(_waste_moves(p, r, targets, wants))
    try:
        answers = run_student(fn, calls)
    except NotAnswered as e:
        if str(e).startswith("calling it raised KeyError"):
            raise NotAnswered(f"{e}\n{_KEY_HINT}") from None
        raise
    for (p, _, _), got, want in zip(calls, answers, wanted):
        got = as_moves(got, "waste_moves(p, targets, wants)")
        if Counter(got) != Counter(want):
            return _differ(p, f"  waste_moves(p, targets, wants) returned {[str(m) for m in got]}\n  the rules "
                              f"allow {[str(m) for m in want]}\n{missing_and_extra(got, want)}{_fields_hint(got)}")
    return Verdict(True, f"waste_moves agrees with the rules on all {len(calls)} positions (random playouts of "
                         "hidden deals of Klondike, SoliJoy, the Italian game and a Klondike whose cards come back).")


_KEY_HINT = ("  hint: a card that no column takes is not in targets (and one no foundation wants is not in wants): "
             "targets[card] raises KeyError for it. targets.get(card, []), as in the lesson's loop, gives [] "
             "instead; `card in wants` asks whether a foundation wants it.")


def _fields_hint(got: list[Move]) -> str:
    """A line on the fields of a waste move, when one of ``got`` gives the waste a pile number, or a move to a
    foundation a target: the waste has no pile number, so its moves keep the default source -1.

    >>> _fields_hint([Move(WASTE_TO_COLUMN, 3)])
    "\\n  Move('w>t', 3): a move from the waste has source -1 (the waste has no pile number)"
    >>> _fields_hint([Move(WASTE_TO_FOUNDATION, target=0)])
    "\\n  Move('w>f', -1, 0): a move to a foundation has target -1 (the program finds the foundation)"
    >>> _fields_hint([Move(WASTE_TO_COLUMN, target=3)])
    ''
    """
    for m in got:
        if m.kind in (WASTE_TO_COLUMN, WASTE_TO_FOUNDATION) and m.source != -1:
            return f"\n  {m!r}: a move from the waste has source -1 (the waste has no pile number)"
        if m.kind == WASTE_TO_FOUNDATION and m.target != -1:
            return f"\n  {m!r}: a move to a foundation has target -1 (the program finds the foundation)"
    return ""


def _not_tuples(got: Position, call: str) -> Verdict | None:
    """A refusal naming the first pile of ``got`` that is not a tuple (a list, say), or None when all are.

    >>> from solitaire import KLONDIKE, deal
    >>> p = deal(KLONDIKE, 1)
    >>> _not_tuples(p._replace(columns=list(p.columns)), "move_build(p, m)").message
    "move_build(p, m) returned a position whose columns are a list: a position's piles must be tuples, which cannot change (tuple(l) makes a tuple of the list l)"
    >>> _not_tuples(p, "draw(p)") is None
    True
    """
    parts = [("stock", got.stock), ("waste", got.waste), ("foundations", got.foundations),
             ("columns", got.columns), ("hidden counts", got.hidden)]
    for name, piles in (("foundation", got.foundations), ("column", got.columns)):
        if isinstance(piles, (tuple, list)):
            parts += [(f"{name} {i + 1}", pile) for i, pile in enumerate(piles)]
    for name, part in parts:
        if not isinstance(part, tuple):
            verb = "are" if name.endswith("s") else "is"
            return Verdict(False, f"{call} returned a position whose {name} {verb} a {type(part).__name__}: a "
                                  "position's piles must be tuples, which cannot change (tuple(l) makes a tuple of the "
                                  "list l)")
    return None


@register("02c.draw", "Write draw(p): the position after a draw (the variant's `draw` cards, or what the stock "
                      "has left, turned over one by one onto the waste).",
          pieces=(_draw, apply, "solitaire.engine.Engine.apply"))
def _draw_check(fn: Any) -> Verdict:
    positions = [p for v in (KLONDIKE, SOLIJOY, ITALIAN, KLONDIKE_DRAW_3, THREE_PASSES_DRAW_3)
                 for p in playout_positions(v, "stock")]
    wanted = [_draw(p, Move(DRAW)) for p in positions]
    answers = run_student(fn, [(p,) for p in positions])
    for p, got, want in zip(positions, answers, wanted):
        if not isinstance(got, Position):
            raise NotAnswered(f"draw(p) should return a Position (p._replace(...) makes one), got "
                              f"{type(got).__name__} {described(got)}")
        if _not_tuples(got, "draw(p)"):
            return _not_tuples(got, "draw(p)")
        if got != want:
            diff = [f for f in Position._fields if getattr(got, f) != getattr(want, f)]
            said = "\n".join(f"  {f}: yours is {_short(getattr(got, f))}, the rules make {_short(getattr(want, f))}"
                             for f in diff)
            return _differ(p, f"  draw(p) differs from the position after a draw (draw {p.variant.draw}, "
                              f"{len(p.stock)} cards in the stock):\n{said}")
    return Verdict(True, f"draw agrees with the rules on all {len(positions)} positions (random playouts of hidden "
                         "deals of Klondike, SoliJoy, the Italian game and two Klondikes drawing three).")


@register("02c.build", "Write move_build(p, m): the position after m, a move of m.count cards from column m.source "
                       "onto column m.target (in a variant with auto_flip, a face-down card left on top is turned up).",
          pieces=(_move_cards, apply, "solitaire.engine.Engine.apply",
                  "solitaire.lessons.lesson02b.forgets_auto_flip"))  # lesson 02d's wrong piece: no answer's part
def _build_check(fn: Any) -> Verdict:
    calls = [(p, m) for v in (KLONDIKE, SOLIJOY, ITALIAN, CARDS_COME_BACK) for p in playout_positions(v)
             for m in legal_moves(p) if m.kind == COLUMN_TO_COLUMN]
    wanted = [_move_cards(p, m) for p, m in calls]
    answers = run_student(fn, calls)
    for (p, m), got, want in zip(calls, answers, wanted):
        if not isinstance(got, Position):
            raise NotAnswered(f"move_build(p, m) should return a Position (p._replace(...) makes one), got "
                              f"{type(got).__name__} {described(got)}")
        if _not_tuples(got, "move_build(p, m)"):
            return _not_tuples(got, "move_build(p, m)")
        if got != want:
            return _differ(p, f"  move_build(p, {m!r}), the move {m}, {what_differs(got, want)}")
    return Verdict(True, f"move_build agrees with the rules on all {len(calls)} moves (random playouts of hidden "
                         "deals of Klondike, SoliJoy, the Italian game and a Klondike whose cards come back).")


def _short(value: Any) -> Any:
    """Piles as text (bottom first), other fields as they are."""
    if isinstance(value, tuple) and all(isinstance(x, Card) for x in value):
        return " ".join(map(str, value)) or "(empty)"
    if isinstance(value, tuple) and value and all(isinstance(x, tuple) for x in value):
        return tuple(_short(x) for x in value)
    return value


def forgets_auto_flip(p: Position, m: Move) -> Position:
    """A wrong ``move_build``, the first version many write: it moves the top ``m.count`` cards of column
    ``m.source`` onto column ``m.target`` and never turns up the face-down card left on top where the variant has
    ``auto_flip``. Lesson 02d runs a search on it.

    >>> from solitaire import ITALIAN, deal
    >>> p = deal(ITALIAN, 0)
    >>> m = Move(COLUMN_TO_COLUMN, 2, 0, 1)  # t3>t1: the 8♣ onto the 9♦, leaving two face-down cards
    >>> forgets_auto_flip(p, m).hidden[2], apply(p, m).hidden[2]
    (2, 1)
    """
    columns = list(p.columns)
    columns[m.target] += columns[m.source][-m.count:]
    columns[m.source] = columns[m.source][:-m.count]
    return p._replace(columns=tuple(columns))
