"""Issue 55: stopping is safe, at any moment, for every command. Ctrl-C once or twice (2 s apart), sent as a terminal
sends it, to the whole process group: the workers end, what finished is kept, the command says what it was doing,
what it kept and how to go on, in one line, exits 130 and leaves no process behind. A command that writes a folder
(``lessons``, ``nbgrader``) leaves the old folder or the whole new one, never half of it. (``lite``: test_lite.py.)
"""
from __future__ import annotations

import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from solitaire.classroom.graded import SECRET_FILE as SECRET
from stopping import ENV, files_of, interrupt

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="Ctrl-C to a process group, read back from /proc")


def _count(path: Path) -> int:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            return db.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:  # not made yet
        return 0


def _one_clean_line(stopped, command: str) -> str:
    assert stopped.left == [], f"processes left behind: {stopped.left}"
    assert stopped.code == 130, (stopped.code, stopped.err[-2000:])
    assert "Traceback" not in stopped.err and "Exception ignored" not in stopped.err, stopped.err[-2000:]
    said = [line for line in stopped.err.splitlines() if "interrupted" in line]
    assert len(said) == 1, stopped.err
    assert said[0].startswith((f"python -m solitaire {command}: interrupted ",
                               "python -m solitaire: interrupted while starting: nothing was done")), stopped.err
    return said[0]


@pytest.mark.parametrize("strategy, deals, ready_at, times", [
    ("expert", 3000, 0, 1), ("expert", 3000, 0, 2), ("expert", 50, 0, 2), ("greedy", 30_000, 20, 2)])
def test_ctrl_c_ends_an_experiments_workers_and_says_what_is_kept(tmp_path, strategy, deals, ready_at, times):
    """Before: a second Ctrl-C hung the run (a traceback from threading's shutdown, idle workers for minutes); with
    --deals 50 it played on to the end and said nothing. The expert's games take seconds each: the Ctrl-C comes
    while the workers play their first ones."""
    out = tmp_path / "X.sqlite"
    stopped = interrupt(["experiment", "--strategies", strategy, "--deals", str(deals), "--workers", "2",
                         "--out", str(out), "--no-progress"], tmp_path,
                        lambda: out.exists() and _count(out) >= ready_at, times=times,
                        settle=2.0 if ready_at == 0 else 0)
    said = _one_clean_line(stopped, "experiment")
    kept = _count(out)
    games = {0: "no finished game yet", 1: "1 finished game"}.get(kept, f"{kept:,} finished games")
    assert said == (f"python -m solitaire experiment: interrupted while playing the games: '{out}' keeps {games} "
                    "(a game in progress is played again); rerun the same command to play the rest")
    assert ready_at <= kept < deals


def test_ctrl_c_without_out_says_nothing_was_kept(tmp_path):
    stopped = interrupt(["experiment", "--strategies", "expert", "--deals", "200", "--workers", "2", "--no-progress"],
                        tmp_path, lambda: False, wait=4, times=2)
    said = _one_clean_line(stopped, "experiment")
    assert "nothing was kept (with --out FILE the finished games are kept" in said


@pytest.mark.parametrize("command, args, message", [
    ("solve", ["--variant", "solijoy", "--seed", "2", "--max-seconds", "300"],
     "while searching: nothing was written; a smaller --max-seconds or --max-nodes ends the search sooner"),
    ("chance", ["--seed", "5", "--samples", "10000", "--max-nodes", "100000"],
     "while sampling layouts: nothing was written; fewer --samples or a smaller --max-nodes give an answer sooner"),
])
def test_each_command_says_what_it_was_doing(tmp_path, command, args, message):
    """Before: solve said "nothing was saved (use --out FILE …)", an option it does not have."""
    stopped = interrupt([command, *args], tmp_path, lambda: False, wait=4)
    assert _one_clean_line(stopped, command) == f"python -m solitaire {command}: interrupted {message}"


# --- the commands that write a folder: the old folder, or the whole new one ----------------------------------------
def _partials(folder: Path) -> list[str]:
    """What a folder command left aside (nothing, once it has ended)."""
    near = list(folder.parent.glob(f".{folder.name}.partial-*")) + list(folder.glob(".solitaire-partial-*"))
    return [str(p) for p in near]


FOLDER_COMMANDS = {"lessons": (lambda d: ["lessons", str(d)], "the lessons", "whole copy", ".solitaire-lessons.json"),
                   "nbgrader": (lambda d: ["nbgrader", str(d), "--force"], "the course", "whole course",
                                ".solitaire-course.json")}


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> dict[str, dict[str, bytes]]:
    """What each folder command writes when it is not interrupted."""
    made = {}
    for command, (make, *_) in FOLDER_COMMANDS.items():
        folder = tmp_path_factory.mktemp("whole") / command
        done = subprocess.run([sys.executable, "-m", "solitaire", *make(folder)], env=ENV, capture_output=True,
                              text=True)
        assert done.returncode == 0, done.stderr
        made[command] = {k: v for k, v in files_of(folder).items() if not k.startswith(".") and k != SECRET}
    return made


@pytest.mark.parametrize("command", FOLDER_COMMANDS)
@pytest.mark.parametrize("start", ["new", "old"])
@pytest.mark.parametrize("settle, times", [(0.0, 1), (0.02, 1), (0.1, 2)])
def test_an_interrupted_folder_is_the_old_one_or_the_whole_new_one(tmp_path, whole, command, start, settle, times):
    """Before: Ctrl-C during nbgrader left a partial course that a rerun refused as "not empty". The Ctrl-C comes
    once the command writes its files (at once, a little later, or twice), so it lands while they are made aside,
    while they move into place, or after; whenever it lands, the folder is as before or whole, and a file of the
    user's stays."""
    make, doing, complete, manifest = FOLDER_COMMANDS[command]
    folder = tmp_path / start
    if start == "old":  # an earlier folder with a file of the user's: kept whatever happens
        folder.mkdir()
        (folder / "mine.txt").write_text("keep me")
    before = files_of(folder) if folder.exists() else None
    stopped = interrupt(make(folder), tmp_path, lambda: bool(_partials(folder)) or (folder / manifest).exists(),
                        wait=120, settle=settle, times=times)
    after = files_of(folder) if folder.exists() else None
    assert not _partials(folder), _partials(folder)
    if before is not None:
        assert after["mine.txt"] == b"keep me"
    if stopped.code == 0:  # it finished before the Ctrl-C came (and a Ctrl-C after the end changes nothing)
        assert after is not None and {k: after.get(k) for k in whole[command]} == whole[command]
        assert command != "nbgrader" or len(after[SECRET].strip()) == 64  # a fresh secret, different each time
        return
    said = _one_clean_line(stopped, command)
    if after == before:
        assert f"interrupted while writing {doing}" in said, said
    else:
        assert f"holds the {complete}" in said, said
        assert {k: after.get(k) for k in whole[command]} == whole[command]
        assert command != "nbgrader" or len(after[SECRET].strip()) == 64  # the secret moved in with the rest


def test_a_course_stopped_before_it_was_whole_can_be_made_again(tmp_path):
    """The rerun after an interruption is not refused as "not empty" (the Ctrl-C comes while the course is made
    aside; should it come only after the course is whole, the run is tried again)."""
    course = tmp_path / "course"
    for _ in range(5):
        stopped = interrupt(["nbgrader", str(course)], tmp_path, lambda: bool(_partials(course)), wait=60)
        if stopped.code == 130 and not course.exists():
            break
        shutil.rmtree(course, ignore_errors=True)
    assert stopped.code == 130 and not course.exists(), stopped
    done = subprocess.run([sys.executable, "-m", "solitaire", "nbgrader", str(course)], env=ENV, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert re.search(r"source/02b_moves/02b_moves.ipynb: \d+ exercises?", done.stdout)
