"""Strategies by name, and the runner that plays whole games with them.

A strategy (``solitaire.players``: the ``Strategy`` protocol, the random and the greedy player; the expert in
``solitaire.expert``) gets the ``Observation`` and the legal moves, never the ``Position``. ``get_strategy``
finds one by its name, and lets a plain function ``(obs, moves) -> move`` play as one (``FunctionStrategy``).
``play_game`` plays one deal with a strategy as a *perfect-memory player*: it never plays a move that leads back
to a position already seen in this game, so every game ends (``allow_repeats=True`` lifts that rule).
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from .endgame import LOST, MOVE_LIMIT, OUTCOMES, WON, Outcome, over_reason
from .moves import Move, apply, is_won, legal_moves
from .players import GreedyStrategy, RandomStrategy, Strategy
from .state import Position, deal, observe
from .variants import Variant, get_variant

__all__ = ["OUTCOMES", "STRATEGY_NAMES", "FunctionStrategy", "GameRecord", "GreedyStrategy", "RandomStrategy",
           "Strategy", "fresh_moves", "game_loop", "get_strategy", "play_game", "position_key", "strategy_hint"]


STRATEGIES = {"random": RandomStrategy, "greedy": GreedyStrategy}  # the players of solitaire.players
# Every strategy name the kit knows, in one place (experiments and the command line use this tuple): the
# built-in players, the solver (which plays with the whole position, so experiments run it rather than
# play_game), and the expert (solitaire/expert.py, imported only when asked for).
STRATEGY_NAMES = (*STRATEGIES, "solver", "expert")


class FunctionStrategy:
    """A plain function ``(obs, moves) -> move`` (or a move's text, such as ``"t1>f"``) playing as a strategy,
    named after the function.

    >>> from solitaire import Game
    >>> def first(obs, moves):
    ...     return moves[0]
    >>> s = FunctionStrategy(first)
    >>> game = Game("klondike", seed=1)
    >>> s.name, s.choose(game.observation(), game.legal_moves())
    ('first', Move('t>t', 0, 6))
    """

    def __init__(self, fn) -> None:
        if not callable(fn):
            raise ValueError(f"{fn!r} is not a strategy: give a name (random, greedy, expert), an object with a "
                             "choose(obs, moves) method, or a function (obs, moves) -> move")
        self.fn, self.name = fn, str(getattr(fn, "__name__", "") or "yours")

    def choose(self, obs, moves: Sequence[Move]) -> Move | None:
        move = self.fn(obs, moves)
        if isinstance(move, str):
            from .notation import move_from_text
            return move_from_text(move)
        return move

    def explain(self, obs, move: Move) -> str:
        return f"{move}: {self.name} chose it."

    def __repr__(self) -> str:
        return f"FunctionStrategy({self.name})"


def get_strategy(name, seed: int = 0) -> Strategy:
    """A built-in strategy by name ("random", "greedy", "expert"); a Strategy passes through unchanged, and a plain
    function ``(obs, moves) -> move`` plays as a ``FunctionStrategy``.

    >>> get_strategy("random", seed=3), get_strategy(lambda obs, moves: moves[0]).name
    (RandomStrategy(seed=3), '<lambda>')
    """
    if not isinstance(name, str):
        return name if callable(getattr(name, "choose", None)) else FunctionStrategy(name)
    key = name.strip().lower()
    if key == "random":
        return RandomStrategy(seed)
    if key == "greedy":
        return GreedyStrategy()
    if key == "expert":  # sampling with the solver (solitaire/expert.py, solitaire/reveal.py), imported when asked for
        from .expert import ExpertStrategy
        return ExpertStrategy(seed)
    raise ValueError(f"unknown strategy {name!r}: choose one of random, greedy, expert, "
                     "or pass a Strategy object or a function (obs, moves) -> move")


# --- playing whole games -------------------------------------------------------------------------------

@dataclass(frozen=True)
class GameRecord:
    """How one game went: outcome is WON, LOST (no fresh move, or no more moves) or MOVE_LIMIT."""

    variant: str
    strategy: str
    seed: int
    outcome: Outcome
    moves: int
    on_foundations: int
    seconds: float


def position_key(p: Position) -> tuple:
    """A position without its recycle count: what the perfect-memory player recognises."""
    return p.stock, p.waste, p.foundations, p.columns, p.hidden


def fresh_moves(p: Position, seen: set, moves: Sequence[Move] | None = None) -> list[tuple[Move, Position]]:
    """The legal moves of ``p`` whose result is not in ``seen``, each with that result."""
    out = []
    for m in legal_moves(p) if moves is None else moves:
        q = apply(p, m)
        if position_key(q) not in seen:
            out.append((m, q))
    return out


def game_loop(p: Position, pick, use_rank: bool, max_moves: int = 5000,
              name: str = "the strategy", allow_repeats: bool = False) -> tuple[Outcome, int, Position]:
    """Play from ``p`` as a perfect-memory player (never a position twice) until the game is won, lost or
    ``max_moves`` are played: the outcome, the moves played and the last position. The one game loop of the kit:
    ``play_game`` and the tournament's referee both play through it. With ``allow_repeats`` every legal move is
    offered, those that bring back a position already seen included (a player without that memory).

    ``pick(p, moves)`` answers each decision: with ``use_rank``, the moves in order of preference (the first
    fresh one is played); otherwise one of the fresh ``moves`` offered, or None to resign.

    >>> from solitaire import KLONDIKE
    >>> outcome, played, end = game_loop(deal(KLONDIKE, 3), lambda p, moves: moves[0], False, max_moves=10)
    >>> str(outcome), played
    ('move limit', 10)
    """
    seen = set() if allow_repeats else {position_key(p)}
    outcome, played = MOVE_LIMIT, 0
    while played < max_moves:
        if is_won(p):
            outcome = WON
            break
        moves = legal_moves(p)
        if over_reason(p, moves) is not None:
            outcome = LOST
            break
        if use_rank:  # the strategy's favourite moves first, stop at the first fresh one
            q = next((q for q in (apply(p, m) for m in pick(p, moves) or ()) if position_key(q) not in seen), None)
        else:
            fresh = fresh_moves(p, seen, moves)
            choice = pick(p, [m for m, _ in fresh]) if fresh else None
            q = None if choice is None else next((q for m, q in fresh if m == choice), None)
            if choice is not None and q is None:
                raise ValueError(f"{name} chose {choice}, which is not one of the moves it was offered")
        if q is None:  # nothing fresh, nothing the strategy is willing to play, or it resigned
            outcome = LOST
            break
        p = q
        if not allow_repeats:
            seen.add(position_key(p))
        played += 1
    else:
        if is_won(p):
            outcome = WON
    return outcome, played, p


def play_game(variant: str | Variant, seed: int, strategy, *, max_moves: int = 5000,
              allow_repeats: bool = False) -> GameRecord:
    """Deal ``seed`` of ``variant`` and let ``strategy`` play it to the end (or ``max_moves``).

    ``strategy``: a name ("random", "greedy"; built with ``get_strategy(name, seed)``), a Strategy object, or a
    plain function ``(obs, moves) -> move``. The runner offers only the fresh moves, those that bring back no
    position already seen in this game, unless ``allow_repeats``. A strategy may offer ``rank(obs, moves)`` (its
    moves in order of preference, leaving out those it would never play): the runner then plays the first fresh
    one, which is what ``choose`` would pick from the fresh moves, only faster.

    >>> record = play_game("klondike", 3, "greedy")
    >>> str(record.outcome), record.moves > 0
    ('won', True)
    >>> def first(obs, moves):
    ...     return moves[0]
    >>> record = play_game("klondike", 3, first, max_moves=50)
    >>> record.strategy, record.moves <= 50
    ('first', True)
    """
    v = get_variant(variant)
    s = get_strategy(strategy, seed)
    start = time.perf_counter()
    rank = getattr(s, "rank", None)
    if rank is not None:
        outcome, played, p = game_loop(deal(v, seed), lambda p, moves: rank(observe(p), moves), True, max_moves,
                                       allow_repeats=allow_repeats)
    else:
        outcome, played, p = game_loop(deal(v, seed), lambda p, moves: s.choose(observe(p), moves), False,
                                       max_moves, f"strategy {getattr(s, 'name', 'yours')!r}", allow_repeats)
    return GameRecord(v.name, getattr(s, "name", type(s).__name__), seed, outcome, played, p.on_foundations(),
                      time.perf_counter() - start)


def strategy_hint(game, strategy: str | Strategy = "greedy") -> tuple[Move, str]:
    """The move ``strategy`` would play now in ``game`` (avoiding positions seen in this game) and why.

    A strategy that remembers (one with ``recall(observations)``, such as the expert) is first shown the
    observations of the game's earlier positions, from the deal on, so it knows what a player who watched the
    game knows, such as the stock's order after the waste was turned over. It is shown nothing else.
    """
    s = get_strategy(strategy)
    moves = game.legal_moves()
    if not moves:
        raise ValueError("there is no legal move to hint: the game is over")
    p = game.start
    positions = [p]
    for m in game.moves:
        p = apply(p, m)
        positions.append(p)
    seen = {position_key(q) for q in positions}
    fresh = [m for m, _ in fresh_moves(game.position, seen, moves)] or moves
    recall = getattr(s, "recall", None)
    if recall is not None:
        recall([observe(q) for q in positions[:-1]])  # choose() below takes in the current observation
    obs = game.observation()
    move = s.choose(obs, fresh)
    if move is None:  # the strategy would resign: still show its best move
        move = GreedyStrategy(resign=False).choose(obs, fresh) if isinstance(s, GreedyStrategy) else fresh[0]
    return move, s.explain(obs, move)
