"""Solver speed benchmark: states expanded per CPU second, on a fixed set of deals and a fixed node budget.

    python benchmarks/bench_solver_rate.py [--deals 30] [--nodes 20000] [--repeat 3] [--variants ...]
                                           [--csv FILE] [--check FILE]

Every deal (seeds ``--first``..) is solved with ``max_nodes=--nodes`` and ``max_seconds=None``, so the search
is the same on any machine, whatever its load: only the CPU time changes. Per variant it prints the total
states, the CPU seconds (``time.process_time``, best of ``--repeat`` runs: the machine may be shared) and the
states per CPU second. ``--csv FILE`` saves each deal's status, node count and moves; ``--check FILE``
compares them with such a file (e.g. one saved by an older commit) and fails on any difference, which is how
a change that should only make the search faster proves it did not change the search.

Variants: draw3 (draw 3, cards may come back from the foundations), draw1 (the same with draw 1), and the
kit's three games under the seed rules: klondike, solijoy, italian.
"""
from __future__ import annotations

import argparse
import csv
import sys
import time
from dataclasses import replace

from solitaire import KLONDIKE, VARIANTS, Game
from solitaire.solver import solve

CONFIGS = {"draw3": replace(KLONDIKE, name="Klondike draw 3, foundation to tableau", draw=3,
                            foundation_to_tableau=True),
           "draw1": replace(KLONDIKE, name="Klondike draw 1, foundation to tableau", foundation_to_tableau=True),
           **VARIANTS}


def run_variant(key: str, seeds: range, nodes: int) -> tuple[list[tuple], float]:
    """(rows (variant, seed, status, nodes, moves), CPU seconds spent solving)."""
    rows, cpu = [], 0.0
    for seed in seeds:
        game = Game(CONFIGS[key], seed)
        start = time.process_time()
        r = solve(game, max_seconds=None, max_nodes=nodes)
        cpu += time.process_time() - start
        rows.append((key, str(seed), str(r.status), str(r.nodes), " ".join(str(m) for m in r.moves)))
    return rows, cpu


def check(rows: list[tuple], path: str) -> int:
    """Print every row that differs from the saved file's; the number of differences."""
    with open(path, newline="") as f:
        saved = {(r[0], r[1]): tuple(r) for r in csv.reader(f) if r and r[0] != "variant"}
    bad = 0
    for row in rows:
        old = saved.get(row[:2])
        if old != row:
            bad += 1
            print(f"DIFFERS {row[0]} seed {row[1]}: now {row[2]} {row[3]} nodes, saved "
                  f"{old[2:4] if old else 'nothing'}", file=sys.stderr)
    return bad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--first", type=int, default=0, help="first seed")
    parser.add_argument("--nodes", type=int, default=20000, help="states per deal")
    parser.add_argument("--repeat", type=int, default=3, help="runs per variant; the fastest counts")
    parser.add_argument("--variants", default="draw3,draw1,klondike,solijoy,italian")
    parser.add_argument("--csv", help="save each deal's status, nodes and moves to this file")
    parser.add_argument("--check", help="compare statuses, nodes and moves with this saved file")
    args = parser.parse_args()
    seeds = range(args.first, args.first + args.deals)
    print(f"solver rate: deals {seeds.start}..{seeds.stop - 1}, {args.nodes} states each, "
          f"best of {args.repeat}")
    print(f"{'variant':10} {'states':>10} {'cpu s':>8} {'states/cpu s':>13}")
    all_rows, bad = [], 0
    for key in args.variants.split(","):
        best, rows = None, []
        for _ in range(args.repeat):
            rows, cpu = run_variant(key, seeds, args.nodes)
            best = cpu if best is None else min(best, cpu)
        states = sum(int(r[3]) for r in rows)
        print(f"{key:10} {states:10d} {best:8.2f} {states / max(best, 1e-9):13.0f}", flush=True)
        all_rows.extend(rows)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["variant", "seed", "status", "nodes", "moves"])
            w.writerows(all_rows)
    if args.check:
        bad = check(all_rows, args.check)
        print(f"check against {args.check}: {len(all_rows) - bad} of {len(all_rows)} deals identical")
        if bad:
            sys.exit(1)


if __name__ == "__main__":
    main()
