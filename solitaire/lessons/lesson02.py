"""Checks for the exercises of lesson 02 (rules), registered with ``solitaire.lessons.check``."""
from __future__ import annotations

from typing import Any

from ..cards import full_deck
from ..moves import legal_moves, rules
from ..state import deal
from ..variants import KLONDIKE, VARIANTS
from .checks import Verdict, exercise, call_student, no_return, texts, same_set


@exercise("02.opening_moves", "List (as text) every legal move at the start of Klondike deal 7.")
def _opening_moves(answer: Any) -> Verdict:
    return same_set(texts(answer, "moves"), map(str, legal_moves(deal(KLONDIKE, 7))), "legal opening moves",
                     hint="Look at each column's top card: can it go to a foundation, or onto another column? "
                          "And is the stock empty?")


@exercise("02.fits", "Write fits(card, under, variant): may `card` sit on `under` in a column of `variant`?",
          pieces=["solitaire.moves.rules"], shows=("solitaire.moves.rules", "def fits", "return"))
def _fits(fn: Any) -> Verdict:
    for v in VARIANTS.values():
        r = rules(v)
        deck = sorted(set(full_deck(v.ranks)))
        for card in deck:
            for under in deck:
                want = under in r.parents[card]
                got = call_student(fn, card, under, v)
                if got is None:
                    return no_return(fn, got)
                if got != want:
                    verb = "may" if want else "may not"
                    return Verdict(False, f"fits({card}, {under}, {v.name}) returned {got!r}, but in {v.name} {card} "
                                          f"{verb} sit on {under}: {v.column_rule()}.")
    return Verdict(True, "fits agrees with the rules module for every pair of cards in all three variants.")
