"""Tournament throughput: games a second for the greedy player, in-process (``play_game``) and isolated (the
tournament's referee with the entrant in its own process), on the same deals.

    python benchmarks/bench_tournament.py [--deals 200] [--variant klondike]

Prints, for each way, the wall time, the CPU seconds (this process and its children, the entrant processes
included), games a second, and the cost of isolation (isolated / in-process). The two ways must agree on every
game's outcome (the referee plays as ``play_game`` does), and the script checks that they do.
"""
from __future__ import annotations

import argparse
import resource
import secrets
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solitaire.strategies import play_game  # noqa: E402
from solitaire.tournament import entry_from_file  # noqa: E402
from solitaire.tournament.referee import Limits, play_games  # noqa: E402
from solitaire.tournament.sandbox import detect  # noqa: E402
from solitaire.variants import get_variant  # noqa: E402

GREEDY = Path(__file__).resolve().parent.parent / "solitaire" / "entrants" / "greedy_player.py"


def cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(label: str, play) -> tuple[list[str], float, float]:
    wall, used = time.perf_counter(), cpu()
    outcomes = play()
    wall, used = time.perf_counter() - wall, cpu() - used
    print(f"{label:<12} {len(outcomes)} games in {wall:6.2f} s wall, {used:6.2f} s CPU: "
          f"{len(outcomes) / wall:7.1f} games/s (wall), {len(outcomes) / used:7.1f} games per CPU second")
    return outcomes, wall, used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--variant", default="klondike")
    args = parser.parse_args()
    variant = get_variant(args.variant)
    seeds = [secrets.randbits(64) for _ in range(args.deals)]  # fresh secret deals, as a tournament draws them
    entry = entry_from_file(GREEDY)
    print(detect().line)  # (found once, before the clocks start)
    inproc, w1, c1 = measure("in-process", lambda: [str(play_game(variant, s, "greedy").outcome) for s in seeds])
    isolated, w2, c2 = measure("isolated", lambda: [r["outcome"] for r in play_games(
        entry, args.variant, variant, list(enumerate(seeds)), Limits())])
    assert inproc == isolated, "the referee and play_game disagree on a game"
    print(f"isolation costs {w2 / w1:.2f}x the wall time and {c2 / c1:.2f}x the CPU "
          f"({sum(o == 'won' for o in inproc)} of {len(seeds)} won either way)")


if __name__ == "__main__":
    main()
