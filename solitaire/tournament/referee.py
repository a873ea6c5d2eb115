"""The referee's side of a tournament: the games played against an entrant, and what it has left of its time.

``play_games`` is the task a worker (a local thread, or a Dask worker) runs: it deals each seed in this process,
plays the games through the kit's one game loop (``strategies.game_loop``, as ``play_game`` does) against an
``EntrantProcess`` (``solitaire.tournament.process``), ends whatever the entrant started when each game ends,
and restarts the entrant after any failure. Every load and every game comes out of the entrant's ``Budget`` for
the tournament: its wall-clock seconds, and the games it may still lose to a limit; once either is spent, its
remaining games are forfeited, with that reason.
"""
from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from typing import NamedTuple

from ..endgame import LOST
from ..state import deal
from ..strategies import game_loop
from .process import (KIT_ENTRANTS, ONE_THREAD, EntrantFailure, EntrantProcess, Entry, Limits, printable,  # noqa: F401
                      untrusted)

STRIKES = ("timed out", "memory limit", "process limit", "not reading", "import failed")  # failures that count


def strike(reason: str) -> bool:
    """Whether a game lost for ``reason`` counts towards forfeiting: a limit reached (time, memory, processes), a
    pipe left full, or a reload that failed. An illegal or unreadable move, or a crash, loses that game only.

    >>> strike("timed out: the game took more than 5 s"), strike("illegal answer: answered t8>t2:3, ..."), strike("")
    (True, False, False)
    """
    return reason.split(":", 1)[0] in STRIKES


class Budget(NamedTuple):
    """What an entrant has left of the tournament: wall-clock seconds for its loads and games (of ``total``),
    and games it may still lose to a limit (``strike``) before it forfeits the rest."""

    seconds: float
    strikes: int
    total: float
    forfeited: str = ""  # why it forfeited, once it has

    @classmethod
    def of(cls, limits: Limits, games: int, rows=()) -> Budget:
        """The budget for ``games`` games, less what the ``rows`` already played used.

        >>> Budget.of(Limits(), 20, [{"seconds": 4.0, "reason": "timed out: ..."}])
        Budget(seconds=126.0, strikes=2, total=130.0, forfeited='')
        """
        total = limits.entrant_seconds if limits.entrant_seconds is not None else (
            limits.load_seconds + limits.game_seconds * games)
        return cls(total, limits.failures, total).after(rows)

    def after(self, rows) -> Budget:
        """What is left once the games of ``rows`` have been played (a forfeited game ends the budget)."""
        rows = list(rows)
        forfeited = [r["reason"] for r in rows if r["reason"].startswith("forfeited")]
        if forfeited:
            return self._replace(forfeited=forfeited[0])
        return self._replace(seconds=self.seconds - sum(r["seconds"] for r in rows),
                             strikes=self.strikes - sum(strike(r["reason"]) for r in rows))

    def forfeit(self, limits: Limits) -> str:
        """"" while the entrant may play, else why it forfeits its remaining games."""
        if self.forfeited:
            return self.forfeited
        if self.strikes <= 0:
            return (f"forfeited: it lost {limits.failures} games to its limits (time, memory, processes), so it "
                    "plays no more")
        if self.seconds <= 0:
            return f"forfeited: it used up its {self.total:g} s for the tournament (loads and games)"
        return ""


def play_games(entry: Entry, label: str, variant, deals: list[tuple[int, int]], limits: Limits,
               log: str | None = None, hidden: tuple = (), left: Budget | None = None) -> list[dict]:
    """Play the deals ``[(number, seed), ...]`` against one entrant: one row each (a task for a worker). ``left``:
    what the entrant has left of its tournament (default: a budget for these deals alone).

    >>> from solitaire import KLONDIKE
    >>> bad = Entry("bad", "source", ("def choose(obs, moves):\\n    return 'jump'\\n", "bad.py"), "-")
    >>> [(r["outcome"], r["reason"][:45]) for r in play_games(bad, "klondike", KLONDIKE, [(0, 7)], Limits())]
    [('lost', "not a move: cannot read a move from 'jump': w")]
    >>> spent = Budget.of(Limits(), 1)._replace(strikes=0)
    >>> play_games(bad, "klondike", KLONDIKE, [(0, 7)], Limits(), left=spent)[0]["reason"][:40]
    'forfeited: it lost 3 games to its limits'
    """
    rows = []
    left = left if left is not None else Budget.of(limits, len(deals))
    entrant = EntrantProcess(entry, limits, log, hidden)
    with referee_memory_hidden():
        try:
            for number, seed in deals:
                why = left.forfeit(limits)
                result = (LOST, 0, 0, why, 0.0) if why else referee_game(entrant, variant, seed, limits, left)
                rows.append(_row(entry, label, number, seed, *result))
                left = left.after(rows[-1:])
        finally:
            entrant.stop()
    return rows


def referee_game(entrant: EntrantProcess, variant, seed: int, limits: Limits, left: Budget | None = None) -> tuple:
    """Play one deal against the entrant through ``game_loop`` (as ``play_game`` does): the outcome, moves
    played, cards on the foundations, the reason it lost by failing ("" if none) and the seconds taken, its
    load included when the entrant had to be started (a restart after a failure counts in the game's time).

    >>> from solitaire import KLONDIKE
    >>> entrant = EntrantProcess(Entry("greedy", "source", ("from solitaire.players import GreedyStrategy\\n"
    ...                                                      "strategy = GreedyStrategy()\\n", "greedy.py"), "-"), Limits())
    >>> outcome, moves, _, reason, _ = referee_game(entrant, KLONDIKE, 3, Limits())
    >>> entrant.stop()
    >>> from solitaire.strategies import play_game
    >>> (str(outcome), moves, reason) == (str(play_game(KLONDIKE, 3, "greedy").outcome), play_game(KLONDIKE, 3, "greedy").moves, "")
    True
    """
    start, clock = time.perf_counter(), time.monotonic()
    left = left if left is not None else Budget.of(limits, 1)
    spent = clock + left.seconds, f"it used up its {left.total:g} s for the tournament (loads and games)"

    def pick(p, moves):
        answer = entrant.ask(p, moves)  # only what a player sees of p is sent
        if entrant.use_rank:
            return [moves[i] for i in answer or ()]
        return None if answer is None else moves[answer]

    reload = entrant.proc is None and entrant.starts > 0
    why = f"the game took more than {limits.game_seconds:g} s" + (", its reload after a failure included" if reload else "")
    try:
        if entrant.proc is None and not reload:
            entrant.start(*spent)
            clock = time.monotonic()  # a first load is not the game's
        elif reload:
            entrant.start(*min((clock + limits.game_seconds, why), spent))
        entrant.new_game(variant, *min((clock + limits.game_seconds, why), spent))
        outcome, played, p = game_loop(deal(variant, seed), pick, entrant.use_rank, limits.max_moves)
        entrant.end_game()
        return outcome, played, p.on_foundations(), "", time.perf_counter() - start
    except EntrantFailure as e:
        entrant.stop()
        return LOST, 0, 0, str(e), time.perf_counter() - start


def _row(entry: Entry, label: str, number: int, seed: int, outcome, played, on_foundations, reason, seconds) -> dict:
    return {"entrant": entry.name, "fingerprint": entry.fingerprint, "variant": label, "number": number, "seed": seed,
            "outcome": str(outcome), "reason": reason, "moves": played, "on_foundations": on_foundations,
            "seconds": seconds}


_HIDDEN = {"users": 0, "before": 1}  # referees (threads) playing now, and the flag to restore after the last
_HIDDEN_LOCK = threading.Lock()


@contextlib.contextmanager
def referee_memory_hidden():
    """While games are played, make this process non-dumpable (Linux): then no process without CAP_SYS_PTRACE,
    not even one of the same user, can read its memory through /proc/<pid>/mem (the entrants drop that
    capability). Several referee threads may play at once: the flag is restored after the last one.

    >>> with referee_memory_hidden():
    ...     open(f"/proc/{os.getpid()}/status").read().count("Name") if sys.platform == "linux" else 1
    1
    """
    try:
        import ctypes
        prctl = ctypes.CDLL(None).prctl
    except (OSError, AttributeError):
        yield
        return
    with _HIDDEN_LOCK:
        if _HIDDEN["users"] == 0:
            _HIDDEN["before"] = prctl(3, 0, 0, 0, 0)  # PR_GET_DUMPABLE
            prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE: 0
        _HIDDEN["users"] += 1
    try:
        yield
    finally:
        with _HIDDEN_LOCK:
            _HIDDEN["users"] -= 1
            if _HIDDEN["users"] == 0:
                prctl(4, _HIDDEN["before"] if _HIDDEN["before"] in (0, 1) else 1, 0, 0, 0)
