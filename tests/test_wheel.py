"""The kit as pip installs it from a wheel, not from a clone: the built wheel, installed in a fresh virtual
environment, writes a student's working copy of the lessons, and an nbgrader course from the teacher's notebooks
given with ``--lessons`` (the teacher's route is the repository). The wheel is the student's install: it carries
the lessons as student copies only (no solution cell, no kit's answer shown after a check) and the teacher's
guide without its answers, and a graded answer there cannot use the checkers' own answers (issue 53).

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


def _solution_lines() -> set[str]:
    """Lines of the teacher's solution cells that no student copy holds (not a def line, a docstring, a comment)."""
    from solitaire.classroom.student_copy import student_notebook
    lines = set()
    for path in (ROOT / "notebooks").glob("*.ipynb"):
        nb = json.loads(path.read_text(encoding="utf-8"))
        student = "\n".join("".join(c["source"]) for c in student_notebook(nb)["cells"])
        for cell in nb["cells"]:
            if cell["cell_type"] == "code" and "solution" in cell.get("metadata", {}).get("tags", []):
                lines |= {line.strip() for line in "".join(cell["source"]).splitlines() if len(line.strip()) > 25
                          and not line.lstrip().startswith(("def ", '"""', "#")) and line.strip() not in student}
    return lines


def test_the_wheel_holds_no_solution_and_no_answer(tmp_path: Path) -> None:
    from solitaire.classroom.student_copy import ANSWERS_HEADING, ANSWERS_NOTE, student_notebook_text
    wheel = build_wheel(tmp_path / "build")
    with zipfile.ZipFile(wheel) as packed:
        texts = {n: packed.read(n).decode("utf-8", errors="replace") for n in packed.namelist()}
    lessons = {n.rsplit("/", 1)[1]: t for n, t in texts.items() if n.startswith("solitaire/classroom/notebooks/")}
    for path in (ROOT / "notebooks").glob("*.ipynb"):
        assert lessons[path.name] == student_notebook_text(path), path.name  # a student copy, nothing else
    assert not [n for n, t in texts.items() if n.endswith(".ipynb") and "### BEGIN SOLUTION" in t]
    # Not in any lesson or guide. (The package's code may hold the same lines: the practice checks work out their
    # expected answers on the student's machine; a graded answer's process holds none of them, tests/test_grading.)
    solution_lines = _solution_lines()
    assert len(solution_lines) > 50
    leaked = {(n, line) for n, t in texts.items() for line in solution_lines if line in t and not n.endswith(".py")}
    assert not leaked, sorted(leaked)[:5]
    guide = lessons["TEACHERS.md"]
    assert ANSWERS_HEADING in guide and ANSWERS_NOTE in guide and "**07.reachable**" not in guide
    assert "**07.reachable**" in (ROOT / "notebooks" / "TEACHERS.md").read_text(encoding="utf-8")
    print(f"\n{len(solution_lines)} lines of the teacher's solutions looked for in {len(texts)} files of the wheel")


CHECKERS_ANSWER = """
from solitaire.lessons import check, grade
from solitaire.lessons.lesson06 import _checked_width_answer
def deals_needed(width):
    return _checked_width_answer(width)
print(check("06.deals_needed", deals_needed, quiet=True), grade("06.deals_needed", deals_needed, quiet=True))
"""


def test_the_installed_wheel_writes_a_course_and_a_working_copy(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path / "build")
    names = zipfile.ZipFile(wheel).namelist()
    lessons = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    deeper = sorted(f"deeper/{p.name}" for p in (ROOT / "notebooks" / "deeper").glob("*.ipynb"))
    assert sorted(n.split("solitaire/classroom/notebooks/", 1)[1] for n in names
                  if n.startswith("solitaire/classroom/notebooks/") and n.endswith(".ipynb")) == sorted(lessons + deeper)
    assert not [n for n in names if "__pycache__" in n or n.startswith(("notebooks/", "tests/", "scripts/"))]
    python = fresh_venv(tmp_path / "venv", wheel)
    work = tmp_path / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    where = _run([python, "-c", "import solitaire; print(solitaire.__file__)"], work, env)
    assert Path(where.strip()).is_relative_to(tmp_path / "venv"), where
    said = _run([python, "-m", "solitaire", "nbgrader", "course", "--lessons", ROOT / "notebooks"], work, env)
    made = sorted(p.name for p in (work / "course" / "source").iterdir())
    with_exercises = sorted(n[:-6] for n in lessons if '"solution"' in (ROOT / "notebooks" / n).read_text("utf-8"))
    assert made == with_exercises and "next: cd course && nbgrader generate_assignment" in said
    source = json.loads((work / "course" / "source" / "02b_moves" / "02b_moves.ipynb").read_text(encoding="utf-8"))
    assert any("### BEGIN SOLUTION" in "".join(c["source"]) for c in source["cells"])
    _run([python, "-m", "solitaire", "lessons", "mine"], work, env)
    assert sorted(p.name for p in (work / "mine").glob("*.ipynb")) == lessons
    assert sorted(f"deeper/{p.name}" for p in (work / "mine" / "deeper").glob("*.ipynb")) == deeper  # 52: no dead link
    assert (work / "mine" / "TEACHERS.md").is_file()
    assert "### BEGIN SOLUTION" not in "".join(p.read_text(encoding="utf-8") for p in (work / "mine").rglob("*")
                                               if p.is_file())
    # a student's install: the checker's own answer passes the practice check, and not a grade
    assert _run([python, "-c", CHECKERS_ANSWER], work, env).split() == ["True", "False"]
    print(f"\nthe wheel: {wheel.name}, {wheel.stat().st_size / 1e3:.0f} kB")
