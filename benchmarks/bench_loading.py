"""Does loading stay linear in the input's size? Long variant lines and piles, read through every door; and how
long does the largest saved game the loaders accept take to load?

    python benchmarks/bench_loading.py [--sizes 10000 20000 40000 80000] [--repeat 3] [--only-saved-games]

Issue 23: a variant line with a long run of letters or digits and no ``=`` made the rule regex of
``solitaire.notation`` backtrack from every letter, so 20,000 characters took 46 s and 40,000 took 208 s.
For each shape of hostile line below and each size, this times the read (best of ``--repeat``, CPU time,
so that a busy machine changes it little) through ``Game.from_text``, the JSON ``"start"`` of
``Game.from_json`` and the command line's ``--variant`` reader, and prints the time per 10,000 characters
for the largest size over that for the smallest: about 1 when the time is linear, about
largest / smallest when it is quadratic. Every read must be refused with a ``PositionTextError`` (or, for
``--variant``, argparse's one-line error). The last rows read columns with thousands of extra cards, through
``Game.from_text`` and ``Game.from_pysol``.

Issue 31: a saved game of 200,000 moves and 200,000 to redo was accepted, then took 8 s to load. The last
rows load, through ``Game.from_json``, saved games of ``MAX_MOVES`` moves in all (half played, half to
redo), each made of the moves that are slowest to check, and print the CPU seconds (best of ``--repeat``):
the bound is 2 s on one core. The loader checks every move against ``legal_moves``, whose cost grows with
the builds on the table, so the slowest games are long loops on a table full of builds: SoliJoy's eight
13-card builds with one empty column (any card may start one), a build moved there and back; four
builds and five empty columns (265 legal moves) with the other cards in the stock, drawn and recycled; and Klondike's deal 1 drawn and recycled.
"""
from __future__ import annotations

import argparse
import json
import time

from solitaire import KLONDIKE, SOLIJOY, Game, Position, card
from solitaire.cli import _variant
from solitaire.notation import MAX_MOVES, MAX_SAVED_GAME, PositionTextError

TEXT = Game("klondike").to_text()
PYSOL = Game("klondike").to_pysol()
SHAPES = {  # a variant line's tail, n characters long
    "digits": lambda n: "9" * n,
    "letters": lambda n: "a" * n,
    "word=": lambda n: ("draw" * n)[:n] + "=",
    "a=a=a=": lambda n: "a=" * (n // 2),
    'a="': lambda n: 'a="' * (n // 3),
    'unclosed "': lambda n: 'draw="' + "x" * n,
    "backslashes": lambda n: 'draw="' + "\\" * n,
    "many rules": lambda n: "draw=3 " * (n // 7),
}


def through_text(tail: str) -> None:
    Game.from_text(TEXT.replace("variant: klondike", "variant: klondike " + tail))


def through_json(tail: str) -> None:
    data = json.loads(Game("klondike").to_json())
    data["start"] = data["start"].replace("variant: klondike", "variant: klondike " + tail)
    Game.from_json(json.dumps(data))


def through_cli(tail: str) -> None:
    _variant("klondike " + tail)


def pysol_with_cards(n: int) -> str:
    talon, first_column, rest = PYSOL.split("\n", 2)
    return "\n".join([talon, first_column + " KS" * (n // 3), rest])


PILES = {  # other long lines: extra cards in a column, through the position text and a PySolFC layout
    "t1 cards": (lambda n: TEXT.replace("t1: ", "t1: " + "K♠ " * (n // 3)), Game.from_text),
    "pysol cards": (pysol_with_cards, Game.from_pysol),
}



def _builds(v, count: int) -> list[tuple]:
    """``count`` columns of whole builds, King down to Ace in alternate colours."""
    suits = [("♠", "♥"), ("♥", "♠"), ("♣", "♦"), ("♦", "♣")]
    return [tuple(card(r, suits[b % 4][i % 2]) for i, r in enumerate(reversed(v.ranks))) for b in range(count)]


def _saved(start: Position, loop: list[str]) -> str:
    """A saved game of ``MAX_MOVES`` moves in all, ``loop`` repeated: half played, half to redo."""
    game = Game.from_position(start)
    game.play_all(loop)  # the loop is legal from the start and comes back to a position where it is legal again
    moves = (loop * (MAX_MOVES // len(loop) + 1))[:MAX_MOVES]
    data = json.loads(game.to_json()) | {"moves": moves[:MAX_MOVES // 2], "redo": moves[MAX_MOVES // 2:]}
    text = json.dumps(data, separators=(",", ":"))
    assert len(text) <= MAX_SAVED_GAME
    return text


def largest_saved_games() -> dict[str, str]:
    """The slowest saved games to load that the loaders accept (see the module's docstring)."""
    empty = lambda v: tuple(() for _ in range(v.foundations))  # noqa: E731
    full = _builds(SOLIJOY, 8) + [()]
    there_and_back = Position(SOLIJOY, (), (), empty(SOLIJOY), tuple(full), (0,) * 9)
    four = _builds(SOLIJOY, 4) + [()] * 5  # the most moves: each of 52 cards to each of 5 empty columns
    stock = tuple(c for build in _builds(SOLIJOY, 8)[4:] for c in build)
    with_stock = Position(SOLIJOY, stock, (), empty(SOLIJOY), tuple(four), (0,) * 9)
    return {"SoliJoy 13-card build there and back": _saved(there_and_back, ["t1>t9:13", "t9>t1:13"]),
            "SoliJoy builds, draw and recycle": _saved(with_stock, ["draw"] * 52 + ["recycle"]),
            "Klondike deal 1, draw and recycle": _saved(Game(KLONDIKE, 1).start, ["draw"] * 24 + ["recycle"])}


def cpu_seconds(read, text: str, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        try:
            read(text)
        except (PositionTextError, argparse.ArgumentTypeError):
            pass
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 20_000, 40_000, 80_000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only-saved-games", action="store_true", help="only the largest saved games")
    args = parser.parse_args()
    if not args.only_saved_games:
        linear(args)
    print(f"\nthe largest saved games accepted ({MAX_MOVES:,} moves in all), through Game.from_json, CPU seconds "
          f"(best of {args.repeat}; the bound is 2 s):")
    for name, text in largest_saved_games().items():
        game = Game.from_json(text)
        assert len(game.moves) + game.can_redo() * (MAX_MOVES - len(game.moves)) == MAX_MOVES
        print(f"  {name:40} {len(text):>9,} characters {cpu_seconds(Game.from_json, text, args.repeat):6.2f} s")


def linear(args: argparse.Namespace) -> None:
    """Time against size for the hostile lines and piles."""
    doors = {"from_text": through_text, "from_json": through_json, "--variant": through_cli}
    print(f"{'shape':12} {'door':10} " + " ".join(f"{n:>9,}" for n in args.sizes) + "   ms per 10k chars: last/first")
    for shape, make in SHAPES.items():
        for door, read in doors.items():
            times = [cpu_seconds(read, make(n), args.repeat) for n in args.sizes]
            per = [t / n for t, n in zip(times, args.sizes)]
            print(f"{shape:12} {door:10} " + " ".join(f"{1000 * t:7.1f}ms" for t in times)
                  + f"   {per[-1] / max(per[0], 1e-12):5.2f}")
    for shape, (make, read) in PILES.items():
        times = [cpu_seconds(read, make(n), args.repeat) for n in args.sizes]
        per = [t / n for t, n in zip(times, args.sizes)]
        print(f"{shape:12} {read.__name__:10} " + " ".join(f"{1000 * t:7.1f}ms" for t in times)
              + f"   {per[-1] / max(per[0], 1e-12):5.2f}")


if __name__ == "__main__":
    main()
