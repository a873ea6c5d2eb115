"""What a column offers, computed once per distinct column (the same columns recur across many states)."""
from __future__ import annotations

from typing import NamedTuple

from .encoding import without_top

# Kinds of moves, in the order the search tries them (lowest first).
TO_FOUNDATION, REVEAL, TALON_TO_FOUNDATION, TALON_TO_COLUMN, EMPTYING, PARTIAL, FROM_FOUNDATION = range(7)


class Build(NamedTuple):
    """A face-up run that can be picked up: ``count`` cards from ``bottom`` to the column's top."""

    bottom: int
    count: int
    kind: int  # REVEAL (uncovers a face-down card), EMPTYING (the whole column) or PARTIAL (a face-up card stays)
    below: int  # the face-up card left on top by a PARTIAL build (0 otherwise)
    rest: bytes  # the column once the build has left
    cards: bytes  # the build itself


class ColumnInfo(NamedTuple):
    top: int
    kids: tuple[int, ...]  # cards that may go on the top card
    without_top: bytes  # the column after its top card leaves
    builds: tuple[Build, ...]  # longest last
    movable: tuple[int, ...]  # the bottom cards of the builds
    fill: int  # how many builds could usefully start an empty column (not a whole column)


def column_info(col: bytes, tables, cache: dict) -> ColumnInfo | None:
    """The (cached) analysis of a column; None for an empty one."""
    info = cache.get(col)
    if info is None and len(col) > 1:
        parents, empty_ok = tables.parents, tables.empty_ok
        n, hidden = len(col) - 1, col[0]
        builds = []
        p = n
        while True:
            bottom = col[p]
            if p == hidden + 1:
                kind, below = (REVEAL, 0) if hidden else (EMPTYING, 0)
            else:
                kind, below = PARTIAL, col[p - 1]
            builds.append(Build(bottom, n - p + 1, kind, below, without_top(col, n - p + 1), col[p:]))
            if p == hidden + 1 or col[p - 1] not in parents[bottom]:
                break
            p -= 1
        movable = tuple(b.bottom for b in builds)
        fill = sum(1 for b in builds if empty_ok[b.bottom] and b.kind != EMPTYING)
        info = ColumnInfo(col[n], tables.children[col[n]], without_top(col, 1), tuple(builds), movable, fill)
        if len(cache) > 100_000:
            cache.clear()
        cache[col] = info
    return info
