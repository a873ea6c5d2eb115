"""Experiments: statistics on known inputs, reproducible tables, resumable results files, Dask executors."""
from __future__ import annotations

import dataclasses
import math
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import pandas as pd
import pytest
from helpers import foreign_database

from solitaire import ITALIAN, KLONDIKE
from solitaire.experiments import batches, load, make_jobs, run, summary, wilson

KLONDIKE_DRAW3 = dataclasses.replace(KLONDIKE, draw=3)
# A small solver budget in nodes (and a generous one in seconds) keeps the solver's rows deterministic.
SMALL = dict(max_seconds=60.0, max_nodes=300, max_moves=400, progress=False)


def without_seconds(df: pd.DataFrame) -> pd.DataFrame:
    return df.drop(columns="seconds").reset_index(drop=True)


# --- statistics --------------------------------------------------------------------------------
@pytest.mark.parametrize("k, n, low, high", [(5, 10, 0.2366, 0.7634), (0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0),
                                             (1, 1, 0.2065, 1.0)])
def test_wilson_matches_published_values(k, n, low, high):
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(low, abs=5e-5) and hi == pytest.approx(high, abs=5e-5)


@pytest.mark.parametrize("k, n", [(1, 7), (30, 100), (263, 1000)])
def test_wilson_bounds_solve_the_score_equation(k, n):
    """Each bound p satisfies (k/n - p)^2 = z^2 p (1 - p) / n: the definition of the Wilson interval."""
    z = 1.96
    for p in wilson(k, n, z):
        assert (k / n - p) ** 2 == pytest.approx(z * z * p * (1 - p) / n, rel=1e-9)


def test_wilson_edge_cases():
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(3, 10, z=2.58)[0] < wilson(3, 10)[0]  # a 99% interval is wider
    with pytest.raises(ValueError, match="k=11"):
        wilson(11, 10)


def test_summary_on_a_known_table():
    rows = [("klondike", "greedy", s, "won" if s < 3 else "lost", 10, 52 if s < 3 else 20, 0.1, 0) for s in range(8)]
    rows += [("klondike", "solver", s, o, 100 if o == "won" else 0, 52 if o == "won" else 0, 1.0, 500)
             for s, o in enumerate(["won", "won", "unwinnable", "unknown", "unknown", "unwinnable"])]
    rows += [("italian", "greedy", s, "move limit" if s == 0 else "won", 30, 32, 0.2, 0) for s in range(4)]
    df = pd.DataFrame(rows, columns=["variant", "strategy", "seed", "outcome", "moves", "on_foundations",
                                     "seconds", "nodes"])
    s = summary(df)
    assert list(zip(s["variant"], s["strategy"])) == [("klondike", "greedy"), ("klondike", "solver"),
                                                      ("italian", "greedy")]
    assert s["games"].tolist() == [8, 6, 4] and s["wins"].tolist() == [3, 2, 3]
    assert s["win_rate"].tolist() == pytest.approx([3 / 8, 2 / 6, 3 / 4])
    assert (s.loc[0, "low"], s.loc[0, "high"]) == pytest.approx(wilson(3, 8))
    assert s["unknown"].tolist() == [0, 2, 0]
    assert (s.loc[1, "winnable_low"], s.loc[1, "winnable_high"]) == pytest.approx((2 / 6, 4 / 6))
    assert math.isnan(s.loc[0, "winnable_low"]) and math.isnan(s.loc[2, "winnable_high"])
    assert s.loc[2, "mean_seconds"] == pytest.approx(0.2)


# --- what to play ------------------------------------------------------------------------------
def test_jobs_label_custom_variants_readably_and_refuse_bad_input():
    jobs = make_jobs(["klondike", KLONDIKE_DRAW3, ITALIAN], ["greedy"], [4, 2, 2])
    assert [(j.label, j.seed) for j in jobs] == [("klondike", 2), ("klondike", 4), ("klondike draw=3", 2),
                                                 ("klondike draw=3", 4), ("italian", 2), ("italian", 4)]
    assert [j.label for j in make_jobs({"three at a time": KLONDIKE_DRAW3}, "solver", 1)] == ["three at a time"]
    named = dataclasses.replace(KLONDIKE_DRAW3, name="Thoughtful")
    assert [j.label for j in make_jobs([named], "solver", 1)] == ["Thoughtful"]
    with pytest.raises(ValueError, match="two different variants have the label 'Thoughtful'"):
        make_jobs([named, dataclasses.replace(named, draw=2)], "greedy", 1)
    with pytest.raises(ValueError, match="'freecell'"):
        make_jobs(["freecell"], ["greedy"], 1)
    with pytest.raises(ValueError, match="'smart'"):
        make_jobs(["klondike"], ["smart"], 1)
    with pytest.raises(ValueError, match="-1"):
        make_jobs(["klondike"], ["greedy"], [0, -1])
    with pytest.raises(ValueError, match="max_seconds"):
        make_jobs(["klondike"], ["solver"], 1, max_seconds=0)


def test_fast_games_share_tasks_and_solver_games_go_alone():
    jobs = make_jobs(["klondike", "italian"], ["greedy", "solver"], 100)
    tasks = batches(jobs, workers=2)
    assert sorted(j for t in tasks for j in t) == sorted(jobs)
    assert all(len(t) == 1 for t in tasks if t[0].strategy == "solver")
    assert max(len(t) for t in tasks) == 8 and all(len({j.strategy for j in t}) == 1 for t in tasks)
    assert all(len(t) == 1 for t in batches(jobs[:10], workers=2))  # too few games to share tasks


# --- running with the real strategies and solver -----------------------------------------------
def test_rows_are_well_formed():
    df = run({"klondike": KLONDIKE, "italian": ITALIAN}, ["random", "greedy", "solver"], [0, 1, 2], workers=1, **SMALL)
    assert list(df.columns[:8]) == ["variant", "strategy", "seed", "outcome", "moves", "on_foundations",
                                    "seconds", "nodes"]
    assert len(df) == 2 * 3 * 3 and not df.duplicated(["variant", "strategy", "seed"]).any()
    plain, solved = df[df["strategy"] != "solver"], df[df["strategy"] == "solver"]
    assert set(plain["outcome"]) <= {"won", "lost", "move limit"} and (plain["nodes"] == 0).all()
    assert set(solved["outcome"]) <= {"won", "unwinnable", "unknown"} and (solved["nodes"] > 0).any()
    # the solver reports the whole deck when it wins, else what the deal put on the foundations (Italian aces)
    for _, row in solved.iterrows():
        variant = {"klondike": KLONDIKE, "italian": ITALIAN}[row["variant"]]
        if row["outcome"] == "won":
            assert row["on_foundations"] == variant.deck_size and row["moves"] > 0
        else:
            from solitaire import deal
            assert row["on_foundations"] == deal(variant, row["seed"]).on_foundations()


def test_same_table_with_one_or_two_workers():
    args = (["klondike", KLONDIKE_DRAW3, "italian"], ["random", "greedy", "solver"], 6)
    one = run(*args, workers=1, **SMALL)
    two = run(*args, workers=2, **SMALL)
    pd.testing.assert_frame_equal(without_seconds(one), without_seconds(two))
    assert one["variant"].unique().tolist() == ["klondike", "klondike draw=3", "italian"]


def test_results_file_keeps_games_and_a_rerun_only_plays_new_ones(tmp_path):
    path = tmp_path / "results.sqlite"
    first = run(["italian"], ["greedy", "solver"], 4, results=path, workers=1, **SMALL)
    more = run(["italian"], ["greedy", "solver"], 7, results=path, workers=2, **SMALL)
    # seconds are measured anew for every game played, so equal seconds mean the row was read back, not replayed
    pd.testing.assert_frame_equal(more[more["seed"] < 4].reset_index(drop=True), first)
    assert sorted(load(path)["seed"].tolist()) == sorted(list(range(7)) * 2)
    other_budget = run(["italian"], ["solver"], 2, results=path, workers=1, **(SMALL | {"max_nodes": 301}))
    assert set(other_budget["budget"]) == {"max_seconds=60 max_nodes=301"} and len(load(path)) == 16


def test_retry_unknown_gives_undecided_deals_a_longer_look_and_keeps_every_attempt(tmp_path):
    path = tmp_path / "results.sqlite"
    deals = ["italian", "klondike"], ["solver", "greedy"], 6
    # 1 ms leaves most deals unknown (the solver looks at the clock every 256 positions); 60 s decides them all
    table = run(*deals, max_seconds=0.001, retry_unknown=[60], results=path, workers=1, progress=False)
    solver = table[table["strategy"] == "solver"]
    assert set(solver["budget"]) == {"max_seconds=0.001,60"}
    assert set(table[table["strategy"] == "greedy"]["budget"]) == {"max_moves=5000"}
    assert (solver["outcome"] != "unknown").all()
    attempts = load(path)
    short = attempts[attempts["budget"] == "max_seconds=0.001"]
    retried = attempts[attempts["budget"] == "max_seconds=60"]
    assert len(short) == 12 and 0 < len(retried) == (short["outcome"] == "unknown").sum()
    # a retried deal's row is its long attempt, the same as a run at 60 s from the start (except seconds)
    direct = run(*deals, max_seconds=60, workers=1, progress=False)
    pd.testing.assert_frame_equal(without_seconds(solver.drop(columns="budget")),
                                  without_seconds(direct[direct["strategy"] == "solver"].drop(columns="budget")))
    again = run(*deals, max_seconds=0.001, retry_unknown=[60], results=path, workers=2, progress=False)
    pd.testing.assert_frame_equal(again, table)  # read back, attempts and all: nothing replayed
    assert len(load(path)) == len(attempts)


@pytest.mark.parametrize("kwargs, message", [
    (dict(max_seconds=10, retry_unknown=[5]), "a longer time limit than the one before: 5 s after 10 s"),
    (dict(max_seconds=10, retry_unknown=[60, 30]), "30 s after 60 s"),
    (dict(max_seconds=10, retry_unknown="60"), "a list of time limits in seconds, got '60'"),
    (dict(max_seconds=10, max_nodes=100, retry_unknown=[60]), "leave out one of them"),
])
def test_retry_unknown_refuses_limits_that_do_not_rise(kwargs, message):
    with pytest.raises(ValueError, match=message):
        run(["italian"], ["solver"], 1, workers=1, progress=False, **kwargs)


def test_one_label_cannot_name_two_rule_sets_in_a_file(tmp_path):
    path = tmp_path / "results.sqlite"
    run({"mine": KLONDIKE}, ["greedy"], 1, results=path, workers=1, **SMALL)
    with pytest.raises(ValueError, match="'mine' with other rules"):
        run({"mine": KLONDIKE_DRAW3}, ["greedy"], 1, results=path, workers=1, **SMALL)


def test_a_file_that_is_not_a_results_file_is_refused(tmp_path):
    path = tmp_path / "notes.sqlite"
    path.write_text("these are my notes, not a database\n" * 50)
    with pytest.raises(ValueError, match="not a SQLite file"):
        run(["klondike"], ["greedy"], 1, results=path, workers=1, **SMALL)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE games (player TEXT, score INTEGER)")
    with pytest.raises(ValueError, match="lacks the columns"):
        run(["klondike"], ["greedy"], 1, results=other, workers=1, **SMALL)


def test_another_programs_database_is_left_byte_for_byte_untouched(tmp_path):
    import hashlib
    path = foreign_database(tmp_path / "scores.db")
    before = (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns, sorted(os.listdir(tmp_path)))
    for attempt in (lambda: run(["klondike"], ["greedy"], 1, results=path, workers=1, **SMALL), lambda: load(path)):
        with pytest.raises(ValueError, match=r"no table 'games'.*left untouched"):
            attempt()
    after = (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns, sorted(os.listdir(tmp_path)))
    assert after == before  # same bytes, not even rewritten, and no -wal/-shm files beside it
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


READ_ONLY_RUN = """
import sys
from solitaire.cli import main
sys.exit(main(["experiment", "--variants", "klondike", "--strategies", "greedy", "--deals", "3",
               "--workers", "1", "--no-progress", "--out", sys.argv[1]]))
"""


def make_read_only(path) -> bool:
    """chmod a-w; as root (who may write anyway) the immutable attribute instead. False if neither works."""
    if os.geteuid() != 0:
        os.chmod(path, 0o444)
        return True
    return subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode == 0


def test_a_read_only_results_file_gets_a_one_line_message_before_any_game(tmp_path):
    path = tmp_path / "results.sqlite"
    run(["klondike"], ["greedy"], 2, results=path, workers=1, **SMALL)
    if not make_read_only(path):
        pytest.skip("cannot make a file read-only for root here (no chattr)")
    try:
        before = path.read_bytes()
        done = subprocess.run([sys.executable, "-c", READ_ONLY_RUN, str(path)], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "readonly" in lines[0] and "make the file (and its folder) writable" in lines[0]
        assert path.read_bytes() == before
        assert len(load(path)) == 2  # the games played before are still there, and a read-only file loads
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(path)], capture_output=True)


def test_a_full_disk_keeps_every_saved_game_and_says_what_to_do(tmp_path, monkeypatch):
    """SQLite's page limit gives the same error as a full disk ("database or disk is full")."""
    real_connect = sqlite3.connect

    def small_disk(*args, **kwargs):
        db = real_connect(*args, **kwargs)
        db.execute("PRAGMA max_page_count = 4")
        return db

    path = tmp_path / "results.sqlite"
    monkeypatch.setattr(sqlite3, "connect", small_disk)
    with pytest.raises(ValueError, match=r"disk is full.*free some disk space.*games already saved are kept"):
        run(["klondike", "italian"], ["random", "greedy"], 60, results=path, workers=1, **SMALL)
    monkeypatch.setattr(sqlite3, "connect", real_connect)
    saved = load(path)
    assert 0 < len(saved) < 240
    table = run(["klondike", "italian"], ["random", "greedy"], 60, results=path, workers=1, **SMALL)
    assert len(table) == 240 and len(load(path)) == 240
    kept = saved.merge(table, on=["variant", "strategy", "seed"], suffixes=("_before", "_after"))
    assert len(kept) == len(saved) and (kept["seconds_before"] == kept["seconds_after"]).all()


ORPHAN_RUN = """
from solitaire.experiments import run
run(["solijoy"], ["solver"], [2, 4, 10, 13], max_seconds=120, workers=2, progress=False)  # long solves
"""


def test_workers_end_when_the_main_process_is_killed():
    psutil = pytest.importorskip("psutil")
    child = subprocess.Popen([sys.executable, "-c", ORPHAN_RUN])
    try:
        deadline = time.monotonic() + 60
        workers: list = []
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            workers = psutil.Process(child.pid).children()
        assert len(workers) == 2, "the pool did not start"
        time.sleep(1.0)  # the workers are solving now
    finally:
        os.kill(child.pid, signal.SIGKILL)  # the main process only, not its workers
        child.wait()
    gone, alive = psutil.wait_procs(workers, timeout=15)
    for p in alive:
        p.kill()
    assert not alive, "workers outlived the main process"


def _count(path) -> int:
    try:
        with sqlite3.connect(path) as db:
            return db.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:  # not created yet
        return 0


KILLED_RUN = """
from solitaire.experiments import run
run(["klondike", "italian"], ["random", "greedy"], 60, max_moves=5000, workers=2, results={path!r}, progress=False)
"""


def test_a_run_killed_with_sigkill_resumes_without_losing_or_repeating_a_deal(tmp_path):
    path = str(tmp_path / "results.sqlite")
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(KILLED_RUN.format(path=path))],
                             start_new_session=True)  # its own process group: the kill reaches its workers too
    try:
        deadline = time.monotonic() + 60
        while _count(path) < 10 and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
    before = load(path)
    assert 10 <= len(before) < 240, "the run should have been killed part way"
    after = run(["klondike", "italian"], ["random", "greedy"], 60, max_moves=5000, workers=2, results=path,
                progress=False)
    assert len(after) == 240 and not after.duplicated(["variant", "strategy", "seed"]).any()
    assert len(load(path)) == 240
    kept = before.merge(after, on=["variant", "strategy", "seed"], suffixes=("_before", "_after"))
    assert len(kept) == len(before) and (kept["seconds_before"] == kept["seconds_after"]).all()


def test_a_dask_cluster_executor_gives_the_same_table():
    distributed = pytest.importorskip("distributed")
    args = (["klondike", KLONDIKE_DRAW3, "italian"], ["greedy", "solver"], 5)
    local = run(*args, workers=1, **SMALL)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = run(*args, executor=client.get_executor(), **SMALL)
    pd.testing.assert_frame_equal(without_seconds(local), without_seconds(remote))
