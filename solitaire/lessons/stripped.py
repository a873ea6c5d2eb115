"""The kit a graded answer runs with: a copy of the package in which the exercise's piece, and every kit function
that computes the same, do not exist.

``build_kit(name, folder)`` writes ``folder/solitaire``: the kit's modules as they are, except that

- each piece of the exercise (``checks.PIECES``: what the practice check switches off) and each function of
  ``WITHOUT[name]`` (other kit functions that compute the same answer) is replaced where it is defined by a
  placeholder that raises when called (and records the call): nothing of its code is in the copy, so no reference
  kept anywhere (a list, a default argument, ``__wrapped__``, ``gc``, ``sys.modules``, a reloaded module, a second
  copy loaded from a file) leads back to it, and a kit function that calls it fails where it would have used it;
- ``solitaire.lessons`` holds no checker: its ``check`` and ``grade`` only say so, and each lesson module keeps
  only what the lessons' own cells import from it (``MINI``, ``plain_key``, ``claim``, ...) and what that needs, so
  no checker, no reference answer and no hidden input of the practice checks is there;
- the lessons' notebooks and guide, the classroom's commands, the example entrants, the shipped results and the
  card table's scripts are left out.

The grading process builds one copy per exercise, in a folder of its own; the student's process imports it alone.
"""
from __future__ import annotations

import ast
import json
import shutil
from functools import lru_cache
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parent.parent  # the kit as installed: what is copied
LEFT_OUT = ("classroom", "entrants", "data", "__pycache__", "lessons")  # folders not copied (lessons: sliced below)
LEFT_OUT_FILES = (".js", ".css", ".pyc", ".md")
KEPT_WHOLE = ("verdicts.py", "answer_process.py", "wire.py")  # lesson modules the student's process runs as they are

# Beyond an exercise's pieces, the kit functions that compute the same answer (or the piece's part of it), so that an
# answer cannot be a call to them. A kit function that calls a piece needs no entry: it fails where it would use it.
WITHOUT: dict[str, tuple[str, ...]] = {
    # candidate moves (a draw, a recycle, each waste move) filtered by the rules' explanation of a refusal
    "02.stock_moves": ("solitaire.explain.explain_illegal",),
    "02b.waste_moves": ("solitaire.explain.explain_illegal",),
    # the kit's strategies: a subclass of greedy, or the expert's choice, is not the student's strategy
    "05.strategy": ("solitaire.expert.ExpertStrategy.choose", "solitaire.expert.ExpertStrategy.decide"),
    # the solver's safe moves and state keys, which work on its encoded states
    "07b.safe": ("solitaire.solver.pruning.SafeMoves.is_safe", "solitaire.solver.pruning.SafeMoves.settle"),
    "07b.settle": ("solitaire.solver.pruning.SafeMoves.is_safe", "solitaire.solver.pruning.SafeMoves.settle"),
    "07b.canonical": ("solitaire.reveal._canonical", "solitaire.solver.encoding.sorted_columns",
                      "solitaire.solver.encoding.StateCodec.key"),
    # what a careful player knows, counted by the kit: its memory, and the knowledge of a list of observations
    "08.layouts": ("solitaire.knowledge.knowledge_of", "solitaire.knowledge.Memory.update",
                   "solitaire.knowledge.Memory.knowledge", "solitaire.knowledge.Knowledge.unknown_slots"),
    # the estimate's own share and interval
    "08.chance_by_hand": ("solitaire.expert.WinChance.share", "solitaire.expert.WinChance.interval"),
}

ABSENT_MODULE = '''"""Placeholders for the kit's functions that do not exist while an answer is graded (solitaire.lessons.stripped).

The copy of the kit a graded answer runs with holds none of the code of these functions: each name is bound to a
placeholder that records the call and raises.
"""

CALLED = []  # the absent functions called so far, in order (the process reports them with each answer)


class KitSwitchedOff(Exception):
    """An absent kit function was called."""


def absent(name, wrap=None):
    """A placeholder for the kit's function ``name`` (``module.qualname``), wrapped as its definition was
    (``property``, ``staticmethod``, ``classmethod``)."""
    short = name.rsplit(".", 1)[-1]

    def gone(*args, **kwargs):
        CALLED.append(short)
        raise KitSwitchedOff(f"the kit's {short} does not exist while your answer is graded (it is what the exercise "
                             f"asks you to write, or computes the same): write it yourself")
    gone.__name__, gone.__qualname__ = short, name.split(".", 1)[-1]
    return {"property": property, "staticmethod": staticmethod, "classmethod": classmethod}.get(wrap, lambda f: f)(gone)
'''

LESSONS_INIT = '''"""The lessons' checks do not exist while an answer is graded: check and grade only say so."""


def check(name, answer=..., *, quiet=False):
    """No check runs while an answer is graded."""
    return False


def grade(name, answer=..., *, quiet=False, **options):
    """No grade is given from inside a graded answer."""
    return False


def show_source(obj, start=None, stop=None, *, after=None):
    """Nothing is shown while an answer is graded."""


def question(name):
    return ""


EXERCISES = {}
'''


def absent_names(name: str) -> list[str]:
    """The dotted names (``module.qualname``) of the kit functions that do not exist in exercise ``name``'s graded
    kit: its pieces, then ``WITHOUT[name]``.

    >>> absent_names("02b.waste_moves")
    ['solitaire.moves._waste_moves', 'solitaire.moves.legal_moves', 'solitaire.engine.Engine.legal_moves', 'solitaire.explain.explain_illegal']
    """
    from .checks import PIECES
    from .guard import resolve
    out = []
    for piece in PIECES.get(name, ()):
        obj = resolve(piece)
        obj = getattr(obj, "fget", obj)  # a property: its getter names it
        dotted = f"{obj.__module__}.{obj.__qualname__}" if hasattr(obj, "__qualname__") else str(piece)
        out.append(dotted)
    return list(dict.fromkeys(out + list(WITHOUT.get(name, ()))))


def _module_file(module: str) -> Path:
    return PACKAGE.joinpath(*module.split(".")[1:]).with_suffix(".py") if module != "solitaire" else \
        PACKAGE / "__init__.py"


def _split(dotted: str) -> tuple[str, str]:
    """``"solitaire.engine.Engine.legal_moves"`` as (module, qualname), the module being the longest prefix that is
    a file of the kit."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:cut])
        if _module_file(module).is_file():
            return module, ".".join(parts[cut:])
    raise ValueError(f"{dotted!r} names no function of a kit module: give 'solitaire.module.function'")


def _wrap_of(node: ast.AST) -> str | None:
    names = {d.id for d in getattr(node, "decorator_list", ()) if isinstance(d, ast.Name)}
    return next((w for w in ("property", "staticmethod", "classmethod") if w in names), None)


def _definition(tree: ast.Module, qualname: str) -> tuple[ast.AST, int]:
    """The definition of ``qualname`` in ``tree`` and its indentation."""
    body, node = tree.body, None
    for part in qualname.split("."):
        node = next((n for n in reversed(body) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                  ast.ClassDef)) and n.name == part), None)
        if node is None:
            raise ValueError(f"no definition of {qualname!r}: the piece has moved, update its name")
        body = node.body
    return node, node.col_offset


def without_functions(source: str, module: str, qualnames: list[str]) -> str:
    """``source`` with each function ``qualname`` (top-level or a method) replaced by a placeholder line, and the
    placeholders' import added after the module's first imports.

    >>> print(without_functions("def f():\\n    return 1\\n\\n\\ndef g():\\n    return 2\\n", "m", ["f"]))
    from solitaire._absent import absent as _absent_piece
    f = _absent_piece('m.f', None)
    <BLANKLINE>
    <BLANKLINE>
    def g():
        return 2
    <BLANKLINE>
    """
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    found = sorted((_definition(tree, q) + (q,) for q in qualnames), key=lambda d: -d[0].lineno)
    for node, indent, qualname in found:
        first = min([node.lineno] + [d.lineno for d in node.decorator_list])
        name = qualname.rsplit(".", 1)[-1]
        line = f"{' ' * indent}{name} = _absent_piece({module + '.' + qualname!r}, {_wrap_of(node)!r})\n"
        lines[first - 1:node.end_lineno] = [line]
    at = _after_future(tree)
    lines.insert(at, "from solitaire._absent import absent as _absent_piece\n")
    return "".join(lines)


def _after_future(tree: ast.Module) -> int:
    """The line index after the docstring and ``from __future__`` imports: where an import may go."""
    at = 0
    for node in tree.body:
        is_doc = isinstance(node, ast.Expr) and isinstance(getattr(node, "value", None), ast.Constant)
        if is_doc or (isinstance(node, ast.ImportFrom) and node.module == "__future__"):
            at = node.end_lineno
        else:
            break
    return at


# --- the lessons, sliced -----------------------------------------------------------------------------------------

def lesson_notebooks() -> list[Path]:
    """The kit's lesson notebooks: shipped in the package by a wheel (student copies), else a clone's ``notebooks``
    (the teacher's): where ``solitaire.classroom.student_copy.lessons_folder`` finds them too.

    >>> any(p.name == "07_search.ipynb" for p in lesson_notebooks())
    True
    """
    for folder in (PACKAGE / "classroom" / "notebooks", PACKAGE.parent / "notebooks"):
        found = sorted(folder.glob("*.ipynb"))
        if found:
            return found
    return []


@lru_cache(maxsize=1)
def lesson_imports() -> dict[str, frozenset[str]]:
    """What the lessons' own cells (not the solution cells) import from each module of ``solitaire.lessons``:
    the names a graded kit's lesson modules keep.

    >>> "MINI" in lesson_imports()["lesson07"], "claim" in lesson_imports()["claims"]
    (True, True)
    """
    found: dict[str, set[str]] = {}
    for path in lesson_notebooks():
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "code" or "solution" in cell.get("metadata", {}).get("tags", []):
                continue
            for node in _parsed_imports("".join(cell["source"])):
                module = node.module or ""
                if module.startswith("solitaire.lessons."):
                    found.setdefault(module.split(".")[2], set()).update(a.name for a in node.names)
    return {k: frozenset(v) for k, v in found.items()}


def _parsed_imports(source: str) -> list[ast.ImportFrom]:
    source = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))
    try:
        return [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ImportFrom)]
    except SyntaxError:
        return []


def _bound(node: ast.AST) -> list[str]:
    """The names a top-level statement binds."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
        node, (ast.AnnAssign, ast.AugAssign)) else []
    return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]


def _used(node: ast.AST) -> set[str]:
    """The global names a top-level statement uses (a function's own arguments and locals left out).

    >>> sorted(_used(ast.parse("def f(x):\\n    y = g(x)\\n    return y + H").body[0]))
    ['H', 'g']
    """
    loads = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    for fn in (n for n in ast.walk(node) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))):
        a = fn.args
        own = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg] if x}
        own |= {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        loads -= own
    return loads


def _lazy_imports(node: ast.AST) -> set[tuple[str, str]]:
    """The (lesson module, name) pairs a definition imports inside its body (``from .lesson03 import x``)."""
    return {(n.module, a.name) for n in ast.walk(node) if isinstance(n, ast.ImportFrom) and n.level == 1 and n.module
            for a in n.names}


def sliced_lessons(absent: list[str]) -> dict[str, str]:
    """The graded kit's ``solitaire/lessons`` modules, by file name: each keeps what the lessons import from it and
    what that needs (following imports between lesson modules), the absent ones as placeholders.

    >>> sliced = sliced_lessons(absent_names("07.dfs"))
    >>> "depth_first = _absent_piece(" in sliced["lesson07.py"], "lesson06.py" in sliced
    (True, False)
    """
    trees = {p.stem: ast.parse(p.read_text(encoding="utf-8")) for p in (PACKAGE / "lessons").glob("*.py")
             if p.name != "__init__.py" and p.name not in KEPT_WHOLE}
    wanted = {(module, name) for module, names in lesson_imports().items() for name in names if module in trees}
    kept: set[tuple[str, str]] = set()
    while wanted:
        module, name = wanted.pop()
        if (module, name) in kept or module not in trees:
            continue
        kept.add((module, name))
        for node in trees[module].body:
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module in trees and \
                    any((a.asname or a.name) == name for a in node.names):
                wanted |= {(node.module, a.name) for a in node.names if (a.asname or a.name) == name}
            elif name in _bound(node):
                wanted |= {(module, n) for n in _used(node)} | _lazy_imports(node)
    return {f"{m}.py": _slice(trees[m], m, {n for mm, n in kept if mm == m}, absent) for m in trees
            if any(mm == m for mm, _ in kept)}


def _slice(tree: ast.Module, module: str, names: set[str], absent: list[str]) -> str:
    """A lesson module's source keeping the statements that bind ``names``, and the imports they use."""
    dotted = f"solitaire.lessons.{module}"
    gone = {d.rsplit(".", 1)[-1] for d in absent if d.rsplit(".", 1)[0] == dotted}
    out = [f'"""{dotted}, as a graded answer\'s kit holds it: what the lessons import from it."""',
           "from __future__ import annotations", "from solitaire._absent import absent as _absent_piece"]
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)) and getattr(node, "module", "") != "__future__":
            aliases = [a for a in node.names if (a.asname or a.name).split(".")[0] in names or a.name == "*"]
            if aliases:
                node.names = aliases
                out.append(ast.unparse(node))
        elif set(_bound(node)) & names:
            bound = _bound(node)
            if len(bound) == 1 and bound[0] in gone:
                out.append(f"{bound[0]} = _absent_piece({dotted + '.' + bound[0]!r})")
            else:
                out.append(ast.unparse(node))
    return "\n\n".join(out) + "\n"


def _copy_package(target: Path) -> None:
    def ignored(folder: str, names: list[str]) -> set[str]:
        here = Path(folder).resolve()
        return {n for n in names if (here == PACKAGE and n in LEFT_OUT) or n == "__pycache__" or n.endswith(LEFT_OUT_FILES)}
    shutil.copytree(PACKAGE, target, ignore=ignored)


def build_kit(name: str, folder: Path) -> Path:
    """Write exercise ``name``'s graded kit into ``folder`` (made if missing); return the folder that holds its
    ``solitaire`` package (what the student's process puts first on its path).

    >>> import tempfile
    >>> kit = build_kit("02c.draw", Path(tempfile.mkdtemp())) / "solitaire"
    >>> "_draw = _absent_piece(" in (kit / "moves.py").read_text(), (kit / "lessons" / "lesson05.py").exists()
    (True, True)
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)  # the answer's process reads it as the user nobody, in a sandbox
    target = folder / "solitaire"
    if target.exists():
        shutil.rmtree(target)
    _copy_package(target)
    absent = absent_names(name)
    by_module: dict[str, list[str]] = {}
    for dotted in absent:
        module, qualname = _split(dotted)
        by_module.setdefault(module, []).append(qualname)
    for module, qualnames in by_module.items():
        if module.startswith("solitaire.lessons."):
            continue  # sliced below, with placeholders in their place
        path = target.joinpath(*module.split(".")[1:]).with_suffix(".py")
        path.write_text(without_functions(_module_file(module).read_text(encoding="utf-8"), module, qualnames),
                        encoding="utf-8")
    (target / "_absent.py").write_text(ABSENT_MODULE, encoding="utf-8")
    lessons = target / "lessons"
    lessons.mkdir()
    (lessons / "__init__.py").write_text(LESSONS_INIT, encoding="utf-8")
    for file in KEPT_WHOLE:
        shutil.copy2(PACKAGE / "lessons" / file, lessons / file)
    for file, text in sliced_lessons(absent).items():
        (lessons / file).write_text(text, encoding="utf-8")
    return folder


def kit_files(folder: Path) -> dict[str, Any]:
    """The files of a graded kit, relative to ``folder``, with their sizes: what a test or a teacher inspects.

    >>> kit_files(Path("no such folder"))
    {}
    """
    folder = Path(folder)
    return {str(p.relative_to(folder)): p.stat().st_size for p in sorted(folder.rglob("*")) if p.is_file()}
