"""pytest settings for the whole suite. With the compiled build (``setup.py``), a module's ``__file__`` is its
compiled file, not the ``.py`` that ``--doctest-modules`` collects: pytest is told not to refuse that (its import
mismatch check), so the doctests run on the module as it is imported, compiled or not (``SOLITAIRE_PURE=1``)."""
import os
from pathlib import Path

if (Path(__file__).parent / "solitaire" / "_compiled.json").exists():
    os.environ.setdefault("PY_IGNORE_IMPORTMISMATCH", "1")
