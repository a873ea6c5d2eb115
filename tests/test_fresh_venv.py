"""Installs as a newcomer makes them, each in a fresh virtual environment of a copy of the kit (issue 55; course
issue 52, item 7): nothing of the developer's environment helps.

- The README's quick start, run by ``sh`` (not bash) with only ``python3`` on the path (no ``python``, as on a new
  Debian account), then ``python -m solitaire lessons DIR`` and every lesson of that copy top to bottom with nbclient,
  in that environment; then ``python -m solitaire lab`` says where the copy is before JupyterLab starts, and
  JupyterLab's address opens the index.
- ``pip install -e ".[lite]"`` alone, then ``python -m solitaire lite site/`` (TEACHERS.md's zero-install route).
- ``pip install -e ".[teach]"`` alone, then the teacher's nbgrader route: the course, an assignment, a student's
  notebook handed in, autograde, export and the class report.

pip installs from the package index through its cache (warm where the suite has run before). These are the suite's
slowest tests: ``-m "not fresh_venv"`` leaves them out (DEVELOPING.md's quick loop); their times are printed.
"""
from __future__ import annotations

import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")

pytestmark = [pytest.mark.fresh_venv,
              pytest.mark.skipif(sys.platform != "linux", reason="runs sh and a POSIX virtual environment")]


def kit_copy(dest: Path) -> Path:
    """The kit's files as a fresh clone has them (git's tracked and new files; no .venv, no build output)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True)
    if listed.returncode:  # not a git clone (an unpacked archive): everything but what git would ignore
        shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(
            ".git", ".venv*", "artifacts", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache",
            ".hypothesis", "solitaire-lessons"))
        return dest
    for name in filter(None, listed.stdout.decode().split("\0")):
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    return dest


def only_python3(tmp: Path) -> dict[str, str]:
    """An environment whose path has ``python3`` (this machine's base Python) and the system's tools, and no
    ``python``; no PYTHONPATH, so nothing is imported from the clone under test but what pip installed."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(os.path.realpath(getattr(sys, "_base_executable", sys.executable)))
    system = [d for d in ("/usr/local/bin", "/usr/bin", "/bin") if Path(d).is_dir()]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env.update(PATH=os.pathsep.join([str(bin_dir), *system]), JUPYTER_CONFIG_DIR=str(tmp / "jupyter-config"),
               JUPYTER_DATA_DIR=str(tmp / "jupyter-data"), JUPYTER_RUNTIME_DIR=str(tmp / "jupyter-runtime"),
               JUPYTER_PLATFORM_DIRS="1", PIP_DISABLE_PIP_VERSION_CHECK="1",
               PIP_NO_COMPILE="0")  # pip reads this as --no-compile (its --no-* flags read inverted from the
    # environment): no byte-compiling of every file installed; Python compiles what it imports anyway
    return env


def sh(script: str, cwd: Path, env: dict[str, str], timeout: float = 1500) -> str:
    done = subprocess.run(["sh", "-e", "-c", script], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, (f"{script}\nfailed with {done.returncode}:\n{done.stdout[-2000:]}\n"
                                  f"{done.stderr[-4000:]}")
    return done.stdout + done.stderr


class Clock:
    """Wall time and the CPU time of every process started meanwhile (and waited for), for the printed figures."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), self._children()

    @staticmethod
    def _children() -> float:
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        return used.ru_utime + used.ru_stime

    def __str__(self) -> str:
        return f"{time.perf_counter() - self.wall:.0f} s of wall time, {self._children() - self.cpu:.0f} s of CPU"


def quick_start_lines() -> list[str]:
    """The commands of the README's quick start, as written (comments aside)."""
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "the quick start's commands are a ```sh block"
    return [line.split("  #")[0].strip() for line in block[1].splitlines() if line.strip()]


class Install:
    """One install in a fresh venv, run by sh in the background (the three go side by side: on two cores their
    unpacking overlaps the others' waiting); ``wait()`` gives the kit's folder and the environment once it is done."""

    def __init__(self, name: str, tmp: Path, script: str) -> None:
        self.name, self.kit, self.env = name, kit_copy(tmp / "kit"), only_python3(tmp)
        self.log = open(tmp / "install.log", "w+", encoding="utf-8")
        self.start, self.script = time.perf_counter(), script
        self.process = subprocess.Popen(["sh", "-e", "-c", script], cwd=self.kit, env=self.env, stdout=self.log,
                                        stderr=subprocess.STDOUT, start_new_session=True)

    def wait(self) -> tuple[Path, dict[str, str]]:
        code = self.process.wait(timeout=1500)
        self.log.seek(0)
        assert code == 0, f"{self.script}\nfailed with {code}:\n{self.log.read()[-4000:]}"
        print(f"\n{self.name} in a fresh venv: done {time.perf_counter() - self.start:.0f} s after it started")
        return self.kit, self.env

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.log.close()


@pytest.fixture(scope="module")
def installs(tmp_path_factory):
    """The three installs, started together: the README's student install (the wheel the teacher builds as the
    README says, then the quick start's lines as written, but the last, which starts JupyterLab), [lite] alone and
    [teach] alone."""
    lines = quick_start_lines()
    assert lines[-1] == "python -m solitaire lab", lines
    clock = Clock()
    # the teacher's step first: the pure-Python wheel the README says students get, built in the kit's folder
    build_wheel = ("python3 -m venv .build\nSOLITAIRE_PURE=1 .build/bin/python -m pip wheel -q --no-deps -w . .\n"
                   "rm -rf .build\n")
    started = {"student": Install("the README's student install", tmp_path_factory.mktemp("student"),
                                  build_wheel + "\n".join(lines[:-1])),
               "lite": Install("[lite] alone", tmp_path_factory.mktemp("lite"),
                               'python3 -m venv .venv\n. .venv/bin/activate\npython -m pip install -q -e ".[lite]"'),
               "teach": Install("[teach] alone", tmp_path_factory.mktemp("teach"),
                                'python3 -m venv .venv\n. .venv/bin/activate\npython -m pip install -q -e ".[teach]"')}
    assert subprocess.run(["sh", "-c", "command -v python"], env=started["student"].env,
                          capture_output=True).returncode != 0  # only python3, as on a new Debian account
    try:
        yield started
    finally:
        for install in started.values():
            install.stop()
        print(f"\nthe fresh venvs, installs and tests: {clock}")


@pytest.fixture(scope="module")
def student(installs):
    """The README's student install, run by sh with only python3: the kit's folder and its environment."""
    return installs["student"].wait()


RUN_EVERY_LESSON = r'''
import concurrent.futures as cf, json, sys, time
from pathlib import Path
import nbclient, nbformat

folder = Path(sys.argv[1])

def run(path):
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    try:
        nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                resources={"metadata": {"path": str(folder)}}).execute()
    except Exception as e:  # the first cell that raised, and why
        return path.name, time.perf_counter() - start, f"{type(e).__name__}: {str(e)[-1500:]}"
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    said = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs
                   if o.output_type == "stream" and o.get("name") == "stderr")
    bad = [line for line in said.splitlines() if line.startswith("left out ")]  # an entrant the tournament dropped
    return path.name, time.perf_counter() - start, "; ".join([f"{e.ename}: {e.evalue}" for e in errors] + bad)

with cf.ThreadPoolExecutor(2) as pool:
    print("LESSONS-RUN", json.dumps(list(pool.map(run, sorted(folder.glob("*.ipynb"))))))
'''


def test_the_readme_student_install_runs_every_lesson_of_a_working_copy(student):
    """Course issue 52, item 7: lesson 05b raised KeyError: 'peeker' ("left out … import failed"): cloudpickle
    was not in [lab]."""
    kit, env = student
    clock = Clock()
    (kit.parent / "run_every_lesson.py").write_text(RUN_EVERY_LESSON, encoding="utf-8")
    out = sh(". .venv/bin/activate\npython -m solitaire lessons ../mine\npython ../run_every_lesson.py ../mine",
             kit, env)
    ran = json.loads(next(line for line in out.splitlines() if line.startswith("LESSONS-RUN "))[12:])
    print(f"\nevery lesson of the working copy, two at a time: {clock}; the slowest: "
          + ", ".join(f"{name} {s:.0f} s" for name, s, _ in sorted(ran, key=lambda r: -r[1])[:3]))
    assert len(ran) == len(list((ROOT / "notebooks").glob("*.ipynb")))
    assert {name: why for name, _, why in ran if why} == {}


def test_lab_says_where_the_copy_is_before_jupyterlab_starts_and_its_address_opens_the_index(student, tmp_path):
    """Before: the address JupyterLab printed opened the Launcher, and "wrote your working copy" came only after
    JupyterLab had stopped (the line sat in a buffer)."""
    kit, env = student
    lab = subprocess.Popen(["sh", "-c", '. .venv/bin/activate && exec python -m solitaire lab --no-browser '
                                        f'--port {free_port()}'], cwd=kit, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, start_new_session=True)
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and not any("/lab/tree/" in line and "token=" in line for line in lines):
            line = lab.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip())
    finally:
        os.killpg(lab.pid, signal.SIGTERM)
        lab.communicate(timeout=60)
    said = [i for i, line in enumerate(lines) if "your working copy of the lessons in" in line]
    served = [i for i, line in enumerate(lines) if "http://" in line]
    assert said and served and said[0] < served[0], "\n".join(lines[-30:])
    assert lines[said[0]].startswith(f"wrote your working copy of the lessons in {kit / 'solitaire-lessons'}")
    assert all("/lab/tree/00_index.ipynb?token=" in lines[i] for i in served if "token=" in lines[i]), lines


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_lite_extra_alone_builds_the_site(installs):
    """Before: "cannot build the kit's wheel (hint: See above for details.)", then a traceback ("jupyter-server is
    not installed") and a 44 MB partial site: it built only with [lab], [lite] and wheel together."""
    kit, env = installs["lite"].wait()
    clock = Clock()
    out = sh(". .venv/bin/activate\npython -m solitaire lite ../site", kit, env)
    print(f"the site built in {clock}")
    assert out.startswith("wrote ../site: ") and " lessons, " in out.splitlines()[0], out
    site = kit.parent / "site"
    assert (site / "api" / "contents" / "all.json").is_file() and (site / "files" / "01a_play.ipynb").is_file()


def test_the_teach_extra_alone_runs_the_teachers_route(installs):
    """TEACHERS.md's nbgrader route with nothing but [teach]: the course, one assignment, one student's notebook
    handed in, autograde, export, the class report with its plot and its rows per exercise."""
    kit, env = installs["teach"].wait()
    clock = Clock()
    sh(""". .venv/bin/activate
python -m solitaire nbgrader ../course
cd ../course
nbgrader generate_assignment 01_cards --create
mkdir -p submitted/ana/01_cards
cp release/01_cards/01_cards.ipynb submitted/ana/01_cards/
nbgrader autograde 01_cards --create
nbgrader export
python -m solitaire class-report . --out report.png --by-exercise by_exercise.csv""", kit, env)
    print(f"the teacher's route took {clock}")
    course = kit.parent / "course"
    assert (course / "grades.csv").read_text(encoding="utf-8").startswith("assignment,")
    assert (course / "report.png").read_bytes()[:4] == b"\x89PNG"
    rows = (course / "by_exercise.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0] == "assignment,exercise,student_id,score,max_score,submitted" and len(rows) > 1
