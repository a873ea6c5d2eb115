"""A perfect-information ("thoughtful") solver for every Klondike-family variant.

``solve(game_or_position)`` searches, knowing every face-down card, for a sequence of moves that wins.
It answers "won" (with the moves, in the kit's notation, that replay with ``Game.play``), "unwinnable"
(the whole search space was explored, with pruning that provably keeps a win if there is one), or
"unknown" (the budget ran out first).

How the search is made small (every rule below is derived from the variant's data, never its name):

* **Canonical states.** The order of the columns does not matter, so a state's key sorts them. With one
  card drawn at a time and unlimited passes, where the stock stands does not matter either (every card of
  stock and waste can be brought to the top of the waste), so the key keeps only the cards' cycle order.
  With ``draw`` > 1 the waste position is kept unless it is one that drawing and recycling come back to.
* **Stock macro-moves.** Drawing and recycling are not moves of the search: every card that some number of
  draws (and recycles, within the passes limit) would turn up is directly playable, and the solution
  expands it into the real ``draw``/``recycle`` moves.
* **Safe moves are played at once.** Face-down tops are turned, and a card goes to its foundation when no
  winning line could need it in a column (see ``_Tables``).
* **Moves that only prepare something must be followed at once by their use.** Moving a build off a face-up
  card (then: a card onto the card left on top, or that card to its foundation), emptying a column (then: a
  card into it), putting a stock card on a column with draw 1 and unlimited passes (then: a card onto it),
  taking a card back from a foundation (then: a card onto it, or the next one down). Such a move can always
  be put off until just before its first use, so some winning line (if any) has every preparing move right
  before its use; after one, the search tries only its uses (such "restricted" states have their own keys).
  With ``draw`` > 1 a stock card put on a column changes which stock cards come up, so any stock play may
  follow it too. A stock card is worth putting on a column only if a chain of stock cards ending in a real
  use can follow.
* **Walled-in cards.** A start position where some card can never leave its column (everything it could go
  on, and some card its foundation needs first, lies under it) is lost at once.
* Search: depth-first (most deals fall in a few dozen states; with two decks or no waste-to-foundation
  play it gets 85% of the budget, see ``_probe_share``), then best-first on "cards not on foundations +
  2 x face-down cards + stock size + 4 x the moves so far that neither uncover a card nor play a column card
  to its foundation", both with a transposition table and a node/time budget. "unwinnable" means a search
  ran out of states.
"""
from __future__ import annotations

import gc
import sys
import time
from dataclasses import dataclass, field
from heapq import heappop, heappush
from typing import NamedTuple

from .moves import COLUMN_TO_COLUMN, COLUMN_TO_FOUNDATION, DRAW, FLIP, FOUNDATION_TO_COLUMN, RECYCLE, \
    WASTE_TO_COLUMN, WASTE_TO_FOUNDATION, Move, apply, is_won, legal_moves, rules
from .state import Position
from .variants import Variant

STATUSES = ("won", "unwinnable", "unknown")
PROBE_NODES = 3000  # the depth-first probe explores at least this many states (when the budget allows)
PROBE_SHARE = 0.85  # with two decks or no waste-to-foundation play, it gets this share of the budget


def _probe_share(v: Variant) -> float:
    """The share of the budget for depth-first search before best-first (measured: benchmarks/bench_solver.py).

    One deck with waste-to-foundation plays (Klondike, draw 1 or 3): best-first finds the hard wins, so the
    probe is short. Two decks or no waste-to-foundation play (SoliJoy): depth-first does much better.
    """
    return PROBE_SHARE if v.decks > 1 or not v.waste_to_foundation else 0.0
WEIGHTS = {"remaining": 1, "hidden": 2, "talon": 1, "cost": [0, 0, 4, 4, 4, 4, 4]}


@dataclass(frozen=True)
class SolveResult:
    """What ``solve`` found: a status, the winning moves (empty unless "won"), and the effort spent."""

    status: str
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0

    @property
    def decided(self) -> bool:
        return self.status != "unknown"


class _OutOfBudget(Exception):
    pass


# Priorities of the move kinds, lowest first (the search tries them in this order).
_TO_FOUNDATION, _REVEAL, _TALON_TO_FOUNDATION, _TALON_TO_COLUMN, _EMPTYING, _PARTIAL, _FROM_FOUNDATION = range(7)


class _Tables:
    """A variant's rules as lookup tables indexed by card code, plus the safe-foundation thresholds.

    Safe foundation moves. Let the *descendants* of a card be the cards that may sit on it in a column, the
    cards that may sit on those, and so on. Without ``foundation_to_tableau``, a card may go to its foundation
    for good when every descendant still in play could go straight to its own foundation (every foundation of
    its suit has reached the card's predecessor) and, if the waste may not play to a foundation, none of them
    is in the stock or waste: any winning line that keeps the card in a column can instead send each card it
    puts on it to the foundation. (In Klondike: a red r when both black foundations reach r-2 and the other
    red reaches r-3.) With ``foundation_to_tableau``, cards can come back, so the condition is that the closure
    of the card's descendants and predecessors (under "descendant" and "predecessor") is entirely on the
    foundations (Klondike: black foundations reach r-1 and the other red r-2). With two decks, every
    foundation of the card's suit must already have reached its predecessor.
    """

    def __init__(self, v: Variant) -> None:
        r = rules(v)
        self.variant = v
        self.decks = v.decks
        self.nranks = len(v.ranks)
        self.step = list(r.step)
        self.deck = [c for c in range(64) if self.step[c] >= 0]
        rank_of = {name: rank for rank, name in enumerate(("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10",
                                                           "J", "Q", "K"))}
        # code[suit][step] is the card at that step of the suit's foundation; 0 (no card) past the end.
        self.code = [[s * 16 + rank_of[name] for name in v.ranks] + [0] for s in range(4)]
        self.children = [tuple(int(c) for c in r.children[u]) for u in range(64)]
        self.parents = [frozenset(int(c) for c in r.parents[u]) for u in range(64)]
        self.empty_ok = [bool(x) for x in r.empty_ok]
        self.free_talon = v.draw == 1 and v.passes is None
        self.safe_from_talon = v.waste_to_foundation and v.draw == 1
        self.threshold: list[tuple[int, ...] | None] = [None] * 64
        self.talon_watch: list[tuple[int, ...]] = [()] * 64
        for c in self.deck:
            self._derive_safety(c, v)
        self.column_cache: dict = {}
        self.watches = any(self.talon_watch)

    def _preds(self, c: int) -> list[int]:
        return [self.code[c >> 4][t] for t in range(self.step[c])]

    def _derive_safety(self, c: int, v: Variant) -> None:
        need = [0, 0, 0, 0]
        if v.foundation_to_tableau:
            todo = list(self.children[c]) + self._preds(c)
            closure: set[int] = set()
            while todo:
                d = todo.pop()
                if d not in closure:
                    closure.add(d)
                    todo.extend(self.children[d])
                    todo.extend(self._preds(d))
            for d in closure:  # every copy of d on a foundation: all piles of its suit above d's step
                need[d >> 4] = max(need[d >> 4], self.step[d] + 1)
        else:
            todo, closure = list(self.children[c]), set()
            while todo:
                d = todo.pop()
                if d not in closure:
                    closure.add(d)
                    todo.extend(self.children[d])
            for d in closure:  # every copy of d still out could go to a foundation of its own
                need[d >> 4] = max(need[d >> 4], self.step[d])
            if not v.waste_to_foundation:
                self.talon_watch[c] = tuple(sorted(closure))
        need[c >> 4] = max(need[c >> 4], self.step[c])  # with two decks: the twin foundation is ready too
        self.threshold[c] = tuple(need)


_BYTE = [bytes((i,)) for i in range(256)]
_NO_CARDS: dict = {}


def _always(card: int) -> bool:
    return True
# What must come next after a move that only prepares (the search tries nothing else, see the module doc).
# A need is bytes((flags, z)): a card onto z (or, with _EMPTY, into an empty column), or else what the flags add:
_UP, _BELOW, _TALON, _EMPTY = 1, 2, 4, 8  # z to its foundation / the card under z on its foundation taken down
# too / any play from the stock / (a card into an empty column instead of onto z)


def _need(flags: int, z: int = 0) -> bytes:
    return bytes((flags, z)) if flags or z else b"\x00\x00"
_TABLES: dict[Variant, _Tables] = {}


def _tables(v: Variant) -> _Tables:
    t = _TABLES.get(v)
    if t is None:
        t = _TABLES[v] = _Tables(v)
    return t


# An internal state is a tuple (cols, fh, talon, ptr, rec):
#   cols  -- tuple of bytes, one per column in the real order: byte 0 is the face-down count, then the cards
#            bottom first. The solver keeps every non-empty column's top face up.
#   fh    -- bytes: foundation heights grouped by suit (``decks`` per suit, ascending within a suit).
#   talon -- bytes: waste bottom..top then stock top..bottom, i.e. the order the cards are drawn in.
#   ptr   -- how many of those are in the waste (0 when the talon is "free": draw 1, unlimited passes).
#   rec   -- recycles used so far (kept only when passes are limited).
# Internal moves, expanded by ``_real_moves``:
#   ("tt", s, d, k)  build of k cards from column s to d     ("tf", s)    column top to its foundation
#   ("wt", i, d)     talon card i to column d                ("wf", i)    talon card i to its foundation
#   ("ft", card, d)  a foundation top to column d


class _Column(NamedTuple):
    """What a column offers, computed once per distinct column (columns recur across states)."""

    top: int
    kids: tuple[int, ...]  # cards that may go on the top card
    to_foundation: bytes  # the column after its top card leaves
    builds: tuple[tuple[int, int, int, int, bytes, bytes], ...]  # (bottom card, count, kind, card below, rest, build)
    movable: tuple[int, ...]  # cards that could be picked up now (each with what lies on it)
    fill: int  # how many of those could usefully start an empty column


class _Search:
    def __init__(self, tables: _Tables, max_nodes: int | None, deadline: float | None, nodes: int = 0) -> None:
        self.t = tables
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = nodes
        self.seen: set[bytes] = set()
        self.path: list[tuple] = []  # internal moves of the current line (auto moves included)
        v = tables.variant
        self.draw, self.passes, self.ft = v.draw, v.passes, v.foundation_to_tableau
        self.deck_size = v.deck_size
        self.columns = tables.column_cache
        self.talons: dict = {}
        # after a waste card goes to a column, only that column's top can have become safe to play
        self.fast_wt = (tables.free_talon or not tables.safe_from_talon) and not tables.watches

    # --- keys and stock -------------------------------------------------------------------------
    def key(self, state) -> bytes:
        cols, fh, talon, ptr, rec = state
        k = b"\xff".join(sorted(cols)) + b"\xfe" + fh + talon
        if self.t.free_talon:
            return k
        n = len(talon)
        if self.passes is None:
            if ptr % self.draw == 0 or ptr == n:
                ptr = 0  # drawing and recycling cycle through these positions: one state
            return k + b"\xfe" + ptr.to_bytes(2, "big")
        return k + b"\xfe" + ptr.to_bytes(2, "big") + rec.to_bytes(2, "big")

    # --- foundations ------------------------------------------------------------------------------
    def wants(self, fh: bytes) -> set[int]:
        code, d = self.t.code, self.t.decks
        if d == 1:
            return {code[0][fh[0]], code[1][fh[1]], code[2][fh[2]], code[3][fh[3]]}
        return {code[i // d][h] for i, h in enumerate(fh)}

    def raise_foundation(self, fh: bytes, c: int) -> bytes:
        t = self.t
        s, h = c >> 4, t.step[c]
        d = t.decks
        if d == 1:
            return fh[:s] + _BYTE[h + 1] + fh[s + 1:]
        group = sorted(fh[s * d:(s + 1) * d])
        group[group.index(h)] = h + 1
        return fh[:s * d] + bytes(sorted(group)) + fh[(s + 1) * d:]

    def lower_foundation(self, fh: bytes, c: int) -> bytes:
        t = self.t
        s, h = c >> 4, t.step[c]
        d = t.decks
        group = list(fh[s * d:(s + 1) * d])
        group[group.index(h + 1)] = h
        return fh[:s * d] + bytes(sorted(group)) + fh[(s + 1) * d:]

    def is_safe(self, c: int, fh_after: bytes, talon: bytes) -> bool:
        need = self.t.threshold[c]
        lows = fh_after[::self.t.decks]
        if lows[0] < need[0] or lows[1] < need[1] or lows[2] < need[2] or lows[3] < need[3]:
            return False
        watch = self.t.talon_watch[c]
        if watch and talon:
            step = self.t.step
            for d in watch:
                if lows[d >> 4] <= step[d] and d in talon:
                    return False
        return True

    # --- settling: flips are implicit, safe foundation moves are played ---------------------------
    def settle(self, cols, fh, talon, ptr, rec, autos: list):
        t = self.t
        wants = self.wants(fh)
        changed = True
        while changed:
            changed = False
            for j, col in enumerate(cols):
                if len(col) > 1 and col[-1] in wants:
                    c = col[-1]
                    nfh = self.raise_foundation(fh, c)
                    if self.is_safe(c, nfh, talon):
                        fh = nfh
                        cols = cols[:j] + (_pop(col, 1),) + cols[j + 1:]
                        autos.append(("tf", j))
                        wants = self.wants(fh)
                        changed = True
            if talon and t.safe_from_talon:
                for c in wants:
                    if c in talon:
                        i = talon.index(c) if t.free_talon else ptr - 1
                        if i < 0 or talon[i] != c:
                            continue
                        nfh = self.raise_foundation(fh, c)
                        if self.is_safe(c, nfh, talon):
                            fh = nfh
                            autos.append(("wf", i))
                            talon = talon[:i] + talon[i + 1:]
                            if not t.free_talon:
                                ptr = i
                            wants = self.wants(fh)
                            changed = True
                            break
        return cols, fh, talon, ptr, rec

    # --- dead positions ---------------------------------------------------------------------------
    def stuck(self, state) -> bool:
        """Is some card walled in for good? Then the position is lost (used on the start position).

        A face-down card, or the lowest face-up card of a column, can leave only to a foundation or as the
        bottom of a build. It is walled in when every copy of every card it may sit on lies under it in its own
        column, under a walled-in card, or (for good, without ``foundation_to_tableau``) on a foundation, when
        it may not start an empty column, and when some card its foundation needs first lies under it or is
        walled in itself.
        """
        cols, fh = state[0], state[1]
        t = self.t
        dk = t.decks
        where: dict[int, list[tuple[int, int]]] = {}
        for j, col in enumerate(cols):
            for q in range(1, len(col)):
                where.setdefault(col[q], []).append((j, q))
        up = {}
        for s in range(4):
            for h in fh[s * dk:(s + 1) * dk]:
                for step in range(h):
                    c = t.code[s][step]
                    up[c] = up.get(c, 0) + 1
        walled: set[tuple[int, int]] = set()

        def blocked(z: int, j: int, q: int, itself: bool) -> bool:
            """Are all copies of z that are not on a foundation unreachable (from y at column j, place q)?"""
            spots = where.get(z, [])
            if len(spots) + up.get(z, 0) < dk:
                return False  # a copy is in the stock or waste
            for jz, qz in spots:
                if not ((jz == j and qz < q) or (itself and (jz, qz) in walled)
                        or any((jz, r) in walled for r in range(qz + 1, len(cols[jz])))):
                    return False
            return True

        changed = True
        while changed:
            changed = False
            for j, col in enumerate(cols):
                for q in range(1, min(col[0] + 1, len(col) - 1) + 1):
                    y = col[q]
                    if (j, q) in walled or t.empty_ok[y]:
                        continue
                    if any(not ((up.get(p, 0) == dk and not self.ft) or (up.get(p, 0) < dk and blocked(p, j, q, False)))
                           for p in t.parents[y]):
                        continue
                    s = y >> 4
                    low = max(fh[s * dk:(s + 1) * dk])
                    if any(blocked(t.code[s][step], j, q, True) for step in range(low, t.step[y])):
                        walled.add((j, q))
                        changed = True
        return bool(walled)

    # --- move generation --------------------------------------------------------------------------
    def column(self, col: bytes) -> _Column | None:
        """The (cached) analysis of a column; None for an empty one."""
        info = self.columns.get(col)
        if info is None and len(col) > 1:
            t = self.t
            parents, empty_ok = t.parents, t.empty_ok
            n, h = len(col) - 1, col[0]
            builds = []
            p = n
            while True:
                b = col[p]
                if p == h + 1:
                    kind, below = (_REVEAL, 0) if h else (_EMPTYING, 0)
                else:
                    kind, below = _PARTIAL, col[p - 1]
                builds.append((b, n - p + 1, kind, below, _pop(col, n - p + 1), col[p:]))
                if p == h + 1 or col[p - 1] not in parents[b]:
                    break
                p -= 1
            movable = tuple(b[0] for b in builds)
            fill = sum(1 for b in builds if empty_ok[b[0]] and b[2] != _EMPTYING)
            info = _Column(col[n], t.children[col[n]], _pop(col, 1), tuple(builds), movable, fill)
            if len(self.columns) > 100_000:
                self.columns.clear()
            self.columns[col] = info
        return info

    def talon_cards(self, talon: bytes, ptr: int, rec: int) -> tuple[dict[int, list[int]], int]:
        """({card: talon indices} of the cards drawing and recycling can bring to the waste top, how many of
        them could start an empty column), cached."""
        k = talon if self.t.free_talon else (talon, ptr, rec)
        found = self.talons.get(k)
        if found is None:
            if self.t.free_talon:
                indices = range(len(talon))
            else:
                indices = talon_reach(len(talon), ptr, rec, self.draw, self.passes)[0]
            cards: dict[int, list[int]] = {}
            for i in indices:
                cards.setdefault(talon[i], []).append(i)
            empty_ok = self.t.empty_ok
            found = cards, sum(1 for c in cards if empty_ok[c])
            if len(self.talons) > 50_000:
                self.talons.clear()
            self.talons[k] = found
        return found

    def children(self, state, wants: set[int], need: bytes = b""):
        """[(priority, internal move, child state, column, need)] for the moves worth trying.

        ``column`` >= 0 names the only column whose top changed (see ``settled_child``); -1 asks for a full
        settle. ``need`` (see ``_need``) restricts the moves to the uses of the preparing move just played; the
        child's ``need`` is what its own move requires next (empty for a move that prepares nothing).
        """
        cols, fh, talon, ptr, rec = state
        t = self.t
        kids, empty_ok = t.children, t.empty_ok
        column, cached = self.column, self.columns.get
        infos = [cached(col) or column(col) for col in cols]
        only = None  # the columns a move may go to, when restricted
        top_to_foundation = True
        ft_below = -1
        if need:
            flags, z = need[0], need[1]
            if flags & _EMPTY:
                only = {j for j, info in enumerate(infos) if info is None}
            else:
                only = {j for j, info in enumerate(infos) if info is not None and info.top == z}
            top_to_foundation = bool(flags & _UP)
            if flags & _BELOW and t.step[z] > 0:
                ft_below = t.code[z >> 4][t.step[z] - 1]
            if not (only or top_to_foundation or ft_below >= 0 or flags & _TALON):
                return []
            scope = only if not (flags & _TALON or ft_below >= 0) else range(len(infos))
        else:
            scope = range(len(infos))
        targets: dict[int, list[int]] = {}
        empties: list[int] = []
        for j in scope:
            info = infos[j]
            if info is None:
                empties.append(j)
            else:
                for ch in info.kids:
                    if ch in targets:
                        targets[ch].append(j)
                    else:
                        targets[ch] = [j]
        talon_targets, talon_empties = targets, empties  # talon plays may be free of the restriction
        if need:
            if ft_below >= 0:
                ft_targets = list(targets.get(ft_below, ()))
                if empties and empty_ok[ft_below]:
                    ft_targets.append(empties[0])
            if scope is not only:
                targets = {c: [j for j in js if j in only] for c, js in targets.items()}
                empties = [j for j in empties if j in only]
                if not flags & _TALON:
                    talon_targets, talon_empties = targets, empties
        tcards, tfill = self.talon_cards(talon, ptr, rec) if talon else (_NO_CARDS, 0)
        ft = self.ft
        ftops = self.foundation_tops(fh) if ft else _NO_CARDS
        out = []
        add = out.append
        acc = None  # lazily: {card: copies that could be picked up from the columns}
        fill = 0  # how many cards could start an empty column (counted with acc)
        worth = None  # lazily: is a stock card worth putting on a column? (see talon_worth)

        # column moves
        tkeys = targets.keys()
        dk = t.decks
        for s, info in enumerate(infos):
            if info is None:
                continue
            if info.top in wants and top_to_foundation and (only is None or s in only):
                add((_TO_FOUNDATION, ("tf", s), (cols[:s] + (info.to_foundation,) + cols[s + 1:],
                                                 self.raise_foundation(fh, info.top), talon, ptr, rec), -1, b""))
            if tkeys.isdisjoint(info.movable) and not (empties and info.fill):
                continue  # no build of this column has anywhere to go
            for b, k, kind, below, rest, build in info.builds:
                dests = targets.get(b)
                to_empty = empties and empty_ok[b] and kind != _EMPTYING
                if not (dests or to_empty):
                    continue
                if kind == _REVEAL:
                    prio = kind - rest[0] / 64
                    then = b""
                else:
                    if acc is None:
                        acc, fill = self.accessible(infos)
                        fill += tfill + (sum(1 for c in ftops if empty_ok[c]) if ft else 0)
                    if kind == _PARTIAL:  # worth it only if the card left on top is used at once
                        if below not in wants:
                            if worth is None:
                                worth = self.talon_worth(tcards, acc, ftops, wants)
                            for ch in kids[below]:
                                if (ch in acc and (ch != b or (dk > 1 and acc[ch] > 1))) or ch in ftops or (
                                        ch in tcards and worth(ch)):
                                    break
                            else:
                                continue
                        then = _need(_UP, below)
                    else:  # emptying a column: worth it only if something else fills it at once
                        if fill <= 0:
                            continue
                        then = _need(_EMPTY)
                    prio = kind
                if dests:
                    for d in dests:
                        if d != s:
                            nc = list(cols)
                            nc[s] = rest
                            nc[d] = cols[d] + build
                            add((prio, ("tt", s, d, k), (tuple(nc), fh, talon, ptr, rec), s, then))
                if to_empty:
                    d = empties[0]
                    nc = list(cols)
                    nc[s] = rest
                    nc[d] = b"\x00" + build
                    add((prio, ("tt", s, d, k), (tuple(nc), fh, talon, ptr, rec), s, then))

        # stock and waste
        if tcards:
            free = t.free_talon
            w2f = t.variant.waste_to_foundation and (only is None or talon_targets is not targets)
            targets, empties = talon_targets, talon_empties
            if empties:
                candidates = tcards
            else:
                candidates = [c for c in targets if c in tcards]
                if w2f:
                    candidates += [c for c in wants if c in tcards and c not in targets]
            up = not t.variant.waste_to_foundation
            then = b""
            for c in candidates:
                dests = targets.get(c)
                to_empty = empties and empty_ok[c]
                to_found = w2f and c in wants
                if not (dests or to_empty or to_found):
                    continue
                if (dests or to_empty) and free:  # a waste card waits in the talon until a column can use it
                    if acc is None:
                        acc, fill = self.accessible(infos)
                        fill += tfill + (sum(1 for c2 in ftops if empty_ok[c2]) if ft else 0)
                    if worth is None:
                        worth = self.talon_worth(tcards, acc, ftops, wants)
                    if not worth(c):
                        dests = to_empty = None
                        if not to_found:
                            continue
                    then = _need(_UP if up else 0, c)
                elif dests or to_empty:  # it changes the stock, so the next move may also be any stock play
                    then = _need(_TALON | _UP if up else _TALON, c)
                one = _BYTE[c]
                for i in tcards[c]:
                    rest = talon[:i] + talon[i + 1:]
                    if free:
                        nptr, nrec = 0, rec
                    else:
                        nptr, nrec = i, self.talon_rec(talon, ptr, rec, i)
                    if to_found:
                        add((_TALON_TO_FOUNDATION, ("wf", i),
                             (cols, self.raise_foundation(fh, c), rest, nptr, nrec), -1, b""))
                    if dests:
                        for d in dests:
                            nc = list(cols)
                            nc[d] = cols[d] + one
                            add((_TALON_TO_COLUMN, ("wt", i, d), (tuple(nc), fh, rest, nptr, nrec),
                                 d if self.fast_wt else -1, then))
                    if to_empty:
                        d = empties[0]
                        nc = list(cols)
                        nc[d] = b"\x00" + one
                        add((_TALON_TO_COLUMN, ("wt", i, d), (tuple(nc), fh, rest, nptr, nrec),
                             d if self.fast_wt else -1, then))

        # back from a foundation
        if ft:
            code, dk = t.code, t.decks
            for g, hgt in enumerate(fh):
                if hgt == 0 or (dk > 1 and g % dk + 1 < dk and fh[g + 1] == hgt):
                    continue
                c = code[g // dk][hgt - 1]
                dests = list(targets.get(c, ()))
                if empties and empty_ok[c]:
                    dests.append(empties[0])
                if c == ft_below:  # the use of the card just taken down from this foundation
                    dests = ft_targets
                if not dests:
                    continue
                if acc is None:
                    acc, fill = self.accessible(infos)
                if not (any(ch in acc or ch in tcards or ch in ftops for ch in kids[c]) or dk > 1
                        or self._below_fits(c, targets, empties)):
                    continue
                nfh = self.lower_foundation(fh, c)
                one = _BYTE[c]
                then = b"" if dk > 1 else _need(_BELOW, c)
                for d in dests:
                    nc = list(cols)
                    nc[d] = cols[d] + one
                    add((_FROM_FOUNDATION, ("ft", c, d), (tuple(nc), nfh, talon, ptr, rec), -1, then))
        return out

    def talon_worth(self, tcards, acc, ftops, wants):
        """A test: is this stock card worth putting on a column now?

        With draw 1 and unlimited passes such a move only prepares: it is worth it when a card from a column
        (or a foundation) can then go on the card, or, when the waste may not play to a foundation, when the
        card can go on to its foundation; or when a stock card worth it in turn can go on it (a chain of stock
        cards ending in such a use). With other stock rules every reachable stock card counts.
        """
        if not self.t.free_talon:
            return _always
        kids = self.t.children
        up = not self.t.variant.waste_to_foundation
        memo: dict[int, bool] = {}

        def worth(c: int) -> bool:
            found = memo.get(c)
            if found is None:
                found = up and c in wants
                if not found:
                    for ch in kids[c]:
                        if ch in acc or ch in ftops or (ch in tcards and worth(ch)):
                            found = True
                            break
                memo[c] = found
            return found

        return worth

    def talon_rec(self, talon: bytes, ptr: int, rec: int, i: int) -> int:
        """Recycles used once talon card ``i`` is first on top of the waste."""
        return talon_reach(len(talon), ptr, rec, self.draw, self.passes)[0][i][1]

    def foundation_tops(self, fh: bytes) -> set[int]:
        code, dk = self.t.code, self.t.decks
        return {code[g // dk][h - 1] for g, h in enumerate(fh) if h}

    def _below_fits(self, c: int, targets, empties) -> bool:
        """After taking ``c`` down, could the card below it on the foundation come down too?"""
        t = self.t
        if t.step[c] == 0:
            return False
        below = t.code[c >> 4][t.step[c] - 1]
        return bool(targets.get(below)) or bool(empties and t.empty_ok[below]) or c in t.parents[below]

    def accessible(self, infos) -> tuple[dict[int, int] | set[int], int]:
        """(the cards that could be picked up from the columns -- with two decks {card: copies} --, how many
        of them could fill an empty column)."""
        present = [info for info in infos if info is not None]
        fill = sum(info.fill for info in present)
        if self.t.decks == 1:
            return set().union(*[info.movable for info in present]), fill
        acc: dict[int, int] = {}
        for info in present:
            for b in info.movable:
                acc[b] = acc.get(b, 0) + 1
        return acc, fill

    def settled_child(self, child, column: int, wants: set[int], autos: list):
        """Settle a child from ``children`` (cheaply when only one column's top changed)."""
        if column >= 0:
            col = child[0][column]
            if len(col) == 1 or col[-1] not in wants:
                return child
        return self.settle(*child, autos)

    # --- depth-first search -------------------------------------------------------------------------
    def dfs(self, state, need: bytes = b"") -> bool:
        """Depth-first search from a settled state already in ``seen``; True when a win is found."""
        self.nodes += 1
        if self.nodes & 255 == 0:
            self.check_budget()
        seen, key, path, settled_child = self.seen, self.key, self.path, self.settled_child
        wants = self.wants(state[1])
        kids = self.children(state, wants, need)
        kids.sort(key=_first)
        for _, move, child, column, then in kids:
            autos: list = []
            child = settled_child(child, column, wants, autos)
            k = key(child)
            if k in seen:
                continue
            if then and not autos:
                k += b"\xfd" + then  # a restricted state: its full version, if met later, is searched again
                if k in seen:
                    continue
            else:
                then = b""
            seen.add(k)
            path.append((move, autos))
            if sum(child[1]) == self.deck_size or self.dfs(child, then):
                return True
            path.pop()
        return False

    # --- best-first search ----------------------------------------------------------------------------
    def best_first(self, root) -> list | None:
        """Best-first search on (how far a state looks from a win + the cost of the moves that only prepare).

        Returns the internal moves of a win, or None when the search space is exhausted.
        """
        key, settled_child, children, score = self.key, self.settled_child, self.children, self.score
        deck_size = self.deck_size
        cost = WEIGHTS["cost"]
        root_key = key(root)
        parent: dict[bytes, tuple | None] = {root_key: None}
        heap = [(score(root), 0, 0, root_key, root, b"")]
        tick = 0
        while heap:
            _, g0, _, k0, state, need = heappop(heap)
            self.nodes += 1
            if self.nodes & 255 == 0:
                self.check_budget()
            wants = self.wants(state[1])
            for prio, move, child, column, then in children(state, wants, need):
                autos: list = []
                child = settled_child(child, column, wants, autos)
                k = key(child)
                if k in parent:
                    continue
                if then and not autos:
                    k += b"\xfd" + then
                    if k in parent:
                        continue
                else:
                    then = b""
                parent[k] = (k0, move, autos)
                if sum(child[1]) == deck_size:
                    line = []
                    while parent[k] is not None:
                        k, move, autos = parent[k]
                        line.append((move, autos))
                    return line[::-1]
                tick -= 1
                g = g0 + cost[int(prio)]
                heappush(heap, (score(child) + g, g, tick, k, child, then))
        return None

    def score(self, state) -> int:
        """How far a state looks from a win (lower is better)."""
        hidden = 0
        for col in state[0]:
            hidden += col[0]
        w = WEIGHTS
        return w["remaining"] * (self.deck_size - sum(state[1])) + w["hidden"] * hidden + w["talon"] * len(state[2])

    def check_budget(self) -> None:
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise _OutOfBudget
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise _OutOfBudget


def _first(item) -> float:
    return item[0]


def _pop(col: bytes, k: int) -> bytes:
    """The column without its top k cards, its new top turned face up."""
    rest = col[:-k]
    n = len(rest) - 1
    if n and rest[0] == n:
        return bytes((n - 1,)) + rest[1:]
    return rest


def talon_reach(n: int, ptr: int, rec: int, draw: int, passes: int | None):
    """Which talon cards drawing and recycling bring to the waste top, and how.

    Returns ({index: (ptr, rec) when first on top}, {index: [ops]}) where ops are "draw"/"recycle".
    """
    first: dict[int, tuple[int, int]] = {}
    ops: dict[int, list[str]] = {}
    done: list[str] = []
    if ptr:
        first[ptr - 1] = (ptr, rec)
        ops[ptr - 1] = []
    seen = {(ptr, 0 if passes is None else rec)}
    while True:
        if ptr < n:
            ptr = min(ptr + draw, n)
            done.append(DRAW)
        elif n and (passes is None or rec < passes - 1):
            ptr, rec = 0, rec + 1
            done.append(RECYCLE)
        else:
            break
        state = (ptr, 0 if passes is None else rec)
        if state in seen:
            break
        seen.add(state)
        if ptr and ptr - 1 not in first:
            first[ptr - 1] = (ptr, rec)
            ops[ptr - 1] = list(done)
    return first, ops


# --- from and back to real positions ---------------------------------------------------------------

def _internal(p: Position, t: _Tables):
    """The internal state of a real position (columns turned face up where needed) and the flips that takes."""
    cols, flips = [], []
    for j, (col, h) in enumerate(zip(p.columns, p.hidden)):
        if col and h >= len(col):
            h = len(col) - 1
            flips.append(j)
        cols.append(bytes((h,)) + bytes(col))
    heights: list[list[int]] = [[] for _ in range(4)]
    for pile in p.foundations:
        if pile:
            heights[pile[0] >> 4].append(len(pile))
    fh = b"".join(bytes(sorted(hs + [0] * (t.decks - len(hs)))) for hs in heights)
    talon = bytes(p.waste) + bytes(reversed(p.stock))
    ptr = 0 if t.free_talon else len(p.waste)
    return (tuple(cols), fh, talon, ptr, p.recycles), flips


def _real_moves(p: Position, internal: list) -> list[Move]:
    """Expand internal moves into the real moves that play them from ``p`` (checking each is legal)."""
    v = p.variant
    out: list[Move] = []

    def play(m: Move) -> None:
        nonlocal p
        if m not in legal_moves(p):
            raise AssertionError(f"solver bug: {m} is not legal in the replay")
        out.append(m)
        p = apply(p, m)
        if not v.auto_flip:
            for j, (col, h) in enumerate(zip(p.columns, p.hidden)):
                if col and h >= len(col):
                    out.append(Move(FLIP, j))
                    p = apply(p, Move(FLIP, j))

    def bring_to_top(i: int) -> None:
        _, ops = talon_reach(len(p.waste) + len(p.stock), len(p.waste), p.recycles, v.draw, v.passes)
        for op in ops[i]:
            play(Move(op))

    for m in internal:
        kind = m[0]
        if kind == "tt":
            play(Move(COLUMN_TO_COLUMN, m[1], m[2], m[3]))
        elif kind == "tf":
            play(Move(COLUMN_TO_FOUNDATION, m[1]))
        elif kind in ("wt", "wf"):
            bring_to_top(m[1])
            play(Move(WASTE_TO_COLUMN, target=m[2]) if kind == "wt" else Move(WASTE_TO_FOUNDATION))
        elif kind == "ft":
            f = next(i for i, pile in enumerate(p.foundations) if pile and pile[-1] == m[1])
            play(Move(FOUNDATION_TO_COLUMN, f, m[2]))
    if not is_won(p):
        raise AssertionError("solver bug: the replayed solution does not win")
    return out


def solve(game_or_position, *, max_seconds: float | None = 10.0, max_nodes: int | None = None) -> SolveResult:
    """Search for a win from a Game's current position or a Position, knowing every card.

    ``max_seconds`` and ``max_nodes`` (states expanded) bound the effort; either may be None. The result's
    ``moves`` replay with ``Game.play`` from that position to a win when the status is "won".
    A short depth-first probe comes first (it wins most easy deals in a few dozen states); then a best-first
    search, which does not get lost in one bad branch, uses the rest of the budget.
    """
    p = getattr(game_or_position, "position", game_or_position)
    if not isinstance(p, Position):
        raise ValueError(f"solve needs a Game or a Position, got {game_or_position!r}")
    if len(p.cards()) != p.variant.deck_size:
        raise ValueError(f"the position holds {len(p.cards())} cards but a {p.variant.name} deck has "
                         f"{p.variant.deck_size}: put every card in some pile before solving")
    start = time.perf_counter()
    deadline = None if max_seconds is None else start + max_seconds
    t = _tables(p.variant)
    state, flips = _internal(p, t)
    autos: list = []
    state = _Search(t, None, None).settle(*state, autos)
    line: list | None = []
    nodes = 0
    status = "unwinnable"
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    gc_was_on = gc.isenabled()
    gc.disable()  # the search makes millions of small tuples, none of them cyclic
    try:
        if sum(state[1]) != t.variant.deck_size and _Search(t, None, None).stuck(state):
            line = None
        elif sum(state[1]) != t.variant.deck_size:
            share = _probe_share(t.variant)
            probe = max(PROBE_NODES, int(share * max_nodes)) if max_nodes is not None else None
            probe_deadline = None if max_seconds is None or not share else start + share * max_seconds
            if probe is None and probe_deadline is None:
                probe = PROBE_NODES
            if max_nodes is not None:
                probe = min(probe, max_nodes)
            search = _Search(t, probe, probe_deadline if deadline is None else min(probe_deadline or deadline,
                                                                                    deadline))
            search.seen.add(search.key(state))
            try:
                line = search.path if search.dfs(state) else None
            except _OutOfBudget:
                if (max_nodes is not None and search.nodes >= max_nodes) or (
                        deadline is not None and time.perf_counter() >= deadline):
                    raise
                search = _Search(t, max_nodes, deadline, nodes=search.nodes)
                line = search.best_first(state)
            finally:
                nodes = search.nodes
        if line is not None:
            status = "won"
    except _OutOfBudget:
        status = "unknown"
    finally:
        sys.setrecursionlimit(limit)
    moves: list[Move] = []
    try:
        if status == "won":
            internal = list(autos)
            for move, more in line:
                internal.append(move)
                internal.extend(more)
            q = p
            for j in flips:
                q = apply(q, Move(FLIP, j))
            moves = [Move(FLIP, j) for j in flips] + _real_moves(q, internal)
    finally:
        if gc_was_on:
            gc.enable()  # after the replay: the search's objects are freed by then, so no long collection
    return SolveResult(status, moves, nodes, time.perf_counter() - start)
