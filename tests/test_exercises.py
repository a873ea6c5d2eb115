"""The exercise checker: right answers pass, wrong ones get a helpful sentence, nothing ever raises."""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from solitaire import ITALIAN, KLONDIKE, SOLIJOY, VARIANTS, Game, deal, legal_moves
from solitaire.exercises import EXERCISES, check, question
from solitaire.moves import rules
from solitaire.state import shuffled_deck

ROOT = Path(__file__).resolve().parents[1]


def feedback(capsys: pytest.CaptureFixture, name: str, answer: object) -> tuple[bool, str]:
    ok = check(name, answer)
    return ok, capsys.readouterr().out


def test_unknown_exercise_lists_the_real_ones(capsys: pytest.CaptureFixture) -> None:
    ok, out = feedback(capsys, "99.nothing", 1)
    assert ok is False and "no exercise called '99.nothing'" in out and "01.red_cards" in out


@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_unanswered_is_not_an_error(name: str, capsys: pytest.CaptureFixture) -> None:
    ok, out = feedback(capsys, name, ...)
    assert ok is False and out.startswith("✘ Not yet: Not answered yet") and question(name) in out


@pytest.mark.parametrize("name", sorted(EXERCISES))
def test_a_wrong_type_never_raises(name: str, capsys: pytest.CaptureFixture) -> None:
    for junk in (None, "junk", 3.5, [1, 2], {"a": 1}, object()):
        ok, out = feedback(capsys, name, junk)
        assert ok is False and out.startswith("✘ Not yet: ")


def test_quiet_prints_nothing(capsys: pytest.CaptureFixture) -> None:
    assert check("01.red_cards", 52, quiet=True) is True
    assert capsys.readouterr().out == ""


def test_red_cards(capsys: pytest.CaptureFixture) -> None:
    assert feedback(capsys, "01.red_cards", 52)[0]
    ok, out = feedback(capsys, "01.red_cards", 26)
    assert not ok and "too low" in out
    ok, out = feedback(capsys, "01.red_cards", True)
    assert not ok and "should be a number" in out


def test_same_colour(capsys: pytest.CaptureFixture) -> None:
    assert feedback(capsys, "01.same_colour", lambda a, b: a.is_red == b.is_red)[0]
    ok, out = feedback(capsys, "01.same_colour", lambda a, b: a.suit == b.suit)
    assert not ok and "returned False" in out and "black" in out
    ok, out = feedback(capsys, "01.same_colour", lambda a: True)
    assert not ok and "raised TypeError" in out

    def stub(a, b):
        raise NotImplementedError

    ok, out = feedback(capsys, "01.same_colour", stub)
    assert not ok and "still has no body" in out


def test_first_card(capsys: pytest.CaptureFixture) -> None:
    first = shuffled_deck(ITALIAN, 2024)[0]
    assert feedback(capsys, "01.first_card", first)[0]
    assert feedback(capsys, "01.first_card", str(first))[0]
    ok, out = feedback(capsys, "01.first_card", "2♣")
    assert not ok and "not even in the Italian" in out
    other = shuffled_deck(ITALIAN, 2024)[1]
    ok, out = feedback(capsys, "01.first_card", other)
    assert not ok and "not first" in out


def test_opening_moves(capsys: pytest.CaptureFixture) -> None:
    moves = [str(m) for m in legal_moves(deal(KLONDIKE, 7))]
    assert feedback(capsys, "02.opening_moves", moves)[0]
    ok, out = feedback(capsys, "02.opening_moves", moves[1:] + ["t1>t2"])
    assert not ok and f"missing {moves[0]}" in out and "t1>t2" in out


def test_fits(capsys: pytest.CaptureFixture) -> None:
    assert feedback(capsys, "02.fits", lambda c, u, v: u in rules(v).parents[c])[0]
    ok, out = feedback(capsys, "02.fits", lambda c, u, v: c.is_red != u.is_red and u.rank == c.rank + 1)
    assert not ok and "Italian" in out  # right for Klondike's order, wrong for A K Q J ... 7


def test_stock_through(capsys: pytest.CaptureFixture) -> None:
    assert feedback(capsys, "02.stock_through", 24)[0]
    assert not feedback(capsys, "02.stock_through", 23)[0]


def test_illegal_reason(capsys: pytest.CaptureFixture) -> None:
    p = deal(KLONDIKE, 7)
    legal = set(legal_moves(p))
    candidates = [f"t{s}>t{d}" for s in range(1, 8) for d in range(1, 8) if s != d]
    game = Game("klondike", 7)
    wrong_rank = next(m for m in candidates if "cannot go on" in (game.explain(m) or ""))
    assert feedback(capsys, "02.illegal_reason", wrong_rank)[0]
    if legal:
        ok, out = feedback(capsys, "02.illegal_reason", str(next(iter(legal))))
        assert not ok and "is legal" in out
    ok, out = feedback(capsys, "02.illegal_reason", "t9>t1")
    assert not ok and "another reason" in out
    ok, out = feedback(capsys, "02.illegal_reason", "t1 to t2")
    assert not ok and "cannot read a move" in out


def test_differences(capsys: pytest.CaptureFixture) -> None:
    assert feedback(capsys, "03.differences", set(SOLIJOY.changes_from(KLONDIKE)))[0]
    ok, out = feedback(capsys, "03.differences", {"decks", "draw"})
    assert not ok and "missing" in out and "draw" in out


def test_vera_francese(capsys: pytest.CaptureFixture) -> None:
    right = dataclasses.replace(ITALIAN, name="vera", ranks=("A", "7", "8", "9", "10", "J", "Q", "K"),
                                empty_column_ranks=("K",), passes=2)
    assert feedback(capsys, "03.vera_francese", right)[0]
    ok, out = feedback(capsys, "03.vera_francese", dataclasses.replace(right, passes=None))
    assert not ok and "passes is None" in out
    ok, out = feedback(capsys, "03.vera_francese", dataclasses.replace(right, auto_flip=False))
    assert not ok and "also changed auto_flip" in out


def test_stock_sizes(capsys: pytest.CaptureFixture) -> None:
    sizes = {k: len(deal(v, 0).stock) for k, v in VARIANTS.items()}
    assert feedback(capsys, "03.stock_sizes", sizes)[0]
    ok, out = feedback(capsys, "03.stock_sizes", {**sizes, "italian": 4 if sizes["italian"] != 4 else 3})
    assert not ok and "italian" in out


def test_game_exercises_want_a_game(capsys: pytest.CaptureFixture) -> None:
    for name in ("04.four_aces", "04.win", "05.replay"):
        ok, out = feedback(capsys, name, ["draw"])
        assert not ok and "expected the Game" in out
    ok, out = feedback(capsys, "04.four_aces", Game("klondike", 3))
    assert not ok and "0 of the 4 Aces" in out
    ok, out = feedback(capsys, "05.replay", Game("klondike", 3))
    assert not ok and "not won yet" in out


def test_strategy(capsys: pytest.CaptureFixture) -> None:
    from solitaire.strategies import GreedyStrategy

    ok, out = feedback(capsys, "05.strategy", GreedyStrategy())
    assert ok and "deals 0-4" in out
    assert feedback(capsys, "05.strategy", lambda obs, moves: moves[-1])[0]
    assert feedback(capsys, "05.strategy", lambda obs, moves: str(moves[0]))[0]  # text is fine too
    ok, out = feedback(capsys, "05.strategy", lambda obs, moves: "t1>t1")
    assert not ok and "failed" in out
    ok, out = feedback(capsys, "05.strategy", lambda obs: None)
    assert not ok and "TypeError" in out

    def stub(obs, moves):
        raise NotImplementedError

    ok, out = feedback(capsys, "05.strategy", stub)
    assert not ok and "no body" in out


def test_greedy_wins(capsys: pytest.CaptureFixture) -> None:
    from solitaire.strategies import play_game

    wins = sum(play_game("klondike", seed, "greedy").outcome == "won" for seed in range(20))
    assert feedback(capsys, "05.greedy_wins", wins)[0]
    ok, out = feedback(capsys, "05.greedy_wins", wins + 1)
    assert not ok and "too high" in out


def test_interval(capsys: pytest.CaptureFixture) -> None:
    assert feedback(capsys, "06.interval", (0.219, 0.396))[0]
    ok, out = feedback(capsys, "06.interval", (0.210, 0.390))
    assert not ok and "Wald" in out


def test_every_exercise_is_used_in_a_notebook_and_every_check_is_registered() -> None:
    used = set()
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "code":
                continue
            used |= set(re.findall(r"check\(\"([^\"]+)\"", "".join(cell["source"])))
    assert used <= set(EXERCISES)
    lessons = {p.stem[:2] for p in (ROOT / "notebooks").glob("*.ipynb")}
    assert {name for name in EXERCISES if name[:2] in lessons} <= used



def test_the_pysol_layout_in_lesson_04_is_the_real_deal() -> None:
    """Lesson 04 embeds a PySolFC layout as text; pysol-cards must print exactly that for the deal number."""
    pytest.importorskip("pysol_cards")
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game as PysolGame
    from pysol_cards.random_base import RandomBase
    cells = json.loads((ROOT / "notebooks" / "04_play.ipynb").read_text(encoding="utf-8"))["cells"]
    source = next("".join(c["source"]) for c in cells if "LAYOUT = " in "".join(c["source"]))
    number = int(re.search(r"PYSOL_DEAL = (\d+)", source)[1])
    layout = re.search(r'LAYOUT = """\\\n(.*?)"""', source, re.S)[1]
    assert layout == PysolGame("klondike", number, RandomBase.DEALS_PYSOLFC).calc_layout_string(CardRenderer(True))


def test_draw3_rate_and_deals_needed(capsys: pytest.CaptureFixture) -> None:
    from dataclasses import replace as _replace

    from solitaire.strategies import play_game

    draw3 = _replace(KLONDIKE, draw=3)
    wins = sum(play_game(draw3, seed, "greedy").outcome == "won" for seed in range(100))
    assert feedback(capsys, "06.draw3_rate", wins / 100)[0]
    if wins > 1:
        ok, out = feedback(capsys, "06.draw3_rate", wins)
        assert not ok and "number of wins" in out
    assert feedback(capsys, "06.deals_needed", 6150)[0]
    ok, out = feedback(capsys, "06.deals_needed", 1000)
    assert not ok and "wider" in out
