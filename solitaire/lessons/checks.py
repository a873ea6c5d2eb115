"""The checking machinery of the lessons' "your turn" exercises: a registry, ``check`` and helpers.

``check("01.red_cards", answer)`` prints what is right or what is off and returns True or False.
It never raises: a wrong type, an unfinished stub (``...``) or a function that crashes all get a
plain-English message instead of a traceback. Expected answers are computed from the kit itself,
so they follow the rules as the code implements them.
"""
from __future__ import annotations

import contextlib
import math
import numbers
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from decimal import Decimal
from typing import Any, NamedTuple

from ..cards import Card, InvalidCardError, parse_card, quote
from ..game import Game
from ..moves import Move
from ..state import Position
from .guard import KitSwitch, KitSwitchedOff, copy_of, hidden_inputs, kit_off, resolve, source_of  # noqa: F401  (the checks' machinery)


class Verdict(NamedTuple):
    """A checker's answer: right or not, and what to tell the student."""

    ok: bool
    message: str


class NotAnswered(Exception):
    """The student has not written an answer yet."""


class KitCalled(NotAnswered):
    """The student's answer called a kit piece that the exercise asks them to write (switched off meanwhile)."""


class TookTooLong(BaseException):
    """A check ran past ``TIME_LIMIT``. A BaseException, so that a student's ``except Exception`` cannot swallow it."""


Checker = Callable[[Any], Verdict]
EXERCISES: dict[str, tuple[str, Checker]] = {}
PIECES: dict[str, tuple[Any, ...]] = {}  # an exercise's kit pieces: switched off while the answer runs, never copied
SHOWS: dict[str, tuple[Any, str | None, str | None]] = {}  # the kit's version that check prints after a right answer
PASSED: set[str] = set()  # the exercises this kernel's student has got right (a record: it opens nothing)
TIME_LIMIT = 45.0  # seconds a check may run before the student's code is stopped: under nbgrader's CELL_TIMEOUT (60 s)
_ACTIVE: list[KitSwitch] = []  # the pieces of the exercise being checked now: call_student switches them off


def exercise(name: str, question: str, *, pieces: Iterable[Any] = (),
             shows: Any = None) -> Callable[[Checker], Checker]:
    """Register a checker under ``name`` (``"<lesson>.<topic>"``).

    ``pieces``: the kit's own functions (objects or dotted names such as ``"solitaire.stats.wilson"``) that the
    exercise asks the student to write, and anything that reaches them: while the student's answer runs they are
    switched off (``kit_off``), so a wrapper fails, and an answer whose syntax tree is theirs is named a copy.
    ``shows``: the kit's version that ``check`` prints after a right answer (an object, or ``(object, start,
    stop)`` as ``show_source`` takes them); by default the first piece.
    """
    def register(fn: Checker) -> Checker:
        EXERCISES[name] = (question, fn)
        PIECES[name] = tuple(pieces)
        shown = shows if shows is not None else (PIECES[name][0] if PIECES[name] else None)
        if shown:
            SHOWS[name] = tuple(shown) + (None,) * (3 - len(shown)) if isinstance(shown, tuple) else \
                (shown, None, None)
        return fn
    return register


def check(name: str, answer: Any = ..., *, quiet: bool = False) -> bool:
    """Check the answer to exercise ``name``; print friendly feedback and return True if it is right.
    A right answer is followed by the kit's own version of the piece (when the exercise has one)."""
    if name not in EXERCISES:
        return _say(False, f"There is no exercise called {name!r}. The exercises are: {', '.join(EXERCISES)}.",
                    quiet)
    question, checker = EXERCISES[name]
    if _unfinished(answer):
        return _say(False, f"Not answered yet: replace the `...` (or `# your code here`) with your answer.\n"
                           f"  The question: {question}", quiet)
    copied = copy_of(answer, PIECES[name]) if PIECES[name] else None
    if copied and copied.startswith("own "):
        return _say(False, f"that is the kit's {copied}, not yours: write your own.", quiet)
    if copied:
        return _say(False, f"this is a copy of the kit's {copied}: write your own (a copy, renamed or reformatted, "
                           "teaches nothing and is not graded right).", quiet)
    _ACTIVE.append(KitSwitch(PIECES[name], answer))
    try:
        with time_limit(TIME_LIMIT):
            ok, message = checker(answer)
    except TookTooLong:
        ok, message = False, (f"the check stopped your answer after {TIME_LIMIT:.0f} s without an answer: look for a "
                              "loop that never ends (a `while` whose condition never turns false, or a list that "
                              "grows while you walk it).")
    except KitCalled as e:
        ok, message = False, str(e)
    except NotAnswered as e:
        ok, message = False, str(e)
    except Exception as e:  # a student's function may raise anything: report it, never dump a traceback
        ok, message = False, f"Your answer raised {type(e).__name__}: {e}"
    finally:
        _ACTIVE.pop()
    if ok:
        PASSED.add(name)
    _say(ok, message, quiet)
    if ok and not quiet and name in SHOWS:
        obj, start, stop = SHOWS[name]
        print("\nThe kit's own version, now that yours is right:")
        show_source(resolve(obj), start, stop)
    return ok


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise TookTooLong in the block after ``seconds`` of wall time, and again each second, until the block ends
    (so that a bare ``except:`` in a student's loop cannot hold it off). Where there is no interval timer (Windows,
    a browser's Pyodide kernel, a thread other than the main one) the block runs without a limit.

    >>> with time_limit(5):
    ...     sum(range(10))
    45
    """
    def stop(signum: int, frame: Any) -> None:
        if not _in_machinery(frame):  # never inside the code that switches the kit back on: try again in a second
            raise TookTooLong(seconds)

    armed = False
    try:
        previous = signal.signal(signal.SIGALRM, stop)
        armed = True
        signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
    except (AttributeError, ValueError, OSError, NotImplementedError):  # no SIGALRM or timer here, or another thread
        if armed:
            signal.signal(signal.SIGALRM, previous)
        armed = False
    try:
        yield
    finally:
        if armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


_MACHINERY = {__file__, contextlib.__file__, sys.modules[KitSwitch.__module__].__file__}


def _in_machinery(frame: Any) -> bool:
    """Whether ``frame`` runs the checks' own machinery (this module, the guard, contextlib), where a stop could
    leave the kit's pieces switched off."""
    return frame is not None and frame.f_code.co_filename in _MACHINERY


@contextlib.contextmanager
def student_running() -> Iterator[None]:
    """Run a student's code with the pieces of the exercise being checked switched off; a call into one of them,
    even one the student's code caught, becomes NotAnswered saying which. ``call_student`` uses it; a checker
    that calls a student's object some other way (a strategy's methods) wraps the calls in it."""
    with (_ACTIVE[-1] if _ACTIVE else KitSwitch(())).off() as called:
        try:
            yield
        except KitSwitchedOff:
            pass
        except BaseException:
            if not called:
                raise
    if called:
        raise KitCalled(f"your answer calls the kit's {called[0]}, which is what the exercise asks you to write "
                        f"(it is switched off while your answer is checked): write it yourself.")


def question(name: str) -> str:
    """The question of an exercise, as the checker understands it."""
    return EXERCISES[name][0] if name in EXERCISES else f"there is no exercise called {name!r}"


def show_source(obj: Any, start: str | None = None, stop: str | None = None, *, after: str | None = None) -> None:
    """Print the source of a kit function or class, or only its lines from the first containing ``start``
    through the next containing ``stop``, so a lesson can quote a rule straight from the code.

    ``after="02b.waste_moves"`` marks the source as the kit's answer to that exercise: such a call is in the
    teacher's copy only (the student copy and the nbgrader release drop it, see ``without_kit_answers``); a
    student sees the kit's version when ``check`` says right, or in TEACHERS.md.

    >>> show_source(described, "from", "if")
    from ..render import text_diagram
    if isinstance(x, Game):
    """
    import textwrap
    lines = textwrap.dedent(source_of(obj)).splitlines()
    first = next((i for i, line in enumerate(lines) if start in line), None) if start else 0
    if first is None:
        print(f"(no line of {getattr(obj, '__qualname__', obj)} contains {start!r})")
        return
    last = next((i for i in range(first + 1, len(lines)) if stop in lines[i]), len(lines) - 1) if stop else len(lines) - 1
    print(textwrap.dedent("\n".join(lines[first:last + 1])))


KIT_ANSWER_NOTE = "# (the kit's version shows when check says right, and in TEACHERS.md)"


def without_kit_answers(source: str) -> str:
    """A code cell's source with each statement that shows a kit's answer (``show_source(..., after=...)``)
    replaced by a note: what the student copy and the nbgrader release hold instead, so no edit of a cell the
    student holds prints the answer.

    >>> print(without_kit_answers('show_source(f, after="07.dfs")\\nshow_source(g)'))
    # (the kit's version shows when check says right, and in TEACHERS.md)
    show_source(g)
    """
    import ast
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    lines = source.splitlines()
    for node in reversed(tree.body):
        calls = [c for c in ast.walk(node) if isinstance(c, ast.Call) and getattr(c.func, "id", None) == "show_source"
                 and any(k.arg == "after" for k in c.keywords)]
        if calls:
            lines[node.lineno - 1:node.end_lineno] = [" " * node.col_offset + KIT_ANSWER_NOTE]
    return "\n".join(lines) + ("\n" if source.endswith("\n") else "")


def _short(x: Any, most: int = 80) -> str:
    """``repr(x)``, cut to ``most`` characters: a message echoes the answer without burying the sentence."""
    text = repr(x)
    return text if len(text) <= most else text[:most - 1] + "…"


def _say(ok: bool, message: str, quiet: bool) -> bool:
    if not quiet:
        print(("✔ Right: " if ok else "✘ Not yet: ") + message)
    return ok


def _unfinished(answer: Any) -> bool:
    return answer is ... or answer is NotImplemented


# --- helpers that turn comparisons into sentences ----------------------------------------------

def needs_function(answer: Any, call: str, why: str) -> None:
    """Refuse a value where a function is asked for: NotAnswered naming the function, and ``why`` one value
    cannot answer (a function exercise is tried on hidden inputs).

    >>> needs_function(6000, "f(width)", "a number answers one width only")
    Traceback (most recent call last):
    ...
    solitaire.lessons.checks.NotAnswered: expected the function f(width), got int 6000: a number answers one width only
    """
    if not callable(answer):
        raise NotAnswered(f"expected the function {call}, got {type(answer).__name__} {answer!r}: {why}")


def call_student(fn: Callable, *args: Any) -> Any:
    """Call a student's function, with the exercise's kit pieces switched off; a NotImplementedError means it is
    a stub, a call into a switched-off piece a wrapper."""
    if not callable(fn):
        raise NotAnswered(f"expected a function, got {type(fn).__name__} {fn!r}")
    try:
        with student_running():
            return fn(*args)
    except NotAnswered:
        raise
    except NotImplementedError:
        raise NotAnswered(f"the function {getattr(fn, '__name__', 'you wrote')} still has no body") from None
    except Exception as e:
        shown = "\n  and ".join(described(a) for a in args)
        raise NotAnswered(f"calling it raised {type(e).__name__}: {e}\n  with {shown}") from None


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


def calls_into(fn: Callable, args: tuple, kit_functions: Iterable[Callable]) -> str | None:
    """Call a student's ``fn(*args)`` and watch (with ``sys.setprofile``) for any call, direct or through other
    code, into one of ``kit_functions``; return the name of the first one called, else None.

    This is how a check refuses a wrapper around the kit's own answer: a student's function that calls it
    gives the kit's results, so comparing results alone would pass it. Only Python-level calls are seen.
    """
    watched = {getattr(f, "__wrapped__", f).__code__: getattr(f, "__qualname__", str(f)) for f in kit_functions}
    called: list[str] = []

    def watch(frame: Any, event: str, arg: Any) -> None:
        if event == "call" and not called and frame.f_code in watched:
            called.append(watched[frame.f_code])

    before = sys.getprofile()
    sys.setprofile(watch)
    try:
        call_student(fn, *args)
    finally:
        sys.setprofile(before)
    return called[0] if called else None


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
