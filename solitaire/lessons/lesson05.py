"""Checks for the exercises of lesson 05 (strategies), registered with ``solitaire.lessons.check``."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..endgame import Outcome
from ..moves import Move
from ..state import deal
from ..variants import KLONDIKE
from .checks import Verdict, NotAnswered, calls_into, exercise, number_verdict, replay_game


@exercise("05.replay", "Solve Klondike deal 2, replay the solution on a fresh Game until it is won; pass that Game.")
def _replay_won(game: Any) -> Verdict:
    replay = replay_game(game, "after the replayed solution", deal(KLONDIKE, 2), "Klondike deal 2 (Game('klondike', 2))")
    if replay.is_won():
        return Verdict(True, f"all {len(replay.moves)} moves replay legally and the game is won.")
    return Verdict(False, f"the {len(replay.moves)} moves are legal but the game is not won yet "
                          f"({replay.position.on_foundations()} cards home): did you play every move of the solution?")


STRATEGY_DEALS = range(50)


@functools.lru_cache(maxsize=None)
def _wins(strategy: str, max_moves: int = 1500) -> int:
    from ..strategies import play_game
    return sum(play_game("klondike", seed, strategy, max_moves=max_moves).outcome == Outcome.WON for seed in STRATEGY_DEALS)


@exercise("05.strategy", "Write a strategy that wins more Klondike deals than random play: an object with a name and "
                         "choose(obs, moves) -> one of moves (or a plain function (obs, moves) -> move).")
def _strategy(answer: Any) -> Verdict:
    """Plays the student's strategy, random and greedy on the same deals, and passes it when it beats random."""
    strategy = answer if hasattr(answer, "choose") else _FunctionStrategy(answer)
    if not callable(getattr(strategy, "choose", None)):
        raise NotAnswered(f"expected a strategy with a choose(obs, moves) method, got {answer!r}")
    from ..state import observe
    from ..moves import legal_moves
    from ..strategies import GreedyStrategy, play_game
    start = deal(KLONDIKE, STRATEGY_DEALS.start)
    methods = [getattr(strategy, name) for name in ("choose", "rank") if callable(getattr(strategy, name, None))]
    greedy = [GreedyStrategy.choose, GreedyStrategy.rank]  # play_game uses rank, when a strategy has one
    kit = next(filter(None, (calls_into(m, (observe(start), legal_moves(start)), greedy) for m in methods)), None)
    if kit:
        return Verdict(False, f"your strategy asks the kit's greedy player ({kit}) for its move, so it is greedy, "
                              "not yours: write your own rules for choosing a move.")
    records = []
    for seed in STRATEGY_DEALS:
        try:
            records.append(play_game("klondike", seed, strategy, max_moves=1500))
        except NotImplementedError:
            raise NotAnswered("your strategy's choose still has no body") from None
        except Exception as e:
            return Verdict(False, f"on Klondike deal {seed} your strategy failed: {type(e).__name__}: {e}")
    wins = sum(r.outcome == Outcome.WON for r in records)
    stuck = sum(r.outcome == Outcome.MOVE_LIMIT for r in records)
    random_wins, greedy_wins = _wins("random"), _wins("greedy")
    deals = f"Klondike deals {STRATEGY_DEALS.start}-{STRATEGY_DEALS.stop - 1}"
    score = f"on {deals} your strategy won {wins}, random {random_wins}, greedy {greedy_wins}"
    if wins <= random_wins:
        hint = (f" {stuck} of your games ran into the 1,500-move limit: moving builds back and forth leads "
                "nowhere, so put those moves last." if stuck else
                " Which moves make progress? A flip, or a move that uncovers a face-down card, is almost "
                "always good; moving a build sideways rarely is.")
        return Verdict(False, f"{score}: not better than random yet.{hint}")
    verdict = "and greedy too!" if wins > greedy_wins else ("as many as greedy." if wins == greedy_wins else
                                                             "but not greedy (that is a final project).")
    return Verdict(True, f"{score}: you beat random, {verdict}")


class _FunctionStrategy:
    """Lets a plain function ``(obs, moves) -> move`` play as a strategy."""

    def __init__(self, fn: Callable) -> None:
        if not callable(fn):
            raise NotAnswered(f"expected a strategy or a function (obs, moves) -> move, got {fn!r}")
        self.fn, self.name = fn, getattr(fn, "__name__", "yours")

    def choose(self, obs: Any, moves: Any) -> Any:
        move = self.fn(obs, moves)
        from ..notation import move_from_text
        return move_from_text(move) if isinstance(move, str) else move

    def explain(self, obs: Any, move: Any) -> str:
        return f"{move}: your strategy chose it."


@exercise("05.greedy_wins", "How many of Klondike deals 20 to 39 does the greedy strategy win?")
def _greedy_wins(answer: Any) -> Verdict:
    return number_verdict(answer, _greedy_wins_20_39(), "the number of deals 20-39 greedy wins")


@functools.lru_cache(maxsize=None)
def _greedy_wins_20_39() -> int:
    from ..strategies import play_game
    return sum(play_game("klondike", seed, "greedy").outcome == Outcome.WON for seed in range(20, 40))
