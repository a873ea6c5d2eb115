"""The checks of the course's flow lessons (01a play; 05, 05b, 06, 06a, 06b): CASES of right answers, plausible
wrong answers as a student might give them, and nonsense; and the tests that lesson 01a's answers survive a
re-execution (a list of move texts, never the live table)."""
from __future__ import annotations

import re
import pytest

from solitaire import Game, solve
from solitaire.moves import (COLUMN_TO_COLUMN, COLUMN_TO_FOUNDATION, DRAW, FLIP, RECYCLE, WASTE_TO_COLUMN,
                             WASTE_TO_FOUNDATION)
from solitaire.players import GreedyStrategy
from solitaire.lessons import EXERCISES, check
from solitaire.lessons.lesson01a import PYSOL_LAYOUT, moves_of
from solitaire.widget import GameWidget


def feedback(capsys: pytest.CaptureFixture, name: str, answer: object) -> tuple[bool, str]:
    ok = check(name, answer)
    return ok, capsys.readouterr().out


def _pysol_line() -> list[str]:
    return [str(m) for m in solve(Game.from_pysol(PYSOL_LAYOUT), max_seconds=None, max_nodes=100_000).moves]


def _until_aces(line: list[str], aces: int) -> list[str]:
    """The first moves of ``line`` that put ``aces`` Aces on the foundations."""
    game = Game.from_pysol(PYSOL_LAYOUT)
    for i, m in enumerate(line):
        if sum(1 for f in game.position.foundations if f) == aces:
            return line[:i]
        game.play(m)
    raise AssertionError(f"the line never puts {aces} Aces home")


def _greedy_wins(first: int, last: int, stop_before_last: bool = False, variant: str = "klondike") -> int:
    """A student's greedy_wins, and its mistakes: range(first, last) that leaves deal `last` out, another game."""
    from solitaire.strategies import play_game
    seeds = range(first, last) if stop_before_last else range(first, last + 1)
    return sum(play_game(variant, seed, "greedy").outcome == "won" for seed in seeds)


def _cases() -> dict[str, tuple[object, list[object], object]]:
    line = _pysol_line()
    two, one = _until_aces(line, 2), _until_aces(line, 1)
    other_deal = [str(m) for m in solve(Game("klondike", 2), max_seconds=None, max_nodes=100_000).moves]
    return {
        # 01a: a list of move texts replayed from deal 11982. A live table (or its Game) would be dealt afresh by a
        # grader's re-execution: a Game of the right play is refused with a sentence saying so.
        "01a.two_aces": (two, [one, line[:3], other_deal, [*two[:-1], "t9>f"], _played(two)], 42),
        "01a.win": (line, [two, line[:-1], other_deal, _played(line)], "won"),
        # 05: a function, tried on hidden deal ranges. The old check took the one number for deals 20-39, so a
        # count over range(20, 39) passed whenever deal 39 was lost; here range(first, last) is refused.
        "05.greedy_wins": (_greedy_wins, [8, lambda a, b: _greedy_wins(a, b, stop_before_last=True),
                                          lambda a, b: _greedy_wins(a + 1, b),
                                          lambda a, b: _greedy_wins(a, b, variant="solijoy"), lambda a, b: 8],
                           "eight"),
        # 05b: an entrant written in a cell, asked at hidden positions. Wrong: rule 3 without its face-down test,
        # rules 1 and 2 swapped, greedy asked for its move, the first move always, a copy of the check's own rules.
        "05b.entrant": (_entrant, [lambda obs, moves: _entrant(obs, moves, face_down_test=False),
                                   lambda obs, moves: _entrant(obs, moves, order=(1, 0, 2, 3, 4)),
                                   lambda obs, moves: GreedyStrategy().choose(obs, moves),
                                   lambda obs, moves: moves[0], _copied_rules()], "draw"),
    }


def _entrant(obs, moves, face_down_test: bool = True, order: tuple = (0, 1, 2, 3, 4)):
    """05b's entrant as a student writes it (one loop a rule), and its mistakes: rule 3 taken for any whole
    build, or the rules in another order."""
    def uncovers(m):
        return (m.kind == COLUMN_TO_COLUMN and m.count == len(obs.columns[m.source])
                and (obs.hidden[m.source] > 0 or not face_down_test))
    rules = [lambda m: m.kind == FLIP, lambda m: m.kind in (COLUMN_TO_FOUNDATION, WASTE_TO_FOUNDATION), uncovers,
             lambda m: m.kind == WASTE_TO_COLUMN, lambda m: m.kind in (DRAW, RECYCLE)]
    for i in order:
        for move in moves:
            if rules[i](move):
                return move
    return moves[0]


def _copied_rules():
    """The check's own rules pasted into a cell under another name (exec of their source)."""
    import inspect
    from solitaire.lessons import lesson05b
    names = dict(vars(lesson05b))
    source = "\n".join(inspect.getsource(f) for f in (lesson05b._uncovers, lesson05b._rule_of, lesson05b._rules_choice))
    exec(source.replace("_rules_choice", "mine"), names)
    return names["mine"]


def _played(moves: list[str]) -> Game:
    game = Game.from_pysol(PYSOL_LAYOUT)
    game.play_all(moves)
    return game


CASES = {name: case for name, case in _cases().items() if name in EXERCISES}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_right_answer_passes(name: str, capsys: pytest.CaptureFixture) -> None:
    ok, out = feedback(capsys, name, CASES[name][0])
    assert ok and out.startswith("✔ Right: "), out


@pytest.mark.parametrize("name, index", [(n, i) for n, (_, wrong, _) in sorted(CASES.items())
                                         for i in range(len(wrong) + 1)])
def test_wrong_and_nonsense_answers_are_refused(name: str, index: int, capsys: pytest.CaptureFixture) -> None:
    _, wrong, nonsense = CASES[name]
    ok, out = feedback(capsys, name, [*wrong, nonsense][index])
    assert not ok and out.startswith("✘ Not yet: "), out


def test_a_played_table_is_refused_with_how_to_hand_in_the_moves(capsys: pytest.CaptureFixture) -> None:
    """A table re-executes to a fresh deal, so the answer is the list moves_of prints, pasted into a cell."""
    table = GameWidget(Game.from_pysol(PYSOL_LAYOUT))
    line = _pysol_line()
    for move in line:
        table.play_move(move)
    ok, out = feedback(capsys, "01a.win", table)
    assert not ok and "run moves_of(challenge) and paste the list" in out
    moves_of(table)
    printed = capsys.readouterr().out
    pasted = eval(printed)  # the printed line is a Python list literal, as the student pastes it
    assert pasted == line and feedback(capsys, "01a.win", pasted)[0]


def test_refusals_name_the_move_that_does_not_replay(capsys: pytest.CaptureFixture) -> None:
    ok, out = feedback(capsys, "01a.two_aces", ["draw", "t1>t8x"])
    assert not ok and "move 2 is not a move text" in out
    ok, out = feedback(capsys, "01a.two_aces", ["draw", "t9>f"])
    assert not ok and "move 2 (t9>f) is not legal when replayed: there is no column 9" in out
    ok, out = feedback(capsys, "01a.two_aces", ["draw", "t2>t3"])
    assert not ok and "move 2 (t2>t3) is not legal when replayed" in out
    ok, out = feedback(capsys, "01a.two_aces", [])
    assert not ok and "0 moves are legal, and 0 of the 2 Aces" in out


def test_the_two_aces_hint_describes_the_position_reached(capsys: pytest.CaptureFixture) -> None:
    """The hint once described the deal as dealt ("A♦ and A♣ lie face down in column 4, under J♣ and 3♥") even
    after a student had sent the A♦ and the 2♦ home: it names where the Aces still away lie after the moves played."""
    line = _pysol_line()
    one = _until_aces(line, 1)
    game = Game.from_pysol(PYSOL_LAYOUT)
    game.play_all(one)
    first_home = next(f[0] for f in game.position.foundations if f)
    ok, out = feedback(capsys, "01a.two_aces", one)
    assert not ok and "1 of the 2 Aces asked for is on a foundation" in out and f"the {first_home} " not in out
    hinted = out.split("Where you are now, ")[1]
    for ace in {"A♣", "A♦", "A♥", "A♠"} - {str(first_home)}:
        if f"the {ace} is" in hinted or f"the {ace} lies face up" in hinted:  # where the hint says, after the moves
            column = int(hinted.split(f"the {ace} ")[1].split("column ")[1][0]) - 1
            assert ace in [str(c) for c in game.position.columns[column]], (ace, hinted)


CARD_TEXT = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")


@pytest.mark.parametrize("played", ["none", "draws", "recycled", "one ace", "first face-up ace"])
def test_the_two_aces_hint_names_no_face_down_card(played: str, capsys: pytest.CaptureFixture) -> None:
    """A player cannot see a face-down card: the hint once said "the A♦ lies face down in column 4, under J♣".
    Every card it names lies face up (columns, waste, foundations) in the position the moves reach."""
    line = _pysol_line()
    moves = {"none": [], "draws": ["draw"] * 24, "recycled": ["draw"] * 24 + ["recycle", "draw"],
             "one ace": _until_aces(line, 1), "first face-up ace": line[:112]}[played]
    game = Game.from_pysol(PYSOL_LAYOUT)
    game.play_all(moves)
    p = game.position
    face_up = {str(c) for i, col in enumerate(p.columns) for c in col[p.hidden[i]:]}
    face_up |= {str(c) for pile in (p.waste, *p.foundations) for c in pile}
    ok, out = feedback(capsys, "01a.two_aces", moves)
    hinted = out.split("Where you are now, ")[1]
    unseen = re.search(r"no (other )?Ace is face up yet: ([^.]*)\. Turn over more cards\.", hinted)
    assert not ok and (unseen or played == "first face-up ace"), out
    if unseen:  # the Aces not in sight are named as such, with no place but the piles that hide cards
        assert set(CARD_TEXT.findall(unseen[2])) <= {"A♣", "A♦", "A♥", "A♠"} - face_up and "under" not in unseen[2]
        hinted = hinted.replace(unseen[0], "")
    for card in CARD_TEXT.findall(hinted):  # every card named with its place is one the player sees
        assert card in face_up, (card, out)


def test_greedy_wins_names_the_range_that_leaves_out_the_last_deal(capsys: pytest.CaptureFixture) -> None:
    ok, out = feedback(capsys, "05.greedy_wins", lambda a, b: _greedy_wins(a, b, stop_before_last=True))
    assert not ok and "range(first, last) stops before last" in out
    ok, out = feedback(capsys, "05.greedy_wins", _greedy_wins)
    assert ok and f"greedy wins {_greedy_wins(20, 39)} of Klondike deals 20-39" in out


def test_a_strategy_built_on_greedys_own_rule_is_refused(capsys: pytest.CaptureFixture) -> None:
    """Today's check looked only for calls into greedy's choose and rank: ranking the moves by greedy's rule passed."""
    from solitaire.players import GreedyStrategy
    greedy = GreedyStrategy()
    ok, out = feedback(capsys, "05.strategy", lambda obs, moves: max(moves, key=lambda m: greedy.rule(obs, m)[0]))
    assert not ok and re.search(r"calls the kit's (GreedyStrategy\.)?rule", out), out


def test_an_entrant_in_a_cell_plays_in_the_tournament() -> None:
    """05b's entrant is a function, not a file: the tournament runs it in its own process beside the kit's files,
    and a stub (a student copy's) crashes its games without stopping the others."""
    from pathlib import Path
    import solitaire
    from solitaire import tournament
    files = Path(solitaire.__file__).parent / "entrants"

    def stub(obs, moves):
        raise NotImplementedError

    results = tournament.run([_entrant, stub, files / "greedy_player.py"], deals=4, seeds={"klondike": [1, 2, 3, 4]},
                             workers=1, quiet=True)
    board = {row["entrant"]: row for row in results.leaderboard()}
    assert board["_entrant"]["games"] == 4 and board["_entrant"]["failures"] == 0
    assert [(f["entrant"], f["failure"], f["games"]) for f in results.failures()] == [("stub", "crashed", 4)]


def test_versus_random_prints_the_score_and_never_raises(capsys: pytest.CaptureFixture) -> None:
    from solitaire.lessons.lesson05 import versus_random

    def stub(obs, moves):
        raise NotImplementedError

    versus_random(stub)
    assert "the function stub still has no body" in capsys.readouterr().out  # named by the student's own name
    versus_random(lambda obs, moves: moves[0])
    out = capsys.readouterr().out
    assert "your strategy won" in out and "move limit" in out


def test_a_win_rate_of_zero_or_one_is_drawn_whole() -> None:
    """06b's random SoliJoy point (0 wins) was cut in half by the axis: the axis now leaves room for a marker."""
    import pandas as pd
    from solitaire import plots
    table = pd.DataFrame({"variant": ["solijoy", "solijoy"], "strategy": ["random", "solver"], "win_rate": [0.0, 1.0],
                          "low": [0.0, 0.98], "high": [0.02, 1.0]})
    ax = plots.win_rates(table).axes[0]
    low, high = ax.get_ylim()
    marker = 7 / 72 * ax.figure.dpi  # the marker's size in pixels
    to_pixels = ax.transData.transform
    assert to_pixels((0, 0))[1] - to_pixels((0, low))[1] > marker  # a pointed marker reaches past half its size
    assert to_pixels((0, high))[1] - to_pixels((0, 1))[1] > marker


def test_lesson_05b_gives_each_game_time_enough_on_a_loaded_server() -> None:
    """On a loaded class server an entrant as fast as greedy lost a game of lesson 05b to the default 5 s a game
    ("timed out: the game took more than 5 s"), so the same entrant won 11 deals on one run and 12 on the next. Every
    tournament of the lesson runs with the lesson's limits, which give a game 2 minutes."""
    import json
    from pathlib import Path

    from solitaire import tournament
    cells = json.loads((Path(__file__).resolve().parents[1] / "notebooks" / "05b_tournament.ipynb").read_text())["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    runs = [source for source in code if "tournament.run(" in source]
    assert len(runs) == 2 and all("limits=limits" in source for source in runs)
    defined = [line for source in code for line in source.splitlines() if line.startswith("limits = ")]
    assert defined == ["limits = tournament.Limits(game_seconds=120)"]
    limits = eval(defined[0].split(" = ", 1)[1], {"tournament": tournament})
    assert limits.game_seconds >= 60 and limits.move_seconds == tournament.Limits().move_seconds
