"""Answers written as students would, and what the checks must say to them (issue 38).

``CASES`` maps an exercise to its right answers (accepted) and its wrong ones (refused): wrappers around the kit's
own piece, ``exec(inspect.getsource(...))`` copies, renamed and reformatted pasted copies, forbidden shortcuts and
real mistakes. Every refused case here was accepted by the checks before issue 38 (main at d1a7f9f): run this
file with that commit's ``solitaire`` on PYTHONPATH and the refusals fail.
"""
from __future__ import annotations

import ast
import inspect

import pytest

from solitaire.lessons import check


def _exec_copy(fn, renames: dict[str, str] | None = None, reformat: bool = False, call: str | None = None):
    """A copy of the kit's ``fn`` made the way a student would: its source exec'd (no source is kept), optionally
    with locals renamed and the layout redone; with ``call``, the student's function is a wrapper of that
    source (``def answer(...): return <fn>(...)``) around the copy."""
    source = inspect.getsource(fn)
    if reformat:
        source = ast.unparse(ast.parse(source))  # comments, blank lines and layout gone
    for old, new in (renames or {}).items():
        source = source.replace(old, new)
    namespace = dict(vars(inspect.getmodule(fn)))
    exec(source, namespace)
    if call:
        exec(call, namespace)
        return namespace["answer"]
    return namespace[fn.__name__]


def _fits(c, u, v):
    if c.rank_name not in v.ranks or u.rank_name not in v.ranks:
        return False
    up = -1 if v.columns_follow_foundation_order else 1
    colour = {"alternate": c.is_red != u.is_red, "suit": c.suit == u.suit, "any": True}[v.build]
    return colour and v.ranks.index(u.rank_name) == v.ranks.index(c.rank_name) + up


def _foundations_first(moves):
    """Flips and foundation moves pushed last, so that a stack tries them first."""
    return sorted(moves, key=lambda m: m.kind in ("flip", "w>f", "t>f"))


def _shuffled(seed):
    """The moves in a seeded random order, another at each position."""
    import random
    rng = random.Random(seed)
    return lambda moves: rng.sample(list(moves), len(moves))


def _dfs(start, max_nodes=100_000, off_by_one=False, reverse=False, empty_start=False, order=None):
    """07.dfs as a student writes it; ``reverse`` tries the moves last first and ``order`` sorts them its own way
    (right too: the question names no order), ``empty_start`` leaves the start out of the visited set (wrong: it
    counts one fewer where no move leads back to the start)."""
    from solitaire import apply, legal_moves
    from solitaire.lessons.lesson07 import plain_key
    from solitaire.moves import is_won
    visited = set() if empty_start else {plain_key(start)}
    stack = [start]
    while stack:
        p = stack.pop()
        if is_won(p):
            return "won", len(visited)
        moves = reversed(legal_moves(p)) if reverse else legal_moves(p)
        for m in (order(moves) if order else moves):
            q = apply(p, m)
            if plain_key(q) not in visited:
                if (len(visited) > max_nodes) if off_by_one else (len(visited) >= max_nodes):
                    return "unknown", len(visited)
                visited.add(plain_key(q))
                stack.append(q)
    return "unwinnable", len(visited)


def _dfs_marked_when_popped(start, max_nodes=100_000):
    """A search that pushes every child and marks a position seen only when it takes it off the stack."""
    from solitaire import apply, legal_moves
    from solitaire.lessons.lesson07 import plain_key
    from solitaire.moves import is_won
    visited, stack = set(), [start]
    while stack:
        p = stack.pop()
        if plain_key(p) in visited:
            continue
        visited.add(plain_key(p))
        if is_won(p):
            return "won", len(visited)
        if len(visited) >= max_nodes:
            return "unknown", len(visited)
        stack += [apply(p, m) for m in legal_moves(p)]
    return "unwinnable", len(visited)


def _dfs_won_when_pushed(start, max_nodes=100_000, popped=False):
    """A search that tests is_won(q) on each new child and stops there; ``popped`` instead counts the positions
    taken off the stack."""
    from solitaire import apply, legal_moves
    from solitaire.lessons.lesson07 import plain_key
    from solitaire.moves import is_won
    visited, stack, taken = {plain_key(start)}, [start], 0
    while stack:
        p = stack.pop()
        taken += 1
        if popped and is_won(p):
            return "won", taken
        for q in (apply(p, m) for m in legal_moves(p)):
            if plain_key(q) not in visited:
                if len(visited) >= max_nodes:
                    return "unknown", len(visited)
                visited.add(plain_key(q))
                if is_won(q) and not popped:
                    return "won", len(visited)
                stack.append(q)
    return "unwinnable", len(visited)


def _greedy_wins(first, last, start=None, shift=0):
    """How many deals first..last greedy wins; ``start`` counts from another seed (a real mistake: from 0)."""
    from solitaire.strategies import play_game
    begin = first if start is None else start
    return sum(play_game("klondike", s, "greedy").outcome == "won" for s in range(begin, begin + last - first + 1))


def _replay(seed, won_only=True, budget=20_000):
    """Solve the deal within the budget and replay the solution on a fresh game; ``won_only=False`` is the
    mistake of refusing only an unwinnable deal (an unknown one then replays a partial line)."""
    from solitaire import Game
    from solitaire.solver import solve
    solution = solve(Game("klondike", seed=seed), max_seconds=None, max_nodes=budget)
    if (solution.status != "won") if won_only else (solution.status == "unwinnable"):
        return None
    game = Game("klondike", seed=seed)
    game.play_all(solution.moves)
    return game


def _scipy_wilson(k, n):
    """The Wilson interval as SciPy computes it, with the exact z = 1.95996... instead of the lesson's 1.96."""
    from scipy.stats import binomtest
    interval = binomtest(k, n).proportion_ci(method="wilson")
    return float(interval.low), float(interval.high)


def _range_with(interval):
    def winnable_range(outcomes):
        won, unknown = outcomes.count("won"), outcomes.count("unknown")
        return interval(won, len(outcomes))[0], interval(won + unknown, len(outcomes))[1]
    return winnable_range


def _chance_with(interval):
    """08.chance_by_hand's answer worked out with ``interval`` from an estimate's counts."""
    def chance_by_hand(chance):
        return (chance.won / chance.samples, *interval(chance.won, chance.samples))
    return chance_by_hand


def _layouts_by_the_kit(game):
    """08.layouts through the kit's own knowledge: a wrapper."""
    from solitaire.knowledge import count_layouts, game_knowledge
    return count_layouts(game_knowledge(game))


def _entrant_with_pasted_helpers(obs, moves):
    """05b.entrant with the kit's two helpers pasted inside it (renamed nothing): a copy inside is a copy."""
    from solitaire.moves import (COLUMN_TO_COLUMN, COLUMN_TO_FOUNDATION, DRAW, FLIP, RECYCLE, WASTE_TO_COLUMN,
                                 WASTE_TO_FOUNDATION)

    def _uncovers(obs, m):
        return (m.kind == COLUMN_TO_COLUMN and m.count == len(obs.columns[m.source])
                and obs.hidden[m.source] > 0)

    def _rule_of(obs, m):
        tests = (m.kind == FLIP, m.kind in (COLUMN_TO_FOUNDATION, WASTE_TO_FOUNDATION), _uncovers(obs, m),
                 m.kind == WASTE_TO_COLUMN, m.kind in (DRAW, RECYCLE))
        for number, matches in enumerate(tests, 1):
            if matches:
                return number
        return 6
    return min(moves, key=lambda m: _rule_of(obs, m))


def _entrant(obs, moves):
    """05b.entrant as the solution writes it: one loop a rule."""
    from solitaire.moves import (COLUMN_TO_COLUMN, COLUMN_TO_FOUNDATION, DRAW, FLIP, RECYCLE, WASTE_TO_COLUMN,
                                 WASTE_TO_FOUNDATION)
    rules = (lambda m: m.kind == FLIP, lambda m: m.kind in (COLUMN_TO_FOUNDATION, WASTE_TO_FOUNDATION),
             lambda m: (m.kind == COLUMN_TO_COLUMN and m.count == len(obs.columns[m.source])
                        and obs.hidden[m.source] > 0),
             lambda m: m.kind == WASTE_TO_COLUMN, lambda m: m.kind in (DRAW, RECYCLE))
    for matches in rules:
        for move in moves:
            if matches(move):
                return move
    return moves[0]


def _p_value(a, b):
    """06b.p_value as a student writes it: both tails of the fair coin's split, by a loop."""
    import math
    n, tail = a + b, 0
    for k in range(max(a, b), n + 1):
        tail += math.comb(n, k)
    return min(1.0, 2 * tail / 2 ** n)


def _cases() -> dict[str, tuple[list, list]]:
    from solitaire import moves
    from solitaire.endgame import safe_to_foundation
    from solitaire.lessons import lesson05, lesson07
    from solitaire.moves import DRAW, Move, apply, rules
    from solitaire.stats import sign_test, wilson
    return {
        "02a.fits": ([_fits], [lambda c, u, v: u in rules(v).parents[c]]),  # a wrapper around the kit's rules
        "02b.waste_moves": ([], [lambda p, t, w: moves._waste_moves(p, rules(p.variant), t, w)]),
        "02c.draw": ([], [lambda p: apply(p, Move(DRAW))]),
        "05.greedy_wins": ([_greedy_wins], [lambda a, b: round((b - a + 1) * 0.4),  # a rate read off the lesson
                                            lambda a, b: (b - a) // 2,
                                            lambda a, b: _greedy_wins(a, b, start=0),  # seeds from 0
                                            lambda a, b: lesson05._greedy_count(a, b)]),  # the checker's own count
        "05.replay": ([_replay], [lambda seed: _replay(seed, won_only=False),  # an unknown deal replayed
                                  lambda seed: _replay(seed, budget=None)]),  # no budget: the search never ends
        "06a.winnable_range": ([_range_with(_scipy_wilson)], []),  # SciPy's exact z: right to the decimals shown
        "08.chance_by_hand": ([_chance_with(_scipy_wilson)], [lambda c: (c.share, *c.interval)]),  # the kit's own
        "08.layouts": ([], [_layouts_by_the_kit]),
        "05b.entrant": ([_entrant], [_entrant_with_pasted_helpers]),
        "06b.p_value": ([_p_value], [_exec_copy(sign_test), _exec_copy(sign_test, {"tail": "upper"}, reformat=True)]),
        "06.wilson": ([], [_exec_copy(wilson),  # exec(inspect.getsource(wilson))
                           _exec_copy(wilson, {"centre": "mid", "half": "h", "denominator": "d"}, reformat=True),
                           lambda k, n: wilson(k, n)]),
        "07.dfs": ([_dfs, lambda start, max_nodes: _dfs(start, max_nodes, reverse=True),
                    # any order of moves (issue 52): foundation moves and flips first, or a new random order each time
                    lambda start, max_nodes: _dfs(start, max_nodes, order=_foundations_first),
                    lambda start, max_nodes: _dfs(start, max_nodes, order=_shuffled(52))],
                   [_exec_copy(lesson07.depth_first, call="def answer(start, max_nodes):\n"
                                                          "    return depth_first(start, max_nodes=max_nodes)"),
                    lambda start, max_nodes: _dfs(start, max_nodes, off_by_one=True),  # > for >=
                    lambda start, max_nodes: _dfs(start, max_nodes, empty_start=True),
                    lambda start, max_nodes: _dfs(start, max_nodes, empty_start=True, order=_foundations_first),
                    lambda start, max_nodes: _dfs(start, max_nodes, off_by_one=True, order=_shuffled(52)),
                    _dfs_marked_when_popped, _dfs_won_when_pushed,
                    lambda start, max_nodes: _dfs_won_when_pushed(start, max_nodes, popped=True)]),
        "07b.canonical": ([lambda p: (p.stock, p.waste, p.foundations, tuple(sorted(zip(p.columns, p.hidden))))],
                          [lambda p: (p.stock, p.waste[-1:], p.foundations,  # only the card a move can take
                                      tuple(sorted(zip(p.columns, p.hidden))))]),
        "07b.safe": ([], [_exec_copy(safe_to_foundation), _exec_copy(safe_to_foundation, reformat=True)]),
    }


CASES = _cases()


def _params(which: int) -> list:
    return [pytest.param(name, answer, id=f"{name}-{i}") for name, case in sorted(CASES.items())
            for i, answer in enumerate(case[which])]


@pytest.mark.parametrize("name, answer", _params(0))
def test_right_answers_are_accepted(name: str, answer: object, capsys: pytest.CaptureFixture) -> None:
    assert check(name, answer), capsys.readouterr().out


@pytest.mark.parametrize("name, answer", _params(1))
def test_wrong_answers_are_refused(name: str, answer: object, capsys: pytest.CaptureFixture) -> None:
    assert not check(name, answer), capsys.readouterr().out
    out = capsys.readouterr().out
    assert out.startswith("✘ Not yet: ")


def test_a_refused_wrapper_or_copy_says_why(capsys: pytest.CaptureFixture) -> None:
    from solitaire.stats import wilson
    check("06.wilson", lambda k, n: wilson(k, n))
    check("06.wilson", _exec_copy(wilson))
    out = capsys.readouterr().out
    assert "calls the kit's wilson" in out or "calls the kit's own wilson" in out
    assert "this is a copy of the kit's wilson" in out


def test_the_kits_pieces_come_back_after_a_check() -> None:
    """kit_off restores every piece, even when the student's function raised."""
    from solitaire import moves
    before = moves._draw, moves._APPLY[DRAW_KIND()]
    check("02c.draw", lambda p: 1 / 0, quiet=True)
    assert (moves._draw, moves._APPLY[DRAW_KIND()]) == before


def DRAW_KIND():  # noqa: N802  (the move kind of a draw, as the kit's table keys it)
    from solitaire.moves import DRAW
    return DRAW


def test_every_case_names_an_exercise_that_exists() -> None:
    """A case under a stale id would be refused for the wrong reason ("no exercise called ...")."""
    from solitaire.lessons.checks import EXERCISES
    assert sorted(set(CASES) - set(EXERCISES)) == []


def test_a_piece_held_in_a_private_namespace_is_switched_off_too(capsys: pytest.CaptureFixture) -> None:
    """exec(code, ns) gives the answer globals of its own, outside sys.modules: the kit's piece bound there
    (passes_left, which 02.stock_moves asks for) is switched off as well."""
    from solitaire import moves
    from solitaire.moves import DRAW, RECYCLE, Move
    code = ("def stock_moves(p):\n    if p.stock:\n        return [Move(DRAW)]\n"
            "    return [Move(RECYCLE)] if p.waste and passes_left(p) else []\n")
    namespace = {"passes_left": moves.passes_left, "Move": Move, "DRAW": DRAW, "RECYCLE": RECYCLE}
    exec(code, namespace)  # noqa: S102 (the attack under test)
    assert not check("02.stock_moves", namespace["stock_moves"])
    assert "calls the kit's passes_left" in capsys.readouterr().out
    assert namespace["passes_left"] is moves.passes_left  # and it is given back


def test_a_rounded_or_late_answer_is_told_what_it_did(capsys: pytest.CaptureFixture) -> None:
    """A p-value or a share rounded by the function, an interval end rounded to one digit, and a loop that goes
    one deal past the answer each get the sentence that names the slip, not a generic "recheck the formula"."""
    from solitaire.lessons.lesson06 import _checked_width_answer
    from solitaire.strategies import play_game
    assert not check("06b.p_value", lambda a, b: round(_p_value(a, b), 3))
    assert "that is the right p-value rounded to" in capsys.readouterr().out
    share = lambda v, d: round(sum(play_game(v, s, "greedy").outcome == "won" for s in range(d)) / d, 2)  # noqa: E731
    assert not check("06b.win_share", share)
    assert "That is the share rounded" in capsys.readouterr().out
    chance = _chance_with(_scipy_wilson)
    assert not check("08.chance_by_hand", lambda c: (chance(c)[0], round(chance(c)[1], 1), chance(c)[2]))
    out = capsys.readouterr().out
    assert "too coarse" in out and "recheck the formula" not in out
    assert not check("06.deals_needed", lambda w: _checked_width_answer(w) + 1)
    assert "not one later" in capsys.readouterr().out
