"""One reader of pile names (``moves.parse_pile``), used by ``Move.from_text`` and by the card table; the table's
front end is told the names; the widget's mixins rely only on what their base class declares (issue 23)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solitaire import KLONDIKE, SOLIJOY, Game, InvalidMoveError, Move
from solitaire.cards import quote
from solitaire.moves import _TEXT
from solitaire.notation import InvalidPileError, Pile, PileNumberError, move_from_text, parse_pile
from solitaire.widget import GameWidget, play
from solitaire.widget.aids import AidsMixin
from solitaire.widget.base import TableBase
from solitaire.widget.play import PlayMixin

WIDGET = Path(__file__).resolve().parents[1] / "solitaire" / "widget"
FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- parse_pile ----------------------------------------------------------------------------------------
def every_pile(game: Game) -> list[Pile]:
    p = game.position
    return ([Pile("stock"), Pile("waste")] + [Pile("foundation", i) for i in range(len(p.foundations))]
            + [Pile("column", i, n) for i in range(len(p.columns)) for n in (1, 2, 13)])


@pytest.mark.parametrize("variant", ["klondike", "solijoy", "italian"])
def test_every_pile_name_reads_back(variant):
    for pile in every_pile(Game(variant, seed=1)):
        assert parse_pile(str(pile)) == pile
        assert parse_pile(f"  {str(pile).upper()} ") == pile  # case and spaces around do not matter


def test_pile_names_and_their_parts():
    assert parse_pile("t3:2") == Pile("column", 2, 2) and parse_pile("f4") == Pile("foundation", 3, 1)
    assert parse_pile("w") == parse_pile("waste") == Pile("waste")  # 'w': the waste as moves write it
    assert str(Pile("column", 6, 1)) == "t7" and str(Pile("column", 6, 3)) == "t7:3"


@pytest.mark.parametrize("bad", ["", "moon", "t", "t3:", "f2:2", "t1234", "x3", "t3:2:1", "s", "t-1", None, 7])
def test_a_text_that_names_no_pile_is_refused_and_echoed(bad):
    with pytest.raises(InvalidPileError) as info:
        parse_pile(bad)
    assert type(info.value) is InvalidPileError
    assert str(info.value).startswith(f"cannot read a pile from {quote(bad)}: write stock, waste, f2, t3 or t3:2")


@pytest.mark.parametrize("bad", ["t0", "f0", "t3:0", "t000"])
def test_numbers_start_at_1(bad):
    with pytest.raises(PileNumberError) as info:
        parse_pile(bad)
    assert str(info.value) == f"cannot read a pile from {quote(bad)}: columns, foundations and counts start at 1"


# --- Move.from_text reads exactly what the one-expression regex table read -------------------------------
_OLD_PATTERNS = {kind: re.compile(text.replace(" ", "").replace("{n}", "(?::{n})?").format(
    s=r"(?P<s>\d{1,3})", t=r"(?P<t>\d{1,3})", n=r"(?P<n>\d{1,3})")) for kind, text in _TEXT.items()}


def old_from_text(text):
    """Move.from_text before issue 23 (its regex table), as the reference: a Move, or the message it raised."""
    compact = re.sub(r"\s+", "", text).lower() if isinstance(text, str) else ""
    for kind, pattern in _OLD_PATTERNS.items():
        found = pattern.fullmatch(compact)
        if found:
            numbers = {name: int(digits) for name, digits in found.groupdict().items() if digits is not None}
            if 0 in numbers.values():
                return f"cannot read a move from {quote(text)}: columns, foundations and counts start at 1"
            return Move(kind, numbers.get("s", 0) - 1, numbers.get("t", 0) - 1, numbers.get("n", 1))
    return (f"cannot read a move from {quote(text)}: write one of draw, recycle, flip t3, w>t3, w>f, t3>f, "
            "t3>t7, t3>t7:4 (the top 4 cards) or f2>t3")


def new_from_text(text):
    try:
        return move_from_text(text)
    except InvalidMoveError as exc:
        return str(exc)


pieces = st.sampled_from(["t", "f", "w", "flip", ">", ":", "0", "1", "7", "12", "123", "1234", "draw", "recycle",
                          " ", "T", "F", "\u0663", "x", "s", ""])


@FUZZ
@given(st.one_of(st.lists(pieces, max_size=7).map("".join), st.text(alphabet="tfwlip>:0123 ", max_size=10),
                 st.text(max_size=12), st.none(), st.integers()))
def test_move_from_text_reads_as_before(text):
    assert new_from_text(text) == old_from_text(text)


@pytest.mark.parametrize("text", ["t0>x", "f0>t3:2", "t0:1>t2", "w>t3:2", "t1>f1", "flip t3:1", "waste>t3", "f>t2",
                                  "t3>t7:0", "t0>t0", "flip t0", "w0>f", "t1>t2>t3", "flip"])
def test_move_from_text_edges_read_as_before(text):
    assert new_from_text(text) == old_from_text(text)


# --- the card table uses the same reader, and tells the front end the names --------------------------------
def test_the_state_names_every_pile_and_the_front_end_computes_none():
    w = play("solijoy", seed=1)
    assert [d["name"] for d in w.state["piles"]] == [str(p) for p in every_pile(w.game) if p.count == 1]
    assert all(parse_pile(d["name"]) == Pile(d["kind"], d["index"]) for d in w.state["piles"])
    js = (WIDGET / "table.js").read_text()
    for computed in ["`t${", "`f${", "name[0]", "pile[0]", "name.slice(1)", ":${start.depth}`"]:
        assert computed not in js, computed


def test_the_table_reads_pile_names_with_parse_pile():
    for module in ["table.py", "play.py", "view.py"]:
        code = (WIDGET / module).read_text()
        assert "[1:].isdigit()" not in code and '.partition(":")' not in code and "_read_pile" not in code, module
    w = play("klondike", seed=1)
    w._handle_custom_msg({"action": "drop", "source": "t1", "depth": 1, "target": "t7"}, [])
    w._handle_custom_msg({"action": "click", "pile": "t7:2"}, [])  # the name gives the depth
    assert [str(m) for m in w.game.moves] == ["t1>t7"] and w.state["marks"] == {"t7": [2, "selected"]}
    w._handle_custom_msg({"action": "drop", "source": "t7", "depth": 2, "target": "t0"}, [])
    assert "columns, foundations and counts start at 1" in w.message and w.state["kind"] == "error"


# --- the mixins' contract --------------------------------------------------------------------------------
def used_and_defined(cls: type) -> tuple[set[str], set[str]]:
    """The ``self.x`` names a class's source uses, and the names it defines itself."""
    path = WIDGET / f"{cls.__module__.rsplit('.', 1)[1]}.py"
    node = next(n for n in ast.parse(path.read_text()).body if isinstance(n, ast.ClassDef) and n.name == cls.__name__)
    used = {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
            and isinstance(n.value, ast.Name) and n.value.id == "self"}
    defined = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
    return used, defined


def declared(cls: type) -> set[str]:
    return set(cls.__annotations__) | {k for k, v in vars(cls).items() if callable(v)}


@pytest.mark.parametrize("mixin", [PlayMixin, AidsMixin])
def test_a_mixin_uses_only_what_it_defines_or_the_base_declares(mixin):
    assert issubclass(mixin, TableBase)
    used, defined = used_and_defined(mixin)
    assert used - defined <= declared(TableBase), sorted(used - defined - declared(TableBase))
    assert {"_say", "_send_state", "_depth", "_flight"} <= declared(TableBase)


def test_the_widget_keeps_the_contract():
    w = GameWidget(Game(KLONDIKE, 3))
    for name in declared(TableBase):
        assert hasattr(w, name), name
        assert getattr(type(w), name, None) is not getattr(TableBase, name, object()), f"{name} is only declared"
    w2 = GameWidget(Game(SOLIJOY, 2))
    w2.click_stock()
    assert w2.message.startswith("draw:") and w2.state["seq"] == w2._seq == 1
