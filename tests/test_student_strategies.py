"""experiments.run with students' own strategy objects, next to the built-in names."""
from __future__ import annotations

import random

import pytest

from helpers import uncover_first
from solitaire.experiments import run
from solitaire.strategies import play_game


class UncoverFirst:
    """A student's strategy: flips, then moves that uncover a face-down card, then the rest in a fixed order."""

    name = "uncover first"

    def choose(self, obs, moves):
        return uncover_first(obs, moves)


class Coin:
    """A strategy with its own seeded generator: each game must start from a fresh copy of it."""

    name = "coin"

    def __init__(self) -> None:
        self.rng = random.Random(1)

    def choose(self, obs, moves):
        return moves[self.rng.randrange(len(moves))]


def _outcomes(df, strategy):
    return df[df.strategy == strategy].sort_values(["variant", "seed"])[["seed", "outcome", "moves"]].values.tolist()


def test_strategy_objects_play_in_parallel_beside_built_in_names(capsys: pytest.CaptureFixture) -> None:
    df = run(["klondike", "italian"], [UncoverFirst(), "greedy", Coin()], 6, workers=2, progress=False)
    assert list(dict.fromkeys(df.strategy)) == ["uncover first", "greedy", "coin"] and len(df) == 36
    assert "cannot be sent to worker processes" not in capsys.readouterr().err  # they pickle: no fallback
    expected = [[s, play_game("klondike", s, UncoverFirst()).outcome] for s in range(6)]
    assert [[r.seed, r.outcome] for r in df[(df.variant == "klondike") & (df.strategy == "uncover first")]
            .itertuples()] == expected
    one = run(["klondike", "italian"], [Coin(), UncoverFirst()], 6, workers=1, progress=False)
    assert _outcomes(one, "coin") == _outcomes(df, "coin")  # a fresh copy per game: same games in any process
    assert _outcomes(one, "uncover first") == _outcomes(df, "uncover first")


def test_a_strategy_that_cannot_be_pickled_plays_in_this_process_and_says_so(capsys: pytest.CaptureFixture) -> None:
    class Local(UncoverFirst):  # defined inside a function: pickle cannot find it by name
        name = "local"

    df = run("klondike", [Local(), "random"], 4, workers=2, progress=False)
    err = capsys.readouterr().err
    assert "strategy local cannot be sent to worker processes" in err and "in this process" in err
    assert _outcomes(df, "local") == [[s, play_game("klondike", s, UncoverFirst()).outcome,
                                       play_game("klondike", s, UncoverFirst()).moves] for s in range(4)]
    assert len(df[df.strategy == "random"]) == 4


def test_bad_strategies_get_clear_errors() -> None:
    class Greedy(UncoverFirst):
        name = "greedy"

    with pytest.raises(ValueError, match="like a built-in one"):
        run("klondike", [Greedy()], 2, workers=1, progress=False)
    with pytest.raises(ValueError, match="not a strategy"):
        run("klondike", [42], 2, workers=1, progress=False)
    with pytest.raises(ValueError, match="unknown strategy 'best'"):
        run("klondike", ["best"], 2, workers=1, progress=False)
    other = UncoverFirst()
    other.name = "coin"
    with pytest.raises(ValueError, match="two different strategies are called 'coin'"):
        run("klondike", [Coin(), other], 2, workers=1, progress=False)
