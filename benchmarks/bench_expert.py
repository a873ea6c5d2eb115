"""The expert's strength and speed, and the win chance's speed.

    python benchmarks/bench_expert.py games [--variant klondike] [--draw 1] [--deals 30] [--first-seed 0] [--workers 1]
        [--options samples=30 max_nodes=5000]
    python benchmarks/bench_expert.py chance [--variant klondike] [--deals 20]
    python benchmarks/bench_expert.py compare RUN.txt [RUN.txt ...] [--variant klondike] [--draw 1]
    python benchmarks/bench_expert.py samples [--draw 3] [--deals 20]
    python benchmarks/bench_expert.py versus NEW.txt OLD.txt

``versus`` pairs two ``games`` runs deal by deal (e.g. the compiled build with more solves a decision against
today's expert in pure Python, at about the same CPU a game): the deals both played, the wins of each, the deals
won by one only, the two-sided sign test, and the CPU a game of each.

``compare`` reads the game lines that ``games`` printed (one file or several, e.g. two halves of a run) and
pairs each deal with the shipped rows of the same seed (``shipped("expert")``, ``shipped("hindsight")``,
``shipped("seed_variants")``): the shipped expert (the reveal method, except SoliJoy's rows where the data
README says otherwise), hindsight sampling, greedy and the solver, with the deals won by one side only and a
two-sided sign test.

Deals no shipped table covers (fresh seeds) get greedy's games and the solver's verdicts (10 s a deal) played
on the spot, and the summary counts the deals the run won that the solver proves unwinnable (there must be none).

``games`` plays deals first-seed .. first-seed+deals-1 with the expert (``play_game``, one process per worker),
prints one line per game and then the win rate with its Wilson 95% interval and the mean seconds per game.
Targets (issues 12 and 21): Klondike draw 1 >= 60% won, draw 3 >= 40%, <= 20 s per game on average on one
core (SoliJoy <= 60 s).
``chance`` times ``win_chance(game, samples=20)`` at the deal of each seed. Target: <= 2 s median.
Times are CPU seconds of the process playing (one core), so that a shared, busy machine does not inflate them;
wall-clock seconds are printed too. Each run names the kit's build first (compiled or pure Python).
"""
from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

from solitaire import Game, get_variant
from solitaire.expert import ExpertStrategy
from solitaire.stats import sign_test, wilson
from solitaire.strategies import play_game


def variant_of(name: str, draw: int):
    v = get_variant(name)
    return replace(v, draw=draw) if draw != v.draw else v


def one_game(args: tuple[str, int, int, dict]) -> tuple[int, str, int, int, float, float, int]:
    name, draw, seed, options = args
    expert = ExpertStrategy(seed, **options)
    cpu = time.process_time()
    r = play_game(variant_of(name, draw), seed, expert)
    solves = expert.samples.solves + (expert.planner.solves if expert.planner is not None else 0)
    return seed, r.outcome, r.moves, r.on_foundations, r.seconds, time.process_time() - cpu, solves


def _setting(text: str) -> int | float | str:
    """An ExpertStrategy setting from the command line: a whole number, a number, or a word (method=reveal)."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def games(a: argparse.Namespace) -> None:
    options = {k: _setting(v) for k, v in (o.split("=", 1) for o in a.options)}
    jobs = [(a.variant, a.draw, s, options) for s in range(a.first_seed, a.first_seed + a.deals)]
    start = time.perf_counter()
    rows = []
    with ProcessPoolExecutor(max_workers=a.workers) as pool:
        for row in pool.map(one_game, jobs):
            rows.append(row)
            print("seed {} {} moves={} foundations={} wall {:.1f} s cpu {:.1f} s solves={}".format(*row), flush=True)
    won = sum(r[1] == "won" for r in rows)
    low, high = wilson(won, len(rows))
    print(f"{a.variant} draw {a.draw}, expert {' '.join(a.options) or 'defaults'}: won {won} of {len(rows)} = {won / len(rows):.1%} "
          f"(95% interval {low:.1%} to {high:.1%}); CPU per game: mean {statistics.mean(r[5] for r in rows):.1f} s, "
          f"median {statistics.median(r[5] for r in rows):.1f} s (wall clock per game: mean "
          f"{statistics.mean(r[4] for r in rows):.1f} s); whole run {time.perf_counter() - start:.0f} s "
          f"with {a.workers} worker(s)")


def chance(a: argparse.Namespace) -> None:
    times = []
    for seed in range(a.first_seed, a.first_seed + a.deals):
        g = Game(variant_of(a.variant, a.draw), seed)
        t = time.process_time()
        w = g.win_chance(samples=20, seed=0)
        times.append(time.process_time() - t)
        print(f"seed {seed}: {times[-1]:.2f} s CPU, {w}", flush=True)
    print(f"win_chance(samples=20) at the deal, {a.variant} draw {a.draw}: median {statistics.median(times):.2f} s CPU, "
          f"max {max(times):.2f} s over {len(times)} deals")


def samples(a: argparse.Namespace) -> None:
    """CPU a capped, verdict-only solve of a sampled layout costs (the expert's unit of work), per search and cap."""
    import random

    from solitaire.knowledge import game_knowledge, sample_layout
    from solitaire.reveal import SEARCHES
    from solitaire.solver import solve
    rng = random.Random(1)
    layouts = [sample_layout(game_knowledge(Game(variant_of(a.variant, a.draw), seed)), rng)
               for seed in range(a.first_seed, a.first_seed + a.deals) for _ in range(3)]
    for name, options in SEARCHES.items():
        for cap in (300, 1000, 2000):
            cpu = time.process_time()
            status = [solve(p, max_seconds=None, max_nodes=cap, options=options, verdict_only=True).status
                      for p in layouts]
            ms = 1000 * (time.process_time() - cpu) / len(layouts)
            print(f"search={name} cap {cap}: {ms:.1f} ms CPU a solve; of {len(layouts)} layouts (3 a deal, at the "
                  f"deal) {status.count('won')} won, {status.count('unwinnable')} unwinnable, "
                  f"{status.count('unknown')} unknown", flush=True)


def compare(a: argparse.Namespace) -> None:
    import re

    import pandas as pd

    from solitaire.experiments import shipped

    ours = {}
    for path in a.runs:
        for m in re.finditer(r"^seed (\d+) (\w+)", open(path).read(), re.M):
            ours[int(m.group(1))] = m.group(2) == "won"
    name = a.variant if a.draw == 1 else f"{a.variant} draw={a.draw}"
    hindsight = shipped("hindsight").assign(strategy="hindsight")
    rows = pd.concat([shipped("expert"), hindsight, shipped("seed_variants")])
    rows = rows[rows.variant == name]
    print(f"{name}: {len(ours)} deals played; won {sum(ours.values())} ({sum(ours.values()) / len(ours):.1%})")
    for player in ("expert", "hindsight", "greedy", "solver"):
        theirs = rows[rows.strategy == player].drop_duplicates("seed").set_index("seed").outcome.to_dict()
        if player in ("greedy", "solver") and any(s not in theirs for s in ours):
            theirs = {**_fresh(player, variant_of(a.variant, a.draw), [s for s in ours if s not in theirs]), **theirs}
        seeds = [s for s in ours if s in theirs]
        if not seeds:
            continue
        only_ours = sum(ours[s] and theirs[s] != "won" for s in seeds)
        only_theirs = sum(not ours[s] and theirs[s] == "won" for s in seeds)
        won = sum(theirs[s] == "won" for s in seeds)
        print(f"  {player:9} on the same {len(seeds)} deals: won {won} ({won / len(seeds):.1%}); won by this "
              f"run only {only_ours}, by {player} only {only_theirs}; sign test p = {sign_test(only_ours, only_theirs):.3g}")
        if player == "solver":
            proved = [s for s in seeds if ours[s] and theirs[s] == "unwinnable"]
            print(f"  deals this run won that the solver proves unwinnable: {len(proved)} {proved or ''}")


def read_run(path: str) -> dict[int, tuple[bool, float]]:
    """{seed: (won, CPU seconds)} from the game lines a ``games`` run printed."""
    import re
    pattern = r"^seed (\d+) (\w[\w ]*?) moves=\d+ foundations=\d+ wall [\d.]+ s cpu ([\d.]+) s"
    return {int(m.group(1)): (m.group(2) == "won", float(m.group(3)))
            for m in re.finditer(pattern, open(path).read(), re.M)}


def versus(a: argparse.Namespace) -> None:
    new, old = read_run(a.runs[0]), read_run(a.runs[1])
    seeds = sorted(set(new) & set(old))
    if not seeds:
        raise SystemExit("the two runs have no deal in common")
    only_new = [s for s in seeds if new[s][0] and not old[s][0]]
    only_old = [s for s in seeds if old[s][0] and not new[s][0]]
    for name, run in ((a.runs[0], new), (a.runs[1], old)):
        won = sum(run[s][0] for s in seeds)
        print(f"{name}: won {won} of {len(seeds)} ({won / len(seeds):.1%}); CPU a game: mean "
              f"{statistics.mean(run[s][1] for s in seeds):.1f} s, median {statistics.median(run[s][1] for s in seeds):.1f} s")
    print(f"won by the first only: {len(only_new)} {only_new}; by the second only: {len(only_old)} {only_old}; "
          f"sign test p = {sign_test(len(only_new), len(only_old)):.3g}")


def _fresh(player: str, variant, seeds: list[int]) -> dict[int, str]:
    """Outcomes of greedy (a game) or the solver (10 s a deal) on deals no shipped table covers."""
    from solitaire import deal, solve
    if player == "greedy":
        return {s: play_game(variant, s, "greedy").outcome for s in seeds}
    return {s: solve(deal(variant, s), max_seconds=10).status for s in seeds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["games", "chance", "compare", "samples", "versus"])
    parser.add_argument("runs", nargs="*", help="compare, versus: the output files of games runs")
    parser.add_argument("--variant", default="klondike")
    parser.add_argument("--draw", type=int, default=1)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--options", nargs="*", default=[], metavar="NAME=VALUE",
                        help="ExpertStrategy settings, e.g. samples=30 max_nodes=5000")
    a = parser.parse_args()
    if a.what in ("games", "chance", "samples"):
        import solitaire
        print(solitaire.info() if hasattr(solitaire, "info") else "solitaire-kit (a checkout before issue 56)",
              flush=True)
    {"games": games, "chance": chance, "compare": compare, "samples": samples, "versus": versus}[a.what](a)


if __name__ == "__main__":
    main()
