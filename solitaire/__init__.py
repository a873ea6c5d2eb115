"""A teaching kit for Klondike-family solitaire: rules, play, search and experiments.

Importing the package loads only the rules core (cards, variants, state, moves, endgame); ``Game``, the solver
and the card table load when first used.

Where a C compiler was found when the kit was installed, the modules that do the work are compiled from their
own source (``setup.py``); the ``.py`` files are the same code, and run as they are everywhere else, or when
``SOLITAIRE_PURE=1`` is set. ``info()`` says which runs.
"""
import importlib.util as _util
import os as _os
import sys as _sys
from importlib.machinery import EXTENSION_SUFFIXES as _EXTENSIONS


class _CompiledOrSource:
    """An import hook for the kit's own modules: a module compiled from other sources than the ``.py`` beside it
    now (a build older than an edit) is imported from its ``.py`` instead, and so is every module under
    ``SOLITAIRE_PURE=1``. The build records each compiled module's source hash in ``_compiled.json``."""

    def __init__(self) -> None:
        self.pure = _os.environ.get("SOLITAIRE_PURE", "").strip() not in ("", "0")
        self.built: dict[str, str] = {}
        self.stale: list[str] = []  # compiled modules that run as pure Python because their source changed
        manifest = _os.path.join(_os.path.dirname(__file__), "_compiled.json")
        if _os.path.exists(manifest):
            import json
            with open(manifest, encoding="utf-8") as f:
                self.built = json.load(f).get("modules", {})

    def find_spec(self, name, path=None, target=None):
        if not name.startswith(__name__ + ".") or not path:
            return None
        base = _os.path.join(path[0], name.rpartition(".")[2])
        if not any(_os.path.exists(base + suffix) for suffix in _EXTENSIONS):
            return None  # not compiled: the usual import
        if not self.pure and self.built.get(name) == _source_hash(base):
            return None  # compiled from the source beside it: the usual import, which prefers the compiled file
        if not self.pure:
            self.stale.append(name)
        return _util.spec_from_file_location(name, base + ".py")


def _source_hash(base: str) -> str:
    """The hash of a module's ``.py`` and ``.pxd`` (as setup.py's ``source_hash`` records it)."""
    import hashlib
    with open(base + ".py", "rb") as f:
        data = f.read() + b"\0"
    if _os.path.exists(base + ".pxd"):
        with open(base + ".pxd", "rb") as f:
            data += f.read()
    return hashlib.sha256(data).hexdigest()


_HOOK = _CompiledOrSource()
_sys.meta_path.insert(0, _HOOK)

from .cards import Card, InvalidCardError, card, parse_card  # noqa: E402 (after the hook: see _CompiledOrSource)
from .endgame import Outcome  # noqa: E402
from .engine import Engine, use  # noqa: E402
from .moves import IllegalMoveError, InvalidMoveError, Move, apply, legal_moves  # noqa: E402
from .state import Observation, Position, deal, observe  # noqa: E402
from .variants import ITALIAN, KLONDIKE, SOLIJOY, VARIANTS, InvalidVariantError, Variant, get_variant  # noqa: E402

__all__ = ["Card", "Game", "IllegalMoveError", "InvalidCardError", "InvalidMoveError", "InvalidVariantError",
           "ITALIAN", "KLONDIKE", "Move", "Observation", "Outcome", "Position", "SOLIJOY", "VARIANTS", "Variant",
           "Engine", "apply", "card", "deal", "get_variant", "info", "legal_moves", "move_from_text", "observe",
           "parse_card", "parse_pile", "play", "solve", "use"]


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


def compiled_modules() -> dict[str, bool]:
    """Each module the build compiled, and whether it runs compiled now (it is imported to find out).

    >>> all(isinstance(running, bool) for running in compiled_modules().values())
    True
    """
    import importlib
    running = {}
    for name in sorted(_HOOK.built):
        module = importlib.import_module(name)
        running[name] = not getattr(module, "__file__", "").endswith(".py")
    return running


def info() -> str:
    """Which build of the kit runs, in one line: compiled (and how many of its modules), or pure Python and why.

    >>> info().startswith("solitaire-kit ")
    True
    """
    try:
        from importlib.metadata import version
        kit = f"solitaire-kit {version('solitaire-kit')}"
    except Exception:  # run from a clone that is not installed
        kit = "solitaire-kit (not installed)"
    head = f"{kit} on Python {_sys.version.split()[0]}"
    running = compiled_modules()
    compiled = sum(running.values())
    if compiled and compiled == len(running):
        return f"{head}: compiled ({compiled} modules)"
    if compiled:
        stale = f"; {', '.join(_HOOK.stale)} changed since the build: run pip install -e . again" if _HOOK.stale else ""
        return f"{head}: partly compiled ({compiled} of {len(running)} modules{stale})"
    if _HOOK.pure and running:
        return f"{head}: pure Python (SOLITAIRE_PURE is set; {len(running)} modules are compiled)"
    if _HOOK.stale:
        return f"{head}: pure Python (the sources changed since the build: run pip install -e . again)"
    return f"{head}: pure Python (no compiled modules: the kit was installed without a C compiler)"
