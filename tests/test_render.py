"""The text diagram and the SVG card table: content, hidden cards kept hidden, determinism, size."""
from dataclasses import replace
from xml.etree import ElementTree

import pytest
from helpers import make

from solitaire import ITALIAN, KLONDIKE, SOLIJOY, Game, Move, parse_card
from solitaire.render import card_svg, svg, table_size, text_diagram
from solitaire.notation import move_from_text

SVG_NS = "{http://www.w3.org/2000/svg}"


def svg_texts(picture: str) -> list[str]:
    root = ElementTree.fromstring(picture)
    return [t.text or "" for t in root.iter(f"{SVG_NS}text")]


def hidden_cards(p):
    return [c for col, h in zip(p.columns, p.hidden) for c in col[:h]] + list(p.stock)


# --- text diagram --------------------------------------------------------------------------------
def test_text_diagram_shows_piles_and_hides_face_down_cards():
    g = Game("klondike", seed=1)
    g.play("draw")
    text = text_diagram(g.position)
    lines = text.splitlines()
    assert lines[0].startswith("Klondike") and "stock 23" in lines[0] and str(g.position.waste[-1]) in lines[0]
    assert lines[1].startswith("foundations:") and lines[1].count("--") == 4
    assert lines[2].split() == [f"t{i}" for i in range(1, 8)]
    assert len(lines) == 3 + 7  # the tallest column has 7 cards
    assert text.count("##") == g.position.face_down()
    for col in g.position.columns:
        assert str(col[-1]) in text
    col_text = "\n".join(lines[3:])
    for c in hidden_cards(g.position):
        assert str(c) not in col_text
    assert str(g) == text


def test_text_diagram_columns_line_up():
    g = Game("klondike", seed=1)
    lines = str(g).splitlines()
    # the top card of column 7 sits under the "t7" header, right-aligned in the same 5-character cell
    header, last = lines[2], lines[-1]
    assert header.index("t7") + 2 == last.index(str(g.position.columns[6][-1])) + len(str(g.position.columns[6][-1]))


def test_text_diagram_draw_three_shows_the_fanned_waste():
    g = Game(replace(KLONDIKE, draw=3), seed=2)
    g.play("draw")
    g.play("draw")
    first = str(g).splitlines()[0]
    assert " ".join(map(str, g.position.waste[-3:])) in first and "waste 6" in first and "..." in first


def test_text_diagram_solijoy_and_empty_column():
    p = make(SOLIJOY, ["K♠", "", "Q♥ J♣"], foundations=["A♦"], hidden=[0] * 9)
    lines = text_diagram(p).splitlines()
    assert lines[1].split()[1:] == ["A♦"] + ["--"] * 7
    assert lines[2].split() == [f"t{i}" for i in range(1, 10)]
    assert lines[3].split()[:3] == ["K♠", "--", "Q♥"]


def test_text_diagram_is_deterministic():
    assert text_diagram(Game("italian", seed=3).position) == text_diagram(Game("italian", seed=3).position)


# --- SVG -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", [KLONDIKE, SOLIJOY, ITALIAN])
def test_svg_is_well_formed_deterministic_and_fits_a_notebook_cell(variant):
    g = Game(variant, seed=4)
    picture = svg(g.position)
    assert picture == svg(Game(variant, seed=4).position)
    root = ElementTree.fromstring(picture)
    assert root.tag == f"{SVG_NS}svg"
    width, height = table_size(g.position)
    assert (int(root.get("width")), int(root.get("height"))) == (width, height)
    assert 300 <= width <= 760 and height <= 700
    assert "id=" not in picture  # no ids that could clash between several tables on one page
    assert g._repr_svg_() == picture


@pytest.mark.parametrize("variant", [KLONDIKE, SOLIJOY, ITALIAN])
def test_svg_shows_face_up_cards_and_never_face_down_ones(variant):
    g = Game(variant, seed=5)
    g.play("draw")
    texts = svg_texts(svg(g.position))
    shown = [c for col, h in zip(g.position.columns, g.position.hidden) for c in col[h:]] + [g.position.waste[-1]]
    for c in shown:
        assert f"{c.rank_name}{c.suit_symbol}" in texts
    visible = set(texts)
    for c in set(hidden_cards(g.position)) - set(shown) - {c for f in g.position.foundations for c in f}:
        assert str(c) not in visible
    labels = {t for t in texts if t[:1] in "tf" and t[1:].isdigit()}
    assert labels == {f"t{i}" for i in range(1, len(variant.columns) + 1)} | {
        f"f{i}" for i in range(1, variant.foundations + 1)}


def test_svg_colours_red_and_black_suits():
    picture = card_svg(parse_card("10♥")) + card_svg(parse_card("Q♠"))
    assert 'fill="#c0162c">10♥' in picture and 'fill="#111111">Q♠' in picture
    assert 'fill="#ffffff" stroke="#222222"' in picture  # its own white face and a dark outline


def test_svg_waste_fans_three_cards_for_draw_three():
    g = Game(replace(KLONDIKE, draw=3), seed=2)
    g.play("draw")
    texts = svg_texts(svg(g.position))
    for c in g.position.waste:
        assert str(c) in texts


def test_svg_highlight_marks_source_and_target():
    g = Game("klondike", seed=1)
    plain = svg(g.position)
    marked = svg(g.position, highlight="t1>t7")
    assert plain.count('stroke="#ff4fd8"') == 0 and marked.count('stroke="#ff4fd8"') == 1
    assert marked.count('stroke="#4fd8ff"') == 1
    assert svg(g.position, highlight=move_from_text("t1>t7")) == marked
    assert svg(g.position, highlight=["t3", "waste"]).count('stroke="#ff4fd8"') == 1  # the waste is empty
    big = ElementTree.fromstring(svg(g.position, scale=2.0))
    assert int(big.get("width")) == 2 * table_size(g.position)[0]


def test_svg_empty_stock_shows_recycle_sign_and_labels_can_go():
    p = make(KLONDIKE, ["K♠"], waste="2♥", stock="", hidden=[0] * 7)
    texts = svg_texts(svg(p))
    assert "↻" in texts
    assert not [t for t in svg_texts(svg(p, labels=False)) if t.startswith("t")]


def test_the_saved_picture_draws_a_hint_in_the_colours_the_table_names() -> None:
    """A saved lesson's picture and the live table mark a hint alike: what the hint's sentence names."""
    from solitaire.widget.aids import HINT_COLOURS

    marked = svg(Game("klondike", seed=1).position, highlight=move_from_text("t1>t7"))
    assert marked.count(f'stroke="{HINT_COLOURS["source"][1]}"') == 1
    assert marked.count(f'stroke="{HINT_COLOURS["target"][1]}"') == 1
