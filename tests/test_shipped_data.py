"""The results shipped for the lessons load, cover what the README promises, and agree with a fresh run."""
import pytest

pd = pytest.importorskip("pandas")
from solitaire import experiments  # noqa: E402


def test_seed_variant_results_cover_2000_deals_per_variant_and_strategy():
    df = experiments.shipped("seed_variants")
    counts = df.groupby(["variant", "strategy"])["seed"].agg(["count", "nunique", "min", "max"])
    assert set(counts.index) == {(v, s) for v in ("klondike", "solijoy", "italian") for s in ("greedy", "solver")}
    assert (counts["count"] == 2000).all() and (counts["nunique"] == 2000).all()
    assert (counts["min"] == 0).all() and (counts["max"] == 1999).all()
    solver = df[df.strategy == "solver"]
    assert set(solver.outcome) <= {"won", "unwinnable", "unknown"}
    assert set(df[df.strategy == "greedy"].outcome) <= {"won", "lost", "move limit"}
    won = df[df.outcome == "won"]
    deck = won.variant.map({"klondike": 52, "solijoy": 104, "italian": 32})
    assert (won.on_foundations == deck).all()


def test_published_rules_results_and_a_clear_error_for_unknown_names():
    df = experiments.shipped("published_rules")
    assert df.groupby("variant")["seed"].nunique().tolist() == [1000, 1000]
    with pytest.raises(ValueError, match="seed_variants"):
        experiments.shipped("nope")


def test_greedy_rows_are_reproduced_by_a_fresh_run():
    seeds = list(range(6)) + list(range(6, 2000, 40))  # the first deals, and one in 40 across the table
    df = experiments.shipped("seed_variants")
    stored = df[(df.strategy == "greedy") & df.seed.isin(seeds)].sort_values(["variant", "seed"])
    fresh = experiments.run(["klondike", "solijoy", "italian"], ["greedy"], seeds, workers=1, progress=False)
    cols = ["variant", "seed", "outcome", "moves", "on_foundations"]
    assert (fresh.sort_values(["variant", "seed"])[cols].to_numpy() == stored[cols].to_numpy()).all()


def _decided_sample(name: str):
    """Two decided solver rows of each variant and outcome from the depth-first probe (under 3,000 states),
    and one from later in the search (3,000 to 30,000 states: best-first and the restarts)."""
    df = experiments.shipped(name)
    decided = df[(df.strategy == "solver") & (df.outcome != "unknown")]
    probe = decided[decided.nodes < 3000].groupby(["variant", "outcome"]).head(2)
    later = decided[(decided.nodes >= 3000) & (decided.nodes < 30000)].groupby(["variant", "outcome"]).head(1)
    sample = pd.concat([probe, later])
    assert set(sample.outcome) == {"won", "unwinnable"} and len(later) > 0
    return sample


def test_seed_solver_rows_are_reproduced_by_the_current_solver():
    """The search's turns are counted in states, not seconds, so a deal decided well within its time takes
    the same states again: the shipped rows come from this solver (each game's from its own commit, see
    solitaire/data/README.md)."""
    from solitaire import deal, solve
    from solitaire.notation import variant_from_text
    for row in _decided_sample("seed_variants").itertuples():
        result = solve(deal(variant_from_text(row.variant), row.seed), max_seconds=60)
        nodes = row.nodes
        if row.variant == "italian" and nodes >= 3000:
            nodes -= 72  # the probe hands over at exactly 3,000 states now, at 3,072 when these rows were made
        assert (result.status, result.nodes, len(result.moves)) == (row.outcome, nodes, row.moves), row


@pytest.mark.parametrize("name", ["published_rules", "expert"])
def test_rows_with_cards_back_or_draw_3_are_reproduced_state_for_state(name):
    """The published-rules rows and the draw-3 solver rows of expert.csv come from the solver before the end
    of the talon (issue 34, solitaire/data/README.md): with that rule off, each deal of the sample takes the
    same states and the same moves again. With it (the solver's default) each deal gets the same verdict in
    no more states, and a won line replays."""
    from solitaire import Game, solve
    from solitaire.solver import SolverOptions
    from solitaire.notation import variant_from_text
    for row in _decided_sample(name).itertuples():
        game = Game(variant_from_text(row.variant), row.seed)
        before = solve(game, max_seconds=60, options=SolverOptions(safe_talon_end=False))
        assert (before.status, before.nodes, len(before.moves)) == (row.outcome, row.nodes, row.moves), row
        now = solve(game, max_seconds=60)
        assert now.status == row.outcome and now.nodes <= row.nodes, row
        if now.status == "won":
            game.play_all(now.moves)
            assert game.is_won(), row
