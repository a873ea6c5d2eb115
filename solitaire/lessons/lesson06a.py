"""Checks for the exercises of lesson 06a (how winnable is each game at all: the solver's range, a published
figure), registered with ``solitaire.lessons.check``.

Both answers are functions, tried on inputs the lesson never shows (seeded by the checker), so a number copied
from the lesson's tables answers nothing. The lesson then runs them on the shipped tables.
"""
from __future__ import annotations

from typing import Any

from ..endgame import Outcome

from .checks import (NotAnswered, Verdict, agrees, agrees_as_shown, call_student, exercise, finite_number, hidden_inputs,
                     needs_function, shown_apart, written_places)

LEAST_PLACES = 3  # the lesson prints the ends to 3 decimals: a function may round them, but not coarser
WORDS = (Outcome.WON, Outcome.UNWINNABLE, Outcome.UNKNOWN)  # a solver's verdicts (str: "won", ...), as tables hold them


def _outcomes(rng: Any) -> list[str]:
    """A hidden solver run: mostly 50 to 3,000 deals with some won and some unknown; a few tiny, all won, or all
    unknown."""
    n = rng.randint(50, 3000) if rng.random() < 0.7 else rng.choice([1, 2, 7, 40])
    won_share, unknown_share = rng.uniform(0.2, 0.95), rng.uniform(0, 0.05)
    if rng.random() < 0.2:
        won_share, unknown_share = rng.choice([(1.0, 0.0), (0.0, 1.0), (0.0, 0.0)])
    weights = [won_share, max(0.0, 1 - won_share - unknown_share), unknown_share]
    return [rng.choices(WORDS, weights)[0] for _ in range(n)]


RUNS = hidden_inputs(6061, 24, _outcomes)


def _range_of(outcomes: list[str]) -> tuple[float, float]:
    from ..stats import wilson
    won, unknown, n = outcomes.count(Outcome.WON), outcomes.count(Outcome.UNKNOWN), len(outcomes)
    return wilson(won, n)[0], wilson(won + unknown, n)[1]


def _pair(got: Any, shown: str) -> tuple[float, float]:
    try:
        low, high = (finite_number(x, "a share between 0 and 1") for x in got)
    except (TypeError, ValueError):
        raise NotAnswered(f"{shown} should return a pair (low, high), but returned {got!r}") from None
    return low, high


def _written(x: float, expected: float) -> tuple[str, str]:
    """One end as the student gave it and as it should be: to 4 decimals when it is right to them, else with
    as many as tell the two apart."""
    return (f"{x:.4f}", f"{expected:.4f}") if agrees_as_shown(x, expected) else shown_apart(x, expected)


def _range_mistake(outcomes: list[str], low: float, high: float) -> str:
    """What a wrong (low, high) most likely did, in words."""
    from ..stats import wilson
    won, unknown, n = outcomes.count(Outcome.WON), outcomes.count(Outcome.UNKNOWN), len(outcomes)
    if high < low:
        return "your low end is above your high end: return (low, high)."
    if agrees_as_shown(low, won / n) or agrees_as_shown(high, (won + unknown) / n):
        return ("those are the bounds without their intervals: put a Wilson interval around each end (the low "
                "end of the lower one, the high end of the upper one).")
    if agrees_as_shown(high, wilson(won, n)[1]):
        return "your high end counts only the deals won: count the unknown deals as won too."
    if agrees_as_shown(low, wilson(won + unknown, n)[0]):
        return "your low end counts the unknown deals as won: at the low end they count as lost."
    wrong = "low" if not agrees_as_shown(low, _range_of(outcomes)[0]) else "high"
    return (f"your {wrong} end is off. Low: the interval around the deals won, its lower end; high: the interval "
            "around the deals won or unknown, its upper end.")


@exercise("06a.winnable_range", "Write winnable_range(outcomes): given a solver's outcomes (a list of 'won', "
                                "'unwinnable' and 'unknown'), return the winnable share's range (low, high), with a "
                                "95% Wilson interval at each end: low counts every unknown deal as lost, high as "
                                "won. It is tried on solver runs the lesson never shows.")
def _winnable_range(answer: Any) -> Verdict:
    needs_function(answer, "winnable_range(outcomes)", "a pair answers one table only")
    tried = []
    for outcomes in RUNS:
        shown = (f"winnable_range(a list of {len(outcomes)} outcomes: {outcomes.count(Outcome.WON)} won, "
                 f"{outcomes.count(Outcome.UNKNOWN)} unknown)")
        tried.append((outcomes, shown, _pair(call_student(answer, list(outcomes)), shown)))
    places = max(written_places(x) for _, _, pair in tried for x in pair)  # the precision the student chose
    if places < LEAST_PLACES:
        return Verdict(False, f"your ends are rounded to {places} decimal{'s' * (places != 1)}: keep at least "
                              f"{LEAST_PLACES}, as the lesson prints them.")
    for outcomes, shown, (low, high) in tried:
        want = _range_of(outcomes)
        if not (agrees_as_shown(low, want[0], places) and agrees_as_shown(high, want[1], places)):
            (got_low, want_low), (got_high, want_high) = (_written(x, w) for x, w in zip((low, high), want))
            return Verdict(False, f"{shown} gave ({got_low}, {got_high}), but the range is ({want_low}, "
                                  f"{want_high}): {_range_mistake(outcomes, low, high)}")
    return Verdict(True, f"your function gives the range of all {len(RUNS)} solver runs tried, from "
                         f"{min(map(len, RUNS))} deals to {max(map(len, RUNS)):,}, some all won, some all unknown.")


def _smallest(won_or_unknown: int, games: int, published: float) -> int:
    """The checker's own answer: the fewest deals taken from those won or unknown that bring the high end below."""
    from ..stats import wilson
    m = 0
    while wilson(won_or_unknown - m, games)[1] >= published:
        m += 1
    return m


def _teeth_case(rng: Any) -> tuple[int, int, float]:
    """A hidden (won_or_unknown, games, published): the published share lies above the range's floor, so an
    answer exists; a few lie above the high end already (the answer is 0)."""
    from ..stats import wilson
    games = rng.choice([20, 100, rng.randint(200, 20_000)])
    won_or_unknown = rng.randint(games // 3, games)
    high = wilson(won_or_unknown, games)[1]
    floor = wilson(0, games)[1]
    published = rng.choice([high + 0.001, rng.uniform(floor + 0.001, high), high - 0.002, high - 1e-6])
    return won_or_unknown, games, round(min(0.999, max(floor + 0.001, published)), 6)


TEETH = hidden_inputs(6062, 20, _teeth_case)


@exercise("06a.misjudged", "Write misjudged(won_or_unknown, games, published): the smallest number m of the deals a "
                           "solver won or left unknown that it would have to have wrongly called unwinnable for the "
                           "range's high end, wilson(won_or_unknown - m, games)[1], to fall below the published "
                           "share. It is tried on runs and figures the lesson never shows.")
def _misjudged(answer: Any) -> Verdict:
    from ..stats import wilson
    needs_function(answer, "misjudged(won_or_unknown, games, published)", "a number answers one figure only")
    for k, n, published in TEETH:
        shown = f"misjudged({k}, {n}, {published})"
        got = finite_number(call_student(answer, k, n, published), f"a number of deals for {shown}")
        want = _smallest(k, n, published)
        if got == want:
            continue
        if got != round(got) or got < 0:
            return Verdict(False, f"{shown} gave {got!r}, which is not a number of deals: give a whole number, "
                                  "0 or more.")
        m = int(got)
        if m < want:
            return Verdict(False, f"{shown} gave {m}, but with {m} deals misjudged the high end is still "
                                  f"{wilson(k - m, n)[1]:.5f}, not below {published}: not enough.")
        hint = (" The high end is already below the published share with none misjudged: the answer is 0."
                if want == 0 else " Does your loop start at m = 0, and stop at the first m whose high end is "
                                  "below the published share?" if m == want + 1 else "")
        return Verdict(False, f"{shown} gave {m}: enough, but {want} deal{'s' * (want != 1)} {'is' if want == 1 else 'are'} enough too, and the question asks "
                              f"for the smallest.{hint}")
    return Verdict(True, f"your function gives the smallest number for all {len(TEETH)} runs and figures tried, "
                         "including some where the published share is already above the high end (0 deals).")


def plot_winnable(outcomes: dict[str, list[str]], low: float = 0.85) -> Any:
    """Each game's winnable share as a range, one row a game: a filled marker at the share the solver won, a hollow
    one (just below, so that neither hides the other) at the share won or left unknown, and a thick line from the
    lower end of the first one's Wilson 95% interval to the upper end of the second's. The x axis starts at ``low``
    so that intervals a few points wide are seen.

    >>> fig = plot_winnable({"a": ["won"] * 95 + ["unknown"] * 3 + ["unwinnable"] * 2})
    >>> float(fig.axes[0].get_xlim()[0])
    0.85
    """
    import matplotlib.pyplot as plt

    from ..plots import FONTS, percent_axis, strategy_style
    from ..stats import wilson
    colour = strategy_style("solver")["color"]
    with plt.rc_context(FONTS):  # the projector's font sizes, as every plot of the kit
        fig, ax = plt.subplots(figsize=(9, 0.8 * len(outcomes) + 2.2), layout="constrained")
        for row, (game, words) in enumerate(reversed(list(outcomes.items()))):
            n, won, unknown = len(words), words.count(Outcome.WON), words.count(Outcome.UNKNOWN)
            ax.plot([wilson(won, n)[0], wilson(won + unknown, n)[1]], [row, row], color=colour, linewidth=8,
                    alpha=0.35, solid_capstyle="butt", label="winnable range, with a 95% interval at each end"
                    if row == 0 else None)
            ax.plot(won / n, row + 0.12, "D", color=colour, markersize=9, label="won" if row == 0 else None)
            ax.plot((won + unknown) / n, row - 0.12, "D", color=colour, markerfacecolor="white", markersize=9,
                    label="won or unknown (every undecided deal won)" if row == 0 else None)
        ax.set_yticks(range(len(outcomes)), list(reversed(list(outcomes))))
        ax.set_ylim(-0.6, len(outcomes) - 0.4)
        ax.set_xlim(low, 1.01)  # room for a marker at 100%
        ax.set_xticks([x / 100 for x in range(round(100 * low), 101, 5)])
        percent_axis(ax.xaxis)
        ax.set_xlabel(f"share of deals the solver wins (the axis starts at {low:.0%})")
        ax.grid(axis="x", alpha=0.3)
        fig.legend(loc="outside lower center", ncols=1)
    return fig
