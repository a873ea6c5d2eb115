"""A tournament's results as tables: the games, the leaderboard (wins, Wilson intervals, sign tests), the failures
and a report for a terminal. What an entrant wrote (its reasons) and what a file is called (its name) are shown
with every control character escaped (``printable``), in the report and in the games table: data, never a
command to the terminal."""
from __future__ import annotations

import os
from typing import NamedTuple

from ..endgame import Outcome
from ..stats import sign_test, wilson
from .process import printable
from .results import COLUMNS


class Results(NamedTuple):
    """A tournament's games (one dict a game, ``COLUMNS``), and the entrants left out with why."""

    rows: list[dict]
    left_out: dict[str, str]

    def leaderboard(self) -> list[dict]:
        return leaderboard(self.rows)

    def failures(self) -> list[dict]:
        return failures(self.rows)

    def table(self):
        """The games as a pandas DataFrame (the seeds, revealed, as whole numbers)."""
        import pandas as pd
        return pd.DataFrame(self.rows, columns=COLUMNS)

    def __str__(self) -> str:
        return report(self)



# --- the leaderboard -----------------------------------------------------------------------------------------
def leaderboard(rows: list[dict], z: float = 1.96) -> list[dict]:
    """One row an entrant, most wins first: games, wins, win rate with its Wilson interval, failures, and the
    sign test against the next entrant down (deals only this one won, only the next won, p-value).

    >>> rows = [{"entrant": e, "variant": "klondike", "number": n, "outcome": o, "reason": ""}
    ...         for e, outs in (("a", "wwwl"), ("b", "wlll")) for n, o in enumerate(outs)]
    >>> rows = [r | {"outcome": "won" if r["outcome"] == "w" else "lost"} for r in rows]
    >>> [(r["entrant"], r["wins"], r["only_this"], r["only_next"]) for r in leaderboard(rows)]
    [('a', 3, 2, 0), ('b', 1, None, None)]
    """
    won = _won_deals(rows)
    board = []
    for name, deals in won.items():
        games = sum(1 for r in rows if r["entrant"] == name)
        wins = sum(deals.values())
        low, high = wilson(wins, games, z)
        board.append({"entrant": name, "games": games, "wins": wins, "win_rate": wins / games if games else 0.0,
                      "low": low, "high": high, "failures": sum(1 for r in rows if r["entrant"] == name and r.get("reason"))})
    board.sort(key=lambda r: (-r["wins"], r["entrant"]))
    for this, below in zip(board, board[1:] + [None]):
        a, b = (None, None) if below is None else _split(won[this["entrant"]], won[below["entrant"]])
        this.update(only_this=a, only_next=b, p_next=None if a is None else sign_test(a, b))
    return board


def pairs(rows: list[dict]) -> list[dict]:
    """The sign test between every two entrants (on the deals both played): who won more deals alone, and p.

    >>> rows = [{"entrant": e, "variant": "klondike", "number": n, "outcome": "won" if n < w else "lost"}
    ...         for e, w in (("a", 5), ("b", 0)) for n in range(5)]
    >>> pairs(rows)
    [{'first': 'a', 'second': 'b', 'only_first': 5, 'only_second': 0, 'p': 0.0625}]
    """
    won = _won_deals(rows)
    names = [r["entrant"] for r in leaderboard(rows)]
    out = []
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            a, b = _split(won[first], won[second])
            out.append({"first": first, "second": second, "only_first": a, "only_second": b, "p": sign_test(a, b)})
    return out


def _won_deals(rows: list[dict]) -> dict[str, dict[tuple, bool]]:
    won: dict[str, dict[tuple, bool]] = {}
    for r in rows:
        won.setdefault(r["entrant"], {})[(r["variant"], r["number"])] = r["outcome"] == Outcome.WON
    return won


def _split(first: dict, second: dict) -> tuple[int, int]:
    both = first.keys() & second.keys()
    return (sum(first[d] and not second[d] for d in both), sum(second[d] and not first[d] for d in both))


def failures(rows: list[dict]) -> list[dict]:
    """Each entrant's lost games by what went wrong (timed out, crashed, illegal answer, ...), with an example.

    >>> failures([{"entrant": "a", "reason": "timed out: more than 1 s of CPU for a move"},
    ...           {"entrant": "a", "reason": ""}, {"entrant": "a", "reason": "timed out: no answer within 5 s"}])
    [{'entrant': 'a', 'failure': 'timed out', 'games': 2, 'example': 'timed out: more than 1 s of CPU for a move'}]
    """
    out: dict[tuple, dict] = {}
    for r in rows:
        if r["reason"]:
            kind = r["reason"].split(":")[0]
            item = out.setdefault((r["entrant"], kind), {"entrant": r["entrant"], "failure": kind, "games": 0,
                                                          "example": r["reason"]})
            item["games"] += 1
    return sorted(out.values(), key=lambda f: (f["entrant"], -f["games"]))


def report(results: Results, all_pairs: bool = False) -> str:
    """The leaderboard, the failures and the entrants left out, as text for a terminal.

    >>> rows = [{"entrant": "a", "variant": "k", "number": 0, "outcome": "won", "reason": ""}]
    >>> print(report(Results(rows, {"b": "import failed: SyntaxError"})).splitlines()[1])
       1  a                         1     1    100.0%  [20.7%, 100.0%]         0
    """
    lines = [f"{'rank':>4}  {'entrant':<20} {'games':>6} {'wins':>5} {'win rate':>9}  {'95% interval':<16} "
             f"{'failures':>8}  sign test with the next (deals won alone, p)"]
    for i, r in enumerate(results.leaderboard(), 1):
        vs = "" if r["p_next"] is None else f"{r['only_this']} to {r['only_next']}, p = {r['p_next']:.3g}"
        interval = f"[{r['low']:.1%}, {r['high']:.1%}]"
        lines.append(f"{i:>4}  {r['entrant'][:20]:<20} {r['games']:>6} {r['wins']:>5} {r['win_rate']:>9.1%}  "
                     f"{interval:<16} {r['failures']:>8}  {vs}".rstrip())
    if all_pairs:
        lines += ["", "every pair (deals won alone by each, sign test):"]
        lines += [f"  {p['first']} against {p['second']}: {p['only_first']} to {p['only_second']}, p = {p['p']:.3g}"
                  for p in pairs(results.rows)]
    fails = results.failures()
    lines += ["", "failures:" if fails else "failures: none"]
    lines += [f"  {f['entrant']:<20} {f['failure']:<15} {f['games']:>4} games, e.g. {f['example'][:90]}" for f in fails]
    lines += [f"left out {name}: {why}" for name, why in results.left_out.items()]
    return "\n".join(map(printable, lines))


def write_table(results: Results, path: str | os.PathLike) -> None:
    """One CSV row a game: entrant, variant, deal number, seed (revealed), outcome, reason, moves, ... (text
    with its control characters escaped).

    >>> import tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "games.csv")
    >>> write_table(Results([dict.fromkeys(COLUMNS, 1)], {}), path)
    >>> open(path).readline().strip()
    'entrant,variant,number,seed,outcome,reason,moves,on_foundations,seconds'
    """
    import csv
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, COLUMNS)
        writer.writeheader()
        writer.writerows({k: printable(v) if isinstance(v, str) else v for k, v in r.items()} for r in results.rows)
