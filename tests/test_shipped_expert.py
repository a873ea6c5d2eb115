"""The shipped expert games (``shipped("expert")``): the deals the README promises, the same seeds as the
other shipped rows, the expert's recorded settings, and baselines that a fresh run reproduces."""
import pytest

pd = pytest.importorskip("pandas")
from solitaire import experiments  # noqa: E402
from solitaire.expert import ExpertStrategy, settings_from_text, settings_text  # noqa: E402
from solitaire.strategies import play_game  # noqa: E402
from solitaire.notation import variant_from_text  # noqa: E402

DEALS = {"klondike": 300, "klondike draw=3": 300, "solijoy": 200, "italian": 200}   # random, greedy, solver
EXPERT_SEEDS = {"klondike": set(range(300)), "klondike draw=3": set(range(300)), "italian": set(range(200)),
                "solijoy": set(range(200))}
HINDSIGHT_SEEDS = {"klondike": set(range(300)), "klondike draw=3": set(range(300)), "italian": set(range(200)),
                   "solijoy": set(range(50)) | set(range(100, 119)) | set(range(150, 163))}  # data README says why
EXPERT_METHOD = {"klondike": "reveal", "klondike draw=3": "reveal", "solijoy": "reveal", "italian": "reveal"}
CARDS = {"klondike": 52, "klondike draw=3": 52, "solijoy": 104, "italian": 32}


@pytest.fixture(scope="module")
def rows():
    return experiments.shipped("expert")


def test_every_player_covers_the_promised_deals(rows):
    counts = rows.groupby(["variant", "strategy"])["seed"].agg(["count", "nunique", "min", "max"])
    expected = {(v, s) for v in DEALS for s in ("expert", "random")} | {("klondike draw=3", "greedy"),
                                                                         ("klondike draw=3", "solver")}
    assert set(counts.index) == expected
    for (variant, strategy), c in counts.iterrows():
        if strategy != "expert":
            assert (c["count"], c["nunique"], c["min"], c["max"]) == (DEALS[variant], DEALS[variant], 0, DEALS[variant] - 1)
    for variant, seeds in EXPERT_SEEDS.items():
        played = rows[(rows.variant == variant) & (rows.strategy == "expert")].seed
        assert len(played) == len(seeds) and set(played) == seeds


def test_the_expert_rows_record_the_experts_settings_and_end_as_games_end(rows):
    expert = rows[rows.strategy == "expert"]
    for variant, budgets in expert.groupby("variant").budget:
        assert len(set(budgets)) == 1, variant  # one expert a variant, its settings recorded
        settings = settings_from_text(budgets.iloc[0])
        assert budgets.iloc[0] == f"max_moves=5000 {settings_text(**settings)}"  # the settings, read back
        assert settings["method"] == EXPERT_METHOD[variant]
        # made before the samples were solved with the solver's full defaults (issue 34, data README)
        assert settings == settings_from_text("method=reveal max_nodes=2000 budget=40 max_states=2000 max_points=16 per_reveal=2 "
                                                "exact_nodes=50000")
    assert set(expert.outcome) <= {"won", "lost", "move limit"}
    won = expert[expert.outcome == "won"]
    assert (won.on_foundations == won.variant.map(CARDS)).all()
    lost = expert[expert.outcome != "won"]
    assert (lost.on_foundations < lost.variant.map(CARDS)).all()
    assert (expert.moves <= 5000).all()


def test_the_hindsight_table_keeps_the_earlier_methods_games_on_the_same_deals():
    hop = experiments.shipped("hindsight")
    assert set(hop.strategy) == {"expert"} and set(hop.budget) == {f"max_moves=5000 {settings_text(method='hop', search='plain')}"}
    for variant, seeds in EXPERT_SEEDS.items():  # every deal it played, the reveal method played too
        assert set(hop[hop.variant == variant].seed) == HINDSIGHT_SEEDS[variant] and HINDSIGHT_SEEDS[variant] <= seeds
    assert (hop.groupby("variant").seed.nunique() == hop.groupby("variant").size()).all()


def test_the_expert_plays_the_same_deals_as_the_seed_variant_rows(rows):
    seed_rows = experiments.shipped("seed_variants")
    for variant in ("klondike", "solijoy", "italian"):
        ours = set(rows[(rows.variant == variant) & (rows.strategy == "expert")].seed)
        theirs = set(seed_rows[seed_rows.variant == variant].seed)
        assert ours <= theirs and ours == EXPERT_SEEDS[variant]


def test_random_and_greedy_rows_are_reproduced_by_a_fresh_run(rows):
    cols = ["variant", "strategy", "seed", "outcome", "moves", "on_foundations"]
    games = {name: variant_from_text(name) for name in DEALS}
    draw3 = {"klondike draw=3": games["klondike draw=3"]}
    solijoy = {"solijoy": games.pop("solijoy")}
    fresh = pd.concat([
        experiments.run(games, "random", 4, workers=1, progress=False),
        experiments.run(solijoy, "random", 4, max_moves=1000, workers=1, progress=False),
        experiments.run(draw3, "greedy", 4, workers=1, progress=False)])
    stored = rows[rows.strategy.isin(["random", "greedy"]) & (rows.seed < 4)]
    key = ["variant", "strategy", "seed"]
    assert (fresh.sort_values(key)[cols].to_numpy() == stored.sort_values(key)[cols].to_numpy()).all()


def test_the_reveal_methods_rows_are_reproduced_by_a_fresh_run(rows):
    # a won Klondike game (one of the quickest), a draw-3 game that ends after a few moves and the quickest
    # SoliJoy game that needs any thinking (976 moves, about 25 s): the same moves
    cols = ["outcome", "moves", "on_foundations"]
    # each with the settings its row records (the expert's defaults have changed since, data README)
    for name, seed in [("klondike", 103), ("klondike draw=3", 143), ("solijoy", 20)]:
        stored = rows[(rows.variant == name) & (rows.strategy == "expert") & (rows.seed == seed)]
        assert len(stored) == 1 and EXPERT_METHOD[name] == "reveal"
        expert = ExpertStrategy(seed, **settings_from_text(stored.budget.iloc[0]))
        fresh = play_game(variant_from_text(name), seed, expert, max_moves=5000)
        assert [fresh.outcome, fresh.moves, fresh.on_foundations] == stored[cols].to_numpy().tolist()[0]


def test_where_loose_keys_do_not_apply_the_shipped_games_are_the_default_experts(rows):
    # the full search differs from the plain one only by loose keys, which the Italian game's and SoliJoy's
    # rules do not allow: there the expert with today's defaults plays the shipped games move for move
    cols = ["outcome", "moves", "on_foundations"]
    stored = rows[(rows.variant == "italian") & (rows.strategy == "expert")].set_index("seed")
    for seed in (0, 1):
        fresh = play_game(variant_from_text("italian"), seed, ExpertStrategy(seed), max_moves=5000)
        assert [fresh.outcome, fresh.moves, fresh.on_foundations] == stored.loc[seed, cols].tolist()
