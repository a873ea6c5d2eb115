"""Checks for the exercises of lessons 08 and 08b, "What a player knows" and "Playing without seeing"
(registered with ``solitaire.lessons.check``).

Import this module once, then ``check("08.chance_by_hand", answer)`` as in the other lessons. Expected
answers are computed inside the checks, from the kit itself and its shipped tables; numbers are judged by
the checks' one rule (``checks.agrees``: right at the precision written, two significant digits at least,
counts exact).
"""
from __future__ import annotations

import math
import numbers
from typing import Any

from ..endgame import Outcome
from ..expert import WinChance
from ..stats import wilson
from ..game import Game
from ..knowledge import count_layouts, game_knowledge
from ..moves import DRAW, RECYCLE
from ..render import text_diagram
from .checks import (NotAnswered, Verdict, agrees, as_number, call_student, exercise, needs_function,
                     no_return, number_verdict, too_coarse)
from .guard import hidden_inputs

CHANCE_GAME = ("klondike", 4)  # the deal whose win chance the exercise estimates by hand
CHANCE_SAMPLES = 10
LAYOUTS_GAME = ("klondike", 10)  # the deal, and the moves played on it, whose layouts the exercise counts
LAYOUTS_MOVES = ("t1>f", "t5>f", "flip t5") + ("draw",) * 10  # part way through the first pass: 14 stock cards unseen


def _numbers(answer: Any, how_many: int, example: str) -> list[Any]:
    """The items of a tuple or list of ``how_many`` numbers (of any numeric type), or NotAnswered."""
    items = list(answer) if isinstance(answer, (tuple, list)) or getattr(answer, "shape", None) == (how_many,) \
        else None
    if items is None or len(items) != how_many or any(as_number(x) is None for x in items):
        raise NotAnswered(f"give {how_many} numbers in round brackets, for example {example}")
    return items


def _play_randomly(game: Game, texts: list[str], rng: Any, steps: int, keep: Any = lambda move: True) -> None:
    """Play up to ``steps`` moves of seeded random play (only the moves ``keep`` keeps), each noted in ``texts``;
    stop early when no such move is left or the game is over."""
    for _ in range(steps):
        moves = [m for m in game.legal_moves() if keep(m)]
        if not moves or game.is_over():
            return
        move = rng.choice(moves)
        texts.append(str(move))
        game.play(move)


def _pass_game(rng: Any) -> tuple[int, list[str]]:
    """A hidden Klondike game in which every stock card has been turned up: a few moves off the stock (flips,
    builds, cards home), then draws until the stock is empty, then a few more. Kept as (seed, move texts), so each
    call gets a fresh copy that a student's function cannot spoil."""
    seed = rng.randrange(100, 10_000)
    game, texts = Game("klondike", seed), []
    for phase in ("before", "draws", "after"):
        if phase == "draws":
            _play_randomly(game, texts, rng, 24, lambda m: m.kind == DRAW)
        else:
            _play_randomly(game, texts, rng, rng.randint(0, 8), lambda m: m.kind not in (DRAW, RECYCLE))
    return seed, texts


def _played_game(seed: int, texts: list[str]) -> Game:
    game = Game("klondike", seed)
    game.play_all(texts)
    return game


PASS_GAMES = [g for g in hidden_inputs(8010, 12, _pass_game)]  # hidden games after the whole stock was drawn


def _any_game(rng: Any) -> tuple[int, list[str]]:
    """A hidden Klondike game at any point: at the deal, during the first pass through the stock, or after
    recycles; moves of seeded random play."""
    seed = rng.randrange(100, 10_000)
    game, texts = Game("klondike", seed), []
    _play_randomly(game, texts, rng, rng.choice([0, 3, 8, 15, 30, 60, 120]))
    return seed, texts


ANY_GAMES = [g for g in hidden_inputs(8011, 12, _any_game)]  # hidden games at any point, the deal among them


def _exact(got: Any) -> Any:
    """A whole-number answer as a Python int (a factorial is far beyond a float's digits), else it as a float."""
    x = as_number(got)
    if x is not None and float(x).is_integer() and isinstance(got, (int, numbers.Integral)):
        return int(got)
    return x


def _layouts_verdict(got: Any, game: Game, shown: str) -> Verdict | None:
    """None if ``got`` is the number of consistent layouts in ``game``, else the refusal that names the slip."""
    known, p = game_knowledge(game), game.position
    slots, want = known.unknown_slots, count_layouts(known)
    x = _exact(got)
    if x is not None and agrees(float(x), float(want)) and (not isinstance(x, int) or x == want):
        return None
    unseen_stock = len(p.stock) if p.recycles == 0 else 0
    if x == slots:
        return Verdict(False, f"{shown} gave {slots}, the number of unknown slots; the question asks in how many "
                              f"ways the {slots} unseen cards can fill them.")
    if unseen_stock and x == math.factorial(sum(p.hidden)):
        return Verdict(False, f"{shown} counts only the face-down cards, but {unseen_stock} cards of the stock have "
                              "never been turned up: which cards they are, and in what order, is unknown too.\n"
                              + text_diagram(p))
    if x is not None and x in {math.factorial(slots + k) for k in range(1, 53)}:
        return Verdict(False, f"{shown} counts cards a careful player already knows as unknown: every card turned "
                              "up once is remembered (the cards of the waste, and once the waste has been turned "
                              "over, the whole stock), and a face-up card in a column is seen.\n" + text_diagram(p))
    if x is not None and math.isclose(float(x), float(want), rel_tol=0.01):
        return Verdict(False, f"{shown} is close, but a number of layouts is a count, exact to the last digit: give "
                              "the whole number (math.factorial gives it), not a rounded one.")
    verdict = number_verdict(got, want, "the number of consistent layouts")
    return Verdict(False, f"{shown}: {verdict.message} Count the unknown slots in this position (face-down cards, "
                          "and stock cards never turned up) and the ways to deal the unseen cards into them:\n"
                          + text_diagram(p))


@exercise("08.layouts", "Write layouts(game): how many layouts of the unseen cards are consistent with what a careful "
                        "player has seen, at any point of a Klondike game (one card a draw). It is tried on the "
                        "practice game and on games the lesson never shows: at the deal, during the first pass "
                        "through the stock, and after it.",
          pieces=["solitaire.knowledge.game_knowledge", "solitaire.knowledge.count_layouts"], shows=())
def _layouts(answer: Any) -> Verdict:
    needs_function(answer, "layouts(game)", "a number answers one position only")
    cases = [(*LAYOUTS_GAME[1:], list(LAYOUTS_MOVES))] + ANY_GAMES + PASS_GAMES
    for i, (seed, texts) in enumerate(cases):
        shown = "layouts(practice)" if i == 0 else f"layouts(a game on deal {seed}, {len(texts)} moves played)"
        got = call_student(answer, _played_game(seed, texts))
        refused = no_return(answer, got) or _layouts_verdict(got, _played_game(seed, texts), shown)
        if refused:
            return refused
    known = game_knowledge(_played_game(*cases[0]))
    return Verdict(True, f"right on the practice game and on {len(cases) - 1} others, at the deal, during the first "
                         f"pass and after it: in the practice game {known.unknown_slots} cards are unknown, so "
                         f"{known.unknown_slots}! = {count_layouts(known):.3e} layouts.")


def _chance_case(rng: Any) -> WinChance:
    """A hidden win-chance estimate: a few to a few hundred samples, sometimes none or all of them won."""
    n = rng.choice([5, 10, 12, 20, 30, 50, 200])
    won = rng.choice([0, n, rng.randint(1, n - 1)])
    unknown = rng.randint(0, n - won)
    return WinChance(samples=n, won=won, unwinnable=n - won - unknown, unknown=unknown)


CHANCES = hidden_inputs(8020, 12, _chance_case)  # the hidden estimates 08.chance_by_hand is tried on


def _chance_verdict(got: Any, chance: WinChance, shown: str) -> Verdict | None:
    """None if ``got`` is (share won, Wilson low, Wilson high) for ``chance``, else the refusal that names the slip."""
    share, low, high = _numbers(got, 3, "(0.7, 0.4, 0.9)")
    won, n = chance.won, chance.samples
    want = (won / n, *wilson(won, n))
    if as_number(share) == won != won / n:
        return Verdict(False, f"{shown} gave {won} first, the number of layouts won; the share is that divided by "
                              f"the {n} sampled.")
    names = ("the share won", "the interval's low end", "the interval's high end")
    for name, x, expected in zip(names, (share, low, high), want):
        verdict = number_verdict(x, expected, name, as_shown=True)
        if verdict.ok:
            continue
        if too_coarse(as_number(x), expected):
            return Verdict(False, f"{shown}: {verdict.message}")
        p = won / n
        naive = p + (-1 if as_number(x) < p else 1) * 1.96 * math.sqrt(p * (1 - p) / n)
        hint = (" That is the naive interval, p ± 1.96·√(p(1−p)/n): the Wilson interval moves the centre and "
                "widens the half-width (lesson 06)." if name != names[0] and agrees(as_number(x), naive) else
                f" {won} of {n} layouts were won: recheck the formula of lesson 06.")
        return Verdict(False, f"{shown}: {verdict.message}{hint}")
    return None


@exercise("08.chance_by_hand", "Write chance_by_hand(chance): from the counts of a win-chance estimate "
                               "(chance.won of chance.samples), the share won and its Wilson 95% interval, "
                               "(share, low, high), worked out by hand. It is tried on estimates the lesson never "
                               "shows.",
          pieces=["solitaire.stats.wilson"], shows=())
def _chance_by_hand(answer: Any) -> Verdict:
    needs_function(answer, "chance_by_hand(chance)", "three numbers answer one estimate only")
    lesson = Game(*CHANCE_GAME).win_chance(samples=CHANCE_SAMPLES, seed=0)
    for i, chance in enumerate([lesson] + CHANCES):
        shown = ("chance_by_hand(w)" if i == 0 else
                 f"chance_by_hand(an estimate with {chance.won} of {chance.samples} layouts won)")
        got = call_student(answer, chance)
        refused = no_return(answer, got) or _chance_verdict(got, chance, shown)
        if refused:
            return refused
    want = (lesson.won / lesson.samples, *wilson(lesson.won, lesson.samples))
    return Verdict(True, f"right on w and on {len(CHANCES)} other estimates, none or all won among them: "
                         f"{lesson.won} of {lesson.samples} is {want[0]:.0%}, and the 95% interval runs from "
                         f"{want[1]:.0%} to {want[2]:.0%}: ten samples say little.")


@exercise("08b.disagree", "Give a Game, with some moves played, in which the expert (seed 0) and greedy choose "
                         "different moves.")
def _disagree(answer: Any) -> Verdict:
    from ..expert import ExpertStrategy
    from ..strategies import GreedyStrategy
    if not isinstance(answer, Game):
        return Verdict(False, f"give a Game, for example Game('klondike', seed=3) with some moves played, "
                              f"not {type(answer).__name__}")
    if not answer.moves:
        return Verdict(False, "no move has been played in that game: the task asks for a position after some moves "
                              "(play a few, for example greedy's hints, until the two players choose differently).")
    moves = answer.legal_moves()
    if answer.is_over() or len(moves) < 2:
        return Verdict(False, "in this position there is no choice to make: play on to a position with several "
                              f"moves.\n{text_diagram(answer.position)}")
    obs = answer.observation()
    expert = ExpertStrategy(0)
    e = expert.choose(obs, moves)
    g = GreedyStrategy(resign=False).choose(obs, moves)
    if e == g:
        return Verdict(False, f"they agree in this position: both play {e}. Try another position.\n"
                              f"{text_diagram(answer.position)}")
    return Verdict(True, f"they disagree in this position:\n{text_diagram(answer.position)}\nExpert: "
                         f"{expert.explain(obs, e)} Greedy: {GreedyStrategy().explain(obs, g)}")


def _games_table(seeds: list[int], outcomes: list[str]) -> Any:
    import pandas as pd
    return pd.DataFrame({"seed": seeds, "outcome": outcomes})


def _two_players(rng: Any) -> tuple[list[int], list[str], list[int], list[str]]:
    """A hidden pair of tables: the first player's deals (seeds in a shuffled order), the second's on those deals
    and some more, in another order; outcomes as results files hold them."""
    words = [Outcome.WON, Outcome.LOST, Outcome.UNKNOWN, Outcome.MOVE_LIMIT]
    seeds = rng.sample(range(5_000), rng.randint(15, 80))
    first = [rng.choices(words, [rng.uniform(0.3, 0.8), 0.4, 0.05, 0.05])[0] for _ in seeds]
    more = [s for s in rng.sample(range(5_000, 6_000), rng.randint(0, 20))]
    second_seeds = seeds + more
    rng.shuffle(second_seeds)
    second = [rng.choices(words, [0.4, 0.5, 0.05, 0.05])[0] for _ in second_seeds]
    return seeds, first, second_seeds, second


PLAYER_PAIRS = hidden_inputs(8030, 10, _two_players)  # the hidden tables 08b.alone is tried on


def games_alone(first_games: Any, second_games: Any) -> tuple[int, int]:
    """The kit's ``alone`` (lesson 08b): of the deals in both tables of games (columns ``seed`` and ``outcome``),
    those the first player wins and the second does not, and the other way round, lined up by seed.

    >>> import pandas as pd
    >>> first = pd.DataFrame({"seed": [1, 2, 3], "outcome": ["won", "lost", "won"]})
    >>> second = pd.DataFrame({"seed": [3, 2, 1, 9], "outcome": ["won", "won", "lost", "won"]})
    >>> games_alone(first, second)
    (1, 1)
    """
    both = first_games.merge(second_games, on="seed")
    first_won, second_won = both["outcome_x"] == Outcome.WON, both["outcome_y"] == Outcome.WON
    return int((first_won & ~second_won).sum()), int((second_won & ~first_won).sum())


def _alone_counts(first: Any, second: Any) -> tuple[int, int]:
    """The expected counts, worked out apart from ``games_alone`` (which a check switches off)."""
    outcome = dict(zip(second["seed"], second["outcome"]))
    pairs = [(a == Outcome.WON, outcome[s] == Outcome.WON) for s, a in zip(first["seed"], first["outcome"])]
    return sum(a and not b for a, b in pairs), sum(b and not a for a, b in pairs)


def _alone_verdict(got: Any, first: Any, second: Any, shown: str) -> Verdict | None:
    """None if ``got`` is the two counts for these tables, else the refusal that names the slip."""
    expert_only, greedy_only = _numbers(got, 2, "(40, 25)")
    want = _alone_counts(first, second)
    pair = as_number(expert_only), as_number(greedy_only)
    outcome = dict(zip(second["seed"], second["outcome"]))
    wins = (int((first["outcome"] == Outcome.WON).sum()),
            sum(outcome[s] == Outcome.WON for s in first["seed"]))
    if pair == want:
        return None
    if pair == want[::-1]:
        return Verdict(False, f"{shown} gave the right two counts the other way round: the first table's deals first.")
    if pair == wins:
        return Verdict(False, f"{shown} gave each player's wins. Count the deals only one of them wins: a deal both "
                              "win says nothing about which plays better.")
    if pair[0] == wins[0] - wins[1] != want[0]:
        return Verdict(False, f"{shown}: {expert_only} is the difference of the two players' wins; the question asks "
                              "for the deals the first wins and the second does not (line them up by seed).")
    for name, x, expected in (("the first player's deals alone", expert_only, want[0]),
                              ("the second player's deals alone", greedy_only, want[1])):
        verdict = number_verdict(x, expected, name)
        if not verdict.ok:
            return Verdict(False, f"{shown}: {verdict.message} Line the two tables up by seed (the second holds other "
                                  "deals too, in another order) and count the deals whose outcomes differ, one way "
                                  "and the other.")
    return None


@exercise("08b.alone", "Write alone(first_games, second_games): for two tables of games with the columns seed and "
                      "outcome, (deals the first player wins and the second does not, deals the second wins and the "
                      "first does not), lined up by seed. It is tried on the 300 Klondike deals of the shipped tables "
                      "and on tables the lesson never shows.",
          pieces=["solitaire.lessons.lesson08.games_alone"],
          shows=("solitaire.lessons.lesson08.games_alone", "both =", None))
def _alone(answer: Any) -> Verdict:
    needs_function(answer, "alone(first_games, second_games)", "two numbers answer one pair of tables only")
    expert, greedy = lesson_tables()
    cases = [(expert, greedy, "alone(expert_games, greedy_games)")]
    for seeds, first, second_seeds, second in PLAYER_PAIRS:
        cases.append((_games_table(seeds, first), _games_table(second_seeds, second),
                      f"alone on {len(seeds)} deals the lesson never shows"))
    for first, second, shown in cases:
        got = call_student(answer, first.copy(), second.copy())
        refused = no_return(answer, got) or _alone_verdict(got, first, second, shown)
        if refused:
            return refused
    want = _alone_counts(expert, greedy)
    return Verdict(True, f"right on the shipped tables and on {len(PLAYER_PAIRS)} pairs the lesson never shows: the "
                         f"expert alone wins {want[0]} deals and greedy alone {want[1]}; on the other "
                         f"{len(expert) - sum(want)} both win or both lose.")


def lesson_tables(strategies: tuple[str, ...] = ("expert", "greedy")) -> list[Any]:
    """Lesson 08b's tables of games (columns seed and outcome) on the 300 Klondike deals the expert played, one per
    strategy, from the shipped tables: the expert's own, greedy's and the solver's (seed_variants).

    >>> [len(t) for t in lesson_tables(("expert", "solver"))]
    [300, 300]
    """
    from ..experiments import shipped
    rows = shipped("expert")
    expert = rows[(rows["variant"] == "klondike") & (rows["strategy"] == "expert")][["seed", "outcome"]]
    others = shipped("seed_variants")
    others = others[(others["variant"] == "klondike") & others["seed"].isin(expert["seed"])]
    return [expert if name == "expert" else others[others["strategy"] == name][["seed", "outcome"]]
            for name in strategies]


def win_rates_table(players: dict[str, Any]) -> Any:
    """Each player's wins on its table of games (columns seed and outcome), with the win rate and its Wilson 95%
    interval (to three decimals): one row a player, in the order given (lesson 08b).

    >>> import pandas as pd
    >>> games = pd.DataFrame({"seed": [1, 2, 3, 4], "outcome": ["won", "lost", "won", "won"]})
    >>> win_rates_table({"greedy": games}).to_dict("records")[0]["wins"]
    3
    """
    import pandas as pd
    rows = []
    for name, games in players.items():
        wins, deals = int((games["outcome"] == Outcome.WON).sum()), len(games)
        low, high = wilson(wins, deals)
        rows.append({"player": name, "wins": wins, "deals": deals, "win rate": round(wins / deals, 3),
                     "low": round(low, 3), "high": round(high, 3)})
    return pd.DataFrame(rows)


def plot_win_rates(rates: Any, title: str = "Klondike: the same 300 deals for each player") -> Any:
    """Each player's win rate with its Wilson 95% interval, one row a player (the first at the top), in the kit's
    fixed colour and marker of that player (``plots.strategy_style``), its wins written beside it and a legend
    below. ``rates`` is ``win_rates_table``'s.

    >>> import pandas as pd
    >>> from solitaire.plots import strategy_style
    >>> fig = plot_win_rates(pd.DataFrame([{"player": "greedy", "wins": 3, "deals": 4, "win rate": 0.75,
    ...                                     "low": 0.3, "high": 0.95}]))
    >>> [text.get_text() for text in fig.legends[0].get_texts()]
    ['greedy']
    >>> points = fig.axes[0].containers[0].lines[0]  # greedy's own colour and marker, as in every plot of the kit
    >>> {"color": points.get_color(), "marker": points.get_marker()} == strategy_style("greedy")
    True
    """
    import matplotlib.pyplot as plt

    from ..plots import FONTS, percent_axis, strategy_style
    rows = rates.to_dict("records")
    with plt.rc_context(FONTS):  # the projector's font sizes, as every plot of the kit
        fig, ax = plt.subplots(figsize=(9, 1.0 * len(rows) + 2.2), layout="constrained")
        for y, row in zip(range(len(rows) - 1, -1, -1), rows):
            rate = row["win rate"]
            ax.errorbar([rate], [y], xerr=[[rate - row["low"]], [row["high"] - rate]], linestyle="none", capsize=6,
                        markersize=11, elinewidth=2.5, label=row["player"], **strategy_style(row["player"]))
            ax.annotate(f"{row['wins']} of {row['deals']}", (row["high"], y), xytext=(10, 0),
                        textcoords="offset points", va="center")
        ax.set_yticks(range(len(rows)), [row["player"] for row in reversed(rows)])
        ax.set_ylim(-0.6, len(rows) - 0.4)
        ax.set_xlim(0, 1.12)  # room for the wins written right of a high end near 100%
        ax.set_xticks([x / 10 for x in range(11)])
        percent_axis(ax.xaxis)
        ax.set(xlabel="deals won (%), with the 95% interval", title=title)
        ax.grid(axis="x", alpha=0.3)
        fig.legend(loc="outside lower center", ncols=len(rows))
    return fig
