"""A deliberately broken entrant, to show what the failures table says.

It plays like greedy, but its author numbered the columns from 1 in one place: whenever it wants to move a
build of three cards or more out of column 7, it names a column that does not exist. That answer is not a
legal move, so it loses that game.
"""
from solitaire.moves import COLUMN_TO_COLUMN, Move
from solitaire.players import GreedyStrategy

_greedy = GreedyStrategy(resign=False)


def choose(obs, moves):
    move = _greedy.choose(obs, moves)
    if move.kind == COLUMN_TO_COLUMN and move.source == 6 and move.count >= 3:
        return Move(COLUMN_TO_COLUMN, source=move.source + 1, target=move.target, count=move.count)  # the bug
    return move
