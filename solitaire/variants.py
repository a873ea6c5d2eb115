"""Variants are data: every rule of a game is a field of a frozen dataclass."""
from __future__ import annotations

from dataclasses import dataclass, fields

from .cards import RANK_NAMES

STANDARD_RANKS = tuple(RANK_NAMES[1:])
BUILDS = ("alternate", "suit", "any")


@dataclass(frozen=True)
class Variant:
    """The rules of one Klondike-family game.

    ``ranks`` lists the ranks in foundation order (the first one starts a foundation).
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
        problems = list(self._problems())
        if problems:
            raise ValueError(f"invalid variant {self.name!r}: " + "; ".join(problems))

    def __hash__(self) -> int:
        # A variant is hashed every time its compiled rules are looked up, so the hash is worked out once.
        if "_hash" not in self.__dict__:
            object.__setattr__(self, "_hash", hash(tuple(getattr(self, f.name) for f in fields(self))))
        return self.__dict__["_hash"]

    def __getstate__(self) -> dict:
        # String hashes differ between processes: a pickled variant works its hash out again.
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    def _problems(self):
        if len(set(self.ranks)) != len(self.ranks) or not self.ranks:
            yield f"ranks must be distinct and non-empty, got {self.ranks!r}"
        if not set(self.ranks) <= set(STANDARD_RANKS):
            yield f"ranks must come from {' '.join(STANDARD_RANKS)}, got {self.ranks!r}"
        if not 1 <= self.decks <= 4:
            yield f"decks must be 1 to 4, got {self.decks!r}"
        if not self.columns or min(self.columns) < 1 or len(self.columns) > 16:
            yield f"columns must be a tuple of 1 to 16 card counts, each >= 1, got {self.columns!r}"
        elif sum(self.columns) > self.deck_size:
            yield f"the deal needs {sum(self.columns)} cards but the deck has only {self.deck_size}"
        elif self.aces_aside and sum(self.columns) + self.foundations > self.deck_size:
            yield (f"with aces_aside the deal may need {sum(self.columns) + self.foundations} cards "
                   f"but the deck has only {self.deck_size}")
        if not 1 <= self.face_up <= min(self.columns or (1,)):
            yield f"face_up must be between 1 and the smallest column ({min(self.columns or (1,))}), got {self.face_up!r}"
        if self.empty_column_ranks is not None and not set(self.empty_column_ranks) <= set(self.ranks):
            yield f"empty_column_ranks {self.empty_column_ranks!r} must be ranks of the deck (or None for any card)"
        if self.build not in BUILDS:
            yield f"build must be one of {BUILDS}, got {self.build!r}"
        if not 1 <= self.draw <= 52:
            yield f"draw must be 1 or more (cards turned per draw), got {self.draw!r}"
        if self.passes is not None and self.passes < 1:
            yield f"passes must be None (unlimited) or at least 1, got {self.passes!r}"

    @property
    def deck_size(self) -> int:
        return 4 * len(self.ranks) * self.decks

    @property
    def foundations(self) -> int:
        return 4 * self.decks

    @property
    def key(self) -> str | None:
        """The registry key of this exact variant, or None for a custom one."""
        return next((k for k, v in VARIANTS.items() if v == self), None)

    def changes_from(self, base: Variant) -> dict[str, object]:
        """The fields in which this variant differs from ``base``."""
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != getattr(base, f.name)}

    def column_rule(self) -> str:
        """The tableau building rule in words."""
        colour = {"alternate": " and the opposite colour", "suit": " and the same suit", "any": ""}[self.build]
        order = " ".join(reversed(self.ranks)) if not self.columns_follow_foundation_order else " ".join(self.ranks)
        return f"a column card needs the next higher rank (in the order {order}){colour}"

    def empty_column_rule(self) -> str:
        if self.empty_column_ranks is None:
            return "an empty column takes any card"
        return "an empty column takes only " + " or ".join(rank_phrase(r) for r in self.empty_column_ranks)


def rank_phrase(rank: str) -> str:
    """'a King', 'an Ace', 'an 8', 'a 10': a card of this rank, in words."""
    return {"K": "a King", "Q": "a Queen", "J": "a Jack", "A": "an Ace", "8": "an 8"}.get(rank, f"a {rank}")


KLONDIKE = Variant("Klondike")
SOLIJOY = Variant("SoliJoy", decks=2, columns=tuple(range(1, 10)), empty_column_ranks=None, waste_to_foundation=False)
ITALIAN = Variant("Italian 32-card", ranks=("A", "K", "Q", "J", "10", "9", "8", "7"), empty_column_ranks=None,
                  columns_follow_foundation_order=True, auto_flip=True, aces_aside=True)
VARIANTS: dict[str, Variant] = {"klondike": KLONDIKE, "solijoy": SOLIJOY, "italian": ITALIAN}


def get_variant(variant: str | Variant) -> Variant:
    """A Variant from itself or its registry key ('klondike', 'solijoy', 'italian')."""
    if isinstance(variant, Variant):
        return variant
    v = VARIANTS.get(str(variant).strip().lower())
    if v is None:
        raise ValueError(f"unknown variant {variant!r}: choose one of {', '.join(VARIANTS)} or pass a Variant")
    return v
