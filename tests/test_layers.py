"""Layers: the rules core imports nothing else of the package; game and notation do not import each other; and
no module of the package imports, however lazily, one that imports it back."""
import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "solitaire"
CORE = ["cards", "variants", "state", "moves", "explain", "endgame", "validity", "engine"]
CORE_MODULES = {"solitaire"} | {f"solitaire.{m}" for m in CORE}


def loaded_after(statement: str) -> set[str]:
    """The modules of the package loaded in a fresh interpreter after ``statement``."""
    code = f"import sys, json; {statement}; print(json.dumps(sorted(m for m in sys.modules if m.startswith('solitaire'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=PACKAGE.parent).stdout
    return set(json.loads(out))


@pytest.mark.parametrize("module", CORE)
def test_importing_a_core_module_loads_only_the_core(module):
    assert loaded_after(f"import solitaire.{module}") <= CORE_MODULES


def test_the_core_imports_no_outside_library_that_a_class_would_not_have():
    for module in CORE:
        tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                assert node.module in {"__future__", "collections", "collections.abc", "dataclasses", "enum", "functools",
                                       "re", "typing"}, (module, node.module)
            elif isinstance(node, ast.ImportFrom):  # relative imports stay inside the core
                assert node.module in CORE or node.module is None and {a.name for a in node.names} <= set(CORE), (
                    module, node.module)
            elif isinstance(node, ast.Import):
                assert all(a.name in {"re"} for a in node.names), (module, [a.name for a in node.names])


def module_level_imports(module: str) -> set[str]:
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    return {node.module for node in tree.body if isinstance(node, ast.ImportFrom) and node.level == 1}


def all_imports(module: str) -> set[str]:
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    return {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level == 1}


def test_game_and_notation_do_not_import_each_other():
    assert "game" not in all_imports("notation")  # notation works on positions and SavedGame data only
    assert "notation" not in module_level_imports("game")  # game asks notation only inside to_text/from_text/...
    assert loaded_after("import solitaire.notation").isdisjoint({"solitaire.game"})
    assert loaded_after("import solitaire.game").isdisjoint(
        {"solitaire.notation", "solitaire.pysol", "solitaire.render", "solitaire.widget", "solitaire.solver"})


def test_importing_the_package_loads_only_the_core_and_game_on_demand():
    assert loaded_after("import solitaire") <= CORE_MODULES
    assert "solitaire.game" in loaded_after("import solitaire; solitaire.Game")


# --- the import graph: every import, at module level or inside a function ---------------------------------
def module_names(package: Path) -> dict[str, Path]:
    """Every module of ``package`` by its dotted name (a package by its own name, not ``__init__``)."""
    names = {}
    for f in package.rglob("*.py"):
        parts = f.relative_to(package.parent).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = f
    return names


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of the package that module ``name`` imports anywhere in its code: ``import x.y``,
    ``from x import y`` and relative imports, at module level or inside functions (docstrings aside)."""
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")[:len(here.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            found.add(target)
            found.update(f"{target}.{a.name}" for a in node.names)  # ``from . import x``: module x
    return {m for m in found if m in modules and m != name}


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    modules = module_names(package)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def a_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One circle of imports (``[a, b, ..., a]``), or [] when there is none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str]:
        state[m] = 1
        path.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state and (found := visit(n)):
                return found
        state[m] = 2
        path.pop()
        return []

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return []


def test_the_import_graph_sees_lazy_and_relative_imports():
    graph = import_graph()
    assert "solitaire.expert" in graph["solitaire.strategies"]  # inside get_strategy
    assert "solitaire.notation" in graph["solitaire.game"]  # inside Game.to_text
    assert "solitaire.solver.search" in graph["solitaire.solver.restarts"]  # from .search import ...
    assert "solitaire.endgame" in graph["solitaire.solver"]  # from ..endgame import ...
    assert {"solitaire.lessons.checks", "solitaire.lessons.lesson01"} <= graph["solitaire.lessons"]  # from . import x


def test_a_cycle_is_found_through_a_function_level_import(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import f\n")
    (pkg / "b.py").write_text("def f():\n    import pkg.c\n")
    (pkg / "c.py").write_text("def g():\n    from . import a\n")
    assert a_cycle(import_graph(pkg)) == ["pkg.a", "pkg.b", "pkg.c", "pkg.a"]
    (pkg / "c.py").write_text("def g():\n    from . import d\n")
    assert a_cycle(import_graph(pkg)) == []


def test_no_module_imports_one_that_imports_it_back():
    assert a_cycle(import_graph()) == []


def test_the_strategy_registry_sits_above_the_players_and_the_expert():
    graph = import_graph()
    assert "solitaire.strategies" not in graph["solitaire.expert"] | graph["solitaire.players"]
    assert {"solitaire.players", "solitaire.expert"} <= graph["solitaire.strategies"]


def test_game_does_not_reach_for_the_widget():
    graph = import_graph()
    assert not {m for m in graph["solitaire.game"] if m.startswith("solitaire.widget")}
    assert "solitaire.game" in graph["solitaire.widget"]  # the widget is built on the game, not the other way


def test_the_classroom_sits_on_top_and_makes_its_stubs_itself():
    """The classroom tools (student copies, the nbgrader course, the class report) use the kit; only the command
    line uses them. The course writes stubs with the package's own maker, not a script loaded by path."""
    graph = import_graph()
    classroom = {m for m in graph if m.startswith("solitaire.classroom")}
    assert {"solitaire.classroom.course", "solitaire.classroom.class_report",
            "solitaire.classroom.student_copy"} <= classroom
    users = {m for m, imported in graph.items() if imported & classroom and m not in classroom}
    assert {u.split(".")[1] for u in users} <= {"cli"}, users
    assert "solitaire.classroom.student_copy" in graph["solitaire.classroom.course"]
    assert "scripts" not in (PACKAGE / "classroom" / "course.py").read_text(encoding="utf-8")
