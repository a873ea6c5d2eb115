"""Does loading stay linear in the input's size? Long variant lines and piles, read through every door.

    python benchmarks/bench_loading.py [--sizes 10000 20000 40000 80000] [--repeat 3]

Issue 23: a variant line with a long run of letters or digits and no ``=`` made the rule regex of
``solitaire.notation`` backtrack from every letter, so 20,000 characters took 46 s and 40,000 took 208 s.
For each shape of hostile line below and each size, this times the read (best of ``--repeat``, CPU time,
so that a busy machine changes it little) through ``Game.from_text``, the JSON ``"start"`` of
``Game.from_json`` and the command line's ``--variant`` reader, and prints the time per 10,000 characters
for the largest size over that for the smallest: about 1 when the time is linear, about
largest / smallest when it is quadratic. Every read must be refused with a ``PositionTextError`` (or, for
``--variant``, argparse's one-line error). The last rows read columns with thousands of extra cards, through
``Game.from_text`` and ``Game.from_pysol``.
"""
from __future__ import annotations

import argparse
import json
import time

from solitaire import Game
from solitaire.cli import _variant
from solitaire.notation import PositionTextError

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
    args = parser.parse_args()
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
