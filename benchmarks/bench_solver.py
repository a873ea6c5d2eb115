"""Solver benchmark: how many deals the perfect-information solver decides (won or proven unwinnable) in time.

    python benchmarks/bench_solver.py [--deals 200 | --seeds 0,150] [--seconds 10 | --nodes 60000] [--workers 2]
                                      [--variants klondike,solijoy,italian,draw3] [--options loose_columns=0,...]

Deals are seeds 0..deals-1 (or the ``--seeds`` listed); ``--options`` turns pruning ideas off (``SolverOptions``). Each solve runs on one core with a budget of ``--seconds``; ``--workers`` solves run
side by side (each still single-threaded; two at once are a little slower than one alone). Variants:
klondike, solijoy, italian (the kit's three games) and draw3 (Klondike, draw 3, unlimited passes, cards may come
back from the foundations: the rules of the published studies, e.g. Blake & Gent 2019: 81.945% ± 0.084% winnable);
draw1 (the same with draw 1).
Targets on klondike: >= 98% decided, median <= 1 s. ``--csv FILE`` writes one row per deal.
"""
from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

from solitaire import KLONDIKE, VARIANTS, Game
from solitaire.solver import SolverOptions, solve

CONFIGS = {**VARIANTS, "draw3": replace(KLONDIKE, name="Klondike draw 3, foundation to tableau", draw=3,
                                         foundation_to_tableau=True),
           "draw1": replace(KLONDIKE, name="Klondike, foundation to tableau", foundation_to_tableau=True)}


def solve_deal(args: tuple) -> tuple[str, int, str, float, int]:
    key, seed, seconds, nodes, options = args
    game = Game(CONFIGS[key], seed)
    r = solve(game, max_seconds=None if nodes else seconds, max_nodes=nodes, options=options)
    if r.status == "won":  # every claimed win must replay
        g = Game(CONFIGS[key], seed)
        g.play_all(r.moves)
        assert g.is_won(), f"{key} deal {seed}: the solution does not replay to a win"
    return key, seed, r.status, r.seconds, r.nodes


def summarise(key: str, rows: list[tuple[str, int, str, float, int]], wall: float) -> str:
    n = len(rows)
    count = {s: sum(1 for r in rows if r[2] == s) for s in ("won", "unwinnable", "unknown")}
    times = sorted(r[3] for r in rows)
    decided = n - count["unknown"]
    nodes = sum(r[4] for r in rows)
    p90 = times[min(n - 1, int(0.9 * n))]
    low = 100 * count["won"] / n
    high = 100 * (count["won"] + count["unknown"]) / n
    return (f"{key:10} {n:6d} {count['won']:6d} {count['unwinnable']:6d} {count['unknown']:6d} "
            f"{100 * decided / n:8.1f} {statistics.median(times):8.3f} {statistics.mean(times):7.2f} {p90:7.2f} "
            f"{times[-1]:7.2f} {nodes / max(sum(times), 1e-9):8.0f}   {low:.1f}-{high:.1f}%   {wall:6.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="first seed")
    parser.add_argument("--seconds", type=float, default=10.0, help="budget per deal")
    parser.add_argument("--nodes", type=int, help="a budget of this many states per deal instead of --seconds "
                        "(the same answers on any machine, whatever its load)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--variants", default="klondike,solijoy,italian,draw3")
    parser.add_argument("--seeds", help="these seeds (e.g. 0,150,183) instead of --first and --deals")
    parser.add_argument("--options", default="", help="pruning ideas off, e.g. loose_columns=0,use_right_after=0")
    parser.add_argument("--csv", help="write one row per deal to this file")
    args = parser.parse_args()
    options = SolverOptions(**{k: v != "0" for k, v in (kv.split("=") for kv in args.options.split(",") if kv)})
    seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else range(args.first, args.first + args.deals)
    budget = f"{args.nodes} states" if args.nodes else f"{args.seconds:g} s"
    print(f"solver: deals {args.seeds or f'{args.first}..{args.first + args.deals - 1}'}, {budget} each, "
          f"{args.workers} at a time, {options}")
    print(f"{'variant':10} {'deals':>6} {'won':>6} {'unwin':>6} {'unknown':>6} {'decided%':>8} {'median s':>8} "
          f"{'mean s':>7} {'p90 s':>7} {'max s':>7} {'nodes/s':>8}   winnable     wall s")
    rows_all = []
    for key in args.variants.split(","):
        jobs = [(key, seed, args.seconds, args.nodes, options) for seed in seeds]
        start = time.perf_counter()
        if args.workers > 1:
            with ProcessPoolExecutor(max_workers=args.workers) as pool:
                rows = list(pool.map(solve_deal, jobs, chunksize=1))
        else:
            rows = [solve_deal(j) for j in jobs]
        print(summarise(key, rows, time.perf_counter() - start), flush=True)
        rows_all.extend(rows)
    if args.csv:
        with open(args.csv, "w") as f:
            f.write("variant,seed,status,seconds,nodes\n")
            f.writelines(f"{k},{s},{st},{sec:.4f},{n}\n" for k, s, st, sec, n in rows_all)


if __name__ == "__main__":
    main()
