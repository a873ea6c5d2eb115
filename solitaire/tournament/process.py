"""An entrant's process as the referee sees it: started in its sandbox, asked one decision at a time, held to its
limits, and ended with everything it started.

``EntrantProcess`` starts one entrant (``solitaire.tournament.entrant``) in a fresh interpreter (never a fork:
the process holds no Position and never saw a seed), in a sandbox of its own where this machine has one
(``solitaire.tournament.sandbox.start``), and waits for each answer with limits on CPU (all its processes and
threads), wall-clock time (a move, a load, a game and the entrant's whole tournament, which the caller gives as
a moment not to pass), memory and processes. What it lost a game by is an ``EntrantFailure``, whose message
has every control character escaped (``printable``): an entrant's words are shown as data, never obeyed by a
terminal.
"""
from __future__ import annotations

import contextlib
import os
import pickle
import select
import subprocess
import sys
import time
from typing import NamedTuple

from .entrant import HEADER, MOST_LINE, encode_observation, encode_position
from .sandbox import TMP_MB, Cgroup, Sandbox, box_uid, children, detect, kill_tree, sandbox_env, start, tree
from ..state import Observation

# numpy's maths libraries start a thread a core, each with its own stack: one thread keeps a student's numpy
# well inside the entrant's memory limit on a machine with many cores
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
POLL = 0.25  # without a cgroup: seconds between two looks at the entrant's processes (memory, CPU, count)


class Limits(NamedTuple):
    """What an entrant may use: CPU seconds a move (all its processes and threads), moves a game, memory (MB,
    all its processes together, its ``/tmp`` included), output (bytes), seconds to load its file, wall-clock
    seconds a move (default ``max(3 * move_seconds, move_seconds + 1)``) and a game (a reload after a failure
    counts in the game), processes at once, whether to run entrant files where there is no sandbox
    (``trust_entrants``), games it may lose to a limit (time, memory, processes) before it forfeits the rest
    (``failures``), and wall-clock seconds for all its loads and games in the tournament (``entrant_seconds``;
    default ``load_seconds + game_seconds`` a game)."""

    move_seconds: float = 1.0
    max_moves: int = 5000
    memory_mb: int = 1024
    output_bytes: int = 1_000_000
    load_seconds: float = 30.0
    wall_seconds: float | None = None
    game_seconds: float = 5.0
    processes: int = 32
    trust_entrants: bool = False
    failures: int = 3
    entrant_seconds: float | None = None

    def move_wall(self) -> float:
        return self.wall_seconds or max(3 * self.move_seconds, self.move_seconds + 1)

    def tmp_mb(self) -> int:
        """The size of the sandbox's ``/tmp``: a part of the memory limit."""
        return max(1, min(TMP_MB, self.memory_mb // 4))


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


def printable(text: str) -> str:
    """``text`` with each character a terminal would obey (escape codes, line breaks, bidirectional overrides,
    any other control or format character) written as its Python escape: shown, never obeyed.

    >>> printable("f crash \\x1b[2J\\u202e100%\\n")
    'f crash \\\\x1b[2J\\\\u202e100%\\\\n'
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class EntrantFailure(Exception):
    """The entrant lost the game: the message (printable, at most 300 characters) is the table's ``reason``."""

    def __init__(self, message: str) -> None:
        super().__init__(printable(str(message))[:300])


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
        self.until, self.why, self.reaper, self.cpu_mark = float("inf"), "", None, None
        self.starts, self.polled = 0, 0.0

    def start(self, until: float = float("inf"), why: str = "") -> str:
        """Start the process and load the entrant, by ``until`` (a ``time.monotonic()`` moment; ``why`` says
        what passing it means) if that comes before ``load_seconds``; returns its own name (``EntrantFailure``
        if it cannot load)."""
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
        self.main, self.starts = self._main_pid(box.isolated), self.starts + 1
        lim = self.limits
        self.until, self.why = self._end(until, why, time.monotonic() + lim.load_seconds)
        self._send((self.entry.kind, self.entry.payload, self.entry.name))
        kind, _, rest = self._answer(lim.load_seconds, lim.load_seconds, "to load").partition(b" ")
        if kind != b"ok":
            raise EntrantFailure(f"import failed: {rest.partition(b' ')[2].decode(errors='replace')}")
        self.use_rank = rest[:1] == b"1"
        return printable(rest[2:].decode(errors="replace"))

    @staticmethod
    def _end(until: float, why: str, own: float) -> tuple[float, str]:
        """The moment to give up, and what to say then ("" for the default words)."""
        return (until, why) if until < own else (own, "")

    def _spawn(self, box: Sandbox, down_r: int, up_w: int) -> subprocess.Popen:
        lim = self.limits
        cpu_backstop = int(lim.move_seconds * lim.max_moves + lim.load_seconds + 60)
        uid = box_uid() if box.isolated and os.geteuid() == 0 else -1
        nproc = (-1 if box.cgroups or (uid < 0 and os.geteuid() == 0) else
                 lim.processes if uid >= 0 else lim.processes + _user_processes())
        argv = [sys.executable, "-m", "solitaire.tournament.entrant", str(down_r), str(up_w), str(lim.memory_mb),
                str(cpu_backstop), str(lim.output_bytes), str(uid), str(nproc)]
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL
        io = {"stdin": subprocess.DEVNULL, "stdout": out, "stderr": out, "start_new_session": True}
        try:
            if not box.isolated:
                return subprocess.Popen(argv, pass_fds=(down_r, up_w), env=os.environ | ONE_THREAD, **io)
            if box.cgroups:
                self.cgroup = Cgroup(box.cgroups, lim.memory_mb, lim.processes)
            hidden = self.hidden + ([os.path.dirname(os.path.abspath(self.log))] if self.log else [])
            return start(argv, hidden, env=sandbox_env(), cgroup=self.cgroup, pass_fds=(down_r, up_w),
                         tmp_mb=lim.tmp_mb(), **io)
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

    def new_game(self, variant, until: float = float("inf"), why: str = "") -> None:
        """Start a game: the game's wall clock runs from now to ``game_seconds`` later, or to ``until`` (with
        ``why``) if that comes first."""
        g = self.limits.game_seconds
        self.until, self.why = self._end(until, why, time.monotonic() + g)
        self.why = self.why or f"the game took more than {g:g} s"
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
            raise EntrantFailure(self._kill(self._blame(f"{reason}: {text.decode(errors='replace')}")))
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
        ``wall_seconds`` of waiting, or at ``self.until`` (the end of the game, the load or the tournament)."""
        start = time.monotonic()
        deadline = min(start + wall_seconds, self.until)
        # with a cgroup, a move's CPU counts from the last answer: work done in the background is charged too
        cpu_start = (self.cpu_mark if self.cpu_mark is not None else self.cgroup.cpu()) if self.cgroup else None
        polled = None  # without a cgroup: the process tree's CPU, counted from the first slow look on
        while b"\n" not in self.buffer:
            now = time.monotonic()
            if now > deadline:
                raise EntrantFailure(self._kill(self._blame(
                    f"timed out: {self.why}" if deadline == self.until and self.why else
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
        elif time.monotonic() - self.polled >= POLL:
            self._tree_cpu()  # memory and processes, looked at now and then even when every answer is quick
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def _tree_cpu(self) -> float:
        """Without a cgroup: the CPU of every process the entrant runs (its process tree), and a check of its
        memory (its ``/tmp`` counted as full) and process count as a whole."""
        self.polled = time.monotonic()
        below = tree(self.proc.pid)
        most = self.limits.memory_mb - (self.limits.tmp_mb() if self.reaper is not None else 0)
        if sum(rss for _, _, rss in below.values()) > most << 20:
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
            return f"memory limit: its processes together went over {self.limits.memory_mb} MB ({reason})"
        if refused > self.events[1]:
            return f"process limit: it tried to run more than {self.limits.processes} processes ({reason})"
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
