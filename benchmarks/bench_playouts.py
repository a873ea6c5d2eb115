"""Random-playout throughput: the rules core, the public Game API, and OpenSpiel's C++ solitaire side by side.

    python benchmarks/bench_playouts.py [--seconds 5] [--max-moves 3000] [--no-end-check] [--no-openspiel]
                                        [--lengths 150,1000] [--only-api]

One core, seeded. Rates are moves per CPU second of the process (``time.process_time``), so that a shared, busy
machine slows every side alike; the run names the build of the kit it measures (``solitaire.info()``: compiled,
or pure Python with ``SOLITAIRE_PURE=1``). Three measurements, each per variant where it applies:

* **core**: each step ``legal_moves``, the end check ``over_reason`` (given the move list), one uniformly
  random move, ``apply``; a game stops when it is over or after ``--max-moves`` moves. With
  ``--no-end-check`` the end check is skipped and a game stops only when no move is legal or at the cap.
* **api**: random playouts through the public API, ``game.play(random.choice(game.legal_moves()))`` until no
  move is legal, with games capped at OpenSpiel's 150 moves so that both sides play games of equal length;
  and the same with the end check a student writes, ``while not game.is_over(): ...``.
* **openspiel**: ``pyspiel.load_game("solitaire", {"depth_limit": N})`` (Klondike, draw 3 in OpenSpiel's rules,
  150-move depth limit by default), ``state.legal_actions()`` and ``state.apply_action(random.choice(...))``;
  chance outcomes (cards revealed) are sampled too but not counted as moves. Needs ``pip install open_spiel``
  (optional). The kit's Klondike API and OpenSpiel take turns at each game length of ``--lengths`` (150, the
  default depth limit, and 1000), OpenSpiel measured before and after the kit, so that a change of load shows
  as a spread.

The ratio api / openspiel (Klondike) was issue 9's speed floor (0.40) and is issue 56's target (1.0 at both
lengths).
"""
from __future__ import annotations

import argparse
import random
import time

import solitaire

from solitaire import VARIANTS, Game
from solitaire.endgame import over_reason
from solitaire.moves import apply, legal_moves
from solitaire.state import deal

OPENSPIEL_DEPTH = 150  # OpenSpiel's default depth_limit for solitaire


def run_core(variant_key: str, seconds: float, max_moves: int, end_check: bool = True) -> dict[str, float]:
    """Random playouts through the core functions: moves/s and how the games ended."""
    variant = VARIANTS[variant_key]
    rng = random.Random(2026)
    moves = games = capped = 0
    outcomes: dict[str, int] = {}
    start = time.process_time()
    while time.process_time() - start < seconds:
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
    elapsed = time.process_time() - start
    return {"moves/s": moves / elapsed, "games/s": games / elapsed, "games": games,
            "won": outcomes.get("won", 0), "no more moves": outcomes.get("no more moves", 0), "move cap": capped}


def run_api(variant_key: str, seconds: float, end_check: bool = False, max_moves: int = OPENSPIEL_DEPTH) -> float:
    """Moves per CPU second of random playouts through the public API (Game.legal_moves, Game.play, maybe
    Game.is_over)."""
    rng = random.Random(2026)
    moves = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game = Game(variant_key, seed=games)
        games += 1
        for _ in range(max_moves):
            if end_check and game.is_over():
                break
            legal = game.legal_moves()
            if not legal:
                break
            game.play(rng.choice(legal))
            moves += 1
    return moves / (time.process_time() - start)


def run_openspiel(seconds: float, depth: int = OPENSPIEL_DEPTH) -> float | None:
    """Moves per CPU second of random playouts in OpenSpiel's C++ solitaire, games of at most ``depth`` moves
    (None when open_spiel is not installed)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("solitaire", {"depth_limit": depth})
    rng = random.Random(2026)
    moves = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = [a for a, _ in state.chance_outcomes()]
                state.apply_action(rng.choice(outcomes))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
    return moves / (time.process_time() - start)


def side_by_side(seconds: float, lengths: list[int]) -> None:
    """The kit's Klondike API and OpenSpiel at each game length, OpenSpiel measured before and after the kit."""
    for depth in lengths:
        spiel = run_openspiel(seconds, depth)
        if spiel is None:
            print("\nOpenSpiel: not installed (pip install open_spiel), no side-by-side")
            return
        kit = run_api("klondike", seconds, max_moves=depth)
        spiel2 = run_openspiel(seconds, depth)
        print(f"\ngames of at most {depth} moves: OpenSpiel solitaire (C++) {spiel:,.0f} and {spiel2:,.0f} moves per CPU "
              f"second; kit Klondike API (legal_moves + play) {kit:,.0f}")
        print(f"ratio kit / OpenSpiel at {depth} moves: {kit / max(spiel, spiel2):.2f} to {kit / min(spiel, spiel2):.2f} "
              "(target >= 1.0)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per measurement")
    parser.add_argument("--max-moves", type=int, default=3000, help="moves per game at most (core)")
    parser.add_argument("--no-end-check", action="store_true", help="core: skip the end-of-game check")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel side-by-side")
    parser.add_argument("--lengths", default=f"{OPENSPIEL_DEPTH},1000", help="game lengths of the side-by-side")
    parser.add_argument("--only-api", action="store_true", help="only the side-by-side with OpenSpiel")
    args = parser.parse_args()
    print(solitaire.info() if hasattr(solitaire, "info") else "solitaire-kit (a checkout before issue 56)")
    if not args.only_api:
        tables(args)
    if not args.no_openspiel:
        side_by_side(args.seconds, [int(n) for n in args.lengths.split(",")])


def tables(args: argparse.Namespace) -> None:
    """The core and API tables, per variant."""
    print("core: legal_moves + over_reason + apply (moves per CPU second)")
    print(f"{'variant':10} {'moves/s':>10} {'games/s':>8} {'games':>6} {'won':>5} {'no more':>8} {'cap':>5}")
    for key in VARIANTS:
        r = run_core(key, args.seconds, args.max_moves, not args.no_end_check)
        print(f"{key:10} {r['moves/s']:10,.0f} {r['games/s']:8.1f} {r['games']:6d} {r['won']:5d} "
              f"{r['no more moves']:8d} {r['move cap']:5d}")
    print(f"\ncore alone: legal_moves + apply (no end check), games capped at {OPENSPIEL_DEPTH} moves")
    for key in VARIANTS:
        r = run_core(key, args.seconds, OPENSPIEL_DEPTH, end_check=False)
        print(f"{key:10} {r['moves/s']:10,.0f} moves/s")
    print(f"\npublic API, games capped at {OPENSPIEL_DEPTH} moves:")
    print(f"{'variant':10} {'legal_moves + play':>20} {'with is_over':>14}")
    for key in VARIANTS:
        print(f"{key:10} {run_api(key, args.seconds):20,.0f} {run_api(key, args.seconds, True):14,.0f}", flush=True)


if __name__ == "__main__":
    main()
