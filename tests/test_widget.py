"""Drive the card table through its own controls (real Button objects and the selection API)."""
from __future__ import annotations

import sys
import types
from dataclasses import replace

import pytest
from helpers import cards, make

import solitaire
from solitaire import ITALIAN, KLONDIKE, SOLIJOY, Game, Move
from solitaire.widget import GameWidget, play, safe_foundation_move

SUITS = "♣♦♥♠"


def widget_at(position) -> GameWidget:
    return GameWidget(Game.from_position(position))


def shown(button_list) -> list[str]:
    """What the visible buttons of a pile show (face-down cards show nothing)."""
    return [b.description for b in button_list if b.layout.display != "none"]


def column_view(w: GameWidget, i: int) -> list[str]:
    return shown(w.column_buttons[i])


def assert_table_matches_game(w: GameWidget) -> None:
    """The Game is the single source of truth: every pile on screen equals the position."""
    p = w.game.position
    for i, (col, hidden) in enumerate(zip(p.columns, p.hidden)):
        assert column_view(w, i) == ["" if j < hidden else str(c) for j, c in enumerate(col)]
        assert (w.column_base_buttons[i].layout.display == "none") == bool(col)
    for b, pile in zip(w.foundation_buttons, p.foundations):
        assert b.description == (str(pile[-1]) if pile else p.variant.ranks[0])
    assert shown(w.waste_buttons) == ([str(c) for c in p.waste[-max(p.variant.draw, 1):]] or [""])
    assert w.stock_button.description == (str(len(p.stock)) if p.stock else "↻" if p.waste else "")
    assert f"Moves: {len(w.game.moves)}" in w.moves_view.value


def full_foundations(ranks: str, suits: str = SUITS) -> list[str]:
    """Foundation piles holding ``ranks`` (e.g. 'A 2 ... Q') in each suit of ``suits``."""
    return [" ".join(r + s for r in ranks.split()) for s in suits]


# --- the basics ---------------------------------------------------------------------------------
def test_play_and_game_widget_make_the_same_table():
    w = solitaire.play("klondike", seed=1)
    assert isinstance(w, GameWidget) and w.game.seed == 1
    assert isinstance(Game("italian", seed=2).widget(), GameWidget)
    assert_table_matches_game(w)
    assert len(w.columns_row.children) == 7 and len(w.foundation_row.children) == 4


def test_stock_button_draws_and_the_table_follows():
    w = play("klondike", seed=1)
    w.stock_button.click()
    assert w.game.moves == [Move("draw")]
    assert w.waste_top_button.description == str(w.game.position.waste[-1])
    assert "1.&nbsp;draw" in w.moves_view.value
    assert_table_matches_game(w)


def test_stock_button_recycles_an_empty_stock():
    w = widget_at(make(KLONDIKE, ["K♠"], waste="2♥ 3♣", stock="", hidden=[0] * 7))
    assert w.stock_button.description == "↻"
    w.stock_button.click()
    assert w.game.moves == [Move("recycle")] and w.game.position.stock == cards("3♣ 2♥")
    assert_table_matches_game(w)


def test_clicking_a_face_down_top_card_flips_it():
    w = widget_at(make(KLONDIKE, ["K♠ 5♥", "Q♦"], hidden=[2, 0]))
    assert column_view(w, 0) == ["", ""]
    w.card_button(0).click()
    assert w.game.moves == [Move("flip", 0)] and column_view(w, 0) == ["", "5♥"]


def test_italian_turns_cards_up_by_itself_after_a_click_move():
    p = make(ITALIAN, ["10♠ 9♥", "10♣"], hidden=[1, 0])
    w = widget_at(p)
    w.card_button(0).click()  # 9♥ ...
    w.card_button(1).click()  # ... onto 10♣ (columns follow A K Q J 10 9 8 7)
    assert [str(m) for m in w.game.moves] == ["t1>t2"] and column_view(w, 0) == ["10♠"]


def test_waste_to_column_by_two_clicks():
    w = widget_at(make(KLONDIKE, ["8♠"], waste="7♥", hidden=[0] * 7))
    w.waste_top_button.click()
    assert w.selection.pile == "waste" and "Selected 7♥" in w.message
    assert w.waste_top_button.layout.border.startswith("3px")  # the selection is marked
    w.card_button(0).click()
    assert [str(m) for m in w.game.moves] == ["w>t1"] and column_view(w, 0) == ["8♠", "7♥"]
    assert w.selection is None and not w.waste_top_button.layout.border.startswith("3px")


def test_waste_to_foundation_by_clicking_the_card_twice_or_the_foundation():
    w = widget_at(make(KLONDIKE, [], waste="2♥ A♥ A♣", foundations=[], hidden=[0] * 7))
    w.click_waste()
    w.click_waste()
    w.click_waste()
    w.foundation_buttons[3].click()  # any foundation: the card goes to the one that takes it
    assert [str(m) for m in w.game.moves] == ["w>f", "w>f"]
    assert [b.description for b in w.foundation_buttons] == ["A♣", "A♥", "A", "A"]


def test_column_to_foundation_and_the_to_foundation_button():
    w = widget_at(make(KLONDIKE, ["A♠", "K♦ 2♠"], hidden=[0] * 7))
    w.card_button(0).click()
    w.foundation_buttons[0].click()
    w.card_button(1).click()
    w.to_foundation_button.click()
    assert [str(m) for m in w.game.moves] == ["t1>f", "t2>f"]
    assert w.foundation_buttons[0].description == "2♠" and column_view(w, 1) == ["K♦"]
    assert w.column_base_buttons[0].layout.display != "none"  # t1 is empty: its place shows


def test_column_to_column_single_card_and_build():
    w = widget_at(make(KLONDIKE, ["9♣ 8♥ 7♠", "9♠", "K♠"], hidden=[0] * 7))
    w.card_button(0, depth=2).click()  # 8♥ 7♠ as one build ...
    assert w.selection == ("column", 0, 2)
    w.card_button(1).click()  # ... onto 9♠
    assert [str(m) for m in w.game.moves] == ["t1>t2:2"]
    assert column_view(w, 1) == ["9♠", "8♥", "7♠"]
    w.click_column(1)  # 7♠ ...
    w.click_column(0)  # ... back onto... 9♣ is not an 8: refused
    assert len(w.game.moves) == 1 and "7♠ cannot go on 9♣" in w.message
    w.click_column(0)
    w.click_column(3)  # 9♣ onto the empty t4: only a King may go there
    assert "only a King" in w.message and len(w.game.moves) == 1
    w.click_column(2)
    w.click_column(3)  # the King may
    assert [str(m) for m in w.game.moves] == ["t1>t2:2", "t3>t4"]
    assert_table_matches_game(w)


def test_foundation_back_to_a_column_where_the_variant_allows_it():
    v = replace(KLONDIKE, foundation_to_tableau=True)
    w = widget_at(make(v, ["8♠"], foundations=["A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥"], hidden=[0] * 7))
    w.foundation_buttons[0].click()
    assert w.selection == ("foundation", 0, 1)
    w.card_button(0).click()
    assert [str(m) for m in w.game.moves] == ["f1>t1"] and column_view(w, 0) == ["8♠", "7♥"]
    assert w.foundation_buttons[0].description == "6♥"


def test_klondike_refuses_to_take_a_card_back_from_a_foundation():
    w = widget_at(make(KLONDIKE, ["8♠"], foundations=["A♥"], hidden=[0] * 7))
    w.foundation_buttons[0].click()
    assert w.selection is None and "never come back from a foundation" in w.message


# --- errors teach and change nothing ------------------------------------------------------------
def test_an_illegal_attempt_explains_the_rule_and_changes_nothing():
    w = play("klondike", seed=1)
    before = w.game.position
    w.card_button(0).click()  # 7♦
    w.card_button(1).click()  # onto 6♦: illegal
    assert w.game.position == before and w.game.moves == []
    assert w.message.startswith("t1>t2 is illegal")
    assert w.game.explain("t1>t2") in w.message and "opposite colour" in w.status.value
    assert_table_matches_game(w)


def test_face_down_and_empty_places_explain_themselves():
    w = widget_at(make(KLONDIKE, ["K♠ 5♥ 4♣"], hidden=[1, 0, 0, 0, 0, 0, 0]))
    w.click_column(0, depth=3)
    assert "face down" in w.message and w.selection is None
    w.click_column(1)
    assert "empty" in w.message
    w.click_waste()
    assert "waste is empty" in w.message
    w.to_foundation_button.click()
    assert "Select a card first" in w.message
    w.click_column(0, depth=2)
    w.to_foundation()
    assert "one card at a time" in w.message
    assert w.game.moves == []


def test_no_exception_reaches_the_notebook(monkeypatch):
    w = play("klondike", seed=1)
    w.click_column(99)
    assert "no column 100" in w.message
    w.play_move("t9>t1:xyz")
    assert "cannot read a move" in w.message

    def broken(game):
        raise RuntimeError("strategy crashed")

    monkeypatch.setitem(sys.modules, "solitaire.strategies", types.SimpleNamespace(strategy_hint=broken))
    w.hint_button.click()
    assert "Something went wrong" in w.message and "strategy crashed" in w.message
    w.seed_field.value = -3  # a bad seed is explained, the game stays
    assert "seed" in w.message and w.game.seed == 1


# --- undo, redo, restart, new deal, variants ----------------------------------------------------
def test_undo_redo_and_restart_buttons():
    w = play("klondike", seed=1)
    assert w.undo_button.disabled and w.redo_button.disabled
    w.stock_button.click()
    w.stock_button.click()
    w.undo_button.click()
    assert len(w.game.moves) == 1 and not w.redo_button.disabled
    w.redo_button.click()
    assert len(w.game.moves) == 2
    w.restart_button.click()
    assert w.game.moves == [] and w.game.position == Game("klondike", seed=1).position
    assert w.game.can_redo() and "Redo" in w.message
    assert_table_matches_game(w)
    w.undo_button.click()
    assert "no move to undo" in w.message


def test_new_deal_moves_to_the_next_seed():
    w = play("klondike", seed=1)
    w.stock_button.click()
    w.new_deal_button.click()
    assert w.game.seed == 2 and w.seed_field.value == 2 and w.game.moves == []
    assert w.game.position == Game("klondike", seed=2).position
    w.seed_field.value = 40
    assert w.game.seed == 40 and w.game.position == Game("klondike", seed=40).position
    assert_table_matches_game(w)


def test_changing_the_variant_deals_it_and_resizes_the_table():
    w = play("klondike", seed=3)
    w.variant_select.value = SOLIJOY
    assert w.game.variant == SOLIJOY and w.game.seed == 3
    assert len(w.columns_row.children) == 9 and len(w.foundation_row.children) == 8
    assert_table_matches_game(w)
    w.variant_select.value = ITALIAN
    assert len(w.columns_row.children) == 7 and len(w.foundation_row.children) == 4
    assert w.game.position == Game("italian", seed=3).position
    assert_table_matches_game(w)


def test_a_custom_variant_appears_in_the_selector():
    w = Game(replace(KLONDIKE, draw=3), seed=2).widget()
    assert w.variant_select.value.draw == 3 and "(custom)" in w.variant_select.label
    w.stock_button.click()
    assert len(shown(w.waste_buttons)) == 3
    assert_table_matches_game(w)


# --- the end of the game ------------------------------------------------------------------------
def almost_won():
    return make(KLONDIKE, ["K♠", "K♥"], waste="K♦", stock="K♣", hidden=[0] * 7,
                foundations=full_foundations("A 2 3 4 5 6 7 8 9 10 J Q"))


def test_winning_by_clicking_shows_the_banner():
    w = widget_at(almost_won())
    assert w.banner.layout.display == "none"
    w.card_button(0).click()
    w.card_button(0).click()  # the same card again: to its foundation
    w.card_button(1).click()
    w.foundation_buttons[0].click()
    w.waste_top_button.click()
    w.to_foundation_button.click()
    w.stock_button.click()
    w.click_waste()
    w.click_waste()
    assert [str(m) for m in w.game.moves] == ["t1>f", "t2>f", "w>f", "draw", "w>f"]
    assert w.game.is_won() and w.banner.layout.display != "none" and "You won" in w.banner.value
    w.undo_button.click()
    assert w.banner.layout.display == "none"


def test_no_more_moves_banner():
    w = widget_at(make(KLONDIKE, ["2♠", "2♥"], stock="", hidden=[0] * 7))
    assert w.game.over_reason() == "no more moves"
    assert w.banner.layout.display != "none" and "No more moves" in w.banner.value


def test_auto_finish_plays_safe_foundation_moves_without_the_solver(monkeypatch):
    monkeypatch.setitem(sys.modules, "solitaire.solver", None)  # as if the solver were missing
    p = make(KLONDIKE, ["K♠ Q♥", "3♣ 2♥", "2♣"], hidden=[0] * 7,
             foundations=["A♣", "A♦ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦", "A♥", "A♠"])
    w = widget_at(p)
    assert str(safe_foundation_move(w.game)) == "t2>f"  # 2♥: both black aces are up, nothing needs it
    w.auto_finish_button.click()
    assert "3 safe foundation move" in w.message and "solver is not available" in w.message
    assert sorted(str(m) for m in w.game.moves) == ["t2>f", "t2>f", "t3>f"]
    assert column_view(w, 0) == ["K♠", "Q♥"]  # Q♥ waits: a black Jack could still want it
    w.auto_finish_button.click()
    assert "no safe foundation move" in w.message and len(w.game.moves) == 3


def test_auto_finish_collects_an_open_table_without_the_solver(monkeypatch):
    monkeypatch.setitem(sys.modules, "solitaire.solver", None)
    courts = ["K♠ Q♥ J♣", "K♦ Q♣ J♥", "K♣ Q♦ J♠", "K♥ Q♠ J♦"]
    p = make(KLONDIKE, courts, stock="", hidden=[0] * 7,
             foundations=full_foundations("A 2 3 4 5 6 7 8 9 10"))
    w = widget_at(p)
    w.auto_finish_button.click()
    assert w.game.is_won() and "You won" in w.banner.value


def test_auto_finish_uses_the_solver_when_present():
    pytest.importorskip("solitaire.solver")
    w = widget_at(almost_won())
    w.auto_finish_button.click()
    assert w.game.is_won() and "solver" in w.message and "You won" in w.banner.value


def test_a_whole_deal_won_by_clicks_alone():
    """Replay a solver's winning line on a real deal, translating each move into clicks."""
    solver = pytest.importorskip("solitaire.solver")
    result = solver.solve(Game("klondike", seed=2), max_seconds=10)
    if result.status != "won":
        pytest.skip(f"the solver did not win seed 2 in time ({result.status})")
    w = play("klondike", seed=2)
    for m in result.moves:
        before = len(w.game.moves)
        click_move(w, m)
        assert len(w.game.moves) == before + 1 and w.game.moves[-1] == m, w.message
    assert w.game.is_won() and "You won" in w.banner.value
    assert_table_matches_game(w)


def click_move(w: GameWidget, m: Move) -> None:
    """Make a move the way a player would: with the table's buttons."""
    if m.kind in ("draw", "recycle"):
        w.stock_button.click()
    elif m.kind == "flip":
        w.card_button(m.source).click()
    elif m.kind == "w>t":
        w.waste_top_button.click()
        w.card_button(m.target).click()
    elif m.kind == "w>f":
        w.waste_top_button.click()
        w.waste_top_button.click()
    elif m.kind == "t>f":
        w.card_button(m.source).click()
        w.to_foundation_button.click()
    elif m.kind == "t>t":
        w.card_button(m.source, m.count).click()
        w.card_button(m.target).click()
    else:
        w.foundation_buttons[m.source].click()
        w.card_button(m.target).click()


# --- teaching aids ------------------------------------------------------------------------------
def test_legal_moves_and_position_text_panels():
    w = play("klondike", seed=1)
    assert w.legal_view.layout.display == "none" and w.text_view.layout.display == "none"
    w.show_moves_toggle.value = True
    assert w.legal_view.layout.display != "none"
    assert all(str(m).replace(">", "&gt;") in w.legal_view.value for m in w.game.legal_moves())
    w.show_text_toggle.value = True
    assert w.text_view.layout.display != "none"
    try:
        expected = w.game.to_text()
    except (ImportError, AttributeError):
        expected = str(w.game)
    assert expected.splitlines()[-1].replace("<", "&lt;").replace(">", "&gt;") in w.text_view.value
    w.stock_button.click()
    assert "Legal moves" in w.legal_view.value


def test_hint_without_strategies_says_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "solitaire.strategies", None)
    w = play("klondike", seed=1)
    w.hint_button.click()
    assert "not available" in w.message and w.game.moves == []


def test_hint_marks_the_suggested_move(monkeypatch):
    fake = types.SimpleNamespace(strategy_hint=lambda game: (Move.from_text("t1>t7"), "build down"))
    monkeypatch.setitem(sys.modules, "solitaire.strategies", fake)
    w = play("klondike", seed=1)
    w.hint_button.click()
    assert w.marked == Move.from_text("t1>t7") and "Hint: t1>t7 — build down." in w.message
    assert w.card_button(0).layout.border.startswith("3px") and w.card_button(6).layout.border.startswith("3px")
    assert w.game.moves == []


@pytest.mark.parametrize("variant", ["klondike", "solijoy", "italian"])
def test_real_hints_are_legal_explained_and_playable(variant):
    pytest.importorskip("solitaire.strategies")
    w = play(variant, seed=1)
    for _ in range(15):
        if w.game.is_over():
            break
        w.hint_button.click()
        assert w.marked in w.game.legal_moves(), w.message
        assert w.message.startswith(f"Hint: {w.marked} — ") and "marked in blue" in w.message
        click_move(w, w.marked)
        assert w.marked is None and "illegal" not in w.message
    assert len(w.game.moves) >= 5


def test_real_hint_when_no_move_is_left():
    pytest.importorskip("solitaire.strategies")
    w = widget_at(make(KLONDIKE, ["2♠", "2♥"], stock="", hidden=[0] * 7))
    w.hint_button.click()
    assert w.message.startswith("No hint") and w.marked is None


def test_replay_steps_forward_and_back():
    w = play("klondike", seed=1)
    w.load_replay(["draw", "t1>t7", "draw"])
    assert w.replay_box.layout.display != "none" and "0/3" in w.replay_label.value
    w.replay_next_button.click()
    w.replay_next_button.click()
    assert [str(m) for m in w.game.moves] == ["draw", "t1>t7"] and "2/3" in w.replay_label.value
    w.replay_prev_button.click()
    assert [str(m) for m in w.game.moves] == ["draw"] and "next: <b>t1&gt;t7" in w.replay_label.value
    w.replay_next_button.click()
    w.replay_next_button.click()
    assert w.replay_next_button.disabled and "end of the replay" in w.replay_label.value
    w.replay_end_button.click()
    assert w.replay_box.layout.display == "none"


def test_replay_notices_when_the_player_leaves_it():
    w = play("klondike", seed=1)
    w.load_replay([Move("draw"), Move("draw")])
    w.click_column(0)
    w.click_column(6)  # the player's own move
    w.replay_next_button.click()
    assert "left the replay" in w.message and [str(m) for m in w.game.moves] == ["t1>t7"]


def test_an_unreadable_replay_is_refused():
    w = play("klondike", seed=1)
    w.load_replay(["draw", "t1 to t7"])
    assert "cannot read a move" in w.message and not w.replay


def test_replay_accepts_a_solver_result_and_refresh_follows_code_changes():
    w = play("klondike", seed=1)
    w.load_replay(types.SimpleNamespace(status="won", moves=[Move("draw")]))
    assert w.replay == [Move("draw")] and w.marked == Move("draw")
    w.game.play("draw")  # changed from code, behind the table's back ...
    w.refresh()  # ... so the table is drawn again on request
    assert_table_matches_game(w)
    w.set_game(Game("solijoy", seed=4))
    assert w.variant_select.value == SOLIJOY and w.seed_field.value == 4 and not w.replay
    assert_table_matches_game(w)


def test_auto_finish_on_a_won_game_says_so():
    w = widget_at(make(KLONDIKE, [], stock="", hidden=[0] * 7, foundations=full_foundations(
        "A 2 3 4 5 6 7 8 9 10 J Q K")))
    w.auto_finish_button.click()
    assert "already won" in w.message and w.game.moves == []


def test_solution_button_loads_the_solvers_line_as_a_replay():
    pytest.importorskip("solitaire.solver")
    w = play("klondike", seed=2)
    w.solution_button.click()
    if not w.replay:
        pytest.skip(f"the solver did not win in time: {w.message}")
    assert "press Next" in w.message and w.marked == w.replay[0]
    for _ in range(3):
        w.replay_next_button.click()
    assert w.game.moves == w.replay[:3] and w.replay_step == 3


def test_solution_without_a_solver_says_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "solitaire.solver", None)
    w = play("klondike", seed=2)
    w.solution_button.click()
    assert "not available" in w.message and not w.replay
