"""Stock macro-moves: which talon cards drawing and recycling can bring to the waste top, and how.

Drawing and recycling are not moves of the search. They change nothing but which talon card is on top of
the waste, so any line of play can be cut into "draw/recycle some times, then play the waste top" steps
(a line that ends with draws is not a win: the talon is not empty). The search plays each such step as one
move, straight from the talon card to its target, and the replay expands it into the real draws and
recycles (``talon_reach`` gives both the reachable cards and the operations). This holds for any number of
decks and any rank order; with limited passes the recycles used are part of the state, and with the strict
draw rule (draw only when no move that makes progress is legal) a draw is taken only from such a position,
which ``StockView.reachable`` checks at each draw.
"""
from __future__ import annotations

from ..moves import DRAW, RECYCLE


def talon_reach(n: int, in_waste: int, recycles: int, draw: int, passes: int | None):
    """Which of ``n`` talon cards draws and recycles bring to the waste top, and how.

    Returns ``({index: (in_waste, recycles) when first on top}, {index: [operations]})``, the operations being
    "draw" and "recycle", in the order the cards first come up. It always ends: a full pass after a
    recycle turns up every card a later pass could (the talon does not change while drawing).

    >>> talon_reach(7, 0, 0, 3, None)[1][5]
    ['draw', 'draw']
    """
    first: dict[int, tuple[int, int]] = {}
    ops: dict[int, list[str]] = {}
    done: list[str] = []
    if in_waste:
        first[in_waste - 1] = (in_waste, recycles)
        ops[in_waste - 1] = []
    seen = {(in_waste, 0 if passes is None else recycles)}
    recycled = 0
    while True:
        if in_waste < n:
            in_waste = min(in_waste + draw, n)
            done.append(DRAW)
        elif n and recycled < 2 and (passes is None or recycles < passes - 1):
            in_waste, recycles, recycled = 0, recycles + 1, recycled + 1
            done.append(RECYCLE)
        else:
            break  # no more draws, or a second recycle, which would only repeat the pass after the first
        state = (in_waste, 0 if passes is None else recycles)
        if state in seen:
            break  # unlimited passes: back where we were
        seen.add(state)
        if in_waste and in_waste - 1 not in first:
            first[in_waste - 1] = (in_waste, recycles)
            ops[in_waste - 1] = list(done)
    return first, ops


class StockView:
    """The talon cards a state can play, cached by talon (and waste position) since talons recur."""

    def __init__(self, tables) -> None:
        self.tables = tables
        self.draw = tables.variant.draw
        self.passes = tables.passes
        self.cache: dict = {}

    def reachable(self, talon: bytes, in_waste: int, recycles: int, playable=None) -> tuple[dict[int, list[int]], int]:
        """(``{card: talon indices}`` of the talon cards that can be brought to the waste top, how many of them
        could start an empty column).

        With the strict draw rule, ``playable`` is None when the position has a move that makes progress (then
        no draw is legal and only the waste top is reachable), else a test "could this card be played from the
        waste top?": the draws go on until the first such card, which is then the only one reachable (the
        columns do not change while drawing, so nothing else becomes playable).
        """
        t = self.tables
        if t.strict_draw:
            return self._strict(talon, in_waste, recycles, playable)
        if t.free_stock:
            found = self.cache.get(talon)
            if found is None:
                if len(self.cache) > 50_000:
                    self.cache.clear()
                found = self.cache[talon] = self._by_card(talon, range(len(talon)))
            return found
        return self.reach(talon, in_waste, recycles)[1]

    def reach(self, talon: bytes, in_waste: int, recycles: int):
        """(``talon_reach``'s first positions, the reachable cards), cached."""
        k = (talon, in_waste, recycles)
        found = self.cache.get(k)
        if found is None:
            first = talon_reach(len(talon), in_waste, recycles, self.draw, self.passes)[0]
            found = first, self._by_card(talon, first)
            if len(self.cache) > 50_000:
                self.cache.clear()
            self.cache[k] = found
        return found

    def _strict(self, talon: bytes, in_waste: int, recycles: int, playable):
        if playable is None:  # a move that makes progress exists: no draw is allowed
            return self._by_card(talon, [in_waste - 1] if in_waste else [])
        for i in self.reach(talon, in_waste, recycles)[0]:
            if i != in_waste - 1 and playable(talon[i]):
                return self._by_card(talon, [i])
        return {}, 0

    def _by_card(self, talon: bytes, indices) -> tuple[dict[int, list[int]], int]:
        cards: dict[int, list[int]] = {}
        for i in indices:
            cards.setdefault(talon[i], []).append(i)
        empty_ok = self.tables.empty_ok
        fill = 0
        for c in cards:
            if empty_ok[c]:
                fill += 1
        return cards, fill

    def recycles_after(self, talon: bytes, in_waste: int, recycles: int, i: int) -> int:
        """Recycles used once talon card ``i`` is first on top of the waste."""
        return self.reach(talon, in_waste, recycles)[0][i][1]
