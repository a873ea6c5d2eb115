"""The class tournament: every entrant plays the same secret deals, each in its own sandboxed process.

``run(entrants, variants, deals)`` takes a folder of entrant files (one ``.py`` a student, named by its stem,
defining ``strategy`` or a function ``choose(obs, moves)``), file paths, or strategy objects (a notebook's own
classes: sent to their process with cloudpickle, or pickle when cloudpickle is missing). It returns a
``Results`` with one row per game, a leaderboard and a failures table.

Fair: the deals' seeds are drawn from the operating system's randomness (64 bits, ``secrets``) when a results
file is first used, kept in it, never sent to an entrant, and shown in the table once the games are played, so
that any game can be replayed with ``play_game``. Each entrant runs in its own process
(``solitaire.tournament.referee``) and gets, for each decision, only the observation and the legal moves.

Contained: where bubblewrap works (Linux), each entrant process runs in its own PID, mount and network
namespaces, sees only Python and the kit, and has limits on all it starts (``solitaire.tournament.sandbox``).
Where nothing contains it, ``run`` says so in one line and refuses entrant files from outside the kit unless
``trust_entrants=True``.

Bounded: each entrant's loads and games come out of one budget of wall-clock time for the tournament, and one of
games it may lose to a limit; once either is spent, its remaining games are forfeited (``referee.Budget``), so
no entrant can hold a tournament up for long. Its batches of games are played one after another (different
entrants at once when there are several workers), each knowing what the last left.

Resumable: each finished game is committed to the SQLite results file (``out=``); a rerun with the same file
keeps its seeds and plays only what is missing, even after ``kill -9``; one tournament at a time uses a file.
"""
from __future__ import annotations

import concurrent.futures as cf
import hashlib
import os
import pickle
import secrets
import sys
import threading
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..cards import quote
from ..variants import Variant, get_variant
from .board import Results
from .referee import KIT_ENTRANTS, Budget, EntrantFailure, EntrantProcess, Entry, Limits, play_games, printable, untrusted
from .results import COLUMNS, ResultsFile
from .sandbox import detect

ENTRANTS = Path(KIT_ENTRANTS)  # the kit's example entrants
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
    return Entry(printable(path.stem), "source", (source, str(path)), hashlib.sha256(source.encode()).hexdigest()[:16])


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
        from .entrant import FunctionStrategy
        strategy = FunctionStrategy(strategy, getattr(strategy, "__name__", "choose"))
    name = printable(str(getattr(strategy, "name", "") or type(strategy).__name__))
    try:
        import cloudpickle
        data = _dumps_by_value(cloudpickle, strategy)
    except ImportError:
        data = pickle.dumps(strategy)  # only classes importable in the entrant's process travel this way
    except Exception as e:
        raise ValueError(f"strategy {quote(name)} cannot be sent to its process ({type(e).__name__}: {e}): keep "
                         "open files, locks and generators out of it") from None
    return Entry(name, "pickle", data, hashlib.sha256(data).hexdigest()[:16])


def _dumps_by_value(cloudpickle, strategy) -> bytes:
    """``strategy`` pickled with the code of its own module (a student's ``my_entrant.py``, a test file) sent by
    value, as a notebook's is: the entrant's process cannot import that module. The kit's modules travel by name."""
    fn = getattr(strategy, "fn", None)
    names = {getattr(type(strategy), "__module__", None), getattr(fn, "__module__", None)}
    own = [sys.modules[name] for name in names
           if name in sys.modules and name != "__main__" and not name.startswith("solitaire")]
    for module in own:
        cloudpickle.register_pickle_by_value(module)
    try:
        return cloudpickle.dumps(strategy)
    finally:
        for module in own:
            cloudpickle.unregister_pickle_by_value(module)


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


def check_entries(entries: list[Entry], limits: Limits,
                  seconds: dict[str, float] | None = None) -> tuple[list[Entry], dict[str, str]]:
    """Load every entrant in its own process, at once: those that load, and why each other one was left out;
    ``seconds`` (if given) gets each one's loading time, which its budget for the tournament pays.

    >>> bad = Entry("bad", "source", ("1 / 0", "bad.py"), "-")
    >>> check_entries([bad], Limits())
    ([], {'bad': 'import failed: ZeroDivisionError: division by zero'})
    """
    bad: dict[str, str] = {}
    took = seconds if seconds is not None else {}

    def load(entry: Entry) -> None:
        process = EntrantProcess(entry, limits)
        begun = time.perf_counter()
        try:
            process.start()
        except EntrantFailure as e:
            bad[entry.name] = str(e)
        finally:
            process.stop()
            took[entry.name] = time.perf_counter() - begun

    threads = [threading.Thread(target=load, args=(e,)) for e in entries]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [e for e in entries if e.name not in bad], bad


# --- running ---------------------------------------------------------------------------------------------------
BROWSER = ("a tournament runs each entrant in its own process, which the browser (JupyterLite) cannot start: run it "
           "where Python is installed (python -m solitaire tournament DIR)")


def run(entrants, variants: str | Variant | Iterable = "klondike", deals: int = 100, *,
        out: str | os.PathLike | None = None, workers: int = 1, executor: cf.Executor | None = None,
        limits: Limits | None = None, seeds: Mapping[str, list[int]] | None = None,
        logs: str | os.PathLike | None = None, quiet: bool = False, trust_entrants: bool = False) -> Results:
    """Play every entrant on the same ``deals`` deals of each variant; each entrant in its own sandboxed process.

    entrants: a folder of ``.py`` files, files, or strategy objects. out: the SQLite results file (resumable;
    without it the seeds live only in this call). workers: games played at once (each by a referee thread of
    this process, against its own entrant process); executor: any ``concurrent.futures.Executor`` instead, a Dask
    client's ``get_executor()`` included. limits: ``Limits(move_seconds=1, game_seconds=5, memory_mb=1024,
    processes=32, ...)``. seeds: ``{variant label: [seed, ...]}`` to replay given deals (not secret then: for
    replays and tests). logs: a folder for each entrant's printed output (capped), else it is thrown away.
    trust_entrants: run entrant files even where no sandbox contains them (they can then read your files).
    Unless ``quiet``, the sandbox in use is named in one line on stderr.

    >>> results = run(ENTRANTS / "greedy_player.py", deals=2, seeds={"klondike": [3, 10]}, quiet=True)
    >>> [(r["entrant"], r["seed"], r["outcome"]) for r in results.rows]
    [('greedy_player', 3, 'won'), ('greedy_player', 10, 'lost')]
    """
    if sys.platform == "emscripten":
        raise RuntimeError(BROWSER)
    limits = (limits or Limits())._replace(trust_entrants=trust_entrants or (limits or Limits()).trust_entrants)
    labelled = _labelled(variants)
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals must be a whole number >= 1, got {quote(deals)}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a whole number >= 1, got {quote(workers)}")
    found = collect(entrants)
    _check_sandbox(found, limits, quiet)
    loading: dict[str, float] = {}
    entries, left_out = check_entries(found, limits, loading)
    for name, why in left_out.items():
        if not quiet:
            print(f"left out {name}: {why}", file=sys.stderr)
    store = ResultsFile(out) if out is not None else None
    hidden = _hidden(found, out, logs)
    try:
        plan = {label: _deals(store, label, v, deals, seeds) for label, v in labelled.items()}
        rows, chains = [], []
        for entry in entries:
            done_rows, tasks = [], []
            for label, v in labelled.items():
                done = store.done(entry, label) if store else {}
                done_rows += [done[n] for n, _ in plan[label] if n in done]
                todo = [d for d in plan[label] if d[0] not in done]
                log = os.path.join(logs, f"{entry.name}.log") if logs else None
                tasks += [(entry, label, v, todo[i:i + BATCH], limits, log, hidden) for i in range(0, len(todo), BATCH)]
            left = Budget.of(limits, deals * len(labelled), done_rows)
            chains.append((left._replace(seconds=left.seconds - loading.get(entry.name, 0.0)), tasks))
            rows += done_rows
        rows += _play(chains, store, workers, executor)
    finally:
        if store:
            store.close()
    order = {e.name: i for i, e in enumerate(entries)}
    rows.sort(key=lambda r: (order[r["entrant"]], r["variant"], r["number"]))
    return Results([{c: r[c] for c in COLUMNS} | {"seed": int(r["seed"])} for r in rows], left_out)


def _check_sandbox(entries: list[Entry], limits: Limits, quiet: bool) -> None:
    """Say which sandbox holds the entrants; without one, refuse entrant files from outside the kit unless they are
    trusted."""
    box = detect()
    if not quiet:
        print(box.line, file=sys.stderr)
    files = [e.name for e in entries if untrusted(e)]
    if not box.isolated and files and not limits.trust_entrants:
        raise ValueError(f"{box.line.partition(': ')[2]}; refusing to run the entrant files ({', '.join(files)[:80]}) "
                         "unless you trust them: pass trust_entrants=True (--trust-entrants)")


def _hidden(entries: list[Entry], out, logs) -> tuple[str, ...]:
    """The folders an entrant must not see even where they lie inside one its sandbox shows: the results
    file's, the entrant files', the logs'.

    >>> _hidden([], "/tmp/x/class.sqlite", None)
    ('/tmp/x',)
    """
    folders = {os.path.dirname(os.path.abspath(e.payload[1])) for e in entries if e.kind == "source"}
    folders |= {os.path.dirname(os.path.abspath(p)) for p in (out,) if p is not None}
    folders |= {os.path.abspath(logs)} if logs else set()
    return tuple(sorted(folders))


def _labelled(variants) -> dict[str, Variant]:
    from ..notation import variant_to_text
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


def _play(chains: list[tuple[Budget, list[tuple]]], store: ResultsFile | None, workers: int, executor) -> list[dict]:
    """Play each entrant's tasks one after another, in this process or on workers (different entrants at once);
    each task gets what the entrant has left of its budget, and its rows are committed as it finishes."""
    rows: list[dict] = []

    def finished(batch: list[dict]) -> None:
        rows.extend(batch)
        if store:
            store.add(batch)

    if executor is None and workers == 1:
        for left, tasks in chains:
            for task in tasks:
                batch = play_games(*task, left=left)
                finished(batch)
                left = left.after(batch)
        return rows
    own = executor is None
    if own:  # threads: each referee waits on its entrant's process, and the entrants run on the other cores
        executor = cf.ThreadPoolExecutor(workers, thread_name_prefix="referee")
    try:
        running = {executor.submit(play_games, *tasks[0], left=left): (left, tasks[1:]) for left, tasks in chains if tasks}
        while running:
            done, _ = cf.wait(running, return_when=cf.FIRST_COMPLETED)
            for future in done:
                left, tasks = running.pop(future)
                batch = future.result()
                finished(batch)
                left = left.after(batch)
                if tasks:
                    running[executor.submit(play_games, *tasks[0], left=left)] = (left, tasks[1:])
    finally:
        if own:
            executor.shutdown(cancel_futures=True)
    return rows
