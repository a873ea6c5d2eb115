"""Checks for the exercises of lesson 01a (play), registered with ``solitaire.lessons.check``.

The answer to each exercise is the list of the moves played, as texts (``["draw", "w>t4", ...]``), never the
live table: a saved notebook re-executed by a grader deals a fresh table, but a list of moves in a cell replays
to the same game every time. ``moves_of(table)`` prints that list, ready to paste into the answer cell.
"""
from __future__ import annotations

from typing import Any

from ..cards import Card, full_deck
from ..game import Game
from ..moves import InvalidMoveError, Move
from ..state import Position
from .checks import NotAnswered, Verdict, exercise, replay_game


# PySolFC's Klondike deal 11982 as pysol-cards prints it (tests check this against pysol-cards and lesson 01a).
PYSOL_DEAL = 11982
PYSOL_LAYOUT = """\
Talon: 9D TD KH 7C 6C 2C TH QH 6D TC 4S 7S JD 7D 8H 9C 2H QD 4C 5H KC 8D 2S 3S
8C
<6S> 5C
<2D> <QS> 5D
<AC> <3H> <AD> JC
<4H> <3D> <7H> <6H> 3C
<AS> <JS> <8S> <KD> <4D> 9S
<AH> <TS> <QC> <KS> <5S> <9H> JH
"""


def moves_of(table: Any) -> None:
    """Print the moves played on a card table (or a Game) as a Python list of texts, to copy into an answer cell.

    >>> g = Game("klondike", 1)
    >>> g.play_all(["draw", "t1>t7"])
    >>> moves_of(g)
    ["draw", "t1>t7"]
    """
    game = getattr(table, "game", table)
    if not isinstance(game, Game):
        raise TypeError(f"moves_of takes the card table you played (or its game), not {type(table).__name__}")
    print("[" + ", ".join(f'"{m}"' for m in game.moves) + "]")


def _pysol_start() -> Position:
    return Game.from_pysol(PYSOL_LAYOUT).start


def _replayed(answer: Any) -> Game:
    """The student's list of move texts, replayed from deal 11982 (a table or a Game is refused: it would not
    survive a re-execution of the notebook)."""
    if isinstance(answer, Game) or isinstance(getattr(answer, "game", None), Game):
        raise NotAnswered("pass the list of your moves, not the table or its game: run moves_of(challenge) and "
                          "paste the list it prints into this cell, so that your play is kept when the notebook "
                          "runs again")
    if not isinstance(answer, (list, tuple)) or not all(isinstance(m, (str, Move)) for m in answer):
        raise NotAnswered(f"expected a list of move texts such as [\"draw\", \"w>t4\"], got {type(answer).__name__}")
    game = Game.from_pysol(PYSOL_LAYOUT)
    for i, text in enumerate(answer, 1):
        try:
            move = game.parse(text)
        except InvalidMoveError as e:
            raise NotAnswered(f"move {i} is not a move text: {e}") from None
        reason = game.explain(move)
        if reason:
            raise NotAnswered(f"move {i} ({text}) is not legal when replayed: {reason}")
        game.play(move)
    return replay_game(game, "after your moves", _pysol_start(), f"PySolFC deal {PYSOL_DEAL}")


@exercise("01a.two_aces", "Starting from the PySol deal, play moves until two Aces are on foundations; "
                          "answer with the list of your moves.")
def _two_aces(moves: Any) -> Verdict:
    replay = _replayed(moves)
    aces = sum(1 for f in replay.position.foundations if f and f[0].rank_name == replay.variant.ranks[0])
    count = f"{len(replay.moves)} move{'s' * (len(replay.moves) != 1)}"
    if aces >= 2:
        return Verdict(True, f"{aces} Aces are home after your {count}, and every one of them replays legally "
                             "from the deal.")
    home = {f[0] for f in replay.position.foundations if f}
    away = sorted((_where(c, replay.position) for c in full_deck(replay.variant.ranks)
                   if c.rank_name == replay.variant.ranks[0] and c not in home), key=lambda found: found[0])
    nearest = away[:2 - aces]
    covered = [n for n, _ in nearest if n] and f" Find a place for the cards on {'it' if len(nearest) == 1 else 'them'}."
    return Verdict(False, f"your {count} are legal, and {aces} of the 2 Aces asked for "
                          f"{'is on a foundation' if aces == 1 else 'are on foundations'}. Where you are now, "
                          f"{'; '.join(where for _, where in nearest)}.{covered or ''}")


def _where(card: Card, p: Position) -> tuple[int, str]:
    """How many cards lie on ``card`` in ``p``, and where it lies, in words (a hint names what is face down).

    >>> p = Game.from_pysol(PYSOL_LAYOUT).start
    >>> _where(Card("A♣"), p), _where(Card("A♦"), p)[1]
    ((3, 'the A♣ lies face down in column 4, under 2 face-down cards and J♣'), 'the A♦ lies face down in column 4, under J♣')
    """
    for i, col in enumerate(p.columns):
        if card in col:
            at, down = col.index(card), p.hidden[i]
            under = col[at + 1:]
            hidden = sum(1 for k in range(at + 1, len(col)) if k < down)
            said = ([f"{hidden} face-down card{'s' * (hidden != 1)}"] if hidden else []) + (
                [" ".join(map(str, under[hidden:]))] if under[hidden:] else [])
            if said:
                side = "face down" if at < down else "face up"
                return len(under), f"the {card} lies {side} in column {i + 1}, under {' and '.join(said)}"
            return 0, (f"the {card} lies face down on top of column {i + 1}, ready to turn over" if at < down
                       else f"the {card} is on top of column {i + 1}, free to go home")
    for name in ("waste", "stock"):
        pile = getattr(p, name)
        if card in pile:
            above = len(pile) - 1 - pile.index(card)
            return above, f"the {card} is in the {name}, under {above} card{'s' * (above != 1)}"
    return 52, f"the {card} is not in play"


@exercise("01a.win", "Win the PySol deal: answer with the list of your winning moves.")
def _win(moves: Any) -> Verdict:
    replay = _replayed(moves)
    if replay.is_won():
        return Verdict(True, "every card is home, and every move you played replays legally from the deal.")
    n = replay.position.on_foundations()
    return Verdict(False, f"your moves are legal and {n} of {replay.variant.deck_size} cards are home: keep going.")
