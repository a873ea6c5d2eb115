"""A teaching kit for Klondike-family solitaire: rules, play, search and experiments.

Importing the package loads only the rules core (cards, variants, state, moves, endgame); ``Game``, the solver
and the card table load when first used.
"""
from .cards import Card, InvalidCardError, card, parse_card
from .endgame import Outcome
from .engine import Engine, use
from .moves import IllegalMoveError, InvalidMoveError, Move, apply, legal_moves
from .state import Observation, Position, deal, observe
from .variants import ITALIAN, KLONDIKE, SOLIJOY, VARIANTS, InvalidVariantError, Variant, get_variant

__all__ = ["Card", "Game", "IllegalMoveError", "InvalidCardError", "InvalidMoveError", "InvalidVariantError",
           "ITALIAN", "KLONDIKE", "Move", "Observation", "Outcome", "Position", "SOLIJOY", "VARIANTS", "Variant",
           "Engine", "apply", "card", "deal", "get_variant", "legal_moves", "move_from_text", "observe", "parse_card", "parse_pile",
           "play", "solve", "use"]


_NOTATION = ("move_from_text", "parse_pile", "Pile", "InvalidPileError", "PileNumberError")  # from solitaire.notation


def __getattr__(name: str):
    """Parts above the rules core load only when used: ``solitaire.Game``, ``solitaire.solve``, ``solitaire.play``,
    and the readers of move and pile names (``solitaire.move_from_text``, ``solitaire.parse_pile``)."""
    if name == "Game":
        from .game import Game
        return Game
    if name == "solve":
        from .solver import solve
        return solve
    if name == "play":
        from .widget import play
        return play
    if name in _NOTATION:
        from . import notation
        return getattr(notation, name)
    raise AttributeError(f"module 'solitaire' has no attribute {name!r}")
