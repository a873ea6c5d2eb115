"""``python -m solitaire tournament DIR``: every entrant file of a folder on the same secret deals, each in its own
sandbox, and the leaderboard. ``solitaire.cli`` registers it with ``add_parser`` (handing over its argument
types, so that this module does not import the command line back) and runs it with ``run``."""
from __future__ import annotations

import argparse
import os
import sys

from ..cards import quote
from ..cli_support import atomic_path, check_output, connect_scheduler


def add_parser(commands: argparse._SubParsersAction, types: dict) -> None:
    """Add the tournament command; ``types`` holds the command line's checks: ``whole(minimum, most)``,
    ``seconds``, ``variant``, ``variant_help``, ``most_deals`` and ``most_workers``."""
    whole, seconds = types["whole"], types["seconds"]
    to = commands.add_parser(
        "tournament", help="play every strategy file of a folder on the same secret deals and print a leaderboard",
        description="Each .py file of DIR is an entrant named by its stem: it defines `strategy` (an object with "
                    "choose(obs, moves)) or a function choose(obs, moves). Every entrant plays the same deals, "
                    "whose seeds are drawn secretly (64 bits) and revealed in --table once the games are played. "
                    "Each entrant runs in its own sandbox (bubblewrap: its own PID, mount, IPC and network "
                    "namespaces, seeing only Python and the kit, under a seccomp filter; cgroup limits as root) and "
                    "sees only what a player sees; one that crashes, hangs, runs out of memory or answers a move that "
                    "is not legal loses that game, and one that keeps reaching its limits, or uses up its time for "
                    "the tournament, forfeits the rest. "
                    "Where no sandbox is available the command says so and refuses to run the files unless "
                    "--trust-entrants.",
        epilog="example: python -m solitaire tournament solitaire/entrants --deals 100 --out class.sqlite "
               "--table games.csv --plot ranking.png   (rerun the same command to resume: the seeds are kept in --out)")
    to.add_argument("folder", metavar="DIR", help="the folder of entrant files (*.py)")
    to.add_argument("--variants", nargs="+", default=["klondike"], type=types["variant"], metavar="VARIANT",
                    help=types["variant_help"] + " (default: klondike)")
    to.add_argument("--deals", type=whole(1, types["most_deals"]), default=100, metavar="N",
                    help="deals per variant (default: 100)")
    to.add_argument("--out", default=None, metavar="FILE.sqlite",
                    help="SQLite results file: keeps the secret seeds and every finished game; a rerun resumes")
    to.add_argument("--table", default=None, metavar="FILE.csv",
                    help="write one row per game: entrant, variant, number, seed, outcome, reason, ...")
    to.add_argument("--plot", default=None, metavar="FILE.png",
                    help="save the ranking plot (win rates with their 95%% intervals) as this image")
    to.add_argument("--workers", type=whole(1, types["most_workers"]), default=1, metavar="N",
                    help="games played at once, each against its own entrant process (default: 1)")
    to.add_argument("--scheduler", default=None, metavar="ADDRESS",
                    help="play the games on this Dask cluster (e.g. tcp://127.0.0.1:8786)")
    to.add_argument("--move-seconds", type=seconds, default=1.0, metavar="S",
                    help="CPU seconds an entrant (all its processes) may think about one move (default: 1)")
    to.add_argument("--game-seconds", type=seconds, default=5.0, metavar="S",
                    help="wall-clock seconds an entrant may take for a whole game (default: 5)")
    to.add_argument("--max-moves", type=whole(1), default=5000, metavar="N", help="moves per game (default: 5000)")
    to.add_argument("--memory-mb", type=whole(64), default=1024, metavar="M",
                    help="memory of each entrant, all its processes together, in MB (default: 1024)")
    to.add_argument("--entrant-seconds", type=seconds, default=None, metavar="S",
                    help="wall-clock seconds an entrant may use in the whole tournament, its loads included; then it "
                         "forfeits the rest (default: 30 + game seconds for each of its games)")
    to.add_argument("--failures", type=whole(1), default=3, metavar="N",
                    help="games an entrant may lose to its limits (time, memory, processes) before it forfeits the "
                         "rest (default: 3)")
    to.add_argument("--trust-entrants", action="store_true",
                    help="run the files even where no sandbox contains them (they can then read your files)")
    to.add_argument("--all-pairs", action="store_true", help="also print the sign test between every two entrants")
    to.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int | None:
    """Play the tournament the arguments describe and print its report (the sandbox in use first, on stderr)."""
    from . import api, board
    from .referee import Limits
    from .sandbox import detect

    if not os.path.isdir(args.folder):
        raise ValueError(f"{quote(args.folder, 100)} is not a folder: give the folder that holds the entrant files")
    if args.plot and os.path.splitext(args.plot)[1].lower() not in {".png", ".svg", ".pdf", ".jpg", ".jpeg"}:
        raise ValueError(f"cannot save the plot as {quote(args.plot, 100)}: give a file name ending in .png, .svg, "
                         ".pdf or .jpg")
    check_output("--table", args.table, results=args.out)  # never over the results file or any SQLite file
    check_output("--plot", args.plot, results=args.out, example="ranking.png")
    limits = Limits(move_seconds=args.move_seconds, max_moves=args.max_moves, memory_mb=args.memory_mb,
                    game_seconds=args.game_seconds, entrant_seconds=args.entrant_seconds, failures=args.failures)
    client = None
    if args.scheduler:
        client = connect_scheduler(args.scheduler)  # an unreachable address is said first, in one line
    print(detect().line, file=sys.stderr)
    try:
        results = api.run(args.folder, args.variants, args.deals, out=args.out, workers=args.workers,
                          executor=client.get_executor() if client else None, limits=limits, quiet=True,
                          trust_entrants=args.trust_entrants)
    finally:
        if client is not None:
            client.close()
    for name, why in results.left_out.items():
        print(f"left out {name}: {why}", file=sys.stderr)
    print(board.report(results._replace(left_out={}), all_pairs=args.all_pairs))
    if args.table:
        with atomic_path(args.table) as path:  # the old file stays whole until the new one is
            board.write_table(results, path)
    if args.plot:
        save_plot(results, args.plot)
    return None


def save_plot(results, path: str) -> None:
    """Save ``plots.tournament_ranking`` of the results' leaderboard as an image (its format from the name)."""
    import matplotlib
    matplotlib.use("Agg")
    from ..plots import tournament_ranking
    fig = tournament_ranking(results.leaderboard())
    with atomic_path(path) as temporary:  # an earlier picture stays whole until the new one is
        fig.savefig(temporary, dpi=120, bbox_inches="tight")
    import matplotlib.pyplot as plt
    plt.close(fig)
