"""How often does the end check give up? Long random games of each variant, counted position by position.

    python benchmarks/bench_endgame.py [--games 20] [--max-moves 3000] [--limit N]

``over_reason`` decides "no more moves" with a bounded search over the arrangements that moves leading
nowhere can reach (``solitaire.endgame.search``, at most ``SEARCH_LIMIT`` arrangements). When the bound is
reached the search gives up and the game is kept open. For each variant this plays ``--games`` seeded random
games (uniform legal moves, each step checked with ``over_reason``) and reports:

* searches: end checks that needed the search (no move that makes progress, no stock card that fits);
* gave up: of those, how many reached the bound (the game was kept open without proof);
* games: how they ended (won / no more moves / move cap) and in how many a give-up kept it open at the cap.
"""
from __future__ import annotations

import argparse
import random
import time
from dataclasses import replace

from solitaire import ITALIAN, KLONDIKE, SOLIJOY
from solitaire import endgame
from solitaire.moves import apply, legal_moves
from solitaire.state import deal

VARIANTS = {"klondike": KLONDIKE, "klondike draw 3": replace(KLONDIKE, draw=3),
            "klondike draw 3, 2 passes": replace(KLONDIKE, draw=3, passes=2),
            "klondike, cards back": replace(KLONDIKE, foundation_to_tableau=True),
            "solijoy": SOLIJOY, "italian": ITALIAN, "italian strict draw": replace(ITALIAN, draw_only_when_stuck=True)}


def count(variant, games: int, max_moves: int, limit: int) -> dict[str, int]:
    """Play the games and count searches (with at most ``limit`` arrangements), give-ups and endings."""
    calls = {"searches": 0, "gave up": 0}
    search = endgame.search

    def counting(p, _limit):
        answer = search.__wrapped__(p, limit)
        calls["searches"] += 1
        calls["gave up"] += answer is None
        return answer

    endgame.search = counting  # measured uncached: every search the rules would run is counted
    ends = {"won": 0, "no more moves": 0, "move cap": 0, "kept open at the cap by a give-up": 0}
    rng = random.Random(9)
    try:
        for seed in range(games):
            p = deal(variant, seed)
            for _ in range(max_moves):
                moves = legal_moves(p)
                before = calls["gave up"]
                reason = endgame.over_reason(p, moves)
                if reason:
                    ends[reason] += 1
                    break
                p = apply(p, rng.choice(moves))
            else:
                ends["move cap"] += 1
                ends["kept open at the cap by a give-up"] += calls["gave up"] > before
    finally:
        endgame.search = search
    return calls | ends


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--max-moves", type=int, default=3000)
    parser.add_argument("--limit", type=int, default=None, help="search bound (default: SEARCH_LIMIT)")
    args = parser.parse_args()
    limit = args.limit or endgame.SEARCH_LIMIT
    print(f"search bound: {limit} arrangements; {args.games} random games per variant, "
          f"at most {args.max_moves} moves")
    print(f"{'variant':28} {'searches':>9} {'gave up':>8} {'share':>7} {'won':>4} {'over':>5} {'cap':>4} "
          f"{'cap+gave up':>11} {'s':>6}")
    for name, v in VARIANTS.items():
        start = time.perf_counter()
        c = count(v, args.games, args.max_moves, limit)
        share = c["gave up"] / c["searches"] if c["searches"] else 0.0
        print(f"{name:28} {c['searches']:9d} {c['gave up']:8d} {share:7.1%} {c['won']:4d} {c['no more moves']:5d} "
              f"{c['move cap']:4d} {c['kept open at the cap by a give-up']:11d} {time.perf_counter() - start:6.1f}")


if __name__ == "__main__":
    main()
