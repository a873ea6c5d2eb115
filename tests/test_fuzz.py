"""Strict doors: every loader either returns something the rules could have made, or raises its documented
ValueError subclass with a message that names the bad part and stays readable. Found by fuzzing (hypothesis)
and pinned by the findings of issue 9."""
import json
from dataclasses import asdict, fields, replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solitaire import (ITALIAN, KLONDIKE, SOLIJOY, Card, Game, InvalidCardError, InvalidMoveError,
                       InvalidVariantError, Move, Variant, card, parse_card)
from solitaire.notation import move_from_text, PositionTextError, check_position, variant_from_text

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MESSAGE_LIMIT = 400  # characters: an error message echoes the input cut to a readable length

anything = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=30),
                     st.lists(st.integers(), max_size=3), st.tuples(st.text(max_size=3)))


def refused(error: ValueError, kinds) -> None:
    assert type(error) in kinds, type(error)
    assert len(str(error)) <= MESSAGE_LIMIT, str(error)


# --- cards and moves ------------------------------------------------------------------------------
@FUZZ
@given(anything, anything)
def test_card_returns_a_card_or_raises_invalid_card_error(rank, suit):
    try:
        c = card(rank, suit)
    except ValueError as e:
        return refused(e, {InvalidCardError})
    assert isinstance(c, Card) and card(c.rank, c.suit) == c


@FUZZ
@given(st.one_of(st.text(max_size=12), anything))
def test_parse_card_returns_a_card_or_raises_invalid_card_error(text):
    try:
        c = parse_card(text)
    except ValueError as e:
        return refused(e, {InvalidCardError})
    assert parse_card(str(c)) == c


@FUZZ
@given(st.one_of(st.text(alphabet="tfwdrawecyliph>:0123456789 ", max_size=14), st.text(max_size=40), anything))
def test_move_from_text_returns_a_move_or_raises_invalid_move_error(text):
    try:
        m = move_from_text(text)
    except ValueError as e:
        return refused(e, {InvalidMoveError})
    assert move_from_text(str(m)) == m


def test_findings_cards_and_moves():
    with pytest.raises(InvalidCardError):
        card(1, 0.5)  # was silently 9♣
    with pytest.raises(InvalidCardError):
        card(True, 0)
    with pytest.raises(InvalidMoveError, match="cannot read a move from 't1234"):
        move_from_text("t12345678901234567890>t1")
    with pytest.raises(InvalidMoveError) as info:
        move_from_text("x" * 10_000)
    assert len(str(info.value)) < MESSAGE_LIMIT


# --- variants --------------------------------------------------------------------------------------
def field_values(name: str):
    return st.one_of(st.just(getattr(KLONDIKE, name)), st.just(getattr(SOLIJOY, name)), anything,
                     st.floats(allow_nan=True, allow_infinity=True))


@FUZZ
@given(st.dictionaries(st.sampled_from([f.name for f in fields(Variant)]),
                       st.deferred(lambda: st.sampled_from([f.name for f in fields(Variant)]).flatmap(field_values)),
                       max_size=3))
def test_variant_is_made_or_refused_with_invalid_variant_error(changes):
    try:
        v = replace(KLONDIKE, **changes)
    except ValueError as e:
        return refused(e, {InvalidVariantError})
    assert hash(v) == hash(replace(v)) and Game(v, 1).position.variant == v


def test_findings_variants():
    for bad in [dict(passes=float("inf")), dict(passes=2.5), dict(passes=float("nan")), dict(draw=1.5),
                dict(decks=True), dict(columns=[1, 2]), dict(auto_flip=1)]:
        with pytest.raises(InvalidVariantError):
            replace(KLONDIKE, **bad)


# --- position text ---------------------------------------------------------------------------------
TEXTS = [Game(v, seed).to_text() for v, seed in [(KLONDIKE, 1), (SOLIJOY, 2), (ITALIAN, 3),
                                                 (replace(KLONDIKE, draw=3, passes=2, name="K3"), 4)]]


def mutated_text(draw) -> str:
    lines = draw(st.sampled_from(TEXTS)).splitlines()
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["drop", "copy", "token", "setting", "junk"]))
        if action == "drop":
            del lines[i]
        elif action == "copy":
            lines.insert(i, lines[draw(st.integers(0, len(lines) - 1))])
        elif action == "token":
            tokens = lines[i].split(" ")
            tokens[draw(st.integers(0, len(tokens) - 1))] = draw(st.sampled_from(
                ["<K♠>", "K♠", "Zq", "<", "", "10♥", "99999999", "-1", "1e9", "²", "null"]))
            lines[i] = " ".join(tokens)
        elif action == "setting":
            lines[i] = "variant: klondike " + draw(st.sampled_from(
                ["decks=1.5", 'columns=[1,2,"x"]', "draw=null", "passes=1e999", "draw=" + "9" * 5000,
                 "passes=[[[[[[]]]]]]", "name=\"a\u2028b\"", "build=\"none\"", "ranks=[\"A\"]", "recycles=3",
                 "face_up=0", "columns=[]", "draw_only_when_stuck=1"]))
        else:
            lines[i] = draw(st.text(max_size=20))
    return "\n".join(lines)


@FUZZ
@given(st.one_of(st.composite(mutated_text)(), st.text(max_size=60)))
def test_from_text_reads_a_legal_position_or_raises_position_text_error(text):
    try:
        g = Game.from_text(text)
    except ValueError as e:
        return refused(e, {PositionTextError})
    check_position(g.position)
    p = g.position
    assert p.variant.passes is None or p.recycles < p.variant.passes
    assert Game.from_text(g.to_text()).position == p


def test_findings_position_text():
    text = Game("klondike", 1).to_text()
    for setting in ["decks=1.5", 'columns=[1,2,"x"]', "draw=null", "draw=" + "9" * 5000]:
        with pytest.raises(PositionTextError, match="line 2 \\(variant\\)"):
            Game.from_text(text.replace("variant: klondike", f"variant: klondike {setting}"))
    with pytest.raises(PositionTextError, match="at most 0 recycle"):
        Game.from_text(text.replace("variant: klondike", "variant: klondike passes=1").replace(
            "recycles: 0", "recycles: 7"))
    with pytest.raises(PositionTextError, match="at most 7 digits"):
        Game.from_text(text.replace("recycles: 0", "recycles: " + "7" * 5000))
    with pytest.raises(PositionTextError, match="a second 't1' line"):
        Game.from_text(text + "t1: K♠\n")
    with pytest.raises(PositionTextError, match="at most 100,000 characters"):
        Game.from_text(text + "#" * 200_000)


def test_a_variant_name_with_a_line_separator_round_trips():
    v = replace(KLONDIKE, name="a\u2028b\x85c")
    g = Game(v, 2)
    assert "\u2028" not in g.to_text() and Game.from_text(g.to_text()).variant == v
    assert variant_from_text('klondike name="a\\u2028b\\u0085c"') == v


# --- saved games -----------------------------------------------------------------------------------
def saved(seed: int = 4) -> dict:
    g = Game("klondike", seed)
    g.play_all(["draw", "draw", "draw"])
    g.undo()
    return json.loads(g.to_json())


json_values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                                     st.text(max_size=10)),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                                       max_size=3), max_leaves=8)


@FUZZ
@given(st.dictionaries(st.sampled_from(["format", "version", "variant", "seed", "start", "moves", "redo", "extra"]),
                       json_values, max_size=2),
       st.lists(st.sampled_from(["format", "version", "variant", "seed", "start", "moves", "redo"]), max_size=2))
def test_from_json_reads_a_game_the_rules_could_make_or_raises_position_text_error(changes, dropped):
    data = saved()
    data.update(changes)
    for key in dropped:
        data.pop(key, None)
    try:
        g = Game.from_json(json.dumps(data))
    except ValueError as e:
        return refused(e, {PositionTextError})
    again = Game.from_json(g.to_json())
    assert again.moves == g.moves and again.position == g.position and again.seed == g.seed
    assert g.seed is None or Game(g.variant, g.seed).start == g.start


@FUZZ
@given(st.text(max_size=80))
def test_from_json_of_any_text_raises_position_text_error(text):
    with pytest.raises(PositionTextError):
        Game.from_json(text)


def test_findings_saved_games():
    cases = {'{"format": "solitaire-game"}': 'no "start"',
             "[" * 100_000 + "]" * 100_000: "not a saved game",
             '{"format": "solitaire-game", "seed": ' + "9" * 5000 + "}": "not a saved game",
             json.dumps(saved() | {"seed": "<b>7</b>"}): "seed must be null or a whole number",
             json.dumps(saved() | {"seed": 5}): "seed 5 does not deal",
             json.dumps(saved() | {"variant": asdict(SOLIJOY)}): "is not the variant of its start",
             json.dumps(saved() | {"moves": ["draw", "t1>t9"]}): "move 2 of the saved game \\(t1>t9\\) is illegal",
             json.dumps(saved() | {"moves": ["jump"]}): "cannot read a move from 'jump'",
             json.dumps(saved() | {"moves": "draw"}): '"moves" must be a list',
             " " * 6_000_000: "at most 5,000,000 characters"}
    for text, message in cases.items():
        with pytest.raises(PositionTextError, match=message) as info:
            Game.from_json(text)
        assert len(str(info.value)) <= MESSAGE_LIMIT


# --- PySolFC layouts -------------------------------------------------------------------------------
LAYOUTS = [Game("klondike", s).to_pysol() for s in (1, 2)]


def mutated_layout(draw) -> str:
    lines = draw(st.sampled_from(LAYOUTS)).splitlines()
    i = draw(st.integers(0, len(lines) - 1))
    lines.insert(i, draw(st.sampled_from(["Foundations: H-A C-0 D-3 S-0 H-2", "Foundations: X-5", "Foundations: H-Z",
                                           "Foundations: H-A H-2", "Waste: 9Z", "Talon:", "Talon: AS",
                                           "Foo: 1", "", "<AS> KH <2C>"])))
    if draw(st.booleans()):
        del lines[draw(st.integers(0, len(lines) - 1))]
    return "\n".join(lines)


@FUZZ
@given(st.one_of(st.composite(mutated_layout)(), st.text(max_size=40)))
def test_from_pysol_reads_a_legal_position_or_raises_position_text_error(layout):
    try:
        g = Game.from_pysol(layout)
    except ValueError as e:
        return refused(e, {PositionTextError})
    check_position(g.position)
    assert Game.from_pysol(g.to_pysol()).position == g.position


def test_findings_pysol():
    layout = LAYOUTS[0].replace("\n", "\nFoundations: H-0 C-0 D-0 S-0 H-0\n", 1)
    with pytest.raises(PositionTextError, match="5 entries, but Klondike has 4 foundations"):
        Game.from_pysol(layout)
