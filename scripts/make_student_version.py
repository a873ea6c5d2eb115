#!/usr/bin/env python3
"""Write student copies of the lesson notebooks: solutions blanked, outputs cleared.

    python scripts/make_student_version.py notebooks/ student/

A code cell tagged ``solution`` becomes a stub: each top-level ``def`` keeps its signature and
docstring with a body that raises NotImplementedError, each top-level assignment becomes
``name = ...`` (only for the names later cells use: the answer, not the solution's own steps, whose names
would hint at the method; when later cells use none, every name), and a ``# your code here`` line marks
where to write. The exercise checker
(``solitaire.lessons.check``) recognises both stubs and says "not answered yet", so a student
copy runs top to bottom without a traceback. Every output and execution count is removed.
"""
from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from pathlib import Path

from solitaire.lessons.checks import without_kit_answers

SOLUTION_TAG = "solution"
STUB_MARK = "# your code here"


def stub_for(source: str, used_later: set[str] | None = None) -> str:
    """The student stub for a solution cell's source; ``used_later``: the names later cells use (None: all)."""
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
    """A student copy of a notebook given as parsed JSON (the input is not changed)."""
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="folder of teacher notebooks (or one .ipynb)")
    parser.add_argument("target", type=Path, help="folder to write the student copies to")
    args = parser.parse_args(argv)
    notebooks = [args.source] if args.source.suffix == ".ipynb" else sorted(args.source.glob("*.ipynb"))
    if not notebooks:
        print(f"no notebooks found in {str(args.source)!r}: give a folder of .ipynb files", file=sys.stderr)
        return 2
    args.target.mkdir(parents=True, exist_ok=True)
    for path in notebooks:
        nb = json.loads(path.read_text(encoding="utf-8"))
        (args.target / path.name).write_text(json.dumps(student_notebook(nb), indent=1, ensure_ascii=False) + "\n",
                                             encoding="utf-8")
        print(f"wrote {args.target / path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
