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
    away = [c for c in full_deck(replay.variant.ranks) if c.rank_name == replay.variant.ranks[0] and c not in home]
    are = "are" if len(replay.moves) != 1 else "is"
    return Verdict(False, f"your {count} {are} legal, and {aces} of the 2 Aces asked for "
                          f"{'is on a foundation' if aces == 1 else 'are on foundations'}. Where you are now, "
                          f"{_aces_in_sight(away, replay.position, 2 - aces)}")


def _aces_in_sight(away: list[Card], p: Position, wanted: int) -> str:
    """Where the Aces still away lie, told as the player sees the table: an Ace face up is named with its place,
    the others only as not yet uncovered, with the piles that still hide cards (never where a face-down card lies).

    >>> p = Game.from_pysol(PYSOL_LAYOUT).start
    >>> aces = [Card(a) for a in ("A♣", "A♦", "A♥", "A♠")]
    >>> print(_aces_in_sight(aces, p, 2))  # doctest: +NORMALIZE_WHITESPACE
    no Ace is face up yet: the A♣, A♦, A♥ and A♠ lie face down, in the stock (24 cards) or in columns 2-7,
    which still hide face-down cards. Turn over more cards.
    """
    seen = sorted((found for found in map(lambda c: _where_seen(c, p), away) if found), key=lambda found: found[0])
    said = [where for _, where in seen[:wanted]]
    covered = [n for n, _ in seen[:wanted] if n]
    end = f" Find a place for the cards on {'it' if len(covered) == 1 else 'them'}." if covered else ""
    if len(seen) >= wanted:
        return "; ".join(said) + "." + end
    unseen = [str(c) for c in away if not _where_seen(c, p)]
    piles = [f"the stock ({len(p.stock)} card{'s' * (len(p.stock) != 1)})"] if p.stock else []
    columns = [i + 1 for i, down in enumerate(p.hidden) if down]
    if columns:
        piles.append(f"column {columns[0]}" if len(columns) == 1 else "columns " + (
            f"{columns[0]}-{columns[-1]}" if columns == list(range(columns[0], columns[-1] + 1))
            else ", ".join(map(str, columns[:-1])) + f" and {columns[-1]}"))
    names = unseen[0] if len(unseen) == 1 else ", ".join(unseen[:-1]) + f" and {unseen[-1]}"
    hidden = (f"{'no other Ace is' if said or len(away) < 4 else 'no Ace is'} face up yet: the {names} "
              f"{'lies' if len(unseen) == 1 else 'lie'} face down, in {' or in '.join(piles)}"
              f"{', which still hide face-down cards' if columns else ''}. Turn over more cards.")
    return "; ".join(said) + ("; " if said else "") + hidden + end


def _where_seen(card: Card, p: Position) -> tuple[int, str] | None:
    """How many cards lie on ``card`` in ``p``, and where it lies, in words, if the player can see it (face up
    in a column, or in the waste, where every card was turned face up); None when it lies face down.

    >>> p = Game.from_pysol(PYSOL_LAYOUT).start
    >>> _where_seen(Card("A♦"), p) is None  # face down in column 4, under J♣: the player cannot see it
    True
    >>> turned = p._replace(columns=(*p.columns[:3], p.columns[3][:3], *p.columns[4:]), waste=(Card("J♣"),),
    ...                     hidden=(0, 1, 2, 2, 4, 5, 6))  # J♣ moved away and the A♦ turned over
    >>> _where_seen(Card("A♦"), turned)
    (0, 'the A♦ is on top of column 4, free to go home')
    """
    for i, col in enumerate(p.columns):
        if card in col:
            at = col.index(card)
            if at < p.hidden[i]:
                return None
            under = col[at + 1:]
            return len(under), (f"the {card} lies face up in column {i + 1}, under {' '.join(map(str, under))}"
                                if under else f"the {card} is on top of column {i + 1}, free to go home")
    if card in p.waste:
        above = len(p.waste) - 1 - p.waste.index(card)
        return above, (f"the {card} is in the waste, under {above} card{'s' * (above != 1)}" if above
                       else f"the {card} is on top of the waste, free to go home")
    return None


@exercise("01a.win", "Win the PySol deal: answer with the list of your winning moves.")
def _win(moves: Any) -> Verdict:
    replay = _replayed(moves)
    if replay.is_won():
        return Verdict(True, "every card is home, and every move you played replays legally from the deal.")
    n = replay.position.on_foundations()
    return Verdict(False, f"your moves are legal and {n} of {replay.variant.deck_size} cards are home: keep going.")
