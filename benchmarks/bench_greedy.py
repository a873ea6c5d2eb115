"""Greedy (and random) strategy throughput: whole games per second and win rate, per variant.

    python benchmarks/bench_greedy.py [--games 10000] [--workers 2] [--strategy greedy] [--variants klondike,solijoy,italian]

Each game is ``play_game(variant, seed, strategy)`` for seeds 0..games-1 (perfect-memory player, 5000-move cap),
spread over ``--workers`` processes (ProcessPoolExecutor). Target: 10,000 greedy games per variant in <= 60 s
on two cores.
"""
from __future__ import annotations

import argparse
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from solitaire.strategies import play_game


def play_chunk(args: tuple[str, str, int, int]) -> list[tuple[str, int, int]]:
    variant, strategy, first, last = args
    out = []
    for seed in range(first, last):
        r = play_game(variant, seed, strategy)
        out.append((r.outcome, r.moves, r.on_foundations))
    return out


def run(variant: str, strategy: str, games: int, workers: int, chunk: int = 250) -> dict[str, float]:
    jobs = [(variant, strategy, a, min(a + chunk, games)) for a in range(0, games, chunk)]
    start = time.perf_counter()
    results = []
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for part in pool.map(play_chunk, jobs):
                results.extend(part)
    else:
        for job in jobs:
            results.extend(play_chunk(job))
    seconds = time.perf_counter() - start
    outcomes = Counter(o for o, _, _ in results)
    return {"games": len(results), "seconds": seconds, "games/s": len(results) / seconds,
            "won %": 100 * outcomes["won"] / len(results), "moves/game": sum(m for _, m, _ in results) / len(results),
            "capped": outcomes["move limit"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--strategy", default="greedy")
    parser.add_argument("--variants", default="klondike,solijoy,italian")
    args = parser.parse_args()
    print(f"{args.strategy}: {args.games} games per variant on {args.workers} worker(s)")
    print(f"{'variant':10} {'games':>6} {'seconds':>8} {'games/s':>8} {'won %':>6} {'moves/game':>10} {'capped':>6}")
    for variant in args.variants.split(","):
        r = run(variant, args.strategy, args.games, args.workers)
        print(f"{variant:10} {r['games']:6d} {r['seconds']:8.1f} {r['games/s']:8.0f} {r['won %']:6.1f} "
              f"{r['moves/game']:10.1f} {r['capped']:6d}", flush=True)


if __name__ == "__main__":
    main()
