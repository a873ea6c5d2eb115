"""The referee's side of a tournament: an entrant's process, and the games played against it.

``EntrantProcess`` starts one entrant (``solitaire.tournament.entrant``) in a fresh interpreter (never a fork:
the process holds no Position and never saw a seed), in a sandbox of its own where this machine has one
(``solitaire.tournament.sandbox``), and asks it one decision at a time, with limits on CPU (all its processes
and threads), wall-clock time (a move, and a game), memory and processes. ``play_games`` is the task a worker (a
local thread, or a Dask worker) runs: it deals each seed in this process, plays the games through the kit's one
game loop (``strategies.game_loop``, as ``play_game`` does), ends whatever the entrant started when each game
ends, and restarts the entrant after any failure.
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

from ..endgame import LOST
from ..state import Observation, deal
from ..strategies import game_loop
from .sandbox import Cgroup, children, NOBODY, Sandbox, detect, kill_tree, sandbox_env, tree, wrap
from .entrant import HEADER, MOST_LINE, encode_observation, encode_position

# numpy's maths libraries start a thread a core, each with its own stack: one thread keeps a student's numpy
# well inside the entrant's memory limit on a machine with many cores
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
JOIN = 'for f in $SOLITAIRE_CGROUP; do echo $$ > "$f" || exit 97; done; unset SOLITAIRE_CGROUP; exec "$@"'


class Limits(NamedTuple):
    """What an entrant may use: CPU seconds a move (all its processes and threads), moves a game, memory (MB,
    all its processes together), output (bytes), seconds to load its file, wall-clock seconds a move (default
    ``max(3 * move_seconds, move_seconds + 1)``) and a game, processes at once, and whether to run entrant files
    where there is no sandbox (``trust_entrants``)."""

    move_seconds: float = 1.0
    max_moves: int = 5000
    memory_mb: int = 1024
    output_bytes: int = 1_000_000
    load_seconds: float = 30.0
    wall_seconds: float | None = None
    game_seconds: float = 5.0
    processes: int = 32
    trust_entrants: bool = False

    def move_wall(self) -> float:
        return self.wall_seconds or max(3 * self.move_seconds, self.move_seconds + 1)


class Entry(NamedTuple):
    """An entrant as sent to a worker: its name, how to load it (``"source"`` with (text, file name), or
    ``"pickle"`` with bytes) and a fingerprint of that code (a changed entrant is a new one)."""

    name: str
    kind: str
    payload: object
    fingerprint: str


KIT_ENTRANTS = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "entrants")


def untrusted(entry: Entry) -> bool:
    """Whether the entry is a file from outside the kit: only such code needs a sandbox before it runs (a strategy
    object is the caller's own, and the kit's example entrants are the kit's).

    >>> untrusted(Entry("greedy_player", "source", ("", os.path.join(KIT_ENTRANTS, "greedy_player.py")), "-"))
    False
    >>> untrusted(Entry("me", "source", ("", "/home/class/me.py"), "-"))
    True
    """
    return entry.kind == "source" and os.path.dirname(os.path.realpath(entry.payload[1])) != KIT_ENTRANTS


class EntrantFailure(Exception):
    """The entrant lost the game: the message is the table's ``reason``."""


class EntrantProcess:
    """One entrant in its own process (in a sandbox where there is one), asked one decision at a time.

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

    def __init__(self, entry: Entry, limits: Limits, log: str | None = None, hidden: tuple = ()) -> None:
        self.entry, self.limits, self.log, self.hidden = entry, limits, log, list(hidden)
        self.proc: subprocess.Popen | None = None
        self.cgroup: Cgroup | None = None
        self.use_rank, self.buffer, self.main, self.events = False, b"", None, (0, 0)
        self.game_end, self.reaper, self.cpu_mark = float("inf"), None, None

    def start(self) -> str:
        """Start the process and load the entrant; returns its own name (``EntrantFailure`` if it cannot load)."""
        box = detect()
        if not box.isolated and untrusted(self.entry) and not self.limits.trust_entrants:
            raise EntrantFailure(f"not run: {box.line.partition(': ')[2]} (trust_entrants=True runs it anyway)")
        down_r, down_w = os.pipe()
        up_r, up_w = os.pipe()
        try:
            self.proc = self._spawn(box, down_r, up_w)
        finally:
            os.close(down_r)
            os.close(up_w)
        os.set_blocking(down_w, False)  # an entrant that stops reading cannot block the referee
        self.down, self.up, self.buffer = down_w, up_r, b""
        self.main = self._main_pid(box.isolated)
        lim = self.limits
        self._send((self.entry.kind, self.entry.payload, self.entry.name))
        self.game_end = time.monotonic() + lim.load_seconds
        kind, _, rest = self._answer(lim.load_seconds, lim.load_seconds, "to load").partition(b" ")
        if kind != b"ok":
            raise EntrantFailure(f"import failed: {rest.partition(b' ')[2].decode(errors='replace')}")
        self.use_rank = rest[:1] == b"1"
        return rest[2:].decode(errors="replace")

    def _spawn(self, box: Sandbox, down_r: int, up_w: int) -> subprocess.Popen:
        lim = self.limits
        cpu_backstop = int(lim.move_seconds * lim.max_moves + lim.load_seconds + 60)
        become = NOBODY if box.isolated and os.geteuid() == 0 else -1
        nproc = -1 if box.cgroups or os.geteuid() == 0 else lim.processes + _user_processes()
        argv = [sys.executable, "-m", "solitaire.tournament.entrant", str(down_r), str(up_w), str(lim.memory_mb),
                str(cpu_backstop), str(lim.output_bytes), str(become), str(nproc)]
        env = sandbox_env() if box.isolated else os.environ | ONE_THREAD
        if box.isolated:
            argv = wrap(argv, self.hidden + ([os.path.dirname(os.path.abspath(self.log))] if self.log else []))
        if box.cgroups:
            self.cgroup = Cgroup(box.cgroups, lim.memory_mb, lim.processes)
            env = env | {"SOLITAIRE_CGROUP": " ".join(self.cgroup.procs_files)}
            argv = ["/bin/sh", "-c", JOIN, "sh", *argv]
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL
        try:
            return subprocess.Popen(argv, pass_fds=(down_r, up_w), stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                                    start_new_session=True, env=env)
        finally:
            if out is not subprocess.DEVNULL:
                out.close()

    def _main_pid(self, isolated: bool) -> int:
        """The entrant's own interpreter; in a sandbox, found (before it loads any entrant code) below bwrap and
        its namespace's first process, which is remembered too."""
        self.reaper = None
        if not isolated:
            return self.proc.pid
        for _ in range(5000):
            first = children(self.proc.pid)
            below = children(first[0]) if first else []
            if below:
                self.reaper = first[0]
                return below[0]
            if self.proc.poll() is not None:
                break
            time.sleep(0.0005)
        return self.proc.pid

    def new_game(self, variant) -> None:
        """Start a game: the game's wall clock starts now."""
        self.game_end = time.monotonic() + self.limits.game_seconds
        self.events = self.cgroup.events() if self.cgroup else (0, 0)
        self.cpu_mark = self.cgroup.cpu() if self.cgroup else None
        self._send(("game", variant))

    def end_game(self) -> None:
        """End whatever the entrant started during the game: only its own interpreter lives on. A game in which
        the cgroup's memory limit killed one of its processes, or refused it a new one, is lost all the same."""
        if self.cgroup is not None and self._blame("") != "":
            raise EntrantFailure(self._kill(self._blame("at the end of the game")))
        if self.proc is None or (self.cgroup is not None and len(self.cgroup.pids()) <= 3):
            return
        if self.main == self.proc.pid:
            kill_tree(self.main, {self.main})
            return
        if not os.path.exists(f"/proc/{self.main}"):
            self.stop()
            return
        kill_tree(self.proc.pid, {self.proc.pid, self.reaper, self.main})

    def ask(self, obs, moves: list) -> object:
        """The entrant's answer to one decision: a move's index, a list of indices (``rank``), or None (resign).
        ``obs`` is an ``Observation``, or the referee's ``Position`` (only what a player sees of it is sent)."""
        seen = encode_observation(obs) if isinstance(obs, Observation) else encode_position(obs)
        self._send(("move", seen, tuple(map(tuple, moves))))
        answer = self._answer(self.limits.move_seconds, self.limits.move_wall(), "for a move")
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
            raise EntrantFailure(self._kill(self._blame(f"{reason}: {text.decode(errors='replace')}"[:300])))
        raise EntrantFailure(self._kill(f"not a move: answered {answer[:60].decode(errors='replace')!r}"))

    def _send(self, message) -> None:
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        data = HEADER.pack(len(data)) + data
        deadline = time.monotonic() + self.limits.move_wall()
        while data:
            try:
                data = data[os.write(self.down, data):]
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise EntrantFailure(self._kill("not reading: its pipe from the referee stayed full")) from None
                select.select([], [self.down], [], 0.05)
            except OSError:
                raise EntrantFailure(self._death("its process ended")) from None

    def _answer(self, cpu_seconds: float, wall_seconds: float, what: str) -> bytes:
        """Read one line; give up after ``cpu_seconds`` of the entrant's CPU (all its processes), after
        ``wall_seconds`` of waiting, or at the end of the game's time."""
        start = time.monotonic()
        deadline = min(start + wall_seconds, self.game_end)
        # with a cgroup, a move's CPU counts from the last answer: work done in the background is charged too
        cpu_start = (self.cpu_mark if self.cpu_mark is not None else self.cgroup.cpu()) if self.cgroup else None
        polled = None  # without a cgroup: the process tree's CPU, counted from the first slow look on
        while b"\n" not in self.buffer:
            now = time.monotonic()
            if now > deadline:
                whole = deadline == self.game_end and what == "for a move"
                raise EntrantFailure(self._kill(self._blame(
                    f"timed out: the game took more than {self.limits.game_seconds:g} s" if whole else
                    f"timed out: no answer within {wall_seconds:g} s {what}")))
            if now - start >= 0.05:
                if cpu_start is None and polled is None:
                    polled = self._tree_cpu() - (now - start)
                used = self.cgroup.cpu() - cpu_start if self.cgroup else self._tree_cpu() - polled
                if used > cpu_seconds:
                    raise EntrantFailure(self._kill(self._blame(f"timed out: more than {cpu_seconds:g} s of CPU {what}")))
            step = 0.05 if now - start < 0.05 else min(0.1, max(0.01, cpu_seconds / 10))
            ready, _, _ = select.select([self.up], [], [], min(step, max(0.0, deadline - now) + 0.001))
            if ready:
                chunk = os.read(self.up, MOST_LINE)
                if not chunk:
                    raise EntrantFailure(self._death("crashed"))
                self.buffer += chunk
                if len(self.buffer) > MOST_LINE:
                    raise EntrantFailure(self._kill("not a move: an answer longer than 64 KB"))
        if self.cgroup:
            self.cpu_mark = self.cgroup.cpu()
            if self.cpu_mark - cpu_start > cpu_seconds:
                raise EntrantFailure(self._kill(self._blame(f"timed out: more than {cpu_seconds:g} s of CPU {what}")))
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def _tree_cpu(self) -> float:
        """Without a cgroup: the CPU of every process the entrant runs (its process tree), and a check of its
        memory and process count as a whole."""
        below = tree(self.proc.pid)
        if sum(rss for _, _, rss in below.values()) > self.limits.memory_mb << 20:
            raise EntrantFailure(self._kill(f"memory limit: its processes used more than {self.limits.memory_mb} MB"))
        if len(below) > self.limits.processes + 2:
            raise EntrantFailure(self._kill(f"process limit: more than {self.limits.processes} processes"))
        return sum(cpu for _, cpu, _ in below.values())

    def _blame(self, reason: str) -> str:
        """The reason, told by the cgroup where it knows better (its memory limit ended a process, or a new
        process was refused)."""
        if self.cgroup is None:
            return reason
        oom, refused = self.cgroup.events()
        if oom > self.events[0]:
            return f"memory limit: its processes together went over {self.limits.memory_mb} MB ({reason})"[:300]
        if refused > self.events[1]:
            return f"process limit: it tried to run more than {self.limits.processes} processes ({reason})"[:300]
        return reason

    def _death(self, what: str) -> str:
        """Why the process ended (it is waited for), as a reason."""
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return self._kill(self._blame(what))
        if self.reaper is not None and code > 128:  # bwrap exits with 128 + the signal that ended the entrant
            code = 128 - code
        reason = self._blame(f"{what}: {_code(code)}")
        self.stop()
        return reason

    def _kill(self, reason: str) -> str:
        self.stop()
        return reason

    def stop(self) -> None:
        """End the process and everything it started (its namespace, its cgroup, its session) and close the pipes."""
        if self.proc is not None:
            for pid in (self.reaper, self.proc.pid):  # the namespace's first process: the kernel ends all of it
                if pid is not None:
                    with contextlib.suppress(OSError):
                        os.kill(pid, 9)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, 9)  # the entrant's own session
            if self.reaper is None and self.cgroup is None:
                kill_tree(self.proc.pid)
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            self.proc.wait()
            for fd in (self.down, self.up):
                with contextlib.suppress(OSError):
                    os.close(fd)
            self.proc, self.cpu_mark = None, None
        if self.cgroup is not None:
            self.cgroup.remove()
            self.cgroup = None


def _code(code: int) -> str:
    if code == -9:
        return "killed (signal 9, the memory or CPU limit)"
    if code == -24:
        return "CPU limit (signal 24)"
    return f"exit code {code}" if code >= 0 else f"killed by signal {-code}"


def _user_processes() -> int:
    """How many processes this user runs now (``RLIMIT_NPROC`` counts them all)."""
    uid = os.getuid()
    count = 0
    with contextlib.suppress(OSError):
        for pid in os.listdir("/proc"):
            with contextlib.suppress(OSError):
                count += pid.isdigit() and os.stat(f"/proc/{pid}").st_uid == uid
    return count


def play_games(entry: Entry, label: str, variant, deals: list[tuple[int, int]], limits: Limits,
               log: str | None = None, hidden: tuple = ()) -> list[dict]:
    """Play the deals ``[(number, seed), ...]`` against one entrant: one row each (a task for a worker).

    >>> from solitaire import KLONDIKE
    >>> bad = Entry("bad", "source", ("def choose(obs, moves):\\n    return 'jump'\\n", "bad.py"), "-")
    >>> [(r["outcome"], r["reason"][:45]) for r in play_games(bad, "klondike", KLONDIKE, [(0, 7)], Limits())]
    [('lost', "not a move: cannot read a move from 'jump': w")]
    """
    rows = []
    entrant = EntrantProcess(entry, limits, log, hidden)
    with referee_memory_hidden():
        try:
            for number, seed in deals:
                rows.append(_row(entry, label, number, seed, *referee_game(entrant, variant, seed, limits)))
        finally:
            entrant.stop()
    return rows


def referee_game(entrant: EntrantProcess, variant, seed: int, limits: Limits) -> tuple:
    """Play one deal against the entrant through ``game_loop`` (as ``play_game`` does): the outcome, moves
    played, cards on the foundations, the reason it lost by failing ("" if none) and the seconds taken.

    >>> from solitaire import KLONDIKE
    >>> entrant = EntrantProcess(Entry("greedy", "source", ("from solitaire.players import GreedyStrategy\\n"
    ...                                                      "strategy = GreedyStrategy()\\n", "greedy.py"), "-"), Limits())
    >>> outcome, moves, _, reason, _ = referee_game(entrant, KLONDIKE, 3, Limits())
    >>> entrant.stop()
    >>> from solitaire.strategies import play_game
    >>> (str(outcome), moves, reason) == (str(play_game(KLONDIKE, 3, "greedy").outcome), play_game(KLONDIKE, 3, "greedy").moves, "")
    True
    """
    start = time.perf_counter()

    def pick(p, moves):
        answer = entrant.ask(p, moves)  # only what a player sees of p is sent
        if entrant.use_rank:
            return [moves[i] for i in answer or ()]
        return None if answer is None else moves[answer]

    try:
        if entrant.proc is None:
            entrant.start()
        entrant.new_game(variant)
        outcome, played, p = game_loop(deal(variant, seed), pick, entrant.use_rank, limits.max_moves)
        entrant.end_game()
        return outcome, played, p.on_foundations(), "", time.perf_counter() - start
    except EntrantFailure as e:
        entrant.stop()
        return LOST, 0, 0, str(e), time.perf_counter() - start


def _row(entry: Entry, label: str, number: int, seed: int, outcome, played, on_foundations, reason, seconds) -> dict:
    return {"entrant": entry.name, "fingerprint": entry.fingerprint, "variant": label, "number": number, "seed": seed,
            "outcome": str(outcome), "reason": reason, "moves": played, "on_foundations": on_foundations,
            "seconds": seconds}


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
