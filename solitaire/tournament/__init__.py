"""The class tournament: every entrant plays the same secret deals, each in its own sandboxed process.

- ``solitaire.tournament.api``: ``run``, ``collect`` and the entries (a file, or a notebook's own strategy object);
- ``solitaire.tournament.referee``: the games (through the kit's one game loop) and each entrant's budget;
- ``solitaire.tournament.process``: the entrant's process, its limits, and what it lost a game by;
- ``solitaire.tournament.entrant``: the entrant's side of the pipes;
- ``solitaire.tournament.sandbox``: bubblewrap's namespaces, cgroups, and what a machine offers;
- ``solitaire.tournament.seccomp``: the system calls an entrant is refused;
- ``solitaire.tournament.results`` and ``board``: the results file, the leaderboard and the report.

Everything is reachable from here (``tournament.run``, ``tournament.Limits``, ...), loaded when first asked for,
so that an entrant's process, which imports only ``solitaire.tournament.entrant``, starts quickly.

>>> from solitaire import tournament
>>> tournament.Limits().move_seconds
1.0
"""
from __future__ import annotations

import importlib

_WHERE = {"run": "api", "collect": "api", "entry_from_file": "api", "entry_from_object": "api",
          "check_entries": "api", "ENTRANTS": "api", "BATCH": "api",
          "Entry": "referee", "Limits": "referee", "EntrantFailure": "referee", "EntrantProcess": "referee",
          "play_games": "referee", "ResultsFile": "results", "COLUMNS": "results", "Results": "board",
          "leaderboard": "board", "pairs": "board", "failures": "board", "report": "board",
          "write_table": "board", "detect": "sandbox", "Budget": "referee", "printable": "process"}
__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name in _WHERE:
        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
