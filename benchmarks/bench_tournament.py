"""Tournament throughput: games a second for the greedy player, in-process (``play_game``) and isolated (the
tournament's referee with the entrant in its own process and sandbox), on the same deals.

    python benchmarks/bench_tournament.py [--deals 200] [--rounds 4] [--variant klondike]

The deals are played in ``--rounds`` rounds, each in-process then isolated, so that both ways meet the same load
on a shared machine (the load average is printed). Prints, for each way, the wall time, the CPU seconds (the
referee's and, isolated, the entrant's: all its processes, read from its cgroup or its process tree), games a
second, and the cost of isolation (isolated / in-process). The two ways must agree on every game's outcome and
number of moves (the referee plays as ``play_game`` does), and the script checks that they do.
"""
from __future__ import annotations

import argparse
import os
import secrets
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solitaire.strategies import play_game  # noqa: E402
from solitaire.tournament import entry_from_file  # noqa: E402
from solitaire.tournament.referee import EntrantProcess, Limits, referee_game, referee_memory_hidden  # noqa: E402
from solitaire.tournament.sandbox import detect, tree  # noqa: E402
from solitaire.variants import get_variant  # noqa: E402

GREEDY = Path(__file__).resolve().parent.parent / "solitaire" / "entrants" / "greedy_player.py"


def entrant_cpu(entrant: EntrantProcess) -> float:
    """CPU seconds of every process the entrant ran so far (its cgroup, or its process tree)."""
    if entrant.cgroup is not None:
        return entrant.cgroup.cpu()
    return sum(cpu for _, cpu, _ in tree(entrant.proc.pid).values()) if entrant.proc else 0.0


def in_process(variant, seeds: list[int]) -> tuple[list[tuple], float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    games = [(str((g := play_game(variant, s, "greedy")).outcome), g.moves) for s in seeds]
    return games, time.perf_counter() - wall, time.process_time() - cpu


def isolated(variant, seeds: list[int], limits: Limits) -> tuple[list[tuple], float, float, float]:
    """The games against one entrant process (started first, as a task of the tournament starts it): the games,
    wall seconds, the referee's CPU and the entrant's CPU."""
    entrant = EntrantProcess(entry_from_file(GREEDY), limits)
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        entrant.start()
        with referee_memory_hidden():
            games = [referee_game(entrant, variant, s, limits)[:2] for s in seeds]
        used = entrant_cpu(entrant)
    finally:
        entrant.stop()
    return [(str(o), m) for o, m in games], time.perf_counter() - wall, time.process_time() - cpu, used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--variant", default="klondike")
    args = parser.parse_args()
    variant = get_variant(args.variant)
    seeds = [secrets.randbits(64) for _ in range(args.deals)]  # fresh secret deals, as a tournament draws them
    print(detect().line)  # (found once, before the clocks start)
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    size = -(-len(seeds) // args.rounds)
    totals = {"in-process": [[], 0.0, 0.0, 0.0], "isolated": [[], 0.0, 0.0, 0.0]}
    for start in range(0, len(seeds), size):
        part = seeds[start:start + size]
        for way, result in (("in-process", (*in_process(variant, part), 0.0)),
                            ("isolated", isolated(variant, part, Limits()))):
            games, wall, referee, entrant = result
            total = totals[way]
            total[0] += games
            total[1:] = total[1] + wall, total[2] + referee, total[3] + entrant
    moves = sum(m for _, m in totals["in-process"][0])
    for way, (games, wall, referee, entrant) in totals.items():
        split = f" (referee {referee:.2f} s, entrant {entrant:.2f} s)" if entrant else ""
        print(f"{way:<11} {len(games)} games, {moves} moves in {wall:6.2f} s wall, {referee + entrant:6.2f} s CPU{split}: "
              f"{len(games) / wall:7.1f} games/s (wall), {len(games) / (referee + entrant):7.1f} games per CPU second")
    assert totals["in-process"][0] == totals["isolated"][0], "the referee and play_game disagree on a game"
    (_, w1, c1, _), (_, w2, r2, e2) = totals["in-process"], totals["isolated"]
    won = sum(o == "won" for o, _ in totals["in-process"][0])
    print(f"isolation costs {w2 / w1:.2f}x the wall time and {(r2 + e2) / c1:.2f}x the CPU ({won} of {len(seeds)} won "
          f"either way; load average after: {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
