"""A perfect-information ("thoughtful") solver for every Klondike-family variant.

``solve(game_or_position)`` searches, knowing every face-down card, for a sequence of moves that wins.
It answers "won" (with the moves, in the kit's notation, that replay with ``Game.play``), "unwinnable"
(the whole search space was explored, with pruning that provably keeps a win if there is one), or
"unknown" (the budget ran out first).

The package, in reading order:

* ``tables``: a variant's rules as lookup tables (built once per variant, from its data, never its name).
* ``encoding``: the compact state, its key (columns as a set, stock positions that draws can undo merged;
  in Klondike, *loose keys* that forget which of two same-colour cards a card sits on), and which waste
  positions dominate others (draw > 1).
* ``stock``: stock macro-moves (drawing and recycling are folded into the play of the card they reach).
* ``columns``, ``node``, ``generation``: the moves worth trying; moves that only prepare something are
  followed at once by their use.
* ``pruning``: safe foundation moves and walled-in cards, each with its proof.
* ``search``: depth-first and best-first search, with a transposition table (that also drops states a table
  entry dominates) and an exact budget; with loose keys a state also offers what its class adds (a card
  freed by a move within the class goes up).
* ``restarts``: depth-first runs that prove states lost for the next run, and the schedule of one solve (a
  depth-first probe, then turns of best-first search and restarts with a shuffled move order).
* ``replay``: the internal moves expanded into real, rule-checked moves.

``SolverOptions`` turns each pruning idea off, to measure what it saves.
"""
from __future__ import annotations

import gc
import math
import random
import sys
import time
from dataclasses import dataclass, field

from ..endgame import STATUSES, Outcome
from ..moves import Move
from ..state import Position
from ..variants import Variant
from .encoding import StateCodec
from .generation import MoveGenerator
from .options import SolverOptions
from .pruning import SafeMoves, walled_in
from .replay import SolverBug, real_moves
from .restarts import FIRST_BEST_FIRST, Turns
from .search import DRAW_MANY_COST, WEIGHTS, Budget, OutOfBudget, Search
from .stock import StockView, talon_reach
from .tables import RuleTables, model_passes, tables_for

__all__ = ["STATUSES", "Outcome", "SolveResult", "SolverOptions", "SolverBug", "solve", "talon_reach"]

DFS_SHARE = 0.95  # depth-first restarts get this share of each turn of the search, best-first the rest
TIME_SHARE = 0.93  # the search stops at this share of max_seconds, leaving the rest for freeing and replay
_tables = tables_for  # the name the tests and lessons used before the package


@dataclass(frozen=True)
class SolveResult:
    """What ``solve`` found: a status, the winning moves (empty unless "won"), and the effort spent."""

    status: Outcome  # WON, UNWINNABLE or UNKNOWN (solitaire.endgame.STATUSES)
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0

    @property
    def decided(self) -> bool:
        return self.status != Outcome.UNKNOWN


def probe_share(v: Variant) -> float:
    """The share of each turn of the search that goes to depth-first restarts (``restarts.Turns``), the rest
    to best-first search; 0: best-first alone after the probe.

    Restarted depth-first runs find most hard wins of SoliJoy and of Klondike with cards back from the
    foundations, and since each run skips the states earlier runs proved lost, a proof of unwinnability
    costs about one run; best-first's states are not reused by the restarts, so a proof costs up to its
    share more. With one deck and no cards back (Klondike and the Italian game under the seed rules)
    best-first alone does better, and there the search is the one the shipped rows were made with, state for
    state. The measurements: ``benchmarks/RESULTS.md`` ("The solver's search").
    """
    one_deck_no_back = v.decks == 1 and v.waste_to_foundation and not v.foundation_to_tableau
    return 0.0 if one_deck_no_back else DFS_SHARE


def best_first_costs(v: Variant) -> tuple:
    """The move costs of the best-first searches that take turns (``restarts.Turns``); empty: one search with
    the default cost. With draw > 1 two searches, charging 2 and 4 for a move that neither uncovers a card
    nor plays a column card up: each finds early wins that the other misses (measured:
    ``benchmarks/RESULTS.md``, "The solver's search"). With draw 1 (the seed rules' Klondike and Italian game)
    one search, whose rows ship state for state."""
    if v.draw == 1:
        return ()
    return (DRAW_MANY_COST, WEIGHTS["cost"])


def first_best_first(v: Variant) -> int:
    """Best-first's first slice, in states: with one deck and waste-to-foundation plays (Klondike, the Italian
    game) best-first finds many wins within a few thousand states that the restarts miss; with two decks or
    without waste-to-foundation play (SoliJoy) depth-first does much better, so best-first gets only its
    share."""
    return FIRST_BEST_FIRST if v.decks == 1 and v.waste_to_foundation else 0


def solve(game_or_position, *, max_seconds: float | None = 10.0, max_nodes: int | None = None,
          options: SolverOptions | None = None, verdict_only: bool = False) -> SolveResult:
    """Search for a win from a Game's current position or a Position, knowing every card.

    ``max_seconds`` (wall-clock time for the whole call) and ``max_nodes`` (states expanded, exactly) bound
    the effort; either may be None (not both, for a huge variant). The result's ``moves`` replay with
    ``Game.play`` from that position to a win when the status is "won". ``options`` turns pruning ideas
    off (``SolverOptions``). With ``verdict_only`` a win comes without its moves (the same search, minus the
    replay that writes and checks them): for callers that count wins, such as the expert's samples.

    >>> from solitaire import Game
    >>> solve(Game("klondike", 3), max_nodes=5000).status
    'won'
    >>> solve(Game("klondike", 3), max_nodes=0)
    Traceback (most recent call last):
    ...
    ValueError: max_nodes must be None or a whole number >= 1, got 0
    """
    start = time.perf_counter()
    p = _checked_position(game_or_position)
    max_seconds, max_nodes = _checked_budget(max_seconds, max_nodes)
    if options is not None and not isinstance(options, SolverOptions):
        raise ValueError(f"options must be a SolverOptions, got {options!r}")
    tables = tables_for(p.variant, model_passes(p.variant, p.recycles))
    options = (options or SolverOptions()).for_variant(p.variant, tables.parents_interchangeable)
    deadline = None if max_seconds is None else start + TIME_SHARE * max_seconds
    solver = _Solver(tables, options)
    gc_was_on = gc.isenabled()
    gc.disable()  # the search makes millions of small tuples, none of them cyclic
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        status, internal, flips, nodes = solver.run(p, start, max_seconds, max_nodes, deadline)
        solver = None  # free the search's tables inside the call, so its time is counted
        moves = real_moves(p, flips, internal) if status == Outcome.WON and not verdict_only else []
    finally:
        sys.setrecursionlimit(limit)
        if gc_was_on:
            gc.enable()
    return SolveResult(status, moves, nodes, time.perf_counter() - start)


def _checked_position(game_or_position) -> Position:
    p = getattr(game_or_position, "position", game_or_position)
    if not isinstance(p, Position):
        raise ValueError(f"solve needs a Game or a Position, got {game_or_position!r}")
    v = p.variant
    if len(p.cards()) != v.deck_size:
        raise ValueError(f"the position holds {len(p.cards())} cards but a {v.name} deck has "
                         f"{v.deck_size}: put every card in some pile before solving")
    if v.passes is not None and (isinstance(v.passes, bool) or not isinstance(v.passes, int) or v.passes < 1):
        raise ValueError(f"the solver needs passes to be None (unlimited) or a whole number >= 1, got "
                         f"{v.passes!r}: use passes=None for unlimited recycling")
    if isinstance(v.draw, bool) or not isinstance(v.draw, int) or v.draw < 1:
        raise ValueError(f"the solver needs draw to be a whole number >= 1, got {v.draw!r}")
    return p


def _checked_budget(max_seconds, max_nodes) -> tuple[float | None, int | None]:
    if max_seconds is not None:
        if isinstance(max_seconds, bool) or not isinstance(max_seconds, (int, float)) \
                or not math.isfinite(max_seconds) or max_seconds <= 0:
            raise ValueError(f"max_seconds must be None or a finite number of seconds > 0, got {max_seconds!r}")
        max_seconds = float(max_seconds)
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1):
        raise ValueError(f"max_nodes must be None or a whole number >= 1, got {max_nodes!r}")
    return max_seconds, max_nodes


class _Solver:
    """One solve: the parts wired together for a variant and options, and the probe/best-first schedule."""

    def __init__(self, tables: RuleTables, options: SolverOptions) -> None:
        self.tables = tables
        self.options = options
        self.codec = StateCodec(tables, options.columns_as_a_set, options.waste_dominance, options.loose_columns)
        self.safe = SafeMoves(tables, self.codec, options.safe_foundation_moves, options.safe_talon_end)
        self.generator = MoveGenerator(tables, self.codec, StockView(tables), options)
        if options.safe_foundation_moves:
            self.generator.safe = self.safe

    def search(self, budget: Budget, jitter: random.Random | None = None) -> Search:
        return Search(self.codec, self.generator, self.safe, budget, jitter)

    def run(self, p: Position, start: float, max_seconds, max_nodes, deadline):
        """(status, internal moves of the win, flips to play first, nodes expanded)."""
        state, flips = self.codec.from_position(p)
        autos: list = []
        state = self.safe.settle(*state, autos)
        if self.codec.is_won(state):
            return Outcome.WON, autos, flips, 0
        if self.options.walled_in_check and walled_in(state, self.tables, self.tables.variant.foundation_to_tableau):
            return Outcome.UNWINNABLE, [], flips, 0
        v = self.tables.variant
        turns = Turns(self, state, Budget(max_nodes, deadline), probe_share(v), first_best_first(v),
                      best_first_costs(v))
        try:
            line = turns.search()
        except OutOfBudget:
            return Outcome.UNKNOWN, [], flips, turns.nodes
        if line is None:
            return Outcome.UNWINNABLE, [], flips, turns.nodes
        internal = list(autos)
        for move, more in line:
            if move[0] == "via":  # moves within a class of loose keys, then the move out (``Search.children``)
                internal.extend(move[1])
                move = move[2]
            internal.append(move)
            internal.extend(more)
        return Outcome.WON, internal, flips, turns.nodes
