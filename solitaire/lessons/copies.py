"""Copies, in a graded check: of the kit's piece, or of the teacher's solution, wherever the answer keeps them.

The practice ``check`` names a copy of the kit's piece among the answer's own functions and the helpers it calls
(``guard.copy_of``). A graded check looks further, because everything it sends to the answer's process is looked
at on the way:

- ``copy_in_functions(functions, name, teacher)``: the functions an answer carries (in the kernel, every function
  reachable from it: helpers, defaults, closures, dicts and lists holding functions, an ``exec``'d copy kept in a
  namespace); each is compared with the exercise's absent kit functions (``stripped.absent_names``) and with the
  teacher's solution functions;
- ``copy_in_source(chunks, name, teacher)``: the same for an answer sent as source (a course's notebook): every
  ``def`` and ``lambda`` of the student's cells, and every string in them that holds Python code.

A copy of the kit's piece is the same syntax tree with locals renamed (``guard.normalised_tree``), as the practice
check compares them, or the same code whatever source it claims (a code object copied under another name and
line, or made with ``exec``), for a piece of at least ``guard.LEAST_NODES`` nodes. A copy of the teacher's solution
is its text: the same body line for line (docstring, comments and names included, indentation and blank lines
aside), in a solution of at least ``TEACHER_LEAST_NODES`` nodes (for a function made by ``exec``, which keeps no
source, the same code). A lesson leads its students towards the teacher's solution, so the same syntax tree is no
evidence there: a right answer written the teacher's way is not a copy, and a pasted copy that was renamed or
retyped is not named one.
"""
from __future__ import annotations

import ast
import json
import re
import textwrap
import types
from pathlib import Path
from typing import Any

from .guard import (LEAST_NODES, _Canonical, _code_print, _local_names, _same, code_of, is_function, normalised_tree,
                    resolve, source_of)

TEACHER_LEAST_NODES = 100  # a teacher's solution this big is not written the same way by chance


def _tree_of_node(node: ast.AST) -> str:
    return ast.dump(_Canonical(_local_names(node)).visit(node), annotate_fields=False)


def _body_size(node: ast.AST) -> int:
    body = getattr(node, "body", [])
    body = body if isinstance(body, list) else [body]
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant):
        body = body[1:]
    return sum(1 for stmt in body for _ in ast.walk(stmt))


def _functions_in(source: str) -> list[tuple[str, ast.AST]]:
    """Every ``def`` and ``lambda`` of ``source`` (none if it does not parse), with the source it was read from,
    and those of every string in it that parses as Python holding one."""
    source = textwrap.dedent(source)
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    found = [(source, n) for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]
    for text in (n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)):
        if "def " in text or "lambda" in text:
            found += _functions_in(text)
    return found


def body_text(source: str, node: ast.AST) -> str | None:
    """A function's body as written, line for line (indentation and blank lines aside), from its source; None for a
    lambda or a one-line function.

    >>> src = "def f(x):\\n    y = x  # keep\\n\\n    return y\\n"
    >>> body_text(src, ast.parse(src).body[0])
    'y = x  # keep\\nreturn y'
    """
    if isinstance(node, ast.Lambda) or not getattr(node, "body", None) or node.body[0].lineno == node.lineno:
        return None
    lines = source.splitlines()[node.body[0].lineno - 1:node.end_lineno]
    return "\n".join(line.strip() for line in lines if line.strip())


def teacher_texts(sources: list[str]) -> dict[str, str]:
    """The bodies (``body_text``) of the teacher's solution functions big enough to count, to their names.

    >>> teacher_texts(["def f(x):\\n    return x"])
    {}
    """
    out = {}
    for source in sources:
        source = textwrap.dedent(source)
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _body_size(node) >= TEACHER_LEAST_NODES:
                out[body_text(source, node)] = node.name
    return out


def teacher_codes(sources: list[str]) -> dict[tuple, str]:
    """The compiled code of the teacher's solution functions big enough to count, to their names: what a solution
    read from the notebook and run with ``exec`` (no source kept) shares with it.

    >>> len(teacher_codes(["def f(x):\\n    return x"]))
    0
    """
    out = {}
    for source in sources:
        source = textwrap.dedent(source)
        try:
            tree, code = ast.parse(source), compile(source, "<teacher>", "exec")
        except SyntaxError:
            continue
        big = {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
               and _body_size(n) >= TEACHER_LEAST_NODES}
        todo = [code]
        while todo:
            c = todo.pop()
            todo += [k for k in c.co_consts if isinstance(k, types.CodeType)]
            if c.co_name in big:
                out[_code_print(c)] = c.co_name
    return out


def _teacher_copy(source: str, theirs: dict[str, str]) -> str | None:
    """The teacher's solution that a function's source (``def`` first) copies, if any."""
    if not theirs:
        return None
    try:
        tree = ast.parse(textwrap.dedent(source))
    except SyntaxError:
        return None
    node = next((n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    text = body_text(textwrap.dedent(source), node) if node is not None else None
    return f"the teacher's solution {theirs[text]}" if text in theirs else None


def _kit_trees(name: str) -> list[tuple[str, Any]]:
    from .stripped import absent_names
    kits = []
    for dotted in absent_names(name):
        try:
            kit = resolve(dotted)
        except (ImportError, AttributeError, ValueError):
            continue
        kit = getattr(kit, "fget", kit)
        kit = getattr(getattr(kit, "__wrapped__", kit), "__func__", getattr(kit, "__wrapped__", kit))
        if is_function(kit):  # a compiled one too: read from its .py
            kits.append((normalised_tree(kit), kit))
    return kits


def copy_in_functions(functions: list[Any], name: str, teacher: list[str] = ()) -> str | None:
    """What the first of ``functions`` that is a copy copies (``"the kit's depth_first"``, ``"the teacher's
    solution dfs"``), else None.

    >>> from solitaire.lessons.lesson07 import depth_first
    >>> copy_in_functions([depth_first], "07.dfs")
    "the kit's depth_first itself"
    >>> copy_in_functions([lambda start, n: ("won", 1)], "07.dfs") is None
    True
    """
    kits, theirs, codes = _kit_trees(name), teacher_texts(list(teacher)), teacher_codes(list(teacher))
    for fn in functions:
        fn = getattr(fn, "__func__", fn)
        if not isinstance(fn, types.FunctionType):
            continue
        for _, kit in kits:
            if fn is kit:
                return f"the kit's {kit.__name__} itself"
            if _same(fn, kit) or (same_code(fn, kit) and _big(kit)):  # its code, whatever its source says
                return f"the kit's {kit.__name__}"
        try:
            copied = _teacher_copy(_source(fn), theirs)
        except (OSError, TypeError):  # no source kept (made by exec): its code is compared instead
            copied = codes.get(_code_print(fn.__code__))
            copied = f"the teacher's solution {copied}" if copied else None
        if copied:
            return copied
    return None


def copy_in_source(chunks: list[tuple[str, str]], name: str, teacher: list[str] = ()) -> str | None:
    """What a student's source copies, as ``copy_in_functions`` says it: every function written in the chunks
    (and in strings holding code) compared with the absent kit functions and the teacher's solutions.

    >>> import inspect
    >>> from solitaire.lessons.lesson07 import depth_first
    >>> copy_in_source([(inspect.getsource(depth_first).replace("depth_first", "dfs"), "cell")], "07.dfs")
    "the kit's depth_first"
    """
    kits = [(tree, kit) for tree, kit in _kit_trees(name) if tree is not None]
    big = {tree: kit for tree, kit in kits if _body_size(ast.parse(textwrap.dedent(_source(kit))).body[0]) >= LEAST_NODES}
    theirs = teacher_texts(list(teacher))
    for chunk, _ in chunks:
        for text, node in _functions_in(chunk):
            tree = _tree_of_node(node)
            if tree in big:
                return f"the kit's {big[tree].__name__}"
            doc = ast.get_docstring(node) if not isinstance(node, ast.Lambda) else None
            small = next((kit for t, kit in kits if t == tree and doc and kit.__doc__ == doc), None)
            if small is not None:
                return f"the kit's {small.__name__}"
            segment = ast.get_source_segment(text, node) if not isinstance(node, ast.Lambda) else None
            copied = _teacher_copy(segment, theirs) if segment else None
            if copied:
                return copied
    return None


def _big(kit: Any) -> bool:
    """Whether a kit function is big enough that the same code is a copy (``guard.LEAST_NODES``)."""
    try:
        return _body_size(ast.parse(textwrap.dedent(_source(kit))).body[0]) >= LEAST_NODES
    except (OSError, TypeError, SyntaxError, IndexError):
        return False


def _source(fn: Any) -> str:
    return source_of(fn)  # also for a function of a compiled module (its .py)


def same_code(fn: Any, kit: Any) -> bool:
    """Whether two functions compile to the same code (what ``exec`` copies share with their original).

    >>> same_code(lambda x: x + 1, lambda y: y + 1), same_code(lambda x: x + 1, lambda x: x + 2)
    (True, False)
    """
    return _code_print(code_of(fn)) == _code_print(code_of(kit))  # code_of: a compiled kit's from its .py


SOLUTION = re.compile(r"### BEGIN SOLUTION\n(.*?)\n### END SOLUTION", re.S)


def teacher_solutions(name: str, folders: list[Path]) -> list[str]:
    """The teacher's solution of exercise ``name``: the source of the solution cells before its check, in the
    first notebook of ``folders`` that has it (a clone's ``notebooks/``, or a course's ``source/``), or none.

    >>> any("def dfs" in s for s in teacher_solutions("07.dfs", [Path(__file__).resolve().parents[2] / "notebooks"]))
    True
    """
    called = re.compile(r"\b(?:check|grade)\(\s*['\"]" + re.escape(name) + r"['\"]")
    for folder in folders:
        for path in sorted(Path(folder).rglob("*.ipynb")) if Path(folder).is_dir() else []:
            if ".ipynb_checkpoints" in path.parts:
                continue
            try:
                cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            except (OSError, ValueError, KeyError):
                continue
            solutions: list[str] = []
            for cell in cells:
                text = "".join(cell.get("source", ""))
                if cell.get("cell_type") != "code":
                    continue
                tags = cell.get("metadata", {}).get("tags", [])
                if "solution" in tags or cell.get("metadata", {}).get("nbgrader", {}).get("solution"):
                    marked = SOLUTION.findall(text)
                    solutions += marked or ([text] if "solution" in tags else [])
                elif called.search(text):
                    if solutions:
                        return solutions
                else:
                    continue
    return []
