"""What a careful player knows without seeing the face-down cards, and layouts consistent with it.

A player sees an ``Observation``: every face-up card, the whole waste, the foundations, how many cards lie
face down in each column and how many are in the stock. A careful player also *remembers*: after the waste
is turned over into the stock, the stock holds exactly the cards the player watched go to the waste, in a
known order. ``Memory`` keeps that, fed only with the observations the player was shown, one after another.
It never learns a card before the card is turned face up.

``Knowledge`` is what the memory knows at one moment: the visible cards, the stock slots whose card is known,
and the *unknown slots* (face-down cards and the stock slots not yet seen). Every way of dealing the unseen
cards into the unknown slots is equally likely (the deck was shuffled uniformly, and what the player saw
depends only on where cards lie), so ``sample_layout`` deals them uniformly at random, and
``count_layouts`` counts them.
"""
from __future__ import annotations

import math
import random
from collections import Counter
from typing import NamedTuple

from .cards import Card, full_deck
from .state import Observation, Position, observe


class Knowledge(NamedTuple):
    """One moment's knowledge: the observation, the stock slots (bottom first; None = not yet seen), the
    unseen cards (sorted), and the cards among them known to be in the stock (seen once, not visible now)."""

    obs: Observation
    stock: tuple[Card | None, ...]
    unseen: tuple[Card, ...]
    in_stock: tuple[Card, ...]

    @property
    def unknown_slots(self) -> int:
        """Face-down cards plus stock slots whose card is not known."""
        return sum(self.obs.hidden) + self.stock.count(None)


def visible_cards(obs: Observation) -> Counter:
    """Every card the observation shows (face-up column cards, waste, foundations), with multiplicity."""
    return Counter(c for pile in (obs.waste, *obs.foundations, *obs.columns) for c in pile)


class Memory:
    """A careful player's memory of one game, fed with ``update(obs)`` after every move.

    It knows the stock's order from the moment the waste is turned over (the recycled stock is the waste it
    watched, turned over), and which cards it has seen. An observation that cannot follow the last one (a new
    deal, or a jump back) starts the memory afresh.

    >>> from solitaire import Game
    >>> g = Game("klondike", seed=1)
    >>> m = Memory()
    >>> m.update(g.observation()).unknown_slots   # 21 face-down cards and 24 stock cards
    45
    """

    def __init__(self) -> None:
        self.last: Observation | None = None
        self.stock: list[Card | None] = []
        self.seen: Counter = Counter()
        self.restarted = True  # did the last update start afresh (a new game, or a jump)?

    def update(self, obs: Observation) -> Knowledge:
        """Take in the next observation and return what is known now."""
        self.restarted = self.last is None or not _follows(self.last, obs)
        if not self.restarted:
            self._step(self.last, obs)
        else:
            self.stock = [None] * obs.stock_size
            self.seen = Counter()
        self.last = obs
        return self.knowledge(remember=True)

    def knowledge(self, remember: bool = False) -> Knowledge:
        """What is known at the last observation."""
        obs = self.last
        if obs is None:
            raise ValueError("the memory has seen no observation yet: call update(obs) first")
        visible = visible_cards(obs)
        known = Counter(c for c in self.stock if c is not None)
        if remember:
            for c, n in (visible + known).items():
                self.seen[c] = max(self.seen[c], n)
        deck = Counter(full_deck(obs.variant.ranks, obs.variant.decks))
        unseen = deck - visible - known
        in_stock = Counter({c: n - visible[c] - known[c] for c, n in self.seen.items()}) & unseen
        if sum(in_stock.values()) > self.stock.count(None):
            in_stock = Counter()  # cannot be (the observations did not follow one another): trust nothing
        return Knowledge(obs, tuple(self.stock), tuple(sorted(unseen.elements())), tuple(sorted(in_stock.elements())))

    def _step(self, prev: Observation, obs: Observation) -> None:
        if obs.recycles == prev.recycles:
            self.stock = self.stock[:obs.stock_size]  # draws take cards off the top (the end of the list)
            return
        turned = list(prev.waste[::-1])  # a recycle turns the waste over: its first card becomes the top
        if prev.stock_size == 0 and obs.stock_size <= len(turned):
            kept = turned[:obs.stock_size]
            decks, visible = obs.variant.decks, visible_cards(obs)
            if all(n + visible[c] <= decks for c, n in Counter(kept).items()):  # no card more often than the decks hold
                self.stock = kept
                return
        self.stock = [None] * obs.stock_size


def _follows(prev: Observation, obs: Observation) -> bool:
    """Can ``obs`` come after ``prev`` by one or more moves (same game, stock and face-down cards only shrink)?"""
    if prev.variant != obs.variant or len(prev.hidden) != len(obs.hidden):
        return False
    if any(h > g for h, g in zip(obs.hidden, prev.hidden)):
        return False
    if obs.recycles == prev.recycles:
        return obs.stock_size <= prev.stock_size
    return obs.recycles == prev.recycles + 1


def knowledge_of(observations) -> Knowledge:
    """The knowledge after a sequence of observations (a game's, in order)."""
    memory = Memory()
    k = None
    for obs in observations:
        k = memory.update(obs)
    if k is None:
        raise ValueError("knowledge_of needs at least one observation")
    return k


def game_knowledge(game) -> Knowledge:
    """What a careful player of ``game`` knows now: the observations of its positions, from the deal on."""
    from .moves import apply
    p = game.start
    positions = [p]
    for m in game.moves:
        p = apply(p, m)
        positions.append(p)
    return knowledge_of(observe(q) for q in positions)


def sample_layout(k: Knowledge, rng: random.Random) -> Position:
    """A Position consistent with the knowledge, the unseen cards dealt uniformly at random.

    Cards known to be in the stock go to its unknown slots; the other unseen cards fill the rest of those
    slots and the face-down cards.
    """
    obs = k.obs
    rest = list((Counter(k.unseen) - Counter(k.in_stock)).elements())
    rng.shuffle(rest)
    open_slots = k.stock.count(None)
    for_stock = list(k.in_stock) + rest[:open_slots - len(k.in_stock)]
    face_down = rest[open_slots - len(k.in_stock):]
    rng.shuffle(for_stock)
    fill = iter(for_stock)
    stock = tuple(c if c is not None else next(fill) for c in k.stock)
    down = iter(face_down)
    columns = tuple(tuple(next(down) for _ in range(h)) + col for col, h in zip(obs.columns, obs.hidden))
    return Position(obs.variant, stock, obs.waste, obs.foundations, columns, obs.hidden, obs.recycles)


def count_layouts(k: Knowledge) -> int:
    """How many different layouts are consistent with the knowledge (identical twin cards counted once).

    Each card kind c (m copies unseen, at least ``must`` of them known to be in the stock) sends x copies to
    the S open stock slots and m - x face down; a choice of the x's gives S! / prod x! * H! / prod (m - x)!
    layouts. The sum over the choices is S! H! / prod m! times the coefficient of t^S in
    prod over kinds of sum_x C(m, x) t^x (x from ``must`` to m), computed as a polynomial product.

    >>> from solitaire import Game
    >>> count_layouts(Memory().update(Game("klondike", seed=0).observation())) == math.factorial(45)
    True
    """
    open_slots = k.stock.count(None)
    face_down = len(k.unseen) - open_slots
    if face_down < 0:
        return 0
    must = Counter(k.in_stock)
    poly = [1]  # poly[x]: weighted ways for x cards in the stock so far
    denominator = 1
    for card, m in sorted(Counter(k.unseen).items()):
        term = [math.comb(m, x) if x >= must[card] else 0 for x in range(m + 1)]
        poly = [sum(poly[i] * term[x - i] for i in range(len(poly)) if 0 <= x - i < len(term))
                for x in range(len(poly) + m)]
        denominator *= math.factorial(m)
    ways = poly[open_slots] if open_slots < len(poly) else 0
    return math.factorial(open_slots) * math.factorial(face_down) * ways // denominator


def repair(q: Position, k: Knowledge) -> tuple[Position, bool] | None:
    """Make a sampled position ``q`` show what ``k.obs`` shows, by swapping unknown cards; (position, changed).

    ``q`` is a sample after the move that was really played; where it shows a card other than the one the
    player saw turned up, that card is swapped with the true card's place among ``q``'s unknown slots. If the
    sample was uniform among the layouts consistent with the old knowledge, the repaired one is uniform among
    those consistent with the new. None if the piles do not match (the sample cannot be repaired).
    """
    obs = k.obs
    if len(q.stock) != obs.stock_size or q.hidden != obs.hidden or len(q.waste) != len(obs.waste) \
            or q.foundations != obs.foundations \
            or any(len(c) - h != len(o) for c, h, o in zip(q.columns, q.hidden, obs.columns)):
        return None
    cols = [list(c) for c in q.columns]
    stock, waste = list(q.stock), list(q.waste)
    unknown = [(cols[j], i) for j, h in enumerate(q.hidden) for i in range(h)]
    unknown += [(stock, i) for i, c in enumerate(k.stock) if c is None]
    shown = [(waste, i, c) for i, c in enumerate(obs.waste)]
    shown += [(cols[j], q.hidden[j] + i, c) for j, o in enumerate(obs.columns) for i, c in enumerate(o)]
    shown += [(stock, i, c) for i, c in enumerate(k.stock) if c is not None]
    changed = False
    for pile, i, want in shown:
        if pile[i] == want:
            continue
        place = next(((p, j) for p, j in unknown if p[j] == want), None)
        if place is None:
            return None
        p, j = place
        p[j], pile[i] = pile[i], want
        changed = True
    if not changed:
        return q, False
    return Position(q.variant, tuple(stock), tuple(waste), q.foundations, tuple(map(tuple, cols)), q.hidden,
                    q.recycles), True
