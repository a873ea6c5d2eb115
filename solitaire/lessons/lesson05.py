"""Checks for the exercises of lesson 05 (strategies), registered with ``solitaire.lessons.check``."""
from __future__ import annotations

import functools
import math
import random
from typing import Any

from ..endgame import Outcome
from ..game import Game
from ..state import deal
from ..variants import KLONDIKE
from .hidden import hidden_seed
from .checks import (NotAnswered, Verdict, call_student, calls_into, exercise, finite_number, hidden_inputs,
                     needs_function, replay_game, _short, student_running)


REPLAY_NODES = 20_000  # the solver's budget the exercise asks for


@functools.lru_cache(maxsize=None)
def _replay_seeds() -> tuple[tuple[int, str], ...]:
    """Hidden Klondike deals for 05.replay, none a lesson shows, with the solver's status on each within the
    exercise's budget: three it wins, one it proves unwinnable, and one it leaves unknown at 20,000 positions but
    wins with a few more (so an answer that forgets the solver's "no", reads only "unwinnable" as a no, or
    solves without the budget asked for, is seen)."""
    from ..solver import solve
    found: dict[str, list[int]] = {Outcome.WON: [], Outcome.UNWINNABLE: [], Outcome.UNKNOWN: []}
    for seed in hidden_inputs(2205, 400, lambda rng: rng.randint(1_000, 10**6)):  # stops once all are found
        status = solve(deal(KLONDIKE, seed), max_seconds=None, max_nodes=REPLAY_NODES).status
        if status == Outcome.UNKNOWN and not _won_with_more(seed):
            continue
        found[status].append(seed)
        if len(found[Outcome.WON]) >= 3 and found[Outcome.UNWINNABLE] and found[Outcome.UNKNOWN]:
            break
    return tuple([(s, Outcome.WON) for s in found[Outcome.WON][:3]]
                 + [(found[Outcome.UNWINNABLE][0], Outcome.UNWINNABLE), (found[Outcome.UNKNOWN][0], Outcome.UNKNOWN)])


def _won_with_more(seed: int) -> bool:
    from ..solver import solve
    return solve(deal(KLONDIKE, seed), max_seconds=None, max_nodes=5 * REPLAY_NODES).status == Outcome.WON


_NOT_WON_HINTS = {
    Outcome.UNWINNABLE: "look at the solver's status before replaying.",
    Outcome.UNKNOWN: "only a 'won' status comes with a solution, and \"unknown\" is not a win; solve with "
                     "max_nodes=20_000, the budget the question asks for.",
}


@exercise("05.replay", "Write replayed(seed): solve Klondike deal seed (max_seconds=None, max_nodes=20_000); if "
                       "the solver wins, return a fresh Game of that deal with the solution played on it, and "
                       "otherwise None. It is tried on deals the lesson never shows.")
def _replay_won(answer: Any) -> Verdict:
    if not callable(answer):
        game = " (one game answers one deal only)" if isinstance(answer, Game) else ""
        raise NotAnswered(f"expected the function replayed(seed), got {type(answer).__name__} {_short(answer)}"
                          f"{game}")
    for seed, status in _replay_seeds():
        got = call_student(answer, seed)
        if status != Outcome.WON:
            if got is not None:
                return Verdict(False, f"the solver does not win Klondike deal {seed} within {REPLAY_NODES:,} "
                                      f"positions (its status is {status!r}), so replayed({seed}) should return "
                                      f"None, but it returned {_short(got)}: {_NOT_WON_HINTS[status]}")
            continue
        if got is None:
            return Verdict(False, f"replayed({seed}) returned None, but the solver wins Klondike deal {seed}: "
                                  "return the replayed game.")
        replay = replay_game(got, f"replayed({seed})", deal(KLONDIKE, seed), f"Klondike deal {seed}")
        if not replay.is_won():
            return Verdict(False, f"replayed({seed}): its {len(replay.moves)} moves are legal, but the game is not "
                                  f"won ({replay.position.on_foundations()} cards home): did you play every move "
                                  "of the solution?")
    two = call_student(answer, 2)
    moves = f": on deal 2 it plays {len(two.moves)} moves to a won game" if isinstance(two, Game) else ""
    return Verdict(True, f"your function replays the solver's win on every deal tried, and returns None when the "
                         f"solver does not win{moves}.")


UNEVEN_TRIES = 4_000  # throws per split the check asks for: a one-tailed or a ">" count is many spreads away
LESSON_SPLITS = ((42, 7), (30, 19), (4, 2))  # the splits lesson 05 shows, reported with a right answer


@functools.lru_cache(maxsize=None)
def _uneven_cases() -> tuple[tuple[int, int, int], ...]:
    """(tosses, at_least, seed) the check tries: splits the lesson never shows, where counting one tail only, or
    more than at_least instead of at least, lands far from the truth; the seeds hidden."""
    seeds = hidden_inputs(5051, 3, lambda rng: rng.randint(1, 10**6))
    return tuple((tosses, at_least, seed) for (tosses, at_least), seed in zip(((6, 4), (15, 11), (40, 26)), seeds))


def _uneven(tosses: int, at_least: int, tries: int, seed: int) -> int:
    """The kit's own answer to 05.uneven, shown once a student's is right: how many of ``tries`` throws of
    ``tosses`` fair coins give at least ``at_least`` heads, or at least as many tails (one random bit a coin).

    >>> _uneven(6, 4, 10_000, seed=1) / 10_000  # the sign test's 44 / 64 = 0.6875
    0.693
    """
    rng = random.Random(seed)
    heads = (bin(rng.getrandbits(tosses)).count("1") for _ in range(tries))
    return sum(max(h, tosses - h) >= at_least for h in heads)


def _either_way(tosses: int, at_least: int) -> tuple[float, float, float]:
    """The chance that ``tosses`` fair coins give at least ``at_least`` heads or as many tails; of at least
    ``at_least`` heads alone (one tail); and of more than ``at_least`` either way (``>`` for ``>=``)."""
    from ..stats import sign_test
    one_tail = sum(math.comb(tosses, k) for k in range(at_least, tosses + 1)) / 2**tosses
    return sign_test(at_least, tosses - at_least), one_tail, sign_test(at_least + 1, tosses - at_least - 1)


def _near(count: float, chance: float, tries: int) -> bool:
    """True when ``count`` of ``tries`` throws is within four spreads of ``chance`` (plus one throw)."""
    return abs(count / tries - chance) <= 4 * math.sqrt(chance * (1 - chance) / tries) + 1 / tries


@exercise("05.uneven", "Write uneven(tosses, at_least, tries, seed): throw tosses fair coins, tries times, with "
                       "random.Random(seed), and return how many of the throws give at least at_least heads or at "
                       "least at_least tails. It is tried on splits and seeds the lesson never shows.",
          pieces=("solitaire.stats.sign_test", _uneven), shows=_uneven)
def _uneven_check(answer: Any) -> Verdict:
    """Compares the student's counts with the sign test's exact chance on hidden splits (a count within four
    spreads passes), names a count of one tail or of ``>``, and asks for the same count from the same seed."""
    needs_function(answer, "uneven(tosses, at_least, tries, seed)", "a number answers one split only")
    for tosses, at_least, seed in _uneven_cases():
        call = f"uneven({tosses}, {at_least}, {UNEVEN_TRIES:_}, {seed})"
        got = finite_number(call_student(answer, tosses, at_least, UNEVEN_TRIES, seed), f"a count for {call}")
        if got != int(got) or not 0 <= got <= UNEVEN_TRIES:
            share = " That looks like a share: return how many throws, not a fraction." if 0 < got < 1 else ""
            return Verdict(False, f"{call} gave {got:g}, but it counts throws: a whole number from 0 to "
                                  f"{UNEVEN_TRIES:,}.{share}")
        both, one, more = _either_way(tosses, at_least)
        if not _near(got, both, UNEVEN_TRIES):
            hint = (" Every throw came out the same: is random.Random(seed) made inside your loop? Make the generator "
                    "once, before the loop, so that each throw gets new coins." if got in (0, UNEVEN_TRIES) else
                    " That is about how often heads alone come up that often: count a throw as uneven when heads "
                    "or tails reach at_least." if _near(got, one, UNEVEN_TRIES) else
                    " That is about how often a throw goes beyond at_least: 'at least' includes at_least itself."
                    if _near(got, more, UNEVEN_TRIES) else
                    " Throw tosses coins, count the heads, and count the throw when heads or tails reach at_least.")
            return Verdict(False, f"{call} gave {got:g}, far from the {both * UNEVEN_TRIES:,.0f} or so that fair "
                                  f"coins give (the sign test: {both:.3f} of the throws).{hint}")
        if call_student(answer, tosses, at_least, UNEVEN_TRIES, seed) != got:
            return Verdict(False, f"{call} gave {got:g}, then another count when called again with the same seed: "
                                  "make your generator with random.Random(seed), so that a seed gives the same "
                                  "throws every time.")
    counts = [call_student(answer, tosses, at_least, UNEVEN_TRIES, seed + 1) for tosses, at_least, seed in
              _uneven_cases()]
    if counts == [call_student(answer, tosses, at_least, UNEVEN_TRIES, seed) for tosses, at_least, seed in
                  _uneven_cases()]:
        return Verdict(False, "your function gives the same counts whatever the seed: make your generator from "
                              "the seed it is given, random.Random(seed).")
    from ..stats import sign_test
    return Verdict(True, "your throws agree with the sign test on every split tried. For the lesson's 42 to 7 "
                         "and two other splits, 10,000 throws each (seed 2026): " + "; ".join(
                             f"{a} to {b} or more unevenly {call_student(answer, a + b, a, 10_000, 2026):,} times "
                             f"(the sign test: {in_words(sign_test(a, b))})" for a, b in LESSON_SPLITS) + ".")


STRATEGY_DEALS = range(hidden_seed(0, 515), hidden_seed(0, 515) + 150)  # enough deals for a sign test to see a
# real lead over random: deals 0-149 in practice, 150 secret ones in a graded check
GREEDY = ("solitaire.players.GreedyStrategy.choose", "solitaire.players.GreedyStrategy.rank",
          "solitaire.players.GreedyStrategy.rule")  # greedy's own choice: switched off while a student's strategy plays
STRATEGY_MAX_MOVES = 1500
SIGNIFICANCE = 0.05


@functools.lru_cache(maxsize=None)
def _won_deals(strategy: str) -> tuple[bool, ...]:
    """Which of STRATEGY_DEALS a built-in strategy wins (random, greedy), deal by deal."""
    from ..strategies import play_game
    return tuple(play_game("klondike", seed, strategy, max_moves=STRATEGY_MAX_MOVES).outcome == Outcome.WON
                 for seed in STRATEGY_DEALS)


def _lead(mine: tuple[bool, ...], theirs: tuple[bool, ...]) -> tuple[int, int, float]:
    """Deals only mine won, deals only theirs won, and the sign test's two-sided p-value (lesson 06b)."""
    from ..stats import sign_test
    only_mine = sum(a and not b for a, b in zip(mine, theirs))
    only_theirs = sum(b and not a for a, b in zip(mine, theirs))
    return only_mine, only_theirs, sign_test(only_mine, only_theirs)


def in_words(p: float) -> str:
    """A chance in words a class reads: "less than 1 in a million", "about 1 in 560", "about 7 in 10", "always".

    >>> in_words(4e-07), in_words(0.0018), in_words(0.0498), in_words(0.13), in_words(0.688), in_words(1.0)
    ('less than 1 in a million', 'about 1 in 560', 'about 1 in 20', 'about 1 in 8', 'about 7 in 10', 'always')
    """
    if not 0 <= p <= 1:
        raise ValueError(f"a chance lies between 0 and 1, got {p!r}")
    if p < 1e-6:
        return "less than 1 in a million"
    if p >= 1:
        return "always"
    if p >= 0.45:
        return f"about {round(10 * p)} in 10"
    times = 1 / p
    digits = max(0, len(str(round(times))) - 2)  # two significant figures: 1 in 560, 1 in 25,000
    return f"about 1 in {round(times, -digits):,.0f}"


def chance_text(p: float) -> str:
    """A p-value as the checks print it: the number when it reads as a plain decimal, and always in words.

    >>> chance_text(0.0018), chance_text(2e-11)
    ('p = 0.0018, about 1 in 560', 'less than 1 in a million')
    """
    return f"p = {p:.2g}, {in_words(p)}" if p >= 0.001 else in_words(p)


def _play(strategy: Any) -> list:
    """The student's strategy played on STRATEGY_DEALS, with greedy's own choice switched off (in a graded check,
    the games played at once: ``games.play_remote``)."""
    from ..strategies import play_game
    from .games import play_remote
    records = []
    with student_running():
        graded = play_remote(strategy, STRATEGY_DEALS, STRATEGY_MAX_MOVES)
        if graded is not None:
            return graded
        for seed in STRATEGY_DEALS:
            try:
                records.append(play_game("klondike", seed, strategy, max_moves=STRATEGY_MAX_MOVES))
            except NotImplementedError:
                raise NotAnswered(f"{_named(strategy)} still has no body") from None
            except Exception as e:
                if type(e).__name__ == "KitSwitchedOff":
                    raise
                raise NotAnswered(f"on Klondike deal {seed} your strategy failed: {type(e).__name__}: {e}") from None
    return records


def _score(records: list) -> tuple[str, tuple[int, int, float], int]:
    """The sentence that compares a strategy's games with random's and greedy's, its lead over random, and how
    many of its games ran into the move limit."""
    mine = tuple(r.outcome == Outcome.WON for r in records)
    random_won, greedy_won = _won_deals("random"), _won_deals("greedy")
    ahead, behind, p = _lead(mine, random_won)
    deals = f"Klondike deals {STRATEGY_DEALS.start}-{STRATEGY_DEALS.stop - 1}"
    score = (f"on {deals} your strategy won {sum(mine)}, random {sum(random_won)}, greedy {sum(greedy_won)}. "
             f"Of the deals only one of you won, you won {ahead} and random {behind}: a fair coin splits them "
             f"at least that unevenly with chance {chance_text(p)} (the sign test)")
    return score, (ahead, behind, p), sum(r.outcome == Outcome.MOVE_LIMIT for r in records)


def versus_random(strategy: Any) -> None:
    """Play a strategy (a function ``(obs, moves) -> move``) against random on the deals of ``05.strategy`` and
    print how it did, and why it might lose: lesson 05's first version is tried with it before the check.

    >>> versus_random(...)
    Not written yet: replace the `...` with your function.
    """
    if strategy is ... or strategy is None:
        print("Not written yet: replace the `...` with your function.")
        return
    try:
        score, (ahead, behind, p), stuck = _score(_play(_as_strategy(strategy)))
    except NotAnswered as e:
        print(f"Not yet: {e}")
        return
    print(score + ".")
    if stuck:
        print(f"{stuck} of its games ran into the {STRATEGY_MAX_MOVES:,}-move limit.")


def _progress_first(obs: Any, moves: Any) -> Any:
    """The kit's own answer to 05.strategy, shown once a student's strategy is right: the move that makes the most
    progress, by kind (a flip; a build that uncovers a face-down card; a card to a foundation from a column; the
    waste's card to a column, then to a foundation; the stock), and a build moved sideways only when nothing else
    is left.

    >>> from solitaire import Game
    >>> game = Game("klondike", seed=1)
    >>> _progress_first(game.observation(), game.legal_moves())  # t1>t7 would uncover nothing: draw first
    Move('draw')
    """
    from ..moves import COLUMN_TO_COLUMN
    order = ["flip", "uncover", "t>f", "w>t", "w>f", "draw", "recycle"]

    def rank(m: Any) -> int:
        uncovers = (m.kind == COLUMN_TO_COLUMN and obs.hidden[m.source] > 0
                    and m.count == len(obs.columns[m.source]))
        kind = "uncover" if uncovers else m.kind
        return order.index(kind) if kind in order else len(order)
    return min(moves, key=rank)


@exercise("05.strategy", f"Write a strategy that beats random play on Klondike deals {STRATEGY_DEALS.start}-"
                         f"{STRATEGY_DEALS.stop - 1}: among the deals only one of the two wins, yours must win so many "
                         f"more that a sign test finds the lead (p < {SIGNIFICANCE}). An object with a name and "
                         "choose(obs, moves) -> one of moves, or a plain function (obs, moves) -> move.",
          pieces=(*GREEDY, _progress_first), shows=_progress_first)
def _strategy(answer: Any) -> Verdict:
    """Plays the student's strategy, random and greedy on the same deals; passes a lead over random that a sign
    test on those deals finds at p < 0.05 (a random player with another seed wins about as often, and fails).
    Greedy's own choice (choose, rank, rule) is switched off while the student's strategy plays."""
    strategy = _as_strategy(answer)
    from ..state import observe
    from ..moves import legal_moves
    from ..strategies import GreedyStrategy
    start = deal(KLONDIKE, STRATEGY_DEALS.start)
    methods = [answer] if strategy is not answer else [  # a plain function is called by its own name
        getattr(strategy, name) for name in ("choose", "rank") if callable(getattr(strategy, name, None))]
    greedy = [GreedyStrategy.choose, GreedyStrategy.rank]  # play_game uses rank, when a strategy has one
    kit = next(filter(None, (calls_into(m, (observe(start), legal_moves(start)), greedy) for m in methods)), None)
    if kit:
        return Verdict(False, f"your strategy asks the kit's greedy player ({kit}) for its move, so it is greedy, "
                              "not yours: write your own rules for choosing a move.")
    records = _play(strategy)
    score, (ahead, behind, p), stuck = _score(records)
    if ahead <= behind or p >= SIGNIFICANCE:
        won = sum(r.outcome == Outcome.WON for r in records)
        return Verdict(False, f"{score}: {_not_shown(won, ahead, behind, p, stuck, len(records))}")
    mine = tuple(r.outcome == Outcome.WON for r in records)
    g_ahead, g_behind, g_p = _lead(mine, _won_deals("greedy"))
    against_greedy = ("and greedy too, by a sign test!" if g_ahead > g_behind and g_p < SIGNIFICANCE else
                      f"greedy is another matter ({g_ahead} deals to {g_behind}, {chance_text(g_p)}: a final "
                      "project).")
    return Verdict(True, f"{score}: you beat random, {against_greedy}")


def _not_shown(won: int, ahead: int, behind: int, p: float, stuck: int, games: int) -> str:
    """Why a strategy that won ``won`` of ``games`` is not shown better than random, and a hint: a lead too small
    for the sign test is told as such, with a hint other than which moves make progress.

    >>> print(_not_shown(55, 30, 18, 0.11, 0, 150))  # doctest: +ELLIPSIS
    ahead of random, 55 wins to 43, but 150 deals cannot tell a lead this small (p = 0.11, about 1 in 9) from luck: ...
    """
    if stuck > games // 10:
        hint = (f" {stuck} of your games ran into the {STRATEGY_MAX_MOVES:,}-move limit: moving builds back and "
                "forth leads nowhere, so put those moves last.")
    elif ahead > behind:
        hint = (" The order of your rules matters as much as the rules: play the same rules in another order with "
                "versus_random(your_function), which plays these deals, and keep the order that wins most.")
    else:
        hint = (" Which moves make progress? A flip, or a move that uncovers a face-down card, is almost always "
                "good; moving a build sideways rarely is.")
    if ahead <= behind:
        return f"not better than random yet.{hint}"
    return (f"ahead of random, {won} wins to {sum(_won_deals('random'))}, but {len(STRATEGY_DEALS)} deals cannot "
            f"tell a lead this small ({chance_text(p)}) from luck: not shown better than random yet (the check asks "
            f"for p below {SIGNIFICANCE}).{hint}")


def _as_strategy(answer: Any) -> Any:
    """The student's answer as a strategy: an object with ``choose`` as it is, a plain function wrapped."""
    if callable(getattr(answer, "choose", None)):
        return answer
    if not callable(answer):
        raise NotAnswered(f"expected a strategy or a function (obs, moves) -> move, got {answer!r}")
    from ..strategies import FunctionStrategy
    return FunctionStrategy(answer)


def _named(strategy: Any) -> str:
    """How a message names the student's strategy: "the function my_strategy", or "your strategy's choose"."""
    from ..strategies import FunctionStrategy
    if isinstance(strategy, FunctionStrategy):
        return f"the function {strategy.name}"
    return "your strategy's choose"


_GREEDY_WON: dict[int, bool] = {}  # the deals the checker has played greedy on, and whether it won each


def _greedy_count(first: int, last: int) -> int:
    """The checker's own count (switched off while a student's greedy_wins runs, so a wrapper earns nothing)."""
    from ..strategies import play_game
    for seed in range(first, last + 1):
        if seed not in _GREEDY_WON:
            _GREEDY_WON[seed] = play_game("klondike", seed, "greedy").outcome == Outcome.WON
    return sum(_GREEDY_WON[seed] for seed in range(first, last + 1))


@functools.lru_cache(maxsize=None)
def _greedy_ranges() -> tuple[tuple[int, int], ...]:
    """The (first, last) deal ranges a student's greedy_wins is tried on, none of them the lesson's 20-39: one
    whose last deal greedy wins and one whose first deal it wins, so a range that leaves out either end is seen;
    a single deal; and two long ranges whose count no guess from the range's length gives (a fixed share of the range,
    or a half of it) and no shifted range gives (deals counted from 0, or from first + 1)."""
    wins = lambda seed: _greedy_count(seed, seed) == 1  # noqa: E731
    starts = hidden_inputs(505, 12, lambda rng: rng.randint(100, 900))
    ends_won = next((a, a + 6 + i % 5) for i, a in enumerate(starts) if wins(a + 6 + i % 5))
    starts_won = next((a, a + 4 + i % 3) for i, a in enumerate(starts) if wins(a) and (a, a + 4 + i % 3) != ends_won)
    candidates = (r for r in hidden_inputs(5050, 40, _a_long_range) if _no_guess_gives(*r))
    long = (next(candidates), next(candidates))
    return (ends_won, starts_won, (starts[-1], starts[-1]), *long)


def _a_long_range(rng: Any) -> tuple[int, int]:
    first = rng.randint(1_000, 9_000)
    return first, first + rng.randint(60, 140)


def _no_guess_gives(first: int, last: int) -> bool:
    """True when greedy's count on first..last differs from every count a wrong answer would give."""
    n = last - first + 1
    guesses = {round(n * share) for share in (0.4, 0.45, 0.5)} | {(last - first) // 2, n // 2}
    guesses |= {_greedy_count(0, n - 1), _greedy_count(first + 1, last + 1), _greedy_count(first, last - 1)}
    return _greedy_count(first, last) not in guesses


@exercise("05.greedy_wins", "Write greedy_wins(first, last): how many of Klondike deals first to last (both "
                            "included) the greedy strategy wins. It is tried on deals the lesson never shows.",
          pieces=[_greedy_count], shows=())
def _greedy_wins(answer: Any) -> Verdict:
    needs_function(answer, "greedy_wins(first, last)", "a number answers one range of deals only")
    for first, last in _greedy_ranges():
        got = finite_number(call_student(answer, first, last), f"a number of deals for greedy_wins({first}, {last})")
        want = _greedy_count(first, last)
        if got != want:
            without_last = _greedy_count(first, last - 1) if last > first else 0
            hint = (" That is the count without deal {last}: range(first, last) stops before last, so use "
                    "range(first, last + 1).".format(last=last) if got == without_last else
                    " Count each deal from first to last, both included, once.")
            return Verdict(False, f"greedy_wins({first}, {last}) gave {got:g}, but greedy wins {want} of those "
                                  f"{last - first + 1} deals.{hint}")
    twenty = call_student(answer, 20, 39)
    return Verdict(True, f"your function counts greedy's wins right on every range tried; by it, greedy wins "
                         f"{twenty} of Klondike deals 20-39.")
