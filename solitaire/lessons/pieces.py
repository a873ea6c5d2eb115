"""What the checks of lessons 02–02d share: hidden positions to try a student's piece of the engine on, running
it with the kit's own piece switched off, and a playout that finds the first move where an engine on the
student's piece parts from the kit's rules (the move the card table would get wrong).
"""
from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any, Callable

from ..engine import Engine, what_differs
from ..moves import Move, apply, legal_moves
from ..render import text_diagram
from ..state import Position, deal
from ..variants import ITALIAN, KLONDIKE, SOLIJOY, Variant
from .checks import GRADED, NotAnswered, exercise, student_running
from .hidden import hidden_rng, hidden_seeds

KLONDIKE_DRAW_3 = Variant("Klondike draw 3", draw=3)
ONE_PASS = Variant("Klondike, one pass", passes=1)
THREE_PASSES_DRAW_3 = Variant("Klondike draw 3, three passes", draw=3, passes=3)
CARDS_COME_BACK = Variant("Klondike, cards come back", foundation_to_tableau=True)
CHECKED_VARIANTS = (KLONDIKE, SOLIJOY, ITALIAN, KLONDIKE_DRAW_3, ONE_PASS, THREE_PASSES_DRAW_3)
HIDDEN_SEEDS = 7_000_000  # the practice checks' playouts start at this deal (a graded check's, at a secret one)
POSITIONS_PER_VARIANT = 400


def register(name: str, question: str, pieces: tuple, shows: Any = None) -> Callable:
    """``exercise(name, question, pieces=pieces, shows=shows)``: while the student's function runs, ``pieces``
    (the kit's own version and what reaches it) are switched off; ``shows`` is printed once the answer is right."""
    return exercise(name, question, pieces=pieces, shows=shows)


@lru_cache(maxsize=32)
def playout_positions(variant: Variant, wanted: str = "", n: int = POSITIONS_PER_VARIANT) -> tuple[Position, ...]:
    """``n`` positions of ``variant`` met in seeded random playouts of hidden deals (moves picked by
    ``random.Random(seed)``, at most 80 moves a deal), keeping those with cards in the pile ``wanted``
    ("waste", "stock", or "" for any). The same positions on every run and every machine; in a graded check,
    ``n`` positions of secret deals first (``solitaire.lessons.hidden``).

    >>> len(playout_positions(KLONDIKE, "waste", 5)), all(p.waste for p in playout_positions(KLONDIKE, "waste", 5))
    (5, True)
    """
    found: list[Position] = []
    for first in hidden_seeds([HIDDEN_SEEDS], HIDDEN_SEEDS):  # in a graded check, secret deals first
        mine: list[Position] = []
        seed = first
        while len(mine) < n:
            p, rng = deal(variant, seed), random.Random(seed) if first == HIDDEN_SEEDS else hidden_rng(seed)
            for _ in range(80):
                if not wanted or getattr(p, wanted):
                    mine.append(p)
                moves = legal_moves(p)
                if not moves or len(mine) >= n:
                    break
                p = apply(p, rng.choice(moves))
            seed += 1
        found += mine[:n]
    return tuple(found)


def run_student(fn: Any, calls: list[tuple]) -> list[Any]:
    """The student's ``fn`` called on each argument tuple in ``calls``, with the exercise's kit pieces switched
    off. A call that raises stops the run with NotAnswered naming the position it was called on. In a graded check
    the calls go to the answer's process in one message (``remote.Remote.map``).

    >>> run_student(len, [((1, 2),), ("abc",)])
    [2, 3]
    """
    if not callable(fn):
        raise NotAnswered(f"expected a function (its name, without brackets), got {type(fn).__name__} {fn!r}")
    results, failed = [], None
    with student_running():
        if callable(getattr(fn, "map", None)) and GRADED:
            results, failure = fn.map(list(calls))
            if failure is not None:
                from .remote import remote_error
                failed = (calls[len(results)][0], remote_error(failure))
                if isinstance(failed[1], NotImplementedError):
                    raise NotAnswered(f"the function {getattr(fn, '__name__', 'you wrote')} still has no body")
                if type(failed[1]).__name__ == "KitSwitchedOff":
                    raise failed[1]
        else:
            for args in calls:
                try:
                    results.append(fn(*args))
                except NotImplementedError:
                    raise NotAnswered(f"the function {getattr(fn, '__name__', 'you wrote')} still has no body") \
                        from None
                except Exception as e:  # noqa: BLE001 - the student's code may raise anything
                    failed = (args[0], e)
                    break
    if failed:
        p, e = failed
        shown = f"on this {p.variant.name} position:\n{text_diagram(p)}" if hasattr(p, "variant") and hasattr(
            p, "columns") else f"on {p!r}"
        raise NotAnswered(f"calling it raised {type(e).__name__}: {e}\n  {shown}")
    return results


def missing_and_extra(got: list[Move], want: list[Move]) -> str:
    """Which moves the kit lists and the student's answer does not, and the other way round."""
    missing, extra = Counter(want) - Counter(got), Counter(got) - Counter(want)
    said = [f"  missing: {', '.join(str(m) for m in missing)}"] if missing else []
    said += [f"  not legal here, or listed too often: {', '.join(str(m) for m in extra.elements())}"] if extra else []
    return "\n".join(said)


def as_moves(got: Any, call: str) -> list[Move]:
    """``got`` as a list of Moves, or NotAnswered saying what it is instead."""
    if isinstance(got, (str, bytes, Move)) or not hasattr(got, "__iter__"):
        raise NotAnswered(f"{call} should return a list of Move values, got {type(got).__name__} {got!r}")
    moves = list(got)
    wrong = [m for m in moves if not isinstance(m, Move)]
    if wrong:
        raise NotAnswered(f"{call} returned {wrong[0]!r}, which is not a Move: make one with Move(kind, source, "
                          "target, count), e.g. Move(DRAW)")
    return moves


def first_wrong_move(engine: Engine, variant: Variant = KLONDIKE, seeds: range = range(100), moves: int = 200,
                     seed: int = 2026) -> str:
    """Random playouts on ``engine`` (moves picked by ``random.Random(seed)``) until a position where its moves
    are not the kit's: what a card table on the engine would get wrong there, in a sentence. If a piece given
    to the engine is still a lesson's stub, the sentence says so (``not_written``) instead: the engine would be
    playing the kit's piece in its place, and nothing it did would be the student's.

    >>> from solitaire.engine import use
    >>> print(first_wrong_move(use(), seeds=range(3)))
    in 3 deals of Klondike (up to 200 random moves each) the engine always lists the kit's moves and makes its positions
    >>> def fits_klondike(card, under, variant):
    ...     raise NotImplementedError
    >>> print(first_wrong_move(use(fits=fits_klondike), ITALIAN))
    fits_klondike is not written yet: write it, run its cell, then run this one again
    """
    rng = random.Random(seed)
    for s in seeds:
        p = deal(variant, s)
        for n in range(moves):
            theirs, kit = engine.legal_moves(p), legal_moves(p)
            if engine.unwritten:
                return not_written(engine)
            if Counter(theirs) != Counter(kit):
                extra = [str(m) for m in theirs if m not in kit]
                missing = [str(m) for m in kit if m not in theirs]
                said = f"deal {s} of {variant.name}, after {n} random moves: "
                return said + "; ".join(([f"it offers {', '.join(extra)}, which the rules refuse"] if extra else [])
                                        + ([f"it leaves out {', '.join(missing)}"] if missing else []))
            if not theirs:
                break
            m = rng.choice(theirs)
            q = engine.apply(p, m)
            if engine.unwritten:
                return not_written(engine)
            kit_q = apply(p, m)
            if q != kit_q:
                return f"deal {s} of {variant.name}, after {n} random moves: {m} " + what_differs(q, kit_q)
            p = q
    return (f"in {len(seeds)} deals of {variant.name} (up to {moves} random moves each) the engine always lists "
            "the kit's moves and makes its positions")


def not_written(engine: Engine) -> str:
    """A sentence naming the pieces given to ``engine`` that are still a lesson's stub (they raised
    NotImplementedError when the engine called them, so it played the kit's own piece in their place), or ""
    when it has met none. Say it instead of what the engine did: that was the kit's work, not the student's.

    >>> from solitaire import KLONDIKE, deal
    >>> from solitaire.engine import use
    >>> def stock_moves(p):
    ...     raise NotImplementedError
    >>> engine = use(stock_moves=stock_moves)
    >>> not_written(engine)
    ''
    >>> _ = engine.legal_moves(deal(KLONDIKE, 1))
    >>> not_written(engine)
    'stock_moves is not written yet: write it, run its cell, then run this one again'
    """
    names = [getattr(engine.pieces[piece], "__name__", piece) for piece in sorted(engine.unwritten)]
    if not names:
        return ""
    return (f"{' and '.join(names)} {'is' if len(names) == 1 else 'are'} not written yet: write "
            f"{'it' if len(names) == 1 else 'them'}, run {'its cell' if len(names) == 1 else 'their cells'}, then "
            "run this one again")


def try_it(fn: Any, *args: Any) -> Any:
    """``fn(*args)``, or a line saying it is not written yet (a lesson's stub raises NotImplementedError), so a
    cell that tries a student's function runs in a student's copy too.

    >>> def unwritten(v):
    ...     raise NotImplementedError
    >>> try_it(unwritten, KLONDIKE)
    unwritten is not written yet: write it in the cell above
    """
    try:
        return fn(*args)
    except NotImplementedError:
        print(f"{getattr(fn, '__name__', 'the function')} is not written yet: write it in the cell above")
        return None


def yours_or_kits(fn: Callable, kit: Callable) -> Callable:
    """``fn``, or ``kit`` in its place while ``fn`` is a lesson's stub (it raises NotImplementedError; said once),
    so the cells that run a student's function run in a student's copy too, as a card table does (engine.py).

    >>> def unwritten(x):
    ...     raise NotImplementedError
    >>> f = yours_or_kits(unwritten, abs)
    >>> f(-2), f(-3)
    unwritten is not written yet: until it is, the kit's abs runs in its place
    (2, 3)
    """
    stub = []

    def run(*args: Any) -> Any:
        if not stub:
            try:
                return fn(*args)
            except NotImplementedError:
                stub.append(True)
                print(f"{getattr(fn, '__name__', 'your function')} is not written yet: until it is, the kit's "
                      f"{getattr(kit, '__name__', 'version')} runs in its place")
        return kit(*args)
    run.__name__ = getattr(fn, "__name__", "yours")
    return run
