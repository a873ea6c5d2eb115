"""Throughput of solitaire.experiments.run: games per second by strategy, with 1 and N workers.

    python benchmarks/bench_experiments.py [--deals 100] [--max-seconds 2] [--workers 2]

Prints one line per (variant, strategy, workers) with wall time, games per second and the
speed-up over one worker, then the cost of committing one row to a results file.
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time

from solitaire import KLONDIKE
from solitaire.experiments import ResultsFile, run, summary


def timed(**kwargs) -> tuple[float, object]:
    start = time.perf_counter()
    table = run(progress=False, **kwargs)
    return time.perf_counter() - start, table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--max-seconds", type=float, default=2.0)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--variants", nargs="+", default=["klondike", "italian"])
    parser.add_argument("--strategies", nargs="+", default=["random", "greedy", "solver"])
    args = parser.parse_args()
    print(f"{args.deals} deals, solver budget {args.max_seconds:g} s, {os.cpu_count()} cores")
    for variant in args.variants:
        for strategy in args.strategies:
            base = None
            for workers in sorted({1, args.workers}):
                seconds, table = timed(variants=[variant], strategies=[strategy], deals=args.deals,
                                       max_seconds=args.max_seconds, workers=workers)
                base = base or seconds
                s = summary(table).iloc[0]
                print(f"{variant:9} {strategy:7} workers={workers}: {seconds:7.2f} s wall, "
                      f"{args.deals / seconds:7.1f} games/s, speed-up {base / seconds:4.2f}x, "
                      f"win rate {s['win_rate']:.3f} [{s['low']:.3f}, {s['high']:.3f}], unknown {s['unknown']}")
    with tempfile.TemporaryDirectory() as folder:
        store = ResultsFile(os.path.join(folder, "bench.sqlite"))
        row = dict(variant="klondike", strategy="greedy", seed=0, budget="max_moves=5000", outcome="won", moves=1,
                   on_foundations=52, seconds=0.0, nodes=0)
        start = time.perf_counter()
        for seed in range(1000):
            store.add(row | {"seed": seed}, KLONDIKE)
        per_row_ms = (time.perf_counter() - start) / 1000 * 1000
        print(f"results file: {per_row_ms:.3f} ms per committed row (1000 rows)")
        store.close()


if __name__ == "__main__":
    main()
