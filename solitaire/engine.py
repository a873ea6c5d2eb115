"""The rules with some of their pieces written by someone else: a student's move list, column rule or draw.

``use(waste_moves=my_waste_moves)`` gives an ``Engine``: the kit's rules with that piece replaced. A ``Game`` made
with it (``Game("klondike", 7, engine=...)``, or ``solitaire.play("klondike", 7, use=...)`` for a card table)
lists its moves and plays them with the student's piece, so a wrong piece shows as a wrong move on the table:
a move the real rules refuse is offered and played, or a legal one is missing.

The pieces and what each is called with (the kit's own piece is used for each one not given):

* ``fits(card, under, variant)``: may ``card`` sit on ``under`` in a column? (the rules are compiled with it)
* ``column_moves(p, targets, wants)``, ``waste_moves(p, targets, wants)``: the moves out of the columns, and of
  the waste's top card (called only when the waste holds a card); ``targets`` is ``column_targets(p, r)`` and
  ``wants`` is ``foundation_wants(p, r)``, worked out with the compiled rules ``r``;
* ``foundation_moves(p, targets)``: cards back from a foundation (called where the variant allows it);
* ``stock_moves(p)``: a draw or a recycle;
* ``draw(p)``: the position after a draw;
* ``move_build(p, m)``: the position after ``m``, a move of cards from one column to another (``t>t``).

A piece that raises NotImplementedError (a lesson's stub, not written yet) is replaced by the kit's own, and its
name is kept in ``engine.unwritten``: a student copy's table plays by the kit's rules until the piece is written.

The kit's own path (``moves.legal_moves`` and ``moves.apply``) does not go through an Engine, so it is as fast as
before; an Engine is for a student's table, playouts and checks.
"""
from __future__ import annotations

from .moves import (COLUMN_TO_COLUMN, DRAW, FOUNDATION_TO_COLUMN, RECYCLE, WASTE_TO_COLUMN, WASTE_TO_FOUNDATION, Move, apply,
                    column_targets, foundation_wants, makes_progress, rules)
from .moves import _column_moves, _foundation_to_column_moves, _stock_moves, _waste_moves
from .state import Position

PIECES = ("fits", "column_moves", "waste_moves", "foundation_moves", "stock_moves", "draw", "move_build")
# Which move list lists each kind of move (the others come out of the columns)
LISTED_BY = {DRAW: "stock_moves", RECYCLE: "stock_moves", WASTE_TO_COLUMN: "waste_moves",
             WASTE_TO_FOUNDATION: "waste_moves", FOUNDATION_TO_COLUMN: "foundation_moves"}


class Engine:
    """The kit's rules with some pieces replaced by the functions given (see the module's docstring).

    >>> from solitaire import KLONDIKE, deal
    >>> def no_waste_moves(p, targets, wants):
    ...     return []
    >>> engine = Engine(waste_moves=no_waste_moves)
    >>> engine, engine.legal_moves(deal(KLONDIKE, 1))
    (Engine(waste_moves=no_waste_moves), [Move('t>t', 0, 6), Move('draw')])
    """

    def __init__(self, fits=None, column_moves=None, waste_moves=None, foundation_moves=None, stock_moves=None,
                 draw=None, move_build=None):
        given = {"fits": fits, "column_moves": column_moves, "waste_moves": waste_moves,
                 "foundation_moves": foundation_moves, "stock_moves": stock_moves, "draw": draw,
                 "move_build": move_build}
        for name, fn in given.items():
            if fn is not None and not callable(fn):
                raise TypeError(f"{name} should be a function (its name, without brackets), not "
                                f"{type(fn).__name__} {fn!r}")
        self.pieces = {name: fn for name, fn in given.items() if fn is not None}  # the pieces replaced
        self.unwritten: set[str] = set()  # pieces given as stubs (they raised NotImplementedError): the kit's is used
        self._kit = {"column_moves": self._kit_column_moves, "waste_moves": self._kit_waste_moves,
                     "foundation_moves": self._kit_foundation_moves, "stock_moves": self._kit_stock_moves,
                     "draw": self._kit_draw, "move_build": apply}

    def __repr__(self) -> str:
        return f"Engine({', '.join(f'{name}={fn.__name__}' for name, fn in self.pieces.items())})"

    def rules(self, p: Position):
        """The compiled rules of ``p``'s variant, with this engine's column rule (the kit's if none is given, or
        if the one given is a stub that raises NotImplementedError)."""
        if "fits" not in self.pieces or "fits" in self.unwritten:
            return rules(p.variant)
        try:
            return rules(p.variant, self.pieces["fits"])
        except NotImplementedError:
            self.unwritten.add("fits")
            return rules(p.variant)

    def _run(self, name: str, *args):
        """The piece ``name`` called on ``args``: the one given, or the kit's (also for a stub not written yet)."""
        if name in self.pieces and name not in self.unwritten:
            try:
                return self.pieces[name](*args)
            except NotImplementedError:  # a student's stub: play by the kit's piece until it is written
                self.unwritten.add(name)
        return self._kit[name](*args)

    def legal_moves(self, p: Position) -> list[Move]:
        """The moves this engine allows in ``p``, listed as ``moves.legal_moves`` lists them.

        >>> from solitaire import KLONDIKE, deal, legal_moves
        >>> Engine().legal_moves(deal(KLONDIKE, 7)) == legal_moves(deal(KLONDIKE, 7))
        True
        """
        r = self.rules(p)
        targets, wants = column_targets(p, r), foundation_wants(p, r)
        moves = list(self._run("column_moves", p, targets, wants))
        if p.waste:
            moves += self._run("waste_moves", p, targets, wants)
        if p.variant.foundation_to_tableau:
            moves += self._run("foundation_moves", p, targets)
        if not p.variant.draw_only_when_stuck or not any(makes_progress(p, m) for m in moves):
            moves += self._run("stock_moves", p)
        return moves

    def apply(self, p: Position, m: Move) -> Position:
        """The position after ``m``: this engine's draw for a draw, its move_build for a move from column to column,
        the kit's ``apply`` for the rest.

        >>> from solitaire import KLONDIKE, deal
        >>> def draw_nothing(p):
        ...     return p
        >>> Engine(draw=draw_nothing).apply(deal(KLONDIKE, 1), Move(DRAW)).waste
        ()
        """
        if m.kind == DRAW:
            return self._run("draw", p)
        if m.kind == COLUMN_TO_COLUMN:
            return self._run("move_build", p, m)
        return apply(p, m)

    def children(self, p: Position) -> list[Position]:
        """Every position one of this engine's moves away from ``p``: a search (lesson 07's ``depth_first``, with
        ``children=engine.children``) then plays on the student's pieces.

        >>> from solitaire import KLONDIKE, deal
        >>> len(Engine().children(deal(KLONDIKE, 1)))
        2
        """
        return [self.apply(p, m) for m in self.legal_moves(p)]

    def piece_for(self, m: Move) -> str:
        """The name of the piece that lists moves of ``m``'s kind.  ``Engine().piece_for(Move("draw"))`` is
        ``'stock_moves'``."""
        return LISTED_BY.get(m.kind, "column_moves")

    def _kit_column_moves(self, p: Position, targets: dict, wants: dict) -> list[Move]:
        return _column_moves(p, self.rules(p), targets, wants)

    def _kit_waste_moves(self, p: Position, targets: dict, wants: dict) -> list[Move]:
        return _waste_moves(p, self.rules(p), targets, wants)

    def _kit_foundation_moves(self, p: Position, targets: dict) -> list[Move]:
        return _foundation_to_column_moves(p, self.rules(p), targets)

    def _kit_stock_moves(self, p: Position) -> list[Move]:
        return _stock_moves(p, self.rules(p))

    def _kit_draw(self, p: Position) -> Position:
        return apply(p, Move(DRAW))


def what_differs(got: Position, want: Position) -> str:
    """The piles in which two positions differ, in words (each pile in full, bottom first).

    >>> from solitaire import KLONDIKE, deal
    >>> p = deal(KLONDIKE, 1)
    >>> what_differs(p._replace(hidden=(0, 0, 2, 3, 4, 5, 6)), p)
    'leaves 0 face-down cards in column 2, the rules 1'
    """
    def cards(pile: tuple) -> str:
        return " ".join(map(str, pile)) or "(empty)"
    said = []
    for pile in ("stock", "waste"):
        if getattr(got, pile) != getattr(want, pile):
            said.append(f"leaves the {pile} as {cards(getattr(got, pile))}, the rules as {cards(getattr(want, pile))}")
    for i, (mine, theirs) in enumerate(zip(got.columns, want.columns)):
        if mine != theirs:
            said.append(f"leaves column {i + 1} as {cards(mine)}, the rules as {cards(theirs)}")
    for i, (mine, theirs) in enumerate(zip(got.hidden, want.hidden)):
        if mine != theirs:
            said.append(f"leaves {mine} face-down cards in column {i + 1}, the rules {theirs}")
    return "; ".join(said) or "makes a position the rules do not"


def use(fits=None, column_moves=None, waste_moves=None, foundation_moves=None, stock_moves=None, draw=None,
        move_build=None) -> Engine:
    """The kit's rules running on the pieces given: ``solitaire.use(waste_moves=my_waste_moves)``.

    Give the engine to a card table (``solitaire.play("klondike", 7, use=engine)``), to a ``Game``
    (``Game("klondike", 7, engine=engine)``), to a search (``depth_first(p, children=engine.children)``) or play it
    yourself (``engine.legal_moves(p)``, ``engine.apply(p, m)``).

    >>> from solitaire import KLONDIKE, deal
    >>> def never_fits(card, under, variant):
    ...     return False
    >>> use(fits=never_fits).legal_moves(deal(KLONDIKE, 1))  # t1>t7 is gone: no card fits on another
    [Move('draw')]
    """
    return Engine(fits, column_moves, waste_moves, foundation_moves, stock_moves, draw, move_build)
