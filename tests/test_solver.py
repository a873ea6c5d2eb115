"""The perfect-information solver: its wins replay, its proofs of unwinnability are sound on built cases."""
from dataclasses import replace

import pytest
from helpers import make

from solitaire import ITALIAN, KLONDIKE, SOLIJOY, Game, Move
from solitaire.moves import is_won
from solitaire.solver import SolveResult, SolverOptions, _tables, solve, talon_reach

DRAW3_BACK = replace(KLONDIKE, name="Klondike draw 3, cards back", draw=3, foundation_to_tableau=True)

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
    assert r.status == "unwinnable" and r.moves == [] and r.nodes == 0  # seen at once: 2♥ is walled in
    searched = solve(p, max_seconds=10, options=SolverOptions(walled_in_check=False))
    assert searched.status == "unwinnable" and searched.nodes > 0
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
    assert r.status == "unknown" and r.moves == [] and r.nodes == 50


@pytest.mark.parametrize("variant", [KLONDIKE, SOLIJOY, replace(KLONDIKE, name="d3", draw=3, foundation_to_tableau=True)])
@pytest.mark.parametrize("max_nodes", [1, 2, 255, 256, 257, 3001, 4000])
def test_max_nodes_is_exact(variant, max_nodes):
    """The search expands exactly max_nodes states before it gives up (probe and best-first together)."""
    seed = {KLONDIKE: 104, SOLIJOY: 2}.get(variant, 0)
    r = solve(Game(variant, seed), max_seconds=None, max_nodes=max_nodes)
    assert r.status == "unknown" and r.nodes == max_nodes


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -1.0, 0, "10", True, [1]])
def test_bad_max_seconds_is_refused(bad):
    with pytest.raises(ValueError, match="max_seconds must be None or a finite number of seconds > 0"):
        solve(Game(KLONDIKE, 1), max_seconds=bad)


@pytest.mark.parametrize("bad", [0, -5, 1.5, float("inf"), float("nan"), "100", True])
def test_bad_max_nodes_is_refused(bad):
    with pytest.raises(ValueError, match="max_nodes must be None or a whole number >= 1"):
        solve(Game(KLONDIKE, 1), max_nodes=bad)


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="SolverOptions"):
        solve(Game(KLONDIKE, 1), options={"safe_foundation_moves": False})


@pytest.mark.parametrize("passes", [float("inf"), 2.5, 0])
def test_a_variant_with_impossible_passes_is_refused(passes):
    """Whether the Variant itself or the solver refuses it, the answer is a clear ValueError, not a hang."""
    with pytest.raises(ValueError, match="passes"):
        v = replace(KLONDIKE, name="odd", passes=passes)
        solve(Game(v, 1), max_seconds=5)


def test_a_huge_number_of_passes_still_ends():
    v = replace(KLONDIKE, name="many passes", passes=10 ** 9)
    first, _ = talon_reach(24, 5, 0, 3, 10 ** 9)  # the walk over the stock ends after two recycles
    assert set(first) == set(talon_reach(24, 5, 0, 3, None)[0])
    r = solve(Game(v, 104), max_seconds=None, max_nodes=2000)
    assert r.status == "unknown" and r.nodes == 2000
    game = Game(v, 3)
    won = solve(game, max_seconds=30)
    assert won.status == "won" and replays_to_a_win(game, won)
    # so many passes can never run out (a line needs at most 2 recycles per talon card): the search is the
    # one of unlimited passes, and it ends without any budget
    unlimited = solve(Game(KLONDIKE, 90), max_seconds=None)
    found = solve(Game(v, 90), max_seconds=None, max_nodes=None)
    assert (found.status, found.nodes) == (unlimited.status, unlimited.nodes) == ("unwinnable", unlimited.nodes)


def test_the_passes_the_search_models():
    from solitaire.solver.tables import model_passes
    assert model_passes(KLONDIKE) is None
    assert model_passes(replace(KLONDIKE, name="three", passes=3)) == 3
    assert model_passes(replace(KLONDIKE, name="many", passes=105)) is None  # 104 recycles left: enough
    assert model_passes(replace(KLONDIKE, name="many", passes=105), recycles_used=1) == 105


@pytest.mark.parametrize("switch", ["columns_as_a_set", "loose_columns", "safe_foundation_moves",
                                    "skip_useless_preparations", "use_right_after", "walled_in_check",
                                    "waste_dominance", "safe_talon_end"])
def test_each_pruning_idea_can_be_turned_off_without_changing_answers(switch):
    off = SolverOptions(**{switch: False})
    for variant, seed in [(KLONDIKE, 3), (KLONDIKE, 90), (DRAW3_BACK, 150), (ITALIAN, 1), (ITALIAN, 2)]:
        game = Game(variant, seed)
        on_result = solve(game, max_seconds=60)
        off_result = solve(game, max_seconds=60, options=off)
        assert off_result.status == on_result.status != "unknown"
        if off_result.status == "won":
            assert replays_to_a_win(game, off_result)


@pytest.mark.parametrize("switch, variant, seed", [("safe_foundation_moves", KLONDIKE, 21),
                                                  ("skip_useless_preparations", KLONDIKE, 21),
                                                  ("use_right_after", ITALIAN, 2),
                                                  ("columns_as_a_set", ITALIAN, 2),
                                                  ("loose_columns", DRAW3_BACK, 150),
                                                  ("waste_dominance", DRAW3_BACK, 40),
                                                  ("safe_talon_end", DRAW3_BACK, 6)])
def test_turning_a_pruning_idea_off_costs_states(switch, variant, seed):
    """Lesson 07 measures these savings: on these deals each idea saves states, and the answer stays."""
    game = Game(variant, seed)
    on_result = solve(game, max_seconds=None, max_nodes=300_000)
    off_result = solve(game, max_seconds=None, max_nodes=300_000, options=SolverOptions(**{switch: False}))
    assert off_result.status == on_result.status != "unknown"
    assert off_result.nodes > on_result.nodes


def test_waste_dominance_keeps_an_unwinnable_proof_and_saves_states():
    """Draw 3 with cards back, deal 40: proved unwinnable either way, in 2,216 states with it and 2,761
    without (2,910 and 3,291 before loose keys; before the restarts handed on lost states, the proof without
    it took 6,439)."""
    game = Game(DRAW3_BACK, 40)
    on_result = solve(game, max_seconds=None, max_nodes=100_000)
    off_result = solve(game, max_seconds=None, max_nodes=100_000, options=SolverOptions(waste_dominance=False))
    assert on_result.status == off_result.status == "unwinnable"
    assert (on_result.nodes, off_result.nodes) == (2216, 2761)


def test_depth_first_restarts_find_two_deck_wins_a_single_run_misses():
    """SoliJoy deal 15: the natural move order spends 20,000 states under a bad early move and finds nothing;
    the first restart with a shuffled order (seeded, so the same every time) wins, and the line replays."""
    from solitaire.solver.search import Budget, OutOfBudget
    game = Game(SOLIJOY, 15)
    r = solve(game, max_seconds=None, max_nodes=20_000)
    assert r.status == "won" and r.nodes < 6000 and replays_to_a_win(game, r)
    assert solve(game, max_seconds=None, max_nodes=20_000).nodes == r.nodes  # reproducible
    from solitaire.solver import SolverOptions as Options, _Solver
    solver = _Solver(_tables(SOLIJOY), Options().for_variant(SOLIJOY))
    state, _ = solver.codec.from_position(game.position)
    state = solver.safe.settle(*state, [])
    single = solver.search(Budget(20_000, None))
    single.seen.add(solver.codec.key(state))
    with pytest.raises(OutOfBudget):
        single.dfs(state)


def test_the_solver_package_doctests():
    import doctest
    import importlib
    for name in ["solitaire.solver", "solitaire.solver.stock"]:
        failures, _ = doctest.testmod(importlib.import_module(name))
        assert failures == 0, name


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


# --- against an exhaustive search over the real rules ------------------------------------------------------
def exhaustive(p, limit: int, forget_recycles: bool = False):
    """"won"/"unwinnable" by trying every legal move of the rules core (no pruning), None past ``limit``;
    ``forget_recycles``: positions that differ only in the recycles used are one (right with unlimited passes)."""
    from solitaire.moves import apply, legal_moves

    def key(q):
        return q._replace(recycles=0) if forget_recycles else q

    seen, todo = {key(p)}, [p]
    while todo:
        q = todo.pop()
        if is_won(q):
            return "won"
        for m in legal_moves(q):
            r = apply(q, m)
            if key(r) not in seen:
                if len(seen) >= limit:
                    return None
                seen.add(key(r))
                todo.append(r)
    return "unwinnable"


def wandered(variant, seed: int, moves: int):
    """The position after ``moves`` random legal moves from deal ``seed`` (seeded, so always the same)."""
    import random

    from solitaire import deal
    from solitaire.moves import apply, legal_moves
    rng = random.Random(seed)
    p = deal(variant, seed)
    for _ in range(moves):
        choices = legal_moves(p)
        if not choices:
            break
        p = apply(p, rng.choice(choices))
    return p


def italian_cases(variant, seeds, moves: int, limit: int = 20_000):
    """(exhaustive answer, solver answer) for the positions where the exhaustive search ends."""
    cases = []
    for seed in seeds:
        p = wandered(variant, seed, moves)
        truth = exhaustive(p, limit)
        if truth is not None:
            cases.append((truth, solve(p, max_seconds=None, max_nodes=200_000).status))
    return cases


def test_the_solver_agrees_with_an_exhaustive_search_on_small_positions():
    """Every pruning rule keeps a win if there is one, and never invents one: on Italian positions small
    enough to search without any pruning, the answers are the same."""
    cases = italian_cases(ITALIAN, range(40), 60)
    assert {truth for truth, _ in cases} == {"won", "unwinnable"}
    assert all(truth == found for truth, found in cases), cases


STRICT_ITALIAN = replace(ITALIAN, name="Italian, draw only when stuck", draw_only_when_stuck=True)


def test_the_strict_draw_rule_is_honoured():
    """With draw_only_when_stuck the solver draws only where the rules allow it (the replay checks every
    draw with the rules core), and the rule can turn a win into a loss: deal 6 needs a draw while a card
    could still be played."""
    for seed in range(6):
        game = Game(STRICT_ITALIAN, seed)
        r = solve(game, max_seconds=30)
        assert r.status != "unknown"
        if r.status == "won":
            assert replays_to_a_win(game, r)
    assert solve(Game(ITALIAN, 6), max_seconds=30).status == "won"
    assert solve(Game(STRICT_ITALIAN, 6), max_seconds=30).status == "unwinnable"


def test_the_solver_agrees_with_an_exhaustive_search_under_the_strict_draw_rule():
    cases = italian_cases(STRICT_ITALIAN, range(30), 60)
    assert {truth for truth, _ in cases} == {"won", "unwinnable"}
    assert all(truth == found for truth, found in cases), cases


def test_the_klondike_solver_benchmark_gives_both_solvers_the_same_deal():
    """Klondike-Solver's reader silently keeps its default deck on a short layout: the benchmark pads it and
    checks the return value; the deal Klondike-Solver then holds is the one the kit reads."""
    pyksolve = pytest.importorskip("pyksolve.solver")
    pytest.importorskip("pysol_cards")
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).parent.parent / "benchmarks" / "bench_vs_ksolve.py"
    spec = importlib.util.spec_from_file_location("bench_vs_ksolve", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    layout = bench.pysol_layout(5)
    s = pyksolve.Solitaire()
    assert not s.load_pysol(layout)  # too short for it as PySolFC prints it
    assert s.load_pysol(layout + "\n" * 16)
    s.reset_game(3)
    diagram = s.game_diagram_pysol().splitlines()
    assert diagram[1].split()[2:-1] == layout.splitlines()[0].split()[1:]  # the stock, in the same order
    assert [line.split()[1:] for line in diagram[2:9]] == [line.split() for line in layout.splitlines()[1:8]]
    game = Game.from_pysol(layout)
    assert game.to_pysol() == layout
    row = bench.ksolve_row(3, 5, layout, 200_000)
    assert row["status"] in ("won", "unwinnable", "unknown")


def test_restarts_that_hand_on_lost_states_agree_with_an_exhaustive_search(monkeypatch):
    """With a probe of 20 states, the small Italian positions go through many depth-first restarts that skip
    the states earlier runs proved lost, and best-first turns that skip them too: every answer still agrees
    with a search of the real rules without any pruning."""
    import solitaire.solver.restarts as restarts
    monkeypatch.setattr(restarts, "PROBE_NODES", 20)
    cases = italian_cases(ITALIAN, range(40), 60)
    assert {truth for truth, _ in cases} == {"won", "unwinnable"}
    assert all(truth == found for truth, found in cases), cases


def test_restarts_keep_a_proof_about_as_cheap_as_one_depth_first_run(monkeypatch):
    """Klondike deal 994 with cards back from the foundations is unwinnable. Restarted depth-first runs skip
    what earlier runs proved lost, so the proof costs at most a tenth more states than one depth-first run
    that is never restarted, besides best-first's first slice (26,842 states against 17,276; without that
    hand-on, each restart would search the deal afresh). Measured without loose keys, which prove this deal
    lost in under 9,000 states, too few for several restarts."""
    import solitaire.solver.restarts as restarts
    game = Game(replace(KLONDIKE, name="Klondike, cards back", foundation_to_tableau=True), 994)
    first_run = restarts.PROBE_NODES
    before = SolverOptions(loose_columns=False)
    restarted = solve(game, max_seconds=None, max_nodes=200_000, options=before)
    monkeypatch.setattr(restarts, "PROBE_NODES", 10**9)
    single = solve(game, max_seconds=None, max_nodes=200_000, options=before)
    assert restarted.status == single.status == "unwinnable"
    assert single.nodes > 4 * first_run  # so the restarted search went through several restarts
    assert restarted.nodes <= 1.1 * single.nodes + restarts.FIRST_BEST_FIRST


# --- loose keys (``encoding.StateCodec.loose_columns``) -----------------------------------------------------
KLONDIKE_32 = replace(KLONDIKE, name="Klondike, 32 cards", ranks=("A", "2", "3", "4", "5", "6", "7", "8"),
                      empty_column_ranks=("8",), columns=(1, 2, 3, 4, 5, 6))


def test_loose_keys_apply_where_their_proof_holds():
    from solitaire.solver.tables import tables_for
    assert tables_for(KLONDIKE).parents_interchangeable and tables_for(DRAW3_BACK).parents_interchangeable
    assert tables_for(KLONDIKE_32).parents_interchangeable
    assert not tables_for(ITALIAN).parents_interchangeable  # any card may start an empty column
    assert not tables_for(SOLIJOY).parents_interchangeable


def test_a_move_within_a_class_of_loose_keys_is_followed():
    """Here every win starts by moving 5♥ 4♠ from 6♣ onto 6♠: a move that keeps the loose key, so the
    search once skipped it as already seen and called the position unwinnable. The search now gathers the
    uses of such moves (``Search.children``)."""
    p = wandered(KLONDIKE_32, 14, 150)
    assert exhaustive(p, 20_000) == "won"
    r = solve(p, max_seconds=None, max_nodes=10_000)
    assert r.status == "won"
    from solitaire.moves import apply
    for move in r.moves:
        p = apply(p, move)
    assert is_won(p)


def test_loose_keys_agree_with_an_exhaustive_search_on_small_klondike_positions():
    cases = []
    for seed in range(40):
        p = wandered(KLONDIKE_32, seed, 200)
        truth = exhaustive(p, 30_000)
        if truth is not None:
            cases.append((truth, solve(p, max_seconds=None, max_nodes=200_000).status))
    assert len(cases) >= 15
    assert all(truth == found for truth, found in cases), cases


def test_loose_keys_agree_with_an_exhaustive_search_with_draw_3():
    """With draw 3 the search drops the restriction after a preparing move, so a class gathers only "a freed
    card goes up" (``Search.children``); two passes give lost positions as well as won ones."""
    cases = []
    for passes, moves in ((2, 60), (None, 300)):
        variant = replace(KLONDIKE_32, name="Klondike, 32 cards, draw 3", draw=3, passes=passes)
        for seed in range(40):
            p = wandered(variant, seed, moves)
            truth = exhaustive(p, 30_000)
            if truth is not None:
                cases.append((truth, solve(p, max_seconds=None, max_nodes=200_000).status))
    assert len(cases) >= 40 and {truth for truth, _ in cases} == {"won", "unwinnable"}
    assert all(truth == found for truth, found in cases), cases


def test_a_loose_key_forgets_which_parent_a_card_sits_on_and_nothing_else():
    """Two columns over face-down cards, 7♠ and 7♣, hold the two red sixes: 6♥ (with 5♣ on it) on one,
    6♦ on the other. Trading the sixes (each with its build) keeps the loose key, so does moving the lone 5♣ to
    the other free six; a different card over the face-down ones does not."""
    from solitaire.cards import card
    from solitaire.solver.encoding import StateCodec
    from solitaire.solver.tables import tables_for
    c = {f"{rank}{'CDHS'[suit]}": int(card(rank, suit)) for rank in ("2", "3", "5", "6", "7") for suit in range(4)}
    heights = bytes(4)

    def state(*columns):
        return (tuple(bytes((1,)) + bytes(c[x] for x in col) for col in columns), heights, b"", 0, 0)

    loose = StateCodec(tables_for(KLONDIKE))
    exact = StateCodec(tables_for(KLONDIKE), loose_columns=False)
    start = state(["2C", "7S", "6H", "5C"], ["3C", "7C", "6D"])
    traded = state(["2C", "7S", "6D"], ["3C", "7C", "6H", "5C"])
    moved = state(["2C", "7S", "6H"], ["3C", "7C", "6D", "5C"])
    other_base = state(["2C", "6H", "5C"], ["3C", "7C", "6D", "7S"])
    assert loose.key(start) == loose.key(traded) == loose.key(moved) != loose.key(other_base)
    assert len({exact.key(s) for s in (start, traded, moved)}) == 3


# --- the end of the talon (``pruning.SafeMoves``, ``safe_talon_end``) ------------------------------------------
def late_position(variant, seed: int):
    """A seeded position late in a game: each suit's foundation at a random height, the other cards shuffled
    into a talon of 3-9 cards (the waste at a random place) and columns of face-down cards under one face-up
    card (so that every face-up run is a build, as in a real game)."""
    import random

    from solitaire.cards import card
    from solitaire.state import Position
    rng = random.Random(seed)
    ranks = variant.ranks
    heights = [rng.randint(1, len(ranks) - 1) for _ in range(4)]
    foundations = tuple(tuple(card(r, s) for r in ranks[:h]) for s, h in enumerate(heights))
    rest = [card(r, s) for s in range(4) for r in ranks[heights[s]:]]
    rng.shuffle(rest)
    k = rng.randint(3, min(9, len(rest) - 2))
    talon, rest = rest[:k], rest[k:]
    columns: list[list] = [[] for _ in variant.columns]
    for c in rest:
        columns[rng.randrange(len(columns))].append(c)
    in_waste = min(k, rng.choice([0, 3, 6, k, rng.randint(0, k)]))
    return Position(variant, tuple(reversed(talon[in_waste:])), tuple(talon[:in_waste]), foundations,
                    tuple(map(tuple, columns)), tuple(max(0, len(c) - 1) for c in columns))


def talon_end_fires(p) -> bool:
    """Does settling the position play the last talon card up (the rule, at the root of the search)?"""
    from solitaire.solver import _Solver
    solver = _Solver(_tables(p.variant), SolverOptions().for_variant(p.variant))
    autos: list = []
    solver.safe.settle(*solver.codec.from_position(p)[0], autos)
    return any(m[0] == "wf" for m in autos)


def test_the_end_of_the_talon_agrees_with_an_exhaustive_search():
    """Late positions of a 32-card Klondike with draw 3 (small enough to search every legal move): where the
    last talon card is safe and the waste on the draw cycle the search plays it up at once, and every answer
    is the exhaustive search's; with the rule off too."""
    variant = replace(KLONDIKE_32, name="Klondike, 32 cards, draw 3", draw=3)
    cases, fired = [], 0
    for seed in range(120):
        p = late_position(variant, seed)
        truth = exhaustive(p, 30_000, forget_recycles=True)
        if truth is None:
            continue
        fired += talon_end_fires(p)
        on = solve(p, max_seconds=None, max_nodes=200_000)
        off = solve(p, max_seconds=None, max_nodes=200_000, options=SolverOptions(safe_talon_end=False))
        cases.append((truth, on.status, off.status))
        if on.status == "won":
            from solitaire.moves import apply
            q = p
            for move in on.moves:
                q = apply(q, move)
            assert is_won(q)
    assert len(cases) >= 60 and fired >= 10 and {truth for truth, _, _ in cases} == {"won", "unwinnable"}
    assert all(truth == on == off for truth, on, off in cases), cases


def test_the_end_of_the_talon_needs_the_draw_cycle_and_a_safe_card():
    """32 cards: every red card up but the 8s, clubs up to 4, spades up to 6; talon 8♣ 7♠ (7♠ last), 7♠ safe.
    With the waste empty (on the draw cycle) 7♠ goes up at once (after the safe column cards); with 8♣ in the
    waste (off the cycle) it does not; with spades up to 5 (6♠ face down under 8♠) it is not wanted; with draw 1
    the rule does not apply."""
    from solitaire.cards import parse_card
    from solitaire.state import Position

    def cards(text):
        return tuple(parse_card(x) for x in text.split())

    def position(variant, stock, waste, spades=6):
        foundations = (cards("A♣ 2♣ 3♣ 4♣"), cards("A♦ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦"), cards("A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥"),
                       cards("A♠ 2♠ 3♠ 4♠ 5♠ 6♠")[:spades])
        third = cards("8♠") if spades == 6 else cards("6♠ 8♠")
        columns = (cards("8♥"), cards("8♦"), third, cards("7♣ 6♣"), cards("5♣"), ())
        p = Position(variant, cards(stock), cards(waste), foundations, columns, (0, 0, len(third) - 1, 1, 0, 0))
        assert len(p.cards()) == 32
        return p

    draw3 = replace(KLONDIKE_32, name="Klondike, 32 cards, draw 3", draw=3)
    assert talon_end_fires(position(draw3, "7♠ 8♣", ""))
    assert not talon_end_fires(position(draw3, "7♠", "8♣"))
    assert not talon_end_fires(position(draw3, "7♠ 8♣", "", spades=5))
    assert not talon_end_fires(position(replace(draw3, name="draw 1", draw=1, passes=2), "7♠ 8♣", ""))
    assert solve(position(draw3, "7♠ 8♣", ""), max_nodes=10).status == "won"
