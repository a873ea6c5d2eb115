"""Student copies of the lesson notebooks: solutions blanked to runnable stubs, outputs cleared.

    python -m solitaire.classroom.student_copy notebooks/ student/

or ``write_student_copies("notebooks", "student")``. A code cell tagged ``solution`` becomes a stub: each top-level
``def`` keeps its signature and docstring with a body that raises NotImplementedError, each top-level assignment
becomes ``name = ...`` (only for the names later cells use: the answer, not the solution's own steps, whose names
would hint at the method; when later cells use none, every name), and a ``# your code here`` line marks where to
write. The exercise checker (``solitaire.lessons.check``) recognises both stubs and says "not answered yet", so a
student copy runs top to bottom without a traceback. Every output and execution count is removed.
"""
from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from pathlib import Path

from ..lessons.checks import without_kit_answers

SOLUTION_TAG = "solution"
STUB_MARK = "# your code here"


def stub_for(source: str, used_later: set[str] | None = None) -> str:
    """The student stub for a solution cell's source; ``used_later``: the names later cells use (None: all).

    >>> print(stub_for("steps = range(10)\\nanswer = sum(steps)", {"answer"}), end="")
    # your code here
    answer = ...
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return STUB_MARK + "\n"
    lines: list[str] = []
    assigned = [name for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
                for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                for name in _names(target)]
    answers = [name for name in assigned if used_later is None or name in used_later] or assigned
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines += _function_stub(node, source)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for name in (t for target in targets for t in _names(target)):
                if name in answers and f"{name} = ..." not in lines:
                    lines.append(f"{name} = ...")
    if not lines:
        return STUB_MARK + "\n"
    if not any(line.lstrip().startswith(STUB_MARK) for line in lines):
        lines.insert(0, STUB_MARK)
    return "\n".join(lines) + "\n"


def _names(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for elt in target.elts for n in _names(elt)]
    return []


def _function_stub(node: ast.FunctionDef | ast.AsyncFunctionDef, source: str) -> list[str]:
    header = ast.get_source_segment(source, node).splitlines()
    body_start = node.body[0].lineno - node.lineno
    lines = header[:body_start]
    doc = ast.get_docstring(node, clean=False)
    indent = " " * (node.body[0].col_offset)
    if doc is not None:
        first, last = node.body[0].lineno - node.lineno, node.body[0].end_lineno - node.lineno
        lines += header[first:last + 1]
    return lines + [f"{indent}{STUB_MARK}", f"{indent}raise NotImplementedError", ""]


def student_notebook(nb: dict) -> dict:
    """A student copy of a notebook given as parsed JSON (the input is not changed).

    >>> nb = {"cells": [{"cell_type": "code", "metadata": {"tags": ["solution"]}, "source": "x = 6 * 7",
    ...                  "outputs": [{"output_type": "stream"}], "execution_count": 1}]}
    >>> cell = student_notebook(nb)["cells"][0]
    >>> cell["source"], cell["outputs"], nb["cells"][0]["source"]
    ('# your code here\\nx = ...', [], 'x = 6 * 7')
    """
    out = json.loads(json.dumps(nb))
    code = [c for c in out["cells"] if c["cell_type"] == "code"]
    for i, cell in enumerate(code):
        if SOLUTION_TAG in cell.get("metadata", {}).get("tags", []):
            later = "\n".join("".join(c["source"]) for c in code[i + 1:]
                              if SOLUTION_TAG not in c.get("metadata", {}).get("tags", []))
            cell["source"] = stub_for("".join(cell["source"]), set(re.findall(r"[A-Za-z_]\w*", later))).rstrip("\n")
    for cell in code:
        cell["source"] = without_kit_answers("".join(cell["source"]))  # the kit's answers: teacher's copy only
        cell["outputs"] = []
        cell["execution_count"] = None
        cell.get("metadata", {}).pop("execution", None)
    return out


ANSWERS_HEADING = "## Answers to the exercises"
ANSWERS_NOTE = ("The answers to the exercises are in the teacher's guide, which comes with the teacher's route: the "
                "kit's repository, not the installed kit. This copy of the guide leaves them out.")


def student_guide(text: str) -> str:
    """The teacher's guide (``TEACHERS.md``) as a student's install holds it: the section of answers to the
    exercises replaced by a line saying where they are (everything else stays: the plan, the rules, the glossary).

    >>> guide = "# Guide\\n## Rules\\nr\\n## Answers to the exercises\\n**01** def f(): ...\\n## Projects\\np\\n"
    >>> print(student_guide(guide))
    # Guide
    ## Rules
    r
    ## Answers to the exercises
    <BLANKLINE>
    The answers to the exercises are in the teacher's guide, which comes with the teacher's route: the kit's repository, not the installed kit. This copy of the guide leaves them out.
    <BLANKLINE>
    ## Projects
    p
    <BLANKLINE>
    """
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.strip() == ANSWERS_HEADING), None)
    if start is None:
        return text
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "".join(lines[:start + 1]) + f"\n{ANSWERS_NOTE}\n\n" + "".join(lines[end:])


def student_notebook_text(path: Path) -> str:
    """The student copy of the notebook file ``path``, as the JSON text ``write_student_copies`` writes."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    return json.dumps(student_notebook(nb), indent=1, ensure_ascii=False) + "\n"


DEEPER = "deeper"  # the Going deeper notebooks' folder, inside the lessons' folder


def notebooks_in(source: Path) -> list[Path]:
    """The notebooks of the folder ``source`` in name order, then those of its ``deeper/`` folder (the Going
    deeper notebooks the lessons link to); or ``source`` itself when it is one .ipynb file.

    >>> [p.name for p in notebooks_in(Path("no such folder"))]
    []
    >>> [p.parent.name for p in notebooks_in(lessons_folder())][-1]
    'deeper'
    """
    source = Path(source)
    if source.suffix == ".ipynb" and source.is_file():
        return [source]
    return sorted(source.glob("*.ipynb")) + sorted((source / DEEPER).glob("*.ipynb"))


def relative_name(path: Path, folder: Path) -> str:
    """A notebook's name as its folder of lessons holds it: ``01_cards.ipynb``, ``deeper/01_inside_a_card.ipynb``.

    >>> relative_name(Path("/k/notebooks/deeper/x.ipynb"), Path("/k/notebooks")), relative_name(Path("/a/y.ipynb"), Path("/b"))
    ('deeper/x.ipynb', 'y.ipynb')
    """
    try:
        return Path(path).relative_to(folder).as_posix()
    except ValueError:
        return Path(path).name


def write_student_copies(src_dir: str | Path, dst_dir: str | Path) -> list[Path]:
    """Write the student copy of every notebook of ``src_dir`` (its ``deeper/`` folder too; or of one .ipynb
    file) into ``dst_dir``, made if missing; return the files written. A notebook of the same name in ``dst_dir``
    is replaced.

    >>> import tempfile
    >>> tmp = tempfile.TemporaryDirectory()
    >>> out = write_student_copies(lessons_folder() / "02b_moves.ipynb", tmp.name)
    >>> [p.name for p in out], "raise NotImplementedError" in out[0].read_text(encoding="utf-8")
    (['02b_moves.ipynb'], True)
    >>> tmp.cleanup()
    """
    src = Path(src_dir)
    notebooks = notebooks_in(src)
    if not notebooks:
        raise ValueError(f"no notebooks found in {str(src_dir)!r}: give a folder of .ipynb files")
    texts = {path.name if src.is_file() else relative_name(path, src): student_notebook_text(path)
             for path in notebooks}  # all read before anything is written
    dst = Path(dst_dir)
    written = []
    for name, text in texts.items():
        (dst / name).parent.mkdir(parents=True, exist_ok=True)
        (dst / name).write_text(text, encoding="utf-8")
        written.append(dst / name)
    return written


def lessons_folder() -> Path:
    """The kit's own lesson notebooks: shipped inside the package by a wheel (``solitaire/classroom/notebooks``),
    else the ``notebooks`` folder of a clone of the kit.

    >>> (lessons_folder() / "00_index.ipynb").is_file()
    True
    """
    shipped = Path(__file__).resolve().parent / "notebooks"
    if any(shipped.glob("*.ipynb")):
        return shipped
    clone = Path(__file__).resolve().parents[2] / "notebooks"
    if any(clone.glob("*.ipynb")):
        return clone
    raise ValueError(f"the kit's lessons are neither in {str(shipped)!r} nor in {str(clone)!r}: reinstall the kit "
                     "(pip install solitaire-kit) or run it from a clone")


def main(argv: list[str] | None = None) -> int:
    """The command line: ``SOURCE TARGET``; 0 when written, 2 (with one line on stderr) when there is nothing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="folder of teacher notebooks (or one .ipynb)")
    parser.add_argument("target", type=Path, help="folder to write the student copies to")
    args = parser.parse_args(argv)
    try:
        written = write_student_copies(args.source, args.target)
    except ValueError as e:
        print(e, file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
