"""Lessons 06b (what each rule changes) and 06c (real, or luck of the deals?): the exercises' checks, registered with
``solitaire.lessons.check`` (06b.points in lesson 06b; 06b.p_value, which kept its id when the sign test moved to
lesson 06c), and the lessons' helpers: who won each deal (``won_by_deal``), a change's effect and its interval, and
lesson 06b's experiment again for lesson 06c (``rule_changes_alone``). 06b.win_share is practice in the Going deeper
notebook ``deeper/06b_players.ipynb``, which compares players on the same deals."""
from __future__ import annotations

import dataclasses
import math
from typing import Any

from ..endgame import Outcome
from ..stats import sign_test  # the one home of the statistics; kept importable from here
from ..variants import ITALIAN, KLONDIKE, SOLIJOY
from .hidden import graded_inputs
from .checks import (Verdict, agrees, call_student, exercise, finite_number, hidden_inputs, needs_function,
                     written_places)

# The pairs (deals only the first player won, deals only the second won) a student's p_value is tried on: a tie,
# none at all, and splits the lesson never shows.
P_VALUE_PAIRS = [(4, 4), (0, 0), *hidden_inputs(620, 6, lambda rng: (rng.randint(0, 40), rng.randint(0, 40)))]


def _tail(a: int, b: int, start: int | None = None) -> float:
    m = a + b
    return sum(math.comb(m, k) for k in range(max(a, b) if start is None else start, m + 1)) / 2 ** m


def _p_value_hint(got: float, a: int, b: int, want: float) -> str:
    """What a wrong p-value for the split ``a`` to ``b`` most likely got wrong."""
    m, top = a + b, max(a, b)
    close = lambda x: math.isclose(got, x, rel_tol=1e-6, abs_tol=1e-12)  # noqa: E731
    if got > 1:
        return ("a probability is never above 1. When the split is even, both tails hold the middle split, and "
                "twice the tail passes 1: cap it, min(1, 2 * tail).")
    if close(want / 2) or close(_tail(a, b)):
        return "that is one tail only. The other player could have been the one ahead just as unevenly: add that tail."
    if close(2 * math.comb(m, top) / 2 ** m) or close(math.comb(m, top) / 2 ** m):
        return f"that counts only splits of exactly {top} to {m - top}; the p-value adds every split at least as uneven."
    if top < m and close(min(1.0, 2 * _tail(a, b, top + 1))):
        return f"your tail starts at {top + 1} heads: a split of exactly {top} to {m - top} is as uneven as the one seen."
    if got != want and agrees(got, want, places=written_places(got)):
        places = written_places(got)
        return (f"that is the right p-value rounded to {places} decimal{'s' * (places != 1)}: return it unrounded "
                "(a p-value may be far smaller than 0.001), and round only where you print it.")
    return ("toss a + b fair coins (only the deals exactly one player wins count) and add the chances of every split "
            "at least as uneven as a to b, on both sides.")


@exercise("06b.p_value", "Write p_value(a, b): the two-sided sign test's p-value when one player alone wins a deals "
                         "and the other alone b. It is tried on splits the lesson never shows, ties included.",
          pieces=["solitaire.stats.sign_test"])
def _p_value(answer: Any) -> Verdict:
    needs_function(answer, "p_value(a, b)", "a number answers one split only")
    for a, b in P_VALUE_PAIRS:
        got = finite_number(call_student(answer, a, b), f"a p-value for p_value({a}, {b})")
        want = sign_test(a, b)
        if not math.isclose(got, want, rel_tol=1e-6, abs_tol=1e-12):
            return Verdict(False, f"p_value({a}, {b}) gave {got:.6g}, but the sign test gives {want:.6g}: "
                                  f"{_p_value_hint(got, a, b, want)}")
    # as a float: an exact Fraction (or a numpy number) is a right answer, and before Python 3.12 a Fraction
    # cannot be formatted with :.2f
    hop = finite_number(call_student(answer, 51, 36), "a p-value for p_value(51, 36)")
    return Verdict(True, f"your p_value agrees with the sign test on every split tried ({len(P_VALUE_PAIRS)}, ties "
                         f"and empty ones included). For a split of 51 deals to 36 it gives p ≈ {hop:.2f}: a fair "
                         f"coin splits 87 deals that unevenly about one time in {round(1 / hop)}, so a lead of 51 "
                         "to 36 alone does not show a player better.")


def effect_points(changed: Any, as_is: Any) -> float:
    """A change's effect on the share of the same deals won, in percentage points: the changed game's win rate
    minus the game's as it is, each in percent (``changed[i]`` and ``as_is[i]``: was deal i won?).

    >>> effect_points([True, True, True, False], [True, False, False, False])  # 75% against 25%
    50.0
    """
    changed, as_is = list(changed), list(as_is)
    if len(changed) != len(as_is) or not changed:
        raise ValueError(f"need who won each of the same deals, changed and as it is: got {len(changed)} and "
                         f"{len(as_is)} deals")
    return 100 * (sum(map(bool, changed)) - sum(map(bool, as_is))) / len(changed)


def _points_pair(rng: Any) -> tuple[list[bool], list[bool]]:
    deals = rng.randint(8, 60)
    rate_changed, rate_as_is = rng.random(), rng.random()
    return [rng.random() < rate_changed for _ in range(deals)], [rng.random() < rate_as_is for _ in range(deals)]


# The pairs (who won each deal changed, as it is) a student's points is tried on: a change from 1 win in 4 to 3, one
# from no wins at all (where a change in percent of the old rate has no answer), a loss, and pairs the lesson never
# shows.
POINTS_PAIRS = [([True, True, True, False], [True, False, False, False]),
                ([True, False, True, False, False], [False] * 5),
                ([False, True, False, False, True, False], [True, True, False, True, True, False]),
                *hidden_inputs(626, 6, _points_pair)]


def _points_hint(got: float, changed: list[bool], as_is: list[bool], want: float) -> str:
    """What a wrong effect most likely got wrong."""
    n, a, b = len(changed), sum(changed), sum(as_is)
    close = lambda x: math.isclose(got, x, rel_tol=1e-9, abs_tol=1e-9)  # noqa: E731
    if close(-want):
        return "that is the effect the wrong way round: the changed game's rate minus the rate as it is."
    if close(want / 100):
        return "that is the difference of the two shares (between -1 and 1): give it in percentage points, × 100."
    if close(a - b):
        return (f"that is the difference in deals won ({n} deals here); each rate is the share of the deals won, in "
                "percent, and their difference is in percentage points.")
    if b and close(100 * (a - b) / b):
        return ("that is the change in percent of the old rate. An effect in percentage points is the difference of "
                "the two rates, each in percent.")
    if agrees(got, want, places=written_places(got)):
        return "that is the right effect rounded too coarsely: keep at least whole percentage points."
    return ("each rate is the share of the deals won, in percent; the effect is the changed rate minus the rate as it "
            "is.")


@exercise("06b.points", "Write points(changed, as_is): a change's effect on greedy's win rate in percentage points, "
                        "from two lists of True and False (was each of the same deals won, changed and as it is). "
                        "It is tried on deals the lesson never shows.",
          pieces=[effect_points])
def _points(answer: Any) -> Verdict:
    needs_function(answer, "points(changed, as_is)", "a number answers one change only")
    for changed, as_is in POINTS_PAIRS:
        got = finite_number(call_student(answer, list(changed), list(as_is)),
                            f"an effect in percentage points for points({changed}, {as_is})")
        want = effect_points(changed, as_is)
        if not math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9) and not (  # rounded as the prompt's example is
                got == round(got) and abs(got - want) <= 0.5):
            return Verdict(False, f"points({changed}, {as_is}) gave {got:.4g}, but that change's effect is "
                                  f"{want:+.4g} percentage points: {_points_hint(got, changed, as_is, want)}")
    return Verdict(True, f"your points gives the effect in percentage points on every pair of games tried "
                         f"({len(POINTS_PAIRS)}). A rate that goes from 20% to 30% gains 10 percentage points, "
                         "which is 50% more than before: the two are easy to mix up, so say which you mean.")


def _share(variant: Any, deals: int) -> float:
    from ..strategies import play_game
    return sum(play_game(variant, seed, "greedy").outcome == Outcome.WON for seed in range(deals)) / deals


# The (variant, deals) a student's win_share is tried on: none of them the lesson's draw-3 Klondike on 100 deals.
WIN_SHARE_CASES = [(dataclasses.replace(KLONDIKE, name="Klondike draw 3", draw=3), 30),
                   (dataclasses.replace(SOLIJOY, name="SoliJoy + w>f", waste_to_foundation=True), 12),
                   (dataclasses.replace(KLONDIKE, name="Klondike, any card on empty columns", empty_column_ranks=None),
                    25)]
_CHANGES = ({"draw": 3}, {"waste_to_foundation": True}, {"empty_column_ranks": None}, {"passes": 1}, {"draw": 2})
WIN_SHARE_CASES += graded_inputs(623, 2, lambda rng: (dataclasses.replace(
    rng.choice([KLONDIKE, SOLIJOY]), name="a rule changed", **rng.choice(_CHANGES)), rng.randint(10, 25)))


@exercise("06b.win_share", "Write win_share(variant, deals): the share (a fraction between 0 and 1) of deals 0 to "
                           "deals - 1 that greedy wins in that variant. It is tried on variants and numbers of deals "
                           "the lesson never shows.")
def _win_share(answer: Any) -> Verdict:
    needs_function(answer, "win_share(variant, deals)", "a number answers one variant only")
    for variant, deals in WIN_SHARE_CASES:
        got = finite_number(call_student(answer, variant, deals), f"a share for win_share({variant.name!r}, {deals})")
        want = _share(variant, deals)
        if math.isclose(got, want, abs_tol=1e-9):
            continue
        if math.isclose(got, want * deals, abs_tol=1e-9) and want > 0:
            hint = " That is the number of wins; give the share, wins / deals."
        elif agrees(got, want, places=written_places(got)):
            hint = " That is the share rounded: return it unrounded, wins / deals, and round only where you print it."
        elif math.isclose(got, _share(KLONDIKE, deals), abs_tol=1e-9):
            hint = " That is plain Klondike's share: play the variant you were given."
        else:
            hint = " Play greedy on seeds 0 to deals - 1 (range(deals)) in the variant given, and divide the wins by deals."
        return Verdict(False, f"win_share({variant.name!r}, {deals}) gave {got:.4g}, but greedy wins "
                              f"{want:.4g} of those deals.{hint}")
    return Verdict(True, "your function gives greedy's share of wins for every variant tried.")


def won_by_deal(games: Any, across: str = "variant") -> Any:
    """Who won each deal, from a table of games (``run``'s, or ``shipped``'s): one row per deal, one column per
    value of ``across`` (each variant, or each strategy), True where that game was won. With ``across="strategy"``
    a row is a (variant, seed); with ``across="variant"`` a seed.

    >>> import pandas as pd
    >>> games = pd.DataFrame({"variant": ["a", "b", "a", "b"], "seed": [0, 0, 1, 1],
    ...                       "strategy": ["greedy"] * 4, "outcome": ["won", "lost", "won", "won"]})
    >>> won_by_deal(games)["b"].tolist()
    [False, True]
    """
    if across not in ("variant", "strategy"):
        raise ValueError(f"across is 'variant' or 'strategy', not {across!r}")
    index = ["seed"] if across == "variant" else ["variant", "seed"]
    return games.pivot_table(index=index, columns=across, values="outcome", aggfunc="first") == Outcome.WON.value


# Lesson 06b's four rule changes, which lesson 06c tests: the change, and (the game as it is, the game changed).
RULE_CHANGES = {
    "SoliJoy: waste to foundation allowed": ("solijoy", dataclasses.replace(SOLIJOY, waste_to_foundation=True)),
    "Klondike: draw 3": ("klondike", dataclasses.replace(KLONDIKE, draw=3)),
    "Italian: columns built upward": ("italian", dataclasses.replace(ITALIAN, columns_follow_foundation_order=False)),
    "Klondike: any card on an empty column": ("klondike", dataclasses.replace(KLONDIKE, empty_column_ranks=None)),
}


def rule_changes_alone(deals: int = 100, workers: int = 2) -> Any:
    """Lesson 06b's experiment again, for lesson 06c: greedy plays deals 0 to ``deals - 1`` of each game as it is and
    as each of ``RULE_CHANGES`` changes it. One row a change: its effect in percentage points, and the deals only
    the changed game won and only the game as it is won (the deals a sign test counts).

    >>> rule_changes_alone(deals=4, workers=1).columns.tolist()
    ['change', 'points', 'only changed', 'only as it is']
    """
    import pandas as pd

    from ..experiments import run
    variants: dict[str, Any] = {"klondike": KLONDIKE, "solijoy": SOLIJOY, "italian": ITALIAN}
    variants.update({change: new for change, (_, new) in RULE_CHANGES.items()})
    won = won_by_deal(run(variants, "greedy", deals, workers=workers, progress=False))
    return pd.DataFrame([{"change": change, "points": round(effect_points(won[change], won[old])),
                          "only changed": int((won[change] & ~won[old]).sum()),
                          "only as it is": int((won[old] & ~won[change]).sum())}
                         for change, (old, _) in RULE_CHANGES.items()])


def effect_interval(changed: Any, as_is: Any, z: float = 1.96) -> tuple[float, float]:
    """The 95% interval of a change's effect on the share of deals won, ``share(changed) - share(as_is)``, when both
    were played on the same deals (``changed[i]`` and ``as_is[i]``: was deal i won?): Newcombe's interval for
    paired deals (method 10 of Newcombe, 1998), built from the Wilson interval of each share (lesson 06) and how
    far the two go together, deal by deal.

    >>> low, high = effect_interval([True] * 66 + [False] * 34, [False] * 100)  # 66 deals won only when changed
    >>> round(low, 3), round(high, 3)
    (0.556, 0.745)
    >>> low, high = effect_interval([True, False], [True, False])  # the same deal won: no effect seen, on 2 deals
    >>> round(low, 3), round(high, 3)
    (-0.573, 0.573)
    """
    from ..stats import wilson
    changed, as_is = list(changed), list(as_is)
    if len(changed) != len(as_is) or not changed:
        raise ValueError(f"need who won each of the same deals, changed and as it is: got {len(changed)} and "
                         f"{len(as_is)} deals")
    pairs = [(bool(a), bool(b)) for a, b in zip(changed, as_is)]
    n = len(pairs)
    both, only_changed = pairs.count((True, True)), pairs.count((True, False))
    only_as_is, neither = pairs.count((False, True)), pairs.count((False, False))
    p1, p2 = (both + only_changed) / n, (both + only_as_is) / n
    (l1, u1), (l2, u2) = wilson(both + only_changed, n, z), wilson(both + only_as_is, n, z)
    margins = (both + only_changed) * (only_as_is + neither) * (both + only_as_is) * (only_changed + neither)
    together = both * neither - only_changed * only_as_is  # > 0 when the same deals tend to be won both ways
    if together > n / 2:  # Newcombe's correction of the correlation, toward none
        together -= n / 2
    elif together > 0:
        together = 0
    phi = together / math.sqrt(margins) if margins else 0.0
    low = p1 - p2 - math.sqrt((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2)
    high = p1 - p2 + math.sqrt((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2)
    return max(-1.0, low), min(1.0, high)


def effects_table(won: Any, changes: dict, points: Any = None) -> Any:
    """Lesson 06b's table of effects: one row a change (``changes``: the change, and (the game as it is, the game
    changed), whose names are columns of ``won``, as ``won_by_deal`` gives it), with its effect in percentage points
    by ``points`` (a student's function, given two lists as its prompt says; the kit's ``effect_points`` while it
    is a stub, or without one), rounded,
    and the ends of its 95% interval (``effect_interval``), in percentage points too.

    >>> import pandas as pd
    >>> won = pd.DataFrame({"a": [True, False, False, False], "changed": [True, True, True, False]})
    >>> effects_table(won, {"changed": ("a", None)}).to_dict("records")
    [{'change': 'changed', 'points': 50, 'low': -14, 'high': 79}]
    """
    import pandas as pd

    from .pieces import yours_or_kits
    effect = effect_points if points is None else yours_or_kits(points, effect_points)
    rows = []
    for change, (old, _) in changes.items():
        low, high = effect_interval(won[change], won[old])
        rows.append({"change": change, "points": round(effect(list(won[change]), list(won[old]))), "low": round(100 * low),
                     "high": round(100 * high)})
    return pd.DataFrame(rows)


def plot_effects(effects: Any) -> Any:
    """Each rule change's effect on greedy's win rate, in percentage points, with its 95% interval: one row a change
    (``effects``: a table with the columns change, points, low and high, the ends in percentage points too), in
    greedy's colour and marker, and a line at no effect.

    >>> import pandas as pd
    >>> fig = plot_effects(pd.DataFrame([{"change": "a", "points": 10, "low": 2, "high": 18}]))
    >>> [t.get_text() for t in fig.axes[0].get_yticklabels()], bool(fig.axes[0].get_xlim()[1] > 18)  # room for "+10"
    (['a'], True)
    """
    import matplotlib.pyplot as plt

    from ..plots import FONTS, MAX_WIDTH, strategy_style
    rows = effects.to_dict("records")
    with plt.rc_context(FONTS):  # the projector's font sizes, as every plot of the kit
        fig, ax = plt.subplots(figsize=(MAX_WIDTH, 0.7 * len(rows) + 1.8), layout="constrained")
        for y, row in enumerate(reversed(rows)):
            ax.errorbar([row["points"]], [y], xerr=[[row["points"] - row["low"]], [row["high"] - row["points"]]],
                        linestyle="none", capsize=5, markersize=9, **strategy_style("greedy"))
            ax.annotate(f"{row['points']:+d}".replace("-", "\u2212"), (row["high"], y), xytext=(8, 0), textcoords="offset points",
                        va="center", fontsize=FONTS["legend.fontsize"])
        ax.axvline(0, color="black", linewidth=1)
        left, right = min(0, *(r["low"] for r in rows)), max(0, *(r["high"] for r in rows))
        ax.set_xlim(left - 0.05 * (right - left), right + 0.15 * (right - left))  # room for the labels on the right
        ax.set_yticks(range(len(rows)), [str(r["change"]) for r in reversed(rows)])
        ax.set_ylim(-0.6, len(rows) - 0.4)
        ax.set_xlabel("effect on greedy's win rate, percentage points (95% interval)")
        ax.grid(axis="x", alpha=0.3)
    return fig
