"""The end of the game (solitaire.endgame): its vocabulary, its cache, and the strict Italian draw rule."""
import random
from dataclasses import replace

import pytest
from helpers import cards, make

from solitaire import ITALIAN, KLONDIKE, SOLIJOY, Game, IllegalMoveError, Move, endgame
from solitaire.endgame import (LOST, MOVE_LIMIT, NO_MORE_MOVES, OUTCOMES, REASONS, STATUSES, UNKNOWN, UNWINNABLE,
                               WON, over_reason, progress_possible, safe_foundation_moves, safe_to_foundation)
from solitaire.explain import explain_illegal
from solitaire.moves import DRAW, RECYCLE, apply, foundation_wants, legal_moves, makes_progress
from solitaire.notation import move_from_text, variant_from_text, variant_to_text
from solitaire.state import deal


def moves_of(p):
    return {str(m) for m in legal_moves(p)}


# --- one vocabulary ------------------------------------------------------------------------------
def test_one_vocabulary_for_how_a_game_ends():
    assert REASONS == ("won", "no more moves") and OUTCOMES == ("won", "lost", "move limit")
    assert STATUSES == ("won", "unwinnable", "unknown")
    assert (WON, NO_MORE_MOVES, LOST, MOVE_LIMIT, UNWINNABLE, UNKNOWN) == (
        "won", "no more moves", "lost", "move limit", "unwinnable", "unknown")
    from solitaire import strategies
    assert strategies.OUTCOMES is OUTCOMES


# --- the foundations' next cards and safe foundation moves ---------------------------------------
def test_foundation_wants_names_each_next_card_with_its_first_foundation():
    p = make(SOLIJOY, ["K♠"], foundations=["A♥ 2♥", "", "A♥"])
    wants = foundation_wants(p)
    assert wants[cards("3♥")[0]] == 0 and wants[cards("2♥")[0]] == 2  # the twin foundation takes 2♥
    assert {str(c) for c, f in wants.items() if f == 1} == {"A♣", "A♦", "A♥", "A♠"}  # the first empty one


def test_safe_foundation_moves_keep_cards_that_a_column_may_still_need():
    p = make(KLONDIKE, ["2♥", "A♠"], foundations=["A♥", "A♣"])
    # The cards that may sit on 2♥ in a column are A♣ and A♠: A♣ is home, A♠ is not yet.
    assert not safe_to_foundation(p, cards("2♥")[0])
    assert [str(m) for m in safe_foundation_moves(p)] == ["t2>f"]
    q = apply(p, move_from_text("t2>f"))
    assert [str(m) for m in safe_foundation_moves(q)] == ["t1>f"]


# --- the cache (issue 14, part 1) -----------------------------------------------------------------
def _reproducer(stock: str):
    v = replace(KLONDIKE, draw=3)
    founds = [" ".join(f"{r}{s}" for r in KLONDIKE.ranks) for s in "♣♦♠"] + ["A♥ 2♥ 3♥ 4♥"]
    return make(v, ["K♥", "Q♥", "J♥", "10♥", "9♥", "8♥", "7♥"], foundations=founds, stock=stock)


def test_the_end_check_cache_tells_apart_stock_orders_of_one_variant():
    dead = _reproducer("6♥ 5♥")  # bottom first: the one draw shows 6♥ on top, which fits nowhere
    alive = _reproducer("5♥ 6♥")._replace(variant=dead.variant)  # the same Variant object, as in an experiment
    assert alive.variant is dead.variant
    assert over_reason(dead) == NO_MORE_MOVES
    assert over_reason(alive) is None  # the draw shows 5♥, which goes up, then 6♥: winnable
    g = Game.from_position(alive)
    g.play_all(["draw", "w>f", "w>f"] + [f"t{i}>f" for i in range(7, 0, -1)])
    assert g.over_reason() == WON


def _uncached(p) -> bool:
    return any(makes_progress(p, m) for m in legal_moves(p)) or endgame.search.__wrapped__(p, endgame.SEARCH_LIMIT) is not False


VARIANTS_TO_CHECK = [KLONDIKE, SOLIJOY, ITALIAN, replace(KLONDIKE, draw=3), replace(KLONDIKE, draw=3, passes=2),
                     replace(KLONDIKE, foundation_to_tableau=True), replace(ITALIAN, passes=1),
                     replace(ITALIAN, draw_only_when_stuck=True)]


@pytest.mark.parametrize("variant", VARIANTS_TO_CHECK, ids=lambda v: variant_to_text(v))
def test_cached_and_uncached_end_checks_agree_across_games_of_one_variant(variant):
    rng = random.Random(14)
    checked = 0
    for seed in range(12):  # twelve games share the one Variant object, and so the cache
        p = deal(variant, seed)
        for _ in range(300):
            moves = legal_moves(p)
            if not moves:
                break
            if not any(makes_progress(p, m) for m in moves):  # the positions where the search and cache work
                assert progress_possible(p, moves=moves) == _uncached(p), p
                checked += 1
            p = apply(p, rng.choice(moves))
    assert checked > 50


def test_caches_are_bounded_and_keyed_by_variant_value():
    from solitaire.moves import rules
    assert rules.cache_info().maxsize and endgame.search.cache_info().maxsize
    before = rules.cache_info().currsize
    for _ in range(50):
        rules(replace(KLONDIKE, draw=3))  # equal variants made again and again share one entry
    assert rules.cache_info().currsize <= before + 1


# --- the strict Italian draw (issue 14, part 3) ----------------------------------------------------
STRICT = replace(ITALIAN, draw_only_when_stuck=True)


def test_strict_draw_is_refused_while_a_move_that_makes_progress_is_left():
    p = make(STRICT, ["A♠", "K♥"], stock="Q♣ K♣")
    assert "t1>f" in moves_of(p) and "draw" not in moves_of(p)
    g = Game.from_position(p)
    with pytest.raises(IllegalMoveError, match="draw only when no move that makes progress is left, and t1>f"):
        g.play("draw")
    assert g.position == p and not g.moves
    assert "draw" in moves_of(p._replace(variant=ITALIAN))  # the default reading draws at any time


def test_strict_draw_is_allowed_when_only_moves_that_lead_nowhere_are_left():
    # Q♥ can shuttle between the two black kings, which leads nowhere: drawing is allowed.
    p = make(STRICT, ["K♠ Q♥", "K♣"], stock="9♣ 8♣")
    assert moves_of(p) >= {"t1>t2:1", "draw"} or moves_of(p) >= {"t1>t2", "draw"}
    assert explain_illegal(p, Move(DRAW)) is None


def test_strict_recycle_follows_the_same_rule():
    p = make(STRICT, ["A♠", "K♥"], stock="", waste="Q♣ K♣")
    assert "recycle" not in moves_of(p) and "recycle" in moves_of(p._replace(variant=ITALIAN))
    assert "recycle" in explain_illegal(p, Move(RECYCLE))
    q = apply(p, move_from_text("t1>f"))
    assert "recycle" in moves_of(q) or "w>t" in " ".join(moves_of(q))


def test_strict_draw_does_not_change_when_a_game_is_over():
    # Nothing makes progress in either reading here, so both agree on the end: no more moves.
    v = replace(STRICT, columns=(1, 1))
    p = make(v, ["K♠ Q♥", "K♣"], stock="9♣")
    assert over_reason(p) == over_reason(p._replace(variant=replace(ITALIAN, columns=(1, 1))))


def test_strict_draw_round_trips_through_text_and_json():
    assert variant_to_text(STRICT) == "italian draw_only_when_stuck=true"
    assert variant_from_text("italian draw_only_when_stuck=true") == STRICT
    g = Game(STRICT, seed=3)
    g.play(next(m for m in g.legal_moves()))
    assert Game.from_text(g.to_text()).position == g.position
    back = Game.from_json(g.to_json())
    assert back.variant == STRICT and back.moves == g.moves


def test_strategies_honour_the_strict_draw():
    from solitaire.strategies import RandomStrategy, play_game

    class Recorder(RandomStrategy):
        offered: list = []

        def choose(self, obs, moves):
            self.offered.append(list(moves))
            return super().choose(obs, moves)

    rec = Recorder(1)
    records = [play_game(STRICT, seed, rec, max_moves=400) for seed in range(6)]
    draws = [ms for ms in rec.offered if Move(DRAW) in ms]
    assert draws and all(r.outcome in OUTCOMES for r in records)
    strict = [play_game(STRICT, seed, "random").moves for seed in range(20)]
    assert strict != [play_game(ITALIAN, seed, "random").moves for seed in range(20)]  # the rule changes play
    # Greedy ranks every move that makes progress above draw and recycle, so the strict rule never binds it.
    assert [play_game(STRICT, s, "greedy").moves for s in range(10)] == [
        play_game(ITALIAN, s, "greedy").moves for s in range(10)]


def test_strict_legal_moves_never_offer_a_draw_beside_progress():
    rng = random.Random(5)
    for seed in range(30):
        p = deal(STRICT, seed)
        for _ in range(200):
            moves = legal_moves(p)
            if not moves:
                break
            if any(m.kind in (DRAW, RECYCLE) for m in moves):
                assert not any(makes_progress(p, m) for m in moves)
            p = apply(p, rng.choice(moves))


# --- proof that "over" is never wrong (issue 14, part 2) ---------------------------------------------
from exhaustive import late_positions, progress_reachable  # noqa: E402

CHECKED = {"klondike": KLONDIKE, "klondike draw 3": replace(KLONDIKE, draw=3),
           "klondike draw 3, 2 passes": replace(KLONDIKE, draw=3, passes=2),
           "klondike, cards back": replace(KLONDIKE, foundation_to_tableau=True),
           "klondike, build any": replace(KLONDIKE, build="any", empty_column_ranks=None), "solijoy": SOLIJOY,
           "italian": ITALIAN, "italian, 2 passes": replace(ITALIAN, passes=2), "italian strict draw": STRICT}
EXACT = {"klondike", "klondike draw 3", "klondike draw 3, 2 passes", "solijoy", "italian", "italian, 2 passes",
         "italian strict draw"}  # where "goes on" must never be said of a game that is over


@pytest.mark.parametrize("name", CHECKED)
def test_over_reason_agrees_with_an_exhaustive_search_on_late_positions(name):
    positions = late_positions(CHECKED[name], games=6, per_game=3, max_moves=1200, seed=14)
    assert len(positions) >= 10
    verdicts = [(over_reason(p), progress_reachable(p, cap=20_000)) for p in positions]
    assert not [p for p, (said, truth) in zip(positions, verdicts) if said == NO_MORE_MOVES and truth is True]
    if name in EXACT:
        assert not [p for p, (said, truth) in zip(positions, verdicts) if said is None and truth is False]
    assert any(said == NO_MORE_MOVES for said, _ in verdicts) or name.startswith(("solijoy", "klondike, build"))


# --- the quick proof that play can never make progress -------------------------------------------------------
# Late in random game 0 of SoliJoy: no empty column can be made, and builds shuffle between the two decks'
# equal cards; more than 100,000 arrangements are reachable, so the bounded search gives up on it.
STUCK_SOLIJOY = """\
variant: solijoy
recycles: 0
stock: <4♣> <7♣> <K♣> <3♦> <9♦> <J♦> <K♦> <8♥> <10♥> <K♥> <4♠> <5♠> <9♠> <10♠> <Q♠>
waste:
f1: A♣ 2♣ 3♣
f2: A♣
f3: A♠ 2♠ 3♠
f4: A♦ 2♦ 3♦ 4♦ 5♦
f5: A♥ 2♥ 3♥ 4♥ 5♥ 6♥
f6: A♦ 2♦
f7: A♠ 2♠ 3♠
f8:
t1: K♠ Q♦ J♠ 10♥ 9♠ 8♦ 7♠ 6♥ 5♣
t2: Q♣ J♥ 10♣ 9♥ 8♣ 7♥ 6♣ 5♥ 4♣ 3♥
t3: K♥ Q♠ J♦ 10♠ 9♥ 8♠
t4: Q♦ J♣ 10♦ 9♣ 8♥ 7♠
t5: K♠ Q♥
t6: 5♠ 4♦ 3♣ 2♥
t7: 8♣ 7♥ 6♠
t8: <7♦> K♦ Q♣ J♥ 10♣ 9♦ 8♠ 7♦ 6♣
t9: <A♥> <5♦> <J♠> <2♣> <4♠> <6♦> <6♠> K♣ Q♥ J♣ 10♦ 9♣ 8♦ 7♣ 6♦ 5♣ 4♥
"""


def test_the_quick_proof_ends_a_stuck_solijoy_game_that_the_search_cannot_decide():
    p = Game.from_text(STUCK_SOLIJOY).position
    assert endgame.search.__wrapped__(p, endgame.SEARCH_LIMIT) is None  # too many arrangements to search
    assert endgame.never_progress(p) and over_reason(p) == NO_MORE_MOVES
    g = Game.from_position(p)
    assert g.is_over() and g.over_reason() == NO_MORE_MOVES


def test_the_quick_proof_is_never_wrong():
    """Wherever ``never_progress`` says play can never make progress, an exhaustive search agrees.

    Random games of every checked variant, each played until the first proof (the game is over then)."""
    rng, proved = random.Random(5), {}
    for name, variant in CHECKED.items():
        for seed in range(6):
            p = deal(variant, seed)
            for _ in range(1500):
                moves = legal_moves(p)
                if endgame.never_progress(p):
                    assert progress_reachable(p, cap=5_000) is not True, (name, p)
                    proved[name] = proved.get(name, 0) + 1
                    break
                p = apply(p, rng.choice(moves))
    assert sum(proved.values()) >= 20 and len(proved) >= 5, proved


def test_the_quick_proof_finds_progress_it_cannot_rule_out():
    p = deal(SOLIJOY, 1)
    assert not endgame.never_progress(p)  # the deal: cards fit, columns can be emptied
    stuck = Game.from_text(STUCK_SOLIJOY).position
    freed = stuck._replace(columns=stuck.columns[:6] + ((),) + stuck.columns[7:], hidden=stuck.hidden)
    assert not endgame.never_progress(freed)  # with an empty column, any stock card can be played


# --- the plain finish (what the card table's Auto-finish plays) ------------------------------------------
@pytest.mark.parametrize("variant, seed", [("klondike", 1), ("klondike", 2), ("italian", 1), ("solijoy", 1)])
def test_the_plain_finish_starts_only_when_nothing_is_hidden_and_plays_only_forced_moves(variant, seed):
    """Along a solver's winning line: no plain finish while a card is face down; once there is one, it wins,
    with foundation moves and turns of the stock only; in SoliJoy only with the stock and waste empty."""
    from solitaire import solve

    game = Game(variant, seed)
    seen = 0
    for move in solve(game.position, max_seconds=30).moves:
        p = game.position
        line, why = endgame.plain_finish(p)
        if any(p.hidden):
            assert line is None and why.endswith("still face down"), why
        if line is not None:
            seen += 1
            assert why == "" and {m.kind for m in line} <= {"t>f", "w>f", DRAW, RECYCLE}
            q = p
            for m in line:
                q = apply(q, m)
            assert endgame.is_won(q)
            if not p.variant.waste_to_foundation:
                assert not p.stock and not p.waste
        game.play(move)
    assert seen > 0  # the winning line passes through a plain finish before its end
