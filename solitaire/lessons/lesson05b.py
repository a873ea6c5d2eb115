"""The check of lesson 05b's exercise (a tournament entrant written in a cell), registered with
``solitaire.lessons.check``.

The student's ``choose(obs, moves)`` is asked at positions of hidden deals (seeded random playouts that no
lesson shows), in three games, and each answer must follow the exercise's rules; greedy's own choice is switched
off while it runs, so an entrant that asks greedy fails. The entrant then plays in the lesson's tournament as
any other.
"""
from __future__ import annotations

from typing import Any

from ..moves import (COLUMN_TO_COLUMN, COLUMN_TO_FOUNDATION, DRAW, FLIP, RECYCLE, WASTE_TO_COLUMN,
                     WASTE_TO_FOUNDATION, Move, legal_moves)
from ..render import text_diagram
from ..state import Observation, observe
from ..variants import ITALIAN, KLONDIKE, SOLIJOY
from .checks import NotAnswered, Verdict, exercise, student_running
from .lesson05 import GREEDY
from .pieces import playout_positions

RULES = ("turn a face-down card up (a flip)",
         "a card to a foundation (t>f or w>f)",
         "a column's whole face-up build onto another column, when face-down cards lie under it",
         "the waste's card to a column (w>t)",
         "draw or recycle",
         "any move")
POSITIONS = 150  # positions of each game the entrant is asked at


def _uncovers(obs: Observation, m: Move) -> bool:
    """Does ``m`` move a column's whole face-up build and leave a face-down card on top (rule 3)?

    >>> from solitaire import deal
    >>> obs = observe(deal(KLONDIKE, 1))
    >>> _uncovers(obs, Move(COLUMN_TO_COLUMN, 6, 0)), _uncovers(obs, Move(COLUMN_TO_COLUMN, 0, 6))
    (True, False)
    """
    return (m.kind == COLUMN_TO_COLUMN and m.count == len(obs.columns[m.source])
            and obs.hidden[m.source] > 0)


def _rule_of(obs: Observation, m: Move) -> int:
    """The number (1-6) of the first rule of ``RULES`` that ``m`` matches: a flip, a card to a foundation, a
    build that uncovers a face-down card, the waste's card to a column, the stock, anything else."""
    tests = (m.kind == FLIP, m.kind in (COLUMN_TO_FOUNDATION, WASTE_TO_FOUNDATION), _uncovers(obs, m),
             m.kind == WASTE_TO_COLUMN, m.kind in (DRAW, RECYCLE))
    for number, matches in enumerate(tests, 1):
        if matches:
            return number
    return 6


def _rules_choice(obs: Observation, moves: list[Move]) -> Move:
    """The entrant the exercise asks for: the first of ``moves`` that matches the best rule any of them matches.

    >>> from solitaire import deal
    >>> p = deal(KLONDIKE, 1)
    >>> legal_moves(p), _rules_choice(observe(p), legal_moves(p))  # t1>t7 uncovers nothing: rule 5 comes first
    ([Move('t>t', 0, 6), Move('draw')], Move('draw'))
    """
    best = min(_rule_of(obs, m) for m in moves)
    return next(m for m in moves if _rule_of(obs, m) == best)


def _as_move(choice: Any, moves: list[Move]) -> Move | None:
    """The student's answer as one of ``moves`` (a move, or its text), or None if it is neither."""
    for m in moves:
        if choice == m or (isinstance(choice, str) and choice == str(m)):
            return m
    return None


def _ask(fn: Any, p: Any, moves: list[Move]) -> Any:
    """The student's answer at ``p``, with greedy and the exercise's own rules switched off while it runs."""
    with student_running():
        try:
            return fn(observe(p), list(moves))
        except NotImplementedError:
            raise NotAnswered(f"{getattr(fn, '__name__', 'your function')} still has no body") from None
        except Exception as e:  # noqa: BLE001 - the student's code may raise anything
            if type(e).__name__ == "KitSwitchedOff":
                raise
            return _Raised(f"{type(e).__name__}: {e}")


class _Raised(str):
    """What an answer raised, kept as the answer so that the refusal can show the position."""


def _asked(fn: Any) -> tuple[int, Any]:
    """Ask ``fn`` at every hidden position; return how many answers followed the rules, and the first one that
    did not (None when all did), as (position, moves, answer)."""
    asked = 0
    for variant in (KLONDIKE, SOLIJOY, ITALIAN):
        for p in playout_positions(variant, "", POSITIONS):
            moves = legal_moves(p)
            if not moves:
                continue
            choice = _ask(fn, p, moves)
            move = _as_move(choice, moves)
            if move is None or _rule_of(observe(p), move) != min(_rule_of(observe(p), m) for m in moves):
                return asked, (p, moves, choice)
            asked += 1
    return asked, None


@exercise("05b.entrant", "Write an entrant choose(obs, moves) that plays the first rule that any move matches: "
                         + "; then ".join(f"{i}. {rule}" for i, rule in enumerate(RULES, 1))
                         + ". It is asked at positions of Klondike, SoliJoy and the Italian game the lesson never shows.",
          pieces=(_rules_choice, _uncovers, _rule_of, *GREEDY),
          shows=("solitaire.lessons.lesson05b", "def _uncovers", "return 6"))
def _entrant(answer: Any) -> Verdict:
    """Asks the entrant at hidden positions; each answer must be one of the moves, matching the best rule any
    move matches (among moves of that rule, any one is right)."""
    fn = getattr(answer, "choose", answer)
    if not callable(fn):
        raise NotAnswered(f"expected a function choose(obs, moves) (its name, without brackets), got "
                          f"{type(answer).__name__} {answer!r}")
    asked, wrong = _asked(fn)
    if wrong is None:
        return Verdict(True, f"at all {asked} positions of three games, your entrant chose as the rules say.")
    p, moves, choice = wrong
    obs = observe(p)
    best = min(_rule_of(obs, m) for m in moves)
    right = [str(m) for m in moves if _rule_of(obs, m) == best]
    if isinstance(choice, _Raised):
        return Verdict(False, f"after {asked} right answers, your entrant raised {choice}\n  on this "
                              f"{p.variant.name} position, with moves {', '.join(map(str, moves))}:\n{text_diagram(p)}")
    if _as_move(choice, moves) is None:
        said = f"it answered {choice!r}, which is not one of the moves offered"
    else:
        said = f"it chose {choice}, which only rule {_rule_of(obs, _as_move(choice, moves))} allows"
    return Verdict(False, f"after {asked} right answers, on this {p.variant.name} position the moves are "
                          f"{', '.join(map(str, moves))}:\n{text_diagram(p)}\n  {said}, but rule {best} "
                          f"({RULES[best - 1]}) comes first: {', '.join(right)}.")
