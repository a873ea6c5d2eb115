"""One state being expanded: where cards can go, what restricts the next move, and the lazy tests of
whether a preparing move is worth trying (see ``generation``)."""
from __future__ import annotations

from collections import Counter

from .columns import REVEAL

UP, BELOW, TALON, EMPTY = 1, 2, 4, 8  # a need's flags: z up / the card under z down / any stock play / empty
NO_CARDS: dict = {}


def need(flags: int, z: int = 0) -> bytes:
    """The restriction a preparing move puts on the next move: bytes((flags, z)), a card onto z (or, with
    EMPTY, into an empty column), or else what the flags add."""
    return bytes((flags, z)) if flags or z else b"\x00\x00"


class Node:
    """The facts about a state that its move generation shares."""

    __slots__ = ("gen", "tables", "state", "columns", "heights", "wanted", "infos", "only", "top_up",
                 "below_card", "below_targets", "stock_free_of_restriction", "dead", "_accessible", "_worth",
                 "targets", "empties", "stock_targets", "stock_empties", "foundation_tops", "stock_cards",
                 "stock_fill", "stock_first")

    def __init__(self, gen, state, wanted: set[int], infos: list, restriction: bytes) -> None:
        self.gen, self.tables = gen, gen.tables
        self.state, self.columns, self.heights = state, state[0], state[1]
        self.wanted, self.infos = wanted, infos
        self.only: set[int] | None = None  # the columns a move may go to, when restricted
        self.top_up = True  # may a column top go up?
        self.below_card = -1  # the card under the one just taken down from a foundation
        self.below_targets: list[int] = []
        self.stock_free_of_restriction = False
        self.dead = False
        self._accessible = None
        self._worth = None
        scope = self._restrict(restriction) if restriction else range(len(infos))
        if self.dead:
            return
        self.targets, self.empties = self._where_cards_go(scope)
        self.stock_targets, self.stock_empties = self.targets, self.empties
        if restriction:
            self._narrow(scope, restriction[0])
        talon = state[2]
        self.foundation_tops = gen.codec.tops(self.heights) if gen.back else NO_CARDS
        self.stock_first = None  # talon index -> (in_waste, recycles) when first on top (``stock.talon_reach``)
        if not talon:
            self.stock_cards, self.stock_fill = NO_CARDS, 0
        elif self.tables.strict_draw:
            playable = None if self.has_progress_move() else self.playable_from_waste
            self.stock_cards, self.stock_fill = gen.stock.reachable(talon, state[3], state[4], playable)
        elif self.tables.free_stock:
            self.stock_cards, self.stock_fill = gen.stock.reachable(talon, state[3], state[4])
        else:
            self.stock_first, (self.stock_cards, self.stock_fill) = gen.stock.reach(talon, state[3], state[4])

    def _restrict(self, restriction: bytes):
        """Apply the need of the preparing move just played; returns the columns whose tops matter."""
        flags, z = restriction[0], restriction[1]
        infos, t = self.infos, self.tables
        if flags & EMPTY:
            self.only = {j for j, info in enumerate(infos) if info is None}
        else:
            self.only = {j for j, info in enumerate(infos) if info is not None and info.top == z}
        self.top_up = bool(flags & UP)
        if flags & BELOW and t.step[z] > 0:
            self.below_card = t.card_at[t.suit[z]][t.step[z] - 1]
        if not (self.only or self.top_up or self.below_card >= 0 or flags & TALON):
            self.dead = True
        return self.only if not (flags & TALON or self.below_card >= 0) else range(len(infos))

    def _where_cards_go(self, scope) -> tuple[dict[int, list[int]], list[int]]:
        """({card: the columns whose top would take it}, the empty columns), over the columns in scope."""
        targets: dict[int, list[int]] = {}
        empties: list[int] = []
        for j in scope:
            info = self.infos[j]
            if info is None:
                empties.append(j)
            else:
                for ch in info.kids:
                    if ch in targets:
                        targets[ch].append(j)
                    else:
                        targets[ch] = [j]
        return targets, empties

    def _narrow(self, scope, flags: int) -> None:
        """Targets limited to the restriction's columns (a stock play may stay free of it, see TALON)."""
        only, below = self.only, self.below_card
        if below >= 0:
            self.below_targets = list(self.targets.get(below, ()))
            if self.empties and self.tables.empty_ok[below]:
                self.below_targets.append(self.empties[0])
        if scope is not only:
            if flags & TALON:
                # the same lists as filtering the full targets, less the cards left with none: nothing iterates
                # these (column and foundation moves only look cards up), and the stock keeps the full targets
                self.targets, self.empties = self._where_cards_go(sorted(only))
                self.stock_free_of_restriction = True
            else:
                self.targets = {c: [j for j in js if j in only] for c, js in self.targets.items()}
                self.empties = [j for j in self.empties if j in only]
                self.stock_targets, self.stock_empties = self.targets, self.empties

    def after_stock_targets(self):
        """The targets that foundation moves use (the stock's when the talon offers cards)."""
        if self.stock_cards:
            return self.stock_targets, self.stock_empties
        return self.targets, self.empties

    # --- lazy facts for the preparing moves --------------------------------------------------------
    def accessible(self):
        """(the cards that could be picked up from the columns -- with two decks {card: copies} --, how many
        cards could start an empty column: from builds, the stock and the foundations)."""
        if self._accessible is None:
            fill = self.stock_fill
            cards = set() if self.tables.decks == 1 else Counter()
            for info in self.infos:
                if info is not None:
                    fill += info.fill
                    cards.update(info.movable)
            for c in self.foundation_tops:  # (none unless cards may come back from the foundations)
                if self.tables.empty_ok[c]:
                    fill += 1
            self._accessible = (cards, fill)
        return self._accessible

    def fill(self) -> int:
        return self.accessible()[1]

    def can_hold(self, below: int, moved: int) -> bool:
        """Could some card go onto ``below`` right after a build starting with ``moved`` leaves it?"""
        cards = self.accessible()[0]
        two_decks = self.tables.decks > 1
        for ch in self.tables.children[below]:
            if (ch in cards and (ch != moved or (two_decks and cards[ch] > 1))) or ch in self.foundation_tops \
                    or (ch in self.stock_cards and self.worth_from_stock(ch)):
                return True
        return False

    def worth_from_stock(self, c: int) -> bool:
        """Is stock card ``c`` worth putting on a column now? With a free stock: when a column card (or a
        foundation top) can then go on it, or, when the waste may not play up, it can go up itself, or a stock
        card worth it in turn can go on it. With other stock rules every reachable stock card counts."""
        if not self.tables.free_stock:
            return True
        if self._worth is None:
            self._worth = {}
        memo = self._worth
        found = memo.get(c)
        if found is None:
            cards = self.accessible()[0]
            found = not self.tables.variant.waste_to_foundation and c in self.wanted
            if not found:
                for ch in self.tables.children[c]:
                    if ch in cards or ch in self.foundation_tops or (ch in self.stock_cards
                                                                     and self.worth_from_stock(ch)):
                        found = True
                        break
            memo[c] = found
        return found

    def worth_taking_down(self, c: int, targets, empties) -> bool:
        """Is foundation top ``c`` worth taking down: can a card then go on it, or the card under it follow?"""
        cards = self.accessible()[0]
        for ch in self.tables.children[c]:
            if ch in cards or ch in self.stock_cards or ch in self.foundation_tops:
                return True
        t = self.tables
        if t.step[c] == 0:
            return False
        under = t.card_at[t.suit[c]][t.step[c] - 1]
        return bool(targets.get(under)) or bool(empties and t.empty_ok[under]) or c in t.parents[under]

    # --- the strict draw rule ----------------------------------------------------------------------
    def playable_from_waste(self, c: int) -> bool:
        """Could ``c``, on top of the waste, be played (to a column or a foundation)?"""
        return bool(self.targets.get(c)) or bool(self.empties and self.tables.empty_ok[c]) or (
            self.tables.variant.waste_to_foundation and c in self.wanted)

    def has_progress_move(self) -> bool:
        """Is a move that makes progress legal (``moves.makes_progress``: a card up, a waste card played, a
        face-down card uncovered)? With the strict draw rule, drawing and recycling are legal only if not."""
        t, targets, empties = self.tables, self.targets, self.empties
        for s, info in enumerate(self.infos):
            if info is None:
                continue
            if info.top in self.wanted:
                return True
            for build in info.builds:
                if build.kind == REVEAL:
                    if empties and t.empty_ok[build.bottom]:
                        return True
                    for d in targets.get(build.bottom, ()):
                        if d != s:
                            return True
        talon, in_waste = self.state[2], self.state[3]
        return bool(in_waste) and self.playable_from_waste(talon[in_waste - 1])
