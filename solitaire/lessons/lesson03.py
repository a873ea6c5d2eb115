"""Checks for the exercises of lesson 03 (variants) and of its Going deeper notebook on games that defeat
themselves (03b.useless_starters, an optional practice), registered with ``check``; the kit's own answers; and
``rules_that_differ``, which runs a student's ``differences`` in lesson 03 and says when it is not written yet.

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


def differences(a: Variant, b: Variant) -> set[str]:
    """The rule fields (their names) in which games ``a`` and ``b`` differ, the name left out: the kit's answer to
    exercise 03.differences.

    >>> sorted(differences(KLONDIKE, SOLIJOY))
    ['columns', 'decks', 'empty_column_ranks', 'waste_to_foundation']
    """
    return set(a.changes_from(b)) - {"name"}


def useless_starters(v: Variant) -> list[str]:
    """The ranks that may start an empty column of ``v`` but on which no card can ever sit in a column: the kit's
    answer to exercise 03b.useless_starters. Every rank but one has a card of the next rank to take (each deck
    holds every suit), so only the end of the column order can be bare: the first rank of ``v.ranks`` where the
    columns go down against the foundations, the last where they follow the foundation order.

    >>> useless_starters(KLONDIKE), useless_starters(SOLIJOY), useless_starters(ITALIAN)
    ([], ['A'], ['7'])
    """
    bare = v.ranks[-1] if v.columns_follow_foundation_order else v.ranks[0]
    may_start = v.empty_column_ranks is None or bare in v.empty_column_ranks
    return [bare] if may_start else []


def _as_names(got: Any) -> set[str]:
    """The student's answer as a set of names, or NotAnswered when it is no set: the prompt asks for a set, and
    lesson 03 joins the answers with ``|``, which a list or a dict would break."""
    if not isinstance(got, (set, frozenset)):
        raise NotAnswered(f"differences(a, b) should return a set of field names (the prompt asks for a set; "
                          f"set(x) makes one of a list x), got {type(got).__name__} {_short(got)}")
    return set(map(str, got))


@register("03.differences", "Write differences(a, b): the set of rule fields (names) in which two games differ.",
          pieces=(Variant.changes_from, differences))
def _differences(fn: Any) -> Verdict:
    games = hidden_variants()
    pairs = [(a, b) for a, b in zip(games, games[1:] + games[:1])] + [(KLONDIKE, SOLIJOY), (ITALIAN, KLONDIKE)]
    pairs.append((games[0], dataclasses.replace(games[0], name="the same rules, another name")))
    answers = run_student(fn, pairs)
    for (a, b), got in zip(pairs, answers):
        want = {f.name for f in dataclasses.fields(Variant) if f.name != "name" and getattr(a, f.name) != getattr(b, f.name)}
        got = _as_names(got)
        if "name" in got:
            return Verdict(False, f"for the games {a!r}\n  and {b!r}\n  differences returned {sorted(got)}: the name "
                                  "is not a rule, leave \"name\" out.")
        if got != want:
            missing, extra = sorted(want - got), sorted(got - want)
            said = ([f"missing: {', '.join(missing)}"] if missing else []) + \
                   ([f"not different: {', '.join(extra)}"] if extra else [])
            return Verdict(False, f"for the games {a!r}\n  and {b!r}\n  differences returned {sorted(got)}; "
                                  f"{'; '.join(said)}.")
    return Verdict(True, f"differences is right on all {len(pairs)} pairs of games (games no lesson shows, "
                         "made from the three by changing a few rules).")


def _short(x: Any, most: int = 80) -> str:
    text = repr(x)
    return text if len(text) <= most else text[:most - 1] + "…"


def rules_that_differ(fn: Any, games: list[Variant]) -> set[str]:
    """The rules in which some two of ``games`` differ, found by the student's ``differences`` (``fn``), as
    lesson 03 runs it. While ``fn`` is not written yet (a stub), raises, or finds other rules than the kit's
    ``differences`` on these games, a line says so and the kit's set is returned, so what the lesson says next
    stays true; when ``fn`` agrees, nothing is printed.

    >>> def unwritten(a, b):
    ...     raise NotImplementedError
    >>> sorted(rules_that_differ(unwritten, [KLONDIKE, SOLIJOY]))
    unwritten is not written yet (write it above): the kit's answer is used here
    ['columns', 'decks', 'empty_column_ranks', 'waste_to_foundation']
    >>> def with_name(a, b):
    ...     return differences(a, b) | {"name"}
    >>> sorted(rules_that_differ(with_name, [KLONDIKE, SOLIJOY]))
    your with_name finds name too, which the kit's differences does not: the kit's answer is used here
    ['columns', 'decks', 'empty_column_ranks', 'waste_to_foundation']
    >>> sorted(rules_that_differ(differences, [KLONDIKE, ITALIAN]))[:2]
    ['aces_aside', 'auto_flip']
    """
    pairs = [(a, b) for i, a in enumerate(games) for b in games[i + 1:]]
    kits = set().union(*(differences(a, b) for a, b in pairs))
    name = getattr(fn, "__name__", "differences")
    try:
        yours = set().union(*(set(fn(a, b)) for a, b in pairs))
    except NotImplementedError:
        print(f"{name} is not written yet (write it above): the kit's answer is used here")
        return kits
    except Exception as e:  # noqa: BLE001 - the student's code may raise anything
        print(f"your {name} raised {type(e).__name__}: {e}; the kit's answer is used here")
        return kits
    if yours != kits:
        said = [f"finds {', '.join(sorted(yours - kits))} too, which the kit's differences does not"] * bool(yours - kits)
        said += [f"misses {', '.join(sorted(kits - yours))}"] * bool(kits - yours)
        print(f"your {name} {' and '.join(said)}: the kit's answer is used here")
        return kits
    return yours


@register("03b.useless_starters", "Write useless_starters(v): the ranks (in the order of v.ranks) that may start an "
                                  "empty column but on which no card can ever be built in a column.",
          pieces=(useless_starters, rules, Variant.column_rule))
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
