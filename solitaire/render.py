"""Pictures of a position: a text diagram (``str(game)``) and an SVG card table (``game._repr_svg_``).

Only the core is imported here; both outputs are deterministic (no random ids, no clock).
"""
from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import NamedTuple

from .cards import Card
from .moves import (COLUMN_TO_COLUMN, COLUMN_TO_FOUNDATION, DRAW, FOUNDATION_TO_COLUMN, RECYCLE,
                    WASTE_TO_COLUMN, WASTE_TO_FOUNDATION, Move, foundation_for)
from .state import Position

# --- text ----------------------------------------------------------------------------------------
CELL = 5  # characters per column in the text diagram


def text_diagram(position: Position) -> str:
    """A multi-line picture: stock, waste, foundations, then the columns side by side (``##`` = face down)."""
    p, v = position, position.variant
    shown = max(v.draw, 1)
    waste = ("... " if len(p.waste) > shown else "") + " ".join(map(str, p.waste[-shown:])) if p.waste else "--"
    passes = "" if v.passes is None else f" of {v.passes - 1}"
    lines = [f"{v.name}   stock {len(p.stock) or 'empty'}   waste {len(p.waste)}: {waste}   "
             f"recycles {p.recycles}{passes}",
             "foundations: " + " ".join(f"{str(f[-1]) if f else '--':>3}" for f in p.foundations)]
    lines.append("".join(f"t{i + 1}".rjust(CELL) for i in range(len(p.columns))))
    rows = max((len(c) for c in p.columns), default=0) or 1
    for r in range(rows):
        cells = []
        for col, hidden in zip(p.columns, p.hidden):
            if not col:
                cells.append("--" if r == 0 else "")
            elif r < len(col):
                cells.append("##" if r < hidden else str(col[r]))
            else:
                cells.append("")
        lines.append("".join(c.rjust(CELL) for c in cells).rstrip())
    return "\n".join(lines)


# --- SVG -----------------------------------------------------------------------------------------
CARD_W, CARD_H = 50, 70
GAP, MARGIN, LABEL = 8, 10, 14
DOWN_STEP, UP_STEP, FAN_STEP = 9, 21, 36  # FAN_STEP: a covered waste card shows its whole corner, "10♦" too
MAX_COLUMN_HEIGHT = 420  # long columns squeeze their fan to stay within this height
MIN_UP_STEP = 17.0  # ... but a covered card keeps its corner (rank and suit, 14 px text on a baseline 15 px down)
FELT, FELT_EDGE = "#1f6b45", "#0f3d26"
RED, BLACK = "#c0162c", "#111111"
BACK, BACK_EDGE = "#1d4f91", "#0b2748"
SOURCE_MARK, TARGET_MARK = "#ff4fd8", "#4fd8ff"  # pink and cyan, as the card table draws a hint
FONT = "DejaVu Sans, Segoe UI Symbol, Arial, sans-serif"


class Highlight(NamedTuple):
    """A highlighted pile: how many of its top cards (0 = the pile's place) and the role, 'source' or 'target'."""

    cards: int
    role: str


ROLE_COLOURS = {"source": SOURCE_MARK, "target": TARGET_MARK}


def card_svg(card: Card, x: float = 0, y: float = 0, *, face_up: bool = True, big: bool = True) -> str:
    """One card as SVG elements at (x, y): a white face with rank and suit, or a patterned back."""
    if not face_up:
        return _back(x, y)
    colour = RED if card.is_red else BLACK
    parts = [f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="#ffffff" stroke="#222222"/>',
             f'<text x="{x + 4}" y="{y + 15}" font-size="14" font-weight="bold" fill="{colour}">'
             f'{card.rank_name}{card.suit_symbol}</text>']
    if big:
        parts.append(f'<text x="{x + CARD_W / 2}" y="{y + CARD_H - 16}" font-size="28" text-anchor="middle" '
                     f'fill="{colour}">{card.suit_symbol}</text>')
    return "".join(parts)


def _back(x: float, y: float) -> str:
    dots = "".join(f"M{x + dx} {y + dy}h0" for dy in range(9, CARD_H - 6, 7)
                   for dx in range(9 + (dy // 7) % 2 * 3, CARD_W - 6, 6))
    return (f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="{BACK}" stroke="{BACK_EDGE}"/>'
            f'<rect x="{x + 4}" y="{y + 4}" width="{CARD_W - 8}" height="{CARD_H - 8}" rx="3" fill="none" '
            f'stroke="#ffffff" stroke-opacity="0.55"/>'
            f'<path d="{dots}" stroke="#9cc3ff" stroke-width="2.2" stroke-linecap="round"/>')


def _slot(x: float, y: float, text: str = "") -> str:
    inner = (f'<text x="{x + CARD_W / 2}" y="{y + CARD_H / 2 + 7}" font-size="20" text-anchor="middle" '
             f'fill="#ffffff" fill-opacity="0.45">{escape(text)}</text>') if text else ""
    return (f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="#ffffff" fill-opacity="0.08" '
            f'stroke="#ffffff" stroke-opacity="0.55" stroke-dasharray="4 3"/>' + inner)


def _label(x: float, y: float, text: str) -> str:
    return (f'<text x="{x + CARD_W / 2}" y="{y - 4}" font-size="11" text-anchor="middle" fill="#e8f5e9">'
            f'{escape(text)}</text>')


def _outline(x: float, y: float, height: float, colour: str) -> str:
    return (f'<rect x="{x - 2}" y="{y - 2}" width="{CARD_W + 4}" height="{height + 4}" rx="6" fill="none" '
            f'stroke="{colour}" stroke-width="3"/>')


def highlights(p: Position, highlight: Move | str | Iterable[str] | None) -> dict[str, Highlight]:
    """The one reading of a highlight, shared by the SVG picture and the card table widget.

    ``highlight`` is a move (its source pile marked 'source', its target 'target') or pile names such as
    't3', 't3:2' (the top two cards), 'waste', 'stock', 'f1' (all marked 'source').

    >>> from solitaire import Game
    >>> highlights(Game("klondike", seed=1).position, "t1>t7")
    {'t1': Highlight(cards=1, role='source'), 't7': Highlight(cards=0, role='target')}
    >>> highlights(Game("klondike", seed=1).position, ["t3:2", "w"])
    {'t3': Highlight(cards=2, role='source'), 'waste': Highlight(cards=1, role='source')}
    """
    if highlight is None:
        return {}
    if isinstance(highlight, str) and not _is_pile_name(highlight):
        from .notation import move_from_text
        highlight = move_from_text(highlight)
    if isinstance(highlight, Move):
        return _move_marks(p, highlight)
    names = [highlight] if isinstance(highlight, str) else list(highlight)
    marks = {}
    for name in names:
        pile, _, count = str(name).strip().lower().partition(":")
        marks[_canonical(pile)] = Highlight(int(count) if count else 1, "source")
    return marks


def _is_pile_name(text: str) -> bool:
    pile = text.strip().lower().partition(":")[0]
    return pile in ("stock", "s", "waste", "w") or (pile[:1] in "tf" and pile[1:].isdigit())


def _canonical(pile: str) -> str:
    return {"s": "stock", "w": "waste"}.get(pile, pile)


def _move_marks(p: Position, m: Move) -> dict[str, Highlight]:
    marks: dict[str, Highlight] = {}
    if m.kind in (DRAW, RECYCLE):
        marks["stock"] = Highlight(1, "source")
    elif m.kind in (WASTE_TO_COLUMN, WASTE_TO_FOUNDATION):
        marks["waste"] = Highlight(1, "source")
    elif m.kind == FOUNDATION_TO_COLUMN:
        marks[f"f{m.source + 1}"] = Highlight(1, "source")
    else:
        marks[f"t{m.source + 1}"] = Highlight(m.count, "source")
    if m.kind in (WASTE_TO_COLUMN, COLUMN_TO_COLUMN, FOUNDATION_TO_COLUMN):
        marks.setdefault(f"t{m.target + 1}", Highlight(0, "target"))
    elif m.kind in (WASTE_TO_FOUNDATION, COLUMN_TO_FOUNDATION):
        pile = p.waste if m.kind == WASTE_TO_FOUNDATION else p.columns[m.source] if m.source < len(p.columns) else ()
        f = foundation_for(p, pile[-1]) if pile else -1
        if f >= 0:
            marks[f"f{f + 1}"] = Highlight(0, "target")
    return marks


def table_size(position: Position) -> tuple[int, int]:
    """Width and height in pixels of ``svg(position)``."""
    return _layout(position)[:2]


def _layout(p: Position) -> tuple[int, int, list[float], float, float, float]:
    """Width, height, column x positions, waste x, first foundation x, columns' top y."""
    v, slot = p.variant, CARD_W + GAP
    fan = FAN_STEP * (max(v.draw, 1) - 1) if v.draw > 1 else 0
    top_row = MARGIN + 2 * slot + fan + GAP + len(p.foundations) * slot - GAP + MARGIN
    columns_row = MARGIN + len(p.columns) * slot - GAP + MARGIN
    width = max(top_row, columns_row)
    column_x = [MARGIN + i * slot for i in range(len(p.columns))]
    foundation_x = width - MARGIN - len(p.foundations) * slot + GAP
    column_y = MARGIN + LABEL + CARD_H + GAP + LABEL
    tallest = max((_column_height(c, h) for c, h in zip(p.columns, p.hidden)), default=CARD_H)
    height = int(column_y + tallest + MARGIN)
    return int(width), height, column_x, MARGIN + slot, foundation_x, column_y


def _steps(column: tuple, hidden: int) -> tuple[float, float]:
    """Vertical offsets for face-down and face-up cards, squeezed when a column is very long, but never below
    ``MIN_UP_STEP``: a covered card always shows its whole rank and suit.

    >>> _steps(tuple(range(5)), 2), _steps(tuple(range(40)), 0)
    ((9, 21), (9, 17.0))
    """
    down, up = DOWN_STEP, UP_STEP
    n_up = max(len(column) - hidden - 1, 0)
    n_down = min(hidden, len(column))
    if n_down * down + n_up * up + CARD_H > MAX_COLUMN_HEIGHT and n_up:
        up = max(MIN_UP_STEP, (MAX_COLUMN_HEIGHT - CARD_H - n_down * down) / n_up)
    return down, up


def _column_height(column: tuple, hidden: int) -> float:
    if not column:
        return CARD_H
    down, up = _steps(column, hidden)
    n_down = min(hidden, len(column))
    return n_down * down + max(len(column) - n_down - 1, 0) * up + CARD_H


def svg(position: Position, *, highlight: Move | str | Iterable[str] | None = None, labels: bool = True,
        scale: float = 1.0) -> str:
    """The position as an SVG card table.

    ``highlight`` marks a move (``"t3>t7"`` or a Move: source gold, target blue) or piles (``["t3:2", "waste"]``).
    ``labels`` names the piles as the move notation does (t1, f1 ...). ``scale`` resizes the picture.
    """
    p, v = position, position.variant
    marks = highlights(p, highlight)
    width, height, column_x, waste_x, foundation_x, column_y = _layout(p)
    top_y = MARGIN + LABEL
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{round(width * scale)}" height="{round(height * scale)}" '
           f'viewBox="0 0 {width} {height}" font-family="{FONT}" role="img" '
           f'aria-label="{escape(v.name)} solitaire table">',
           f'<rect x="0" y="0" width="{width}" height="{height}" rx="10" fill="{FELT}" stroke="{FELT_EDGE}"/>']
    # stock
    x = MARGIN
    if labels:
        out.append(_label(x, top_y, f"stock {len(p.stock)}"))
    out.append(_back(x, top_y) if p.stock else _slot(x, top_y, "↻" if p.waste else ""))
    out.append(_mark_pile(marks.get("stock"), x, top_y, CARD_H))
    # waste: the top cards fanned to the right when drawing several at once
    if labels:
        out.append(_label(waste_x, top_y, f"waste {len(p.waste)}"))
    shown = p.waste[-max(v.draw, 1):] if v.draw > 1 else p.waste[-1:]
    if not shown:
        out.append(_slot(waste_x, top_y))
    for i, c in enumerate(shown):
        out.append(card_svg(c, waste_x + i * FAN_STEP, top_y, big=i == len(shown) - 1))
    if shown:
        out.append(_mark_pile(marks.get("waste"), waste_x + (len(shown) - 1) * FAN_STEP, top_y, CARD_H))
    # foundations
    for i, pile in enumerate(p.foundations):
        fx = foundation_x + i * (CARD_W + GAP)
        if labels:
            out.append(_label(fx, top_y, f"f{i + 1}"))
        out.append(card_svg(pile[-1], fx, top_y) if pile else _slot(fx, top_y, v.ranks[0]))
        out.append(_mark_pile(marks.get(f"f{i + 1}"), fx, top_y, CARD_H))
    # columns
    for i, (col, hidden) in enumerate(zip(p.columns, p.hidden)):
        cx = column_x[i]
        if labels:
            out.append(_label(cx, column_y, f"t{i + 1}"))
        if not col:
            out.append(_slot(cx, column_y, "K" if v.empty_column_ranks == ("K",) else ""))
        down, up = _steps(col, hidden)
        y = column_y
        ys = []
        for j, c in enumerate(col):
            ys.append(y)
            out.append(card_svg(c, cx, y, face_up=j >= hidden, big=j == len(col) - 1))
            y += down if j < hidden else up
        mark = marks.get(f"t{i + 1}")
        if mark and col:
            k = min(max(mark.cards, 1), len(col))
            out.append(_mark_pile(mark, cx, ys[-k], ys[-1] - ys[-k] + CARD_H))
        elif mark:
            out.append(_mark_pile(mark, cx, column_y, CARD_H))
    out.append("</svg>")
    return "".join(out)


def _mark_pile(mark: Highlight | None, x: float, y: float, height: float) -> str:
    return _outline(x, y, height, ROLE_COLOURS.get(mark.role, SOURCE_MARK)) if mark else ""
