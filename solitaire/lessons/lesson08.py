"""Checks for the exercises of lesson 08, "Playing without seeing" (registered with ``solitaire.lessons.check``).

Import this module once, then ``check("08.chance_by_hand", answer)`` as in the other lessons. Expected
answers are computed from the kit itself.
"""
from __future__ import annotations

from typing import Any
from .checks import Verdict, exercise
from ..expert import ExpertStrategy, wilson
from ..game import Game
from ..strategies import GreedyStrategy

CHANCE_GAME = ("klondike", 4)  # the deal whose win chance the first exercise estimates by hand
CHANCE_SAMPLES = 10


def chance_by_hand_counts() -> tuple[int, int]:
    """The counts the first exercise starts from: (layouts won, layouts sampled) at the deal."""
    w = Game(*CHANCE_GAME).win_chance(samples=CHANCE_SAMPLES, seed=0)
    return w.won, w.samples


@exercise("08.chance_by_hand", "From the counts of 10 sampled layouts, give (share won, Wilson low, Wilson high).")
def _chance_by_hand(answer: Any) -> Verdict:
    try:
        share, low, high = (float(x) for x in answer)
    except (TypeError, ValueError):
        return Verdict(False, "give three numbers: (share, low, high), for example (0.7, 0.4, 0.9)")
    won, n = chance_by_hand_counts()
    want = (won / n, *wilson(won, n))
    names = ("the share", "the interval's low end", "the interval's high end")
    for name, got, expected in zip(names, (share, low, high), want):
        if abs(got - expected) > 0.005:
            return Verdict(False, f"{name} is off: {won} of {n} layouts were won; recheck the formula "
                                  f"(you gave {got:.3f})")
    return Verdict(True, f"{won} of {n} is {want[0]:.0%}, and the 95% interval runs from {want[1]:.0%} "
                         f"to {want[2]:.0%}: ten samples say little")


@exercise("08.disagree", "Give a Game in which the expert (seed 0) and greedy choose different moves.")
def _disagree(answer: Any) -> Verdict:
    if not isinstance(answer, Game):
        return Verdict(False, f"give a Game, for example Game('klondike', seed=3) with some moves played, "
                              f"not {type(answer).__name__}")
    moves = answer.legal_moves()
    if answer.is_over() or len(moves) < 2:
        return Verdict(False, "in that game there is no choice to make: play on to a position with several moves")
    obs = answer.observation()
    expert = ExpertStrategy(0)
    e = expert.choose(obs, moves)
    g = GreedyStrategy(resign=False).choose(obs, moves)
    if e == g:
        return Verdict(False, f"they agree here: both play {e}. Try another position")
    return Verdict(True, f"they disagree. Expert: {expert.explain(obs, e)} Greedy: "
                         f"{GreedyStrategy().explain(obs, g)}")
