"""Positions (immutable), seeded deals, and what a player may see.

Read ``Position`` (the whole true state of a game), ``Observation`` and ``observe`` (what a player sees),
then how a seed deals the cards: ``SplitMix64`` shuffles, ``deal`` and ``deal_cards`` lay them out.
"""
from __future__ import annotations

from typing import NamedTuple

from .cards import Card, full_deck, quote
from .variants import Variant

Pile = tuple[Card, ...]
_MASK = (1 << 64) - 1


class Position(NamedTuple):
    """The whole true state of a game. Piles list cards bottom first, so ``pile[-1]`` is the top.

    >>> from solitaire import KLONDIKE
    >>> p = deal(KLONDIKE, 1)
    >>> len(p.stock), p.waste, [len(c) for c in p.columns], p.hidden
    (24, (), [1, 2, 3, 4, 5, 6, 7], (0, 1, 2, 3, 4, 5, 6))
    """

    variant: Variant
    stock: Pile
    waste: Pile
    foundations: tuple[Pile, ...]
    columns: tuple[Pile, ...]
    hidden: tuple[int, ...]  # face-down cards at the bottom of each column
    recycles: int = 0  # times the waste was turned over into the stock

    def cards(self) -> list[Card]:
        """Every card of the position, pile by pile."""
        return [c for pile in (self.stock, self.waste, *self.foundations, *self.columns) for c in pile]

    def on_foundations(self) -> int:
        """How many cards are on the foundations."""
        return sum(map(len, self.foundations))

    def face_down(self) -> int:
        """How many cards lie face down in the columns."""
        return sum(self.hidden)


class Observation(NamedTuple):
    """What a player sees: face-down cards and the stock's order are hidden."""

    variant: Variant
    stock_size: int
    waste: Pile
    foundations: tuple[Pile, ...]
    columns: tuple[Pile, ...]  # face-up cards only, bottom first
    hidden: tuple[int, ...]
    recycles: int


def observe(position: Position) -> Observation:
    """What a player may see of ``position``.

    >>> from solitaire import KLONDIKE
    >>> obs = observe(deal(KLONDIKE, 1))
    >>> obs.stock_size, [len(c) for c in obs.columns]
    (24, [1, 1, 1, 1, 1, 1, 1])
    """
    p = position
    return Observation(p.variant, len(p.stock), p.waste, p.foundations,
                       tuple(col[h:] for col, h in zip(p.columns, p.hidden)), p.hidden, p.recycles)


class SplitMix64:
    """A tiny, fully specified random generator, so a seed deals the same cards on every platform.

    >>> SplitMix64(7).below(10), SplitMix64(7).below(10)
    (7, 7)

    Raises:
        ValueError: unless the seed is a whole number from 0 to 2**64 - 1.
    """

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= _MASK:  # a save keeps 64 bits
            raise ValueError(f"a seed must be a whole number from 0 to 2**64 - 1, got {quote(seed)}")
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        limit = (1 << 64) - (1 << 64) % n
        x = self.next64()
        while x >= limit:  # a draw past the last whole multiple of n would favour small numbers: draw again
            x = self.next64()
        return x % n

    def shuffle(self, items: list) -> None:
        """Fisher-Yates, from the last item down."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def shuffled_deck(variant: Variant, seed: int) -> list[Card]:
    """The variant's deck in the order it is dealt (first card dealt first).

    >>> from solitaire import ITALIAN
    >>> len(shuffled_deck(ITALIAN, 3)), shuffled_deck(ITALIAN, 3) == shuffled_deck(ITALIAN, 3)
    (32, True)
    """
    deck = full_deck(variant.ranks, variant.decks)
    SplitMix64(seed).shuffle(deck)
    return deck


def deal(variant: Variant, seed: int) -> Position:
    """Deal row by row, left to right; the rest of the deck is the stock.

    >>> from solitaire import KLONDIKE
    >>> [str(col[-1]) for col in deal(KLONDIKE, 1).columns]
    ['7♦', '6♦', '2♦', '2♣', 'K♥', 'J♠', '8♠']

    Raises:
        ValueError: unless the seed is a whole number from 0 to 2**64 - 1.
    """
    return deal_cards(variant, shuffled_deck(variant, seed))


def deal_cards(variant: Variant, deck: list[Card]) -> Position:
    """Deal a given deck order (first card dealt first); Aces set aside go to the first empty foundation.

    >>> from solitaire import KLONDIKE
    >>> from solitaire.cards import full_deck
    >>> [str(col[-1]) for col in deal_cards(KLONDIKE, full_deck()).columns]
    ['A♣', '8♣', 'A♦', '6♦', '10♦', 'K♦', '2♥']
    """
    cards = iter(deck)
    columns: list[list[Card]] = [[] for _ in variant.columns]
    foundations: list[list[Card]] = [[] for _ in range(variant.foundations)]
    for row in range(max(variant.columns)):
        for col, size in zip(columns, variant.columns):
            if row < size:  # this column gets a card in this row, face up in its last `face_up` rows
                c = next(cards)
                while variant.aces_aside and row >= size - variant.face_up and c.rank_name == variant.ranks[0]:
                    next(f for f in foundations if not f).append(c)  # an Ace set aside starts a foundation
                    c = next(cards)
                col.append(c)
    stock = tuple(reversed(list(cards)))
    return Position(variant, stock, (), tuple(map(tuple, foundations)), tuple(map(tuple, columns)),
                    tuple(size - variant.face_up for size in variant.columns))
