"""The expert: plays well without seeing the face-down cards; and the win chance.

The expert sees what a player sees (the ``Observation``) and remembers what it saw earlier in the game
(``solitaire.knowledge.Memory``). It deals the unseen cards at random in ways consistent with what it knows
(*samples*) and solves each sample with the kit's solver under a small node budget. It has two methods:

* ``method="reveal"``: **deciding where information arrives** (``solitaire.reveal``). Nothing new can be
  learnt until a card is turned up, so the expert chooses the whole way to the next card to turn up: among
  the *reveal points* (positions reachable by moves that show nothing, then one move that shows a card) it
  keeps the one the solver wins most often *after* the card is shown, on layouts shared by every point, and
  plays its moves one a turn. With every card known it solves the game outright.
* ``method="hop"``: **hindsight sampling** of every legal move: the move that wins in the most samples.
  Because each sample is solved as if its cards were known from the first move on, the count is
  optimistic: it cannot see that a move which reveals nothing now may be worth less than one that reveals a
  card first.

Where it pays, both think less:

* **No deliberation for safe moves**: the only legal move, turning a face-down card up, a card that no
  column can need going to its foundation, and (with unlimited passes) drawing while the waste card has no
  play, which shows a stock card for free.

Hindsight sampling also reuses and grows its samples:

* **Reuse**: after a move, each sample is played on and *repaired* (where it shows a card other than the one
  really turned up, the two cards swap places, which keeps the samples uniformly spread over the layouts
  still possible). A sample whose winning line still replays keeps it; only the others are solved again.
* **More samples when close**: when the two best moves are near in votes, more layouts are dealt, and the
  leading moves are each checked in every sample (a sample's solution shows one winning move; others may
  win too).

Samples are solved with loose keys (``search="full"``): at the same cap that search decides many more
sampled layouts than the one the shipped games were made with (``search="plain"``), and a sample it cannot
decide counts as a loss, so moves are told apart on more real verdicts. ``choose="ucb"`` spreads the reveal method's solves by
UCB1 instead of sequential halving. How each setting plays, measured with ``benchmarks/bench_expert.py``, is
in ``benchmarks/RESULTS.md`` ("The expert").

Everything is seeded: the same seed and the same observations give the same moves. The solver runs under a
node budget (no time limit), so results do not depend on the machine's speed.
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from .endgame import UNKNOWN, UNWINNABLE, WON, Outcome
from .knowledge import Knowledge, Memory, game_knowledge, repair, sample_layout
from .moves import DRAW, FLIP, WASTE_TO_COLUMN, WASTE_TO_FOUNDATION, Move, apply, is_won, legal_moves
from .solver import solve
from .state import Observation, Position
from .stats import wilson  # the one home of the statistics
from .players import SAFE_FOUNDATION, GreedyStrategy
from .reveal import CHOOSERS, SEARCHES, RevealPlanner

UNSOLVED = "unsolved"  # a sample the expert has not solved yet (its own bookkeeping, not an end of game)


@dataclass
class Sample:
    """One sampled layout (the current position, every card known), what the solver found, and checks of
    other first moves (``alt``: move -> winning line, or None when that move was not found to win)."""

    position: Position
    status: Outcome | str = UNSOLVED  # a solver's verdict once solved
    line: list[Move] = field(default_factory=list)
    alt: dict[Move, list[Move] | None] = field(default_factory=dict)

    def wins_with(self, m: Move) -> bool:
        """Is ``m`` known to start a win in this layout?"""
        return self.status == WON and (self.line[:1] == [m] or self.alt.get(m) is not None)


def replays_to_win(p: Position, line: Sequence[Move]) -> bool:
    """Does ``line`` replay legally from ``p`` to a won position?"""
    for m in line:
        if m not in legal_moves(p):
            return False
        p = apply(p, m)
    return is_won(p)


class Samples:
    """Layouts consistent with the knowledge, kept consistent as the game goes on, with their solutions."""

    def __init__(self, rng: random.Random, max_nodes: int, search: str = "plain") -> None:
        self.rng = rng
        self.max_nodes = max_nodes
        self.search = search
        self.items: list[Sample] = []
        self.knowledge: Knowledge | None = None
        self.solves = 0  # solver calls so far (for benchmarks)

    def reset(self, k: Knowledge) -> None:
        self.knowledge, self.items = k, []

    def grow(self, n: int) -> None:
        """Deal new layouts until there are ``n``."""
        while len(self.items) < n:
            self.items.append(Sample(sample_layout(self.knowledge, self.rng)))

    def solve_all(self, enough=None) -> None:
        """Solve the samples not solved yet, in order; stop early once ``enough()`` says so."""
        for s in self.items:
            if s.status == UNSOLVED:
                if enough is not None and enough():
                    return
                r = self._solve(s.position)
                s.status, s.line = r.status, list(r.moves)

    def solved(self) -> int:
        return sum(s.status != UNSOLVED for s in self.items)

    def check(self, s: Sample, m: Move) -> None:
        """Find out whether ``m`` also starts a win in sample ``s``."""
        if m not in s.alt and not s.wins_with(m):
            r = self._solve(apply(s.position, m))
            s.alt[m] = list(r.moves) if r.status == WON else None

    def _solve(self, p: Position):
        self.solves += 1
        return solve(p, max_seconds=None, max_nodes=self.max_nodes, options=SEARCHES[self.search])

    def advance(self, move: Move, k: Knowledge) -> bool:
        """Play ``move`` in every sample and repair it to show what ``k`` shows; False (and no samples) if
        that is impossible, e.g. because the move played was another one."""
        self.knowledge = k
        if not self.items:
            return True
        if move not in legal_moves(self.items[0].position):  # every sample has the same legal moves
            self.items = []
            return False
        advanced = []
        for s in self.items:
            fixed = repair(apply(s.position, move), k)
            if fixed is None:
                self.items = []
                return False
            advanced.append(_carry_over(s, move, *fixed))
        self.items = advanced
        return True

    def wins(self, m: Move) -> int:
        return sum(s.wins_with(m) for s in self.items)


def _carry_over(s: Sample, move: Move, q: Position, changed: bool) -> Sample:
    """What sample ``s`` still knows after ``move`` led to ``q`` (``changed``: cards were swapped)."""
    line = s.line[1:] if s.status == WON and s.line[:1] == [move] else s.alt.get(move)
    if line is not None and (not changed or replays_to_win(q, line)):
        return Sample(q, WON, line)
    if s.status in (UNWINNABLE, UNKNOWN) and not changed:
        return Sample(q, s.status)  # no move wins a layout that cannot be won; an undecided one waits for news
    return Sample(q)


class Decision(NamedTuple):
    """A move and why: how it was chosen, and for sampled decisions the wins of each move counted."""

    move: Move | None
    how: str  # "only", "safe", "scout", "look", "sampled", "greedy", "reveal", "solved", "planned"
    wins: dict[Move, int]
    samples: int


DEFAULTS = dict(method="reveal", samples=20, max_samples=40, max_nodes=2000, margin=0.15, check=3, settle=4,
                min_samples=6, budget=40, max_states=2000, max_points=16, per_reveal=2, exact_nodes=50000,
                search="full", choose="halving")
# Settings added after games were shipped: the value that plays those games, left out of ``settings_text``
# there, so that a recorded game's settings still read as they did.
_EARLIER = dict(search="plain", choose="halving")
METHODS = ("hop", "reveal")  # hindsight sampling of every move; or deciding at reveal points (solitaire.reveal)
_HOP_ONLY = ("samples", "max_samples", "margin", "check", "settle", "min_samples")
_REVEAL_ONLY = ("budget", "max_states", "max_points", "per_reveal", "exact_nodes", "choose")


def settings_text(**changes) -> str:
    """The expert's settings in words, as experiments record them: ``samples=20 max_samples=40 ...`` (the
    settings of the other method left out)."""
    settings = DEFAULTS | changes
    unused = _REVEAL_ONLY if settings["method"] == "hop" else _HOP_ONLY
    return " ".join(f"{k}={v}" if isinstance(v, str) else f"{k}={v:g}" for k, v in settings.items()
                    if k not in unused and not (k == "method" and v == "hop") and _EARLIER.get(k, ...) != v)


def settings_from_text(text: str) -> dict:
    """The settings that ``settings_text`` wrote (e.g. a results row's ``budget``, whose ``max_moves=`` is the
    game's, not the expert's, and is left out): ``ExpertStrategy(seed, **settings_from_text(text))`` plays
    the recorded games again.

    >>> settings_from_text("max_moves=5000 method=reveal max_nodes=2000 budget=40")["search"]  # an earlier game
    'plain'
    >>> settings_text(**settings_from_text(settings_text(budget=80))) == settings_text(budget=80)
    True
    >>> settings_from_text("budget=lots")
    Traceback (most recent call last):
    ...
    ValueError: 'budget=lots' is not an expert setting: write name=value, e.g. budget=40 or search=full (settings: method, samples, max_samples, max_nodes, margin, check, settle, min_samples, budget, max_states, max_points, per_reveal, exact_nodes, search, choose)
    """
    settings = DEFAULTS | _EARLIER | {"method": "hop"}  # what the text leaves out
    for word in text.split():
        name, _, value = word.partition("=")
        if name == "max_moves":
            continue
        kind = type(DEFAULTS.get(name))
        try:
            settings[name] = value if kind is str else kind(value)
        except (TypeError, ValueError):
            raise ValueError(f"{word!r} is not an expert setting: write name=value, e.g. budget=40 or "
                             f"search=full (settings: {', '.join(DEFAULTS)})") from None
    return settings


class ExpertStrategy:
    """Sampling over the layouts consistent with what it has seen (see the module docstring); each sample is
    solved with at most ``max_nodes`` states (a cap that runs out counts as a loss).

    ``method="reveal"``: ``budget`` solves per decision, spread over at most ``max_points`` reveal points
    found within ``max_states`` positions; ``exact_nodes`` states for the outright solve once every card is
    known. ``method="hop"``: ``samples`` layouts per decision (up to ``max_samples`` when the best two moves
    are close, within ``margin`` of the samples); the ``check`` leading moves are then each tried in every
    sample. ``scout``, ``safe`` and ``reuse`` switch the improvements off (to measure what each is worth).
    """

    name = "expert"

    def __init__(self, seed: int = 0, *, method: str = DEFAULTS["method"], samples: int = DEFAULTS["samples"],
                 max_samples: int = DEFAULTS["max_samples"], max_nodes: int = DEFAULTS["max_nodes"],
                 margin: float = DEFAULTS["margin"], check: int = DEFAULTS["check"],
                 settle: int = DEFAULTS["settle"], min_samples: int = DEFAULTS["min_samples"],
                 budget: int = DEFAULTS["budget"], max_states: int = DEFAULTS["max_states"],
                 max_points: int = DEFAULTS["max_points"], per_reveal: int = DEFAULTS["per_reveal"],
                 exact_nodes: int = DEFAULTS["exact_nodes"], search: str = DEFAULTS["search"],
                 choose: str = DEFAULTS["choose"], scout: bool = True, safe: bool = True, reuse: bool = True) -> None:
        if samples < 1 or max_samples < samples or max_nodes < 1:
            raise ValueError(f"need samples >= 1, max_samples >= samples and max_nodes >= 1, got samples={samples}, "
                             f"max_samples={max_samples}, max_nodes={max_nodes}")
        if method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
        if search not in SEARCHES or choose not in CHOOSERS:
            raise ValueError(f"search must be one of {', '.join(SEARCHES)} and choose one of {', '.join(CHOOSERS)}, "
                             f"got search={search!r}, choose={choose!r}")
        if min(budget, max_states, max_points, per_reveal, exact_nodes) < 1:
            raise ValueError(f"need budget, max_states, max_points, per_reveal and exact_nodes >= 1, got "
                             f"budget={budget}, max_states={max_states}, max_points={max_points}, "
                             f"per_reveal={per_reveal}, exact_nodes={exact_nodes}")
        self.settings = dict(method=method, samples=samples, max_samples=max_samples, max_nodes=max_nodes,
                             margin=margin, check=check, settle=settle, min_samples=min_samples, budget=budget,
                             max_states=max_states, max_points=max_points, per_reveal=per_reveal,
                             exact_nodes=exact_nodes, search=search, choose=choose,
                             scout=scout, safe=safe, reuse=reuse)
        self.seed, self.n, self.max_samples, self.margin, self.check = seed, samples, max_samples, margin, check
        self.scout, self.safe, self.reuse = scout, safe, reuse
        self.settle, self.min_samples = settle, min_samples
        self.planner = RevealPlanner(budget, max_nodes, max_states, max_points, per_reveal, exact_nodes, search,
                                     choose) if method == "reveal" else None
        self.memory = Memory()
        self.samples = Samples(random.Random(seed), max_nodes, search)
        self.greedy = GreedyStrategy(resign=True)
        self.last: tuple[Observation, Decision] | None = None
        self._played: Move | None = None

    def recall(self, observations: Iterable[Observation]) -> None:
        """Start afresh, as a new expert with this seed that watched ``observations`` (a game's, in order, up to
        the one before now): its next ``choose`` knows the stock cards they showed. It takes in observations
        only, so it still never reads a face-down card.

        >>> from solitaire import Game
        >>> game, watched = Game("klondike", seed=1), []
        >>> for move in ["draw"] * 24 + ["recycle"]:
        ...     watched.append(game.observation()); _ = game.play(move)
        >>> expert = ExpertStrategy()
        >>> expert.recall(watched)
        >>> expert.memory.update(game.observation()).stock == game.position.stock  # it knows the stock's order
        True
        """
        self.memory = Memory()
        if self.planner is not None:
            self.planner.forget()
        for obs in observations:
            self.memory.update(obs)
            if self.planner is not None:
                self.planner.watch(obs, self.memory.restarted)
        self.samples = Samples(random.Random(self.seed), self.samples.max_nodes, self.samples.search)
        self.last, self._played = None, None

    def choose(self, obs: Observation, moves: Sequence[Move]) -> Move | None:
        if not moves:
            raise ValueError("choose needs at least one legal move, got none: the game is over")
        k = self.memory.update(obs)
        if self.planner is not None:
            self.planner.watch(obs, self.memory.restarted)
            planned = self.planner.next_move(obs, moves)
            if planned is not None:
                self.last, self._played = (obs, Decision(planned, "planned", {}, 0)), planned
                return planned
        if not (self.reuse and self._played is not None and self.samples.advance(self._played, k)):
            self.samples.reset(k)
        decision = self.decide(k, list(moves))
        self.last, self._played = (obs, decision), decision.move
        return decision.move

    def decide(self, k: Knowledge, moves: list[Move]) -> Decision:
        """The move to play with this knowledge, and how it was chosen."""
        if len(moves) == 1:
            return Decision(moves[0], "only", {}, 0)
        obs = k.obs
        if self.safe:
            for m in moves:
                if m.kind == FLIP or self.greedy.rule(obs, m)[0] == SAFE_FOUNDATION[0]:
                    return Decision(m, "safe", {}, 0)
        if self.scout and obs.variant.passes is None and None in k.stock and Move(DRAW) in moves and \
                (self.planner is not None or not any(m.kind in (WASTE_TO_COLUMN, WASTE_TO_FOUNDATION) for m in moves)):
            return Decision(Move(DRAW), "scout" if self.planner is None else "look", {}, 0)
        if self.planner is not None:
            choice = self.planner.decide(k, moves, self.samples.rng)
            if choice is not None:
                return Decision(*choice)
        return self._deliberate(obs, moves)

    def _deliberate(self, obs: Observation, moves: list[Move]) -> Decision:
        s = self.samples
        s.grow(self.n)
        s.solve_all(lambda: self._settled(moves))
        self._check_leaders(moves)
        if self._close(moves) and len(s.items) < self.max_samples:
            s.grow(self.max_samples)
            s.solve_all(lambda: self._settled(moves))
            self._check_leaders(moves)
        wins = {m: s.wins(m) for m in moves}
        n = s.solved()
        order = {m: i for i, m in enumerate(GreedyStrategy(resign=False).rank(obs, moves))}
        best = max(moves, key=lambda m: (wins[m], -order.get(m, len(order))))  # ties: greedy's preferences
        if wins[best] == 0:
            ranked = self.greedy.rank(obs, moves)
            return Decision(ranked[0] if ranked else None, "greedy", wins, n)
        return Decision(best, "sampled", wins, n)

    def _check_leaders(self, moves: list[Move]) -> None:
        """Try the ``check`` moves with the most wins in every won sample whose solution starts otherwise.
        Nothing to do when the leader wins every won sample: no move can win more."""
        s = self.samples
        won = [x for x in s.items if x.status == WON]
        leaders = sorted(moves, key=lambda m: -s.wins(m))[:self.check]
        if self.check < 2 or not won or s.wins(leaders[0]) == len(won):
            return
        for sample in won:
            for m in leaders:
                s.check(sample, m)

    def _lead(self, moves: list[Move]) -> int:
        counts = sorted((self.samples.wins(m) for m in moves), reverse=True) + [0]
        return counts[0] - counts[1]

    def _close(self, moves: list[Move]) -> bool:
        """Are the two moves with the most wins within the margin of each other?"""
        return self._lead(moves) <= max(1, self.margin * self.samples.solved())

    def _settled(self, moves: list[Move]) -> bool:
        """May solving stop? Yes when the samples not solved yet could not overturn the leading move, or when
        the first samples (all solved, at least ``min_samples``) give the leader a lead of ``settle``. Only a
        prefix counts for the second rule: samples that kept their solution are not a fair sample by
        themselves (a winning line that still replays is kept, a lost layout that changed is not)."""
        s = self.samples
        if self._lead(moves) > len(s.items) - s.solved():
            return True
        prefix = next((i for i, x in enumerate(s.items) if x.status == UNSOLVED), len(s.items))
        if prefix < self.min_samples:
            return False
        counts = sorted((sum(x.wins_with(m) for x in s.items[:prefix]) for m in moves), reverse=True) + [0]
        return counts[0] - counts[1] >= self.settle

    def explain(self, obs: Observation, move: Move) -> str:
        if self.last is None or self.last[0] != obs:  # not the position it last decided: think afresh
            probe = ExpertStrategy(self.seed, **self.settings)
            k = probe.memory.update(obs)
            if probe.planner is not None:
                probe.planner.watch(obs, True)
            probe.samples.reset(k)
            moves = legal_moves(sample_layout(k, random.Random(0)))
            self.last = (obs, probe.decide(k, moves))
        return _sentence(move, self.last[1])

    def __repr__(self) -> str:
        if self.planner is not None:
            return f"ExpertStrategy(seed={self.seed}, method='reveal', budget={self.planner.budget}, " \
                   f"max_nodes={self.samples.max_nodes})"
        return f"ExpertStrategy(seed={self.seed}, samples={self.n}, max_nodes={self.samples.max_nodes})"


REVEAL_SENTENCES = {
    "reveal": "{move} starts the way to the next card to turn up that was won most often after it turned up: "
              "in {wins} of {samples} ways the hidden cards could lie.",
    "solved": "{move} starts a win: every card is known, and the solver found the way.",
    "planned": "{move} is the next step of the way the expert chose to the next card to turn up.",
}


def _sentence(move: Move, d: Decision) -> str:
    if d.how == "only":
        return f"{move} is the only move left."
    if d.how == "safe" and move == d.move:
        return f"{move} is safe (it turns a card up, or sends a card no column can need to its foundation), " \
               "so the expert plays it without deliberation."
    if d.how == "scout" and move == d.move:
        return f"{move} shows a stock card for free (the waste card has no play, and every stock card comes round " \
               "again), so the expert looks before it thinks."
    if d.how == "look" and move == d.move:
        return f"{move} shows a stock card for free (every stock card comes round again), so the expert looks " \
               "at the whole stock before it thinks."
    if d.how in ("reveal", "solved", "planned") and move == d.move:
        return REVEAL_SENTENCES[d.how].format(move=move, samples=d.samples, wins=d.wins.get(move, 0))
    if d.wins and max(d.wins.values()) == 0:
        return f"{move}: none of {d.samples} ways the hidden cards could lie was won within the search budget, " \
               "so the greedy player's rules decide."
    if move in d.wins:
        return f"{move} wins in {d.wins[move]} of {d.samples} ways the hidden cards could lie."
    return f"{move} was not weighed: the expert played {d.move} without deliberation."


# --- the chance to win from here ---------------------------------------------------------------------------

@dataclass(frozen=True)
class WinChance:
    """The share of sampled layouts the solver wins, for a player who cannot see the face-down cards."""

    samples: int
    won: int
    unwinnable: int
    unknown: int

    @property
    def share(self) -> float:
        return self.won / self.samples if self.samples else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson 95% interval of the share (undecided layouts count as not won)."""
        return wilson(self.won, self.samples)

    def __str__(self) -> str:
        low, high = self.interval
        undecided = f"; {self.unknown} undecided within the search budget" if self.unknown else ""
        return (f"about {self.share:.0%} (95% interval {low:.0%} to {high:.0%}): the solver wins {self.won} of "
                f"{self.samples} ways the hidden cards could lie{undecided}")


def _count(items: list[Sample]) -> WinChance:
    status = [s.status for s in items]
    return WinChance(len(items), status.count(WON), status.count(UNWINNABLE), status.count(UNKNOWN))


def win_chance(game, samples: int = 20, seed: int = 0, max_nodes: int = 5000) -> WinChance:
    """How winnable the game still is, given everything the game showed and nothing else: not a player's chance.

    Deals the unseen cards ``samples`` times consistently with what was seen, and counts the layouts the
    solver wins (at most ``max_nodes`` states each). Each layout is solved knowing its cards, so this is the share
    of layouts that *could* be won by someone who knew them; a player who cannot see them wins at most that.
    """
    if samples < 1:
        raise ValueError(f"samples must be 1 or more, got {samples!r}")
    s = Samples(random.Random(seed), max_nodes)
    s.reset(game_knowledge(game))
    s.grow(samples)
    s.solve_all()
    return _count(s.items)


def win_chance_history(game, samples: int = 20, seed: int = 0, max_nodes: int = 5000) -> list[WinChance]:
    """The win chance at the deal and after every move of ``game`` (the same layouts, played on and
    repaired as cards turn up, so a winning line found once is reused while it still replays)."""
    from .state import observe
    p = game.start
    memory = Memory()
    s = Samples(random.Random(seed), max_nodes)
    s.reset(memory.update(observe(p)))
    s.grow(samples)
    s.solve_all()
    history = [_count(s.items)]
    for m in game.moves:
        p = apply(p, m)
        if not s.advance(m, memory.update(observe(p))):
            s.grow(samples)
        s.solve_all()
        history.append(_count(s.items))
    return history
