"""An nbgrader course made from the lessons: ``python -m solitaire nbgrader COURSE_DIR``.

Every lesson notebook with exercises (code cells tagged ``solution``, each followed by a cell that calls
``check("<id>", answer)``) becomes ``COURSE_DIR/source/<stem>/<stem>.ipynb``:

- a solution cell becomes an nbgrader solution cell: the student's stub (as ``solitaire.classroom.student_copy``
  writes it, so the release runs top to bottom) and then the teacher's answer between ``### BEGIN SOLUTION`` and
  ``### END SOLUTION``, which ``nbgrader generate_assignment`` removes;
- after the exercise's check cell comes a locked, autograded test cell, ``assert grade("<id>", answer)``: the
  graded check (``solitaire.lessons.grading``), the kit's check run in a fresh process on hidden inputs drawn from
  the course's secret, the student's code in a process of its own without the exercise's piece. In autograde the
  verdict is decided outside the notebook's kernel (``solitaire.classroom.graded``, configured in the course's
  ``nbgrader_config.py``). It is tagged ``raises-exception``, so Run All goes on past a wrong answer;
- a record of play (lesson 01a's exercises, ``HAND_GRADED``) gets no test cell: its answer cell is a manually
  graded answer, which the teacher grades by hand (a list of moves cannot show who or what found them);
- the kit's own version of an exercise's answer gets ``after="<id>"``, so it shows once the check has said right:
  a ``show_source(f)`` whose ``f`` has the student's function's name (give or take a leading ``_`` or ``my_``),
  and the first ``show_source`` of the code cell right after the check when the prose between speaks of the
  kit's version ("The kit's waste moves", "The kit has the same search"). A lesson's own ``after=`` is kept.

The course's ``nbgrader_config.py`` keeps nbgrader's own export (one row per student and assignment, the totals
a learning platform takes), stops a cell after ``CELL_TIMEOUT`` seconds and grades outside the kernel; the course's
``grading_secret`` (made once, kept by ``--force``) seeds its hidden inputs and never goes to a student. The rows per student and exercise come
from the gradebook through ``python -m solitaire class-report COURSE_DIR --by-exercise FILE``. This module imports
no nbgrader: nbgrader reads the course through its config.
"""
from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from pathlib import Path

from ..lessons.grader import HAND_GRADED
from .graded import SECRET_FILE, TEST_TAG, secret_text
from .student_copy import SOLUTION_TAG, STUB_MARK, lessons_folder, stub_for

BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
DEFAULT_POINTS = 1
CELL_TIMEOUT = 60  # seconds a cell may run in autograde: every lesson runs top to bottom in under a minute


@dataclass(frozen=True)
class Exercise:
    """One exercise of a lesson: its check id, the solution cell, the check cell and the answer's expression."""

    check_id: str
    solution_cell: int
    check_cell: int
    answer: str


def check_calls(source: str) -> list[tuple[str, str]]:
    """The ``check("<id>", answer)`` calls of a cell, as (id, the answer's source); none if it does not parse.

    >>> check_calls('check("02c.draw", draw)\\nprint(1)')
    [('02c.draw', 'draw')]
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    calls = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "check"
                and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            answer = ast.get_source_segment(source, node.args[1]) if len(node.args) > 1 else "..."
            calls.append((node.args[0].value, answer))
    return sorted(calls, key=lambda c: source.find(c[0]))


def _is_solution(cell: dict) -> bool:
    return cell["cell_type"] == "code" and SOLUTION_TAG in cell.get("metadata", {}).get("tags", [])


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def exercises(nb: dict, name: str = "the notebook") -> list[Exercise]:
    """The exercises of a lesson: each solution cell with the first ``check`` call after it.

    >>> nb = {"cells": [{"cell_type": "code", "metadata": {"tags": ["solution"]}, "source": "x = 1"},
    ...                 {"cell_type": "code", "metadata": {}, "source": 'check("01.x", x)'}]}
    >>> exercises(nb)
    [Exercise(check_id='01.x', solution_cell=0, check_cell=1, answer='x')]
    """
    cells = nb["cells"]
    found = []
    for i, cell in enumerate(cells):
        if not _is_solution(cell):
            continue
        for j in range(i + 1, len(cells)):
            if _is_solution(cells[j]):
                break
            calls = check_calls(_source(cells[j])) if cells[j]["cell_type"] == "code" else []
            if calls:
                found.append(Exercise(calls[0][0], i, j, calls[0][1]))
                break
        else:
            raise ValueError(f"{name}: the solution cell {i} has no check(\"<id>\", answer) cell after it: add one, "
                             "or remove its 'solution' tag")
    ids = [e.check_id for e in found]
    twice = sorted({x for x in ids if ids.count(x) > 1})
    if twice:
        raise ValueError(f"{name}: the exercise {twice[0]!r} is checked after two solution cells: give each its own id")
    return found


def lesson_notebooks(lessons: Path) -> dict[Path, list[Exercise]]:
    """Every notebook of the folder ``lessons`` that has exercises, with them, in name order.

    >>> found = lesson_notebooks(default_lessons())
    >>> "02b.waste_moves" in [e.check_id for e in found[default_lessons() / "02b_moves.ipynb"]]
    True
    """
    found = {}
    for path in sorted(lessons.glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        if any(_is_solution(c) for c in nb["cells"]):
            found[path] = exercises(nb, path.name)
    return found


def _stub(source: str, later: str) -> str:
    """The student's stub for a solution cell: the rule of ``student_copy``, the one home of stubs."""
    return stub_for(source, set(re.findall(r"[A-Za-z_]\w*", later)))


def grade_id(check_id: str) -> str:
    """nbgrader's id for an exercise's test cell: ids allow letters, digits, ``_`` and ``-``, so ``.`` becomes ``-``.

    >>> grade_id("02b.waste_moves"), exercise_id("02b-waste_moves")
    ('02b-waste_moves', '02b.waste_moves')
    """
    if not re.fullmatch(r"[A-Za-z0-9_.]+", check_id):
        raise ValueError(f"the exercise id {check_id!r} cannot be an nbgrader id: use letters, digits, _ and . only")
    return check_id.replace(".", "-")


def exercise_id(grade: str) -> str:
    """The check id of an nbgrader test cell's id (``grade_id`` undone).

    >>> exercise_id(grade_id("06b.sign_test"))
    '06b.sign_test'
    """
    return grade.replace("-", ".")


def _nbgrader(grade_id: str, *, solution: bool = False, grade: bool = False, points: float | None = None) -> dict:
    meta = {"grade": grade, "grade_id": grade_id, "locked": not solution, "schema_version": 3, "solution": solution}
    if grade:
        meta["points"] = points
    return meta


def _code_cell(source: str, metadata: dict) -> dict:
    return {"cell_type": "code", "execution_count": None, "metadata": metadata, "outputs": [], "source": source}


def _name(node: ast.expr) -> str | None:
    """The last name of ``moves._waste_moves`` or ``wilson``."""
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None


def _plain(name: str) -> str:
    """A function's name without a leading ``_`` or ``my_``: the kit's ``_draw`` and the student's ``draw`` meet."""
    name = name.lstrip("_")
    return name[3:] if name.startswith("my_") else name


def gate_kit_answers(source: str, answers: dict[str, str], first: str | None = None) -> str:
    """Add ``after="<id>"`` to each ``show_source(f)`` whose ``f`` is the kit's version of an exercise's function
    (``answers``: the plain function name to its check id), and with ``first`` (a check id) to the cell's first
    ``show_source``: the kit's own version shown right after an exercise. Each then shows only once that check
    said right.

    >>> gate_kit_answers("show_source(moves._draw)\\nshow_source(moves.apply)", {"draw": "02c.draw"})
    'show_source(moves._draw, after="02c.draw")\\nshow_source(moves.apply)'
    >>> gate_kit_answers('show_source(depth_first, "visited")', {}, first="07.dfs")
    'show_source(depth_first, "visited", after="07.dfs")'
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    calls = sorted((node for node in ast.walk(tree) if isinstance(node, ast.Call) and _name(node.func) == "show_source"
                    and node.args and not any(k.arg == "after" for k in node.keywords)),
                   key=lambda node: (node.lineno, node.col_offset))
    edits = {}
    for i, node in enumerate(calls):
        shown = _name(node.args[0])
        check_id = answers.get(_plain(shown)) if shown else None
        if check_id or (i == 0 and first):
            edits[(node.end_lineno - 1, node.end_col_offset - 1)] = check_id or first
    lines = source.splitlines(keepends=True)
    for (line, col), check_id in sorted(edits.items(), reverse=True):  # from the end: earlier offsets stay right
        text = lines[line].encode()  # ast's offsets count bytes
        lines[line] = (text[:col] + f', after="{check_id}"'.encode() + text[col:]).decode()
    return "".join(lines)


KIT_VERSION = re.compile(r"\bthe kit(?:'s| has)\b", re.IGNORECASE)  # "The kit's version ...", "The kit has the same"


def _shown_after(cells: list[dict], found: list[Exercise]) -> dict[int, str]:
    """The code cell right after an exercise's check whose prose before it speaks of the kit's version ("The kit's
    waste moves", "The kit has the same search"): where a lesson shows the kit's own answer, to its check id."""
    shown = {}
    for e in found:
        nxt = next((j for j in range(e.check_cell + 1, len(cells)) if cells[j]["cell_type"] == "code"), None)
        prose = "".join(_source(c) for c in cells[e.check_cell + 1:nxt])
        if nxt is not None and "show_source(" in _source(cells[nxt]) and KIT_VERSION.search(prose):
            shown[nxt] = e.check_id
    return shown


def _answers(nb: dict, found: list[Exercise]) -> dict[str, str]:
    """The plain names of the functions the exercises ask for, to their check ids."""
    names = {}
    for e in found:
        try:
            tree = ast.parse(_source(nb["cells"][e.solution_cell]))
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == e.answer:
                names[_plain(node.name)] = e.check_id
    return names


def course_notebook(nb: dict, found: list[Exercise], points: dict[str, float]) -> dict:
    """The nbgrader source notebook of a lesson (the input is not changed): solution cells with their stubs
    and solution markers, a locked autograded test cell after each check, the kit's answers gated."""
    from ..lessons.checks import without_kit_answers  # the kit's answers: a note in the release, never the source
    out = json.loads(json.dumps(nb))
    cells = out["cells"]
    answers = _answers(out, found)
    shown_after = _shown_after(cells, found)
    test_after = {e.check_cell: e for e in found}
    by_solution = {e.solution_cell: e for e in found}
    new_cells = []
    for i, cell in enumerate(cells):
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
            cell.get("metadata", {}).pop("execution", None)
        if _is_solution(cell):  # an exercise's answer, or an ungraded first step that a later check builds on
            e = by_solution.get(i) or next(e for e in found if e.solution_cell > i)
            step = "-answer" if i in by_solution else f"-step-{i}"
            later = "\n".join(_source(c) for c in cells[i + 1:] if c["cell_type"] == "code" and not _is_solution(c))
            solution = _source(cell).rstrip("\n")
            cell["source"] = f"{_stub(solution, later).rstrip()}\n{BEGIN}\n{solution}\n{END}"
            cell["metadata"]["nbgrader"] = _nbgrader(grade_id(e.check_id) + step, solution=True)
            if i in by_solution and e.check_id in HAND_GRADED:  # a record of play: the teacher grades it by hand
                cell["metadata"]["nbgrader"] = _nbgrader(grade_id(e.check_id), solution=True, grade=True,
                                                         points=points[e.check_id])
            tags = [t for t in cell["metadata"].pop("tags", []) if t != SOLUTION_TAG]  # nbgrader's metadata says it
            if tags:
                cell["metadata"]["tags"] = tags
        elif cell["cell_type"] == "code":
            cell["source"] = without_kit_answers(gate_kit_answers(_source(cell), answers, first=shown_after.get(i)))
        new_cells.append(cell)
        if i in test_after and test_after[i].check_id not in HAND_GRADED:
            e = test_after[i]
            worth = points[e.check_id]
            source = (f"# Autograded, {worth:g} point{'s' * (worth != 1)}: the check above, graded in a fresh process on "
                      f"hidden inputs.\nfrom solitaire.lessons import grade\nassert grade({e.check_id!r}, {e.answer}), "
                      f"\"not right yet: the line above says why\"")
            meta = {"nbgrader": _nbgrader(grade_id(e.check_id), grade=True, points=worth), "tags": [TEST_TAG]}
            test = _code_cell(source, meta)
            test["id"] = "autograded-" + grade_id(e.check_id)[:50]
            new_cells.append(test)
    out["cells"] = new_cells
    out.get("metadata", {}).pop("widgets", None)
    return out


def read_points(path: Path | None, known: list[str]) -> dict[str, float]:
    """Points per exercise: ``DEFAULT_POINTS`` each, changed by a JSON file such as ``{"02b.waste_moves": 2}``.

    >>> read_points(None, ["01.red_cards", "01b.places"])
    {'01.red_cards': 1.0, '01b.places': 1.0}
    """
    points = {k: float(DEFAULT_POINTS) for k in known}
    if path is None:
        return points
    try:
        given = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise ValueError(f"cannot read the points file {str(path)!r} ({e.strerror}): give a JSON file such as "
                         '{"02b.waste_moves": 2}') from None
    except UnicodeDecodeError as e:  # a ValueError whose message would not name the file
        raise ValueError(f"the points file {str(path)!r} is not UTF-8 text (byte {e.object[e.start]:#04x} at "
                         f"position {e.start}): save it as UTF-8 JSON, such as {{\"02b.waste_moves\": 2}}") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"the points file {str(path)!r} is not JSON ({e.msg}, line {e.lineno}): write it as "
                         '{"02b.waste_moves": 2}') from None
    if not isinstance(given, dict):
        raise ValueError(f"the points file {str(path)!r} holds a {type(given).__name__}: write an object of "
                         'exercise ids and points, such as {"02b.waste_moves": 2}')
    for key, value in given.items():
        if key not in points:
            raise ValueError(f"the points file names {key!r}, which is no exercise of the lessons: the exercises "
                             f"are {', '.join(known)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1000:
            raise ValueError(f"the points of {key!r} should be a number above 0 and at most 1000, not {value!r}")
        points[key] = float(value)
    return points


CONFIG = '''"""nbgrader's settings for the solitaire kit's course, written by `python -m solitaire nbgrader`.

Run nbgrader's commands in this folder: nbgrader generate_assignment 02b_moves --create, ..., nbgrader export.
"""
c = get_config()  # noqa: F821 (nbgrader provides it)

c.CourseDirectory.course_id = "solitaire"

# Each solution cell holds the student's stub (a runnable `answer = ...` or a function that raises
# NotImplementedError) before ### BEGIN SOLUTION, so the solution goes with nothing written in its place.
c.ClearSolutions.code_stub = {"python": ""}

# Every lesson runs top to bottom in under a minute; a cell that takes longer (an answer that loops) is stopped
# with a CellTimeoutError after this many seconds, and grading goes on with the next cell.
c.Execute.timeout = {timeout}

# With JupyterHub, the exchange folder every user shares (release_assignment, fetch_assignment, submit, collect):
# c.Exchange.root = "/srv/nbgrader/exchange"

# `nbgrader export` writes grades.csv as nbgrader always does: one row per student and assignment, with the totals.
# The rows per student and exercise: python -m solitaire class-report . --by-exercise grades_by_exercise.csv

# Grades are decided outside the submitted notebook's kernel: after the notebook has run, each exercise is graded
# again from its source, in a fresh process, on hidden inputs drawn from ./grading_secret (keep that file from the
# students). See notebooks/TEACHERS.md, "Grading with nbgrader".
from nbgrader.converters.autograde import Autograde  # noqa: E402
from nbgrader.preprocessors import SaveAutoGrades  # noqa: E402

_steps = list(Autograde.class_traits()["autograde_preprocessors"].default())
_steps.insert(_steps.index(SaveAutoGrades), "solitaire.classroom.graded.GradeOutsideTheKernel")
c.Autograde.autograde_preprocessors = _steps
'''


def _needed_files(nb: dict, lessons: Path) -> list[Path]:
    """Files beside the lesson that its code names (a data file, a saved game): they go with the assignment."""
    found = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        try:
            tree = ast.parse(_source(cell))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and 0 < len(node.value) < 200 \
                    and "\n" not in node.value and not node.value.endswith(".ipynb"):
                path = lessons / node.value
                try:
                    if path.is_file() and path.resolve().is_relative_to(lessons.resolve()) and path not in found:
                        found.append(path)
                except (OSError, ValueError):
                    continue
    return found


def default_lessons() -> Path:
    """The kit's own lessons: shipped in the package by a wheel, else the notebooks folder of a clone.

    >>> (default_lessons() / "02b_moves.ipynb").is_file()
    True
    """
    return lessons_folder()


def write_course(course: Path, lessons: Path | None = None, points_file: Path | None = None,
                 force: bool = False, state: dict | None = None) -> dict[str, list[str]]:
    """Write an nbgrader course to ``course``: its config, ``points.json`` (the points used) and one assignment per
    lesson with exercises; return each assignment's exercise ids. ``force`` writes into a folder that is not empty:
    the files this command wrote and nobody changed are replaced; the teacher's changes are kept (a changed config
    as it is, a changed source notebook with only its points updated: ``course_files``), and so is everything else
    (gradebook, submissions). Without ``points_file`` a course's own ``points.json`` gives the points. The files are
    made aside and moved into place together; ``state["kept"]`` lists what was kept, as (path, why)."""
    from .course_files import write_course_files
    course, lessons = Path(course), Path(lessons) if lessons is not None else default_lessons()
    if course.exists() and not course.is_dir():
        raise ValueError(f"{str(course)!r} is a file: give a folder for the course")
    if course.is_dir() and any(course.iterdir()) and not force:
        raise ValueError(f"{str(course)!r} is not empty: give a new or empty folder, or --force to update the course "
                         "(the teacher's changes, the gradebook and submissions are kept)")
    if not lessons.is_dir():
        raise ValueError(f"no lessons folder at {str(lessons)!r}: give --lessons DIR, the folder of the lesson "
                         "notebooks")
    found = lesson_notebooks(lessons)
    if not found:
        raise ValueError(f"no lesson in {str(lessons)!r} has exercises (code cells tagged 'solution' followed by "
                         "check(...)): give the folder of the lesson notebooks")
    check_not_student_copies(found, lessons)
    if points_file is None and force and (course / "points.json").is_file():
        points_file = course / "points.json"  # the points the course was made with, and the teacher's changes
    points = read_points(points_file, [e.check_id for ex in found.values() for e in ex])
    files: dict[str, str | bytes] = {"nbgrader_config.py": CONFIG.replace("{timeout}", str(CELL_TIMEOUT)),
                                     "points.json": json.dumps(points, indent=1) + "\n"}
    made = {}
    for path, ex in found.items():
        nb = json.loads(path.read_text(encoding="utf-8"))
        folder = f"source/{path.stem}"
        files[f"{folder}/{path.name}"] = json.dumps(course_notebook(nb, ex, points), indent=1,
                                                    ensure_ascii=False) + "\n"
        for needed in _needed_files(nb, lessons):
            files[f"{folder}/{needed.relative_to(lessons).as_posix()}"] = needed.read_bytes()
        made[path.stem] = [e.check_id for e in ex]
    files[SECRET_FILE] = secret_text(course)  # made once, kept by --force: the hidden inputs' secret
    kept = write_course_files(course, files, points, exercise_id, state)
    (course / SECRET_FILE).chmod(0o600)  # never readable by others on a shared server
    if state is not None:
        state["kept"] = kept
    return made


def check_not_student_copies(found: dict[Path, list[Exercise]], lessons: Path) -> None:
    """Refuse lessons whose exercise cells hold a student's stubs (``# your code here``): a course made from them
    would grade against stubs, not solutions.

    >>> nb = {"cells": [{"cell_type": "code", "metadata": {"tags": ["solution"]}, "source": "# your code here\\nx = ..."}]}
    >>> import tempfile
    >>> lessons = Path(tempfile.mkdtemp()); _ = (lessons / "01.ipynb").write_text(json.dumps(nb))
    >>> check_not_student_copies({lessons / "01.ipynb": [Exercise("01.x", 0, 1, "x")]}, lessons)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: the lessons in '...' are student copies (01.ipynb: the exercise 01.x holds the stub '# your code here', not a solution): give the teacher's lessons, the kit's own (leave out --lessons)
    """
    for path, ex in found.items():
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for e in ex:
            if _source(cells[e.solution_cell]).lstrip().startswith(STUB_MARK):
                raise ValueError(f"the lessons in {str(lessons)!r} are student copies ({path.name}: the exercise "
                                 f"{e.check_id} holds the stub {STUB_MARK!r}, not a solution): give the teacher's "
                                 "lessons, the kit's own (leave out --lessons)")
