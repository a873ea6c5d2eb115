"""Issue 43: an output never destroys a result, and two messages name their cause.

``--table`` refuses, with exit 2 and before any game is played, the run's own ``--out`` and any existing SQLite
file (for ``experiment`` and ``tournament``); an earlier CSV may be written over; every table is written beside
its name and renamed, so an interrupted write leaves the old file whole. An unreachable ``--scheduler`` names its
address; a points file that is not UTF-8 names the file."""
from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from solitaire.cli import main
from solitaire.cli_support import atomic_path, check_output, sqlite_kind

ROOT = Path(__file__).resolve().parent.parent
ENTRANTS = str(ROOT / "solitaire" / "entrants")
FAST = {"experiment": ["experiment", "--deals", "2", "--workers", "1", "--no-progress"],
        "tournament": ["tournament", ENTRANTS, "--deals", "1"]}


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``python -m solitaire`` run in ``cwd`` (a run's folder), on this checkout's package."""
    env = os.environ | {"PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "solitaire", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd, env=env)


def an_earlier_run(folder: Path, command: str) -> Path:
    """The results file of an earlier, finished run of ``command``."""
    out = folder / f"earlier-{command}.sqlite"
    done = cli(*FAST[command], "--out", str(out), cwd=folder)
    assert done.returncode == 0, done.stderr
    return out


@pytest.mark.parametrize("command", ["experiment", "tournament"])
def test_table_refuses_the_runs_own_results_file_and_an_earlier_one(tmp_path, command):
    earlier = an_earlier_run(tmp_path, command)
    before = earlier.read_bytes()
    with sqlite3.connect(earlier) as db:
        games = db.execute("SELECT count(*) FROM games").fetchone()[0]
    cases = {"the run's own --out": (["--out", str(earlier), "--table", str(earlier)], "is this run's results file"),
             "an earlier run's results": (["--out", str(tmp_path / "new.sqlite"), "--table", str(earlier)],
                                          "is an SQLite database")}
    for case, (args, words) in cases.items():
        done = cli(*FAST[command], *args, cwd=tmp_path)
        assert done.returncode == 2, (case, done.stdout, done.stderr)
        assert words in done.stderr and done.stderr.count("\n") == 1 and done.stdout == "", (case, done.stderr)
        assert earlier.read_bytes() == before, case  # intact: not one game played into it, no CSV over it
    assert not (tmp_path / "new.sqlite").exists()  # refused before any game: the new results file was never made
    with sqlite3.connect(earlier) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == games


def test_the_same_file_written_another_way_is_still_the_results_file(tmp_path):
    (tmp_path / "runs").mkdir()
    with pytest.raises(ValueError, match="is this run's results file"):
        check_output("--table", str(tmp_path / "runs" / ".." / "r.sqlite"), results=str(tmp_path / "r.sqlite"))
    os.symlink(tmp_path / "r.sqlite", tmp_path / "link.csv")
    with pytest.raises(ValueError, match="is this run's results file"):
        check_output("--table", str(tmp_path / "link.csv"), results=str(tmp_path / "r.sqlite"))


def test_a_sqlite_file_is_known_by_its_first_bytes_not_its_name(tmp_path):
    db = tmp_path / "games.csv"  # an SQLite file with a table's name
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE t (x)")
    con.close()
    assert sqlite_kind(db) == "an SQLite database"
    with pytest.raises(ValueError, match="'.*games.csv' is an SQLite database"):
        check_output("--table", str(db))
    csv = tmp_path / "results.sqlite"  # a CSV with a results file's name may be written over
    csv.write_text("variant,strategy\n")
    assert sqlite_kind(csv) is None and check_output("--table", str(csv)) is None


@pytest.mark.parametrize("command", ["experiment", "tournament"])
def test_an_earlier_csv_table_may_be_written_over(tmp_path, command):
    table = tmp_path / "games.csv"
    table.write_text("an earlier table\n")
    done = cli(*FAST[command], "--table", str(table), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert table.read_text().splitlines()[0].startswith(("variant,", "entrant,"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.csv"]  # no temporary file left beside it


def test_an_interrupted_table_leaves_the_old_file_whole(tmp_path, monkeypatch, capsys):
    import pandas as pd
    table = tmp_path / "games.csv"
    table.write_text("the old table\n")

    def half_then_full_disk(self, path, **options):
        Path(path).write_text("varia")  # half a line, then the disk is full
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(pd.DataFrame, "to_csv", half_then_full_disk)
    with pytest.raises(SystemExit) as info:
        main(["experiment", "--deals", "1", "--workers", "1", "--no-progress", "--table", str(table)])
    assert info.value.code == 1 and "cannot write the table file" in capsys.readouterr().err
    assert table.read_text() == "the old table\n" and [p.name for p in tmp_path.iterdir()] == ["games.csv"]


def test_an_interrupted_write_leaves_the_old_file_whole(tmp_path):
    table = tmp_path / "games.csv"
    table.write_text("the old table\n")
    with pytest.raises(OSError), atomic_path(table) as path:
        Path(path).write_text("varia")
        raise OSError(28, "No space left on device")
    assert table.read_text() == "the old table\n" and [p.name for p in tmp_path.iterdir()] == ["games.csv"]
    table.chmod(0o640)
    with atomic_path(table) as path:
        Path(path).write_text("the new table\n")
    assert table.read_text() == "the new table\n" and table.stat().st_mode & 0o777 == 0o640


def test_an_unreachable_scheduler_is_named(tmp_path, monkeypatch, capsys):
    import distributed

    def timed_out(address, timeout):
        raise OSError(f"Timed out trying to connect to {address} after {timeout} s")
    monkeypatch.setattr(distributed, "Client", timed_out)
    with pytest.raises(SystemExit) as info:
        main(["tournament", ENTRANTS, "--deals", "1", "--scheduler", "tcp://127.0.0.1:8629"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "cannot write the output" not in err
    assert "cannot reach the Dask scheduler at --scheduler 'tcp://127.0.0.1:8629'" in err and err.count("\n") == 1


def test_a_scheduler_address_of_an_unknown_kind_is_named(tmp_path):
    done = cli("tournament", ENTRANTS, "--deals", "1", "--scheduler", "foo://x", cwd=tmp_path)
    assert done.returncode == 2 and "cannot reach the Dask scheduler at --scheduler 'foo://x'" in done.stderr


def test_a_points_file_that_is_not_utf8_is_named(tmp_path):
    points = tmp_path / "points.json"
    points.write_bytes('{"02b.waste_moves": 2, "note": "é"}'.encode("latin-1"))
    done = cli("nbgrader", str(tmp_path / "course"), "--points", str(points), cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert f"the points file {str(points)!r} is not UTF-8 text" in done.stderr
    assert not (tmp_path / "course").exists()
