"""The command line: ``python -m solitaire experiment ...``, ``solve ...``, ``hint ...`` and ``chance ...``."""
from __future__ import annotations

import argparse
import math
import os
import re
import stat
import sys
from collections.abc import Sequence

from .cards import quote
from .cli_support import (EXIT_BROKEN_PIPE, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_USAGE, CommandError, atomic_path,
                          catch_interrupts, check_not_results, check_output, connect_scheduler, is_path_error)
from .endgame import Outcome
from .strategies import STRATEGY_NAMES
from .variants import VARIANTS

# The ranges of the numbers, checked before any work: every seed is a 64-bit number (below 2**64, in every command
# and in a results table), and the counts are those one run can hold in memory.
SEEDS = 2 ** 64
MOST_DEALS = 1_000_000
MOST_WORKERS = 256
MOST_SAMPLES = 10_000
_VARIANT_HELP = (f"a registered variant ({', '.join(VARIANTS)}), optionally followed by changed rules in quotes, "
                 "such as \"klondike draw=3\"")


def _whole(minimum: int, most: int | None = None, why: str = ""):
    """A reader of whole numbers from ``minimum`` to ``most`` (None: no upper bound); ``why`` explains it."""
    def parse(text: str) -> int:
        try:
            if not re.fullmatch("[+-]?[0-9]+", text.strip()):  # int() alone takes 1_000 and full-width digits
                raise ValueError
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {quote(text)}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected a whole number >= {minimum}, got {quote(text)}")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"expected a whole number from {minimum} to {most:,}{why}, got "
                                             f"{quote(text)}")
        return value
    parse.__name__ = "whole number"
    return parse


def _choice(names: Sequence[str]):
    """A reader of one of ``names`` (argparse's own choices would echo a wrong one however long it is)."""
    def parse(text: str) -> str:
        if text not in names:
            raise argparse.ArgumentTypeError(f"invalid choice: {quote(text)} (choose from {', '.join(names)})")
        return text
    parse.__name__ = "choice"
    return parse


def _seconds(text: str) -> float:
    try:
        if not text.isascii() or "_" in text:  # float() alone takes 1_0 and full-width digits
            raise ValueError
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {quote(text)}") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {quote(text)}")
    return value


def _variant(text: str):
    """A variant as the command line gives it: a registered name, optionally followed by changed rules.

    >>> _variant("bogus")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: unknown variant 'bogus': choose one of klondike, solijoy, italian, optionally followed by changed rules in quotes, such as "klondike draw=3"
    """
    from .notation import variant_from_text
    try:
        return variant_from_text(text)
    except ValueError as e:
        message = str(e) if quote(text) in str(e) else f"cannot read the variant {quote(text)} ({e})"
        if message.endswith(" or pass a Variant"):  # the API's advice: a command line cannot pass one
            message = (message.removesuffix(" or pass a Variant") + ", optionally followed by changed rules in "
                       "quotes, such as \"klondike draw=3\"")
        raise argparse.ArgumentTypeError(message) from None


def build_parser() -> argparse.ArgumentParser:
    """The command line: experiment, solve, hint and chance, each with its own options and an example."""
    parser = argparse.ArgumentParser(
        prog="python -m solitaire", description="Klondike-family solitaire: win-rate experiments and a solver.")
    parser.add_argument("--version", action=_Version, help="the kit's version, and whether it runs compiled or in "
                        "pure Python")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add_command in (_add_experiment, _add_solve, _add_hint, _add_chance):
        add_command(commands)
    from .tournament import command as tournament  # its own module; it gets this module's argument types
    tournament.add_parser(commands, {"whole": _whole, "seconds": _seconds, "variant": _variant, "variant_help":
                                     _VARIANT_HELP, "most_deals": MOST_DEALS, "most_workers": MOST_WORKERS})
    from .classroom import cli_class_report, cli_lab, cli_lessons, cli_nbgrader, lite
    for module in (cli_nbgrader, cli_class_report, cli_lessons, cli_lab, lite):
        module.add_parser(commands)
    return parser


class _Version(argparse.Action):
    """``--version``: print ``solitaire.info()`` (worked out only when asked: it imports the compiled modules)."""

    def __init__(self, option_strings, dest, **kwargs) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from . import info
        print(info())
        parser.exit(0)


def _add_experiment(commands: argparse._SubParsersAction) -> None:
    """The experiment command: many deals, several strategies, a summary row each."""
    ex = commands.add_parser(
        "experiment", help="play many deals with several strategies and print win rates",
        description="Play deals 0..N-1 (or from --first-seed) of each variant with each strategy, in parallel, "
                    "and print one summary row per variant and strategy: games, wins, win rate with its "
                    "Wilson 95% interval and, for the solver, the deals it could not decide within budget.",
        epilog="example: python -m solitaire experiment --variants klondike italian --strategies greedy solver "
               "--deals 200 --max-seconds 5 --workers 2 --out results.sqlite   (rerun the same command to "
               "resume after an interruption: finished games are kept in --out)")
    ex.add_argument("--variants", nargs="+", default=["klondike"], type=_variant, metavar="VARIANT",
                    help=_VARIANT_HELP + " (default: klondike)")
    ex.add_argument("--strategies", nargs="+", default=["greedy"], type=_choice(STRATEGY_NAMES), metavar="STRATEGY",
                    help="random, greedy, solver or expert (default: greedy)")
    ex.add_argument("--deals", type=_whole(1, MOST_DEALS, " (split a longer run with --first-seed)"), default=100,
                    metavar="N", help=f"deals per variant, at most {MOST_DEALS:,} (default: 100)")
    ex.add_argument("--first-seed", type=_whole(0, SEEDS - 1, " (2**64 - 1)"),
                    default=0, metavar="S", help="seed of the first deal (default: 0)")
    ex.add_argument("--max-seconds", type=_seconds, default=10.0, metavar="T",
                    help="solver time limit per deal in seconds (default: 10)")
    ex.add_argument("--max-nodes", type=_whole(1), default=None, metavar="N",
                    help="solver limit on positions searched per deal (default: none)")
    ex.add_argument("--retry-unknown", nargs="+", type=_seconds, default=[], metavar="T",
                    help="retry the deals the solver left unknown with these longer time limits, in turn "
                         "(e.g. --max-seconds 10 --retry-unknown 60)")
    ex.add_argument("--max-moves", type=_whole(1), default=5000, metavar="N",
                    help="move limit per game for random and greedy (default: 5000)")
    ex.add_argument("--workers", type=_whole(1, MOST_WORKERS), default=None, metavar="N",
                    help=f"processes to use, at most {MOST_WORKERS} (default: all cores; 1 plays in this process)")
    ex.add_argument("--out", default=None, metavar="FILE",
                    help="SQLite results file: finished games are saved as they end and skipped on a rerun")
    ex.add_argument("--table", default=None, metavar="FILE.csv", help="also write the per-game table as CSV")
    ex.add_argument("--no-progress", action="store_true", help="do not show the progress bar")
    ex.set_defaults(handler=_experiment)


def _add_solve(commands: argparse._SubParsersAction) -> None:
    """The solve command: the solver's line for one position."""
    so = commands.add_parser(
        "solve", help="solve one deal (or a saved position) and print the moves",
        description="Search for a winning line of play. Prints the status (won, unwinnable or unknown when the "
                    "budget ran out), the effort, and the moves in the kit's notation (draw, w>t3, t3>f, ...).",
        epilog="example: python -m solitaire solve --variant klondike --seed 3 --max-seconds 10")
    _add_position_arguments(so)
    so.add_argument("--max-seconds", type=_seconds, default=10.0, metavar="T", help="time limit (default: 10)")
    so.add_argument("--max-nodes", type=_whole(1), default=None, metavar="N",
                    help="limit on positions searched (default: none)")
    so.set_defaults(handler=_solve)


def _add_hint(commands: argparse._SubParsersAction) -> None:
    """The hint command: one strategy's move and its reason."""
    hi = commands.add_parser(
        "hint", help="the move a strategy would play in one deal (or a saved position), and why",
        description="Ask a strategy for its move and its reason in one sentence. The strategies see only what "
                    "a player sees. The expert also remembers what the game showed: a saved game (JSON from "
                    "game.to_json()) keeps its moves, so after the waste was turned over it knows the stock's order; "
                    "a position as text has no history.",
        epilog="example: python -m solitaire hint --strategy expert --seed 3")
    _add_position_arguments(hi)
    hi.add_argument("--strategy", type=_choice([n for n in STRATEGY_NAMES if n != "solver"]), default="expert",
                    metavar="STRATEGY", help="random, greedy or expert (default: expert; for the solver's line "
                                             "use the solve command)")
    hi.set_defaults(handler=_hint)


def _add_chance(commands: argparse._SubParsersAction) -> None:
    """The chance command: the win chance of a position without seeing the face-down cards."""
    ch = commands.add_parser(
        "chance", help="the chance to win from a deal (or a saved position) without seeing the face-down cards",
        description="Deal the unseen cards at random in ways consistent with what the player has seen, solve "
                    "each such layout, and print the share the solver wins with its Wilson 95% interval. "
                    "Hindsight makes it optimistic: a player who cannot see the cards wins less often.",
        epilog="example: python -m solitaire chance --seed 3 --samples 20")
    _add_position_arguments(ch)
    ch.add_argument("--samples", type=_whole(1, MOST_SAMPLES), default=20, metavar="N",
                    help=f"layouts to sample, at most {MOST_SAMPLES:,} (default: 20)")
    ch.add_argument("--sample-seed", type=_whole(0, SEEDS - 1, " (2**64 - 1)"), default=0, metavar="S",
                    help="seed of the sampling (default: 0)")
    ch.add_argument("--max-nodes", type=_whole(1), default=5000, metavar="N",
                    help="solver limit on positions searched per layout (default: 5000)")
    ch.set_defaults(handler=_chance)


def _add_position_arguments(command: argparse.ArgumentParser) -> None:
    """--variant, --seed and --position-file: which game a one-position command looks at."""
    command.add_argument("--variant", type=_variant, default=None, metavar="VARIANT",
                         help=_VARIANT_HELP + " (default: klondike; a position file names its own variant)")
    command.add_argument("--seed", type=_whole(0, SEEDS - 1, " (2**64 - 1)"), default=None, metavar="S",
                         help="the deal's seed (default: 0; not with --position-file, which holds its own game)")
    command.add_argument("--position-file", default=None, metavar="FILE",
                         help="use the position in FILE (text from game.to_text() or JSON from game.to_json()) "
                              "instead of a fresh deal")


def _experiment(args: argparse.Namespace) -> int:
    import pandas as pd

    from .experiments import run, summary, variant_label

    _check_experiment(args)
    variants = {variant_label(v): v for v in args.variants}
    table = run(variants, args.strategies, range(args.first_seed, args.first_seed + args.deals),
                max_seconds=args.max_seconds, max_nodes=args.max_nodes, max_moves=args.max_moves,
                retry_unknown=args.retry_unknown, workers=args.workers, results=args.out,
                progress=not args.no_progress)
    s = summary(table)
    shown = s.drop(columns=[c for c in ("winnable_low", "winnable_high") if s[c].isna().all()])
    with pd.option_context("display.width", 200, "display.max_columns", 30, "display.float_format", "{:.3f}".format):
        print(shown.to_string(index=False), flush=True)  # before the table, which a full disk may stop
    if args.table:
        try:
            with atomic_path(args.table) as path:  # the old file stays whole until the new one is
                table.to_csv(path, index=False)
        except OSError as e:
            kept = f"; the games are kept in {args.out}" if args.out else ""
            raise OutputError(f"cannot write the table file {quote(args.table, 100)} ({e.strerror or e}): the summary "
                              f"above is complete{kept}; free some space or give another --table file") from None
    return 0


def _check_experiment(args: argparse.Namespace) -> None:
    """What argparse cannot check alone, before any game is played: the last seed, and the --table file."""
    if args.first_seed + args.deals > SEEDS:
        raise ValueError(f"the last deal's seed, --first-seed + --deals - 1 = {args.first_seed + args.deals - 1:,}, "
                         "must be below 2**64 (a deal's seed is a 64-bit number)")
    if args.retry_unknown and "solver" not in args.strategies:
        raise ValueError("--retry-unknown gives the solver's unknown deals a longer look, but --strategies has no "
                         "solver: add solver to --strategies, or leave out --retry-unknown")
    if args.out is not None:
        _check_regular("--out", args.out, "results.sqlite")
    check_output("--table", args.table, results=args.out)


class OutputError(Exception):
    """Output that could not be written at the end of a command (a full disk, stdout to /dev/full): one line."""


def _check_regular(option: str, path: str, example: str) -> None:
    """Refuse an empty path, and a path that is not a regular file (a FIFO or a device), before any work."""
    if not path:
        raise ValueError(f"{option} is empty: give a file name, such as {example}")
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # a new file (or a link to nowhere): made when written
    if stat.S_ISDIR(mode):
        raise ValueError(f"{option} {quote(path, 100)} is a folder: give a file name, such as {example}")
    if not stat.S_ISREG(mode):
        raise ValueError(f"{option} {quote(path, 100)} is not a regular file (a pipe or a device): give a file name, "
                         f"such as {example}")


def _solve(args: argparse.Namespace) -> int:
    from .solver import solve

    game, where = _game(args)
    result = solve(game.position, max_seconds=args.max_seconds, max_nodes=args.max_nodes)
    print(f"{where}: {result.status} ({result.nodes} positions searched in {result.seconds:.2f} s)")
    if result.status == Outcome.WON:
        print(f"{len(result.moves)} moves (ten a line, each line starts with the number of its first move):")
        for i in range(0, len(result.moves), 10):
            print(f"{i + 1:5}  " + ", ".join(str(m) for m in result.moves[i:i + 10]))
    return 0


def _hint(args: argparse.Namespace) -> int:
    from .strategies import strategy_hint

    game, where = _game(args)
    if game.is_over():
        raise ValueError(f"{where} is over ({game.over_reason()}): there is no move to suggest")
    move, reason = strategy_hint(game, args.strategy)
    print(f"{where}: {move}")
    print(reason)
    return 0


def _chance(args: argparse.Namespace) -> int:
    from .expert import win_chance

    game, where = _game(args)
    if game.is_over():  # no layouts to sample: the game is decided
        print(f"{where}: the game is won (every card is on a foundation)" if game.is_won() else
              f"{where}: the game is over (no more moves), so it can no longer be won")
        return 0
    chance = win_chance(game, samples=args.samples, seed=args.sample_seed, max_nodes=args.max_nodes)
    print(f"{where}: win chance {chance}")
    return 0


def _game(args: argparse.Namespace):
    """The game a one-position command looks at, and how to name it in its output."""
    from .game import Game

    if args.position_file is not None:
        if args.seed is not None:
            raise ValueError(f"--seed {args.seed} and --position-file {quote(args.position_file, 100)} name two games: "
                             "a position file holds its own game; leave out --seed")
        game = _read_position(args.position_file)
        if args.variant is not None and args.variant != game.variant:
            raise ValueError(f"the position in {quote(args.position_file, 100)} is {_variant_name(game.variant)}, "
                             f"not {_variant_name(args.variant)}: leave out --variant")
        return game, f"the position in {args.position_file}"
    seed = args.seed or 0
    game = Game(args.variant or VARIANTS["klondike"], seed=seed)
    return game, f"{_variant_name(game.variant)} deal {seed}"


def _variant_name(v) -> str:
    """The variant's name, or its rules when it has the name of a registered variant but other rules."""
    if v.key or v.name not in {known.name for known in VARIANTS.values()}:
        return v.name
    from .notation import variant_to_text
    return variant_to_text(v)


def _read_position(path: str):
    """The game in a position file: a regular file (no pipe or device, which could block or never end), of which
    at most one character more than a saved game may hold is read; a UTF-8 byte-order mark is skipped."""
    from .game import Game
    from .notation import MAX_SAVED_GAME
    _check_regular("--position-file", path, "position.txt")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a pipe put there since is not waited for
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise ValueError(f"--position-file {quote(path, 100)} is not a regular file (a pipe or a device): give "
                             "a file written by game.to_text() or game.to_json()")
        with open(fd, encoding="utf-8-sig") as f:
            text = f.read(MAX_SAVED_GAME + 1)
    except (OSError, UnicodeDecodeError) as e:
        why = e.strerror if isinstance(e, OSError) else "it is not UTF-8 text"
        raise ValueError(f"cannot read the position file {quote(path, 100)}: {why}") from None
    if len(text) > MAX_SAVED_GAME:
        raise ValueError(f"the position file {quote(path, 100)} is over {MAX_SAVED_GAME:,} characters: a position or "
                         "saved game is far shorter")
    if text.lstrip().startswith("{"):
        return Game.from_json(text)
    return Game.from_text(text)


def _drop_stdout() -> None:
    """After a write error on stdout: send what is left in its buffer to nowhere, so that exit does not fail again."""
    try:
        sys.stdout.flush()
    except OSError:
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its exit code: 0 done, 1 it could not do its work here, 2 what was typed cannot be used,
    130 interrupted (Ctrl-C), 141 the reader of its output went away (``cli_support.EXIT_*``)."""
    with catch_interrupts(ending=argv is None):  # as the program, a Ctrl-C after the end is ignored
        try:
            parser = build_parser()
            args = parser.parse_args(argv)
        except KeyboardInterrupt:
            print("\npython -m solitaire: interrupted while starting: nothing was done", file=sys.stderr)
            return EXIT_INTERRUPTED

        def fail(code: int, message: object) -> None:
            _drop_stdout()
            parser.exit(code, f"{parser.prog} {args.command}: error: {message}\n")

        try:
            code = args.handler(args)
            sys.stdout.flush()  # here, so that a full disk or /dev/full gives one line below, not a traceback at exit
            return code or 0
        except KeyboardInterrupt:
            print(f"\n{parser.prog} {args.command}: interrupted {interrupted_text(args)}", file=sys.stderr)
            return EXIT_INTERRUPTED
        except BrokenPipeError:  # as a Unix tool: `... | head` ends quietly
            _drop_stdout()
            return EXIT_BROKEN_PIPE
        except ValueError as e:
            fail(EXIT_USAGE, e)
        except ModuleNotFoundError as e:
            fail(EXIT_FAILED, f"this command needs {e.name!r}, which is not installed: pip install -e \".[lab]\" "
                              "in the kit's folder (or pip install 'solitaire-kit[lab]')")
        except (OutputError, CommandError) as e:
            fail(EXIT_FAILED, e)
        except OSError as e:
            fail(EXIT_USAGE if is_path_error(e) and e.filename else EXIT_FAILED, _os_error_text(e))


def _os_error_text(e: OSError) -> str:
    """An OSError no command turned into its own message: what failed, on which file."""
    if not e.filename:
        return f"cannot write the output ({e.strerror or e})"
    if is_path_error(e):
        return f"{quote(str(e.filename), 100)}: {e.strerror or e}: give a path that exists and that you may use"
    return f"{quote(str(e.filename), 100)}: {e.strerror or e}"


def interrupted_text(args: argparse.Namespace) -> str:
    """After Ctrl-C: what the command was doing, what it kept and how to go on (a command may say it itself, in
    ``args.kept``, as it goes).

    >>> interrupted_text(argparse.Namespace(command="solve"))
    'while searching: nothing was written; a smaller --max-seconds or --max-nodes ends the search sooner'
    """
    said = getattr(args, "kept", None)
    if said:
        return said() if callable(said) else said
    out = getattr(args, "out", None)
    if args.command == "experiment":
        if not out:
            return ("while playing the games: nothing was kept (with --out FILE the finished games are kept, and a "
                    "rerun plays only the rest)")
        return f"while playing the games: {_games_kept(out)}; rerun the same command to play the rest"
    if args.command == "tournament":
        return (f"while playing the tournament: {quote(out, 100)} keeps the secret seeds and every finished game; "
                "rerun the same command to play the rest" if out else
                "while playing the tournament: nothing was kept (give --out FILE.sqlite to keep the games and resume)")
    return {"solve": "while searching: nothing was written; a smaller --max-seconds or --max-nodes ends the search "
                     "sooner",
            "hint": "while the strategy chose its move: nothing was written",
            "chance": "while sampling layouts: nothing was written; fewer --samples or a smaller --max-nodes give an "
                      "answer sooner",
            "class-report": "while reading the grades: no file was written (an earlier --out or --by-exercise file "
                            "is as it was)"}.get(args.command, "before it began its work: nothing was written")


def _games_kept(path: str) -> str:
    """How many finished games the results file keeps, in words."""
    import sqlite3

    from .results_file import connect_read_only
    try:
        db = connect_read_only(path)
        try:
            n = db.execute("SELECT count(*) FROM games").fetchone()[0]
        finally:
            db.close()
    except (sqlite3.Error, OSError):
        n = 0
    games = "no finished game yet" if n == 0 else "1 finished game" if n == 1 else f"{n:,} finished games"
    return f"{quote(path, 100)} keeps {games} (a game in progress is played again)"
