"""Helpers that turn a comparison into a sentence: numbers to the precision the student wrote them, sets of moves or
names without handing out the missing ones, a value as a message shows it, a played game replayed.

Every checker (``solitaire.lessons.lessonNN``) judges with these, in the practice ``check`` and in a graded check
alike: they compare values and never run the student's code.
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any

from ..cards import Card, InvalidCardError, parse_card, quote
from ..game import Game
from ..moves import Move
from ..state import Position
from .verdicts import NotAnswered, Verdict


def _short(x: Any, most: int = 80) -> str:
    """``repr(x)``, cut to ``most`` characters: a message echoes the answer without burying the sentence.

    >>> _short("x" * 100, 10)
    "'xxxxxxxx…"
    """
    text = repr(x)
    return text if len(text) <= most else text[:most - 1] + "…"


def needs_function(answer: Any, call: str, why: str) -> None:
    """Refuse a value where a function is asked for: NotAnswered naming the function, and ``why`` one value
    cannot answer (a function exercise is tried on hidden inputs).

    >>> needs_function(6000, "f(width)", "a number answers one width only")
    Traceback (most recent call last):
    ...
    solitaire.lessons.verdicts.NotAnswered: expected the function f(width), got int 6000: a number answers one width only
    """
    if not callable(answer):
        raise NotAnswered(f"expected the function {call}, got {type(answer).__name__} {answer!r}: {why}")


def described(x: Any) -> str:
    """A value as a message shows it: a position (or a game's) as its text diagram, never its long repr;
    anything else as its repr, cut to a readable length.

    >>> described(3), described("x" * 200)[:12]
    ('3', "'xxxxxxxxxxx")
    """
    from ..render import text_diagram
    if isinstance(x, Game):
        x = x.position
    if isinstance(x, Position):
        return f"this {x.variant.name} position:\n{text_diagram(x)}"
    return quote(x, 100)


def no_return(fn: Callable, got: Any) -> Verdict | None:
    """A refusal when a student's function gave None (a missing ``return``), else None."""
    if got is None:
        return Verdict(False, f"{getattr(fn, '__name__', 'your function')} returned None: does it end with "
                              "`return` and the answer?")
    return None


def as_number(answer: Any) -> float | None:
    """``answer`` as a float when it is one real number of any type (int, float, Fraction, Decimal, a numpy or
    pandas scalar such as ``Series.sum()`` gives, a 0-d array), else None. True and False are not numbers here.

    >>> as_number(3), as_number(2.5), as_number("3"), as_number(True)
    (3.0, 2.5, None, None)
    """
    dtype_kind = getattr(getattr(answer, "dtype", None), "kind", None)
    if isinstance(answer, bool) or dtype_kind == "b":
        return None
    if getattr(answer, "shape", None) == () and dtype_kind in ("i", "u", "f") and hasattr(answer, "item"):
        answer = answer.item()  # a 0-d numpy array, or a numpy scalar: its plain Python number
    if isinstance(answer, (numbers.Real, Decimal)) and not isinstance(answer, bool):
        return float(answer)
    return None


def finite_number(answer: Any, expected: str) -> float:
    """``answer`` as a finite float (any numeric type), or NotAnswered saying what was ``expected``."""
    x = as_number(answer)
    if x is None or not math.isfinite(x):
        raise NotAnswered(f"expected {expected}, got {quote(answer)}")
    return x


def written_places(x: float) -> int:
    """How many decimals a number was written with (its shortest repr): 0.13 -> 2, 17 -> 0, 0.1297... -> 16.

    >>> written_places(0.13), written_places(17.0), written_places(2.5e-05)
    (2, 0, 6)
    """
    text = repr(float(x)).lower()
    mantissa, _, exponent = text.partition("e")
    decimals = len(mantissa.split(".")[1].rstrip("0")) if "." in mantissa else 0
    return max(0, decimals - int(exponent or 0))


def agrees(x: float, expected: float, places: int | None = None) -> bool:
    """The checks' one rule for numbers: ``x`` is right when it is ``expected`` written to the precision the
    student chose, with at least two significant digits. 0.13 is right for a p-value of 0.1297 (the lessons
    print "p ≈ 0.13"), and so is 0.130 or the unrounded value; 0.1 is too coarse (one significant digit),
    and 0.12 is wrong. A count is right only when exact.

    >>> agrees(0.13, 0.12966), agrees(0.1297, 0.12966), agrees(0.1, 0.12966), agrees(0.12, 0.12966)
    (True, True, False, False)
    >>> agrees(17, 17), agrees(18, 17), agrees(0.41234567891, 0.4123456789123)
    (True, False, True)

    ``places`` gives the precision the student chose for a whole answer (a function that rounds every value it
    returns to 3 decimals): each value is then right within half a unit of that place, small ones included, and
    the caller decides how coarse a precision it accepts.

    >>> agrees(0.001, 0.00064, places=3), agrees(0.002, 0.00064, places=3)
    (True, False)
    """
    if x == expected:
        return True
    if places is None:
        places = written_places(x)
        if expected != 0 and abs(expected) < 10 ** (1 - places):   # fewer than two significant digits written
            return False
    return abs(x - expected) <= 0.5 * 10 ** -places + 1e-9 * max(1.0, abs(expected))


SHOWN_PLACES = 4  # the decimals a check's message shows a number with


def agrees_as_shown(x: float, expected: float, places: int | None = None, shown: int = SHOWN_PLACES) -> bool:
    """``agrees``, or equal to the precision a message shows (``shown`` decimals): a value that the message would
    print exactly as the expected one is right. SciPy's Wilson interval with the exact z (1.95996...) differs
    from z = 1.96 in the fifth decimal, so it is right, where ``agrees`` at full precision refuses it.

    >>> agrees(0.08726, 0.08724, places=16), agrees_as_shown(0.08726, 0.08724, places=16)
    (False, True)
    >>> agrees_as_shown(0.0874, 0.0872, places=16)
    False
    """
    return agrees(x, expected, places) or abs(x - expected) <= 0.5 * 10 ** -shown


def shown_apart(x: float, expected: float, least: int = SHOWN_PLACES) -> tuple[str, str]:
    """``x`` and ``expected`` written with the fewest decimals (``least`` at least) that tell them apart, so a
    refusal never shows two identical numbers.

    >>> shown_apart(0.123456, 0.123459), shown_apart(0.5, 0.25)
    (('0.123456', '0.123459'), ('0.5000', '0.2500'))
    """
    for places in range(least, 17):
        a, b = f"{x:.{places}f}", f"{expected:.{places}f}"
        if a != b:
            return a, b
    return repr(x), repr(expected)


def number_verdict(answer: Any, expected: float, what: str, tolerance: float = 0.0, as_shown: bool = False) -> Verdict:
    """Compare a number of any numeric type with ``expected``: right, too high, too low, or not a number. With
    ``as_shown``, a number equal to ``expected`` to the decimals a message shows is right (``agrees_as_shown``)."""
    x = as_number(answer)
    if x is None:
        quoted = " (write it without quotes)" if isinstance(answer, str) and _float_or_none(answer) is not None else ""
        return Verdict(False, f"{what} should be a number, but your answer is {type(answer).__name__} "
                              f"{answer!r}{quoted}.")
    if math.isnan(x):
        return Verdict(False, f"{what} should be a number, but your answer is NaN (not a number): did a division "
                              "by zero or an empty selection produce it?")
    same = agrees_as_shown(x, expected) if as_shown else agrees(x, expected)
    if same or (tolerance and math.isclose(x, expected, abs_tol=tolerance)):
        return Verdict(True, f"{what} is {expected}.")
    direction = "too high" if x > expected else "too low"
    written = answer if type(answer) in (int, float, str) else x  # 0.59, not np.float64(0.59)
    if too_coarse(x, expected):
        places = written_places(x)
        return Verdict(False, f"{what}: your answer {written!r} is the right value rounded to {places} "
                              f"decimal{'s' * (places != 1)}, too coarse: give at least two significant digits.")
    return Verdict(False, f"{what}: your answer {written!r} is {direction}.")


def too_coarse(x: float, expected: float) -> bool:
    """True when ``x`` is ``expected`` rounded to fewer than two significant digits (0.5 for 0.490), which
    ``agrees`` refuses.

    >>> too_coarse(0.5, 0.490), too_coarse(0.49, 0.490), too_coarse(0.4, 0.490), too_coarse(17, 16.6)
    (True, False, False, False)
    """
    return x != round(x) and not agrees(x, expected) and agrees(x, expected, places=written_places(x))


def _float_or_none(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def as_card(x: Any) -> Card:
    if isinstance(x, Card):
        return x
    if isinstance(x, str):
        return parse_card(x)
    raise InvalidCardError(f"{x!r} is not a card: give a Card or text such as '10♥'")


def texts(items: Any, what: str) -> list[str]:
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise NotAnswered(f"expected a list of {what}, got {type(items).__name__} {items!r}")
    return [str(x) for x in items]


def same_set(answer: Iterable[str], expected: Iterable[str], what: str, hint: str = "") -> Verdict:
    """Compare two sets without handing out the answer: wrong items are the student's own and may be named,
    missing ones are only counted (``hint`` says where to look for them). An item listed twice is refused:
    a list of all the moves counts each move once."""
    answer = list(answer)
    twice = sorted({x for x in answer if answer.count(x) > 1})
    if twice:
        return Verdict(False, f"your answer lists {', '.join(twice)} more than once: each of the {what} counts "
                              "once.")
    got, want = set(answer), set(expected)
    if got == want:
        return Verdict(True, f"those are all {len(want)} {what}.")
    parts = []
    if got - want:
        parts.append(f"not {what}: {', '.join(sorted(got - want))}")
    if want - got:
        parts.append(f"{len(want - got)} more {'is' if len(want - got) == 1 else 'are'} missing")
    right = len(got & want)
    return Verdict(False, f"{right} of your {len(got)} are right, but {'; '.join(parts)}." + (f" {hint}" if hint else ""))


def replay_game(game: Any, what: str, start: Position, deal_name: str) -> Game:
    """Check that ``game`` is a Game (or a card table playing one) that starts from ``start`` (the deal the
    exercise asks for) and whose moves replay legally from there; return the replay."""
    if not isinstance(game, Game) and isinstance(getattr(game, "game", None), Game):
        game = game.game  # a card table (lesson 01a): the game played on it
    if not isinstance(game, Game):
        moves = getattr(game, "moves", game)  # the solver's result, or a list of moves
        if isinstance(moves, (list, tuple)) and moves and all(isinstance(m, (Move, str)) for m in moves):
            count = f"{len(moves)} move{'s' * (len(moves) != 1)}"
            raise NotAnswered(f"that is a list of {count}, not a game: play them on a Game (game.play_all(moves)) "
                              "and pass the game")
        raise NotAnswered(f"expected the Game you played ({what}), got {type(game).__name__} {_short(game)}")
    if game.start != start:
        raise NotAnswered(f"your game does not start from {deal_name}: start a new game from that deal and play "
                          "your moves on it")
    replay = Game.from_position(game.start)
    for i, m in enumerate(game.moves, 1):
        reason = replay.explain(m)
        if reason:
            raise NotAnswered(f"move {i} ({m}) is not legal when replayed: {reason}")
        replay.play(m)
    return replay
