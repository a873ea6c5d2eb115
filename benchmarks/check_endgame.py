"""The end check against an exhaustive search: how often is "goes on" said of a game that is over?

    python benchmarks/check_endgame.py [--games 40] [--cap 50000] [--max-moves 3000]

For late positions of seeded random games of each variant (the last positions where no move makes progress
by itself, see ``tests/exhaustive.py``), compare ``over_reason`` with the test-only exhaustive checker:

* false over: "no more moves" where the checker finds progress (must be 0: the property test asserts it);
* unconfirmed over: "no more moves" where the checker gave up (too many positions to confirm it);
* false goes on: None ("goes on") where the checker proves that no progress is reachable;
* undecided: the checker itself gave up (more than ``--cap`` positions).
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from exhaustive import late_positions, progress_reachable  # noqa: E402

from solitaire import ITALIAN, KLONDIKE, SOLIJOY  # noqa: E402
from solitaire.endgame import NO_MORE_MOVES, over_reason  # noqa: E402

VARIANTS = {"klondike": KLONDIKE, "klondike draw 3": replace(KLONDIKE, draw=3),
            "klondike draw 3, 2 passes": replace(KLONDIKE, draw=3, passes=2),
            "klondike, cards back": replace(KLONDIKE, foundation_to_tableau=True),
            "klondike, build any": replace(KLONDIKE, build="any", empty_column_ranks=None),
            "solijoy": SOLIJOY, "solijoy, waste to foundation": replace(SOLIJOY, waste_to_foundation=True),
            "italian": ITALIAN, "italian, 2 passes": replace(ITALIAN, passes=2),
            "italian strict draw": replace(ITALIAN, draw_only_when_stuck=True)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--cap", type=int, default=50_000)
    parser.add_argument("--max-moves", type=int, default=3000, help="moves per random game at most")
    args = parser.parse_args()
    print(f"{'variant':30} {'positions':>9} {'over':>5} {'false over':>10} {'unconfirmed':>11} {'false goes on':>13} "
          f"{'undecided':>9} {'s':>6}")
    for name, v in VARIANTS.items():
        start = time.perf_counter()
        counts = {"positions": 0, "over": 0, "false over": 0, "unconfirmed": 0, "false goes on": 0, "undecided": 0}
        for p in late_positions(v, args.games, max_moves=args.max_moves):
            engine, truth = over_reason(p), progress_reachable(p, args.cap)
            counts["positions"] += 1
            counts["over"] += engine == NO_MORE_MOVES
            counts["undecided"] += truth is None
            counts["false over"] += engine == NO_MORE_MOVES and truth is True
            counts["unconfirmed"] += engine == NO_MORE_MOVES and truth is None
            counts["false goes on"] += engine is None and truth is False
        print(f"{name:30} {counts['positions']:9d} {counts['over']:5d} {counts['false over']:10d} "
              f"{counts['unconfirmed']:11d} {counts['false goes on']:13d} {counts['undecided']:9d} {time.perf_counter() - start:6.1f}")


if __name__ == "__main__":
    main()
