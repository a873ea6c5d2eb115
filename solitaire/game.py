"""The Game: a position, its history (an undo stack) and the public API students use."""
from __future__ import annotations

from collections.abc import Iterable

from .endgame import over_reason
from .moves import IllegalMoveError, Move, apply, explain_illegal, legal_moves
from .state import Observation, Position, deal, observe
from .variants import Variant, get_variant


class Game:
    """A game of one variant: ``Game("klondike", seed=7)``; play with ``game.play("t3>t7")``."""

    def __init__(self, variant: str | Variant = "klondike", seed: int = 0, *, position: Position | None = None):
        self.variant = get_variant(variant)
        self.seed: int | None = seed if position is None else None
        self.start = deal(self.variant, seed) if position is None else position
        if position is not None and position.variant != self.variant:
            raise ValueError(f"the position is a {position.variant.name} position, not {self.variant.name}")
        self.position = self.start
        self._played: list[tuple[Move, Position]] = []  # the undo stack: each move with the position before it
        self._undone: list[Move] = []  # the redo stack
        self._legal: list[Move] | None = None
        self._over: tuple[Position, str | None] | None = None  # the end check of one position, the latest

    @classmethod
    def from_position(cls, position: Position) -> Game:
        return cls(position.variant, position=position)

    # --- moves -------------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every legal move now (``move in game.legal_moves()`` works)."""
        if self._legal is None:
            self._legal = legal_moves(self.position)
        return list(self._legal)

    def parse(self, move: Move | str) -> Move:
        """A Move from its text; raises InvalidMoveError for text it cannot read."""
        return move if isinstance(move, Move) else Move.from_text(move)

    def explain(self, move: Move | str) -> str | None:
        """Why the move is illegal now, or None if it is legal."""
        m = self.parse(move)
        return None if m in self.legal_moves() else explain_illegal(self.position, m) or "that move is not legal here"

    def play(self, move: Move | str) -> Move:
        """Play a move (a Move or its text). An illegal move raises and leaves the game unchanged."""
        m = self.parse(move)
        if m not in self.legal_moves():
            reason = explain_illegal(self.position, m) or "that move is not legal here"
            raise IllegalMoveError(f"{m} is illegal: {reason}")
        self._played.append((m, self.position))
        self._set(apply(self.position, m))
        self._undone.clear()
        return m

    def play_all(self, moves: Iterable[Move | str]) -> None:
        """Play several moves; if one fails, the moves before it stay played."""
        for m in moves:
            self.play(m)

    def undo(self) -> Move:
        """Take back the last move and return it."""
        if not self._played:
            raise IndexError("there is no move to undo")
        m, previous = self._played.pop()
        self._set(previous)
        self._undone.append(m)
        return m

    def redo(self) -> Move:
        """Play again the last move taken back."""
        if not self._undone:
            raise IndexError("there is no move to redo")
        undone = self._undone.pop()
        self._played.append((undone, self.position))
        self._set(apply(self.position, undone))
        return undone

    def can_undo(self) -> bool:
        return bool(self._played)

    def can_redo(self) -> bool:
        return bool(self._undone)

    @property
    def moves(self) -> list[Move]:
        """The moves played so far."""
        return [m for m, _ in self._played]

    def _set(self, position: Position) -> None:
        self.position = position
        self._legal = None

    # --- the end of the game (one source of truth: over_reason) ------------------------------
    def over_reason(self) -> str | None:
        """'won', 'no more moves', or None while the game goes on."""
        p = self.position
        if self._over is None or self._over[0] is not p:
            self._over = (p, over_reason(p, self.legal_moves()))
        return self._over[1]

    def is_over(self) -> bool:
        return self.over_reason() is not None

    def is_won(self) -> bool:
        return self.over_reason() == "won"

    def observation(self) -> Observation:
        """What the player may see (no face-down cards)."""
        return observe(self.position)

    def copy(self) -> Game:
        g = Game.from_position(self.start)
        g.seed, g._played, g._undone, g.position = self.seed, list(self._played), list(self._undone), self.position
        return g

    # --- text, files and pictures (siblings of the core, imported when asked for) -------------
    def to_text(self) -> str:
        from .notation import position_to_text
        return position_to_text(self.position)

    @classmethod
    def from_text(cls, text: str) -> Game:
        from .notation import position_from_text
        return cls.from_position(position_from_text(text))

    def to_json(self) -> str:
        from .notation import game_to_json
        return game_to_json(self)

    @classmethod
    def from_json(cls, text: str) -> Game:
        from .notation import game_from_json
        return game_from_json(text)

    def to_pysol(self) -> str:
        from .pysol import position_to_pysol
        return position_to_pysol(self.position)

    @classmethod
    def from_pysol(cls, layout: str, variant: str | Variant = "klondike") -> Game:
        from .pysol import position_from_pysol
        return cls.from_position(position_from_pysol(layout, get_variant(variant)))

    def __str__(self) -> str:
        from .render import text_diagram
        return text_diagram(self.position)

    def __repr__(self) -> str:
        origin = f"seed={self.seed}" if self.seed is not None else "from a position"
        return f"<Game {self.variant.name} {origin}, {len(self._played)} moves>"

    def _repr_svg_(self) -> str:
        from .render import svg
        return svg(self.position)

    def widget(self):
        """An ipywidgets card table to play this game by clicking."""
        from .widget import GameWidget
        return GameWidget(self)
