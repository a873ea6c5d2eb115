"""Issue 55, messages that named the wrong cause, or none: each message now names the real cause in one line, one
exit code goes with each kind of error (2: what was typed cannot be used, paths included; 1: the machine failed;
130: Ctrl-C; 141: the reader of the output went away, said by no message), contradictory flags are refused, and
every seed option takes the same range (0 to 2**64 - 1)."""
from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from solitaire.cli import interrupted_text
from stopping import ENV, ROOT

SEED_RANGE = "from 0 to 18,446,744,073,709,551,615"


def cli(*args: str, cwd: Path, timeout: float = 120, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "solitaire", *args], cwd=cwd, env=ENV, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=timeout)


def one_line(done: subprocess.CompletedProcess, code: int, command: str) -> str:
    assert done.returncode == code, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith(f"python -m solitaire {command}: error: ")]
    assert len(errors) == 1, done.stderr
    return errors[0].split(": error: ", 1)[1]


@pytest.fixture
def here(tmp_path: Path) -> Path:
    (tmp_path / "afile").write_text("a file, not a folder\n")
    return tmp_path


@pytest.mark.parametrize("args, message", [
    (["lessons", "afile/sub"], "cannot make the folder 'afile/sub': 'afile' is a file, not a folder"),
    (["lessons", str(ROOT / "notebooks")], f"{str(ROOT / 'notebooks')!r} is the kit's own lessons folder (the "
                                           "teacher's notebooks): give another folder for your copy"),
    (["lessons", ""], "the folder for your copy is empty: give a folder name, such as solitaire-lessons"),
    (["nbgrader", ""], "the course folder is empty: give a folder name, such as course/"),
    (["lite", ""], "the site's folder is empty: give a folder name, such as site/"),
    (["lab", ""], "the folder of your working copy is empty: give a folder name, such as solitaire-lessons"),
    (["class-report", "C2", "--out", "nodir/r.png"], "--out 'nodir/r.png': the folder 'nodir' does not exist: give a "
                                                     "file in a folder that exists"),
    (["class-report", "nosuch"], "there is no course folder or file 'nosuch': give the course folder (its "
                                 "gradebook.db) or a CSV that --by-exercise wrote"),
    (["solve", "--variant", "bogus"], "argument --variant: unknown variant 'bogus': choose one of klondike, solijoy, "
                                      "italian, optionally followed by changed rules in quotes, such as \"klondike "
                                      "draw=3\""),
    (["solve", "--seed", "3", "--position-file", "afile"], "--seed 3 and --position-file 'afile' name two games: a "
                                                           "position file holds its own game; leave out --seed"),
    (["experiment", "--retry-unknown", "60"], "--retry-unknown gives the solver's unknown deals a longer look, but "
                                              "--strategies has no solver"),
    (["solve", "--seed", str(2 ** 64)], f"argument --seed: expected a whole number {SEED_RANGE}"),
    (["experiment", "--first-seed", str(2 ** 64)], f"argument --first-seed: expected a whole number {SEED_RANGE}"),
])
def test_each_message_names_the_real_cause_in_one_line(here, args, message):
    """Before: "Not a directory: 'afile/sub'", "holds lessons you have changed" for the kit's own folder, "cannot
    write the table file" for a plot, "there is no file", "... or pass a Variant", and --seed silently ignored."""
    before = sorted(p.name for p in here.iterdir())
    said = one_line(cli(*args, cwd=here), 2, args[0])
    assert message in said, said
    assert sorted(p.name for p in here.iterdir()) == before  # nothing written (`lessons ""` wrote into here)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc, which takes no new folders")
def test_a_folder_that_cannot_be_made_names_where(here):
    """Before: "No such file or directory", for a folder whose parent exists."""
    said = one_line(cli("lessons", "/proc/solitaire", cwd=here), 2, "lessons")
    assert said.startswith("cannot make a folder in '/proc' (") and said.endswith("give a folder you may write to")


@pytest.mark.parametrize("args", [
    ["lessons", "afile/x"], ["nbgrader", "afile/x"], ["lite", "afile/x"], ["lab", "afile/x"],
    ["experiment", "--deals", "1", "--out", "afile/x.sqlite"], ["tournament", "afile/x", "--deals", "1"],
    ["class-report", "afile", "--out", "afile/x.png"], ["hint", "--position-file", "afile/x"]])
def test_a_path_that_cannot_be_used_exits_2_in_every_command(here, args):
    """Before: the same kind of path error exited 1 in lessons, nbgrader, lite and lab, and 2 elsewhere."""
    assert "afile" in one_line(cli(*args, cwd=here), 2, args[0])


def test_two_runs_on_one_results_file_name_the_other_run(here):
    """Before: "database is locked: check the file and its folder"."""
    out = here / "X.sqlite"
    assert cli("experiment", "--deals", "1", "--workers", "1", "--out", str(out), cwd=here).returncode == 0
    holder = sqlite3.connect(out, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another run, in the middle of writing (longer than SQLite waits, 5 s)
    try:
        said = one_line(cli("experiment", "--deals", "2", "--workers", "1", "--out", str(out), cwd=here), 2,
                        "experiment")
    finally:
        holder.rollback()
        holder.close()
    assert "database is locked" in said and "another run (or program) is writing it now: wait for that run to end, " \
                                           "or give another results file" in said


def test_a_closed_pipe_ends_quietly_as_for_a_unix_tool(here):
    """Before: `hint --seed 1 | head -0` said "error: cannot write the output (Broken pipe)" and exited 1."""
    read, write = os.pipe()
    os.close(read)  # the reader is gone before anything is written, as with `| head -0`
    try:
        done = cli("hint", "--seed", "1", cwd=here, stdout=write)
    finally:
        os.close(write)
    assert done.returncode == 141 and done.stderr == ""


def test_a_dead_scheduler_is_said_at_once(here):
    """Before: 31 s (Dask's own timeout) to say it could not connect; a closed port is refused at once now. The
    20 s bound only catches the old wait, it measures nothing."""
    done = cli("tournament", "solitaire/entrants", "--deals", "1", "--scheduler", "tcp://127.0.0.1:1", cwd=ROOT,
               timeout=20)
    said = one_line(done, 2, "tournament")
    assert said.startswith("cannot reach the Dask scheduler at --scheduler 'tcp://127.0.0.1:1' (Connection refused")


@pytest.mark.parametrize("command", ["solve", "hint", "chance", "lessons", "nbgrader", "lite", "class-report"])
def test_ctrl_c_says_what_the_command_was_doing_and_never_speaks_of_options_it_lacks(command):
    """Before: every command said the experiment's line, "nothing was saved (use --out FILE ...)", and class-report
    --out rep.png said "finished games are kept in rep.png"."""
    said = interrupted_text(argparse.Namespace(command=command, out="rep.png" if command == "class-report" else None))
    assert said.startswith(("while ", "before it")) and "games" not in said
    if command not in ("class-report",):
        assert "--out" not in said
