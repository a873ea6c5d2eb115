"""Play by clicking in Jupyter: a card table made of standard ipywidgets 8 (no front-end build, no custom JS).

Every card is an ``ipywidgets.Button``; fanned piles are made by overlapping buttons with negative margins.
The ``Game`` is the single source of truth: each action changes the game, then the table is drawn again from
``game.position``. Illegal attempts change nothing and explain the rule in the status line.

Python API (also what the buttons call): ``click_stock()``, ``click_waste()``, ``click_foundation(i)``,
``click_column(i, depth=1)`` (``depth`` = how many cards from the top: 1 is the top card), ``to_foundation()``,
``undo()``, ``redo()``, ``hint()``, ``auto_finish()``, ``new_deal()``, ``restart()``, ``new_game(variant, seed)``,
``load_replay(moves)``, ``replay_next()``, ``replay_prev()``. Indices are 0-based, as in ``Move``.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from html import escape
from typing import Any, NamedTuple

import ipywidgets as W

from .cards import Card
from .game import Game
from .moves import (COLUMN_TO_COLUMN, COLUMN_TO_FOUNDATION, DRAW, FLIP, FOUNDATION_TO_COLUMN, RECYCLE,
                    WASTE_TO_COLUMN, WASTE_TO_FOUNDATION, IllegalMoveError, Move, rules)
from .render import text_diagram
from .variants import VARIANTS, Variant

CARD_W, CARD_H = 58, 80  # pixels
DOWN_SHOW, UP_SHOW, WASTE_SHOW = 12, 26, 30  # visible part of a covered card
PILE_GAP = 6
FACE, RED, BLACK = "#ffffff", "#c0162c", "#111111"
BACK, BACK_EDGE = "#1d4f91", "#0b2748"
SELECTED, SELECTED_FACE, HINTED = "#ff9800", "#fff2c2", "#29b6f6"
SLOT_FACE, SLOT_EDGE = "rgba(255, 255, 255, 0.12)", "#8fbf9f"
AUTO_FINISH_BUDGET, AUTO_FINISH_SECONDS = 20_000, 1.0  # solver effort before Auto-finish plays safe moves only
SOLUTION_SECONDS = 5.0  # solver time for the Solution button

CSS = """<style>
.sol-table { background: #1f6b45; border-radius: 10px; padding: 6px 10px 12px 10px; }
.sol-table .sol-label, .sol-table .sol-label * { color: #e8f5e9 !important; }
.sol-card { border-radius: 6px !important; box-shadow: 0 1px 2px rgba(0, 0, 0, 0.4);
            line-height: 22px !important; font-family: "DejaVu Sans", "Segoe UI Symbol", Arial, sans-serif !important; }
.sol-card:focus, .sol-card:active { outline: none !important; }
.sol-back { background-image: radial-gradient(rgba(190, 215, 255, 0.85) 1.3px, transparent 1.6px) !important;
            background-size: 7px 7px !important; background-position: 2px 2px !important; }
.sol-slot { box-shadow: none !important; }
.sol-status { min-height: 24px; }
</style>"""


class Selection(NamedTuple):
    """What the player picked up: pile is 'waste', 'column' or 'foundation'; count cards from its top."""

    pile: str
    index: int = 0
    count: int = 1


class _Look(NamedTuple):
    """Everything that is drawn on one card button (compared before touching the widget)."""

    description: str
    face: str
    ink: str
    border: str
    margin: str
    padding: str
    font_size: str
    display: str
    back: bool
    tooltip: str


HIDDEN_LOOK = _Look("", FACE, BLACK, "", "0", "0", "14px", "none", False, "")
UNKNOWN_LOOK = _Look(*[None] * len(_Look._fields))  # matches nothing: every trait gets set


def _guarded(action: Callable[..., Any]) -> Callable[..., None]:
    """Run a player action: no exception may reach the notebook; the table is redrawn afterwards."""

    @functools.wraps(action)
    def run(self: GameWidget, *args: Any, **kwargs: Any) -> None:
        try:
            action(self, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - a click must never print a traceback
            self._say(f"Something went wrong: {type(exc).__name__}: {exc}", "error")
        try:
            self._render()
        except Exception as exc:  # noqa: BLE001
            self.message = f"Could not draw the table: {type(exc).__name__}: {exc}"
            self.status.value = f"<span style='color:#e53935'>{escape(self.message)}</span>"

    return run


def _card_button(on_click: Callable[[W.Button], None], pile: str) -> W.Button:
    """A card-sized button; ``pile`` (stock, waste, f1, t3 ...) becomes a CSS class the browser test can find."""
    b = W.Button(description="", layout=W.Layout(width=f"{CARD_W}px", height=f"{CARD_H}px", margin="0",
                                                 padding="0", flex="0 0 auto"))
    b.style.font_weight = "bold"
    b.add_class("sol-card")
    b.add_class(f"sol-{pile}")
    b.on_click(on_click)
    b._look = None  # type: ignore[attr-defined]
    return b


def _apply_look(button: W.Button, look: _Look) -> None:
    """Set only the traits that differ from what the button shows now (each change is a message to the browser)."""
    old = button._look or UNKNOWN_LOOK  # type: ignore[attr-defined]
    if old == look:
        return
    if old.display != look.display:
        button.layout.display = look.display
    if look.display == "none":  # remember what is really drawn, so showing it again updates the right traits
        button._look = old._replace(display="none")  # type: ignore[attr-defined]
        return
    for field, owner, trait in _TRAITS:
        value = getattr(look, field)
        if getattr(old, field) != value:
            setattr(button.layout if owner == "layout" else button.style if owner == "style" else button, trait, value)
    if old.back != look.back:
        (button.add_class if look.back else button.remove_class)("sol-back")
    if (old.face == SLOT_FACE) != (look.face == SLOT_FACE):
        (button.add_class if look.face == SLOT_FACE else button.remove_class)("sol-slot")
    button._look = look  # type: ignore[attr-defined]


_TRAITS = (("description", "", "description"), ("face", "style", "button_color"), ("ink", "style", "text_color"),
           ("border", "layout", "border"), ("margin", "layout", "margin"), ("padding", "layout", "padding"),
           ("font_size", "style", "font_size"), ("tooltip", "", "tooltip"))


def _face_look(card: Card, *, covered: bool, mark: str = "", margin: str = "0", padding: str | None = None,
               tooltip: str = "") -> _Look:
    pad = padding if padding is not None else (f"0 0 {CARD_H - UP_SHOW}px 0" if covered else "0")
    return _Look(str(card), SELECTED_FACE if mark == SELECTED else FACE, RED if card.is_red else BLACK,
                 f"3px solid {mark}" if mark else "1px solid #333333", margin, pad,
                 "15px" if covered else "20px", "", False, tooltip)


def _back_look(*, mark: str = "", margin: str = "0", text: str = "", tooltip: str = "") -> _Look:
    return _Look(text, BACK, "#ffffff", f"3px solid {mark}" if mark else f"1px solid {BACK_EDGE}", margin, "0",
                 "16px", "", True, tooltip)


def _slot_look(text: str = "", *, mark: str = "", tooltip: str = "") -> _Look:
    return _Look(text, SLOT_FACE, SLOT_EDGE, f"3px solid {mark}" if mark else f"2px dashed {SLOT_EDGE}", "0", "0",
                 "20px", "", False, tooltip)


def _label(text: str = "") -> W.HTML:
    label = W.HTML(value=text, layout=W.Layout(height="18px", margin="0 0 2px 0", overflow="hidden"))
    label.style.font_size = "12px"
    label.add_class("sol-label")
    return label


def _as_move(move: Move | str) -> Move:
    return move if isinstance(move, Move) else Move.from_text(move)


class GameWidget(W.VBox):
    """A card table to play a ``Game`` by clicking; ``GameWidget(Game("klondike", seed=1))``."""

    def __init__(self, game: Game | None = None, **kwargs: Any) -> None:
        self.game = game if game is not None else Game()
        self.selection: Selection | None = None
        self.marked: Move | None = None  # a move shown on the table (hint or the next replay step)
        self.message = ""
        self.replay: list[Move] = []
        self.replay_step = 0
        self._replay_base = 0
        self._syncing = False
        self._build_controls()
        self._build_table()
        super().__init__(children=[
            W.HTML(CSS, layout=W.Layout(height="0px", margin="0", overflow="hidden")),
            self.header, self.table, self.actions, self.banner, self.status, self.moves_view, self.replay_box,
            self.legal_view, self.text_view], **kwargs)
        self.add_class("sol-widget")
        self._say(f"{self.game.variant.name}: click the stock to draw, click a card then where it should go.")
        self._render()

    # --- building the controls --------------------------------------------------------------
    def _build_controls(self) -> None:
        def button(text: str, action: Callable[[], None], tip: str, icon: str = "") -> W.Button:
            b = W.Button(description=text, tooltip=tip, icon=icon, layout=W.Layout(width="auto"))
            b.on_click(lambda _b: action())
            return b

        self.title = W.HTML(layout=W.Layout(margin="0 12px 0 0"))
        self.variant_select = W.Dropdown(description="Variant", layout=W.Layout(width="230px"))
        self.variant_select.style.description_width = "56px"
        self.seed_field = W.IntText(description="Seed", layout=W.Layout(width="150px"))
        self.seed_field.style.description_width = "40px"
        self.new_deal_button = button("New deal", self.new_deal, "deal the next seed (or the seed typed in)", "random")
        self.restart_button = button("Restart", self.restart, "take every move back (Redo replays them)",
                                     "fast-backward")
        self.undo_button = button("Undo", self.undo, "take back the last move", "undo")
        self.redo_button = button("Redo", self.redo, "play again the move taken back", "redo")
        self.to_foundation_button = button("To foundation", self.to_foundation,
                                           "send the selected card to its foundation", "arrow-up")
        self.hint_button = button("Hint", self.hint, "suggest a move", "lightbulb-o")
        self.auto_finish_button = button("Auto-finish", self.auto_finish,
                                         "play the solver's winning line, or safe foundation moves", "forward")
        self.solution_button = button("Solution", self.show_solution,
                                      "ask the solver for a winning line and step through it", "flag-checkered")
        self.show_moves_toggle = W.ToggleButton(description="Legal moves", tooltip="show every legal move",
                                                layout=W.Layout(width="auto"))
        self.show_text_toggle = W.ToggleButton(description="Position text",
                                               tooltip="the position in the kit's notation (face-down cards too)",
                                               layout=W.Layout(width="auto"))
        self.header = W.HBox([self.title, self.variant_select, self.seed_field, self.new_deal_button,
                              self.restart_button], layout=W.Layout(flex_flow="row wrap", align_items="center"))
        self.actions = W.HBox([self.undo_button, self.redo_button, self.to_foundation_button, self.hint_button,
                               self.auto_finish_button, self.solution_button, self.show_moves_toggle,
                               self.show_text_toggle],
                              layout=W.Layout(flex_flow="row wrap", margin="6px 0 0 0"))
        self.banner = W.HTML(layout=W.Layout(display="none"))
        self.status = W.HTML()
        self.status.add_class("sol-status")
        self.moves_view = W.HTML()
        self.moves_view.add_class("sol-moves")
        self.legal_view = W.HTML(layout=W.Layout(display="none"))
        self.text_view = W.HTML(layout=W.Layout(display="none"))
        self.replay_label = W.HTML(layout=W.Layout(margin="0 8px"))
        self.replay_prev_button = button("Previous", self.replay_prev, "take back the last replayed move",
                                         "step-backward")
        self.replay_next_button = button("Next", self.replay_next, "play the next move of the replay", "step-forward")
        self.replay_end_button = button("End replay", self.end_replay, "hide the replay controls", "times")
        self.replay_box = W.HBox([self.replay_prev_button, self.replay_next_button, self.replay_label,
                                  self.replay_end_button], layout=W.Layout(display="none", align_items="center"))
        self._sync_selectors()
        self.variant_select.observe(self._on_variant, names="value")
        self.seed_field.observe(self._on_seed, names="value")
        self.show_moves_toggle.observe(lambda _c: self.refresh(), names="value")
        self.show_text_toggle.observe(lambda _c: self.refresh(), names="value")

    def _build_table(self) -> None:
        self.stock_label = _label()
        self.stock_button = _card_button(lambda _b: self.click_stock(), "stock")
        self.waste_label = _label()
        self.waste_buttons: list[W.Button] = []
        self.waste_fan = W.HBox(layout=W.Layout(overflow="visible"))
        self.foundation_labels: list[W.HTML] = []
        self.foundation_buttons: list[W.Button] = []
        self.foundation_piles: list[W.VBox] = []
        self.foundation_row = W.HBox()
        self.column_labels: list[W.HTML] = []
        self.column_base_buttons: list[W.Button] = []  # the place of an empty column
        self.column_buttons: list[list[W.Button]] = []  # [column][card from the bottom]
        self.column_piles: list[W.VBox] = []
        self.columns_row = W.HBox(layout=W.Layout(margin="10px 0 0 0", overflow="visible"))
        pile = W.Layout(margin=f"0 {PILE_GAP}px 0 0", overflow="visible", flex="0 0 auto")
        self.top_row = W.HBox([W.VBox([self.stock_label, self.stock_button], layout=pile),
                               W.VBox([self.waste_label, self.waste_fan], layout=W.Layout(
                                   margin=f"0 {PILE_GAP}px 0 0", overflow="visible", min_width=f"{CARD_W + 8}px")),
                               W.Box(layout=W.Layout(flex="1 1 auto", min_width="12px")), self.foundation_row],
                              layout=W.Layout(overflow="visible"))
        self.table = W.VBox([self.top_row, self.columns_row], layout=W.Layout(overflow="visible", width="fit-content"))
        self.table.add_class("sol-table")

    def _sync_selectors(self) -> None:
        """Show the game's variant and seed in the selectors without dealing again."""
        self._syncing = True
        try:
            options = [(v.name, v) for v in VARIANTS.values()]
            if self.game.variant not in VARIANTS.values():
                options.append((f"{self.game.variant.name} (custom)", self.game.variant))
            if list(self.variant_select.options) != options:
                self.variant_select.options = options
            self.variant_select.value = self.game.variant
            if self.game.seed is not None:
                self.seed_field.value = self.game.seed
        finally:
            self._syncing = False

    # --- the pool of card buttons grows on demand and is reused ----------------------------------
    def _ensure_piles(self) -> None:
        p = self.game.position
        n, nf, nw = len(p.columns), len(p.foundations), max(p.variant.draw, 1)
        while len(self.waste_buttons) < nw:
            self.waste_buttons.append(_card_button(functools.partial(self._waste_button_clicked,
                                                                     len(self.waste_buttons)), "waste"))
            self.waste_fan.children = tuple(self.waste_buttons)
        while len(self.foundation_buttons) < nf:
            i = len(self.foundation_buttons)
            self.foundation_labels.append(_label(f"f{i + 1}"))
            self.foundation_buttons.append(_card_button(lambda _b, i=i: self.click_foundation(i), f"f{i + 1}"))
            self.foundation_piles.append(W.VBox([self.foundation_labels[i], self.foundation_buttons[i]],
                                                layout=W.Layout(margin=f"0 {PILE_GAP}px 0 0", flex="0 0 auto")))
        if len(self.foundation_row.children) != nf:
            self.foundation_row.children = tuple(self.foundation_piles[:nf])
        while len(self.column_piles) < n:
            i = len(self.column_piles)
            self.column_labels.append(_label(f"t{i + 1}"))
            self.column_base_buttons.append(_card_button(lambda _b, i=i: self.click_column(i), f"t{i + 1}"))
            self.column_buttons.append([])
            self.column_piles.append(W.VBox([self.column_labels[i], self.column_base_buttons[i]], layout=W.Layout(
                margin=f"0 {PILE_GAP}px 0 0", overflow="visible", flex="0 0 auto", width=f"{CARD_W}px")))
        if len(self.columns_row.children) != n:
            self.columns_row.children = tuple(self.column_piles[:n])
        for i, col in enumerate(p.columns):
            slots = self.column_buttons[i]
            if len(slots) < len(col):
                while len(slots) < len(col):
                    clicked = functools.partial(self._column_button_clicked, i, len(slots))
                    slots.append(_card_button(clicked, f"t{i + 1}"))
                self.column_piles[i].children = (self.column_labels[i], self.column_base_buttons[i], *slots)

    def _column_button_clicked(self, column: int, slot: int, _button: W.Button) -> None:
        self.click_column(column, max(len(self.game.position.columns[column]) - slot, 1))

    def _waste_button_clicked(self, slot: int, _button: W.Button) -> None:
        shown = self._waste_shown()
        if slot < len(shown) - 1:
            self._covered_waste_clicked()
        else:
            self.click_waste()

    @_guarded
    def _covered_waste_clicked(self) -> None:
        self._say("Only the top card of the waste can be played (the one on the right).", "error")

    def _waste_shown(self) -> tuple[Card, ...]:
        p = self.game.position
        return p.waste[-max(p.variant.draw, 1):]

    # --- drawing the table from the game -------------------------------------------------------
    @_guarded
    def refresh(self) -> None:
        """Draw the table again from the game (after changing ``widget.game`` from code)."""

    def _marks(self) -> dict[tuple[str, int], tuple[int, str]]:
        """(pile, index) -> (cards from the top, colour) for the selection and the marked move."""
        marks: dict[tuple[str, int], tuple[int, str]] = {}
        m = self.marked
        if m is not None:
            if m.kind in (DRAW, RECYCLE):
                marks[("stock", 0)] = (1, HINTED)
            elif m.kind in (WASTE_TO_COLUMN, WASTE_TO_FOUNDATION):
                marks[("waste", 0)] = (1, HINTED)
            elif m.kind == FOUNDATION_TO_COLUMN:
                marks[("foundation", m.source)] = (1, HINTED)
            else:
                marks[("column", m.source)] = (m.count, HINTED)
            if m.kind in (WASTE_TO_COLUMN, COLUMN_TO_COLUMN, FOUNDATION_TO_COLUMN):
                marks.setdefault(("column", m.target), (1, HINTED))
        s = self.selection
        if s is not None:
            marks[(s.pile, s.index)] = (s.count, SELECTED)
        return marks

    def _render(self) -> None:
        self._ensure_piles()
        g, p = self.game, self.game.position
        v = p.variant
        marks = self._marks()
        self.title.value = (f"<b>{escape(v.name)}</b>" + (f" &middot; seed {g.seed}" if g.seed is not None else ""))
        # stock
        self.stock_label.value = f"stock {len(p.stock)}"
        mark = marks.get(("stock", 0), (0, ""))[1]
        if p.stock:
            look = _back_look(mark=mark, text=str(len(p.stock)), tooltip="click to draw")
        else:
            look = _slot_look("↻" if p.waste else "", mark=mark,
                              tooltip="click to turn the waste over" if p.waste else "stock and waste are empty")
        _apply_look(self.stock_button, look)
        # waste
        shown = self._waste_shown()
        self.waste_label.value = f"waste {len(p.waste)}"
        mark = marks.get(("waste", 0), (0, ""))[1]
        for i, b in enumerate(self.waste_buttons):
            if not shown:
                look = _slot_look(tooltip="the waste is empty") if i == 0 else HIDDEN_LOOK
            elif i < len(shown):
                top = i == len(shown) - 1
                cover = CARD_W - WASTE_SHOW
                look = _face_look(shown[i], covered=not top, mark=mark if top else "",
                                  margin=f"0 0 0 -{cover}px" if i else "0",
                                  padding="0" if top else f"0 {cover}px 0 0",
                                  tooltip="click to select; click again to send it to a foundation" if top else "")
            else:
                look = HIDDEN_LOOK
            _apply_look(b, look)
        # foundations
        for i, b in enumerate(self.foundation_buttons):
            if i >= len(p.foundations):
                continue
            pile = p.foundations[i]
            mark = marks.get(("foundation", i), (0, ""))[1]
            look = (_face_look(pile[-1], covered=False, mark=mark, tooltip=f"f{i + 1}: {len(pile)} card(s)") if pile
                    else _slot_look(v.ranks[0], mark=mark, tooltip=f"f{i + 1} starts with {v.ranks[0]}"))
            _apply_look(b, look)
        # columns
        for i, col in enumerate(p.columns):
            hidden = p.hidden[i]
            count, mark = marks.get(("column", i), (0, ""))
            _apply_look(self.column_base_buttons[i], HIDDEN_LOOK if col else _slot_look(
                "K" if v.empty_column_ranks == ("K",) else "", mark=mark, tooltip=f"t{i + 1}: {v.empty_column_rule()}"))
            for j, b in enumerate(self.column_buttons[i]):
                if j >= len(col):
                    _apply_look(b, HIDDEN_LOOK)
                    continue
                margin = "0" if j == 0 else f"-{CARD_H - (DOWN_SHOW if j - 1 < hidden else UP_SHOW)}px 0 0 0"
                card_mark = mark if j >= len(col) - count else ""
                if j < hidden:
                    tip = "click to turn it face up" if j == len(col) - 1 else "face down"
                    look = _back_look(mark=card_mark, margin=margin, tooltip=tip)
                else:
                    look = _face_look(col[j], covered=j < len(col) - 1, mark=card_mark, margin=margin)
                _apply_look(b, look)
        self._render_panels()

    def _render_panels(self) -> None:
        g = self.game
        moves = g.moves
        listing = " ".join(f"<span style='white-space:nowrap'>{n}.&nbsp;{escape(str(m))}</span>"
                           for n, m in enumerate(moves, 1))
        self.moves_view.value = (f"<b>Moves: {len(moves)}</b>" + (f" &mdash; {listing}" if moves else ""))
        self.undo_button.disabled = not g.can_undo()
        self.redo_button.disabled = not g.can_redo()
        self.restart_button.disabled = not g.can_undo()
        reason = g.over_reason()
        if reason == "won":
            self._show(self.banner, True)
            self.banner.value = (f"<div style='background:#2e7d32;color:#fff;padding:6px 10px;border-radius:6px;"
                                 f"font-weight:bold'>You won! All {g.variant.deck_size} cards are on the foundations "
                                 f"in {len(moves)} moves.</div>")
        elif reason:
            self._show(self.banner, True)
            self.banner.value = ("<div style='background:#a35200;color:#fff;padding:6px 10px;border-radius:6px;"
                                 "font-weight:bold'>No more moves: nothing but drawing is left and a whole pass "
                                 "through the stock would not help. Undo to try another line, or deal again.</div>")
        else:
            self._show(self.banner, False)
        self._show(self.legal_view, self.show_moves_toggle.value)
        if self.show_moves_toggle.value:
            legal = g.legal_moves()
            self.legal_view.value = (f"<b>Legal moves ({len(legal)}):</b> "
                                     + (escape(", ".join(map(str, legal))) or "none"))
        self._show(self.text_view, self.show_text_toggle.value)
        if self.show_text_toggle.value:
            self.text_view.value = (f"<pre style='margin:4px 0;line-height:1.35;font-size:13px'>"
                                    f"{escape(self._position_text())}</pre>")
        self._show(self.replay_box, bool(self.replay))
        if self.replay:
            nxt = (f" &mdash; next: <b>{escape(str(self.replay[self.replay_step]))}</b>"
                   if self.replay_step < len(self.replay) else " &mdash; end of the replay")
            self.replay_label.value = f"Replay step {self.replay_step}/{len(self.replay)}{nxt}"
            self.replay_prev_button.disabled = self.replay_step == 0
            self.replay_next_button.disabled = self.replay_step >= len(self.replay)

    def _position_text(self) -> str:
        try:
            return self.game.to_text()
        except (ImportError, AttributeError, NotImplementedError) as exc:
            return f"(position text is not available: {exc})\n\n{text_diagram(self.game.position)}"

    @staticmethod
    def _show(widget: W.DOMWidget, visible: bool) -> None:
        display = "" if visible else "none"
        if widget.layout.display != display:
            widget.layout.display = display

    def _say(self, text: str, kind: str = "info") -> None:
        """Write the status line ('info', 'ok' or 'error')."""
        self.message = text
        colour = {"error": "#e53935", "ok": "#2e9d4a"}.get(kind)
        mark = {"error": "✗ ", "ok": "✓ "}.get(kind, "")
        body = escape(mark + text)
        self.status.value = f"<span style='color:{colour};font-weight:bold'>{body}</span>" if colour else body

    # --- playing ---------------------------------------------------------------------------------
    def _try(self, move: Move) -> bool:
        """Play a move if legal; otherwise explain why not. Returns whether it was played."""
        before = self.game.position
        self.marked = None
        try:
            self.game.play(move)
        except IllegalMoveError as exc:
            self._say(str(exc), "error")
            return False
        self._say(f"{move}: {_describe(before, self.game.position, move)}", "ok")
        return True

    @_guarded
    def click_stock(self) -> None:
        """Draw from the stock, or turn the waste over when the stock is empty."""
        self.selection = None
        self._try(Move(DRAW) if self.game.position.stock else Move(RECYCLE))

    @_guarded
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

    @_guarded
    def click_foundation(self, index: int) -> None:
        """Send the selected card here, or pick up this foundation's top card (where the variant allows)."""
        p = self.game.position
        if not 0 <= index < len(p.foundations):
            raise ValueError(f"there is no foundation {index + 1}: foundations are f1 to f{len(p.foundations)}")
        sel = self.selection
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
            self.selection = None
            self._say("Deselected." if sel.index == index else "A card cannot move from one foundation to another.",
                      "info" if sel.index == index else "error")
        else:
            self.selection = None
            self._send_to_foundation(sel)

    @_guarded
    def click_column(self, index: int, depth: int = 1) -> None:
        """Click column ``index``; ``depth`` says which card: 1 is the top card, 2 the one under it, ...

        With nothing selected this selects the top ``depth`` cards (or flips a face-down top card); with a
        selection it moves the selection onto this column. Clicking the selected card again sends it to a
        foundation.
        """
        p = self.game.position
        if not 0 <= index < len(p.columns):
            raise ValueError(f"there is no column {index + 1}: columns are t1 to t{len(p.columns)}")
        col, hidden = p.columns[index], p.hidden[index]
        face_up = len(col) - hidden
        sel = self.selection
        if col and face_up == 0 and depth == 1:
            self.selection = None
            self._try(Move(FLIP, index))
            return
        if sel is not None and not (sel.pile == "column" and sel.index == index):
            self.selection = None
            target = {"waste": Move(WASTE_TO_COLUMN, target=index),
                      "column": Move(COLUMN_TO_COLUMN, sel.index, index, sel.count),
                      "foundation": Move(FOUNDATION_TO_COLUMN, sel.index, index)}[sel.pile]
            self._try(target)
            return
        if not col:
            self.selection = None
            self._say(f"Column t{index + 1} is empty: select a card first, then click here to move it.", "error")
            return
        if depth < 1 or depth > face_up:
            self.selection = None
            self._say(f"That card is face down: only the {face_up} face-up card(s) of t{index + 1} can move.", "error")
            return
        if sel == Selection("column", index, depth):
            self.selection = None
            if depth == 1:
                self._try(Move(COLUMN_TO_FOUNDATION, index))
            else:
                self._say("Deselected.")
            return
        self.selection = Selection("column", index, depth)
        cards = " ".join(map(str, col[-depth:]))
        what = f"{cards} from t{index + 1}" if depth > 1 else f"{cards} from t{index + 1}"
        self._say(f"Selected {what}: click another column"
                  + (" or a foundation (or the same card again)." if depth == 1 else "."))

    @_guarded
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

    @_guarded
    def play_move(self, move: Move | str) -> None:
        """Play a move given in the kit's notation (or as a Move), as if clicked."""
        self.selection = None
        self._try(_as_move(move))

    @_guarded
    def undo(self) -> None:
        self.selection = self.marked = None
        if not self.game.can_undo():
            self._say("There is no move to undo.", "error")
            return
        self._say(f"Took back {self.game.undo()}.")

    @_guarded
    def redo(self) -> None:
        self.selection = self.marked = None
        if not self.game.can_redo():
            self._say("There is no move to redo.", "error")
            return
        self._say(f"Played again {self.game.redo()}.")

    @_guarded
    def restart(self) -> None:
        """Go back to the deal; the moves stay on the redo list."""
        self.selection = self.marked = None
        n = 0
        while self.game.can_undo():
            self.game.undo()
            n += 1
        self._say(f"Back to the deal ({n} moves taken back; Redo plays them again)." if n else "Already at the deal.")

    @_guarded
    def new_deal(self) -> None:
        """Deal the next seed (the seed field goes up by one)."""
        self._set_game(Game(self.variant_select.value, (self.game.seed if self.game.seed is not None else -1) + 1))

    @_guarded
    def new_game(self, variant: str | Variant | None = None, seed: int | None = None) -> None:
        """Deal a new game (by default the selected variant and the seed in the seed field)."""
        self._set_game(Game(self.variant_select.value if variant is None else variant,
                            self.seed_field.value if seed is None else seed))

    @_guarded
    def set_game(self, game: Game) -> None:
        """Show another game in this table."""
        self._set_game(game)

    def _set_game(self, game: Game) -> None:
        self.game = game
        self.selection = self.marked = None
        self.replay, self.replay_step = [], 0
        self._sync_selectors()
        self._say(f"New deal: {game.variant.name}" + (f", seed {game.seed}." if game.seed is not None else "."))

    def _on_variant(self, change: dict) -> None:
        if not self._syncing and change["new"] is not None:
            self.new_game(change["new"], self.seed_field.value)

    def _on_seed(self, change: dict) -> None:
        if not self._syncing:
            self.new_game(self.variant_select.value, change["new"])

    # --- teaching aids ---------------------------------------------------------------------------
    @_guarded
    def hint(self) -> None:
        """Suggest a move (from solitaire.strategies) and mark it on the table."""
        self.selection = None
        try:
            from .strategies import strategy_hint
        except ImportError as exc:
            self._say(f"Hints need solitaire.strategies, which is not available here ({exc}).", "error")
            return
        if self.game.is_won():
            self._say("The game is won: there is nothing left to hint.")
            return
        try:
            move, why = _read_hint(strategy_hint(self.game))
        except ValueError as exc:  # e.g. no legal move at all
            self._say(f"No hint: {exc}.", "error")
            return
        if move is None:
            self._say("No hint: " + (why or "the strategy finds no useful move."))
            return
        self.marked = move
        why = why.removeprefix(f"{move}:").strip().rstrip(".")
        self._say(f"Hint: {move}" + (f" — {why}" if why else "")
                  + ". The move is marked in blue: the cards and where they go.")

    @_guarded
    def auto_finish(self) -> None:
        """Play the solver's winning line if it finds one quickly; otherwise play safe foundation moves."""
        self.selection = self.marked = None
        if self.game.is_won():
            self._say("The game is already won.")
            return
        line, note = _solver_line(self.game)
        if line:
            for m in line:
                self.game.play(m)
            self._say(f"Auto-finish played the solver's winning line ({len(line)} moves).", "ok")
            return
        played = []
        while (m := safe_foundation_move(self.game)) is not None:
            self.game.play(m)
            played.append(str(m))
        if played:
            self._say(f"Auto-finish played {len(played)} safe foundation move(s): {' '.join(played)}." + note, "ok")
        else:
            self._say("Auto-finish found no safe foundation move now." + note, "info")

    @_guarded
    def show_solution(self) -> None:
        """Ask the solver (which knows the face-down cards) for a winning line and load it as a replay."""
        self.selection = self.marked = None
        if self.game.is_won():
            self._say("The game is already won.")
            return
        line, note = _solver_line(self.game, SOLUTION_SECONDS, None)
        if not line:
            self._say("No solution to show" + note + ".", "error")
            return
        self._start_replay(line)
        self._say(f"The solver (which peeks at the face-down cards) wins in {len(line)} moves from here: "
                  "press Next to step through them.")

    @_guarded
    def load_replay(self, moves: Iterable[Move | str] | Any) -> None:
        """Step through moves (a list, or a solver result with ``.moves``) from here with Previous/Next."""
        self._start_replay([_as_move(m) for m in getattr(moves, "moves", moves)])
        self._say(f"Replay loaded: {len(self.replay)} moves. Press Next to play them one by one.")

    def _start_replay(self, moves: list[Move]) -> None:
        self.replay, self.replay_step, self._replay_base = moves, 0, len(self.game.moves)
        self.selection = None
        self.marked = moves[0] if moves else None

    def _replay_on_track(self) -> bool:
        played = self.game.moves[self._replay_base:]
        return played == self.replay[:self.replay_step] and len(played) == self.replay_step

    @_guarded
    def replay_next(self) -> None:
        self.selection = None
        if not self.replay:
            self._say("No replay is loaded.", "error")
        elif not self._replay_on_track():
            self._say("The game has left the replay line: undo your own moves, or load the replay again.", "error")
        elif self.replay_step >= len(self.replay):
            self._say("The replay is over.")
        elif self._try(self.replay[self.replay_step]):
            self.replay_step += 1
            self.marked = self.replay[self.replay_step] if self.replay_step < len(self.replay) else None

    @_guarded
    def replay_prev(self) -> None:
        self.selection = None
        if not self.replay or self.replay_step == 0:
            self._say("This is the start of the replay.", "error")
        elif not self._replay_on_track():
            self._say("The game has left the replay line: undo your own moves, or load the replay again.", "error")
        else:
            self._say(f"Took back {self.game.undo()}.")
            self.replay_step -= 1
            self.marked = self.replay[self.replay_step]

    @_guarded
    def end_replay(self) -> None:
        self.replay, self.replay_step, self.marked = [], 0, None
        self._say("Replay closed.")

    # --- conveniences for tests and notebooks ----------------------------------------------------
    def card_button(self, column: int, depth: int = 1) -> W.Button:
        """The button of a card in a column (depth 1 = the top card), or the empty place of an empty column."""
        col = self.game.position.columns[column]
        if not col:
            return self.column_base_buttons[column]
        return self.column_buttons[column][len(col) - depth]

    @property
    def waste_top_button(self) -> W.Button:
        return self.waste_buttons[max(len(self._waste_shown()) - 1, 0)]


def _describe(before: Any, after: Any, m: Move) -> str:
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


def _read_hint(hint: Any) -> tuple[Move | None, str]:
    """Accept the shapes a hint may come in: a Move, its text, (move, why), or an object with .move/.reason."""
    if hint is None:
        return None, ""
    if isinstance(hint, Move):
        return hint, ""
    if isinstance(hint, str):
        return _as_move(hint), ""
    if isinstance(hint, tuple) and hint and (isinstance(hint[0], (Move, str)) or hint[0] is None):
        move = None if hint[0] is None else _as_move(hint[0])
        return move, " ".join(str(x) for x in hint[1:] if x)
    move = getattr(hint, "move", None)
    why = getattr(hint, "reason", None) or getattr(hint, "why", None) or getattr(hint, "rule", None) or ""
    return (None if move is None else _as_move(move)), str(why)


def _solver_line(game: Game, max_seconds: float = AUTO_FINISH_SECONDS,
                 max_nodes: int | None = AUTO_FINISH_BUDGET) -> tuple[list[Move] | None, str]:
    """The solver's winning line from here within a budget, or None and a note that says why not."""
    try:
        from .solver import solve
    except ImportError:
        return None, " (the solver is not available here)"
    try:
        result = solve(game.position, max_seconds=max_seconds, max_nodes=max_nodes)
    except Exception as exc:  # noqa: BLE001 - a failing solver must not stop the safe moves
        return None, f" (the solver failed: {type(exc).__name__}: {exc})"
    if result.status == "won" and result.moves:
        return [_as_move(m) for m in result.moves], ""
    if result.status == "unwinnable":
        return None, " (the solver proved that this position cannot be won)"
    return None, f" (the solver found no win within {result.nodes} states)"


def safe_foundation_move(game: Game) -> Move | None:
    """A foundation move that cannot spoil the game, or None.

    A card is safe to send up when no card still in play could ever be built on it in a column, or when every
    card is face up and the stock and waste are empty (then the foundations simply collect the columns).
    """
    p = game.position
    r = rules(p.variant)
    on_foundations: dict[int, int] = {}
    for pile in p.foundations:
        for c in pile:
            on_foundations[c] = on_foundations.get(c, 0) + 1
    open_table = not p.stock and not p.waste and not any(p.hidden)
    decks = p.variant.decks
    for m in game.legal_moves():
        if m.kind == COLUMN_TO_FOUNDATION:
            card = p.columns[m.source][-1]
        elif m.kind == WASTE_TO_FOUNDATION:
            card = p.waste[-1]
        else:
            continue
        if open_table or all(on_foundations.get(child, 0) == decks for child in r.children[card]):
            return m
    return None


def play(variant: str | Variant = "klondike", seed: int = 0) -> GameWidget:
    """Deal a game and show it as a card table to play by clicking: ``solitaire.play("klondike", seed=1)``."""
    return GameWidget(Game(variant, seed))
