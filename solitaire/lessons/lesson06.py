"""Checks for the exercises of lesson 06 (experiments), registered with ``solitaire.lessons.check``."""
from __future__ import annotations

import dataclasses
import math
from typing import Any

from ..variants import KLONDIKE
from .checks import Verdict, NotAnswered, exercise, number_verdict


@exercise("06.interval", "Give the 95% Wilson interval (low, high) for 30 wins in 100 games, to 3 decimals.")
def _interval(answer: Any) -> Verdict:
    from ..experiments import wilson  # pandas is needed only here
    try:
        low, high = answer
    except (TypeError, ValueError):
        raise NotAnswered(f"expected a pair (low, high), got {answer!r}") from None
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (low, high)):
        raise NotAnswered(f"expected two numbers (low, high), got {answer!r}")
    want = wilson(30, 100)
    if all(abs(x - w) <= 0.0015 for x, w in zip((low, high), want)):
        return Verdict(True, f"the interval is ({want[0]:.3f}, {want[1]:.3f}): note it is not centred on 0.30.")
    wald = 1.96 * math.sqrt(0.3 * 0.7 / 100)
    if abs(low - (0.3 - wald)) < 0.002 and abs(high - (0.3 + wald)) < 0.002:
        return Verdict(False, "that is the normal (Wald) interval, 0.30 ± 1.96·√(0.3·0.7/100); "
                              "the Wilson interval is pulled toward 0.5.")
    return Verdict(False, f"({low}, {high}) is not the Wilson interval for 30 wins in 100 games.")


@exercise("06.draw3_rate", "What share of Klondike deals 0 to 99 does greedy win when three cards are drawn at a "
                           "time? (a fraction between 0 and 1)")
def _draw3_rate(answer: Any) -> Verdict:
    from ..strategies import play_game
    draw3 = dataclasses.replace(KLONDIKE, name="Klondike draw 3", draw=3)
    wins = sum(play_game(draw3, seed, "greedy").outcome == "won" for seed in range(100))
    if isinstance(answer, (int, float)) and not isinstance(answer, bool) and answer == wins and wins > 1:
        return Verdict(False, f"{answer} is the number of wins; give the share, wins / 100.")
    return number_verdict(answer, wins / 100, "greedy's draw-3 win rate on deals 0-99", tolerance=0.0005)



def _width_at_80(n: int) -> float:
    from ..experiments import wilson
    low, high = wilson(round(0.8 * n), n)
    return high - low


@exercise("06.deals_needed", "About how many deals does it take for a 95% Wilson interval around a win rate of "
                             "80% to be at most 2 percentage points wide (±1 point)?")
def _deals_needed(answer: Any) -> Verdict:
    if isinstance(answer, bool) or not isinstance(answer, (int, float)) or not math.isfinite(answer):
        raise NotAnswered(f"expected a number of deals, got {answer!r}")
    if answer < 1:
        return Verdict(False, f"{answer!r} is not a number of deals: give a whole number of deals, at least 1.")
    n = 100
    while _width_at_80(n) > 0.02:
        n += 1
    deals = round(answer)
    if deals >= n:
        if deals <= 1.03 * n:
            return Verdict(True, f"about {n} deals: four times the deals for half the width, since the width "
                                 "shrinks like 1/√n.")
        return Verdict(True, f"{deals} deals are enough (the interval is {_width_at_80(deals):.4f} wide), but fewer "
                             "would do: how small can you go? The width shrinks like 1/√n.")
    if deals >= 0.97 * n:
        return Verdict(True, f"about {n} deals (yours, {deals}, is a hair short: the interval is "
                             f"{_width_at_80(deals):.4f} wide): four times the deals for half the width.")
    return Verdict(False, f"with {deals} deals the interval is {_width_at_80(deals):.4f} wide, more than 0.02: "
                          "try more deals (the width shrinks like 1/√n, so halving it takes four times the deals).")
