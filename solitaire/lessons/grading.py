"""Graded checks: ``grade("02b.waste_moves", waste_moves)``, what an nbgrader course's test cells call.

The practice ``check`` runs the student's code in the kernel, where a notebook can patch the checker, fill a table
before the check, or keep a reference to the kit's piece somewhere a switch does not reach. A grade is given
elsewhere:

- the answer goes to a fresh grading process (``solitaire.lessons.grader``), by value: its functions and classes
  pickled with cloudpickle (data they use goes with them; kit objects and modules by name), never the kernel's
  state around them;
- there the exercise's checker runs, with hidden inputs drawn from a secret (the course's, or a fresh one), and
  calls the student's functions in a third process whose kit never had the exercise's piece, nor the kit functions
  that compute the same (``solitaire.lessons.stripped``), in the tournament's sandbox where there is one;
- before anything is sent, every function the answer carries is compared with those pieces and with the
  teacher's solution, where the teacher's notebooks are at hand: a copy is named a copy (``copies``).

A course's autograde decides grades outside the notebook's kernel altogether (``solitaire.classroom.graded``); there
``grade`` only says so. ``graded_verdicts`` grades many answers in one grading process (tests, benchmarks).
"""
from __future__ import annotations

import atexit
import base64
import json
import os
import secrets
import subprocess
import sys
import threading
import types
from pathlib import Path
from typing import Any, NamedTuple

DEFERRED = "SOLITAIRE_GRADED_OUTSIDE"  # set by a course's autograde: the grade is decided outside this kernel
INSTALLED = tuple({os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)})


class Graded(NamedTuple):
    """A graded check's verdict: ``state`` is "right", "wrong" or "hand" (a record left to the teacher)."""

    exercise: str
    state: str
    message: str
    seconds: float = 0.0
    cpu: float = 0.0
    calls: int = 0


def grade(name: str, answer: Any = ..., *, quiet: bool = False, secret: str | None = None) -> bool:
    """Grade the answer to exercise ``name`` in a fresh process, on hidden inputs drawn from ``secret`` (by default
    a secret of this kernel's own, drawn once); print the verdict and return True if it is right. Nothing the
    notebook did before (a patch, a table, a reference kept to the kit's piece) carries over.

    >>> grade("99.nothing", 1)  # doctest: +ELLIPSIS
    ✘ Not yet (graded): There is no exercise called '99.nothing'. ...
    False
    """
    if sys.platform == "emscripten":  # a browser's Pyodide kernel starts no process
        if not quiet:
            print("✘ Not graded: grade runs your answer in a fresh process, which the browser's kernel cannot start; "
                  "check gives the feedback here.")
        return False
    if os.environ.get(DEFERRED):
        if not quiet:
            print("(graded outside this notebook by the course's autograder: its verdict replaces this cell's)")
        return True
    verdict = graded_verdicts([(name, answer)], secret=secret)[0]
    if not quiet and verdict.seconds:
        from ..tournament.sandbox import detect
        if not detect().isolated:  # the one line that says the answer ran without a sandbox
            print(detect().line)
    if not quiet:
        mark = {"right": "✔ Right (graded): ", "hand": "✔ Legal (graded by your teacher): "}.get(verdict.state,
                                                                                               "✘ Not yet (graded): ")
        print(mark + verdict.message)
    return verdict.state == "right"


def graded_verdicts(answers: list[tuple[str, Any]], *, secret: str | None = None,
                    teacher: list[Path] | None = None, workers: int = 1) -> list[Graded]:
    """The verdicts on many (exercise, answer) pairs, graded in the grading process of ``secret`` (each answer in
    a fresh process of its own); with ``workers`` above 1, in that many grading processes at once, each exercise's
    answers in one of them. ``teacher``: folders of the teacher's notebooks to name copies of (by default the
    lessons' folder, when it holds the teacher's solutions).

    >>> [v.state for v in graded_verdicts([("01.red_cards", ...), ("99.nothing", len)])]
    ['wrong', 'wrong']
    """
    from .checks import EXERCISES
    folders = [str(f) for f in (teacher if teacher is not None else teacher_folders())]
    out: list[Graded | None] = []
    requests = []
    for name, answer in answers:
        early = _refused_here(name, answer, EXERCISES, [Path(f) for f in folders])
        if early is not None:
            out.append(Graded(name, "wrong", early))
            continue
        try:
            payload = pickled(answer)
        except Exception as e:  # noqa: BLE001 - whatever cloudpickle cannot send
            out.append(Graded(name, "wrong", f"your answer cannot be sent to a fresh process ({type(e).__name__}: "
                                             f"{e}): give functions and values defined in your cells"))
            continue
        out.append(None)
        requests.append({"exercise": name, "kind": "pickle", "payload": base64.b64encode(payload).decode()})
    verdicts = iter(_in_lanes(requests, secret, folders, workers))
    return [v if v is not None else next(verdicts) for v in out]


def _in_lanes(requests: list[dict], secret: str | None, teacher: list[str], workers: int) -> list[Graded]:
    """``requests`` graded by ``workers`` grading processes at once (an exercise's answers all in one, which works
    out that exercise's hidden inputs once); the verdicts in the order of the requests."""
    if not requests:
        return []
    lanes: list[list[int]] = [[] for _ in range(max(1, min(workers, len(requests))))]
    for name in dict.fromkeys(r["exercise"] for r in requests):
        mine = [i for i, r in enumerate(requests) if r["exercise"] == name]
        min(lanes, key=len).extend(mine)
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(len(lanes)) as pool:
        done = list(pool.map(lambda lane: run_grader([requests[i] for i in lanes[lane]], secret=secret,
                                                     teacher=teacher, lane=lane)[0], range(len(lanes))))
    out: dict[int, Graded] = {}
    for lane, verdicts in zip(lanes, done):
        out.update(zip(lane, verdicts))
    return [out[i] for i in range(len(requests))]


def _refused_here(name: str, answer: Any, exercises: dict, teacher: list[Path]) -> str | None:
    """What refuses an answer before it is sent: an unknown exercise, no answer, a copy, the lessons' own code."""
    from .copies import copy_in_functions, teacher_solutions
    if name not in exercises:
        return f"There is no exercise called {name!r}. The exercises are: {', '.join(exercises)}."
    if answer is ... or answer is NotImplemented:
        return f"Not answered yet: replace the `...` (or `# your code here`) with your answer.\n  The question: " \
               f"{exercises[name][0]}"
    functions, lessons = carried_functions(answer)
    copied = copy_in_functions(functions, name, teacher_solutions(name, teacher))
    if copied and copied.endswith(" itself"):
        piece = copied[:-len(" itself")]
        if functions and getattr(functions[0], "__qualname__", None) == piece.rsplit(" ", 1)[-1]:
            return f"that is {piece}, not yours: write your own."
        return (f"your answer uses {piece}, which is what the exercise asks you to write (or computes the same): "
                "it does not exist while your answer is graded. Write it yourself.")
    if copied:
        return f"this is a copy of {copied}: write your own (a copy, renamed or reformatted, teaches nothing and is " \
               "not graded right)."
    if lessons:
        return (f"your answer uses the lessons' own {lessons[0]}, which exists for the practice checks only: it does "
                "not exist while your answer is graded. Write it yourself.")
    return None


def teacher_folders() -> list[Path]:
    """The folders of the teacher's notebooks at hand: a clone's ``notebooks/`` (a wheel holds student copies).

    >>> [f.name for f in teacher_folders()]
    ['notebooks']
    """
    clone = Path(__file__).resolve().parents[2] / "notebooks"
    return [clone] if (clone / "TEACHERS.md").is_file() and any(clone.glob("*.ipynb")) else []


def _installed(module: Any) -> bool:
    """Whether a module comes with the installation (the standard library, site-packages, the kit itself), so the
    answer's process imports it by name; a test file's or a notebook's own module goes by value."""
    name = getattr(module, "__name__", "") or ""
    if name == "__main__":
        return False
    if name.split(".")[0] in ("solitaire", "builtins") or name in sys.builtin_module_names:
        return True
    path = os.path.realpath(getattr(module, "__file__", None) or "")
    return bool(path) and any(path.startswith(p + os.sep) for p in INSTALLED)


def carried_functions(answer: Any, most: int = 200_000) -> tuple[list[Any], list[str]]:
    """Every Python function an answer carries (itself, its helpers by global name, defaults, closures, and what
    dicts, lists, tuples, sets, classes and instances of its own hold), and the lessons' private functions among
    them (what a graded kit does not hold). At most ``most`` objects are looked at.

    >>> def helper(x): return x
    >>> def answer(x): return helper(x) + 1
    >>> [f.__name__ for f in carried_functions(answer)[0]]
    ['answer', 'helper']
    """
    from .stripped import lesson_imports
    allowed = {f"solitaire.lessons.{m}.{n}" for m, names in lesson_imports().items() for n in names}
    seen, todo, functions, lessons = set(), [answer], [], []
    while todo and len(seen) < most:
        obj = todo.pop(0)
        if id(obj) in seen or isinstance(obj, (str, bytes, int, float, complex, type(None), types.ModuleType)):
            continue
        seen.add(id(obj))
        todo += _inside(obj, functions, lessons, allowed)
    return functions, lessons


def _inside(obj: Any, functions: list, lessons: list, allowed: set[str]) -> list[Any]:
    """What ``obj`` holds that an answer carries with it; records functions (and the lessons' private ones)."""
    if isinstance(obj, types.MethodType):
        return [obj.__func__, obj.__self__]
    if isinstance(obj, types.FunctionType):
        functions.append(obj)
        dotted = f"{obj.__module__}.{obj.__qualname__}"
        if (obj.__module__ or "").startswith("solitaire.lessons.") and dotted not in allowed:
            lessons.append(obj.__qualname__)
        if (obj.__module__ or "").startswith("solitaire") and _by_name(obj):
            return []  # the kit's own: sent by name (what it calls is the graded kit's)
        names = _names(obj.__code__)
        return ([obj.__globals__[n] for n in names if n in obj.__globals__] + list(obj.__defaults__ or ())
                + list((obj.__kwdefaults__ or {}).values()) + [_cell(c) for c in obj.__closure__ or ()])
    if isinstance(obj, dict):
        return list(obj.values())
    if isinstance(obj, (list, tuple, set, frozenset)):
        return list(obj)
    if isinstance(obj, type):
        return [] if _installed(sys.modules.get(obj.__module__)) else list(vars(obj).values())
    if not _installed(sys.modules.get(type(obj).__module__)):
        return [type(obj), *getattr(obj, "__dict__", {}).values()]
    return []


GLOBAL_OPS = ("LOAD_GLOBAL", "STORE_GLOBAL", "DELETE_GLOBAL", "LOAD_NAME")


def _by_name(fn: Any) -> bool:
    """Whether ``fn`` is what its module holds under its name: the kit's own function, which goes by name.

    >>> _by_name(carried_functions), _by_name(lambda: 0)
    (True, False)
    """
    obj: Any = sys.modules.get(fn.__module__)
    for part in fn.__qualname__.split("."):
        obj = getattr(obj, part, None)
    return obj is fn


def _names(code: types.CodeType) -> set[str]:
    """The global names a function's code (and the code nested in it) uses: not its attributes' names.

    >>> sorted(_names((lambda p: rules(p.variant)).__code__))
    ['rules']
    """
    import dis
    names = {ins.argval for ins in dis.get_instructions(code) if ins.opname in GLOBAL_OPS}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names


def _cell(cell: Any) -> Any:
    try:
        return cell.cell_contents
    except ValueError:
        return None


def pickled(answer: Any) -> bytes:
    """The answer pickled by value with cloudpickle: its own functions and classes (a notebook's, a test file's)
    with the data they use; the kit's objects and installed modules by name, so the answer's process takes the
    graded kit's (where the exercise's piece is absent). A module is always sent by name.

    >>> import pickle
    >>> pickle.loads(pickled(lambda x: x * 2))(21)
    42
    """
    import io

    import cloudpickle

    own = {sys.modules[f.__module__] for f in carried_functions(answer)[0]
           if f.__module__ in sys.modules and not _installed(sys.modules[f.__module__])}
    own |= {sys.modules[type(answer).__module__]} if type(answer).__module__ in sys.modules and not _installed(
        sys.modules[type(answer).__module__]) else set()
    own.discard(sys.modules.get("__main__"))
    registered = []
    for module in own:
        try:
            cloudpickle.register_pickle_by_value(module)
            registered.append(module)
        except ValueError:
            pass

    class ByName(cloudpickle.Pickler):
        def reducer_override(self, obj: Any) -> Any:
            if isinstance(obj, types.ModuleType):
                import importlib
                return importlib.import_module, (obj.__name__,)
            return super().reducer_override(obj)

    try:
        out = io.BytesIO()
        ByName(out, protocol=4).dump(answer)
        return out.getvalue()
    finally:
        for module in registered:
            cloudpickle.unregister_pickle_by_value(module)


_GRADERS: dict[tuple[str, int], subprocess.Popen] = {}  # the grading processes started here: (secret, lane)
_SESSION: list[str] = []  # this process's own secret, drawn when first needed (grade() without a course's)
_LOCK = threading.Lock()
_LOCKS: dict[tuple[str, int], threading.Lock] = {}  # one request at a time in each grading process


def session_secret() -> str:
    """A secret of this process's own (a kernel's), drawn once: a secret draw, the one exception to seeded ones.

    >>> session_secret() == session_secret()
    True
    """
    if not _SESSION:
        _SESSION.append(secrets.token_hex(16))
    return _SESSION[0]


def _grader(secret: str, lane: int = 0) -> subprocess.Popen:
    """The grading process of ``secret`` (the ``lane``-th of them), started if it is not running."""
    from .hidden import SECRET_VARIABLE
    running = _GRADERS.get((secret, lane))
    if running is not None and running.poll() is None:
        return running
    env = dict(os.environ)
    env[SECRET_VARIABLE] = secret
    env.pop(DEFERRED, None)
    kit_root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join([kit_root, *[p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]])
    _GRADERS[secret, lane] = subprocess.Popen([sys.executable, "-m", "solitaire.lessons.grader"],
                                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    return _GRADERS[secret, lane]


@atexit.register
def stop_graders() -> None:
    """End the grading processes started here (their answers' processes end with them).

    >>> stop_graders()
    """
    for process in list(_GRADERS.values()):
        if process.poll() is None:
            process.stdin.close()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
    _GRADERS.clear()


def run_grader(requests: list[dict], *, secret: str | None = None, teacher: list[str] = (),
               lane: int = 0) -> tuple[list[Graded], str]:
    """Grade ``requests`` (see ``solitaire.lessons.grader``) in the grading process of ``secret`` (this process's
    own when None; the ``lane``-th, when several grade at once); the verdicts and the sandbox's line.

    >>> verdicts, line = run_grader([], secret="a doctest's")
    >>> verdicts, line.startswith("sandbox: ")
    ([], True)
    """
    request = json.dumps({"answers": requests, "teacher": list(teacher)})
    key = (secret or session_secret(), lane)
    with _LOCK:
        lock = _LOCKS.setdefault(key, threading.Lock())
    with lock:
        process = _grader(*key)
        process.stdin.write(request + "\n")
        process.stdin.flush()
        line = process.stdout.readline()
    if not line:
        raise RuntimeError("the grading process ended without an answer: run python -m solitaire.lessons.grader "
                           "by hand to see why")
    said = json.loads(line)
    return [Graded(**{k: v[k] for k in Graded._fields}) for v in said["verdicts"]], said["sandbox"]
