"""Move notation, position text, saved games, PySolFC layouts, and pinned deals."""
from dataclasses import replace

import pytest

from solitaire import KLONDIKE, Game, InvalidMoveError, Move
from solitaire.notation import move_from_text, PositionTextError

NOTATION = ["draw", "recycle", "flip t3", "w>t3", "w>f", "t3>f", "t3>t7", "t3>t7:4", "f2>t3"]


@pytest.mark.parametrize("text", NOTATION)
def test_notation_round_trips_and_is_canonical(text):
    m = move_from_text(text)
    assert str(m) == text and move_from_text(str(m)) == m and hash(m) == hash(move_from_text(text))


@pytest.mark.parametrize("messy, canonical", [(" DRAW ", "draw"), ("Flip T3", "flip t3"), ("t3 > t7 : 4", "t3>t7:4"),
                                              ("W>F", "w>f"), ("t3>t7:1", "t3>t7"), ("F2 > T3", "f2>t3")])
def test_parsing_is_case_insensitive_and_tolerates_spaces(messy, canonical):
    assert str(move_from_text(messy)) == canonical


@pytest.mark.parametrize("bad", ["", "t3", "t3>", "x>t3", "t0>t1", "t3>t7:0", "flip", "draw 2"])
def test_unreadable_moves_echo_the_input(bad):
    with pytest.raises(InvalidMoveError) as info:
        move_from_text(bad)
    assert repr(bad) in str(info.value)


def test_moves_are_usable_with_in_and_as_dict_keys():
    g = Game("klondike", 1)
    assert move_from_text("draw") in g.legal_moves()
    assert {m: str(m) for m in g.legal_moves()}[move_from_text("draw")] == "draw"


def test_position_text_reports_the_bad_line():
    text = Game("klondike", 1).to_text()
    with pytest.raises(PositionTextError, match=r"line \d+ \(t4\).*'Zq'"):
        Game.from_text(text.replace("t4: ", "t4: Zq "))
    with pytest.raises(PositionTextError, match="no 't7:' line"):
        Game.from_text("\n".join(line for line in text.splitlines() if not line.startswith("t7")))
    with pytest.raises(PositionTextError, match="face-down card"):
        Game.from_text(text.replace("t2: <", "t2: 5♣ <"))
    with pytest.raises(PositionTextError, match="variant"):
        Game.from_text(text.replace("variant: klondike", "variant: klondike draw=three"))


def test_custom_variant_survives_text():
    v = replace(KLONDIKE, name="Thoughtful", draw=3, foundation_to_tableau=True, passes=3)
    g = Game(v, 9)
    g.play("draw")
    again = Game.from_text(g.to_text())
    assert again.variant == v and again.position == g.position


def test_saved_game_keeps_history_and_redo():
    g = Game("italian", 4)
    for m in g.legal_moves()[:1] + [move_from_text("draw")]:
        g.play(m)
    g.undo()
    loaded = Game.from_json(g.to_json())
    assert loaded.moves == g.moves and loaded.position == g.position and loaded.seed == 4
    assert loaded.redo() == move_from_text("draw")
    with pytest.raises(ValueError, match="not a saved game"):
        Game.from_json('{"a": 1}')


# --- PySolFC interchange --------------------------------------------------------------------------
pysol_cards = pytest.importorskip("pysol_cards")


def pysol_layout(deal: int) -> str:
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game as PysolGame
    from pysol_cards.random_base import RandomBase
    return PysolGame("klondike", deal, RandomBase.DEALS_PYSOLFC).calc_layout_string(CardRenderer(True))


@pytest.mark.parametrize("deal", [1, 24, 1000, 123456])
def test_pysol_deals_read_and_write_back_exactly(deal):
    layout = pysol_layout(deal)
    g = Game.from_pysol(layout)
    assert g.to_pysol() == layout
    talon = layout.splitlines()[0].split()[1:]
    assert g.position.stock[-1].ascii() == talon[0]  # the Talon line lists the top of the stock first
    g.play("draw")
    assert g.position.waste[-1].ascii() == talon[0]


def test_pysol_layout_for_draw_three_and_errors():
    layout = pysol_layout(7)
    v = replace(KLONDIKE, draw=3, foundation_to_tableau=True)
    g = Game.from_pysol(layout, variant=v)
    assert g.variant == v
    g.play("draw")
    assert Game.from_pysol(g.to_pysol(), variant=v).position == g.position
    with pytest.raises(ValueError, match="columns"):
        Game.from_pysol("\n".join(layout.splitlines()[:-1]))
    with pytest.raises(ValueError, match="single-deck"):
        Game.from_pysol(layout, variant="solijoy")


# --- pinned deals: the same seed deals the same cards everywhere ----------------------------------
PINNED = {
    ("klondike", 0): ["8♠", "<J♥> 10♣", "<9♣> <3♦> 8♣", "<2♠> <A♣> <Q♠> 3♥", "<2♦> <J♣> <K♥> <5♣> 4♠",
                      "<Q♦> <7♣> <5♥> <A♥> <10♦> 8♥", "<6♠> <9♥> <2♣> <6♣> <5♦> <8♦> A♦"],
    ("klondike", 1): ["7♦", "<9♣> 6♦", "<4♦> <9♠> 2♦", "<8♥> <J♣> <J♥> 2♣", "<8♦> <5♦> <5♥> <A♦> K♥",
                      "<5♠> <K♦> <7♥> <6♠> <10♥> J♠", "<J♦> <3♣> <4♥> <K♣> <10♠> <10♦> 8♠"],
    ("solijoy", 0): ["3♦", "<8♠> 8♦", "<J♣> <10♦> 9♦", "<6♣> <6♣> <5♠> Q♣", "<4♦> <A♥> <9♣> <10♦> A♣",
                     "<2♥> <K♠> <3♥> <8♣> <9♣> 7♥", "<10♣> <J♥> <Q♥> <3♥> <K♠> <5♣> 2♦",
                     "<7♦> <K♦> <5♥> <J♥> <K♥> <9♥> <2♣> 3♣", "<A♥> <5♦> <J♠> <2♣> <4♠> <6♦> <6♠> <K♣> A♣"],
    ("italian", 0): ["9♦", "<K♥> K♣", "<7♣> <10♥> 8♣", "<Q♠> <A♦> <Q♣> J♣", "<9♥> <A♥> <8♥> <10♣> J♦",
                     "<8♦> <9♠> <K♦> <A♠> <7♠> 10♦", "<Q♥> <Q♦> <8♠> <9♣> <10♠> <7♥> J♠"],
    ("italian", 1): ["K♠", "<9♦> 9♥", "<Q♣> <K♦> 8♣", "<10♦> <8♦> <J♦> Q♠", "<A♠> <J♠> <J♣> <10♣> Q♦",
                     "<7♠> <8♥> <Q♥> <A♥> <9♠> K♥", "<10♥> <10♠> <J♥> <7♣> <A♦> <8♠> 9♣"],
}
PINNED_STOCKS = {("klondike", 0): "<10♥> <K♣> <4♥> <6♦> <5♠> <7♥> <4♣> <K♠> <6♥> <J♠> <7♦> <9♠> <7♠> <A♠> <K♦> "
                                  "<3♣> <9♦> <2♥> <4♦> <3♠> <J♦> <Q♣> <10♠> <Q♥>",
                 ("italian", 0): "<7♦> <K♠> <J♥>", ("italian", 1): "<K♣> <7♥> <A♣> <7♦>"}


@pytest.mark.parametrize("key", PINNED)
def test_first_deals_are_pinned(key):
    lines = dict(line.split(": ", 1) if ": " in line else (line.rstrip(":"), "")
                 for line in Game(*key).to_text().splitlines()[1:])
    assert [lines[f"t{i}"] for i in range(1, len(PINNED[key]) + 1)] == PINNED[key]
    if key in PINNED_STOCKS:
        assert lines["stock"] == PINNED_STOCKS[key]
    if key == ("italian", 0):
        assert lines["f1"] == "A♣"


# --- a move's text shows every field; the reader lives in notation, the package still offers it ---------------
def test_an_odd_moves_text_shows_every_field() -> None:
    """A move whose fields its text cannot show is written with all of them, so two moves never print alike."""
    assert str(Move("t>t", 2, 6, 0)) == "Move('t>t', 2, 6, 0)" != str(Move("t>t", 2, 6))
    assert str(Move("w>f", target=2)) == "Move('w>f', -1, 2)" and str(Move("w>f")) == "w>f"
    assert str(Move("draw", 3)) == "Move('draw', 3)" and str(Move("jump")) == "Move('jump')"
    assert str(Move("t>f")) == "Move('t>f')"  # a column move that names no column
    assert str(Move("t>t", 2, 6, 1)) == "t3>t7" and str(Move("t>t", 2, 6, 4)) == "t3>t7:4"


@pytest.mark.parametrize("key", ["klondike", "solijoy", "italian"])
def test_every_move_of_the_table_reads_back_from_its_text_and_its_repr(key: str) -> None:
    from solitaire import VARIANTS
    from solitaire.moves import rules
    moves = list(rules(VARIANTS[key]).moves.values())
    assert all(move_from_text(str(m)) == m and eval(repr(m), {"Move": Move}) == m for m in moves)
    assert len({str(m) for m in moves}) == len(moves)


def test_the_package_reads_moves_and_piles_from_notation() -> None:
    import solitaire
    from solitaire import notation
    assert solitaire.move_from_text is notation.move_from_text and solitaire.parse_pile is notation.parse_pile
    assert solitaire.move_from_text(" T3 > t7:4 ") == Move("t>t", 2, 6, 4) and solitaire.parse_pile("t3:2").count == 2
    assert issubclass(solitaire.PileNumberError, solitaire.InvalidPileError) and solitaire.Pile is notation.Pile
    with pytest.raises(solitaire.InvalidMoveError, match="start at 1"):
        solitaire.move_from_text("t0>t1")
