"""An experiment's results file: one SQLite table of games, written as each game finishes, so that a run resumes
where it stopped; read back (``load``) as the table ``experiments.run`` returns; and the tables shipped with the kit
(``shipped``).

The file keeps each label's rules beside the games, so that a run under the same label with other rules is refused
before it plays. Another program's file is refused, and left as it was.
"""
from __future__ import annotations

import os
import pathlib
import shutil
import sqlite3
import stat
import tempfile
from collections.abc import Mapping
import numpy as np
import pandas as pd

from .cards import quote
from .variants import Variant

COLUMNS = ["variant", "strategy", "seed", "outcome", "moves", "on_foundations", "seconds", "nodes", "budget"]
_INT_COLUMNS = ["seed", "moves", "on_foundations", "nodes"]
TABLE_SEEDS = 2 ** 64  # every deal's seed, as everywhere in the kit: the table keeps them as unsigned 64-bit integers
_SIGNED = 2 ** 63  # SQLite's INTEGER is signed: a seed from 2**63 up is kept as seed - 2**64, and read back


def seed_to_file(seed: int) -> int:
    """A seed as the results file's signed 64-bit INTEGER keeps it (and ``seed_from_file`` reads it back).

    >>> seed_to_file(2 ** 64 - 1), seed_from_file(seed_to_file(2 ** 64 - 1)) == 2 ** 64 - 1, seed_to_file(7)
    (-1, True, 7)
    """
    return seed - TABLE_SEEDS if seed >= _SIGNED else seed


def seed_from_file(value: int) -> int:
    """A seed read from the results file (see ``seed_to_file``).

    >>> seed_from_file(-1) == 2 ** 64 - 1, seed_from_file(7)
    (True, 7)
    """
    return value + TABLE_SEEDS if value < 0 else value


class ResultsFileError(ValueError):
    """A results file that cannot be used or written: the message says why and what to do."""


_SQLITE_MAGIC = b"SQLite format 3\x00"
_TABLE = ("CREATE TABLE IF NOT EXISTS games (variant TEXT NOT NULL, strategy TEXT NOT NULL, "
          "seed INTEGER NOT NULL, budget TEXT NOT NULL, outcome TEXT NOT NULL, moves INTEGER, "
          "on_foundations INTEGER, seconds REAL, nodes INTEGER, rules TEXT NOT NULL, "
          "PRIMARY KEY (variant, strategy, seed, budget))")
# each label's rules, recorded by the first run that uses the label, before it plays: a run with other rules
# under that label, even one writing the same file at the same time, is refused before it plays
_LABELS = "CREATE TABLE IF NOT EXISTS labels (variant TEXT PRIMARY KEY, rules TEXT NOT NULL) WITHOUT ROWID"


def check_results_file(path: str, *, write: bool = True) -> bool:
    """Is ``path`` a results file of the kit (True), or new/empty (False)? Refuses anything else.

    Another program's file is only read, through ``connect_read_only``, so it stays byte-for-byte as it
    was, and so do the files beside it: no table is created in it, its journal mode is not switched, its
    ``-shm`` is not written, and no file is made beside it. (``write``: is the file to be written? It changes
    only the advice of a message.)
    """
    if not path:
        raise ResultsFileError("the results file's name is empty: give a file name, e.g. results.sqlite (SQLite would "
                               "keep the games in a private temporary database, lost at the end)")
    if not os.path.exists(path):
        return False
    if os.path.isdir(path):
        raise ResultsFileError(f"{quote(path, 100)} is a folder: give a file name for the results, e.g. results.sqlite")
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise ResultsFileError(f"{quote(path, 100)} is not a regular file (a pipe or a device): give a file name for "
                               "the results, e.g. results.sqlite")
    if os.path.getsize(path) == 0:
        return False
    with open(path, "rb") as f:
        if f.read(16) != _SQLITE_MAGIC:
            raise ResultsFileError(f"{quote(path, 100)} is not a SQLite file, so not a results file of "
                                   "solitaire.experiments: it was left untouched; give a new file name")
    try:
        db = connect_read_only(path)
        try:
            tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            have = {row[1] for row in db.execute("PRAGMA table_info(games)")} if "games" in tables else set()
        finally:
            db.close()
    except (sqlite3.DatabaseError, OSError) as e:
        advice = "give a new file name" if write else "check that it is a results file and that you may read it"
        raise ResultsFileError(f"cannot read {quote(path, 100)} as a results file ({e}): it was left untouched; "
                               f"{advice}") from None
    wanted = set(COLUMNS) | {"rules"}
    if not wanted <= have:
        what = (f"its table 'games' lacks the columns {', '.join(sorted(wanted - have))}" if have else
                f"it holds another program's tables ({quote(', '.join(tables) or 'none', 100)[1:-1]}) and no table "
                "'games'")
        advice = "give a new file name" if write else "give a results file written by solitaire.experiments"
        raise ResultsFileError(f"{quote(path, 100)} is not a results file of solitaire.experiments ({what}): it was "
                               f"left untouched; {advice}")
    return True


def connect_read_only(path: str | os.PathLike) -> sqlite3.Connection:
    """A read-only connection to a SQLite file that changes no byte of it or beside it, and makes no file there,
    so it works on a read-only disk and leaves another program's file as it was, its ``-shm`` included.

    A file with no ``-wal`` file beside it is read as ``immutable``: then every commit is in the file itself,
    and SQLite needs no ``-shm`` file. With a ``-wal`` file (a writer has the file open, or a crash left it),
    reading through it would write to the ``-shm`` file (a reader marks there what it reads), or need to
    create one; so the file and its ``-wal`` are copied to a temporary folder, read there into memory, and the
    copies deleted. (A writer that opens the file while it is being read as immutable changes only its ``-wal``
    until it checkpoints, after 1,000 pages or when it closes, so a read of a few milliseconds sees it whole.)
    """
    path = os.fspath(path)
    if not os.path.exists(path + "-wal"):
        return sqlite3.connect(pathlib.Path(path).resolve().as_uri() + "?mode=ro&immutable=1", uri=True)
    for attempt in (1, 2, 3):  # a writer may checkpoint between the two copies: the copy is then torn, try again
        try:
            return _copy_into_memory(path)
        except sqlite3.DatabaseError:
            if attempt == 3:
                raise


def _copy_into_memory(path: str) -> sqlite3.Connection:
    """The SQLite file and its ``-wal``, copied to a temporary folder and read from there into memory."""
    with tempfile.TemporaryDirectory(prefix="solitaire-results-") as folder:
        copy = os.path.join(folder, "copy.sqlite")
        shutil.copyfile(path, copy)
        try:
            shutil.copyfile(path + "-wal", copy + "-wal")
        except FileNotFoundError:  # checkpointed and closed meanwhile: the file itself holds every commit
            pass
        source, memory = sqlite3.connect(copy), sqlite3.connect(":memory:")
        try:
            source.backup(memory)
        except sqlite3.DatabaseError:
            memory.close()
            raise
        finally:
            source.close()
        return memory


def storage_advice(path: str, error: sqlite3.Error, saved: int | None = None) -> str:
    """One line: what went wrong with the results file and what to do about it."""
    text = str(error)
    if "locked" in text:
        advice = ("another run (or program) is writing it now: wait for that run to end, or give another results "
                  "file")
    elif "readonly" in text or "read-only" in text:
        advice = "make the file (and its folder) writable, or give another results file"
    elif "full" in text:
        advice = "free some disk space, or give a results file on another disk, then run the same command again"
    else:
        advice = "check the file and its folder, or give another results file"
    kept = ("" if saved is None else "; no game was saved yet" if saved == 0 else
            "; the 1 game already saved is kept and a rerun skips it" if saved == 1 else
            f"; the {saved:,} games already saved are kept and a rerun skips them")
    return f"cannot write the results file {quote(path, 100)} ({text}): {advice}{kept}"


class ResultsFile:
    """A SQLite file with one committed row per finished game, keyed by (variant, strategy, seed, budget).

    ``write=False`` opens it read-only (``load``). A file that is not the kit's is refused before anything is
    written to it; a file that cannot be written (read-only, full disk) raises ``ResultsFileError`` with a
    one-line message, and every game committed before stays in the file.
    """

    def __init__(self, path: str | os.PathLike, *, write: bool = True) -> None:
        self.path = os.fspath(path)
        ours = check_results_file(self.path, write=write)
        if not write and not ours:
            raise ResultsFileError(f"no results in {quote(self.path, 100)}: it is empty or does not exist")
        self.saved = 0
        try:
            if not write:
                self.db = connect_read_only(self.path)
                return
            self.db = sqlite3.connect(self.path)
            # WAL with synchronous=NORMAL: a committed row survives a crash or kill -9 of this process
            # (not a power cut), and a commit costs ~0.05 ms instead of a full disk sync (~8 ms here).
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute(_TABLE)
            self.db.execute(_LABELS)
            self.db.commit()
            # a write that is undone at once: a read-only file fails here, before any game is played
            self.db.execute("INSERT OR REPLACE INTO labels VALUES ('write check', '')")
            self.db.rollback()
        except sqlite3.OperationalError as e:
            raise ResultsFileError(storage_advice(self.path, e)) from None
        except sqlite3.DatabaseError as e:
            raise ResultsFileError(f"cannot use {quote(self.path, 100)} as a results file ({e}): give a new file name "
                                   "or a SQLite file written by solitaire.experiments") from None

    def check_rules(self, labelled: Mapping[str, Variant]) -> None:
        """Refuse to mix games of different rules under one label; else record each label's rules (table
        ``labels``), in one transaction, so that a later run with other rules is refused before it plays even
        while this one has saved no game yet (before, ``INSERT OR IGNORE`` dropped the second run's rows)."""
        try:
            self.db.execute("BEGIN IMMEDIATE")  # two runs starting together check and record one after the other
            for label, v in labelled.items():
                rules = _rules_text(v)
                row = (self.db.execute("SELECT rules FROM labels WHERE variant = ? AND rules != ?", (label, rules))
                       .fetchone() or self.db.execute("SELECT rules FROM games WHERE variant = ? AND rules != ? "
                                                      "LIMIT 1", (label, rules)).fetchone())
                if row:
                    raise ValueError(f"{quote(self.path, 100)} already keeps games labelled {quote(label)} with other "
                                     f"rules ({quote(row[0], 120)}), saved or being played: choose another label or "
                                     "another results file")
                self.db.execute("INSERT OR IGNORE INTO labels VALUES (?, ?)", (label, rules))
            self.db.commit()
        except BaseException as e:
            self.db.rollback()
            if isinstance(e, sqlite3.OperationalError):
                raise ResultsFileError(storage_advice(self.path, e)) from None
            raise

    def done(self, jobs: list) -> dict[tuple, dict]:
        """The rows already in the file for these jobs, by job key."""
        wanted = {j.key for j in jobs}
        cur = self.db.execute(f"SELECT {', '.join(COLUMNS)} FROM games")
        rows = (_read_row(r) for r in cur)
        return {k: r for r in rows if (k := (r["variant"], r["strategy"], r["seed"], r["budget"])) in wanted}

    def add(self, row: dict, variant: Variant) -> None:
        """Commit one finished game (``ResultsFileError`` when the file cannot take it, e.g. a full disk)."""
        try:
            self.db.execute(f"INSERT OR IGNORE INTO games ({', '.join(COLUMNS)}, rules) VALUES "
                            f"({', '.join('?' * (len(COLUMNS) + 1))})",
                            [seed_to_file(row[c]) if c == "seed" else row[c] for c in COLUMNS] + [_rules_text(variant)])
            self.db.commit()
        except sqlite3.OperationalError as e:
            self.db.rollback()
            saved = self.db.execute("SELECT count(*) FROM games").fetchone()[0]
            raise ResultsFileError(storage_advice(self.path, e, saved)) from None

    def close(self) -> None:
        self.db.close()


def _rules_text(v: Variant) -> str:
    from .notation import variant_to_text
    return variant_to_text(v)


def load(results: str | os.PathLike) -> pd.DataFrame:
    """Every game in a results file, as the table ``run`` returns."""
    if not os.path.exists(results):
        raise ValueError(f"no results file {quote(os.fspath(results), 100)}")
    f = ResultsFile(results, write=False)
    try:
        rows = sorted((_read_row(r) for r in f.db.execute(f"SELECT {', '.join(COLUMNS)} FROM games")),
                      key=lambda r: (r["variant"], r["strategy"], r["seed"], r["budget"]))
    finally:
        f.close()
    return _table(rows)


def shipped(name: str = "seed_variants") -> pd.DataFrame:
    """A results table shipped with the kit: ``"seed_variants"`` (greedy and solver, 2,000 deals of each seed
    variant), ``"published_rules"`` (the solver under the rules of published studies), ``"expert"`` (the
    expert and random on the first deals of four games, greedy and the solver for Klondike draw 3) or
    ``"hindsight"`` (the expert's earlier method, hindsight sampling, on the same deals). How each was made is
    recorded in ``solitaire/data/README.md``."""
    from importlib.resources import files
    path = files("solitaire").joinpath("data", f"{name}.csv")
    if not path.is_file():
        raise ValueError(f"no shipped results named {quote(name)}: choose 'seed_variants', 'published_rules', "
                         "'expert' or 'hindsight'")
    with path.open(encoding="utf-8") as f:
        return pd.read_csv(f).astype({c: "int64" for c in _INT_COLUMNS} | {"seconds": "float64"})


def _read_row(values: tuple) -> dict:
    row = dict(zip(COLUMNS, values))
    row["seed"] = seed_from_file(row["seed"])
    return row


def _table(rows: list[dict]) -> pd.DataFrame:
    """The games as a table; seeds are int64, or uint64 when one is 2**63 or more (beyond int64).

    >>> row = dict(variant="klondike", strategy="greedy", outcome="won", moves=90, on_foundations=52, seconds=0.1,
    ...            nodes=0, budget="max_moves=5000")
    >>> _table([row | {"seed": 2 ** 64 - 1}])["seed"].dtype.name, _table([row | {"seed": 3}])["seed"].dtype.name
    ('uint64', 'int64')
    """
    df = pd.DataFrame(rows, columns=COLUMNS)
    big = any(row.get("seed", 0) >= _SIGNED for row in rows)
    types = {c: "int64" for c in _INT_COLUMNS} | {"seconds": "float64"} | ({"seed": "uint64"} if big else {})
    if big:
        df["seed"] = np.array([row["seed"] for row in rows], dtype=np.uint64)  # exactly, not through float64
    return df.astype(types)
