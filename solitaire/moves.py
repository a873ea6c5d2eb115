"""Moves: what may be played (``legal_moves``), what it does (``apply``), and why not (``explain_illegal``)."""
from __future__ import annotations

import re
from typing import NamedTuple

from .cards import Card, _CARDS
from .state import Position
from .variants import Variant, rank_phrase

DRAW, RECYCLE, FLIP = "draw", "recycle", "flip"
WASTE_TO_COLUMN, WASTE_TO_FOUNDATION = "w>t", "w>f"
COLUMN_TO_FOUNDATION, COLUMN_TO_COLUMN, FOUNDATION_TO_COLUMN = "t>f", "t>t", "f>t"
STOCK_MOVES = frozenset({DRAW, RECYCLE})
_FROM_WASTE = frozenset({WASTE_TO_COLUMN, WASTE_TO_FOUNDATION})
_ALWAYS_PROGRESS = _FROM_WASTE | {FLIP, COLUMN_TO_FOUNDATION}


class InvalidMoveError(ValueError):
    """The text does not describe a move in the kit's notation."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow in this position."""


class Move(NamedTuple):
    """A move as a hashable value. Columns and foundations are numbered from 0 here, from 1 in text."""

    kind: str
    source: int = -1
    target: int = -1
    count: int = 1

    def __repr__(self) -> str:
        return f"Move.from_text({str(self)!r})"

    def __str__(self) -> str:
        s, t = self.source + 1, self.target + 1
        return {DRAW: "draw", RECYCLE: "recycle", FLIP: f"flip t{s}", WASTE_TO_COLUMN: f"w>t{t}",
                WASTE_TO_FOUNDATION: "w>f", COLUMN_TO_FOUNDATION: f"t{s}>f", FOUNDATION_TO_COLUMN: f"f{s}>t{t}",
                COLUMN_TO_COLUMN: f"t{s}>t{t}" + (f":{self.count}" if self.count > 1 else "")}[self.kind]

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Read ``draw``, ``recycle``, ``flip t3``, ``w>t3``, ``w>f``, ``t3>f``, ``t3>t7``, ``t3>t7:4``, ``f2>t3``."""
        m = _NOTATION.fullmatch(re.sub(r"\s+", "", str(text)).lower())
        if not m:
            raise InvalidMoveError(f"cannot read a move from {text!r}: write one of draw, recycle, flip t3, "
                                   "w>t3, w>f, t3>f, t3>t7, t3>t7:4 (the top 4 cards) or f2>t3")
        g = {k: int(v) - 1 if v else None for k, v in m.groupdict().items() if k not in ("word", "wf")}
        if any(v is not None and v < 0 for v in g.values()):
            raise InvalidMoveError(f"cannot read a move from {text!r}: columns, foundations and counts start at 1")
        if m["word"]:
            return Move(m["word"])
        if g["flip"] is not None:
            return Move(FLIP, g["flip"])
        if g["wt"] is not None:
            return Move(WASTE_TO_COLUMN, target=g["wt"])
        if g["tf"] is not None:
            return Move(COLUMN_TO_FOUNDATION, g["tf"])
        if g["ff"] is not None:
            return Move(FOUNDATION_TO_COLUMN, g["ff"], g["ft"])
        if g["ts"] is not None:
            return Move(COLUMN_TO_COLUMN, g["ts"], g["tt"], 1 if g["n"] is None else g["n"] + 1)
        return Move(WASTE_TO_FOUNDATION)


_NOTATION = re.compile(r"(?P<word>draw|recycle)|flipt(?P<flip>\d+)|w>t(?P<wt>\d+)|(?P<wf>w>f)|t(?P<tf>\d+)>f"
                       r"|t(?P<ts>\d+)>t(?P<tt>\d+)(?::(?P<n>\d+))?|f(?P<ff>\d+)>t(?P<ft>\d+)")


class _Rules(NamedTuple):
    """Lookup tables a variant's rules compile to (indexed by card code)."""

    step: list[int]  # place in foundation order, -1 if not in the deck
    next_up: list[int]  # the card that follows on a foundation, -1 if none
    parents: list[tuple[Card, ...]]  # cards this card may sit on in a column
    children: list[tuple[Card, ...]]  # cards that may sit on this card
    empty_ok: list[bool]  # may start an empty column


_RULES: dict[int, tuple[Variant, _Rules]] = {}


def rules(v: Variant) -> _Rules:
    entry = _RULES.get(id(v))
    if entry is None or entry[0] is not v:
        entry = _RULES[id(v)] = (v, _compile(v))
    return entry[1]


def _compile(v: Variant) -> _Rules:
    step = [-1] * 64
    for c in _CARDS.values():
        if c.rank_name in v.ranks:
            step[c] = v.ranks.index(c.rank_name)
    deck = [c for c in _CARDS.values() if step[c] >= 0]
    up = -1 if v.columns_follow_foundation_order else 1  # a column card sits on the card `up` steps away

    def fits(c: Card, under: Card) -> bool:
        colour = {"alternate": c.is_red != under.is_red, "suit": c.suit == under.suit, "any": True}[v.build]
        return colour and step[under] == step[c] + up

    next_up = [-1] * 64
    for c in deck:
        nxt = [d for d in deck if d.suit == c.suit and step[d] == step[c] + 1]
        next_up[c] = nxt[0] if nxt else -1
    parents = [tuple(u for u in deck if fits(_CARDS[c], u)) if step[c] >= 0 else () for c in range(64)]
    children = [tuple(c for c in deck if fits(c, _CARDS[u])) if step[u] >= 0 else () for u in range(64)]
    allowed = v.empty_column_ranks
    empty_ok = [step[c] >= 0 and (allowed is None or _CARDS[c].rank_name in allowed) if c in _CARDS else False
                for c in range(64)]
    return _Rules(step, next_up, parents, children, empty_ok)


_N = 16  # moves for up to 16 columns and foundations (the most a Variant allows) are made once and shared
_FLIP = [Move(FLIP, s) for s in range(_N)]
_W2T = [Move(WASTE_TO_COLUMN, target=d) for d in range(_N)]
_T2F = [Move(COLUMN_TO_FOUNDATION, s) for s in range(_N)]
_F2T = [[Move(FOUNDATION_TO_COLUMN, f, d) for d in range(_N)] for f in range(_N)]
_T2T = [[[Move(COLUMN_TO_COLUMN, s, d, k) for k in range(_N + 1)] for d in range(_N)] for s in range(_N)]
_DRAW, _RECYCLE, _W2F = Move(DRAW), Move(RECYCLE), Move(WASTE_TO_FOUNDATION)


def _foundation_wants(p: Position, r: _Rules) -> tuple[dict[int, int], int]:
    """Which card each foundation takes next ({card: first foundation}), and the first empty foundation."""
    wants: dict[int, int] = {}
    empty = -1
    for i, pile in enumerate(p.foundations):
        if pile:
            nxt = r.next_up[pile[-1]]
            if nxt >= 0 and nxt not in wants:
                wants[nxt] = i
        elif empty < 0:
            empty = i
    return wants, empty


def legal_moves(p: Position) -> list[Move]:
    """Every move the rules allow in position ``p``."""
    v = p.variant
    cols = p.columns
    r = rules(v)
    step, parents, children, empty_ok, next_up = r.step, r.parents, r.children, r.empty_ok, r.next_up
    founds = p.foundations
    wanted = {next_up[pile[-1]] for pile in founds if pile}
    base_ok = () in founds  # an empty foundation takes a first-rank card
    hidden = p.hidden
    targets: dict[int, list[int]] = {}  # card -> columns whose top would take it
    empties = []
    j = 0
    for col in cols:
        if not col:
            empties.append(j)
        elif len(col) > hidden[j]:
            for c in children[col[-1]]:
                if c in targets:
                    targets[c].append(j)
                else:
                    targets[c] = [j]
        j += 1
    moves: list[Move] = []
    add = moves.append
    s = -1
    for col in cols:
        s += 1
        h = hidden[s]
        i = len(col) - 1
        if i < h:
            if col and not v.auto_flip:
                add(_FLIP[s])
            continue
        top = col[i]
        if top in wanted or base_ok and step[top] == 0:
            add(_T2F[s])
        t2t = _T2T[s]
        k = 1
        while True:
            c = col[i]
            if c in targets:
                for d in targets[c]:
                    add(t2t[d][k])
            if empties and empty_ok[c]:
                for d in empties:
                    add(t2t[d][k])
            if i == h or col[i - 1] not in parents[c]:
                break
            i -= 1
            k += 1
    if p.waste:
        w = p.waste[-1]
        if v.waste_to_foundation and (w in wanted or base_ok and step[w] == 0):
            add(_W2F)
        if w in targets:
            for d in targets[w]:
                add(_W2T[d])
        if empties and empty_ok[w]:
            for d in empties:
                add(_W2T[d])
    if v.foundation_to_tableau:
        for f, pile in enumerate(founds):
            if pile:
                c = pile[-1]
                moves.extend(_F2T[f][d] for d in targets.get(c, ()))
                if empty_ok[c]:
                    moves.extend(_F2T[f][d] for d in empties)
    if p.stock:
        add(_DRAW)
    elif p.waste and (v.passes is None or p.recycles < v.passes - 1):
        add(_RECYCLE)
    return moves


def foundation_for(p: Position, c: Card) -> int:
    """The foundation a card goes to: the first that takes it, or -1."""
    wants, empty = _foundation_wants(p, rules(p.variant))
    return wants.get(c, empty if rules(p.variant).step[c] == 0 else -1)


def apply(p: Position, m: Move) -> Position:
    """The position after a legal move (pure: ``p`` is unchanged). Check legality first."""
    v, kind = p.variant, m.kind
    if kind == DRAW:
        n = min(v.draw, len(p.stock))
        return Position(v, p.stock[:-n], p.waste + p.stock[:-n - 1:-1], p.foundations, p.columns, p.hidden,
                        p.recycles)
    if kind == RECYCLE:
        return Position(v, p.waste[::-1], (), p.foundations, p.columns, p.hidden, p.recycles + 1)
    cols, hidden, waste, founds = p.columns, p.hidden, p.waste, p.foundations
    if kind == FLIP:
        s = m.source
        return Position(v, p.stock, waste, founds, cols, hidden[:s] + (hidden[s] - 1,) + hidden[s + 1:], p.recycles)
    if kind == COLUMN_TO_COLUMN:
        cols = list(cols)
        s, d, k = m.source, m.target, m.count
        src = cols[s]
        cols[s], cols[d] = src[:-k], cols[d] + src[-k:]
    elif kind == WASTE_TO_COLUMN:
        cols = list(cols)
        cols[m.target] += waste[-1:]
        waste = waste[:-1]
    elif kind == FOUNDATION_TO_COLUMN:
        cols, founds = list(cols), list(founds)
        cols[m.target] += founds[m.source][-1:]
        founds[m.source] = founds[m.source][:-1]
        founds = tuple(founds)
    else:  # to a foundation, from the waste or a column
        c = waste[-1] if kind == WASTE_TO_FOUNDATION else cols[m.source][-1]
        f = foundation_for(p, c)
        founds = founds[:f] + (founds[f] + (c,),) + founds[f + 1:]
        if kind == WASTE_TO_FOUNDATION:
            waste = waste[:-1]
        else:
            cols = list(cols)
            cols[m.source] = cols[m.source][:-1]
    if v.auto_flip and m.source >= 0 and kind in (COLUMN_TO_COLUMN, COLUMN_TO_FOUNDATION):
        s = m.source
        if cols[s] and len(cols[s]) == hidden[s]:
            hidden = hidden[:s] + (hidden[s] - 1,) + hidden[s + 1:]
    return Position(v, p.stock, waste, founds, tuple(cols), hidden, p.recycles)


def is_won(p: Position) -> bool:
    return sum(map(len, p.foundations)) == p.variant.deck_size


def explain_illegal(p: Position, m: Move) -> str | None:
    """Why ``m`` breaks the rules in ``p``, in a student's words; None if it is legal."""
    v, kind = p.variant, m.kind
    n, nf = len(p.columns), len(p.foundations)
    r = rules(v)
    if kind == DRAW:
        return "the stock is empty: recycle the waste to turn it into a new stock" if not p.stock else None
    if kind == RECYCLE:
        if p.stock:
            return "you may recycle only when the stock is empty: draw the remaining cards first"
        if not p.waste:
            return "the waste is empty: there is nothing to recycle"
        if v.passes is not None and p.recycles >= v.passes - 1:
            return f"{v.name} allows only {v.passes} pass(es) through the stock, and they are used up"
        return None
    for index, size, what in ((m.source, n, "column"), (m.target, n, "column")):
        if kind in (FLIP, COLUMN_TO_FOUNDATION, COLUMN_TO_COLUMN) and index is m.source or (
                kind in (WASTE_TO_COLUMN, COLUMN_TO_COLUMN, FOUNDATION_TO_COLUMN) and index is m.target):
            if not 0 <= index < size:
                return f"there is no {what} {index + 1}: columns are t1 to t{n}"
    if kind == FOUNDATION_TO_COLUMN and not 0 <= m.source < nf:
        return f"there is no foundation {m.source + 1}: foundations are f1 to f{nf}"
    if kind == FLIP:
        col, h = p.columns[m.source], p.hidden[m.source]
        if not col:
            return f"column {m.source + 1} is empty: there is nothing to flip"
        if len(col) > h:
            return f"the top card of column {m.source + 1} ({col[-1]}) is already face up"
        return f"{v.name} turns face-down cards automatically" if v.auto_flip else None
    # find the moving cards
    if kind in (WASTE_TO_COLUMN, WASTE_TO_FOUNDATION):
        if not p.waste:
            return "the waste is empty: draw a card from the stock first"
        moving: tuple[Card, ...] = p.waste[-1:]
        if kind == WASTE_TO_FOUNDATION and not v.waste_to_foundation:
            return f"in {v.name} the waste card may go only to a column, not to a foundation"
    elif kind == FOUNDATION_TO_COLUMN:
        if not v.foundation_to_tableau:
            return f"in {v.name} cards never come back from a foundation"
        if not p.foundations[m.source]:
            return f"foundation {m.source + 1} is empty"
        moving = p.foundations[m.source][-1:]
    else:
        col, h, s = p.columns[m.source], p.hidden[m.source], m.source + 1
        if not col:
            return f"column {s} is empty: there is no card to move"
        if len(col) == h:
            return f"the top card of column {s} is face down: flip it first (flip t{s})"
        if m.count < 1 or m.count > len(col) - h:
            return f"column {s} has {len(col) - h} face-up card(s), so it cannot move {m.count}"
        moving = col[-m.count:]
        for below, above in zip(moving, moving[1:]):
            if below not in r.parents[above]:
                return f"{above} on {below} is not part of a build, so those {m.count} cards cannot move as one"
        if kind == COLUMN_TO_COLUMN and m.source == m.target:
            return "a card cannot move onto its own column"
    first = moving[0]
    if kind in (WASTE_TO_FOUNDATION, COLUMN_TO_FOUNDATION):
        if foundation_for(p, first) >= 0:
            return None
        base = v.ranks[0]
        return (f"{first} cannot go to a foundation: a foundation takes the next card of its suit "
                f"(in the order {' '.join(v.ranks)}), and an empty one takes only {rank_phrase(base)}")
    target = p.columns[m.target]
    if not target:
        return None if r.empty_ok[first] else f"{first} cannot go on the empty column {m.target + 1}: {v.empty_column_rule()}"
    if len(target) == p.hidden[m.target]:
        return f"the top card of column {m.target + 1} is face down: nothing can go on it"
    if target[-1] not in r.parents[first]:
        return f"{first} cannot go on {target[-1]}: {v.column_rule()}"
    return None


def reachable_waste_tops(p: Position) -> set[Card]:
    """The cards that drawing and recycling alone can bring to the top of the waste."""
    v = p.variant
    stock, waste = list(p.stock), list(p.waste)
    tops = set(waste[-1:])
    recycles_left = 1 if v.passes is None else min(1, v.passes - 1 - p.recycles)
    while True:
        while stock:
            for _ in range(min(v.draw, len(stock))):
                waste.append(stock.pop())
            tops.add(waste[-1])
        if recycles_left <= 0 or not waste:
            return tops
        recycles_left -= 1
        stock, waste = waste[::-1], []


def progress_possible(p: Position, limit: int = 200, moves: list[Move] | None = None) -> bool:
    """Can play still change the game? False when only draws, recycles and moves that lead nowhere are left.

    Progress is a flip, a waste card played, or more cards on the foundations than now. The search tries the
    column and foundation moves that make none of these (at most ``limit`` arrangements). ``moves`` may pass
    ``legal_moves(p)`` when it is known already.
    """
    v = p.variant
    if moves is not None:
        hidden = p.hidden
        for m in moves:
            kind = m.kind
            if kind in _ALWAYS_PROGRESS or kind == COLUMN_TO_COLUMN and hidden[m.source] and \
                    m.count == len(p.columns[m.source]) - hidden[m.source]:
                return True
    if v.draw == 1 and v.passes is None and not accepted_cards(p, v.waste_to_foundation).isdisjoint(p.stock + p.waste):
        return True  # a stock or waste card fits somewhere, and drawing brings every one of them up
    key = (id(v), p.columns, p.hidden, p.foundations, tuple(sorted(p.stock + p.waste)),
           None if v.passes is None and v.draw == 1 else (len(p.stock), p.recycles))
    known = _PROGRESS.get(key)
    if known is None:
        known = _progress_possible(p, limit, moves)
        if len(_PROGRESS) > 200_000:
            _PROGRESS.clear()
        rules(v)  # keeps the variant alive, so id(v) stays its own while cached
        _PROGRESS[key] = known
    return known


# Drawing and recycling only turn the stock and waste through one cycle, so with one-card draws and unlimited
# passes the answer depends on the piles and the set of stock and waste cards, not on where the cycle stands.
_PROGRESS: dict[tuple, bool] = {}


def _progress_possible(p: Position, limit: int, moves: list[Move] | None) -> bool:
    start = p.on_foundations()
    tops: set[Card] | None = None
    seen = {_arrangement(p)}
    frontier = [p]
    while frontier:
        q = frontier.pop()
        lateral = []
        for m in moves if q is p and moves is not None else legal_moves(q):
            kind = m.kind
            if kind == FLIP or kind in _FROM_WASTE and q is p or kind == COLUMN_TO_FOUNDATION and q.on_foundations() >= start:
                return True
            if kind == COLUMN_TO_COLUMN and q.hidden[m.source] and m.count == len(q.columns[m.source]) - q.hidden[m.source]:
                return True  # uncovers a face-down card
            if kind not in STOCK_MOVES and kind not in _FROM_WASTE:
                lateral.append(m)
        if tops is None:
            tops = reachable_waste_tops(p)
        if tops and not tops.isdisjoint(accepted_cards(q, p.variant.waste_to_foundation)):
            return True
        for m in lateral:
            nxt = apply(q, m)
            key = _arrangement(nxt)
            if key not in seen:
                if len(seen) >= limit:
                    return True  # too many arrangements to be sure: assume play can go on
                seen.add(key)
                frontier.append(nxt)
    return False


def _arrangement(p: Position) -> tuple:
    """The columns and foundations, ignoring the order of the columns (it does not matter for progress)."""
    return tuple(sorted(zip(p.hidden, p.columns))), tuple(sorted(p.foundations))


def accepted_cards(p: Position, foundations: bool = True) -> set[int]:
    """The cards that some column (or, if ``foundations``, some foundation) would take now."""
    r = rules(p.variant)
    ok: set[int] = set()
    for col, h in zip(p.columns, p.hidden):
        if not col:
            ok.update(c for c in range(64) if r.empty_ok[c])
        elif len(col) > h:
            ok.update(r.children[col[-1]])
    if foundations:
        wants, empty = _foundation_wants(p, r)
        ok.update(wants)
        if empty >= 0:
            ok.update(c for c in range(64) if r.step[c] == 0)
    return ok


def over_reason(p: Position, moves: list[Move] | None = None) -> str | None:
    """Why the game is over ('won' or 'no more moves'), or None while it goes on (``moves``: see progress_possible)."""
    if is_won(p):
        return "won"
    return None if progress_possible(p, moves=moves) else "no more moves"
