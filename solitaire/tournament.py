"""The class tournament: every entrant plays the same secret deals, each in its own process.

``run(entrants, variants, deals)`` takes a folder of entrant files (one ``.py`` a student, named by its stem,
defining ``strategy`` or a function ``choose(obs, moves)``), file paths, or strategy objects (a notebook's own
classes: sent to their process with cloudpickle, or pickle when cloudpickle is missing). It returns a
``Results`` with one row per game, a leaderboard and a failures table.

Fair: the deals' seeds are drawn from the operating system's randomness (64 bits, ``secrets``) when a results
file is first used, kept in it, never sent to an entrant, and shown in the table once the games are played, so
that any game can be replayed with ``play_game``. Each entrant runs in its own process
(``solitaire.tournament_referee``) and gets, for each decision, only the observation and the legal moves.

Not a sandbox: an entrant's process can still read and write files and use the network as the user who runs
the tournament (and signal that user's processes); the results file, which holds the seeds, is one of those
files. A tournament of untrusted code belongs in a container or under a user of its own, with the results file
out of the entrants' reach (Dask workers in containers, for instance: the file stays with the client).

Resumable: each finished game is committed to the SQLite results file (``out=``); a rerun with the same file
keeps its seeds and plays only what is missing, even after ``kill -9``.
"""
from __future__ import annotations

import concurrent.futures as cf
import hashlib
import os
import pickle
import secrets
import sqlite3
import sys
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from .cards import quote
from .endgame import Outcome
from .stats import sign_test, wilson
from .tournament_referee import EntrantFailure, EntrantProcess, Entry, Limits, play_games
from .variants import Variant, get_variant

__all__ = ["Entry", "Limits", "Results", "ResultsFile", "collect", "leaderboard", "pairs", "run"]

ENTRANTS = Path(__file__).parent / "entrants"  # the kit's example entrants
COLUMNS = ["entrant", "variant", "number", "seed", "outcome", "reason", "moves", "on_foundations", "seconds"]
BATCH = 10  # games a task: one entrant process serves them all


def entry_from_file(path: str | os.PathLike) -> Entry:
    """An entrant file as an ``Entry`` (named by the file's stem); its code runs only in its own process.

    >>> entry = entry_from_file(ENTRANTS / "greedy_player.py")
    >>> entry.name, entry.kind, len(entry.fingerprint)
    ('greedy_player', 'source', 16)
    """
    path = Path(path)
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read the entrant file {quote(str(path), 100)} ({e}): give a readable .py file") from None
    return Entry(path.stem, "source", (source, str(path)), hashlib.sha256(source.encode()).hexdigest()[:16])


def entry_from_object(strategy) -> Entry:
    """A strategy object (or a function ``choose(obs, moves)``) as an ``Entry``, pickled with cloudpickle (so a
    class defined in a notebook cell travels by value), or with pickle when cloudpickle is not installed.

    >>> from solitaire.players import GreedyStrategy
    >>> entry_from_object(GreedyStrategy()).name, entry_from_object(GreedyStrategy()).kind
    ('greedy', 'pickle')
    """
    if not callable(getattr(strategy, "choose", None)):
        if not callable(strategy):
            raise ValueError(f"{quote(strategy)} is not a strategy: give an object with choose(obs, moves), a "
                             "function choose(obs, moves), a .py file or a folder of them")
        from .tournament_entrant import FunctionStrategy
        strategy = FunctionStrategy(strategy, getattr(strategy, "__name__", "choose"))
    name = str(getattr(strategy, "name", "") or type(strategy).__name__)
    try:
        import cloudpickle
        data = cloudpickle.dumps(strategy)
    except ImportError:
        data = pickle.dumps(strategy)  # only classes importable in the entrant's process travel this way
    except Exception as e:
        raise ValueError(f"strategy {quote(name)} cannot be sent to its process ({type(e).__name__}: {e}): keep "
                         "open files, locks and generators out of it") from None
    return Entry(name, "pickle", data, hashlib.sha256(data).hexdigest()[:16])


def collect(entrants) -> list[Entry]:
    """Entries from a folder (its ``*.py`` files, sorted), file paths and strategy objects; names must differ.

    >>> [e.name for e in collect(ENTRANTS)]
    ['broken_student', 'careful_student', 'greedy_player', 'random_player']
    """
    items = [entrants] if isinstance(entrants, (str, os.PathLike)) or hasattr(entrants, "choose") else list(entrants)
    found: list[Entry] = []
    for item in items:
        if isinstance(item, (str, os.PathLike)) and Path(item).is_dir():
            files = sorted(p for p in Path(item).glob("*.py") if not p.name.startswith("_"))
            if not files:
                raise ValueError(f"no entrant files (*.py) in the folder {quote(str(item), 100)}")
            found += [entry_from_file(p) for p in files]
        elif isinstance(item, (str, os.PathLike)):
            if not Path(item).is_file():
                raise ValueError(f"no entrant file or folder {quote(str(item), 100)}")
            found.append(entry_from_file(item))
        else:
            found.append(entry_from_object(item))
    names = [e.name for e in found]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"two entrants are called {quote(twice[0])}: rename one (entrants are told apart by name)")
    return found


def check_entries(entries: list[Entry], limits: Limits) -> tuple[list[Entry], dict[str, str]]:
    """Load every entrant in its own process, at once: those that load, and why each other one was left out.

    >>> bad = Entry("bad", "source", ("1 / 0", "bad.py"), "-")
    >>> check_entries([bad], Limits())
    ([], {'bad': 'import failed: ZeroDivisionError: division by zero'})
    """
    bad: dict[str, str] = {}

    def load(entry: Entry) -> None:
        process = EntrantProcess(entry, limits)
        try:
            process.start()
        except EntrantFailure as e:
            bad[entry.name] = str(e)
        finally:
            process.stop()

    threads = [threading.Thread(target=load, args=(e,)) for e in entries]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [e for e in entries if e.name not in bad], bad


# --- the results file ----------------------------------------------------------------------------------------
class ResultsFile:
    """A tournament's SQLite file: the secret seeds of its deals, and one committed row per finished game."""

    KIND = "solitaire tournament 1"

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = os.fspath(path)
        new = not os.path.exists(self.path) or os.path.getsize(self.path) == 0
        if not new:
            self._check()
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
        if new:
            os.chmod(self.path, 0o600)  # the seeds are secret until the games are played

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
        from .notation import variant_to_text
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


# --- running ---------------------------------------------------------------------------------------------------
class Results(NamedTuple):
    """A tournament's games (one dict a game, ``COLUMNS``), and the entrants left out with why."""

    rows: list[dict]
    left_out: dict[str, str]

    def leaderboard(self) -> list[dict]:
        return leaderboard(self.rows)

    def failures(self) -> list[dict]:
        return failures(self.rows)

    def table(self):
        """The games as a pandas DataFrame (the seeds, revealed, as whole numbers)."""
        import pandas as pd
        return pd.DataFrame(self.rows, columns=COLUMNS)

    def __str__(self) -> str:
        return report(self)


BROWSER = ("a tournament runs each entrant in its own process, which the browser (JupyterLite) cannot start: run it "
           "where Python is installed (python -m solitaire tournament DIR)")


def run(entrants, variants: str | Variant | Iterable = "klondike", deals: int = 100, *,
        out: str | os.PathLike | None = None, workers: int = 1, executor: cf.Executor | None = None,
        limits: Limits | None = None, seeds: Mapping[str, list[int]] | None = None,
        logs: str | os.PathLike | None = None, quiet: bool = False) -> Results:
    """Play every entrant on the same ``deals`` deals of each variant; each entrant in its own process.

    entrants: a folder of ``.py`` files, files, or strategy objects. out: the SQLite results file (resumable;
    without it the seeds live only in this call). workers: games played at once (each by a referee thread of
    this process, against its own entrant process); executor: any ``concurrent.futures.Executor`` instead, a Dask client's
    ``get_executor()`` included. limits: ``Limits(move_seconds=1, max_moves=5000, memory_mb=1024, ...)``.
    seeds: ``{variant label: [seed, ...]}`` to replay given deals (not secret then: for replays and tests).
    logs: a folder for each entrant's printed output (capped), else it is thrown away.

    >>> results = run(ENTRANTS / "greedy_player.py", deals=2, seeds={"klondike": [3, 10]})
    >>> [(r["entrant"], r["seed"], r["outcome"]) for r in results.rows]
    [('greedy_player', 3, 'won'), ('greedy_player', 10, 'lost')]
    """
    if sys.platform == "emscripten":
        raise RuntimeError(BROWSER)
    limits = limits or Limits()
    labelled = _labelled(variants)
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals must be a whole number >= 1, got {quote(deals)}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a whole number >= 1, got {quote(workers)}")
    entries, left_out = check_entries(collect(entrants), limits)
    for name, why in left_out.items():
        if not quiet:
            print(f"left out {name}: {why}", file=sys.stderr)
    store = ResultsFile(out) if out is not None else None
    try:
        plan = {label: _deals(store, label, v, deals, seeds) for label, v in labelled.items()}
        rows, tasks = [], []
        for entry in entries:
            for label, v in labelled.items():
                done = store.done(entry, label) if store else {}
                rows += [done[n] for n, _ in plan[label] if n in done]
                todo = [d for d in plan[label] if d[0] not in done]
                log = os.path.join(logs, f"{entry.name}.log") if logs else None
                tasks += [(entry, label, v, todo[i:i + BATCH], limits, log) for i in range(0, len(todo), BATCH)]
        rows += _play(tasks, store, workers, executor)
    finally:
        if store:
            store.close()
    order = {e.name: i for i, e in enumerate(entries)}
    rows.sort(key=lambda r: (order[r["entrant"]], r["variant"], r["number"]))
    return Results([{c: r[c] for c in COLUMNS} | {"seed": int(r["seed"])} for r in rows], left_out)


def _labelled(variants) -> dict[str, Variant]:
    from .notation import variant_to_text
    if isinstance(variants, Mapping):
        return {str(label): get_variant(v) for label, v in variants.items()}
    items = [variants] if isinstance(variants, (str, Variant)) else list(variants)
    out = {}
    for item in items:
        v = get_variant(item)
        out[v.key or variant_to_text(v)] = v
    if not out:
        raise ValueError("no variants given: choose from klondike, solijoy, italian or pass Variant objects")
    return out


def _deals(store, label: str, v: Variant, n: int, seeds) -> list[tuple[int, int]]:
    if seeds is not None:
        given = list(seeds[label] if isinstance(seeds, Mapping) else seeds)[:n]
        return list(enumerate(given))
    if store is not None:
        return store.seeds(label, v, n)
    return [(number, secrets.randbits(64)) for number in range(n)]


def _play(tasks: list[tuple], store: ResultsFile | None, workers: int, executor) -> list[dict]:
    """Play the tasks, in this process or on workers; each task's rows are committed as it finishes."""
    rows: list[dict] = []

    def finished(batch: list[dict]) -> None:
        rows.extend(batch)
        if store:
            store.add(batch)

    if executor is None and workers == 1:
        for task in tasks:
            finished(play_games(*task))
        return rows
    own = executor is None
    if own:  # threads: each referee waits on its entrant's process, and the entrants run on the other cores
        executor = cf.ThreadPoolExecutor(workers, thread_name_prefix="referee")
    try:
        futures = [executor.submit(play_games, *task) for task in tasks]
        for future in cf.as_completed(futures):
            finished(future.result())
    finally:
        if own:
            executor.shutdown(cancel_futures=True)
    return rows


# --- the leaderboard -----------------------------------------------------------------------------------------
def leaderboard(rows: list[dict], z: float = 1.96) -> list[dict]:
    """One row an entrant, most wins first: games, wins, win rate with its Wilson interval, failures, and the
    sign test against the next entrant down (deals only this one won, only the next won, p-value).

    >>> rows = [{"entrant": e, "variant": "klondike", "number": n, "outcome": o, "reason": ""}
    ...         for e, outs in (("a", "wwwl"), ("b", "wlll")) for n, o in enumerate(outs)]
    >>> rows = [r | {"outcome": "won" if r["outcome"] == "w" else "lost"} for r in rows]
    >>> [(r["entrant"], r["wins"], r["only_this"], r["only_next"]) for r in leaderboard(rows)]
    [('a', 3, 2, 0), ('b', 1, None, None)]
    """
    won = _won_deals(rows)
    board = []
    for name, deals in won.items():
        games = sum(1 for r in rows if r["entrant"] == name)
        wins = sum(deals.values())
        low, high = wilson(wins, games, z)
        board.append({"entrant": name, "games": games, "wins": wins, "win_rate": wins / games if games else 0.0,
                      "low": low, "high": high, "failures": sum(1 for r in rows if r["entrant"] == name and r.get("reason"))})
    board.sort(key=lambda r: (-r["wins"], r["entrant"]))
    for this, below in zip(board, board[1:] + [None]):
        a, b = (None, None) if below is None else _split(won[this["entrant"]], won[below["entrant"]])
        this.update(only_this=a, only_next=b, p_next=None if a is None else sign_test(a, b))
    return board


def pairs(rows: list[dict]) -> list[dict]:
    """The sign test between every two entrants (on the deals both played): who won more deals alone, and p.

    >>> rows = [{"entrant": e, "variant": "klondike", "number": n, "outcome": "won" if n < w else "lost"}
    ...         for e, w in (("a", 5), ("b", 0)) for n in range(5)]
    >>> pairs(rows)
    [{'first': 'a', 'second': 'b', 'only_first': 5, 'only_second': 0, 'p': 0.0625}]
    """
    won = _won_deals(rows)
    names = [r["entrant"] for r in leaderboard(rows)]
    out = []
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            a, b = _split(won[first], won[second])
            out.append({"first": first, "second": second, "only_first": a, "only_second": b, "p": sign_test(a, b)})
    return out


def _won_deals(rows: list[dict]) -> dict[str, dict[tuple, bool]]:
    won: dict[str, dict[tuple, bool]] = {}
    for r in rows:
        won.setdefault(r["entrant"], {})[(r["variant"], r["number"])] = r["outcome"] == Outcome.WON
    return won


def _split(first: dict, second: dict) -> tuple[int, int]:
    both = first.keys() & second.keys()
    return (sum(first[d] and not second[d] for d in both), sum(second[d] and not first[d] for d in both))


def failures(rows: list[dict]) -> list[dict]:
    """Each entrant's lost games by what went wrong (timed out, crashed, illegal answer, ...), with an example.

    >>> failures([{"entrant": "a", "reason": "timed out: more than 1 s of CPU for a move"},
    ...           {"entrant": "a", "reason": ""}, {"entrant": "a", "reason": "timed out: no answer within 5 s"}])
    [{'entrant': 'a', 'failure': 'timed out', 'games': 2, 'example': 'timed out: more than 1 s of CPU for a move'}]
    """
    out: dict[tuple, dict] = {}
    for r in rows:
        if r["reason"]:
            kind = r["reason"].split(":")[0]
            item = out.setdefault((r["entrant"], kind), {"entrant": r["entrant"], "failure": kind, "games": 0,
                                                          "example": r["reason"]})
            item["games"] += 1
    return sorted(out.values(), key=lambda f: (f["entrant"], -f["games"]))


def report(results: Results, all_pairs: bool = False) -> str:
    """The leaderboard, the failures and the entrants left out, as text for a terminal.

    >>> rows = [{"entrant": "a", "variant": "k", "number": 0, "outcome": "won", "reason": ""}]
    >>> print(report(Results(rows, {"b": "import failed: SyntaxError"})).splitlines()[1])
       1  a                         1     1    100.0%  [20.7%, 100.0%]         0
    """
    lines = [f"{'rank':>4}  {'entrant':<20} {'games':>6} {'wins':>5} {'win rate':>9}  {'95% interval':<16} "
             f"{'failures':>8}  sign test with the next (deals won alone, p)"]
    for i, r in enumerate(results.leaderboard(), 1):
        vs = "" if r["p_next"] is None else f"{r['only_this']} to {r['only_next']}, p = {r['p_next']:.3g}"
        interval = f"[{r['low']:.1%}, {r['high']:.1%}]"
        lines.append(f"{i:>4}  {r['entrant'][:20]:<20} {r['games']:>6} {r['wins']:>5} {r['win_rate']:>9.1%}  "
                     f"{interval:<16} {r['failures']:>8}  {vs}".rstrip())
    if all_pairs:
        lines += ["", "every pair (deals won alone by each, sign test):"]
        lines += [f"  {p['first']} against {p['second']}: {p['only_first']} to {p['only_second']}, p = {p['p']:.3g}"
                  for p in pairs(results.rows)]
    fails = results.failures()
    lines += ["", "failures:" if fails else "failures: none"]
    lines += [f"  {f['entrant']:<20} {f['failure']:<15} {f['games']:>4} games, e.g. {f['example'][:90]}" for f in fails]
    lines += [f"left out {name}: {why}" for name, why in results.left_out.items()]
    return "\n".join(lines)


def write_table(results: Results, path: str | os.PathLike) -> None:
    """One CSV row a game: entrant, variant, deal number, seed (revealed), outcome, reason, moves, ...

    >>> import tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "games.csv")
    >>> write_table(Results([dict.fromkeys(COLUMNS, 1)], {}), path)
    >>> open(path).readline().strip()
    'entrant,variant,number,seed,outcome,reason,moves,on_foundations,seconds'
    """
    import csv
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, COLUMNS)
        writer.writeheader()
        writer.writerows(results.rows)
