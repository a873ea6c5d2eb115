"""Moves: what may be played (``legal_moves``) and what it does (``apply``).

Read it in this order:

1. ``Move``: a move as a small value, and the notation ``Move.from_text`` reads (``t3>t7``, ``w>f`` ...).
2. ``rules(variant)``: the variant's rules compiled once into lookup tables: which card may sit on which in
   a column, which card follows which on a foundation, which cards may start an empty column, and every
   move the variant's table allows, made once so that ``legal_moves`` only has to pick them.
3. Two questions the rules keep asking: ``foundation_wants`` (the foundations' next cards) and
   ``makes_progress`` (does a move change the game, or lead nowhere?).
4. ``legal_moves``: one small function per kind of move, put together in a fixed order.
5. ``apply``: one small function per kind of move; each returns a new position and leaves the old one be.

Two second readings build on it: ``solitaire.explain`` says why a move is illegal, in a student's words, and
``solitaire.endgame`` decides how the game ends.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from .cards import ALL_CARDS, Card, quote
from .state import Observation, Position
from .variants import Variant

DRAW, RECYCLE, FLIP = "draw", "recycle", "flip"
WASTE_TO_COLUMN, WASTE_TO_FOUNDATION = "w>t", "w>f"
COLUMN_TO_FOUNDATION, COLUMN_TO_COLUMN, FOUNDATION_TO_COLUMN = "t>f", "t>t", "f>t"
STOCK_MOVES = frozenset({DRAW, RECYCLE})
_ALWAYS_PROGRESS = frozenset({FLIP, WASTE_TO_COLUMN, WASTE_TO_FOUNDATION, COLUMN_TO_FOUNDATION})


class InvalidMoveError(ValueError):
    """The text does not describe a move in the kit's notation."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow in this position."""


# --- 1. a move and its notation --------------------------------------------------------------------
# Each kind of move as text: s is the source pile, t the target column, n the count (":4" for 4 cards).
_TEXT = {DRAW: "draw", RECYCLE: "recycle", FLIP: "flip t{s}", WASTE_TO_COLUMN: "w>t{t}", WASTE_TO_FOUNDATION: "w>f",
         COLUMN_TO_FOUNDATION: "t{s}>f", COLUMN_TO_COLUMN: "t{s}>t{t}{n}", FOUNDATION_TO_COLUMN: "f{s}>t{t}"}
# ... and read back: a move is written "source>target", and the first letters of the two say its kind.
_KINDS = {("w", "t"): WASTE_TO_COLUMN, ("w", "f"): WASTE_TO_FOUNDATION, ("t", "f"): COLUMN_TO_FOUNDATION,
          ("t", "t"): COLUMN_TO_COLUMN, ("f", "t"): FOUNDATION_TO_COLUMN}
_MOVE_HELP = "write one of draw, recycle, flip t3, w>t3, w>f, t3>f, t3>t7, t3>t7:4 (the top 4 cards) or f2>t3"
_PILE_HELP = "write stock, waste, f2, t3 or t3:2 (the top 2 cards of t3)"
_STARTS_AT_ONE = "columns, foundations and counts start at 1"
# Where each kind of move takes its cards from, and where it puts them ("foundations": the one that takes it).
ROUTES = {FLIP: ("column", None), WASTE_TO_COLUMN: ("waste", "column"), WASTE_TO_FOUNDATION: ("waste", "foundations"),
           COLUMN_TO_FOUNDATION: ("column", "foundations"), COLUMN_TO_COLUMN: ("column", "column"),
           FOUNDATION_TO_COLUMN: ("foundation", "column")}


class InvalidPileError(ValueError):
    """The text does not name a pile of the table."""


class PileNumberError(InvalidPileError):
    """A pile's name with a number 0 in it: columns, foundations and counts start at 1."""


class Pile(NamedTuple):
    """A pile by name: ``kind`` is 'stock', 'waste', 'foundation' or 'column', ``index`` counts from 0 (as in
    ``Move``), ``count`` is how many cards from a column's top. ``str`` gives the name back.

    >>> str(Pile("column", 2, count=2)), str(Pile("foundation", 1)), str(Pile("waste"))
    ('t3:2', 'f2', 'waste')
    """

    kind: str
    index: int = 0
    count: int = 1

    def __str__(self) -> str:
        if self.kind in ("stock", "waste"):
            return self.kind
        count = f":{self.count}" if self.kind == "column" and self.count > 1 else ""
        return f"{_LETTERS[self.kind]}{self.index + 1}{count}"


_NAMED_PILES = {"stock": "stock", "waste": "waste", "w": "waste"}  # 'w' is how moves write the waste
_NUMBERED_PILES = {"t": "column", "f": "foundation"}
_LETTERS = {kind: letter for letter, kind in _NUMBERED_PILES.items()}


def parse_pile(text: str) -> Pile:
    """Read a pile's name: 'stock', 'waste' (or 'w'), 'f2' (foundation 2), 't3' (column 3), 't3:2' (its top 2 cards).

    Case and spaces around the name do not matter; a number has one to three digits.

    >>> parse_pile("t3:2"), parse_pile(" F1 ")
    (Pile(kind='column', index=2, count=2), Pile(kind='foundation', index=0, count=1))
    >>> parse_pile("waste") == parse_pile("w") == Pile("waste")
    True
    >>> parse_pile("t0")
    Traceback (most recent call last):
    solitaire.moves.PileNumberError: cannot read a pile from 't0': columns, foundations and counts start at 1

    Raises:
        InvalidPileError: for text that names no pile (``PileNumberError`` for a number 0); the message echoes it.
    """
    name = text.strip().lower() if isinstance(text, str) else ""
    if name in _NAMED_PILES:
        return Pile(_NAMED_PILES[name])
    number, colon, count = name[1:].partition(":")  # 't3:2' -> '3', ':', '2'
    numbers = [number, count] if colon else [number]
    if name[:1] not in _NUMBERED_PILES or (colon and name[0] != "t") or not all(map(_is_number, numbers)):
        raise InvalidPileError(f"cannot read a pile from {quote(text)}: {_PILE_HELP}")
    if 0 in map(int, numbers):
        raise PileNumberError(f"cannot read a pile from {quote(text)}: {_STARTS_AT_ONE}")
    return Pile(_NUMBERED_PILES[name[0]], int(number) - 1, int(count) if colon else 1)


def _is_number(digits: str) -> bool:
    """Is it a number as pile names write them: one to three digits?"""
    return 1 <= len(digits) <= 3 and digits.isdecimal()


def _split_move(text: str) -> tuple[str, str, str]:
    """A move's text without spaces -> (kind, source, target), the piles as named in it, by the letters alone.

    'flipt3' -> (FLIP, 't3', ''); 't3>t7:4' -> (COLUMN_TO_COLUMN, 't3', 't7:4'); 'w>f' -> (WASTE_TO_FOUNDATION,
    '', ''): the waste ('w') and "a foundation" ('f') carry no number, so they are not named again.
    """
    unreadable = InvalidPileError(f"no move is written {quote(text)}")
    if text.startswith("flip"):
        kind, source, target = FLIP, text.removeprefix("flip"), ""
        if source[:1] != "t":
            raise unreadable
    else:
        source, _, target = text.partition(">")
        kind = _KINDS.get((source[:1], target[:1]))
        if kind is None or (source[:1] == "w" and source != "w") or (target[:1] == "f" and target != "f"):
            raise unreadable
        source = "" if source == "w" else source
        target = "" if target == "f" else target
    if ":" in source or (":" in target and kind != COLUMN_TO_COLUMN):  # only a move of several cards has a count
        raise unreadable
    return kind, source, target


class Move(NamedTuple):
    """A move as a hashable value. Columns and foundations are numbered from 0 here, from 1 in text.

    >>> Move(COLUMN_TO_COLUMN, source=2, target=6, count=2)
    Move.from_text('t3>t7:2')
    >>> str(Move(WASTE_TO_FOUNDATION))
    'w>f'
    """

    kind: str
    source: int = -1
    target: int = -1
    count: int = 1

    def __repr__(self) -> str:
        return f"Move.from_text({str(self)!r})"

    def __str__(self) -> str:
        return _TEXT[self.kind].format(s=self.source + 1, t=self.target + 1, n=f":{self.count}" * (self.count > 1))

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Read ``draw``, ``recycle``, ``flip t3``, ``w>t3``, ``w>f``, ``t3>f``, ``t3>t7``, ``t3>t7:4``, ``f2>t3``.

        Case and spaces do not matter.

        >>> Move.from_text("T3 > t7")
        Move.from_text('t3>t7')
        >>> Move.from_text("t0>t1")
        Traceback (most recent call last):
        solitaire.moves.InvalidMoveError: cannot read a move from 't0>t1': columns, foundations and counts start at 1

        Raises:
            InvalidMoveError: for text that is not a move; the message echoes it (cut to a readable length).
        """
        compact = re.sub(r"\s+", "", text).lower() if isinstance(text, str) else ""
        if compact in (DRAW, RECYCLE):
            return cls(compact)
        try:
            kind, source, target = _split_move(compact)
            s, t = _read_piles(source, target)
        except PileNumberError:
            raise InvalidMoveError(f"cannot read a move from {quote(text)}: {_STARTS_AT_ONE}") from None
        except InvalidPileError:
            raise InvalidMoveError(f"cannot read a move from {quote(text)}: {_MOVE_HELP}") from None
        return cls(kind, s.index, t.index, t.count)


def _read_piles(*names: str) -> list[Pile]:
    """``parse_pile`` on each name ('' names no pile: index -1); a name that is no pile at all is reported
    before a number 0 in another."""
    piles, zero = [], None
    for name in names:
        try:
            piles.append(parse_pile(name) if name else Pile("", -1))
        except PileNumberError as exc:
            zero = exc
            piles.append(Pile("", -1))
    if zero is not None:
        raise zero
    return piles


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
    moves: dict[tuple, Move]  # every move the table allows, made once: moves[kind, source, target, count]


@lru_cache(maxsize=64)
def rules(v: Variant) -> Rules:
    """The variant's rules compiled once into lookup tables (equal variants share them).

    >>> from solitaire import KLONDIKE, ITALIAN, Card
    >>> [str(c) for c in rules(KLONDIKE).parents[Card("7♥")]], str(rules(ITALIAN).next_up[Card("A♠")])
    (['8♣', '8♠'], 'K♠')
    """
    step = [-1] * 64
    for c in ALL_CARDS:
        if c.rank_name in v.ranks:
            step[c] = v.ranks.index(c.rank_name)
    deck = [c for c in ALL_CARDS if step[c] >= 0]
    up = -1 if v.columns_follow_foundation_order else 1  # a column card sits on the card `up` steps away

    def fits(c: Card, under: Card) -> bool:
        colour = {"alternate": c.is_red != under.is_red, "suit": c.suit == under.suit, "any": True}[v.build]
        return colour and step[under] == step[c] + up

    next_up, parents, children, empty_ok = [-1] * 64, [()] * 64, [()] * 64, [False] * 64
    for c in deck:
        next_up[c] = next((d for d in deck if d.suit == c.suit and step[d] == step[c] + 1), -1)
        parents[c] = tuple(u for u in deck if fits(c, u))
        children[c] = tuple(d for d in deck if fits(d, c))
        empty_ok[c] = v.empty_column_ranks is None or c.rank_name in v.empty_column_ranks
    n, longest = range(len(v.columns)), range(len(v.ranks) + 1)  # a build holds each rank at most once
    keys = [(DRAW, -1, -1, 1), (RECYCLE, -1, -1, 1), (WASTE_TO_FOUNDATION, -1, -1, 1)]
    keys += [(kind, s, -1, 1) for kind in (FLIP, COLUMN_TO_FOUNDATION) for s in n] + [(WASTE_TO_COLUMN, -1, d, 1) for d in n]
    keys += [(FOUNDATION_TO_COLUMN, f, d, 1) for f in range(v.foundations) for d in n]
    keys += [(COLUMN_TO_COLUMN, s, d, k) for s in n for d in n for k in longest]
    return Rules(step, next_up, parents, children, empty_ok, tuple(c for c in deck if step[c] == 0),
                 tuple(c for c in deck if empty_ok[c]), {key: Move(*key) for key in keys})


# --- 3. two questions the rules keep asking --------------------------------------------------------
def foundation_wants(p: Position | Observation, r: Rules | None = None) -> dict[Card, int]:
    """The foundations' next cards: each card some foundation takes now, with the first foundation that takes it.

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
        if not pile:
            if r.bases[0] not in wants:
                wants.update(dict.fromkeys(r.bases, f))
        elif r.next_up[pile[-1]] >= 0:
            wants.setdefault(r.next_up[pile[-1]], f)
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
    [Move.from_text('t1>t7'), Move.from_text('draw')]
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
    return hidden[:s] + (hidden[s] - 1,) + hidden[s + 1:]


def _move_cards(p: Position, m: Move) -> Position:
    """Every other move takes cards off one pile and puts them on another: ``ROUTES`` says which."""
    kind, s, t, k = m
    source, target = ROUTES[kind]
    waste, founds, cols, hidden = p.waste, p.foundations, list(p.columns), p.hidden
    if source == "waste":
        cards, waste = waste[-1:], waste[:-1]
    elif source == "foundation":
        cards, founds = founds[s][-1:], founds[:s] + (founds[s][:-1],) + founds[s + 1:]
    else:  # the top k cards of column s
        cards, cols[s] = cols[s][-k:], cols[s][:-k]
        if p.variant.auto_flip and cols[s] and len(cols[s]) == hidden[s]:
            hidden = _one_less(hidden, s)  # the variant turns up a face-down card left on top
    if target == "column":
        cols[t] += cards
    else:  # onto the first foundation that takes the card
        f = foundation_for(p, cards[0])
        founds = founds[:f] + (founds[f] + cards,) + founds[f + 1:]
    return Position(p.variant, p.stock, waste, founds, tuple(cols), hidden, p.recycles)


_APPLY = {DRAW: _draw, RECYCLE: _recycle, FLIP: _flip}  # the other kinds move cards from pile to pile
