"""Lesson 06b (what each rule changes; four players side by side): the exercises' checks, registered with
``solitaire.lessons.check``, and the lesson's helpers: who won each deal (``won_by_deal``), every player on the
expert's deals (``same_deals``) and the paired plot of base and changed rules (``plot_changes``)."""
from __future__ import annotations

import dataclasses
import math
from typing import Any

from ..endgame import Outcome
from ..stats import sign_test  # the one home of the statistics; kept importable from here
from ..variants import KLONDIKE, SOLIJOY
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
    hop = call_student(answer, 51, 36)
    return Verdict(True, f"your p_value agrees with the sign test on every split tried ({len(P_VALUE_PAIRS)}, ties "
                         f"and empty ones included). For hindsight sampling against greedy, 51 to 36, it gives "
                         f"p ≈ {hop:.2f}: a fair coin splits 87 deals that unevenly about one time in "
                         f"{round(1 / hop)}, so this split alone does not show that hindsight sampling is better.")


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


PLAYER_ORDER = {"random": 0, "greedy": 1, "expert": 2, "solver": 3}
GAME_ORDER = {"klondike": 0, "klondike draw=3": 1, "solijoy": 2, "italian": 3}


def same_deals() -> Any:
    """Every player's shipped games on the deals the expert played: the expert's table (random and the expert,
    greedy and the solver in draw 3) and lesson 06a's 2,000-deal table (greedy and the solver), each cut to the
    expert's (variant, seed) pairs, in the order random, greedy, expert, solver within each game."""
    import pandas as pd
    from ..experiments import shipped
    expert_rows = shipped("expert")
    deals = expert_rows[expert_rows.strategy == "expert"][["variant", "seed"]].drop_duplicates()
    players = pd.concat([expert_rows.merge(deals), shipped("seed_variants").merge(deals)], ignore_index=True)
    order = players.variant.map(GAME_ORDER) * 10 + players.strategy.map(PLAYER_ORDER)
    return players.loc[order.sort_values(kind="stable").index].reset_index(drop=True)


def plot_changes(summary_df: Any, changes: dict[str, tuple[str, str]]) -> Any:
    """Each rule change drawn as a pair: the base game's win rate (hollow) and the changed game's (filled), each with
    its Wilson 95% interval as a whisker, on one row per change, an arrow from base to changed.
    ``changes`` maps a change's name to (changed label, base label) of ``summary_df``'s variants."""
    import matplotlib.pyplot as plt

    from ..plots import FONTS, percent_axis, strategy_style
    rates = summary_df.set_index("variant")
    colour = strategy_style("greedy")["color"]
    with plt.rc_context(FONTS):  # the projector's font sizes, as every plot of the kit
        fig, ax = plt.subplots(figsize=(9, 0.9 * len(changes) + 1.8), layout="constrained")
        for row, (name, (new, old)) in enumerate(reversed(list(changes.items()))):
            for label, y, face in ((old, row + 0.15, "white"), (new, row - 0.15, colour)):
                r = rates.loc[label]
                ax.errorbar(r.win_rate, y, xerr=[[r.win_rate - r.low], [r.high - r.win_rate]], fmt="s", capsize=5,
                            color=colour, markerfacecolor=face, markersize=8, elinewidth=2, zorder=3)
            ax.annotate("", xy=(rates.loc[new].win_rate, row - 0.15), xytext=(rates.loc[old].win_rate, row + 0.15),
                        arrowprops={"arrowstyle": "->", "color": "#555555"}, zorder=2)
        ax.set_yticks(range(len(changes)), list(reversed(list(changes))))
        ax.set_xlim(-0.03, 1.03)
        percent_axis(ax.xaxis)
        ax.set_xlabel("greedy's win rate, Wilson 95% interval\n(hollow: the game as it is; filled: with the change)")
        ax.grid(axis="x", alpha=0.3)
    return fig
