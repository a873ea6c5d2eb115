"""The Game: a position, its history (an undo stack) and the public API students use.

``Game`` wraps the rules core (``legal_moves``, ``apply``, ``explain_illegal``, ``over_reason``) with the
moves played so far. Text, saved games, PySolFC layouts and pictures are made by sibling modules
(``notation``, ``pysol``, ``render``), imported only when one of those methods is called. The card table
is the widget package's: ``GameWidget(game)`` from ``solitaire.widget``, or ``solitaire.play("klondike", seed=1)``.
"""
from __future__ import annotations

from collections.abc import Iterable

from .engine import Engine
from .game_files import GameFiles
from .endgame import WON, Outcome, over_reason
from .explain import check_move, explain_illegal
from .moves import IllegalMoveError, Move, apply, legal_moves
from .state import Observation, Position, deal, observe
from .variants import Variant, get_variant


class LegalMoves(list):
    """A list of legal moves whose ``in`` is False for a malformed Move (``Move("t>t", 0.0, 6)`` equals t1>t7).

    >>> moves = LegalMoves([Move("t>t", 0, 6)])
    >>> Move("t>t", 0, 6) in moves, Move("t>t", 0.0, 6) in moves, moves == [Move("t>t", 0, 6)]
    (True, False, True)
    """

    def __contains__(self, move: object) -> bool:
        try:
            check_move(move)
        except ValueError:
            return False
        return list.__contains__(self, move)


class Game(GameFiles):
    """A game of one variant: ``Game("klondike", seed=7)``; play with ``game.play("t3>t7")``.

    >>> game = Game("klondike", seed=7)
    >>> game.play("draw")
    Move('draw')
    >>> game.moves, len(game.position.waste)
    ([Move('draw')], 1)

    Raises:
        ValueError: for an unknown variant, a seed that is not a whole number from 0 to 2**64 - 1, or a
            position of another variant.
    """

    def __init__(self, variant: str | Variant = "klondike", seed: int = 0, *, position: Position | None = None,
                 engine: Engine | None = None):
        self.variant = get_variant(variant)
        self.engine = engine  # None: the kit's rules; an Engine: the rules with a student's pieces (solitaire.use)
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
        """A game that starts from ``position`` (its seed is None).

        >>> from solitaire import KLONDIKE, deal
        >>> Game.from_position(deal(KLONDIKE, 2)).seed is None
        True
        """
        return cls(position.variant, position=position)

    # --- moves -------------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every legal move now (``move in game.legal_moves()`` works; a malformed Move is in no such list).

        >>> Game("klondike", seed=1).legal_moves()
        [Move('t>t', 0, 6), Move('draw')]
        >>> Move("t>t", 0.0, 6) in Game("klondike", seed=1).legal_moves()  # equal to t1>t7, but 0.0 is no column
        False
        """
        return LegalMoves(self._legal_now())

    def _legal_now(self) -> list[Move]:
        if self._legal is None:
            p = self.position
            self._legal = legal_moves(p) if self.engine is None else self.engine.legal_moves(p)
        return self._legal

    def _apply(self, m: Move) -> Position:
        return apply(self.position, m) if self.engine is None else self.engine.apply(self.position, m)

    def parse(self, move: Move | str) -> Move:
        """A Move from its text (a well-formed Move passes through; see ``solitaire.explain.check_move``).

        >>> Game().parse("T3 > t7")
        Move('t>t', 2, 6)

        Raises:
            InvalidMoveError: for text that is not a move, or a Move that is not well formed.
        """
        if isinstance(move, Move):
            return check_move(move)
        from .notation import move_from_text  # (notation loads only when a move is read from text)
        return move_from_text(move)

    def explain(self, move: Move | str) -> str | None:
        """Why the move is illegal now, or None if it is legal.

        >>> Game("klondike", seed=1).explain("recycle")
        'you may recycle only when the stock is empty: draw the remaining cards first'

        Raises:
            InvalidMoveError: for text that is not a move, or a Move that is not well formed.
        """
        m = self.parse(move)
        return None if m in self._legal_now() else self._why_not(m)

    def _why_not(self, m: Move) -> str:
        """Why ``m`` is not among the moves now: the rule it breaks, or the student's piece that leaves it out."""
        reason = explain_illegal(self.position, m)
        if reason is None and self.engine is not None:
            return f"the kit's rules allow it, but your {self.engine.piece_for(m)} does not list it"
        return reason or "that move is not legal here"

    def play(self, move: Move | str) -> Move:
        """Play a move (a Move or its text) and return it. An illegal move raises and leaves the game unchanged.

        >>> game = Game("klondike", seed=1)
        >>> game.play("t1 > t7")
        Move('t>t', 0, 6)
        >>> game.play("t2>t1")
        Traceback (most recent call last):
        solitaire.moves.IllegalMoveError: t2>t1 is illegal: 6♦ cannot go on the empty column 1: an empty column takes only a King

        Raises:
            InvalidMoveError: for text that is not a move, or a Move that is not well formed (a count of 1.0).
            IllegalMoveError: for a move the rules refuse here, saying which rule it breaks.
        """
        m = self._handed_out(move)
        if m is None:
            m = self.parse(move)
            if m not in self._legal_now():
                raise IllegalMoveError(f"{m} is illegal: {self._why_not(m)}")
        self._played.append((m, self.position))
        self._set(self._apply(m))
        self._undone.clear()
        return m

    def _handed_out(self, move: object) -> Move | None:
        """``move`` itself when it is one of the kit's legal moves now, the very object ``legal_moves`` handed out
        (made by the rules, so well formed, and legal: nothing to check), else None."""
        if self.engine is None:
            for m in self._legal_now():
                if m is move:
                    return m
        return None

    def play_all(self, moves: Iterable[Move | str]) -> None:
        """Play several moves; if one fails, the moves before it stay played.

        >>> game = Game("klondike", seed=1)
        >>> game.play_all(["draw", "draw"]); len(game.moves)
        2

        Raises:
            InvalidMoveError, IllegalMoveError: as ``play``, for the first move that fails.
        """
        for m in moves:
            self.play(m)

    def undo(self) -> Move:
        """Take back the last move and return it (undo is a stack).

        >>> game = Game("klondike", seed=1)
        >>> game.play("draw"); game.undo(); game.position == game.start
        Move('draw')
        Move('draw')
        True

        Raises:
            IndexError: when no move has been played.
        """
        if not self._played:
            raise IndexError("there is no move to undo")
        m, previous = self._played.pop()
        self._set(previous)
        self._undone.append(m)
        return m

    def redo(self) -> Move:
        """Play again the last move taken back.

        >>> game = Game("klondike", seed=1)
        >>> game.play("draw"); game.undo(); game.redo(); len(game.moves)
        Move('draw')
        Move('draw')
        Move('draw')
        1

        Raises:
            IndexError: when there is no move to redo.
        """
        if not self._undone:
            raise IndexError("there is no move to redo")
        undone = self._undone.pop()
        self._played.append((undone, self.position))
        self._set(self._apply(undone))
        return undone

    def can_undo(self) -> bool:
        """Is there a move to take back?  ``Game().can_undo()`` is False."""
        return bool(self._played)

    def can_redo(self) -> bool:
        """Is there a move taken back that can be played again?"""
        return bool(self._undone)

    @property
    def moves(self) -> list[Move]:
        """The moves played so far."""
        return [m for m, _ in self._played]

    def _set(self, position: Position) -> None:
        self.position = position
        self._legal = None

    # --- the end of the game (one source of truth: over_reason) ------------------------------
    def over_reason(self) -> Outcome | None:
        """``Outcome.WON``, ``Outcome.NO_MORE_MOVES``, or None while the game goes on (see ``solitaire.endgame``).

        >>> Game("klondike", seed=1).over_reason() is None
        True
        """
        p = self.position
        if self._over is None or self._over[0] is not p:
            self._over = (p, over_reason(p, self._legal_now()))
        return self._over[1]

    def is_over(self) -> bool:
        """Is the game won, or are there no more moves?  ``Game().is_over()`` is False."""
        return self.over_reason() is not None

    def is_won(self) -> bool:
        """Is every card on a foundation?  ``Game().is_won()`` is False."""
        return self.over_reason() == WON

    def observation(self) -> Observation:
        """What the player may see (no face-down cards, no stock order).

        >>> Game("klondike", seed=1).observation().stock_size
        24
        """
        return observe(self.position)

    def win_chance(self, samples: int = 20, seed: int = 0):
        """How winnable the game still is: the share of the layouts consistent with what this game showed that the
        solver, seeing every card, wins (solitaire.expert.win_chance). A player who cannot see them wins at most
        that."""
        from .expert import win_chance
        return win_chance(self, samples=samples, seed=seed)

    def copy(self) -> Game:
        """An independent game with the same start, moves and redo stack."""
        g = Game(self.variant, position=self.start, engine=self.engine)
        g.seed, g._played, g._undone, g.position = self.seed, list(self._played), list(self._undone), self.position
        return g

    def __str__(self) -> str:
        from .render import text_diagram
        return text_diagram(self.position)

    def __repr__(self) -> str:
        origin = f"seed={self.seed}" if self.seed is not None else "from a position"
        return f"<Game {self.variant.name} {origin}, {len(self._played)} moves>"

    def _repr_svg_(self) -> str:
        from .render import svg
        return svg(self.position)
