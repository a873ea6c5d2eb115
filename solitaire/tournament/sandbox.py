"""The tournament's sandbox: what an entrant's process can see and do, and the limits on all it starts.

Isolation is bubblewrap's (``bwrap``, the tool Flatpak uses; contest judges such as isolate and nsjail work the
same way): each entrant runs in namespaces of its own, made fresh for it:

- a **mount namespace** holding only the Python installation, the ``solitaire`` package (read-only), an empty
  ``/tmp`` of at most ``TMP_MB`` megabytes and ``/dev``, all else read-only: no results file, no other entrant's
  file, no home folder (a folder of those that lies inside a bound one, such as ``solitaire/entrants``, is
  covered by an empty, read-only one);
- a **PID namespace**: it sees, and can signal or trace, only its own processes; the referee and the other
  entrants do not exist for it; when the namespace's first process ends, the kernel ends all of it;
- a **network namespace** with no interface but its own loopback, and an **IPC namespace** of its own;
- run as root, the entrant becomes a **user of its own** (a user id no other entrant has, see ``box_uid``), having
  dropped every capability, the bounding set first; run as any other user, a user namespace maps it to that user,
  without any capability outside;
- a **seccomp filter** (``solitaire.tournament.seccomp``) refuses the calls that would reach state shared with
  other entrants or with the host: the kernel's keyrings, the page cache's state, io_uring, file watches and
  locks, new namespaces, and the kernel objects that hold memory outside a process (sockets, System V and POSIX
  IPC, memfd, POSIX timers);
- bubblewrap reads its own command line from a file (``--args``), so ``/proc/1/cmdline`` names no host folder.

Limits count everything the entrant starts: as root, a cgroup an entrant (v1 controllers, or cgroup2 where its
controllers are delegated) counts the CPU of all its processes and threads, caps its memory as a whole (its
``/tmp`` included) and its number of processes (``pids.max`` holds for root too), and gives it at most one core.
Without cgroups the referee polls the entrant's process tree (CPU and memory, ``/tmp`` counted as full), and
``RLIMIT_NPROC`` caps its processes.

``start`` runs a command this way (the tournament's referee uses it, and so can any caller that runs untrusted
code); ``wrap`` gives bubblewrap's plain command line, without the filter and with its options in sight.
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
import tempfile
import threading
import time
from pathlib import Path
from typing import NamedTuple

from . import seccomp

PACKAGE = Path(__file__).resolve().parent.parent  # the solitaire package, bound read-only into each sandbox
NOBODY = 65534
UIDS = 0x7F000000  # run as root, entrants get user ids from here on: ids no account uses (see box_uid)
TMP_MB = 64  # the sandbox's /tmp holds at most this many megabytes
CGROUP = Path("/sys/fs/cgroup")
JOIN = 'for f in $SOLITAIRE_CGROUP; do echo $$ > "$f" || exit 97; done; unset SOLITAIRE_CGROUP; exec "$@"'
_FOUND: dict[str, object] = {}
_COUNT = itertools.count()
_LOCK = threading.Lock()
_LEFT: list[Path] = []  # cgroups to remove once their last process has ended


class Sandbox(NamedTuple):
    """How entrants are contained here: ``isolated`` (bubblewrap works), ``cgroups`` ("v1", "v2" or ""), one
    line saying so, and whether the seccomp filter is loaded (``filtered``)."""

    isolated: bool
    cgroups: str
    line: str
    filtered: bool = False


def detect() -> Sandbox:
    """What this machine offers (tried once, then remembered): bubblewrap's namespaces, the filter, cgroups.

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
    if shutil.which("bwrap") is None:
        return Sandbox(False, "", "sandbox: none: bubblewrap is not installed (apt-get install bubblewrap), so "
                                  "entrants would run as you, able to read your files")
    filtered, why = seccomp.program() is not None, ""
    if filtered:
        why = _probe(True)
        filtered = not why
    if not filtered:
        why = _probe(False)
    if why:
        return Sandbox(False, "", f"sandbox: none: bubblewrap cannot make namespaces here ({why[:120]}), so "
                                  "entrants would run as you, able to read your files")
    groups = cgroup_kind()
    who = "as a user of its own" if os.geteuid() == 0 else "in a user namespace of its own"
    limits = (f"cgroup {groups} limits on all their processes (CPU, memory, processes)" if groups else
              "limits polled on their process trees (no cgroup here)")
    guard = "a seccomp filter on shared kernel state" if filtered else "NO seccomp filter (keyrings and the page cache are shared)"
    tmp = f"/tmp of at most {TMP_MB} MB" if "--size" in _bwrap_help() else "/tmp without a size limit (this bubblewrap cannot size it)"
    return Sandbox(True, groups, f"sandbox: bubblewrap: each entrant {who}, in its own PID, mount, IPC and network "
                                 f"namespaces, seeing only Python and the kit, with {guard} and a {tmp}; {limits}",
                   filtered)


def _probe(filtered: bool) -> str:
    """Start a sandboxed Python that imports the kit: "" if it works, else why not."""
    try:
        probe = start([sys.executable, "-c", "import solitaire.cards"], [], env=sandbox_env(), filtered=filtered,
                      stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        _, err = probe.communicate(timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return str(e) or type(e).__name__
    if probe.returncode == 0:
        return ""
    return (err.decode(errors="replace").strip().splitlines() or [f"exit code {probe.returncode}"])[-1]


def _bwrap_help() -> str:
    """bubblewrap's list of options, to know whether it can size a tmpfs (``--size``: 0.7 and later, and not
    when bubblewrap is installed setuid root, where it refuses it); "" where it cannot."""
    if "help" not in _FOUND:
        try:
            found = subprocess.run(["bwrap", "--help"], capture_output=True, text=True, timeout=30).stdout
            _FOUND["help"] = "" if os.stat(shutil.which("bwrap")).st_mode & 0o4000 else found
        except (OSError, TypeError, subprocess.TimeoutExpired):
            _FOUND["help"] = ""
    return _FOUND["help"]


def sandbox_env() -> dict[str, str]:
    """The environment an entrant starts with: nothing of the teacher's (no token, no home), one maths thread.

    >>> sorted(sandbox_env())[:3]
    ['HOME', 'LANG', 'MKL_NUM_THREADS']
    """
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1",
           "PYTHONPATH": str(PACKAGE.parent), "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
           "MKL_NUM_THREADS": "1"}
    return env


def box_uid() -> int:
    """A user id for one sandbox run as root: no account's, and no other sandbox's of this process (the next
    1,024 starts), nor, but by chance, of another referee's. Kernel state kept by user (the user keyring, the
    count of a user's processes, pipe buffers, inotify and message-queue quotas) is then not shared by entrants.

    >>> UIDS <= box_uid() < UIDS + 2 ** 24
    True
    """
    return UIDS + ((os.getpid() & 0x3FFF) << 10) + (next(_COUNT) & 0x3FF)


def _python_dirs() -> list[str]:
    """The folders the entrant's Python needs: the installation, the virtual environment, its site-packages."""
    dirs = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable)),
            str(PACKAGE)}
    dirs |= {p for p in sys.path if p.endswith(("site-packages", "dist-packages")) and os.path.isdir(p)}
    dirs = {os.path.realpath(d) for d in dirs if d and os.path.isdir(d)} | {d for d in dirs if d and os.path.isdir(d)}
    system = ("/usr", "/bin", "/lib", "/lib32", "/lib64", "/sbin")
    dirs = {d for d in dirs if not any(d == s or d.startswith(s + "/") for s in system)}
    return sorted(d for d in dirs if not any(d != o and d.startswith(o + "/") for o in dirs))


def options(hidden, tmp_mb: int = TMP_MB, extra=()) -> list[str]:
    """bubblewrap's options for a fresh sandbox (without the command); each folder in ``hidden`` (results,
    entrants, logs) that lies inside a bound folder is covered by an empty, read-only one; ``extra`` (more
    bubblewrap options, such as a graded kit bound read-only) comes before the root is made read-only.

    >>> options([])[:2]
    ['--unshare-pid', '--unshare-net']
    """
    args = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
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
    size = ["--size", str(tmp_mb << 20)] if "--size" in _bwrap_help() else []
    args += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", *size, "--tmpfs", "/tmp"]
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
            args += ["--tmpfs", h, "--remount-ro", h]
    args += list(extra)
    # the root (bubblewrap's own tmpfs, where the folders above were made) and /dev: nothing more can be written
    return args + ["--remount-ro", "/dev", "--remount-ro", "/"]


def wrap(argv: list[str], hidden: list[str]) -> list[str]:
    """bubblewrap's plain command line for ``argv`` in a fresh sandbox (``options``): the namespaces and the
    mounts, without the seccomp filter, and with its options in sight of the sandbox (``/proc/1/cmdline``);
    ``start`` adds both.

    >>> wrap(["python"], [])[:2]
    ['bwrap', '--unshare-pid']
    """
    return ["bwrap", *options(hidden), "--", *argv]


def start(argv: list[str], hidden=(), *, env: dict[str, str], cgroup: Cgroup | None = None, pass_fds=(),
          filtered: bool | None = None, tmp_mb: int = TMP_MB, extra=(), **popen) -> subprocess.Popen:
    """Start ``argv`` in a fresh sandbox under the seccomp filter (unless ``filtered`` is False; None: where
    ``detect`` found it works), in ``cgroup`` if given. bubblewrap reads its options and the filter from
    unlinked files it closes before the command starts, so the sandbox sees neither. ``popen``: the rest of
    ``subprocess.Popen``'s arguments (``stdout``, ``start_new_session``...).

    >>> p = start([sys.executable, "-c", "print(1)"], env=sandbox_env(), stdout=subprocess.PIPE) if detect().isolated else None
    >>> p.communicate()[0] if p else b"1\\n"
    b'1\\n'
    """
    filtered = detect().filtered if filtered is None else filtered
    with tempfile.TemporaryFile() as args, tempfile.TemporaryFile() as program:
        opts = options(hidden, tmp_mb, extra)
        if filtered:
            program.write(seccomp.program())
            program.flush()
            program.seek(0)
            opts += ["--seccomp", str(program.fileno())]
        args.write(b"".join(os.fsencode(a) + b"\0" for a in opts))
        args.flush()
        args.seek(0)
        command = ["bwrap", "--args", str(args.fileno()), "--", *argv]
        if cgroup is not None:
            env = env | {"SOLITAIRE_CGROUP": " ".join(cgroup.procs_files)}
            command = ["/bin/sh", "-c", JOIN, "sh", *command]
        return subprocess.Popen(command, pass_fds=(*pass_fds, args.fileno(), program.fileno()), env=env, **popen)


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
    """"v1" or "v2" where this process may make cgroups with the CPU, memory and process controllers, else "":
    only as root (a user's delegated cgroup2 subtree holds the user's own processes, so its controllers cannot be
    handed down to new cgroups beside them without moving the teacher's process first, which the kit does not do).

    >>> cgroup_kind() in ("v1", "v2", "")
    True
    """
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
        if "stale" not in _FOUND:  # once a process: what referees that were killed, or were slow to end, left
            _FOUND["stale"] = True
            sweep_stale()
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
        self.cpu_fd = os.open(self.cpu_file, os.O_RDONLY)  # read again at offset 0 after each move: no open()

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
            text = os.pread(self.cpu_fd, 4096, 0).decode()
        except (OSError, TypeError):  # removed (TypeError: its descriptor was closed, and is None)
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
        if self.cpu_fd is not None:
            os.close(self.cpu_fd)
            self.cpu_fd = None
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


def sweep_stale() -> None:
    """Remove the entrants' cgroups, beside this process's own, that a referee no longer running left behind (one
    killed with ``kill -9``, or whose entrants took longer to end than its exit waited), once they hold no process.

    >>> sweep_stale()
    """
    places = [(CGROUP / c, _own(c)) for c in ("cpuacct", "memory", "pids", "cpu")] + [(CGROUP, _own(""))]
    for top, own in places:
        if own is None or not top.is_dir():
            continue
        with contextlib.suppress(OSError):
            for d in (top / own.lstrip("/")).glob("solitaire-*-*"):
                pid = d.name.split("-")[1]
                if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
                    with contextlib.suppress(OSError):
                        d.rmdir()  # (refused while a process is in it)


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
