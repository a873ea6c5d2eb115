"""The house in order (issue 23): the code students read says what it means, and the solver's card fields
come from the core."""
import ast
import doctest
import re
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

import solitaire
from solitaire import ITALIAN, KLONDIKE, SOLIJOY, Game, Move, apply, deal, experiments, solve
from solitaire.cards import ALL_CARDS, InvalidCardError, card
from solitaire.endgame import OUTCOMES, REASONS, STATUSES, Outcome, over_reason
from solitaire.solver.tables import RuleTables
from solitaire.strategies import play_game

PACKAGE = Path(__file__).resolve().parent.parent / "solitaire"


def tree(path: str) -> ast.Module:
    return ast.parse((PACKAGE / path).read_text(encoding="utf-8"))


def test_moves_build_positions_from_named_fields():
    """No ``Position(..., *p[3:])``: a NamedTuple sliced by position hides which fields a move keeps."""
    calls = [n for n in ast.walk(tree("moves.py"))
             if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "Position"]
    assert not [ast.unparse(c) for c in calls if any(isinstance(a, ast.Starred) for a in c.args)]


def test_card_has_no_nested_conditional_expression():
    nested = [ast.unparse(n) for n in ast.walk(tree("cards.py"))
              if isinstance(n, ast.IfExp) and any(isinstance(x, ast.IfExp) for x in (n.body, n.orelse))]
    assert nested == []


@pytest.mark.parametrize("variant", [KLONDIKE, replace(KLONDIKE, draw=3), ITALIAN])
def test_a_draw_turns_the_top_cards_over_one_by_one(variant):
    p = deal(variant, 4)
    while p.stock:
        q = apply(p, Move("draw"))
        n = min(variant.draw, len(p.stock))
        assert q.waste == p.waste + tuple(reversed(p.stock[len(p.stock) - n:]))  # the top card first
        assert q.stock == p.stock[:len(p.stock) - n] and q[3:] == p[3:]
        p = q


def test_card_reads_ranks_and_suits_as_before():
    assert card("10", "h") == card(10, 2) == card(" 10 ", "♥") and str(card("q", "S")) == "Q♠"
    for rank, suit in [(True, 0), (1.0, 0), (1, False), ("Z", 0), (1, "X"), (None, 0), (0, 0), (1, 4)]:
        with pytest.raises(InvalidCardError, match="no card has rank"):
            card(rank, suit)


def test_the_solver_takes_rank_names_and_suits_from_the_core():
    solver = {f.name: f.read_text(encoding="utf-8") for f in (PACKAGE / "solver").glob("*.py")}
    assert not {name for name, text in solver.items() if re.search(r">>\s*4\b|\*\s*16\b", text)}
    assert not {name for name, text in solver.items() if re.search(r'"J",\s*"Q",\s*"K"', text)}
    for v in (KLONDIKE, SOLIJOY, ITALIAN):
        t = RuleTables(v)
        assert all(t.suit[c] == c.suit for c in ALL_CARDS if c in t.deck)
        assert all(t.card_at[c.suit][t.step[c]] == c for c in ALL_CARDS if c in t.deck)


# --- outcomes are a type (issue 23, item 1) ----------------------------------------------------------
WORDS = {o.value for o in Outcome}
NOT_YET_CONVERTED: set[str] = set()  # every part of the package names its outcomes


def bare_words(node: ast.AST) -> list[str]:
    """The outcome words written as bare literals in ``node`` (a constant, or a tuple, list or set of them)."""
    if isinstance(node, ast.Constant) and node.value in WORDS:
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [w for x in node.elts for w in bare_words(x)]
    return []


def bare_outcomes(path: Path, root: Path = PACKAGE) -> list[str]:
    """Where ``path`` compares with, looks up or returns an outcome as a bare string instead of ``Outcome``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") in {"isin", "count", "index"}:
            parts = node.args
        elif isinstance(node, ast.Return) and node.value is not None:
            parts = node.value.elts[:1] if isinstance(node.value, ast.Tuple) else [node.value]
        else:
            continue
        found += [f"{path.relative_to(root)}:{node.lineno}: {w!r}" for p in parts for w in bare_words(p)]
    return found


def test_the_package_names_outcomes_instead_of_writing_bare_strings():
    files = [f for f in PACKAGE.rglob("*.py") if f.relative_to(PACKAGE).parts[0] not in NOT_YET_CONVERTED]
    names = {f.relative_to(PACKAGE).as_posix() for f in files}
    assert {"cli.py", "experiments.py", "plots.py", "expert.py", "game.py", "solver/__init__.py"} <= names
    assert [w for f in files for w in bare_outcomes(f)] == []


def test_the_check_finds_bare_outcomes(tmp_path):
    code = ('def f(r, df):\n    if r.status == "won" or r.outcome in ("lost", "move limit"):\n'
            '        return "unknown", 1\n    return df.isin(["unwinnable"])\n')
    (tmp_path / "x.py").write_text(code, encoding="utf-8")
    found = bare_outcomes(tmp_path / "x.py", tmp_path)
    assert sorted(found) == ["x.py:2: 'lost'", "x.py:2: 'move limit'", "x.py:2: 'won'", "x.py:3: 'unknown'",
                             "x.py:4: 'unwinnable'"]


def test_outcomes_are_one_type_equal_to_the_words_saved_in_results_files():
    assert Outcome.WON == "won" and Outcome("move limit") is Outcome.MOVE_LIMIT and "unknown" in STATUSES
    assert (str(Outcome.LOST), f"{Outcome.LOST}", repr(Outcome.LOST), hash(Outcome.LOST)) == (
        "lost", "lost", "'lost'", hash("lost"))
    assert all(isinstance(o, Outcome) for o in REASONS + OUTCOMES + STATUSES) and solitaire.Outcome is Outcome
    shipped = pd.concat([experiments.shipped(name) for name in ("seed_variants", "published_rules", "expert")])
    assert set(shipped["outcome"]) <= WORDS and set(shipped["outcome"]) == set(OUTCOMES + STATUSES)
    assert {Outcome(word) for word in shipped["outcome"]} == set(OUTCOMES + STATUSES)


def test_games_solvers_and_players_answer_with_outcomes():
    game = Game("klondike", seed=3)
    result = solve(game, max_nodes=5000)
    assert isinstance(result.status, Outcome) and result.status is Outcome.WON
    game.play_all(result.moves)
    assert game.over_reason() is Outcome.WON and over_reason(game.position) is Outcome.WON
    record = play_game("klondike", 4, "random", max_moves=10)
    assert record.outcome is Outcome.MOVE_LIMIT and isinstance(play_game("klondike", 4, "greedy").outcome, Outcome)
    assert solve(game.start, max_nodes=1).status is Outcome.UNKNOWN


def test_the_solvers_internal_sentinel_does_not_share_the_outcomes_name():
    from solitaire.solver import restarts
    assert not hasattr(restarts, "WON") and restarts.FOUND_A_WIN == -1
    assert "as WIN" not in (PACKAGE / "expert.py").read_text(encoding="utf-8")


# A run's figures in a docstring: a share (95% is a confidence level, not a result), "won 39 of 60", "19 of 60
# deals", seconds of a run ("8-9 s of CPU a game", "in 27 s"), or "within noise".
RUN_FIGURES = re.compile(r"(?<![\d.])(?!95\s?%)\d[\d,.]*\s?%|\bwon \d[\d,]* of \d[\d,]*|\b\d[\d,]* of (?:the )?\d[\d,]* "
                         r"(?:deals|games)|\d s of CPU|\bin \d[\d.]* s\b|\d s a (?:game|deal)\b|\bwithin noise\b", re.I)


def docstrings(path: Path):
    """The module's docstring, then its classes' and functions', their examples left out (they show use)."""
    module = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(module):  # the module first
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            text = ast.get_docstring(node, clean=False)
            if text:
                prose = [part for part in doctest.DocTestParser().parse(text) if isinstance(part, str)]
                yield getattr(node, "name", path.stem), "".join(prose)


def run_figures(path: Path) -> list[str]:
    return [f"{name}: {m.group(0)!r}" for name, text in docstrings(path) for m in RUN_FIGURES.finditer(text)]


def test_no_docstring_carries_a_runs_figures():
    """Issue 40: a docstring says what a thing does and why; what it measured lives in benchmarks/RESULTS.md
    (the expert's module docstring once read "won 39 of 60 ... 19 of 60 against 23 (6 to 10, within noise)")."""
    found = {p.relative_to(PACKAGE).as_posix(): run_figures(p) for p in sorted(PACKAGE.rglob("*.py"))}
    assert {path: hits for path, hits in found.items() if hits} == {}


def test_the_run_figures_check_sees_a_run_log(tmp_path):
    old = tmp_path / "old.py"
    old.write_text('"""On untouched deals the expert won 39 of 60 with draw 1, at 8-9 s of CPU a game; a 95% '
                   'interval."""\n', encoding="utf-8")
    assert run_figures(old) == ["old: 'won 39 of 60'", "old: '9 s of CPU'"]
