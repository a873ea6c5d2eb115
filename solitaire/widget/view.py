"""The one small state the card table sends to the browser after each action (plain JSON data).

Only what a player may see goes out: face-down cards are counts, the stock is a count. The highlight of a
hinted or replayed move comes from ``render.highlights`` (the same reading the SVG picture uses).
"""
from __future__ import annotations

from typing import Any

from ..endgame import WON, Outcome
from ..moves import RECYCLE, Move
from ..notation import Pile
from ..render import Highlight, highlights
from ..variants import VARIANTS
from .aids import OFF_WITHOUT_AIDS

MOVE_LIST = 60  # the move list shows the last moves only (it scrolls); the total is always shown


def marks(position: Any, marked: Move | None, selection: Any) -> dict[str, Highlight]:
    """Pile name -> highlight: the marked move (source/target) and the selection ('selected')."""
    out = dict(highlights(position, marked)) if marked is not None else {}
    if selection is not None:
        out[str(Pile(selection.pile, selection.index))] = Highlight(selection.count, "selected")
    return out


def piles_state(position: Any) -> list[dict[str, Any]]:
    """Every pile in table order with its name, kind and index: the front end is told the names."""
    piles = [Pile("stock"), Pile("waste")]
    piles += [Pile("foundation", i) for i in range(len(position.foundations))]
    piles += [Pile("column", i) for i in range(len(position.columns))]
    return [{"name": str(pile), "kind": pile.kind, "index": pile.index} for pile in piles]


def variant_state(variant: Any) -> dict[str, Any]:
    return {"name": variant.name, "key": variant.key, "draw": variant.draw, "first_rank": variant.ranks[0],
            "empty_column": "K" if variant.empty_column_ranks == ("K",) else "",
            "empty_rule": variant.empty_column_rule(), "waste_to_foundation": variant.waste_to_foundation,
            "foundation_to_tableau": variant.foundation_to_tableau}


def table_state(table: Any) -> dict[str, Any]:
    """Everything the front end draws, from the widget's game, selection, marks and messages."""
    g = table.game
    p = g.position
    shown = max(p.variant.draw, 1)
    moves = g.moves
    reason = g.over_reason()
    return {
        "seq": table._seq,
        "variant": variant_state(p.variant),
        "variants": [[key, v.name] for key, v in VARIANTS.items()],
        "seed": g.seed,
        "piles": piles_state(p),
        "stock": len(p.stock),
        "recycle": not p.stock and Move(RECYCLE) in g.legal_moves(),
        "waste": {"count": len(p.waste), "shown": [str(c) for c in p.waste[-shown:]]},
        "foundations": [{"count": len(f), "top": str(f[-1]) if f else None} for f in p.foundations],
        "columns": [{"hidden": h, "up": [str(c) for c in col[h:]]} for col, h in zip(p.columns, p.hidden)],
        "marks": {name: [m.cards, m.role] for name, m in marks(p, table.marked, table.selection).items()},
        "message": table.message,
        "kind": table.message_kind,
        "request": table._request,  # the front end's request this state answers ({"id", "action"}; None: code)
        "busy": table._depth > 0,  # sent while that request still runs (Win chance says it is estimating)
        "message_for": table._message_for,  # the request the message answers
        "over": None if reason is None else Outcome.WON if reason == WON else Outcome.LOST,
        "banner": banner(g, reason, len(moves)),
        "moves": {"total": len(moves), "first": max(len(moves) - MOVE_LIST, 0) + 1,
                  "last": [str(m) for m in moves[-MOVE_LIST:]]},
        "can_undo": g.can_undo(),
        "can_redo": g.can_redo(),
        "replay": replay_state(table),
        "flight": [list(f) for f in table._flight],  # cards Auto-finish just sent home: (card, from, to)
        "legal": [str(m) for m in g.legal_moves()] if table.show_legal else None,
        "text": table.position_text() if table.show_text else None,
        "win_chance": hasattr(g, "win_chance"),
        "off": [] if table.aids else list(OFF_WITHOUT_AIDS),  # buttons the front end leaves out
    }


def banner(game: Any, reason: str | None, moves: int) -> str:
    if reason is None:
        return ""
    if reason == WON:
        return f"You won! All {game.variant.deck_size} cards are on the foundations in {moves} moves."
    return ("No more moves: nothing but drawing is left and a whole pass through the stock would not help. "
            "Undo to try another line, or deal again.")


def replay_state(table: Any) -> dict[str, Any] | None:
    """The replay bar's step, length and next move; None (no bar) without a replay, or once the game is won."""
    if not table.replay or table.game.is_won():
        return None
    step, line = table.replay_step, table.replay
    return {"step": step, "total": len(line), "next": str(line[step]) if step < len(line) else None}
