"""A variant's rules as lookup tables indexed by card code, compiled once per variant.

The tables also hold, for every card, the foundation heights at which it is safe to play it up for good
(``safe_heights``); the proof that this keeps a win is in ``pruning.SafeMoves``.
"""
from __future__ import annotations

from ..cards import Card, card
from ..moves import rules
from ..variants import Variant
from .options import draw_only_when_stuck


class RuleTables:
    """Per card code: its suit, its foundation step, the cards that may sit on it and that it may sit on,
    whether it may start an empty column, and the safe-foundation heights. Per suit and step: the card
    (``card_at``). Card codes are the core's (``solitaire.cards``), as plain ints."""

    def __init__(self, v: Variant, passes: int | None = None) -> None:
        compiled = rules(v)
        self.variant = v
        self.passes = passes  # the passes the search models (see ``model_passes``)
        self.decks = v.decks
        self.step = list(compiled.step)  # place in foundation order, -1 if not in the deck
        self.deck = [c for c in range(64) if self.step[c] >= 0]
        self.suit = [Card(c).suit if c in self.deck else -1 for c in range(64)]  # -1 if not in the deck
        # card_at[suit][step] is the card at that step of the suit's foundation; 0 (no card) past the end
        self.card_at = [[int(card(name, suit)) for name in v.ranks] + [0] for suit in range(4)]
        self.children = [tuple(int(c) for c in compiled.children[u]) for u in range(64)]
        self.parents = [frozenset(int(c) for c in compiled.parents[u]) for u in range(64)]
        self.empty_ok = [bool(x) for x in compiled.empty_ok]
        self.strict_draw = draw_only_when_stuck(v)
        # draw 1 with unlimited passes: every stock or waste card can be brought to the waste top, so where
        # the waste ends does not matter (not with the strict draw rule: then drawing needs a stuck position)
        self.free_stock = v.draw == 1 and passes is None and not self.strict_draw
        self.safe_from_stock = v.waste_to_foundation and v.draw == 1
        # draw > 1 with unlimited passes: a waste position off the draw cycle dominates the positions it reaches
        # (``StateCodec.waste_place``)
        self.waste_dominance = v.draw > 1 and passes is None and not self.strict_draw
        # the same stock rule with waste-to-foundation play: a safe last talon card goes up from a waste position on
        # the draw cycle (``pruning.SafeMoves``, "the end of the talon")
        self.safe_talon_end = self.waste_dominance and v.waste_to_foundation
        self.threshold: list[tuple[int, ...] | None] = [None] * 64  # the lowest pile of each suit must reach
        self.stock_watch: list[tuple[int, ...]] = [()] * 64  # cards that must not be in the stock or waste
        for c in self.deck:
            self.threshold[c], self.stock_watch[c] = self._safe_heights(c)
        self.watches_stock = any(self.stock_watch)
        # may a key ignore which parent each loose card sits on? (``StateCodec.loose_columns``)
        self.parents_interchangeable = v.decks == 1 and not self.strict_draw and self._groups()
        self.column_cache: dict = {}
        self.wanted_cache: dict = {}  # foundation heights -> the cards they take next (``StateCodec.wanted``)
        self.tops_cache: dict = {}  # foundation heights -> the cards on top (``StateCodec.tops``)
        self.pile_tops_cache: dict = {}  # foundation heights -> the piles' tops (``StateCodec.pile_tops``)

    def predecessors(self, c: int) -> list[int]:
        """The cards below ``c`` on its foundation."""
        return [self.card_at[self.suit[c]][s] for s in range(self.step[c])]

    def descendants(self, c: int) -> set[int]:
        """Every card that may sit on ``c`` in a column, on one of those, and so on."""
        todo, found = list(self.children[c]), set()
        while todo:
            d = todo.pop()
            if d not in found:
                found.add(d)
                todo.extend(self.children[d])
        return found

    def up_closure(self, c: int) -> set[int]:
        """The smallest set holding the cards that may sit on ``c`` and its predecessors, closed under both."""
        todo, found = list(self.children[c]) + self.predecessors(c), set()
        while todo:
            d = todo.pop()
            if d not in found:
                found.add(d)
                todo.extend(self.children[d])
                todo.extend(self.predecessors(d))
        return found

    def _groups(self) -> bool:
        """Do the cards fall into groups (``StateCodec.loose_columns``): two cards that may sit on a same card
        may sit on the same cards and take the same cards, and a card that may start an empty column may sit
        on no card?"""
        for a in self.deck:
            if self.empty_ok[a] and self.parents[a]:
                return False
            for b in self.deck:
                if self.parents[a] & self.parents[b] and (self.parents[a] != self.parents[b]
                                                          or set(self.children[a]) != set(self.children[b])):
                    return False
        return True

    def _safe_heights(self, c: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(the height every pile of each suit must have, once ``c`` is up, for ``c`` to be safe; the cards that
        must not be in the stock or waste). The conditions are proved in ``pruning.SafeMoves``."""
        v, suit = self.variant, self.suit
        need = [0, 0, 0, 0]
        watch: tuple[int, ...] = ()
        if v.foundation_to_tableau:  # every copy of the closure on the foundations
            for d in self.up_closure(c):
                need[suit[d]] = max(need[suit[d]], self.step[d] + 1)
        else:  # every copy of every descendant still out could go up now
            below = self.descendants(c)
            for d in below:
                need[suit[d]] = max(need[suit[d]], self.step[d])
            if not v.waste_to_foundation:
                watch = tuple(sorted(below))
            need[suit[c]] = max(need[suit[c]], self.step[c])  # with two decks: both predecessors are up
        return tuple(need), watch


_TABLES: dict[tuple[Variant, int | None], RuleTables] = {}


def model_passes(v: Variant, recycles_used: int = 0) -> int | None:
    """The passes the search must model: None (unlimited) when the passes left cannot run out.

    A line of play needs at most two recycles before each card it plays from the talon (a second recycle
    starts a pass that repeats the first, as long as no card leaves the talon), and none once the talon is
    empty, so no line needs more than ``2 * deck_size`` recycles: with at least that many left, the limit
    changes nothing, and the state space stays small however large ``passes`` is.
    """
    if v.passes is None or v.passes - 1 - recycles_used >= 2 * v.deck_size:
        return None
    return v.passes


def tables_for(v: Variant, passes: int | None | str = "variant") -> RuleTables:
    """The (cached) tables of a variant, modelling ``passes`` (by default: the variant's own)."""
    modelled = v.passes if passes == "variant" else passes
    found = _TABLES.get((v, modelled))
    if found is None:
        found = _TABLES[(v, modelled)] = RuleTables(v, modelled)
    return found
