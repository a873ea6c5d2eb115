"""Plots: each returns a Figure with a title, axis labels and Okabe-Ito colours, under the Agg backend."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from solitaire.experiments import summary  # noqa: E402
from solitaire.plots import OKABE_ITO, foundation_distribution, solver_effort, win_chance_story, win_rates  # noqa: E402

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


def test_win_rates_shows_each_variant_and_strategy_with_whiskers(games):
    s = summary(games)
    fig = win_rates(s)
    titled_and_labelled(fig)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["klondike", "italian"]
    assert {OKABE_ITO[0], OKABE_ITO[1]} <= colours_of(fig)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "greedy" in legend and "solver" in legend and any("undecided" in t for t in legend)


def test_win_rates_draws_on_given_axes(games):
    fig, ax = plt.subplots()
    assert win_rates(summary(games), ax=ax) is fig


def test_foundation_distribution_has_one_panel_per_variant(games):
    fig = foundation_distribution(games)
    titled_and_labelled(fig)
    assert [ax.get_title().split("\n")[0] for ax in fig.axes] == ["klondike", "italian"]
    assert fig.axes[1].get_xlim()[1] >= 32


def test_foundation_distribution_leaves_out_games_not_played_out(games):
    """The solver does not play out a deal it cannot win (or leaves undecided): no '0 cards home' for those."""
    fig = foundation_distribution(games)
    klondike = fig.axes[0]
    assert "6 deals not played out" in klondike.get_title()  # 3 unwinnable + 3 unknown of the solver's 12
    solver = next(p for p in klondike.patches if mcolors.to_hex(p.get_edgecolor()) == OKABE_ITO[1])
    ys = solver.get_xy()[:, 1]
    assert max(ys) == pytest.approx(6 / 12)  # its 6 won games, at 52 cards, as a share of all 12
    xs = solver.get_xy()[:, 0]
    assert min(xs[ys > 0]) > 50  # nothing drawn at 0 cards home


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
    assert mcolors.to_hex(line.get_color()) == OKABE_ITO[3]
    plt.close(fig)
