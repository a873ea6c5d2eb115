"""Play in Jupyter: one card table per game, drawn in the browser by a small ES module (anywidget).

``solitaire.play("klondike", seed=1)`` or ``game.widget()`` gives a :class:`GameWidget`. The Python ``Game``
is the single source of truth; after each action the widget sends one small state (what a player may see,
the selection, the highlight and the last message) and the front end (``table.js``) draws the table.
"""
from __future__ import annotations

from ..game import Game
from ..variants import Variant
from .aids import safe_foundation_move
from .play import Selection
from .table import GameWidget

__all__ = ["GameWidget", "Selection", "play", "safe_foundation_move"]


def play(variant: str | Variant = "klondike", seed: int = 0, **options) -> GameWidget:
    """Deal a game and show it as a card table: ``solitaire.play("klondike", seed=1)``.

    ``options`` go to the table: ``theme="dark"`` (or "light", "auto"), ``four_colour=True``.
    """
    return GameWidget(Game(variant, seed), **options)
