"""The expert and the win chance from the command line: ``python -m solitaire hint`` and ``chance``."""
from __future__ import annotations

import pytest

from solitaire import Game
from solitaire.cli import main
from solitaire.expert import win_chance
from solitaire.moves import Move
from solitaire.strategies import strategy_hint
from solitaire.notation import move_from_text


def test_hint_prints_the_experts_move_and_its_reason(capsys):
    assert main(["hint", "--seed", "3"]) == 0
    where_and_move, reason = capsys.readouterr().out.splitlines()
    move, expected_reason = strategy_hint(Game("klondike", seed=3), "expert")
    assert where_and_move == f"Klondike deal 3: {move}"
    assert reason == expected_reason and str(move) in reason


def test_hint_reads_a_saved_position_and_any_named_strategy(tmp_path, capsys):
    game = Game("italian", seed=1)
    for _ in range(3):
        game.play(strategy_hint(game, "greedy")[0])
    saved = tmp_path / "game.json"
    saved.write_text(game.to_json(), encoding="utf-8")
    assert main(["hint", "--strategy", "greedy", "--position-file", str(saved)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    move = move_from_text(first.rsplit(": ", 1)[1])
    assert move in game.legal_moves() and move == strategy_hint(game, "greedy")[0]


def test_hint_on_a_finished_game_says_so(tmp_path, capsys):
    game = Game("klondike", seed=0)
    while not game.is_over():
        game.play(strategy_hint(game, "greedy")[0])
    saved = tmp_path / "over.txt"
    saved.write_text(game.to_text(), encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        main(["hint", "--position-file", str(saved)])
    assert stop.value.code == 2
    assert "is over" in capsys.readouterr().err


def test_chance_prints_the_win_chance_with_its_counts(capsys):
    assert main(["chance", "--variant", "italian", "--seed", "2", "--samples", "6", "--max-nodes", "800"]) == 0
    out = capsys.readouterr().out.strip()
    expected = win_chance(Game("italian", seed=2), samples=6, seed=0, max_nodes=800)
    assert out == f"Italian 32-card deal 2: win chance {expected}"
    assert f"wins {expected.won} of 6 ways" in out


def test_chance_refuses_zero_samples(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["chance", "--samples", "0"])
    assert stop.value.code == 2
    assert "--samples: expected a whole number >= 1, got '0'" in capsys.readouterr().err
