"""Running a student's code inside a check: the time limit, the exercise's kit pieces switched off meanwhile, and
calls that turn whatever the student's function does into a plain-English refusal.

Two places run a check. In the practice ``check`` the student's code runs in the kernel, in this process: the
pieces are switched off (``guard.KitSwitch``) while it runs. In a graded check (``solitaire.lessons.grading``) the
checker runs in a fresh grading process and the student's code in another one, whose kit never had the pieces:
there ``GRADED`` holds the connection, the student's function is a proxy whose calls cross a pipe, and a call
into an absent piece comes back as ``KitSwitchedOff``; nothing is switched off here.
"""
from __future__ import annotations

import contextlib
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .guard import KitSwitch, KitSwitchedOff, compiled_source, is_function
from .verdicts import KitCalled, NotAnswered, TookTooLong

TIME_LIMIT = 45.0  # seconds a check may run before the student's code is stopped: under nbgrader's CELL_TIMEOUT (60 s)
REPEAT = 0.05  # seconds between the interrupts after the first, until one stops the student's code
_ACTIVE: list[KitSwitch] = []  # the pieces of the exercise being checked now: call_student switches them off
GRADED: list[Any] = []  # in a grading process: the student's process now being asked (a remote.StudentProcess)


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise TookTooLong in the block after ``seconds`` of wall time, and again every ``REPEAT`` seconds, until the
    block ends (so that a bare ``except:`` in a student's loop cannot hold it off: where the loop spends its time in
    a compiled kit function, most interrupts land inside its ``try``, so they come often). Where there is no interval timer (Windows,
    a browser's Pyodide kernel, a thread other than the main one) the block runs without a limit.

    >>> with time_limit(5):
    ...     sum(range(10))
    45
    """
    def stop(signum: int, frame: Any) -> None:
        if not _in_machinery(frame):  # never inside the code that switches the kit back on: try again soon
            raise TookTooLong(seconds)

    armed = False
    try:
        previous = signal.signal(signal.SIGALRM, stop)
        armed = True
        signal.setitimer(signal.ITIMER_REAL, seconds, REPEAT)
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


def in_machinery(frame: Any) -> bool:
    """Whether ``frame`` runs the checks' own machinery (this module, the guard, contextlib), where a stop could
    leave the kit's pieces switched off.

    >>> in_machinery(sys._getframe()), in_machinery(None)
    (False, False)
    """
    return frame is not None and frame.f_code.co_filename in _MACHINERY


_in_machinery = in_machinery


def _kit_called(name: str) -> KitCalled:
    how = ("it does not exist while your answer is graded" if GRADED else
           "it is switched off while your answer is checked")
    return KitCalled(f"your answer calls the kit's {name}, which is what the exercise asks you to write ({how}): "
                     "write it yourself.")


@contextlib.contextmanager
def student_running() -> Iterator[None]:
    """Run a student's code with the pieces of the exercise being checked switched off; a call into one of them,
    even one the student's code caught, becomes NotAnswered saying which. ``call_student`` uses it; a checker
    that calls a student's object some other way (a strategy's methods) wraps the calls in it.

    In a grading process nothing is switched off here: the student's code runs in its own process, whose kit
    does not hold the pieces, and reports each call into where one was.

    >>> with student_running():
    ...     len("abc")
    3
    """
    if GRADED:
        with _graded_running(GRADED[-1]):
            yield
        return
    with (_ACTIVE[-1] if _ACTIVE else KitSwitch(())).off() as called:
        try:
            yield
        except KitSwitchedOff:
            pass
        except BaseException:
            if not called:
                raise
    if called:
        raise _kit_called(called[0])


@contextlib.contextmanager
def _graded_running(process: Any) -> Iterator[None]:
    """``student_running`` in a grading process: a call the student's process reports into an absent piece (raised
    through, or caught by the student's code) becomes KitCalled."""
    before = len(process.absent_called)
    try:
        yield
    except KitSwitchedOff as e:
        raise _kit_called(process.absent_called[-1] if len(process.absent_called) > before else str(e)) from None
    except BaseException:
        if len(process.absent_called) == before:
            raise
    if len(process.absent_called) > before:
        raise _kit_called(process.absent_called[before])


def call_student(fn: Callable, *args: Any) -> Any:
    """Call a student's function, with the exercise's kit pieces switched off; a NotImplementedError means it is
    a stub, a call into a switched-off piece a wrapper.

    >>> call_student(lambda x: x + 1, 2)
    3
    """
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
        from .judging import described
        shown = "\n  and ".join(described(a) for a in args)
        raise NotAnswered(f"calling it raised {type(e).__name__}: {e}\n  with {shown}") from None


def answers_of(fn: Callable, calls: list[tuple]) -> Iterator[Any]:
    """``call_student(fn, *args)`` for each argument tuple in turn, as a checker's loop takes them: in the practice
    check one call at a time, as the loop asks; in a graded check all of them in one message first (a checker that
    asks thousands of small questions would otherwise pay a message each). A call that raises raises when the
    loop reaches it, as ``call_student`` says it.

    >>> list(answers_of(abs, [(-1,), (2,)]))
    [1, 2]
    """
    if not (GRADED and callable(getattr(fn, "map", None))):
        for args in calls:
            yield call_student(fn, *args)
        return
    with student_running():
        results, failure = fn.map(list(calls))
    yield from results
    if failure is not None:
        from .remote import remote_error
        error = remote_error(failure)
        args = calls[len(results)]

        def again(*_: Any) -> Any:
            raise error
        yield call_student(again, *args)  # the refusal call_student gives, naming the arguments


def calls_into(fn: Callable, args: tuple, kit_functions: Iterable[Callable]) -> str | None:
    """Call a student's ``fn(*args)`` and watch (with ``sys.setprofile``) for any call, direct or through other
    code, into one of ``kit_functions``; return the name of the first one called, else None.

    This is how a check refuses a wrapper around the kit's own answer: a student's function that calls it
    gives the kit's results, so comparing results alone would pass it. A compiled kit function is watched by a
    wrapper put where it is reachable (it runs no Python frame for the profiler to see). In a
    grading process the student's code runs elsewhere, where those functions do not exist: the call is made
    (a call into one of them is refused there) and None is returned.

    >>> calls_into(lambda s: s.upper(), ("a",), [str.lower])
    """
    if GRADED:
        call_student(fn, *args)
        return None
    kit_functions = [getattr(f, "__wrapped__", f) for f in kit_functions]
    compiled = [f for f in kit_functions if is_function(f) and compiled_source(f) is not None]
    watched = {f.__code__: getattr(f, "__qualname__", str(f)) for f in kit_functions
               if hasattr(f, "__code__") and not any(f is c for c in compiled)}
    called: list[str] = []

    def watch(frame: Any, event: str, arg: Any) -> None:
        if event == "call" and not called and frame.f_code in watched:
            called.append(watched[frame.f_code])

    def noting(kit: Callable[..., Any]) -> Callable[..., Any]:  # a compiled function runs no Python frame
        def noted(*a: Any, **k: Any) -> Any:
            if not called:
                called.append(getattr(kit, "__qualname__", str(kit)))
            return kit(*a, **k)
        return noted

    before = sys.getprofile()
    with KitSwitch(compiled, fn).replaced(noting) if compiled else contextlib.nullcontext():
        sys.setprofile(watch)
        try:
            call_student(fn, *args)
        finally:
            sys.setprofile(before)
    return called[0] if called else None
