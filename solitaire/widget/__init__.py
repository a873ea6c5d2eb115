"""Play in Jupyter: one card table per game, drawn in the browser by a small ES module (anywidget).

``solitaire.play("klondike", seed=1)`` or ``solitaire.play(game)`` gives a :class:`GameWidget`. The Python ``Game``
is the single source of truth; after each action the widget sends one small state (what a player may see,
the selection, the highlight and the last message) and the front end (``table.js``) draws the table.
"""
from __future__ import annotations

from ..engine import Engine
from ..game import Game
from ..validity import validate
from ..variants import Variant
from .aids import safe_foundation_move
from .play import Selection, say_unwritten
from .table import GameWidget

__all__ = ["GameWidget", "Selection", "play", "safe_foundation_move"]


def play(game: Game | str | Variant = "klondike", seed: int = 0, *, use: Engine | None = None, **options) -> GameWidget:
    """Show a game as a card table: a new deal, ``solitaire.play("klondike", seed=1)``, or a game already
    made, ``solitaire.play(Game.from_pysol(layout))`` (the table plays on that very Game; ``seed`` is then unused).

    ``options`` go to the table: ``theme="dark"`` (or "light", "auto"), ``four_colour=True``, and
    ``aids=False`` for a table to play by hand (no Hint, Solution, Auto-finish or Win chance buttons).

    ``use=solitaire.use(waste_moves=my_waste_moves)`` plays on the rules with a student's piece in place of the
    kit's (``solitaire.engine``): a wrong piece shows as a move the table offers and the rules refuse, or as a
    legal move it refuses. Such a table has no aids (the solver plays by the kit's rules), unless ``aids=True``.
    A piece that is still a lesson's stub (it raises NotImplementedError) is played by the kit's own, and the
    status line says so: at once for a piece the deal calls (``fits``, ``stock_moves``, ``column_moves``), after the
    move that first calls it for the others (the waste's moves, the draw, a move between columns).

    >>> table = play("klondike", seed=1, aids=False)
    >>> table.show_solution(); table.message
    'Solution is switched off on this table (it was made with aids=False): play on by hand, or open a table with aids, solitaire.play(game), to use it.'

    Raises:
        solitaire.validity.InvalidPositionError: (a ValueError) for a game whose start or position no game of its
            variant could reach, naming each reason (``solitaire.validity.status``).
    """
    if use is not None and not isinstance(use, Engine):
        raise TypeError(f"use= takes an engine made with solitaire.use(...), not {type(use).__name__} {use!r}")
    if use is not None:
        options.setdefault("aids", False)
    if isinstance(game, Game):
        for position in (game.start, game.position):  # a table shows only what play could reach
            validate(position)
        if use is not None:
            game.engine, game._legal = use, None
        table = GameWidget(game, **options)
    else:
        table = GameWidget(Game(game, seed, engine=use), **options)
    if use is not None and use.unwritten:  # a student copy's stub met in dealing: the kit's piece plays instead
        say_unwritten(table)
        table._send_state()
    return table
