"""Checks for the exercises of lesson 01 (cards), registered with ``solitaire.lessons.check``."""
from __future__ import annotations

from typing import Any

from ..cards import full_deck
from ..state import shuffled_deck
from ..variants import ITALIAN, SOLIJOY
from .checks import Verdict, exercise, call_student, no_return, number_verdict, as_card


@exercise("01.red_cards", "How many red cards are there in SoliJoy's deck?")
def _red_cards(answer: Any) -> Verdict:
    deck = full_deck(SOLIJOY.ranks, SOLIJOY.decks)
    return number_verdict(answer, sum(c.is_red for c in deck), "the number of red cards in SoliJoy's two decks")


@exercise("01.same_colour", "Write same_colour(a, b): True when cards a and b have the same colour.")
def _same_colour(fn: Any) -> Verdict:
    deck = full_deck()
    for a in deck:
        for b in deck:
            got = call_student(fn, a, b)
            if got is None:
                return no_return(fn, got)
            if got != (a.is_red == b.is_red):
                return Verdict(False, f"same_colour({a}, {b}) returned {got!r}: {a} is {a.color} and {b} is "
                                      f"{b.color}.")
    return Verdict(True, f"same_colour agrees with the kit on all {len(deck) ** 2} pairs of cards.")


@exercise("01.first_card", "Which card comes first in the Italian deck shuffled with seed 2024?")
def _first_card(answer: Any) -> Verdict:
    want = shuffled_deck(ITALIAN, 2024)[0]
    got = as_card(answer)
    if got == want:
        return Verdict(True, f"seed 2024 puts {want} first, on this machine and every other one.")
    if got not in full_deck(ITALIAN.ranks):
        return Verdict(False, f"{got} is not even in the Italian 32-card deck (ranks {' '.join(ITALIAN.ranks)}).")
    return Verdict(False, f"{got} is in the deck, but not first: did you shuffle the Italian deck with seed 2024?")
