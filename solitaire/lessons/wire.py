"""What crosses the pipe between a grading process and a graded answer's process, and how.

Messages are length-prefixed pickles, both ways. The grading process unpickles what the answer's process sends
with ``SafeUnpickler``, which builds only plain values (numbers, text, tuples, lists, dicts, sets, fractions,
decimals, numpy numbers and arrays) and the kit's own values (cards, moves, positions, observations, variants,
outcomes, a win chance, and a game, rebuilt from its start and moves): a pickle that names any other class or
function is refused, so what a student's code sends can never run code in the grading process. The answer's process
sends its values through ``dumps``, which turns a pandas Series into a dict and a Game into its record first.

This module runs in the answer's process too (a graded kit holds it whole), so it imports only the rules core.
"""
from __future__ import annotations

import io
import os
import pickle
import struct
from typing import Any

HEADER = struct.Struct("<Q")
MOST_MESSAGE = 512 << 20  # a message longer than this is not an answer

# The classes and functions a grading process lets a pickle from the answer's process name: data only.
ALLOWED = {
    ("builtins", "set"), ("builtins", "frozenset"), ("builtins", "complex"), ("builtins", "slice"),
    ("builtins", "range"), ("builtins", "bytearray"), ("collections", "OrderedDict"), ("collections", "Counter"),
    ("fractions", "Fraction"), ("decimal", "Decimal"),
    ("numpy", "ndarray"), ("numpy", "dtype"), ("numpy.core.multiarray", "_reconstruct"),
    ("numpy.core.multiarray", "scalar"), ("numpy._core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "scalar"),
    ("solitaire.cards", "Card"), ("solitaire.moves", "Move"), ("solitaire.state", "Position"),
    ("solitaire.state", "Observation"), ("solitaire.variants", "Variant"), ("solitaire.endgame", "Outcome"),
    ("solitaire.expert", "WinChance"), ("solitaire.lessons.wire", "game_from_record"),
}
NUMPY_TYPES = ("numpy.dtypes",)  # numpy 2's dtype classes (numpy.dtypes.Float64DType, ...): data too


class Refused(pickle.UnpicklingError):
    """A pickle named a class or function that a grading process does not build."""


class SafeUnpickler(pickle.Unpickler):
    """An unpickler that builds only the values of ``ALLOWED``.

    >>> from solitaire import KLONDIKE, deal
    >>> loads(dumps((deal(KLONDIKE, 1), {1: 2.5}))) == (deal(KLONDIKE, 1), {1: 2.5})
    True
    >>> loads(pickle.dumps(os.system))
    Traceback (most recent call last):
    ...
    solitaire.lessons.wire.Refused: the answer sent a posix.system, which a graded answer cannot hand back: give plain values (numbers, text, tuples, lists, dicts, cards, moves, positions)
    """

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in ALLOWED or module in NUMPY_TYPES:
            return super().find_class(module, name)
        raise Refused(f"the answer sent a {module}.{name}, which a graded answer cannot hand back: give plain values "
                      "(numbers, text, tuples, lists, dicts, cards, moves, positions)")


def loads(data: bytes) -> Any:
    """Unpickle what an answer's process sent, with ``SafeUnpickler``.

    >>> from fractions import Fraction
    >>> loads(dumps({"p": Fraction(1, 3)}))
    {'p': Fraction(1, 3)}
    """
    return SafeUnpickler(io.BytesIO(data)).load()


def game_from_record(start: Any, moves: list) -> Any:
    """A Game rebuilt from its start and its moves (played while they are legal): how a game an answer hands
    back crosses the pipe.

    >>> from solitaire import Game
    >>> g = Game("klondike", 1); _ = g.play("draw")
    >>> game_from_record(g.start, list(g.moves)).moves == g.moves
    True
    """
    from ..game import Game
    game = Game.from_position(start)
    for m in moves:
        if game.explain(m):
            break
        game.play(m)
    return game


class _Sender(pickle.Pickler):
    """A pickler that sends a Game as its record and a pandas Series as a dict."""

    def reducer_override(self, obj: Any) -> Any:
        kind = type(obj)
        if kind.__name__ == "Game" and kind.__module__ == "solitaire.game":
            return game_from_record, (obj.start, list(obj.moves))
        if kind.__name__ == "Series" and kind.__module__.startswith("pandas"):
            return dict, (dict(obj.items()),)
        return NotImplemented


def dumps(value: Any) -> bytes:
    """Pickle a value as an answer's process sends it.

    >>> loads(dumps([1, "a", (2.0,)]))
    [1, 'a', (2.0,)]
    """
    out = io.BytesIO()
    _Sender(out, protocol=4).dump(value)
    return out.getvalue()


def send(fd: int, data: bytes) -> None:
    """Write one message (bytes, already pickled) to the pipe ``fd``.

    >>> r, w = os.pipe()
    >>> send(w, dumps("hello")); loads(Reader(r).receive())
    'hello'
    """
    data = HEADER.pack(len(data)) + data
    while data:
        data = data[os.write(fd, data):]


class Reader:
    """The receiving end of a pipe: whole messages, as bytes, as they arrive."""

    def __init__(self, fd: int) -> None:
        self.fd, self.buffer = fd, bytearray()

    def ready(self) -> bytes | None:
        """A whole message if one has arrived, else None (nothing is read)."""
        if len(self.buffer) < HEADER.size:
            return None
        size = HEADER.unpack_from(self.buffer)[0]
        if size > MOST_MESSAGE:
            raise Refused(f"the answer's process sent a message of {size:,} bytes: too long to be an answer")
        if len(self.buffer) < HEADER.size + size:
            return None
        message = bytes(self.buffer[HEADER.size:HEADER.size + size])
        del self.buffer[:HEADER.size + size]
        return message

    def feed(self) -> bool:
        """Read what the pipe holds now; False when the other end has closed it."""
        chunk = os.read(self.fd, 1 << 20)
        self.buffer += chunk
        return bool(chunk)

    def receive(self) -> bytes:
        """Block until a whole message has arrived (the answer's process reading what the grader sends)."""
        while (message := self.ready()) is None:
            if not self.feed():
                raise EOFError("the other end closed the pipe")
        return message
