"""A test-only exhaustive checker for the end of the game, written from RULES.md's sentence alone:

    "no more moves" means no move is left that makes progress -- a flip, a waste card played, or more cards
    on the foundations -- and none can become possible through draws, recycles and the moves that lead
    nowhere.

It searches every position reachable through moves that make no progress (the stock's order, the waste and
the recycle count included; with unlimited passes the count does not matter and is left out), and stops at
the first move that makes progress. It shares no code with ``solitaire.endgame``: only the move rules.
"""
from __future__ import annotations

from solitaire.moves import FLIP, WASTE_TO_COLUMN, WASTE_TO_FOUNDATION, apply, legal_moves
from solitaire.state import Position


def progress_reachable(p: Position, cap: int = 50_000) -> bool | None:
    """True if progress is reachable from ``p``, False if it is not, None if more than ``cap`` positions."""
    home, down = p.on_foundations(), p.face_down()
    seen = {_key(p)}
    todo = [p]
    for q in todo:
        for m in legal_moves(q):
            r = apply(q, m)
            if m.kind in (FLIP, WASTE_TO_COLUMN, WASTE_TO_FOUNDATION) or r.face_down() < down or \
                    r.on_foundations() > home:
                return True
            if _key(r) not in seen:
                if len(seen) >= cap:
                    return None
                seen.add(_key(r))
                todo.append(r)
    return False


def _key(p: Position) -> Position:
    return p._replace(recycles=0) if p.variant.passes is None else p


def late_positions(variant, games: int, per_game: int = 4, max_moves: int = 1500, seed: int = 0) -> list[Position]:
    """Positions late in seeded random games where no legal move makes progress by itself: the positions
    where the end of the game is decided by looking ahead. The last ``per_game`` of each game."""
    import random

    from solitaire.endgame import over_reason
    from solitaire.moves import makes_progress
    from solitaire.state import deal
    rng = random.Random(seed)
    found = []
    for game in range(games):
        p, stuck = deal(variant, game), []
        for _ in range(max_moves):
            moves = legal_moves(p)
            if not any(makes_progress(p, m) for m in moves):
                stuck.append(p)
            if not moves or over_reason(p, moves):
                break
            p = apply(p, rng.choice(moves))
        found += stuck[-per_game:]
    return found
