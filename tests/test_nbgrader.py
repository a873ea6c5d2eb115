"""A teacher's whole nbgrader cycle, with nbgrader's own commands, on a course made by ``python -m solitaire nbgrader``.

One run (it is slow): make the course, ``nbgrader generate_assignment`` two lessons, hand in four fake students'
notebooks (every answer right: the teacher's solutions; the stubs as released; one plausible wrong answer; and
cheats that the practice check passes: a table of its inputs, a kit function that computes the same, the notebook's
own ``grade`` patched to say yes) while a fifth student of the class hands in nothing, ``nbgrader autograde``,
``nbgrader export``. The gradebook's grades must be what the graded check says (outside the notebook's kernel): the
practice ``check`` in the student's own notebook on honest answers, no points for the cheats; nbgrader's export must
give its usual totals per student and assignment, the class report must count only what was handed in, the release
must run top to bottom and hold no solution and no secret, and its card tables must still draw as pictures.
"""
from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

from solitaire import cli  # noqa: E402
from solitaire.classroom.course import BEGIN, END, check_calls, exercise_id, write_course  # noqa: E402
from solitaire.lessons.checks import KIT_ANSWER_NOTE  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENTS = ["01b_shuffles", "02b_moves"]  # 01b shows a card table as a picture; both run in about 10 s
WRONG = ("01b.places", "def places(card, variant, shuffles):  # seeds 1 to shuffles: off by one\n"
                       "    counts = [0] * len(full_deck(variant.ranks))\n"
                       "    for seed in range(1, shuffles + 1):\n"
                       "        counts[shuffled_deck(variant, seed).index(card)] += 1\n"
                       "    return counts\n")
# The cheater's answers pass the practice check in their own notebook; the graded check refuses both.
CHEATS = {
    "01b.places": "from solitaire.lessons.lesson01 import _place_inputs\nfrom solitaire.state import shuffled_deck\n"
                  "TABLE = {}\nfor card, game, n in _place_inputs():\n    counts = [0] * len(full_deck(game.ranks))\n"
                  "    for seed in range(n):\n        counts[shuffled_deck(game, seed).index(card)] += 1\n"
                  "    TABLE[card, game.name, n] = counts\n"
                  "def places(card, variant, shuffles):  # the practice inputs, worked out before the check\n"
                  "    return TABLE[card, variant.name, shuffles]\n",
    "02b.waste_moves": "import solitaire.lessons\nsolitaire.lessons.grade = lambda *args, **kwargs: True  # the kernel's\n"
                       "from solitaire.explain import explain_illegal\ndef waste_moves(p, targets, wants):\n"
                       "    candidates = [Move(WASTE_TO_FOUNDATION)] + [Move(WASTE_TO_COLUMN, target=t) "
                       "for t in range(len(p.columns))]\n    return [m for m in candidates if explain_illegal(p, m) is None]\n",
}
STUDENTS = ["all_right", "stubs", "one_wrong", "cheater"]
ABSENT = "absent"  # in the class (nbgrader db student add), hands nothing in
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}


def run(args: list[str], cwd: Path) -> str:
    done = subprocess.run(args, cwd=cwd, env=ENV, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, f"{' '.join(args)} failed:\n{done.stderr[-3000:]}"
    return done.stdout + done.stderr


def _meta(cell) -> dict:
    return cell.metadata.get("nbgrader", {})


def _solution(source: str) -> str:
    """The teacher's answer: what lies between the solution markers of a source cell."""
    return source.split(BEGIN + "\n", 1)[1].split("\n" + END, 1)[0] + "\n"


def hand_in(course: Path, assignment: str, student: str) -> None:
    """Write ``student``'s notebook into submitted/, as nbgrader's collect would."""
    release = nbformat.read(course / "release" / assignment / f"{assignment}.ipynb", as_version=4)
    source = nbformat.read(course / "source" / assignment / f"{assignment}.ipynb", as_version=4)
    answers = {_meta(c)["grade_id"]: _solution(c.source) for c in source.cells if _meta(c).get("solution")}
    for cell in release.cells:
        grade_id = _meta(cell).get("grade_id")
        if student != "stubs" and _meta(cell).get("solution"):
            cell.source = answers[grade_id]
            if student == "one_wrong" and grade_id == WRONG[0].replace(".", "-") + "-answer":
                cell.source = WRONG[1]
            cheat = next((c for e, c in CHEATS.items() if grade_id == e.replace(".", "-") + "-answer"), None)
            if student == "cheater" and cheat:
                cell.source = cheat
    folder = course / "submitted" / student / assignment
    folder.mkdir(parents=True)
    nbformat.write(release, folder / f"{assignment}.ipynb")


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("nbgrader") is None:
        pytest.skip("nbgrader is not installed (pip install -e '.[teach]')")
    course = tmp_path_factory.mktemp("class") / "course"
    started = time.perf_counter()
    run([sys.executable, "-m", "solitaire", "nbgrader", str(course)], ROOT)
    run(["nbgrader", "db", "student", "add", ABSENT], course)
    for assignment in ASSIGNMENTS:
        run(["nbgrader", "generate_assignment", assignment, "--create"], course)
        for student in STUDENTS:
            hand_in(course, assignment, student)
        run(["nbgrader", "autograde", assignment, "--create"], course)
    run(["nbgrader", "export"], course)
    print(f"\nthe nbgrader cycle ({len(ASSIGNMENTS)} lessons, {len(STUDENTS)} students): "
          f"{time.perf_counter() - started:.0f} s of wall time")
    return course


def grades(course: Path) -> dict[tuple[str, str, str], tuple[float, float]]:
    """The gradebook's score and most points per assignment, student and exercise, as the class report reads it."""
    from solitaire.classroom.class_report import read_grades
    table = read_grades(course)
    return {(r.assignment, r.student_id, r.exercise): (r.score, r.max_score) for r in table.itertuples()
            if r.submitted}


def autograded(course: Path, student: str, assignment: str):
    return nbformat.read(course / "autograded" / student / assignment / f"{assignment}.ipynb", as_version=4)


def _text(cell) -> str:
    return "".join(o.get("text", "") + o.get("data", {}).get("text/plain", "") for o in cell.get("outputs", []))


def what_check_said(nb) -> dict[str, bool]:
    """The verdict of each exercise's ordinary check cell, read from its output in the graded notebook."""
    said = {}
    for cell in nb.cells:
        if cell.cell_type == "code" and not _meta(cell).get("grade"):
            for check_id, _ in check_calls(cell.source):
                out = _text(cell)
                assert ("✔ Right" in out) != ("✘ Not yet" in out), f"{check_id}: the check printed {out!r}"
                said[check_id] = "✔ Right" in out
    return said


def test_every_lesson_with_exercises_is_an_assignment(course: Path) -> None:
    lessons = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb")
                     if '"solution"' in p.read_text(encoding="utf-8"))
    assert sorted(p.name for p in (course / "source").iterdir()) == lessons
    assert (course / "nbgrader_config.py").is_file() and set(ASSIGNMENTS) <= set(lessons)


def test_the_exported_grades_are_the_graded_checks_and_the_practice_agrees_on_honest_answers(course: Path) -> None:
    table = grades(course)
    for assignment in ASSIGNMENTS:
        for student in STUDENTS:
            said = what_check_said(autograded(course, student, assignment))
            exported = {ex: score for (a, s, ex), score in table.items() if a == assignment and s == student}
            assert set(exported) == set(said) and said, (assignment, student, exported, said)
            for ex, (score, most) in exported.items():
                intended = {"all_right": True, "stubs": False, "one_wrong": ex != WRONG[0],
                            "cheater": ex not in CHEATS}[student]
                assert score == (most if intended else 0.0), (assignment, student, ex, score)
                practice = intended or student == "cheater"  # the cheats pass the practice check in the kernel
                assert said[ex] == practice, f"{student}'s {ex}: check said {said[ex]}, meant {practice}"
    assert WRONG[0] in {ex for (_, _, ex) in table}, "the wrong answer's exercise is gone: pick another"
    assert set(CHEATS) <= {ex for (_, _, ex) in table}, "a cheat's exercise is gone: pick another"


def test_the_autograded_test_cells_say_the_graded_verdict(course: Path) -> None:
    """Each test cell's output is the verdict of the graded check, made outside the kernel: the cheater's patched
    ``grade`` said yes in the kernel, and the cell says what the grading process found."""
    cells = [c for c in autograded(course, "cheater", "02b_moves").cells if _meta(c).get("grade")]
    [output] = cells[0].outputs
    assert output.output_type == "error" and "explain_illegal" in output.evalue, output
    right = [c for c in autograded(course, "all_right", "02b_moves").cells if _meta(c).get("grade")]
    assert right[0].outputs[0].text.startswith("✔ Right (graded outside this notebook")


def test_the_release_holds_no_solution_and_the_kits_answers_wait_for_the_check(course: Path) -> None:
    for assignment in ASSIGNMENTS:
        source = nbformat.read(course / "source" / assignment / f"{assignment}.ipynb", as_version=4)
        release = (course / "release" / assignment / f"{assignment}.ipynb").read_text(encoding="utf-8")
        assert BEGIN not in release and END not in release
        released = json.loads(release)
        assert not [c for c in released["cells"] if c["cell_type"] == "code" and c["outputs"]]
        code = "\n".join("".join(c["source"]) for c in released["cells"]).splitlines()
        for cell in source.cells:
            if _meta(cell).get("solution"):
                leaked = [line for line in _solution(cell.source).splitlines() if line.strip() in map(str.strip, code)
                          and not line.lstrip().startswith(("def ", '"""', "#"))]
                assert leaked == [], f"{assignment}: solution lines in the release: {leaked}"
        # the kit's own version is not in the release (no edit of a cell opens it): check prints it once right
        assert not [c for c in released["cells"] if "after=" in "".join(c["source"])]
        secret = (course / "grading_secret").read_text(encoding="utf-8").strip()
        assert len(secret) == 64 and not [p for p in (course / "release").rglob("*") if p.is_file() and secret in
                                         p.read_text(encoding="utf-8", errors="replace")]
    for a in ASSIGNMENTS:  # where the teacher's copy shows the kit's answer in a cell, the release holds a note
        if "after=" in (ROOT / "notebooks" / f"{a}.ipynb").read_text(encoding="utf-8"):
            assert KIT_ANSWER_NOTE in (course / "release" / a / f"{a}.ipynb").read_text(encoding="utf-8")


def test_a_release_runs_top_to_bottom_and_only_the_test_cells_fail(course: Path) -> None:
    """nbclient stops at an error unless the cell is tagged raises-exception (as JupyterLab's Run All does): the
    release runs to its end, and the only failures are the autograded test cells of the unanswered exercises."""
    nb = nbformat.read(course / "release" / "02b_moves" / "02b_moves.ipynb", as_version=4)
    nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(course / "release" / "02b_moves")}}).execute()
    assert all(c.execution_count for c in nb.cells if c.cell_type == "code")
    for assignment in ASSIGNMENTS:
        for student in [s for s in STUDENTS if s != "cheater"]:  # a table of the practice inputs fails later cells
            for cell in autograded(course, student, assignment).cells:
                errors = [o for o in cell.get("outputs", []) if o.output_type == "error"]
                if errors:
                    assert _meta(cell).get("grade") and errors[0].ename == "AssertionError", (student, cell.source)
                    assert student != "all_right"


def test_card_tables_still_draw_as_pictures(course: Path) -> None:
    for assignment in ASSIGNMENTS:
        teacher = nbformat.read(ROOT / "notebooks" / f"{assignment}.ipynb", as_version=4)
        pictured = {c.id for c in teacher.cells for o in c.get("outputs", []) if "image/svg+xml" in o.get("data", {})}
        graded = autograded(course, "stubs", assignment)
        drawn = {c.id for c in graded.cells for o in c.get("outputs", []) if "image/svg+xml" in o.get("data", {})}
        assert pictured <= drawn, f"{assignment}: cells {sorted(pictured - drawn)} no longer draw their card table"
    assert any("image/svg+xml" in json.dumps(autograded(course, "stubs", a).cells) for a in ASSIGNMENTS)


def test_nbgrader_export_gives_its_usual_totals_per_student_and_assignment(course: Path) -> None:
    """What a learning platform takes: nbgrader's own table, a row per student and assignment, its score the sum of
    that student's exercises in the gradebook; the student who handed nothing in has 0."""
    with open(course / "grades.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert {"assignment", "student_id", "raw_score", "score", "max_score"} <= set(rows[0])
    assert "exercise" not in rows[0]
    assert sorted((r["assignment"], r["student_id"]) for r in rows) == sorted(
        (a, s) for a in ASSIGNMENTS for s in STUDENTS + [ABSENT])
    table = grades(course)
    most = {(a, ex): top for (a, _, ex), (_, top) in table.items()}
    for r in rows:
        mine = [score for (a, s, _), (score, _) in table.items() if (a, s) == (r["assignment"], r["student_id"])]
        assert float(r["score"]) == sum(mine), r
        assert float(r["max_score"]) == sum(top for (a, _), top in most.items() if a == r["assignment"]), r
    assert float(next(r for r in rows if r["student_id"] == ABSENT)["score"]) == 0


def test_a_cell_is_stopped_after_the_courses_timeout(course: Path) -> None:
    """A looping answer holds autograde up for a minute a cell, not ten: the config nbgrader reads says 60 s."""
    from traitlets.config.loader import PyFileConfigLoader
    from solitaire.classroom.course import CELL_TIMEOUT
    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    assert config.Execute.timeout == CELL_TIMEOUT == 60
    assert "plugin_class" not in config.get("ExportApp", {})  # nbgrader's own export


def test_the_class_report_counts_only_what_was_handed_in(course: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture) -> None:
    from solitaire.classroom.class_report import class_report
    report = class_report(course, out=tmp_path / "report.png")
    assert (tmp_path / "report.png").stat().st_size > 10_000
    assert report.missing == {a: [ABSENT] for a in ASSIGNMENTS}
    assert (report.exercises["students"] == len(STUDENTS)).all() and (report.exercises["not_submitted"] == 1).all()
    wrong = report.exercises.set_index("exercise").loc[WRONG[0]]
    assert (wrong["students"], wrong["right"]) == (4, 1) and wrong["low"] < 1 / 4 < wrong["high"]
    assert set(report.students.loc[ABSENT].iloc[:-2]) == {"–"}
    assert cli.main(["class-report", str(course), "--by-exercise", str(tmp_path / "rows.csv")]) == 0
    said = capsys.readouterr().out
    assert all(f"did not submit {a}: {ABSENT}" in said for a in ASSIGNMENTS) and "one per student and exercise" in said
    with open(tmp_path / "rows.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(report.exercises) * (len(STUDENTS) + 1)
    assert {r["submitted"] for r in rows if r["student_id"] == ABSENT} == {"False"}
    again = class_report(tmp_path / "rows.csv", plot=False)
    assert again.exercises.equals(report.exercises) and again.missing == report.missing
    assert report.students.loc["all_right", "points"] == report.students.loc["all_right", "of"]
    assert report.students.loc["stubs", "points"] == 0
    assert (report.students.loc["one_wrong", WRONG[0]], report.students.loc["one_wrong", "points"]) == (
        "✘", report.students.loc["one_wrong", "of"] - 1)
    assert exercise_id("01-red_cards") == "01.red_cards"


# --- the generator alone, on lessons of one's own (no nbgrader needed) ---------------------------------------

def _lesson(folder: Path, cells: list[tuple[str, str, list[str]]]) -> Path:
    nb = nbformat.v4.new_notebook()
    for kind, source, tags in cells:
        cell = nbformat.v4.new_code_cell(source) if kind == "code" else nbformat.v4.new_markdown_cell(source)
        if tags:
            cell.metadata["tags"] = tags
        nb.cells.append(cell)
    folder.mkdir(exist_ok=True)
    nbformat.write(nb, folder / "01_mine.ipynb")
    return folder


def test_a_lesson_of_ones_own_becomes_an_assignment(tmp_path: Path) -> None:
    lessons = _lesson(tmp_path / "lessons", [
        ("markdown", "# 01 · Mine", []),
        ("code", "from solitaire.lessons import check, show_source\nfrom solitaire import moves\n"
                 "deal_text = open('deal.txt').read()", []),
        ("code", 'def draw(p):\n    """The position after a draw."""\n    return moves._draw(p)', ["solution"]),
        ("code", 'check("02c.draw", draw)', []),
        ("markdown", "The kit's version comes with the recycle:", []),
        ("code", "show_source(moves._recycle)\nshow_source(moves._flip)", []),
        ("code", "show_source(moves._draw)\nshow_source(moves.apply)", []),
    ])
    (lessons / "deal.txt").write_text("a deal", encoding="utf-8")
    (tmp_path / "points.json").write_text('{"02c.draw": 2}', encoding="utf-8")
    assert write_course(tmp_path / "course", lessons, tmp_path / "points.json") == {"01_mine": ["02c.draw"]}
    folder = tmp_path / "course" / "source" / "01_mine"
    assert (folder / "deal.txt").read_text(encoding="utf-8") == "a deal"
    cells = nbformat.read(folder / "01_mine.ipynb", as_version=4).cells
    assert [c.metadata.get("nbgrader", {}).get("grade_id") for c in cells] == [
        None, None, "02c-draw-answer", None, "02c-draw", None, None, None]
    solution, test = cells[2], cells[4]
    assert solution.source.startswith("def draw(p):") and "raise NotImplementedError\n" + BEGIN in solution.source
    assert test.metadata["nbgrader"]["points"] == 2 and test.metadata["nbgrader"]["locked"]
    assert "assert grade('02c.draw', draw)" in test.source and "2 points" in test.source
    # cell 6 follows the check and "The kit's version": its first show_source is the kit's answer; in cell 7 the
    # name says so: each becomes a note (check prints the kit's version once right)
    assert cells[6].source == KIT_ANSWER_NOTE + '\nshow_source(moves._flip)'
    assert cells[7].source == KIT_ANSWER_NOTE + '\nshow_source(moves.apply)'


def test_a_solution_without_its_check_is_refused(tmp_path: Path) -> None:
    lessons = _lesson(tmp_path / "lessons", [("code", "x = 1", ["solution"]), ("code", "print(x)", [])])
    with pytest.raises(ValueError, match="has no check"):
        write_course(tmp_path / "course", lessons)


def _cli(args: list[str], capsys: pytest.CaptureFixture) -> tuple[int, str]:
    try:
        code = cli.main(args)
    except SystemExit as e:
        code = e.code
    return code, capsys.readouterr().err


def test_bad_arguments_get_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine", encoding="utf-8")
    (tmp_path / "bad.json").write_text('{"99.nothing": 1}', encoding="utf-8")
    (tmp_path / "zero.json").write_text('{"02c.draw": 0}', encoding="utf-8")
    nbgrader_csv = tmp_path / "nbgrader.csv"
    nbgrader_csv.write_text("assignment,student_id,raw_score,score,max_score\n02b_moves,ana,1,1,2\n", encoding="utf-8")
    (tmp_path / "no_gradebook").mkdir()
    cases = [
        (["nbgrader", str(tmp_path / "full")], "is not empty: give a new or empty folder, or --force to update"),
        (["nbgrader", str(tmp_path / "c1"), "--points", str(tmp_path / "bad.json")], "no exercise of the lessons"),
        (["nbgrader", str(tmp_path / "c2"), "--points", str(tmp_path / "zero.json")], "a number above 0"),
        (["nbgrader", str(tmp_path / "c3"), "--points", str(tmp_path / "none.json")], "cannot read the points file"),
        (["nbgrader", str(tmp_path / "c4"), "--lessons", str(tmp_path / "nowhere")], "no lessons folder"),
        (["nbgrader"], "the following arguments are required: COURSE_DIR"),
        (["class-report", str(tmp_path / "none.csv")], "there is no course folder or file"),
        (["class-report", str(nbgrader_csv)], "nbgrader export's table of totals"),
        (["class-report", str(tmp_path / "no_gradebook")], "has no gradebook.db: give the course folder after"),
        (["class-report", str(nbgrader_csv), "--out", str(tmp_path)], "is a folder"),
        (["class-report", str(nbgrader_csv), "--by-exercise", str(tmp_path)], "is a folder"),
    ]
    for args, said in cases:
        code, err = _cli(args, capsys)
        errors = [line for line in err.splitlines() if "error:" in line]  # argparse's usage lines aside
        assert code == 2 and len(errors) == 1 and said in errors[0], (args, code, err)
    assert (tmp_path / "full" / "notes.txt").read_text(encoding="utf-8") == "mine"  # nothing written over
    assert not (tmp_path / "c1").exists()


def test_force_rewrites_the_source_and_keeps_the_rest(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    course = tmp_path / "course"
    (course / "submitted" / "ana").mkdir(parents=True)
    (course / "grading_secret").write_text("the course's own\n", encoding="utf-8")
    assert _cli(["nbgrader", str(course), "--force"], capsys)[0] == 0
    assert (course / "submitted" / "ana").is_dir() and (course / "source" / "02b_moves" / "02b_moves.ipynb").is_file()
    assert (course / "grading_secret").read_text(encoding="utf-8") == "the course's own\n"  # its hidden inputs kept
    assert json.loads((course / "points.json").read_text(encoding="utf-8"))["02c.draw"] == 1


def test_force_keeps_the_teachers_config_and_edits_and_updates_the_points(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture) -> None:
    """Issue 55: --force (TEACHERS.md's "changing points") silently commented out an uncommented c.Exchange.root
    again and lost the teacher's edits to source/."""
    course = tmp_path / "course"
    assert _cli(["nbgrader", str(course)], capsys)[0] == 0
    config = course / "nbgrader_config.py"
    config.write_text(config.read_text(encoding="utf-8").replace('# c.Exchange.root = "/srv/nbgrader/exchange"',
                                                                 'c.Exchange.root = "/srv/exchange"'), encoding="utf-8")
    edited = course / "source" / "02c_apply" / "02c_apply.ipynb"
    nb = nbformat.read(edited, as_version=4)
    nb.cells.insert(1, nbformat.v4.new_markdown_cell("My class does this one on paper first."))
    nbformat.write(nb, edited)
    (course / "source" / "02c_apply" / "hints.md").write_text("mine", encoding="utf-8")
    untouched = course / "source" / "02b_moves" / "02b_moves.ipynb"
    (course / "points.json").write_text(json.dumps({"02c.draw": 3, "02b.waste_moves": 2}), encoding="utf-8")
    untouched.write_text(untouched.read_text(encoding="utf-8").replace('"points": 1.0', '"points": 7.0'),
                         encoding="utf-8")  # as an older kit wrote it: not the teacher's edit, since only points differ
    code = cli.main(["nbgrader", str(course), "--points", str(course / "points.json"), "--force"])
    out = capsys.readouterr().out
    assert code == 0
    assert 'c.Exchange.root = "/srv/exchange"' in config.read_text(encoding="utf-8")
    assert f"{config}: you changed it since it was written: kept as it is" in out
    assert f"{edited}: you changed it: kept with your changes, its points updated" in out
    cells = nbformat.read(edited, as_version=4).cells
    assert cells[1].source == "My class does this one on paper first."
    graded = {c.metadata["nbgrader"]["grade_id"]: c for c in cells if c.metadata.get("nbgrader", {}).get("grade")}
    assert graded["02c-draw"].metadata["nbgrader"]["points"] == 3 and "3 points" in graded["02c-draw"].source
    assert (course / "source" / "02c_apply" / "hints.md").read_text(encoding="utf-8") == "mine"
    moves = {c.metadata["nbgrader"]["grade_id"]: c.metadata["nbgrader"]["points"]
             for c in nbformat.read(untouched, as_version=4).cells if c.metadata.get("nbgrader", {}).get("grade")}
    assert moves["02b-waste_moves"] == 2 and f"{untouched}: you changed" not in out  # the command's own: rewritten
    assert not list(course.glob(".solitaire-partial-*"))
    code = cli.main(["nbgrader", str(course), "--force"])  # again, with the course's own points.json
    out = capsys.readouterr().out
    assert code == 0 and f"{edited}: you changed it" in out and "3 points" in graded["02c-draw"].source


def test_a_course_from_student_copies_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Issue 55: a course made from a student's working copy succeeded, and its "solutions" were the stubs."""
    assert cli.main(["lessons", str(tmp_path / "copy")]) == 0
    code, err = _cli(["nbgrader", str(tmp_path / "CP5"), "--lessons", str(tmp_path / "copy")], capsys)
    assert code == 2 and err.count("\n") == 1
    assert f"the lessons in {str(tmp_path / 'copy')!r} are student copies (" in err
    assert "give the teacher's lessons, the kit's own (leave out --lessons)" in err
    assert not (tmp_path / "CP5").exists()


def test_paths_are_printed_as_paths(tmp_path: Path, capsys: pytest.CaptureFixture,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 55: `nbgrader course/` printed course//source/..."""
    monkeypatch.chdir(tmp_path)
    assert cli.main(["nbgrader", "course/"]) == 0
    out = capsys.readouterr().out
    assert "//" not in out and "course/source/02b_moves/02b_moves.ipynb: 1 exercise (02b.waste_moves)" in out
    assert out.splitlines()[-1].startswith("next: cd course && nbgrader generate_assignment 01_cards --create")


def test_the_class_report_never_writes_over_nbgrader_exports_grades(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture) -> None:
    """Issue 55: --by-exercise course/grades.csv silently replaced the file nbgrader export wrote (the same
    command refuses that file as input). An earlier --by-exercise file may be written again."""
    rows = tmp_path / "by_exercise.csv"
    rows.write_text("assignment,exercise,student_id,score,max_score,submitted\n01_cards,01.red_cards,ana,1,1,True\n",
                    encoding="utf-8")
    export = tmp_path / "grades.csv"
    export.write_text("assignment,duedate,timestamp,student_id,last_name,first_name,email,raw_score,"
                      "late_submission_penalty,score,max_score\n01_cards,,,ana,,,,1.0,0.0,1.0,2.0\n", encoding="utf-8")
    before = export.read_bytes()
    code, err = _cli(["class-report", str(rows), "--by-exercise", str(export)], capsys)
    assert code == 2 and err.count("\n") == 1 and export.read_bytes() == before
    assert f"--by-exercise {str(export)!r} is not a table of grades per exercise that this command wrote" in err
    assert "writing there would destroy it; give another file, such as by_exercise.csv" in err
    again = tmp_path / "again.csv"
    again.write_bytes(rows.read_bytes())
    code, err = _cli(["class-report", str(rows), "--by-exercise", str(again)], capsys)
    assert code == 0, err
    notes = tmp_path / "notes.png"  # a file that is no picture, whatever its name: not written over either
    notes.write_text("my notes\n", encoding="utf-8")
    code, err = _cli(["class-report", str(rows), "--out", str(notes)], capsys)
    assert code == 2 and "is not a picture that this command wrote" in err and notes.read_text() == "my notes\n"
