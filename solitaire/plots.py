"""Plots of experiment tables (matplotlib; the only module of the kit that imports it).

Colours come from the Okabe-Ito palette, which stays distinct for colour-blind readers; markers
differ too, so the plots read in greyscale. Every function returns the matplotlib Figure.

Sized for a projector: a figure is at most ``MAX_WIDTH`` inches wide, so a notebook shows it at its own size
(100 dpi, no shrinking to fit), and no text is smaller than ``SMALLEST_TEXT`` points.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .endgame import Outcome

OKABE_ITO = ["#e69f00", "#56b4e9", "#009e73", "#0072b2", "#d55e00", "#cc79a7", "#000000", "#f0e442"]  # yellow last: faint on white
MARKERS = ["o", "s", "D", "^", "v", "P", "X", "*"]
MAX_WIDTH = 9.0     # inches: 900 px at the notebook's 100 dpi, narrower than a notebook's output area
SMALLEST_TEXT = 12  # points, legends included
FONTS = {"font.size": 13, "axes.titlesize": 14, "axes.labelsize": 13, "xtick.labelsize": 12,
         "ytick.labelsize": 12, "legend.fontsize": SMALLEST_TEXT, "legend.title_fontsize": SMALLEST_TEXT,
         "figure.titlesize": 15}


def _projector(plot):
    """Draw ``plot``'s figure with the projector's font sizes, whatever the caller's rcParams say."""
    import functools

    @functools.wraps(plot)
    def drawn(*args, **kwargs) -> Figure:
        with plt.rc_context(FONTS):
            fig = plot(*args, **kwargs)
            for ax in fig.axes:
                ax.tick_params(labelsize=FONTS["xtick.labelsize"])
        return fig
    return drawn


# One colour and marker per player, the same in every plot of every lesson (Okabe-Ito, distinct for colour-blind
# readers; the markers differ too, so a plot reads in greyscale). A name not listed (a student's own strategy,
# a tournament entrant) gets STUDENT_STYLE's colour with a marker of its own.
STRATEGY_STYLES = {
    "random": {"color": "#999999", "marker": "v"},      # grey: the baseline
    "greedy": {"color": "#e69f00", "marker": "s"},      # orange square
    "solver": {"color": "#0072b2", "marker": "D"},      # blue diamond (sees every card)
    "expert": {"color": "#009e73", "marker": "o"},      # green circle
    "hindsight": {"color": "#cc79a7", "marker": "^"},   # pink triangle (the expert's first method)
}
STUDENT_STYLE = {"color": "#d55e00", "marker": "P"}   # vermilion plus: a student's own strategy
OTHER_MARKERS = ["P", "X", "*", "h", "<", ">", "p", "d"]


def strategy_style(name: str, index: int = 0) -> dict:
    """The fixed colour and marker of a player, by name; ``index`` tells apart several unlisted players.

    >>> strategy_style("greedy")
    {'color': '#e69f00', 'marker': 's'}
    >>> strategy_style("my_strategy")["color"] == STUDENT_STYLE["color"]
    True
    """
    key = str(name).split(" ")[0].split(":")[0].lower()
    if key == "hop":
        key = "hindsight"
    if key in STRATEGY_STYLES:
        return dict(STRATEGY_STYLES[key])
    return {"color": STUDENT_STYLE["color"], "marker": OTHER_MARKERS[index % len(OTHER_MARKERS)]}


def _style(i: int) -> dict:
    return {"color": OKABE_ITO[i % len(OKABE_ITO)], "marker": MARKERS[i % len(MARKERS)]}


def _require(df: pd.DataFrame, columns: list[str], what: str) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"{what} needs the columns {', '.join(missing)}: pass the table from "
                         f"solitaire.experiments.{'summary' if what == 'win_rates' else 'run'}")


@_projector
def win_rates(summary_df: pd.DataFrame, ax=None) -> Figure:
    """Win rate per variant (groups) and strategy (colours) with Wilson 95% whiskers.

    For the solver, a hollow marker and a dotted line show how far the winnable fraction could reach
    if every undecided deal were winnable.
    """
    _require(summary_df, ["variant", "strategy", "win_rate", "low", "high"], "win_rates")
    long_labels = summary_df["variant"].astype(str).str.len().max() > 12
    fig, ax = _figure(ax, (min(MAX_WIDTH, 1.6 * summary_df["variant"].nunique() + 3.5), 5.5 if long_labels else 4.5))
    variants = list(dict.fromkeys(summary_df["variant"]))
    strategies = list(dict.fromkeys(summary_df["strategy"]))
    width = 0.7 / max(1, len(strategies))
    for i, strategy in enumerate(strategies):
        rows = summary_df[summary_df["strategy"] == strategy]
        x = np.array([variants.index(v) for v in rows["variant"]]) + (i - (len(strategies) - 1) / 2) * width
        rate = rows["win_rate"].to_numpy(float)
        err = np.vstack([rate - rows["low"].to_numpy(float), rows["high"].to_numpy(float) - rate])
        style = _style(i)
        ax.errorbar(x, rate, yerr=err, linestyle="none", capsize=4, markersize=7, label=strategy, **style)
        if "winnable_high" in rows and rows["winnable_high"].notna().any():
            high = rows["winnable_high"].to_numpy(float)
            has = ~np.isnan(high) & (high > rate)
            if has.any():
                ax.vlines(x[has], rate[has], high[has], colors=style["color"], linestyles="dotted")
                ax.plot(x[has], high[has], linestyle="none", marker=style["marker"], markerfacecolor="white",
                        color=style["color"], label=f"{strategy}: if undecided deals are won")
    ax.set_xticks(range(len(variants)), variants)
    if long_labels:  # long labels (custom variants) would overlap
        ax.tick_params(axis="x", labelrotation=30)
        for label in ax.get_xticklabels():
            label.set_horizontalalignment("right")
    ax.set_xlim(-0.6, len(variants) - 0.4)
    ax.set_ylim(-0.02, 1.04)
    ax.set_xlabel("variant")
    ax.set_ylabel("win rate (share of deals won)")
    ax.set_title("Win rate by variant and strategy (Wilson 95% interval)")
    ax.grid(axis="y", alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    order = sorted(range(len(labels)), key=lambda i: ":" in labels[i])  # strategies first, then the "if" markers
    ax.legend([handles[i] for i in order], [labels[i] for i in order], title="strategy",
              loc="upper left", bbox_to_anchor=(1.01, 1))
    return fig


def played_out(df: pd.DataFrame) -> pd.Series:
    """Which games were played to an end: not the undecided ones, nor a deal the solver proved unwinnable
    (the solver does not play those, so their ``on_foundations`` is the deal's, not an end's)."""
    if "outcome" not in df.columns:
        return pd.Series(True, index=df.index)
    return (df["outcome"] != Outcome.UNKNOWN) & ~((df["strategy"] == "solver") & (df["outcome"] != Outcome.WON))


@_projector
def foundation_distribution(df: pd.DataFrame) -> Figure:
    """How many cards reach the foundations at the end, per variant (panels) and strategy (colours).

    Only games played to an end are drawn (``played_out``), each as a share of all games of its strategy;
    a panel's title says how many deals were not played out.
    """
    _require(df, ["variant", "strategy", "on_foundations"], "foundation_distribution")
    variants = list(dict.fromkeys(df["variant"]))
    strategies = list(dict.fromkeys(df["strategy"]))
    ended = played_out(df)
    ncols = min(2, max(1, len(variants)))  # at most two panels a row
    nrows = -(-max(1, len(variants)) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(MAX_WIDTH if ncols > 1 else 6.0, 3.6 * nrows), squeeze=False,
                             layout="constrained")
    for ax in axes.flat[len(variants):]:
        ax.remove()
    for ax, variant in zip(axes.flat, variants):
        in_variant = df["variant"] == variant
        part = df[in_variant & ended]
        top = int(part["on_foundations"].max()) if len(part) else 1
        bins = np.arange(0, top + 2) - 0.5
        for i, strategy in enumerate(strategies):
            values = part.loc[part["strategy"] == strategy, "on_foundations"].to_numpy()
            games = int((in_variant & (df["strategy"] == strategy)).sum())
            if len(values):  # each game weighs 1 / all games, so a bar's height is a share of all of them
                ax.hist(values, bins=bins, histtype="step", linewidth=1.8, color=_style(i)["color"],
                        weights=np.full(len(values), 1 / games), label=strategy)
        left_out = int((in_variant & ~ended).sum())
        ax.set_title(str(variant) + (f"\n({left_out} deals not played out)" if left_out else ""))
        ax.set_xlabel("cards on foundations at the end")
        ax.set_ylabel("share of games")
    handles = {label: h for ax in fig.axes for h, label in zip(*ax.get_legend_handles_labels())}
    fig.legend(list(handles.values()), list(handles), loc="outside lower center", ncols=len(handles), title="strategy")
    fig.suptitle("Cards on foundations at the end of the game")
    return fig


@_projector
def solver_effort(df: pd.DataFrame) -> Figure:
    """Share of deals the solver decided (won or proved unwinnable) within a given time and node count."""
    _require(df, ["variant", "strategy", "outcome", "seconds", "nodes"], "solver_effort")
    solved = df[df["strategy"] == "solver"]
    if solved.empty:
        raise ValueError("solver_effort needs games played with the 'solver' strategy; the table has none")
    fig, axes = plt.subplots(1, 2, figsize=(MAX_WIDTH, 4.5), sharey=True, layout="constrained")
    for i, (variant, part) in enumerate(solved.groupby("variant", sort=False)):
        decided = part[part["outcome"].isin([Outcome.WON, Outcome.UNWINNABLE])]
        style = _style(i)
        label = f"{variant}: {len(decided)}/{len(part)}"
        for ax, column in zip(axes, ["seconds", "nodes"]):
            x = np.sort(decided[column].to_numpy(float))
            y = np.arange(1, len(x) + 1) / len(part)
            x = np.maximum(x, 1e-4 if column == "seconds" else 1)
            ax.step(np.concatenate([[x[0] if len(x) else 1], x]), np.concatenate([[0], y]), where="post",
                    color=style["color"], label=label, linewidth=1.8)
    for ax, column, unit in zip(axes, ["seconds", "nodes"], ["solver time per deal (s)", "positions searched per deal"]):
        ax.set_xscale("log")
        ax.set_xlabel(unit + ", log scale")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
        ax.set_title(f"by {column}")
    axes[0].set_ylabel("share of deals decided")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, title="variant: deals decided", loc="outside lower center", ncols=min(3, len(labels)))
    fig.suptitle("Solver effort: deals decided within a budget")
    return fig


@_projector
def win_chance_story(game, samples: int = 20, seed: int = 0, max_nodes: int = 5000, ax=None) -> Figure:
    """The chance to win after every move of ``game``, for a player who cannot see the face-down cards.

    A line with the Wilson 95% band: where did the game get lost? Moves that turned a card face up are
    marked, since that is when the estimate learns something. (``solitaire.expert.win_chance_history``.)
    """
    from .expert import win_chance_history
    from .moves import apply

    history = win_chance_history(game, samples=samples, seed=seed, max_nodes=max_nodes)
    share = np.array([h.share for h in history])
    low, high = np.array([h.interval for h in history]).T
    x = np.arange(len(history))
    fig, ax = _figure(ax, (9, 3.8))
    style = _style(3)
    ax.fill_between(x, low, high, color=style["color"], alpha=0.2, label="Wilson 95% interval")
    ax.plot(x, share, color=style["color"], linewidth=1.8, label=f"share of {samples} sampled layouts won")
    p, turned = game.start, []
    for i, m in enumerate(game.moves, start=1):
        q = apply(p, m)
        if sum(q.hidden) < sum(p.hidden):
            turned.append(i)
        p = q
    if turned:
        ax.plot(turned, share[turned], linestyle="none", marker="v", color=_style(4)["color"],
                label="a face-down card turned up")
    ax.set_xlim(0, max(1, len(history) - 1))
    ax.set_ylim(-0.02, 1.04)
    ax.set_xlabel("moves played")
    ax.set_ylabel("chance to win from here")
    ax.set_title(f"Win chance after every move ({game.variant.name}, {len(game.moves)} moves)")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower left")
    return fig


def _figure(ax, size: tuple[float, float]):
    if ax is None:
        fig, ax = plt.subplots(figsize=size, layout="constrained")
        return fig, ax
    return ax.figure, ax


__all__ = ["OKABE_ITO", "foundation_distribution", "played_out", "solver_effort", "win_chance_story", "win_rates"]


@_projector
def class_results(exercises: pd.DataFrame, ax=None) -> Figure:
    """The share of the class right per exercise, with Wilson 95% whiskers, hardest at the top
    (``solitaire.class_report.exercise_summary``); each row says how many of how many got it right."""
    _require(exercises, ["exercise", "students", "right", "share", "low", "high"], "class_results")
    rows = exercises.reset_index(drop=True)
    rows = rows.iloc[sorted(range(len(rows)), key=lambda i: (rows["share"][i], i), reverse=True)]
    fig, ax = _figure(ax, (MAX_WIDTH, 1.4 + 0.42 * len(rows)))
    y = np.arange(len(rows))
    share = rows["share"].to_numpy(float)
    err = np.vstack([share - rows["low"].to_numpy(float), rows["high"].to_numpy(float) - share])
    ax.errorbar(share, y, xerr=err, linestyle="none", capsize=4, markersize=8, color=OKABE_ITO[3], marker="o",
                label="share right (Wilson 95% interval)")
    for yi, (k, n) in enumerate(zip(rows["right"], rows["students"])):
        ax.annotate(f"{k}/{n}", (1.02, yi), xycoords=("axes fraction", "data"), va="center", fontsize=SMALLEST_TEXT)
    ax.annotate("right", (1.02, len(rows) - 0.4), xycoords=("axes fraction", "data"), va="bottom",
                fontsize=SMALLEST_TEXT, style="italic")
    ax.set_yticks(y, rows["exercise"])
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlim(-0.02, 1.02)
    ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:.0%}"))
    ax.set_xlabel("share of the class right (all the exercise's points)")
    students = int(rows["students"].max()) if len(rows) else 0
    ax.set_title(f"Which exercises were hardest? ({students} students; hardest at the top)")
    ax.grid(axis="x", alpha=0.3)
    return fig


__all__ += ["class_results"]
