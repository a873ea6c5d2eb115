"""A fresh clone, after the README's student command, opens with its lessons trusted (so saved card tables show
as pictures; JupyterLab shows no SVG of an untrusted notebook)."""
from __future__ import annotations

import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
from nbformat.sign import NotebookNotary

ROOT = Path(__file__).resolve().parents[1]


def student_command() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.search(r'^python -m pip install -e "\.\[lab\]".*$', readme, re.M)[0]


def test_the_student_command_trusts_every_lesson_before_opening_jupyterlab() -> None:
    steps = [s.strip() for s in student_command().split("&&")]
    trust = next((s for s in steps if " jupyter trust " in f" {s} "), None)
    assert trust is not None, "the README's student command must run `jupyter trust` on the lessons"
    assert steps.index(trust) < next(i for i, s in enumerate(steps) if "jupyter lab" in s)
    assert "notebooks/*.ipynb" in shlex.split(trust)


def test_the_trust_step_signs_every_lesson_of_a_copy(tmp_path: Path) -> None:
    """Run the README's own trust step on a copy of the lessons, with a data folder of its own (a new user)."""
    shutil.copytree(ROOT / "notebooks", tmp_path / "notebooks")
    data_dir = tmp_path / "jupyter-data"
    data_dir.mkdir()
    env = {**os.environ, "JUPYTER_DATA_DIR": str(data_dir)}
    trust = next(s for s in student_command().split("&&") if "jupyter trust" in s)
    args = [a for arg in shlex.split(trust)[3:] for a in sorted(glob.glob(str(tmp_path / arg)))]  # the shell's glob
    lessons = sorted((tmp_path / "notebooks").glob("*.ipynb"))
    assert len(args) == len(lessons) > 0
    notary = NotebookNotary(data_dir=str(data_dir))
    assert not any(notary.check_signature(nbformat.read(p, as_version=4)) for p in lessons)  # fresh: untrusted
    subprocess.run([sys.executable, "-m", "jupyter", "trust", *args], check=True, env=env, capture_output=True)
    assert all(notary.check_signature(nbformat.read(p, as_version=4)) for p in lessons)
