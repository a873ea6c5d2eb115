"""The checking machinery of the lessons' "your turn" exercises: a registry, ``check`` and helpers.

``check("01.red_cards", answer)`` prints what is right or what is off and returns True or False.
It never raises: a wrong type, an unfinished stub (``...``) or a function that crashes all get a
plain-English message instead of a traceback. Expected answers are computed from the kit itself,
so they follow the rules as the code implements them.

This is the practice check: the student's code runs here, in the kernel, with the exercise's pieces switched
off. What a grade rests on is ``solitaire.lessons.grading.grade``: the same checkers, run in a fresh process on
secret inputs, the student's code in another one. The helpers the checkers use live in ``verdicts`` (what a check
says), ``running`` (running the student's code) and ``judging`` (comparisons in sentences); they are all
importable from here, where the lessons' checkers import them.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .guard import KitSwitch, KitSwitchedOff, copy_of, hidden_inputs, kit_off, resolve, source_of  # noqa: F401  (the checks' machinery)
from .judging import (  # noqa: F401  (the checkers import them from here)
    SHOWN_PLACES, _float_or_none, _short, agrees, agrees_as_shown, as_card, as_number, described, finite_number,
    needs_function, no_return, number_verdict, replay_game, same_set, shown_apart, texts, too_coarse, written_places)
from .running import (  # noqa: F401  (the checkers import them from here)
    GRADED, TIME_LIMIT, _ACTIVE, _in_machinery, answers_of, call_student, calls_into, student_running, time_limit)
from .verdicts import KitCalled, NotAnswered, TookTooLong, Verdict  # noqa: F401

Checker = Callable[[Any], Verdict]
EXERCISES: dict[str, tuple[str, Checker]] = {}
PIECES: dict[str, tuple[Any, ...]] = {}  # an exercise's kit pieces: switched off while the answer runs, never copied
SHOWS: dict[str, tuple[Any, str | None, str | None]] = {}  # the kit's version that check prints after a right answer
PASSED: set[str] = set()  # the exercises this kernel's student has got right (a record: it opens nothing)


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


def _say(ok: bool, message: str, quiet: bool) -> bool:
    if not quiet:
        print(("✔ Right: " if ok else "✘ Not yet: ") + message)
    return ok


def _unfinished(answer: Any) -> bool:
    return answer is ... or answer is NotImplemented


