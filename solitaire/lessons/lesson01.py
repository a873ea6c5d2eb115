"""Checks for the exercises of lessons 01 (cards) and 01b (shuffles), registered with ``solitaire.lessons.check``.

Each answer is a small function, tried on inputs the lessons never show (hands of cards, other cards and games
and numbers of shuffles), so a number copied from a lesson's output answers nothing.
"""
from __future__ import annotations

from typing import Any

from ..cards import Card, full_deck
from ..state import shuffled_deck
from ..variants import ITALIAN, KLONDIKE, SOLIJOY, Variant
from .checks import (NotAnswered, Verdict, answers_of, call_student, exercise, finite_number, hidden_inputs,
                     needs_function, no_return)


def _hands() -> list[list[Card]]:
    """Hidden hands for 01.red_cards: cards drawn from the three games' decks (SoliJoy's has each card twice), one
    of them empty, one all black."""
    decks = [full_deck(v.ranks, v.decks) for v in (KLONDIKE, SOLIJOY, ITALIAN)]
    hands = hidden_inputs(101, 9, lambda rng: rng.sample(decks[rng.randrange(3)], rng.randint(1, 30)))
    return [[], [c for c in full_deck() if not c.is_red][:9], *hands]


EARLY = [Card("2♣"), Card("A♥"), Card("K♦")]  # the first card black, two red after it: 0 after the first card


def _returned_none(fn: Any, hand: list[Card]) -> Verdict:
    """What happened when ``red_cards`` gave None for ``hand`` but a number for EARLY: a ``return`` inside the loop
    (an empty hand never reaches it; 0 for EARLY: it returned after the first card) or inside the ``if``."""
    early = call_student(fn, list(EARLY))
    if early is None:
        return no_return(fn, None)
    shown = " ".join(map(str, EARLY))
    if not hand:
        after = ": it returned after the first card" if early == 0 else ""
        return Verdict(False, f"red_cards returned None for an empty list of cards (the answer is 0), and {early!r} "
                              f"for {shown} (2 are red){after}. With no cards, the loop never runs and reaches no "
                              "`return`: is your `return` inside the loop?")
    return Verdict(False, f"red_cards returned None for these {len(hand)} cards, {sum(c.is_red for c in hand)} of "
                          f"them red, and {early!r} for {shown} (2 are red): these cards never reach your `return`. "
                          f"Is it inside the loop, or inside the `if`?\n  {' '.join(map(str, hand))}")


@exercise("01.red_cards", "Write red_cards(cards): how many of the cards in the list are red. It is tried on hands "
                          "of cards the lesson never shows.")
def _red_cards(fn: Any) -> Verdict:
    needs_function(fn, "red_cards(cards)", "a number answers one deck only")
    for hand in _hands():
        got = call_student(fn, list(hand))
        if got is None:
            return _returned_none(fn, hand)
        got = finite_number(got, "a number of cards")
        want = sum(1 for c in hand if c.is_red)
        if got != want:
            shown = " ".join(map(str, hand)) or "(no cards)"
            said = f"red_cards gave {got:g} for these {len(hand)} cards, but {want} of them are red:\n  {shown}"
            if len(hand) > 1 and got == int(hand[0].is_red) and call_student(fn, list(EARLY)) == 0:
                said += f"\n  {got:g} counts the first card alone: it returned after the first card"
            return Verdict(False, said)
    soli = call_student(fn, full_deck(SOLIJOY.ranks, SOLIJOY.decks))
    return Verdict(True, f"red_cards counts right on every hand tried; by it, SoliJoy's deck has {soli} red cards.")


@exercise("01.same_colour", "Write same_colour(a, b): True when cards a and b have the same colour.")
def _same_colour(fn: Any) -> Verdict:
    deck = full_deck()
    pairs = [(a, b) for a in deck for b in deck]
    for (a, b), got in zip(pairs, answers_of(fn, pairs)):
        if got is None:
            return no_return(fn, got)
        if got != (a.is_red == b.is_red):
            return Verdict(False, f"same_colour({a}, {b}) returned {got!r}: {a} is {a.color} and {b} is "
                                  f"{b.color}.")
    return Verdict(True, f"same_colour agrees with the kit on all {len(deck) ** 2} pairs of cards.")


THREE_DRAWN = Variant("Klondike draw 3", draw=3)  # the same 52 cards as Klondike: the same shuffles


def _place_inputs() -> list[tuple[Card, Variant, int]]:
    """Hidden (card, game, shuffles) for 01b.places: one-deck games only (a card is then in one place)."""
    games = (KLONDIKE, ITALIAN, THREE_DRAWN)

    def make(rng):
        game = games[rng.randrange(3)]
        return rng.choice(full_deck(game.ranks)), game, rng.randint(40, 160)
    return hidden_inputs(1202, 4, make)


def _counts(got: Any, size: int, call: str) -> list[float]:
    """A student's counts as a list, one number a place: a list, a tuple or a one-dimensional numpy array, or a
    dict (or pandas Series) from place to count, in which a place left out counts 0."""
    if getattr(got, "ndim", None) == 1 and not hasattr(got, "items"):  # a numpy array of counts (not a Series)
        got = list(got)
    elif getattr(got, "ndim", None) is not None and not hasattr(got, "items"):
        raise NotAnswered(f"{call} returned an array of shape {got.shape}: give one count a place, a list of "
                          f"{size} numbers")
    if hasattr(got, "items"):
        places = dict(got.items())
        wrong = [p for p in places if not isinstance(p, int) or not 0 <= p < size]
        if wrong:
            raise NotAnswered(f"{call} counts a place {wrong[0]!r}, but the places of a {size}-card deck are "
                              f"0 to {size - 1}")
        return [finite_number(places.get(p, 0), "a count") for p in range(size)]
    if isinstance(got, (list, tuple)):
        if len(got) != size:
            raise NotAnswered(f"{call} returned {len(got)} counts, but the deck has {size} places (0 to {size - 1})")
        return [finite_number(x, "a count") for x in got]
    raise NotAnswered(f"{call} should return a list of counts, one a place, got {type(got).__name__} {got!r}")


@exercise("01b.places", "Write places(card, variant, shuffles): a list with, for each place 0, 1, ... of the "
                        "variant's deck, how many of the shuffles with seeds 0 to shuffles - 1 put card there. It is "
                        "tried on cards, games and numbers of shuffles the lesson never shows.")
def _places(fn: Any) -> Verdict:
    needs_function(fn, "places(card, variant, shuffles)", "counts for one card answer one question only")
    for card, game, n in _place_inputs():
        call = f"places({card}, {game.name}, {n})"
        got = call_student(fn, card, game, n)
        if got is None:
            return no_return(fn, got)
        size = len(full_deck(game.ranks))
        counts = _counts(got, size, call)
        want = [0] * size
        for seed in range(n):
            want[shuffled_deck(game, seed).index(card)] += 1
        if counts != want:
            if sum(counts) != n:
                return Verdict(False, f"{call}: your counts add up to {sum(counts):g}, but there are {n} shuffles "
                                      f"(seeds 0 to {n - 1}): count each shuffle once.")
            place = next(p for p in range(size) if counts[p] != want[p])
            return Verdict(False, f"{call}: you count {counts[place]:g} shuffles with {card} at place {place}, the "
                                  f"kit's shuffles put it there {want[place]} times: are the seeds 0 to {n - 1}, and "
                                  "the places counted from 0?")
    return Verdict(True, "places counts right for every card, game and number of shuffles tried.")
