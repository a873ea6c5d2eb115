"""Variants are data: every rule of a game is a field of a frozen dataclass.

Read ``Variant`` (its fields are the rules; impossible values are refused when it is made), then the three
games of the kit (``KLONDIKE``, ``SOLIJOY``, ``ITALIAN``) and ``get_variant``, which finds one by name.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, fields

from .cards import RANK_NAMES, quote

STANDARD_RANKS = tuple(RANK_NAMES[1:])
BUILDS = ("alternate", "suit", "any")


class InvalidVariantError(ValueError):
    """A variant's rules are of the wrong type or cannot be played together."""


@dataclass(frozen=True)
class Variant:
    """The rules of one Klondike-family game; ``ranks`` lists the ranks in foundation order.

    >>> Variant("Klondike, draw 3", draw=3).draw
    3
    >>> Variant("x", passes=2.5)
    Traceback (most recent call last):
    solitaire.variants.InvalidVariantError: invalid variant 'x': passes must be a whole number or None, got 2.5

    Raises:
        InvalidVariantError: naming each field of the wrong type or value, and what it must be.
    """

    name: str
    ranks: tuple[str, ...] = STANDARD_RANKS
    decks: int = 1
    columns: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7)
    face_up: int = 1
    empty_column_ranks: tuple[str, ...] | None = ("K",)
    build: str = "alternate"
    columns_follow_foundation_order: bool = False
    waste_to_foundation: bool = True
    foundation_to_tableau: bool = False
    draw: int = 1
    passes: int | None = None
    auto_flip: bool = False
    aces_aside: bool = False
    draw_only_when_stuck: bool = False

    def __post_init__(self) -> None:
        problems = list(self._type_problems()) or list(self._rule_problems())
        if problems:  # at most three, so that the message stays readable
            more = f"; and {len(problems) - 3} more" if len(problems) > 3 else ""
            raise InvalidVariantError(f"invalid variant {quote(self.name)}: " + "; ".join(problems[:3]) + more)
        object.__setattr__(self, "_hash", hash(tuple(getattr(self, f.name) for f in fields(self))))

    def __hash__(self) -> int:
        return self._hash  # worked out once, in __post_init__: a variant is hashed at every rules lookup

    def __reduce__(self):
        # String hashes differ between processes, so a pickled variant is made anew (and hashed anew).
        return self.__class__, tuple(getattr(self, f.name) for f in fields(self))

    def _type_problems(self):
        for f in fields(self):  # the type annotations above say what each field must be
            value, types = getattr(self, f.name), f.type.split(" | ")
            if not any(_TYPES[t][0](value) for t in types):
                yield f"{f.name} must be {' or '.join(_TYPES[t][1] for t in types)}, got {quote(value)}"

    def _rule_problems(self):
        if not 0 < len(self.name) <= 200:
            yield f"name must be 1 to 200 characters long, got {len(self.name)}"
        if self.build not in BUILDS:
            yield f"build must be one of {BUILDS}, got {quote(self.build)}"
        if len(set(self.ranks)) != len(self.ranks) or not self.ranks:
            yield f"ranks must be distinct and non-empty, got {quote(self.ranks)}"
        if not set(self.ranks) <= set(STANDARD_RANKS):
            yield f"ranks must come from {' '.join(STANDARD_RANKS)}, got {quote(self.ranks)}"
        if not 1 <= self.decks <= 4:
            yield f"decks must be 1 to 4, got {quote(self.decks)}"
        if not self.columns or min(self.columns) < 1 or len(self.columns) > 16:
            yield f"columns must be a tuple of 1 to 16 card counts, each >= 1, got {quote(self.columns)}"
        elif sum(self.columns) > self.deck_size:
            yield f"the deal needs {sum(self.columns)} cards but the deck has only {self.deck_size}"
        elif self.aces_aside and sum(self.columns) + self.foundations > self.deck_size:
            yield (f"with aces_aside the deal may need {sum(self.columns) + self.foundations} cards "
                   f"but the deck has only {self.deck_size}")
        if not 1 <= self.face_up <= min(self.columns or (1,)):
            yield (f"face_up must be between 1 and the smallest column ({min(self.columns or (1,))}), "
                   f"got {quote(self.face_up)}")
        if self.empty_column_ranks is not None and not set(self.empty_column_ranks) <= set(self.ranks):
            yield (f"empty_column_ranks {quote(self.empty_column_ranks)} must be ranks of the deck "
                   "(or None for any card)")
        if not 1 <= self.draw <= 52:
            yield f"draw must be 1 to 52 (cards turned per draw), got {quote(self.draw)}"
        if self.passes is not None and self.passes < 1:
            yield f"passes must be None (unlimited) or at least 1, got {quote(self.passes)}"

    @property
    def deck_size(self) -> int:
        """How many cards the deck holds."""
        return 4 * len(self.ranks) * self.decks

    @property
    def foundations(self) -> int:
        """How many foundations there are (four per deck)."""
        return 4 * self.decks

    @property
    def key(self) -> str | None:
        """The registry key of this exact variant, or None for a custom one.

        >>> KLONDIKE.key, Variant("mine").key
        ('klondike', None)
        """
        return next((k for k, v in VARIANTS.items() if v == self), None)

    def changes_from(self, base: Variant) -> dict[str, object]:
        """The fields in which this variant differs from ``base``.

        >>> ITALIAN.changes_from(KLONDIKE)["ranks"]
        ('A', 'K', 'Q', 'J', '10', '9', '8', '7')
        """
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != getattr(base, f.name)}

    def column_rule(self) -> str:
        """The tableau building rule in words, with an example: the order a column is built in, bottom first.

        >>> KLONDIKE.column_rule()
        'a card goes on the card just before it in the order K Q J 10 9 8 7 6 5 4 3 2 A (an 8 on a 9), of the opposite colour'
        """
        colour = {"alternate": ", of the opposite colour", "suit": ", of the same suit", "any": ""}[self.build]
        order = list(self.ranks) if self.columns_follow_foundation_order else list(reversed(self.ranks))
        i = order.index("8") if "8" in order[1:] else 1  # the example: an 8 if the deck has one
        example = f"{rank_phrase(order[i])} on {rank_phrase(order[i - 1])}"
        return f"a card goes on the card just before it in the order {' '.join(order)} ({example}){colour}"

    def empty_column_rule(self) -> str:
        """What an empty column takes, in words.

        >>> KLONDIKE.empty_column_rule(), SOLIJOY.empty_column_rule()
        ('an empty column takes only a King', 'an empty column takes any card')
        """
        if self.empty_column_ranks is None:
            return "an empty column takes any card"
        return "an empty column takes only " + " or ".join(rank_phrase(r) for r in self.empty_column_ranks)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_UNWRITABLE = re.compile(r"[\x00-\x1f\ud800-\udfff\ufffe\uffff]")  # neither UTF-8 (a lone surrogate) nor XML (SVG)
_TYPES = {"str": (lambda x: isinstance(x, str) and not _UNWRITABLE.search(x),  # check, in words
                  "text without control characters or lone surrogates"), "int": (_whole, "a whole number"),
          "bool": (lambda x: isinstance(x, bool), "True or False"), "None": (lambda x: x is None, "None"),
          "tuple[int, ...]": (lambda x: isinstance(x, tuple) and all(map(_whole, x)), "a tuple of whole numbers"),
          "tuple[str, ...]": (lambda x: isinstance(x, tuple) and all(isinstance(r, str) for r in x),
                              "a tuple of rank names")}


def rank_phrase(rank: str) -> str:
    """A card of this rank, in words.

    >>> rank_phrase("K"), rank_phrase("A"), rank_phrase("8"), rank_phrase("10")
    ('a King', 'an Ace', 'an 8', 'a 10')
    """
    return {"K": "a King", "Q": "a Queen", "J": "a Jack", "A": "an Ace", "8": "an 8"}.get(rank, f"a {rank}")


KLONDIKE = Variant("Klondike")
SOLIJOY = Variant("SoliJoy", decks=2, columns=tuple(range(1, 10)), empty_column_ranks=None, waste_to_foundation=False)
ITALIAN = Variant("Italian 32-card", ranks=("A", "K", "Q", "J", "10", "9", "8", "7"), empty_column_ranks=None,
                  columns_follow_foundation_order=True, auto_flip=True, aces_aside=True)
VARIANTS: dict[str, Variant] = {"klondike": KLONDIKE, "solijoy": SOLIJOY, "italian": ITALIAN}


def get_variant(variant: str | Variant) -> Variant:
    """A Variant from itself or its registry key ('klondike', 'solijoy', 'italian').

    >>> get_variant(" Italian ").name
    'Italian 32-card'

    Raises:
        ValueError: for a name that is not a registered variant.
    """
    if isinstance(variant, Variant):
        return variant
    v = VARIANTS.get(variant.strip().lower()) if isinstance(variant, str) else None
    if v is None:
        raise ValueError(f"unknown variant {quote(variant)}: choose one of {', '.join(VARIANTS)} or pass a Variant")
    return v
