"""Pruning: the rules that make the search small, each with the argument that it never loses a win.

Notation: a *line* is a sequence of legal moves from a state; it *wins* if it ends with every card up. The
*descendants* of a card are the cards that may sit on it in a column, the cards that may sit on those, and
so on (from the variant's tables, so the arguments hold for any build rule and rank order, including the
Italian one where columns grow in foundation order). The key fact used throughout: whatever may sit on a
descendant of ``c`` is itself a descendant of ``c``, so the descendants of ``c`` in a column always form a
top part of it.
"""
from __future__ import annotations

from .encoding import without_top


class SafeMoves:
    """Safe foundation moves: a card that no winning line needs in a column goes up at once.

    **Without cards back from the foundations.** Let ``D`` be ``c`` and its descendants. ``c`` is safe when it
    is playable and (a) every copy of every descendant still out could go up now (each pile of its suit has
    reached its predecessor), (b) if the waste may not play to a foundation, no descendant is in the stock or
    waste, and (c) with two decks, both copies of ``c``'s predecessor are up. Proof: let ``L`` win from ``S``;
    we build ``L'`` from ``S`` + "c up". Keep a set ``V`` of ``D`` cards that ``L'`` has up while ``L`` has
    them in a column, closed upwards in each column (everything above a ``V`` card is in ``V``), starting
    with ``V = {c}``; ``L'``'s position is ``L``'s with ``V`` moved up. Follow ``L``: a move that takes cards
    onto a ``V`` card moves descendants, which ``L'`` plays up instead (from the top down; by (a) and since
    foundations never shrink they can go, by (b) also from the waste) and adds to ``V``; a move of a ``V``
    card is skipped; any other move is played as is (the ``V`` part of a moved build stays behind, already
    up), and its target is the same top since nothing outside ``D`` sits on a ``D`` card. Foundation moves
    stay legal: a pile that ``L'`` has higher than ``L`` holds only ``V`` cards above ``L``'s height, and the
    only non-``D`` card that could be blocked by that is the other copy of ``c``, which (c) rules out (with
    both predecessors up there is a free pile for it). ``L'`` ends with every card up. Two decks are covered
    by counting copies (a valid set of piles of one suit is one where no rank has more copies up than the
    rank below it); the Italian order needs nothing special, but its columns grow the same way as its
    foundations, so a card's descendants lie *above* it on the foundations and (a) seldom holds.

    **With cards back from the foundations.** Let ``C`` be the smallest set holding the descendants and the
    predecessors of ``c``, closed under both. ``c`` is safe when every copy of every card of ``C`` is up (then
    ``c`` is playable). Proof, in two steps. (1) Some winning line never moves a ``C`` card: nothing outside
    ``C`` can sit on a ``C`` card, so ``C`` cards in a column are a top part of it; drop every move of a ``C``
    card from ``L`` (and the ``C`` part of any moved build). The rest stays legal: targets are the same tops,
    and since ``C`` holds whole bottoms of suits, a foundation move of a non-``C`` card meets the same pile
    height. (2) ``D = C`` plus this copy of ``c`` has the same two properties, and once ``c`` is up every
    ``D`` card is up; the same dropping, applied to the line of step (1) played from ``S`` + "c up", wins.
    With two decks, count copies as above: the tracked copy of ``c`` is the one the other line moves last.
    This is stricter than the first rule, and proved without the waste rule or a twin condition.

    **The end of the talon** (``safe_talon_end``; draw ``d`` > 1, unlimited passes, the waste may play to a
    foundation). Both proofs above follow a winning line ``L`` from ``S`` with a line ``L'`` from ``S`` + "c up"
    that drops the moves of ``c`` and keeps every other move legal with the same effect. For a card in a column
    that is all they need. A card in the talon is different: the talon's order decides which cards drawing turns
    up, and taking a card out of its middle shifts every later draw (after the next recycle, other cards come
    up). Its *last* card does not: let the talon ``T`` hold ``n`` cards, ``c`` last, ``T'`` = ``T`` without
    ``c``, and let ``L'`` keep its waste at ``g(p) = min(p, n - 1)`` when ``L`` has ``p`` cards in the waste
    (both "the whole talon" at ``p = n``). Then the waste tops are the same card whenever ``p < n``; a draw
    takes ``p`` to ``min(p + d, n)`` and ``g(p)`` to ``min(g(p) + d, n - 1) = g(min(p + d, n))`` (from
    ``p = n - 1``, ``L'`` has nothing to draw and stays put); a recycle (``p = n``) takes both to 0; a play of
    the waste top at ``p < n`` takes the same card out of both talons, leaves ``c`` last and both at ``p - 1``;
    and at ``p = n`` the waste top of ``L`` is ``c``, whose play ``L'`` drops, after which the two talons are
    equal and at the same place. So ``L'`` is legal, and wins. The search's move ("draw to the end, ``c`` up")
    reaches ``T'`` at ``n - 1`` cards in the waste, and ``S`` + "c up" is at ``g(p)``: the same state (each
    reaches the other by draws and recycles) when ``p`` is on the draw cycle, a multiple of ``d`` or ``n``
    (``encoding.StateCodec.key``). Hence the rule: with the waste on the draw cycle, the last talon card goes up
    as soon as it is safe (by the rule above for the variant), and the search never tries anything else first;
    the loop repeats for the card that is then last. Nothing here depends on the decks or the rank order. This is
    the "pure deck" case of lonelybot's deck dominance (its ``docs/method.md``, section 5.3). Off the cycle the
    rule would be wrong: "c up" keeps the waste where it is, but the only real way to play ``c`` draws to the end
    and leaves the waste on the cycle, which may have lost the cards that the off-cycle position still reaches
    before its next recycle. A card in the middle of the talon cannot go up this way either: once it is gone,
    every later pass turns up other cards. (Nor is a card in the talon dominated by the same card loose on a
    column: it blocks its parent there, and the talon it leaves behind is shifted.)
    It seldom fires in a proof of unwinnability: the last card is safe only once most of the cards below it are
    up. What it saves: ``benchmarks/RESULTS.md`` ("The solver's pruning ideas").
    """

    def __init__(self, tables, codec, enabled: bool = True, talon_end: bool = True) -> None:
        self.tables = tables
        self.codec = codec
        self.enabled = enabled
        self.talon_end = enabled and talon_end and tables.safe_talon_end  # (``settle``: the end of the talon)

    def is_safe(self, c: int, heights_after: bytes, talon: bytes) -> bool:
        """Is ``c`` (just put up, giving ``heights_after``) safe by the rule above?"""
        need = self.tables.threshold[c]
        lows = heights_after[::self.tables.decks]  # the lowest pile of each suit
        if lows[0] < need[0] or lows[1] < need[1] or lows[2] < need[2] or lows[3] < need[3]:
            return False
        watch = self.tables.stock_watch[c]
        if watch and talon:
            step, suit = self.tables.step, self.tables.suit
            for d in watch:
                if lows[suit[d]] <= step[d] and d in talon:
                    return False
        return True

    def settle(self, columns, heights, talon, in_waste, recycles, autos: list):
        """Play every safe foundation move (from the columns, and from the waste with draw 1); the internal
        moves played are appended to ``autos``."""
        if not self.enabled:
            return columns, heights, talon, in_waste, recycles
        wanted = self.codec.wanted(heights)
        changed = True
        while changed:
            changed = False
            for j, col in enumerate(columns):
                if len(col) > 1 and col[-1] in wanted:
                    c = col[-1]
                    raised = self.codec.raised(heights, c)
                    if self.is_safe(c, raised, talon):
                        heights = raised
                        columns = columns[:j] + (without_top(col, 1),) + columns[j + 1:]
                        autos.append(("tf", j))
                        wanted = self.codec.wanted(heights)
                        changed = True
            if talon and self.tables.safe_from_stock:
                played = self._settle_talon(heights, talon, in_waste, wanted)
                if played:
                    i, heights = played
                    autos.append(("wf", i))
                    talon = talon[:i] + talon[i + 1:]
                    if not self.tables.free_stock:
                        in_waste = i
                    wanted = self.codec.wanted(heights)
                    changed = True
            while talon and self.talon_end and talon[-1] in wanted and self.end_is_safe(heights, talon, in_waste):
                autos.append(("wf", len(talon) - 1))
                heights = self.codec.raised(heights, talon[-1])
                talon = talon[:-1]
                in_waste = len(talon)  # where the replay's draws to the end and the play leave the waste
                wanted = self.codec.wanted(heights)
                changed = True
        return columns, heights, talon, in_waste, recycles

    def end_is_safe(self, heights: bytes, talon: bytes, in_waste: int) -> bool:
        """May the last talon card (a card the foundations take) go up now: is the waste on the draw cycle and
        the card safe (the end of the talon, in the class docstring)?"""
        if in_waste % self.tables.variant.draw and in_waste != len(talon):
            return False
        c = talon[-1]
        return self.is_safe(c, self.codec.raised(heights, c), talon[:-1])

    def _settle_talon(self, heights: bytes, talon: bytes, in_waste: int, wanted: set[int]):
        """(talon index, new heights) of a safe card the waste can play now (with a free stock: any talon
        card, since draws bring it to the top without changing anything else; with draw 1 otherwise the
        waste top, whose leaving shifts no later draw), or None."""
        free = self.tables.free_stock
        for c in wanted:
            if c in talon:
                i = talon.index(c) if free else in_waste - 1
                if i < 0 or talon[i] != c:
                    continue
                raised = self.codec.raised(heights, c)
                if self.is_safe(c, raised, talon):
                    return i, raised
        return None


def walled_in(state, tables, back_from_foundations: bool) -> bool:
    """Is some card walled in for good? Then the position is lost (used on the start position).

    A face-down card, or the lowest face-up card of a column, can leave its place only to a foundation or as
    the bottom of a build onto another card (or into an empty column). It is walled in when it may not start
    an empty column, when every copy of every card it may sit on lies under it in its own column, or under a
    walled-in card, or (for good, without cards back from the foundations) on a foundation, and when some
    card its foundation needs first lies under it or is walled in itself: then no line ever moves it, and no
    line wins. Nothing here depends on the number of decks (copies are counted) or the rank order.
    """
    columns, heights = state[0], state[1]
    decks = tables.decks
    where: dict[int, list[tuple[int, int]]] = {}
    for j, col in enumerate(columns):
        for q in range(1, len(col)):
            where.setdefault(col[q], []).append((j, q))
    up: dict[int, int] = {}
    for suit in range(4):
        for h in heights[suit * decks:(suit + 1) * decks]:
            for step in range(h):
                c = tables.card_at[suit][step]
                up[c] = up.get(c, 0) + 1
    walled: set[tuple[int, int]] = set()

    def unreachable(z: int, j: int, q: int, itself: bool) -> bool:
        """Are all copies of z that are not up out of reach of the card at column j, place q?"""
        spots = where.get(z, [])
        if len(spots) + up.get(z, 0) < decks:
            return False  # a copy is in the stock or waste
        for jz, qz in spots:
            if not ((jz == j and qz < q) or (itself and (jz, qz) in walled)
                    or any((jz, r) in walled for r in range(qz + 1, len(columns[jz])))):
                return False
        return True

    def no_parent(y: int, j: int, q: int) -> bool:
        for p in tables.parents[y]:
            copies_up = up.get(p, 0)
            if not ((copies_up == decks and not back_from_foundations)
                    or (copies_up < decks and unreachable(p, j, q, False))):
                return False
        return True

    changed = True
    while changed:
        changed = False
        for j, col in enumerate(columns):
            for q in range(1, min(col[0] + 1, len(col) - 1) + 1):
                y = col[q]
                if (j, q) in walled or tables.empty_ok[y] or not no_parent(y, j, q):
                    continue
                suit = tables.suit[y]
                low = max(heights[suit * decks:(suit + 1) * decks])
                if any(unreachable(tables.card_at[suit][step], j, q, True) for step in range(low, tables.step[y])):
                    walled.add((j, q))
                    changed = True
    return bool(walled)
