"""A game as text, as a saved file and as a PySolFC board: the ``Game`` methods that hand its position or its
history to the sibling modules ``notation`` and ``pysol`` (imported only when one of them is called), and read
them back. ``Game`` takes them from this mixin, so ``game.py`` keeps the game itself.
"""
from __future__ import annotations

from .variants import Variant


class GameFiles:
    """``to_text``/``from_text``, ``to_json``/``from_json`` and ``to_pysol``/``from_pysol`` for ``Game``."""

    def to_text(self) -> str:
        """The whole position as text (``Game.from_text`` reads it back exactly).

        >>> from solitaire import Game
        >>> game = Game("italian", seed=2)
        >>> Game.from_text(game.to_text()).position == game.position
        True
        """
        from .notation import position_to_text
        return position_to_text(self.position)

    @classmethod
    def from_text(cls, text: str) -> GameFiles:
        """A game that starts from a position written by ``to_text`` (or edited by hand).

        Raises:
            PositionTextError: (a ValueError) naming the line that cannot be read, or each reason no game could
                reach the position (``solitaire.validity.status``).
        """
        from .notation import position_from_text
        return cls.from_position(position_from_text(text))

    def to_json(self) -> str:
        """The whole game as JSON: its start, seed, moves played and moves that can be redone.

        >>> from solitaire import Game
        >>> Game.from_json(Game("klondike", seed=3).to_json()).seed
        3
        """
        from .notation import SavedGame, saved_game_to_json
        return saved_game_to_json(SavedGame(self.start, self.seed, self.moves, self._undone[::-1]))

    @classmethod
    def from_json(cls, text: str) -> GameFiles:
        """Read a game saved by ``to_json``, with its history (undo) and the moves that can be redone.

        Raises:
            PositionTextError: (a ValueError) for text that is not a saved game the rules could have made.
        """
        from .notation import read_saved_game
        saved, positions = read_saved_game(text)  # every move is replayed and checked there, once
        game = cls.from_position(saved.start)
        game.seed = saved.seed
        game._played = list(zip(saved.moves, positions))  # each move with the position before it
        game._set(positions[len(saved.moves)])
        game._undone = saved.redo[::-1]
        return game

    def to_pysol(self) -> str:
        """The position as a PySolFC board (single-deck A-K variants).

        >>> from solitaire import Game
        >>> Game("klondike", seed=1).to_pysol().splitlines()[1]
        '7D'

        Raises:
            ValueError: for a variant PySolFC's Klondike layouts cannot describe.
        """
        from .pysol import position_to_pysol
        return position_to_pysol(self.position)

    @classmethod
    def from_pysol(cls, layout: str, variant: str | Variant = "klondike") -> GameFiles:
        """A game from a PySolFC Klondike board (``Talon:`` line, then one line per column).

        >>> from solitaire import Game
        >>> Game.from_pysol(Game("klondike", seed=1).to_pysol()).position == Game("klondike", seed=1).position
        True

        Raises:
            PositionTextError: (a ValueError) naming the line that cannot be read, or a variant that is not
                a single-deck A-K game (or not one at all).
        """
        from .pysol import position_from_pysol
        return cls.from_position(position_from_pysol(layout, variant))
