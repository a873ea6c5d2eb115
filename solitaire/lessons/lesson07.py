"""Checks for the exercises of lessons 07 and 07a (search, and a search's work), registered with
``solitaire.lessons.check``, and the kit's own depth-first search that lessons 07a and 07b measure with.

The expected answers are worked out inside the checks (the kit's search run on the exercise's deal), never
kept under a name a student could import before trying.
"""
from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

from ..endgame import Outcome
from ..moves import COLUMN_TO_FOUNDATION, WASTE_TO_FOUNDATION, apply, is_won, legal_moves
from ..render import text_diagram
from ..state import Position, deal
from ..variants import Variant
from .hidden import graded, hidden_inputs as _secret_inputs, hidden_rng
from .guard import KitSwitch
from .checks import (Verdict, _short, as_number, call_student, calls_into, exercise, hidden_inputs, needs_function,
                     no_return, number_verdict)

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
    """Every position one legal move away.

    >>> [len(all_children(deal(MINI, 0)))]
    [4]
    """
    return [apply(p, m) for m in legal_moves(p)]


def home_first_children(p: Position) -> list[Position]:
    """Every position one legal move away, those of moves to a foundation last: a depth-first search, which
    takes the newest position off its stack, tries them first (lesson 07a).

    >>> [len(home_first_children(deal(MINI, 0)))]
    [4]
    """
    moves = legal_moves(p)
    home = [m for m in moves if m.kind in (COLUMN_TO_FOUNDATION, WASTE_TO_FOUNDATION)]
    return [apply(p, m) for m in moves if m not in home] + [apply(p, m) for m in home]


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


def canonical_state_key(p: Position) -> tuple:
    """A position's key with its columns as a set, each with its face-down count: positions whose columns
    differ only in order (or whose recycle counts differ) count once (lesson 07b's canonical states).

    >>> p = deal(MINI, 0)
    >>> canonical_state_key(p) == canonical_state_key(p._replace(columns=p.columns[::-1], hidden=p.hidden[::-1]))
    True
    """
    return p.stock, p.waste, p.foundations, tuple(sorted(zip(p.columns, p.hidden)))


UNWINNABLE_MINI = 14  # a Mini Klondike deal that cannot be won (the check below proves it again)
_WORKED: dict[tuple, tuple[str, int]] = {}  # searches a check has run once already (they take seconds)


def _remembered(name: tuple, work: Callable[[], Any]) -> Any:
    """A slow result a check works out once per kernel (the kit's search of an exercise's deal)."""
    if name not in _WORKED:
        _WORKED[name] = work()
    return _WORKED[name]


def _shown(x: Any) -> str:
    """A student's value for a message: a position as a diagram (below the sentence), anything else as a short
    repr."""
    if isinstance(x, Position):
        return "a position (below), not a pair (status, nodes)"
    if isinstance(x, tuple) and any(isinstance(y, Position) for y in x):
        return "a tuple holding a position (give the number of positions seen instead)"
    return _short(x)


def _diagram_of(x: Any) -> str:
    return "\n" + text_diagram(x) if isinstance(x, Position) else ""


def _pair(got: Any) -> bool:
    return isinstance(got, tuple) and len(got) == 2 and isinstance(got[1], int)


def _no_memory(fn: Any) -> str:
    """Why a search that never ends on a small deal keeps seeing positions again: its visited set."""
    uses_key = calls_into(fn, (deal(MINI, UNWINNABLE_MINI), 50), [plain_key])
    cause = ("It calls plain_key, but is each child's plain_key(q) looked up in the visited set before it is "
             "pushed, and added to it?" if uses_key else
             "It never calls plain_key: does it keep a visited set at all? Keyed by the whole Position, a set "
             "does not help either: the recycle count grows with each trip round the stock, so every trip "
             "looks new.")
    return (f"on Mini Klondike deal {UNWINNABLE_MINI}, which cannot be won and has fewer than 10,000 reachable "
            "positions, your search used up its budget of 100,000 without finishing, so it sees the same "
            f"positions again and again. {cause} Remember each position seen in a set of plain_key(p), and never "
            "push a position whose key is in it.")


def _reversed_children(p: Position) -> list[Position]:
    return all_children(p)[::-1]


def _expanded(fn: Any, start: Position, max_nodes: int) -> tuple[Any, list[Position]]:
    """Call a student's search and record, in order, each position whose moves it asks for (``legal_moves(p)``,
    watched by a wrapper put wherever the kit's ``legal_moves`` is reachable, in either build): the positions it
    took off its stack and expanded."""
    seen: list[Position] = []

    def watching(kit: Callable[..., Any]) -> Callable[..., Any]:
        def legal_moves_seen(p: Position, *args: Any, **kwargs: Any) -> Any:
            if isinstance(p, Position) and not (seen and plain_key(seen[-1]) == plain_key(p)):
                seen.append(p)
            return kit(p, *args, **kwargs)
        legal_moves_seen.__name__ = legal_moves_seen.__qualname__ = "legal_moves"
        return legal_moves_seen

    with KitSwitch([legal_moves], fn).replaced(watching):
        got = call_student(fn, start, max_nodes)
    return got, seen


def _won_count(start: Position, expanded: list[Position]) -> int | None:
    """The positions a depth-first search has seen when it takes a won position off its stack, if it expanded the
    positions ``expanded`` in that order; None if no depth-first search, whatever order it tries moves in, expands
    them so. The stack is replayed as groups (the new children of one expanded position, pushed together in an
    order the question leaves free): the next position expanded is always one of the top group's."""
    visited, groups = {plain_key(start)}, [{plain_key(start): start}]
    for p in expanded:
        while groups and not groups[-1]:
            groups.pop()
        if is_won(p):
            break
        if not groups or plain_key(p) not in groups[-1]:
            return None
        del groups[-1][plain_key(p)]
        new = {}
        for q in all_children(p):
            if plain_key(q) not in visited:
                visited.add(plain_key(q))
                new[plain_key(q)] = q
        groups.append(new)
    while groups and not groups[-1]:
        groups.pop()
    return len(visited) if groups and any(is_won(q) for q in groups[-1].values()) else None


def _marks_when_popped(start: Position, expanded: list[Position]) -> bool:
    """Whether the positions ``expanded`` come in the order of a depth-first search that marks a position visited
    when it takes it off the stack (and skips one already visited), not when it pushes it: a right search too,
    whose counts differ from the exercise's, which counts each position when first seen."""
    visited: set = set()
    groups: list[dict] = [{plain_key(start): start}]
    for p in expanded:
        if is_won(p):
            break
        for group in groups:
            for key in visited & group.keys():
                del group[key]
        while groups and not groups[-1]:
            groups.pop()
        if not groups or plain_key(p) not in groups[-1]:
            return False
        del groups[-1][plain_key(p)]
        visited.add(plain_key(p))
        groups.append({plain_key(q): q for q in all_children(p) if plain_key(q) not in visited})
    return bool(expanded)


def _any_order_fault(fn: Any, start: Position, where: str) -> str | None:
    """None if the student's search from ``start`` (a position the kit's search wins) answers as a depth-first
    search that tries moves in its own order does, else what is wrong: the question names no order of moves,
    and the count of a won deal depends on it."""
    got, expanded = _expanded(fn, start, 100_000)
    want = _won_count(start, expanded)
    if want is None and _marks_when_popped(start, expanded):
        return (f"{where} your search says {_shown(got)}: a count that differs from the exercise's because your "
                "search marks a position visited when it takes it off the stack, and the exercise counts each "
                "position when it is first seen. Add a child's plain_key to the visited set as you push it, and "
                "push only children whose key is new.")
    if want is None:
        return (f"{where} your search says {_shown(got)}, but it did not take the positions off its stack as a "
                "depth-first search does: does it take the newest position (stack.pop()), test is_won(p) then, and "
                "push each child whose plain_key is new, adding its key to the visited set as it pushes it?")
    if _pair(got) and tuple(got) == (Outcome.WON, want):
        return None
    if _pair(got) and got[0] == Outcome.WON and got[1] == want - 1:
        return (f"{where} your search says {_shown(got)}: one position fewer than a depth-first search trying moves "
                "in the same order sees. Does the visited set hold the start from the beginning, visited = "
                "{plain_key(start)}, and does it test is_won(p) only when it takes p off the stack?")
    return (f"{where} your search says {_shown(got)}, but trying moves in the order it does, a depth-first search "
            f"wins after {want} positions: does it count every child when it first sees it (a won one too), and "
            "test is_won(p) when it takes p off the stack?")


def _kits_answers(seed: int) -> set[tuple[str, int]]:
    """The kit's search of Mini deal ``seed`` trying moves in legal_moves order and in reverse (a quick first
    test: an answer in another order is replayed, see ``_any_order_fault``)."""
    return {_remembered((seed, "plain"), lambda: depth_first(deal(MINI, seed))),
            _remembered((seed, "reversed"), lambda: depth_first(deal(MINI, seed), children=_reversed_children))}


def _dfs_verdict(fn: Any, seed: int, got: Any) -> str | None:
    """What is wrong with a student's answer ``got`` on Mini deal ``seed`` (searched with a budget of 100,000)."""
    if _pair(got) and tuple(got) in _kits_answers(seed):
        return None
    want_status, want_nodes = _remembered((seed, "plain"), lambda: depth_first(deal(MINI, seed)))
    if not _pair(got):
        return (f"dfs should return a pair (status, nodes) such as ('won', 812), but it returned {_shown(got)}."
                + _diagram_of(got))
    status, nodes = got
    if status == Outcome.UNKNOWN and seed == UNWINNABLE_MINI:
        return _no_memory(fn)
    if status == Outcome.UNKNOWN and want_status == Outcome.WON:
        return (f"on Mini Klondike deal {seed} your search ran out of its budget of 100,000 positions, but a "
                f"depth-first search wins it after {want_nodes}: does it take the newest position off the stack "
                "(stack.pop()), not the oldest (stack.pop(0), which searches breadth-first)?")
    if status != want_status:
        hint = ("is a won position put on the stack but never recognised? test is_won(p) for each position you "
                "take off the stack" if want_status == Outcome.WON else
                "a search may say 'won' only when it reached a won position")
        return f"on Mini Klondike deal {seed} your search says {_short(status)}, but that is not right: {hint}."
    if want_status == Outcome.WON:
        return _any_order_fault(fn, deal(MINI, seed), f"on Mini Klondike deal {seed}")
    if nodes != want_nodes:
        way = "more" if nodes > want_nodes else "fewer"
        return (f"on deal {seed}, which cannot be won, every correct search sees each reachable position exactly "
                f"once, whatever order it tries moves in; yours counts {way} positions than that. Do you key the "
                "visited set with plain_key, count the start position, and count each position when you first "
                "see it?")
    return None


@functools.lru_cache(maxsize=None)
def _start_never_again() -> Position:
    """A Mini Klondike position of seeded random play that no move sequence leads back to (no stock, no waste,
    and the kit's search in either order never meets it again): a search that leaves the start out of its
    visited set counts one position fewer from there, where from a deal it meets the start again and hides it."""
    rng = hidden_rng(7070)
    for seed in hidden_inputs(7071, 50, lambda r: r.randrange(1_000, 10**6)):
        p = deal(MINI, seed)
        for step in range(200):
            moves = legal_moves(p)
            if not moves:
                break
            if step > 5 and not p.stock and not p.waste and _never_met_again(p):
                return p
            p = apply(p, rng.choice(moves))
    raise RuntimeError("no Mini Klondike position that no move leads back to was found")


def _never_met_again(p: Position) -> bool:
    key, met = plain_key(p), []

    def watching(children: Callable[[Position], list[Position]]) -> Callable[[Position], list[Position]]:
        def children_seen(q: Position) -> list[Position]:
            kids = children(q)
            met.extend(k for k in kids if plain_key(k) == key)
            return kids
        return children_seen
    finished = [depth_first(p, children=watching(c), max_nodes=20_000)[0] for c in (all_children, _reversed_children)]
    return not met and Outcome.UNKNOWN not in finished


def _from_start_fault(fn: Any, start: Position) -> str | None:
    """None if the student's search from ``start``, a position no move leads back to, answers right (in the order
    it tries moves); else what is wrong, with the position drawn: a visited set that starts empty counts one fewer
    here, where from a deal the search meets the start again and the slip hides."""
    got = call_student(fn, start, 100_000)
    in_order, reverse = depth_first(start), depth_first(start, children=_reversed_children)
    if _pair(got) and tuple(got) in (in_order, reverse):
        return None
    where = "from this Mini Klondike position, which no move leads back to (its stock and waste are empty),"
    if in_order[0] == Outcome.WON and _pair(got) and got[0] == Outcome.WON:
        fault = _any_order_fault(fn, start, where)
    else:
        fault = (f"{where} your search returned {_shown(got)}, but it is {in_order}: does the visited set hold the "
                 "start from the beginning, visited = {plain_key(start)}?")
    return fault and f"{fault}\n{text_diagram(start)}"


@exercise("07.dfs", "Write dfs(start, max_nodes): a depth-first search with a visited set (keyed by plain_key), "
                    "trying moves in any order you like, that returns (status, nodes): 'won', 'unwinnable' or "
                    "'unknown', and the positions it saw.",
          pieces=["solitaire.lessons.lesson07.depth_first"], shows=("solitaire.lessons.lesson07.depth_first",
                                                                     "visited = {key(start)}", None))
def _dfs(fn: Any) -> Verdict:
    """Refuses a wrapper around the kit's search, tests the budget, then runs the student's search on the
    unwinnable deal 14 first (a search without a working visited set never ends there: its budget runs out)
    and on deal 0 and three hidden deals. A won deal's count depends on the order of the moves, which the
    question leaves free: an answer that differs from the kit's in both orders is replayed in its own order."""
    kit = calls_into(fn, (deal(MINI, 0), 50), [depth_first])
    if kit:
        return Verdict(False, f"your dfs calls the kit's {kit}, so it is the kit's search, not yours: write the "
                              "loop yourself, with a list as the stack, a set of plain_key(p), legal_moves and apply.")
    budget = hidden_inputs(707, 1, lambda rng: rng.randrange(300, 3000))[0]  # a budget the lesson never shows
    got = call_student(fn, deal(MINI, UNWINNABLE_MINI), budget)  # first the budget, on a deal whose search ends
    if not (_pair(got) and got[0] == Outcome.UNKNOWN and got[1] == budget):
        return Verdict(False, f"with max_nodes={budget} on Mini Klondike deal {UNWINNABLE_MINI} your search returned "
                              f"{_shown(got)}: it should stop when it has seen max_nodes positions (not one more: "
                              "compare with >= before adding) and return ('unknown', max_nodes)." + _diagram_of(got))
    for seed in (UNWINNABLE_MINI, 0, *hidden_inputs(70, 3, lambda rng: rng.randrange(100, 10**6))):  # unseen deals
        fault = _dfs_verdict(fn, seed, call_student(fn, deal(MINI, seed), 100_000))
        if fault:
            return Verdict(False, fault)
    fault = _from_start_fault(fn, _start_never_again())
    if fault:
        return Verdict(False, fault)
    everything = _remembered((UNWINNABLE_MINI, "plain"), lambda: depth_first(deal(MINI, UNWINNABLE_MINI)))[1]
    got = call_student(fn, deal(MINI, UNWINNABLE_MINI), everything)
    if got != (Outcome.UNWINNABLE, everything):
        return Verdict(False, f"with max_nodes={everything}, exactly the number of positions reachable from deal "
                              f"{UNWINNABLE_MINI}, your search returned {_shown(got)}: it sees them all within its "
                              "budget, so it should say ('unwinnable', max_nodes).")
    nodes = _WORKED[UNWINNABLE_MINI, "plain"][1]
    return Verdict(True, f"your search agrees with the kit's on Mini Klondike deal {UNWINNABLE_MINI} (which it proves "
                         f"unwinnable after {nodes} positions), on four more deals and from a position no move leads back to, and it "
                         "keeps to its budget.")


REACHABLE_DEALS = (212, 215, 220, 291, 370)  # Mini Klondike deals that cannot be won, never shown (checked again)


@functools.lru_cache(maxsize=None)
def _reachable_deals() -> tuple[int, ...]:
    """The unwinnable deals 07.reachable is tried on besides 81: REACHABLE_DEALS; in a graded check five secret ones
    first (secret deals the solver proves unwinnable, kept when at most 6,000 positions are reachable)."""
    if not graded():
        return REACHABLE_DEALS
    from ..solver import solve
    found = []
    for seed in _secret_inputs(7072, 2000, lambda rng: rng.randrange(1_000, 10**6))[:2000]:  # the secret ones
        if solve(deal(MINI, seed), max_seconds=None, max_nodes=3000).status != Outcome.UNWINNABLE:
            continue
        searched = depth_first(deal(MINI, seed), max_nodes=6_000)
        if searched[0] == Outcome.UNWINNABLE:
            _WORKED[seed, "plain"] = searched
            found.append(seed)
            if len(found) == 5:
                return (*found, *REACHABLE_DEALS)
    raise RuntimeError("fewer than five unwinnable Mini Klondike deals among 2,000 secret ones")


def _reachable_verdict(got: Any, number: int, want: int) -> Verdict | None:
    """None if ``got`` is the count of positions reachable from unwinnable deal ``number``, else the refusal."""
    x = as_number(got)
    if x == want:
        return None
    shown = f"reachable({number})"
    if x is not None and x == _remembered(
            (number, "set"), lambda: depth_first(deal(MINI, number), canonical_state_key, max_nodes=10**6))[1]:
        return Verdict(False, f"{shown} is the count with the columns as a set (canonical states); this exercise "
                              "counts positions as plain_key tells them apart.")
    verdict = number_verdict(got, want, f"the number of positions reachable from deal {number}")
    if x in (100_000, 100_001):
        return Verdict(False, f"{shown}: your search stopped at its budget of 100,000 positions: give it more "
                              "(max_nodes).")
    return Verdict(False, f"{shown}: {verdict.message} Deal {number} cannot be won, so a correct search sees every "
                          "reachable position once: run your dfs from deal(MINI, number) with a large max_nodes.")


@exercise("07.reachable", "Write reachable(number): how many positions can be reached from Mini Klondike deal "
                          "number, a deal that cannot be won (counted with plain_key)? It is tried on deal 81 and on "
                          "unwinnable deals the lesson never shows.",
          pieces=["solitaire.lessons.lesson07.depth_first"], shows=())
def _reachable(answer: Any) -> Verdict:
    needs_function(answer, "reachable(number)", "a number answers one deal only")
    counts = {}
    for number in (81, *_reachable_deals()):
        status, counts[number] = _remembered((number, "plain"),
                                             lambda: depth_first(deal(MINI, number), max_nodes=1_000_000))
        if status != Outcome.UNWINNABLE:  # a deal that can be won would make the count depend on the search order
            raise RuntimeError(f"Mini Klondike deal {number} was expected to be unwinnable")
        got = call_student(answer, number)
        refused = no_return(answer, got) or _reachable_verdict(got, number, counts[number])
        if refused:
            return refused
    others = ", ".join(f"{counts[n]:,}" for n in _reachable_deals())
    return Verdict(True, f"deal 81 reaches {counts[81]:,} positions, and {len(_reachable_deals())} more deals that "
                         f"cannot be won reach {others}: the whole tree of each, whatever the order of the moves.")


def _home_first_fault(p: Position, got: Any) -> str | None:
    """None if ``got`` is every child of ``p`` once, those of moves to a foundation after all the others."""
    moves = legal_moves(p)
    if got is not None and not isinstance(got, (list, tuple)):
        return f"home_first(p) returned {_short(got)}: return a list of positions, apply(p, m) for each move m."
    if got and all(hasattr(x, "kind") for x in got):
        return "home_first(p) returned moves: return the positions they lead to, apply(p, m)."
    home = [apply(p, m) for m in moves if m.kind in (COLUMN_TO_FOUNDATION, WASTE_TO_FOUNDATION)]
    want = [apply(p, m) for m in moves]
    try:
        same = sorted(map(repr, got)) == sorted(map(repr, want))
    except TypeError:
        same = False
    if not same:
        return (f"home_first(p) returned {len(got)} positions, but p has {len(moves)} legal moves "
                f"({' '.join(map(str, moves))}): return one child for each move, each once, in this position:")
    places = [i for i, q in enumerate(got) if q in home]
    if places and places[0] < len(got) - len(places) and list(map(repr, got)) == list(map(repr, want)):
        return ("your list keeps the order of legal_moves(p): no child of a move to a foundation went to the end. "
                "Does your test pick out only those moves? (In Python, x == a or b is true whenever b is: "
                "compare m.kind with each kind.) In this position:")
    if places and places[0] < len(got) - len(places):
        return ("in this position a child of a move to a foundation comes before another child in your list. The "
                "search takes the newest position off its stack, the last in the list, so put the children of moves "
                "to a foundation last:")
    return None


@exercise("07a.home_first", "Write home_first(p): the list of p's children, apply(p, m) for each legal move m, with "
                            "the children of moves to a foundation (COLUMN_TO_FOUNDATION, WASTE_TO_FOUNDATION) last, "
                            "so that a depth-first search tries them first.",
          pieces=["solitaire.lessons.lesson07.home_first_children"])
def _home_first(fn: Any) -> Verdict:
    """Compares the student's children with the position's legal moves applied, on positions of seeded random
    play (Mini Klondike and Klondike), after refusing a wrapper around the kit's ``home_first_children``."""
    from ..variants import KLONDIKE
    from .pieces import playout_positions
    p = deal(MINI, 0)
    kit = calls_into(fn, (p,), [home_first_children])
    if kit:
        return Verdict(False, f"your home_first calls the kit's {kit}, so it is the kit's answer, not yours: build "
                              "the list yourself from legal_moves(p) and apply(p, m).")
    positions = [p, *playout_positions(MINI), *playout_positions(KLONDIKE)]
    for p in positions:
        got = call_student(fn, p)
        if got is None:
            return no_return(fn, got)
        fault = _home_first_fault(p, got)
        if fault:
            return Verdict(False, f"{fault}\n{text_diagram(p)}")
    return Verdict(True, f"home_first gives every child once, the moves to a foundation last, on {len(positions)} "
                         "Mini Klondike and Klondike positions.")
