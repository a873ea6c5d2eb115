"""Random-playout throughput per variant: moves/s and games/s, including legal-move generation and end detection.

    python benchmarks/bench_playouts.py [--seconds 10] [--max-moves 3000] [--no-end-check]

One core, pure Python. Each step: ``legal_moves``, the end check ``over_reason`` (given the move list), one
uniformly random move (seeded), ``apply``. A game stops when it is over or after ``--max-moves`` moves.
With ``--no-end-check`` the end check is skipped and a game stops only when no move is legal or at the cap.
"""
from __future__ import annotations

import argparse
import random
import time

from solitaire import VARIANTS
from solitaire.moves import apply, legal_moves, over_reason
from solitaire.state import deal


def run(variant_key: str, seconds: float, max_moves: int, end_check: bool = True) -> dict[str, float]:
    variant = VARIANTS[variant_key]
    rng = random.Random(2026)
    moves = games = capped = 0
    outcomes: dict[str, int] = {}
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        p = deal(variant, games)
        games += 1
        for _ in range(max_moves):
            legal = legal_moves(p)
            reason = over_reason(p, legal) if end_check or not legal else None
            if reason:
                outcomes[reason] = outcomes.get(reason, 0) + 1
                break
            p = apply(p, rng.choice(legal))
            moves += 1
        else:
            capped += 1
    elapsed = time.perf_counter() - start
    return {"moves/s": moves / elapsed, "games/s": games / elapsed, "games": games,
            "won": outcomes.get("won", 0), "no more moves": outcomes.get("no more moves", 0), "move cap": capped}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="time per variant")
    parser.add_argument("--max-moves", type=int, default=3000, help="moves per game at most")
    parser.add_argument("--no-end-check", action="store_true", help="skip the end-of-game check (cap only)")
    args = parser.parse_args()
    print(f"{'variant':10} {'moves/s':>10} {'games/s':>8} {'games':>6} {'won':>5} {'no more':>8} {'cap':>5}")
    for key in VARIANTS:
        r = run(key, args.seconds, args.max_moves, not args.no_end_check)
        print(f"{key:10} {r['moves/s']:10,.0f} {r['games/s']:8.1f} {r['games']:6d} {r['won']:5d} "
              f"{r['no more moves']:8d} {r['move cap']:5d}")


if __name__ == "__main__":
    main()
