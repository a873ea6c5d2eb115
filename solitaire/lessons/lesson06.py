"""Checks for the exercises of lesson 06 (how winnable is each game), registered with ``solitaire.lessons.check``."""
from __future__ import annotations

import functools
import math
from typing import Any

from .checks import NotAnswered, Verdict, call_student, exercise, finite_number

# The (wins, games) pairs a student's Wilson function is tried on: none, few, half, most and all wins.
WILSON_PAIRS = [(k, n) for n in (1, 2, 3, 5, 10, 20, 40, 100, 1000, 6000)
                for k in sorted({0, 1, 2, n // 10, n // 3, n // 2, n - 2, n - 1, n}) if 0 <= k <= n]
DEALS_TOLERANCE = 0.01  # an answer may exceed the smallest number of deals by this share


def _wald(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    half = z * math.sqrt(p * (1 - p) / n)
    return p - half, p + half


@exercise("06.wilson", "Write my_wilson(wins, games) that returns the 95% Wilson interval (low, high) for a win "
                       "rate, using the formula of lesson 06 with z = 1.96.")
def _wilson(answer: Any) -> Verdict:
    from ..experiments import wilson  # pandas is needed only here
    if answer is wilson:
        return Verdict(False, "that is the kit's own wilson: write the formula yourself, as a function of "
                              "(wins, games).")
    for k, n in WILSON_PAIRS:
        got = call_student(answer, k, n)
        try:
            low, high = (float(x) for x in got)
        except (TypeError, ValueError):
            raise NotAnswered(f"my_wilson({k}, {n}) should return a pair (low, high), but returned {got!r}") from None
        want = wilson(k, n)
        if all(abs(x - w) <= 1e-6 for x, w in zip((low, high), want)):
            continue
        if all(abs(x - w) <= 1e-6 for x, w in zip((low, high), _wald(k, n))):
            return Verdict(False, f"for {k} wins in {n} games yours gives ({low:.4f}, {high:.4f}): that is the "
                                  "Wald interval, p ± 1.96·√(p(1-p)/n). The Wilson interval's centre and "
                                  "half-width both carry the z²/n terms.")
        return Verdict(False, f"for {k} wins in {n} games yours gives ({low:.4f}, {high:.4f}), but the Wilson "
                              f"interval is ({want[0]:.4f}, {want[1]:.4f}). Check each term of the formula.")
    return Verdict(True, f"your function agrees with the kit's wilson on all {len(WILSON_PAIRS)} (wins, games) "
                         "pairs tried, from 0 wins in 1 game to 6000 wins in 6000.")


def _width_at_80(n: int) -> float:
    from ..experiments import wilson
    low, high = wilson(round(0.8 * n), n)
    return high - low


@functools.cache
def fewest_deals_at_80(width: float = 0.02) -> int:
    """The smallest number of deals whose 95% Wilson interval around an 80% win rate is at most ``width`` wide."""
    n = 1
    while _width_at_80(n) > width:
        n += 1
    return n


@exercise("06.deals_needed", "About how many deals does it take for a 95% Wilson interval around a win rate of "
                             "80% to be at most 2 percentage points wide (±1 point)? Give the smallest number.")
def _deals_needed(answer: Any) -> Verdict:
    answer = finite_number(answer, "a number of deals")
    if answer < 1:
        return Verdict(False, f"{answer!r} is not a number of deals: give a whole number of deals, at least 1.")
    deals, n = round(answer), fewest_deals_at_80()
    if _width_at_80(deals) > 0.02:
        return Verdict(False, f"with {deals} deals the interval is {_width_at_80(deals):.4f} wide, more than 0.02: "
                              "try more deals (the width shrinks like 1/√n, so halving it takes four times the "
                              "deals).")
    if deals > (1 + DEALS_TOLERANCE) * n:
        return Verdict(False, f"with {deals} deals the interval is {_width_at_80(deals):.4f} wide: enough, but "
                              "far more than needed. Which is the smallest number of deals that is enough?")
    return Verdict(True, f"about {n} deals (yours, {deals}, gives an interval {_width_at_80(deals):.4f} wide): "
                         "four times the deals for half the width, since the width shrinks like 1/√n.")
