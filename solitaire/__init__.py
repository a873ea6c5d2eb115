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
    """An import hook for the kit's own modules: under ``SOLITAIRE_PURE=1``, or when the sources of some compiled
    module changed since the build (an edit after ``pip install -e .``), every module is imported from its ``.py``
    (compiled modules call each other directly, so a stale build runs as a whole in pure Python, never in part).
    The build records the hashes of each compiled module's sources in ``_compiled.json``."""

    def __init__(self) -> None:
        self.pure = _os.environ.get("SOLITAIRE_PURE", "").strip() not in ("", "0")
        self.built: dict[str, dict[str, str]] = {}
        manifest = _os.path.join(_os.path.dirname(__file__), "_compiled.json")
        if _os.path.exists(manifest):
            import json
            with open(manifest, encoding="utf-8") as f:
                self.built = json.load(f).get("modules", {})
        here = _os.path.dirname(_os.path.dirname(__file__))
        self.stale = [name for name, hashes in self.built.items()  # modules whose sources changed since the build
                      if not _built_from(_os.path.join(here, *name.split(".")), hashes)]

    def find_spec(self, name, path=None, target=None):
        if not name.startswith(__name__ + ".") or not path:
            return None
        base = _os.path.join(path[0], name.rpartition(".")[2])
        if not (self.pure or self.stale) or not any(_os.path.exists(base + s) for s in _EXTENSIONS):
            return None  # the usual import, which prefers a compiled file
        return _util.spec_from_file_location(name, base + ".py")


def _built_from(base: str, hashes: dict | None) -> bool:
    """Are the sources beside a compiled module the ones it was built from (``hashes``, as setup.py recorded
    them)? Its ``.py`` must be unchanged, and its ``.pxd`` too where there is one (a wheel leaves it out)."""
    import hashlib
    if not hashes:
        return False
    for suffix in (".py", ".pxd"):
        if suffix == ".py" or _os.path.exists(base + suffix):
            with open(base + suffix, "rb") as f:
                if hashlib.sha256(f.read()).hexdigest() != hashes.get(suffix):
                    return False
    return True


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
        return f"{head}: partly compiled ({compiled} of {len(running)} modules)"
    if _HOOK.pure and running:
        return f"{head}: pure Python (SOLITAIRE_PURE is set; {len(running)} modules are compiled)"
    if _HOOK.stale:
        return (f"{head}: pure Python ({', '.join(_HOOK.stale)} changed since the build: pip install -e . "
                "compiles them again)")
    return f"{head}: pure Python (no compiled modules: the kit was installed without a C compiler)"
