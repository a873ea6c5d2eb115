"""Lesson 02b's checks, where the student writes part of the engine: right answers pass, wrong ones are refused.

``CASES`` (joined by the lead with the other lessons' dicts): exercise id -> (right answer, plausible wrong
answers, nonsense).
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from solitaire.lessons import check
from solitaire.lessons.lesson02b import KLONDIKE_DRAW_3, POSITIONS_PER_VARIANT, playout_positions
from solitaire.moves import (DRAW, WASTE_TO_COLUMN, WASTE_TO_FOUNDATION, Move, _waste_moves, apply, column_targets,
                             foundation_wants, rules)
from solitaire.variants import ITALIAN, KLONDIKE, SOLIJOY


def waste_moves(p, targets, wants):
    top = p.waste[-1]
    moves = [Move(WASTE_TO_FOUNDATION)] if p.variant.waste_to_foundation and top in wants else []
    return moves + [Move(WASTE_TO_COLUMN, target=d) for d in targets.get(top, [])]


def waste_moves_any_foundation(p, targets, wants):  # forgets that SoliJoy's waste never goes to a foundation
    top = p.waste[-1]
    return ([Move(WASTE_TO_FOUNDATION)] if top in wants else []) + [Move(WASTE_TO_COLUMN, target=d)
                                                                     for d in targets.get(top, [])]


def waste_moves_first_column(p, targets, wants):  # only the first column that takes the card
    moves = waste_moves(p, targets, wants)
    return [m for m in moves if m.kind != WASTE_TO_COLUMN][:1] + [m for m in moves if m.kind == WASTE_TO_COLUMN][:1]


def waste_moves_twice(p, targets, wants):  # every move listed twice
    return waste_moves(p, targets, wants) * 2


def waste_moves_numbered_from_1(p, targets, wants):  # target columns numbered as in the text form
    return [m._replace(target=m.target + 1) if m.kind == WASTE_TO_COLUMN else m for m in waste_moves(p, targets, wants)]


def draw(p):
    n = min(p.variant.draw, len(p.stock))
    return p._replace(stock=p.stock[:-n], waste=p.waste + tuple(reversed(p.stock[-n:])))


def draw_one(p):  # always one card, whatever the variant's draw
    return p._replace(stock=p.stock[:-1], waste=p.waste + p.stock[-1:])


def draw_unreversed(p):  # the three cards keep their stock order instead of being turned one by one
    n = min(p.variant.draw, len(p.stock))
    return p._replace(stock=p.stock[:-n], waste=p.waste + p.stock[-n:])


def draw_from_bottom(p):  # takes the bottom card of the stock, not the top
    return p._replace(stock=p.stock[1:], waste=p.waste + p.stock[:1])


def draw_wrong_count(p):  # the stock's last cards past its size: a draw 3 with 2 left in the stock takes 3
    if len(p.stock) >= p.variant.draw:
        return draw(p)
    return p._replace(stock=(), waste=p.waste + tuple(reversed(p.stock)) + p.stock[:1])


CASES = {
    "02b.waste_moves": (waste_moves, [waste_moves_any_foundation, waste_moves_first_column, waste_moves_twice,
                                      waste_moves_numbered_from_1], "w>f"),
    "02b.apply_draw": (draw, [draw_one, draw_unreversed, draw_from_bottom, draw_wrong_count], 42),
}


@pytest.mark.parametrize("name", CASES)
def test_right_answer_passes(name: str, capsys: pytest.CaptureFixture) -> None:
    assert check(name, CASES[name][0])
    assert capsys.readouterr().out.startswith("✔ Right:")


@pytest.mark.parametrize("name,wrong", [(n, w) for n, (_, wrongs, nonsense) in CASES.items()
                                        for w in [*wrongs, nonsense]],
                         ids=lambda x: getattr(x, "__name__", repr(x)))
def test_wrong_answer_is_refused(name: str, wrong, capsys: pytest.CaptureFixture) -> None:
    assert not check(name, wrong)
    assert capsys.readouterr().out.startswith("✘ Not yet:")


def test_the_kit_itself_is_a_wrapper(capsys: pytest.CaptureFixture) -> None:
    """The kit's own pieces are switched off while an answer runs: a wrapper around them is refused, saying so."""
    assert not check("02b.waste_moves", lambda p, t, w: _waste_moves(p, rules(p.variant), t, w))
    assert not check("02b.apply_draw", lambda p: apply(p, Move(DRAW)))
    assert capsys.readouterr().out.count("switched off while your answer is checked") == 2


def test_a_stub_is_not_answered(capsys: pytest.CaptureFixture) -> None:
    def stub(p, targets, wants):
        raise NotImplementedError
    assert not check("02b.waste_moves", stub) and not check("02b.apply_draw", ...)
    out = capsys.readouterr().out
    assert "still has no body" in out and "Not answered yet" in out


def test_a_refusal_names_the_position_and_both_answers(capsys: pytest.CaptureFixture) -> None:
    check("02b.waste_moves", waste_moves_any_foundation)
    out = capsys.readouterr().out
    assert "SoliJoy" in out and "foundations:" in out and "returned ['w>f']" in out and "the kit's answer is []" in out
    from solitaire.lessons import lesson02b
    p = lesson02b.first_difference  # kept for the student to try their function on
    targets, wants = column_targets(p, rules(SOLIJOY)), foundation_wants(p)
    assert p.variant == SOLIJOY and waste_moves_any_foundation(p, targets, wants) != waste_moves(p, targets, wants)


@pytest.mark.parametrize("variant", [KLONDIKE, SOLIJOY, ITALIAN, KLONDIKE_DRAW_3], ids=lambda v: v.name)
def test_positions_are_reproducible_and_varied(variant) -> None:
    waste, stock = playout_positions(variant, "waste"), playout_positions(variant, "stock")
    assert len(waste) == len(stock) == POSITIONS_PER_VARIANT >= 1000
    assert all(p.waste for p in waste) and all(p.stock for p in stock)
    assert playout_positions.__wrapped__(variant, "waste") == waste  # made anew: the same positions
    assert len(set(waste)) > 800 and len(set(stock)) > 800
    r = rules(variant)
    with_moves = [p for p in waste if _waste_moves(p, r, column_targets(p, r), foundation_wants(p, r))]
    assert len(with_moves) > 200  # the waste card has somewhere to go in a fair share of them
    assert variant.draw == 1 or any(len(p.stock) < variant.draw for p in stock)  # draw 3 meets a short stock


def test_draw_3_variant_is_klondike_but_for_the_draw() -> None:
    assert KLONDIKE_DRAW_3.changes_from(KLONDIKE) == {"name": "Klondike draw 3", "draw": 3}
    assert replace(KLONDIKE, draw=3, name=KLONDIKE_DRAW_3.name) == KLONDIKE_DRAW_3
