"""The solver's compact state, its key in the transposition table, and the foundations' arithmetic.

A state is a plain tuple ``(columns, heights, talon, in_waste, recycles)`` (tuples hash and compare fast):

* ``columns``: one ``bytes`` per column in the real order; byte 0 is the number of face-down cards, then the
  cards bottom first. Every non-empty column's top is face up (a face-down top is turned at once: turning
  a card only adds moves, so it never loses a win).
* ``heights``: ``bytes``, the foundation heights grouped by suit, ``decks`` per suit, ascending within a
  suit (the piles of one suit are interchangeable, so their order is not part of the state).
* ``talon``: ``bytes``, the waste bottom..top then the stock top..bottom: the order drawing turns them up.
* ``in_waste``: how many talon cards are in the waste (always 0 with a "free" stock, see ``RuleTables``).
* ``recycles``: recycles used so far (part of the key only when passes are limited).
"""
from __future__ import annotations

from ..cards import Card
from ..state import Position
from .tables import RuleTables

BYTE = [bytes((i,)) for i in range(256)]
WASTE_AT = [b"\xfe" + i.to_bytes(2, "big") for i in range(256)]  # a key's waste position (unlimited passes)


class StateCodec:
    """Keys of states and the foundation operations, for one variant."""

    def __init__(self, tables: RuleTables, columns_as_a_set: bool = True, waste_dominance: bool = True) -> None:
        self.tables = tables
        self.decks = tables.decks
        self.draw = tables.variant.draw
        self.passes = tables.passes
        self.columns_as_a_set = columns_as_a_set
        self.waste_dominance = waste_dominance
        self._wanted: dict[bytes, set[int]] = tables.wanted_cache  # by heights, which recur across many states
        self._tops: dict[bytes, set[int]] = tables.tops_cache
        self._pile_tops: dict[bytes, tuple[int, ...]] = tables.pile_tops_cache
        if columns_as_a_set and tables.free_stock:
            self.key = self._key_free_stock
        elif columns_as_a_set and self.passes is None and not tables.strict_draw \
                and tables.variant.deck_size < len(WASTE_AT):
            self.key = self._key_draw_cycle

    def key(self, state) -> bytes:
        """The state's transposition-table key.

        Column order: no rule names a column's place, so permuting the columns maps every line of play to an
        equally good one; the key sorts them (``columns_as_a_set``). Stock: with a free stock (draw 1,
        unlimited passes) every position of the waste can reach every other by drawing and recycling alone,
        so the key omits it. With draw > 1 and unlimited passes, the positions that a full cycle of draws and
        recycles passes through (a multiple of ``draw``, or the whole talon in the waste) are one state; other
        positions are kept. With limited passes the recycles used are kept too. With the strict draw rule
        every waste position is its own state (drawing is not always allowed).

        (``__init__`` replaces this general version by the one for the variant's stock rule, which gives the
        same bytes.)
        """
        columns, heights, talon, in_waste, recycles = state
        order = sorted(columns) if self.columns_as_a_set else columns
        k = b"\xff".join(order) + b"\xfe" + heights + talon
        t = self.tables
        if t.free_stock:
            return k
        if self.passes is None:
            if not t.strict_draw and (in_waste % self.draw == 0 or in_waste == len(talon)):
                in_waste = 0  # drawing and recycling cycle through these positions: one state
            return k + b"\xfe" + in_waste.to_bytes(2, "big")
        return k + b"\xfe" + in_waste.to_bytes(2, "big") + recycles.to_bytes(8, "big")

    def _key_free_stock(self, state) -> bytes:
        """``key`` with a free stock and columns as a set."""
        return b"\xff".join(sorted(state[0])) + b"\xfe" + state[1] + state[2]

    def _key_draw_cycle(self, state) -> bytes:
        """``key`` with draw > 1, unlimited passes, the usual draw rule and columns as a set."""
        columns, heights, talon, in_waste, _ = state
        if in_waste % self.draw == 0 or in_waste == len(talon):
            in_waste = 0
        return b"\xff".join(sorted(columns)) + b"\xfe" + heights + talon + WASTE_AT[in_waste]

    def waste_place(self, full: bytes, state) -> tuple[bytes, int, bool]:
        """(the unrestricted key ``full`` without the waste position, the position, is it on the draw cycle?),
        for waste dominance.

        Used with draw > 1, unlimited passes and the usual draw rule (``RuleTables.waste_dominance``). Call
        the waste position ``p`` (cards in the waste) and the talon size ``n``. Drawing and recycling alone
        take position ``p`` to ``p + draw``, ``p + 2 draw``, ... up to ``n``, then to 0 and every multiple of
        ``draw``: the cycle, which the key already treats as one position. So a state A at a position off the
        cycle reaches, by draws and recycles alone, the cycle and the positions ahead of it in steps of
        ``draw``, and nothing else in the state changes. Claim: if state B equals A except that B's position
        is one that A reaches this way, B is no better than A: every line from B is, move for move, a line
        from A. Argument: a stock play from B (bring talon card i to the top and play it) brings card i to
        the top from A too and gives the same child (the waste position after it is i in both); any other
        move leaves both positions where they were, so the two children stand in the same relation again.
        The tests that decide which moves are worth trying only grow with the cards the stock offers, and A's
        reach contains B's, so A keeps every move of B; a restriction (the need of a preparing move) only
        removes moves, so a full A dominates a restricted B. Hence a search may drop B when A is in its
        table: every state the table holds is expanded in the end, and a shortest win from B would give one
        as short from A. Nothing here depends on the decks, the columns or the rank order: only the talon.
        """
        in_waste = state[3]
        return full[:-2], in_waste, in_waste % self.draw == 0 or in_waste == len(state[2])

    # --- foundations --------------------------------------------------------------------------------
    def wanted(self, heights: bytes) -> set[int]:
        """The cards the foundations take next (a shared set: read it, never change it)."""
        found = self._wanted.get(heights)
        if found is None:
            card_at, d = self.tables.card_at, self.decks
            found = {card_at[i // d][h] for i, h in enumerate(heights)}
            if len(self._wanted) > 100_000:
                self._wanted.clear()
            self._wanted[heights] = found
        return found

    def raised(self, heights: bytes, c: int) -> bytes:
        """The heights after ``c`` goes up."""
        t = self.tables
        suit, h, d = t.suit[c], t.step[c], self.decks
        if d == 1:
            return heights[:suit] + BYTE[h + 1] + heights[suit + 1:]
        group = sorted(heights[suit * d:(suit + 1) * d])
        group[group.index(h)] = h + 1
        return heights[:suit * d] + bytes(sorted(group)) + heights[(suit + 1) * d:]

    def lowered(self, heights: bytes, c: int) -> bytes:
        """The heights after ``c`` comes down from a foundation."""
        t = self.tables
        suit, h, d = t.suit[c], t.step[c], self.decks
        group = list(heights[suit * d:(suit + 1) * d])
        group[group.index(h + 1)] = h
        return heights[:suit * d] + bytes(sorted(group)) + heights[(suit + 1) * d:]

    def tops(self, heights: bytes) -> set[int]:
        """The cards on top of the foundations (a shared set: read it, never change it)."""
        found = self._tops.get(heights)
        if found is None:
            card_at, d = self.tables.card_at, self.decks
            found = {card_at[g // d][h - 1] for g, h in enumerate(heights) if h}
            if len(self._tops) > 100_000:
                self._tops.clear()
            self._tops[heights] = found
        return found

    def pile_tops(self, heights: bytes) -> tuple[int, ...]:
        """The top card of each non-empty foundation pile, in pile order, a pile of two decks left out when
        the next pile of its suit has the same height (taking down either is the same move); cached."""
        found = self._pile_tops.get(heights)
        if found is None:
            card_at, d = self.tables.card_at, self.decks
            found = tuple(card_at[g // d][h - 1] for g, h in enumerate(heights)
                          if h and not (d > 1 and g % d + 1 < d and heights[g + 1] == h))
            if len(self._pile_tops) > 100_000:
                self._pile_tops.clear()
            self._pile_tops[heights] = found
        return found

    def is_won(self, state) -> bool:
        return sum(state[1]) == self.tables.variant.deck_size

    # --- from a real position ----------------------------------------------------------------------
    def from_position(self, p: Position):
        """The state of a real position and the columns whose face-down top it turns."""
        columns, flips = [], []
        for j, (col, h) in enumerate(zip(p.columns, p.hidden)):
            if col and h >= len(col):
                h = len(col) - 1
                flips.append(j)
            columns.append(bytes((h,)) + bytes(col))
        by_suit: list[list[int]] = [[] for _ in range(4)]
        for pile in p.foundations:
            if pile:
                by_suit[Card(pile[0]).suit].append(len(pile))
        heights = b"".join(bytes(sorted(hs + [0] * (self.decks - len(hs)))) for hs in by_suit)
        talon = bytes(p.waste) + bytes(reversed(p.stock))
        in_waste = 0 if self.tables.free_stock else len(p.waste)
        return (tuple(columns), heights, talon, in_waste, p.recycles), flips


def without_top(col: bytes, k: int) -> bytes:
    """The column without its top ``k`` cards, its new top turned face up."""
    rest = col[:-k]
    n = len(rest) - 1
    if n and rest[0] == n:
        return bytes((n - 1,)) + rest[1:]
    return rest
