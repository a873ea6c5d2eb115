"""Cards: a card is a small integer with a readable face.

A card's code is ``suit * 16 + rank`` (rank 1 = Ace ... 13 = King; suits 0-3 are ♣ ♦ ♥ ♠), so every variant
shares one encoding and two decks simply hold each code twice. Read ``Card``, then the two ways to make one
(``card`` from a rank and a suit, ``parse_card`` from text), then ``full_deck``.
"""
from __future__ import annotations

SUITS = "♣♦♥♠"
SUIT_LETTERS = "CDHS"
RANK_NAMES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

_RANK_BY_TEXT = {name: rank for rank, name in enumerate(RANK_NAMES) if name} | {"T": 10, "1": 1}
_SUIT_BY_TEXT = {**{s: i for i, s in enumerate(SUITS)}, **{s: i for i, s in enumerate(SUIT_LETTERS)},
                 "♤": 3, "♡": 2, "♢": 1, "♧": 0}


class InvalidCardError(ValueError):
    """Raised for text or numbers that do not name a card."""


def quote(value: object, width: int = 40) -> str:
    """``repr(value)``, cut to about ``width`` characters, so that an error message stays readable.

    >>> quote("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…xxx'"
    """
    try:
        text = repr(value)
    except ValueError:  # an int too long to write out
        return "a number of thousands of digits"
    except Exception:  # a structure too deep to write out (RecursionError), or a repr that fails
        return f"a {type(value).__name__} that cannot be written out"
    return text if len(text) <= width else text[:width - 5] + "…" + text[-4:]


class Card(int):
    """A playing card: an int ``suit * 16 + rank`` with a face.

    >>> Card("10♥") == Card("th") == Card(42), str(Card(42)), Card(42).rank, Card(42).suit
    (True, '10♥', 10, 2)

    Raises:
        InvalidCardError: for text that does not name a card, or a number that is not a card's code.
    """

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        if isinstance(value, str):
            return parse_card(value)
        if isinstance(value, int) and not isinstance(value, bool) and value in _CARDS:
            return _CARDS[value]
        raise InvalidCardError(f"{quote(value)} is not a card code (suit * 16 + rank, rank 1-13, suit 0-3)")

    @property
    def rank(self) -> int:
        """1 for an Ace up to 13 for a King."""
        return self % 16

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return self // 16

    @property
    def rank_name(self) -> str:
        return RANK_NAMES[self.rank]

    @property
    def suit_symbol(self) -> str:
        return SUITS[self.suit]

    @property
    def is_red(self) -> bool:
        return self.suit in (1, 2)  # diamonds and hearts

    @property
    def color(self) -> str:
        return "red" if self.is_red else "black"

    def ascii(self) -> str:
        """Two-character PySol form, such as ``TH`` or ``AS``."""
        return ("T" if self.rank == 10 else self.rank_name) + SUIT_LETTERS[self.suit]

    def __str__(self) -> str:
        return self.rank_name + self.suit_symbol

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


_CARDS: dict[int, Card] = {s * 16 + r: int.__new__(Card, s * 16 + r) for s in range(4) for r in range(1, 14)}
ALL_CARDS: tuple[Card, ...] = tuple(_CARDS.values())  # the 52 cards, suit by suit, Ace to King


def card(rank: int | str, suit: int | str) -> Card:
    """The card of a rank (1-13 or 'A'...'K') and a suit (0-3, a letter or a symbol).

    >>> card("Q", "s"), card(1, 2), card(10, "♦")
    (Card('Q♠'), Card('A♥'), Card('10♦'))

    Raises:
        InvalidCardError: when the rank or the suit is not one (including numbers that are not whole).
    """
    r, s = _number(rank, _RANK_BY_TEXT), _number(suit, _SUIT_BY_TEXT)
    if r is None or not 1 <= r <= 13 or s is None or not 0 <= s <= 3:
        raise InvalidCardError(f"no card has rank {quote(rank)} and suit {quote(suit)}: a rank is 1-13 or "
                               "A 2-10 J Q K, a suit is 0-3 or C D H S")
    return _CARDS[s * 16 + r]


def _number(value: int | str, by_text: dict[str, int]) -> int | None:
    """A rank's or a suit's number: text is looked up in ``by_text``, an int is itself, anything else is None."""
    if isinstance(value, str):
        return by_text.get(value.strip().upper())
    if type(value) is int:  # not a bool, not a float
        return value
    return None


def parse_card(text: str) -> Card:
    """Read '10♥', '10h', 'TH' or 'q♠' (case and spaces do not matter).

    >>> parse_card(" q♠ "), parse_card("TH")
    (Card('Q♠'), Card('10♥'))
    >>> parse_card("Zq")
    Traceback (most recent call last):
    solitaire.cards.InvalidCardError: cannot read a card from 'Zq': write a rank (A 2-10 J Q K, or T for 10) then a suit (C D H S or ♣♦♥♠)

    Raises:
        InvalidCardError: for text that is not a card; the message echoes it.
    """
    t = text.strip().upper() if isinstance(text, str) else ""
    if len(t) >= 2 and t[:-1] in _RANK_BY_TEXT and t[-1] in _SUIT_BY_TEXT:
        return _CARDS[_SUIT_BY_TEXT[t[-1]] * 16 + _RANK_BY_TEXT[t[:-1]]]
    raise InvalidCardError(f"cannot read a card from {quote(text)}: write a rank (A 2-10 J Q K, or T for 10) "
                           "then a suit (C D H S or ♣♦♥♠)")


def full_deck(ranks: tuple[str, ...] = tuple(RANK_NAMES[1:]), decks: int = 1) -> list[Card]:
    """Every card of ``decks`` decks restricted to ``ranks``, in suit then rank order.

    >>> [str(c) for c in full_deck(("A", "K"))]
    ['A♣', 'K♣', 'A♦', 'K♦', 'A♥', 'K♥', 'A♠', 'K♠']
    """
    return [card(r, s) for _ in range(decks) for s in range(4) for r in ranks]
