"""The student copies: solutions blanked to runnable stubs, outputs cleared, everything else kept."""
from __future__ import annotations

import ast
import re
import json
from pathlib import Path
from typing import Any

import pytest

from solitaire.classroom import student_copy as msv  # the maker; scripts/make_student_version.py wraps it
from solitaire.lessons.checks import KIT_ANSWER_NOTE, without_kit_answers

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_assignment_becomes_ellipsis() -> None:
    stub = msv.stub_for("answer = sum(range(10))\nx, y = 1, 2\nprint(answer)\n")
    assert stub.splitlines() == ["# your code here", "answer = ...", "x = ...", "y = ..."]


def test_only_the_answer_gets_a_stub_not_the_solutions_steps() -> None:
    """Lesson 08's stub once read `z = ...  p = ...  centre = ...  half = ...`: the steps of the formula. A stub now
    names only what later cells use (the answer); when they use none of its names, it names them all."""
    src = "z = 1.96\ncentre = 0.5\nhalf = z * 0.1\nmy_chance = (centre - half, centre + half)\n"
    assert msv.stub_for(src, {"my_chance", "check"}).splitlines() == ["# your code here", "my_chance = ..."]
    assert msv.stub_for(src, set()).count(" = ...") == 4
    nb = {"cells": [{"cell_type": "code", "metadata": {"tags": ["solution"]}, "source": src, "outputs": [],
                     "execution_count": 1},
                    {"cell_type": "code", "metadata": {}, "source": 'check("x", my_chance)', "outputs": [],
                     "execution_count": 2}]}
    assert msv.student_notebook(nb)["cells"][0]["source"] == "# your code here\nmy_chance = ..."


def test_function_keeps_signature_and_docstring() -> None:
    src = 'def f(a: int, b: int = 2) -> int:\n    """Add them."""\n    total = a + b\n    return total\n'
    stub = msv.stub_for(src)
    assert 'def f(a: int, b: int = 2) -> int:\n    """Add them."""\n    # your code here\n' in stub
    assert "total" not in stub and "raise NotImplementedError" in stub
    namespace: dict = {}
    exec(stub, namespace)
    with pytest.raises(NotImplementedError):
        namespace["f"](1)


def test_cell_without_names_and_unparsable_cell_get_the_plain_mark() -> None:
    assert msv.stub_for("game.play('draw')\n") == "# your code here\n"
    assert msv.stub_for("def broken(:\n") == "# your code here\n"


def _cells(nb: dict, kind: str = "code") -> list[dict]:
    return [c for c in nb["cells"] if c["cell_type"] == kind]


@pytest.fixture(scope="module")
def student_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("student")
    assert msv.main([str(ROOT / "notebooks"), str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def run_student_copy(student_dir: Path):
    """``run(stem)``: the student copy of a lesson, executed top to bottom in a fresh kernel, once per module
    (the tests that read its outputs share one run)."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    runs: dict[str, Any] = {}

    def run(stem: str):
        if stem not in runs:
            nb = nbformat.read(student_dir / f"{stem}.ipynb", as_version=4)
            nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",  # a Going deeper stem: "deeper/…"
                                    resources={"metadata": {"path": str((ROOT / "notebooks" / stem).parent)}}).execute()
            runs[stem] = nb
        return runs[stem]
    return run


def _outputs(nb) -> list:
    return [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]


def _printed(nb) -> str:
    """Everything a run of ``nb`` printed: streams, and the plain text of every displayed value."""
    outputs = _outputs(nb)
    return ("".join(o.get("text", "") for o in outputs if o.output_type == "stream")
            + "".join(o.get("data", {}).get("text/plain", "") for o in outputs))


def test_every_notebook_is_written(student_dir: Path) -> None:
    assert NOTEBOOKS, "no lesson notebooks found"
    assert sorted(p.name for p in student_dir.glob("*.ipynb")) == [p.name for p in NOTEBOOKS]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_solutions_blanked_and_outputs_cleared(path: Path, student_dir: Path) -> None:
    teacher = json.loads(path.read_text(encoding="utf-8"))
    student = json.loads((student_dir / path.name).read_text(encoding="utf-8"))
    assert len(teacher["cells"]) == len(student["cells"])
    for t, s in zip(teacher["cells"], student["cells"]):
        source = "".join(s["source"])
        if "solution" in t.get("metadata", {}).get("tags", []):
            assert "# your code here" in source
            ast.parse(source)  # a stub is valid Python
            body = "".join(t["source"])
            kept = [line for line in body.splitlines() if line.strip() and line in source.splitlines()
                    and not line.lstrip().startswith(("def ", '"""', "#"))]
            assert kept == [], f"solution lines leaked into the student copy: {kept}"
        elif s["cell_type"] == "code":  # the kit's answers (show_source(..., after=...)) become a note: teacher's only
            assert source == without_kit_answers("".join(t["source"]))
        else:
            assert source == "".join(t["source"])
        if s["cell_type"] == "code":
            assert s["outputs"] == [] and s["execution_count"] is None


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_each_lesson_has_one_to_four_solution_cells(path: Path) -> None:
    """Two to four exercises a period; a lesson that is the second half of a topic split in two periods (01b, 02a,
    02c, 03b) may have one."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    if path.stem.startswith("00") or path.stem == "05b_tournament":
        return  # the index has no exercises; in 05b the class runs the strategies it wrote in 05
    solutions = [c for c in _cells(nb) if "solution" in c.get("metadata", {}).get("tags", [])]
    assert 1 <= len(solutions) <= 4


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_student_copy_runs_without_errors(path: Path, run_student_copy) -> None:
    """A student who runs the blank copy top to bottom sees "Not yet" from every check, never a traceback."""
    nb = run_student_copy(path.stem)
    assert not [o for o in _outputs(nb) if o.output_type == "error"]
    texts = _printed(nb)
    checks = sum("check(" in c.source for c in nb.cells if c.cell_type == "code")
    assert texts.count("✘ Not yet") >= checks and "✔ Right" not in texts


def test_missing_folder_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert msv.main([str(tmp_path / "nowhere"), str(tmp_path / "out")]) == 2
    assert "no notebooks found" in capsys.readouterr().err


def test_the_old_script_still_writes_the_copies(tmp_path: Path) -> None:
    """scripts/make_student_version.py wraps the package's maker, from any folder and without PYTHONPATH."""
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_student_version.py"),
                           str(ROOT / "notebooks" / "02b_moves.ipynb"), str(tmp_path / "out")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    written = tmp_path / "out" / "02b_moves.ipynb"
    assert written.read_text(encoding="utf-8") == msv.student_notebook_text(ROOT / "notebooks" / "02b_moves.ipynb")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_teacher_notebooks_are_saved_executed_and_clean(path: Path) -> None:
    """Committed lessons carry their outputs (nbval compares them), no errors, and no bulky widget state."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    assert "widgets" not in nb["metadata"]
    for cell in _cells(nb):
        assert cell["execution_count"] is not None, f"cell {cell.get('id')} was not executed before saving"
        assert not [o for o in cell["outputs"] if o["output_type"] == "error"]
    tagged = [c for c in _cells(nb) if "nbval-ignore-output" in c.get("metadata", {}).get("tags", [])]
    for cell in tagged:  # only widgets, plots and progress bars (of experiments.run) may escape comparison
        src = "".join(cell["source"])
        assert any(word in src for word in ("play(", "widget(", "plot", "plots.", "challenge", "table", "run(")), src
        if "run(" in src and not any(word in src for word in ("play(", "widget(", "plot", "challenge", "table")):
            assert len(src.splitlines()) == 1 and "=" in src, f"a run( cell shows only its progress bar: {src}"


LESSONS = [p for p in NOTEBOOKS if p.stem[:2].isdigit()]
THIS_HELPERS_LESSONS = LESSONS  # every lesson, 00 to 08


@pytest.mark.parametrize("path", THIS_HELPERS_LESSONS, ids=lambda p: p.stem)
def test_each_lesson_opens_with_its_plan_and_ends_with_what_we_learned(path: Path) -> None:
    """One opening markdown cell with the question, 2-4 goals, the time and what comes before; a closing
    "What we learned" with links to the previous lesson, the index and the next one."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    first, last = "".join(nb["cells"][0]["source"]), "".join(nb["cells"][-1]["source"])
    assert nb["cells"][0]["cell_type"] == "markdown" and first.startswith("# ")
    for label in ("**Question:**", "**You will learn:**", "**Time:** about ", "**Before:**"):
        assert label in first, f"{path.name}: the opening cell has no {label}"
    goals = first.split("**You will learn:**")[1].split("**Time:**")[0]
    assert 2 <= sum(line.startswith("- ") for line in goals.splitlines()) <= 4
    assert re.search(r"\*\*Time:\*\* about \d+ minutes", first)
    if path.stem != "00_index":  # the index itself ends on its link to lesson 01 (below)
        assert "## What we learned" in last and "[index](00_index.ipynb)" in last
    i = LESSONS.index(path)  # in name order, so a split lesson (02b) comes after its first part (02)
    if i > 0:
        assert f"← [" in last and f"]({LESSONS[i - 1].name})" in last
    if i + 1 < len(LESSONS):
        assert f"]({LESSONS[i + 1].name}) →" in last


OUTSIDE_THE_REPOSITORY = re.compile(r"\.\.[/]shared|shared[/]RULES|RULES\.md")  # the folder beside the repository


@pytest.mark.parametrize("path", NOTEBOOKS + [ROOT / "README.md", ROOT / "notebooks" / "README.md",
                                               ROOT / "notebooks" / "TEACHERS.md"], ids=lambda p: p.name)
def test_nothing_points_outside_the_repository(path: Path) -> None:
    """The lessons and guides carry their own rules and glossary: no link to the specification folder that
    sits beside the repository during development (a clone of the kit does not have it)."""
    text = path.read_text(encoding="utf-8")
    assert not OUTSIDE_THE_REPOSITORY.search(text), OUTSIDE_THE_REPOSITORY.search(text)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_quoted_source_is_found(path: Path) -> None:
    """A lesson that quotes the kit's code with show_source must find the lines it quotes (the code changes)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    texts = ["".join(o.get("text", "")) for c in _cells(nb) for o in c["outputs"] if o["output_type"] == "stream"]
    assert not [t for t in texts if "(no line of " in t]


def test_a_stub_keeps_no_hint_of_the_solution(student_dir: Path) -> None:
    """Lesson 05a's stub of my_strategy (lesson 05's until it was split) once kept the solution's docstring ("Flips, then moves that uncover a
    face-down card, ... builds last"): a docstring a stub keeps may restate the question, not the method."""
    student = json.loads((student_dir / "05a_own_strategy.ipynb").read_text(encoding="utf-8"))
    stub = next("".join(c["source"]) for c in _cells(student) if "def my_strategy" in "".join(c["source"]))
    assert not [w for w in ("flip", "uncover", "build", "foundation", "draw", "waste") if w in stub.lower()], stub


def test_the_teachers_solutions_leave_lesson_01as_table_as_dealt() -> None:
    """After Run All of the teacher's copy, the challenge table must still be the deal to play, not a won game:
    the solution cells play on Games of their own."""
    nb = json.loads((ROOT / "notebooks" / "01a_play.ipynb").read_text(encoding="utf-8"))
    solutions = ["".join(c["source"]) for c in _cells(nb) if "solution" in c.get("metadata", {}).get("tags", [])]
    assert solutions and not [src for src in solutions if "challenge" in src]


def _kit_answers() -> dict[str, list[str]]:
    """What must not show in a student copy of lessons 05, 06, 06a, 06b and 06c before the student's check says right:
    the kit's own code for an exercise, and each exercise's expected answer, computed here independently."""
    import math

    def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
        p, d = k / n, 1 + z * z / n
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
        return (p + z * z / (2 * n)) / d - half, (p + z * z / (2 * n)) / d + half

    fewest = next(n for n in range(1, 20_000) if (lambda lo, hi: hi - lo)(*wilson(round(0.8 * n), n)) <= 0.02)
    p = 2 * sum(math.comb(87, k) for k in range(51, 88)) / 2**87
    return {"05_strategies": ["✔ Right", "def _uneven"], "05a_own_strategy": ["✔ Right", "greedy wins is"],
            "05b_tournament": ["def _uncovers", "def _rule_of"],
            "05c_intervals": ["def wald("],
            "06_experiments": ["def wilson(", "centre - half", f"{fewest:,}", str(fewest)],
            "deeper/06a_winnability": [f"klondike  {wilson(1805, 2000)[0]:.3f} to {wilson(1826, 2000)[1]:.3f}"],
            "06b_rules_and_players": ["def effect_points(", "✔ Right"],
            "06c_real_or_luck": [f"p ≈ {p:.2f}", f"{p:.3f}", f"{p:.2f}:"]}


@pytest.mark.parametrize("stem", sorted(_kit_answers()))
def test_a_student_copy_shows_none_of_the_kits_answers(stem: str, run_student_copy) -> None:
    """Run top to bottom, the student copy of 05, 05a, 05c, 06, 06b, 06c and Going deeper's 06a shows no answer of the kit's: not in its prose,
    not in any output (show_source(wilson, after="06.wilson") prints the code only once the check said right).
    The teacher's copy does show them, so the strings looked for are real."""
    nb = run_student_copy(stem)
    prose = "".join(c.source for c in nb.cells if c.cell_type == "markdown")
    shown = prose + _printed(nb)
    assert not [answer for answer in _kit_answers()[stem] if answer in shown], stem
    teacher = json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8"))
    teacher_shown = "".join("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", ""))
                            for c in _cells(teacher) for o in c["outputs"])
    assert any(answer in teacher_shown for answer in _kit_answers()[stem] if answer != "greedy wins is")


KIT_ANSWERS = {"02b_moves": ["def _waste_moves", "r.moves[WASTE_TO_COLUMN"], "02c_apply": ["def _draw", "drawn[::-1]"],
               "02d_builds": ["def _move_cards", "cards, cols[s] = cols[s][-k:]"]}


@pytest.mark.parametrize("stem", sorted(KIT_ANSWERS))
def test_a_student_copy_shows_no_kit_answer_before_the_check_says_right(stem: str, run_student_copy) -> None:
    """Run top to bottom, the student copy of 02b, 02c and 02d prints none of the kit's answers (the teacher's copy
    does, after its check), and where the teacher's copy shows one in a cell, the student's says where it will show."""
    teacher = (ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8")
    assert all(answer in teacher for answer in KIT_ANSWERS[stem])  # the test looks for text that can be there
    texts = _printed(run_student_copy(stem))
    assert not [answer for answer in KIT_ANSWERS[stem] if answer in texts]
    assert "The kit's own version, now that yours is right" not in texts  # check prints it only when right
    student = "".join("".join(c.source) for c in run_student_copy(stem).cells)
    if "after=" in teacher:
        assert KIT_ANSWER_NOTE in student  # the cell that showed it holds a note instead


# --- lessons 07, 07b, 08 and 08b: a student copy shows none of the kit's answers ------------------------------

SEARCH_LESSONS = ["07_search", "07a_search_work", "07b_solver_ideas", "deeper/07b_more_ideas", "08_uncertainty",
                  "08b_playing_blind"]


def _search_kit_answers(lesson: str) -> list[str]:
    """Text that would give a lesson's answers away: the lines of the kit's own versions of its exercises
    (what show_source prints once the check said right) and the expected numbers."""
    import inspect
    import math

    from solitaire.endgame import safe_to_foundation
    from solitaire.experiments import shipped
    from solitaire.lessons import lesson07, lesson07b, lesson08

    functions = {"07_search": [lesson07.depth_first], "07a_search_work": [lesson07.home_first_children],
                 "07b_solver_ideas": [lesson07b.play_safe_moves],  # its safe test is the kit's: lesson 07b uses it
                 "deeper/07b_more_ideas": [lesson07.canonical_state_key, safe_to_foundation],  # 07b's practice
                 "08_uncertainty": [], "08b_playing_blind": [lesson08.games_alone]}[lesson]
    body = [line.strip() for f in functions for line in inspect.getsource(f).splitlines()[1:]]
    texts = [line for line in body if len(line) > 12 and not line.startswith(('"""', "#", ">>>"))]
    if lesson == "08_uncertainty":
        texts += [str(math.factorial(34)), f"{math.factorial(34):.3e}"]  # the practice game: 34 cards unknown
    if lesson == "08b_playing_blind":
        expert = shipped("expert").query("variant == 'klondike' and strategy == 'expert'").set_index("seed").outcome
        greedy = shipped("seed_variants").query("variant == 'klondike' and strategy == 'greedy'").set_index("seed")
        alone = int(((expert == "won") & (greedy.outcome[expert.index] != "won")).sum())
        texts += [f"alone wins {alone}", f"({alone}, "]
    return texts


@pytest.mark.parametrize("lesson", SEARCH_LESSONS)
def test_a_student_copy_of_lessons_07_and_08_shows_no_answer(lesson: str, run_student_copy) -> None:
    """Run top to bottom, a student copy prints the kit's version of an exercise only as a promise ("shows here
    once check(...) says right"), and none of its lines or expected numbers (lesson 07 once imported
    depth_first before its exercise, and lesson07._mini_search(81) handed out 07.reachable's count)."""
    nb = run_student_copy(lesson)
    assert not [o for o in _outputs(nb) if o.output_type == "error"]
    shown = _printed(nb)
    promised = sum("after=" in c.source for c in nb.cells if c.cell_type == "code" and "show_source" in c.source)
    assert shown.count("(The kit's own version shows here once check(") == promised
    answers = _search_kit_answers(lesson)
    assert len(answers) >= 2 and [text for text in answers if text in shown] == []
