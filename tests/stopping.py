"""Ctrl-C as a terminal sends it: the real command in a subprocess of its own process group, SIGINT to the whole
group (the command and every process it started), once, or twice 2 s apart; then what is left of the group."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}


class Stopped(NamedTuple):
    code: int
    out: str
    err: str
    seconds: float  # from the first Ctrl-C to the end of the command
    left: list[str]  # processes of its group still alive afterwards (none, for a clean stop)


def _sigint_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # a background job's test run may ignore SIGINT: the child must not


def living_in_group(pgid: int) -> list[str]:
    """The processes of process group ``pgid`` that are alive (zombies aside), as "pid command" (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(f"{entry.name} {stat.split('(', 1)[1].rsplit(')', 1)[0]}")
    return found


def interrupt(args: list[str], cwd: Path, ready: Callable[[], bool], *, times: int = 1, gap: float = 2.0,
              wait: float = 300, settle: float = 0.0) -> Stopped:
    """Run ``python -m solitaire ARGS`` in its own process group, wait until ``ready()`` (at most ``wait``
    seconds, then ``settle`` more), send Ctrl-C ``times`` times ``gap`` seconds apart, and wait for the end."""
    child = subprocess.Popen([sys.executable, "-m", "solitaire", *args], cwd=cwd, env=ENV, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True, preexec_fn=_sigint_default)
    deadline = time.monotonic() + wait
    while child.poll() is None and not ready() and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(settle)
    first = time.monotonic()
    for n in range(times):
        if n:
            time.sleep(gap)
        try:
            os.killpg(child.pid, signal.SIGINT)
        except ProcessLookupError:
            break
    try:
        out, err = child.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        left = living_in_group(child.pid)
        os.killpg(child.pid, signal.SIGKILL)
        out, err = child.communicate()
        return Stopped(-1, out, err + "\n(still running 120 s after Ctrl-C)", time.monotonic() - first, left)
    seconds = time.monotonic() - first
    left = living_in_group(child.pid)
    if left:
        os.killpg(child.pid, signal.SIGKILL)
    return Stopped(child.returncode, out, err, seconds, left)


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (its path inside it -> its bytes)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
