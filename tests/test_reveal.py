"""The expert's reveal-point method (``solitaire.reveal``): paths that show nothing, then one move that shows a
card; sampled layouts shared by every point; plans followed only while the game is where they expected; and
never a face-down card read."""
import random

import pytest
from helpers import make
from test_expert import lockstep, shuffled_hidden

from solitaire import ITALIAN, KLONDIKE, SOLIJOY, Game, Move, apply, deal, legal_moves, observe
from solitaire.expert import ExpertStrategy, settings_text
from solitaire.knowledge import Memory, sample_layout
from solitaire.reveal import (SEARCHES, RevealPlanner, best_reveal_point, reveal_points, seen_key, shows_a_card,
                              ucb_reveal_point)
from solitaire.solver import solve
from solitaire.strategies import play_game
from solitaire.notation import move_from_text

SMALL = dict(method="reveal", budget=6, max_nodes=300, max_states=300, max_points=6)


def knowledge_and_carrier(p, seed=0):
    k = Memory().update(observe(p))
    return k, sample_layout(k, random.Random(seed))


@pytest.mark.parametrize("variant", [KLONDIKE, SOLIJOY, ITALIAN], ids=lambda v: v.name)
@pytest.mark.parametrize("seed", [1, 4, 7])
def test_every_point_shows_nothing_until_its_last_move_on_every_layout(variant, seed):
    p = deal(variant, seed)
    k, carrier = knowledge_and_carrier(p)
    points = reveal_points(k, carrier, legal_moves(carrier), {seen_key(carrier)}, max_states=400, max_points=8)
    assert points, "a deal always has a card to turn up somewhere"
    for point in points:
        for layout in (carrier, sample_layout(k, random.Random(99)), p):  # the true deal is just another layout
            q = layout
            for m in point.path:
                assert m in legal_moves(q)
                r = apply(q, m)
                assert not shows_a_card(k, q, m, r) and observe(r) == observe(apply(carrier_at(carrier, point, m), m))
                q = r
            assert point.reveal in legal_moves(q) and shows_a_card(k, q, point.reveal, apply(q, point.reveal))


def carrier_at(carrier, point, move):
    """The carrier played along ``point`` up to ``move`` (exclusive): where the path stands before it."""
    q = carrier
    for m in point.path:
        if m == move:
            return q
        q = apply(q, m)
    return q


def test_a_path_never_goes_back_to_a_position_already_played():
    p = deal(KLONDIKE, 3)
    k, carrier = knowledge_and_carrier(p)
    after_draw = apply(carrier, Move("draw"))
    seen = {seen_key(carrier), seen_key(after_draw)}
    for point in reveal_points(k, carrier, legal_moves(carrier), seen, max_states=400):
        q = carrier
        for m in point.path:
            q = apply(q, m)
            assert seen_key(q) not in seen


def test_draws_of_a_stock_already_watched_show_nothing():
    g = Game("klondike", seed=1)
    for _ in range(24):
        g.play("draw")
    memory = Memory()
    for q in [g.start]:
        memory.update(observe(q))
    k = None
    p = g.start
    for m in g.moves:
        p = apply(p, m)
        k = memory.update(observe(p))
    recycled = apply(g.position, Move("recycle"))
    k = memory.update(observe(recycled))
    assert None not in k.stock  # the stock was watched as it went to the waste
    drawn = apply(recycled, Move("draw"))
    assert not shows_a_card(k, recycled, Move("draw"), drawn)
    fresh = Memory().update(observe(deal(KLONDIKE, 1)))
    assert shows_a_card(fresh, deal(KLONDIKE, 1), Move("draw"), apply(deal(KLONDIKE, 1), Move("draw")))


def test_sequential_halving_spends_about_its_budget_on_shared_layouts():
    p = deal(KLONDIKE, 5)
    k, carrier = knowledge_and_carrier(p)
    points = reveal_points(k, carrier, legal_moves(carrier), {seen_key(carrier)}, max_states=400, max_points=6)
    assert len(points) >= 2
    best, trial = best_reveal_point(k, points, random.Random(0), budget=12, max_nodes=200)
    assert 0 <= best < len(points)
    assert trial.solves <= 12 + len(points)  # each round spends its share, at least one layout a point
    assert all(len(r) <= len(trial.layouts) for r in trial.results)
    won = [trial.wins(i) / len(trial.results[i]) for i in range(len(points)) if trial.results[i]]
    assert trial.wins(best) / len(trial.results[best]) == max(
        trial.wins(i) / len(trial.results[i]) for i in range(len(points)) if len(trial.results[i]) == len(trial.results[best]))
    assert won


def test_ucb_spends_its_plays_on_the_close_points_and_answers_a_well_played_leader():
    p = deal(KLONDIKE, 5)
    k, carrier = knowledge_and_carrier(p)
    points = reveal_points(k, carrier, legal_moves(carrier), {seen_key(carrier)}, max_states=400, max_points=6)
    assert len(points) >= 3
    best, trial = ucb_reveal_point(k, points, random.Random(0), budget=40, max_nodes=300, options=SEARCHES["full"])
    plays = [len(r) for r in trial.results]
    assert sum(plays) == 40 and min(plays) >= 2 and max(plays) <= len(trial.layouts)  # shared layouts, every point tried
    assert trial.solves <= 40  # a layout whose path wins needs no solve
    share = [trial.wins(i) / plays[i] for i in range(len(points))]
    assert 2 * plays[best] >= max(plays)  # a point tried twice is not trusted over one tried far more
    assert share[best] == max(share[i] for i in range(len(points)) if 2 * plays[i] >= max(plays))
    if max(share) > min(share):  # a hopeless point gets fewer plays than the leader
        assert plays[share.index(min(share))] <= plays[best]
    again = ucb_reveal_point(k, points, random.Random(0), budget=40, max_nodes=300, options=SEARCHES["full"])
    assert again[0] == best and again[1].results == trial.results  # seeded: the same layouts, the same answer


def test_the_search_and_the_choice_are_settings_recorded_only_when_they_differ_from_the_earlier_games():
    earlier = settings_text(search="plain", choose="halving")
    assert "search=" not in earlier and "choose=" not in earlier  # the shipped games' settings read as they did
    assert "search=full" in settings_text(search="full") and "choose=ucb" in settings_text(choose="ucb")
    assert "choose=" not in settings_text(method="hop", choose="ucb")  # a reveal-method setting
    for bad in (dict(search="psychic"), dict(choose="best")):
        with pytest.raises(ValueError, match="search must be one of plain, full"):
            ExpertStrategy(**bad)
    record = play_game(KLONDIKE, 2, ExpertStrategy(2, search="full", choose="ucb", **SMALL), max_moves=2000)
    again = play_game(KLONDIKE, 2, ExpertStrategy(2, search="full", choose="ucb", **SMALL), max_moves=2000)
    assert record.outcome in ("won", "lost") and (again.outcome, again.moves) == (record.outcome, record.moves)


@pytest.mark.parametrize("variant", [KLONDIKE, ITALIAN], ids=lambda v: v.name)
def test_positions_that_look_the_same_get_the_same_moves_with_reveal_points(variant):
    a = deal(variant, 3)
    b = shuffled_hidden(a, 1)
    assert observe(a) == observe(b) and a.columns != b.columns
    assert lockstep(a, b, seed=5, scout=False, **SMALL) >= 1
    assert lockstep(a, b, seed=5, **SMALL) >= 1


def test_a_plan_is_followed_while_the_game_is_where_it_expected_and_dropped_otherwise():
    planner = RevealPlanner(budget=4, max_nodes=200, max_states=300, max_points=4, per_reveal=2, exact_nodes=1000)
    p = make(KLONDIKE, ["K♣ Q♥", "K♠", "J♣", "5♦ 6♥"], hidden=[0, 0, 0, 1], stock="2♣ 3♣", foundations=["A♥"])
    obs = observe(p)
    planner.watch(obs, True)
    k = Memory().update(obs)
    planner.plan = [(move_from_text("t1>t2"), seen_key(p))]
    assert planner.next_move(obs, legal_moves(p)) == move_from_text("t1>t2")
    planner.plan = [(move_from_text("t1>t2"), seen_key(apply(p, Move("draw"))))]
    assert planner.next_move(obs, legal_moves(p)) is None and planner.plan == []
    assert k.unknown_slots == 3


def test_with_every_card_known_the_expert_solves_and_follows_the_line():
    p = make(KLONDIKE, ["K♣ Q♥", "J♠", "K♦ Q♣", "K♥ Q♠", "K♠", "Q♦"], hidden=[0, 0, 0, 0, 0, 1],
             foundations=["A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠", "A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥",
                          "A♦ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦", "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣"],
             stock="")
    assert Memory().update(observe(p)).unknown_slots == 1  # the one face-down card is known by elimination
    expert = ExpertStrategy(0, **SMALL)
    record_moves = []
    while legal_moves(p) and not p.on_foundations() == 52:
        m = expert.choose(observe(p), legal_moves(p))
        record_moves.append((m, expert.last[1].how))
        p = apply(p, m)
    assert p.on_foundations() == 52
    assert {"solved", "planned", "safe", "only"} >= {how for _, how in record_moves}


def test_a_start_with_two_face_down_tops_solves_and_replays():
    # after moves that show nothing, two columns may wait for their flip at once; the solver's replay turns
    # both up (it once turned the second up a second time, and called its own line illegal)
    rest = " ".join(f"{r}{s}" for r in "A 2 3 4 5 6 7 8 9 10 J".split() for s in "♠♣")
    p = make(KLONDIKE, ["Q♦ K♥", "Q♥ K♦", "K♠ Q♣ ", "K♣ Q♠"], hidden=[2, 2, 0, 0], stock="",
             foundations=["A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥", "A♦ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦"],
             waste=rest)
    assert [m for m in legal_moves(p) if m.kind == "flip"] == [move_from_text("flip t1"), move_from_text("flip t2")]
    r = solve(p, max_nodes=5000)
    assert r.status == "won" and r.moves[:2] == [move_from_text("flip t1"), move_from_text("flip t2")]
    g = Game.from_position(p)
    for m in r.moves:
        g.play(m)
    assert g.is_won()


def test_reveal_games_end_are_seeded_and_record_their_settings():
    for variant in (KLONDIKE, ITALIAN):
        record = play_game(variant, 2, ExpertStrategy(2, **SMALL), max_moves=2000)
        assert record.outcome in ("won", "lost")
        again = play_game(variant, 2, ExpertStrategy(2, **SMALL), max_moves=2000)
        assert (again.outcome, again.moves) == (record.outcome, record.moves)
    assert settings_text().startswith("method=reveal ") and "samples=" not in settings_text()
    assert "budget=" not in settings_text(method="hop") and "samples=20" in settings_text(method="hop")
    with pytest.raises(ValueError, match="method"):
        ExpertStrategy(method="psychic")
    with pytest.raises(ValueError, match="budget"):
        ExpertStrategy(method="reveal", budget=0)


def test_where_a_complete_search_found_nothing_to_show_the_planner_answers_at_once_and_rightly(monkeypatch):
    # Klondike draw 3, deal 0: the expert soon reaches positions from which no move can ever show a card
    from dataclasses import replace

    from solitaire import reveal
    answered, decide = [], RevealPlanner.decide

    def checked(self, k, moves, rng):
        if reveal._observed_key(k.obs) in self.dead.get(reveal._unchanged(k), ()):
            carrier = sample_layout(k, random.Random(len(answered)))
            full = reveal.search_reveals(k, carrier, moves, self.seen, self.max_states, self.max_points,
                                         self.per_reveal)
            assert full.points == [], "a position kept as a dead end has a reveal point"
            answered.append(k.obs)
        return decide(self, k, moves, rng)

    monkeypatch.setattr(RevealPlanner, "decide", checked)
    record = play_game(replace(KLONDIKE, draw=3), 0, ExpertStrategy(0))
    assert len(answered) >= 3 and record.outcome == "lost"
