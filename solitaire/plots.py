"""Plots of experiment tables (matplotlib; the only module of the kit that imports it).

Each strategy has one colour and marker in every plot (``strategy_style``: random grey, greedy orange, solver
blue, expert green, hindsight sampling pink, a student's own vermilion; Okabe-Ito colours, distinct for
colour-blind readers, and markers that differ too, so the plots read in greyscale), whatever order the table
lists them in. Rates are shown in percent on every axis (``percent_axis``), the class report's scale too.
Legends sit below the plots, never over the data. Every function returns the matplotlib Figure.

Sized for a projector: a figure is at most ``MAX_WIDTH`` inches wide, so a notebook shows it at its own size
(100 dpi, no shrinking to fit), and no text is smaller than ``SMALLEST_TEXT`` points.
"""
from __future__ import annotations

import math

import matplotlib.pyplot as plt
import matplotlib.ticker as mticker
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .endgame import Outcome

OKABE_ITO = ["#e69f00", "#56b4e9", "#009e73", "#0072b2", "#d55e00", "#cc79a7", "#000000", "#f0e442"]  # yellow last: faint on white
LINE_STYLES = ["-", "--", ":", "-."]  # lines of one strategy told apart (the solver's variants)
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


def _styles(strategies) -> dict[str, dict]:
    """Each strategy's fixed style (``strategy_style``); players the kit does not know are told apart by marker."""
    unlisted = [str(name) for name in strategies if strategy_style(name)["color"] == STUDENT_STYLE["color"]]
    return {name: strategy_style(name, unlisted.index(str(name)) if str(name) in unlisted else 0)
            for name in strategies}


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
    styles = _styles(strategies)
    for i, strategy in enumerate(strategies):
        rows = summary_df[summary_df["strategy"] == strategy]
        x = np.array([variants.index(v) for v in rows["variant"]]) + (i - (len(strategies) - 1) / 2) * width
        rate = rows["win_rate"].to_numpy(float)
        err = np.vstack([rate - rows["low"].to_numpy(float), rows["high"].to_numpy(float) - rate])
        style = styles[strategy]
        ax.errorbar(x, rate, yerr=err, linestyle="none", capsize=4, markersize=7, label=strategy, **style)
        _label_narrow_intervals(ax, x, rows["low"].to_numpy(float), rows["high"].to_numpy(float),
                                room=width / (len(variants) + 0.2) * ax.get_position().width * fig.get_figwidth() * 72)
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
    ax.set_ylim(-0.06, 1.06)  # room for a whole marker at 0 or 1 (random's 0 wins in SoliJoy), never clipped
    percent_axis(ax.yaxis)
    ax.set_xlabel("variant")
    ax.set_ylabel("win rate (% of deals won)")
    ax.set_title("Win rate by variant and strategy (Wilson 95% interval)")
    ax.grid(axis="y", alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    order = sorted(range(len(labels)), key=lambda i: ":" in labels[i])  # strategies first, then the "if" markers
    _legend_below(fig, [handles[i] for i in order], [labels[i] for i in order], title="strategy")
    return fig


NARROW = 0.05  # an interval narrower than this (5 points, about 1.5 markers tall) hides under its marker: written out


def _label_narrow_intervals(ax, x, low, high, room: float = math.inf) -> None:
    """Write each narrow interval out beside its point (below it near the top of the axis, else above), so that
    an interval from 2,000 deals, shorter than its marker, is still read. ``room`` is the distance in points to the
    next strategy's point; a label that would reach that point's marker runs upward instead."""
    for xi, lo, hi in zip(x, low, high):
        if hi - lo < NARROW:
            above = hi < 0.85
            text = f"{100 * lo:.1f}–{100 * hi:.1f}%"
            upright = 0.6 * SMALLEST_TEXT * len(text) / 2 > room - 5  # half its width against the gap to the neighbour
            ax.annotate(text, (xi, hi if above else lo), xytext=(0, 7 if above else -7), textcoords="offset points",
                        ha="center", va="bottom" if above else "top", rotation=90 if upright else 0,
                        fontsize=SMALLEST_TEXT)


def _legend_below(fig: Figure, handles: list, labels: list, **kwargs) -> None:
    """The legend below the plots, outside every axes, so that it never covers a point or a line."""
    ncols = min(3, len(labels)) or 1
    if fig.get_layout_engine() is not None and type(fig.get_layout_engine()).__name__ == "ConstrainedLayoutEngine":
        fig.legend(handles, labels, loc="outside lower center", ncols=ncols, **kwargs)
    else:  # a figure the caller made: under its last axes, below the x label
        fig.axes[-1].legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=ncols, **kwargs)


def played_out(df: pd.DataFrame) -> pd.Series:
    """Which games were played to an end: not the undecided ones, nor a deal the solver proved unwinnable
    (the solver does not play those, so their ``on_foundations`` is the deal's, not an end's)."""
    if "outcome" not in df.columns:
        return pd.Series(True, index=df.index)
    return (df["outcome"] != Outcome.UNKNOWN) & ~((df["strategy"] == "solver") & (df["outcome"] != Outcome.WON))


@_projector
def foundation_distribution(df: pd.DataFrame) -> Figure:
    """How many cards a *lost* game gets home, per variant (one panel each, stacked) and strategy (its colour).

    A panel counts lost games played to an end (``played_out``) at each number of cards home, with thick lines
    on a scale of their own (won games, all at the full deck, would dwarf them); its title gives the games
    won and the deals left out (not played out), zero included.
    """
    _require(df, ["variant", "strategy", "on_foundations"], "foundation_distribution")
    variants = list(dict.fromkeys(df["variant"]))
    styles = _styles(list(dict.fromkeys(df["strategy"])))
    ended = played_out(df)
    won = df["outcome"] == Outcome.WON if "outcome" in df.columns else pd.Series(False, index=df.index)
    fig, axes = plt.subplots(len(variants), 1, figsize=(MAX_WIDTH, 0.6 + 2.9 * len(variants)), squeeze=False,
                             layout="constrained")
    for ax, variant in zip(axes.flat, variants):
        in_variant = df["variant"] == variant
        lost = df[in_variant & ended & ~won]
        top = int(df.loc[in_variant, "on_foundations"].max()) if in_variant.any() else 1
        bins = np.arange(0, top + 2) - 0.5
        for strategy, style in styles.items():
            values = lost.loc[lost["strategy"] == strategy, "on_foundations"].to_numpy()
            if len(values):
                ax.hist(values, bins=bins, histtype="stepfilled", color=style["color"], alpha=0.2, linewidth=0)
                ax.hist(values, bins=bins, histtype="step", linewidth=3, color=style["color"], label=str(strategy))
        left_out = int((in_variant & ~ended).sum())
        ax.set_title(f"{variant}: {len(lost):,} lost games drawn; {int((in_variant & won).sum()):,} won; "
                     f"{left_out:,} left out (not played out)", fontsize=14)
        ax.set_xlim(-0.5, top + 0.5)
        ax.set_ylabel("lost games")
        ax.set_xlabel("cards on the foundations when a lost game ends")
        ax.grid(alpha=0.3)
    handles = {label: h for ax in fig.axes for h, label in zip(*ax.get_legend_handles_labels())}
    _legend_below(fig, list(handles.values()), list(handles), title="strategy")
    fig.suptitle("How far does a lost game get?")
    return fig


@_projector
def solver_effort(df: pd.DataFrame) -> Figure:
    """Share of deals the solver decided (won or proved unwinnable) within a given time and node count."""
    _require(df, ["variant", "strategy", "outcome", "seconds", "nodes"], "solver_effort")
    solved = df[df["strategy"] == "solver"]
    if solved.empty:
        raise ValueError("solver_effort needs games played with the 'solver' strategy; the table has none")
    fig, axes = plt.subplots(1, 2, figsize=(MAX_WIDTH, 4.5), sharey=True, layout="constrained")
    colour = strategy_style("solver")["color"]  # every line is the solver's; the variants differ by line style
    for i, (variant, part) in enumerate(solved.groupby("variant", sort=False)):
        decided = part[part["outcome"].isin([Outcome.WON, Outcome.UNWINNABLE])]
        dashes = LINE_STYLES[i % len(LINE_STYLES)]
        label = f"{variant}: {len(decided)}/{len(part)}"
        for ax, column in zip(axes, ["seconds", "nodes"]):
            x = np.sort(decided[column].to_numpy(float))
            y = np.arange(1, len(x) + 1) / len(part)
            x = np.maximum(x, 1e-4 if column == "seconds" else 1)
            ax.step(np.concatenate([[x[0] if len(x) else 1], x]), np.concatenate([[0], y]), where="post",
                    color=colour, linestyle=dashes, label=label, linewidth=2.5)
    for ax, column, unit in zip(axes, ["seconds", "nodes"], ["solver time per deal (s)", "positions searched per deal"]):
        ax.set_xscale("log")
        ax.set_xlabel(unit + ", log scale")
        ax.set_ylim(0, 1)
        percent_axis(ax.yaxis)
        ax.grid(alpha=0.3)
        ax.set_title(f"by {column}")
    axes[0].set_ylabel("deals decided (%)")
    handles, labels = axes[0].get_legend_handles_labels()
    _legend_below(fig, handles, labels, title="variant: deals decided")
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
    style = strategy_style("expert")  # sampling the hidden cards, then solving: the expert's way of judging
    ax.fill_between(x, low, high, color=style["color"], alpha=0.2, label="Wilson 95% interval")
    ax.plot(x, share, color=style["color"], linewidth=1.8, label=f"share of {samples} sampled layouts won")
    p, turned = game.start, []
    for i, m in enumerate(game.moves, start=1):
        q = apply(p, m)
        if sum(q.hidden) < sum(p.hidden):
            turned.append(i)
        p = q
    if turned:
        ax.plot(turned, share[turned], linestyle="none", marker="|", markersize=14, color="#000000",
                label="a face-down card turned up")
    ax.set_xlim(0, max(1, len(history) - 1))
    ax.set_ylim(-0.02, 1.04)
    percent_axis(ax.yaxis)
    ax.set_xlabel("moves played")
    ax.set_ylabel("chance to win from here (%)")
    ax.set_title(f"Win chance after every move ({game.variant.name}, {len(game.moves)} moves)")
    ax.grid(alpha=0.3)
    _legend_below(fig, *ax.get_legend_handles_labels())
    return fig


def percent_axis(axis) -> None:
    """Label a rate axis (shares 0 to 1) in percent, as every plot of the kit does.

    >>> fig, ax = plt.subplots()
    >>> percent_axis(ax.yaxis)
    >>> ax.yaxis.get_major_formatter()(0.25, 0)
    '25%'
    >>> plt.close(fig)
    """
    axis.set_major_formatter(mticker.PercentFormatter(xmax=1, decimals=0))


def _figure(ax, size: tuple[float, float]):
    if ax is None:
        fig, ax = plt.subplots(figsize=size, layout="constrained")
        return fig, ax
    return ax.figure, ax


__all__ = ["OKABE_ITO", "foundation_distribution", "percent_axis", "played_out", "solver_effort", "win_chance_story", "win_rates"]


@_projector
def tournament_ranking(board, ax=None) -> Figure:
    """A class tournament's ranking: each entrant's win rate with its Wilson 95% interval, best at the top.

    ``board`` is ``solitaire.tournament.leaderboard(rows)`` (or ``Results.leaderboard()``): a list of dicts, or a
    DataFrame with the columns entrant, wins, games, win_rate, low and high. The kit's own players keep their
    fixed colours (an entrant file named ``greedy_player`` is greedy's orange); each other entrant gets a colour
    and a marker of its own (``entrant_style``), and a legend names them all.

    >>> fig = tournament_ranking([{"entrant": "ada", "games": 10, "wins": 6, "win_rate": 0.6, "low": 0.31, "high": 0.83},
    ...                           {"entrant": "greedy_player", "games": 10, "wins": 5, "win_rate": 0.5, "low": 0.24,
    ...                            "high": 0.76}])
    >>> [t.get_text() for t in fig.axes[0].get_yticklabels()]  # best at the top
    ['greedy_player', 'ada']
    """
    rows = board.to_dict("records") if isinstance(board, pd.DataFrame) else list(board)
    if not rows:
        raise ValueError("the leaderboard is empty: play the tournament first (solitaire.tournament.run)")
    fig, ax = _figure(ax, (MAX_WIDTH, max(2.5, 0.55 * len(rows) + 1.6)))
    students = 0
    for y, row in enumerate(reversed(rows)):
        name = str(row["entrant"])
        known = name.split("_")[0].lower()
        style = entrant_style(known if known in STRATEGY_STYLES else name, students)
        students += known not in STRATEGY_STYLES
        rate = row["win_rate"]
        ax.errorbar([rate], [y], xerr=[[rate - row["low"]], [row["high"] - rate]], linestyle="none", capsize=4,
                    markersize=8, label=name, **style)
        ax.annotate(f"{row['wins']}/{row['games']}", (row["high"], y), xytext=(6, 0), textcoords="offset points",
                    va="center", fontsize=SMALLEST_TEXT)
    ax.set_yticks(range(len(rows)), [str(r["entrant"]) for r in reversed(rows)])
    ax.set_xlim(-0.02, 1.1)
    percent_axis(ax.xaxis)
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlabel("win rate on the tournament's deals, % (Wilson 95% interval)")
    ax.set_title("Class tournament: the same secret deals for every entrant")
    ax.grid(axis="x", alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    _legend_below(fig, handles[::-1], labels[::-1], title="entrant")  # in the ranking's order, best first
    return fig


STUDENT_COLOURS = [STUDENT_STYLE["color"], "#56b4e9", "#000000"]  # Okabe-Ito's vermilion, sky blue and black


def entrant_style(name: str, index: int = 0) -> dict:
    """A tournament entrant's colour and marker: a kit player's own (``strategy_style``), else the ``index``-th
    student's, whose colour and marker both change from one student to the next (3 colours and 8 markers: 24
    entrants in a row never share both).

    >>> entrant_style("greedy") == strategy_style("greedy")
    True
    >>> entrant_style("ada", 0)["color"] != entrant_style("bob", 1)["color"]
    True
    """
    style = strategy_style(name, index)
    if style["color"] == STUDENT_STYLE["color"]:
        style = {"color": STUDENT_COLOURS[index % len(STUDENT_COLOURS)], "marker": OTHER_MARKERS[index % len(OTHER_MARKERS)]}
    return style


@_projector
def class_results(exercises: pd.DataFrame, ax=None) -> Figure:
    """The share of the class right per exercise, with Wilson 95% whiskers, hardest at the top
    (``solitaire.classroom.class_report.exercise_summary``); each row says how many of how many got it right."""
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
    percent_axis(ax.xaxis)
    ax.set_xlabel("share of the class right, % (all the exercise's points)")
    students = int(rows["students"].max()) if len(rows) else 0
    ax.set_title(f"Which exercises were hardest? ({students} students; hardest at the top)")
    ax.grid(axis="x", alpha=0.3)
    return fig


__all__ += ["tournament_ranking", "class_results"]
