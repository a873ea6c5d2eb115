"""Checks for the exercises of lesson 06 (how winnable is each game), registered with ``solitaire.lessons.check``.

The expected answers are computed inside the checks, so no function here hands them out.
"""
from __future__ import annotations

import math
from typing import Any

from .checks import NotAnswered, Verdict, agrees, call_student, calls_into, exercise, finite_number, written_places

# The (wins, games) pairs a student's Wilson function is tried on: none, few, half, most and all wins.
WILSON_PAIRS = [(k, n) for n in (1, 2, 3, 5, 10, 20, 40, 100, 1000, 6000)
                for k in sorted({0, 1, 2, n // 10, n // 3, n // 2, n - 2, n - 1, n}) if 0 <= k <= n]
LEAST_PLACES = 3  # the lesson prints intervals to 3 decimals: a function may round its ends, but not coarser


def _wald(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    half = z * math.sqrt(p * (1 - p) / n)
    return p - half, p + half


def _pairs(answer: Any) -> list[tuple[int, int, tuple[float, float]]]:
    """The student's interval for every pair of WILSON_PAIRS, as floats."""
    out = []
    for k, n in WILSON_PAIRS:
        got = call_student(answer, k, n)
        try:
            low, high = (float(x) for x in got)
        except (TypeError, ValueError):
            raise NotAnswered(f"my_wilson({k}, {n}) should return a pair (low, high), but returned {got!r}") from None
        out.append((k, n, (low, high)))
    return out


@exercise("06.wilson", "Write my_wilson(wins, games) that returns the 95% Wilson interval (low, high) for a win "
                       "rate, using the formula of lesson 06 with z = 1.96 (rounding the ends to 3 decimals or "
                       "more is fine).", pieces=["solitaire.stats.wilson"])
def _wilson(answer: Any) -> Verdict:
    from ..stats import wilson  # pandas is needed only here
    kit = wilson if answer is wilson else calls_into(answer, (3, 10), [wilson])
    if kit:
        return Verdict(False, "your function calls the kit's own wilson: write the formula yourself, as a function "
                              "of (wins, games).")
    tried = _pairs(answer)
    places = max(written_places(x) for _, _, pair in tried for x in pair)  # the precision the student chose
    if places < LEAST_PLACES:
        return Verdict(False, f"your ends are rounded to {places} decimal{'s' * (places != 1)}: keep at least "
                              f"{LEAST_PLACES}, as the lesson prints them.")
    for k, n, (low, high) in tried:
        want = wilson(k, n)
        if all(agrees(x, w, places) for x, w in zip((low, high), want)):
            continue
        if all(agrees(x, w, places) for x, w in zip((low, high), _wald(k, n))):
            return Verdict(False, f"for {k} wins in {n} games yours gives ({low:.4f}, {high:.4f}): that is the "
                                  "Wald interval, p ± 1.96·√(p(1-p)/n). The Wilson interval's centre and "
                                  "half-width both carry the z²/n terms.")
        return Verdict(False, f"for {k} wins in {n} games yours gives ({low:.4f}, {high:.4f}), but the Wilson "
                              f"interval is ({want[0]:.4f}, {want[1]:.4f}). Check each term of the formula.")
    return Verdict(True, f"your function agrees with the kit's wilson on all {len(WILSON_PAIRS)} (wins, games) "
                         "pairs tried, from 0 wins in 1 game to 6000 wins in 6000.")


def _width_at_80(n: int) -> float:
    from ..stats import wilson
    low, high = wilson(round(0.8 * n), n)
    return high - low


@exercise("06.deals_needed", "What is the smallest number of deals n for which the 95% Wilson interval around a "
                             "win rate of 80% (round(0.8 * n) wins in n deals) is at most 2 percentage points wide "
                             "(0.02)? Give that number exactly.")
def _deals_needed(answer: Any) -> Verdict:
    answer = finite_number(answer, "a number of deals")
    if answer < 1 or answer != round(answer):
        return Verdict(False, f"{answer!r} is not a number of deals: give a whole number of deals, at least 1.")
    deals = int(answer)
    if _width_at_80(deals) > 0.02:
        return Verdict(False, f"with {deals} deals the interval is {_width_at_80(deals):.4f} wide, more than 0.02: "
                              "try more deals (the width shrinks like 1/√n, so halving it takes four times the "
                              "deals).")
    smallest = next(n for n in range(1, deals + 1) if _width_at_80(n) <= 0.02)
    if smallest < deals:
        how_far = ("a few" if deals - smallest <= 0.01 * smallest else "far")
        return Verdict(False, f"with {deals} deals the interval is {_width_at_80(deals):.4f} wide: enough, but "
                              f"{how_far} fewer deals are enough too. The question asks for the smallest number: "
                              "try n one by one, going down (or up from a number that is not enough).")
    return Verdict(True, f"{deals} deals give an interval {_width_at_80(deals):.4f} wide, and {deals - 1} "
                         f"would not: four times the deals for half the width, since the width shrinks like 1/√n.")
