"""Memory kept by loading saved games: 3,000 loads in one process should grow memory by less than 2 MB.

    python benchmarks/bench_memory.py [--games 3000] [--moves 30]

Saves ``--games`` games (a mix of the three variants and custom ones such as Klondike draw 3, each with up
to ``--moves`` seeded random moves and one move undone), then loads every one with ``Game.from_json``
and ``Game.from_text`` and lets the game go, as a class working through saved exercises would. Reported:
the memory Python holds (``tracemalloc``, after a garbage collection) before and after the loads, and the
process's peak resident size. Every load makes a new ``Variant`` object, which is what used to fill the
rules cache (one compiled table set per object, kept for ever).
"""
from __future__ import annotations

import argparse
import gc
import random
import resource
import time
import tracemalloc
from dataclasses import replace

from solitaire import ITALIAN, KLONDIKE, SOLIJOY, Game

MIX = [KLONDIKE, SOLIJOY, ITALIAN, replace(KLONDIKE, draw=3), replace(KLONDIKE, draw=3, passes=3),
       replace(ITALIAN, draw_only_when_stuck=True), replace(SOLIJOY, waste_to_foundation=True)]


def saved_games(n: int, moves: int) -> list[tuple[str, str]]:
    """(JSON, position text) of ``n`` games with a few random moves each."""
    rng = random.Random(3)
    out = []
    for i in range(n):
        g = Game(MIX[i % len(MIX)], seed=i)
        for _ in range(rng.randrange(moves + 1)):
            legal = g.legal_moves()
            if not legal:
                break
            g.play(rng.choice(legal))
        if g.can_undo():
            g.undo()
        out.append((g.to_json(), g.to_text()))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--moves", type=int, default=30)
    args = parser.parse_args()
    texts = saved_games(args.games, args.moves)
    for saved, text in texts[:len(MIX)]:  # warm up: the registered variants' tables, the move cache
        Game.from_json(saved), Game.from_text(text)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    start = time.perf_counter()
    for saved, text in texts:
        Game.from_json(saved)
        Game.from_text(text)
    seconds = time.perf_counter() - start
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    print(f"{args.games:,} saved games loaded twice each (from_json and from_text) in {seconds:.1f} s")
    print(f"Python memory held: {before / 2**20:.2f} MB before, {after / 2**20:.2f} MB after: "
          f"grew by {(after - before) / 1024:,.1f} KB (target < 2 MB)")
    print(f"peak resident size of the process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
