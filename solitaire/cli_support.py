"""What the command line checks before any work, so that no output destroys a result.

``check_output`` refuses, in one line, an output file that is the run's own results file (``--out``) or any
existing SQLite file (an earlier run's results, a tournament's secret seeds); ``atomic_path`` writes an output
beside its final name and renames it there only once it is whole, so that an interrupted write leaves the old
file as it was; ``connect_scheduler`` names the address of a Dask scheduler it cannot reach. The ``experiment``
and ``tournament`` commands (``solitaire.cli``) both use them.
"""
from __future__ import annotations

import contextlib
import errno
import os
import re
import signal
import socket
import stat
import tempfile
import threading
from collections.abc import Iterator

from .cards import quote

# The first bytes of the files SQLite keeps a database in: the database itself, its write-ahead log (two byte
# orders) and its rollback journal. Overwriting any of them loses results.
SQLITE_MAGIC = {b"SQLite format 3\x00": "an SQLite database", b"\x37\x7f\x06\x82": "an SQLite write-ahead log",
                b"\x37\x7f\x06\x83": "an SQLite write-ahead log",
                b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7": "an SQLite rollback journal"}


def sqlite_kind(path: str | os.PathLike) -> str | None:
    """What kind of SQLite file ``path`` is, by its first bytes; None for any other file, or none at all.

    >>> import sqlite3, tempfile
    >>> db = os.path.join(tempfile.mkdtemp(), "r.sqlite")
    >>> sqlite3.connect(db).execute("CREATE TABLE t (x)").connection.commit()
    >>> sqlite_kind(db), sqlite_kind(db + ".csv")
    ('an SQLite database', None)
    """
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a pipe is never opened here: reading it could block
            return None
        with open(path, "rb") as f:
            head = f.read(16)
    except OSError:  # no such file, or one that cannot be read
        return None
    return next((kind for magic, kind in SQLITE_MAGIC.items() if head.startswith(magic)), None)


def same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """Do the two paths name one file (the same path written two ways, a link, or one not made yet)?

    >>> same_file("results.sqlite", "./results.sqlite"), same_file("a.csv", "b.csv")
    (True, False)
    """
    with contextlib.suppress(OSError):
        if os.path.samefile(a, b):
            return True
    return os.path.realpath(a) == os.path.realpath(b)


def check_output(option: str, path: str | None, results: str | None = None, example: str = "games.csv") -> None:
    """Refuse, before any work, an output file that cannot be written or whose writing would destroy results.

    ``results`` is the run's own results file (its ``--out``). An existing file that is no SQLite file, such as
    an earlier table, may be written over.

    >>> check_output("--table", "results.sqlite", results="./results.sqlite")
    Traceback (most recent call last):
    ValueError: --table 'results.sqlite' is this run's results file (--out): writing there would destroy the results; give another file, such as games.csv

    Raises:
        ValueError: (one line) for an empty path, a folder, a pipe or a device, the run's results file, an
            existing SQLite file, or a file in a folder that does not exist or may not be written.
    """
    if path is None:
        return
    if not path:
        raise ValueError(f"{option} is empty: give a file name, such as {example}")
    named = f"{option} {quote(path, 100)}"
    _check_kind(named, path, example)
    check_not_results(option, path, results, example)
    _check_writable(named, path)


def check_not_results(option: str, path: str | None, results: str | None = None, example: str = "games.csv") -> None:
    """Refuse an output file that is the run's results file (``results``) or an existing SQLite file.

    >>> check_not_results("--out", "report.png")  # no such file yet: nothing to destroy

    Raises:
        ValueError: (one line) naming the file and what writing there would destroy.
    """
    if path is None:
        return
    named = f"{option} {quote(path, 100)}"
    if results and same_file(path, results):
        raise ValueError(f"{named} is this run's results file (--out): writing there would destroy the results; "
                         f"give another file, such as {example}")
    kind = sqlite_kind(path)
    if kind:
        raise ValueError(f"{named} is {kind} (an earlier run's results?): writing there would destroy it; give "
                         f"another file, such as {example}")


def _check_kind(named: str, path: str, example: str) -> None:
    """Refuse a folder, a pipe or a device (a new file, or a link to nowhere, is made when written)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    if stat.S_ISDIR(mode):
        raise ValueError(f"{named} is a folder: give a file name, such as {example}")
    if not stat.S_ISREG(mode):
        raise ValueError(f"{named} is not a regular file (a pipe or a device): give a file name, such as {example}")


def _check_writable(named: str, path: str) -> None:
    """Refuse a file that cannot be written, by making (and removing) a file beside it, as ``atomic_path`` will.

    >>> _check_writable("--out 'nodir/r.png'", "nodir/r.png")
    Traceback (most recent call last):
    ValueError: --out 'nodir/r.png': the folder 'nodir' does not exist: give a file in a folder that exists
    """
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        shown = os.path.dirname(path) or folder
        raise ValueError(f"{named}: the folder {quote(shown, 100)} does not exist: give a file in a folder that "
                         "exists")
    try:
        fd, probe = tempfile.mkstemp(prefix=".probe-", dir=folder)
    except OSError as e:
        raise ValueError(f"cannot write {named} ({e.strerror}): give a file in a folder that you may write "
                         "to") from None
    os.close(fd)
    os.remove(probe)
    if os.path.exists(path) and not os.access(path, os.W_OK):  # a file kept read-only is not replaced either
        raise ValueError(f"cannot write {named} (Permission denied): give a file that you may write to")


def check_ours(named: str, path: str, looks_ours, what: str, example: str) -> None:
    """Refuse to write over an existing file that this kind of output did not make (``looks_ours(first bytes)``
    says whether it did): another tool's file, such as the ``grades.csv`` of ``nbgrader export``.

    >>> import tempfile
    >>> grades = os.path.join(tempfile.mkdtemp(), "grades.csv")
    >>> _ = open(grades, "w").write("assignment,duedate,timestamp,student_id,raw_score,score,max_score\\n")
    >>> check_ours("--by-exercise", grades, lambda head: head.startswith(b"assignment,exercise,"),
    ...            "a table of grades per exercise", "by_exercise.csv")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: --by-exercise '...grades.csv' is not a table of grades per exercise that this command wrote (...): writing there would destroy it; give another file, such as by_exercise.csv
    """
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return
        with open(path, "rb") as f:
            head = f.read(200)
    except OSError:
        return  # a new file
    if head and not looks_ours(head):
        first = head.split(b"\n", 1)[0].decode("utf-8", "replace")[:60]
        raise ValueError(f"{named} {quote(path, 100)} is not {what} that this command wrote ({quote(first)}...): "
                         f"writing there would destroy it; give another file, such as {example}")


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[str]:
    """A temporary file's path in ``path``'s folder (with its suffix) to write the output to; renamed to ``path``
    when the block ends without an error, removed otherwise: ``path`` is never left half written.

    >>> folder = tempfile.mkdtemp()
    >>> with atomic_path(os.path.join(folder, "games.csv")) as tmp:
    ...     _ = open(tmp, "w").write("a,b\\n")
    >>> os.listdir(folder), open(os.path.join(folder, "games.csv")).read()
    (['games.csv'], 'a,b\\n')
    """
    path = os.fspath(path)
    folder, name = os.path.split(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=os.path.splitext(name)[1] or ".tmp", dir=folder)
    os.close(fd)
    try:
        os.chmod(tmp, _mode_for(path))
        yield tmp
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.remove(tmp)


def _mode_for(path: str) -> int:
    """The permissions of the file being replaced, or those ``open`` gives a new file (0o666 less the umask)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


SCHEDULER_SECONDS = 5  # how long to try a Dask scheduler before saying it cannot be reached


def connect_scheduler(address: str, seconds: float = SCHEDULER_SECONDS):
    """A ``distributed.Client`` of the Dask scheduler at ``address``; one that cannot be reached is named within
    a few seconds (a TCP address is first tried with a plain connection, which a dead port refuses at once).

    >>> connect_scheduler("tcp://127.0.0.1:1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: cannot reach the Dask scheduler at --scheduler 'tcp://127.0.0.1:1' (Connection refused...): start it (dask scheduler) or check the address, such as tcp://127.0.0.1:8786

    Raises:
        ValueError: (one line) naming the address and why it could not be reached.
    """
    def unreachable(why: object) -> ValueError:
        return ValueError(f"cannot reach the Dask scheduler at --scheduler {quote(address, 100)} ({why}): start it "
                          "(dask scheduler) or check the address, such as tcp://127.0.0.1:8786")

    host_port = re.fullmatch(r"(?:tcp://)?\[?([^\]/]+?)\]?:(\d+)/?", address.strip())
    if host_port:
        try:
            socket.create_connection((host_port[1], int(host_port[2])), timeout=seconds).close()
        except (OSError, ValueError, OverflowError) as e:
            why = e.strerror if isinstance(e, OSError) and e.strerror else "no answer" if isinstance(
                e, TimeoutError) else e
            raise unreachable(f"{why}, after trying for at most {seconds:g} s") from None
    from distributed import Client
    try:
        return Client(address, timeout=max(seconds, 10))
    except (OSError, ValueError, TypeError) as e:  # a timeout is an OSError; an unknown scheme a ValueError
        raise unreachable(e) from None
    except Exception as e:  # noqa: BLE001 - another server answered there, with bytes Dask cannot read
        raise unreachable(f"something answers there, but not as a Dask scheduler: {type(e).__name__}: "
                          f"{str(e)[:100]}") from None


# --- how a command ends: Ctrl-C, exit codes, errors of the machine ---------------------------------------------------
EXIT_FAILED = 1  # the command could not do its work here: a missing package, a full disk, a tool that failed
EXIT_USAGE = 2  # what was typed cannot be used: a bad option or value, a path that cannot be used
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT, as a shell reports it)
EXIT_BROKEN_PIPE = 141  # the reader of the output went away (128 + SIGPIPE, as for Unix tools): said by no message

# An OSError with one of these is a path the user gave that cannot be used (bad input, exit 2); any other (a full
# disk, an input/output error) is the machine's (exit 1).
PATH_ERRNOS = {errno.EACCES, errno.EPERM, errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.EROFS, errno.EEXIST,
               errno.ENAMETOOLONG, errno.ELOOP, errno.ENOTEMPTY}


class CommandError(Exception):
    """What stopped a command that was given good input: a missing package, a full disk, a tool that failed; one
    line, and the command exits with ``EXIT_FAILED``."""


def is_path_error(error: OSError) -> bool:
    """Is this error a path that cannot be used (the user's input), rather than the machine failing?

    >>> is_path_error(PermissionError(errno.EACCES, "Permission denied")), is_path_error(OSError(errno.ENOSPC, "full"))
    (True, False)
    """
    return error.errno in PATH_ERRNOS


class catch_interrupts:
    """Ctrl-C while a command runs: the first raises ``KeyboardInterrupt`` (the command stops, ends its workers and
    says what it kept); any later one is only noted, so that it cannot cut the stopping short and leave workers or
    half-written files behind. Outside the main thread nothing changes.

    >>> with catch_interrupts() as caught:
    ...     signal.getsignal(signal.SIGINT) == caught._first
    True
    """

    def __init__(self, ending: bool = False) -> None:
        self.ending = ending  # the program ends after the block: a late Ctrl-C is ignored, not raised into its exit

    def __enter__(self) -> "catch_interrupts":
        self.before = None
        if threading.current_thread() is threading.main_thread():
            self.before = signal.signal(signal.SIGINT, self._first)
        return self

    def _first(self, signum: int, frame: object) -> None:
        signal.signal(signal.SIGINT, self._again)
        raise KeyboardInterrupt

    def _again(self, signum: int, frame: object) -> None:
        """A second Ctrl-C: the command is already stopping."""

    def __exit__(self, *exc: object) -> None:
        if self.before is not None:
            signal.signal(signal.SIGINT, signal.SIG_IGN if self.ending else self.before)


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C while the block runs (moving a finished folder into place) and raise it at the end, so that the
    block is done whole or not begun. Outside the main thread nothing changes.

    >>> said = []
    >>> before = signal.signal(signal.SIGINT, lambda *_: said.append("Ctrl-C"))  # the command's handler
    >>> with interrupts_deferred():
    ...     signal.raise_signal(signal.SIGINT)  # Ctrl-C here waits for the block to end
    ...     said.append("moved into place")
    >>> said, signal.signal(signal.SIGINT, before) is not None
    (['moved into place', 'Ctrl-C'], True)
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    before = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
    if caught:
        signal.raise_signal(signal.SIGINT)  # the handler that was there (the command's) raises KeyboardInterrupt
