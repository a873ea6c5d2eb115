"""Checks for the exercises of lesson 04 (play), registered with ``solitaire.lessons.check``."""
from __future__ import annotations

from typing import Any

from ..game import Game
from ..state import Position
from .checks import Verdict, exercise, replay_game


# PySolFC's Klondike deal 11982 as pysol-cards prints it (tests check this against pysol-cards and lesson 04).
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


def _pysol_start() -> Position:
    return Game.from_pysol(PYSOL_LAYOUT).start


@exercise("04.two_aces", "Starting from the PySol deal, play moves until two Aces are on foundations.")
def _two_aces(game: Any) -> Verdict:
    replay = replay_game(game, "after your moves", _pysol_start(), f"PySolFC deal {PYSOL_DEAL} (Game.from_pysol(LAYOUT))")
    aces = sum(1 for f in replay.position.foundations if f and f[0].rank_name == replay.variant.ranks[0])
    moves = f"{len(replay.moves)} move{'s' * (len(replay.moves) != 1)}"
    if aces >= 2:
        return Verdict(True, f"{aces} Aces are home after your {moves}, and every one of them replays legally "
                             "from the deal.")
    return Verdict(False, f"your {moves} are legal, and {aces} of the 2 Aces asked for "
                          f"{'is' if aces == 1 else 'are'} on foundations: A♦ and A♣ lie face down in column 4, "
                          "under J♣ and 3♥, so find those two cards a place.")


@exercise("04.win", "Win the PySol deal: pass the Game after your winning moves.")
def _win(game: Any) -> Verdict:
    replay = replay_game(game, "after your moves", _pysol_start(), f"PySolFC deal {PYSOL_DEAL} (Game.from_pysol(LAYOUT))")
    if replay.is_won():
        return Verdict(True, "every card is home, and every move you played replays legally from the deal.")
    n = replay.position.on_foundations()
    return Verdict(False, f"your moves are legal and {n} of {replay.variant.deck_size} cards are home: keep going.")
