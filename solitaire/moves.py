"""Moves: what may be played (``legal_moves``), what it does (``apply``), and why not (``explain_illegal``)."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from .cards import Card, _CARDS
from .state import Observation, Position
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
    bases: tuple[Card, ...]  # the cards an empty foundation takes (the first rank, each suit)


@lru_cache(maxsize=64)
def rules(v: Variant) -> _Rules:
    """The variant's rules compiled to lookup tables, once per variant (equal variants share them)."""
    return _compile(v)


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
    return _Rules(step, next_up, parents, children, empty_ok, tuple(c for c in deck if step[c] == 0))


_N = 16  # moves for up to 16 columns and foundations (the most a Variant allows) are made once and shared
_FLIP = [Move(FLIP, s) for s in range(_N)]
_W2T = [Move(WASTE_TO_COLUMN, target=d) for d in range(_N)]
_T2F = [Move(COLUMN_TO_FOUNDATION, s) for s in range(_N)]
_F2T = [[Move(FOUNDATION_TO_COLUMN, f, d) for d in range(_N)] for f in range(_N)]
_T2T = [[[Move(COLUMN_TO_COLUMN, s, d, k) for k in range(_N + 1)] for d in range(_N)] for s in range(_N)]
_DRAW, _RECYCLE, _W2F = Move(DRAW), Move(RECYCLE), Move(WASTE_TO_FOUNDATION)


def foundation_wants(p: Position | Observation) -> dict[Card, int]:
    """The foundations' next cards: each card some foundation takes now, with the first foundation that takes it.

    >>> from solitaire import KLONDIKE, deal
    >>> sorted(str(c) for c in foundation_wants(deal(KLONDIKE, 1)))  # every foundation is empty
    ['A♠', 'A♣', 'A♥', 'A♦']
    """
    r = rules(p.variant)
    wants: dict[Card, int] = {}
    for i, pile in enumerate(p.foundations):
        if pile:
            nxt = r.next_up[pile[-1]]
            if nxt >= 0:
                wants.setdefault(_CARDS[nxt], i)
        elif r.bases[0] not in wants:
            wants.update(dict.fromkeys(r.bases, i))
    return wants


def legal_moves(p: Position) -> list[Move]:
    """Every move the rules allow in position ``p``."""
    v = p.variant
    cols = p.columns
    r = rules(v)
    step, parents, children, empty_ok, next_up = r.step, r.parents, r.children, r.empty_ok, r.next_up
    founds = p.foundations
    wanted = foundation_wants(p)
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
        if top in wanted:
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
        if v.waste_to_foundation and w in wanted:
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
    if v.draw_only_when_stuck and any(makes_progress(p, m) for m in moves):
        return moves
    if p.stock:
        add(_DRAW)
    elif p.waste and (v.passes is None or p.recycles < v.passes - 1):
        add(_RECYCLE)
    return moves


def makes_progress(p: Position, m: Move) -> bool:
    """Does ``m`` make progress: a flip, a waste card played, a card to a foundation, or a face-down card uncovered?

    Draws, recycles and the other column and foundation moves lead nowhere by themselves.
    """
    if m.kind in _ALWAYS_PROGRESS:
        return True
    return m.kind == COLUMN_TO_COLUMN and 0 < p.hidden[m.source] == len(p.columns[m.source]) - m.count


def foundation_for(p: Position, c: Card) -> int:
    """The foundation a card goes to: the first that takes it, or -1."""
    return foundation_wants(p).get(c, -1)


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
    if kind in STOCK_MOVES and v.draw_only_when_stuck:
        progress = next((m for m in legal_moves(p) if makes_progress(p, m)), None)
        if progress is not None:
            return (f"in {v.name} you may {kind} only when no move that makes progress is left, "
                    f"and {progress} is possible")
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


# --- the end of the game lives in solitaire.endgame; these names stay importable from here ------------
_MOVED = ("over_reason", "progress_possible", "reachable_waste_tops", "accepted_cards")


def __getattr__(name: str):
    if name in _MOVED:
        from . import endgame
        return getattr(endgame, name)
    raise AttributeError(f"module 'solitaire.moves' has no attribute {name!r}")
