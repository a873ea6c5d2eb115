"""A graded answer's process, seen from the grading process: started fresh (in the tournament's sandbox where
there is one), asked over a pipe, limited in CPU, and the answer itself as a proxy a checker calls like a function.

``AnswerProcess(kit)`` starts ``python -m solitaire.lessons.answer_process`` with the graded kit ``kit`` first on
its path. In the sandbox (``solitaire.tournament.sandbox``: bubblewrap's namespaces, as the user nobody, no
network, cgroup limits where there are cgroups) the real kit's folder is covered by an empty one and the graded kit
is bound read-only at ``/kit``, so no file of the kit's sources, of the lessons or of the teacher's guide is visible
there. ``sandboxed_argv`` is that generic step: the tournament's ``wrap``, with a folder hidden and one bound.
Without a sandbox, ``detect()``'s line says what is missing, and the process runs as the grader's user with a
clean environment.

The proxies (``Remote``, ``RemoteObject``) turn each call into a message: arguments pickled one way, the result
unpickled the other with ``wire.SafeUnpickler``; an exception there comes back as an exception of the same name.
"""
from __future__ import annotations

import os
import pickle
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

from ..tournament.sandbox import Cgroup, box_uid, detect, kill_tree, sandbox_env, start, tree
from ..tournament.sandbox import PACKAGE as KIT_PACKAGE
from .guard import KitSwitchedOff
from .verdicts import NotAnswered, TookTooLong
from .answer_process import remembered_variant, variant_by_number
from .wire import Reader, Refused, loads, send

INSIDE = "/kit"  # where the graded kit is seen from inside the sandbox
UNSANDBOXED = "SOLITAIRE_GRADE_UNSANDBOXED"  # set in a grading process's environment: answers run without a sandbox


class Limits(NamedTuple):
    """What a graded answer's process may use: CPU seconds for the whole check (all its processes), seconds to
    load the student's cells, memory (MB), output (bytes) and processes at once."""

    cpu_seconds: float = 45.0
    load_seconds: float = 30.0
    memory_mb: int = 2048
    output_bytes: int = 1_000_000
    processes: int = 16


def sandbox_extra(hide: list[str], bind: dict[str, str]) -> list[str]:
    """The bubblewrap options that cover each folder of ``hide`` with an empty one (even one the sandbox binds
    itself, such as the kit's package) and bind each folder of ``bind`` (outside path to inside path) read-only,
    for the tournament's sandbox (``sandbox.start``).

    >>> sandbox_extra(["/srv/kit"], {"/tmp/k": "/kit"})
    ['--tmpfs', '/srv/kit', '--remount-ro', '/srv/kit', '--ro-bind', '/tmp/k', '/kit']
    """
    return ([x for h in hide for x in ("--tmpfs", h, "--remount-ro", h)]
            + [x for a, b in bind.items() for x in ("--ro-bind", a, b)])


class AnswerGone(NotAnswered):
    """The answer's process ended (a crash, a memory limit, ``os._exit``) or sent what no answer is."""


class AnswerProcess:
    """One graded answer's process, started fresh; ``load`` the answer, then ``call`` or ``map`` it.

    ``absent_called`` lists the absent kit functions the answer called so far (the process reports them with
    each reply); ``cpu()`` is the CPU its processes have used.
    """

    def __init__(self, kit: Path, limits: Limits = Limits()) -> None:
        self.kit, self.limits = Path(kit), limits
        self.proc: subprocess.Popen | None = None
        self.cgroup: Cgroup | None = None
        self.absent_called: list[str] = []
        self.sandboxed = False
        self.cpu_start = self.check_start = 0.0
        self.messages = 0  # calls sent so far (a map counts once)
        self.variants: dict[Any, int] = {}  # the variants sent so far, by their number
        self.log = tempfile.TemporaryFile()

    def start(self) -> None:
        box = detect()
        if os.environ.get(UNSANDBOXED):  # a teacher's measurement (benchmarks/bench_grading.py), never a course's
            box = box._replace(isolated=False, cgroups="")
        self.sandboxed = box.isolated
        down_r, self.down = os.pipe()
        self.up, up_w = os.pipe()
        lim = self.limits
        become = box_uid() if box.isolated and os.geteuid() == 0 else -1
        nproc = -1 if box.cgroups or os.geteuid() == 0 else lim.processes + 64
        argv = [sys.executable, "-m", "solitaire.lessons.answer_process", str(down_r), str(up_w), str(lim.memory_mb),
                str(int(lim.cpu_seconds + lim.load_seconds + 30)), str(lim.output_bytes), str(become), str(nproc)]
        env = sandbox_env() | {"PYTHONPATH": INSIDE if box.isolated else str(self.kit), "MPLBACKEND": "Agg",
                               "HOME": "/tmp" if box.isolated else tempfile.gettempdir()}
        io = {"stdin": subprocess.DEVNULL, "stdout": self.log, "stderr": self.log, "start_new_session": True}
        try:
            self.empty = tempfile.TemporaryDirectory(prefix="graded-answer-")  # its working folder, without a sandbox
            if box.isolated:  # the tournament's sandbox and seccomp filter, the graded kit in place of the kit
                if box.cgroups:
                    self.cgroup = Cgroup(box.cgroups, lim.memory_mb, lim.processes)
                self.proc = start(argv, env=env, cgroup=self.cgroup, pass_fds=(down_r, up_w),
                                  extra=sandbox_extra([str(KIT_PACKAGE)], {str(self.kit): INSIDE}), **io)
            else:
                self.proc = subprocess.Popen(argv, pass_fds=(down_r, up_w), env=env, cwd=self.empty.name, **io)
        finally:
            os.close(down_r)
            os.close(up_w)
        os.set_blocking(self.down, False)
        self.reader = Reader(self.up)
        self.cpu_start = self.cpu()

    def cpu(self) -> float:
        """CPU seconds used by the answer's processes since they started."""
        if self.proc is None:
            return 0.0
        if self.cgroup is not None:
            return self.cgroup.cpu()
        return sum(cpu for _, cpu, _ in tree(self.proc.pid).values())

    def stop(self) -> None:
        """End the answer's processes, all of them."""
        if self.proc is not None:
            kill_tree(self.proc.pid)
            self.proc.wait()
            for fd in (self.down, self.up):
                try:
                    os.close(fd)
                except OSError:
                    pass
        if self.cgroup is not None:
            self.cgroup.remove()
        self.proc, self.cgroup = None, None
        self.log.close()
        if getattr(self, "empty", None) is not None:
            self.empty.cleanup()

    def _why_ended(self) -> str:
        self.log.seek(0)
        lines = self.log.read()[-4000:].decode(errors="replace").strip().splitlines()
        code = self.proc.poll() if self.proc else None
        said = f" ({lines[-1][:300]})" if lines else ""
        if code is not None and code < 0:
            return f"it was ended by signal {-code}{said}: over its memory, or it killed itself"
        return f"it ended{said}"

    def ask(self, message: tuple, seconds: float) -> tuple:
        """Send ``message``; wait for the reply, giving up (TookTooLong) once the answer's processes have used
        ``seconds`` more of CPU (or three times that, plus a minute, of wall time)."""
        if self.proc is None:
            self.start()
        data = self._pickled(message)
        started = time.monotonic()
        budget_start, wall_end = None, started + 3 * seconds + 60
        out = memoryview(len(data).to_bytes(8, "little") + data)
        while True:
            writing = [self.down] if out else []
            ready, can_write, _ = select.select([self.up], writing, [], 0.02 if time.monotonic() - started < 0.1 else 0.1)
            if can_write:
                try:
                    out = out[os.write(self.down, out[:1 << 20]):]
                except (BrokenPipeError, OSError):
                    raise AnswerGone(f"the process of your answer stopped reading: {self._why_ended()}") from None
            if ready:
                if not self.reader.feed():
                    raise AnswerGone(f"the process of your answer ended before it replied: {self._why_ended()}")
                message_bytes = self.reader.ready()
                if message_bytes is not None:
                    return self._decoded(message_bytes)
            if time.monotonic() - started > 0.05:  # a slow reply: its CPU is watched (a quick one is not, to save time)
                budget_start = self.cpu() if budget_start is None else budget_start
                if self.cpu() - budget_start > seconds or time.monotonic() > wall_end:
                    raise TookTooLong(seconds)

    def _pickled(self, message: tuple) -> bytes:
        """``message`` pickled for the answer's process: each variant whole once per process, by its number
        afterwards (a variant is checked anew each time it is unpickled, which a strategy asked at every move would
        pay for)."""
        import copyreg
        import io

        from ..variants import Variant
        known = self.variants

        def by_number(v: Any) -> tuple:
            if v in known:
                return variant_by_number, (known[v],)
            known[v] = len(known)
            return remembered_variant, (known[v], *v.__reduce__())

        out = io.BytesIO()
        pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = copyreg.dispatch_table | {Variant: by_number}
        pickler.dump(message)
        return out.getvalue()

    def _decoded(self, data: bytes) -> tuple:
        try:
            reply = loads(data)
        except Refused as e:
            raise NotAnswered(str(e)) from None
        except Exception as e:  # noqa: BLE001 - what came back is not a reply: the answer's process was tampered with
            raise AnswerGone(f"the process of your answer sent what is not an answer ({type(e).__name__})") from None
        if not isinstance(reply, tuple) or not reply or not isinstance(reply[-1], list):
            raise AnswerGone("the process of your answer sent what is not an answer")
        self.absent_called = [str(x) for x in reply[-1]]
        return reply[:-1]

    def load(self, kind: str, payload: Any, answer: str | None) -> tuple[dict, list[str]]:
        """Load the answer (source chunks or a pickle); its description and what its cells raised."""
        reply = self.ask(("load", kind, payload, answer), self.limits.load_seconds)
        if reply[0] == "x":
            raise_failure(reply, "loading your answer")
        if reply[0] != "ok" or not isinstance(reply[1], dict):
            raise AnswerGone("the process of your answer sent what is not an answer")
        self.check_start = self.cpu_seen = self.cpu()
        self.cpu_read_at = time.monotonic()
        return reply[1], [str(x) for x in reply[2]]

    def left(self) -> float:
        """CPU seconds left for the check, counted from the answer's load (TookTooLong when none is); read at most
        every quarter second (many quick calls would spend more reading it than calling)."""
        now = time.monotonic()
        if now - self.cpu_read_at > 0.25:
            self.cpu_seen, self.cpu_read_at = self.cpu(), now
        left = self.limits.cpu_seconds - (self.cpu_seen - self.check_start)
        if left <= 0:
            raise TookTooLong(self.limits.cpu_seconds)
        return left

    def call(self, attribute: str | None, args: tuple) -> Any:
        self.messages += 1
        reply = self.ask(("call", attribute, args), self.left())
        if reply[0] == "x":
            raise_failure(reply)
        return reply[1]

    def games(self, attribute: str | None, decisions: list[tuple]) -> tuple[list, tuple | None]:
        """One decision in each of many games, ``(game, obs, moves)``, answered by the game's own copy of the
        strategy (``games.play_remote``): the answers in order, and the first failure (or None)."""
        self.messages += 1
        reply = self.ask(("games", attribute, decisions), self.left())
        if reply[0] == "x":
            raise_failure(reply)
        if not isinstance(reply[1], list) or len(reply[1]) > len(decisions):
            raise AnswerGone("the process of your answer sent what is not an answer")
        return reply[1], reply[2]

    def map(self, attribute: str | None, calls: list[tuple]) -> tuple[list, tuple | None]:
        """Call the answer on each argument tuple; the results, and the first failure (or None)."""
        self.messages += 1
        reply = self.ask(("map", attribute, calls), self.left())
        if reply[0] == "x":
            raise_failure(reply)
        results, failure = reply[1], reply[2]
        if not isinstance(results, list) or len(results) > len(calls):
            raise AnswerGone("the process of your answer sent what is not an answer")
        return results, failure


_REMOTE_ERRORS: dict[str, type] = {}


def remote_error(reply: tuple) -> BaseException:
    """The exception an answer's process reported, as one of the same name here (KitSwitchedOff for a call into
    an absent kit function, NotImplementedError for a stub).

    >>> e = remote_error(("x", "ZeroDivisionError", "division by zero", "error", 3))
    >>> type(e).__name__, str(e)
    ('ZeroDivisionError', 'division by zero')
    """
    _, name, text, kind, _ = reply[:5]
    if kind == "absent":
        return KitSwitchedOff(str(text))
    if kind == "notimplemented":
        return NotImplementedError(str(text))
    name = str(name) if str(name).isidentifier() else "Exception"
    if name not in _REMOTE_ERRORS:
        _REMOTE_ERRORS[name] = type(name, (Exception,), {"__module__": "builtins"})
    return _REMOTE_ERRORS[name](str(text))


def raise_failure(reply: tuple, doing: str = "") -> None:
    """Raise what an answer's process reported: the exception itself, or NotAnswered saying what was being done.

    >>> raise_failure(("x", "NameError", "name 'p' is not defined", "error", 1), "loading your answer")
    Traceback (most recent call last):
    ...
    solitaire.lessons.verdicts.NotAnswered: loading your answer raised NameError: name 'p' is not defined
    """
    if doing:
        raise NotAnswered(f"{doing} raised {reply[1]}: {reply[2]}")
    raise remote_error(reply)


class RemoteObject:
    """A graded answer that is an object with methods (a strategy), its methods called across the pipe."""

    def __init__(self, process: Any, description: dict, attribute: str | None = None) -> None:
        self._process, self._description, self._attribute = process, description, attribute
        name = description.get("name") or description.get("own_name") or "your function"
        self.__name__ = name if attribute is None else attribute
        if description.get("own_name"):
            self.name = description["own_name"]

    def __getattr__(self, attribute: str) -> Any:
        if attribute in self.__dict__.get("_description", {}).get("methods", ()) and self._attribute is None:
            return Remote(self._process, self._description, attribute)
        raise AttributeError(attribute)

    def __repr__(self) -> str:
        return str(self._description.get("repr", "your answer"))

    def __deepcopy__(self, memo: dict) -> RemoteObject:
        return self


class Remote(RemoteObject):
    """A graded answer that is a function (or a class, or a method), called across the pipe like the function.

    >>> class Fake:
    ...     def call(self, attribute, args): return sum(args)
    >>> Remote(Fake(), {"name": "add", "repr": "<function add>", "methods": []})(1, 2)
    3
    """

    def __call__(self, *args: Any) -> Any:
        return self._process.call(self._attribute, args)

    def map(self, calls: list[tuple]) -> tuple[list, tuple | None]:
        """Call it on each argument tuple in one message: the results, and the first failure (or None)."""
        return self._process.map(self._attribute, calls)


def as_remote(process: AnswerProcess, description: dict) -> Any:
    """The answer as a checker takes it: its value, or a proxy that calls it in its process.

    >>> as_remote(None, {"value": [1, 2], "callable": False}), callable(as_remote(None, {"callable": True}))
    ([1, 2], True)
    """
    if "value" in description:
        return description["value"]
    return (Remote if description.get("callable") else RemoteObject)(process, description)
