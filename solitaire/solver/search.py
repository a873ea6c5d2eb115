"""The search: depth-first and best-first, over settled states with a transposition table.

Depth-first finds most easy wins in a few dozen states (and, restarted with a shuffled move order, most of
the hard ones: see ``restarts``); best-first (on "how far from a win" plus the cost of the moves that only
prepare) does not get lost in one bad branch. Both stop exactly at the node budget and
at the deadline, which they check before expanding each state. "unwinnable" means a search ran out of
states: every pruning rule used is proved to keep some win if there is one.
"""
from __future__ import annotations

import time
from heapq import heappop, heappush
from operator import itemgetter

from .columns import PARTIAL, TO_FOUNDATION
from .encoding import sorted_columns, without_top

WEIGHTS = {"remaining": 1, "hidden": 2, "talon": 1, "cost": [0, 0, 4, 4, 4, 4, 4]}
# With draw > 1 stock plays are a larger share of every winning line, and a lighter cost for the moves that
# neither uncover a card nor play a column card up does better (benchmarks/RESULTS.md, "The solver's search").
DRAW_MANY_COST = [0, 0, 2, 2, 2, 2, 2]


NO_MOVES = ()  # the safe moves after a child that needs none (shared: the search keeps one per state)


class OutOfBudget(Exception):
    """The node budget or the deadline was reached."""


class Budget:
    """Counts expanded states; refuses the next one past ``max_nodes`` or the deadline (perf_counter)."""

    def __init__(self, max_nodes: int | None, deadline: float | None, nodes: int = 0) -> None:
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = nodes

    def spend(self) -> None:
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise OutOfBudget
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise OutOfBudget
        self.nodes += 1


_first = itemgetter(0)  # a child's priority


class Search:
    """Depth-first and best-first search from settled states (safe moves played, see ``pruning``)."""

    def __init__(self, codec, generator, safe, budget: Budget, jitter=None) -> None:
        self.codec = codec
        self.jitter = jitter  # a seeded random.Random: shuffle the order of moves of one kind (``dfs``)
        self.found = False
        self.generator = generator
        self.safe = safe
        self.talon_end = safe.talon_end  # a move that changes the talon may make its last card safe (``settled_child``)
        self.budget = budget
        self.seen: set[bytes] = set()
        self.path: list[tuple] = []  # (internal move, the safe moves that followed it) along the current line
        self.deck_size = codec.tables.variant.deck_size
        self.draw, self.loose = codec.draw, codec.loose
        self.remaining_weight, self.hidden_weight, self.talon_weight = \
            WEIGHTS["remaining"], WEIGHTS["hidden"], WEIGHTS["talon"]  # (``score``)
        self.move_cost = WEIGHTS["cost"] if codec.tables.variant.draw == 1 else DRAW_MANY_COST
        # (waste position, key) of the states off the draw cycle in the search, by the rest of their key (``dominated``)
        self.off_cycle: dict | None = {} if codec.tables.waste_dominance and codec.waste_dominance else None
        self.lost: set[bytes] | frozenset = frozenset()  # keys proved lost by earlier runs (``restarts``)
        self.frontier: tuple[list, dict] | None = None  # best-first's heap and parents, kept between calls
        self.tick = 0  # breaks ties in the heap: the newest state first

    def settled_child(self, child, column: int, wanted: set[int]):
        """(the child with its safe moves played, those moves); cheap when only one column's top changed."""
        if column >= 0:
            col = child[0][column]
            if len(col) == 1 or col[-1] not in wanted:
                talon = child[2]
                if not (self.talon_end and talon and talon[-1] in wanted
                        and self.safe.end_is_safe(child[1], talon, child[3])):
                    return child, NO_MOVES
        autos: list = []
        return self.safe.settle(child[0], child[1], child[2], child[3], child[4], autos), autos

    def child_key(self, child, then: bytes, autos: list, seen) -> tuple[bytes | None, bytes, bytes | None]:
        """(the child's key, or None if it is already seen, proved lost or dominated; the need it keeps; the key
        of the table entry that makes it redundant, if not proved lost). A restricted child (one that must use
        the preparing move just played) gets its own key; if a safe move followed, the need is dropped."""
        k = self.codec.key(child)
        lost = self.lost
        if k in lost:
            return None, b"", None
        if k in seen:
            return None, b"", k
        if then and not autos:
            full = k
            k += (b"\xfd" + sorted_columns(child[0]) + b"\xfd" if self.loose else b"\xfd") + then
            # (a loose key keeps the columns here: the need names a top) its full version is searched again
            if k in lost:
                return None, b"", None
            if k in seen:
                return None, b"", k
            by = None if self.off_cycle is None else self.dominated(k, child, full, True)
            return (None, b"", by) if by is not None else (k, then, None)
        by = None if self.off_cycle is None else self.dominated(k, child, k, False)
        return (None, b"", by) if by is not None else (k, b"", None)

    def dominated(self, k: bytes, child, full: bytes, restricted: bool) -> bytes | None:
        """The key of a state in the search that dominates this one (``StateCodec.waste_place``), or None. If
        there is none, and the child's waste is off the draw cycle, remember it (it is about to enter the
        search). ``full`` is the child's unrestricted key (``k`` itself when the child is not restricted)."""
        base, in_waste, on_cycle = self.codec.waste_place(full, child)
        off_cycle, draw = self.off_cycle, self.draw
        prefix = base + k[len(full):] if restricted else base  # the need kept
        for p in (prefix, base) if restricted else (base,):
            for q, by in off_cycle.get(p, ()):
                if on_cycle or (q < in_waste and (in_waste - q) % draw == 0):
                    return by
        if not on_cycle:
            found = off_cycle.get(prefix)
            if found is None:
                off_cycle[prefix] = [(in_waste, k)]
            else:
                found.append((in_waste, k))
        return None

    def children(self, state, wanted: set[int], restriction: bytes) -> list:
        """The generator's children of a settled state; with loose keys, those of its class.

        With loose keys (``encoding.StateCodec.loose_columns``) a move of a build ``B`` off a face-up card
        ``P`` onto another parent ``Q`` of ``B`` (a partial build move), with no safe move after it, leaves
        the key as it was: the child is in the state's own class, and would be skipped as seen. It is a
        preparing move (``generation``), whose uses are ``P`` going up and a card going onto ``P``. The
        second kind is never needed: ``P`` and ``Q`` share their children (``RuleTables._groups``) and ``Q``
        is free in the state, so the same card can go onto ``Q`` straight away, and the two children differ
        only in which of ``P``, ``Q`` holds which build: the same loose key, and, when the move leaves a
        need, a first use that is the same move in both, after which they have the same loose key again.
        So only the first kind is gathered here: when ``P`` can go up, the child "``B`` onto ``Q``, then
        ``P`` up" is offered with the move ``("via", (B's move,), ("tf", column))``, and the class move is
        dropped otherwise. Claim: if the class holds a winnable state, some child offered here is winnable.
        Argument: the state itself is winnable (same key, see ``loose_columns``), so it has a winning line
        of the generator's moves in which every preparing move comes right before one of its uses
        (``generation``); its first move that leaves the class is a child of the state, or follows class
        moves that end by freeing a card that goes up. One class move frees that card: the moves within a
        class keep the number of free parents of each group, so where a chain of them frees ``P``, the
        group of ``P`` has a free parent in the state too, and ``P``'s build may go there.
        """
        kids = self.generator.children(state, wanted, restriction)
        if not self.loose:
            return kids
        out: list = []
        columns, parents = state[0], self.codec.tables.parents
        for kid in kids:
            move = kid[1]
            if move[0] == "tt" and kid[0] == PARTIAL and within_class(columns, move, parents):
                child, autos = self.settled_child(kid[2], kid[3], wanted)
                if not autos:  # a state of the class
                    s = move[1]
                    freed = child[0][s]
                    if freed[-1] in wanted:
                        up = (child[0][:s] + (without_top(freed, 1),) + child[0][s + 1:],
                              self.codec.raised(child[1], freed[-1])) + child[2:]
                        out.append((TO_FOUNDATION, ("via", (move,), ("tf", s)), up, -1, b""))
                    continue
            out.append(kid)
        return out

    def ordered_children(self, state, restriction: bytes) -> tuple[set[int], list]:
        """(the foundations' wanted cards, the children in the order a depth-first run tries them): cheapest
        first, or with ``jitter`` shuffled among children of the same cost."""
        wanted = self.codec.wanted(state[1])
        kids = self.children(state, wanted, restriction)
        if self.jitter is None:
            kids.sort(key=_first)
        else:
            _shuffle_by_cost(kids, self.jitter)
        return wanted, kids

    def dfs(self, state, restriction: bytes = b"") -> bool:
        """Depth-first search from a settled state already in ``seen``; True when a win is found (its moves
        are then in ``path``)."""
        self.budget.spend()
        wanted, kids = self.ordered_children(state, restriction)
        for _, move, child, column, then in kids:
            child, autos = self.settled_child(child, column, wanted)
            k, then, _ = self.child_key(child, then, autos, self.seen)
            if k is None:
                continue
            self.seen.add(k)
            self.path.append((move, autos))
            if sum(child[1]) == self.deck_size or self.dfs(child, then):
                return True
            self.path.pop()
        return False

    def best_first(self, root) -> list | None:
        """Best-first search on the score plus the cost of the moves so far that neither uncover a card nor
        play a column card up; the internal moves of a win as [(move, safe moves after it)], or None when the
        search space is exhausted. After OutOfBudget, a call with a new ``budget`` goes on where it stopped
        (skipping states that depth-first runs proved lost meanwhile, see ``restarts``)."""
        if self.frontier is None:
            root_key = self.codec.key(root)
            self.frontier = [(self.score(root), 0, 0, root_key, root, b"")], {root_key: None}
        heap, parent = self.frontier
        cost, lost, deck_size, tick = self.move_cost, self.lost, self.deck_size, self.tick
        try:
            while heap:
                if heap[0][3] in lost:
                    heappop(heap)
                    continue
                self.budget.spend()
                _, g0, _, k0, state, restriction = heappop(heap)
                wanted = self.codec.wanted(state[1])
                for priority, move, child, column, then in self.children(state, wanted, restriction):
                    child, autos = self.settled_child(child, column, wanted)
                    k, then, _ = self.child_key(child, then, autos, parent)
                    if k is None:
                        continue
                    parent[k] = (k0, move, autos)
                    up = sum(child[1])
                    if up == deck_size:
                        return _line_to(k, parent)
                    tick -= 1
                    g = g0 + cost[int(priority)]
                    heappush(heap, (self.score(child, up) + g, g, tick, k, child, then))
        finally:
            self.tick = tick  # the next call goes on with the same tie-breaks
        return None

    def score(self, state, up: int | None = None) -> int:
        """How far a state looks from a win (lower is better): cards not up, face-down cards, talon size (``up``:
        the cards on the foundations, when known)."""
        hidden = 0
        for col in state[0]:
            hidden += col[0]
        if up is None:
            up = sum(state[1])
        return self.remaining_weight * (self.deck_size - up) + self.hidden_weight * hidden \
            + self.talon_weight * len(state[2])


def within_class(columns: tuple[bytes, ...], move: tuple, parents) -> bool:
    """Does build move ``("tt", s, d, k)`` keep every column's fixed part (``encoding.fixed_part``): does its
    bottom card leave a parent, for a column that is not empty?"""
    _, s, d, k = move
    col = columns[s]
    return len(col) - k > col[0] + 1 and col[-k - 1] in parents[col[-k]] and len(columns[d]) > 1


def _shuffle_by_cost(kids: list, jitter) -> None:
    """Sort children by cost, shuffled among children of the same cost by the seeded ``jitter``."""
    draw = jitter.random
    kids.sort(key=lambda kid: kid[0] + 0.999 * draw())


def _line_to(k: bytes, parent: dict) -> list:
    line = []
    while parent[k] is not None:
        k, move, autos = parent[k]
        line.append((move, autos))
    return line[::-1]
