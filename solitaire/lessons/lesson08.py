"""Checks for the exercises of lessons 08 and 08b, "What a player knows" and "Playing without seeing"
(registered with ``solitaire.lessons.check``).

Import this module once, then ``check("08.chance_by_hand", answer)`` as in the other lessons. Expected
answers are computed inside the checks, from the kit itself and its shipped tables; numbers are judged by
the checks' one rule (``checks.agrees``: right at the precision written, two significant digits at least,
counts exact).
"""
from __future__ import annotations

import math
from typing import Any

from ..endgame import Outcome
from ..stats import wilson
from ..game import Game
from ..knowledge import count_layouts, game_knowledge
from ..render import text_diagram
from .checks import NotAnswered, Verdict, agrees, as_number, exercise, number_verdict, too_coarse

CHANCE_GAME = ("klondike", 4)  # the deal whose win chance the exercise estimates by hand
CHANCE_SAMPLES = 10
LAYOUTS_GAME = ("klondike", 10)  # the deal, and the moves played on it, whose layouts the exercise counts
LAYOUTS_MOVES = ("t1>f", "t5>f", "flip t5") + ("draw",) * 24  # then every stock card has been seen once


def _numbers(answer: Any, how_many: int, example: str) -> list[Any]:
    """The items of a tuple or list of ``how_many`` numbers (of any numeric type), or NotAnswered."""
    items = list(answer) if isinstance(answer, (tuple, list)) or getattr(answer, "shape", None) == (how_many,) \
        else None
    if items is None or len(items) != how_many or any(as_number(x) is None for x in items):
        raise NotAnswered(f"give {how_many} numbers in round brackets, for example {example}")
    return items


@exercise("08.layouts", "How many layouts of the unseen cards are consistent with what a player has seen in "
                        "Klondike deal 10 after t1>f, t5>f, flip t5 and 24 draws?",
          pieces=["solitaire.knowledge.game_knowledge", "solitaire.knowledge.count_layouts"], shows=())
def _layouts(answer: Any) -> Verdict:
    game = Game(*LAYOUTS_GAME)
    game.play_all(LAYOUTS_MOVES)
    known = game_knowledge(game)
    slots, want = known.unknown_slots, count_layouts(known)
    x = as_number(answer)
    if x == slots:
        return Verdict(False, f"{slots} is the number of unknown slots; the question asks in how many ways the "
                              f"{slots} unseen cards can fill them.")
    face_down, unseen_stock = sum(known.obs.hidden), known.stock.count(None)
    if x is not None and unseen_stock and math.isclose(x, math.factorial(face_down) * math.factorial(unseen_stock),
                                                       rel_tol=1e-9):
        return Verdict(False, "that counts the face-down cards and the unseen stock cards apart, but any unseen card "
                              "may lie in any unknown slot, in a column or in the stock: count them as one group.")
    if x is not None and x in {math.factorial(slots + k) for k in range(1, 25)}:
        return Verdict(False, "that counts cards a careful player already knows as unknown: every card turned up "
                              "once, each card of the waste included, is remembered (lesson 08's Memory).")
    if x is not None and not agrees(x, want) and math.isclose(x, want, rel_tol=0.01):
        return Verdict(False, "close, but a number of layouts is a count, exact to the last digit: give the whole "
                              "number (math.factorial gives it), not a rounded one.")
    verdict = number_verdict(answer, want, "the number of consistent layouts")
    if verdict.ok:
        return Verdict(True, f"{slots} unknown slots ({face_down} face down, {unseen_stock} stock cards not yet seen) "
                             f"and {slots} unseen cards: {slots}! = {want:.3e} layouts.")
    return Verdict(False, verdict.message + " Count the unknown slots in this position (face-down cards, and stock "
                                            "cards never turned up) and the ways to deal the unseen cards into them:\n"
                                            + text_diagram(game.position))


@exercise("08.chance_by_hand", "From the counts of 10 sampled layouts, give (share won, Wilson low, Wilson high).",
          pieces=["solitaire.stats.wilson"], shows=())
def _chance_by_hand(answer: Any) -> Verdict:
    share, low, high = _numbers(answer, 3, "(0.7, 0.4, 0.9)")
    w = Game(*CHANCE_GAME).win_chance(samples=CHANCE_SAMPLES, seed=0)
    won, n = w.won, w.samples
    want = (won / n, *wilson(won, n))
    if as_number(share) == won:
        return Verdict(False, f"{won} is the number of layouts won; the share is that divided by the {n} sampled.")
    names = ("the share won", "the interval's low end", "the interval's high end")
    for name, got, expected in zip(names, (share, low, high), want):
        verdict = number_verdict(got, expected, name, as_shown=True)
        if not verdict.ok and too_coarse(as_number(got), expected):
            return verdict
        if not verdict.ok:
            naive = won / n + (-1 if as_number(got) < won / n else 1) * 1.96 * math.sqrt(won / n * (1 - won / n) / n)
            hint = (" That is the naive interval, p ± 1.96·√(p(1−p)/n): the Wilson interval moves the centre and "
                    "widens the half-width (lesson 06)." if name != names[0] and agrees(as_number(got), naive) else
                    f" {won} of {n} layouts were won: recheck the formula of lesson 06.")
            return Verdict(False, verdict.message + hint)
    return Verdict(True, f"{won} of {n} is {want[0]:.0%}, and the 95% interval runs from {want[1]:.0%} "
                         f"to {want[2]:.0%}: ten samples say little.")


@exercise("08b.disagree", "Give a Game, with some moves played, in which the expert (seed 0) and greedy choose "
                         "different moves.")
def _disagree(answer: Any) -> Verdict:
    from ..expert import ExpertStrategy
    from ..strategies import GreedyStrategy
    if not isinstance(answer, Game):
        return Verdict(False, f"give a Game, for example Game('klondike', seed=3) with some moves played, "
                              f"not {type(answer).__name__}")
    if not answer.moves:
        return Verdict(False, "no move has been played in that game: the task asks for a position after some moves "
                              "(play a few, for example greedy's hints, until the two players choose differently).")
    moves = answer.legal_moves()
    if answer.is_over() or len(moves) < 2:
        return Verdict(False, "in this position there is no choice to make: play on to a position with several "
                              f"moves.\n{text_diagram(answer.position)}")
    obs = answer.observation()
    expert = ExpertStrategy(0)
    e = expert.choose(obs, moves)
    g = GreedyStrategy(resign=False).choose(obs, moves)
    if e == g:
        return Verdict(False, f"they agree in this position: both play {e}. Try another position.\n"
                              f"{text_diagram(answer.position)}")
    return Verdict(True, f"they disagree in this position:\n{text_diagram(answer.position)}\nExpert: "
                         f"{expert.explain(obs, e)} Greedy: {GreedyStrategy().explain(obs, g)}")


@exercise("08b.alone", "On the 300 Klondike deals of the shipped tables, give (deals the expert wins and greedy does "
                      "not, deals greedy wins and the expert does not).")
def _alone(answer: Any) -> Verdict:
    from ..experiments import shipped
    expert_only, greedy_only = _numbers(answer, 2, "(40, 25)")
    expert = shipped("expert").query("variant == 'klondike' and strategy == 'expert'").set_index("seed").outcome
    greedy = shipped("seed_variants").query("variant == 'klondike' and strategy == 'greedy'").set_index("seed")
    greedy = greedy.outcome.loc[expert.index]
    want = int(((expert == Outcome.WON) & (greedy != Outcome.WON)).sum()), int(((greedy == Outcome.WON) & (expert != Outcome.WON)).sum())
    got = as_number(expert_only), as_number(greedy_only)
    wins = int((expert == Outcome.WON).sum()), int((greedy == Outcome.WON).sum())
    if got == want[::-1] and want[0] != want[1]:
        return Verdict(False, "those are the right two counts the other way round: the expert's deals first.")
    if got == wins:
        return Verdict(False, "those are each player's wins. Count the deals only one of them wins: a deal both "
                              "win says nothing about which plays better.")
    if got[0] == wins[0] - wins[1] != want[0]:
        return Verdict(False, f"{expert_only} is the difference of the two players' wins; the question asks for the "
                              "deals the expert wins and greedy loses (line them up by seed).")
    for name, x, expected in (("the expert's deals alone", expert_only, want[0]),
                              ("greedy's deals alone", greedy_only, want[1])):
        verdict = number_verdict(x, expected, name)
        if not verdict.ok:
            return Verdict(False, verdict.message + " Line the two tables up by seed and count the deals whose "
                                                    "outcomes differ, one way and the other.")
    return Verdict(True, f"the expert alone wins {want[0]} deals and greedy alone {want[1]}; on the other "
                         f"{len(expert) - sum(want)} both win or both lose.")
