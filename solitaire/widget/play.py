"""Clicks, drops and the game controls of the card table, as Python methods (what the front end calls).

Idea: a click names a pile (and for a column, how many cards from its top); with nothing selected it picks
up cards, with a selection it is the place to put them. Every move goes through ``Game.play``, so an illegal
attempt changes nothing and the status line gives the rule's reason.
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..engine import what_differs
from ..explain import explain_illegal
from ..game import Game
from ..moves import (COLUMN_TO_COLUMN, COLUMN_TO_FOUNDATION, DRAW, FLIP, FOUNDATION_TO_COLUMN, RECYCLE,
                     WASTE_TO_COLUMN, WASTE_TO_FOUNDATION, IllegalMoveError, Move, apply, legal_moves)
from ..notation import Pile, move_from_text, parse_pile
from ..variants import Variant
from .base import Selection, TableBase

def guarded(action: Callable[..., Any]) -> Callable[..., None]:
    """Run a player action: no exception reaches the notebook, and the table is sent once afterwards.

    Actions may call other actions: only the outermost one sends the state (one message per action). One
    action runs at a time (``_actions_lock``), whichever thread of the kernel calls it.
    Each action starts with no cards in flight (only the state right after Auto-finish names them).
    """

    @functools.wraps(action)
    def run(self: TableBase, *args: Any, **kwargs: Any) -> None:
        with self._actions_lock:  # a cell's call and a click (on a kernel subshell thread) take turns
            self._depth += 1
            try:
                if self._depth == 1:
                    self._flight = []
                action(self, *args, **kwargs)
            except Exception as exc:  # noqa: BLE001 - a click must never print a traceback
                self._say(f"Something went wrong: {type(exc).__name__}: {exc}", "error")
            finally:
                self._depth -= 1
            if self._depth == 0:
                say_unwritten(self)
                self._send_state()

    return run


def say_unwritten(table: TableBase) -> None:
    """Begin the status line with the pieces of the table's engine that turned out to be a lesson's stub since the
    table last said so: the engine plays the kit's piece in their place (engine.py), and the student must not take
    that for their own work. A piece first called after the deal (the waste's moves, a move between columns) is
    met only then."""
    engine = table.game.engine
    new = sorted(engine.unwritten - table._told_unwritten) if engine is not None else []
    if new:
        table._told_unwritten |= set(new)
        names = [getattr(engine.pieces[piece], "__name__", piece) for piece in new]
        one = len(names) == 1
        table._say(f"{' and '.join(names)} {'is' if one else 'are'} not written yet: until {'it is' if one else 'they are'}, "
                   f"this table plays by the kit's rules. " + table.message, table.message_kind)


def as_move(move: Move | str) -> Move:
    return move if isinstance(move, Move) else move_from_text(move)


def as_pile(pile: Pile | str) -> Pile:
    return pile if isinstance(pile, Pile) else parse_pile(str(pile))


def describe(before: Any, after: Any, m: Move) -> str:
    """What a legal move did, in words."""
    if m.kind == DRAW:
        n = len(before.stock) - len(after.stock)
        return f"turned {' '.join(map(str, after.waste[-n:]))} onto the waste"
    if m.kind == RECYCLE:
        return f"turned the waste over into a new stock of {len(after.stock)} cards"
    if m.kind == FLIP:
        return f"turned up {after.columns[m.source][-1]}"
    if m.kind in (WASTE_TO_COLUMN, WASTE_TO_FOUNDATION):
        card, where = before.waste[-1], "a foundation" if m.kind == WASTE_TO_FOUNDATION else f"t{m.target + 1}"
        return f"{card} from the waste to {where}"
    if m.kind == COLUMN_TO_FOUNDATION:
        return f"{before.columns[m.source][-1]} from t{m.source + 1} to a foundation"
    if m.kind == FOUNDATION_TO_COLUMN:
        return f"{before.foundations[m.source][-1]} from f{m.source + 1} back to t{m.target + 1}"
    moved = before.columns[m.source][-m.count:]
    return f"{' '.join(map(str, moved))} from t{m.source + 1} to t{m.target + 1}"


class PlayMixin(TableBase):
    """Clicks on piles, drag and drop, undo/redo/restart and dealing (mixed into GameWidget)."""

    def _try(self, move: Move) -> bool:
        """Play a move if legal; otherwise explain why not. Returns whether it was played."""
        before = self.game.position
        self.marked = None
        try:
            self.game.play(move)
        except IllegalMoveError as exc:
            self._say(str(exc), "error")
            return False
        said = f"{move}: {describe(before, self.game.position, move)}"
        wrong = self.game.engine is not None and move not in legal_moves(before)
        if wrong:  # the table runs on a student's piece, and that piece let through a move the rules refuse
            said += f". But the kit's rules refuse it: {explain_illegal(before, move) or 'it is not legal'}"
        elif self.game.engine is not None and self.game.position != apply(before, move):
            wrong = True  # a student's move_build or draw made a position the rules do not
            rules_make = apply(before, move)
            said += f". But the kit's rules make another position: yours {what_differs(self.game.position, rules_make)}"
        self._say(said, "error" if wrong else "ok")
        return True

    @guarded
    def click_stock(self) -> None:
        """Draw from the stock, or turn the waste over when the stock is empty."""
        self.selection = None
        self._try(Move(DRAW) if self.game.position.stock else Move(RECYCLE))

    @guarded
    def click_waste(self) -> None:
        """Select the top waste card; clicking it again sends it to a foundation."""
        p = self.game.position
        if self.selection == Selection("waste"):
            self.selection = None
            self._try(Move(WASTE_TO_FOUNDATION))
        elif not p.waste:
            self.selection = None
            self._say("The waste is empty: click the stock to draw a card.", "error")
        else:
            self.selection = Selection("waste")
            self._say(f"Selected {p.waste[-1]} from the waste: click a column or a foundation "
                      "(or the same card again to send it to a foundation).")

    @guarded
    def click_foundation(self, index: int) -> None:
        """Send the selected card here, or pick up this foundation's top card (where the variant allows)."""
        p = self.game.position
        if not 0 <= index < len(p.foundations):
            raise ValueError(f"there is no foundation {index + 1}: foundations are f1 to f{len(p.foundations)}")
        sel, self.selection = self.selection, None
        if sel is None:
            pile = p.foundations[index]
            if not pile:
                self._say(f"Foundation f{index + 1} is empty: select a card first, then click here.", "error")
            elif not p.variant.foundation_to_tableau:
                self._say(f"In {p.variant.name} cards never come back from a foundation: "
                          "select a card in the waste or a column first.", "error")
            else:
                self.selection = Selection("foundation", index)
                self._say(f"Selected {pile[-1]} from foundation f{index + 1}: click a column to put it there.")
        elif sel.pile == "foundation":
            self._say("Deselected." if sel.index == index else "A card cannot move from one foundation to another.",
                      "info" if sel.index == index else "error")
        else:
            self._send_to_foundation(sel)

    @guarded
    def click_column(self, index: int, depth: int = 1) -> None:
        """Click column ``index``; ``depth`` says which card: 1 is the top card, 2 the one under it, ...

        With nothing selected this selects the top ``depth`` cards (or flips a face-down top card); with a
        selection it moves the selection onto this column. Clicking the selected card again sends it to a
        foundation.
        """
        p = self.game.position
        if not 0 <= index < len(p.columns):
            raise ValueError(f"there is no column {index + 1}: columns are t1 to t{len(p.columns)}")
        col, face_up = p.columns[index], len(p.columns[index]) - p.hidden[index]
        sel, self.selection = self.selection, None
        if col and face_up == 0 and depth == 1:
            self._try(Move(FLIP, index))
        elif sel is not None and not (sel.pile == "column" and sel.index == index):
            self._try({"waste": Move(WASTE_TO_COLUMN, target=index),
                       "column": Move(COLUMN_TO_COLUMN, sel.index, index, sel.count),
                       "foundation": Move(FOUNDATION_TO_COLUMN, sel.index, index)}[sel.pile])
        elif not col:
            self._say(f"Column t{index + 1} is empty: select a card first, then click here to move it.", "error")
        elif depth < 1 or depth > face_up:
            self._say(f"That card is face down: only the {face_up} face-up card(s) of t{index + 1} can move.", "error")
        elif sel == Selection("column", index, depth):
            if depth == 1:
                self._try(Move(COLUMN_TO_FOUNDATION, index))
            else:
                self._say("Deselected.")
        else:
            self.selection = Selection("column", index, depth)
            self._say(f"Selected {' '.join(map(str, col[-depth:]))} from t{index + 1}: click another column"
                      + (" or a foundation (or the same card again)." if depth == 1 else "."))

    @guarded
    def drop(self, source: Pile | str, target: Pile | str) -> None:
        """Drag and drop: move cards from pile ``source`` ('waste', 'f2', 't3:2' = two cards of t3) to ``target``.

        The same as clicking the source and then the target, so the same rules and messages apply.
        """
        source, target = as_pile(source), as_pile(target)
        if (source.kind, source.index) == (target.kind, target.index):  # dropped where it came from
            self.selection = None
            self._say("Nothing moved: the cards were dropped back where they came from.")
            return
        if source.kind == "stock":
            raise ValueError("cards cannot be dragged from the stock: click it to draw")
        self.selection = Selection(source.kind, source.index, source.count)
        if target.kind == "column":
            self.click_column(target.index)
        elif target.kind == "foundation":
            self.click_foundation(target.index)
        else:
            self.selection = None
            self._say(f"Cards cannot be put on the {target.kind}: drop them on a column or a foundation.", "error")

    @guarded
    def double_click(self, source: Pile | str) -> None:
        """Send the top card of ``source`` ('waste' or 't3') to its foundation."""
        source = as_pile(source)
        self.selection = None
        if source.kind == "waste":
            self._try(Move(WASTE_TO_FOUNDATION))
        elif source.kind == "column":
            self._try(Move(COLUMN_TO_FOUNDATION, source.index))
        else:
            self._say("Double-click a card of the waste or a column to send it to a foundation.", "error")

    @guarded
    def deselect(self) -> None:
        self.selection = self.marked = None
        self._say("Nothing selected.")

    @guarded
    def to_foundation(self) -> None:
        """Send the selected card to its foundation."""
        sel, self.selection = self.selection, None
        if sel is None:
            self._say("Select a card first (click it), then press To foundation.", "error")
        elif sel.pile == "foundation":
            self._say("That card is already on a foundation.", "error")
        else:
            self._send_to_foundation(sel)

    def _send_to_foundation(self, sel: Selection) -> None:
        if sel.pile == "waste":
            self._try(Move(WASTE_TO_FOUNDATION))
        elif sel.count > 1:
            self._say(f"Only one card at a time goes to a foundation: select the top card of t{sel.index + 1}.",
                      "error")
        else:
            self._try(Move(COLUMN_TO_FOUNDATION, sel.index))

    @guarded
    def play_move(self, move: Move | str) -> None:
        """Play a move given in the kit's notation (or as a Move), as if clicked."""
        self.selection = None
        self._try(as_move(move))

    @guarded
    def undo(self) -> None:
        """Take back the last move."""
        self.selection = self.marked = None
        if not self.game.can_undo():
            self._say("There is no move to undo.", "error")
            return
        self._say(f"Took back {self.game.undo()}.")

    @guarded
    def redo(self) -> None:
        """Play again the move taken back last."""
        self.selection = self.marked = None
        if not self.game.can_redo():
            self._say("There is no move to redo.", "error")
            return
        self._say(f"Played again {self.game.redo()}.")

    @guarded
    def restart(self) -> None:
        """Go back to the deal; the moves stay on the redo list."""
        self.selection = self.marked = None
        n = 0
        while self.game.can_undo():
            self.game.undo()
            n += 1
        self._say(f"Back to the deal ({n} moves taken back; Redo plays them again)." if n else "Already at the deal.")

    @guarded
    def new_deal(self) -> None:
        """Deal the next seed of the same variant."""
        following = (self.game.seed if self.game.seed is not None else -1) + 1
        self._set_game(Game(self.game.variant, following % 2 ** 64, engine=self.game.engine))  # after the last seed, 2**64 - 1, comes 0

    @guarded
    def new_game(self, variant: str | Variant | None = None, seed: int | None = None) -> None:
        """Deal a new game (by default the same variant, and the same seed)."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError(f"the seed must be a whole number, not {seed!r}")
        self._set_game(Game(self.game.variant if variant is None else variant,
                            (self.game.seed or 0) if seed is None else seed, engine=self.game.engine))

    @guarded
    def set_game(self, game: Game) -> None:
        """Show another game in this table."""
        self._set_game(game)

    def _set_game(self, game: Game) -> None:
        self.game = game
        self.selection = self.marked = None
        self._end_replay()
        self._say(f"New deal: {game.variant.name}" + (f", seed {game.seed}." if game.seed is not None else "."))

