"""The perfect-information solver: its wins replay, its proofs of unwinnability are sound on built cases."""
from dataclasses import replace

import pytest
from helpers import make

from solitaire import ITALIAN, KLONDIKE, SOLIJOY, Game, Move
from solitaire.moves import is_won
from solitaire.solver import SolveResult, _tables, solve, talon_reach

SUIT = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def run(suit: str, first: str = "A", last: str = "K", ranks=KLONDIKE.ranks) -> str:
    """The cards of one suit from ``first`` to ``last`` in foundation order, as text."""
    names = ranks[ranks.index(first):ranks.index(last) + 1]
    return " ".join(r + SUIT[suit] for r in names)


def replays_to_a_win(game: Game, result: SolveResult) -> bool:
    g = game.copy()
    g.play_all(result.moves)
    return g.is_won()


@pytest.mark.parametrize("variant, seeds", [(KLONDIKE, [2, 3, 5]), (SOLIJOY, [0, 1]), (ITALIAN, [0, 1, 2, 3])])
def test_won_solutions_replay_with_game_play(variant, seeds):
    wins = 0
    for seed in seeds:
        game = Game(variant, seed)
        r = solve(game, max_seconds=20, max_nodes=20_000)
        assert r.status in ("won", "unwinnable", "unknown")
        if r.status == "won":
            wins += 1
            assert all(isinstance(m, Move) for m in r.moves)
            assert replays_to_a_win(game, r)
            assert game.moves == []  # solve does not touch the game
        else:
            assert r.moves == []
    assert wins >= 1


@pytest.mark.parametrize("changes, seeds", [(dict(draw=3), [3, 5]), (dict(passes=2), [3, 9]),
                                            (dict(foundation_to_tableau=True), [2, 3]),
                                            (dict(draw=3, foundation_to_tableau=True), [3, 5]),
                                            (dict(draw=3, passes=3), [3])])
def test_custom_variants_solutions_replay(changes, seeds):
    variant = replace(KLONDIKE, name="custom", **changes)
    for seed in seeds:
        game = Game(variant, seed)
        r = solve(game, max_seconds=30, max_nodes=10_000)
        assert r.status == "won" and replays_to_a_win(game, r)


def test_a_trivial_position_is_solved():
    p = make(KLONDIKE, ["K♥", "Q♠", "K♠"], hidden=[0, 0, 0],
             foundations=[run("c"), run("d"), run("h", last="Q"), run("s", last="J")], stock="")
    r = solve(p)
    assert r.status == "won"
    assert sorted(str(m) for m in r.moves) == ["t1>f", "t2>f", "t3>f"]
    assert not is_won(p) and replays_to_a_win(Game.from_position(p), r)


def test_an_incomplete_deck_is_refused():
    p = make(KLONDIKE, ["K♥"], foundations=[run("c"), run("d"), run("h", last="Q"), run("s", last="J")], stock="")
    with pytest.raises(ValueError, match="50 cards"):
        solve(p)


def test_a_card_buried_under_a_card_it_must_go_on_is_unwinnable():
    # 2♥ lies on A♥ (face down); both black threes are on foundations, so 2♥ can never move.
    p = make(KLONDIKE, ["A♥ 2♥"], hidden=[1], foundations=[run("c"), run("d"), run("s", last="3")],
             stock=run("h", "3") + " " + run("s", "4"))
    r = solve(p, max_seconds=10)
    assert r.status == "unwinnable" and r.moves == []
    # the same position is winnable when cards may come back from a foundation: build K♠ Q♥ ... 4♥ from the
    # stock, take 3♠ down onto 4♥, and 2♥ goes on it
    back = replace(KLONDIKE, name="back", foundation_to_tableau=True)
    q = p._replace(variant=back)
    r2 = solve(q, max_seconds=10)
    assert r2.status == "won" and replays_to_a_win(Game.from_position(q), r2)


def test_a_hopeless_deal_is_proven_unwinnable():
    # Klondike deal 90: no win exists (the search space is exhausted quickly).
    r = solve(Game(KLONDIKE, 90), max_seconds=30)
    assert r.status == "unwinnable"


def test_solve_from_the_middle_of_a_game():
    game = Game(KLONDIKE, 3)
    first = solve(game, max_seconds=20)
    assert first.status == "won"
    game.play_all(first.moves[:25])
    again = solve(game, max_seconds=20)
    assert again.status == "won" and replays_to_a_win(game, again)


def test_solve_from_a_position_with_a_face_down_top_card():
    game = Game(KLONDIKE, 2)
    r = solve(game, max_seconds=20)
    # play up to a move that leaves a face-down top, then ask again
    for m in r.moves:
        game.play(m)
        p = game.position
        if any(col and h >= len(col) for col, h in zip(p.columns, p.hidden)):
            break
    else:
        pytest.skip("no face-down top card on this line")
    again = solve(game, max_seconds=20)
    assert again.status == "won" and again.moves[0].kind == "flip" and replays_to_a_win(game, again)


def test_budget_exhausted_is_unknown():
    r = solve(Game(KLONDIKE, 104), max_nodes=50)
    assert r.status == "unknown" and r.moves == [] and r.nodes <= 1100


def test_solve_rejects_other_things():
    with pytest.raises(ValueError, match="'klondike'"):
        solve("klondike")


def test_safe_foundation_thresholds_follow_the_rules():
    five_hearts = 2 * 16 + 5
    # without cards coming back: black fours and red threes need only be ready to go up
    assert _tables(KLONDIKE).threshold[five_hearts] == (3, 2, 4, 3)
    # with cards coming back, everything that could hold or be held must already be up
    back = replace(KLONDIKE, name="back", foundation_to_tableau=True)
    assert _tables(back).threshold[five_hearts] == (4, 3, 4, 4)
    # Italian: columns grow the same way as foundations, so A♥ may hold K♠, which holds Q♥ ... up to 8♥:
    # the hearts would have to reach 8♥ before A♥, which never happens, so an Ace is never played blindly
    ace_hearts = 2 * 16 + 1
    assert _tables(ITALIAN).threshold[ace_hearts][2] == ITALIAN.ranks.index("8")


def test_talon_reach_covers_draw_three_and_limited_passes():
    first, ops = talon_reach(7, 0, 0, 3, None)
    assert set(first) == {2, 5, 6}
    assert ops[5] == ["draw", "draw"]
    first, _ = talon_reach(4, 4, 0, 1, 1)  # one pass, stock empty: only the waste top
    assert set(first) == {3}
    first, ops = talon_reach(4, 2, 0, 1, 2)  # a second pass brings the first cards back
    assert set(first) == {0, 1, 2, 3} and ops[0] == ["draw", "draw", "recycle", "draw"]
