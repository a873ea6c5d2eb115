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
WASTE_AT = [b"\xfe" + i.to_bytes(2, "big") for i in range(256)]  # a key's waste position (a talon: <= 208 cards)


class StateCodec:
    """Keys of states and the foundation operations, for one variant."""

    def __init__(self, tables: RuleTables, columns_as_a_set: bool = True, waste_dominance: bool = True,
                 loose_columns: bool = True) -> None:
        self.tables = tables
        self.decks = tables.decks
        self.draw = tables.variant.draw
        self.passes = tables.passes
        self.waste_dominance = waste_dominance
        self._wanted: dict[bytes, set[int]] = tables.wanted_cache  # by heights, which recur across many states
        self._tops: dict[bytes, set[int]] = tables.tops_cache
        self._pile_tops: dict[bytes, tuple[int, ...]] = tables.pile_tops_cache
        # a key sees only each column's fixed part (``loose_columns``) where the variant's rules allow it
        self.loose = loose_columns and columns_as_a_set and tables.parents_interchangeable
        self.as_a_set = columns_as_a_set
        self._fixed = FixedParts(tables.parents)  # one per solve: its columns recur, other solves' seldom

    def columns_part(self, columns: tuple[bytes, ...]) -> bytes:
        """The columns' part of a key: with loose keys their fixed parts as a set (``loose_columns``), with
        ``columns_as_a_set`` the columns as a set (``sorted_columns``), else the columns in their real order."""
        if self.loose:
            return self.loose_columns(columns)
        if self.as_a_set:
            return sorted_columns(columns)
        return b"\xff".join(columns)

    def loose_columns(self, columns: tuple[bytes, ...]) -> bytes:
        """The columns' part of a key that ignores which of its possible parents each loose card sits on.

        Split each column into its *fixed part* (the face-down cards and the face-up cards up to the bottom of
        the build on top, ``fixed_part``) and its *loose cards* (the rest of that build). The key keeps the
        fixed parts, as a set; the loose cards are then the cards in no fixed part, on no foundation and not in
        the talon, so the key fixes which cards are loose but not which card each sits on.

        Claim: two states with the same key (the fixed parts, foundations and talon equal) are both won or both
        lost, under these rules (``RuleTables.parents_interchangeable``): one deck; any build may move; a card
        that may start an empty column may sit on no card; two cards that may sit on a same card may sit on
        the same cards and take the same cards (they form a *group*, like the two red sixes, whose *parents*
        are the two black sevens); no strict draw rule. Argument: only the group's cards sit on its parents,
        so two arrangements differ group by group, in which loose card of the group hangs on which parent,
        and any two such assignments are linked by steps of two kinds.
        (a) A loose card ``c`` moves from parent ``p`` to a parent ``q`` that holds no card. With the build
        above it, that is a legal move, and so is the move back: each state reaches the other.
        (b) Two loose cards ``c``, ``d`` on ``p``, ``q`` trade parents, each keeping the build above it. Follow
        a winning line of the first state in the second, move for move, on the same cards. The two states
        have the same tops, and every move either is legal in both and keeps them in this relation (a move of
        ``p`` or ``q`` carries ``c`` or ``d`` along), or is missing from both: no card can go on ``p`` or
        ``q`` (they hold ``c`` and ``d``), and ``c`` or ``d`` can leave only for a foundation (their parents
        are taken, and they may not start an empty column). When ``c`` (say) goes up, its parent in the
        first state is left bare while the other parent holds ``d``; the second state moves ``d`` with its
        build onto that bare parent, and the two states are equal. So the second state wins too, and by
        symmetry the converse holds.
        Nothing in the argument names a rank or suit. Klondike meets these rules, with any draw, passes or
        cards back from the foundations; the Italian game and SoliJoy, where any card may start an empty
        column, do not.
        The search's other keys keep more: a restricted state (``search.Search.child_key``) keeps its columns,
        since which cards are tops matters to its need.
        """
        return b"\xff".join(sorted(map(self._fixed.__getitem__, columns)))  # (``FixedParts`` fills itself)

    def key(self, state) -> bytes:
        """The state's transposition-table key.

        Column order: no rule names a column's place, so permuting the columns maps every line of play to an
        equally good one; the key sorts them (``columns_as_a_set``). Stock: with a free stock (draw 1,
        unlimited passes) every position of the waste can reach every other by drawing and recycling alone,
        so the key omits it. With draw > 1 and unlimited passes, the positions that a full cycle of draws and
        recycles passes through (a multiple of ``draw``, or the whole talon in the waste) are one state; other
        positions are kept. With limited passes the recycles used are kept too. With the strict draw rule
        every waste position is its own state (drawing is not always allowed).
        """
        columns, heights, talon, in_waste, recycles = state
        k = self.columns_part(columns) + b"\xfe" + heights + talon
        t = self.tables
        if t.free_stock:
            return k
        if self.passes is None:
            if not t.strict_draw and (in_waste % self.draw == 0 or in_waste == len(talon)):
                in_waste = 0  # drawing and recycling cycle through these positions: one state
            return k + WASTE_AT[in_waste]
        return k + WASTE_AT[in_waste] + recycles.to_bytes(8, "big")

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
            found = tuple([card_at[g // d][h - 1] for g, h in enumerate(heights)
                           if h and not (d > 1 and g % d + 1 < d and heights[g + 1] == h)])
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


def sorted_columns(columns: tuple[bytes, ...]) -> bytes:
    """The columns' part of a key with columns as a set (``StateCodec.columns_part``)."""
    return b"\xff".join(sorted(columns))


class FixedParts(dict):
    """Column -> its fixed part (``fixed_part``), worked out the first time a column is looked up."""

    def __init__(self, parents) -> None:
        super().__init__()
        self.parents = parents

    def __missing__(self, col: bytes) -> bytes:
        if len(self) > 200_000:
            self.clear()
        part = self[col] = fixed_part(col, self.parents)
        return part


def fixed_part(col: bytes, parents) -> bytes:
    """The column up to the bottom card of the build on its top (a column of face-down cards and one face-up
    card, or an empty column, is all fixed part).

    >>> fixed_part(bytes((2, 10, 11, 12)), [frozenset()] * 64)  # no card may sit on another: 12 is the bottom
    b'\\x02\\n\\x0b\\x0c'
    >>> fixed_part(bytes((1, 10, 11, 12)), [frozenset({11}) if c == 12 else frozenset() for c in range(64)])
    b'\\x01\\n\\x0b'
    """
    p = len(col) - 1
    while p > col[0] + 1 and col[p - 1] in parents[col[p]]:
        p -= 1
    return col[:p + 1]


def without_top(col: bytes, k: int) -> bytes:
    """The column without its top ``k`` cards, its new top turned face up."""
    rest = col[:-k]
    n = len(rest) - 1
    if n and rest[0] == n:
        return bytes((n - 1,)) + rest[1:]
    return rest
