"""How a game ends: the words for it, and the exact rule behind "no more moves".

A game is over when it is won, or when play can no longer change it: no move is left that makes progress
(a flip, a waste card played, more cards on the foundations than now) and none can become possible through
draws, recycles and the moves that lead nowhere. Read it in this order:

* the vocabulary, ``Outcome``: ``WON``, ``NO_MORE_MOVES`` (``over_reason``), ``LOST``, ``MOVE_LIMIT`` (a
  played game's record), ``UNWINNABLE``, ``UNKNOWN`` (a solver's verdict), each also a name of this module;
* ``over_reason`` and ``progress_possible``, the one source of truth for "is the game over";
* their helpers: ``never_progress`` (a quick proof that nothing can ever make progress), the search over
  arrangements, ``reachable_waste_tops`` and ``accepted_cards``;
* ``safe_foundation_moves``: foundation moves that can never spoil a game;
* ``plain_finish``: the rest of a game when nothing is left to decide (what the card table's Auto-finish plays).
"""
from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from functools import lru_cache

from .cards import Card
from .moves import (COLUMN_TO_COLUMN, COLUMN_TO_FOUNDATION, STOCK_MOVES, WASTE_TO_COLUMN, WASTE_TO_FOUNDATION,
                    Move, apply, foundation_wants, is_won, legal_moves, makes_progress, rules)
from .state import Observation, Position

# --- the one vocabulary of how a game ends ------------------------------------------------------
class Outcome(str, Enum):
    """How a game ended, or what a solver found: a ``str`` equal to the word that results files hold.

    It prints and shows as that word, so tables and tuples of outcomes read as plain text.

    >>> Outcome.WON == "won", Outcome("move limit") is Outcome.MOVE_LIMIT, f"{Outcome.UNKNOWN}", [Outcome.LOST]
    (True, True, 'unknown', ['lost'])
    """

    WON = "won"  # every card is on a foundation
    NO_MORE_MOVES = "no more moves"  # over_reason: nothing can make progress any more
    LOST = "lost"  # a played game's outcome: no more moves, or the player had no fresh move left
    MOVE_LIMIT = "move limit"  # a played game's outcome: stopped after the most moves allowed
    UNWINNABLE = "unwinnable"  # a solver's verdict: no line of play wins (proved)
    UNKNOWN = "unknown"  # a solver's verdict: the budget ran out first

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return repr(self.value)


WON, NO_MORE_MOVES, LOST, MOVE_LIMIT = Outcome.WON, Outcome.NO_MORE_MOVES, Outcome.LOST, Outcome.MOVE_LIMIT
UNWINNABLE, UNKNOWN = Outcome.UNWINNABLE, Outcome.UNKNOWN
REASONS = (WON, NO_MORE_MOVES)  # what over_reason says when a game is over
OUTCOMES = (WON, LOST, MOVE_LIMIT)  # how a game played to the end went
STATUSES = (WON, UNWINNABLE, UNKNOWN)  # what a solver found about a deal

_FROM_WASTE = (WASTE_TO_COLUMN, WASTE_TO_FOUNDATION)  # waste plays: covered by the cards the stock can bring up
SEARCH_LIMIT = 1000  # arrangements the end search looks at before it gives up (and keeps the game open)


def over_reason(p: Position, moves: Sequence[Move] | None = None) -> Outcome | None:
    """Why the game is over (``WON`` or ``NO_MORE_MOVES``), or None while it goes on.

    ``moves`` may pass ``legal_moves(p)`` when it is known already.

    >>> from solitaire import KLONDIKE, deal
    >>> over_reason(deal(KLONDIKE, 1)) is None
    True
    """
    if is_won(p):
        return WON
    return None if progress_possible(p, moves=moves) else NO_MORE_MOVES


def progress_possible(p: Position, limit: int = SEARCH_LIMIT, moves: Sequence[Move] | None = None) -> bool:
    """Can play still change the game? False when only draws, recycles and moves that lead nowhere are left.

    Progress is a flip, a waste card played, or more cards on the foundations than now. First a quick proof
    (``never_progress``) looks for a reason why none of these could ever happen; failing that, the search tries
    the column and foundation moves that make none of them (at most ``limit`` arrangements; past that it gives
    up and answers True, keeping the game open). ``moves`` may pass ``legal_moves(p)`` when it is known.

    >>> from solitaire import KLONDIKE, deal
    >>> progress_possible(deal(KLONDIKE, 1))
    True
    """
    for m in legal_moves(p) if moves is None else moves:
        if makes_progress(p, m):
            return True
    v = p.variant
    if v.draw == 1 and v.passes is None:
        if not accepted_cards(p, v.waste_to_foundation).isdisjoint(p.stock + p.waste):
            return True  # a stock or waste card fits somewhere, and drawing brings every one of them up
        # Drawing cycles through every stock and waste card, so only which cards they are matters.
        p = p._replace(stock=tuple(sorted(p.stock + p.waste)), waste=(), recycles=0)
    return not never_progress(p) and search(p, limit) is not False


def never_progress(p: Position) -> bool:
    """A quick proof that play can never make progress again (True), before any search; False: no proof.

    Until the next progress the columns hold the same cards and the foundations stay as they are, so a card
    can come to the top of a column only when the card lying on it moves away, onto a card that can be on
    top somewhere else, or onto an empty column. Starting from today's tops, this collects every card that
    could ever be on top, and whether a column could ever be emptied: more than play can do, never less. If
    even then no face-down card can be uncovered, no top card is wanted by a foundation and no card the stock
    can bring up fits anywhere, nothing can make progress. (Not used where cards come back from foundations.)

    >>> from solitaire import KLONDIKE, deal
    >>> never_progress(deal(KLONDIKE, 1))
    False
    """
    r, v = rules(p.variant), p.variant
    if v.foundation_to_tableau:
        return False
    ups = [(col[h:], h) for col, h in zip(p.columns, p.hidden)]  # each column's face-up cards, bottom first
    tops, empty = {up[-1] for up, _ in ups if up}, any(not up and h == 0 for up, h in ups)

    def can_move(c: Card) -> bool:  # onto a card that can be on top, or onto an empty column
        return not tops.isdisjoint(r.parents[c]) or empty and r.empty_ok[c]

    grown = True
    while grown:
        grown = False
        for up, h in ups:
            for under, on in zip(up, up[1:]):
                if under not in tops and can_move(on):
                    tops.add(under)
                    grown = True
            if up and h == 0 and not empty and can_move(up[0]):
                empty = grown = True
    uncovers = any(h and (not up or can_move(up[0])) for up, h in ups)  # (a face-down top card can be flipped)
    wanted = foundation_wants(p)
    stock_fits = any(can_move(c) or v.waste_to_foundation and c in wanted for c in reachable_waste_tops(p))
    return not (uncovers or not tops.isdisjoint(wanted) or stock_fits)


@lru_cache(maxsize=4096)
def search(p: Position, limit: int = SEARCH_LIMIT) -> bool | None:
    """Is progress reachable through the moves that lead nowhere? None when it gave up after ``limit`` arrangements.

    Cached: the answer depends on ``p`` only (``progress_possible`` reduces the stock first where its order
    cannot matter).

    >>> from solitaire import KLONDIKE, deal
    >>> search(deal(KLONDIKE, 1))
    True
    """
    start = p.on_foundations()
    tops = reachable_waste_tops(p)
    seen = {_arrangement(p)}
    frontier = [p]
    for q in frontier:  # breadth first (the list grows while it is read): progress is seldom many moves away
        lateral = [m for m in legal_moves(q) if m.kind not in STOCK_MOVES and m.kind not in _FROM_WASTE]
        if any(_progress_from(q, m, start) for m in lateral):
            return True
        if not tops.isdisjoint(accepted_cards(q, p.variant.waste_to_foundation)):
            return True  # a card the stock can bring up can be played here
        for m in lateral:
            nxt = apply(q, m)
            key = _arrangement(nxt)
            if key not in seen:
                if len(seen) >= limit:
                    return None  # too many arrangements to be sure: progress_possible keeps the game open
                seen.add(key)
                frontier.append(nxt)
    return False


def _progress_from(q: Position, m: Move, start: int) -> bool:
    """Does column or foundation move ``m`` in arrangement ``q`` make progress against ``start`` cards home?"""
    if m.kind == COLUMN_TO_FOUNDATION and q.on_foundations() >= start:
        return True  # more cards on the foundations than at the start
    if m.kind == COLUMN_TO_FOUNDATION or m.kind == COLUMN_TO_COLUMN:
        return 0 < q.hidden[m.source] == len(q.columns[m.source]) - m.count  # uncovers a face-down card
    return makes_progress(q, m)  # a flip


def _arrangement(p: Position) -> tuple:
    """The columns and foundations, ignoring the order of the columns (it does not matter for progress)."""
    columns = tuple(sorted(zip(p.hidden, p.columns)))
    return (columns, tuple(sorted(p.foundations))) if p.variant.foundation_to_tableau else columns


def reachable_waste_tops(p: Position) -> set[Card]:
    """The cards that drawing and recycling alone can bring to the top of the waste.

    >>> from solitaire import KLONDIKE, deal
    >>> p = deal(KLONDIKE, 1)
    >>> reachable_waste_tops(p) == set(p.stock)  # draw 1, unlimited passes: every stock card
    True
    """
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


def accepted_cards(p: Position, foundations: bool = True) -> set[Card]:
    """The cards that some column (or, if ``foundations``, some foundation) would take now.

    >>> from solitaire import KLONDIKE, Card, deal
    >>> Card("A♠") in accepted_cards(deal(KLONDIKE, 1))
    True
    """
    r = rules(p.variant)
    ok: set[Card] = set()
    for col, h in zip(p.columns, p.hidden):
        if not col:
            ok.update(r.starters)
        elif len(col) > h:
            ok.update(r.children[col[-1]])
    if foundations:
        ok.update(foundation_wants(p))
    return ok


def safe_to_foundation(p: Position | Observation, card: Card) -> bool:
    """May ``card`` go to its foundation without ever being missed in a column?

    True when every copy of every card that could sit on it in a column is on a foundation already (where
    cards may come back from foundations: when no card could ever sit on it).

    >>> from solitaire import KLONDIKE, Card, deal
    >>> safe_to_foundation(deal(KLONDIKE, 1), Card("A♠")), safe_to_foundation(deal(KLONDIKE, 1), Card("2♠"))
    (True, False)
    """
    v, children = p.variant, rules(p.variant).children[card]
    if v.foundation_to_tableau:
        return not children
    home = [c for pile in p.foundations for c in pile]
    return all(home.count(child) >= v.decks for child in children)


def safe_foundation_moves(p: Position, moves: Sequence[Move] | None = None) -> list[Move]:
    """The foundation moves among ``moves`` (default: the legal ones) whose card is safe to send up.

    >>> from solitaire import KLONDIKE, deal
    >>> safe_foundation_moves(deal(KLONDIKE, 1))  # no Ace is on top of a column in this deal
    []
    """
    safe = []
    for m in legal_moves(p) if moves is None else moves:
        if m.kind == WASTE_TO_FOUNDATION:
            card = p.waste[-1]
        elif m.kind == COLUMN_TO_FOUNDATION:
            card = p.columns[m.source][-1]
        else:
            continue
        if safe_to_foundation(p, card):
            safe.append(m)
    return safe


HOME_MOVES = (COLUMN_TO_FOUNDATION, WASTE_TO_FOUNDATION)


def plain_finish(p: Position) -> tuple[list[Move] | None, str]:
    """The moves that finish the game when nothing is left to decide, or None and why not (one clause).

    Nothing is left to decide when (1) no card is face down in the columns, (2) the stock and waste are
    empty, or their cards can be played out by drawing alone: the variant turns one card at a time with
    unlimited passes and lets a waste card go home (Klondike, Italian; then every stock card is reached
    whatever the stock's order, so the answer reveals nothing about it), and (3) sending cards home, and
    drawing when none can go, wins. Every step of that is forced: only foundation moves are played, and
    their order does not change what follows. In SoliJoy a waste card reaches a foundation only through a
    column, a choice, so there the stock and waste must be empty.

    >>> from solitaire import KLONDIKE, deal
    >>> plain_finish(deal(KLONDIKE, 1))
    (None, '21 cards are still face down')
    """
    v, talon = p.variant, len(p.stock) + len(p.waste)
    down = sum(p.hidden)
    if down:
        return None, ("1 card is" if down == 1 else f"{down} cards are") + " still face down"
    if talon and not (v.waste_to_foundation and v.draw == 1 and v.passes is None):
        how = (f"in {v.name} a waste card goes home only through a column, a choice" if not v.waste_to_foundation
               else "which of them can go home depends on the stock's order")
        return None, f"the stock and waste still hold {talon} card{'s' * (talon != 1)}, and {how}"
    line, q, idle = [], p, 0
    while not is_won(q):
        moves = legal_moves(q)
        home = [m for m in moves if m.kind in HOME_MOVES]
        turn = [m for m in moves if m.kind in STOCK_MOVES]
        if not home and (not turn or idle > talon + 1):  # a whole pass through the stock sent nothing home
            return None, "some cards can go home only after moves between the columns"
        m = home[0] if home else turn[0]
        idle = 0 if home else idle + 1
        q = apply(q, m)
        line.append(m)
    return line, ""
