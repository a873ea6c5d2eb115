"""The class tournament: fair (every entrant on the same secret deals), cheat-proof (each entrant in its own process,
seeing only what a player sees) and robust (a broken entrant loses its game and the tournament goes on).

Each attack is a real entrant file. The cheaters are first shown to win on a naive in-process runner (``play_game``
in this process, on deals greedy loses and the solver wins), then shown to win no more than the greedy player
they fall back on once they play in the tournament, on the same deals.
"""
from __future__ import annotations

import csv
import os
import platform
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import textwrap
import time
import types
from pathlib import Path

import pytest

from solitaire import KLONDIKE
from solitaire.solver import solve
from solitaire.state import deal
from solitaire.strategies import play_game
from solitaire import tournament
from solitaire.tournament import Limits
from solitaire.tournament.referee import EntrantProcess
from solitaire.tournament.sandbox import detect

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "solitaire" / "entrants"
GREEDY_FILE = SHIPPED / "greedy_player.py"
QUICK = Limits(move_seconds=0.5, max_moves=2000, load_seconds=60)

# --- the cheaters: each falls back on greedy when its trick finds nothing ------------------------------------
CHEAT_BASE = '''
import sys
from solitaire.players import GreedyStrategy
from solitaire.solver import solve
from solitaire.state import Position, observe

class Cheater:
    """Plays the solver's line from the Position its trick finds, else greedy."""
    name = "cheater"

    def __init__(self):
        self.greedy, self.plan = GreedyStrategy(), []

    def choose(self, obs, moves):
        if self.plan and self.plan[0] in moves:
            return self.plan.pop(0)
        p = self.find(obs)
        if p is not None:
            result = solve(p, max_nodes=50_000)
            if result.status == "won" and result.moves and result.moves[0] in moves:
                self.plan = list(result.moves[1:])
                return result.moves[0]
        return self.greedy.choose(obs, moves)
'''

GC_SCAN = CHEAT_BASE + '''
import gc

class GcScan(Cheater):
    def find(self, obs):
        for o in gc.get_objects():
            if type(o) is Position and observe(o) == obs:
                return o
        return None

strategy = GcScan()
'''

FRAME_WALK = CHEAT_BASE + '''
class FrameWalk(Cheater):
    def find(self, obs):
        frame = sys._getframe(1)
        while frame is not None:
            for value in list(frame.f_locals.values()) + list(frame.f_globals.values()):
                if type(value) is Position and observe(value) == obs:
                    return value
            frame = frame.f_back
        return None

strategy = FrameWalk()
'''

REDEAL = CHEAT_BASE + '''
from solitaire import KLONDIKE
from solitaire.cards import full_deck
from solitaire.state import deal, deal_cards

def tops_of(deck):
    return tuple(deck[i] for i in TOPS)

_order = full_deck(KLONDIKE.ranks, KLONDIKE.decks)
TOPS = [_order.index(col[-1]) for col in deal_cards(KLONDIKE, list(_order)).columns]  # where each top card comes from

def shuffled(seed, n=len(_order)):
    """The kit's SplitMix64 Fisher-Yates, inlined: the deck order of a seed, as positions in full_deck."""
    mask, state, deck = (1 << 64) - 1, seed, list(range(n))
    for i in range(n - 1, 0, -1):
        limit = (1 << 64) - (1 << 64) % (i + 1)
        while True:
            state = (state + 0x9E3779B97F4A7C15) & mask
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
            z ^= z >> 31
            if z < limit:
                break
        j = z % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck

import os, pickle
SAVED = os.path.join(os.path.dirname(__file__), "redeal_table.pickle")  # computed once, then read back
if os.path.exists(SAVED):
    with open(SAVED, "rb") as f:
        TABLE = pickle.load(f)
else:
    TABLE = {}
    for _seed in range(100_001):  # every deal a tournament numbered 0, 1, 2, ... could use
        _deck = shuffled(_seed)
        TABLE.setdefault(tuple(int(_order[_deck[i]]) for i in TOPS), _seed)
    try:
        with open(SAVED, "wb") as f:
            pickle.dump(TABLE, f)
    except OSError:  # in its sandbox, the folder of its file does not exist
        pass

class Redeal(Cheater):
    def find(self, obs):
        seed = TABLE.get(tuple(int(col[-1]) if col else -1 for col in obs.columns))
        if seed is not None and observe(deal(obs.variant, seed)) == obs:
            return deal(obs.variant, seed)
        return None

strategy = Redeal()
'''

PROC_MEM = CHEAT_BASE + '''
import os
import platform
import struct
from solitaire.state import deal

def type_address_in(pid):
    """Where int's type object lies in process pid (the same Python binary as ours, mapped elsewhere)."""
    here = id(int)
    for line in open("/proc/self/maps"):
        fields = line.split()
        start, end = (int(x, 16) for x in fields[0].split("-"))
        if start <= here < end and len(fields) > 5:
            path, offset = fields[5], here - start + int(fields[2], 16)
            break
    else:
        return None
    for line in open(f"/proc/{pid}/maps"):
        fields = line.split()
        start, end = (int(x, 16) for x in fields[0].split("-"))
        if len(fields) > 5 and fields[5] == path and int(fields[2], 16) <= offset < int(fields[2], 16) + end - start:
            return start + offset - int(fields[2], 16)
    return None

def big_ints_in(pid):
    """Every int of 61 to 64 bits in the memory of pid (a 64-bit seed among them), read from /proc/pid/mem."""
    where = type_address_in(pid)
    if where is None:
        return set()
    needle, found = struct.pack("<Q", where), set()
    with open(f"/proc/{pid}/mem", "rb", buffering=0) as mem:
        for line in open(f"/proc/{pid}/maps"):
            fields = line.split()
            start, end = (int(x, 16) for x in fields[0].split("-"))
            if "rw" not in fields[1] or end - start > 2 ** 28:
                continue
            try:
                mem.seek(start)
                data = mem.read(end - start)
            except OSError:
                continue
            at = data.find(needle)
            while at != -1:
                if at % 8 == 0 and data[at + 8:at + 16] == b"\\x03" + bytes(7):
                    d = struct.unpack_from("<3I", data, at + 16)
                    value = d[0] | d[1] << 30 | d[2] << 60
                    if value < 2 ** 64 and all(x < 2 ** 30 for x in d):
                        found.add(value)
                at = data.find(needle, at + 8)
    return found

class ProcMem(Cheater):
    def find(self, obs):
        if obs.stock_size != len(deal(obs.variant, 0).stock):
            return None  # only at the deal: that is where a seed is checked
        for pid in (os.getppid(), os.getpid()):  # the referee, then this process
            try:
                candidates = big_ints_in(pid)
            except OSError as e:
                print(f"cannot read the memory of process {pid}: {type(e).__name__}: {e}", file=sys.stderr)
                continue
            for seed in candidates:
                if observe(deal(obs.variant, seed)) == obs:
                    return deal(obs.variant, seed)
        return None

strategy = ProcMem()
'''

# --- the broken ones -----------------------------------------------------------------------------------------
GREEDY_THEN = '''
from solitaire.players import GreedyStrategy
_greedy = GreedyStrategy()

def choose(obs, moves):
    {body}
    return _greedy.choose(obs, moves)
'''
LOOPS = GREEDY_THEN.format(body="if obs.stock_size < 20:\n        while True:\n            pass")
ALLOCATES = GREEDY_THEN.format(body="if obs.stock_size < 20:\n        block = bytearray(4 * 2 ** 30)")
CRASHES = GREEDY_THEN.format(body="if obs.stock_size < 20:\n        import ctypes\n        ctypes.string_at(0)")
RAISES = GREEDY_THEN.format(body="if obs.stock_size < 20:\n        raise KeyError('no such pile')")
NONSENSE = GREEDY_THEN.format(body="if obs.stock_size < 20:\n        return 42")
FLOODS = GREEDY_THEN.format(body="print('x' * 1_000_000)")
BAD_IMPORT = "import solitaire\nraise RuntimeError('this file never loads')\n"


def write(folder: Path, **files: str) -> list[Path]:
    folder.mkdir(exist_ok=True)
    paths = []
    for name, text in files.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(text), encoding="utf-8")
        paths.append(folder / f"{name}.py")
    return paths


def load_in_process(path: Path):
    """The naive way: run the entrant's file in this process, as play_game would use it."""
    module = types.ModuleType(path.stem)
    module.__file__ = str(path)
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), module.__dict__)
    return module.strategy


def hard_deals(count: int, seeds) -> list[int]:
    """Deals greedy loses and the solver wins quickly: where seeing the hidden cards pays."""
    found = []
    for seed in seeds:
        if play_game(KLONDIKE, seed, "greedy").outcome != "won" and solve(deal(KLONDIKE, seed), max_nodes=20_000).status == "won":
            found.append(seed)
            if len(found) == count:
                return found
    raise AssertionError("not enough hard deals")


def wins(results, name: str) -> int:
    return sum(r["outcome"] == "won" for r in results.rows if r["entrant"] == name)


@pytest.fixture(scope="module")
def deals64():
    rng = random.Random(33)
    return hard_deals(2, (rng.getrandbits(64) | 1 << 62 for _ in range(200)))


@pytest.fixture(scope="module")
def small_deals():
    rng = random.Random(34)
    return hard_deals(2, (rng.randrange(100_001) for _ in range(200)))


# --- the referee plays as play_game does ---------------------------------------------------------------------
def test_an_isolated_entrant_plays_exactly_as_in_process(tmp_path):
    seeds = [random.Random(5).getrandbits(64) for _ in range(1)] + list(range(6))
    results = tournament.run([GREEDY_FILE, SHIPPED / "careful_student.py"], deals=len(seeds),
                             seeds={"klondike": seeds}, limits=QUICK)
    from solitaire.tournament.entrant import FunctionStrategy
    module = types.ModuleType("careful")  # the file defines a function choose, not a strategy object
    exec((SHIPPED / "careful_student.py").read_text(encoding="utf-8"), module.__dict__)
    careful = FunctionStrategy(module.choose, "careful_student")
    for name, player in (("greedy_player", "greedy"), ("careful_student", careful)):
        got = [(r["seed"], r["outcome"], r["moves"]) for r in results.rows if r["entrant"] == name]
        want = [(s, str((g := play_game(KLONDIKE, s, player, max_moves=QUICK.max_moves)).outcome), g.moves) for s in seeds]
        assert got == want


def test_no_seed_is_ever_sent_to_an_entrant(monkeypatch):
    sent = []
    original = EntrantProcess._send
    monkeypatch.setattr(EntrantProcess, "_send", lambda self, message: (sent.append(message), original(self, message))[1])
    results = tournament.run([GREEDY_FILE], deals=3, limits=QUICK)
    seeds = {r["seed"] for r in results.rows}
    assert len(seeds) == 3 and min(seeds) > 2 ** 20  # 64-bit secrets (one below 2**20: a chance of 3 in 2**44)

    def numbers(x):
        if isinstance(x, (tuple, list)):
            for y in x:
                yield from numbers(y)
        elif isinstance(x, int):
            yield x
        elif isinstance(x, bytes):
            yield from x
    assert sent and not seeds & set(numbers(sent))
    assert {m[0] for m in sent} == {"source", "game", "move"}


# --- cheaters --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("attack", ["gc_scan", "frame_walk"])
def test_a_cheater_that_looks_for_the_position_wins_only_in_process(tmp_path, attack, deals64):
    path, = write(tmp_path, **{attack: {"gc_scan": GC_SCAN, "frame_walk": FRAME_WALK}[attack]})
    naive = [play_game(KLONDIKE, s, load_in_process(path)).outcome for s in deals64]
    assert naive == ["won"] * len(deals64)  # greedy loses every one of these deals
    results = tournament.run([path, GREEDY_FILE], deals=len(deals64), seeds={"klondike": deals64}, limits=QUICK)
    assert wins(results, attack) <= wins(results, "greedy_player") == 0
    assert not any(r["reason"] for r in results.rows)


def test_redealing_seeds_0_to_100000_finds_nothing_when_seeds_are_secret(tmp_path, small_deals):
    path, = write(tmp_path, redeal=REDEAL)
    cheater = load_in_process(path)
    assert len(cheater.find.__globals__["TABLE"]) > 99_000  # (it keeps its table beside it for its next start)
    assert [play_game(KLONDIKE, s, cheater).outcome for s in small_deals] == ["won"] * len(small_deals)
    limits = QUICK._replace(move_seconds=2.0)
    results = tournament.run([path, GREEDY_FILE], deals=4, limits=limits)
    by_deal = {(r["entrant"], r["number"]): r["outcome"] for r in results.rows}
    assert all(by_deal["redeal", n] == by_deal["greedy_player", n] for n in range(4))  # it plays greedy, deal by deal
    assert not any(r["reason"] for r in results.rows)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/<pid>/mem is Linux's")
def test_reading_the_referees_memory_is_refused(tmp_path, deals64):
    path, = write(tmp_path, proc_mem=PROC_MEM)
    cheater = load_in_process(path)
    assert [play_game(KLONDIKE, s, cheater).outcome for s in deals64[:1]] == ["won"]  # it finds the seed in memory
    logs = tmp_path / "logs"
    logs.mkdir()
    results = tournament.run([path, GREEDY_FILE], deals=len(deals64), seeds={"klondike": deals64},
                             limits=QUICK._replace(move_seconds=5.0), logs=logs)
    assert wins(results, "proc_mem") <= wins(results, "greedy_player") == 0
    log = (logs / "proc_mem.log").read_text()
    parent = 1 if detect().isolated else os.getpid()  # in its PID namespace the referee does not exist
    assert f"cannot read the memory of process {parent}: PermissionError" in log


# --- broken entrants -------------------------------------------------------------------------------------------
def test_broken_entrants_lose_their_games_with_a_reason_and_the_tournament_goes_on(tmp_path):
    folder = tmp_path / "class"
    write(folder, loops=LOOPS, allocates=ALLOCATES, crashes=CRASHES, raises=RAISES, nonsense=NONSENSE,
          floods=FLOODS, bad_import=BAD_IMPORT)
    (folder / "greedy_player.py").write_text(GREEDY_FILE.read_text())
    start = time.monotonic()
    results = tournament.run(folder, deals=2, limits=Limits(move_seconds=0.3, max_moves=2000), quiet=True)
    assert time.monotonic() - start < 90
    assert list(results.left_out) == ["bad_import"] and "RuntimeError: this file never loads" in results.left_out["bad_import"]
    reasons = {r["entrant"]: r["reason"] for r in results.rows}
    assert reasons["loops"].startswith("timed out: more than 0.3 s of CPU")
    assert reasons["allocates"].startswith("memory limit: MemoryError")
    assert reasons["crashes"].startswith("crashed: killed by signal 11")
    assert reasons["raises"].startswith("crashed: KeyError: 'no such pile' (line ")
    assert reasons["nonsense"].startswith("not a move: answered int 42")
    greedy = [r["outcome"] for r in results.rows if r["entrant"] == "greedy_player"]
    assert [r["outcome"] for r in results.rows if r["entrant"] == "floods"] == greedy  # a flood changes nothing
    assert reasons["floods"] == reasons["greedy_player"] == ""
    for name in ("loops", "allocates", "crashes", "raises", "nonsense"):
        assert [r["outcome"] for r in results.rows if r["entrant"] == name] == ["lost", "lost"]
    kinds = {(f["entrant"], f["failure"]) for f in results.failures()}
    assert ("loops", "timed out") in kinds and ("nonsense", "not a move") in kinds


def test_a_file_that_raises_on_import_is_named_in_one_line_by_the_command_line(tmp_path):
    folder = tmp_path / "class"
    write(folder, bad_import=BAD_IMPORT)
    (folder / "greedy_player.py").write_text(GREEDY_FILE.read_text())
    out = subprocess.run([sys.executable, "-m", "solitaire", "tournament", str(folder), "--deals", "2"],
                         capture_output=True, text=True, cwd=ROOT, env=os.environ | {"PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    lines = [line for line in out.stderr.splitlines() if "bad_import" in line]
    assert lines == ["left out bad_import: import failed: RuntimeError: this file never loads"]


# --- a notebook's own classes ----------------------------------------------------------------------------------
def test_strategy_objects_defined_in_a_notebook_travel_by_cloudpickle_and_stay_isolated(deals64):
    pytest.importorskip("cloudpickle")
    namespace = {"__name__": "__main__"}  # as a notebook cell defines it: not importable by another process
    exec(textwrap.dedent(GC_SCAN.replace("strategy = GcScan()", "")), namespace)
    cheater = namespace["GcScan"]()
    cheater.name = "notebook_gc_scan"
    assert play_game(KLONDIKE, deals64[0], cheater).outcome == "won"
    entry = tournament.entry_from_object(cheater)
    assert entry.kind == "pickle" and b"GcScan" in entry.payload  # the class itself travels, by value
    results = tournament.run([cheater], deals=1, seeds={"klondike": deals64[:1]}, limits=QUICK)
    assert [(r["entrant"], r["outcome"], r["reason"]) for r in results.rows] == [("notebook_gc_scan", "lost", "")]


# --- results: resumable, revealed, ranked ----------------------------------------------------------------------
KILLED = """
from solitaire import tournament
tournament.run({folder!r}, deals=20, out={out!r}, workers=1, quiet=True)
"""


def test_a_tournament_killed_with_sigkill_resumes_with_the_same_seeds(tmp_path):
    out = tmp_path / "class.sqlite"
    folder = str(SHIPPED)
    child = subprocess.Popen([sys.executable, "-c", KILLED.format(folder=folder, out=str(out))], cwd=ROOT,
                             env=os.environ | {"PYTHONPATH": str(ROOT)}, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while _games(out) < 10 and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
    with sqlite3.connect(out) as db:
        seeds_before = db.execute("SELECT variant, number, seed FROM deals ORDER BY number").fetchall()
        before = {r[:4]: r[4:] for r in db.execute("SELECT entrant, variant, number, seed, outcome, seconds FROM games")}
    assert len(seeds_before) == 20 and 10 <= len(before) < 80
    assert oct(os.stat(out).st_mode & 0o777) == "0o600"  # the seeds are secret until the games are played
    results = tournament.run(SHIPPED, deals=20, out=out, workers=2, quiet=True)
    with sqlite3.connect(out) as db:
        assert db.execute("SELECT variant, number, seed FROM deals ORDER BY number").fetchall() == seeds_before
        after = {r[:4]: r[4:] for r in db.execute("SELECT entrant, variant, number, seed, outcome, seconds FROM games")}
    assert len(results.rows) == len(after) == 80
    assert all(after[key] == value for key, value in before.items())  # kept, not played again
    assert {r["seed"] for r in results.rows} == {int(s) for _, _, s in seeds_before}


def _games(path: Path) -> int:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            return db.execute("SELECT count(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_the_command_line_prints_the_leaderboard_and_writes_the_table(tmp_path):
    table = tmp_path / "games.csv"
    out = subprocess.run([sys.executable, "-m", "solitaire", "tournament", str(SHIPPED), "--deals", "12", "--table",
                          str(table), "--out", str(tmp_path / "r.sqlite"), "--move-seconds", "1", "--memory-mb", "512",
                          "--all-pairs"], capture_output=True, text=True, cwd=ROOT,
                         env=os.environ | {"PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    assert "win rate" in out.stdout and "95% interval" in out.stdout and "every pair" in out.stdout
    # The deals are secret and new each run; the broken student fails about half of them, so 12 deals (not 3, which
    # it once played without a failure) leave it about one chance in 10,000 of failing none.
    assert "broken_student" in out.stdout.split("failures:")[1]
    with open(table, newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 4 * 12 and {"entrant", "variant", "seed", "outcome", "reason"} <= set(rows[0])
    for row in rows:  # every game can be replayed from its revealed seed
        if row["entrant"] == "greedy_player":
            assert str(play_game(KLONDIKE, int(row["seed"]), "greedy").outcome) == row["outcome"]


def test_the_leaderboard_ranks_by_wins_with_intervals_and_sign_tests():
    rows = [{"entrant": e, "variant": "klondike", "number": n, "outcome": "won" if w else "lost", "reason": ""}
            for e, results in (("a", [1] * 9 + [0]), ("b", [0] * 9 + [1]), ("c", [0] * 10)) for n, w in enumerate(results)]
    board = tournament.leaderboard(rows)
    assert [r["entrant"] for r in board] == ["a", "b", "c"]
    assert (board[0]["only_this"], board[0]["only_next"]) == (9, 1)
    assert board[0]["p_next"] == pytest.approx(0.021484375)
    assert board[0]["low"] < 0.9 < board[0]["high"]
    assert [p["p"] for p in tournament.pairs(rows) if p["first"] == "a" and p["second"] == "c"] == [pytest.approx(2 / 2 ** 9)]


# --- Dask -------------------------------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_real_dask_cluster_plays_the_games_with_entrants_isolated(tmp_path):
    distributed = pytest.importorskip("distributed")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    scheduler = subprocess.Popen(["dask", "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                                 env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = subprocess.Popen(["dask", "worker", address, "--nworkers", "1", "--nthreads", "2", "--no-dashboard"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    try:
        with distributed.Client(address, timeout=60) as client:
            client.wait_for_workers(1, timeout=60)
            seeds = {"klondike": [random.Random(7).getrandbits(64) for _ in range(3)]}
            entrants = [GREEDY_FILE, SHIPPED / "careful_student.py", SHIPPED / "broken_student.py"]
            local = tournament.run(entrants, deals=3, seeds=seeds, limits=QUICK, quiet=True)
            remote = tournament.run(entrants, deals=3, seeds=seeds, limits=QUICK, quiet=True,
                                    executor=client.get_executor())
            worker_pids = set(client.run(os.getpid).values())
        assert worker_pids and os.getpid() not in worker_pids
        strip = [[{k: v for k, v in r.items() if k != "seconds"} for r in res.rows] for res in (local, remote)]
        assert strip[0] == strip[1] and len(strip[0]) == 9
        out = subprocess.run([sys.executable, "-m", "solitaire", "tournament", str(SHIPPED), "--deals", "1",
                              "--scheduler", address], capture_output=True, text=True, env=env, cwd=ROOT)
        assert out.returncode == 0, out.stderr
        assert "greedy_player" in out.stdout
    finally:
        for process in (worker, scheduler):
            process.terminate()
        for process in (worker, scheduler):
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


def test_the_ranking_plot_keeps_the_players_colours_best_on_top():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from solitaire.plots import strategy_style, tournament_ranking
    board = tournament.leaderboard(
        [{"entrant": e, "variant": "klondike", "number": n, "outcome": "won" if n < w else "lost", "reason": ""}
         for e, w in (("greedy_player", 6), ("ada", 4), ("random_player", 2)) for n in range(10)])
    fig = tournament_ranking(board)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["random_player", "ada", "greedy_player"]
    colours = [container.lines[0].get_color() for container in ax.containers]  # each entrant's marker
    assert colours == [strategy_style("random")["color"], strategy_style("ada")["color"], strategy_style("greedy")["color"]]
    with pytest.raises(ValueError, match="play the tournament first"):
        tournament_ranking([])


# --- the sandbox: attackers that won or broke the tournament before it ---------------------------------------
# (tests/attackers.py holds them; each plays greedy when its trick finds nothing. Before the sandbox each of these
# worked: see the report of issue 39, where each was run against the tournament of that time.)
import tests.attackers as attackers  # noqa: E402
from solitaire.tournament import sandbox  # noqa: E402

needs_sandbox = pytest.mark.skipif(not detect().isolated, reason=detect().line)
needs_cgroups = pytest.mark.skipif(not detect().cgroups, reason="no cgroup for the entrants here (run as root)")
SANDBOXED = QUICK._replace(move_seconds=0.5, max_moves=500, game_seconds=20)


def attack(tmp_path: Path, name: str, source: str, *, deals: int = 2, limits: Limits = SANDBOXED, **kw):
    """A tournament of the attacker and the greedy player: the results, and what the attacker printed."""
    folder = tmp_path / "class"
    write(folder, **{name: source})
    (folder / "greedy_player.py").write_text(GREEDY_FILE.read_text())
    logs = tmp_path / "logs"
    logs.mkdir(exist_ok=True)
    before = sandbox.tree(os.getpid()).keys()  # earlier tests may have left helpers (multiprocessing's tracker)
    results = tournament.run(folder, deals=deals, limits=limits, logs=logs, quiet=True, **kw)
    log = logs / f"{name}.log"
    assert not sandbox.tree(os.getpid()).keys() - before  # nothing the entrants started is left
    return results, log.read_text(errors="replace") if log.exists() else ""


def outcomes(results, name: str) -> list[str]:
    return [r["outcome"] for r in results.rows if r["entrant"] == name]


def reasons(results, name: str) -> list[str]:
    return [r["reason"] for r in results.rows if r["entrant"] == name]


def greedy_outcomes(results) -> list[str]:
    return [str(play_game(KLONDIKE, r["seed"], "greedy", max_moves=SANDBOXED.max_moves).outcome)
            for r in results.rows if r["entrant"] == "greedy_player"]


@needs_sandbox
def test_the_seeds_cannot_be_read_from_the_results_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # as a teacher runs it: the results file in the working folder
    results, log = attack(tmp_path, "thief", attackers.SEED_THIEF, deals=4, out="class.sqlite")
    assert log.count("seeds found: 0") >= 4 and not re.search("seeds found: [1-9]", log)
    assert outcomes(results, "thief") == outcomes(results, "greedy_player") == greedy_outcomes(results)


@needs_sandbox
def test_other_entrants_files_the_teachers_files_and_environment_are_out_of_sight(tmp_path, monkeypatch):
    secret = tmp_path / "home" / "notes.txt"
    secret.parent.mkdir()
    secret.write_text("TEACHER-SECRET-7")
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "TOKEN-SECRET-8")
    folder = tmp_path / "class"
    source = attackers.SNOOP.format(folder=str(folder), secret=str(secret))
    results, log = attack(tmp_path, "snoop", source.replace("_greedy = GreedyStrategy()", "_greedy = GreedyStrategy()  # RIVAL-SECRET-9"))
    assert "cannot read" in log and "cannot list the home" in log
    for mark in ("TEACHER-SECRET-7", "TOKEN-SECRET-8", "GreedyStrategy()\nstrategy"):
        assert mark not in log
    assert outcomes(results, "snoop") == outcomes(results, "greedy_player")


@needs_sandbox
def test_an_entrant_cannot_kill_its_rivals(tmp_path):
    results, log = attack(tmp_path, "killer", attackers.KILLER, deals=4, workers=2)
    assert "killed" not in log
    assert not any(reasons(results, "greedy_player")) and not any(reasons(results, "killer"))
    assert outcomes(results, "greedy_player") == greedy_outcomes(results) == outcomes(results, "killer")


@needs_sandbox
def test_an_entrant_cannot_stop_or_kill_the_referee(tmp_path):
    folder = tmp_path / "class"
    write(folder, stopper=attackers.STOPPER)
    (folder / "greedy_player.py").write_text(GREEDY_FILE.read_text())
    out = subprocess.run([sys.executable, "-m", "solitaire", "tournament", str(folder), "--deals", "2"],
                         capture_output=True, text=True, cwd=ROOT, env=os.environ | {"PYTHONPATH": str(ROOT)},
                         timeout=120)
    assert out.returncode == 0, out.stderr
    board = {line.split()[1]: line.split()[3] for line in out.stdout.splitlines()[1:3]}
    assert board["stopper"] == board["greedy_player"]  # it played greedy's games, and lost none by its trick


@needs_cgroups
def test_cpu_spent_in_child_processes_counts(tmp_path):
    results, _ = attack(tmp_path, "child_thinker", attackers.CHILD_THINKER.format(seconds=1.2), deals=1,
                        limits=SANDBOXED._replace(wall_seconds=30, game_seconds=60))  # (a busy machine: CPU is slow to come)
    assert reasons(results, "child_thinker")[0].startswith("timed out: more than 0.5 s of CPU for a move")
    assert not any(reasons(results, "greedy_player"))


@needs_cgroups
def test_cpu_spent_in_threads_counts_and_gets_one_core(tmp_path):
    results, _ = attack(tmp_path, "threads", attackers.THREADS.format(seconds=1.2), deals=1,
                        limits=SANDBOXED._replace(wall_seconds=30, game_seconds=60))
    assert reasons(results, "threads")[0].startswith("timed out: more than 0.5 s of CPU for a move")
    assert not any(reasons(results, "greedy_player"))


@needs_cgroups
def test_a_fork_bomb_hits_the_process_limit(tmp_path):
    results, log = attack(tmp_path, "fork_bomb", attackers.FORK_BOMB, deals=2)
    assert "processes started: 300" not in log
    assert all(r.startswith("process limit: it tried to run more than 32 processes") for r in reasons(results, "fork_bomb"))
    assert not any(reasons(results, "greedy_player"))


@needs_sandbox
def test_sleeping_instead_of_thinking_hits_the_wall_clock(tmp_path):
    start = time.monotonic()
    results, _ = attack(tmp_path, "sleeper", attackers.SLEEPER.format(seconds=0.3), deals=2,
                        limits=SANDBOXED._replace(game_seconds=2))
    assert time.monotonic() - start < 30
    assert all(r.startswith("timed out: the game took more than 2 s") for r in reasons(results, "sleeper"))
    slow, _ = attack(tmp_path, "sleeper", attackers.SLEEPER.format(seconds=2.5), deals=1)
    assert reasons(slow, "sleeper") == ["timed out: no answer within 1.5 s for a move"]


@needs_cgroups
def test_memory_counts_for_all_the_entrants_processes_together(tmp_path):
    results, log = attack(tmp_path, "child_memory", attackers.CHILD_MEMORY.format(children=3, mb=200), deals=1,
                          limits=SANDBOXED._replace(memory_mb=400, move_seconds=5))  # touching 600 MB costs CPU
    assert reasons(results, "child_memory")[0].startswith("memory limit: its processes together went over 400 MB")
    assert not any(reasons(results, "greedy_player"))


@needs_sandbox
def test_an_entrant_that_fills_its_pipe_and_stops_reading_loses_and_the_referee_goes_on(tmp_path):
    results, _ = attack(tmp_path, "pipe_filler", attackers.PIPE_FILLER, deals=2)
    # as nobody, it may not even reopen its pipe (a process that changed user cannot open its /proc/self/fd)
    assert all(r == "not reading: its pipe from the referee stayed full" or r.startswith("crashed: PermissionError")
               for r in reasons(results, "pipe_filler"))
    assert len(reasons(results, "pipe_filler")) == 2
    assert outcomes(results, "greedy_player") == greedy_outcomes(results)


@needs_sandbox
def test_an_entrant_that_closes_duplicates_and_floods_its_pipe_loses_only_its_games(tmp_path):
    start = time.monotonic()
    results, _ = attack(tmp_path, "pipe_flood", attackers.PIPE_FLOOD, deals=2)
    assert time.monotonic() - start < 30
    assert reasons(results, "pipe_flood") == ["not a move: an answer longer than 64 KB"] * 2
    assert not any(reasons(results, "greedy_player"))


@needs_sandbox
def test_an_entrant_cannot_open_a_network_connection(tmp_path):
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.settimeout(0.5)
        source = attackers.NETWORK.format(port=server.getsockname()[1])
        results, log = attack(tmp_path, "network", source, deals=1)
        with pytest.raises(socket.timeout):
            server.accept()
    # under the seccomp filter an entrant makes no socket at all (before it, only its own loopback answered)
    assert "cannot connect: PermissionError" in log and "connected\n" not in log
    assert outcomes(results, "network") == outcomes(results, "greedy_player")


@needs_sandbox
def test_the_results_file_and_its_folder_cannot_be_tampered_with(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    results, log = attack(tmp_path, "tamper", attackers.TAMPER, deals=3, out="class.sqlite")
    assert "tampered with" not in log and not (tmp_path / "tampered.txt").exists()
    with sqlite3.connect(tmp_path / "class.sqlite") as db:
        seeds = {int(s) for (s,) in db.execute("SELECT seed FROM deals")}
        games = db.execute("SELECT count(*) FROM games WHERE entrant = 'greedy_player'").fetchone()[0]
    assert seeds == {r["seed"] for r in results.rows} and len(seeds) == 3 and games == 3


# --- the sandbox: what it says, and what it refuses --------------------------------------------------------------
def test_a_second_tournament_on_the_same_results_file_is_refused_in_one_line(tmp_path):
    out = tmp_path / "class.sqlite"
    first = tournament.ResultsFile(out)  # a tournament holds it
    try:
        run = subprocess.run([sys.executable, "-m", "solitaire", "tournament", str(SHIPPED), "--deals", "1", "--out",
                              str(out)], capture_output=True, text=True, cwd=ROOT,
                             env=os.environ | {"PYTHONPATH": str(ROOT)})
    finally:
        first.close()
    assert run.returncode != 0
    errors = [line for line in run.stderr.splitlines() if not line.startswith("sandbox:")]
    assert len(errors) == 1 and "is in use by another tournament now" in errors[0]


def test_without_a_sandbox_entrant_files_are_refused_unless_trusted(monkeypatch, tmp_path):
    none = sandbox.Sandbox(False, "", "sandbox: none on plan9: entrants would run as you, able to read your files")
    monkeypatch.setitem(sandbox._FOUND, "box", none)
    student = tmp_path / "greedy_player.py"  # a student's file: outside the kit
    student.write_text(GREEDY_FILE.read_text())
    with pytest.raises(ValueError, match=r"^none on plan9: .*refusing to run the entrant files \(greedy_player\) "
                                         r"unless you trust them: pass trust_entrants=True \(--trust-entrants\)$"):
        tournament.run(student, deals=1, quiet=True)
    results = tournament.run(student, deals=1, seeds={"klondike": [3]}, quiet=True, trust_entrants=True)
    assert [(r["outcome"], r["reason"]) for r in results.rows] == [("won", "")]
    kits_own = tournament.run(tournament.ENTRANTS / "greedy_player.py", deals=1, seeds={"klondike": [3]}, quiet=True)
    assert [(r["outcome"], r["reason"]) for r in kits_own.rows] == [("won", "")]  # the kit's examples are the kit's


def test_under_pyodide_isolation_is_stated_unavailable_in_one_line(monkeypatch):
    monkeypatch.setattr(sys, "platform", "emscripten")
    box = sandbox._detect()
    assert not box.isolated and "\n" not in box.line
    assert box.line.startswith("sandbox: none: isolation is not available under Pyodide")


def test_the_command_line_saves_the_ranking_plot(tmp_path):
    pytest.importorskip("matplotlib")
    plot = tmp_path / "ranking.png"
    out = subprocess.run([sys.executable, "-m", "solitaire", "tournament", str(SHIPPED), "--deals", "2", "--plot",
                          str(plot)], capture_output=True, text=True, cwd=ROOT, env=os.environ | {"PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out.stderr.splitlines()[0] == detect().line


# --- the sandbox: no channel between entrants, none to the host (issue 54) -------------------------------------
# Each attacker below is a real entrant file (tests/attackers.py). Each won or broke the tournament before the
# seccomp filter, the user ids of their own, the budgets and the escaping (see the report of issue 54, where each
# was run against the tournament of that time); each test runs it as root (or as whoever runs the tests) and, when
# the tests run as root, as a plain user too (the "user" case), since a teacher without root gets other limits.
import copy  # noqa: E402
import json  # noqa: E402
import pwd  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

COLLUDING_DEALS = attackers.COLLUDING_DEALS  # three of random.Random(54)'s 64-bit draws: greedy loses each, and the
# cheat wins each in this process once it has the scout's records (both checked below)
PLAIN_USER = "solitaire-test"
DRIVER = """
import json, sys
from solitaire import tournament
a = json.loads(sys.argv[1])
r = tournament.run(a["folder"], deals=a["deals"], seeds=a["seeds"], limits=tournament.Limits(**a["limits"]),
                   logs=a["logs"], out=a["out"], quiet=True)
print(json.dumps({"rows": r.rows, "left_out": r.left_out, "line": tournament.detect().line}))
"""


def plain_user() -> tuple[str, str]:
    """A user without privileges (made if missing) and a Python it can run the kit with; skips when the tests do
    not run as root (then they ran as a plain user already) or where no such user or Python can be had."""
    if os.geteuid() != 0:
        pytest.skip("the tests run as a plain user already: the other case of this test was one")
    try:
        pwd.getpwnam(PLAIN_USER)
    except KeyError:
        made = subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/bin/false", PLAIN_USER],
                              capture_output=True, text=True)
        if made.returncode != 0:
            pytest.skip(f"cannot make the user {PLAIN_USER}: {made.stderr.strip()[:100]}")
    for python in (sys.executable, "/usr/bin/python3"):
        probe = subprocess.run(["runuser", "-u", PLAIN_USER, "--", python, "-c", "import solitaire.tournament"],
                               capture_output=True, env={"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT)}, cwd="/")
        if probe.returncode == 0:
            return PLAIN_USER, python
    pytest.skip(f"no Python here that the user {PLAIN_USER} may run with the kit")


def play(tmp_path: Path, files: dict[str, str], *, as_user: bool, deals: int = 2, seeds=None, limits=SANDBOXED,
         out: bool = False, greedy: bool = True):
    """A tournament of the files (and the greedy player), as root (or whoever runs the tests: in this process) or
    as a plain user (in a process of its own): its rows, the left out, and each entrant's log by name."""
    folder = Path(tempfile.mkdtemp(prefix="solitaire-attack-")) if as_user else tmp_path / "run"
    try:
        folder.mkdir(exist_ok=True)
        write(folder / "class", **files)
        if greedy:
            (folder / "class" / "greedy_player.py").write_text(GREEDY_FILE.read_text())
        (folder / "logs").mkdir()
        args = {"folder": str(folder / "class"), "deals": deals, "seeds": {"klondike": seeds} if seeds else None,
                "limits": limits._asdict(), "logs": str(folder / "logs"), "out": str(folder / "r.sqlite") if out else None}
        if as_user:
            user, python = plain_user()
            shutil.chown(folder, user)
            for path in folder.rglob("*"):
                shutil.chown(path, user)
            done = subprocess.run(["runuser", "-u", user, "--", python, "-c", DRIVER, json.dumps(args)], cwd=folder,
                                  capture_output=True, text=True, timeout=600,
                                  env={"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT), "HOME": str(folder)})
            assert done.returncode == 0, done.stderr[-2000:]
            found = json.loads(done.stdout)
            if not found["line"].startswith("sandbox: bubblewrap"):
                pytest.skip(f"as {user}: {found['line']}")
            results = tournament.Results(found["rows"], found["left_out"])
        else:
            before = sandbox.tree(os.getpid()).keys()
            results = tournament.run(args["folder"], deals=deals, seeds=args["seeds"], limits=limits,
                                     logs=args["logs"], out=args["out"], quiet=True)
            assert not sandbox.tree(os.getpid()).keys() - before  # nothing the entrants started is left
        logs = {p.stem: p.read_text(errors="replace") for p in (folder / "logs").glob("*.log")}
        return results, logs
    finally:
        if as_user:
            shutil.rmtree(folder, ignore_errors=True)


def load_source(source: str, name: str):
    module = types.ModuleType(name)
    module.__file__ = f"{name}.py"
    exec(compile(source, f"{name}.py", "exec"), module.__dict__)
    return module.strategy


@pytest.fixture(scope="module")
def colluding_deals(tmp_path_factory):
    """The deals on which the cheat beats greedy once the scout's records reach it (here: through a folder, in
    this process, each a fresh copy a game as the tournament gives)."""
    records = str(tmp_path_factory.mktemp("records"))
    scout, cheat = (load_source(attackers.colluder(role, "folder", folder=records), role) for role in ("Scout", "Cheat"))
    for seed in COLLUDING_DEALS:
        assert play_game(KLONDIKE, seed, "greedy").outcome != "won"
        play_game(KLONDIKE, seed, copy.deepcopy(scout))
        assert play_game(KLONDIKE, seed, copy.deepcopy(cheat), max_moves=SANDBOXED.max_moves).outcome == "won"
    return COLLUDING_DEALS


@needs_sandbox
@pytest.mark.parametrize("channel", ["keyring", "page_cache"])
@pytest.mark.parametrize("as_user", [False, True], ids=["root", "user"])
def test_colluding_entrants_pass_nothing_through_the_kernel(tmp_path, channel, as_user, colluding_deals):
    files = {"a_scout": attackers.colluder("Scout", channel), "b_cheat": attackers.colluder("Cheat", channel)}
    results, logs = play(tmp_path, files, as_user=as_user, deals=len(colluding_deals), seeds=colluding_deals,
                         limits=SANDBOXED._replace(move_seconds=2.0, game_seconds=30))
    assert wins(results, "b_cheat") <= wins(results, "greedy_player") == 0
    assert logs["b_cheat"].count("cards found for this deal: 0") == len(colluding_deals)
    refused = "add_key refused: 1" if channel == "keyring" else "cannot write in the page cache: PermissionError"
    assert refused in logs["a_scout"]  # (EPERM: the seccomp filter's answer)
    assert not any(r["reason"] for r in results.rows)


@needs_sandbox
@pytest.mark.skipif(platform.machine() not in ("x86_64", "aarch64"), reason="the attacker knows these machines' calls")
@pytest.mark.parametrize("as_user", [False, True], ids=["root", "user"])
def test_the_teachers_session_keyring_is_out_of_reach(tmp_path, as_user):
    """A token in the session keyring of whoever starts the tournament (as pam_keyinit sets one up at login)."""
    folder = Path(tempfile.mkdtemp(prefix="solitaire-token-")) if as_user else tmp_path
    try:
        write(folder / "class", token_reader=attackers.TOKEN_READER)
        keep_token = f"""
import ctypes, platform
libc = ctypes.CDLL(None, use_errno=True)
add_key, keyctl = {{"x86_64": (248, 250), "aarch64": (217, 219)}}[platform.machine()]
assert libc.syscall(keyctl, ctypes.c_long(1), b"teacher-login") >= 0  # KEYCTL_JOIN_SESSION_KEYRING
assert libc.syscall(add_key, b"user", b"solitaire-teacher-token", b"TOKEN-SECRET-54", ctypes.c_long(15), ctypes.c_long(-3)) >= 0
from solitaire import tournament
tournament.run({str(folder / "class")!r}, deals=1, logs={str(folder)!r}, quiet=True)
"""
        command, env = [sys.executable, "-c", keep_token], os.environ | {"PYTHONPATH": str(ROOT)}
        if as_user:
            user, python = plain_user()
            for path in (folder, *folder.rglob("*")):
                shutil.chown(path, user)
            command = ["runuser", "-u", user, "--", python, "-c", keep_token]
            env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT), "HOME": str(folder)}
        done = subprocess.run(command, capture_output=True, text=True, cwd=folder, env=env, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        log = (folder / "token_reader.log").read_text()
        assert "TOKEN-SECRET-54" not in log and "read" not in log.replace("nothing read", "")
        assert log.count("nothing read (errno 1)") == 3  # EPERM, from the seccomp filter
    finally:
        if as_user:
            shutil.rmtree(folder, ignore_errors=True)


@needs_sandbox
@pytest.mark.parametrize("as_user", [False, True], ids=["root", "user"])
def test_an_entrant_that_loads_slowly_and_keeps_failing_forfeits_in_bounded_time(tmp_path, as_user):
    limits = SANDBOXED._replace(move_seconds=0.3, load_seconds=2, game_seconds=1.5)  # a move: 1.3 s of wall time
    slow = attackers.SLOW_LOADER.format(load=1.2, slow_moves=2, move=0.6)
    start = time.monotonic()
    results, _ = play(tmp_path, {"slow_loader": slow}, as_user=as_user, deals=20, limits=limits)
    took = time.monotonic() - start
    rows = [r for r in results.rows if r["entrant"] == "slow_loader"]
    played = [r for r in rows if not r["reason"].startswith("forfeited")]
    # its first game ends on its non-move (no strike), or, on a busy machine, on the game's time; then each reload
    # runs out of the game's time
    assert len(rows) == 20 and limits.failures <= len(played) <= 1 + limits.failures
    assert played[0]["reason"].startswith(("not a move: answered int 42", "timed out: the game took more than 1.5 s"))
    assert all(r["reason"].startswith("timed out: the game took more than 1.5 s, its reload after a failure included")
               for r in played[1:])
    assert rows[-1]["reason"] == "forfeited: it lost 3 games to its limits (time, memory, processes), so it plays no more"
    budget = limits.load_seconds + 20 * limits.game_seconds
    assert sum(r["seconds"] for r in rows) < budget
    assert not any(reasons(results, "greedy_player"))
    assert took < 60  # (before the budgets: a fresh load for each of the 20 games, about 54 s for its games alone)


@needs_sandbox
@pytest.mark.parametrize("as_user", [False, True], ids=["root", "user"])
def test_an_entrant_uses_up_at_most_its_budget_for_the_tournament(tmp_path, as_user):
    limits = SANDBOXED._replace(move_seconds=0.3, game_seconds=1.0, entrant_seconds=4.0)
    results, _ = play(tmp_path, {"sleeper": attackers.SLEEPER.format(seconds=0.2)}, as_user=as_user, deals=8,
                      limits=limits)
    rows = [r for r in results.rows if r["entrant"] == "sleeper"]
    kinds = [r["reason"].split(":")[0] for r in rows]
    assert kinds[-1] == "forfeited" and set(kinds) <= {"timed out", "forfeited"}
    assert rows[-1]["reason"] == "forfeited: it used up its 4 s for the tournament (loads and games)" or \
        rows[-1]["reason"].startswith("forfeited: it lost 3 games")
    assert sum(r["seconds"] for r in rows) < 4.0 + limits.game_seconds + 1


def _controls(text: str) -> set[str]:
    return {c for c in text if not c.isprintable() and c != "\n"}


@needs_sandbox
@pytest.mark.parametrize("as_user", [False, True], ids=["root", "user"])
def test_no_control_character_from_an_entrant_reaches_the_screen_or_the_tables(tmp_path, as_user):
    files = {"escapes": attackers.ESCAPES, "red\x1b[31mname\u202e": GREEDY_FILE.read_text()}
    results, _ = play(tmp_path, files, as_user=as_user, deals=2, out=True)
    shown = tournament.report(results)
    assert not _controls(shown) and "\\x1b[2J" in shown and "red\\x1b[31mname" in shown
    assert "red\\x1b[31mname\\u202e" in {r["entrant"] for r in results.rows}
    assert all(r.startswith("crashed: \\x1b[2J\\x1b[H") for r in reasons(results, "escapes"))
    table = tmp_path / "games.csv"
    tournament.write_table(results, table)
    assert not _controls(table.read_text(encoding="utf-8").replace("\r\n", "\n"))
    if not as_user:  # the command line, its games table and its results file
        folder = tmp_path / "run" / "class"
        out = subprocess.run([sys.executable, "-m", "solitaire", "tournament", str(folder), "--deals", "2", "--table",
                              str(tmp_path / "cli.csv"), "--out", str(tmp_path / "cli.sqlite")], capture_output=True,
                             text=True, cwd=ROOT, env=os.environ | {"PYTHONPATH": str(ROOT)}, timeout=300)
        assert out.returncode == 0, out.stderr
        assert not _controls(out.stdout + out.stderr) and "failures: none" not in out.stdout
        assert not _controls((tmp_path / "cli.csv").read_text(encoding="utf-8").replace("\r\n", "\n"))
        with sqlite3.connect(tmp_path / "cli.sqlite") as db:
            stored = " ".join(f"{e} {r}" for e, r in db.execute("SELECT entrant, reason FROM games"))
        assert "\\x1b" in stored and not _controls(stored)


@needs_sandbox
@pytest.mark.parametrize("kind", ["files", "sockets"])
@pytest.mark.parametrize("as_user", [False, True], ids=["root", "user"])
def test_memory_outside_the_processes_is_bounded(tmp_path, kind, as_user):
    limits = SANDBOXED._replace(memory_mb=200)  # the attacker tries to hold three times as much
    source = (attackers.FILES_MEMORY if kind == "files" else attackers.SOCKET_MEMORY).format(mb=600)
    results, logs = play(tmp_path, {"hoarder": source}, as_user=as_user, deals=1, limits=limits)
    held = {place: int(n) for n, place in re.findall(r"(?:stored|queued) (\d+) MB in (\S+)", logs["hoarder"])}
    reason = reasons(results, "hoarder")[0]  # (the last figure for each place, in millions of bytes)
    assert held and (sum(held.values()) * 10 ** 6 <= limits.tmp_mb() << 20 or reason.startswith("memory limit"))
    if kind == "sockets":
        assert "sockets stopped by PermissionError" in logs["hoarder"] and held == {"sockets": 0}
    else:
        assert held["/dev/shm"] == held["/"] == 0 and 0 < held["/tmp"] * 10 ** 6 <= limits.tmp_mb() << 20
    assert not any(reasons(results, "greedy_player"))


def test_the_results_file_and_its_write_ahead_log_are_private_while_a_tournament_runs(tmp_path):
    out = tmp_path / "class.sqlite"
    store = tournament.ResultsFile(out)
    try:
        store.seeds("klondike", KLONDIKE, 3)  # the seeds, in the write-ahead log until it is checkpointed
        modes = {end: oct(os.stat(f"{out}{end}").st_mode & 0o777) for end in ("", "-wal", "-shm")}
        assert modes == {"": "0o600", "-wal": "0o600", "-shm": "0o600"}
        if os.geteuid() == 0:  # another user cannot read any of them, even in a folder open to all
            user, _ = plain_user()
            tmp_path.chmod(0o755)
            for end in ("", "-wal", "-shm"):
                read = subprocess.run(["runuser", "-u", user, "--", "cat", f"{out}{end}"], capture_output=True)
                assert read.returncode != 0 and b"Permission denied" in read.stderr
    finally:
        store.close()
    out.chmod(0o644)  # a results file made by an earlier version: made private again when it is next used
    tournament.ResultsFile(out).close()
    assert oct(os.stat(out).st_mode & 0o777) == "0o600"


@needs_sandbox
@pytest.mark.parametrize("as_user", [False, True], ids=["root", "user"])
def test_an_entrant_has_no_capability_and_sees_no_host_folder(tmp_path, as_user):
    results, logs = play(tmp_path, {"inspector": attackers.INSPECTOR, "inspector2": attackers.INSPECTOR},
                         as_user=as_user, deals=1, out=True)
    first, second = logs["inspector"], logs["inspector2"]
    for log in (first, second):
        assert re.search(r"CapBnd:\s+0000000000000000", log) and re.search(r"CapEff:\s+0000000000000000", log)
        assert re.search(r"Seccomp:\s+2", log)  # a filter
        cmdline = re.search(r"/proc/1/cmdline: ([^\n]*)", log).group(1)
        assert cmdline.startswith("bwrap --args ") and "--ro-bind" not in cmdline
        for host in ("solitaire-attack-", str(tmp_path), "r.sqlite", "/logs", "greedy_player"):
            assert host not in log  # no folder of the results, the entrants or the logs
    if not as_user:  # a user id of its own each, no account's
        uids = [re.search(r"Uid:\s+(\d+)", log).group(1) for log in (first, second)]
        assert uids[0] != uids[1] and all(int(u) >= sandbox.UIDS for u in uids)


@needs_sandbox
@pytest.mark.parametrize("as_user", [False, True], ids=["root", "user"])
def test_every_shared_kernel_facility_is_refused(tmp_path, as_user):
    results, logs = play(tmp_path, {"probe": attackers.PROBE}, as_user=as_user, deals=1, greedy=False)
    said = dict(re.findall(r"^(\w+): (open|refused)$", logs["probe"], re.M))
    assert len(said) == 18 and set(said.values()) == {"refused"}, said
    assert reasons(results, "probe") == [""]  # and it plays on


@needs_sandbox
def test_wrap_and_start_run_a_command_in_a_sandbox_for_any_caller(tmp_path):
    """``wrap`` (bubblewrap's plain command line, as before) and ``start`` (with the filter and the options out of
    sight) are what another caller, such as a checker of students' answers, runs untrusted code with."""
    code = ("import os; print(os.path.exists(%r), ','.join(sorted(os.listdir('/tmp'))) or '-', "
            "open('/proc/self/status').read().count('Seccomp:\\t2'))")
    secret = tmp_path / "hidden"
    secret.mkdir()
    plain = subprocess.run(sandbox.wrap([sys.executable, "-c", code % str(secret)], [str(secret)]),
                           capture_output=True, text=True, env=sandbox.sandbox_env(), timeout=60)
    # the sandbox's /tmp is empty but for the way to Python and the kit where they live under /tmp (a clone there)
    bound = ",".join(sorted({d.split("/")[2] for d in sandbox._python_dirs() if d.startswith("/tmp/")})) or "-"
    assert plain.returncode == 0 and plain.stdout.split() == ["False", bound, "0"], plain.stderr
    started = sandbox.start([sys.executable, "-c", code % str(secret)], [str(secret)], env=sandbox.sandbox_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = started.communicate(timeout=60)
    assert started.returncode == 0 and out.decode().split() == ["False", bound, "1"], err
