"""Checks for the exercises of lesson 02 (rules), registered with ``solitaire.lessons.check``."""
from __future__ import annotations

import math
from typing import Any

from ..cards import full_deck
from ..explain import explain_illegal
from ..moves import Move, legal_moves, rules
from ..state import deal
from ..variants import KLONDIKE, VARIANTS
from .checks import Verdict, NotAnswered, exercise, call_student, no_return, number_verdict, texts, same_set


@exercise("02.opening_moves", "List (as text) every legal move at the start of Klondike deal 7.")
def _opening_moves(answer: Any) -> Verdict:
    return same_set(texts(answer, "moves"), map(str, legal_moves(deal(KLONDIKE, 7))), "legal opening moves",
                     hint="Look at each column's top card: can it go to a foundation, or onto another column? "
                          "And is the stock empty?")


@exercise("02.fits", "Write fits(card, under, variant): may `card` sit on `under` in a column of `variant`?")
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


@exercise("02.stock_through", "Play Klondike deal 1 from the start, drawing until the stock is empty. "
                              "How many draws did it take?")
def _stock_through(answer: Any) -> Verdict:
    p = deal(KLONDIKE, 1)
    return number_verdict(answer, math.ceil(len(p.stock) / KLONDIKE.draw), "the number of draws")


@exercise("02.illegal_reason", "Give a move (text) that is illegal at the start of Klondike deal 7 because "
                               "the target is not one rank higher and of the opposite colour.")
def _illegal_reason(answer: Any) -> Verdict:
    p = deal(KLONDIKE, 7)
    move = Move.from_text(answer) if isinstance(answer, str) else answer
    if not isinstance(move, Move):
        raise NotAnswered(f"expected a move such as 't1>t2', got {answer!r}")
    if move in legal_moves(p):
        return Verdict(False, f"{move} is legal at the start of deal 7: look for one that is refused.")
    reason = explain_illegal(p, move) or "that move is not legal here"
    if "cannot go on" in reason and "higher rank" in reason:
        return Verdict(True, f"{move} is refused: {reason}.")
    return Verdict(False, f"{move} is illegal, but for another reason: {reason}.")
