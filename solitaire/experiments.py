"""Win-rate experiments: many deals, several variants and strategies, in parallel, resumable.

``run(["klondike", "italian"], ["greedy", "solver"], 200, results="results.sqlite")`` plays every
(variant, strategy, seed) once and returns one row per game. Games run on all cores by default
(``ProcessPoolExecutor``); any ``concurrent.futures.Executor`` works, for instance a Dask client's
``client.get_executor()``. With ``results=`` each finished game is committed to a SQLite file at once,
so a run that is interrupted (Ctrl-C, a killed kernel, ``kill -9``) resumes where it stopped.
``retry_unknown=[60]`` gives the solver's undecided deals a second, longer look (a budget ladder).

Ctrl-C: pending games are cancelled, the worker processes are ended at once (their games in progress are
played again on a rerun), games already finished stay in the results file (those the workers finished but this
process had not yet collected included), and ``KeyboardInterrupt`` is raised again (no partial table is returned:
rerun with the same ``results=`` file to resume and get the whole table). A second Ctrl-C while it stops is
ignored, so that it cannot leave workers behind.

Reproducibility: the same seeds give the same table whatever the number of workers, except the
``seconds`` column. A solver budget in seconds makes "unknown" deals (and their node counts) depend
on the machine's speed; give ``max_nodes`` as well for a table that is the same everywhere.
"""
from __future__ import annotations

import concurrent.futures as cf
import contextlib
import copy
import math
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Iterable, Mapping
from typing import NamedTuple

import pandas as pd

from .cards import quote
from .endgame import Outcome
from .results_file import (COLUMNS, TABLE_SEEDS, ResultsFile, ResultsFileError, _table,  # noqa: F401 (kept here)
                           check_results_file, connect_read_only, load, shipped, storage_advice)
from .state import deal
from .stats import wilson  # the one home of the statistics; kept importable from here
from .strategies import STRATEGY_NAMES, FunctionStrategy
from .variants import VARIANTS, Variant, get_variant

STRATEGIES = STRATEGY_NAMES  # the one list, kept in strategies.py


class Job(NamedTuple):
    """One game to play: everything a worker needs, picklable."""

    label: str
    variant: Variant
    strategy: str
    seed: int
    max_seconds: float
    max_nodes: int | None
    max_moves: int
    player: object = None  # a strategy object given to run() (None: the built-in strategy named by ``strategy``)

    @property
    def budget(self) -> str:
        return budget_text(self.strategy, self.max_seconds, self.max_nodes, self.max_moves)

    @property
    def key(self) -> tuple[str, str, int, str]:
        return self.label, self.strategy, self.seed, self.budget


def budget_text(strategy: str, max_seconds: float, max_nodes: int | None, max_moves: int) -> str:
    """The limits a game was played under, as recorded in the results: a rerun with other limits is a new game."""
    if strategy == "solver":
        return f"max_seconds={max_seconds:g}" + (f" max_nodes={max_nodes}" if max_nodes is not None else "")
    if strategy == "expert":  # the expert's own settings, so that a change of them is a new game
        from .expert import settings_text
        return f"max_moves={max_moves} {settings_text()}"
    return f"max_moves={max_moves}"


def play_job(job: Job) -> dict:
    """Play one game (in a worker process) and return its row."""
    row = {"variant": job.label, "strategy": job.strategy, "seed": job.seed, "budget": job.budget}
    if job.strategy == "solver":
        from .solver import solve
        start = deal(job.variant, job.seed)
        result = solve(start, max_seconds=job.max_seconds, max_nodes=job.max_nodes)
        won = result.status == Outcome.WON
        row.update(outcome=result.status, moves=len(result.moves) if won else 0,
                   on_foundations=job.variant.deck_size if won else start.on_foundations(),
                   seconds=float(result.seconds), nodes=int(result.nodes))
    else:
        from .strategies import play_game
        player = job.strategy if job.player is None else copy.deepcopy(job.player)  # a fresh copy per game
        record = play_game(job.variant, job.seed, player, max_moves=job.max_moves)
        row.update(outcome=record.outcome, moves=int(record.moves), on_foundations=int(record.on_foundations),
                   seconds=float(record.seconds), nodes=0)
    return row


# --- choosing what to play ---------------------------------------------------------------------
def variant_label(variant: str | Variant) -> str:
    """A readable label: the registry key (``klondike``), a custom variant's own name if it has one, else
    the nearest key and the changed rules (``klondike draw=3``)."""
    v = get_variant(variant)
    if v.key:
        return v.key
    if v.name not in {known.name for known in VARIANTS.values()}:
        return v.name
    from .notation import variant_to_text
    return variant_to_text(v)


def labelled_variants(variants: str | Variant | Iterable[str | Variant] | Mapping[str, Variant]) -> dict[str, Variant]:
    """``{label: Variant}`` from registry keys, Variant objects, or a dict of label -> Variant (or key)."""
    if isinstance(variants, Mapping):
        pairs = [(str(label), get_variant(v)) for label, v in variants.items()]
    else:
        items = [variants] if isinstance(variants, (str, Variant)) else list(variants)
        pairs = [(variant_label(v), get_variant(v)) for v in items]
    out: dict[str, Variant] = {}
    for label, v in pairs:
        if label in out and out[label] != v:
            raise ValueError(f"two different variants have the label {quote(label)}: pass a dict {{label: Variant}}")
        out[label] = v
    if not out:
        raise ValueError(f"no variants given: choose from {', '.join(VARIANTS)} or pass Variant objects")
    return out


def seed_list(deals: int | Iterable[int]) -> list[int]:
    """Seeds 0..N-1 for an int N, else the given seeds (sorted, without repeats).

    Seeds are whole numbers from 0 to 2**64 - 1, as everywhere in the kit; this is checked before any game is
    played (a range is checked by its ends).
    """
    if isinstance(deals, bool):
        raise ValueError(f"deals must be a number of deals or a list of seeds, got {quote(deals)}")
    if isinstance(deals, int):
        if deals < 0:
            raise ValueError(f"the number of deals must be 0 or more, got {quote(deals)}")
        deals = range(deals)
    if isinstance(deals, range) and deals and (deals.start >= TABLE_SEEDS or deals[-1] >= TABLE_SEEDS):
        raise ValueError(f"seeds must be below 2**64 (a deal's seed is a 64-bit number), but the deals run from "
                         f"seed {quote(deals[0])} to seed {quote(deals[-1])}")
    seeds = list(deals)
    bad = [s for s in seeds if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < TABLE_SEEDS]
    if bad:
        raise ValueError(f"seeds must be whole numbers from 0 to 2**64 - 1, got {quote(bad[0])}")
    return sorted(set(seeds))


def strategy_players(strategies: str | Iterable[str | object]) -> dict[str, object]:
    """``{name: strategy object or None}`` from built-in names, strategy objects (anything with a ``name``
    and a ``choose(obs, moves)`` method, such as a student's own class) and plain functions ``(obs, moves) -> move``
    (named after the function): the name labels the table's rows."""
    single = isinstance(strategies, str) or hasattr(strategies, "choose") or callable(strategies)
    items = [strategies] if single else list(strategies)
    players: dict[str, object] = {}
    for item in items:
        if not isinstance(item, str) and not hasattr(item, "choose") and callable(item):
            item = FunctionStrategy(item)
        if isinstance(item, str):
            if item not in STRATEGIES:
                raise ValueError(f"unknown strategy {quote(item)}: choose from {', '.join(STRATEGIES)}, or pass a "
                                 "strategy object with a name and a choose(obs, moves) method")
            name, player = item, None
        elif callable(getattr(item, "choose", None)):
            name, player = str(getattr(item, "name", "") or type(item).__name__), item
            if name in STRATEGIES:
                raise ValueError(f"your strategy is called {quote(name)}, like a built-in one: give it another name "
                                 "(its rows in the table are labelled by it)")
        else:
            raise ValueError(f"{quote(item)} is not a strategy: give a name ({', '.join(STRATEGIES)}), an object "
                             "with a name and a choose(obs, moves) method, or a function (obs, moves) -> move")
        if name in players and players[name] is not player:
            raise ValueError(f"two different strategies are called {quote(name)}: give them different names")
        players[name] = player
    return players


def unpicklable_players(jobs: list[Job]) -> list[str]:
    """The names of the strategy objects that cannot be sent to worker processes (defined inside a function,
    holding a lambda, ...): such games are played in this process."""
    bad = {}
    for job in jobs:
        if job.player is not None and job.strategy not in bad:
            try:
                pickle.loads(pickle.dumps(job.player))
                bad[job.strategy] = False
            except Exception:
                bad[job.strategy] = True
    return [name for name, failed in bad.items() if failed]


def make_jobs(variants, strategies: str | Iterable[str | object], deals: int | Iterable[int], *,
              max_seconds: float = 10.0, max_nodes: int | None = None, max_moves: int = 5000) -> list[Job]:
    """Every game of the experiment, in table order: variant, strategy (as given), then seed."""
    labelled = labelled_variants(variants)
    players = strategy_players(strategies)
    names = list(players)
    if not names:
        raise ValueError(f"no strategies given: choose from {', '.join(STRATEGIES)}")
    if not (isinstance(max_seconds, (int, float)) and max_seconds > 0 and math.isfinite(max_seconds)):
        raise ValueError(f"max_seconds must be a number of seconds > 0, got {quote(max_seconds)}")
    if max_nodes is not None and (not isinstance(max_nodes, int) or max_nodes < 1):
        raise ValueError(f"max_nodes must be None or a whole number >= 1, got {quote(max_nodes)}")
    if not isinstance(max_moves, int) or max_moves < 1:
        raise ValueError(f"max_moves must be a whole number >= 1, got {quote(max_moves)}")
    seeds = seed_list(deals)
    return [Job(label, v, s, seed, float(max_seconds), max_nodes, max_moves, players[s])
            for label, v in labelled.items() for s in dict.fromkeys(names) for seed in seeds]


# --- running -----------------------------------------------------------------------------------
def run(variants, strategies: str | Iterable[str | object], deals: int | Iterable[int], *, max_seconds: float = 10.0,
        max_nodes: int | None = None, max_moves: int = 5000, retry_unknown: Iterable[float] = (),
        executor: cf.Executor | None = None, workers: int | None = None, results: str | os.PathLike | None = None,
        progress: bool = True) -> pd.DataFrame:
    """Play every deal with every strategy in every variant; one row per game.

    variants: registry keys, Variant objects, or a dict ``{label: Variant}``. strategies: "random", "greedy",
    "solver", or strategy objects (see below). deals: a number N (seeds 0..N-1) or seeds. max_seconds / max_nodes
    limit the solver per deal, max_moves the other strategies. retry_unknown: longer time limits (seconds, rising)
    for a second look at the solver's ``unknown`` deals, in turn; each such deal's row is then the last attempt's
    (its ``seconds`` and ``nodes`` are that attempt's), and the budget column names the ladder, e.g.
    ``max_seconds=10,60``. executor: any concurrent.futures Executor (default: a process pool of ``workers``
    processes, all cores; ``workers=1`` plays in this process).
    results: a SQLite file that keeps finished games (every attempt), so a rerun skips them.
    A strategy object (a ``name`` and ``choose(obs, moves)``, such as a student's own class) labels its rows
    by its name; each game gets a fresh copy, in worker processes when the object pickles, else in this
    process (with a message). With ``results=``, give a changed strategy a new name: rows are kept by name.
    """
    jobs = make_jobs(variants, strategies, deals, max_seconds=max_seconds, max_nodes=max_nodes, max_moves=max_moves)
    ladder = retry_ladder(max_seconds, max_nodes, retry_unknown)
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers must be a whole number >= 1, got {quote(workers)}")
    store = ResultsFile(results) if results is not None else None
    rows: dict[tuple, dict] = {}
    try:
        if store:
            store.check_rules({j.label: j.variant for j in jobs})
        attempts = {j.key: j for j in jobs}  # each game's latest attempt, by the game's first key
        for stage, seconds in enumerate(ladder):
            if stage:
                attempts = {key: job._replace(max_seconds=seconds) for key, job in attempts.items()
                            if job.strategy == "solver" and rows[key]["outcome"] == Outcome.UNKNOWN}
                if not attempts:
                    break
            _play_stage(list(attempts.items()), rows, store, executor, workers,
                        progress and f"unknown deals at {seconds:g} s" if stage else progress)
    finally:
        if store:
            store.close()
    table = [rows[j.key] for j in jobs]
    if len(ladder) > 1:
        label = budget_text("solver", ladder[0], None, max_moves) + "".join(f",{s:g}" for s in ladder[1:])
        table = [row | {"budget": label} if row["strategy"] == "solver" else row for row in table]
    return _table(table)


def retry_ladder(max_seconds: float, max_nodes: int | None, retry_unknown: Iterable[float]) -> list[float]:
    """The solver's time limits in turn: ``max_seconds``, then each longer retry."""
    if isinstance(retry_unknown, (int, float)) and not isinstance(retry_unknown, bool):
        retry_unknown = [retry_unknown]
    try:
        if isinstance(retry_unknown, str):
            raise TypeError
        retries = [float(s) for s in retry_unknown]
    except (TypeError, ValueError):
        raise ValueError(f"retry_unknown must be a list of time limits in seconds, got "
                         f"{quote(retry_unknown)}") from None
    ladder = [float(max_seconds), *retries]
    for shorter, longer in zip(ladder, ladder[1:]):
        if not (longer > shorter and math.isfinite(longer)):
            raise ValueError(f"each retry needs a longer time limit than the one before: {longer:g} s after "
                             f"{shorter:g} s (give rising limits, e.g. --max-seconds 10 --retry-unknown 60)")
    if retries and max_nodes is not None:
        raise ValueError("retry_unknown raises the time limit, but max_nodes would stop every retry at the same "
                         "node count: leave out one of them")
    return ladder


def _play_stage(attempts: list[tuple[tuple, Job]], rows: dict, store: ResultsFile | None, executor, workers,
                progress: bool | str) -> None:
    """Play these attempts (skipping any already in the results file); ``rows[game key]`` gets each row."""
    found = store.done([job for _, job in attempts]) if store else {}
    todo = []
    for key, job in attempts:
        if job.key in found:
            rows[key] = found[job.key]
        else:
            todo.append(job)
    first_key = {job.key: key for key, job in attempts}

    def finished(job: Job, row: dict) -> None:
        rows[first_key[job.key]] = row
        if store:
            store.add(row, job.variant)

    if todo:
        _play_all(todo, finished, executor, workers, progress, total=len(attempts), initial=len(found))


def play_jobs(jobs: list[Job]) -> list[dict]:
    """Play a batch of games in one task (fast games share the cost of a round trip to a worker)."""
    return [play_job(job) for job in jobs]


def batches(todo: list[Job], workers: int, most: int = 8) -> list[list[Job]]:
    """Solver games one per task (each may take its whole budget); fast games up to ``most`` per task,
    fewer when there are few, so that every worker still gets several tasks."""
    solver = [[j] for j in todo if j.strategy in ("solver", "expert")]  # slow games: one per task
    plain = [j for j in todo if j.strategy not in ("solver", "expert")]
    size = max(1, min(most, len(plain) // (8 * workers)))
    return [plain[i:i + size] for i in range(0, len(plain), size)] + solver


def _play_all(todo: list[Job], finished, executor, workers, progress, *, total: int, initial: int) -> None:
    from tqdm.auto import tqdm

    desc = progress if isinstance(progress, str) else "games"
    workers = workers or os.cpu_count() or 1
    if sys.platform == "emscripten":  # in the browser (JupyterLite's Pyodide) no process or thread can start
        workers, tqdm.monitor_interval = 1 if executor is None else workers, 0
    if executor is None and workers > 1 and (stuck := unpicklable_players(todo)):
        print(f"strategy {', '.join(stuck)} cannot be sent to worker processes (it cannot be pickled: define its "
              "class at the top level of a notebook or module, without lambdas), so every game is played in "
              "this process, one at a time", file=sys.stderr)
        workers = 1
    if executor is None and workers == 1:
        with tqdm(total=total, initial=initial, desc=desc, unit="game", disable=not progress) as bar:
            for job in todo:
                finished(job, play_job(job))
                bar.update()
        return
    own, workers_of = executor is None, None
    if own:
        executor = cf.ProcessPoolExecutor(max_workers=workers, initializer=_start_worker, initargs=(os.getpid(),))
        workers_of = getattr(executor, "_processes", None)  # the pool's own processes: ended at once on Ctrl-C
    window = max(32, 4 * workers)  # tasks in flight: enough to keep workers busy, few to cancel on Ctrl-C
    queue = iter(batches(todo, workers))
    pending: dict[cf.Future, list[Job]] = {}

    def refill() -> None:
        with _interrupts_held():  # a worker started now is born with Ctrl-C held, and ignores it before it can die
            for batch in queue:
                pending[executor.submit(play_jobs, batch)] = batch
                if len(pending) >= window:
                    return

    try:
        refill()  # before the progress bar starts its thread, so forked workers inherit no threads
        with tqdm(total=total, initial=initial, desc=desc, unit="game", disable=not progress) as bar:
            while pending:
                done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for future in done:
                    batch = pending.pop(future)
                    for job, row in zip(batch, future.result()):
                        finished(job, row)
                    bar.update(len(batch))
                refill()
    except BaseException:
        with _interrupts_ignored():  # a second Ctrl-C must not cut the cleaning up short and leave workers behind
            for future in pending:
                future.cancel()
            _keep_finished(pending, finished)
            if own:
                stop_workers(executor, list((workers_of or {}).values()))
        raise
    if own:
        executor.shutdown()


def _keep_finished(pending: dict[cf.Future, list[Job]], finished) -> None:
    """After an interruption: keep the games that workers finished but that were not yet collected."""
    for future, batch in pending.items():
        if future.done() and not future.cancelled() and future.exception() is None:
            with contextlib.suppress(Exception):  # a results file that cannot take them is said elsewhere
                for job, row in zip(batch, future.result()):
                    finished(job, row)


def stop_workers(executor: cf.ProcessPoolExecutor, processes: list, wait: float = 5.0) -> None:
    """End a process pool now: cancel what waits, and end the workers in the middle of their games (a game in
    progress is lost either way; one finished is already kept), instead of waiting for them to finish.

    >>> pool = cf.ProcessPoolExecutor(1)
    >>> _ = pool.submit(time.sleep, 60)
    >>> stop_workers(pool, list(pool._processes.values()))
    >>> pool._processes is None
    True
    """
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    deadline = time.monotonic() + wait
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join(1.0)


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


class _interrupts_ignored:
    """While cleaning up after Ctrl-C: a second Ctrl-C is ignored (in the main thread; elsewhere nothing changes)."""

    def __enter__(self) -> None:
        self.before = signal.signal(signal.SIGINT, signal.SIG_IGN) if _in_main_thread() else None

    def __exit__(self, *exc: object) -> None:
        if self.before is not None:
            signal.signal(signal.SIGINT, self.before)


class _interrupts_held:
    """Ctrl-C is held (blocked) inside the block and arrives at its end: a process forked inside is born with it
    held, so a Ctrl-C sent to the whole process group cannot kill a worker before it ignores it."""

    def __enter__(self) -> None:
        self.held = hasattr(signal, "pthread_sigmask") and _in_main_thread()
        if self.held:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

    def __exit__(self, *exc: object) -> None:
        if self.held:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _start_worker(main_pid: int) -> None:
    """In each worker process: leave Ctrl-C to the main process (which cancels the run cleanly), and end the
    worker when the main process dies (even by ``kill -9``), instead of playing on as an orphan."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # born with Ctrl-C held (``_interrupts_held``): ignored from now on
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    parent = os.getppid()
    threading.Thread(target=_watch_parent, args=(main_pid, parent), daemon=True, name="watch-parent").start()


def _watch_parent(main_pid: int, parent: int, every: float = 0.5) -> None:
    """End this process once its parent is gone (it is then adopted by another process) or ``main_pid`` is."""
    while True:
        time.sleep(every)
        if os.getppid() != parent or not _alive(main_pid):
            os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


# --- statistics --------------------------------------------------------------------------------
def summary(df: pd.DataFrame, z: float = 1.96) -> pd.DataFrame:
    """Per variant, strategy (and budget): games, wins, win rate with its Wilson interval (low, high).

    For the solver also: ``unknown`` (deals it could not decide in budget) and the winnable fraction's
    bounds, ``winnable_low`` (unknown counted as lost) and ``winnable_high`` (unknown counted as won).
    """
    keys = [k for k in ("variant", "strategy", "budget") if k in df.columns]
    out = []
    for group, g in df.groupby(keys, sort=False):
        n, wins = len(g), int((g["outcome"] == Outcome.WON).sum())
        unknown = int((g["outcome"] == Outcome.UNKNOWN).sum())
        low, high = wilson(wins, n, z)
        solver = group[1] == "solver"
        out.append(dict(zip(keys, group)) | {
            "games": n, "wins": wins, "win_rate": wins / n, "low": low, "high": high, "unknown": unknown,
            "winnable_low": wins / n if solver else math.nan,
            "winnable_high": (wins + unknown) / n if solver else math.nan,
            "mean_moves": float(g["moves"].mean()), "mean_seconds": float(g["seconds"].mean())})
    columns = keys + ["games", "wins", "win_rate", "low", "high", "unknown", "winnable_low", "winnable_high",
                      "mean_moves", "mean_seconds"]
    return pd.DataFrame(out, columns=columns)
