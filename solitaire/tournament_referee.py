"""The referee's side of a tournament: an entrant's process, and the games played against it.

``EntrantProcess`` starts one entrant (``solitaire.tournament_entrant``) in a fresh interpreter (never a fork:
the process holds no Position and never saw a seed) and asks it one decision at a time, with a deadline.
``play_games`` is the task a worker (a local process, or a Dask worker) runs: it deals each seed in this
process, plays the games against one entrant process, and restarts that process after any failure.
"""
from __future__ import annotations

import contextlib
import os
import pickle
import select
import subprocess
import sys
import threading
import time
from typing import NamedTuple

from .endgame import LOST, MOVE_LIMIT, WON, over_reason
from .moves import apply, is_won, legal_moves
from .state import deal
from .strategies import fresh_moves, position_key
from .state import Observation
from .tournament_entrant import HEADER, MOST_LINE, encode_observation, encode_position

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
# numpy's maths libraries start a thread a core, each with its own stack: one thread keeps a student's numpy
# well inside the entrant's memory limit on a machine with many cores
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


class Limits(NamedTuple):
    """What an entrant may use: CPU seconds a move, moves a game, memory (MB), output (bytes), and the seconds
    its file may take to load."""

    move_seconds: float = 1.0
    max_moves: int = 5000
    memory_mb: int = 1024
    output_bytes: int = 1_000_000
    load_seconds: float = 30.0


class Entry(NamedTuple):
    """An entrant as sent to a worker: its name, how to load it (``"source"`` with (text, file name), or
    ``"pickle"`` with bytes) and a fingerprint of that code (a changed entrant is a new one)."""

    name: str
    kind: str
    payload: object
    fingerprint: str


class EntrantFailure(Exception):
    """The entrant lost the game: the message is the table's ``reason``."""


class EntrantProcess:
    """One entrant in its own process, asked one decision at a time.

    >>> from solitaire import KLONDIKE
    >>> from solitaire.moves import legal_moves
    >>> from solitaire.state import deal, observe
    >>> entrant = EntrantProcess(Entry("first", "source", ("def choose(obs, moves):\\n    return moves[0]\\n",
    ...                                                     "first.py"), "-"), Limits())
    >>> entrant.start()
    'first'
    >>> p = deal(KLONDIKE, 1)
    >>> entrant.new_game(KLONDIKE)
    >>> entrant.ask(observe(p), legal_moves(p))  # the index of its move among those offered
    0
    >>> entrant.stop()
    """

    def __init__(self, entry: Entry, limits: Limits, log: str | None = None) -> None:
        self.entry, self.limits, self.log = entry, limits, log
        self.proc: subprocess.Popen | None = None
        self.use_rank = False
        self.buffer = b""

    def start(self) -> str:
        """Start the process and load the entrant; returns its own name (``EntrantFailure`` if it cannot load)."""
        down_r, down_w = os.pipe()
        up_r, up_w = os.pipe()
        lim = self.limits
        cpu_backstop = int(lim.move_seconds * lim.max_moves + lim.load_seconds + 60)
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "solitaire.tournament_entrant", str(down_r), str(up_w), str(lim.memory_mb),
                 str(cpu_backstop), str(lim.output_bytes)],
                pass_fds=(down_r, up_w), stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True,
                env=os.environ | ONE_THREAD)
        finally:
            os.close(down_r)
            os.close(up_w)
            if out is not subprocess.DEVNULL:
                out.close()
        self.down, self.up, self.buffer = down_w, up_r, b""
        self._send((self.entry.kind, self.entry.payload, self.entry.name))
        kind, _, rest = self._answer(lim.load_seconds, lim.load_seconds, "to load").partition(b" ")
        if kind != b"ok":
            raise EntrantFailure(f"import failed: {rest.partition(b' ')[2].decode(errors='replace')}")
        self.use_rank = rest[:1] == b"1"
        return rest[2:].decode(errors="replace")

    def new_game(self, variant) -> None:
        self._send(("game", variant))

    def ask(self, obs, moves: list) -> object:
        """The entrant's answer to one decision: a move's index, a list of indices (``rank``), or None (resign).
        ``obs`` is an ``Observation``, or the referee's ``Position`` (only what a player sees of it is sent)."""
        seen = encode_observation(obs) if isinstance(obs, Observation) else encode_position(obs)
        self._send(("move", seen, tuple(map(tuple, moves))))
        lim = self.limits
        answer = self._answer(lim.move_seconds, max(5 * lim.move_seconds, lim.move_seconds + 2), "for a move")
        kind, _, rest = answer.partition(b" ")
        try:
            if kind == b"m" and not self.use_rank:
                i = int(rest)
                if 0 <= i < len(moves):
                    return i
            elif kind == b"r" and self.use_rank:
                order = [int(i) for i in rest.split()]
                if all(0 <= i < len(moves) for i in order):
                    return order
            elif kind == b"x" and not rest:
                return None
        except ValueError:
            pass
        if kind == b"f":
            why, _, text = rest.partition(b" ")
            reason = {b"crash": "crashed", b"memory": "memory limit", b"illegal": "illegal answer"}.get(why, "not a move")
            raise EntrantFailure(f"{reason}: {text.decode(errors='replace')}"[:300])
        raise EntrantFailure(self._kill(f"not a move: answered {answer[:60].decode(errors='replace')!r}"))

    def _send(self, message) -> None:
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            os.write(self.down, HEADER.pack(len(data)) + data)
        except OSError:
            raise EntrantFailure(self._death("its process ended")) from None

    def _answer(self, cpu_seconds: float, wall_seconds: float, what: str) -> bytes:
        """Read one line; give up after ``cpu_seconds`` of the entrant's CPU or ``wall_seconds`` of waiting."""
        start = time.monotonic()
        cpu_start = None
        while b"\n" not in self.buffer:
            waited = time.monotonic() - start
            if cpu_start is None and waited >= 0.05:  # a slow answer: from now on, count its CPU too
                cpu_start = self._cpu() - waited
            if cpu_start is not None and self._cpu() - cpu_start > cpu_seconds:
                raise EntrantFailure(self._kill(f"timed out: more than {cpu_seconds:g} s of CPU {what}"))
            if waited > wall_seconds:
                raise EntrantFailure(self._kill(f"timed out: no answer within {wall_seconds:g} s {what}"))
            step = 0.05 if cpu_start is None else min(0.1, max(0.01, cpu_seconds / 10))
            ready, _, _ = select.select([self.up], [], [], step)
            if ready:
                chunk = os.read(self.up, MOST_LINE)
                if not chunk:
                    raise EntrantFailure(self._death("crashed"))
                self.buffer += chunk
                if len(self.buffer) > MOST_LINE:
                    raise EntrantFailure(self._kill("not a move: an answer longer than 64 KB"))
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def _cpu(self) -> float:
        """The entrant process's CPU seconds so far (Linux); elsewhere 0, and only the wall-clock limit holds."""
        try:
            with open(f"/proc/{self.proc.pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / TICKS
        except (OSError, IndexError, ValueError):
            return 0.0

    def _death(self, what: str) -> str:
        """Why the process ended (it is waited for), as a reason."""
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return self._kill(what)
        self.stop()
        if code == -9:
            return f"{what}: killed (signal 9, the memory or CPU limit)"
        if code == -24:
            return f"{what}: CPU limit (signal 24)"
        return f"{what}: exit code {code}" if code >= 0 else f"{what}: killed by signal {-code}"

    def _kill(self, reason: str) -> str:
        self.stop()
        return reason

    def stop(self) -> None:
        """End the process (at once: it may be looping) and close the pipes."""
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, 9)  # the entrant's own session: its children go too
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            self.proc.wait()
            for fd in (self.down, self.up):
                with contextlib.suppress(OSError):
                    os.close(fd)
            self.proc = None


def referee_game(entrant: EntrantProcess, variant, seed: int, max_moves: int) -> tuple[str, int, object]:
    """Play one deal against the entrant, as ``play_game`` does (no position twice); the outcome, the moves
    played and the final position. ``EntrantFailure`` propagates (the game is lost).

    >>> from solitaire import KLONDIKE
    >>> entrant = EntrantProcess(Entry("greedy", "source", ("from solitaire.players import GreedyStrategy\\n"
    ...                                                      "strategy = GreedyStrategy()\\n", "greedy.py"), "-"), Limits())
    >>> _ = entrant.start()
    >>> outcome, moves, end = referee_game(entrant, KLONDIKE, 3, 5000)
    >>> entrant.stop()
    >>> from solitaire.strategies import play_game
    >>> (outcome, moves) == (play_game(KLONDIKE, 3, "greedy").outcome, play_game(KLONDIKE, 3, "greedy").moves)
    True
    """
    p = deal(variant, seed)
    seen = {position_key(p)}
    entrant.new_game(variant)
    outcome, played = MOVE_LIMIT, 0
    while played < max_moves:
        if is_won(p):
            outcome = WON
            break
        moves = legal_moves(p)
        if over_reason(p, moves) is not None:
            outcome = LOST
            break
        if entrant.use_rank:
            order = entrant.ask(p, moves)  # only what a player sees of p is sent
            q = next((q for q in (apply(p, moves[i]) for i in order or ()) if position_key(q) not in seen), None)
        else:
            fresh = fresh_moves(p, seen, moves)
            choice = entrant.ask(p, [m for m, _ in fresh]) if fresh else None
            q = None if choice is None else fresh[choice][1]
        if q is None:  # nothing fresh, nothing the entrant will play, or it resigned
            outcome = LOST
            break
        p = q
        seen.add(position_key(p))
        played += 1
    else:
        if is_won(p):
            outcome = WON
    return outcome, played, p


def play_games(entry: Entry, label: str, variant, deals: list[tuple[int, int]], limits: Limits,
               log: str | None = None) -> list[dict]:
    """Play the deals ``[(number, seed), ...]`` against one entrant: one row each (a task for a worker).

    >>> from solitaire import KLONDIKE
    >>> bad = Entry("bad", "source", ("def choose(obs, moves):\\n    return 'jump'\\n", "bad.py"), "-")
    >>> [(r["outcome"], r["reason"][:45]) for r in play_games(bad, "klondike", KLONDIKE, [(0, 7)], Limits())]
    [('lost', "not a move: cannot read a move from 'jump': w")]
    """
    rows = []
    entrant = EntrantProcess(entry, limits, log)
    with referee_memory_hidden():
        try:
            for number, seed in deals:
                start = time.perf_counter()
                reason, outcome, played, on_foundations = "", LOST, 0, 0
                try:
                    if entrant.proc is None:
                        entrant.start()
                    outcome, played, p = referee_game(entrant, variant, seed, limits.max_moves)
                    on_foundations = p.on_foundations()
                except EntrantFailure as e:
                    reason = str(e)
                    entrant.stop()
                rows.append({"entrant": entry.name, "fingerprint": entry.fingerprint, "variant": label,
                             "number": number, "seed": seed, "outcome": str(outcome), "reason": reason,
                             "moves": played, "on_foundations": on_foundations,
                             "seconds": time.perf_counter() - start})
        finally:
            entrant.stop()
    return rows


_HIDDEN = {"users": 0, "before": 1}  # referees (threads) playing now, and the flag to restore after the last
_HIDDEN_LOCK = threading.Lock()


@contextlib.contextmanager
def referee_memory_hidden():
    """While games are played, make this process non-dumpable (Linux): then no process without CAP_SYS_PTRACE,
    not even one of the same user, can read its memory through /proc/<pid>/mem (the entrants drop that
    capability). Several referee threads may play at once: the flag is restored after the last one.

    >>> with referee_memory_hidden():
    ...     open(f"/proc/{os.getpid()}/status").read().count("Name") if sys.platform == "linux" else 1
    1
    """
    try:
        import ctypes
        prctl = ctypes.CDLL(None).prctl
    except (OSError, AttributeError):
        yield
        return
    with _HIDDEN_LOCK:
        if _HIDDEN["users"] == 0:
            _HIDDEN["before"] = prctl(3, 0, 0, 0, 0)  # PR_GET_DUMPABLE
            prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE: 0
        _HIDDEN["users"] += 1
    try:
        yield
    finally:
        with _HIDDEN_LOCK:
            _HIDDEN["users"] -= 1
            if _HIDDEN["users"] == 0:
                prctl(4, _HIDDEN["before"] if _HIDDEN["before"] in (0, 1) else 1, 0, 0, 0)
