"""Lesson 06b (what each rule changes; four players side by side): the sign test and the exercises' checks,
registered with ``solitaire.lessons.check``."""
from __future__ import annotations

import dataclasses
import math
from typing import Any

from ..endgame import Outcome
from ..stats import sign_test  # the one home of the statistics; kept importable from here
from ..variants import KLONDIKE
from .checks import Verdict, agrees, as_number, exercise, finite_number, number_verdict, written_places

# The sign test exercise: Klondike (draw 1), deals 0-299, hindsight sampling (the expert's first method,
# shipped("hindsight")) against greedy, counted in lesson 06b.
SIGN_TEST_COUNTS = (51, 36)  # deals won by hindsight sampling only, by greedy only


@exercise("06b.sign_test", "Klondike (draw 1), deals 0-299: hindsight sampling alone wins 51 deals and greedy alone "
                           "36. Give the two-sided sign test's p-value (to two significant digits or more).")
def _sign_test(answer: Any) -> Verdict:
    answer = finite_number(answer, "a p-value (a number between 0 and 1)")
    a, b = SIGN_TEST_COUNTS
    want, m = sign_test(a, b), a + b
    if agrees(answer, want):
        return Verdict(True, f"p ≈ {want:.2f}: a fair coin splits {m} deals at least {a} to {b} about one time in "
                             f"{round(1 / want)}, so this split alone does not show that hindsight sampling is better.")
    if agrees(answer, want / 2):
        return Verdict(False, "that is one tail only (hindsight sampling ahead). Greedy could have been the one "
                              "ahead just as unevenly: add the other tail.")
    exactly = math.comb(m, a) / 2 ** m
    if agrees(answer, 2 * exactly) or agrees(answer, exactly):
        return Verdict(False, f"that counts only splits of exactly {a} to {b}; the p-value adds every split at least "
                              "as uneven.")
    if not 0 <= answer <= 1:
        return Verdict(False, f"{answer!r} cannot be a p-value: a probability lies between 0 and 1.")
    if abs(answer - want) <= 0.5 * 10 ** -written_places(answer):  # right, but to one significant digit
        return Verdict(False, f"{answer!r} is too coarse: give the p-value to two significant digits or more.")
    direction = "too high" if answer > want else "too low"
    return Verdict(False, f"your p-value {answer:.4g} is {direction}. Toss {m} fair coins (only the deals that "
                          "exactly one player wins count) and add the chances of every split at least as uneven.")


@exercise("06b.draw3_rate", "What share of Klondike deals 0 to 99 does greedy win when three cards are drawn at a "
                            "time? (a fraction between 0 and 1)")
def _draw3_rate(answer: Any) -> Verdict:
    from ..strategies import play_game
    draw3 = dataclasses.replace(KLONDIKE, name="Klondike draw 3", draw=3)
    wins = sum(play_game(draw3, seed, "greedy").outcome == Outcome.WON for seed in range(100))
    if as_number(answer) == wins and wins > 1:
        return Verdict(False, f"{answer} is the number of wins; give the share, wins / 100.")
    return number_verdict(answer, wins / 100, "greedy's draw-3 win rate on deals 0-99")
