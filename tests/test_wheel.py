"""The kit as pip installs it from a wheel, not from a clone: the built wheel, installed in a fresh virtual
environment, writes an nbgrader course and a student's working copy of the lessons (both need the lesson
notebooks, which the wheel carries as package data).

One slow test (a few seconds): it builds the wheel offline (``pip wheel --no-build-isolation``, with the
setuptools and wheel of this environment) from a copy of the sources, so the clone gets no build/ folder, and
installs it with ``--no-deps`` into a fresh venv that borrows this environment's libraries through a ``.pth``
line instead of downloading them. The test runs in a folder of its own, without PYTHONPATH, so nothing can import
the clone's ``solitaire`` by accident; it checks that it did not.
"""
from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ["pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "solitaire", "notebooks"]


def _run(args: list, cwd: Path, env: dict | None = None) -> str:
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{' '.join(map(str, args))} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def build_wheel(out: Path) -> Path:
    """Build the kit's wheel from a copy of its sources into ``out``; return its path."""
    pytest.importorskip("wheel", reason="building a wheel offline needs the wheel package (pip install -e '.[test]')")
    src = out / "src"
    src.mkdir(parents=True)
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"))
        else:
            shutil.copy2(ROOT / name, src / name)
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q",
          "-w", out / "dist", src], out)
    [wheel] = (out / "dist").glob("solitaire_kit-*.whl")
    return wheel


def fresh_venv(folder: Path, wheel: Path) -> Path:
    """A new venv with only the kit's wheel installed in it, this environment's libraries borrowed; its python."""
    _run([sys.executable, "-m", "venv", "--without-pip", folder], folder.parent)
    python = folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], folder).strip())
    borrowed = [sysconfig.get_paths()["purelib"], *site.getsitepackages()]
    (purelib / "borrowed-libraries.pth").write_text("\n".join(dict.fromkeys(borrowed)) + "\n", encoding="utf-8")
    # --ignore-installed: the borrowed libraries may hold the clone's own editable install (CI's), which pip would
    # otherwise take as the kit already there; PYTHONPATH is left out for the same reason
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    _run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "--ignore-installed",
          "-q", wheel], folder, env)
    return python


def test_the_installed_wheel_writes_a_course_and_a_working_copy(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path / "build")
    names = zipfile.ZipFile(wheel).namelist()
    lessons = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert sorted(n.rsplit("/", 1)[1] for n in names if n.startswith("solitaire/classroom/notebooks/")
                  and n.endswith(".ipynb")) == lessons
    assert not [n for n in names if "__pycache__" in n or n.startswith(("notebooks/", "tests/", "scripts/"))]
    python = fresh_venv(tmp_path / "venv", wheel)
    work = tmp_path / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    where = _run([python, "-c", "import solitaire; print(solitaire.__file__)"], work, env)
    assert Path(where.strip()).is_relative_to(tmp_path / "venv"), where
    said = _run([python, "-m", "solitaire", "nbgrader", "course"], work, env)
    made = sorted(p.name for p in (work / "course" / "source").iterdir())
    with_exercises = sorted(n[:-6] for n in lessons if '"solution"' in (ROOT / "notebooks" / n).read_text("utf-8"))
    assert made == with_exercises and "next: cd course && nbgrader generate_assignment" in said
    source = json.loads((work / "course" / "source" / "02b_moves" / "02b_moves.ipynb").read_text(encoding="utf-8"))
    assert any("### BEGIN SOLUTION" in "".join(c["source"]) for c in source["cells"])
    _run([python, "-m", "solitaire", "lessons", "mine"], work, env)
    assert sorted(p.name for p in (work / "mine").glob("*.ipynb")) == lessons
    assert (work / "mine" / "TEACHERS.md").is_file()
    print(f"\nthe wheel: {wheel.name}, {wheel.stat().st_size / 1e3:.0f} kB")
