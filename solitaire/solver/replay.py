"""From the search's internal moves back to real moves, each checked against the rules."""
from __future__ import annotations

from ..moves import COLUMN_TO_COLUMN, COLUMN_TO_FOUNDATION, DRAW, FLIP, FOUNDATION_TO_COLUMN, RECYCLE, \
    WASTE_TO_COLUMN, WASTE_TO_FOUNDATION, Move, _stock_moves, apply, is_won, legal_moves, rules
from ..state import Position
from .stock import talon_reach


class SolverBug(AssertionError):
    """The solver produced a line that the rules refuse (never expected; please report it)."""


class Replay:
    """Plays internal moves on a real position, adding the draws, recycles and flips they imply."""

    def __init__(self, p: Position) -> None:
        self.position = p
        self.moves: list[Move] = []

    def play(self, m: Move) -> None:
        p = self.position
        if m.kind in (DRAW, RECYCLE) and not p.variant.draw_only_when_stuck:
            allowed = _stock_moves(p, rules(p.variant))  # the same answer as legal_moves, without the columns'
        else:
            allowed = legal_moves(p)
        if m not in allowed:
            raise SolverBug(f"solver bug: {m} is not legal in the replay")
        self.moves.append(m)
        p = apply(p, m)
        if not p.variant.auto_flip:
            for j, (col, h) in enumerate(zip(p.columns, p.hidden)):
                if col and h >= len(col):
                    self.moves.append(Move(FLIP, j))
                    p = apply(p, Move(FLIP, j))
        self.position = p

    def bring_to_top(self, i: int) -> None:
        """Draw and recycle until talon card ``i`` is on top of the waste."""
        p, v = self.position, self.position.variant
        _, ops = talon_reach(len(p.waste) + len(p.stock), len(p.waste), p.recycles, v.draw, v.passes)
        for op in ops[i]:
            self.play(Move(op))

    def internal(self, m: tuple) -> None:
        kind = m[0]
        if kind == "tt":
            self.play(Move(COLUMN_TO_COLUMN, m[1], m[2], m[3]))
        elif kind == "tf":
            self.play(Move(COLUMN_TO_FOUNDATION, m[1]))
        elif kind in ("wt", "wf"):
            self.bring_to_top(m[1])
            self.play(Move(WASTE_TO_COLUMN, target=m[2]) if kind == "wt" else Move(WASTE_TO_FOUNDATION))
        elif kind == "ft":
            f = next(i for i, pile in enumerate(self.position.foundations) if pile and pile[-1] == m[1])
            self.play(Move(FOUNDATION_TO_COLUMN, f, m[2]))


def real_moves(p: Position, flips: list[int], internal: list[tuple]) -> list[Move]:
    """The real moves that play ``flips`` (face-down tops turned first) and then the internal moves from
    ``p``; each is checked to be legal, and the last position to be won."""
    replay = Replay(p)
    for j in flips:
        col, h = replay.position.columns[j], replay.position.hidden[j]
        if col and h >= len(col):  # (playing an earlier flip turned up every other face-down top already)
            replay.play(Move(FLIP, j))
    for m in internal:
        replay.internal(m)
    if not is_won(replay.position):
        raise SolverBug("solver bug: the replayed solution does not win")
    return replay.moves
