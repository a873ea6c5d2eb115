"""A student's strategy, in the other form an entrant file may take: a plain function ``choose(obs, moves)``.

My rules, best first: put a card on its foundation, turn a card up, move a whole build off face-down cards,
play the waste card to a column, then draw. I never move a build that leaves its column just as it was (a
sideways move), and I never take a card back from a foundation.
"""
from solitaire.moves import (COLUMN_TO_COLUMN, COLUMN_TO_FOUNDATION, DRAW, FLIP, RECYCLE, WASTE_TO_COLUMN,
                             WASTE_TO_FOUNDATION)


def score(obs, move):
    """Higher is better; None for a move I would never play."""
    if move.kind in (COLUMN_TO_FOUNDATION, WASTE_TO_FOUNDATION):
        return 5
    if move.kind == FLIP:
        return 4
    if move.kind == COLUMN_TO_COLUMN and move.count == len(obs.columns[move.source]):
        return 3 if obs.hidden[move.source] else None  # uncovers a face-down card, or just moves a build around
    if move.kind == WASTE_TO_COLUMN:
        return 2
    if move.kind in (DRAW, RECYCLE):
        return 1
    return None


def choose(obs, moves):
    scored = [(score(obs, m), i) for i, m in enumerate(moves)]
    scored = [(s, i) for s, i in scored if s is not None]
    if not scored:
        return None  # nothing I like: I resign
    best = max(scored, key=lambda pair: (pair[0], -pair[1]))
    return moves[best[1]]
