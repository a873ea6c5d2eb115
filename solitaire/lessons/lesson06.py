"""Checks for the exercises of lesson 06 (how winnable is each game), registered with ``solitaire.lessons.check``.

The expected answers are computed inside the checks, so no function here hands them out.
"""
from __future__ import annotations

import math
from typing import Any

from .hidden import graded_inputs
from .checks import (NotAnswered, Verdict, agrees_as_shown, call_student, exercise, finite_number, hidden_inputs,
                     needs_function, shown_apart, written_places)

LESSON_PAIR = (12, 40)  # the lesson's own example: 12 wins in 40 games


def _nearest_first(pair: tuple[int, int]) -> tuple[float, float]:
    """How far a (wins, games) pair lies from the lesson's 12 in 40 (games first, then the win rate), so that a
    wrong formula is shown where the lesson's numbers are, not at an odd case such as 0 wins in 1 game.

    >>> sorted([(0, 1), (13, 40), (12, 40), (50, 100)], key=_nearest_first)
    [(12, 40), (13, 40), (50, 100), (0, 1)]
    """
    k, n = pair
    return abs(math.log(n / LESSON_PAIR[1])), abs(k / n - LESSON_PAIR[0] / LESSON_PAIR[1])


# The (wins, games) pairs a student's Wilson function is tried on: none, few, half, most and all wins, the nearest
# to the lesson's 12 in 40 first.
WILSON_PAIRS = sorted({LESSON_PAIR} | {(k, n) for n in (1, 2, 3, 5, 10, 20, 40, 100, 1000, 6000)
                                       for k in {0, 1, 2, n // 10, n // 3, n // 2, n - 2, n - 1, n} if 0 <= k <= n},
                      key=_nearest_first)
WILSON_PAIRS += graded_inputs(601, 12, lambda rng: (lambda n: (rng.randint(0, n), n))(rng.randint(1, 9000)))
LEAST_PLACES = 3  # the lesson prints intervals to 3 decimals: a function may round its ends, but not coarser


def textbook_interval(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wald interval, computed here: the kit's ``stats.wald`` is switched off while a student's answer runs
    (lessons 05c and 06).

    >>> [round(x, 3) for x in textbook_interval(12, 40)]
    [0.158, 0.442]
    """
    p = k / n
    half = z * math.sqrt(p * (1 - p) / n)
    return p - half, p + half


def student_intervals(answer: Any, pairs: Any, name: str) -> list[tuple[int, int, tuple[float, float]]]:
    """The student's interval ``name(k, n)`` for every (k, n) of ``pairs``, as floats (lessons 05c and 06)."""
    out = []
    for k, n in pairs:
        got = call_student(answer, k, n)
        try:
            low, high = (float(x) for x in got)
        except (TypeError, ValueError):
            raise NotAnswered(f"{name}({k}, {n}) should return a pair (low, high), but returned {got!r}") from None
        out.append((k, n, (low, high)))
    return out


def wins_in(k: int, n: int) -> str:
    """ "1 win in 1 game", "0 wins in 10 games": the counts of a message in words.

    >>> wins_in(1, 1), wins_in(0, 10)
    ('1 win in 1 game', '0 wins in 10 games')
    """
    return f"{k} win{'s' * (k != 1)} in {n} game{'s' * (n != 1)}"


@exercise("06.wilson", "Write my_wilson(wins, games) that returns the 95% Wilson interval (low, high) for a win "
                       "rate, using the formula of lesson 06 with z = 1.96 (rounding the ends to 3 decimals or "
                       "more is fine).", pieces=["solitaire.stats.wilson"])
def _wilson(answer: Any) -> Verdict:
    from ..stats import wilson  # (the kit's own wilson, passed as the answer, is named a copy before this runs)
    tried = student_intervals(answer, WILSON_PAIRS, "my_wilson")
    places = max(written_places(x) for _, _, pair in tried for x in pair)  # the precision the student chose
    if places < LEAST_PLACES:
        return Verdict(False, f"your ends are rounded to {places} decimal{'s' * (places != 1)}: keep at least "
                              f"{LEAST_PLACES}, as the lesson prints them.")
    for k, n, (low, high) in tried:
        want = wilson(k, n)
        if all(agrees_as_shown(x, w, places) for x, w in zip((low, high), want)):
            continue
        if all(agrees_as_shown(x, w, places) for x, w in zip((low, high), textbook_interval(k, n))):
            return Verdict(False, f"for {wins_in(k, n)} yours gives ({low:.4f}, {high:.4f}): that is the "
                                  "Wald interval, p ± 1.96·√(p(1-p)/n). The Wilson interval's centre and "
                                  "half-width both carry the z²/n terms.")
        (low_text, want_low), (high_text, want_high) = shown_apart(low, want[0]), shown_apart(high, want[1])
        return Verdict(False, f"for {wins_in(k, n)} yours gives ({low_text}, {high_text}), but the Wilson "
                              f"interval is ({want_low}, {want_high}). Check each term of the formula.")
    smallest, largest = min(n for _, n in WILSON_PAIRS), max(n for _, n in WILSON_PAIRS)
    return Verdict(True, f"your function agrees with the kit's wilson on all {len(WILSON_PAIRS)} (wins, games) "
                         f"pairs tried, from {wins_in(0, smallest)} to {wins_in(largest, largest)}.")


def _width(n: int, rate: float = 0.8) -> float:
    from ..stats import wilson
    low, high = wilson(round(rate * n), n)
    return high - low


def _checked_width_answer(width: float) -> int:
    """The smallest n whose Wilson interval around a win rate of four in five is at most ``width`` wide (the checker's own answer)."""
    return next(n for n in range(1, 10**7) if _width(n) <= width)


# The widths a student's deals_needed is tried on: none of them is the lesson's 0.02.
DEALS_WIDTHS = sorted(hidden_inputs(606, 5, lambda rng: round(10 ** rng.uniform(-1.9, -0.6), 3)), reverse=True)


def _past_or_short(deals: int, want: int) -> str:
    """The hint for a number of deals that is not enough: stopped short, or gone past the first n that is enough
    (the width does not shrink at every step: round(0.8 * n) wins jumps by one now and then)."""
    if deals > want:
        return (f"{want} deals are enough, though: the width does not shrink at every step (round(0.8 * n) jumps), "
                "so stop at the first n that is enough, not one later.")
    return "Keep going until the width is at most the target (<=), and return that n."


@exercise("06.deals_needed", "Write deals_needed(width): the smallest number of deals n for which the 95% Wilson "
                             "interval around a win rate of 80% (round(0.8 * n) wins in n deals) is at most `width` "
                             "wide. It is tried on widths the lesson never shows.")
def _deals_needed(answer: Any) -> Verdict:
    needs_function(answer, "deals_needed(width)", "a number answers one width only")
    for width in DEALS_WIDTHS:
        got = finite_number(call_student(answer, width), f"a number of deals for deals_needed({width})")
        if got < 1 or got != round(got):
            return Verdict(False, f"deals_needed({width}) gave {got!r}, which is not a number of deals: give a whole "
                                  "number, at least 1.")
        deals, want = int(got), _checked_width_answer(width)
        if _width(deals) > width:
            return Verdict(False, f"deals_needed({width}) gave {deals}, but with {deals} deals the interval is "
                                  f"{_width(deals):.4f} wide, more than {width}: not enough deals. "
                                  + _past_or_short(deals, want))
        if deals != want:
            how_far = "one deal fewer is" if deals - want == 1 else \
                "a few deals fewer are" if deals - want <= 0.05 * want else "far fewer deals are"
            late = (" Does your loop add one to n after the width was already small enough, or test < where "
                    "the question says at most (<=)?" if deals - want == 1 else "")
            return Verdict(False, f"deals_needed({width}) gave {deals}: enough, but {how_far} enough "
                                  "too. The question asks for the smallest number: start at n = 1 and stop at the "
                                  f"first n that is enough.{late}")
    shown = ", ".join(str(w) for w in DEALS_WIDTHS)
    one_point, two_points = (int(call_student(answer, w)) for w in (0.02, 0.04))
    return Verdict(True, f"your function gives the smallest number of deals for every width tried ({shown}). "
                         f"By it, ±1 point at 80% (a width of 0.02) takes {one_point:,} deals, and ±2 points "
                         f"{two_points:,}: four times the deals for half the width, since the width shrinks like "
                         "1/√n.")
