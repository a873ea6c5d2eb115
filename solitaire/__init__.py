"""A teaching kit for Klondike-family solitaire: rules, play, search and experiments."""
from .cards import Card, InvalidCardError, card, parse_card
from .moves import IllegalMoveError, InvalidMoveError, Move, apply, legal_moves
from .state import Observation, Position, deal, observe
from .variants import ITALIAN, KLONDIKE, SOLIJOY, VARIANTS, Variant, get_variant
from .game import Game

__all__ = ["Card", "Game", "IllegalMoveError", "InvalidCardError", "InvalidMoveError", "ITALIAN", "KLONDIKE", "Move",
           "Observation", "Position", "SOLIJOY", "VARIANTS", "Variant", "apply", "card", "deal", "get_variant",
           "legal_moves", "observe", "parse_card", "play", "solve"]


def __getattr__(name: str):
    """Heavier parts load only when used: ``solitaire.solve`` and ``solitaire.play``."""
    if name == "solve":
        from .solver import solve
        return solve
    if name == "play":
        from .widget import play
        return play
    raise AttributeError(f"module 'solitaire' has no attribute {name!r}")
