"""Checks for the exercises of lessons 03 (variants) and 03b (new games), registered with ``check``.

The functions are tried on games the lessons never show: variants made from the three games by changing a few
rules at random (``random.Random`` with the checker's own seed).
"""
from __future__ import annotations

import dataclasses
from typing import Any

from ..moves import rules
from ..variants import ITALIAN, KLONDIKE, SOLIJOY, InvalidVariantError, Variant
from .checks import NotAnswered, Verdict
from .hidden import hidden_rngs
from .pieces import register, run_student

CHOICES = {"decks": (1, 2), "empty_column_ranks": (None, ("K",), ("A",), ("Q", "K")), "build": ("alternate", "suit", "any"),
           "columns_follow_foundation_order": (False, True), "waste_to_foundation": (False, True),
           "foundation_to_tableau": (False, True), "draw": (1, 2, 3), "passes": (None, 1, 2, 3),
           "auto_flip": (False, True), "aces_aside": (False, True), "draw_only_when_stuck": (False, True)}


def hidden_variants(seed: int = 38, n: int = 120) -> list[Variant]:
    """``n`` games no lesson shows: one of the three, with one to four rules changed at random (``seed``); in a
    graded check ``n`` secret ones first (``hidden.hidden_rngs``)."""
    found = []
    for rng in hidden_rngs(seed):
        start = len(found)
        while len(found) < start + n:
            base = rng.choice([KLONDIKE, SOLIJOY, ITALIAN])
            changes = {k: rng.choice(CHOICES[k]) for k in rng.sample(sorted(CHOICES), rng.randint(1, 4))}
            if rng.random() < 0.2:
                changes["ranks"] = tuple(reversed(base.ranks))
            try:
                found.append(dataclasses.replace(base, name=f"hidden game {len(found)}", **changes))
            except InvalidVariantError:
                continue
    return found


def _as_names(got: Any) -> set[str]:
    if isinstance(got, (str, bytes)) or not hasattr(got, "__iter__"):
        raise NotAnswered(f"differences(a, b) should return a set of field names, got {type(got).__name__} {got!r}")
    return set(map(str, got)) - {"name"}  # the name is not a rule: with or without it is fine


@register("03.differences", "Write differences(a, b): the set of rule fields (names) in which two games differ.",
          pieces=(Variant.changes_from,))
def _differences(fn: Any) -> Verdict:
    games = hidden_variants()
    pairs = [(a, b) for a, b in zip(games, games[1:] + games[:1])] + [(KLONDIKE, SOLIJOY), (ITALIAN, KLONDIKE)]
    pairs.append((games[0], dataclasses.replace(games[0], name="the same rules, another name")))
    answers = run_student(fn, pairs)
    for (a, b), got in zip(pairs, answers):
        want = {f.name for f in dataclasses.fields(Variant) if f.name != "name" and getattr(a, f.name) != getattr(b, f.name)}
        got = _as_names(got)
        if got != want:
            missing, extra = sorted(want - got), sorted(got - want)
            said = ([f"missing: {', '.join(missing)}"] if missing else []) + \
                   ([f"not different: {', '.join(extra)}"] if extra else [])
            return Verdict(False, f"for the games {a!r}\n  and {b!r}\n  differences returned {sorted(got)}; "
                                  f"{'; '.join(said)}.")
    return Verdict(True, f"differences is right on all {len(pairs)} pairs of games (games no lesson shows, "
                         "made from the three by changing a few rules).")


@register("03b.useless_starters", "Write useless_starters(v): the ranks (in the order of v.ranks) that may start an "
                                  "empty column but on which no card can ever be built in a column.",
          pieces=(rules, Variant.column_rule), shows=(rules, "def kit_fits", "return"))
def _useless_starters(fn: Any) -> Verdict:
    games = hidden_variants(seed=3803, n=150)
    answers = run_student(fn, [(v,) for v in games])
    for v, got in zip(games, answers):
        r = rules(v)
        firsts = {c.rank_name: c for c in reversed(r.starters)}
        want = [rank for rank in v.ranks if rank in firsts and not r.children[firsts[rank]]]
        if isinstance(got, (str, bytes)) or not hasattr(got, "__iter__"):
            raise NotAnswered(f"useless_starters(v) should return a list of ranks, got {type(got).__name__} {got!r}")
        if list(got) != want:
            return Verdict(False, f"for the game {v!r}\n  ({v.column_rule()}; {v.empty_column_rule()})\n  "
                                  f"useless_starters returned {list(got)!r}, but the useless starters are {want!r}.")
    return Verdict(True, f"useless_starters is right on all {len(games)} games (made from the three by changing a few "
                         "rules; no lesson shows them).")
