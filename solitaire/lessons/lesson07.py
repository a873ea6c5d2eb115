"""Checks for the exercises of lesson 07 (search), registered with ``solitaire.lessons.check``."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..endgame import Outcome
from ..moves import apply, is_won, legal_moves, rules
from ..state import Position, deal, observe
from ..variants import ITALIAN, KLONDIKE, Variant
from .checks import Verdict, exercise, as_number, call_student, calls_into, no_return, number_verdict


# The kit's own answer to lesson 07's first exercise: the checks compare students' searches with it, and the
# lesson measures the solver's ideas with it (so the lesson runs before a student's search does).

MINI = Variant("Mini Klondike", ranks=("A", "2", "3", "4", "5", "6"), columns=(1, 2, 3, 4, 5),
               empty_column_ranks=("6",))


def plain_key(p: Position) -> tuple:
    """What a search remembers of a position: all of it but the recycle count (another trip round the stock
    changes nothing else, and counting trips would make the search endless).

    >>> p = deal(MINI, 0)
    >>> plain_key(p) == plain_key(p._replace(recycles=5))
    True
    """
    return p.stock, p.waste, p.foundations, p.columns, p.hidden


def all_children(p: Position) -> list[Position]:
    """Every position one legal move away."""
    return [apply(p, m) for m in legal_moves(p)]


def depth_first(start: Position, key: Callable[[Position], Any] = plain_key,
                children: Callable[[Position], list[Position]] = all_children,
                max_nodes: int = 100_000) -> tuple[str, int]:
    """Depth-first search with a visited set: ("won" | "unwinnable" | "unknown", positions seen).

    "unwinnable" means every position reachable from ``start`` was seen; "unknown" that ``max_nodes``
    positions were seen first. Positions with the same ``key`` count once.

    >>> depth_first(deal(MINI, 0))
    ('won', 1053)
    """
    visited = {key(start)}
    stack = [start]
    while stack:
        p = stack.pop()
        if is_won(p):
            return Outcome.WON, len(visited)
        for q in children(p):
            k = key(q)
            if k not in visited:
                if len(visited) >= max_nodes:
                    return Outcome.UNKNOWN, len(visited)
                visited.add(k)
                stack.append(q)
    return Outcome.UNWINNABLE, len(visited)


@functools.lru_cache(maxsize=None)
def _mini_search(seed: int, columns_as_a_set: bool = False) -> tuple[str, int]:
    key = (lambda p: (p.stock, p.waste, p.foundations, tuple(sorted(zip(p.columns, p.hidden))))) if columns_as_a_set \
        else plain_key
    return depth_first(deal(MINI, seed), key, max_nodes=1_000_000)


UNWINNABLE_MINI = 14  # a Mini Klondike deal that cannot be won (the check below proves it again)


@exercise("07.dfs", "Write dfs(start, max_nodes): a depth-first search with a visited set (keyed by plain_key) that "
                    "returns (status, nodes): 'won', 'unwinnable' or 'unknown', and the positions it saw.")
def _dfs(fn: Any) -> Verdict:
    """Runs the student's search on four Mini deals beside the kit's, after checking that it is not a wrapper
    around the kit's search (a call into ``depth_first`` while it runs is refused)."""
    kit = calls_into(fn, (deal(MINI, 0), 50), [depth_first, _mini_search])
    if kit:
        return Verdict(False, f"your dfs calls the kit's {kit}, so it is the kit's search, not yours: write the "
                              "loop yourself, with a list as the stack, a set of plain_key(p), legal_moves and apply.")
    got = call_student(fn, deal(MINI, UNWINNABLE_MINI), 500)  # first the budget, on a deal whose search always ends
    if not (isinstance(got, tuple) and len(got) == 2 and got[0] == Outcome.UNKNOWN and isinstance(got[1], int)
            and got[1] <= 600):
        return Verdict(False, f"with max_nodes=500 on Mini Klondike deal {UNWINNABLE_MINI} your search returned "
                              f"{got!r}: it should stop when it has seen max_nodes positions and return ('unknown', nodes).")
    for seed in (0, 1, 2, UNWINNABLE_MINI):
        want_status, want_nodes = _mini_search(seed)
        got = call_student(fn, deal(MINI, seed), 100_000)
        if not (isinstance(got, tuple) and len(got) == 2 and isinstance(got[1], int)):
            return Verdict(False, f"dfs should return a pair (status, nodes) such as ('won', 812), but it returned "
                                  f"{got!r}.")
        status, nodes = got
        if status == Outcome.UNKNOWN and want_status == Outcome.WON:
            return Verdict(False, f"on Mini Klondike deal {seed} your search ran out of its budget of 100,000 "
                                  f"positions, but a depth-first search wins it after {want_nodes}: does it take the "
                                  "newest position off the stack (stack.pop()), not the oldest (stack.pop(0), which "
                                  "searches breadth-first)?")
        if status != want_status:
            hint = ("is a won position put on the stack but never recognised? test is_won(p) for each position you "
                    "take off the stack" if want_status == Outcome.WON else
                    "a search may say 'won' only when it reached a won position")
            return Verdict(False, f"on Mini Klondike deal {seed} your search says {status!r}, but that is not right: "
                                  f"{hint}.")
        if want_status == Outcome.UNWINNABLE and nodes != want_nodes:
            way = "more" if nodes > want_nodes else "fewer"
            return Verdict(False, f"on deal {seed}, which cannot be won, every correct search sees each reachable "
                                  f"position exactly once, whatever order it tries moves in; yours counts {way} "
                                  "positions than that. Do you key the visited set with plain_key, count the start "
                                  "position, and count each position when you first see it?")
    return Verdict(True, f"your search agrees with the kit's on Mini Klondike deals 0, 1, 2 and {UNWINNABLE_MINI} "
                         f"(which it proves unwinnable after {_mini_search(UNWINNABLE_MINI)[1]} positions), and it "
                         "keeps to its budget.")


@exercise("07.reachable", "How many positions can be reached from Mini Klondike deal 81 (counted with plain_key)?")
def _reachable(answer: Any) -> Verdict:
    status, n = _mini_search(81)
    if status != Outcome.UNWINNABLE:  # a deal that can be won would make the count depend on the search order
        raise RuntimeError("Mini Klondike deal 81 was expected to be unwinnable")
    if as_number(answer) not in (None, n) and as_number(answer) == _mini_search(81, columns_as_a_set=True)[1]:
        return Verdict(False, "that is the count with the columns as a set (canonical states); this exercise counts "
                              "positions as plain_key tells them apart.")
    verdict = number_verdict(answer, n, "the number of positions reachable from deal 81")
    if not verdict.ok and as_number(answer) is not None:
        if as_number(answer) in (100_000, 100_001):
            return Verdict(False, "your search stopped at its budget of 100,000 positions: give it more (max_nodes).")
        return Verdict(False, verdict.message + " Deal 81 cannot be won, so a correct search sees every reachable "
                                                "position once: run your dfs with a large max_nodes.")
    return verdict


@exercise("07.safe", "Write safe(p, card): may card go to its foundation without ever being missed in a column? "
                     "(True when every card that could sit on it in a column is on a foundation already)")
def _safe(fn: Any) -> Verdict:
    """Compares the student's safe with the kit's on the top cards of random play, after checking that it is
    not a wrapper around the kit's (a call into ``safe_to_foundation`` while it runs is refused)."""
    from ..endgame import safe_foundation_moves, safe_to_foundation
    from ..strategies import RandomStrategy
    p = deal(KLONDIKE, 0)
    kit = calls_into(fn, (p, p.columns[0][-1]), [safe_to_foundation, safe_foundation_moves])
    if kit:
        return Verdict(False, f"your safe calls the kit's {kit}, so it is the kit's answer, not yours: work it out "
                              "from rules(p.variant).children[card] and p.foundations.")
    tried = 0
    for v in (MINI, KLONDIKE, ITALIAN):
        for seed in range(3):
            p, strategy = deal(v, seed), RandomStrategy(seed)
            for step in range(300):
                moves = legal_moves(p)
                if not moves:
                    break
                tops = [col[-1] for col, h in zip(p.columns, p.hidden) if len(col) > h] + list(p.waste[-1:])
                for card in tops:
                    want, got = safe_to_foundation(p, card), call_student(fn, p, card)
                    tried += 1
                    if got is None:
                        return no_return(fn, got)
                    if got != want:
                        blockers = [str(c) for c in rules(v).children[card]]
                        why = (f"the cards that could sit on {card} in a column ({', '.join(blockers)}) are all on "
                               "foundations" if want else
                               f"{' or '.join(blockers)} could still need {card} in a column")
                        return Verdict(False, f"safe(p, {card}) returned {got!r} in a {v.name} position, but {why}.")
                p = apply(p, strategy.choose(observe(p), moves))
    return Verdict(True, f"safe agrees with the kit's safe_to_foundation on {tried} cards of {MINI.name}, Klondike "
                         "and Italian positions.")
