"""The grading process: ``python -m solitaire.lessons.grader``, requests on stdin, verdicts on stdout (JSON lines).

``solitaire.lessons.grading`` starts it fresh (one for each secret, kept for the client's later requests), with the
course's secret in the environment (``hidden.SECRET_VARIABLE``), so that the lessons' checkers, imported here, draw
secret hidden inputs and nothing a notebook did (a patch, a table, a cache) exists here: it runs no student code,
so nothing of one answer reaches the next. For each answer it

1. names a copy of the kit's piece or of the teacher's solution in an answer sent as source (``copies``);
2. writes the exercise's graded kit (``stripped``), once per exercise;
3. starts the answer's own process with that kit (``remote.AnswerProcess``, sandboxed where possible), loads the
   student's definitions there, and runs the exercise's checker here, on a proxy of the answer whose calls cross
   the pipe: the checker, its reference answers and the hidden inputs never leave this process;
4. ends the answer's process, whatever happened.

A record of play (``HAND_GRADED``) is checked for what a record can show, a legal replay to the goal, and then
left to the teacher: a list of moves cannot show who or what found them.

A request: ``{"answers": [{"exercise", "kind": "source" | "pickle", "payload", "answer", "limits"}], "teacher":
[folders]}`` (a pickle's payload in base64; ``limits``, optional, changes ``remote.Limits``). Each verdict: ``{"exercise", "state": "right" | "wrong" | "hand", "message",
"seconds", "cpu", "calls"}``; and ``"sandbox"``: the sandbox's one line.
"""
from __future__ import annotations

import base64
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HAND_GRADED = ("01a.two_aces", "01a.win")  # records of play: checked for legality here, graded by the teacher


def _checked(checker: Any, answer: Any) -> tuple[bool, str]:
    """Run a checker on an answer (a value, or a proxy whose calls cross the pipe), as ``check`` runs it."""
    from .remote import AnswerGone
    from .verdicts import NotAnswered, TookTooLong
    from .running import TIME_LIMIT
    try:
        return tuple(checker(answer))
    except TookTooLong:
        return False, (f"the check stopped your answer after {TIME_LIMIT:.0f} s of its CPU without an answer: look "
                       "for a loop that never ends (a `while` whose condition never turns false, or a list that "
                       "grows while you walk it).")
    except (NotAnswered, AnswerGone) as e:
        return False, str(e)
    except Exception as e:  # noqa: BLE001 - a student's function may raise anything: report it, never a traceback
        if not type(e).__module__ == "builtins":  # not an exception the answer's process reported: say where, here
            import traceback
            traceback.print_exc(file=sys.stderr)
        return False, f"Your answer raised {type(e).__name__}: {e}"


def _grade_one(request: dict, kits: dict[str, Path], folder: Path, teacher: list[Path]) -> dict:
    """One answer's verdict (see the module's docstring)."""
    from .checks import EXERCISES
    from .copies import copy_in_source, teacher_solutions
    from .remote import AnswerProcess, Limits
    from .stripped import build_kit
    name, kind, started = request["exercise"], request["kind"], time.perf_counter()
    said = {"exercise": name, "seconds": 0.0, "cpu": 0.0, "calls": 0}
    if name not in EXERCISES:
        return said | {"state": "wrong", "message": f"There is no exercise called {name!r}. The exercises are: "
                                                   f"{', '.join(EXERCISES)}."}
    payload = base64.b64decode(request["payload"]) if kind == "pickle" else [tuple(c) for c in request["payload"]]
    if kind == "source":
        copied = copy_in_source(payload, name, teacher_solutions(name, teacher))
        if copied:
            return said | {"state": "wrong", "message": f"this is a copy of {copied}: write your own (a copy, renamed "
                                                        "or reformatted, teaches nothing and is not graded right)."}
    if name not in kits:
        kits[name] = build_kit(name, folder / name.replace(".", "_"))
    limits = Limits(**{k: v for k, v in request.get("limits", {}).items() if k in Limits._fields})
    process = AnswerProcess(kits[name], limits)
    try:
        ok, message = _run(process, EXERCISES[name][1], kind, payload, request.get("answer"))
    finally:
        said |= {"cpu": round(process.cpu(), 3), "calls": process.messages}
        process.stop()
    state = ("hand" if name in HAND_GRADED else "right") if ok else "wrong"
    if state == "hand":
        message += (" A record of moves shows that they are legal and reach the goal, not who or what found them: "
                    "your teacher grades it by hand.")
    return said | {"state": state, "message": message, "seconds": round(time.perf_counter() - started, 3)}


def _run(process: Any, checker: Any, kind: str, payload: Any, answer: str | None) -> tuple[bool, str]:
    from .remote import AnswerGone, as_remote
    from .running import GRADED
    from .verdicts import NotAnswered, TookTooLong
    try:
        description, problems = process.load(kind, payload, answer)
    except TookTooLong:
        return False, "your cells did not finish running within the time a graded answer has to load."
    except (NotAnswered, AnswerGone) as e:
        return False, f"your answer could not be loaded in a fresh process: {e}"
    value = as_remote(process, description)
    if value is ... or value is NotImplemented:
        return False, "Not answered yet: replace the `...` (or `# your code here`) with your answer."
    GRADED.append(process)
    try:
        ok, message = _checked(checker, value)
    finally:
        GRADED.pop()
    if not ok and problems:
        message += "\n  (while your cells ran in the graded process: " + "; ".join(problems[:3]) + ")"
    return ok, message


def main() -> int:
    """Serve requests, one JSON line each on stdin, a JSON line of verdicts each on stdout, until stdin closes: a
    course's autograde (or a test session) asks one grading process for every notebook, so what the checkers work
    out once (the secret inputs' expected answers) is worked out once."""
    out, sys.stdout = sys.stdout, sys.stderr  # nothing a checker prints may spoil the verdicts
    from .hidden import graded
    from .remote import detect
    if not graded():
        raise SystemExit("the grading process was started without its secret")
    with tempfile.TemporaryDirectory(prefix="graded-kits-") as folder:
        kits: dict[str, Path] = {}
        for line in sys.stdin:
            request = json.loads(line)
            teacher = [Path(f) for f in request.get("teacher", [])]
            verdicts = [_grade_one(r, kits, Path(folder), teacher) for r in request["answers"]]
            out.write(json.dumps({"verdicts": verdicts, "sandbox": detect().line}) + "\n")
            out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
