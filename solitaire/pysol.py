"""PySolFC board text for Klondike deals: read the layouts PySolFC and ``pysol-cards`` print, and write them back.

Format: ``Talon:`` lists the stock, top card first; then one line per column, bottom card first, face-down cards
in ``<angle brackets>``, tens as ``T``. Two optional lines, ``Waste:`` (bottom first) and
``Foundations:`` (``H-A C-0 D-3 S-0``: each suit's top rank), describe positions after play.
"""
from __future__ import annotations

from .cards import SUIT_LETTERS, Card, card
from .notation import PositionTextError, check_position, read_pile
from .state import Position
from .variants import STANDARD_RANKS, Variant


def _check_variant(v: Variant) -> None:
    if v.decks != 1 or v.ranks != STANDARD_RANKS or v.aces_aside:
        raise ValueError(f"PySolFC Klondike layouts are single-deck A-K deals; {v.name} is not one")


def position_from_pysol(layout: str, variant: Variant) -> Position:
    """Read a PySolFC Klondike board (a ``Talon:`` line, then one line per column)."""
    _check_variant(variant)
    stock: list[Card] = []
    waste: list[Card] = []
    foundations: list[tuple[Card, ...]] = [() for _ in range(variant.foundations)]
    columns: list[tuple[tuple[Card, ...], int]] = []
    for number, line in enumerate(layout.strip().splitlines(), 1):
        head, colon, rest = line.partition(":")
        key = head.strip().lower() if colon else ""
        if key == "talon":
            stock = list(read_pile(rest, f"line {number} (Talon)")[0][::-1])
        elif key == "waste":
            waste = list(read_pile(rest, f"line {number} (Waste)")[0])
        elif key == "foundations":
            for i, entry in enumerate(rest.split()):
                suit, _, top = entry.partition("-")
                if suit.upper() not in SUIT_LETTERS or not top:
                    raise PositionTextError(f"line {number} (Foundations): cannot read {entry!r}; write e.g. H-5")
                n = 0 if top == "0" else card(top.upper().replace("T", "10"), suit).rank
                foundations[i] = tuple(card(r, suit) for r in range(1, n + 1))
        elif colon:
            raise PositionTextError(f"line {number}: unknown line {head.strip()!r}; expected Talon, Waste, "
                                    "Foundations or a column of cards")
        else:
            columns.append(read_pile(line, f"line {number} (column {len(columns) + 1})"))
    if len(columns) != len(variant.columns):
        raise PositionTextError(f"the layout has {len(columns)} columns; {variant.name} has {len(variant.columns)}")
    p = Position(variant, tuple(stock), tuple(waste), tuple(foundations), tuple(c for c, _ in columns),
                 tuple(h for _, h in columns))
    check_position(p)
    return p


def position_to_pysol(p: Position) -> str:
    """Write the position as a PySolFC board (with Waste/Foundations lines only when they hold cards)."""
    _check_variant(p.variant)
    lines = ["Talon: " + " ".join(c.ascii() for c in reversed(p.stock))]
    if p.waste:
        lines.append("Waste: " + " ".join(c.ascii() for c in p.waste))
    if any(p.foundations):
        lines.append("Foundations: " + " ".join(f"{SUIT_LETTERS[pile[-1].suit]}-{pile[-1].ascii()[0]}"
                                               for pile in p.foundations if pile))
    for col, h in zip(p.columns, p.hidden):
        lines.append(" ".join(f"<{c.ascii()}>" if i < h else c.ascii() for i, c in enumerate(col)))
    return "\n".join(line.rstrip() for line in lines) + "\n"
