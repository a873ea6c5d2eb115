"""GameWidget: one anywidget model per card table.

Python keeps the game; the browser (``table.js`` + ``table.css``, shipped beside this file, no build step)
draws it from the synced ``state`` trait and sends back what the player did as small messages
(``{"action": "click", "pile": "t3", "depth": 2}``, ``{"action": "drop", ...}``), naming the piles by the
names the state gives them (``state["piles"]``). Each action ends with one
state update, so one move is one message. A saved notebook also carries an SVG picture of the table.

Each message from the browser carries a request id (``"request": "v1:7"``); the state sent while answering
it names it (``state["request"]``, ``state["busy"]`` while the action still runs), and the status line names
the request whose answer it is (``state["message_for"]``: its id and action), so the front end can always
tell which answer it shows and which requests still wait.
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from ..cards import quote
from ..game import Game
from ..moves import Move
from ..notation import parse_pile
from ..render import svg, text_diagram
from .aids import AidsMixin, switched_off
from .play import PlayMixin, Selection, guarded
from .view import marks, table_state

HERE = Path(__file__).parent
THEMES = ("auto", "light", "dark")


class GameWidget(PlayMixin, AidsMixin, anywidget.AnyWidget):
    """A card table to play a ``Game``: ``GameWidget(Game("klondike", seed=1))`` or ``solitaire.play(game)``.

    Python API (also what the table's mouse and keyboard actions call): ``click_stock()``, ``click_waste()``,
    ``click_foundation(i)``, ``click_column(i, depth=1)`` (``depth``: 1 is the top card), ``drop(source,
    target)``, ``double_click(pile)``, ``to_foundation()``, ``undo()``, ``redo()``, ``hint()``,
    ``auto_finish()``, ``new_deal()``, ``restart()``, ``new_game(variant, seed)``, ``load_replay(moves)``,
    ``replay_next()``, ``replay_prev()``, ``win_chance()``. Indices are 0-based, as in ``Move``.

    ``aids=False`` makes a table to play by hand: no Hint, Solution, Auto-finish, Win chance or Position text
    (which shows the face-down cards); Undo and Legal moves stay.
    """

    _esm = HERE / "table.js"
    _css = HERE / "table.css"
    state = traitlets.Dict().tag(sync=True)
    theme = traitlets.Unicode("auto").tag(sync=True)
    four_colour = traitlets.Bool(False).tag(sync=True)

    def __init__(self, game: Game | None = None, *, theme: str = "auto", four_colour: bool = False,
                 aids: bool = True, **kwargs: Any) -> None:
        if theme not in THEMES:
            raise ValueError(f"unknown theme {theme!r}: use one of {', '.join(THEMES)}")
        if not isinstance(aids, bool):
            raise ValueError(f"aids must be True or False, not {aids!r}: aids=False leaves out Hint, Solution, "
                             "Auto-finish and Win chance")
        self.game = game if game is not None else Game()
        self.aids = aids
        self.selection: Selection | None = None
        self.marked: Move | None = None  # a move shown on the table (hint or the next replay step)
        self.message, self.message_kind = "", "info"
        self.replay: list[Move] = []
        self.replay_step = self._replay_base = 0
        self.show_legal = self.show_text = False
        self._flight: list[tuple[str, str, str]] = []
        self._depth = self._seq = 0
        self._actions_lock = threading.RLock()  # one action at a time: comms may arrive on a kernel subshell thread
        self._told_unwritten: set[str] = set()  # the engine's stubs the status line has named (play.say_unwritten)
        self._request: dict[str, str] | None = None  # the front end's request being answered: its id and action
        self._message_for: dict[str, str] | None = None  # the request the status line answers (None: from code)
        self._say(f"{self.game.variant.name}: drag a card onto a pile, or click it and then the pile; "
                  "click the stock to draw." + ("" if aids else " This table has no Hint, Solution, Auto-finish "
                                                "or Win chance: it is yours to play."))
        super().__init__(state=table_state(self), theme=theme, four_colour=four_colour, **kwargs)
        self.on_msg(self._on_front_end)

    # --- state out, actions in ------------------------------------------------------------------
    def _send_state(self) -> None:
        """Send the table (one message); a failure to draw is reported in the status line instead."""
        self._seq += 1
        try:
            self.state = table_state(self)
        except Exception as exc:  # noqa: BLE001 - a drawing bug must not reach the notebook
            self._say(f"Could not draw the table: {type(exc).__name__}: {exc}", "error")
            self.state = {**self.state, "seq": self._seq, "message": self.message, "kind": "error",
                          "request": self._request, "busy": self._depth > 0, "message_for": self._message_for}

    def _say(self, text: str, kind: str = "info") -> None:
        """Write the status line ('info', 'ok' or 'error'), as the answer to the request being answered."""
        self.message, self.message_kind, self._message_for = text, kind, self._request

    def _on_front_end(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """Run one action the player made in the browser; anything malformed is explained, never raised.

        Actions run one at a time: a kernel with subshells (ipykernel 7 under JupyterLab) may hand a message
        to another thread while an earlier one (Win chance) still runs; it waits for it here.
        """
        with self._actions_lock:
            self._answer(content)

    def _answer(self, content: Any) -> None:
        self._request = _request(content)
        try:
            if not isinstance(content, dict) or not isinstance(content.get("action"), str):
                return self._refuse(f"the table sent a message it cannot read: {quote(content)}")
            action, handler = content["action"], FRONT_END_ACTIONS.get(content["action"])
            if handler is None:
                return self._refuse(f"unknown table action {quote(action)}")
            try:
                handler(self, content)
            except (KeyError, TypeError, ValueError) as exc:
                self._refuse(f"bad {action} message {quote(content, 200)}: {exc}")
        finally:
            self._request = None
        return None

    @guarded
    def _refuse(self, why: str) -> None:
        self._say(f"Something went wrong: {why}", "error")

    @guarded
    def click(self, pile: str, depth: int | None = None) -> None:
        """Click a pile by name: 'stock', 'waste', 'f2', 't3', 't3:2' (``depth`` = which card of a column,
        by default the one the name gives: the top card of 't3', the second of 't3:2')."""
        where = parse_pile(pile)
        if where.kind == "stock":
            self.click_stock()
        elif where.kind == "waste":
            self.click_waste()
        elif where.kind == "foundation":
            self.click_foundation(where.index)
        else:
            self.click_column(where.index, where.count if depth is None else int(depth))

    # --- panels and options -------------------------------------------------------------------
    @guarded
    def refresh(self) -> None:
        """Draw the table again from the game (after changing ``widget.game`` from code)."""

    @guarded
    def show_legal_moves(self, show: bool = True) -> None:
        """Show (or hide) the list of every legal move under the table."""
        self.show_legal = bool(show)  # the list is the answer: the status line keeps the last action's answer

    @guarded
    def show_position_text(self, show: bool = True) -> None:
        """Show (or hide) the position in the kit's notation (face-down cards too: a teacher's view)."""
        if show and not self.aids:  # it shows the face-down cards
            self._say(switched_off("Position text"), "error")
            return
        self.show_text = bool(show)  # the text is the answer: the status line keeps the last action's answer

    def position_text(self) -> str:
        try:
            return self.game.to_text()
        except (ImportError, AttributeError, NotImplementedError) as exc:
            return f"(position text is not available: {exc})\n\n{text_diagram(self.game.position)}"

    # --- pictures -------------------------------------------------------------------------------
    def svg(self) -> str:
        """The table as an SVG picture, with the selection or the marked move highlighted."""
        p = self.game.position
        names = [str(parse_pile(name)._replace(count=m.cards)) for name, m in marks(p, None, self.selection).items()]
        return svg(p, highlight=self.marked if self.marked is not None else names or None)

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict, dict] | None:
        """The live widget, plus an SVG picture for places where no kernel runs (GitHub, nbviewer)."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:
            return None
        data, metadata = bundle
        return {**data, "image/svg+xml": self.svg()}, metadata

    def __repr__(self) -> str:
        origin = f"seed {self.game.seed}" if self.game.seed is not None else "from a position"
        return f"<card table: {self.game.variant.name}, {origin}, {len(self.game.moves)} moves>"


def _request(content: Any) -> dict[str, str] | None:
    """The request a front-end message names ({"id", "action"}), or None (a message without a readable id)."""
    if not isinstance(content, dict):
        return None
    rid, action = content.get("request"), content.get("action")
    if isinstance(rid, bool) or not isinstance(rid, (str, int)) or len(str(rid)) > 64:
        return None
    return {"id": str(rid), "action": action if isinstance(action, str) and len(action) <= 40 else "?"}


def _whole(value: Any) -> int:
    """A seed typed in the browser: a whole number, or a clear error."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)) or not str(value).strip().isdigit():
        raise ValueError(f"the seed must be a whole number 0, 1, 2 ..., not {value!r}")
    return int(str(value).strip())


def _click(w: GameWidget, c: dict) -> None:
    w.click(str(c["pile"]), None if c.get("depth") is None else int(c["depth"]))


def _drop(w: GameWidget, c: dict) -> None:
    """A drop names its source pile and, for a column, how many of its cards (``depth``) were dragged."""
    source = parse_pile(str(c["source"]))
    if source.kind == "column" and "depth" in c:
        source = source._replace(count=int(c["depth"]))
    w.drop(source, str(c["target"]))


FRONT_END_ACTIONS = {
    "click": _click,
    "drop": _drop,
    "double_click": lambda w, c: w.double_click(str(c["pile"])),
    "deselect": lambda w, c: w.deselect(),
    "to_foundation": lambda w, c: w.to_foundation(),
    "undo": lambda w, c: w.undo(),
    "redo": lambda w, c: w.redo(),
    "restart": lambda w, c: w.restart(),
    "new_deal": lambda w, c: w.new_deal(),
    "new_game": lambda w, c: w.new_game(str(c.get("variant") or "") or None, _whole(c["seed"])),
    "hint": lambda w, c: w.hint(),
    "auto_finish": lambda w, c: w.auto_finish(),
    "solution": lambda w, c: w.show_solution(),
    "replay_next": lambda w, c: w.replay_next(),
    "replay_prev": lambda w, c: w.replay_prev(),
    "end_replay": lambda w, c: w.end_replay(),
    "win_chance": lambda w, c: w.win_chance(),
    "legal_moves": lambda w, c: w.show_legal_moves(bool(c.get("show", not w.show_legal))),
    "position_text": lambda w, c: w.show_position_text(bool(c.get("show", not w.show_text))),
}
