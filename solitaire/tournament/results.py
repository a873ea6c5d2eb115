"""A tournament's results file: the secret seeds of its deals and one committed row per finished game (SQLite),
held by one tournament at a time, and readable by its owner only (its ``-wal`` and ``-shm`` files too, from the
moment they are made: the write-ahead log holds the seeds in plain text).

It lives with the referee only: an entrant's sandbox has no path to it (``solitaire.tournament.sandbox``), and
the seeds are never sent to an entrant. A rerun with the same file keeps its seeds and plays only what is
missing, even after ``kill -9`` (each game is committed as it ends); a second tournament on the same file while
one runs is refused (an exclusive lock on the file, which the kernel drops when its holder dies).
"""
from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3

from ..cards import quote
from ..variants import Variant
from .referee import Entry

COLUMNS = ["entrant", "variant", "number", "seed", "outcome", "reason", "moves", "on_foundations", "seconds"]


# --- the file ----------------------------------------------------------------------------------------
class ResultsFile:
    """A tournament's SQLite file: the secret seeds of its deals, and one committed row per finished game.

    >>> import tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "class.sqlite")
    >>> first = ResultsFile(path)
    >>> ResultsFile(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: ...class.sqlite' is in use by another tournament now: wait for it to end, or give another results file
    >>> first.close()
    >>> ResultsFile(path).close()
    """

    KIND = "solitaire tournament 1"

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = os.fspath(path)
        new = not os.path.exists(self.path) or os.path.getsize(self.path) == 0
        if not new:
            self._check()
        self._private()
        try:
            self.db = sqlite3.connect(self.path, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")  # a committed row survives kill -9 of this process
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(
                "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);"
                "CREATE TABLE IF NOT EXISTS deals (variant TEXT, number INTEGER, seed TEXT, rules TEXT, "
                "PRIMARY KEY (variant, number));"
                "CREATE TABLE IF NOT EXISTS games (entrant TEXT, fingerprint TEXT, variant TEXT, number INTEGER, "
                "seed TEXT, outcome TEXT, reason TEXT, moves INTEGER, on_foundations INTEGER, seconds REAL, "
                "PRIMARY KEY (entrant, fingerprint, variant, number))")
            self.db.execute("INSERT OR IGNORE INTO meta VALUES ('kind', ?)", (self.KIND,))
            self.db.commit()
        except sqlite3.Error as e:
            raise ValueError(f"cannot use {quote(self.path, 100)} as a tournament results file ({e}): give a new "
                             "file name") from None
        self._hold()

    def _private(self) -> None:
        """Make the file, and any journal beside it, readable by its owner only before SQLite opens it: SQLite
        then makes its ``-wal`` and ``-shm`` files (the seeds are in the first) with the file's own mode."""
        try:
            os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
            for path in (self.path, *(self.path + end for end in ("-wal", "-shm", "-journal"))):
                if os.path.exists(path):
                    os.chmod(path, 0o600)
        except OSError as e:
            raise ValueError(f"cannot make {quote(self.path, 100)} private ({e.strerror}): give a results file in a "
                             "folder of yours") from None

    def _hold(self) -> None:
        """Lock the file for this tournament; the kernel drops the lock when the tournament ends, even by kill -9."""
        try:
            import fcntl
        except ImportError:  # Windows: no second-tournament check
            self.lock = None
            return
        self.lock = os.open(self.path, os.O_RDONLY)
        try:
            fcntl.flock(self.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.close()
            raise ValueError(f"{quote(self.path, 100)} is in use by another tournament now: wait for it to end, or "
                             "give another results file") from None

    def _check(self) -> None:
        with open(self.path, "rb") as f:
            if f.read(16) != b"SQLite format 3\x00":
                raise ValueError(f"{quote(self.path, 100)} is not a SQLite file: it was left untouched; give a new "
                                 "file name for the tournament's results")
        db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        try:
            kind = db.execute("SELECT value FROM meta WHERE key = 'kind'").fetchone()
        except sqlite3.Error:
            kind = None
        finally:
            db.close()
        if not kind or kind[0] != self.KIND:
            raise ValueError(f"{quote(self.path, 100)} is not a tournament results file: it was left untouched; "
                             "give a new file name")

    def seeds(self, label: str, variant: Variant, n: int) -> list[tuple[int, int]]:
        """Deals 0..n-1 of this variant as ``(number, seed)``: the seeds kept in the file, and new secret ones
        (64 bits from the operating system) for the numbers it does not have yet."""
        from ..notation import variant_to_text
        rules = variant_to_text(variant)
        kept = dict(self.db.execute("SELECT number, seed FROM deals WHERE variant = ?", (label,)).fetchall())
        other = self.db.execute("SELECT rules FROM deals WHERE variant = ? AND rules != ? LIMIT 1",
                                (label, rules)).fetchone()
        if other:
            raise ValueError(f"{quote(self.path, 100)} holds deals of {quote(label)} with other rules "
                             f"({quote(other[0], 80)}): give another results file")
        for number in range(n):
            if number not in kept:
                kept[number] = str(secrets.randbits(64))
                self.db.execute("INSERT INTO deals VALUES (?, ?, ?, ?)", (label, number, kept[number], rules))
        self.db.commit()
        return [(number, int(kept[number])) for number in range(n)]

    def done(self, entry: Entry, label: str) -> dict[int, dict]:
        cur = self.db.execute(f"SELECT {', '.join(COLUMNS)} FROM games WHERE entrant = ? AND fingerprint = ? AND "
                              "variant = ?", (entry.name, entry.fingerprint, label))
        return {row["number"]: row for row in (dict(zip(COLUMNS, r)) for r in cur)}

    def add(self, rows: list[dict]) -> None:
        self.db.executemany("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            [(r["entrant"], r["fingerprint"], r["variant"], r["number"], str(r["seed"]),
                              r["outcome"], r["reason"], r["moves"], r["on_foundations"], r["seconds"])
                             for r in rows])
        self.db.commit()

    def close(self) -> None:
        self.db.close()
        if self.lock is not None:
            with contextlib.suppress(OSError):
                os.close(self.lock)
            self.lock = None


