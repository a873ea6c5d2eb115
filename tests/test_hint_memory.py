"""Hints on a game under way remember what the game showed, as the win chance does (issue 21, item 2), and
still read no face-down card: ``strategy_hint`` and ``python -m solitaire hint --strategy expert``."""
from __future__ import annotations

import random

import pytest

from solitaire import Game, Position, apply, observe
from solitaire.cli import main
from solitaire.expert import ExpertStrategy
from solitaire.knowledge import game_knowledge, visible_cards
from solitaire.moves import Move
from solitaire.strategies import fresh_moves, position_key, strategy_hint

FAST = dict(method="hop", samples=4, max_samples=6, max_nodes=300)  # a small expert, as in test_expert.py
SMALL_REVEAL = dict(method="reveal", budget=6, max_nodes=300, max_states=300, max_points=6)
SCOUT = "shows a stock card for free"  # the expert's reason for drawing to see a card it does not know


def history(game: Game) -> list[Position]:
    """The game's positions, from the deal to now."""
    positions = [game.start]
    for m in game.moves:
        positions.append(apply(positions[-1], m))
    return positions


def hint_moves(game: Game) -> list[Move]:
    """The moves strategy_hint offers a strategy: those that lead to a position not seen in this game."""
    seen = {position_key(p) for p in history(game)}
    return [m for m, _ in fresh_moves(game.position, seen)]


def fresh_expert_scouts(game: Game) -> bool:
    """Would an expert shown only the current observation draw to see a stock card?"""
    fresh = ExpertStrategy(0, **FAST)
    fresh.choose(game.observation(), hint_moves(game))
    return fresh.last[1].how == "scout"


def watched_stock_game() -> Game:
    """Klondike deal 2, played by the greedy player's hints until the waste has been turned over (so a player
    knows the stock's order) and an expert that sees only the current observation would still draw "to see"."""
    game = Game("klondike", seed=2)
    while not game.is_over():
        if game.position.recycles and None not in game_knowledge(game).stock and fresh_expert_scouts(game):
            return game
        game.play(strategy_hint(game, "greedy")[0])
    raise AssertionError("deal 2 never reaches such a position")


def twin(game: Game, seed: int) -> Game:
    """The same game with the cards it never showed dealt again among their places: it looks the same."""
    shown = set().union(*(visible_cards(observe(p)) for p in history(game)))
    never = [c for c in game.start.cards() if c not in shown]
    swap = dict(zip(never, random.Random(seed).sample(never, len(never))))
    start = game.start._replace(stock=tuple(swap.get(c, c) for c in game.start.stock),
                                columns=tuple(tuple(swap.get(c, c) for c in col) for col in game.start.columns))
    other = Game.from_position(start)
    other.play_all(game.moves)
    return other


def test_the_expert_hint_remembers_the_stock_the_player_watched():
    game = watched_stock_game()
    expert = ExpertStrategy(0, **FAST)
    move, why = strategy_hint(game, expert)
    assert expert.memory.knowledge() == game_knowledge(game)  # what win_chance knows, from the same moves
    assert expert.memory.knowledge().stock == game.position.stock  # the whole stock, in order
    assert expert.last[1].how == "sampled" and SCOUT not in why and move in hint_moves(game)
    assert SCOUT not in strategy_hint(game, "expert")[1]  # by name too (what the command line asks for)


def test_sampled_layouts_agree_with_the_stock_that_was_seen():
    game = watched_stock_game()
    expert = ExpertStrategy(0, **FAST)
    strategy_hint(game, expert)
    assert expert.samples.items
    for sample in expert.samples.items:
        assert observe(sample.position) == game.observation()
        assert sample.position.stock == game.position.stock  # no sample deals the known stock another way


@pytest.mark.parametrize("settings", [FAST, SMALL_REVEAL], ids=["hop", "reveal"])
def test_games_that_look_the_same_get_the_same_hint(settings):
    game = watched_stock_game()
    other = twin(game, seed=1)
    assert [observe(p) for p in history(other)] == [observe(p) for p in history(game)]
    assert other.position != game.position  # the face-down cards differ
    a, b = ExpertStrategy(7, **settings), ExpertStrategy(7, **settings)
    assert strategy_hint(game, a) == strategy_hint(other, b)
    assert a.last[1].how in ("sampled", "reveal") and a.last[1] == b.last[1]


def test_a_reused_expert_forgets_the_game_it_was_shown_before():
    game = watched_stock_game()
    reused = ExpertStrategy(7, **FAST)
    for other in (Game("klondike", seed=5), twin(game, seed=2)):  # a deal, then a game it samples layouts for
        strategy_hint(other, reused)
    assert reused.last[1].how == "sampled"
    new = ExpertStrategy(7, **FAST)
    assert strategy_hint(game, reused) == strategy_hint(game, new)
    assert [x.position for x in reused.samples.items] == [x.position for x in new.samples.items]  # same layouts


def test_the_command_line_hint_remembers_a_saved_games_moves(tmp_path, capsys):
    game = watched_stock_game()
    saved = tmp_path / "game.json"  # a saved game keeps its moves, so the expert knows what they showed
    saved.write_text(game.to_json(), encoding="utf-8")
    assert main(["hint", "--strategy", "expert", "--position-file", str(saved)]) == 0
    where_and_move, reason = capsys.readouterr().out.splitlines()
    move, expected = strategy_hint(game, "expert")
    assert where_and_move.endswith(f": {move}") and reason == expected and SCOUT not in reason
    text = tmp_path / "position.txt"  # a position as text has no history: nothing of the stock is known
    text.write_text(game.to_text(), encoding="utf-8")
    assert main(["hint", "--strategy", "expert", "--position-file", str(text)]) == 0
    assert SCOUT in capsys.readouterr().out
