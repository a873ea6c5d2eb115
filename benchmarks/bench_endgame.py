"""How often does the end check give up? Long random games of each variant, counted position by position.

    python benchmarks/bench_endgame.py [--games 20] [--max-moves 3000] [--limit N] [--variants solijoy ...] [--no-proof]

``over_reason`` decides "no more moves" with a bounded search over the arrangements that moves leading
nowhere can reach (``solitaire.endgame.search``, at most ``SEARCH_LIMIT`` arrangements). When the bound is
reached the search gives up and the game is kept open. For each variant this plays ``--games`` seeded random
games (uniform legal moves, each step checked with ``over_reason``) and reports:

* checks: end checks that needed more than a look at the legal moves (no move that makes progress, no stock
  card that fits);
* proved: of those, how many the quick proof ``never_progress`` settled (play can never make progress);
* searches: the others, which needed the search; gave up: how many of them reached the bound (the game was
  kept open without proof); share: gave up / checks;
* games: how they ended (won / no more moves / move cap) and in how many a give-up kept it open at the cap;
* cpu s: the CPU seconds the games took (CPU time, so that a busy machine does not change it much).

``--no-proof`` skips the quick proof (every such check searches), as the kit did before it had one.
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
    calls = {"checks": 0, "proved": 0, "searches": 0, "gave up": 0}
    search, proof = endgame.search, endgame.never_progress

    def proving(p):
        answer = proof(p)
        calls["checks"] += 1
        calls["proved"] += answer
        return answer

    def counting(p, _limit):
        answer = search.__wrapped__(p, limit)
        calls["searches"] += 1
        calls["gave up"] += answer is None
        return answer

    endgame.search = counting  # measured uncached: every search the rules would run is counted
    endgame.never_progress = proving
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
        endgame.search, endgame.never_progress = search, proof
    return calls | ends


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--max-moves", type=int, default=3000)
    parser.add_argument("--limit", type=int, default=None, help="search bound (default: SEARCH_LIMIT)")
    parser.add_argument("--variants", nargs="*", choices=VARIANTS, default=list(VARIANTS), metavar="NAME",
                        help=f"variants to play (default: all of {', '.join(VARIANTS)})")
    parser.add_argument("--no-proof", action="store_true", help="skip the quick proof, never_progress")
    args = parser.parse_args()
    limit = args.limit or endgame.SEARCH_LIMIT
    if args.no_proof:
        endgame.never_progress = lambda p: False
    print(f"search bound: {limit} arrangements; {args.games} random games per variant, "
          f"at most {args.max_moves} moves")
    print(f"{'variant':28} {'checks':>7} {'proved':>7} {'searches':>9} {'gave up':>8} {'share':>7} {'won':>4} "
          f"{'over':>5} {'cap':>4} {'cap+gave up':>11} {'cpu s':>6}")
    for name in args.variants:
        v, start = VARIANTS[name], time.process_time()
        c = count(v, args.games, args.max_moves, limit)
        share = c["gave up"] / c["checks"] if c["checks"] else 0.0
        print(f"{name:28} {c['checks']:7d} {c['proved']:7d} {c['searches']:9d} {c['gave up']:8d} {share:7.1%} "
              f"{c['won']:4d} {c['no more moves']:5d} {c['move cap']:4d} {c['kept open at the cap by a give-up']:11d} "
              f"{time.process_time() - start:6.1f}")


if __name__ == "__main__":
    main()
