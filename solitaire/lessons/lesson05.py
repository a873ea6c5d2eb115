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


STRATEGY_DEALS = range(150)  # enough deals for a sign test to see a real lead over random
STRATEGY_MAX_MOVES = 1500
SIGNIFICANCE = 0.05


@functools.lru_cache(maxsize=None)
def _won_deals(strategy: str) -> tuple[bool, ...]:
    """Which of STRATEGY_DEALS a built-in strategy wins (random, greedy), deal by deal."""
    from ..strategies import play_game
    return tuple(play_game("klondike", seed, strategy, max_moves=STRATEGY_MAX_MOVES).outcome == Outcome.WON
                 for seed in STRATEGY_DEALS)


def _lead(mine: tuple[bool, ...], theirs: tuple[bool, ...]) -> tuple[int, int, float]:
    """Deals only mine won, deals only theirs won, and the sign test's two-sided p-value (lesson 06b)."""
    from ..stats import sign_test
    only_mine = sum(a and not b for a, b in zip(mine, theirs))
    only_theirs = sum(b and not a for a, b in zip(mine, theirs))
    return only_mine, only_theirs, sign_test(only_mine, only_theirs)


@exercise("05.strategy", f"Write a strategy that beats random play on Klondike deals {STRATEGY_DEALS.start}-"
                         f"{STRATEGY_DEALS.stop - 1}: among the deals only one of the two wins, yours must win so many "
                         f"more that a sign test finds the lead (p < {SIGNIFICANCE}). An object with a name and "
                         "choose(obs, moves) -> one of moves, or a plain function (obs, moves) -> move.",
          pieces=[f"solitaire.players.GreedyStrategy.{m}" for m in ("choose", "rank", "rule")], shows=())
def _strategy(answer: Any) -> Verdict:
    """Plays the student's strategy, random and greedy on the same deals; passes a lead over random that a sign
    test on those deals finds at p < 0.05 (a random player with another seed wins about as often, and fails)."""
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
            records.append(play_game("klondike", seed, strategy, max_moves=STRATEGY_MAX_MOVES))
        except NotImplementedError:
            raise NotAnswered("your strategy's choose still has no body") from None
        except Exception as e:
            return Verdict(False, f"on Klondike deal {seed} your strategy failed: {type(e).__name__}: {e}")
    mine = tuple(r.outcome == Outcome.WON for r in records)
    stuck = sum(r.outcome == Outcome.MOVE_LIMIT for r in records)
    random_won, greedy_won = _won_deals("random"), _won_deals("greedy")
    ahead, behind, p = _lead(mine, random_won)
    deals = f"Klondike deals {STRATEGY_DEALS.start}-{STRATEGY_DEALS.stop - 1}"
    score = (f"on {deals} your strategy won {sum(mine)}, random {sum(random_won)}, greedy {sum(greedy_won)}. "
             f"Of the deals only one of you won, you won {ahead} and random {behind}: a fair coin splits them "
             f"at least that unevenly with chance p = {p:.2g} (the sign test, lesson 06b)")
    if ahead <= behind or p >= SIGNIFICANCE:
        verdict = ("not better than random yet" if ahead <= behind else
                   f"a lead, but p is not below {SIGNIFICANCE}, so it could be luck: not shown better than random yet")
        hint = (f" {stuck} of your games ran into the {STRATEGY_MAX_MOVES:,}-move limit: moving builds back and forth "
                "leads nowhere, so put those moves last." if stuck > len(records) // 10 else
                " Which moves make progress? A flip, or a move that uncovers a face-down card, is almost "
                "always good; moving a build sideways rarely is.")
        return Verdict(False, f"{score}: {verdict}.{hint}")
    g_ahead, g_behind, g_p = _lead(mine, greedy_won)
    against_greedy = ("and greedy too, by a sign test!" if g_ahead > g_behind and g_p < SIGNIFICANCE else
                      f"greedy is another matter ({g_ahead} deals to {g_behind}, p = {g_p:.2g}: a final project).")
    return Verdict(True, f"{score}: you beat random, {against_greedy}")


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
    from ..strategies import play_game
    wins = sum(play_game("klondike", seed, "greedy").outcome == Outcome.WON for seed in range(20, 40))
    return number_verdict(answer, wins, "the number of deals 20-39 greedy wins")
