"""Cards: a card is a small integer with a readable face.

A card's code is ``suit * 16 + rank`` (rank 1 = Ace ... 13 = King), so every
variant shares one encoding and two decks simply hold each code twice.
"""
from __future__ import annotations

SUITS = "♣♦♥♠"
SUIT_LETTERS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RED_SUITS = frozenset({1, 2})

_RANK_BY_TEXT = {name: rank for rank, name in enumerate(RANK_NAMES) if name}
_RANK_BY_TEXT["T"] = 10
_RANK_BY_TEXT["1"] = 1
_SUIT_BY_TEXT = {**{s: i for i, s in enumerate(SUITS)}, **{s: i for i, s in enumerate(SUIT_LETTERS)},
                 "♤": 3, "♡": 2, "♢": 1, "♧": 0}


class InvalidCardError(ValueError):
    """Raised for text that does not name a card."""


class Card(int):
    """A playing card; ``Card('10♥') == Card('th')`` and ``str(card) == '10♥'``."""

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        if isinstance(value, str):
            return parse_card(value)
        if value in _CARDS:
            return _CARDS[value]
        raise InvalidCardError(f"{value!r} is not a card code (suit * 16 + rank, rank 1-13)")

    @property
    def rank(self) -> int:
        """1 for an Ace up to 13 for a King."""
        return self & 15

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return self >> 4

    @property
    def rank_name(self) -> str:
        return RANK_NAMES[self & 15]

    @property
    def suit_symbol(self) -> str:
        return SUITS[self >> 4]

    @property
    def is_red(self) -> bool:
        return (self >> 4) in RED_SUITS

    @property
    def color(self) -> str:
        return "red" if self.is_red else "black"

    def ascii(self) -> str:
        """Two-character PySol form, such as ``TH`` or ``AS``."""
        return ("T" if self.rank == 10 else self.rank_name) + SUIT_LETTERS[self.suit]

    def __str__(self) -> str:
        return RANK_NAMES[self & 15] + SUITS[self >> 4]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


_CARDS: dict[int, Card] = {}
for _suit in range(4):
    for _rank in range(1, 14):
        _code = _suit * 16 + _rank
        _CARDS[_code] = int.__new__(Card, _code)


def card(rank: int | str, suit: int | str) -> Card:
    """The card of a rank (1-13 or 'A'...'K') and a suit (0-3, a letter or a symbol)."""
    r = _RANK_BY_TEXT.get(str(rank).upper()) if isinstance(rank, str) else rank
    s = _SUIT_BY_TEXT.get(suit.upper() if isinstance(suit, str) else "") if isinstance(suit, str) else suit
    if r is None or not 1 <= r <= 13 or s is None or not 0 <= s <= 3:
        raise InvalidCardError(f"no card has rank {rank!r} and suit {suit!r}")
    return _CARDS[s * 16 + r]


def parse_card(text: str) -> Card:
    """Read '10♥', '10h', 'TH' or 'q♠' (case and spaces do not matter)."""
    t = text.strip().upper()
    if len(t) >= 2 and t[:-1] in _RANK_BY_TEXT and t[-1] in _SUIT_BY_TEXT:
        return _CARDS[_SUIT_BY_TEXT[t[-1]] * 16 + _RANK_BY_TEXT[t[:-1]]]
    raise InvalidCardError(
        f"cannot read a card from {text!r}: write a rank (A 2-10 J Q K, or T for 10) then a suit (C D H S or ♣♦♥♠)")


def full_deck(ranks: tuple[str, ...] = tuple(RANK_NAMES[1:]), decks: int = 1) -> list[Card]:
    """Every card of ``decks`` decks restricted to ``ranks``, in suit then rank order."""
    return [card(r, s) for _ in range(decks) for s in range(4) for r in ranks]
