"""The entrant's side of a tournament: one strategy in its own process, answering one decision at a time.

``solitaire.tournament.referee`` starts ``python -m solitaire.tournament.entrant IN OUT ...`` with two pipe
descriptors, in its sandbox where there is one (``solitaire.tournament.sandbox``), under its seccomp filter. It
first drops what would let it read the referee's memory (on Linux: every capability, the bounding set first, and
no way to regain one; run as root in a sandbox, it also becomes a user of its own), limits its own memory
(``RLIMIT_AS``), its total CPU (``RLIMIT_CPU``, a backstop), the size of any file it writes (``RLIMIT_FSIZE``)
and its open files, then loads the strategy (a file's source, or a pickled object) and serves:

- the referee sends length-prefixed pickles: ``("game", variant)`` at a game's start, then for each decision
  ``("move", obs, moves)`` with the observation as plain numbers (no face-down card, no seed) and the moves
  as ``(kind, source, target, count)`` tuples;
- the entrant answers one line of text: ``m i`` (the move ``moves[i]``), ``r i j ...`` (its ranking, for a
  strategy with ``rank``), ``x`` (it resigns), or ``f kind why`` (it failed).

The referee never unpickles what this process sends: a strategy that takes over this process can still only
write a line of text, which the referee checks like any other answer. This module imports only the rules core
and the players, so a process starts in about a tenth of a second.
"""
from __future__ import annotations

import copy
import ctypes
import os
import pickle
import resource
import signal
import struct
import sys
import traceback
import types

from ..cards import Card
from ..moves import Move
from ..state import Observation

CARDS = {code: Card(code) for code in range(64) if 1 <= code % 16 <= 13}  # every card, made once
HEADER = struct.Struct("<I")
MOST_LINE = 65_536  # an answer longer than this is not an answer


def encode_observation(obs: Observation) -> tuple:
    """The observation as plain numbers and bytes (a card's code is below 64, so a pile is a ``bytes``),
    without its variant (sent once a game).

    >>> from solitaire import KLONDIKE
    >>> from solitaire.state import deal, observe
    >>> encode_observation(observe(deal(KLONDIKE, 1)))[3]  # the seven columns' face-up cards: 7♦ is 1 * 16 + 7
    (b'\\x17', b'\\x16', b'\\x12', b'\\x02', b'-', b';', b'8')
    """
    return (obs.stock_size, bytes(obs.waste), tuple(map(bytes, obs.foundations)), tuple(map(bytes, obs.columns)),
            obs.hidden, obs.recycles)


def encode_position(p) -> tuple:
    """What ``encode_observation(observe(p))`` gives, made straight from a ``Position`` (the referee's, a
    little faster): the face-down cards and the stock's order are left out all the same.

    >>> from solitaire import KLONDIKE
    >>> from solitaire.state import deal, observe
    >>> encode_position(deal(KLONDIKE, 1)) == encode_observation(observe(deal(KLONDIKE, 1)))
    True
    """
    return (len(p.stock), bytes(p.waste), tuple(map(bytes, p.foundations)),
            tuple([bytes(col[h:]) for col, h in zip(p.columns, p.hidden)]), p.hidden, p.recycles)


_MOVES: dict[tuple, Move] = {}  # moves made before, by their numbers
_PILES: dict[bytes, tuple] = {}  # piles decoded before: most piles do not change from one move to the next


def _pile(data: bytes) -> tuple:
    pile = _PILES.get(data)
    if pile is None:
        if len(_PILES) > 50_000:
            _PILES.clear()
        pile = _PILES[data] = tuple(CARDS[c] for c in data)
    return pile


def decode_observation(variant, data: tuple) -> Observation:
    """The ``Observation`` again, with ``Card`` objects, from ``encode_observation``'s numbers.

    >>> from solitaire import KLONDIKE
    >>> from solitaire.state import deal, observe
    >>> obs = observe(deal(KLONDIKE, 1))
    >>> decode_observation(KLONDIKE, encode_observation(obs)) == obs
    True
    """
    stock, waste, foundations, columns, hidden, recycles = data
    return Observation(variant, stock, _pile(waste), tuple(map(_pile, foundations)), tuple(map(_pile, columns)),
                       hidden, recycles)


class FunctionStrategy:
    """Lets a file's plain function ``choose(obs, moves)`` play as a strategy (a move's text is read too)."""

    def __init__(self, fn, name: str) -> None:
        self.fn, self.name = fn, name

    def choose(self, obs, moves):
        return self.fn(obs, moves)  # a move's text is read by answer_for


def strategy_from_source(source: str, filename: str, name: str):
    """Run an entrant file's source and return its ``strategy`` object, or its ``choose`` function wrapped.

    >>> strategy_from_source("def choose(obs, moves):\\n    return moves[0]\\n", "ada.py", "ada").name
    'ada'
    >>> strategy_from_source("x = 1", "bob.py", "bob")
    Traceback (most recent call last):
    ValueError: bob.py defines neither `strategy` (an object with a choose(obs, moves) method) nor a function `choose(obs, moves)`: add one of them
    """
    module = types.ModuleType(name)
    module.__file__ = filename
    sys.modules[name] = module
    exec(compile(source, filename, "exec"), module.__dict__)
    found = module.__dict__.get("strategy")
    if found is not None and callable(getattr(found, "choose", None)):
        return found
    if callable(module.__dict__.get("choose")):
        return FunctionStrategy(module.__dict__["choose"], name)
    raise ValueError(f"{os.path.basename(filename)} defines neither `strategy` (an object with a choose(obs, moves) "
                     "method) nor a function `choose(obs, moves)`: add one of them")


def drop_privileges(uid: int) -> None:
    """Become ``uid`` (run as root in a sandbox: a user of its own, ``sandbox.box_uid()``; -1: stay who it is),
    in no group, having first emptied the capability bounding set (only root may: so before the switch), and
    forbid gaining anything back through exec. Every capability goes with root; without root there is nothing to
    drop but the ambient set. Any process that runs untrusted code in a sandbox started as root calls it first.

    >>> import subprocess
    >>> code = "from solitaire.tournament.entrant import drop_privileges as d; d(-1); print(open('/proc/self/status').read())"
    >>> status = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    >>> status = status if sys.platform.startswith("linux") else "CapBnd: 0000000000000000"
    >>> [line.split()[1] for line in status.splitlines() if line.startswith("CapBnd")] or ["(not Linux)"]
    ['0000000000000000']
    """
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        libc = None
    if libc is not None:
        for cap in range(64):  # the bounding set: no capability can come back through exec
            libc.prctl(24, cap, 0, 0, 0)  # PR_CAPBSET_DROP (fails quietly without CAP_SETPCAP: nothing to drop then)
        libc.prctl(47, 4, 0, 0, 0)  # PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL
    if uid >= 0:
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
    if libc is not None:
        libc.prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS
        header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
        data = (ctypes.c_uint32 * 6)()  # effective, permitted, inheritable: all empty
        libc.capset(header, data)


OPEN_FILES = 128  # descriptors a process may hold: each pipe or epoll watch it fills is kernel memory


def _set_limits(memory_mb: int, cpu_seconds: int, output_bytes: int) -> None:
    """Limits this process cannot raise again: address space, total CPU (a backstop: the referee times each
    move), the size of a file it writes (so a flood of output stops at ``output_bytes``), open files."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the file limit fails instead of killing us
    for limit, value in ((resource.RLIMIT_AS, memory_mb * 2 ** 20), (resource.RLIMIT_CPU, cpu_seconds),
                         (resource.RLIMIT_FSIZE, output_bytes), (resource.RLIMIT_NOFILE, OPEN_FILES)):
        resource.setrlimit(limit, (value, value))


class _Channel:
    """The two pipes to the referee: length-prefixed pickles in, one line of text out."""

    def __init__(self, fd_in: int, fd_out: int) -> None:
        self.fd_in, self.fd_out, self.buffer = fd_in, fd_out, b""

    def receive(self):
        while len(self.buffer) < HEADER.size or len(self.buffer) < HEADER.size + HEADER.unpack_from(self.buffer)[0]:
            chunk = os.read(self.fd_in, 1 << 16)
            if not chunk:
                raise EOFError("the referee closed the pipe")
            self.buffer += chunk
        end = HEADER.size + HEADER.unpack_from(self.buffer)[0]
        message, self.buffer = pickle.loads(self.buffer[HEADER.size:end]), self.buffer[end:]
        return message

    def send(self, *words) -> None:
        data = (" ".join(map(str, words)).replace("\n", " ") + "\n").encode()
        while data:
            data = data[os.write(self.fd_out, data):]


def answer_for(strategy, obs, moves: list, use_rank: bool) -> tuple:
    """The answer to one decision, as the words of the line the referee reads: ``m i`` (the move ``moves[i]``),
    ``r i j ...`` (a ranking), ``x`` (resign) or ``f kind why``.

    >>> from solitaire import KLONDIKE
    >>> from solitaire.moves import legal_moves
    >>> from solitaire.state import deal, observe
    >>> p = deal(KLONDIKE, 1)
    >>> moves = legal_moves(p)
    >>> answer_for(FunctionStrategy(lambda obs, moves: "draw", "d"), observe(p), moves, False)[0]
    'm'
    >>> answer_for(FunctionStrategy(lambda obs, moves: 42, "n"), observe(p), moves, False)
    ('f', 'notamove', 'answered int 42, not a Move')
    """
    if use_rank:
        index = {m: i for i, m in enumerate(moves)}
        return ("r", *[index.get(m, -1) if isinstance(m, tuple) else -1 for m in strategy.rank(obs, moves)])
    choice = strategy.choose(obs, moves)
    if choice is None:
        return ("x",)
    if isinstance(choice, str):
        try:
            from ..notation import move_from_text
            choice = move_from_text(choice)
        except ValueError as e:
            return ("f", "notamove", str(e)[:200])
    if not isinstance(choice, Move):
        return ("f", "notamove", f"answered {type(choice).__name__} {_short(choice)}, not a Move")
    try:
        return ("m", moves.index(choice))
    except ValueError:
        return ("f", "illegal", f"answered {choice}, which is not one of the legal moves offered")


def _short(value) -> str:
    try:
        text = repr(value)
    except Exception:
        text = f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:55] + "…"


def _serve(channel: _Channel) -> None:
    """Load the strategy, then answer decisions until the referee closes the pipe."""
    kind, payload, name = channel.receive()
    try:
        strategy = strategy_from_source(*payload, name) if kind == "source" else pickle.loads(payload)
    except BaseException as e:  # a file that raises on import, even SystemExit, is named and left out
        channel.send("f", "import", f"{type(e).__name__}: {e}"[:300])
        return
    use_rank = callable(getattr(strategy, "rank", None))
    channel.send("ok", int(use_rank), str(getattr(strategy, "name", "") or name)[:80])
    player, variant = strategy, None
    while True:
        try:
            message = channel.receive()
        except EOFError:
            return
        if message[0] == "game":
            variant = message[1]
            try:
                player = copy.deepcopy(strategy)  # a fresh copy a game, as solitaire.experiments gives
            except Exception:
                player = strategy
            continue
        obs = decode_observation(variant, message[1])
        moves = [_MOVES.get(m) or _MOVES.setdefault(m, Move(*m)) for m in message[2]]
        try:
            channel.send(*answer_for(player, obs, moves, use_rank))
        except MemoryError:
            channel.send("f", "memory", "MemoryError: the strategy went over its memory limit")
            return
        except Exception as e:
            where = traceback.extract_tb(e.__traceback__)[-1]
            channel.send("f", "crash", f"{type(e).__name__}: {e} (line {where.lineno})"[:300])
            return


class _CappedOutput:
    """``print`` for an entrant: the first ``most`` characters go to its log, the rest nowhere (no error)."""

    def __init__(self, stream, most: int) -> None:
        self.stream, self.left = stream, most

    def write(self, text: str) -> int:
        if self.left > 0:
            try:
                self.stream.write(text[:self.left])
                self.stream.flush()
            except (OSError, ValueError):
                self.left = 0
            self.left -= len(text)
        return len(text)

    def flush(self) -> None:
        pass


def main(argv: list[str]) -> None:
    fd_in, fd_out, memory_mb, cpu_seconds, output_bytes, uid, nproc = map(int, argv)
    drop_privileges(uid)
    _set_limits(memory_mb, cpu_seconds, output_bytes)
    if nproc > 0 and hasattr(resource, "RLIMIT_NPROC"):  # without a cgroup: a cap on this user's processes
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
    sys.stdout = sys.stderr = _CappedOutput(sys.stdout, output_bytes // 2)
    _serve(_Channel(fd_in, fd_out))


if __name__ == "__main__":
    main(sys.argv[1:])
