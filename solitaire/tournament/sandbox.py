"""The tournament's sandbox: what an entrant's process can see and do, and the limits on all it starts.

Isolation is bubblewrap's (``bwrap``, the tool Flatpak uses; contest judges such as isolate and nsjail work the
same way): each entrant runs in namespaces of its own, made fresh for it:

- a **mount namespace** holding only the Python installation, the ``solitaire`` package (read-only), an empty
  ``/tmp`` and ``/dev``: no results file, no other entrant's file, no home folder (a folder of those that lies
  inside a bound one, such as ``solitaire/entrants``, is covered by an empty one);
- a **PID namespace**: it sees, and can signal or trace, only its own processes; the referee and the other
  entrants do not exist for it; when the namespace's first process ends, the kernel ends all of it;
- a **network namespace** with no interface but its own loopback: no connection leaves it;
- run as root, the entrant also becomes the user ``nobody`` (65534) with no capability; run as any other user,
  a user namespace maps it to that user, without any capability outside.

Limits count everything the entrant starts: as root, a cgroup an entrant (v1 controllers, or cgroup2 where its
controllers are delegated) counts the CPU of all its processes and threads, caps its memory as a whole and its
number of processes (``pids.max`` holds for root too), and gives it at most one core. Without cgroups the
referee polls the entrant's process tree (CPU and memory), and ``RLIMIT_NPROC`` caps its processes.

Where bubblewrap is missing or cannot make namespaces (macOS, Windows, a container without user namespaces,
Pyodide) ``detect()`` says so in one line, and the tournament refuses entrant files unless told to trust them.
"""
from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import NamedTuple

PACKAGE = Path(__file__).resolve().parent.parent  # the solitaire package, bound read-only into each sandbox
NOBODY = 65534
CGROUP = Path("/sys/fs/cgroup")
_FOUND: dict[str, Sandbox] = {}
_COUNT = itertools.count()
_LOCK = threading.Lock()
_LEFT: list[Path] = []  # cgroups to remove once their last process has ended


class Sandbox(NamedTuple):
    """How entrants are contained here: ``isolated`` (bubblewrap works), ``cgroups`` ("v1", "v2" or ""), and
    one line saying so."""

    isolated: bool
    cgroups: str
    line: str


def detect() -> Sandbox:
    """What this machine offers (tried once, then remembered): bubblewrap's namespaces, and cgroups.

    >>> box = detect()
    >>> box.line.startswith("sandbox: ")
    True
    """
    with _LOCK:
        if "box" not in _FOUND:
            _FOUND["box"] = _detect()
        return _FOUND["box"]


def _detect() -> Sandbox:
    if sys.platform == "emscripten":
        return Sandbox(False, "", "sandbox: none: isolation is not available under Pyodide (a browser runs no "
                                  "processes), so entrants would run in this page's own interpreter")
    if not sys.platform.startswith("linux"):
        return Sandbox(False, "", f"sandbox: none on {sys.platform}: entrants would run as you, able to read your "
                                  "files (isolation needs Linux with bubblewrap)")
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return Sandbox(False, "", "sandbox: none: bubblewrap is not installed (apt-get install bubblewrap), so "
                                  "entrants would run as you, able to read your files")
    try:
        probe = subprocess.run(wrap([sys.executable, "-c", "import solitaire.cards"], []), capture_output=True,
                               text=True, timeout=30, env=sandbox_env(), stdin=subprocess.DEVNULL)
        why = (probe.stderr.strip().splitlines() or [f"exit code {probe.returncode}"])[-1]
    except (OSError, subprocess.TimeoutExpired) as e:
        probe, why = None, str(e)
    if probe is None or probe.returncode != 0:
        return Sandbox(False, "", f"sandbox: none: bubblewrap cannot make namespaces here ({why[:120]}), so "
                                  "entrants would run as you, able to read your files")
    groups = cgroup_kind()
    who = "as the user nobody" if os.geteuid() == 0 else "in a user namespace of their own"
    limits = (f"cgroup {groups} limits on all their processes (CPU, memory, processes)" if groups else
              "limits polled on their process trees (no cgroup here)")
    return Sandbox(True, groups, f"sandbox: bubblewrap: each entrant {who}, in its own PID, mount and network "
                                 f"namespaces, seeing only Python and the kit; {limits}")


def sandbox_env() -> dict[str, str]:
    """The environment an entrant starts with: nothing of the teacher's (no token, no home), one maths thread."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1",
           "PYTHONPATH": str(PACKAGE.parent), "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
           "MKL_NUM_THREADS": "1"}
    return env


def _python_dirs() -> list[str]:
    """The folders the entrant's Python needs: the installation, the virtual environment, its site-packages."""
    dirs = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable)),
            str(PACKAGE)}
    dirs |= {p for p in sys.path if p.endswith(("site-packages", "dist-packages")) and os.path.isdir(p)}
    dirs = {os.path.realpath(d) for d in dirs if d and os.path.isdir(d)} | {d for d in dirs if d and os.path.isdir(d)}
    system = ("/usr", "/bin", "/lib", "/lib32", "/lib64", "/sbin")
    dirs = {d for d in dirs if not any(d == s or d.startswith(s + "/") for s in system)}
    return sorted(d for d in dirs if not any(d != o and d.startswith(o + "/") for o in dirs))


def wrap(argv: list[str], hidden: list[str]) -> list[str]:
    """The command that runs ``argv`` in a fresh sandbox; each folder in ``hidden`` (results, entrants, logs)
    that lies inside a bound folder is covered by an empty one.

    >>> wrap(["python"], [])[:2]
    ['bwrap', '--unshare-pid']
    """
    args = ["bwrap", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
            "--die-with-parent", "--new-session"]
    if os.geteuid() != 0:
        args.append("--unshare-user")
    for top in ("/bin", "/lib", "/lib32", "/lib64", "/sbin"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    args += ["--ro-bind", "/usr", "/usr"]
    # /proc, /dev and an empty /tmp first: a kit or a virtual environment kept under /tmp is bound on top of it.
    args += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--tmpfs", "/tmp"]
    binds = _python_dirs()
    made = set()
    for d in binds:
        parents = [str(p) for p in reversed(Path(d).parents) if str(p) != "/"]
        for parent in parents:
            if parent not in made:
                made.add(parent)
                args += ["--perms", "0755", "--dir", parent]
        args += ["--ro-bind", d, d]
    for f in ("/etc/ld.so.cache", "/etc/localtime"):
        args += ["--ro-bind-try", f, f]
    args += ["--chdir", "/tmp"]
    for h in sorted({os.path.realpath(h) for h in hidden}):
        inside = any(h.startswith(b + "/") for b in binds)
        if inside and not any(b == h or b.startswith(h + "/") for b in binds):
            args += ["--tmpfs", h]
    return args + ["--", *argv]


# --- cgroups -------------------------------------------------------------------------------------------------
def _own(controller: str) -> str | None:
    """This process's cgroup path in a v1 hierarchy (``controller``) or in cgroup2 (``""``)."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, names, path = line.split(":", 2)
        if (controller and controller in names.split(",")) or (not controller and not names):
            return path
    return None


def cgroup_kind() -> str:
    """"v1" or "v2" where this process may make cgroups with the CPU, memory and process controllers, else ""."""
    if os.geteuid() != 0 or not CGROUP.is_dir():
        return ""
    if all(os.access(CGROUP / c / (_own(c) or "/nowhere").lstrip("/"), os.W_OK) for c in ("cpuacct", "memory", "pids")):
        return "v1"
    own = _own("")
    if own is not None and (CGROUP / "cgroup.controllers").exists():
        here = CGROUP / own.lstrip("/")
        with contextlib.suppress(OSError):
            if {"cpu", "memory", "pids"} <= set((here / "cgroup.subtree_control").read_text().split()):
                return "v2"
    return ""


class Cgroup:
    """One entrant's cgroup (v1: one in each of cpuacct, memory, pids, cpu; v2: one): made with its limits,
    read for CPU, memory and process-limit events, removed when the entrant ends."""

    def __init__(self, kind: str, memory_mb: int, processes: int) -> None:
        self.kind, name = kind, f"solitaire-{os.getpid()}-{next(_COUNT)}"
        if kind == "v1":
            self.dirs = {c: CGROUP / c / _own(c).lstrip("/") / name for c in ("cpuacct", "memory", "pids", "cpu")
                         if _own(c) is not None and (CGROUP / c).is_dir()}
            self.dirs = {c: d for c, d in self.dirs.items() if c != "cpu" or d.parent.resolve() != self.dirs["cpuacct"].parent.resolve()}
        else:
            self.dirs = {"all": CGROUP / _own("").lstrip("/") / name}
        for d in self.dirs.values():
            d.mkdir()
        mem, cpu, pids = (self.dirs.get(k, self.dirs.get("all")) for k in ("memory", "cpu", "pids"))
        if kind == "v1":
            self._set(mem / "memory.limit_in_bytes", memory_mb << 20)
            self._set(mem / "memory.memsw.limit_in_bytes", memory_mb << 20, must=False)
            self._set(pids / "pids.max", processes)
            cpu = cpu if cpu is not None else self.dirs["cpuacct"]
            self._set(cpu / "cpu.cfs_period_us", 100_000, must=False)
            self._set(cpu / "cpu.cfs_quota_us", 100_000, must=False)  # at most one core
        else:
            self._set(mem / "memory.max", memory_mb << 20)
            self._set(mem / "memory.swap.max", 0, must=False)
            self._set(pids / "pids.max", processes)
            self._set(cpu / "cpu.max", "100000 100000", must=False)
        self.cpu_file = (self.dirs["cpuacct"] / "cpuacct.usage") if kind == "v1" else self.dirs["all"] / "cpu.stat"

    @staticmethod
    def _set(path: Path, value, must: bool = True) -> None:
        try:
            path.write_text(str(value))
        except OSError:
            if must:
                raise

    @property
    def procs_files(self) -> list[str]:
        return [str(d / "cgroup.procs") for d in self.dirs.values()]

    def cpu(self) -> float:
        """CPU seconds of every process and thread the entrant ran so far."""
        try:
            text = self.cpu_file.read_text()
        except OSError:
            return 0.0
        if self.kind == "v1":
            return int(text) / 1e9
        return int(text.split()[1]) / 1e6  # usage_usec comes first

    def events(self) -> tuple[int, int]:
        """How often the memory limit killed a process, and how often a new process was refused."""
        mem = self.dirs.get("memory", self.dirs.get("all"))
        pids = self.dirs.get("pids", self.dirs.get("all"))
        return (_field(mem / ("memory.oom_control" if self.kind == "v1" else "memory.events"), "oom_kill"),
                _field(pids / "pids.events", "max"))

    def pids(self) -> list[int]:
        d = self.dirs.get("pids", self.dirs.get("all"))
        try:
            return [int(x) for x in (d / "cgroup.procs").read_text().split()]
        except OSError:
            return []

    def remove(self) -> None:
        """Kill what is left in it, and remove it once its last process has ended (now, or at a later call:
        the referee does not wait for that)."""
        for _ in range(100):
            left = self.pids()
            for pid in left:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            if not left:
                break
            time.sleep(0.002)
        with _LOCK:
            _LEFT.extend(self.dirs.values())
        sweep()


def sweep() -> None:
    """Remove the cgroups of ended entrants whose processes are all gone (at exit, every one, waiting a little).

    >>> sweep()
    """
    with _LOCK:
        dirs, _LEFT[:] = list(_LEFT), []
    for d in dirs:
        try:
            d.rmdir()
        except FileNotFoundError:
            pass
        except OSError:
            with _LOCK:
                _LEFT.append(d)


@atexit.register
def _sweep_all() -> None:
    for _ in range(100):
        sweep()
        if not _LEFT:
            return
        time.sleep(0.02)


def _field(path: Path, name: str) -> int:
    with contextlib.suppress(OSError, ValueError):
        for line in path.read_text().splitlines():
            key, _, value = line.partition(" ")
            if key == name:
                return int(value)
    return 0


# --- the process tree, for polled limits and for ending everything ------------------------------------------
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc/<pid>/task/<tid>/children; [] when it has ended)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        with contextlib.suppress(OSError, ValueError):
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                found += [int(x) for x in f.read().split()]
    return found


def tree(root: int) -> dict[int, tuple[int, float, int]]:
    """``root`` and every process below it: pid -> (parent, CPU seconds with its waited-for children, resident
    bytes). Linux's /proc; elsewhere {}.

    >>> me = tree(os.getpid())
    >>> os.getpid() in me if sys.platform.startswith("linux") else True
    True
    """
    below: dict[int, tuple[int, float, int]] = {}
    todo = [root]
    while todo:
        pid = todo.pop()
        if pid in below:
            continue
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        cpu = sum(int(x) for x in fields[11:15]) / TICKS  # utime, stime, cutime, cstime
        below[pid] = (int(fields[1]), cpu, int(fields[21]) * PAGE)
        todo += children(pid)
    return below


def kill_tree(root: int, keep: set[int] = frozenset()) -> None:
    """SIGKILL ``root``'s processes except ``keep`` (and their ancestors' chain to root), until none is left."""
    for _ in range(20):
        left = [pid for pid in tree(root) if pid not in keep]
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        if not left:
            return
        time.sleep(0.005)
