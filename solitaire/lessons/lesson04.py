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


@exercise("04.four_aces", "Starting from the PySol deal, play moves until all four Aces are on foundations.")
def _four_aces(game: Any) -> Verdict:
    replay = replay_game(game, "after your moves", _pysol_start(), f"PySolFC deal {PYSOL_DEAL} (Game.from_pysol(LAYOUT))")
    aces = sum(1 for f in replay.position.foundations if f and f[0].rank_name == replay.variant.ranks[0])
    if aces == replay.variant.foundations:
        return Verdict(True, f"all {aces} Aces are home, and every move you played replays legally from the deal.")
    return Verdict(False, f"your {len(replay.moves)} moves are legal, and {aces} of the 4 Aces are on foundations: "
                          "the others are under face-down cards, so dig out the columns that hide them.")


@exercise("04.win", "Win the PySol deal: pass the Game after your winning moves.")
def _win(game: Any) -> Verdict:
    replay = replay_game(game, "after your moves", _pysol_start(), f"PySolFC deal {PYSOL_DEAL} (Game.from_pysol(LAYOUT))")
    if replay.is_won():
        return Verdict(True, "every card is home, and every move you played replays legally from the deal.")
    n = replay.position.on_foundations()
    return Verdict(False, f"your moves are legal and {n} of {replay.variant.deck_size} cards are home: keep going.")
