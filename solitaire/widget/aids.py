"""Teaching aids of the card table: hint, Auto-finish, solution replay, win chance.

Auto-finish behaves as in every solitaire program: it acts only when nothing is left to decide (no card face
down, and the stock played out by drawing alone: ``endgame.plain_finish`` says exactly when), then sends the
cards home at once, and the front end flies them to the foundations in a few hundred milliseconds.
Otherwise it says in one sentence why it waits. Solution is the aid that knows the face-down cards.

A table made with ``aids=False`` refuses Hint, Auto-finish, Solution and Win chance (``@aid``) and its front end
leaves their buttons out (``OFF_WITHOUT_AIDS``), for a challenge played by hand: a hint pressed over and over would
play the challenge for the player.

A replay (Solution, ``load_replay``) ends with the game: Auto-finish, which leaves the replay's line, closes it.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

from ..game import Game
from ..endgame import HOME_MOVES, Outcome, plain_finish, safe_foundation_moves
from ..moves import COLUMN_TO_FOUNDATION, STOCK_MOVES, WASTE_TO_FOUNDATION, Move
from ..notation import Pile
from ..render import SOURCE_MARK, TARGET_MARK
from .base import TableBase
from .play import as_move, guarded

SOLUTION_SECONDS = 5.0  # solver time for the Solution button
# The colours table.css marks a hinted move with (--source, --target), as its sentence names them; the selection
# (orange) and the keyboard focus (yellow) have colours of their own.
HINT_COLOURS = {"source": ("pink", SOURCE_MARK), "target": ("cyan", TARGET_MARK)}  # as the saved picture draws them
# What each aid knows, said with its answer: the two can disagree (a position proved lost that "could be won").
SOLUTION_KNOWS = "Solution knows the face-down cards, so it speaks of this very deal."
WIN_CHANCE_KNOWS = "Win chance knows only what you see, not the face-down cards."
# The front-end actions a table made with aids=False leaves out (Position text too: it shows the face-down cards).
OFF_WITHOUT_AIDS = ("hint", "auto_finish", "solution", "win_chance", "position_text")


def aid(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """An action a table made with ``aids=False`` refuses, saying so (put it under ``@guarded``)."""

    def wrap(action: Callable[..., None]) -> Callable[..., None]:
        @functools.wraps(action)
        def run(self: TableBase, *args: Any, **kwargs: Any) -> None:
            if self.aids:
                action(self, *args, **kwargs)
            else:
                self._say(switched_off(name), "error")

        return run

    return wrap


def switched_off(name: str) -> str:
    """What a table made with ``aids=False`` says when an aid is asked for."""
    return (f"{name} is switched off on this table (it was made with aids=False): play on by hand, "
            "or open a table with aids, solitaire.play(game), to use it.")


class AidsMixin(TableBase):
    """Hint, Auto-finish, Solution, replays and Win chance (mixed into GameWidget)."""

    @guarded
    @aid("Hint")
    def hint(self) -> None:
        """Suggest a move (from solitaire.strategies) and mark it on the table."""
        self.selection = None
        try:
            from ..strategies import strategy_hint
        except ImportError as exc:
            self._say(f"Hints need solitaire.strategies, which is not available here ({exc}).", "error")
            return
        if self.game.is_won():
            self._say("The game is won: there is nothing left to hint.")
            return
        try:
            move, why = read_hint(strategy_hint(self.game))
        except ValueError as exc:  # e.g. no legal move at all
            self._say(f"No hint: {exc}.", "error")
            return
        if move is None:
            self._say("No hint: " + (why or "the strategy finds no useful move."))
            return
        self.marked = move
        why = why.removeprefix(f"{move}:").strip().rstrip(".")
        self._say(f"Hint: {move}" + (f" — {why}" if why else "") + ". " + hint_words())

    # --- Auto-finish ----------------------------------------------------------------------------
    @guarded
    @aid("Auto-finish")
    def auto_finish(self) -> None:
        """Send every card home when nothing is left to decide (``endgame.plain_finish``); else say why it waits.

        The moves are played at once; the state that follows names the cards that went home (``_flight``),
        so the front end flies them to the foundations one after another.
        """
        self.selection = self.marked = None
        if self.game.is_won():
            self._say("The game is already won.")
            return
        line, why = plain_finish(self.game.position)
        if line is None:
            self._say(f"Auto-finish waits: {why}.")
            return
        if self.replay:  # the finish leaves the replay's line: the replay ends with the game
            self._end_replay()
        flight, stock = [], {str(c) for c in self.game.position.stock}
        for move in line:
            before = self.game.position
            self.game.play(move)
            if move.kind in HOME_MOVES:
                card, source, target = flight_of(before, self.game.position, move)
                flight.append((card, "stock" if source == "waste" and card in stock else source, target))
        self._flight = flight
        self._say(*auto_finish_words(line, flight))

    # --- the solver's line as a replay ------------------------------------------------------------
    @guarded
    @aid("Solution")
    def show_solution(self) -> None:
        """Ask the solver (which knows the face-down cards) for a winning line and load it as a replay."""
        self.selection = self.marked = None
        if self.game.is_won():
            self._say("The game is already won.")
            return
        line, why = solver_line(self.game, SOLUTION_SECONDS, None)
        if not line:
            self._say(f"No solution: {why}. {SOLUTION_KNOWS}", "error")
            return
        self._start_replay(line)
        self._say(f"The solver wins in {len(line)} moves from here: press Next to step through them. {SOLUTION_KNOWS}")

    @guarded
    def load_replay(self, moves: Iterable[Move | str] | Any) -> None:
        """Step through moves (a list, or a solver result with ``.moves``) from here with Previous/Next."""
        self._start_replay([as_move(m) for m in getattr(moves, "moves", moves)])
        self._say(f"Replay loaded: {len(self.replay)} moves. Press Next to play them one by one.")

    def _start_replay(self, moves: list[Move]) -> None:
        self.replay, self.replay_step, self._replay_base = moves, 0, len(self.game.moves)
        self.selection = None
        self.marked = moves[0] if moves else None

    def _end_replay(self) -> None:
        self.replay, self.replay_step = [], 0

    def _replay_on_track(self) -> bool:
        played = self.game.moves[self._replay_base:]
        return played == self.replay[:self.replay_step] and len(played) == self.replay_step

    @guarded
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

    @guarded
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

    @guarded
    def end_replay(self) -> None:
        self._end_replay()
        self.marked = None
        self._say("Replay closed.")

    # --- win chance ---------------------------------------------------------------------------------
    @guarded
    @aid("Win chance")
    def win_chance(self) -> None:
        """Estimate the chance to win from here with ``game.win_chance()`` and say it in words."""
        estimate = getattr(self.game, "win_chance", None)
        if estimate is None:
            self._say("Win chance is not available: this version of the kit has no Game.win_chance().", "error")
            return
        self._say("Estimating the win chance ...")
        self._send_state()  # the player sees that something is happening
        self._say(f"{win_chance_words(estimate())} {WIN_CHANCE_KNOWS}")


def hint_words() -> str:
    """The sentence that says how a hint is marked on the table.

    >>> hint_words()
    'The cards to move are outlined in pink, the place they go in cyan.'
    """
    return (f"The cards to move are outlined in {HINT_COLOURS['source'][0]}, "
            f"the place they go in {HINT_COLOURS['target'][0]}.")


def auto_finish_words(line: list[Move], flight: list[tuple[str, str, str]]) -> tuple[str, str]:
    """What Auto-finish did, in one plain sentence, and its kind.

    >>> from solitaire import Move
    >>> auto_finish_words([Move("draw"), Move("w>f")], [("K♠", "stock", "f1")])[0]
    'Auto-finish sent 1 card home (turning the stock 1 time).'
    """
    turns = sum(m.kind in STOCK_MOVES for m in line)
    cards = "1 card" if len(flight) == 1 else f"{len(flight)} cards"
    return (f"Auto-finish sent {cards} home" + (f" (turning the stock {turns} time{'s' * (turns != 1)})"
                                                 if turns else "") + "."), "ok"


def flight_of(before: Any, after: Any, move: Move) -> tuple[str, str, str]:
    """A card sent home, as the front end flies it: (card, the pile it leaves, the foundation it lands on).

    A waste card that was still in the stock when Auto-finish began leaves from the stock's place.

    >>> from solitaire import KLONDIKE, Move, apply, deal
    >>> p, m = deal(KLONDIKE, 3), Move("t>f", 0)  # deal 3 has A♦ on t1
    >>> flight_of(p, apply(p, m), m)
    ('A♦', 't1', 'f1')
    """
    if move.kind == WASTE_TO_FOUNDATION:
        card, source = before.waste[-1], "waste"
    else:
        card, source = before.columns[move.source][-1], str(Pile("column", move.source))
    grew = next(i for i, (a, b) in enumerate(zip(before.foundations, after.foundations)) if len(b) > len(a))
    return str(card), source, str(Pile("foundation", grew))


def win_chance_words(result: Any) -> str:
    """A win-chance result in words: a fraction, an object that words itself, or one with an estimate.

    >>> win_chance_words(0.25)
    'Win chance from here: about 25%.'
    >>> from types import SimpleNamespace as NS
    >>> win_chance_words(NS(share=0.4, interval=(0.2, 0.6), samples=20))
    'Win chance from here: about 40% (likely between 20% and 60%), from 20 samples.'
    """
    if isinstance(result, (int, float)) and not isinstance(result, bool):
        return f"Win chance from here: about {result:.0%}."
    if type(result).__str__ is not object.__str__:  # the result says itself in words
        return f"Win chance from here: {result}."
    value = next((getattr(result, k) for k in ("share", "estimate", "chance", "p") if hasattr(result, k)), None)
    if not isinstance(value, (int, float)):
        return f"Win chance from here: {result!r}."
    low, high = getattr(result, "low", None), getattr(result, "high", None)
    interval = getattr(result, "interval", None)
    if (low is None or high is None) and isinstance(interval, tuple) and len(interval) == 2:
        low, high = interval
    text = f"Win chance from here: about {value:.0%}"
    if isinstance(low, (int, float)) and isinstance(high, (int, float)):
        text += f" (likely between {low:.0%} and {high:.0%})"
    samples = getattr(result, "samples", None)
    if isinstance(samples, int):
        text += f", from {samples} samples"
    return text + "."


def read_hint(hint: Any) -> tuple[Move | None, str]:
    """Accept the shapes a hint may come in: a Move, its text, (move, why), or an object with .move/.reason."""
    if hint is None:
        return None, ""
    if isinstance(hint, Move):
        return hint, ""
    if isinstance(hint, str):
        return as_move(hint), ""
    if isinstance(hint, tuple) and hint and (isinstance(hint[0], (Move, str)) or hint[0] is None):
        move = None if hint[0] is None else as_move(hint[0])
        return move, " ".join(str(x) for x in hint[1:] if x)
    move = getattr(hint, "move", None)
    why = getattr(hint, "reason", None) or getattr(hint, "why", None) or getattr(hint, "rule", None) or ""
    return (None if move is None else as_move(move)), str(why)


def solver_line(game: Game, max_seconds: float = SOLUTION_SECONDS,
                max_nodes: int | None = None) -> tuple[list[Move] | None, str]:
    """The solver's winning line from here within a budget, or None and a clause that says why not."""
    try:
        from ..solver import solve
    except ImportError:
        return None, "the solver is not available here"
    try:
        result = solve(game.position, max_seconds=max_seconds, max_nodes=max_nodes)
    except Exception as exc:  # noqa: BLE001 - a failing solver must not stop the safe moves
        return None, f"the solver failed ({type(exc).__name__}: {exc})"
    if result.status == Outcome.WON and result.moves:
        return [as_move(m) for m in result.moves], ""
    if result.status == Outcome.UNWINNABLE:
        return None, "the solver proved that this position cannot be won"
    return None, f"the solver found no win within {result.nodes:,} positions"


def safe_foundation_move(game: Game) -> Move | None:
    """A foundation move that cannot spoil the game, or None.

    A card is safe to send up when no card still in play could ever be built on it in a column (the core's
    ``endgame.safe_foundation_moves``), or when every card is face up and the stock and waste are empty (then
    the foundations simply collect the columns).
    """
    p, moves = game.position, game.legal_moves()
    if not p.stock and not p.waste and not any(p.hidden):
        return next((m for m in moves if m.kind in (COLUMN_TO_FOUNDATION, WASTE_TO_FOUNDATION)), None)
    safe = safe_foundation_moves(p, moves)
    return safe[0] if safe else None
