"""One source, two builds (issue 56): the compiled modules and pure Python give the same results.

Where the kit was built with a C compiler (``setup.py``), this process runs the compiled modules and a child
process runs the same sources as pure Python (``SOLITAIRE_PURE=1``); the tests compare what both do: the
solver's searches on fixed deals, state for state (status, states expanded and every move of the line), with
pruning ideas switched off too; random playouts through the public API, move for move from the same seeds; and
the expert's first decisions. Without compiled modules these comparisons skip, and say why.

The build itself: ``SOLITAIRE_PURE=1`` runs pure Python, a compiled module whose ``.py`` changed since the
build runs as pure Python (never a stale build), and where no C compiler works (``CC=false``) the kit builds
as pure Python and passes the rules tests in a fresh virtual environment that holds pytest and hypothesis only.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

import solitaire

ROOT = Path(__file__).resolve().parents[1]
SEARCHES = [("draw3", range(0, 6), 3000), ("draw1", range(0, 6), 3000), ("klondike", range(0, 4), 2000),
            ("solijoy", range(0, 3), 2000), ("italian", range(0, 4), 2000)]
OPTIONS = [{}, {"loose_columns": False, "use_right_after": True}, {"safe_foundation_moves": False}]


def compiled() -> bool:
    running = solitaire.compiled_modules()
    return bool(running) and all(running.values())


needs_compiled = pytest.mark.skipif(not compiled(), reason="the kit runs in pure Python here (no compiled modules, "
                                    "or SOLITAIRE_PURE is set): there is no second build to compare with")


def searches() -> list:
    """Each fixed search's (variant, seed, options, status, states, moves)."""
    from solitaire import KLONDIKE, VARIANTS, Game
    from solitaire.solver import SolverOptions, solve
    variants = {"draw3": replace(KLONDIKE, name="draw 3, back", draw=3, foundation_to_tableau=True),
                "draw1": replace(KLONDIKE, name="draw 1, back", foundation_to_tableau=True), **VARIANTS}
    rows = []
    for key, seeds, nodes in SEARCHES:
        for seed in seeds:
            for options in OPTIONS:
                r = solve(Game(variants[key], seed), max_seconds=None, max_nodes=nodes,
                          options=SolverOptions(**options))
                rows.append([key, seed, options, str(r.status), r.nodes, [str(m) for m in r.moves]])
    return rows


def playouts() -> list:
    """Random games through the public API, seeded: each game's moves, as text."""
    import random

    from solitaire import VARIANTS, Game
    rng, games = random.Random(56), []
    for key in VARIANTS:
        for seed in range(12):
            game, played = Game(key, seed), []
            for _ in range(300):
                legal = game.legal_moves()
                if not legal:
                    break
                played.append(str(game.play(rng.choice(legal))))
            games.append([key, seed, played, game.is_over()])
    return games


def expert_decisions() -> list:
    """The expert's first moves on two deals (its samples are solved under node budgets: no clock)."""
    from solitaire import Game
    from solitaire.expert import ExpertStrategy
    out = []
    for seed in (3, 8):
        game, expert = Game("klondike", seed), ExpertStrategy(seed, budget=12, max_nodes=800)
        for _ in range(4):
            move = expert.choose(game.observation(), game.legal_moves())
            out.append(str(move))
            game.play(move)
    return out


def in_pure_python(what: str) -> tuple[str, object]:
    """(the child's ``solitaire.info()``, what ``what`` returned there), run with SOLITAIRE_PURE=1."""
    env = dict(os.environ, SOLITAIRE_PURE="1", PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
    done = subprocess.run([sys.executable, __file__, what], env=env, capture_output=True, text=True, cwd=ROOT,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return out["info"], out["result"]


@needs_compiled
def test_the_solver_searches_the_same_states_in_both_builds():
    info, pure = in_pure_python("searches")
    assert "pure Python" in info and "compiled" in solitaire.info()
    mine = json.loads(json.dumps(searches()))
    assert len(mine) == len(pure) == sum(len(s) for _, s, _ in SEARCHES) * len(OPTIONS)
    assert [row for row, theirs in zip(mine, pure) if row != theirs] == []
    assert {row[3] for row in mine} >= {"won", "unknown"}  # the fixed searches reach different ends


@needs_compiled
def test_random_playouts_play_the_same_moves_in_both_builds():
    _, pure = in_pure_python("playouts")
    mine = json.loads(json.dumps(playouts()))
    assert [game for game, theirs in zip(mine, pure) if game != theirs] == [] and len(mine) == len(pure) == 36
    assert sum(len(game[2]) for game in mine) > 5000


@needs_compiled
def test_the_expert_chooses_the_same_moves_in_both_builds():
    _, pure = in_pure_python("expert")
    assert expert_decisions() == pure


def test_solitaire_pure_forces_pure_python():
    code = ("import solitaire, solitaire.moves, solitaire.solver.search as s; "
            "print(solitaire.info()); print(solitaire.moves.__file__); print(s.__file__)")
    env = dict(os.environ, SOLITAIRE_PURE="1", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                         cwd=ROOT).stdout.splitlines()
    assert "pure Python" in out[0] and out[1].endswith("moves.py") and out[2].endswith("search.py")


@needs_compiled
def test_a_build_older_than_its_sources_runs_as_pure_python(tmp_path):
    copy = tmp_path / "solitaire"
    shutil.copytree(ROOT / "solitaire", copy, ignore=shutil.ignore_patterns("__pycache__", "notebooks"))
    with open(copy / "solver" / "node.py", "a", encoding="utf-8") as f:
        f.write("\n# an edit after the build\n")
    code = "import solitaire, solitaire.moves, solitaire.solver; print(solitaire.info()); " \
           "print(solitaire.moves.__file__); print(solitaire.solve(solitaire.Game('klondike', 3), max_nodes=500).status)"
    env = {k: v for k, v in os.environ.items() if k != "SOLITAIRE_PURE"} | {"PYTHONPATH": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                         cwd=tmp_path).stdout.splitlines()
    assert "pure Python (solitaire.solver.node changed since the build" in out[0], out[0]
    assert out[1] == str(copy / "moves.py") and out[2] == "won"


def test_info_says_which_build_runs():
    said = solitaire.info()
    assert said.startswith("solitaire-kit ") and ("compiled" in said or "pure Python" in said)
    out = subprocess.run([sys.executable, "-m", "solitaire", "--version"], capture_output=True, text=True, check=True,
                         cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT))).stdout
    assert out.strip() == said


def _borrowed(roots: list[str], into: Path) -> Path:
    """A folder that holds links to this environment's copies of the distributions ``roots`` and of what they
    require (their markers read for this machine), and nothing else."""
    from importlib import metadata

    from packaging.requirements import Requirement
    into.mkdir()
    todo, seen = list(roots), set()
    while todo:
        name = todo.pop().lower().replace("_", "-")
        if name in seen:
            continue
        seen.add(name)
        dist = metadata.distribution(name)
        for top in {Path(str(f)).parts[0] for f in dist.files or [] if not str(f).startswith("..")}:
            target = Path(dist.locate_file(top))
            if target.exists() and not (into / top).exists():
                (into / top).symlink_to(target)
        for text in dist.requires or []:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return into


def test_without_a_c_compiler_the_kit_installs_in_pure_python_and_passes_the_rules_tests(tmp_path):
    """CC=false: the build finds no working compiler, so the wheel is pure Python; a fresh venv with the wheel,
    pytest and hypothesis only runs the rules tests (offline: the wheel is built with this environment's
    setuptools, as pip does in its build environment)."""
    pytest.importorskip("wheel", reason="building a wheel offline needs the wheel package (pip install -e '.[test]')")
    src = tmp_path / "src"
    src.mkdir()
    for name in ["pyproject.toml", "setup.py", "MANIFEST.in", "README.md"]:
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "solitaire", src / "solitaire", ignore=shutil.ignore_patterns(
        "__pycache__", "*.so", "*.pyd", "_compiled.json"))
    (src / "notebooks").mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SOLITAIRE_PURE")} | {"CC": "false"}
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                            "-v", "-w", tmp_path / "dist", src], env=env, capture_output=True, text=True,
                           timeout=600, cwd=tmp_path)
    assert built.returncode == 0, built.stderr[-3000:]
    said = built.stdout + built.stderr  # (pip -v shows what the build printed)
    assert "no working C compiler" in said and "the kit runs in pure Python" in said, said[-3000:]
    [wheel] = (tmp_path / "dist").glob("solitaire_kit-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    assert not [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith((".so", ".pyd", ".c"))]
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    tools = _borrowed(["pytest", "hypothesis"], tmp_path / "tools")
    Path(purelib, "tools.pth").write_text(f"{tools}\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "-q",
                    wheel], env=env, check=True, capture_output=True, timeout=300)
    tests = tmp_path / "tests"
    tests.mkdir()
    for name in ["test_rules.py", "helpers.py", "conftest.py"]:
        shutil.copy2(ROOT / "tests" / name, tests / name)
    run = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_rules.py"],
                         env=env, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    where = subprocess.run([python, "-c", "import solitaire; print(solitaire.__file__); print(solitaire.info())"],
                           env=env, capture_output=True, text=True, check=True, cwd=tmp_path).stdout.splitlines()
    assert Path(where[0]).is_relative_to(venv) and "pure Python" in where[1] and " passed" in run.stdout


if __name__ == "__main__":  # the child process of in_pure_python
    result = {"searches": searches, "playouts": playouts, "expert": expert_decisions}[sys.argv[1]]()
    print(json.dumps({"info": solitaire.info(), "result": result}))
