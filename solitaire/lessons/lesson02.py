"""Checks for the exercises of lessons 02 (the stock's moves) and 02a (the column rule, ``fits``).

Each student piece is tried on hidden inputs (positions of deals no lesson shows, every pair of cards of
variants the lesson never builds) with the kit's own piece switched off, so a wrapper around it fails.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from ..cards import full_deck
from ..moves import RECYCLE, _stock_moves, legal_moves, passes_left, rules
from ..knowledge import observe
from ..players import GreedyStrategy
from ..state import Position, deal
from ..strategies import game_loop
from ..variants import ITALIAN, KLONDIKE, SOLIJOY, Variant
from .checks import Verdict
from .hidden import graded, hidden_rngs, hidden_seeds
from .pieces import (CHECKED_VARIANTS, HIDDEN_SEEDS, POSITIONS_PER_VARIANT, as_moves, missing_and_extra, playout_positions, register, run_student)
from ..render import text_diagram


def stock_positions() -> list:
    """Hidden positions for the stock's moves: playout positions, the same with the stock turned over onto
    the waste after 0 to 3 passes (so that recycling, and running out of passes, are met), and positions of
    greedy's games where the stock and the waste are both empty (every card of the deck still in play).

    >>> from solitaire.validity import status
    >>> ps = stock_positions()
    >>> any(not p.stock and not p.waste for p in ps), [p for p in ps if status(p)]
    (True, [])
    """
    found = []
    for rng, first in zip(hidden_rngs(3), (0, POSITIONS_PER_VARIANT)):  # in a graded check, the secret ones first
        for v in CHECKED_VARIANTS:
            for p in playout_positions(v)[first:first + 150]:
                found.append(p)
                found.append(p._replace(stock=(), waste=p.waste + p.stock[::-1],
                                        recycles=rng.randint(0, (p.variant.passes or 4) - 1)))
    return found + [p for v in CHECKED_VARIANTS for p in cleared_positions(v)]


@lru_cache(maxsize=8)
def cleared_positions(v: Variant, n: int = 5) -> tuple[Position, ...]:
    """Positions of ``n`` hidden deals of ``v`` played by greedy (in a graded check, ``n`` secret deals first),
    each the first of its game with no card in the stock nor in the waste: positions play reaches, whole decks.

    >>> [(len(p.stock), len(p.waste), sum(map(len, p.columns + p.foundations)))
    ...  for p in cleared_positions(KLONDIKE, 2)]
    [(0, 0, 52), (0, 0, 52)]
    """
    found: list[Position] = []
    for first in hidden_seeds([HIDDEN_SEEDS], HIDDEN_SEEDS + 2):
        seed, mine = first, []
        while len(mine) < n:
            mine += _first_cleared(v, seed)
            seed += 1
        found += mine
    return tuple(found)


def _first_cleared(v: Variant, seed: int) -> list[Position]:
    """The first position of greedy's game of deal ``seed`` with the stock and the waste empty, if it meets one."""
    greedy, met = GreedyStrategy(), []

    def pick(p: Position, moves: list) -> list:
        if not p.stock and not p.waste and not met:
            met.append(p)
        return greedy.rank(observe(p), moves)
    game_loop(deal(v, seed), pick, True, max_moves=1000)
    return met


@register("02.stock_moves", "Write stock_moves(p): a draw while the stock holds cards; once it is empty, a recycle "
                            "of the waste, while the variant's passes are not used up.",
          pieces=(_stock_moves, passes_left, legal_moves, "solitaire.engine.Engine.legal_moves"), shows=_stock_moves)
def _stock_moves_check(fn: Any) -> Verdict:
    positions = stock_positions()
    answers = run_student(fn, [(p,) for p in positions])
    for p, got in zip(positions, answers):
        got, want = as_moves(got, "stock_moves(p)"), _stock_moves(p, rules(p.variant))
        if Counter(got) != Counter(want):
            passes = "unlimited" if p.variant.passes is None else p.variant.passes
            return Verdict(False, f"on this {p.variant.name} position (passes: {passes}, recycled "
                                  f"{p.recycles} times so far):\n{text_diagram(p)}\n  stock_moves(p) returned "
                                  f"{[str(m) for m in got]}, the rules allow {[str(m) for m in want]}\n"
                                  f"{missing_and_extra(got, want)}\n" + _stock_hint(p, want))
    return Verdict(True, f"stock_moves agrees with the rules on all {len(positions)} positions (hidden deals of "
                         f"{len(CHECKED_VARIANTS)} variants, with passes unlimited, one, two or three).")


def _stock_hint(p, want) -> str:
    if p.stock:
        return "  hint: while the stock holds cards, the only stock move is a draw."
    if not p.waste:
        return "  hint: with no card in the stock nor in the waste there is nothing to draw or recycle."
    if want and want[0].kind == RECYCLE:
        return "  hint: the stock is empty and the variant allows another pass: recycle."
    return ("  hint: p.variant.passes is how many times the stock may be gone through (None: no limit), and "
            "p.recycles how many times the waste was turned over already.")


def fit_variants() -> list[Variant]:
    """The games the fits check tries: the three of the lessons and readings of them no lesson builds (in a graded
    check, three secret ones too)."""
    from .lesson03 import hidden_variants
    return [*(hidden_variants(seed=202, n=3)[:3] if graded() else []), KLONDIKE, SOLIJOY, ITALIAN,
            Variant("Klondike by suit", build="suit"),
            Variant("Klondike, any colour", build="any"),
            Variant("Italian, columns the other way", decks=1, ranks=ITALIAN.ranks, build="alternate",
                    columns_follow_foundation_order=False),
            Variant("Two decks by suit, upward", decks=2, columns=(1, 2, 3, 4, 5, 6, 7, 8, 9),
                    columns_follow_foundation_order=True, build="suit", empty_column_ranks=None)]


@register("02a.fits", "Write fits(card, under, variant): may `card` sit on `under` in a column of `variant`?",
          pieces=(rules, "solitaire.explain.explain_illegal"), shows=(rules, "def kit_fits", "return"))
def _fits(fn: Any) -> Verdict:
    for v in fit_variants():
        r = rules(v)
        deck = sorted(set(full_deck(v.ranks)))
        pairs = [(card, under, v) for card in deck for under in deck]
        answers = run_student(fn, pairs)
        for (card, under, _), got in zip(pairs, answers):
            want = under in r.parents[card]
            if got is None:
                return Verdict(False, f"{getattr(fn, '__name__', 'fits')} returned None: does it end with `return` and the answer?")
            if got != want:
                verb = "may" if want else "may not"
                return Verdict(False, f"fits({card}, {under}, {v.name}) returned {got!r}, but in {v.name} {card} "
                                      f"{verb} sit on {under}: {v.column_rule()} (build={v.build!r}, ranks "
                                      f"{' '.join(v.ranks)}, columns_follow_foundation_order="
                                      f"{v.columns_follow_foundation_order}).")
    return Verdict(True, f"fits agrees with the rules for every pair of cards in {len(fit_variants())} games "
                         "(the three of the lessons and four readings of them no lesson builds"
                         + (", and three secret ones)." if graded() else ")."))
