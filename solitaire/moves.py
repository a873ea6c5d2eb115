"""Moves: what may be played (``legal_moves``) and what it does (``apply``).

Read it in this order:

1. ``Move``: a move as a small value, and its text (``t3>t7``, ``w>f`` ...). Reading a move's text back is
   ``solitaire.notation``'s job (``move_from_text``), with the other text formats.
2. ``rules(variant)``: the variant's rules compiled once into lookup tables: which card may sit on which in
   a column, which card follows which on a foundation, which cards may start an empty column, and every
   move a game of the variant could play, made once so that ``legal_moves`` only has to pick them.
3. Two questions the rules keep asking: ``foundation_wants`` (the foundations' next cards) and
   ``makes_progress`` (does a move change the game, or lead nowhere?).
4. ``legal_moves``: one small function per kind of move, put together in a fixed order.
5. ``apply``: one small function per kind of move; each returns a new position and leaves the old one be.

Two second readings build on it: ``solitaire.explain`` says why a move is illegal, in a student's words, and
``solitaire.endgame`` decides how the game ends.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from .cards import ALL_CARDS, Card
from .state import Observation, Position
from .variants import Variant

DRAW, RECYCLE, FLIP = "draw", "recycle", "flip"
WASTE_TO_COLUMN, WASTE_TO_FOUNDATION = "w>t", "w>f"
COLUMN_TO_FOUNDATION, COLUMN_TO_COLUMN, FOUNDATION_TO_COLUMN = "t>f", "t>t", "f>t"
STOCK_MOVES = frozenset({DRAW, RECYCLE})
_ALWAYS_PROGRESS = frozenset({FLIP, WASTE_TO_COLUMN, WASTE_TO_FOUNDATION, COLUMN_TO_FOUNDATION})


class InvalidMoveError(ValueError):
    """The text does not describe a move in the kit's notation (``solitaire.notation.move_from_text`` reads it)."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow in this position."""


# --- 1. a move and its text ------------------------------------------------------------------------
# Each kind of move as text: s is the source pile, t the target column, n the count (":4" for 4 cards).
_TEXT = {DRAW: "draw", RECYCLE: "recycle", FLIP: "flip t{s}", WASTE_TO_COLUMN: "w>t{t}", WASTE_TO_FOUNDATION: "w>f",
         COLUMN_TO_FOUNDATION: "t{s}>f", COLUMN_TO_COLUMN: "t{s}>t{t}{n}", FOUNDATION_TO_COLUMN: "f{s}>t{t}"}
# Where each kind of move takes its cards from, and where it puts them ("foundations": the one that takes it).
ROUTES = {FLIP: ("column", None), WASTE_TO_COLUMN: ("waste", "column"), WASTE_TO_FOUNDATION: ("waste", "foundations"),
           COLUMN_TO_FOUNDATION: ("column", "foundations"), COLUMN_TO_COLUMN: ("column", "column"),
           FOUNDATION_TO_COLUMN: ("foundation", "column")}


class Move(NamedTuple):
    """A move as a hashable value. Columns and foundations are numbered from 0 here, from 1 in its text.

    ``str`` gives the text a player types (``solitaire.notation.move_from_text`` reads it back); a move whose
    fields that text cannot show (a count of 0, a source on a draw) is written with all its fields instead.

    >>> m = Move(COLUMN_TO_COLUMN, source=2, target=6, count=2)
    >>> m, str(m), str(Move(WASTE_TO_FOUNDATION))
    (Move('t>t', 2, 6, 2), 't3>t7:2', 'w>f')
    >>> str(Move(COLUMN_TO_COLUMN, 2, 6, 0))
    "Move('t>t', 2, 6, 0)"
    """

    kind: str
    source: int = -1
    target: int = -1
    count: int = 1

    def __repr__(self) -> str:
        fields = list(self)
        while fields[-1] == [None, -1, -1, 1][len(fields) - 1]:  # leave out the default values at the end
            fields.pop()
        return f"Move({', '.join(repr(f) for f in fields)})"

    def __str__(self) -> str:
        text = _TEXT.get(self.kind, "")
        source_ok = self.source >= 0 if "{s}" in text else self.source == -1  # a field the text does not write
        target_ok = self.target >= 0 if "{t}" in text else self.target == -1  # must keep its default
        count_ok = self.count >= 1 if "{n}" in text else self.count == 1
        if not (text and source_ok and target_ok and count_ok):
            return repr(self)  # the text would hide a field (a count of 0, a column on a draw): show them all
        return text.format(s=self.source + 1, t=self.target + 1, n=f":{self.count}" if self.count > 1 else "")


# --- 2. the rules as lookup tables -----------------------------------------------------------------
@dataclass(frozen=True, slots=True, eq=False)  # each variant's rules are made once: they are told apart by identity
class Rules:
    """A variant's rules as lookup tables, indexed by card code (see ``solitaire.cards``), and its moves."""

    step: list[int]  # the card's place in foundation order (0 starts a foundation), -1 if not in the deck
    next_up: list[Card | int]  # the card that follows it on a foundation, -1 if none
    parents: list[tuple[Card, ...]]  # the cards it may sit on in a column
    children: list[tuple[Card, ...]]  # the cards that may sit on it in a column
    empty_ok: list[bool]  # may it start an empty column?
    bases: tuple[Card, ...]  # the cards that start a foundation
    starters: tuple[Card, ...]  # the cards that may start an empty column
    moves: dict[tuple, Move]  # every move the table could ever allow, made once: moves[kind, source, target, count]


@lru_cache(maxsize=64)
def rules(v: Variant, fits=None) -> Rules:
    """The variant's rules compiled once into lookup tables (equal variants share them).

    ``fits``, if given, replaces the column rule: ``fits(card, under, v)`` says whether ``card`` may sit on
    ``under`` (a student's function: ``solitaire.engine`` compiles the rules with it).

    >>> from solitaire import KLONDIKE, ITALIAN, Card
    >>> [str(c) for c in rules(KLONDIKE).parents[Card("7♥")]], str(rules(ITALIAN).next_up[Card("A♠")])
    (['8♣', '8♠'], 'K♠')
    >>> def any_on_any(card, under, v):
    ...     return True
    >>> len(rules(KLONDIKE, any_on_any).parents[Card("7♥")])  # every card of the deck, itself too
    52
    """
    step = [-1] * 64
    for c in ALL_CARDS:
        if c.rank_name in v.ranks:
            step[c] = v.ranks.index(c.rank_name)
    deck = [c for c in ALL_CARDS if step[c] >= 0]
    up = -1 if v.columns_follow_foundation_order else 1  # a column card sits on the card `up` steps away

    def kit_fits(c: Card, under: Card) -> bool:
        colour = {"alternate": c.is_red != under.is_red, "suit": c.suit == under.suit, "any": True}[v.build]
        return colour and step[under] == step[c] + up

    def given_fits(c: Card, under: Card) -> bool:
        return fits(c, under, v)

    rule = kit_fits if fits is None else given_fits
    next_up, parents, children, empty_ok = [-1] * 64, [()] * 64, [()] * 64, [False] * 64
    for c in deck:
        next_up[c] = next((d for d in deck if d.suit == c.suit and step[d] == step[c] + 1), -1)
        parents[c] = tuple(u for u in deck if rule(c, u))
        children[c] = tuple(d for d in deck if rule(d, c))
        empty_ok[c] = v.empty_column_ranks is None or c.rank_name in v.empty_column_ranks
    # Every move a game of this variant could play, made once so that legal_moves hands out the same objects:
    n = range(len(v.columns))  # the columns
    keys = [(DRAW, -1, -1, 1), (RECYCLE, -1, -1, 1), (WASTE_TO_FOUNDATION, -1, -1, 1)]
    keys += [(kind, s, -1, 1) for kind in (FLIP, COLUMN_TO_FOUNDATION) for s in n] + [(WASTE_TO_COLUMN, -1, d, 1) for d in n]
    keys += [(FOUNDATION_TO_COLUMN, f, d, 1) for f in range(v.foundations) for d in n]
    # builds of 1 card up to one card of each rank, from a column to each other column
    keys += [(COLUMN_TO_COLUMN, s, d, k) for s in n for d in n if s != d for k in range(1, len(v.ranks) + 1)]
    return Rules(step, next_up, parents, children, empty_ok, tuple(c for c in deck if step[c] == 0),
                 tuple(c for c in deck if empty_ok[c]), {key: Move(*key) for key in keys})


# --- 3. two questions the rules keep asking --------------------------------------------------------
def foundation_wants(p: Position | Observation, r: Rules | None = None) -> dict[Card, int]:
    """The foundations' next cards: {card: the first foundation that would take it now}.

    An empty foundation would take every first card (every Ace), also one already home: SoliJoy has two of each.

    Worked out once for each layout of the foundations (a game has few), so the answer is shared: read it only.

    >>> from solitaire import KLONDIKE, deal
    >>> sorted(str(c) for c in foundation_wants(deal(KLONDIKE, 1)))  # every foundation is empty: the Aces
    ['A♠', 'A♣', 'A♥', 'A♦']
    """
    return _foundation_wants(r or rules(p.variant), p.foundations)


@lru_cache(maxsize=1024)
def _foundation_wants(r: Rules, foundations: tuple[tuple[Card, ...], ...]) -> dict[Card, int]:
    wants: dict[Card, int] = {}
    for f, pile in enumerate(foundations):
        takes = [r.next_up[pile[-1]]] if pile else r.bases  # an empty foundation takes every first card
        for c in takes:
            if c >= 0 and c not in wants:  # -1: a full foundation takes nothing; the first foundation wins
                wants[c] = f
    return wants


def foundation_for(p: Position, c: Card) -> int:
    """The foundation card ``c`` goes to (the first that takes it), or -1.

    >>> from solitaire import KLONDIKE, Card, deal
    >>> foundation_for(deal(KLONDIKE, 1), Card("A♦")), foundation_for(deal(KLONDIKE, 1), Card("2♦"))
    (0, -1)
    """
    return foundation_wants(p).get(c, -1)


def makes_progress(p: Position, m: Move) -> bool:
    """Does ``m`` make progress: a flip, a waste card played, a card to a foundation, a face-down card uncovered?

    Draws, recycles and the other column and foundation moves lead nowhere by themselves.

    >>> from solitaire import KLONDIKE, deal
    >>> makes_progress(deal(KLONDIKE, 1), Move(DRAW))
    False
    """
    uncovers = m.kind == COLUMN_TO_COLUMN and 0 < p.hidden[m.source] == len(p.columns[m.source]) - m.count
    return m.kind in _ALWAYS_PROGRESS or uncovers


def is_won(p: Position) -> bool:
    """Is every card on a foundation?

    >>> from solitaire import KLONDIKE, deal
    >>> is_won(deal(KLONDIKE, 1))
    False
    """
    return sum(map(len, p.foundations)) == p.variant.deck_size


# --- 4. legal moves: one function per kind of move -------------------------------------------------
def legal_moves(p: Position) -> list[Move]:
    """Every move the rules allow in ``p``: column by column, then the waste, the foundations, the stock.

    >>> from solitaire import KLONDIKE, deal
    >>> legal_moves(deal(KLONDIKE, 1))
    [Move('t>t', 0, 6), Move('draw')]
    """
    r = rules(p.variant)
    targets, wants = column_targets(p, r), foundation_wants(p, r)
    moves = _column_moves(p, r, targets, wants)
    if p.waste:
        moves += _waste_moves(p, r, targets, wants)
    if p.variant.foundation_to_tableau:
        moves += _foundation_to_column_moves(p, r, targets)
    if not p.variant.draw_only_when_stuck or not any(makes_progress(p, m) for m in moves):
        moves += _stock_moves(p, r)
    return moves


def column_targets(p: Position, r: Rules) -> dict[Card, list[int]]:
    """Where a card may go in the columns now: {card: the columns that take it, left to right}.

    >>> from solitaire import KLONDIKE, Card, deal
    >>> column_targets(deal(KLONDIKE, 1), rules(KLONDIKE))[Card("7♦")]  # onto 8♠ in column 7
    [6]
    """
    targets: dict[Card, list[int]] = {}
    empty = []
    hidden = p.hidden
    for d, col in enumerate(p.columns):
        if not col:
            empty.append(d)
        elif len(col) > hidden[d]:  # a face-up top card takes its children
            for c in r.children[col[-1]]:
                if c in targets:
                    targets[c].append(d)
                else:
                    targets[c] = [d]
    for c in r.starters if empty else ():  # after them, the empty columns take the cards that may start one
        targets[c] = targets.get(c, []) + empty
    return targets


def _column_moves(p: Position, r: Rules, targets: dict, wants: dict) -> list[Move]:
    """Out of each column in turn: a flip, or the top card to a foundation and each build onto a column."""
    moves = []
    hidden = p.hidden
    for s, col in enumerate(p.columns):
        face_up = len(col) - hidden[s]
        if not face_up:  # empty, or the top card is face down
            if col and not p.variant.auto_flip:
                moves.append(r.moves[FLIP, s, -1, 1])
            continue
        if col[-1] in wants:
            moves.append(r.moves[COLUMN_TO_FOUNDATION, s, -1, 1])
        k = 1  # the top k cards move as one build
        while True:
            c = col[-k]
            if c in targets:
                for d in targets[c]:
                    moves.append(r.moves[COLUMN_TO_COLUMN, s, d, k])
            if k == face_up or col[-k - 1] not in r.parents[c]:
                break  # the next card down is face down, or c does not sit on it
            k += 1
    return moves


def _waste_moves(p: Position, r: Rules, targets: dict, wants: dict) -> list[Move]:
    """The waste's top card to its foundation (where the variant allows it) or onto a column."""
    top = p.waste[-1]
    moves = [r.moves[WASTE_TO_FOUNDATION, -1, -1, 1]] if p.variant.waste_to_foundation and top in wants else []
    return moves + [r.moves[WASTE_TO_COLUMN, -1, d, 1] for d in targets.get(top, ())]


def _foundation_to_column_moves(p: Position, r: Rules, targets: dict) -> list[Move]:
    """A foundation's top card back onto a column (where the variant allows it)."""
    return [r.moves[FOUNDATION_TO_COLUMN, f, d, 1] for f, pile in enumerate(p.foundations) if pile
            for d in targets.get(pile[-1], ())]


def _stock_moves(p: Position, r: Rules) -> list[Move]:
    """Draw while the stock holds cards; then recycle the waste, while passes are left."""
    if p.stock:
        return [r.moves[DRAW, -1, -1, 1]]
    return [r.moves[RECYCLE, -1, -1, 1]] if p.waste and passes_left(p) else []


def passes_left(p: Position) -> bool:
    """May the waste still be turned over into a new stock (the variant's ``passes`` are not used up)?

    >>> from solitaire import KLONDIKE, deal
    >>> passes_left(deal(KLONDIKE, 1))  # Klondike allows unlimited passes
    True
    """
    return p.variant.passes is None or p.recycles < p.variant.passes - 1


# --- 5. apply: one function per kind of move -------------------------------------------------------
def apply(p: Position, m: Move) -> Position:
    """The position after a legal move (pure: ``p`` is unchanged). Check legality first.

    >>> from solitaire import KLONDIKE, deal
    >>> p = deal(KLONDIKE, 1)
    >>> q = apply(p, Move(DRAW))
    >>> len(q.stock), q.waste == p.stock[-1:], len(p.stock)
    (23, True, 24)
    """
    return _APPLY.get(m.kind, _move_cards)(p, m)


def _draw(p: Position, m: Move) -> Position:
    n = min(p.variant.draw, len(p.stock))  # (a draw is legal only while the stock has cards: n >= 1)
    kept, drawn = p.stock[:-n], p.stock[-n:]  # the top n cards are drawn,
    return p._replace(stock=kept, waste=p.waste + drawn[::-1])  # turned over one by one: the top one first


def _recycle(p: Position, m: Move) -> Position:
    return p._replace(stock=p.waste[::-1], waste=(), recycles=p.recycles + 1)


def _flip(p: Position, m: Move) -> Position:
    return p._replace(hidden=_one_less(p.hidden, m.source))


def _one_less(hidden: tuple[int, ...], s: int) -> tuple[int, ...]:
    counts = list(hidden)  # a tuple cannot change: change a list copy, then make it a tuple again
    counts[s] -= 1
    return tuple(counts)


def _move_cards(p: Position, m: Move) -> Position:
    """Every other move takes cards off one pile and puts them on another: ``ROUTES`` says which."""
    kind, s, t, k = m
    source, target = ROUTES[kind]
    waste, founds, cols, hidden = p.waste, p.foundations, list(p.columns), p.hidden  # a list, to change it
    if source == "waste":
        cards, waste = waste[-1:], waste[:-1]
    elif source == "foundation":
        founds = list(founds)
        cards, founds[s] = founds[s][-1:], founds[s][:-1]
    else:  # the top k cards of column s
        cards, cols[s] = cols[s][-k:], cols[s][:-k]
        if p.variant.auto_flip and cols[s] and len(cols[s]) == hidden[s]:
            hidden = _one_less(hidden, s)  # the variant turns up a face-down card left on top
    if target == "column":
        cols[t] += cards
    else:  # onto the first foundation that takes the card
        founds = list(founds)
        founds[foundation_for(p, cards[0])] += cards
    return Position(p.variant, p.stock, waste, tuple(founds), tuple(cols), hidden, p.recycles)


_APPLY = {DRAW: _draw, RECYCLE: _recycle, FLIP: _flip}  # the other kinds move cards from pile to pile
