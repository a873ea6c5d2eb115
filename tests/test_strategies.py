"""Strategies see only what a player sees; the runner always ends a game; hints and explanations read well."""
from dataclasses import replace

import pytest
from helpers import make

from solitaire import ITALIAN, KLONDIKE, SOLIJOY, Game, Move, Observation, observe
from solitaire.moves import legal_moves
from solitaire.strategies import (OUTCOMES, GameRecord, GreedyStrategy, RandomStrategy, Strategy, get_strategy,
                                  play_game, strategy_hint)
from solitaire.notation import move_from_text

VARIANTS = [KLONDIKE, SOLIJOY, ITALIAN]


class Spy:
    """A strategy that checks every observation it gets, then plays the first move."""

    name = "spy"

    def __init__(self, variant):
        self.variant = variant
        self.calls = 0

    def choose(self, obs, moves):
        assert isinstance(obs, Observation)
        assert not hasattr(obs, "stock") and not hasattr(obs, "columns_hidden")
        visible = sum(map(len, obs.columns)) + len(obs.waste) + sum(map(len, obs.foundations))
        # every card is either visible, face down in a column, or in the stock: nothing hidden is shown
        assert visible + sum(obs.hidden) + obs.stock_size == self.variant.deck_size
        self.calls += 1
        return moves[0]

    def explain(self, obs, move):
        return f"{move}: the first move."


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_strategies_see_only_observations(variant):
    spy = Spy(variant)
    record = play_game(variant, 1, spy, max_moves=300)
    assert spy.calls == record.moves > 0
    assert isinstance(spy, Strategy)


def test_face_down_cards_do_not_change_the_choice():
    # the same visible cards, two different face-down cards under 5♠: the players cannot tell them apart
    a = make(KLONDIKE, ["Q♥ 5♠", "6♦", "K♣"], hidden=[1, 0, 0], waste="9♦")
    b = make(KLONDIKE, ["J♥ 5♠", "6♦", "K♣"], hidden=[1, 0, 0], waste="9♦")
    assert observe(a) == observe(b) and a != b
    assert legal_moves(a) == legal_moves(b)
    assert GreedyStrategy().choose(observe(a), legal_moves(a)) == GreedyStrategy().choose(observe(b), legal_moves(b))
    assert RandomStrategy(7).choose(observe(a), legal_moves(a)) == RandomStrategy(7).choose(observe(b),
                                                                                             legal_moves(b))


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
@pytest.mark.parametrize("name", ["random", "greedy"])
def test_play_game_terminates(variant, name):
    for seed in range(2):
        record = play_game(variant, seed, name, max_moves=1000)
        assert isinstance(record, GameRecord)
        assert record.outcome in OUTCOMES and record.strategy == name and record.variant == variant.name
        assert 0 <= record.moves <= 1000 and 0 <= record.on_foundations <= variant.deck_size
        assert (record.outcome == "won") == (record.on_foundations == variant.deck_size)


def test_play_game_is_reproducible_and_respects_the_move_cap():
    assert play_game("klondike", 4, "random").moves == play_game("klondike", 4, "random").moves
    capped = play_game("klondike", 4, "random", max_moves=10)
    assert capped.outcome == "move limit" and capped.moves == 10


def test_the_runner_never_revisits_a_position():
    seen = []

    class Recorder(Spy):
        def choose(self, obs, moves):
            seen.append(obs)
            return moves[-1]  # often "draw": the runner must stop the endless cycle through the stock

    record = play_game(KLONDIKE, 0, Recorder(KLONDIKE), max_moves=5000)
    assert record.outcome in ("won", "lost")
    assert len(seen) == record.moves


def test_greedy_plays_a_safe_foundation_move_first():
    p = make(KLONDIKE, ["A♠", "K♥ Q♣", "J♦"], hidden=[0, 0, 0], waste="9♦")
    moves = legal_moves(p)
    assert move_from_text("t1>f") in moves and move_from_text("t3>t2") in moves
    assert GreedyStrategy().choose(observe(p), moves) == move_from_text("t1>f")


def test_greedy_uncovers_face_down_cards_before_drawing():
    p = make(KLONDIKE, ["9♣ 8♥", "9♠"], hidden=[1, 0])
    choice = GreedyStrategy().choose(observe(p), legal_moves(p))
    assert str(choice) == "t1>t2"


def test_greedy_resigns_rather_than_shuffle_builds():
    p = make(KLONDIKE, ["9♣ 8♥", "9♠"], hidden=[0, 0], stock="")
    only = [move_from_text("t1>t2")]
    assert GreedyStrategy().choose(observe(p), only) is None
    assert GreedyStrategy(resign=False).choose(observe(p), only) == only[0]


@pytest.mark.parametrize("strategy", [GreedyStrategy(), RandomStrategy(3)], ids=["greedy", "random"])
def test_explain_returns_a_sentence(strategy):
    game = Game(KLONDIKE, 5)
    for _ in range(30):
        obs, moves = game.observation(), game.legal_moves()
        move = strategy.choose(obs, moves) or moves[0]
        text = strategy.explain(obs, move)
        assert isinstance(text, str) and text.endswith(".") and str(move) in text and "{" not in text
        game.play(move)


def test_strategy_hint_for_the_widget():
    game = Game(KLONDIKE, 5)
    move, why = strategy_hint(game)
    assert move in game.legal_moves() and why.endswith(".")
    game.play(move)
    move2, _ = strategy_hint(game, "random")
    assert move2 in game.legal_moves()


def test_get_strategy_by_name():
    assert isinstance(get_strategy("greedy"), GreedyStrategy)
    assert isinstance(get_strategy(" Random ", seed=3), RandomStrategy)
    mine = GreedyStrategy()
    assert get_strategy(mine) is mine
    with pytest.raises(ValueError, match="'best'"):
        get_strategy("best")


def test_draw_three_and_limited_passes_games_end():
    variant = replace(KLONDIKE, name="draw 3, 2 passes", draw=3, passes=2)
    for name in ("random", "greedy"):
        assert play_game(variant, 0, name).outcome in OUTCOMES


def _flips_first(obs, moves):
    """A strategy written as lesson 05 says a strategy may be: a plain function (obs, moves) -> move."""
    return next((m for m in moves if m.kind == "flip"), moves[0])


def test_play_game_takes_a_plain_function():
    """play_game("klondike", 10, my_strategy) with a plain function once failed with AttributeError: 'function'
    object has no attribute 'name'; the function now plays, named after itself, and its text answers are read."""
    record = play_game("klondike", 10, _flips_first, max_moves=200)
    assert record.strategy == "_flips_first" and 0 < record.moves <= 200
    assert play_game("klondike", 3, lambda obs, moves: str(moves[0]), max_moves=50).moves > 0  # a move's text
    assert get_strategy(_flips_first).name == "_flips_first"
    move, why = strategy_hint(Game("klondike", seed=10), _flips_first)
    assert move in Game("klondike", seed=10).legal_moves() and "_flips_first" in why
    with pytest.raises(ValueError, match="is not a strategy"):
        get_strategy(42)


def test_experiments_run_takes_a_plain_function():
    from solitaire.experiments import run
    games = run("klondike", [_flips_first, "greedy"], 3, max_moves=200, workers=1, progress=False)
    assert sorted(set(games["strategy"])) == ["_flips_first", "greedy"] and len(games) == 6


def test_a_function_plays_as_the_same_strategy_object_would():
    class Flips:
        name = "flips"

        def choose(self, obs, moves):
            return _flips_first(obs, moves)

    for seed in range(3):
        a, b = play_game("klondike", seed, _flips_first, max_moves=300), play_game("klondike", seed, Flips(),
                                                                                       max_moves=300)
        assert (a.outcome, a.moves, a.on_foundations) == (b.outcome, b.moves, b.on_foundations)


def test_allow_repeats_offers_moves_back_to_positions_already_seen():
    """A player that only turns the stock over comes back to the deal after 24 draws and a recycle. play_game does
    not offer that recycle (the player resigns: lost after 24 moves); with allow_repeats it does, and the player goes
    round until the move limit."""
    def stock_only(obs, moves):
        return next((m for m in moves if m.kind in ("draw", "recycle")), None)

    fresh = play_game("klondike", 1, stock_only, max_moves=100)
    assert (fresh.outcome, fresh.moves) == ("lost", 24)
    repeating = play_game("klondike", 1, stock_only, max_moves=100, allow_repeats=True)
    assert (repeating.outcome, repeating.moves) == ("move limit", 100)
