"""PySolFC board text for Klondike deals: read the layouts PySolFC and ``pysol-cards`` print, and write them back.

Format: ``Talon:`` lists the stock, top card first; then one line per column, bottom card first, face-down cards
in ``<angle brackets>``, tens as ``T``. Two optional lines, ``Waste:`` (bottom first) and
``Foundations:`` (``H-A C-0 D-3 S-0``: each suit's top rank), describe positions after play.
"""
from __future__ import annotations

from .cards import SUIT_LETTERS, Card, InvalidCardError, card, quote
from .notation import BOM, MAX_POSITION_TEXT, PositionTextError, check_position, read_pile
from .state import Position
from .validity import face_down_problem
from .variants import STANDARD_RANKS, Variant, get_variant


def _check_variant(v: Variant, error: type[ValueError] = ValueError) -> None:
    if v.decks != 1 or v.ranks != STANDARD_RANKS or v.aces_aside:
        raise error(f"PySolFC Klondike layouts are single-deck A-K deals; {quote(v.name)} is not one")


def position_from_pysol(layout: str, variant: Variant | str) -> Position:
    """Read a PySolFC Klondike board (a ``Talon:`` line, then one line per column).

    >>> from solitaire import KLONDIKE, deal
    >>> position_from_pysol(position_to_pysol(deal(KLONDIKE, 2)), KLONDIKE) == deal(KLONDIKE, 2)
    True
    >>> position_from_pysol("Talon:", "solijoy")
    Traceback (most recent call last):
    solitaire.notation.PositionTextError: PySolFC Klondike layouts are single-deck A-K deals; 'SoliJoy' is not one

    Raises:
        PositionTextError: (a loader raises nothing else) naming the line that cannot be read, what makes the
            position impossible, or a variant that is not a single-deck A-K game (or not a variant at all).
    """
    try:
        variant = get_variant(variant)
    except ValueError as e:
        raise PositionTextError(str(e)) from None
    _check_variant(variant, PositionTextError)
    if not isinstance(layout, str) or len(layout) > MAX_POSITION_TEXT:
        raise PositionTextError(f"a PySolFC layout is text of at most {MAX_POSITION_TEXT:,} characters, got "
                                f"{quote(layout) if not isinstance(layout, str) else f'{len(layout):,} characters'}")
    piles: dict[str, list] = {"talon": [], "waste": [], "foundations": [() for _ in range(variant.foundations)]}
    seen: set[str] = set()
    columns: list[tuple[tuple[Card, ...], int]] = []
    for number, line in enumerate(layout.removeprefix(BOM).strip().splitlines(), 1):
        head, colon, rest = line.partition(":")
        key = head.strip().lower() if colon else ""
        if key and key in seen:
            raise PositionTextError(f"line {number}: a second {quote(head.strip())} line")
        seen.add(key)
        if key in ("talon", "waste"):
            cards, down = read_pile(rest, f"line {number} ({head.strip()})")
            problem = face_down_problem("waste", cards, down) if key == "waste" else None  # the Talon is face down
            if problem:
                raise PositionTextError(f"line {number} ({head.strip()}): {problem.text}")
            piles[key] = list(cards)
        elif key == "foundations":
            piles[key] = _foundations(rest, number, variant)
        elif colon:
            raise PositionTextError(f"line {number}: unknown line {quote(head.strip())}; expected Talon, Waste, "
                                    "Foundations or a column of cards")
        else:
            columns.append(read_pile(line, f"line {number} (column {len(columns) + 1})"))
    if len(columns) != len(variant.columns):
        raise PositionTextError(f"the layout has {len(columns)} columns; {variant.name} has {len(variant.columns)}")
    p = Position(variant, tuple(piles["talon"][::-1]), tuple(piles["waste"]), tuple(piles["foundations"]),
                 tuple(c for c, _ in columns), tuple(h for _, h in columns))
    check_position(p)
    return p


def _foundations(text: str, number: int, variant: Variant) -> list[tuple[Card, ...]]:
    """The piles of a ``Foundations: H-A C-0 D-3 S-0`` line (each suit's top rank; 0 for none)."""
    entries = text.split()
    if len(entries) > variant.foundations:
        raise PositionTextError(f"line {number} (Foundations): {len(entries)} entries, but {variant.name} has "
                                f"{variant.foundations} foundations")
    piles: list[tuple[Card, ...]] = [() for _ in range(variant.foundations)]
    for i, entry in enumerate(entries):
        suit, _, top = entry.partition("-")
        try:
            n = 0 if top == "0" else card(top.upper().replace("T", "10"), suit).rank
        except InvalidCardError:
            raise PositionTextError(f"line {number} (Foundations): cannot read {quote(entry)}; write e.g. H-5") from None
        piles[i] = tuple(card(r, suit) for r in range(1, n + 1))
    return piles


def position_to_pysol(p: Position) -> str:
    """Write the position as a PySolFC board (with Waste/Foundations lines only when they hold cards).

    >>> from solitaire import KLONDIKE, deal
    >>> position_to_pysol(deal(KLONDIKE, 1)).splitlines()[1]
    '7D'

    Raises:
        ValueError: for a variant that is not a single-deck A-K game.
    """
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
