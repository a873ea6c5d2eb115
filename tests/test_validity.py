"""Issue 43: a position no game could reach is refused, with its reason, by every door (``status``/``validate``,
``Game.from_text``, ``Game.from_json``, ``Game.from_pysol``, the card table and the command line); every position
reached by playing real games is accepted."""
from __future__ import annotations

import json
import random
import re
from dataclasses import asdict, replace
from pathlib import Path

import pytest

import solitaire
from solitaire import ITALIAN, KLONDIKE, SOLIJOY, Card, Game, apply, deal, legal_moves, observe
from solitaire.cli import main
from solitaire.notation import PositionTextError, position_to_text, variant_from_text
from solitaire.players import GreedyStrategy, RandomStrategy
from solitaire.validity import (BUILD, DEAL, DECK, FACE_DOWN, FOUNDATION, RECYCLES, SHAPE, STOCK,
                                InvalidPositionError, status, validate)


def text_of(variant: str, seed: int, moves: tuple[str, ...] = ()) -> str:
    """The text of a real game: the deal of ``seed``, after ``moves``."""
    game = Game(variant_from_text(variant), seed)
    game.play_all(moves)
    return game.to_text()


def edited(text: str, **lines: str) -> str:
    """The text with whole lines changed, as a teacher edits a position file: ``t1="6♠ 9♥"``."""
    out = []
    for line in text.splitlines():
        name = line.partition(":")[0]
        out.append(f"{name}: {lines.pop(name)}".rstrip() if name in lines else line)
    assert not lines, f"no such lines {sorted(lines)}"
    return "\n".join(out) + "\n"


def saved_game(text: str) -> str:
    """A saved game (JSON) that starts from the position ``text``, with no seed and no moves."""
    variant = variant_from_text(text.split("variant: ", 1)[1].splitlines()[0])
    return json.dumps({"format": "solitaire-game", "version": 1, "variant": asdict(variant), "seed": None,
                       "start": text, "moves": [], "redo": []}, ensure_ascii=False)


def stock_of(text: str) -> str:
    """The stock line of a position's text."""
    return text.split("stock: ", 1)[1].splitlines()[0]


K0, I0, S0 = text_of("klondike", 0), text_of("italian", 0), text_of("solijoy", 0)
K0_STOCK = stock_of(K0)
K3 = text_of("klondike draw=3", 0, ("draw",))  # Q♥ 10♠ Q♣ drawn: 21 cards left in the stock

# Each impossible edit: a position's text, the rule it breaks, and words its message must hold (pile and cards).
IMPOSSIBLE = {
    "6♠ 9♥ (the issue)": (edited(K0, t1="6♠ 9♥", t7="<8♠> <2♣> <6♣> <5♦> <8♦> A♦"), BUILD,
                          r"\(t1\): 9♥ lies face up on 6♠, but in Klondike a card goes on the card just before it"),
    "4♠ 4♣ (the issue)": (edited(K0, t5="<2♦> <J♣> <K♥> <5♣> 4♠ 4♣", stock=K0_STOCK.replace("<4♣> ", "")),
                          BUILD, r"\(t5\): 4♣ lies face up on 4♠"),
    "two black cards in Klondike": (edited(K0, t3="<9♣> <3♦> 8♣ 7♠", stock=K0_STOCK.replace("<7♠> ", "")),
                                    BUILD, r"\(t3\): 7♠ lies face up on 8♣.*of the opposite colour"),
    "two red cards in SoliJoy": (edited(S0, t1="3♦ 2♦", stock=stock_of(S0).replace("<2♦> ", "", 1)), BUILD,
                                 r"\(t1\): 2♦ lies face up on 3♦"),
    "a Klondike build in the Italian game": (edited(I0, t1="9♦ K♠", stock="<7♦> <J♥>"), BUILD,
                                             r"\(t1\): K♠ lies face up on 9♦.*order A K Q J 10 9 8 7"),
    "a face-down card in the waste (the issue)": (edited(text_of("klondike", 0, ("draw",)), waste="<Q♥>"), FACE_DOWN,
                                                  r"\(waste\): <Q♥> is face down"),
    "a face-down card on a foundation (the issue)": (edited(text_of("klondike", 0, ("t7>f",)), f1="<A♦>"), FACE_DOWN,
                                                     r"\(f1\): <A♦> is face down"),
    "a recycle more than the passes allow (the issue)": (
        edited(K0, variant="klondike passes=1", recycles="1"), RECYCLES,
        r"\(recycles\): Klondike allows 1 pass\(es\) through the stock, so at most 0 recycle\(s\), not 1"),
    "more face-down cards than the deal gave": (edited(K0, t2="<J♥> <10♣>"), DEAL,
                                                r"\(t2\): 2 face-down cards, but the deal gives column 2 only 1"),
    "a face-down card in the first column": (edited(K0, t1="<8♠>"), DEAL, r"\(t1\): 1 face-down card, but the deal"),
    "more cards in the stock than the deal left": (edited(K0, t1="", stock="<8♠> " + K0_STOCK), STOCK,
                                                   r"\(stock\): the stock and the waste hold 25 cards, but the deal"),
    "a stock that lost no whole draw (draw 3)": (edited(K3, waste="Q♥ Q♣", stock="<10♠> " + stock_of(K3)), STOCK,
                                                 r"\(stock\): 22 cards before the first recycle, but each draw "
                                                 "takes 3 of the 24"),
    "an Ace the Italian deal turned up": (edited(I0, t4="<Q♠> <J♣> <Q♣> A♦"), DEAL,
                                          r"\(t4\): A♦ lies face up on the 3 cards the deal put face down"),
    "a face-down top card in the Italian game": (edited(I0, t1="9♦ 8♣", t3="<7♣> <10♥>"), DEAL,
                                                 r"\(t3\): the top card <10♥> is face down"),
    "a card twice, another missing": (edited(K0, stock=K0_STOCK.replace("<Q♥>", "<8♠>")), DECK,
                                      "must hold the 52 cards of Klondike: missing Q♥; not in this deck or too "
                                      "many: 8♠"),
    "a foundation out of order": (edited(text_of("klondike", 0, ("t7>f",)), f1="A♦ 3♦", t3="<9♣> 8♣"),
                                  FOUNDATION, r"\(f1\): 3♦ cannot follow A♦: a foundation takes the next card"),
}


def test_each_edit_names_what_it_breaks():
    """The texts above are real games but for the one edit: the reader refuses each, with exactly one reason."""
    for name, (text, rule, _) in IMPOSSIBLE.items():
        found = status(_position_without_checks(text))
        assert [q.rule for q in found] == ([] if rule == FACE_DOWN else [rule]), (name, found)


@pytest.mark.parametrize("name", IMPOSSIBLE)
def test_from_text_and_from_json_refuse_an_impossible_position_with_its_reason(name):
    text, rule, words = IMPOSSIBLE[name]
    with pytest.raises(PositionTextError, match=words):
        Game.from_text(text)
    with pytest.raises(PositionTextError, match=words):
        Game.from_json(saved_game(text))


@pytest.mark.parametrize("name", [n for n, case in IMPOSSIBLE.items() if case[1] != FACE_DOWN])
def test_status_names_the_rule_and_validate_raises(name):
    """``status`` sees the same reason in the Position itself (a face-down waste card exists only as text)."""
    text, rule, words = IMPOSSIBLE[name]
    position = _position_without_checks(text)
    assert rule in {problem.rule for problem in status(position)}
    with pytest.raises(InvalidPositionError, match=words.split(r"\): ", 1)[-1]):
        validate(position)


def _position_without_checks(text: str):
    """The Position a text describes, read without the validity checks (to hand to ``status`` itself)."""
    import solitaire.notation as notation
    checks = notation.status, notation.face_down_problem
    notation.status, notation.face_down_problem = (lambda p: []), (lambda *pile: None)
    try:
        return notation.position_from_text(text)
    finally:
        notation.status, notation.face_down_problem = checks


@pytest.mark.parametrize("command", ["solve", "hint", "chance"])
@pytest.mark.parametrize("name", IMPOSSIBLE)
def test_the_command_line_refuses_an_impossible_position_file(tmp_path, capsys, command, name):
    text, _, words = IMPOSSIBLE[name]
    for path, content in ((tmp_path / "position.txt", text), (tmp_path / "game.json", saved_game(text))):
        path.write_text(content, encoding="utf-8")
        with pytest.raises(SystemExit) as info:
            main([command, "--position-file", str(path)])
        err = capsys.readouterr()
        assert info.value.code == 2 and err.out == ""
        assert err.err.startswith(f"python -m solitaire {command}: error: ") and err.err.count("\n") == 1
        assert re.search(words, err.err), err.err


def test_the_card_table_refuses_a_game_no_play_could_reach():
    pytest.importorskip("anywidget")
    text, _, words = IMPOSSIBLE["6♠ 9♥ (the issue)"]
    game = Game.from_position(_position_without_checks(text))
    with pytest.raises(InvalidPositionError, match=words.split(r"\): ", 1)[-1]):
        solitaire.play(game)
    assert solitaire.play(Game.from_text(K0)).game.position == deal(KLONDIKE, 0)


def test_pysol_layouts_are_checked_by_the_same_rules():
    layout = Game("klondike", 1).to_pysol()
    with pytest.raises(PositionTextError, match="Waste.*<A♠> is face down"):
        Game.from_pysol(layout.replace(" AS", "").replace("Talon:", "Waste: <AS>\nTalon:"))
    columns = layout.splitlines()
    columns[1] = "7D KS"  # a King on a 7: no move builds it
    with pytest.raises(PositionTextError, match="t1: K♠ lies face up on 7♦"):
        Game.from_pysol("\n".join(columns).replace(" KS", "", 1) + "\n")


# --- edits that play could reach are accepted -----------------------------------------------------
POSSIBLE = {
    "two face-down cards swapped (another deal)": edited(K0, t7="<9♥> <6♠> <2♣> <6♣> <5♦> <8♦> A♦"),
    "the stock in another order": edited(K0, stock=" ".join(reversed(K0_STOCK.split()))),
    "a red 7 on the black 8": edited(K0, t1="8♠ 7♥", stock=K0_STOCK.replace("<7♥> ", "")),
    "another first card in column 1, and a build on it": edited(K0, t1="9♦ 8♠",
                                                                stock=K0_STOCK.replace("<9♦> ", "")),
    "22 cards in a draw-3 stock after a recycle": edited(IMPOSSIBLE["a stock that lost no whole draw (draw 3)"][0],
                                                         recycles="1"),
    "an Ace face up in an Italian column once flipped": edited(I0, t4="<Q♠> <J♣> A♦",
                                                               stock="<7♦> <K♠> <J♥> <Q♣>"),
}


@pytest.mark.parametrize("name", POSSIBLE)
def test_an_edit_that_play_could_reach_is_accepted(name):
    text = POSSIBLE[name]
    assert position_to_text(Game.from_text(text).position) == text
    assert Game.from_json(saved_game(text)).position == Game.from_text(text).position


# --- the property: every position of real games is accepted ---------------------------------------
PLAYED = [KLONDIKE, SOLIJOY, ITALIAN, replace(KLONDIKE, name="Klondike, draw 3, 3 passes", draw=3, passes=3),
          # the deal lays two face-up cards that need not follow the build rule; cards come back from foundations
          replace(KLONDIKE, name="two face up", face_up=2, columns=(2, 3, 4, 5, 6, 7, 8), foundation_to_tableau=True),
          # Aces set aside (a stock of 0 to 4 cards), turning three; SoliJoy built in suit, turning two
          replace(ITALIAN, name="Italian, draw 3", draw=3), replace(SOLIJOY, name="in suit", build="suit", draw=2)]


def played_positions(variant, seeds: range, steps: int):
    """The positions of random and greedy playouts (seeded: the same ones every run), one per move."""
    for seed in seeds:
        for player in (RandomStrategy(seed), GreedyStrategy(resign=False)):
            p = deal(variant, seed)
            for _ in range(steps):
                yield p
                moves = legal_moves(p)
                move = player.choose(observe(p), moves) if moves else None
                if move is None:
                    break
                p = apply(p, move)


def test_every_position_of_random_and_greedy_playouts_is_accepted():
    counts = {}
    for variant in PLAYED:
        positions = list(played_positions(variant, range(8), 150))
        counts[variant.name] = len(positions)
        refused = [(p, status(p)) for p in positions if status(p)]
        assert not refused, (variant.name, position_to_text(refused[0][0]), refused[0][1])
        for p in random.Random(43).sample(positions, 60):  # through the text and JSON doors too
            assert Game.from_text(position_to_text(p)).position == p
            assert Game.from_json(saved_game(position_to_text(p))).position == p
    assert all(counts[v.name] >= 400 for v in (KLONDIKE, SOLIJOY, ITALIAN)), counts
    assert sum(counts.values()) >= 1_000, counts


def test_every_position_of_a_saved_game_is_checked_once_at_its_start():
    """A saved game's later positions come from legal moves: reading one checks its start, then replays."""
    game = Game("klondike", 5)
    game.play_all(["draw"] * 24 + ["recycle"] + ["draw"] * 3)
    assert Game.from_json(game.to_json()).position == game.position
    bad = json.loads(game.to_json())
    bad["start"] = edited(bad["start"], waste="<5♥>", stock=bad["start"].split("stock: ")[1].splitlines()[0]
                          .replace("<5♥> ", "").replace(" <5♥>", ""))
    with pytest.raises(PositionTextError, match=r"line \d+ \(waste\): <5♥> is face down"):
        Game.from_json(json.dumps(bad, ensure_ascii=False))


def test_status_lists_every_reason_and_the_message_stays_one_line():
    text = edited(K0, t1="<8♠>", t2="<J♥> <10♣>", t3="<9♣> <3♦> <8♣>", t4="<2♠> <A♣> <Q♠> <3♥>",
                  variant="klondike passes=1", recycles="2")
    problems = status(_position_without_checks(text))
    assert [(q.pile, q.rule) for q in problems] == [("t1", DEAL), ("t2", DEAL), ("t3", DEAL), ("t4", DEAL),
                                                   ("recycles", RECYCLES)]
    with pytest.raises(PositionTextError) as info:
        Game.from_text(text)
    assert "\n" not in str(info.value) and str(info.value).endswith("; and 2 more")


def test_a_position_of_the_wrong_shape_is_named_not_crashed_on():
    p = deal(KLONDIKE, 1)
    assert [q.rule for q in status(p._replace(columns=p.columns[:6]))] == [SHAPE]
    assert [q.rule for q in status(p._replace(hidden=(0, 5) + p.hidden[2:]))] == [SHAPE]
    assert [q.rule for q in status(p._replace(stock=p.stock[:-1] + (99,)))] == [SHAPE]
    assert status(deal(SOLIJOY, 3)) == [] and status(deal(ITALIAN, 3)) == [] and Card("A♠") in deal(KLONDIKE, 1).stock


def test_the_teachers_guide_quotes_what_the_kit_says(tmp_path, capsys):
    """notebooks/TEACHERS.md ("Setting up a position by hand") quotes the kit's messages: each is a real one."""
    guide = (Path(__file__).resolve().parent.parent / "notebooks" / "TEACHERS.md").read_text(encoding="utf-8")
    section = guide.split("### Setting up a position by hand", 1)[1].split("\n## ", 1)[0]
    said = set()
    for text, _, _ in IMPOSSIBLE.values():
        with pytest.raises(PositionTextError) as info:
            Game.from_text(text)
        said.add(str(info.value))
    quoted = re.findall(r"`(line \d+ \([^`]*)`", section)
    assert len(quoted) == 8
    for words in quoted:  # "[…]" in a quote leaves out part of the message
        pattern = ".*".join(re.escape(part) for part in words.split("[…]"))
        assert any(re.fullmatch(pattern, message) for message in said), words
    path = tmp_path / "what-if.txt"
    path.write_text(IMPOSSIBLE["6♠ 9♥ (the issue)"][0], encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["chance", "--position-file", str(path)])
    assert capsys.readouterr().err in section
    for accepted in ("t1: 8♠ 7♥", "t1: 9♦ 8♠"):
        assert accepted in section
