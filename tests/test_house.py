"""The house in order (issue 23): the code students read says what it means, and the solver's card fields
come from the core."""
import ast
import re
from dataclasses import replace
from pathlib import Path

import pytest

from solitaire import ITALIAN, KLONDIKE, SOLIJOY, Move, apply, deal
from solitaire.cards import ALL_CARDS, InvalidCardError, card
from solitaire.solver.tables import RuleTables

PACKAGE = Path(__file__).resolve().parent.parent / "solitaire"


def tree(path: str) -> ast.Module:
    return ast.parse((PACKAGE / path).read_text(encoding="utf-8"))


def test_moves_build_positions_from_named_fields():
    """No ``Position(..., *p[3:])``: a NamedTuple sliced by position hides which fields a move keeps."""
    calls = [n for n in ast.walk(tree("moves.py")) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "Position"]
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
