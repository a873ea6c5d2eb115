"""Why a move is illegal, in a student's words: ``explain_illegal``, one check per rule.

A second reading, after ``solitaire.moves``: ``legal_moves`` says *what* may be played; this module says
*why not*, with the rule quoted in words (``Variant.column_rule`` and friends). The two always agree (a test
plays thousands of games to check it): ``explain_illegal(p, m)`` is None exactly when ``m in legal_moves(p)``.

Read ``explain_illegal``, then one function per check, in the order it asks them: the stock moves; the piles
the move names; a flip; the cards the move picks up (from the waste, a foundation or a column's build); where
they go (a foundation, a column).
"""
from __future__ import annotations

from .cards import Card, quote
from .moves import (COLUMN_TO_COLUMN, COLUMN_TO_FOUNDATION, DRAW, FLIP, ROUTES, STOCK_MOVES, WASTE_TO_FOUNDATION,
                    InvalidMoveError, Move, foundation_for, legal_moves, makes_progress, passes_left, rules)
from .state import Position
from .variants import rank_phrase


MOST_PILES = 999  # pile numbers and counts have at most three digits in the notation (t999, t1>t2:999)


def check_move(m: object) -> Move:
    """``m`` itself if it is a well-formed ``Move``: a kind of move, and whole numbers (``int``) for the piles its
    kind names (from 0) and the count, -1 for the piles it does not name. Else ``InvalidMoveError``, so that a
    malformed Move (a count of 1.0, a kind 'bogus') never reaches the rules, a game's history or its save.

    >>> check_move(Move("t>t", 0, 6))
    Move('t>t', 0, 6)
    >>> check_move(Move("t>t", 0, 6, 1.0))
    Traceback (most recent call last):
    solitaire.moves.InvalidMoveError: not a well-formed Move ('t>t', 0, 6, 1.0): its count must be a whole number (an int), got 1.0; write the move as text, such as 't1>t7'
    """
    if not isinstance(m, Move):
        raise InvalidMoveError(f"expected a Move or a move's text, such as 't1>t7', got {quote(m)}")
    problem = _malformed(*m)
    if problem:
        raise InvalidMoveError(f"not a well-formed Move {quote(tuple(m), 60)}: {problem}; write the move as text, "
                               "such as 't1>t7'")
    return m


def _malformed(kind: object, source: object, target: object, count: object) -> str | None:
    """What is wrong with a Move's fields, or None."""
    if type(kind) is not str or (kind not in ROUTES and kind not in STOCK_MOVES):
        return f"its kind must be one of {', '.join(sorted(STOCK_MOVES | set(ROUTES)))}, got {quote(kind)}"
    named = ROUTES.get(kind, (None, None))
    for field, value, names in (("source", source, named[0] in ("column", "foundation")),
                                ("target", target, named[1] == "column"), ("count", count, True)):
        if type(value) is not int:
            return f"its {field} must be a whole number (an int), got {quote(value)}"
        lowest, most = (1, MOST_PILES if kind == COLUMN_TO_COLUMN else 1) if field == "count" else (0, MOST_PILES - 1)
        if names and not lowest <= value <= most:
            allowed = f"be {most}" if lowest == most else f"be from {lowest} to {most}"
            return f"its {field} must {allowed} for a {kind} move, got {quote(value)}"
        if not names and value != -1:
            return f"a {kind} move names no {field} pile: leave it -1, got {quote(value)}"
    return None


def explain_illegal(p: Position, m: Move) -> str | None:
    """Why ``m`` breaks the rules in ``p``, in a student's words; None if it is legal.

    >>> from solitaire import KLONDIKE, deal
    >>> explain_illegal(deal(KLONDIKE, 1), Move("t>t", 0, 8))  # t1>t9
    'there is no column 9: columns are t1 to t7'

    Raises:
        InvalidMoveError: for a Move that is not well formed (see ``check_move``).
    """
    check_move(m)
    if m.kind in STOCK_MOVES:
        return _why_not_stock(p, m)
    why = _why_not_there(p, m)
    if why or m.kind == FLIP:
        return why or _why_not_flip(p, m.source)
    moving, why = _moving_cards(p, m)
    if why:
        return why
    if m.kind in (WASTE_TO_FOUNDATION, COLUMN_TO_FOUNDATION):
        return _why_not_to_foundation(p, moving[0])
    return _why_not_onto_column(p, moving[0], m.target)


def _why_not_stock(p: Position, m: Move) -> str | None:
    v = p.variant
    if v.draw_only_when_stuck:
        progress = next((move for move in legal_moves(p) if makes_progress(p, move)), None)
        if progress is not None:
            return f"in {v.name} you may {m.kind} only when no move that makes progress is left, and {progress} is possible"
    if m.kind == DRAW:
        return "the stock is empty: recycle the waste to turn it into a new stock" if not p.stock else None
    if p.stock:
        return "you may recycle only when the stock is empty: draw the remaining cards first"
    if not p.waste:
        return "the waste is empty: there is nothing to recycle"
    if not passes_left(p):
        return f"{v.name} allows only {v.passes} pass(es) through the stock, and they are used up"
    return None


def _why_not_there(p: Position, m: Move) -> str | None:
    """The move names a column or foundation the table does not have (columns are checked first)."""
    sizes = {"column": (len(p.columns), "t"), "foundation": (len(p.foundations), "f")}
    for pile, (n, letter) in sizes.items():
        for index, named in zip((m.source, m.target), ROUTES[m.kind]):
            if named == pile and not 0 <= index < n:
                return f"there is no {pile} {index + 1}: {pile}s are {letter}1 to {letter}{n}"
    return None


def _why_not_flip(p: Position, s: int) -> str | None:
    col, h, v = p.columns[s], p.hidden[s], p.variant
    if not col:
        return f"column {s + 1} is empty: there is nothing to flip"
    if len(col) > h:
        return f"the top card of column {s + 1} ({col[-1]}) is already face up"
    return f"{v.name} turns face-down cards automatically" if v.auto_flip else None


def _moving_cards(p: Position, m: Move) -> tuple[tuple[Card, ...], str | None]:
    """The cards ``m`` picks up (bottom first), or why it cannot pick them up."""
    v, source = p.variant, ROUTES[m.kind][0]
    if source == "waste":
        if not p.waste:
            return (), "the waste is empty: draw a card from the stock first"
        if m.kind == WASTE_TO_FOUNDATION and not v.waste_to_foundation:
            return (), f"in {v.name} the waste card may go only to a column, not to a foundation"
        return p.waste[-1:], None
    if source == "foundation":
        if not v.foundation_to_tableau:
            return (), f"in {v.name} cards never come back from a foundation"
        if not p.foundations[m.source]:
            return (), f"foundation {m.source + 1} is empty"
        return p.foundations[m.source][-1:], None
    return _moving_build(p, m)


def _moving_build(p: Position, m: Move) -> tuple[tuple[Card, ...], str | None]:
    """The top ``m.count`` cards of column ``m.source``, if they may move as one build."""
    col, h, s = p.columns[m.source], p.hidden[m.source], m.source + 1
    if not col:
        return (), f"column {s} is empty: there is no card to move"
    if len(col) == h:
        return (), f"the top card of column {s} is face down: flip it first (flip t{s})"
    if m.count < 1 or m.count > len(col) - h:
        return (), f"column {s} has {len(col) - h} face-up card(s), so it cannot move {m.count}"
    moving = col[-m.count:]
    for below, above in zip(moving, moving[1:]):
        if below not in rules(p.variant).parents[above]:
            return (), f"{above} on {below} is not part of a build, so those {m.count} cards cannot move as one"
    if m.kind == COLUMN_TO_COLUMN and m.source == m.target:
        return (), "a card cannot move onto its own column"
    return moving, None


def _why_not_to_foundation(p: Position, c: Card) -> str | None:
    """A foundation takes the next card of its suit; an empty one takes only a first-rank card."""
    if foundation_for(p, c) >= 0:
        return None
    v = p.variant
    return (f"{c} cannot go to a foundation: a foundation takes the next card of its suit in the order "
            f"{' '.join(v.ranks)} ({rank_phrase(v.ranks[1])} on {rank_phrase(v.ranks[0])}), and an empty one takes "
            f"only {rank_phrase(v.ranks[0])}")


def _why_not_onto_column(p: Position, c: Card, t: int) -> str | None:
    """A column takes a card that may sit on its face-up top card; an empty column, what the variant allows."""
    target, v = p.columns[t], p.variant
    if not target:
        return None if rules(v).empty_ok[c] else f"{c} cannot go on the empty column {t + 1}: {v.empty_column_rule()}"
    if len(target) == p.hidden[t]:
        return f"the top card of column {t + 1} is face down: nothing can go on it"
    if target[-1] not in rules(v).parents[c]:
        return f"{c} cannot go on {target[-1]}: {v.column_rule()}"
    return None
