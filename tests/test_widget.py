"""Drive the card table through its Python API and through the messages its front end sends.

The table is one anywidget model: after each action it syncs one ``state`` (what a player may see) that the
browser draws. These tests read that state, count the messages, and send the front end's own messages.
"""
from __future__ import annotations

import colorsys
import html
import math
import re
import sys
import types
from dataclasses import replace
from pathlib import Path
from xml.etree import ElementTree

import ipywidgets.widgets.widget as ipywidget_registry
import pytest
from helpers import cards, make

import solitaire
from solitaire import ITALIAN, KLONDIKE, SOLIJOY, Game, Move
from solitaire.widget import GameWidget, play, safe_foundation_move
from solitaire.widget.aids import HINT_COLOURS, OFF_WITHOUT_AIDS, SOLUTION_KNOWS, WIN_CHANCE_KNOWS, hint_words
from solitaire.notation import move_from_text

SUITS = "♣♦♥♠"


def widget_at(position, **options) -> GameWidget:
    return GameWidget(Game.from_position(position), **options)


def column_view(w: GameWidget, i: int) -> list[str]:
    """What the front end is told to draw in column i ('' for a face-down card)."""
    col = w.state["columns"][i]
    return [""] * col["hidden"] + col["up"]


def foundation_tops(w: GameWidget) -> list[str | None]:
    return [f["top"] for f in w.state["foundations"]]


def send(w: GameWidget, **content) -> None:
    """A message from the browser, through the same handler the comm calls."""
    w._handle_custom_msg(content, [])


def count_messages(w: GameWidget) -> list[dict]:
    """Record every message the widget sends to the front end from now on."""
    sent: list[dict] = []
    w.comm.send = lambda data=None, buffers=None, **_: sent.append(data)  # type: ignore[method-assign]
    return sent


def assert_table_matches_game(w: GameWidget) -> None:
    """The Game is the single source of truth: every pile in the state equals the position (what may be seen)."""
    p, s = w.game.position, w.state
    assert s["seq"] == w._seq
    for i, (col, hidden) in enumerate(zip(p.columns, p.hidden)):
        assert column_view(w, i) == ["" if j < hidden else str(c) for j, c in enumerate(col)]
    assert foundation_tops(w) == [str(f[-1]) if f else None for f in p.foundations]
    assert [f["count"] for f in s["foundations"]] == [len(f) for f in p.foundations]
    assert s["waste"] == {"count": len(p.waste), "shown": [str(c) for c in p.waste[-max(p.variant.draw, 1):]]}
    assert s["stock"] == len(p.stock)
    assert s["moves"]["total"] == len(w.game.moves)
    assert s["moves"]["last"] == [str(m) for m in w.game.moves[-len(s["moves"]["last"]):]] if w.game.moves else True
    assert s["message"] == w.message


def no_hidden_card_is_sent(w: GameWidget) -> None:
    """Face-down cards and the stock go out as counts only: the names in the state are the face-up cards."""
    p = w.game.position
    named = [c for col in w.state["columns"] for c in col["up"]] + w.state["waste"]["shown"]
    named += [f["top"] for f in w.state["foundations"] if f["top"]]
    face_up = {str(c) for col, h in zip(p.columns, p.hidden) for c in col[h:]} | {str(c) for c in p.waste}
    face_up |= {str(f[-1]) for f in p.foundations if f}
    assert set(named) <= face_up


def full_foundations(ranks: str, suits: str = SUITS) -> list[str]:
    """Foundation piles holding ``ranks`` (e.g. 'A 2 ... Q') in each suit of ``suits``."""
    return [" ".join(r + s for r in ranks.split()) for s in suits]


# --- one model per table, one message per move ----------------------------------------------------
def test_play_and_game_widget_make_the_same_table():
    w = solitaire.play("klondike", seed=1)
    assert isinstance(w, GameWidget) and w.game.seed == 1
    assert isinstance(GameWidget(Game("italian", seed=2)), GameWidget)
    game = Game("italian", seed=2)
    assert solitaire.play(game).game is game  # a game already made is played on, not copied
    assert_table_matches_game(w)
    assert len(w.state["columns"]) == 7 and len(w.state["foundations"]) == 4
    no_hidden_card_is_sent(w)


def test_one_table_is_at_most_two_widget_models():
    before = set(ipywidget_registry._instances)
    w = play("solijoy", seed=1)
    new = [ipywidget_registry._instances[k] for k in set(ipywidget_registry._instances) - before]
    assert sorted(type(m).__name__ for m in new) == ["GameWidget", "Layout"]
    for _ in range(5):
        w.click_stock()
    assert set(ipywidget_registry._instances) - before == {m.model_id for m in new}


def test_each_move_is_one_state_message():
    w = play("klondike", seed=1)
    sent = count_messages(w)
    w.click_stock()
    assert len(sent) == 1 and sent[0]["method"] == "update" and set(sent[0]["state"]) == {"state"}
    w.click_column(0)  # pick up 7♦ ...
    w.click_column(6)  # ... and put it on 8♠: two clicks, two messages
    send(w, action="drop", source="t7:2", target="t1")  # a refused drop: one message with the reason
    send(w, action="undo")
    assert len(sent) == 5 and all(set(m["state"]) == {"state"} for m in sent)
    assert [m["state"]["state"]["seq"] for m in sent] == [1, 2, 3, 4, 5]


def test_the_move_list_is_bounded():
    w = play("klondike", seed=1)
    for _ in range(150):
        w.game.play("draw" if w.game.position.stock else "recycle")
    w.refresh()
    moves = w.state["moves"]
    assert moves["total"] == 150 and len(moves["last"]) == 60 and moves["first"] == 91
    assert moves["last"][-1] == str(w.game.moves[-1])


# --- the front end's messages -----------------------------------------------------------------------
def test_front_end_clicks_drops_and_double_clicks():
    w = play("klondike", seed=1)
    send(w, action="click", pile="stock")
    send(w, action="drop", source="t1", target="t7")  # drag 7♦ onto 8♠
    assert [str(m) for m in w.game.moves] == ["draw", "t1>t7"] and column_view(w, 0) == []
    send(w, action="click", pile="t7", depth=2)  # pick up 8♠ 7♦ ...
    assert w.state["marks"] == {"t7": [2, "selected"]}
    send(w, action="click", pile="t1")  # ... an empty column takes only a King
    assert "only a King" in w.message and w.state["kind"] == "error" and len(w.game.moves) == 2
    w2 = widget_at(make(KLONDIKE, ["A♠"], waste="A♥", hidden=[0] * 7))
    send(w2, action="double_click", pile="waste")
    send(w2, action="double_click", pile="t1")
    assert [str(m) for m in w2.game.moves] == ["w>f", "t1>f"] and column_view(w2, 0) == []


def test_front_end_buttons_and_bad_messages_are_explained():
    w = play("klondike", seed=1)
    send(w, action="new_game", variant="italian", seed=5)
    assert w.game.variant == ITALIAN and w.game.seed == 5 and w.state["variant"]["key"] == "italian"
    send(w, action="legal_moves")
    assert w.state["legal"] == [str(m) for m in w.game.legal_moves()]
    send(w, action="position_text", show=True)
    assert w.state["text"] == w.game.to_text()
    for bad in ({"action": "fly"}, {"action": "click"}, {"action": "click", "pile": "x9"},
                {"action": "drop", "source": "t1", "target": "moon"}, {"nothing": 1}):
        w._handle_custom_msg(bad, [])
        assert w.message.startswith("Something went wrong") and w.state["kind"] == "error", bad
    assert w.game.moves == []


def test_keyboard_letters_map_to_the_same_actions():
    """table.js sends these for D, U, H and Enter on a focused pile: here the Python side of them."""
    w = play("klondike", seed=1)
    send(w, action="click", pile="stock")  # D
    send(w, action="click", pile="t1", depth=1)  # Enter on t1
    send(w, action="click", pile="t7", depth=1)  # Enter on t7
    send(w, action="undo")  # U
    assert [str(m) for m in w.game.moves] == ["draw"] and w.game.can_redo()
    send(w, action="deselect")  # Escape
    assert w.selection is None and w.state["marks"] == {}


# --- clicks --------------------------------------------------------------------------------------------
def test_stock_draws_and_the_table_follows():
    w = play("klondike", seed=1)
    w.click_stock()
    assert w.game.moves == [Move("draw")]
    assert w.state["waste"]["shown"] == [str(w.game.position.waste[-1])]
    assert w.state["moves"]["last"] == ["draw"]
    assert_table_matches_game(w)


def test_stock_recycles_an_empty_stock():
    w = widget_at(make(KLONDIKE, ["K♠"], waste="2♥ 3♣", stock="", hidden=[0] * 7))
    assert w.state["stock"] == 0 and w.state["recycle"]
    w.click_stock()
    assert w.game.moves == [Move("recycle")] and w.game.position.stock == cards("3♣ 2♥")
    assert w.state["waste"] == {"count": 0, "shown": []}  # an empty waste draws no card
    assert_table_matches_game(w)


def test_emptied_piles_send_nothing_to_draw():
    """No ghost cards: an emptied waste, column or stock is empty in the state the browser draws."""
    w = widget_at(make(KLONDIKE, ["9♠", "K♣"], waste="8♥", stock="", hidden=[0] * 7))
    w.drop("waste", "t1")
    assert w.state["waste"]["shown"] == [] and w.state["stock"] == 0 and not w.state["recycle"]
    w.drop("t1:2", "t2")
    assert "cannot go on" in w.message
    w.click_column(0, 2)
    w.click_column(2)  # 9♠ 8♥ onto the empty t3: only a King
    w.drop("t2", "t3")  # the King may
    assert column_view(w, 1) == [] and column_view(w, 2) == ["K♣"]
    w.restart()
    assert w.state["waste"]["shown"] == ["8♥"] and w.state["moves"]["total"] == 0


def test_clicking_a_face_down_top_card_flips_it():
    w = widget_at(make(KLONDIKE, ["K♠ 5♥", "Q♦"], hidden=[2, 0]))
    assert column_view(w, 0) == ["", ""]
    w.click_column(0)
    assert w.game.moves == [Move("flip", 0)] and column_view(w, 0) == ["", "5♥"]


def test_italian_turns_cards_up_by_itself_after_a_click_move():
    w = widget_at(make(ITALIAN, ["10♠ 9♥", "10♣"], hidden=[1, 0]))
    w.click_column(0)  # 9♥ ...
    w.click_column(1)  # ... onto 10♣ (columns follow A K Q J 10 9 8 7)
    assert [str(m) for m in w.game.moves] == ["t1>t2"] and column_view(w, 0) == ["10♠"]


def test_waste_to_column_by_two_clicks():
    w = widget_at(make(KLONDIKE, ["8♠"], waste="7♥", hidden=[0] * 7))
    w.click_waste()
    assert w.selection.pile == "waste" and "Selected 7♥" in w.message
    assert w.state["marks"] == {"waste": [1, "selected"]}  # the selection is marked
    w.click_column(0)
    assert [str(m) for m in w.game.moves] == ["w>t1"] and column_view(w, 0) == ["8♠", "7♥"]
    assert w.selection is None and w.state["marks"] == {}


def test_waste_to_foundation_by_clicking_the_card_twice_or_the_foundation():
    w = widget_at(make(KLONDIKE, [], waste="2♥ A♥ A♣", foundations=[], hidden=[0] * 7))
    w.click_waste()
    w.click_waste()
    w.click_waste()
    w.click_foundation(3)  # any foundation: the card goes to the one that takes it
    assert [str(m) for m in w.game.moves] == ["w>f", "w>f"]
    assert foundation_tops(w) == ["A♣", "A♥", None, None]


def test_column_to_foundation_and_to_foundation():
    w = widget_at(make(KLONDIKE, ["A♠", "K♦ 2♠"], hidden=[0] * 7))
    w.click_column(0)
    w.click_foundation(0)
    w.click_column(1)
    w.to_foundation()
    assert [str(m) for m in w.game.moves] == ["t1>f", "t2>f"]
    assert foundation_tops(w)[0] == "2♠" and column_view(w, 1) == ["K♦"] and column_view(w, 0) == []


def test_column_to_column_single_card_and_build():
    w = widget_at(make(KLONDIKE, ["9♣ 8♥ 7♠", "9♠", "K♠"], hidden=[0] * 7))
    w.click_column(0, depth=2)  # 8♥ 7♠ as one build ...
    assert w.selection == ("column", 0, 2)
    w.click_column(1)  # ... onto 9♠
    assert [str(m) for m in w.game.moves] == ["t1>t2:2"]
    assert column_view(w, 1) == ["9♠", "8♥", "7♠"]
    w.click_column(1)  # 7♠ ...
    w.click_column(0)  # ... onto 9♣ is refused
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
    w.click_foundation(0)
    assert w.selection == ("foundation", 0, 1)
    w.drop("f1", "t1")
    assert [str(m) for m in w.game.moves] == ["f1>t1"] and column_view(w, 0) == ["8♠", "7♥"]
    assert foundation_tops(w)[0] == "6♥"


def test_klondike_refuses_to_take_a_card_back_from_a_foundation():
    w = widget_at(make(KLONDIKE, ["8♠"], foundations=["A♥"], hidden=[0] * 7))
    w.click_foundation(0)
    assert w.selection is None and "never come back from a foundation" in w.message


# --- errors teach and change nothing ------------------------------------------------------------------
def test_an_illegal_attempt_explains_the_rule_and_changes_nothing():
    w = play("klondike", seed=1)
    before = w.game.position
    w.click_column(0)  # 7♦
    w.click_column(1)  # onto 6♦: illegal
    assert w.game.position == before and w.game.moves == []
    assert w.message.startswith("t1>t2 is illegal")
    assert w.game.explain("t1>t2") in w.message and "opposite colour" in w.state["message"]
    assert w.state["kind"] == "error"
    assert_table_matches_game(w)


def test_face_down_and_empty_places_explain_themselves():
    w = widget_at(make(KLONDIKE, ["K♠ 5♥ 4♣"], hidden=[1, 0, 0, 0, 0, 0, 0]))
    w.click_column(0, depth=3)
    assert "face down" in w.message and w.selection is None
    w.click_column(1)
    assert "empty" in w.message
    w.click_waste()
    assert "waste is empty" in w.message
    w.to_foundation()
    assert "Select a card first" in w.message
    w.click_column(0, depth=2)
    w.to_foundation()
    assert "one card at a time" in w.message
    w.drop("t1", "waste")
    assert "cannot be put on the waste" in w.message
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
    w.hint()
    assert "Something went wrong" in w.message and "strategy crashed" in w.message
    w.new_game(seed=-3)  # a bad seed is explained, the game stays
    assert "seed" in w.message and w.game.seed == 1
    send(w, action="new_game", variant="klondike", seed="x")
    assert "Something went wrong" in w.message and w.game.seed == 1


def test_text_from_data_is_never_html():
    """A loaded game's seed or a variant's name reaches the browser as data that table.js sets as text."""
    evil = "<img src=x onerror=alert(1)>"
    w = GameWidget(Game(replace(KLONDIKE, name=evil), seed=3))
    assert w.state["variant"]["name"] == evil  # data, drawn with textContent by table.js
    picture = w._repr_mimebundle_()[0]["image/svg+xml"]
    assert evil not in picture and html.escape(evil) in picture
    ElementTree.fromstring(picture)  # well-formed: nothing from the data broke out of the SVG
    js = (Path(solitaire.__file__).parent / "widget" / "table.js").read_text()
    assert "innerHTML" not in js and "insertAdjacentHTML" not in js and "outerHTML" not in js


# --- undo, redo, restart, new deal, variants --------------------------------------------------------
def test_undo_redo_and_restart():
    w = play("klondike", seed=1)
    assert not w.state["can_undo"] and not w.state["can_redo"]
    w.click_stock()
    w.click_stock()
    w.undo()
    assert len(w.game.moves) == 1 and w.state["can_redo"]
    w.redo()
    assert len(w.game.moves) == 2
    w.restart()
    assert w.game.moves == [] and w.game.position == Game("klondike", seed=1).position
    assert w.game.can_redo() and "Redo" in w.message
    assert_table_matches_game(w)
    w.undo()
    assert "no move to undo" in w.message


def test_new_deal_moves_to_the_next_seed():
    w = play("klondike", seed=1)
    w.click_stock()
    w.new_deal()
    assert w.game.seed == 2 and w.state["seed"] == 2 and w.game.moves == []
    assert w.game.position == Game("klondike", seed=2).position
    w.new_game(seed=40)
    assert w.game.seed == 40 and w.game.position == Game("klondike", seed=40).position
    assert_table_matches_game(w)


def test_changing_the_variant_deals_it_and_resizes_the_table():
    w = play("klondike", seed=3)
    w.new_game(SOLIJOY)
    assert w.game.variant == SOLIJOY and w.game.seed == 3
    assert len(w.state["columns"]) == 9 and len(w.state["foundations"]) == 8
    assert_table_matches_game(w)
    w.new_game("italian")
    assert len(w.state["columns"]) == 7 and len(w.state["foundations"]) == 4
    assert w.game.position == Game("italian", seed=3).position and w.state["variant"]["first_rank"] == "A"
    assert_table_matches_game(w)


def test_a_custom_variant_draw_three():
    w = GameWidget(Game(replace(KLONDIKE, draw=3), seed=2))
    assert w.state["variant"]["key"] is None and w.state["variant"]["draw"] == 3
    w.click_stock()
    assert len(w.state["waste"]["shown"]) == 3
    assert_table_matches_game(w)
    send(w, action="new_game", variant="", seed=5)  # the seed box of a custom variant: same rules, new deal
    assert w.game.variant == replace(KLONDIKE, draw=3) and w.game.seed == 5


def test_theme_and_four_colour_options():
    w = play("klondike", seed=1, theme="dark", four_colour=True)
    assert w.theme == "dark" and w.four_colour
    with pytest.raises(ValueError, match="unknown theme"):
        play("klondike", theme="purple")


# --- the end of the game ----------------------------------------------------------------------------
def almost_won():
    return make(KLONDIKE, ["K♠", "K♥"], waste="K♦", stock="K♣", hidden=[0] * 7,
                foundations=full_foundations("A 2 3 4 5 6 7 8 9 10 J Q"))


def test_winning_by_clicking_shows_the_banner():
    w = widget_at(almost_won())
    assert w.state["banner"] == "" and w.state["over"] is None
    w.click_column(0)
    w.click_column(0)  # the same card again: to its foundation
    w.click_column(1)
    w.click_foundation(0)
    w.click_waste()
    w.to_foundation()
    w.click_stock()
    w.click_waste()
    w.click_waste()
    assert [str(m) for m in w.game.moves] == ["t1>f", "t2>f", "w>f", "draw", "w>f"]
    assert w.game.is_won() and w.state["over"] == "won" and "You won" in w.state["banner"]
    assert w.state["stock"] == 0 and w.state["waste"]["shown"] == [] and not w.state["recycle"]
    w.undo()
    assert w.state["banner"] == ""


def test_no_more_moves_banner():
    w = widget_at(make(KLONDIKE, ["2♠", "2♥"], stock="", hidden=[0] * 7))
    assert w.game.over_reason() == "no more moves"
    assert w.state["over"] == "lost" and "No more moves" in w.state["banner"]


COURTS = ["K♠ Q♥ J♣", "K♦ Q♣ J♥", "K♣ Q♦ J♠", "K♥ Q♠ J♦"]


def test_auto_finish_waits_while_a_card_is_face_down():
    """Issue 40: Auto-finish once played the solver's whole line from move 8, using the face-down cards."""
    w = play("klondike", seed=1)
    for action in (w.auto_finish, lambda: send(w, action="auto_finish")):
        action()
        assert w.message == "Auto-finish waits: 21 cards are still face down.", w.message
        assert w.game.moves == [] and w.state["flight"] == []


def test_auto_finish_sends_an_open_table_home_at_once_and_names_the_flights():
    w = widget_at(make(KLONDIKE, COURTS, stock="", hidden=[0] * 7, foundations=full_foundations("A 2 3 4 5 6 7 8 9 10")))
    sent = count_messages(w)
    send(w, action="auto_finish")
    assert w.game.is_won() and "You won" in w.state["banner"] and len(sent) == 1  # one state for the whole finish
    assert w.message == "Auto-finish sent 12 cards home." and len(w.state["flight"]) == 12
    assert w.state["flight"][0][:2] == ["J♣", "t1"] and {f[2] for f in w.state["flight"]} == {"f1", "f2", "f3", "f4"}
    send(w, action="undo")  # the next state flies nothing
    assert w.state["flight"] == []


def test_auto_finish_draws_the_stock_when_a_draw_decides_nothing():
    """Klondike turns one card at a time with unlimited passes: every stock card is reached, so drawing is no
    decision; the cards drawn on the way fly from the stock."""
    w = widget_at(almost_won())  # K♠ K♥ on columns, K♦ on the waste, K♣ in the stock
    w.auto_finish()
    assert w.game.is_won() and w.message == "Auto-finish sent 4 cards home (turning the stock 1 time)."
    assert ["K♣", "stock"] in [f[:2] for f in w.state["flight"]] and ["K♦", "waste"] in [f[:2] for f in w.state["flight"]]


def test_auto_finish_in_solijoy_waits_for_the_waste():
    """In SoliJoy a waste card goes home only through a column, a choice: the stock and waste must be empty."""
    w = widget_at(make(SOLIJOY, [], waste="K♠", hidden=[0] * 9, foundations=full_foundations(
        "A 2 3 4 5 6 7 8 9 10 J Q K", "♣♦♥♠♣♦♥") + ["A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠"], stock=""))
    w.auto_finish()
    assert w.message == ("Auto-finish waits: the stock and waste still hold 1 card, and in SoliJoy a waste card "
                         "goes home only through a column, a choice.") and w.game.moves == []
    w.play_move("w>t1")
    w.auto_finish()
    assert w.game.is_won()


def test_safe_foundation_move_keeps_a_card_a_column_may_still_need():
    p = make(KLONDIKE, ["K♠ Q♥", "3♣ 2♥", "2♣"], hidden=[0] * 7,
             foundations=["A♣", "A♦ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦", "A♥", "A♠"])
    assert str(safe_foundation_move(Game.from_position(p))) == "t2>f"  # 2♥: both black aces are up, nothing needs it


def test_auto_finish_waits_when_cards_must_move_between_columns():
    """Italian builds its columns in foundation order, so a column's top card may go home last."""
    p = make(ITALIAN, ["8♠ 7♥", "8♥ 7♠", "8♣ 7♦", "8♦ 7♣"], stock="", hidden=[0] * 7,
             foundations=full_foundations("A K Q J 10 9"))  # each 8 lies under a 7, which goes home after it
    w = widget_at(p)
    assert w.game.legal_moves() and not w.game.is_won()
    w.auto_finish()
    assert w.message == "Auto-finish waits: some cards can go home only after moves between the columns."
    assert w.game.moves == []


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
        no_hidden_card_is_sent(w)
    assert w.game.is_won() and "You won" in w.state["banner"]
    assert_table_matches_game(w)


def click_move(w: GameWidget, m: Move) -> None:
    """Make a move the way a player would: clicks, a drop or a double-click."""
    if m.kind in ("draw", "recycle"):
        w.click_stock()
    elif m.kind == "flip":
        w.click_column(m.source)
    elif m.kind == "w>t":
        w.drop("waste", f"t{m.target + 1}")
    elif m.kind == "w>f":
        w.double_click("waste")
    elif m.kind == "t>f":
        w.click_column(m.source)
        w.to_foundation()
    elif m.kind == "t>t":
        w.click_column(m.source, m.count)
        w.click_column(m.target)
    else:
        w.click_foundation(m.source)
        w.click_column(m.target)


# --- teaching aids ----------------------------------------------------------------------------------
def test_legal_moves_and_position_text_panels():
    w = play("klondike", seed=1)
    assert w.state["legal"] is None and w.state["text"] is None
    w.show_legal_moves()
    assert w.state["legal"] == [str(m) for m in w.game.legal_moves()]
    w.show_position_text()
    assert w.state["text"] == w.game.to_text()
    w.click_stock()
    assert w.state["legal"] == [str(m) for m in w.game.legal_moves()]
    w.show_legal_moves(False)
    assert w.state["legal"] is None


def test_hint_without_strategies_says_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "solitaire.strategies", None)
    w = play("klondike", seed=1)
    w.hint()
    assert "not available" in w.message and w.game.moves == []


def test_hint_marks_the_suggested_move(monkeypatch):
    fake = types.SimpleNamespace(strategy_hint=lambda game: (move_from_text("t1>t7"), "build down"))
    monkeypatch.setitem(sys.modules, "solitaire.strategies", fake)
    w = play("klondike", seed=1)
    w.hint()
    assert w.marked == move_from_text("t1>t7") and "Hint: t1>t7 — build down." in w.message
    assert w.state["marks"] == {"t1": [1, "source"], "t7": [0, "target"]}
    picture = w._repr_mimebundle_()[0]["image/svg+xml"]
    assert picture.count('stroke="#ff4fd8"') == 1 and picture.count('stroke="#4fd8ff"') == 1
    assert w.game.moves == []


@pytest.mark.parametrize("variant", ["klondike", "solijoy", "italian"])
def test_real_hints_are_legal_explained_and_playable(variant):
    pytest.importorskip("solitaire.strategies")
    w = play(variant, seed=1)
    for _ in range(15):
        if w.game.is_over():
            break
        w.hint()
        assert w.marked in w.game.legal_moves(), w.message
        assert w.message.startswith(f"Hint: {w.marked} — ") and w.message.endswith(hint_words())
        click_move(w, w.marked)
        assert w.marked is None and "illegal" not in w.message
    assert len(w.game.moves) >= 5


def test_real_hint_when_no_move_is_left():
    pytest.importorskip("solitaire.strategies")
    w = widget_at(make(KLONDIKE, ["2♠", "2♥"], stock="", hidden=[0] * 7))
    w.hint()
    assert w.message.startswith("No hint") and w.marked is None


def test_replay_steps_forward_and_back():
    w = play("klondike", seed=1)
    w.load_replay(["draw", "t1>t7", "draw"])
    assert w.state["replay"] == {"step": 0, "total": 3, "next": "draw"}
    w.replay_next()
    w.replay_next()
    assert [str(m) for m in w.game.moves] == ["draw", "t1>t7"] and w.state["replay"]["step"] == 2
    w.replay_prev()
    assert [str(m) for m in w.game.moves] == ["draw"] and w.state["replay"]["next"] == "t1>t7"
    assert w.state["marks"] == {"t1": [1, "source"], "t7": [0, "target"]}
    w.replay_next()
    w.replay_next()
    assert w.state["replay"] == {"step": 3, "total": 3, "next": None}
    w.end_replay()
    assert w.state["replay"] is None


def test_replay_notices_when_the_player_leaves_it():
    w = play("klondike", seed=1)
    w.load_replay([Move("draw"), Move("draw")])
    w.click_column(0)
    w.click_column(6)  # the player's own move
    w.replay_next()
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
    assert w.state["variant"]["key"] == "solijoy" and w.state["seed"] == 4 and not w.replay
    assert_table_matches_game(w)


def test_auto_finish_on_a_won_game_says_so():
    w = widget_at(make(KLONDIKE, [], stock="", hidden=[0] * 7, foundations=full_foundations(
        "A 2 3 4 5 6 7 8 9 10 J Q K")))
    w.auto_finish()
    assert "already won" in w.message and w.game.moves == []


def test_solution_loads_the_solvers_line_as_a_replay():
    pytest.importorskip("solitaire.solver")
    w = play("klondike", seed=2)
    w.show_solution()
    if not w.replay:
        pytest.skip(f"the solver did not win in time: {w.message}")
    assert "press Next" in w.message and w.marked == w.replay[0]
    for _ in range(3):
        send(w, action="replay_next")
    assert w.game.moves == w.replay[:3] and w.replay_step == 3


def test_solution_without_a_solver_says_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "solitaire.solver", None)
    w = play("klondike", seed=2)
    w.show_solution()
    assert "not available" in w.message and not w.replay


# --- win chance --------------------------------------------------------------------------------------
def test_win_chance_says_the_estimate_in_words(monkeypatch):
    w = play("klondike", seed=1)
    asked = []

    def win_chance(samples=20, seed=0):
        asked.append((samples, seed))
        return types.SimpleNamespace(share=0.35, interval=(0.2, 0.55), samples=samples)

    monkeypatch.setattr(w.game, "win_chance", win_chance, raising=False)
    sent = count_messages(w)
    send(w, action="win_chance")
    assert asked == [(20, 0)] and len(sent) == 2  # "Estimating ..." first, then the answer
    assert w.message == ("Win chance from here: about 35% (likely between 20% and 55%), from 20 samples. "
                         + WIN_CHANCE_KNOWS)
    assert w.game.moves == []


def test_win_chance_uses_the_results_own_words(monkeypatch):
    class Chance:
        def __str__(self):
            return "about 40%: the solver wins 8 of 20 ways the hidden cards could lie"

    w = play("klondike", seed=1)
    monkeypatch.setattr(w.game, "win_chance", lambda: Chance(), raising=False)
    w.win_chance()
    assert w.message == ("Win chance from here: about 40%: the solver wins 8 of 20 ways the hidden cards could lie. "
                         + WIN_CHANCE_KNOWS)


def test_win_chance_without_the_method_says_it_is_not_available(monkeypatch):
    w = play("klondike", seed=1)
    if hasattr(w.game, "win_chance"):
        monkeypatch.delattr(type(w.game), "win_chance")
    w.win_chance()
    assert "not available" in w.message and w.state["kind"] == "error"


# --- a picture where no kernel runs ------------------------------------------------------------------
def test_the_mime_bundle_carries_an_svg_of_the_table():
    w = play("solijoy", seed=1)
    w.click_stock()
    data, _ = w._repr_mimebundle_()
    assert set(data) == {"text/plain", "application/vnd.jupyter.widget-view+json", "image/svg+xml"}
    assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == w.model_id
    assert data["image/svg+xml"] == solitaire.render.svg(w.game.position)
    assert data["text/plain"] == "<card table: SoliJoy, seed 1, 1 moves>"
    w.click_column(2, 1)
    marked = w._repr_mimebundle_()[0]["image/svg+xml"]
    assert marked.count('stroke="#ff4fd8"') == 1  # the selection is outlined in the picture too


def test_the_real_win_chance_in_words():
    if not hasattr(Game, "win_chance"):
        pytest.skip("Game.win_chance is not in this version of the kit yet")
    w = widget_at(almost_won())
    w.win_chance()
    assert w.message.startswith("Win chance from here: ") and "100%" in w.message, w.message
    assert w.game.moves == []


def test_saved_lesson_01a_shows_a_picture_of_every_table():
    """Where no kernel runs (GitHub, nbviewer: nbconvert's HTML; JupyterLab before the lesson is run), each
    table of lesson 01a is an SVG picture. The saved outputs hold no widget view: without saved widget state
    JupyterLab would show "Error displaying widget: model not found" instead of the picture (see
    scripts/execute_notebooks.py and tests/test_browser.py::test_saved_lesson_01a_in_jupyterlab_shows_pictures)."""
    nbformat = pytest.importorskip("nbformat")
    nbconvert = pytest.importorskip("nbconvert")
    nb = nbformat.read(Path(__file__).parents[1] / "notebooks" / "01a_play.ipynb", as_version=4)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    tables = [o for o in outputs if o.get("data", {}).get("text/plain", "").startswith("<card table:")]
    assert len(tables) == 2 and all("image/svg+xml" in o["data"] for o in tables)  # the game to try, the challenge
    assert not any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)
    assert "widgets" not in nb.metadata
    body, _ = nbconvert.HTMLExporter().from_notebook_node(nb)
    pictures = body.count('data-mime-type="image/svg+xml"')
    assert pictures >= len(tables)


# --- the status line names the request it answers (issue 23) -------------------------------------------
def test_each_state_names_the_request_it_answers_and_whose_answer_its_message_is(monkeypatch):
    w = play("klondike", seed=1)
    monkeypatch.setattr(w.game, "win_chance", lambda: 0.25, raising=False)
    sent = count_messages(w)
    send(w, action="win_chance", request="v1:1")  # slow in a real kernel: it says "Estimating ..." first
    send(w, action="position_text", request="v1:2")
    states = [m["state"]["state"] for m in sent]
    assert [(s["request"], s["busy"]) for s in states] == [
        ({"id": "v1:1", "action": "win_chance"}, True), ({"id": "v1:1", "action": "win_chance"}, False),
        ({"id": "v1:2", "action": "position_text"}, False)]
    # Position text answers with its panel: the status line keeps the win chance, and says whose answer it is
    assert [s["message_for"]["id"] for s in states] == ["v1:1", "v1:1", "v1:1"]
    assert states[0]["message"] == "Estimating the win chance ..."
    assert states[1]["message"] == states[2]["message"] == f"Win chance from here: about 25%. {WIN_CHANCE_KNOWS}"
    assert states[2]["text"] == w.game.to_text()
    w.click_stock()  # from code: no request is answered, and the message is nobody's request
    assert w.state["request"] is None and w.state["message_for"] is None and w.message.startswith("draw:")


def test_every_front_end_action_answers_with_its_own_message(monkeypatch):
    """No action leaves the last action's words in the status line as if they were its own: each says something
    of its own, but the two panels (legal moves, position text), which answer by showing themselves."""
    from solitaire.widget.table import FRONT_END_ACTIONS

    monkeypatch.setattr("solitaire.widget.aids.SOLUTION_SECONDS", 0.2)
    w = play("klondike", seed=1)
    monkeypatch.setattr(w.game, "win_chance", lambda: 0.5, raising=False)
    content = {"click": {"pile": "stock"}, "drop": {"source": "t1", "target": "t7"}, "double_click": {"pile": "t2"},
               "new_game": {"seed": 4}}
    for i, action in enumerate(FRONT_END_ACTIONS):
        send(w, action="deselect", request="v0:0")
        send(w, action=action, request=f"v1:{i}", **content.get(action, {}))
        if action in ("legal_moves", "position_text"):
            assert w.state["message_for"] == {"id": "v0:0", "action": "deselect"} and w.message == "Nothing selected."
        else:
            assert w.state["message_for"] == {"id": f"v1:{i}", "action": action}, action
            assert w.message and (w.message != "Nothing selected." or action == "deselect"), action


def test_an_unreadable_request_id_is_no_request():
    w = play("klondike", seed=1)
    for rid in [True, None, 1.5, "x" * 65, ["v1:1"]]:
        send(w, action="undo", request=rid)
        assert w.state["request"] is None and w.state["message_for"] is None, rid
    send(w, action="undo", request=7)
    assert w.state["request"] == {"id": "7", "action": "undo"}


def test_actions_from_two_threads_take_turns(monkeypatch):
    """ipykernel 7 hands a comm message to a subshell thread while an earlier one still runs: the second
    action waits for the first, so each state and each message stays with its own request."""
    import threading

    w = play("klondike", seed=1)
    started, release = threading.Event(), threading.Event()

    def slow_win_chance():
        started.set()
        release.wait(5)
        return 0.5

    monkeypatch.setattr(w.game, "win_chance", slow_win_chance, raising=False)
    sent = count_messages(w)
    first = threading.Thread(target=send, args=(w,), kwargs={"action": "win_chance", "request": "v1:1"})
    second = threading.Thread(target=send, args=(w,), kwargs={"action": "position_text", "request": "v1:2"})
    first.start()
    assert started.wait(5)
    second.start()
    second.join(0.3)
    assert second.is_alive() and len(sent) == 1  # Position text waits while Win chance runs
    release.set()
    first.join(5)
    second.join(5)
    states = [m["state"]["state"] for m in sent]
    assert [(s["request"]["id"], s["busy"], s["message_for"]["id"]) for s in states] == [
        ("v1:1", True, "v1:1"), ("v1:1", False, "v1:1"), ("v1:2", False, "v1:1")]
    assert states[1]["message"] == f"Win chance from here: about 50%. {WIN_CHANCE_KNOWS}"
    assert states[2]["text"] == w.game.to_text()


# --- the hint's colours are the ones its sentence names (issue 23) ---------------------------------------
NAMED_HUES = {"pink": (290, 345), "cyan": (175, 200), "blue": (200, 250), "amber": (38, 50), "orange": (25, 38)}
APART = 50  # CIE76 colour difference at least: amber #ffc400 was 21 from the focus and 26 from the selection


def theme_colours() -> dict[str, dict[str, str]]:
    """Each theme's colour variables in table.css: the light ones, with the dark and four-colour blocks over them."""
    css = (Path(solitaire.widget.__file__).parent / "table.css").read_text()
    blocks = {sel.strip(): dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", body))
              for sel, body in re.findall(r"(\.sol-root[^{,]*)\{([^}]*)\}", css)}
    base = blocks[".sol-root"]
    return {"light": base, "dark": {**base, **blocks[".sol-root.sol-dark"]},
            "four-colour": {**base, **blocks[".sol-root.sol-four-colour"]},
            "dark four-colour": {**base, **blocks[".sol-root.sol-dark"], **blocks[".sol-root.sol-four-colour"]}}


def lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* of an sRGB colour '#rrggbb' (D65)."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
              for c in (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))]
    xyz = [sum(k * c for k, c in zip(row, linear)) / white for row, white in zip(
        [(0.4124, 0.3576, 0.1805), (0.2126, 0.7152, 0.0722), (0.0193, 0.1192, 0.9505)], (0.95047, 1.0, 1.08883))]
    f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def hue(colour: str) -> float:
    return colorsys.rgb_to_hsv(*(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)))[0] * 360


@pytest.mark.parametrize("theme", ["light", "dark", "four-colour", "dark four-colour"])
def test_the_hint_colours_are_the_ones_its_sentence_names_and_stand_apart(theme):
    colours = theme_colours()[theme]
    sentence = hint_words()
    for role, (name, value) in HINT_COLOURS.items():
        assert colours[role].lower() == value and name in sentence, (role, colours[role])
        low, high = NAMED_HUES[name]
        assert low <= hue(value) <= high, (name, value, hue(value))
        for other in ("focus", "selected", "source", "target"):
            if other != role:
                assert math.dist(lab(value), lab(colours[other])) >= APART, (role, other, theme)


def test_a_real_hint_says_the_colours_of_its_marks():
    w = play("klondike", seed=1)
    w.hint()
    roles = {role for _, role in w.state["marks"].values()}
    assert roles == {"source", "target"} and w.message.endswith(hint_words())
    assert "blue" not in w.message


# --- what each aid knows, in plain sentences; a table without aids (issue 30) ---------------------------
LOST_DEAL = 21  # Klondike deal 21: the solver proves it lost at once, yet most layouts a player could imagine win


def test_in_a_lost_position_solution_and_win_chance_each_say_what_they_know():
    """Solution says the deal is lost and Win chance says a win is likely: each says what it looks at."""
    pytest.importorskip("solitaire.solver")
    w = play("klondike", seed=LOST_DEAL)
    w.show_solution()
    assert w.message == f"No solution: the solver proved that this position cannot be won. {SOLUTION_KNOWS}"
    assert not w.replay and w.state["kind"] == "error"
    if not hasattr(Game, "win_chance"):
        pytest.skip("Game.win_chance is not in this version of the kit yet")
    w.win_chance()
    share = int(re.match(r"Win chance from here: about (\d+)%", w.message)[1])
    assert share >= 50 and w.message.endswith(f". {WIN_CHANCE_KNOWS}"), w.message  # likely, yet proved lost
    assert "face-down cards" in SOLUTION_KNOWS and "only what you see" in WIN_CHANCE_KNOWS
    assert all(s.count(". ") == 0 and s.endswith(".") for s in (SOLUTION_KNOWS, WIN_CHANCE_KNOWS))  # one sentence
    assert w.game.moves == []


def test_a_table_without_aids_has_no_aid_buttons_and_refuses_them():
    w = play("klondike", seed=1, aids=False)
    assert w.state["off"] == list(OFF_WITHOUT_AIDS) == ["hint", "auto_finish", "solution", "win_chance",
                                                        "position_text"]
    assert "no Hint, Solution, Auto-finish or Win chance" in w.message
    assert play("klondike", seed=1).state["off"] == []  # a table has every aid unless told otherwise
    for action in OFF_WITHOUT_AIDS:
        send(w, action=action, request="v1:1")
        name = {"hint": "Hint", "auto_finish": "Auto-finish", "solution": "Solution", "win_chance": "Win chance",
                "position_text": "Position text"}[action]
        assert w.message.startswith(f"{name} is switched off on this table (it was made with aids=False)"), action
        assert w.state["kind"] == "error" and w.state["message_for"]["action"] == action
    for method in (w.hint, w.auto_finish, w.show_solution, w.win_chance, w.show_position_text):
        w.deselect()
        method()
        assert "switched off" in w.message, method.__name__
    assert w.game.moves == [] and not w.replay and not w.state["flight"] and w.state["text"] is None
    assert w.marked is None and w.state["marks"] == {}  # no hinted move is marked either
    send(w, action="new_game", seed=4)  # a new deal keeps the table as it was made
    assert w.game.seed == 4 and w.state["off"] == list(OFF_WITHOUT_AIDS)
    w.show_solution()
    assert "switched off" in w.message and not w.replay


def test_hint_pressed_over_and_over_on_a_table_without_aids_plays_nothing_for_the_player():
    """Issue 55: in the challenge (aids off), pressing Hint and playing what it marked, over and over, earned
    "✔ Right". Hint is an aid: refused, and its button left out (the H key asks for it too, and is refused)."""
    w = play("klondike", seed=11982, aids=False)
    for _ in range(20):
        send(w, action="hint")
        assert w.message.startswith("Hint is switched off on this table") and w.marked is None
    assert w.game.moves == [] and "hint" in w.state["off"]


def test_the_replay_bar_ends_with_the_game_when_auto_finish_wins_it():
    """Issue 55: after Auto-finish ended a game during a Solution replay, the bar still said "Replay step
    266/276 — next: t4>f"."""
    from solitaire.endgame import plain_finish

    w = play("klondike", seed=1)
    send(w, action="solution")
    assert len(w.replay) == 276, w.message  # the solver's line: it wins in 276 moves
    while plain_finish(w.game.position)[0] is None:
        send(w, action="replay_next")
    assert w.state["replay"] == {"step": 266, "total": 276, "next": str(w.replay[266])}
    send(w, action="auto_finish")
    assert w.game.is_won() and w.message.startswith("Auto-finish sent")
    assert w.state["replay"] is None and not w.replay and w.state["marks"] == {}
    w.load_replay(["draw"])  # a replay loaded on a won game shows no bar either: it has no next move to play
    assert w.state["replay"] is None


def test_aids_must_be_true_or_false():
    with pytest.raises(ValueError, match=r"^aids must be True or False, not 'no': aids=False leaves out Hint"):
        play("klondike", seed=1, aids="no")


def test_lesson_01a_says_what_the_tables_buttons_do():
    """Issue 55, item 11: lesson 01a describes a Stop button the table does not have, says Auto-finish "plays the
    solver's line" (it sends the cards home once nothing is left to decide), and offers Hint in the challenge,
    whose table has no aids."""
    import json

    lesson = json.loads((Path(__file__).resolve().parents[1] / "notebooks" / "01a_play.ipynb").read_text("utf-8"))
    text = "\n".join("".join(c["source"]) for c in lesson["cells"] if c["cell_type"] == "markdown")
    table = (Path(solitaire.__file__).parent / "widget" / "table.js").read_text(encoding="utf-8")
    buttons = set(re.findall(r'button\("([^"]+)"', table))
    assert "Stop" not in buttons and "**Stop**" not in text
    assert "plays the solver's line" not in text
    assert "Stuck? **Hint**" not in text
