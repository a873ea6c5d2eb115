"""Lesson 05c (how sure is 0 of 40?): the simulation that tests an interval, and the check of its exercise,
registered with ``solitaire.lessons.check``.

The expected answers are computed inside the check, so nothing here hands them out.
"""
from __future__ import annotations

import math
import random
from typing import Any, Callable

from .checks import Verdict, agrees_as_shown, exercise, shown_apart, written_places
from .hidden import graded_inputs
from .lesson06 import LEAST_PLACES, student_intervals, textbook_interval, wins_in

LESSON_PAIR = (12, 40)  # the lesson's own example: 12 wins in 40 games


def coverage(interval: Callable[[int, int], tuple[float, float]], rate: float = 0.01, games: int = 40,
             experiments: int = 1000) -> float:
    """The share of ``experiments`` simulated experiments of ``games`` deals, each deal won with chance ``rate``,
    whose ``interval(wins, games)`` contains ``rate``: a 95% interval should give about 0.95. Lessons 05c and 06
    run it on the same seeded experiments.

    >>> coverage(lambda wins, games: (0.0, 1.0))
    1.0
    >>> coverage(lambda wins, games: (wins / games, wins / games), rate=0.5, games=1)
    0.0
    """
    rng = random.Random(2026)  # seeded: the same experiments for every interval
    inside = 0
    for _ in range(experiments):  # _ names a loop variable we never read
        wins = sum(rng.random() < rate for _ in range(games))  # True counts as 1
        low, high = interval(wins, games)
        if low <= rate and rate <= high:
            inside += 1
    return inside / experiments


# The (wins, games) pairs a student's Wald function is tried on: none, few, half, most and all wins, the lesson's
# 12 in 40 first; in a graded check, secret ones too.
WALD_PAIRS = [LESSON_PAIR] + sorted({(k, n) for n in (1, 2, 5, 10, 40, 100, 1000)
                                     for k in {0, 1, n // 10, n // 3, n // 2, n - 1, n} if 0 <= k <= n} - {LESSON_PAIR},
                                    key=lambda pair: (pair[1], pair[0]))
WALD_PAIRS += graded_inputs(605, 12, lambda rng: (lambda n: (rng.randint(0, n), n))(rng.randint(1, 9000)))


@exercise("05c.wald", "Write my_wald(wins, games) that returns the 95% Wald interval (low, high): the observed "
                      "rate p = wins / games, plus or minus 1.96·√(p(1-p)/games).",
          pieces=["solitaire.stats.wald"])
def _wald(answer: Any) -> Verdict:
    tried = [(k, n, low, high) for k, n, (low, high) in student_intervals(answer, WALD_PAIRS, "my_wald")]
    places = max(written_places(x) for _, _, low, high in tried for x in (low, high))  # the precision chosen
    if places < LEAST_PLACES:
        return Verdict(False, f"your ends are rounded to {places} decimal{'s' * (places != 1)}: keep at least "
                              f"{LEAST_PLACES}, as the lesson prints them.")
    for k, n, low, high in tried:
        want = textbook_interval(k, n)
        clipped = (max(0.0, want[0]), min(1.0, want[1]))  # a student may keep the ends between 0 and 1
        if any(all(agrees_as_shown(x, w, places) for x, w in zip((low, high), pair)) for pair in (want, clipped)):
            continue
        p = k / n
        unrooted = 1.96 * math.sqrt(p * (1 - p)) / n
        if all(agrees_as_shown(x, w, places) for x, w in zip((low, high), (p - unrooted, p + unrooted))):
            hint = " The square root covers p(1-p)/games, the division included."
        elif agrees_as_shown(low + high, 2 * p, places):
            hint = " The centre is right: look at the half-width, 1.96·√(p(1-p)/games)."
        else:
            hint = " The interval's centre is the observed rate, wins / games."
        (low_text, want_low), (high_text, want_high) = shown_apart(low, want[0]), shown_apart(high, want[1])
        return Verdict(False, f"for {wins_in(k, n)} yours gives ({low_text}, {high_text}), but the Wald interval "
                              f"is ({want_low}, {want_high}).{hint}")
    return Verdict(True, f"your function agrees with the formula on all {len(WALD_PAIRS)} (wins, games) pairs tried, "
                         "from 0 wins in 1 game to 1000 wins in 1000 games.")
