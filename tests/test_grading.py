"""Graded checks (issue 53): every cheat kind passes the practice ``check`` and is refused by ``grade`` and by a
course's autograde; the graded kit holds no piece, no checker and no reference answer; the sandbox shows the
answer's process neither the kit's files nor the guide nor the network; the hidden inputs follow the secret.

Every ``grade`` here goes to one grading process (kept for the session, with the tests' secret); each answer runs
in a fresh process of its own. The right answers and honest mistakes of every lesson's cases are graded in
tests/test_grading_cases.py.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from graded_cheats import ANSWER_NAMES, CHEATS, TEACHERS
from solitaire.lessons import check
from solitaire.lessons.grading import graded_verdicts, run_grader
from solitaire.tournament.sandbox import UIDS, detect

ROOT = Path(__file__).resolve().parents[1]
SECRET = "the tests' course secret"
IDS = [c.kind for c in CHEATS]
_NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def _checked(folder: Path) -> set[str]:
    """The exercises the notebooks of ``folder`` check."""
    return {m for p in folder.glob("*.ipynb") for c in json.loads(p.read_text(encoding="utf-8"))["cells"]
            for m in re.findall(r'check\("([^"]+)"', "".join(c["source"]))}


PRACTICE_ONLY = _checked(_NOTEBOOKS / "deeper") - _checked(_NOTEBOOKS)  # Going deeper's: no course grades them


@pytest.mark.parametrize("cheat", CHEATS, ids=IDS)
def test_every_cheat_passes_the_practice_check(cheat, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture) -> None:
    import solitaire.lessons.lesson06a as lesson06a
    monkeypatch.setattr(lesson06a, "agrees_as_shown", lesson06a.agrees_as_shown)  # the patching cheat, undone after
    assert check(cheat.exercise, cheat.make(), quiet=True), capsys.readouterr().out


@pytest.fixture(scope="module")
def graded_cheats() -> list:
    import solitaire.lessons.lesson06a as lesson06a
    kept = lesson06a.agrees_as_shown
    try:
        made = [(c.exercise, c.make()) for c in CHEATS]
    finally:
        lesson06a.agrees_as_shown = kept  # the patching cheat patched this process's checker: undone for later tests
    return graded_verdicts(made, secret=SECRET)


@pytest.mark.parametrize("i", range(len(CHEATS)), ids=IDS)
def test_grade_refuses_every_cheat(i: int, graded_cheats: list) -> None:
    cheat, verdict = CHEATS[i], graded_cheats[i]
    if "TEACHERS.md" in cheat.kind and not detect().isolated:
        pytest.skip(f"without a sandbox the answer's process reads the clone's files ({detect().line})")
    wanted = "hand" if cheat.exercise.startswith("01a.") else "wrong"  # a record of play: the teacher's to grade
    assert verdict.state == wanted, verdict


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from solitaire.classroom.course import write_course
    course = tmp_path_factory.mktemp("graded") / "course"
    write_course(course, ROOT / "notebooks")
    return course


def _with_answer(course: Path, exercise: str, source: str) -> tuple[dict, str]:
    """The course's notebook of ``exercise``, its answer cell holding ``source``; and the assignment's name."""
    from solitaire.classroom.course import grade_id
    for path in sorted((course / "source").glob("*/*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            meta = cell.get("metadata", {}).get("nbgrader", {})
            if meta.get("solution") and meta.get("grade_id") in (grade_id(exercise) + "-answer", grade_id(exercise)):
                cell["source"] = source
                return nb, path.parent.name
    raise AssertionError(f"no answer cell of {exercise} in the course")


@pytest.mark.parametrize("cheat", CHEATS, ids=IDS)
def test_the_autograde_refuses_every_cheat(cheat, course: Path) -> None:
    """The course's autograde step (``GradeOutsideTheKernel``) grades from the notebook's source: each cheat, written
    in its answer cell, gets no points (a record of play has no autograded cell: the teacher grades it by hand)."""
    from solitaire.classroom.graded import grade_notebook
    if "TEACHERS.md" in cheat.kind and not detect().isolated:
        pytest.skip(f"without a sandbox the answer's process reads the clone's files ({detect().line})")
    if cheat.exercise in PRACTICE_ONLY:
        pytest.skip(f"{cheat.exercise} is practice in a Going deeper notebook: no course grades it (the same kind of "
                    "cheat on a graded exercise is tried too)")
    nb, assignment = _with_answer(course, cheat.exercise, cheat.cell)
    done = grade_notebook(nb, course, assignment, only=(cheat.exercise,))
    states = {name: state for _, name, state in done}
    if cheat.exercise.startswith("01a."):
        assert cheat.exercise not in states  # no autograded cell: its answer cell is graded by hand
        meta = next(c["metadata"]["nbgrader"] for c in nb["cells"] if c["source"] == cheat.cell)
        assert meta["grade"] and meta["solution"] and meta["points"] == 1
        return
    assert states[cheat.exercise] == "wrong", done
    cell = next(c for c in nb["cells"] if "assert grade(" in "".join(c["source"])
                and repr(cheat.exercise) in "".join(c["source"]))
    assert [o["output_type"] for o in cell["outputs"]] == ["error"]


def test_the_autograde_gives_the_points_to_the_teachers_own_answers(course: Path) -> None:
    """The teacher's solutions, left in a course's notebooks, are right when graded from source, as the autograde
    grades (one lesson of each kind: functions, a strategy, a function that uses the lesson's own ``width``). The
    teacher's text is, by definition, a copy of the teacher's solution: copies are not looked for here."""
    from solitaire.classroom.graded import graded_call, graded_program
    requests = []
    for lesson in ("02b_moves", "05b_tournament", "06_experiments"):
        nb = json.loads((course / "source" / lesson / f"{lesson}.ipynb").read_text(encoding="utf-8"))
        for i, cell in enumerate(nb["cells"]):
            text = "".join(cell["source"])
            if "### BEGIN SOLUTION" in text:
                cell["source"] = text.split("### BEGIN SOLUTION\n", 1)[1].split("\n### END SOLUTION", 1)[0]
            called = graded_call(text) if cell.get("metadata", {}).get("nbgrader", {}).get("grade") else None
            if called:
                requests.append({"exercise": called[0], "kind": "source", "payload": graded_program(nb["cells"], i),
                                 "answer": called[1]})
    verdicts = run_grader(requests, secret=SECRET, teacher=[])[0]
    assert len(verdicts) == len(requests) == 3 and all(v.state == "right" for v in verdicts), verdicts


def test_a_module_reloaded_before_the_check_passes_practice_and_not_grade(tmp_path: Path) -> None:
    """``importlib.reload`` makes new functions that the practice switch does not know; in a graded kit the reloaded
    module is the graded one. In a process of its own: a reload would change this one's kit."""
    script = textwrap.dedent(f"""
        import importlib, solitaire.moves as moves
        from solitaire import Move
        from solitaire.lessons import check
        from solitaire.lessons.grading import graded_verdicts
        importlib.reload(moves)
        def waste_moves(p, targets, wants):  # (the reloaded module's moves are of its own new class)
            return [Move(*m) for m in moves._waste_moves(p, moves.rules(p.variant), targets, wants)]
        practice = check("02b.waste_moves", waste_moves, quiet=True)
        graded = graded_verdicts([("02b.waste_moves", waste_moves)], secret={SECRET!r})[0]
        print(practice, graded.state, graded.message)
    """)
    (tmp_path / "reload.py").write_text(script, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, str(tmp_path / "reload.py")], capture_output=True, text=True, env=env,
                          timeout=600)
    practice, state, message = done.stdout.strip().split(" ", 2)
    import solitaire.moves
    # a compiled module cannot be reloaded (its functions stay the kit's), so there the practice check refuses it too
    compiled = not solitaire.moves.__file__.endswith(".py")
    assert (practice, state) == ("False" if compiled else "True", "wrong") and "_waste_moves" in message, (
        done.stdout + done.stderr)


def test_copies_are_named_in_graded_mode(course: Path) -> None:
    """A renamed copy of the kit's piece, the teacher's solution pasted, and the kit's piece pasted as a string and
    run with exec: each is named a copy, in a kernel and in a course's notebook."""
    import inspect

    from solitaire.classroom.graded import grade_notebook
    from solitaire.lessons import lesson07
    from solitaire.lessons.copies import teacher_solutions
    kit = inspect.getsource(lesson07.depth_first).replace("depth_first", "dfs").replace("visited", "seen")
    teachers = next(s for s in teacher_solutions("07.dfs", [ROOT / "notebooks"]) if "def dfs" in s)
    in_a_string = f"SOURCE = {inspect.getsource(lesson07.depth_first)!r}\nexec(SOURCE)\ndfs = depth_first\n"
    for source, copied in ((kit, "the kit's depth_first"), (teachers, "the teacher's solution dfs"),
                           (in_a_string, "the kit's depth_first")):
        nb, assignment = _with_answer(course, "07.dfs", source)
        run = grade_notebook(nb, course, assignment, only=("07.dfs",))
        assert [state for _, name, state in run if name == "07.dfs"] == ["wrong"]
        cell = next(c for c in nb["cells"] if "assert grade('07.dfs'" in "".join(c["source"]))
        assert copied in cell["outputs"][0]["evalue"], cell["outputs"]
    namespace: dict = {}
    exec(teachers, {**vars(lesson07), "legal_moves": lesson07.legal_moves}, namespace)
    verdict = graded_verdicts([("07.dfs", namespace["dfs"])], secret=SECRET)[0]
    assert verdict.state == "wrong" and "the teacher's solution dfs" in verdict.message, verdict


def test_the_graded_kit_holds_no_piece_checker_or_answer(tmp_path: Path) -> None:
    from solitaire.lessons.stripped import build_kit
    kit = build_kit("02b.waste_moves", tmp_path) / "solitaire"
    moves = (kit / "moves.py").read_text(encoding="utf-8")
    assert "_waste_moves = _absent_piece('solitaire.moves._waste_moves', None)" in moves
    assert "def _waste_moves" not in moves and "def legal_moves" not in moves
    texts = {p.relative_to(kit).as_posix(): p.read_text(encoding="utf-8") for p in kit.rglob("*.py")}
    lessons = "\n".join(t for name, t in texts.items() if name.startswith("lessons/"))
    for private in ("_checked_width_answer", "_range_of", "_rules_choice", "_greedy_count", "_smallest",
                    "@exercise(", "EXERCISES[name]", "P_VALUE_PAIRS", "REACHABLE_DEALS"):
        assert private not in lessons, private
    assert not [p for p in kit.rglob("*") if p.suffix in (".ipynb", ".md", ".js")]
    assert not (kit / "classroom").exists() and not (kit / "entrants").exists()


PROBE = '''
import os, socket, solitaire
def probe():
    seen = {"uid": os.getuid(), "kit files": sorted(os.listdir(REAL_KIT)) if os.path.isdir(REAL_KIT) else None,
            "guide": os.path.exists(GUIDE), "kit here": os.path.dirname(solitaire.__file__),
            "secret": [k for k in os.environ if "SECRET" in k]}
    try:
        socket.create_connection(("1.1.1.1", 53), timeout=2)
        seen["network"] = True
    except OSError:
        seen["network"] = False
    return seen
'''


def test_the_sandbox_shows_the_answer_neither_the_kit_nor_the_guide_nor_the_network(tmp_path: Path) -> None:
    from solitaire.lessons.remote import AnswerProcess, as_remote
    from solitaire.lessons.stripped import build_kit
    if not detect().isolated:
        pytest.skip(detect().line)
    import solitaire
    real = str(Path(solitaire.__file__).resolve().parent)
    process = AnswerProcess(build_kit("01.red_cards", tmp_path))
    try:
        description, problems = process.load("source", [(f"REAL_KIT = {real!r}\nGUIDE = {TEACHERS!r}\n" + PROBE,
                                                         "<probe>")], "probe")
        seen = as_remote(process, description)()
    finally:
        process.stop()
    assert not problems and seen["kit files"] == [] and seen["guide"] is False and seen["network"] is False, seen
    assert seen["kit here"] == "/kit/solitaire" and seen["secret"] == [], seen
    if os.geteuid() == 0:
        assert seen["uid"] >= UIDS, seen  # a user id of its own, as a tournament's entrant gets (box_uid)


def test_hidden_inputs_follow_the_courses_secret_and_practice_keeps_its_own() -> None:
    code = "from solitaire.lessons import lesson06, lesson05; print(lesson06.DEALS_WIDTHS, lesson05.STRATEGY_DEALS)"
    said = []
    for secret in (None, "course A", "course B", "course A"):
        env = {k: v for k, v in os.environ.items() if k != "SOLITAIRE_GRADING_SECRET"}
        if secret:
            env["SOLITAIRE_GRADING_SECRET"] = secret
        said.append(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                                   cwd=ROOT).stdout)
    from solitaire.lessons import lesson05, lesson06
    assert said[0].strip() == f"{lesson06.DEALS_WIDTHS} {lesson05.STRATEGY_DEALS}" == "[0.114, 0.093, 0.091, 0.019, " \
                                                                                     "0.015] range(0, 150)"
    assert said[1] == said[3] != said[2] and said[1] != said[0]


def test_an_answer_that_never_returns_is_stopped_by_its_cpu() -> None:
    def red_cards(cards):
        while True:
            pass
    from solitaire.lessons.grading import pickled
    import base64
    request = {"exercise": "01.red_cards", "kind": "pickle", "answer": None, "limits": {"cpu_seconds": 2},
               "payload": base64.b64encode(pickled(red_cards)).decode()}
    verdict = run_grader([request], secret=SECRET)[0][0]
    assert verdict.state == "wrong" and "stopped your answer" in verdict.message and verdict.cpu >= 2, verdict


def test_grade_in_a_kernel_defers_to_the_autograde(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture) -> None:
    from solitaire.lessons import grade
    from solitaire.lessons.grading import DEFERRED
    monkeypatch.setenv(DEFERRED, "1")
    assert grade("01.red_cards", lambda cards: 0) is True
    assert "graded outside this notebook" in capsys.readouterr().out
    monkeypatch.delenv(DEFERRED)
    assert grade("01.red_cards", lambda cards: 0, secret=SECRET) is False
    assert capsys.readouterr().out.startswith("✘ Not yet (graded): red_cards gave 0")


def test_the_grading_process_says_where_the_answers_ran() -> None:
    verdicts, line = run_grader([], secret=SECRET)
    assert verdicts == [] and line == detect().line and line.startswith("sandbox: ")
