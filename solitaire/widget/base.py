"""The contract between the parts of the card table, written down: what ``guarded`` and the mixins need.

``GameWidget`` (table.py) is made of ``PlayMixin`` (play.py: clicks, drops, undo, dealing) and ``AidsMixin``
(aids.py: hint, Auto-finish, replays, win chance) on top of ``TableBase``. A mixin may use only what it
defines itself and what ``TableBase`` declares here; ``GameWidget.__init__`` sets every attribute, and
``GameWidget`` writes the status line (``_say``) and sends the table (``_send_state``).

It is a base class rather than a ``typing.Protocol`` because the widget's metaclass (traitlets') and a
Protocol's cannot be combined; the methods below only say what is expected and are never run.
"""
from __future__ import annotations

import threading
from typing import NamedTuple

from ..game import Game
from ..moves import Move


class Selection(NamedTuple):
    """What the player picked up: pile is 'waste', 'column' or 'foundation'; count cards from its top."""

    pile: str
    index: int = 0
    count: int = 1


class TableBase:
    """What every part of the card table may rely on (set by ``GameWidget.__init__``)."""

    game: Game  # the game shown: the single source of truth
    aids: bool  # False: no Hint, Solution, Auto-finish, Win chance or Position text (a challenge by hand)
    selection: Selection | None  # the cards picked up, if any
    marked: Move | None  # a move shown on the table (a hint or the next replay step)
    message: str  # the status line, and its kind: 'info', 'ok' or 'error'
    message_kind: str
    replay: list[Move]  # a replay's moves, how many of them are played, and the game's length when it began
    replay_step: int
    _replay_base: int
    _flight: list[tuple[str, str, str]]  # the cards the last action sent home by Auto-finish, in order:
    # (card, the pile it left, its foundation), for the front end to fly
    _depth: int  # how many guarded actions are running (only the outermost one sends the table)
    _seq: int  # how many states were sent: the front end names the state it saw by it
    _actions_lock: threading.RLock  # held while an action runs: actions take turns, whatever thread calls them
    _told_unwritten: set[str]  # the engine's stubs (engine.unwritten) the status line has already named

    def _say(self, text: str, kind: str = "info") -> None:
        """Write the status line ('info', 'ok' or 'error'); GameWidget does."""
        raise NotImplementedError

    def _send_state(self) -> None:
        """Send the table to the front end (one message); GameWidget does."""
        raise NotImplementedError

    def _try(self, move: Move) -> bool:
        """Play a move if legal, else say why not; whether it was played. PlayMixin does."""
        raise NotImplementedError

    def _end_replay(self) -> None:
        """Close a replay; AidsMixin does."""
        raise NotImplementedError
