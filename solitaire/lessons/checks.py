"""The checking machinery of the lessons' "your turn" exercises: a registry, ``check`` and helpers.

``check("01.red_cards", answer)`` prints what is right or what is off and returns True or False.
It never raises: a wrong type, an unfinished stub (``...``) or a function that crashes all get a
plain-English message instead of a traceback. Expected answers are computed from the kit itself,
so they follow the rules as the code implements them.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from ..cards import Card, InvalidCardError, parse_card
from ..game import Game
from ..state import Position


class Verdict(NamedTuple):
    """A checker's answer: right or not, and what to tell the student."""

    ok: bool
    message: str


class NotAnswered(Exception):
    """The student has not written an answer yet."""


Checker = Callable[[Any], Verdict]
EXERCISES: dict[str, tuple[str, Checker]] = {}


def exercise(name: str, question: str) -> Callable[[Checker], Checker]:
    """Register a checker under ``name`` (``"<lesson>.<topic>"``)."""
    def register(fn: Checker) -> Checker:
        EXERCISES[name] = (question, fn)
        return fn
    return register


def check(name: str, answer: Any = ..., *, quiet: bool = False) -> bool:
    """Check the answer to exercise ``name``; print friendly feedback and return True if it is right."""
    if name not in EXERCISES:
        return _say(False, f"There is no exercise called {name!r}. The exercises are: {', '.join(EXERCISES)}.",
                    quiet)
    question, checker = EXERCISES[name]
    if _unfinished(answer):
        return _say(False, f"Not answered yet: replace the `...` (or `# your code here`) with your answer.\n"
                           f"  The question: {question}", quiet)
    try:
        ok, message = checker(answer)
    except NotAnswered as e:
        ok, message = False, f"Not finished yet: {e}"
    except Exception as e:  # a student's function may raise anything: report it, never dump a traceback
        ok, message = False, f"Your answer raised {type(e).__name__}: {e}"
    return _say(ok, message, quiet)


def question(name: str) -> str:
    """The question of an exercise, as the checker understands it."""
    return EXERCISES[name][0] if name in EXERCISES else f"there is no exercise called {name!r}"


def show_source(obj: Any, start: str | None = None, stop: str | None = None) -> None:
    """Print the source of a kit function or class, or only its lines from the first containing ``start``
    through the next containing ``stop``, so a lesson can quote a rule straight from the code."""
    import inspect
    import textwrap
    lines = textwrap.dedent(inspect.getsource(obj)).splitlines()
    first = next((i for i, line in enumerate(lines) if start in line), None) if start else 0
    if first is None:
        print(f"(no line of {getattr(obj, '__qualname__', obj)} contains {start!r})")
        return
    last = next((i for i in range(first + 1, len(lines)) if stop in lines[i]), len(lines) - 1) if stop else len(lines) - 1
    print(textwrap.dedent("\n".join(lines[first:last + 1])))


def _say(ok: bool, message: str, quiet: bool) -> bool:
    if not quiet:
        print(("✔ Right: " if ok else "✘ Not yet: ") + message)
    return ok


def _unfinished(answer: Any) -> bool:
    return answer is ... or answer is NotImplemented


# --- helpers that turn comparisons into sentences ----------------------------------------------

def call_student(fn: Callable, *args: Any) -> Any:
    """Call a student's function; a NotImplementedError means it is a stub."""
    if not callable(fn):
        raise NotAnswered(f"expected a function, got {type(fn).__name__} {fn!r}")
    try:
        return fn(*args)
    except NotImplementedError:
        raise NotAnswered(f"the function {getattr(fn, '__name__', 'you wrote')} still has no body") from None
    except Exception as e:
        shown = ", ".join(map(repr, args))
        raise NotAnswered(f"calling it with ({shown}) raised {type(e).__name__}: {e}") from None


def number_verdict(answer: Any, expected: float, what: str, tolerance: float = 0.0) -> Verdict:
    if isinstance(answer, bool) or not isinstance(answer, (int, float)):
        return Verdict(False, f"{what} should be a number, but your answer is {type(answer).__name__} {answer!r}.")
    if math.isclose(answer, expected, abs_tol=tolerance) or answer == expected:
        return Verdict(True, f"{what} is {expected}.")
    direction = "too high" if answer > expected else "too low"
    return Verdict(False, f"{what}: your answer {answer!r} is {direction}.")


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
    missing ones are only counted (``hint`` says where to look for them)."""
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
    """Check that ``game`` is a Game that starts from ``start`` (the deal the exercise asks for) and whose
    moves replay legally from there; return the replay."""
    if not isinstance(game, Game):
        raise NotAnswered(f"expected the Game you played ({what}), got {type(game).__name__} {game!r}")
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
