"""Deciding where information arrives: the expert's choice between the next cards to turn up.

Hindsight sampling (``solitaire.expert``'s older method) asks of every legal move "in how many of the ways
the hidden cards could lie does a win start with this move?". Each sample is solved as if all its cards were
known, so every move after the first is chosen *knowing* the hidden cards: the count is optimistic, and it
cannot tell a move that shows a card from one that shows nothing.

A player learns something new only at a *reveal*: a face-down card turned up (``flip t3``, or a column
emptied down to a face-down card where the variant turns it up by itself) or a draw that shows a stock card
never seen. Between two reveals nothing new can be learnt, so nothing is lost by deciding, before moving,
the whole way to the next reveal. The choice is then between *reveal points*: the positions reachable
with moves that show nothing, each followed by one move that shows a card. ``reveal_points`` lists them
(a breadth-first search over the moves that show nothing); ``best_reveal_point`` spreads the samples over
them by sequential halving and keeps the one the solver wins most often *after* the card is shown. Only
what follows the reveal is solved with hindsight, so the optimism is confined to after the next card.

Everything here sees only the knowledge (``solitaire.knowledge.Knowledge``) and positions dealt from it; a
*carrier* is any one such layout, used to play moves whose legality depends only on what is visible.
"""
from __future__ import annotations

import math
import random
from collections import Counter, deque
from collections.abc import Sequence
from typing import NamedTuple

from .endgame import WON
from .knowledge import Knowledge, sample_layout
from .moves import COLUMN_TO_FOUNDATION, DRAW, FLIP, WASTE_TO_FOUNDATION, Move, apply, is_won, legal_moves
from .solver import SolverOptions, solve
from .state import Position

# The searches the expert's samples can use (its ``search`` setting). "plain": the one its shipped games were
# made with, before loose keys (issue 22); a faster search decides other capped solves, so those games would
# change. "full": loose keys on, which decides many more capped solves (benchmarks/RESULTS.md, "The expert").
# Both leave off the end of the talon (``SolverOptions.safe_talon_end``, issue 34 too), which came after the
# expert's figures were measured: with it the games would change again.
SAMPLE_SEARCH = SolverOptions(loose_columns=False, safe_talon_end=False)
SEARCHES = {"plain": SAMPLE_SEARCH, "full": SolverOptions(safe_talon_end=False)}


class RevealPoint(NamedTuple):
    """Moves that show nothing (``path``), then the move that shows a card (``reveal``; None when the path
    itself wins the game)."""

    path: tuple[Move, ...]
    reveal: Move | None

    @property
    def moves(self) -> tuple[Move, ...]:
        return self.path if self.reveal is None else self.path + (self.reveal,)


def seen_key(p: Position) -> tuple:
    """What a player tells positions apart by within one game (what ``observe`` shows, without the recycle
    count): a position with this key was already played through."""
    return len(p.stock), p.waste, p.foundations, tuple(c[h:] for c, h in zip(p.columns, p.hidden)), p.hidden


def shows_a_card(k: Knowledge, p: Position, m: Move, q: Position) -> bool:
    """Does move ``m`` from ``p`` (to ``q``) show a card the knowledge ``k`` does not hold?

    A flip, a column move after which the variant turns up a face-down card, and a draw that takes a stock
    slot whose card was never seen. After a recycle the whole stock was watched, so its draws show nothing.
    """
    if m.kind == FLIP or q.hidden != p.hidden:
        return True
    if m.kind != DRAW or p.recycles != k.obs.recycles:
        return False
    n = min(p.variant.draw, len(p.stock))
    return any(k.stock[i] is None for i in range(len(p.stock) - n, len(p.stock)))


def _canonical(k: Knowledge, p: Position) -> tuple:
    """``p`` up to what cannot matter: the columns as a set, and with unlimited passes and a fully watched
    stock, the stock and waste as the set of their cards (drawing round reaches every waste position again)."""
    columns = tuple(sorted(zip(p.hidden, p.columns)))
    watched = p.recycles != k.obs.recycles or None not in k.stock[:len(p.stock)]
    talon = tuple(sorted(p.stock + p.waste)) if p.variant.passes is None and watched else (p.stock, p.waste)
    return columns, p.foundations, talon


def _point_key(k: Knowledge, p: Position, m: Move) -> tuple:
    """Reveal points that differ only where it cannot matter share this key: the position before the reveal
    and the pile where the card will be shown."""
    target = "draw" if m.kind == DRAW else (p.hidden[m.source], p.columns[m.source])
    return _canonical(k, p), target


def _revealed_slot(p: Position, m: Move) -> tuple:
    """Which unknown slot a reveal turns up: a column's top face-down card, or the stock's next unseen one."""
    if m.kind == DRAW:
        return ("stock",)
    if m.kind == FLIP:
        return "column", m.source
    return "column", m.source, p.hidden[m.source]  # a column move after which the variant turns a card up


def reveal_points(k: Knowledge, carrier: Position, first_moves: Sequence[Move], seen: set,
                  max_states: int = 2000, max_points: int = 16, per_reveal: int = 2) -> list[RevealPoint]:
    """The reveal points reachable from ``carrier``, nearest first (at most ``max_points``, searching at
    most ``max_states`` positions). The first move is one of ``first_moves``; no path passes through a
    position whose ``seen_key`` is in ``seen`` (the perfect-memory player never goes back). A path that wins
    without showing a card is returned alone.

    At most ``per_reveal`` points turn up the same card (the same column's next card, or the next stock
    card): the nearest ones, which commit to the fewest moves before anything is learnt. Without that cap the
    points are mostly the first reveal reached by many detours (a waste card played on the way, draws in
    another order), and other reveals go unweighed (what the cap wins: ``benchmarks/RESULTS.md``, "The expert").

    >>> import random
    >>> from solitaire import Game
    >>> from solitaire.knowledge import game_knowledge
    >>> game = Game("klondike", seed=10)
    >>> known = game_knowledge(game)
    >>> carrier = sample_layout(known, random.Random(0))
    >>> points = reveal_points(known, carrier, game.legal_moves(), {seen_key(carrier)})
    >>> [" ".join(map(str, point.moves)) for point in points[:4]]  # a stock card, or a column's next card
    ['draw', 't1>f draw', 't5>f flip t5', 't6>t4 flip t6']
    """
    return search_reveals(k, carrier, first_moves, seen, max_states, max_points, per_reveal).points


class Search(NamedTuple):
    """What ``search_reveals`` found: the reveal points, whether it went through all the positions it could
    reach (no cap cut it short), and, where it did and found no point, the ``seen_key`` of each of them."""

    points: list[RevealPoint]
    visited: frozenset
    exhaustive: bool


def search_reveals(k: Knowledge, carrier: Position, first_moves: Sequence[Move], seen: set,
                   max_states: int = 2000, max_points: int = 16, per_reveal: int = 2) -> Search:
    """``reveal_points``'s breadth-first search, with the positions it went through.

    Inside the search no face-down card moves (a move that changes them shows a card and ends its path), so
    positions are told apart by their piles alone, face-down cards included, which is quicker than
    ``seen_key``; the game's ``seen`` keys are put in that form once.
    """
    hidden = carrier.hidden
    down = [column[:h] for column, h in zip(carrier.columns, hidden)]

    def piles(p: Position) -> tuple:
        return len(p.stock), p.waste, p.foundations, p.columns

    been = {(n, waste, foundations, tuple(d + up for d, up in zip(down, columns)))
            for n, waste, foundations, columns, h in seen if h == hidden}
    points: list[RevealPoint] = []
    keys: set = set()
    per_card: Counter = Counter()
    visited = {piles(carrier)}
    queue = deque([(carrier, ())])
    while queue and len(visited) < max_states:
        p, path = queue.popleft()
        for m in (first_moves if not path else legal_moves(p)):
            q = apply(p, m)
            if shows_a_card(k, p, m, q):
                key, card = _point_key(k, p, m), _revealed_slot(p, m)
                if key not in keys and per_card[card] < per_reveal:
                    keys.add(key)
                    per_card[card] += 1
                    points.append(RevealPoint(path, m))
                continue
            if m.kind in (COLUMN_TO_FOUNDATION, WASTE_TO_FOUNDATION) and is_won(q):  # nothing else can win
                return Search([RevealPoint(path + (m,), None)], frozenset(), False)
            key = piles(q)
            if key in visited or key in been:
                continue
            visited.add(key)
            queue.append((q, path + (m,)))
        if len(points) >= max_points:
            break
    if points or queue:
        return Search(points[:max_points], frozenset(), not queue)
    return Search([], frozenset((n, waste, foundations, tuple(c[h:] for c, h in zip(columns, hidden)), hidden)
                                for n, waste, foundations, columns in visited), True)


class Trial:
    """Sample layouts shared by every reveal point (common random numbers make the comparison fairer), and
    each point's results on them: won within the node cap or not (a cap that runs out counts as a loss)."""

    def __init__(self, k: Knowledge, points: list[RevealPoint], rng: random.Random, max_nodes: int,
                 options: SolverOptions = SAMPLE_SEARCH) -> None:
        self.k, self.points, self.rng, self.max_nodes, self.options = k, points, rng, max_nodes, options
        self.layouts: list[Position] = []
        self.results: list[list[bool]] = [[] for _ in points]
        self.solves = 0

    def wins(self, i: int) -> int:
        return sum(self.results[i])

    def extend(self, i: int, n: int) -> None:
        """Solve point ``i`` on the first ``n`` shared layouts."""
        while len(self.layouts) < n:
            self.layouts.append(sample_layout(self.k, self.rng))
        for layout in self.layouts[len(self.results[i]):n]:
            self.results[i].append(self._won_after(layout, self.points[i]))

    def _won_after(self, layout: Position, point: RevealPoint) -> bool:
        p = layout
        for m in point.moves:
            p = apply(p, m)
        if is_won(p):
            return True
        self.solves += 1
        return solve(p, max_seconds=None, max_nodes=self.max_nodes, options=self.options,
                     verdict_only=True).status == WON


def best_reveal_point(k: Knowledge, points: list[RevealPoint], rng: random.Random, budget: int,
                      max_nodes: int, options: SolverOptions = SAMPLE_SEARCH) -> tuple[int, Trial]:
    """The index of the reveal point most often won after its reveal, by sequential halving.

    Each round gives the points still in play an equal share of the round's solves (on the same layouts),
    then keeps the better half; ``budget`` solves in all, at least one layout a point a round. Ties go to the
    nearer point (fewer moves committed before anything is learnt). Returns the winner and the trial, whose
    counts say how it was chosen.
    """
    trial = Trial(k, points, rng, max_nodes, options)
    alive = list(range(len(points)))
    rounds = max(1, math.ceil(math.log2(len(points))))
    n = 0
    for _ in range(rounds):
        n += max(1, budget // (rounds * len(alive)))
        for i in alive:
            trial.extend(i, n)
        alive.sort(key=lambda i: (-trial.wins(i), i))
        if len(alive) == 1 or trial.wins(alive[0]) == 0 and n >= budget:
            break
        alive = alive[:max(1, math.ceil(len(alive) / 2))]
    return alive[0], trial


def ucb_reveal_point(k: Knowledge, points: list[RevealPoint], rng: random.Random, budget: int, max_nodes: int,
                     options: SolverOptions = SAMPLE_SEARCH, batch: int = 2, c: float = 1.0) -> tuple[int, Trial]:
    """The index of the reveal point most often won after its reveal, spending ``budget`` plays by UCB1.

    Every point is first solved on ``batch`` shared layouts; then, a batch at a time, the point with the
    highest upper bound (its win share plus ``c * sqrt(ln(plays) / its plays)``) gets the next ``batch``
    layouts of the shared list, until the budget is spent. Close points get most of the solves, hopeless
    ones few (sequential halving gives every point the same share in its first round). The answer is the
    point with the best win share among those played at least half as often as the most played one (a
    point that won its only two layouts is not trusted over one that won most of twenty); ties go to the nearer
    point.
    """
    trial = Trial(k, points, rng, max_nodes, options)
    for i in range(len(points)):
        trial.extend(i, batch)
    plays = batch * len(points)
    while plays < budget:
        log_plays = math.log(plays)

        def bound(i: int) -> float:
            n = len(trial.results[i])
            return trial.wins(i) / n + c * math.sqrt(log_plays / n)
        best = max(range(len(points)), key=lambda i: (bound(i), -i))
        trial.extend(best, len(trial.results[best]) + batch)
        plays += batch
    most = max(len(r) for r in trial.results)
    trusted = [i for i in range(len(points)) if 2 * len(trial.results[i]) >= most]
    return max(trusted, key=lambda i: (trial.wins(i) / len(trial.results[i]), -i)), trial


# How the reveal method spreads its solves over the points (the expert's ``choose`` setting).
CHOOSERS = {"halving": best_reveal_point, "ucb": ucb_reveal_point}


class RevealPlanner:
    """The expert's reveal-point method: choose a reveal point, then play its moves one a turn.

    It keeps the ``seen_key`` of every position of the game it watched (a path never goes back to one) and
    the plan: the chosen point's moves, each with the key of the position it is to be played from. A plan
    is dropped as soon as the game is not where the plan expected (another move was played, or the move is
    not offered). With at most one unknown card (every card known, or the last one known by elimination) it
    solves the position outright, with ``exact_nodes`` states, and follows the winning line.

    Where a search went through every position it could reach and found no card to show, the planner keeps
    those positions (``dead``) until the knowledge changes, and answers None at once while the game stays
    among them. With one deck that changes no choice: the game got there by moves that show nothing, so
    whatever can be reached from there could be reached from where the search started, and positions the
    game has been through since only take paths away. (A key fixes a one-deck position's future: with
    unlimited passes every stock card is known by then, or drawing would show one.) With two decks, twins
    can leave two positions with the same key and their stock in different orders, so there the argument
    has a gap; SoliJoy's searches are almost never complete, and on four SoliJoy games (deals 0, 7, 37 and
    64) the memory was never used.
    """

    def __init__(self, budget: int, max_nodes: int, max_states: int, max_points: int, per_reveal: int,
                 exact_nodes: int, search: str = "plain", choose: str = "halving") -> None:
        self.budget, self.max_nodes, self.max_states = budget, max_nodes, max_states
        self.options, self.pick = SEARCHES[search], CHOOSERS[choose]
        self.max_points, self.per_reveal, self.exact_nodes = max_points, per_reveal, exact_nodes
        self.seen: set = set()
        self.plan: list[tuple[Move, tuple]] = []
        self.dead: dict[tuple, frozenset] = {}  # see decide
        self.solves = 0

    def forget(self) -> None:
        self.seen, self.plan, self.dead = set(), [], {}

    def watch(self, obs, restarted: bool) -> None:
        """Take in the observation of the position the game is in now."""
        if restarted:
            self.forget()
        self.seen.add(_observed_key(obs))

    def next_move(self, obs, moves: Sequence[Move]) -> Move | None:
        """The plan's next move, if the game is where the plan expected and the move is offered."""
        if self.plan and self.plan[0][1] == _observed_key(obs) and self.plan[0][0] in moves:
            return self.plan.pop(0)[0]
        self.plan = []
        return None

    def decide(self, k: Knowledge, moves: Sequence[Move], rng: random.Random):
        """(move, how, wins, samples) from a chosen reveal point, or None where the method has no answer
        (no reveal point can be reached): the expert then samples every move with hindsight."""
        carrier = sample_layout(k, rng)  # any layout will do: what is legal depends on visible cards only
        if k.unknown_slots <= 1:
            r = solve(carrier, max_seconds=None, max_nodes=self.exact_nodes, options=self.options)
            self.solves += 1
            if r.status == WON and r.moves and r.moves[0] in moves:
                self._follow(carrier, r.moves[1:], r.moves[0])
                return r.moves[0], "solved", {}, 1
        if _observed_key(k.obs) in self.dead.get(_unchanged(k), ()):
            return None  # the game is still where a search went everywhere and found no card to show
        found = search_reveals(k, carrier, moves, self.seen, self.max_states, self.max_points, self.per_reveal)
        points = found.points
        if not points:
            if found.exhaustive:
                self.dead = {_unchanged(k): found.visited}
            return None
        best, n, wins = 0, 0, 0
        if len(points) > 1:
            best, trial = self.pick(k, points, rng, self.budget, self.max_nodes, self.options)
            self.solves += trial.solves
            n, wins = len(trial.results[best]), trial.wins(best)
        chosen = points[best].moves
        self._follow(carrier, chosen[1:], chosen[0])
        return chosen[0], "reveal", {chosen[0]: wins}, n

    def _follow(self, carrier: Position, rest: Sequence[Move], first: Move) -> None:
        p = apply(carrier, first)
        self.plan = []
        for m in rest:
            self.plan.append((m, seen_key(p)))
            p = apply(p, m)


def _unchanged(k: Knowledge) -> tuple:
    """What must stay the same for a search that found no card to show to hold at a later decision: the
    unseen cards, the unknown slots and the recycles (after a recycle, draws of unwatched slots show cards)."""
    return k.unseen, k.unknown_slots, k.obs.recycles


def _observed_key(obs) -> tuple:
    """``seen_key`` of an observation (the same tuple as for the position it shows)."""
    return obs.stock_size, obs.waste, obs.foundations, obs.columns, obs.hidden
