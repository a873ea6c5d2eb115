"""Depth-first restarts that keep what they proved: states shown lost by one run are skipped by the next.

A depth-first run can spend its whole budget under one bad early move; a restart with a shuffled move order
leaves it (``Turns``). Restarting used to throw away everything the run had explored, so proofs of
unwinnability cost a whole fresh search each time. Here every run also *proves states lost* and hands them on.

**Which states a run has proved lost.** A depth-first run with a transposition table skips a child that is
already in its table, so when a state's search ends without a win, that only shows the state is lost *if*
every table entry it leaned on is lost too; an entry still being searched (an ancestor on the current line,
or a state that leaned on one) may yet win. Tarjan's strongly-connected-components bookkeeping sorts this
out: number the states in the order the run enters them; a state's *low* number is the smallest number of
an unfinished state it leaned on (through a skipped child, or through its children's own low numbers).
When a state finishes with no win and its low number is its own, nothing it leaned on is still open: every
state reachable from it with the search's moves was searched to the end, without a win, by this run. It and
the states entered after it that are still open (its component) are then lost, and are recorded as such.

Claim: a state recorded lost has no win. Argument: by induction on the order states are recorded. When a
component is recorded, every child of its states that the search tried was either searched in this same
component, or recorded lost before, or skipped because an entry that the child is no better than was
searched: a table entry with the same key, its full version for a restricted child, or a state with a
waste position that dominates it (``encoding.StateCodec.waste_place``); those entries are in the component
or recorded before. So every line of the search's moves from a state of the component stays inside states
that have no win, and since the move generation and safe moves keep a win whenever there is one (their
proofs are in ``generation`` and ``pruning``), the state has none. A restricted state (the need of a
preparing move in its key) is recorded under that key, and says only that no line starting with a use
wins, which is exactly what its parent relies on. Nothing here depends on the decks or the rank order.

The next run, and the best-first search after the probe, skip states recorded lost without expanding them,
so a proof costs roughly one search however often the probe restarts.
"""
from __future__ import annotations

import random
import time

from .search import Budget, OutOfBudget, Search

PROBE_NODES = 3000  # the first depth-first run stops here; each later slice is twice the one before
FIRST_BEST_FIRST = 3 * PROBE_NODES  # best-first's first slice for one deck (``_Solver.run``): many wins come early

FOUND_A_WIN = -1  # what ``prove`` returns when it found a win (a low number is never negative)


class ProvingSearch(Search):
    """A depth-first run that records in ``lost`` (shared by the runs of one solve) the states it proves lost."""

    def __init__(self, codec, generator, safe, budget, jitter, lost: set[bytes]) -> None:
        super().__init__(codec, generator, safe, budget, jitter)
        self.lost = lost
        self.number: dict[bytes, int] = {}  # the states this run entered, in order (its ``seen``)
        self.open: list[bytes] = []  # entered, finished or not, not yet recorded lost (Tarjan's stack)

    def run(self, root, root_key: bytes) -> bool:
        """Search from a settled root; True when a win is found (its moves are then in ``path``)."""
        self.found = self.prove(root, root_key, b"") == FOUND_A_WIN
        return self.found

    def prove(self, state, key: bytes, restriction: bytes) -> int:
        """Search from a settled state not yet entered; ``FOUND_A_WIN``, or the state's low number (see the module)."""
        self.budget.spend()
        number = self.number
        mine = low = len(number)
        number[key] = mine
        self.open.append(key)
        wanted, kids = self.ordered_children(state, restriction)
        for _, move, child, column, then in kids:
            child, autos = self.settled_child(child, column, wanted)
            k, then, by = self.child_key(child, then, autos, number)
            if k is None:
                if by is not None and by not in self.lost and number[by] < low:
                    low = number[by]
                continue
            self.path.append((move, autos))
            if sum(child[1]) == self.deck_size:
                return FOUND_A_WIN
            below = self.prove(child, k, then)
            if below == FOUND_A_WIN:
                return FOUND_A_WIN
            if below < low:
                low = below
            self.path.pop()
        if low == mine:
            self._record_lost(key)
        return low

    def _record_lost(self, key: bytes) -> None:
        """Record as lost the component whose first state is ``key`` (it and the open states above it)."""
        lost, open_states = self.lost, self.open
        while True:
            k = open_states.pop()
            lost.add(k)
            if k == key:
                return


class Turns:
    """The schedule of one solve: a depth-first probe in the natural move order, then turns of best-first
    search (resumed where it stopped) and depth-first restarts with a shuffled order, every slice twice the
    one before; depth-first runs get ``dfs_share`` of each turn (none: best-first alone after the probe).
    With several move ``costs`` there is one best-first search for each, and each gets its slice in every
    turn (with no depth-first share, slices that double from ``first_best``): the searches order the same
    states differently, so each finds early wins that the other misses. Best-first's first slice is at least
    ``first_best`` states: with one deck, many wins that the probe misses, it finds within a few thousand
    states (PySolFC deal 21 with draw 3 and cards back, in 200), where the restarts may take far longer
    (more than 150,000 states for that deal).

    Every slice stops at the node budget and the deadline, so the budget is kept exactly. Best-first is one
    search that goes on from turn to turn; the restarts hand it the states they proved lost, and it hands
    nothing back. Either search ending without a win proves the deal unwinnable: the probe and the restarts
    are complete depth-first searches, and best-first only skips states proved lost.
    """

    def __init__(self, solver, root, budget, dfs_share: float, first_best: int = 0,
                 costs: tuple = ()) -> None:
        self.solver, self.root, self.budget, self.dfs_share = solver, root, budget, dfs_share
        self.first_best = first_best
        self.lost: set[bytes] = set()
        self.nodes = 0
        self.bests: list[Search] = []
        for cost in costs or (None,):
            best = solver.search(budget)
            if cost is not None:
                best.move_cost = cost
            if dfs_share > 0 or len(costs) > 1:  # a lone best-first search is kept exactly as it was
                best.lost = self.lost
            self.bests.append(best)

    def search(self) -> list | None:
        """The internal moves of a win as [(move, safe moves after it)], None when the deal is unwinnable;
        OutOfBudget when the budget ran out first (``nodes`` is then what was spent)."""
        restart, unit = 0, PROBE_NODES
        found = self._depth_first(restart, unit)
        if found is not None:
            return found or None
        if self.dfs_share <= 0 and len(self.bests) == 1:
            return self._best_first(self.bests[0], None) or None
        size = self.first_best or unit
        while True:
            unit *= 2
            restart += 1
            if self.dfs_share > 0:
                size = int(unit * (1 - self.dfs_share) / self.dfs_share)
                if restart == 1:
                    size = max(size, self.first_best)
            for best in self.bests:
                found = self._best_first(best, size)
                if found is not None:
                    return found or None
            if self.dfs_share > 0:
                found = self._depth_first(restart, unit)
                if found is not None:
                    return found or None
            else:
                size *= 2

    def _slice(self, size: int | None):
        """A budget for the next slice: ``size`` more nodes at most (None: the rest), the same deadline."""
        limit = self.budget.max_nodes
        if size is not None:
            limit = self.nodes + size if limit is None else min(limit, self.nodes + size)
        return Budget(limit, self.budget.deadline, self.nodes)

    def _spent(self, budget) -> None:
        """Count the slice's nodes; OutOfBudget when the whole budget is gone."""
        self.nodes = budget.nodes
        whole = self.budget
        if (whole.max_nodes is not None and self.nodes >= whole.max_nodes) or (
                whole.deadline is not None and time.perf_counter() >= whole.deadline):
            raise OutOfBudget

    def _depth_first(self, restart: int, size: int):
        """A depth-first run (the natural order first, then seeded shuffles): its line, [] when it proved the
        deal unwinnable, None when its slice ran out."""
        s = self.solver
        budget = self._slice(size)
        jitter = random.Random(restart) if restart else None
        search = ProvingSearch(s.codec, s.generator, s.safe, budget, jitter, self.lost)
        try:
            won = search.run(self.root, s.codec.key(self.root))
        except OutOfBudget:
            self._spent(budget)
            return None
        self.nodes = budget.nodes
        return search.path if won else []

    def _best_first(self, best, size: int | None):
        """Best-first search ``best`` for ``size`` more nodes: its line, [] when it proved the deal
        unwinnable, None when its slice ran out."""
        budget = self._slice(size)
        best.budget = budget
        try:
            line = best.best_first(self.root)
        except OutOfBudget:
            self._spent(budget)
            return None
        self.nodes = budget.nodes
        return line if line is not None else []
