"""Players: a strategy sees what a player sees and picks a move; the random and the greedy player.

A strategy gets the ``Observation`` (no face-down card, no stock order) and the legal moves, never the
``Position``. ``solitaire.strategies`` finds a strategy by its name and plays whole games with it.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from .endgame import safe_to_foundation
from .moves import (COLUMN_TO_COLUMN, COLUMN_TO_FOUNDATION, DRAW, FLIP, FOUNDATION_TO_COLUMN, RECYCLE,
                    WASTE_TO_COLUMN, WASTE_TO_FOUNDATION, Move, foundation_wants, rules)
from .state import Observation

__all__ = ["GREEDY_RULES", "GreedyStrategy", "RandomStrategy", "Strategy"]


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
