"""Checks for the exercises of lesson 06a (how winnable is each game at all: the solver's range, a published
figure), registered with ``solitaire.lessons.check``. The expected answers are computed inside the checks from the
shipped tables, so no function here hands them out."""
from __future__ import annotations

from typing import Any

from .checks import NotAnswered, Verdict, agrees, as_number, exercise, finite_number, number_verdict

PUBLISHED_DRAW3 = 0.81945  # Blake & Gent 2019: Klondike, draw 3, cards may come back from the foundations


def _solver_counts(table: str, variant: str) -> tuple[int, int, int]:
    """(won, unknown, games) of the solver in a shipped table."""
    from ..endgame import Outcome
    from ..experiments import shipped
    games = shipped(table)
    rows = games[(games["variant"] == variant) & (games["strategy"] == "solver")]
    return int((rows["outcome"] == Outcome.WON).sum()), int((rows["outcome"] == Outcome.UNKNOWN).sum()), len(rows)


@exercise("06a.winnable_range", "Klondike, the shipped 2,000-deal table: the solver won some deals and left some "
                                "unknown. Give the winnable share's range as a pair (low, high), with a 95% Wilson "
                                "interval at each end: low counts every unknown deal as lost, high as won.")
def _winnable_range(answer: Any) -> Verdict:
    from ..stats import wilson
    try:
        low, high = (finite_number(x, "a share between 0 and 1") for x in answer)
    except (TypeError, ValueError):
        raise NotAnswered(f"expected a pair (low, high), got {answer!r}") from None
    won, unknown, n = _solver_counts("seed_variants", "klondike")
    want = wilson(won, n)[0], wilson(won + unknown, n)[1]
    if agrees(low, want[0]) and agrees(high, want[1]):
        return Verdict(True, f"({want[0]:.3f}, {want[1]:.3f}): the {unknown} unknown deals widen the range by "
                             f"{(want[1] - wilson(won, n)[1]) * 100:.1f} points at the top.")
    if agrees(low, won / n) or agrees(high, (won + unknown) / n):
        return Verdict(False, "those are the bounds without their intervals: put a Wilson interval around each "
                              "end (the low end of the lower one, the high end of the upper one).")
    if agrees(low, want[0]) and agrees(high, wilson(won, n)[1]):
        return Verdict(False, "your high end counts only the deals won: count the unknown deals as won too.")
    if high < low:
        return Verdict(False, f"your low end {low} is above your high end {high}: give (low, high).")
    wrong = "low" if not agrees(low, want[0]) else "high"
    return Verdict(False, f"your {wrong} end is off. Low: the interval around the deals won, its lower end; high: "
                          "the interval around the deals won or unknown, its upper end.")


@exercise("06a.misjudged", "Draw 3 under the published rules (1,000 deals): how many of the deals the solver won or "
                           "left unknown would it have to have wrongly called unwinnable for the high end of the range "
                           "to fall below the published 81.945%? Give the smallest such number.")
def _misjudged(answer: Any) -> Verdict:
    from ..stats import wilson
    won, unknown, n = _solver_counts("published_rules", "klondike foundation_to_tableau=true draw=3")
    open_or_won = won + unknown
    smallest = next(m for m in range(open_or_won + 1) if wilson(open_or_won - m, n)[1] < PUBLISHED_DRAW3)
    x = as_number(answer)
    if x is not None and x == smallest - 1:
        return Verdict(False, f"with {x:g} deals misjudged the high end is still {wilson(open_or_won - smallest + 1, n)[1]:.4f}, "
                              "not below 0.81945: one more.")
    verdict = number_verdict(answer, smallest, "the number of misjudged deals")
    if verdict.ok:
        return Verdict(True, f"{smallest} deals, about one in {round(open_or_won / smallest)} of the {open_or_won} it "
                             "won or left open: a solver wrong that often would fail the check, so it has teeth.")
    return verdict
