"""The command line, run as a student would: ``python -m solitaire ...`` in a subprocess."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from solitaire import Game
from solitaire.cli import main


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "solitaire", *args], capture_output=True, text=True, timeout=timeout)


def test_experiment_prints_a_summary_and_a_rerun_resumes_from_the_results_file(tmp_path):
    out = tmp_path / "results.sqlite"
    args = ("experiment", "--variants", "klondike", "italian", "klondike draw=3", "--strategies", "greedy", "solver",
            "--deals", "3", "--max-seconds", "30", "--max-nodes", "200", "--workers", "2", "--out", str(out))
    first = cli(*args)
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert lines[0].split()[:6] == ["variant", "strategy", "budget", "games", "wins", "win_rate"]
    assert len(lines) == 1 + 3 * 2 and any(line.startswith("klondike draw=3") for line in lines)
    assert "games" in first.stderr  # the progress bar
    with sqlite3.connect(out) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 18
    again = cli(*args, "--no-progress")
    assert again.returncode == 0 and again.stderr == ""
    assert again.stdout.splitlines()[1].split()[:5] == first.stdout.splitlines()[1].split()[:5]


def test_solve_prints_the_status_and_moves_that_replay(tmp_path):
    done = cli("solve", "--variant", "italian", "--seed", "1", "--max-seconds", "20")
    assert done.returncode == 0, done.stderr
    status = done.stdout.splitlines()[0]
    assert status.startswith("Italian 32-card deal 1: ")
    if "won" in status:
        game = Game("italian", seed=1)
        lines = done.stdout.splitlines()[2:]
        assert [int(line.split()[0]) for line in lines] == list(range(1, 10 * len(lines), 10))
        game.play_all(move for line in lines for move in line.split(None, 1)[1].split(", "))
        assert game.is_won()


def test_solve_reads_a_position_file(tmp_path):
    game = Game("klondike", seed=3)
    game.play(game.legal_moves()[0])
    path = tmp_path / "position.txt"
    path.write_text(game.to_text())
    done = cli("solve", "--position-file", str(path), "--max-seconds", "5", "--max-nodes", "2000")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"the position in {path}: ")


@pytest.mark.parametrize("args, message", [
    (["experiment", "--variants", "freecell"], "unknown variant 'freecell'"),
    (["experiment", "--strategies", "smart"], "invalid choice: 'smart'"),
    (["experiment", "--deals", "-3"], "expected a whole number >= 1, got '-3'"),
    (["experiment", "--deals", "many"], "expected a whole number, got 'many'"),
    (["experiment", "--max-seconds", "0"], "expected a number of seconds > 0, got '0'"),
    (["experiment", "--strategies", "solver", "--max-seconds", "10", "--retry-unknown", "5"], "5 s after 10 s"),
    (["experiment", "--strategies", "greedy", "--retry-unknown", "60"], "but --strategies has no solver"),
    (["experiment", "--workers", "0"], "expected a whole number >= 1, got '0'"),
    (["experiment", "--variants", "klondike draw=lots"], "draw=lots"),
    (["solve", "--seed", "x"], "expected a whole number, got 'x'"),
    (["solve", "--position-file", "no/such/file.txt"], "cannot read the position file 'no/such/file.txt'"),
    ([], "required: COMMAND"),
])
def test_bad_input_gives_a_clear_message_and_exit_code_2(args, message, capsys):
    with pytest.raises(SystemExit) as stop:
        main(args)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_bad_input_in_a_subprocess_has_no_traceback():
    done = cli("experiment", "--variants", "klondike", "nope", "--deals", "2")
    assert done.returncode == 2
    assert "unknown variant 'nope'" in done.stderr and "Traceback" not in done.stderr


def test_a_results_file_that_is_not_one_is_refused(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("not a database\n" * 100)
    done = cli("experiment", "--deals", "1", "--out", str(path))
    assert done.returncode == 2 and "not a SQLite file" in done.stderr and "untouched" in done.stderr and "Traceback" not in done.stderr


def test_help_texts(capsys):
    for args in (["--help"], ["experiment", "--help"], ["solve", "--help"]):
        with pytest.raises(SystemExit) as stop:
            main(args)
        assert stop.value.code == 0
    text = capsys.readouterr().out
    assert "--max-seconds" in text and "--position-file" in text and "resume" in text


def test_ctrl_c_stops_the_run_keeps_finished_games_and_the_rerun_completes(tmp_path):
    out = tmp_path / "results.sqlite"
    args = ("experiment", "--variants", "klondike", "--strategies", "random", "greedy", "--deals", "400",
            "--workers", "2", "--no-progress", "--out", str(out))
    # Ctrl-C as from a terminal, even when this test runs in a background job that ignores SIGINT
    # (a child that inherits "ignore" never sees the KeyboardInterrupt)
    child = subprocess.Popen([sys.executable, "-m", "solitaire", *args], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
        if out.exists():
            try:
                with sqlite3.connect(out) as db:
                    if db.execute("SELECT count(*) FROM games").fetchone()[0] >= 5:
                        break
            except sqlite3.OperationalError:
                pass
    os.kill(child.pid, signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 130 and "interrupted" in err and "Traceback" not in err
    with sqlite3.connect(out) as db:
        kept = db.execute("SELECT count(*) FROM games").fetchone()[0]
    assert 5 <= kept < 800
    done = cli(*args)
    assert done.returncode == 0
    with sqlite3.connect(out) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 800


@pytest.mark.parametrize("command", ["solve", "hint", "chance"])
def test_an_impossible_position_file_is_refused_before_any_search(tmp_path, command):
    """Issue 43: a hand-edited 9♥ on a 6♠ was solved, hinted and given "about 50%" as if a game could reach it."""
    text = Game("klondike", seed=0).to_text().replace("t1: 8♠", "t1: 6♠ 9♥").replace(
        "t7: <6♠> <9♥> <2♣>", "t7: <8♠> <2♣>")
    path = tmp_path / "what-if.txt"
    path.write_text(text, encoding="utf-8")
    done = cli(command, "--position-file", str(path))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"python -m solitaire {command}: error: line 10 (t1): 9♥ lies face up on 6♠, but in "
                           "Klondike a card goes on the card just before it in the order K Q J 10 9 8 7 6 5 4 3 2 A "
                           "(an 8 on a 9), of the opposite colour\n")
