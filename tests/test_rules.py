"""Story tests: one or more for each rule sentence of RULES.md, for each variant."""
from collections import Counter
from dataclasses import replace

import pytest
from helpers import cards, make

from solitaire import ITALIAN, KLONDIKE, SOLIJOY, Game, IllegalMoveError, InvalidMoveError, Move, Variant
from solitaire.cards import full_deck
from solitaire.endgame import over_reason
from solitaire.explain import explain_illegal
from solitaire.moves import apply, legal_moves
from solitaire.notation import move_from_text


def moves_of(p):
    return {str(m) for m in legal_moves(p)}


def game_at(p):
    return Game.from_position(p)


# --- the deals -----------------------------------------------------------------------------------
@pytest.mark.parametrize("variant, size, columns, stock", [
    (KLONDIKE, 52, list(range(1, 8)), 24), (SOLIJOY, 104, list(range(1, 10)), 59)])
def test_deal_shape(variant, size, columns, stock):
    p = Game(variant, seed=11).position
    assert Counter(p.cards()) == Counter(full_deck(variant.ranks, variant.decks)) and len(p.cards()) == size
    assert [len(c) for c in p.columns] == columns
    assert list(p.hidden) == [n - 1 for n in columns]  # only the top card face up
    assert len(p.stock) == stock and p.waste == () and not any(p.foundations)
    assert len(p.foundations) == variant.foundations


def test_klondike_has_thirteen_ranks_and_four_foundations():
    assert KLONDIKE.ranks == ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    assert KLONDIKE.foundations == 4 and SOLIJOY.foundations == 8


def test_italian_deck_has_32_cards_ace_highest():
    assert ITALIAN.ranks == ("A", "K", "Q", "J", "10", "9", "8", "7") and ITALIAN.deck_size == 32


@pytest.mark.parametrize("seed", range(40))
def test_italian_deal_sets_face_up_aces_aside(seed):
    p = Game(ITALIAN, seed=seed).position
    aside = [c for f in p.foundations for c in f]
    assert all(c.rank_name == "A" and len(f) <= 1 for f in p.foundations for c in f)
    assert [len(c) for c in p.columns] == list(range(1, 8))
    assert all(col[-1].rank_name != "A" for col in p.columns)  # no face-up ace stays in a column
    assert len(p.stock) == 4 - len(aside)
    assert Counter(p.cards()) == Counter(full_deck(ITALIAN.ranks))


def test_italian_deal_replaces_an_ace_by_the_next_card_dealt_row_by_row():
    # Deal a known order: the first card (column 1, face up) is an ace, so it goes aside and 7♣ takes its place.
    from solitaire.state import deal_cards
    deck = list(cards("A♠ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣")) + [c for c in full_deck(ITALIAN.ranks)
                                                       if c not in cards("A♠ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣")]
    p = deal_cards(ITALIAN, deck)
    assert p.foundations[0] == cards("A♠")
    assert p.columns[0] == cards("7♣")
    assert [col[0] for col in p.columns[1:]] == list(cards("8♣ 9♣ 10♣ J♣ Q♣ K♣"))  # face-down first row


def test_same_seed_same_deal_and_different_seeds_differ():
    assert Game("klondike", 5).position == Game("klondike", 5).position
    assert Game("klondike", 5).position != Game("klondike", 6).position


# --- move 1: draw, and move 6: recycle -----------------------------------------------------------
def test_draw_turns_the_top_stock_card_onto_the_waste():
    g = Game("klondike", 1)
    top = g.position.stock[-1]
    g.play("draw")
    assert g.position.waste == (top,) and len(g.position.stock) == 23


def test_draw_three_turns_three_cards_the_third_on_top():
    p = make(replace(KLONDIKE, draw=3), ["K♠"], stock="2♣ 3♣ 4♣ 5♣")
    q = apply(p, move_from_text("draw"))
    assert q.waste == cards("5♣ 4♣ 3♣") and q.stock == cards("2♣")
    assert apply(q, Move("draw")).waste == cards("5♣ 4♣ 3♣ 2♣")


def test_recycle_only_with_an_empty_stock_and_it_keeps_the_order():
    g = Game("klondike", 2)
    with pytest.raises(IllegalMoveError, match="only when the stock is empty"):
        g.play("recycle")
    first_pass = []
    while g.position.stock:
        g.play("draw")
        first_pass.append(g.position.waste[-1])
    g.play("recycle")
    assert g.position.waste == () and g.position.recycles == 1
    second_pass = []
    for _ in range(3):
        g.play("draw")
        second_pass.append(g.position.waste[-1])
    assert second_pass == first_pass[:3]


@pytest.mark.parametrize("variant", [KLONDIKE, SOLIJOY, ITALIAN])
def test_recycling_is_unlimited_by_default(variant):
    g = Game(variant, 3)
    for _ in range(5):
        while g.position.stock:
            g.play("draw")
        g.play("recycle")
    assert g.position.recycles == 5


def test_passes_option_limits_recycling():
    v = replace(ITALIAN, passes=2)
    p = make(v, ["K♠"], waste="7♥", stock="", foundations=[], recycles=1)
    assert "recycle" not in moves_of(p)
    assert "pass" in explain_illegal(p, Move("recycle"))


# --- move 3: column to column --------------------------------------------------------------------
def test_klondike_card_goes_on_next_higher_rank_of_opposite_colour():
    p = make(KLONDIKE, ["9♥", "8♠", "8♦", "7♠"])
    assert {"t2>t1", "t4>t3"} <= moves_of(p) and "t3>t1" not in moves_of(p)
    g = game_at(p)
    with pytest.raises(IllegalMoveError, match=r"8♦ cannot go on 9♥: a card goes on the card just before it in the order K Q J .* A \(an 8 on a 9\)"):
        g.play("t3>t1")
    assert g.position == p and g.moves == []


def test_a_build_moves_as_one_and_must_be_a_build():
    p = make(KLONDIKE, ["10♣ 9♥ 8♠", "J♦", "10♥ 8♣"], hidden=[0, 0, 0])
    assert "t1>t2:3" in moves_of(p)
    q = apply(p, move_from_text("t1>t2:3"))
    assert q.columns[1] == cards("J♦ 10♣ 9♥ 8♠") and q.columns[0] == ()
    assert "not part of a build" in explain_illegal(p, move_from_text("t3>t2:2"))


def test_klondike_empty_column_takes_only_a_king_or_king_build():
    p = make(KLONDIKE, ["", "Q♥", "K♠ Q♥", "5♣ K♣"], hidden=[0, 0, 0, 1])
    ms = moves_of(p)
    assert "t3>t1:2" in ms and "t2>t1" not in ms and "t4>t1" in ms
    assert "only a King" in explain_illegal(p, move_from_text("t2>t1"))


@pytest.mark.parametrize("variant", [SOLIJOY, ITALIAN])
def test_empty_column_takes_any_card_in_solijoy_and_italian(variant):
    p = make(variant, ["", "9♥ 8♠"], hidden=[0, 1])
    assert "t2>t1" in moves_of(p)


def test_italian_columns_descend_from_ace_in_alternating_colours():
    p = make(ITALIAN, ["A♠", "K♥", "K♣", "Q♠", "7♦", "8♣"], hidden=[0] * 6)
    ms = moves_of(p)
    assert "t2>t1" in ms  # K♥ on A♠: one rank higher in A K Q ... 7, opposite colour
    assert "t3>t1" not in ms  # K♣ on A♠: same colour
    assert "t4>t2" in ms  # Q♠ on K♥
    assert "t5>t6" in ms  # 7♦ on 8♣
    assert "t6>t5" not in ms  # 8 does not go on 7 (that would be the other direction)
    assert "A K Q J 10 9 8 7" in explain_illegal(p, move_from_text("t6>t5"))


def test_moving_from_a_face_down_top_needs_a_flip_first():
    p = make(KLONDIKE, ["5♣ 9♥", "10♠"], hidden=[2, 0])
    assert "flip t1" in moves_of(p) and "t1>t2" not in moves_of(p)
    assert "face down" in explain_illegal(p, move_from_text("t1>t2"))


# --- move 4: column to foundation; foundations ---------------------------------------------------
def test_foundations_build_same_suit_up_from_the_ace():
    p = make(KLONDIKE, ["2♥", "2♠", "3♥", "A♦"], foundations=["A♥"])
    ms = moves_of(p)
    assert {"t1>f", "t4>f"} <= ms and "t2>f" not in ms and "t3>f" not in ms
    q = apply(p, move_from_text("t1>f"))
    assert q.foundations[0] == cards("A♥ 2♥")
    assert apply(q, move_from_text("t4>f")).foundations[1] == cards("A♦")  # an ace starts an empty foundation


def test_empty_foundation_takes_only_an_ace():
    p = make(KLONDIKE, ["2♠"])
    assert "empty one takes only an Ace" in explain_illegal(p, move_from_text("t1>f"))


def test_solijoy_has_two_foundations_per_suit():
    p = make(SOLIJOY, ["A♥", "A♥"], hidden=[0, 0])
    q = apply(apply(p, move_from_text("t1>f")), move_from_text("t2>f"))
    assert q.foundations[0] == cards("A♥") and q.foundations[1] == cards("A♥")


def test_italian_foundations_go_ace_king_queen_down_to_seven():
    p = make(ITALIAN, ["K♠", "7♠", "Q♠"], foundations=["A♠"])
    assert moves_of(p) >= {"t1>f"} and "t2>f" not in moves_of(p)
    q = apply(apply(p, move_from_text("t1>f")), move_from_text("t3>f"))
    assert q.foundations[0] == cards("A♠ K♠ Q♠")


# --- move 2: waste to column / foundation --------------------------------------------------------
@pytest.mark.parametrize("variant", [KLONDIKE, ITALIAN])
def test_waste_top_may_go_to_a_column_or_a_foundation(variant):
    low = variant.ranks[1]
    p = make(variant, ["K♠" if variant is ITALIAN else "3♠"], waste=f"{'Q♥' if variant is ITALIAN else '2♥'} {low}♣",
             foundations=["A♣"])
    assert "w>f" in moves_of(p)
    p2 = make(variant, ["K♠" if variant is ITALIAN else "3♠"],
              waste="Q♥" if variant is ITALIAN else "2♥")
    assert "w>t1" in moves_of(p2)


def test_solijoy_waste_goes_only_to_the_tableau_unless_the_option_allows():
    p = make(SOLIJOY, ["3♠"], waste="A♥")
    assert "w>f" not in moves_of(p) and "w>t2" in moves_of(p)  # any card on an empty column
    assert "only to a column" in explain_illegal(p, move_from_text("w>f"))
    p2 = p._replace(variant=replace(SOLIJOY, waste_to_foundation=True))
    assert "w>f" in moves_of(p2)


def test_waste_move_needs_a_card_on_the_waste():
    assert "waste is empty" in explain_illegal(Game("klondike", 0).position, move_from_text("w>t1"))


# --- move 5: flip; automatic flips ---------------------------------------------------------------
def test_flip_turns_a_face_down_top_card():
    p = make(KLONDIKE, ["5♣ 9♥"], hidden=[2])
    q = apply(p, move_from_text("flip t1"))
    assert q.hidden[0] == 1 and "already face up" in explain_illegal(q, move_from_text("flip t1"))


def test_italian_flips_automatically():
    p = make(ITALIAN, ["9♣ 8♥", "9♠"], hidden=[1, 0])
    q = apply(p, move_from_text("t1>t2"))
    assert q.hidden[0] == 0 and q.columns[0] == cards("9♣")
    assert not any(m.kind == "flip" for m in legal_moves(q))


# --- cards leaving the foundations ---------------------------------------------------------------
def test_cards_never_leave_foundations_unless_the_option_allows():
    p = make(KLONDIKE, ["3♠"], foundations=["A♥ 2♥"])
    assert "f1>t1" not in moves_of(p)
    assert "never come back" in explain_illegal(p, move_from_text("f1>t1"))
    p2 = p._replace(variant=replace(KLONDIKE, foundation_to_tableau=True))
    assert "f1>t1" in moves_of(p2)
    assert apply(p2, move_from_text("f1>t1")).columns[0] == cards("3♠ 2♥")


# --- illegal moves and errors --------------------------------------------------------------------
def test_illegal_move_leaves_the_game_unchanged_and_errors_are_value_errors():
    g = Game("klondike", 1)
    before, moves = g.position, g.moves
    for text, error in [("t1>t2", IllegalMoveError), ("t9>t1", IllegalMoveError), ("jump", InvalidMoveError),
                        ("t0>t1", InvalidMoveError)]:
        with pytest.raises(error) as info:
            g.play(text)
        assert isinstance(info.value, ValueError)
        assert g.position == before and g.moves == moves
    with pytest.raises(InvalidMoveError, match="'jump'"):
        g.play("jump")


def test_undo_and_redo_are_a_stack():
    g = Game("klondike", 1)
    start = g.position
    g.play("draw")
    middle = g.position
    g.play("draw")
    assert str(g.undo()) == "draw" and g.position == middle
    assert str(g.undo()) == "draw" and g.position == start
    with pytest.raises(IndexError):
        g.undo()
    g.redo()
    assert g.position == middle and g.can_redo()
    g.play("draw")
    assert not g.can_redo()


# --- the end of the game -------------------------------------------------------------------------
def test_won_when_every_card_is_on_a_foundation():
    v = KLONDIKE
    founds = [" ".join(f"{r}{s}" for r in v.ranks) for s in "♣♦♥"] + [" ".join(f"{r}♠" for r in v.ranks[:-1])]
    p = make(v, ["K♠"], foundations=founds, stock="")
    g = game_at(p)
    assert not g.is_over()
    g.play("t1>f")
    assert g.is_won() and g.is_over() and g.over_reason() == "won"


DEAD_END_FOUNDATIONS = [" ".join(f"{r}♣" for r in KLONDIKE.ranks[:11]), " ".join(f"{r}♦" for r in KLONDIKE.ranks),
                        " ".join(f"{r}♥" for r in KLONDIKE.ranks[:11]), " ".join(f"{r}♠" for r in KLONDIKE.ranks[:10])]
TWO_COLUMNS = replace(KLONDIKE, columns=(1, 1))


def test_not_over_while_a_card_deep_in_the_stock_can_still_be_played():
    # Only "draw" is legal now, but the third card of the stock (Q♥) fits on K♣: play goes on.
    p = make(TWO_COLUMNS, ["J♠ K♣", "Q♣ K♠"], foundations=DEAD_END_FOUNDATIONS, stock="Q♥ Q♠ K♥")
    assert moves_of(p) == {"draw"}
    assert over_reason(p) is None and not Game.from_position(p).is_over()


def test_no_more_moves_when_a_whole_pass_would_change_nothing():
    # The same cards, but no pass is left and Q♥ is buried in the waste: nothing can change the game.
    p = make(replace(TWO_COLUMNS, passes=1), ["J♠ K♣", "Q♣ K♠"], foundations=DEAD_END_FOUNDATIONS, stock="",
             waste="Q♥ Q♠ K♥")
    assert moves_of(p) == set()
    assert over_reason(p) == "no more moves"


def test_game_over_detected_with_unlimited_recycling():
    # J♠ lies under K♣ and Q♣ under K♠; the stock's Q♠ fits nowhere, however often it is recycled.
    p = make(TWO_COLUMNS, ["J♠ K♣", "Q♣ K♠"], foundations=[*DEAD_END_FOUNDATIONS[:2],
             " ".join(f"{r}♥" for r in KLONDIKE.ranks), DEAD_END_FOUNDATIONS[3]], stock="Q♠")
    assert moves_of(p) == {"draw"}
    assert over_reason(p) == "no more moves"
    assert Game.from_position(p).over_reason() == "no more moves"
    p2 = make(TWO_COLUMNS, ["J♠ K♣", "K♠ Q♣"], foundations=p.foundations and [*DEAD_END_FOUNDATIONS[:2],
              " ".join(f"{r}♥" for r in KLONDIKE.ranks), DEAD_END_FOUNDATIONS[3]], stock="Q♠")
    assert over_reason(p2) is None  # Q♣ can go up


def test_moves_that_lead_nowhere_do_not_keep_a_game_alive():
    # 5♥ can shuttle between the two black sixes forever, but nothing else can ever happen: the game is over.
    v = replace(KLONDIKE, columns=(1, 1, 1))
    p = make(v, ["6♠ 5♥", "6♣", "K♦"], foundations=["A♥ 2♥ 3♥"], stock="")
    assert moves_of(p) == {"t1>t2"}
    assert over_reason(p) == "no more moves"
    # With 4♣ in the stock, the shuttle is part of a way on (4♣ can go on 5♥): not over.
    assert over_reason(p._replace(stock=cards("4♣"))) is None


def test_a_game_is_not_over_while_a_stock_card_can_still_be_played():
    v = replace(KLONDIKE, columns=(1,))
    founds = [" ".join(f"{r}{s}" for r in KLONDIKE.ranks) for s in "♣♦"] + \
        [" ".join(f"{r}♥" for r in KLONDIKE.ranks[:-1]), " ".join(f"{r}♠" for r in KLONDIKE.ranks[:-2])]
    p = make(v, ["K♥"], foundations=founds, stock="Q♠ K♠", waste="")
    assert legal_moves(p) and over_reason(p) is None


def test_variant_rejects_impossible_parameters():
    with pytest.raises(ValueError, match="draw must be"):
        replace(KLONDIKE, draw=0)
    with pytest.raises(ValueError, match="deck has only 52"):
        replace(KLONDIKE, columns=tuple(range(1, 12)))
    with pytest.raises(ValueError, match="empty_column_ranks"):
        replace(ITALIAN, empty_column_ranks=("2",))
    with pytest.raises(ValueError, match="passes"):
        replace(KLONDIKE, passes=0)
    assert isinstance(replace(KLONDIKE, draw=3, foundation_to_tableau=True), Variant)


def test_unknown_variant_name_is_refused_clearly():
    with pytest.raises(ValueError, match="choose one of klondike, solijoy, italian"):
        Game("spider")


@pytest.mark.parametrize("v", [KLONDIKE, SOLIJOY, ITALIAN], ids=lambda v: v.name)
def test_the_move_table_holds_only_real_moves(v: Variant) -> None:
    """rules(v).moves: every move a game of v could play, once; none from a column to itself, none of zero cards."""
    from solitaire.moves import rules
    table = rules(v).moves
    n, f, ranks = len(v.columns), v.foundations, len(v.ranks)
    assert len(table) == 3 + 3 * n + f * n + n * (n - 1) * ranks
    assert all(m.count >= 1 and not (m.kind == "t>t" and m.source == m.target) for m in table.values())
    assert all(table[tuple(m)] is m for m in table.values())


def test_a_column_rule_names_a_concrete_move() -> None:
    from dataclasses import replace
    assert "(an 8 on a 9)" in KLONDIKE.column_rule() and "(an 8 on a 9)" in ITALIAN.column_rule()
    upward = replace(ITALIAN, columns_follow_foundation_order=False)
    assert "order 7 8 9 10 J Q K A (an 8 on a 7)" in upward.column_rule()
