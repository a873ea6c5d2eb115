"""The expert's strength and speed, and the win chance's speed.

    python benchmarks/bench_expert.py games [--variant klondike] [--draw 1] [--deals 30] [--first-seed 0] [--workers 1]
        [--options samples=30 max_nodes=5000]
    python benchmarks/bench_expert.py chance [--variant klondike] [--deals 20]

``games`` plays deals first-seed .. first-seed+deals-1 with the expert (``play_game``, one process per worker),
prints one line per game and then the win rate with its Wilson 95% interval and the mean seconds per game.
Targets (issue 12): Klondike draw 1 >= 60% won, draw 3 >= 40%, <= 20 s per game on average on one core.
``chance`` times ``win_chance(game, samples=20)`` at the deal of each seed. Target: <= 2 s median.
Times are CPU seconds of the process playing (one core), so that a shared, busy machine does not inflate them;
wall-clock seconds are printed too.
"""
from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

from solitaire import Game, get_variant
from solitaire.expert import ExpertStrategy, wilson
from solitaire.strategies import play_game


def variant_of(name: str, draw: int):
    v = get_variant(name)
    return replace(v, draw=draw) if draw != v.draw else v


def one_game(args: tuple[str, int, int, dict]) -> tuple[int, str, int, int, float, float, int]:
    name, draw, seed, options = args
    expert = ExpertStrategy(seed, **options)
    cpu = time.process_time()
    r = play_game(variant_of(name, draw), seed, expert)
    return seed, r.outcome, r.moves, r.on_foundations, r.seconds, time.process_time() - cpu, expert.samples.solves


def games(a: argparse.Namespace) -> None:
    options = {k: float(v) if k == "margin" else int(v) for k, v in (o.split("=") for o in a.options)}
    jobs = [(a.variant, a.draw, s, options) for s in range(a.first_seed, a.first_seed + a.deals)]
    start = time.perf_counter()
    rows = []
    with ProcessPoolExecutor(max_workers=a.workers) as pool:
        for row in pool.map(one_game, jobs):
            rows.append(row)
            print("seed {} {} moves={} foundations={} wall {:.1f} s cpu {:.1f} s solves={}".format(*row), flush=True)
    won = sum(r[1] == "won" for r in rows)
    low, high = wilson(won, len(rows))
    print(f"{a.variant} draw {a.draw}, expert {' '.join(a.options) or 'defaults'}: won {won} of {len(rows)} = {won / len(rows):.1%} "
          f"(95% interval {low:.1%} to {high:.1%}); CPU per game: mean {statistics.mean(r[5] for r in rows):.1f} s, "
          f"median {statistics.median(r[5] for r in rows):.1f} s (wall clock per game: mean "
          f"{statistics.mean(r[4] for r in rows):.1f} s); whole run {time.perf_counter() - start:.0f} s "
          f"with {a.workers} worker(s)")


def chance(a: argparse.Namespace) -> None:
    times = []
    for seed in range(a.first_seed, a.first_seed + a.deals):
        g = Game(variant_of(a.variant, a.draw), seed)
        t = time.process_time()
        w = g.win_chance(samples=20, seed=0)
        times.append(time.process_time() - t)
        print(f"seed {seed}: {times[-1]:.2f} s CPU, {w}", flush=True)
    print(f"win_chance(samples=20) at the deal, {a.variant} draw {a.draw}: median {statistics.median(times):.2f} s CPU, "
          f"max {max(times):.2f} s over {len(times)} deals")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["games", "chance"])
    parser.add_argument("--variant", default="klondike")
    parser.add_argument("--draw", type=int, default=1)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--options", nargs="*", default=[], metavar="NAME=VALUE",
                        help="ExpertStrategy settings, e.g. samples=30 max_nodes=5000")
    a = parser.parse_args()
    (games if a.what == "games" else chance)(a)


if __name__ == "__main__":
    main()
