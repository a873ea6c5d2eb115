"""Plots: each returns a Figure with a title, axis labels, one fixed colour per strategy and a legend that covers
no data, under the Agg backend."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from solitaire.experiments import summary  # noqa: E402
from solitaire.plots import (foundation_distribution, solver_effort, strategy_style, win_chance_story,  # noqa: E402
                             win_rates)

OUTCOMES = {"greedy": ["won", "lost", "lost", "move limit"], "solver": ["won", "unwinnable", "unknown", "won"]}


@pytest.fixture
def games() -> pd.DataFrame:
    rows = []
    for variant, deck in [("klondike", 52), ("italian", 32)]:
        for strategy, outcomes in OUTCOMES.items():
            for seed in range(12):
                outcome = outcomes[seed % 4]
                rows.append(dict(variant=variant, strategy=strategy, seed=seed, outcome=outcome, moves=50 + seed,
                                 on_foundations=deck if outcome == "won" else seed % 9, seconds=0.01 * (seed + 1),
                                 nodes=0 if strategy == "greedy" else 100 * (seed + 1)))
    return pd.DataFrame(rows)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def titled_and_labelled(fig: Figure) -> None:
    assert isinstance(fig, Figure)
    titles = [ax.get_title() for ax in fig.axes] + [fig._suptitle.get_text() if fig._suptitle else ""]
    assert any(titles)
    for ax in fig.axes:
        assert ax.get_xlabel()
    assert any(ax.get_ylabel() for ax in fig.axes)
    fig.canvas.draw()  # renders without error under Agg


def colours_of(fig: Figure) -> set[str]:
    found = set()
    for ax in fig.axes:
        for artist in [*ax.lines, *ax.patches, *ax.collections]:
            for get in ("get_color", "get_edgecolor"):
                colour = getattr(artist, get, lambda: None)()
                if colour is not None and len(colour) and not isinstance(colour, str) and hasattr(colour[0], "__len__"):
                    colour = colour[0]
                if colour is not None and len(colour):
                    found.add(mcolors.to_hex(colour))
    return found


def colour(name: str) -> str:
    return strategy_style(name)["color"]


def styles_of(ax) -> dict[str, tuple[str, str]]:
    """Each strategy's colour and marker in a win_rates plot (its points are an errorbar container)."""
    return {c.get_label(): (mcolors.to_hex(c.lines[0].get_color()), c.lines[0].get_marker()) for c in ax.containers}


def legend_texts(fig: Figure) -> list[str]:
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    return [t.get_text() for legend in legends for t in legend.get_texts()]


def test_win_rates_shows_each_variant_and_strategy_with_whiskers(games):
    s = summary(games)
    fig = win_rates(s)
    titled_and_labelled(fig)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["klondike", "italian"]
    assert {colour("greedy"), colour("solver")} <= colours_of(fig)
    legend = legend_texts(fig)
    assert "greedy" in legend and "solver" in legend and any("undecided" in t for t in legend)


def test_a_strategy_keeps_its_colour_and_marker_whatever_the_order(games):
    """Colours used to follow the order of appearance: greedy was orange in one plot of lesson 06 and light blue
    in the next, and the solver and greedy swapped colours in 06b."""
    s = summary(games)
    reordered = pd.concat([s[s.strategy == "solver"], s[s.strategy == "greedy"]])
    only_solver = s[s.strategy == "solver"]
    seen = []
    for table in (s, reordered, only_solver):
        seen.append(styles_of(win_rates(table).axes[0]))
    for styles in seen:
        for name, (hex_colour, marker) in styles.items():
            assert (hex_colour, marker) == (colour(name), strategy_style(name)["marker"])
    assert seen[0] == seen[1] and seen[2] == {"solver": seen[0]["solver"]}
    lost = foundation_distribution(games[games.strategy == "greedy"])
    lines = {mcolors.to_hex(p.get_edgecolor()) for ax in lost.axes for p in ax.patches if not p.get_fill()}
    assert lines == {colour("greedy")}


def test_a_students_strategies_get_the_students_colour_and_markers_of_their_own(games):
    s = summary(games)
    mine = pd.concat([s.assign(strategy="mine"), s.assign(strategy="my other one"), s[s.strategy == "greedy"]])
    styles = styles_of(win_rates(mine).axes[0])
    assert styles["mine"][0] == styles["my other one"][0] == colour("mine") and styles["mine"][1] != styles["my other one"][1]


def _boxes_overlap(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


@pytest.mark.parametrize("plot", ["win_rates", "foundation_distribution", "solver_effort"])
def test_the_legend_is_inside_the_figure_and_outside_every_axes(games, plot):
    """Lesson 06's second plot: the legend covered about 40% of the width and hid the hollow marker."""
    fig = {"win_rates": lambda: win_rates(summary(games)), "foundation_distribution": lambda: foundation_distribution(games),
           "solver_effort": lambda: solver_effort(games)}[plot]()
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    assert legends
    whole = fig.bbox
    for legend in legends:
        box = legend.get_window_extent(renderer)
        assert whole.x0 - 1 <= box.x0 and box.x1 <= whole.x1 + 1 and whole.y0 - 1 <= box.y0 and box.y1 <= whole.y1 + 1
        assert not [ax for ax in fig.axes if _boxes_overlap(box, ax.get_window_extent(renderer))]


def test_win_rates_draws_on_given_axes(games):
    fig, ax = plt.subplots()
    assert win_rates(summary(games), ax=ax) is fig


def test_foundation_distribution_has_one_panel_per_variant(games):
    fig = foundation_distribution(games)
    titled_and_labelled(fig)
    assert [ax.get_title().split(":")[0] for ax in fig.axes] == ["klondike", "italian"]
    assert fig.axes[1].get_xlim()[1] >= 32


def test_foundation_distribution_draws_lost_games_as_counts_and_says_what_it_leaves_out(games):
    """Lost games are counted on a scale of their own (the won games' peak at the full deck used to squash them to
    about 0.05), and each panel's title gives the games won and the deals left out, zero included."""
    fig = foundation_distribution(games)
    klondike = fig.axes[0]
    title = klondike.get_title()
    assert "6 left out" in title  # 3 unwinnable + 3 unknown of the solver's 12
    assert "9 won" in title  # greedy's 3 and the solver's 6
    assert "9 lost games drawn" in title  # greedy's 6 lost and 3 move-limit games
    greedy = [p for p in klondike.patches if p.get_fill() is False and mcolors.to_hex(p.get_edgecolor()) == colour("greedy")]
    ys, xs = greedy[0].get_xy()[:, 1], greedy[0].get_xy()[:, 0]
    assert max(ys) == 2  # a count of games, not a share: two lost games end with 1 card home (seeds 1, 10), two with 2
    assert max(xs[ys > 0]) < 10  # won games (52 cards) are not drawn
    assert not [p for p in klondike.patches if mcolors.to_hex(p.get_edgecolor()) == colour("solver")]  # none lost
    only_greedy = foundation_distribution(games[games.strategy == "greedy"])
    assert "0 left out" in only_greedy.axes[0].get_title()  # the count the lesson's sentence promises, even at 0


def test_text_is_projector_sized(games):
    """At least 12 pt everywhere, and at most 9 inches wide, so a notebook shows it unshrunk."""
    from matplotlib.text import Text
    s = summary(games)
    many = pd.concat([s.assign(variant=s["variant"] + f", rule {i}") for i in range(5)])
    with plt.rc_context({"font.size": 6, "legend.fontsize": 5}):  # the caller's settings do not shrink it
        figures = [win_rates(s), win_rates(many), foundation_distribution(games), solver_effort(games)]
    for fig in figures:
        fig.canvas.draw()
        assert fig.get_size_inches()[0] <= 9.0
        texts = [t for t in fig.findobj(Text) if t.get_text().strip() and t.get_visible()]
        assert texts and min(t.get_fontsize() for t in texts) >= 12


def test_solver_effort_plots_the_decided_share(games):
    fig = solver_effort(games)
    titled_and_labelled(fig)
    seconds_axis = fig.axes[0]
    assert seconds_axis.get_xscale() == "log"
    line = seconds_axis.lines[0]
    assert max(line.get_ydata()) == pytest.approx(9 / 12)  # 9 of 12 deals decided (won or unwinnable)
    legend = fig.legends[0]
    assert "9/12" in legend.get_texts()[0].get_text() and "decided" in legend.get_title().get_text()
    assert {mcolors.to_hex(line.get_color()) for line in seconds_axis.lines} == {colour("solver")}


def test_plots_explain_tables_they_cannot_use(games):
    with pytest.raises(ValueError, match="win_rate"):
        win_rates(games)  # a table of games, not a summary
    with pytest.raises(ValueError, match="'solver'"):
        solver_effort(games[games["strategy"] == "greedy"])


def test_win_chance_story_plots_one_point_per_position():
    from solitaire import Game
    g = Game("italian", seed=1)
    for _ in range(5):
        g.play(g.legal_moves()[0])
    fig = win_chance_story(g, samples=4, max_nodes=400)
    ax = fig.axes[0]
    assert isinstance(fig, Figure) and ax.get_title().startswith("Win chance") and ax.get_xlabel() == "moves played"
    line = next(l for l in ax.get_lines() if "sampled layouts" in l.get_label())
    assert len(line.get_xdata()) == len(g.moves) + 1
    assert mcolors.to_hex(line.get_color()) == colour("expert")
    plt.close(fig)


def tick_texts(axis) -> list[str]:
    axis.figure.canvas.draw()
    return [t.get_text() for t in axis.get_ticklabels() if t.get_text()]


def test_every_rate_axis_reads_in_percent(games):
    """Issue 40: the tournament's ranking read 0-1 while the class report read percent; now every rate is in
    percent: the win rates, the solver's decided share, the tournament and the class report (the lost games'
    histogram counts cards and games)."""
    from solitaire.plots import class_results, tournament_ranking

    board = [{"entrant": "ada", "games": 10, "wins": 6, "win_rate": 0.6, "low": 0.31, "high": 0.83},
             {"entrant": "greedy_player", "games": 10, "wins": 5, "win_rate": 0.5, "low": 0.24, "high": 0.76}]
    exercises = pd.DataFrame({"exercise": ["01.a", "02.b"], "students": [4, 4], "right": [3, 1],
                              "share": [0.75, 0.25], "low": [0.3, 0.05], "high": [0.95, 0.7]})
    axes = {"win_rates": win_rates(summary(games)).axes[0].yaxis,
            "solver_effort": solver_effort(games).axes[0].yaxis,
            "tournament_ranking": tournament_ranking(board).axes[0].xaxis,
            "class_results": class_results(exercises).axes[0].xaxis}
    for name, axis in axes.items():
        ticks = tick_texts(axis)
        assert ticks and all(t.endswith("%") for t in ticks), (name, ticks)
        assert "100%" in ticks or "80%" in ticks, (name, ticks)  # shares, not 0-1 drawn as "1%"
    assert not any(t.endswith("%") for t in tick_texts(foundation_distribution(games).axes[0].yaxis))


def test_an_interval_shorter_than_its_marker_is_written_out():
    """2,000 deals give intervals a few points wide, hidden under the markers: they are written beside them."""
    from solitaire.experiments import shipped
    fig = win_rates(summary(shipped("seed_variants")))
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert len(texts) == 6 and all(t.endswith("%") and "–" in t for t in texts)
    assert "45.0–49.3%" in texts  # greedy, Klondike: 943 of 2,000 (Wilson 95%)
    wide = win_rates(pd.DataFrame([{"variant": "klondike", "strategy": "greedy", "win_rate": 0.4, "low": 0.25,
                                    "high": 0.57}]))
    assert len(wide.axes[0].texts) == 0  # a wide interval shows as its whiskers
    plt.close("all")


def test_a_written_out_interval_covers_no_other_point_or_label():
    """Four strategies to a variant leave little room: the labels (06b's random at 0-2%, the solver at 98-100%)
    run upward rather than over the neighbours' markers; with two to a variant (06a) they lie flat."""
    rows = [{"variant": v, "strategy": s, "win_rate": r, "low": r - 0.01, "high": min(1.0, r + 0.01)}
            for v in ("klondike", "solijoy", "italian", "klondike draw=3")
            for s, r in (("random", 0.02), ("greedy", 0.06), ("expert", 0.9), ("solver", 0.99))]
    for table, upright in ((pd.DataFrame(rows), True), (pd.DataFrame(rows[:2] + rows[4:6]), False)):
        fig = win_rates(table)
        fig.canvas.draw()
        ax = fig.axes[0]
        labels = [t.get_window_extent() for t in ax.texts]
        assert labels and all((t.get_rotation() == 90) == upright for t in ax.texts)
        points = [ax.transData.transform(xy) for line in ax.lines for xy in line.get_xydata()]
        for i, box in enumerate(labels):
            assert not any(box.overlaps(other) for other in labels[i + 1:])
            assert sum(box.expanded(1.0, 1.0).contains(*xy) for xy in points) == 0
        plt.close(fig)
