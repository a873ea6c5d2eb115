"""Strategies: players that choose a move from what they can see, and a runner that plays whole games.

A strategy gets the ``Observation`` (no face-down card, no stock order) and the legal moves, never the
``Position``. ``play_game`` plays one deal with a strategy as a *perfect-memory player*: it never plays a
move that leads back to a position already seen in this game, so every game ends.
"""
from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from .endgame import LOST, MOVE_LIMIT, OUTCOMES, WON, Outcome, over_reason, safe_to_foundation
from .moves import (COLUMN_TO_COLUMN, COLUMN_TO_FOUNDATION, DRAW, FLIP, FOUNDATION_TO_COLUMN, RECYCLE,
                    WASTE_TO_COLUMN, WASTE_TO_FOUNDATION, Move, apply, foundation_wants, is_won, legal_moves,
                    rules)
from .state import Observation, Position, deal, observe
from .variants import Variant, get_variant

__all__ = ["OUTCOMES", "STRATEGY_NAMES", "GameRecord", "GreedyStrategy", "RandomStrategy", "Strategy",
           "fresh_moves", "get_strategy", "play_game", "position_key", "strategy_hint"]


@runtime_checkable
class Strategy(Protocol):
    """Anything with a name that picks one of the legal moves from an observation, and can say why."""

    name: str

    def choose(self, obs: Observation, moves: Sequence[Move]) -> Move | None:
        """One of ``moves`` (never empty), or None to resign (the game then counts as lost)."""
        ...

    def explain(self, obs: Observation, move: Move) -> str:
        """One sentence saying why this strategy likes ``move`` in ``obs``."""
        ...


class RandomStrategy:
    """Plays a legal move chosen uniformly at random (from its own seeded generator)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, obs: Observation, moves: Sequence[Move]) -> Move:
        if not moves:
            raise ValueError("choose needs at least one legal move, got none: the game is over")
        return moves[self.rng.randrange(len(moves))]

    def explain(self, obs: Observation, move: Move) -> str:
        return f"{move}: the random player picks any legal move by chance."

    def __repr__(self) -> str:
        return f"RandomStrategy(seed={self.seed})"


# Greedy's rules, best first: (score, explanation). The score of a move is the first rule that matches it.
SAFE_FOUNDATION = (100, "{move}: {card} goes to its foundation, and no card that could sit on it is left to play, "
                        "so it is never needed in a column.")
FLIP_CARD = (90, "{move}: turning a face-down card up gives new information and new moves.")
UNCOVER = (80, "{move}: moving this build uncovers a face-down card.")
TO_FOUNDATION = (70, "{move}: {card} goes to its foundation, which is progress toward the win.")
WASTE_PLAY = (60, "{move}: {card} leaves the waste for a column, which lets the stock move on.")
FREE_FOR_FOUNDATION = (50, "{move}: moving this build frees a card that can then go to its foundation.")
FILL_LATER = (40, "{move}: emptying a column makes room for a card that is waiting for one.")
STOCK = (20, "{move}: no column or foundation move helps, so turn the stock.")
FROM_FOUNDATION = (10, "{move}: taking a card back from a foundation is a last resort that can unblock a column.")
SHUFFLE = (0, "{move}: nothing better is left; this build move at least leads somewhere new.")
GREEDY_RULES = (SAFE_FOUNDATION, FLIP_CARD, UNCOVER, TO_FOUNDATION, WASTE_PLAY, FREE_FOR_FOUNDATION, FILL_LATER,
                STOCK, FROM_FOUNDATION, SHUFFLE)


class GreedyStrategy:
    """Plays the move that looks best right now, by fixed priorities (ties go to the first legal move):

    1. a *safe* foundation move: every card that could sit on it in a column is on a foundation already;
    2. turning a face-down card up (``flip``);
    3. a build move that uncovers a face-down card (from the column with the most face-down cards first);
    4. any other move to a foundation;
    5. the waste card to a column;
    6. a build move that frees a card for its foundation;
    7. emptying a column when a card that may start an empty column is waiting (waste top or on face-down cards);
    8. ``draw`` or ``recycle``;
    9. a card back from a foundation;
    10. any other build move (only when nothing else is left).

    It remembers nothing: ``play_game`` keeps it from undoing its last move or going round in circles.
    With ``resign=True`` (the default) it gives up instead of playing a move of rule 10: once a whole pass
    through the stock has found nothing better, shuffling builds around would only start another pass.
    """

    name = "greedy"

    def __init__(self, resign: bool = True) -> None:
        self.resign = resign

    def choose(self, obs: Observation, moves: Sequence[Move]) -> Move | None:
        if not moves:
            raise ValueError("choose needs at least one legal move, got none: the game is over")
        ranked = self.rank(obs, moves)
        return ranked[0] if ranked else None

    def rank(self, obs: Observation, moves: Sequence[Move]) -> list[Move]:
        """The moves greedy would play, best first (ties keep their order); ``choose`` plays the first.

        ``play_game`` uses this to test only as many moves for freshness as it needs: the first fresh move of
        ``rank(obs, legal)`` is exactly ``choose(obs, fresh)``.
        """
        look = _Look(obs)
        rule = self.rule
        columns, hidden = obs.columns, obs.hidden
        scored = []
        for i, m in enumerate(moves):
            kind = m.kind
            if kind == DRAW or kind == RECYCLE:
                score = STOCK[0]
            elif kind == WASTE_TO_COLUMN:
                score = WASTE_PLAY[0]
            elif kind == COLUMN_TO_COLUMN:  # the build rules of ``rule``, inlined for speed
                col = columns[m.source]
                if m.count == len(col):
                    if hidden[m.source]:
                        score = UNCOVER[0] + hidden[m.source] / 100  # the deepest column first
                    elif columns[m.target] and look.card_waits_for_empty(m.source):
                        score = FILL_LATER[0]
                    else:
                        score = SHUFFLE[0]
                else:
                    score = FREE_FOR_FOUNDATION[0] if col[-m.count - 1] in look.wanted else SHUFFLE[0]
            else:
                score = rule(obs, m, look)[0]
                if score == UNCOVER[0]:
                    score += obs.hidden[m.source] / 100  # the deepest column first
            if score > SHUFFLE[0] or not self.resign:
                scored.append((-score, i, m))
        scored.sort()
        return [m for _, _, m in scored]

    def explain(self, obs: Observation, move: Move) -> str:
        template = self.rule(obs, move)[1]
        return template.format(move=move, card=_moving_card(obs, move))

    def rule(self, obs: Observation, m: Move, look: _Look | None = None) -> tuple[int, str]:
        """The first of GREEDY_RULES that ``m`` matches."""
        kind = m.kind
        if kind == DRAW or kind == RECYCLE:
            return STOCK
        if kind == WASTE_TO_COLUMN:
            return WASTE_PLAY
        if kind == FLIP:
            return FLIP_CARD
        look = look or _Look(obs)
        if kind == COLUMN_TO_FOUNDATION or kind == WASTE_TO_FOUNDATION:
            c = _moving_card(obs, m)
            return SAFE_FOUNDATION if c is not None and look.safe(c) else TO_FOUNDATION
        if kind == FOUNDATION_TO_COLUMN:
            return FROM_FOUNDATION
        col = obs.columns[m.source]
        if m.count == len(col):
            if obs.hidden[m.source]:
                return UNCOVER
            return FILL_LATER if obs.columns[m.target] and look.card_waits_for_empty(m.source) else SHUFFLE
        return FREE_FOR_FOUNDATION if col[-m.count - 1] in look.wanted else SHUFFLE

    def __repr__(self) -> str:
        return f"GreedyStrategy(resign={self.resign})"


class _Look:
    """What greedy works out once per observation: the cards foundations take, and what is on them."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.rules = rules(obs.variant)
        self.wanted = foundation_wants(obs)
        self._waits: bool | None = None

    def safe(self, c) -> bool:
        """Every copy of every card that could sit on ``c`` in a column is on a foundation already."""
        return safe_to_foundation(self.obs, c)

    def card_waits_for_empty(self, skip: int) -> bool:
        """Is a card that may start an empty column waiting: the waste top, or a build on face-down cards
        (in a column other than ``skip``, which is asked only when it has no face-down card)?"""
        if self._waits is None:
            ok, obs = self.rules.empty_ok, self.obs
            self._waits = bool(obs.waste and ok[obs.waste[-1]]) or any(
                h and col and ok[col[0]] for col, h in zip(obs.columns, obs.hidden))
        return self._waits


def _moving_card(obs: Observation, m: Move):
    """The (bottom) card a move picks up, or None for draw, recycle and flip."""
    if m.kind in (WASTE_TO_COLUMN, WASTE_TO_FOUNDATION):
        return obs.waste[-1] if obs.waste else None
    if m.kind in (COLUMN_TO_FOUNDATION, COLUMN_TO_COLUMN):
        col = obs.columns[m.source]
        return col[-m.count] if len(col) >= m.count else None
    if m.kind == FOUNDATION_TO_COLUMN:
        pile = obs.foundations[m.source]
        return pile[-1] if pile else None
    return None


STRATEGIES = {"random": RandomStrategy, "greedy": GreedyStrategy}
# Every strategy name the kit knows, in one place (experiments and the command line use this tuple): the
# built-in players above, the solver (which plays with the whole position, so experiments run it rather than
# play_game), and the expert (solitaire/expert.py, imported only when asked for).
STRATEGY_NAMES = (*STRATEGIES, "solver", "expert")


def get_strategy(name: str | Strategy, seed: int = 0) -> Strategy:
    """A built-in strategy by name ("random", "greedy", "expert"); a Strategy passes through unchanged."""
    if not isinstance(name, str):
        return name
    key = name.strip().lower()
    if key == "random":
        return RandomStrategy(seed)
    if key == "greedy":
        return GreedyStrategy()
    if key == "expert":  # hindsight sampling with the solver (solitaire/expert.py), imported when asked for
        from .expert import ExpertStrategy
        return ExpertStrategy(seed)
    raise ValueError(f"unknown strategy {name!r}: choose one of random, greedy, expert "
                     "or pass a Strategy object")


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


def play_game(variant: str | Variant, seed: int, strategy: str | Strategy, *, max_moves: int = 5000) -> GameRecord:
    """Deal ``seed`` of ``variant`` and let ``strategy`` play it to the end (or ``max_moves``).

    A strategy name ("random", "greedy") is built with ``get_strategy(name, seed)``. A strategy may offer
    ``rank(obs, moves)`` (its moves in order of preference, leaving out those it would never play): the runner
    then plays the first fresh one, which is what ``choose`` would pick from the fresh moves, only faster.
    """
    v = get_variant(variant)
    s = get_strategy(strategy, seed)
    start = time.perf_counter()
    p = deal(v, seed)
    seen = {position_key(p)}
    rank = getattr(s, "rank", None)
    outcome = MOVE_LIMIT
    played = 0
    while played < max_moves:
        if is_won(p):
            outcome = WON
            break
        moves = legal_moves(p)
        if over_reason(p, moves) is not None:
            outcome = LOST
            break
        obs = observe(p)
        if rank is not None:  # try the strategy's favourite moves first, stop at the first fresh one
            for m in rank(obs, moves):
                q = apply(p, m)
                if position_key(q) not in seen:
                    p = q
                    break
            else:
                outcome = LOST  # nothing fresh that the strategy is willing to play
                break
        else:
            fresh = fresh_moves(p, seen, moves)
            if not fresh:
                outcome = LOST
                break
            choice = s.choose(obs, [m for m, _ in fresh])
            if choice is None:  # the strategy resigned
                outcome = LOST
                break
            p = next((q for m, q in fresh if m == choice), None)
            if p is None:
                raise ValueError(f"strategy {s.name!r} chose {choice}, which is not one of the moves it was offered")
        seen.add(position_key(p))
        played += 1
    else:
        if is_won(p):
            outcome = WON
    return GameRecord(v.name, s.name, seed, outcome, played, p.on_foundations(), time.perf_counter() - start)


def strategy_hint(game, strategy: str | Strategy = "greedy") -> tuple[Move, str]:
    """The move ``strategy`` would play now in ``game`` (avoiding positions seen in this game) and why."""
    s = get_strategy(strategy)
    moves = game.legal_moves()
    if not moves:
        raise ValueError("there is no legal move to hint: the game is over")
    seen = set()
    p = game.start
    seen.add(position_key(p))
    for m in game.moves:
        p = apply(p, m)
        seen.add(position_key(p))
    fresh = [m for m, _ in fresh_moves(game.position, seen, moves)] or moves
    obs = game.observation()
    move = s.choose(obs, fresh)
    if move is None:  # the strategy would resign: still show its best move
        move = GreedyStrategy(resign=False).choose(obs, fresh) if isinstance(s, GreedyStrategy) else fresh[0]
    return move, s.explain(obs, move)
