"""Layers: the rules core imports nothing else of the package; game and notation do not import each other."""
import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "solitaire"
CORE = ["cards", "variants", "state", "moves", "explain", "endgame"]
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
