"""A course's grades, decided outside the submitted notebook's kernel: the nbgrader preprocessor
``GradeOutsideTheKernel``, which ``python -m solitaire nbgrader`` puts in every course's autograde.

``nbgrader autograde`` runs a submitted notebook in a kernel, where the student's own cells run too: anything the
kernel reports could be the student's doing. So after the notebook has run, this preprocessor, in nbgrader's own
process, grades each exercise again from the notebook's source:

- the program of an exercise (``graded_program``) is the lesson's imports, functions and constants (the teacher's
  cells) and the student's answer cells up to the exercise, never the kernel's state;
- ``solitaire.lessons.grading.run_grader`` grades them all in a fresh process, on hidden inputs drawn from the
  course's secret (``grading_secret`` in the course folder, written by ``write_course``), each answer's code in a
  process of its own (in the tournament's sandbox where there is one);
- each autograded test cell's outputs are replaced by the verdict: an error (no points) or a line saying right.

While it is configured, ``grade`` in the kernel only says that the grade is decided outside (the environment
variable ``solitaire.lessons.grading.DEFERRED``); without it, ``grade`` runs there as anywhere.
"""
from __future__ import annotations

import ast
import os
import re
import secrets
from functools import lru_cache
from pathlib import Path
from typing import Any

SECRET_FILE = "grading_secret"  # in the course folder: the hidden inputs' secret (never released to students)
TEST_TAG = "raises-exception"  # a course's test cells: JupyterLab's Run All and nbclient go on past a cell with it
CELL_MAGIC = re.compile(r"^\s*%%")


def secret_text(course: Path) -> str:
    """The text of a course's secret file: the course's own where it has one, else a fresh random secret.

    >>> import tempfile
    >>> len(secret_text(Path(tempfile.mkdtemp())).strip())
    64
    """
    path = Path(course) / SECRET_FILE
    try:
        kept = path.read_text(encoding="utf-8")
    except OSError:
        kept = ""
    return kept if kept.strip() else secrets.token_hex(32) + "\n"  # a secret draw, never a seeded one


def write_secret(course: Path) -> Path:
    """Write a course's secret (a fresh random one, kept if the course has one already); its path.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> first = write_secret(folder).read_text(); write_secret(folder).read_text() == first, len(first.strip())
    (True, 64)
    """
    path = Path(course) / SECRET_FILE
    if not path.is_file():
        path.write_text(secrets.token_hex(32) + "\n", encoding="utf-8")  # a secret draw, never a seeded one
        path.chmod(0o600)
    return path


def read_secret(course: Path) -> str:
    """A course's secret, or a ValueError saying how to make one.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> read_secret(write_secret(folder).parent) == (folder / SECRET_FILE).read_text().strip()
    True
    """
    path = Path(course) / SECRET_FILE
    try:
        secret = path.read_text(encoding="utf-8").strip()
    except OSError:
        secret = ""
    if not secret:
        raise ValueError(f"the course at {str(course)!r} has no {SECRET_FILE} file: its hidden inputs need one; write it "
                         "with python -m solitaire nbgrader COURSE_DIR --force (the gradebook and submissions are kept)")
    return secret


PYTHON_CELL_MAGICS = ("%%time", "%%timeit", "%%capture")  # cell magics whose cell is Python all the same


def python_source(text: str) -> str:
    """A code cell's source as Python: line magics and shell lines dropped; a cell magic's cell left out, unless
    the magic only times or captures Python (``%%time``: its first line dropped).

    >>> python_source("%matplotlib inline\\nimport math\\n!ls"), python_source("%%time\\nx = 1"), python_source("%%bash\\nls")
    ('import math', 'x = 1', '')
    """
    if CELL_MAGIC.match(text):
        first, _, rest = text.lstrip().partition("\n")
        if first.split()[0] not in PYTHON_CELL_MAGICS:
            return ""
        text = rest
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(("%", "!")))


def _source(cell: Any) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _is_student(cell: Any) -> bool:
    return bool(cell.get("metadata", {}).get("nbgrader", {}).get("solution"))


def _lesson_statements(text: str) -> list[ast.stmt]:
    """What a graded program takes from a lesson's own cell: its imports, functions, classes and constants
    (assignments of literal values), none of its experiments."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    kept = []
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            kept.append(node)
        elif isinstance(node, ast.Assign):
            try:
                ast.literal_eval(node.value)
                kept.append(node)
            except ValueError:
                continue
    return kept


def _loaded(nodes: list[ast.AST]) -> set[str]:
    return {n.id for node in nodes for n in ast.walk(node) if isinstance(n, ast.Name)}


def graded_program(cells: list[Any], upto: int) -> list[tuple[str, str]]:
    """The source chunks an exercise is graded from: the lesson's cells before cell ``upto`` (their imports of
    names the student's cells or the lesson's functions use, their functions, classes and constants), then each
    of the student's answer cells before it, whole.

    >>> cells = [{"cell_type": "code", "source": "import math\\nimport os\\nrows = run()\\ndef width(n): return math.sqrt(n)"},
    ...          {"cell_type": "code", "source": "def f(n): return width(n)", "metadata": {"nbgrader": {"solution": True}}}]
    >>> [text for text, _ in graded_program(cells, 2)]
    ['import math\\ndef width(n):\\n    return math.sqrt(n)', 'def f(n): return width(n)']
    """
    lesson: list[ast.stmt] = []
    student: list[tuple[str, str]] = []
    for i, cell in enumerate(cells[:upto]):
        if cell.get("cell_type") != "code":
            continue
        text = python_source(_source(cell))
        if _is_student(cell):
            student.append((text, f"<your cell {i + 1}>"))
        else:
            lesson += _lesson_statements(text)
    defined = [n for n in lesson if not isinstance(n, (ast.Import, ast.ImportFrom))]
    used = _loaded(defined)
    for text, _ in student:
        try:
            used |= _loaded([ast.parse(text)])
        except SyntaxError:
            continue
    prelude = [n for n in lesson if not isinstance(n, (ast.Import, ast.ImportFrom))
               or any((a.asname or a.name).split(".")[0] in used for a in n.names)]
    return [("\n".join(ast.unparse(n) for n in prelude), "<the lesson's cells>")] + student


def graded_call(source: str) -> tuple[str, str] | None:
    """The (exercise, answer expression) of a test cell's ``grade("<id>", answer)``, or None.

    >>> graded_call("from solitaire.lessons import grade\\nassert grade('07.dfs', dfs), 'not yet'")
    ('07.dfs', 'dfs')
    """
    try:
        tree = ast.parse(python_source(source))
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "grade" and len(node.args) >= 2
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            return node.args[0].value, ast.get_source_segment(python_source(source), node.args[1])
    return None


def course_root(resources: dict) -> Path:
    """The course folder of an autograde run: where nbgrader's gradebook is (else the current folder).

    >>> course_root({"nbgrader": {"db_url": "sqlite:////srv/course/gradebook.db"}})
    PosixPath('/srv/course')
    """
    url = str(resources.get("nbgrader", {}).get("db_url", ""))
    if url.startswith("sqlite:///"):
        return Path(url[len("sqlite:///"):]).parent
    return Path.cwd()


def verdict_outputs(state: str, message: str) -> list[dict]:
    """A test cell's outputs for a verdict: a line saying right, or an error nbgrader counts as no points.

    >>> [o["output_type"] for o in verdict_outputs("wrong", "off by one")]
    ['error']
    """
    if state == "right":
        return [{"output_type": "stream", "name": "stdout",
                 "text": f"✔ Right (graded outside this notebook, on the course's hidden inputs): {message}\n"}]
    return [{"output_type": "error", "ename": "AssertionError", "evalue": f"not right yet (graded): {message}",
             "traceback": [f"AssertionError: not right yet (graded outside this notebook): {message}"]}]


def grade_notebook(nb: Any, course: Path, assignment: str | None = None, log: Any = None,
                   only: tuple[str, ...] | None = None) -> list[tuple[int, str, str]]:
    """Grade every autograded test cell of an executed notebook from its source; set each cell's outputs to the
    verdict. Returns (cell index, exercise, state) for each; ``log`` (nbgrader's) is told where the answers ran
    when there was no sandbox; ``only``: the exercises to grade (all by default).

    >>> grade_notebook({"cells": [{"cell_type": "markdown", "source": "no exercise"}]}, Path("."))
    []
    """
    from ..lessons.grading import run_grader
    tests = []
    for i, cell in enumerate(nb["cells"]):
        meta = cell.get("metadata", {}).get("nbgrader", {})
        called = graded_call(_source(cell)) if meta.get("grade") and not meta.get("solution") else None
        if called and (only is None or called[0] in only):  # every grade cell that calls grade, whatever its tags
            tests.append((i, *called))
    if not tests:
        return []
    requests = [{"exercise": name, "kind": "source", "payload": graded_program(nb["cells"], i), "answer": answer}
                for i, name, answer in tests]
    teacher = [str(course / "source" / assignment)] if assignment else [str(course / "source")]
    verdicts, line = run_grader(requests, secret=read_secret(course), teacher=teacher)
    if log is not None and not line.startswith("sandbox: bubblewrap"):
        log.warning(line)
    import nbformat
    done = []
    for (i, name, _), verdict in zip(tests, verdicts):
        nb["cells"][i]["outputs"] = [nbformat.from_dict(o) for o in verdict_outputs(verdict.state, verdict.message)]
        done.append((i, name, verdict.state))
    return done


@lru_cache(maxsize=1)
def _preprocessor_class() -> type:
    from nbgrader.preprocessors import NbGraderPreprocessor

    from ..lessons.grading import DEFERRED

    class GradeOutsideTheKernel(NbGraderPreprocessor):
        """nbgrader's autograde step that grades each exercise outside the notebook's kernel (see the module)."""

        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            os.environ[DEFERRED] = "1"  # set before the notebook's kernel starts: its grade() defers to this step

        def preprocess(self, nb: Any, resources: dict) -> tuple[Any, dict]:
            course = course_root(resources)
            assignment = resources.get("nbgrader", {}).get("assignment")
            for i, name, state in grade_notebook(nb, course, assignment, self.log):
                self.log.info("graded %s outside the kernel: %s", name, state)
            return nb, resources

    return GradeOutsideTheKernel


def __getattr__(name: str) -> Any:
    """``GradeOutsideTheKernel`` is made when nbgrader asks for it: importing this module needs no nbgrader."""
    if name == "GradeOutsideTheKernel":
        return _preprocessor_class()
    raise AttributeError(name)
