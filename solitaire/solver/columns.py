"""What a column offers, computed once per distinct column (the same columns recur across many states)."""
from __future__ import annotations

from .encoding import without_top

# Kinds of moves, in the order the search tries them (lowest first).
TO_FOUNDATION, REVEAL, TALON_TO_FOUNDATION, TALON_TO_COLUMN, EMPTYING, PARTIAL, FROM_FOUNDATION = range(7)


class Build:
    """A face-up run that can be picked up: ``count`` cards from ``bottom`` to the column's top."""

    __slots__ = ("bottom", "count", "kind", "below", "rest", "cards")

    def __init__(self, bottom: int, count: int, kind: int, below: int, rest: bytes, cards: bytes) -> None:
        self.bottom = bottom
        self.count = count
        self.kind = kind  # REVEAL (uncovers a face-down card), EMPTYING (the whole column) or PARTIAL (a face-up card stays)
        self.below = below  # the face-up card left on top by a PARTIAL build (0 otherwise)
        self.rest = rest  # the column once the build has left
        self.cards = cards  # the build itself


class ColumnInfo:
    """What a non-empty column offers."""

    __slots__ = ("top", "kids", "without_top", "builds", "movable", "fill")

    def __init__(self, top: int, kids: tuple[int, ...], without_top: bytes, builds: tuple[Build, ...],
                 movable: tuple[int, ...], fill: int) -> None:
        self.top = top
        self.kids = kids  # cards that may go on the top card
        self.without_top = without_top  # the column after its top card leaves
        self.builds = builds  # longest last
        self.movable = movable  # the bottom cards of the builds
        self.fill = fill  # how many builds could usefully start an empty column (not a whole column)


def column_info(col: bytes, tables, cache: dict) -> ColumnInfo | None:
    """The (cached) analysis of a column; None for an empty one."""
    info = cache.get(col)
    if info is None and len(col) > 1:
        parents, empty_ok = tables.parents, tables.empty_ok
        n, hidden = len(col) - 1, col[0]
        builds = []
        movable = []
        fill = 0
        p = n
        while True:
            bottom = col[p]
            if p == hidden + 1:
                kind, below = (REVEAL, 0) if hidden else (EMPTYING, 0)
            else:
                kind, below = PARTIAL, col[p - 1]
            builds.append(Build(bottom, n - p + 1, kind, below, without_top(col, n - p + 1), col[p:]))
            movable.append(bottom)
            if empty_ok[bottom] and kind != EMPTYING:
                fill += 1
            if p == hidden + 1 or col[p - 1] not in parents[bottom]:
                break
            p -= 1
        info = ColumnInfo(col[n], tables.children[col[n]], without_top(col, 1), tuple(builds), tuple(movable), fill)
        if len(cache) > 100_000:
            cache.clear()
        cache[col] = info
    return info
