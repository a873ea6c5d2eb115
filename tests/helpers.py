"""Build positions for story tests: name the piles that matter, the rest of the deck goes to the stock."""
from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

from solitaire import Card, Position, Variant, parse_card
from solitaire.cards import full_deck


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in text.split())


def make(variant: Variant, columns: list[str], *, hidden: list[int] | None = None, waste: str = "",
         foundations: list[str] | None = None, stock: str | None = None, recycles: int = 0) -> Position:
    """A position with the given piles; unnamed cards fill the stock (when a stock is given, they are left out)."""
    cols = [cards(c) for c in columns] + [()] * (len(variant.columns) - len(columns))
    founds = [cards(f) for f in (foundations or [])] + [()] * (variant.foundations - len(foundations or []))
    w = cards(waste)
    used = Counter(c for pile in (*cols, *founds, w) for c in pile)
    rest = list((Counter(full_deck(variant.ranks, variant.decks)) - used).elements())
    s = cards(stock) if stock is not None else tuple(rest)
    return Position(variant, s, w, tuple(founds), tuple(cols), tuple((hidden or []) + [0] * (len(cols) - len(hidden or []))), recycles)


def uncover_first(obs, moves):
    """A student's strategy for the tests: flips, then moves that uncover a face-down card, then foundations,
    the waste and draws; builds last."""
    def priority(m):
        if m.kind == "flip":
            return 0
        if m.kind == "t>t" and obs.hidden[m.source] > 0 and m.count == len(obs.columns[m.source]):
            return 1
        return {"t>f": 2, "w>t": 3, "w>f": 4, "draw": 5, "recycle": 5}.get(m.kind, 6)
    return min(moves, key=priority)


def foreign_database(path: Path, *, wal: bool = False) -> Path:
    """Another program's SQLite file (a ``scores`` table, one row), in WAL mode if ``wal``: no results file."""
    db = sqlite3.connect(path)
    if wal:
        db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE scores (player TEXT, points INTEGER)")
    db.execute("INSERT INTO scores VALUES ('ana', 3)")
    db.commit()
    db.close()
    return path
