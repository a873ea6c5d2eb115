"""Solver speed benchmark: states expanded per CPU second, on a fixed set of deals and a fixed node budget, for
each build of the kit in the same run (compiled and pure Python).

    python benchmarks/bench_solver_rate.py [--deals 30] [--nodes 20000] [--repeat 3] [--variants ...]
                                           [--builds compiled,pure] [--baseline DIR] [--csv FILE] [--check FILE]

Every deal (seeds ``--first``..) is solved with ``max_nodes=--nodes`` and ``max_seconds=None``, so the search
is the same on any machine, whatever its load: only the CPU time changes. Each build runs in a process of its
own: ``compiled`` (the compiled modules, where the kit was built with a C compiler), ``pure`` (the same sources
with ``SOLITAIRE_PURE=1``), and with ``--baseline DIR`` a third, ``baseline``: the pure Python of another
checkout (an older commit, to compare with the code before a change). The builds take turns, ``--repeat`` times,
so that a shared machine's load falls on all of them alike. Per variant and build it prints the total states, the
CPU seconds (``time.process_time``, best of the runs) and the states per CPU second, then each build's rate
against ``pure``.

``--csv FILE`` saves each deal's status, node count and moves; ``--check FILE`` compares every build's rows
with such a file (e.g. one saved by an older commit) and fails on any difference; builds are always compared
with each other, and a difference fails the run: this is how a change that should only make the search faster
(or compile it) proves that the search is the same, state for state.

Variants: draw3 (draw 3, cards may come back from the foundations), draw1 (the same with draw 1), and the
kit's three games under the seed rules: klondike, solijoy, italian.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VARIANT_KEYS = ("draw3", "draw1", "klondike", "solijoy", "italian")


def configs() -> dict:
    from solitaire import KLONDIKE, VARIANTS
    return {"draw3": replace(KLONDIKE, name="Klondike draw 3, foundation to tableau", draw=3,
                             foundation_to_tableau=True),
            "draw1": replace(KLONDIKE, name="Klondike draw 1, foundation to tableau", foundation_to_tableau=True),
            **VARIANTS}


def run_variant(key: str, seeds: range, nodes: int) -> tuple[list[tuple], float]:
    """(rows (variant, seed, status, nodes, moves), CPU seconds spent solving), in this process."""
    from solitaire import Game
    from solitaire.solver import solve
    variant = configs()[key]
    rows, cpu = [], 0.0
    for seed in seeds:
        game = Game(variant, seed)
        start = time.process_time()
        r = solve(game, max_seconds=None, max_nodes=nodes)
        cpu += time.process_time() - start
        rows.append((key, str(seed), str(r.status), str(r.nodes), " ".join(str(m) for m in r.moves)))
    return rows, cpu


def worker(args: argparse.Namespace) -> None:
    """One build's run of every variant, as one line of JSON: {variant: [cpu seconds, rows]}, and the build."""
    import solitaire
    seeds = range(args.first, args.first + args.deals)
    out = {key: run_variant(key, seeds, args.nodes)[::-1] for key in args.variants.split(",")}
    info = solitaire.info() if hasattr(solitaire, "info") else "pure Python (before the compiled build)"
    print(json.dumps({"info": info, "runs": out}))


def run_build(build: str, args: argparse.Namespace) -> dict:
    """Run the worker for one build in a process of its own; its parsed output."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if build == "pure":
        env["SOLITAIRE_PURE"] = "1"
    elif build == "baseline":
        env.update(PYTHONPATH=str(Path(args.baseline).resolve()), SOLITAIRE_PURE="1")
    else:
        env.pop("SOLITAIRE_PURE", None)
    command = [sys.executable, __file__, "--worker", "--deals", str(args.deals), "--first", str(args.first),
               "--nodes", str(args.nodes), "--variants", args.variants]
    done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=ROOT)
    if done.returncode:
        raise SystemExit(f"the {build} build failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def check(rows: list[tuple], path: str, build: str) -> int:
    """Print every row that differs from the saved file's; the number of differences."""
    with open(path, newline="") as f:
        saved = {(r[0], r[1]): tuple(r) for r in csv.reader(f) if r and r[0] != "variant"}
    bad = 0
    for row in rows:
        old = saved.get(row[:2])
        if old != row:
            bad += 1
            print(f"DIFFERS {build} {row[0]} seed {row[1]}: now {row[2]} {row[3]} nodes, saved "
                  f"{old[2:4] if old else 'nothing'}", file=sys.stderr)
    return bad


def differences(rows: dict[str, list[tuple]]) -> int:
    """Print every deal on which two builds differ (status, nodes or moves); their number."""
    builds = list(rows)
    bad = 0
    for build in builds[1:]:
        for mine, theirs in zip(rows[builds[0]], rows[build]):
            if tuple(mine) != tuple(theirs):
                bad += 1
                print(f"DIFFERS {builds[0]} and {build} on {mine[0]} seed {mine[1]}: {mine[2:4]} against "
                      f"{theirs[2:4]}", file=sys.stderr)
    return bad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--first", type=int, default=0, help="first seed")
    parser.add_argument("--nodes", type=int, default=20000, help="states per deal")
    parser.add_argument("--repeat", type=int, default=3, help="runs per build; the fastest counts")
    parser.add_argument("--variants", default=",".join(VARIANT_KEYS))
    parser.add_argument("--builds", default="compiled,pure", help="compiled, pure, or both (comma-separated)")
    parser.add_argument("--baseline", metavar="DIR", help="also run this checkout's pure Python (build 'baseline')")
    parser.add_argument("--csv", help="save each deal's status, nodes and moves to this file")
    parser.add_argument("--check", help="compare statuses, nodes and moves with this saved file")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args)
    builds = args.builds.split(",") + (["baseline"] if args.baseline else [])
    print(f"solver rate: deals {args.first}..{args.first + args.deals - 1}, {args.nodes} states each, best of "
          f"{args.repeat} runs per build, the builds taking turns")
    best: dict[str, dict[str, float]] = {b: {} for b in builds}
    rows: dict[str, list[tuple]] = {}
    for _ in range(args.repeat):
        for build in builds:
            out = run_build(build, args)
            print(f"  {build:9} {out['info']}", flush=True)
            rows[build] = [tuple(r) for key in out["runs"] for r in out["runs"][key][1]]
            for key, (cpu, _) in out["runs"].items():
                best[build][key] = min(best[build].get(key, cpu), cpu)
    print(f"{'variant':10} {'build':9} {'states':>10} {'cpu s':>8} {'states/cpu s':>13} {'against pure':>13}")
    for key in args.variants.split(","):
        states = sum(int(r[3]) for r in rows[builds[0]] if r[0] == key)
        for build in builds:
            rate = states / max(best[build][key], 1e-9)
            against = f"{best['pure'][key] / max(best[build][key], 1e-9):12.2f}x" if "pure" in best else ""
            print(f"{key:10} {build:9} {states:10d} {best[build][key]:8.2f} {rate:13.0f} {against:>13}", flush=True)
    bad = differences(rows)
    print(f"the builds' searches: {'identical' if not bad else f'{bad} deals differ'} "
          f"({len(rows[builds[0]])} deals, each build's status, states and moves)")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["variant", "seed", "status", "nodes", "moves"])
            w.writerows(rows[builds[0]])
    if args.check:
        for build in builds:
            found = check(rows[build], args.check, build)
            print(f"check of {build} against {args.check}: {len(rows[build]) - found} of {len(rows[build])} deals "
                  "identical")
            bad += found
    if bad:
        sys.exit(1)


if __name__ == "__main__":
    main()
