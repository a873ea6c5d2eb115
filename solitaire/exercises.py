"""Friendly checks for the "your turn" exercises of the lesson notebooks.

``check("01.red_cards", answer)`` prints what is right or what is off and returns True or False.
It never raises: a wrong type, an unfinished stub (``...``) or a function that crashes all get a
plain-English message instead of a traceback. Expected answers are computed from the kit itself,
so they follow the rules as the code implements them.
"""
from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from .cards import Card, InvalidCardError, full_deck, parse_card
from .game import Game
from .explain import explain_illegal
from .moves import Move, apply, is_won, legal_moves, rules
from .state import Position, deal, observe, shuffled_deck
from .variants import ITALIAN, KLONDIKE, SOLIJOY, VARIANTS, Variant


class Verdict(NamedTuple):
    """A checker's answer: right or not, and what to tell the student."""

    ok: bool
    message: str


class NotAnswered(Exception):
    """The student has not written an answer yet."""


Checker = Callable[[Any], Verdict]
EXERCISES: dict[str, tuple[str, Checker]] = {}


def exercise(name: str, question: str) -> Callable[[Checker], Checker]:
    """Register a checker under ``name`` (``"<lesson>.<topic>"``)."""
    def register(fn: Checker) -> Checker:
        EXERCISES[name] = (question, fn)
        return fn
    return register


def check(name: str, answer: Any = ..., *, quiet: bool = False) -> bool:
    """Check the answer to exercise ``name``; print friendly feedback and return True if it is right."""
    if name not in EXERCISES:
        return _say(False, f"There is no exercise called {name!r}. The exercises are: {', '.join(EXERCISES)}.",
                    quiet)
    question, checker = EXERCISES[name]
    if _unfinished(answer):
        return _say(False, f"Not answered yet: replace the `...` (or `# your code here`) with your answer.\n"
                           f"  The question: {question}", quiet)
    try:
        ok, message = checker(answer)
    except NotAnswered as e:
        ok, message = False, f"Not finished yet: {e}"
    except Exception as e:  # a student's function may raise anything: report it, never dump a traceback
        ok, message = False, f"Your answer raised {type(e).__name__}: {e}"
    return _say(ok, message, quiet)


def question(name: str) -> str:
    """The question of an exercise, as the checker understands it."""
    return EXERCISES[name][0] if name in EXERCISES else f"there is no exercise called {name!r}"


def show_source(obj: Any, start: str | None = None, stop: str | None = None) -> None:
    """Print the source of a kit function or class, or only its lines from the first containing ``start``
    through the next containing ``stop``, so a lesson can quote a rule straight from the code."""
    import inspect
    import textwrap
    lines = textwrap.dedent(inspect.getsource(obj)).splitlines()
    first = next((i for i, line in enumerate(lines) if start in line), None) if start else 0
    if first is None:
        print(f"(no line of {getattr(obj, '__qualname__', obj)} contains {start!r})")
        return
    last = next((i for i in range(first + 1, len(lines)) if stop in lines[i]), len(lines) - 1) if stop else len(lines) - 1
    print(textwrap.dedent("\n".join(lines[first:last + 1])))


def _say(ok: bool, message: str, quiet: bool) -> bool:
    if not quiet:
        print(("✔ Right: " if ok else "✘ Not yet: ") + message)
    return ok


def _unfinished(answer: Any) -> bool:
    return answer is ... or answer is NotImplemented


# --- helpers that turn comparisons into sentences ----------------------------------------------

def _call(fn: Callable, *args: Any) -> Any:
    """Call a student's function; a NotImplementedError means it is a stub."""
    if not callable(fn):
        raise NotAnswered(f"expected a function, got {type(fn).__name__} {fn!r}")
    try:
        return fn(*args)
    except NotImplementedError:
        raise NotAnswered(f"the function {getattr(fn, '__name__', 'you wrote')} still has no body") from None
    except Exception as e:
        shown = ", ".join(map(repr, args))
        raise NotAnswered(f"calling it with ({shown}) raised {type(e).__name__}: {e}") from None


def _number(answer: Any, expected: float, what: str, tolerance: float = 0.0) -> Verdict:
    if isinstance(answer, bool) or not isinstance(answer, (int, float)):
        return Verdict(False, f"{what} should be a number, but your answer is {type(answer).__name__} {answer!r}.")
    if math.isclose(answer, expected, abs_tol=tolerance) or answer == expected:
        return Verdict(True, f"{what} is {expected}.")
    direction = "too high" if answer > expected else "too low"
    return Verdict(False, f"{what}: your answer {answer!r} is {direction}.")


def _as_card(x: Any) -> Card:
    if isinstance(x, Card):
        return x
    if isinstance(x, str):
        return parse_card(x)
    raise InvalidCardError(f"{x!r} is not a card: give a Card or text such as '10♥'")


def _texts(items: Any, what: str) -> list[str]:
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise NotAnswered(f"expected a list of {what}, got {type(items).__name__} {items!r}")
    return [str(x) for x in items]


def _same_set(answer: Iterable[str], expected: Iterable[str], what: str, hint: str = "") -> Verdict:
    """Compare two sets without handing out the answer: wrong items are the student's own and may be named,
    missing ones are only counted (``hint`` says where to look for them)."""
    got, want = set(answer), set(expected)
    if got == want:
        return Verdict(True, f"those are all {len(want)} {what}.")
    parts = []
    if got - want:
        parts.append(f"not {what}: {', '.join(sorted(got - want))}")
    if want - got:
        parts.append(f"{len(want - got)} more {'is' if len(want - got) == 1 else 'are'} missing")
    right = len(got & want)
    return Verdict(False, f"{right} of your {len(got)} are right, but {'; '.join(parts)}." + (f" {hint}" if hint else ""))


def _replay(game: Any, what: str, start: Position, deal_name: str) -> Game:
    """Check that ``game`` is a Game that starts from ``start`` (the deal the exercise asks for) and whose
    moves replay legally from there; return the replay."""
    if not isinstance(game, Game):
        raise NotAnswered(f"expected the Game you played ({what}), got {type(game).__name__} {game!r}")
    if game.start != start:
        raise NotAnswered(f"your game does not start from {deal_name}: start a new game from that deal and play "
                          "your moves on it")
    replay = Game.from_position(game.start)
    for i, m in enumerate(game.moves, 1):
        reason = replay.explain(m)
        if reason:
            raise NotAnswered(f"move {i} ({m}) is not legal when replayed: {reason}")
        replay.play(m)
    return replay


# --- 01 cards -------------------------------------------------------------------------------

@exercise("01.red_cards", "How many red cards are there in SoliJoy's deck?")
def _red_cards(answer: Any) -> Verdict:
    deck = full_deck(SOLIJOY.ranks, SOLIJOY.decks)
    return _number(answer, sum(c.is_red for c in deck), "the number of red cards in SoliJoy's two decks")


@exercise("01.same_colour", "Write same_colour(a, b): True when cards a and b have the same colour.")
def _same_colour(fn: Any) -> Verdict:
    deck = full_deck()
    for a in deck:
        for b in deck:
            got = _call(fn, a, b)
            if got != (a.is_red == b.is_red):
                return Verdict(False, f"same_colour({a}, {b}) returned {got!r}: {a} is {a.color} and {b} is "
                                      f"{b.color}.")
    return Verdict(True, f"same_colour agrees with the kit on all {len(deck) ** 2} pairs of cards.")


@exercise("01.first_card", "Which card comes first in the Italian deck shuffled with seed 2024?")
def _first_card(answer: Any) -> Verdict:
    want = shuffled_deck(ITALIAN, 2024)[0]
    got = _as_card(answer)
    if got == want:
        return Verdict(True, f"seed 2024 puts {want} first, on this machine and every other one.")
    if got not in full_deck(ITALIAN.ranks):
        return Verdict(False, f"{got} is not even in the Italian 32-card deck (ranks {' '.join(ITALIAN.ranks)}).")
    return Verdict(False, f"{got} is in the deck, but not first: did you shuffle the Italian deck with seed 2024?")


# --- 02 rules -------------------------------------------------------------------------------

@exercise("02.opening_moves", "List (as text) every legal move at the start of Klondike deal 7.")
def _opening_moves(answer: Any) -> Verdict:
    return _same_set(_texts(answer, "moves"), map(str, legal_moves(deal(KLONDIKE, 7))), "legal opening moves",
                     hint="Look at each column's top card: can it go to a foundation, or onto another column? "
                          "And is the stock empty?")


@exercise("02.fits", "Write fits(card, under, variant): may `card` sit on `under` in a column of `variant`?")
def _fits(fn: Any) -> Verdict:
    for v in VARIANTS.values():
        r = rules(v)
        deck = sorted(set(full_deck(v.ranks)))
        for card in deck:
            for under in deck:
                want = under in r.parents[card]
                got = _call(fn, card, under, v)
                if got != want:
                    verb = "may" if want else "may not"
                    return Verdict(False, f"fits({card}, {under}, {v.name}) returned {got!r}, but in {v.name} {card} "
                                          f"{verb} sit on {under}: {v.column_rule()}.")
    return Verdict(True, "fits agrees with the rules module for every pair of cards in all three variants.")


@exercise("02.stock_through", "Play Klondike deal 1 from the start, drawing until the stock is empty. "
                              "How many draws did it take?")
def _stock_through(answer: Any) -> Verdict:
    p = deal(KLONDIKE, 1)
    return _number(answer, math.ceil(len(p.stock) / KLONDIKE.draw), "the number of draws")


@exercise("02.illegal_reason", "Give a move (text) that is illegal at the start of Klondike deal 7 because "
                               "the target is not one rank higher and of the opposite colour.")
def _illegal_reason(answer: Any) -> Verdict:
    p = deal(KLONDIKE, 7)
    move = Move.from_text(answer) if isinstance(answer, str) else answer
    if not isinstance(move, Move):
        raise NotAnswered(f"expected a move such as 't1>t2', got {answer!r}")
    if move in legal_moves(p):
        return Verdict(False, f"{move} is legal at the start of deal 7: look for one that is refused.")
    reason = explain_illegal(p, move) or "that move is not legal here"
    if "cannot go on" in reason and "higher rank" in reason:
        return Verdict(True, f"{move} is refused: {reason}.")
    return Verdict(False, f"{move} is illegal, but for another reason: {reason}.")


# --- 03 variants ----------------------------------------------------------------------------

@exercise("03.differences", "Which rule fields does SoliJoy change from Klondike? (a set of field names)")
def _differences(answer: Any) -> Verdict:
    got = set(_texts(answer, "field names")) - {"name"}  # the name is not a rule: with or without it is fine
    return _same_set(got, set(SOLIJOY.changes_from(KLONDIKE)) - {"name"}, "rules SoliJoy changes",
                     hint="Compare the two variants field by field (the rules table of this lesson).")


VERA_FRANCESE_RULES = {"ranks": ("A", "7", "8", "9", "10", "J", "Q", "K"), "empty_column_ranks": ("K",),
                       "columns_follow_foundation_order": False, "passes": 2}


@exercise("03.vera_francese", "Build 'la vera francese' from ITALIAN with dataclasses.replace: foundations "
                              "A 7 8 9 10 J Q K, columns built down (K Q J ... 8 7) as in Klondike, only Kings on "
                              "empty columns, and two passes through the stock.")
def _vera_francese(v: Any) -> Verdict:
    if not isinstance(v, Variant):
        raise NotAnswered(f"expected a Variant (made with dataclasses.replace), got {type(v).__name__} {v!r}")
    hints = {"ranks": "the foundations go A 7 8 9 10 J Q K (the Ace is low)",
             "empty_column_ranks": "only a King may start an empty column",
             "columns_follow_foundation_order": "the columns are built down, against the foundations, as in "
                                                "Klondike: which field says which way columns go?",
             "passes": "the stock may be gone through twice"}
    wrong = [f"{k} is not right yet ({hints[k]})" for k, w in VERA_FRANCESE_RULES.items() if getattr(v, k) != w]
    if wrong:
        return Verdict(False, "; ".join(wrong) + ".")
    kept = {f.name for f in dataclasses.fields(Variant)} - set(VERA_FRANCESE_RULES) - {"name"}
    changed = sorted(k for k in kept if getattr(v, k) != getattr(ITALIAN, k))
    if changed:
        return Verdict(False, f"the four rules are right, but you also changed {', '.join(changed)} from ITALIAN.")
    return Verdict(True, "ranks, column direction, empty columns and passes are right, and every other rule is "
                         "ITALIAN's.")


@exercise("03.stock_sizes", "How many cards are left in the stock after dealing seed 0 of each variant? "
                            "(a dict keyed by variant key)")
def _stock_sizes(answer: Any) -> Verdict:
    if not isinstance(answer, dict):
        raise NotAnswered(f"expected a dict such as {{'klondike': ..., ...}}, got {type(answer).__name__}")
    want = {k: len(deal(v, 0).stock) for k, v in VARIANTS.items()}
    wrong = [f"{k}: you have {answer.get(k)!r}" for k in want if answer.get(k) != want[k]]
    if wrong:
        return Verdict(False, "some counts are off — " + "; ".join(wrong) + ".")
    return Verdict(True, ", ".join(f"{k} {n}" for k, n in want.items()) + ".")


# --- 04 play --------------------------------------------------------------------------------

# PySolFC's Klondike deal 11982 as pysol-cards prints it (tests check this against pysol-cards and lesson 04).
PYSOL_DEAL = 11982
PYSOL_LAYOUT = """\
Talon: 9D TD KH 7C 6C 2C TH QH 6D TC 4S 7S JD 7D 8H 9C 2H QD 4C 5H KC 8D 2S 3S
8C
<6S> 5C
<2D> <QS> 5D
<AC> <3H> <AD> JC
<4H> <3D> <7H> <6H> 3C
<AS> <JS> <8S> <KD> <4D> 9S
<AH> <TS> <QC> <KS> <5S> <9H> JH
"""


def _pysol_start() -> Position:
    return Game.from_pysol(PYSOL_LAYOUT).start


@exercise("04.four_aces", "Starting from the PySol deal, play moves until all four Aces are on foundations.")
def _four_aces(game: Any) -> Verdict:
    replay = _replay(game, "after your moves", _pysol_start(), f"PySolFC deal {PYSOL_DEAL} (Game.from_pysol(LAYOUT))")
    aces = sum(1 for f in replay.position.foundations if f and f[0].rank_name == replay.variant.ranks[0])
    if aces == replay.variant.foundations:
        return Verdict(True, f"all {aces} Aces are home, and every move you played replays legally from the deal.")
    return Verdict(False, f"your {len(replay.moves)} moves are legal, and {aces} of the 4 Aces are on foundations: "
                          "the others are under face-down cards, so dig out the columns that hide them.")


@exercise("04.win", "Win the PySol deal: pass the Game after your winning moves.")
def _win(game: Any) -> Verdict:
    replay = _replay(game, "after your moves", _pysol_start(), f"PySolFC deal {PYSOL_DEAL} (Game.from_pysol(LAYOUT))")
    if replay.is_won():
        return Verdict(True, "every card is home, and every move you played replays legally from the deal.")
    n = replay.position.on_foundations()
    return Verdict(False, f"your moves are legal and {n} of {replay.variant.deck_size} cards are home: keep going.")


# --- 05 strategies --------------------------------------------------------------------------

@exercise("05.replay", "Solve Klondike deal 2, replay the solution on a fresh Game until it is won; pass that Game.")
def _replay_won(game: Any) -> Verdict:
    replay = _replay(game, "after the replayed solution", deal(KLONDIKE, 2), "Klondike deal 2 (Game('klondike', 2))")
    if replay.is_won():
        return Verdict(True, f"all {len(replay.moves)} moves replay legally and the game is won.")
    return Verdict(False, f"the {len(replay.moves)} moves are legal but the game is not won yet "
                          f"({replay.position.on_foundations()} cards home): did you play every move of the solution?")


STRATEGY_DEALS = range(50)


def _wins(strategy: Any, max_moves: int = 1500) -> int:
    from .strategies import play_game
    return sum(play_game("klondike", seed, strategy, max_moves=max_moves).outcome == "won" for seed in STRATEGY_DEALS)


@exercise("05.strategy", "Write a strategy that wins more Klondike deals than random play: an object with a name and "
                         "choose(obs, moves) -> one of moves (or a plain function (obs, moves) -> move).")
def _strategy(answer: Any) -> Verdict:
    """Plays the student's strategy, random and greedy on the same deals, and passes it when it beats random."""
    strategy = answer if hasattr(answer, "choose") else _FunctionStrategy(answer)
    if not callable(getattr(strategy, "choose", None)):
        raise NotAnswered(f"expected a strategy with a choose(obs, moves) method, got {answer!r}")
    from .strategies import play_game
    records = []
    for seed in STRATEGY_DEALS:
        try:
            records.append(play_game("klondike", seed, strategy, max_moves=1500))
        except NotImplementedError:
            raise NotAnswered("your strategy's choose still has no body") from None
        except Exception as e:
            return Verdict(False, f"on Klondike deal {seed} your strategy failed: {type(e).__name__}: {e}")
    wins = sum(r.outcome == "won" for r in records)
    stuck = sum(r.outcome == "move limit" for r in records)
    random_wins, greedy_wins = _wins("random"), _wins("greedy")
    deals = f"Klondike deals {STRATEGY_DEALS.start}-{STRATEGY_DEALS.stop - 1}"
    score = f"on {deals} your strategy won {wins}, random {random_wins}, greedy {greedy_wins}"
    if wins <= random_wins:
        hint = (f" {stuck} of your games ran into the 1,500-move limit: moving builds back and forth leads "
                "nowhere, so put those moves last." if stuck else
                " Which moves make progress? A flip, or a move that uncovers a face-down card, is almost "
                "always good; moving a build sideways rarely is.")
        return Verdict(False, f"{score}: not better than random yet.{hint}")
    verdict = "and greedy too!" if wins > greedy_wins else ("as many as greedy." if wins == greedy_wins else
                                                             "but not greedy (that is a final project).")
    return Verdict(True, f"{score}: you beat random, {verdict}")


class _FunctionStrategy:
    """Lets a plain function ``(obs, moves) -> move`` play as a strategy."""

    def __init__(self, fn: Callable) -> None:
        if not callable(fn):
            raise NotAnswered(f"expected a strategy or a function (obs, moves) -> move, got {fn!r}")
        self.fn, self.name = fn, getattr(fn, "__name__", "yours")

    def choose(self, obs: Any, moves: Any) -> Any:
        move = self.fn(obs, moves)
        return Move.from_text(move) if isinstance(move, str) else move

    def explain(self, obs: Any, move: Any) -> str:
        return f"{move}: your strategy chose it."


@exercise("05.greedy_wins", "How many of Klondike deals 20 to 39 does the greedy strategy win?")
def _greedy_wins(answer: Any) -> Verdict:
    from .strategies import play_game
    wins = sum(play_game("klondike", seed, "greedy").outcome == "won" for seed in range(20, 40))
    return _number(answer, wins, "the number of deals 20-39 greedy wins")


# --- 06 experiments -------------------------------------------------------------------------

@exercise("06.interval", "Give the 95% Wilson interval (low, high) for 30 wins in 100 games, to 3 decimals.")
def _interval(answer: Any) -> Verdict:
    from .experiments import wilson  # pandas is needed only here
    try:
        low, high = answer
    except (TypeError, ValueError):
        raise NotAnswered(f"expected a pair (low, high), got {answer!r}") from None
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (low, high)):
        raise NotAnswered(f"expected two numbers (low, high), got {answer!r}")
    want = wilson(30, 100)
    if all(abs(x - w) <= 0.0015 for x, w in zip((low, high), want)):
        return Verdict(True, f"the interval is ({want[0]:.3f}, {want[1]:.3f}): note it is not centred on 0.30.")
    wald = 1.96 * math.sqrt(0.3 * 0.7 / 100)
    if abs(low - (0.3 - wald)) < 0.002 and abs(high - (0.3 + wald)) < 0.002:
        return Verdict(False, "that is the normal (Wald) interval, 0.30 ± 1.96·√(0.3·0.7/100); "
                              "the Wilson interval is pulled toward 0.5.")
    return Verdict(False, f"({low}, {high}) is not the Wilson interval for 30 wins in 100 games.")


@exercise("06.draw3_rate", "What share of Klondike deals 0 to 99 does greedy win when three cards are drawn at a "
                           "time? (a fraction between 0 and 1)")
def _draw3_rate(answer: Any) -> Verdict:
    from .strategies import play_game
    draw3 = dataclasses.replace(KLONDIKE, name="Klondike draw 3", draw=3)
    wins = sum(play_game(draw3, seed, "greedy").outcome == "won" for seed in range(100))
    if isinstance(answer, (int, float)) and not isinstance(answer, bool) and answer == wins and wins > 1:
        return Verdict(False, f"{answer} is the number of wins; give the share, wins / 100.")
    return _number(answer, wins / 100, "greedy's draw-3 win rate on deals 0-99", tolerance=0.0005)



def _width_at_80(n: int) -> float:
    from .experiments import wilson
    low, high = wilson(round(0.8 * n), n)
    return high - low


@exercise("06.deals_needed", "About how many deals does it take for a 95% Wilson interval around a win rate of "
                             "80% to be at most 2 percentage points wide (±1 point)?")
def _deals_needed(answer: Any) -> Verdict:
    if isinstance(answer, bool) or not isinstance(answer, (int, float)) or not math.isfinite(answer):
        raise NotAnswered(f"expected a number of deals, got {answer!r}")
    if answer < 1:
        return Verdict(False, f"{answer!r} is not a number of deals: give a whole number of deals, at least 1.")
    n = 100
    while _width_at_80(n) > 0.02:
        n += 1
    deals = round(answer)
    if deals >= n:
        if deals <= 1.03 * n:
            return Verdict(True, f"about {n} deals: four times the deals for half the width, since the width "
                                 "shrinks like 1/√n.")
        return Verdict(True, f"{deals} deals are enough (the interval is {_width_at_80(deals):.4f} wide), but fewer "
                             "would do: how small can you go? The width shrinks like 1/√n.")
    if deals >= 0.97 * n:
        return Verdict(True, f"about {n} deals (yours, {deals}, is a hair short: the interval is "
                             f"{_width_at_80(deals):.4f} wide): four times the deals for half the width.")
    return Verdict(False, f"with {deals} deals the interval is {_width_at_80(deals):.4f} wide, more than 0.02: "
                          "try more deals (the width shrinks like 1/√n, so halving it takes four times the deals).")


# --- 07 search ------------------------------------------------------------------------------
# The kit's own answer to lesson 07's first exercise: the checks compare students' searches with it, and the
# lesson measures the solver's ideas with it (so the lesson runs before a student's search does).

MINI = Variant("Mini Klondike", ranks=("A", "2", "3", "4", "5", "6"), columns=(1, 2, 3, 4, 5),
               empty_column_ranks=("6",))


def plain_key(p: Position) -> tuple:
    """What a search remembers of a position: all of it but the recycle count (another trip round the stock
    changes nothing else, and counting trips would make the search endless).

    >>> p = deal(MINI, 0)
    >>> plain_key(p) == plain_key(p._replace(recycles=5))
    True
    """
    return p.stock, p.waste, p.foundations, p.columns, p.hidden


def all_children(p: Position) -> list[Position]:
    """Every position one legal move away."""
    return [apply(p, m) for m in legal_moves(p)]


def depth_first(start: Position, key: Callable[[Position], Any] = plain_key,
                children: Callable[[Position], list[Position]] = all_children,
                max_nodes: int = 100_000) -> tuple[str, int]:
    """Depth-first search with a visited set: ("won" | "unwinnable" | "unknown", positions seen).

    "unwinnable" means every position reachable from ``start`` was seen; "unknown" that ``max_nodes``
    positions were seen first. Positions with the same ``key`` count once.

    >>> depth_first(deal(MINI, 0))
    ('won', 1053)
    """
    visited = {key(start)}
    stack = [start]
    while stack:
        p = stack.pop()
        if is_won(p):
            return "won", len(visited)
        for q in children(p):
            k = key(q)
            if k not in visited:
                if len(visited) >= max_nodes:
                    return "unknown", len(visited)
                visited.add(k)
                stack.append(q)
    return "unwinnable", len(visited)


@functools.lru_cache(maxsize=None)
def _mini_search(seed: int, columns_as_a_set: bool = False) -> tuple[str, int]:
    key = (lambda p: (p.stock, p.waste, p.foundations, tuple(sorted(zip(p.columns, p.hidden))))) if columns_as_a_set \
        else plain_key
    return depth_first(deal(MINI, seed), key, max_nodes=1_000_000)


UNWINNABLE_MINI = 14  # a Mini Klondike deal that cannot be won (the check below proves it again)


@exercise("07.dfs", "Write dfs(start, max_nodes): a depth-first search with a visited set (keyed by plain_key) that "
                    "returns (status, nodes): 'won', 'unwinnable' or 'unknown', and the positions it saw.")
def _dfs(fn: Any) -> Verdict:
    got = _call(fn, deal(MINI, UNWINNABLE_MINI), 500)  # first the budget, on a deal whose search always ends
    if not (isinstance(got, tuple) and len(got) == 2 and got[0] == "unknown" and isinstance(got[1], int)
            and got[1] <= 600):
        return Verdict(False, f"with max_nodes=500 on Mini Klondike deal {UNWINNABLE_MINI} your search returned "
                              f"{got!r}: it should stop when it has seen max_nodes positions and return ('unknown', nodes).")
    for seed in (0, 1, 2, UNWINNABLE_MINI):
        want_status, want_nodes = _mini_search(seed)
        got = _call(fn, deal(MINI, seed), 100_000)
        if not (isinstance(got, tuple) and len(got) == 2 and isinstance(got[1], int)):
            return Verdict(False, f"dfs should return a pair (status, nodes) such as ('won', 812), but it returned "
                                  f"{got!r}.")
        status, nodes = got
        if status != want_status:
            hint = ("is a won position put on the stack but never recognised? test is_won(p) for each position you "
                    "take off the stack" if want_status == "won" else
                    "a search may say 'won' only when it reached a won position")
            return Verdict(False, f"on Mini Klondike deal {seed} your search says {status!r}, but that is not right: "
                                  f"{hint}.")
        if want_status == "unwinnable" and nodes != want_nodes:
            way = "more" if nodes > want_nodes else "fewer"
            return Verdict(False, f"on deal {seed}, which cannot be won, every correct search sees each reachable "
                                  f"position exactly once, whatever order it tries moves in; yours counts {way} "
                                  "positions than that. Do you key the visited set with plain_key, count the start "
                                  "position, and count each position when you first see it?")
    return Verdict(True, f"your search agrees with the kit's on Mini Klondike deals 0, 1, 2 and {UNWINNABLE_MINI} "
                         f"(which it proves unwinnable after {_mini_search(UNWINNABLE_MINI)[1]} positions), and it "
                         "keeps to its budget.")


@exercise("07.reachable", "How many positions can be reached from Mini Klondike deal 81 (counted with plain_key)?")
def _reachable(answer: Any) -> Verdict:
    status, n = _mini_search(81)
    if status != "unwinnable":  # a deal that can be won would make the count depend on the search order
        raise RuntimeError("Mini Klondike deal 81 was expected to be unwinnable")
    if answer != n and answer == _mini_search(81, columns_as_a_set=True)[1]:
        return Verdict(False, "that is the count with the columns as a set (canonical states); this exercise counts "
                              "positions as plain_key tells them apart.")
    verdict = _number(answer, n, "the number of positions reachable from deal 81")
    if not verdict.ok and isinstance(answer, (int, float)) and not isinstance(answer, bool):
        if answer in (100_000, 100_001):
            return Verdict(False, "your search stopped at its budget of 100,000 positions: give it more (max_nodes).")
        return Verdict(False, verdict.message + " Deal 81 cannot be won, so a correct search sees every reachable "
                                                "position once: run your dfs with a large max_nodes.")
    return verdict


@exercise("07.safe", "Write safe(p, card): may card go to its foundation without ever being missed in a column? "
                     "(True when every card that could sit on it in a column is on a foundation already)")
def _safe(fn: Any) -> Verdict:
    from .endgame import safe_to_foundation
    from .strategies import RandomStrategy
    tried = 0
    for v in (MINI, KLONDIKE, ITALIAN):
        for seed in range(3):
            p, strategy = deal(v, seed), RandomStrategy(seed)
            for step in range(300):
                moves = legal_moves(p)
                if not moves:
                    break
                tops = [col[-1] for col, h in zip(p.columns, p.hidden) if len(col) > h] + list(p.waste[-1:])
                for card in tops:
                    want, got = safe_to_foundation(p, card), _call(fn, p, card)
                    tried += 1
                    if got != want:
                        blockers = [str(c) for c in rules(v).children[card]]
                        why = (f"the cards that could sit on {card} in a column ({', '.join(blockers)}) are all on "
                               "foundations" if want else
                               f"{' or '.join(blockers)} could still need {card} in a column")
                        return Verdict(False, f"safe(p, {card}) returned {got!r} in a {v.name} position, but {why}.")
                p = apply(p, strategy.choose(observe(p), moves))
    return Verdict(True, f"safe agrees with the kit's safe_to_foundation on {tried} cards of {MINI.name}, Klondike "
                         "and Italian positions.")
