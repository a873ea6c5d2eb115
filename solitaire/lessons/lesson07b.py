"""Checks for the exercises of lesson 07b (settling: playing safe moves at once) and of its Going deeper notebook
(practice: the safe test, a canonical key), registered with ``solitaire.lessons.check``, and the kit's own
``play_safe_moves`` that the lesson's searches use while a student's ``settle`` is not written yet.

Each answer is tried on positions of seeded random play that no lesson shows, with the kit's own version
switched off while it runs.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from ..endgame import Outcome
from ..engine import what_differs
from ..moves import FLIP, apply, legal_moves, rules
from ..render import text_diagram
from ..state import Position, deal, observe
from ..variants import ITALIAN, KLONDIKE, SOLIJOY, Variant
from .hidden import hidden_seeds
from .checks import NotAnswered, Verdict, _short, answers_of, call_student, calls_into, exercise, no_return
from .lesson07 import MINI, canonical_state_key
from .pieces import playout_positions


def _random_positions(variants: tuple[Variant, ...], steps: int, every: int = 1) -> list[Position]:
    """Positions of seeded random play (three deals of each variant), every ``every``-th move."""
    from ..strategies import RandomStrategy
    out = []
    for v in variants:
        for seed in hidden_seeds([0, 1, 2], 7300):  # secret deals first in a graded check
            p, strategy = deal(v, seed), RandomStrategy(seed)
            for step in range(steps):
                moves = legal_moves(p)
                if not moves:
                    break
                if step % every == 0:
                    out.append(p)
                p = apply(p, strategy.choose(observe(p), moves))
    return out


@exercise("07b.safe", "Write safe(p, card): may card go to its foundation without ever being missed in a column? "
                     "(True when every card that could sit on it in a column is on a foundation already; with two "
                     "decks, both copies of it)",
          pieces=["solitaire.endgame.safe_to_foundation", "solitaire.endgame.safe_foundation_moves"],
          shows=("solitaire.endgame.safe_to_foundation", "v, children =", None))
def _safe(fn: Any) -> Verdict:
    """Compares the student's safe with the kit's on the top cards of random play in the four games (SoliJoy's two
    decks included), after checking that it is not a wrapper around the kit's (a call into ``safe_to_foundation``
    while it runs is refused)."""
    from ..endgame import safe_foundation_moves, safe_to_foundation
    p = deal(KLONDIKE, 0)
    kit = calls_into(fn, (p, p.columns[0][-1]), [safe_to_foundation, safe_foundation_moves])
    if kit:
        return Verdict(False, f"your safe calls the kit's {kit}, so it is the kit's answer, not yours: work it out "
                              "from rules(p.variant).children[card] and p.foundations.")
    tried = 0
    cards = [(p, card) for p in _random_positions(SAFE_VARIANTS, 300)
             for card in [col[-1] for col, h in zip(p.columns, p.hidden) if len(col) > h] + list(p.waste[-1:])]
    for (p, card), got in zip(cards, answers_of(fn, cards)):
        want = safe_to_foundation(p, card)
        tried += 1
        if got is None:
            return no_return(fn, got)
        if got != want:
            return Verdict(False, f"safe(p, {card}) returned {_short(got)} in this {p.variant.name} position, "
                                  f"but {_why_safe(p, card, want)}:\n{text_diagram(p)}")
    return Verdict(True, f"safe agrees with the kit's safe_to_foundation on {tried} cards of "
                         f"{', '.join(v.name for v in SAFE_VARIANTS)} positions.")


SAFE_VARIANTS = (MINI, KLONDIKE, SOLIJOY, ITALIAN)


def _why_safe(p: Position, card: Any, want: bool) -> str:
    """Why ``card`` is safe in ``p`` (``want``) or is not: the cards that could sit on it, and where they are."""
    children = rules(p.variant).children[card]
    if want:
        return (f"the cards that could sit on {card} in a column ({', '.join(map(str, children))}) are all on "
                "foundations")
    home = [c for pile in p.foundations for c in pile]
    if p.variant.decks > 1 and all(c in home for c in children):
        missing = [str(c) for c in children if home.count(c) < p.variant.decks]
        one, other = ("is", "the other") if len(missing) == 1 else ("are", "the others")
        return (f"{p.variant.name} plays with {p.variant.decks} decks, so each card is there {p.variant.decks} times: "
                f"one {' and one '.join(missing)} {one} home, but {other} could still need {card} in a column")
    return f"{' or '.join(map(str, children))} could still need {card} in a column"


def _twins_and_others(p: Position) -> list[tuple[Position, str]]:
    """Positions to compare with ``p``: its columns in another order, another recycle count, a column with one
    face-down card fewer, two columns' face-down counts swapped, the stock reversed, the waste below its top
    reversed (the next trip round the stock deals it in another order), and its children (a King
    moved from a column of its own to an empty column is the same game)."""
    cols, hidden = p.columns, p.hidden
    out = [(p._replace(columns=cols[::-1], hidden=hidden[::-1]), "its columns in the opposite order"),
           (p._replace(recycles=p.recycles + 1), "one more trip round the stock")]
    down = [i for i, h in enumerate(hidden) if h]
    if down:
        i = down[-1]
        out.append((p._replace(hidden=hidden[:i] + (hidden[i] - 1,) + hidden[i + 1:]), f"one more card of t{i + 1} "
                                                                                        "face up"))
    swap = next(((i, j) for i in range(len(cols)) for j in range(i) if hidden[i] != hidden[j]
                 and hidden[i] < len(cols[j]) and hidden[j] < len(cols[i])), None)
    if swap:
        i, j = swap
        changed = list(hidden)
        changed[i], changed[j] = hidden[j], hidden[i]
        out.append((p._replace(hidden=tuple(changed)), f"the face-down counts of t{j + 1} and t{i + 1} swapped"))
    if len(p.stock) > 1:
        out.append((p._replace(stock=p.stock[::-1]), "the stock in the opposite order"))
    if len(p.waste) > 2:
        waste = p.waste[-2::-1] + p.waste[-1:]
        out.append((p._replace(waste=waste), f"the waste below its top card in the opposite order (waste "
                                             f"{' '.join(map(str, p.waste))}, then {' '.join(map(str, waste))})"))
    out += [(apply(p, m), f"the move {m}") for m in legal_moves(p)]
    return out


def _hashable_key(fn: Any, p: Position) -> Any:
    key = call_student(fn, p)
    if key is None:
        raise NotAnswered(no_return(fn, key).message)
    try:
        hash(key)
    except TypeError:
        raise NotAnswered(f"canonical_key returned a {type(key).__name__}, which a set cannot hold: build the key "
                          "from tuples (tuple(...), sorted(...) gives a list), not lists") from None
    return key


@exercise("07b.canonical", "Write canonical_key(p): the same key for two positions whose columns differ only in "
                          "order (each column with its face-down count) or in the recycle count, and different keys "
                          "for positions that are different games.",
          pieces=["solitaire.lessons.lesson07.canonical_state_key"])
def _canonical(fn: Any) -> Verdict:
    """Compares, on positions of random play, when the student's key says "the same game" with when the
    columns taken as a set (each with its face-down count) say it."""
    kit = calls_into(fn, (deal(MINI, 0),), [canonical_state_key])
    if kit:
        return Verdict(False, f"your canonical_key calls the kit's {kit}, so it is the kit's key, not yours: build "
                              "it yourself from p.stock, p.waste, p.foundations, p.columns and p.hidden.")
    pairs = 0
    for p in _random_positions((MINI, KLONDIKE), 120, every=6):
        mine = _hashable_key(fn, p)
        for q, how in _twins_and_others(p):
            same, said = canonical_state_key(p) == canonical_state_key(q), mine == _hashable_key(fn, q)
            pairs += 1
            if same != said:
                verdict = ("gives them different keys, but they are the same game" if same else
                           "gives them the same key, but they are different games")
                return Verdict(False, f"these two {p.variant.name} positions differ by {how}; your canonical_key "
                                      f"{verdict}:\n{text_diagram(p)}\n\n{text_diagram(q)}")
    return Verdict(True, f"your key tells the same game from a different one as the columns taken as a set do, "
                         f"on {pairs} pairs of Mini Klondike and Klondike positions.")


def play_safe_moves(p: Position) -> Position:
    """The kit's settle: play safe moves (flips, and foundation moves whose card ``safe_to_foundation`` lets go
    home) until none is left.

    >>> p = deal(MINI, 0)  # lesson 07b's example: A♣ goes home, the card it covered turns up, 2♥ waits for A♠
    >>> [len(pile) for pile in p.foundations], [len(pile) for pile in play_safe_moves(p).foundations]
    ([0, 0, 0, 0], [1, 0, 0, 0])
    >>> q = play_safe_moves(p)
    >>> str(q.foundations[0][-1]), p.hidden, q.hidden, str(p.columns[3][-1]), str(q.columns[3][-1])
    ('A♣', (0, 1, 2, 3, 4), (0, 0, 2, 3, 4), '2♥', '2♥')
    """
    from ..endgame import safe_foundation_moves
    while True:
        moves = legal_moves(p)
        safe_moves = [m for m in moves if m.kind == FLIP] + safe_foundation_moves(p, moves)
        if not safe_moves:
            return p
        p = apply(p, safe_moves[0])


SETTLE_VARIANTS = (MINI, KLONDIKE, SOLIJOY, ITALIAN)  # safe_to_foundation counts SoliJoy's two copies
SETTLE_POSITIONS = 150  # of each variant, from playouts of hidden deals


def _same_game(p: Position, q: Position) -> bool:
    """Equal but for which foundation holds which suit (the order the Aces went up in)."""
    return p._replace(foundations=tuple(sorted(p.foundations))) == q._replace(foundations=tuple(sorted(q.foundations)))


def _home(p: Position) -> Counter:
    """The cards on the foundations, each with how many copies are there (two decks: up to two)."""
    return Counter(c for pile in p.foundations for c in pile)


def _settle_mistake(p: Position, got: Position, want: Position, again: Any) -> str:
    """What a wrong settle did at ``p``, in words: an unsafe card sent home, a safe move left (and, when the
    student's settle run again from where it stopped, ``again``, moves on, that it stopped too soon: a stale list
    of moves, or one move only), or another change."""
    unsafe = _home(got) - _home(want)
    if unsafe:
        card = min(unsafe)
        waiting = [str(c) for c in rules(p.variant).children[card] if c not in _home(got)]
        return (f"it sent {card} home, but {' and '.join(waiting) or 'a card'} could still need it in a column: "
                "only a card safe_to_foundation says is safe may go")
    if isinstance(again, Position) and not _same_game(again, got) and not _same_game(play_safe_moves(got), got):
        return ("it stopped too soon: given the position it reached, your settle plays more safe moves. A move can "
                "make another move safe (a card sent home can uncover a card to flip), so after each move you play, "
                "list the legal moves again, and stop only when none of them is safe")
    left = _home(want) - _home(got)
    if left:
        return f"it stopped with {min(left)} still safe to send home: play safe moves until none is left"
    if got.hidden != want.hidden:
        return "it left a face-down card that a flip turns up: a flip is always safe"
    return "it made another position than the safe moves make: " + what_differs(got, want)


@exercise("07b.settle", "Write settle(p): play safe moves (a flip, or a foundation move whose card "
                        "safe_to_foundation(p, card) says may go home) one at a time until none is left, and return "
                        "the position reached.",
          pieces=["solitaire.lessons.lesson07b.play_safe_moves", "solitaire.endgame.safe_foundation_moves"],
          shows=("solitaire.lessons.lesson07b.play_safe_moves", "while True", None))
def _settle(fn: Any) -> Verdict:
    """Compares the student's settle with the kit's on positions of hidden deals of the four games."""
    tried = 0
    for v in SETTLE_VARIANTS:
        for p in playout_positions(v, "", SETTLE_POSITIONS):
            got, want = call_student(fn, p), play_safe_moves(p)
            tried += 1
            if got is None:
                return no_return(fn, got)
            if not isinstance(got, Position):
                raise NotAnswered(f"settle should return a position (what apply returns), but returned {_short(got)}")
            if not _same_game(got, want):
                again = call_student(fn, got) if got != p else got
                return Verdict(False, f"in this {v.name} position your settle is off: "
                                      f"{_settle_mistake(p, got, want, again)}."
                                      f"\n{text_diagram(p)}")
    return Verdict(True, f"your settle reaches the kit's position from all {tried} positions tried, of hidden deals "
                         f"of {', '.join(v.name for v in SETTLE_VARIANTS)}.")


def plot_saving(rows: Any) -> Any:
    """Lesson 07b's picture of what safe moves change: one point per deal, the positions its search sees without
    safe moves (across) and with them (up), both on log scales, with the diagonal where the two are equal. Won
    deals and deals that cannot be won have a colour and marker each; the deals that cannot be won, and the won
    deals with the largest rise and the largest fall, carry their numbers. ``rows``: one dict a deal, with the keys
    deal, status, plain and "safe moves" (or a table with those columns).

    >>> fig = plot_saving([{"deal": 0, "status": "won", "plain": 100, "safe moves": 300},
    ...                    {"deal": 1, "status": "won", "plain": 900, "safe moves": 200},
    ...                    {"deal": 2, "status": "unwinnable", "plain": 5000, "safe moves": 700}])
    >>> [text.get_text() for text in fig.legends[0].get_texts()]
    ['won deal', 'deal that cannot be won', 'the same count both ways']
    """
    import matplotlib.pyplot as plt
    import matplotlib.ticker as mticker

    from ..plots import FONTS, OKABE_ITO
    rows = rows.to_dict("records") if hasattr(rows, "to_dict") else list(rows)
    looks = {Outcome.WON: ("won deal", OKABE_ITO[3], "o", 9),
             Outcome.UNWINNABLE: ("deal that cannot be won", OKABE_ITO[4], "D", 11)}
    counts = [r["plain"] for r in rows] + [r["safe moves"] for r in rows]
    ends = (min(counts) / 1.8, max(counts) * 1.8)  # room for a whole marker and its label at either end
    ratios = {r["deal"]: r["safe moves"] / r["plain"] for r in rows if r["status"] == Outcome.WON}
    named = {max(ratios, key=ratios.get), min(ratios, key=ratios.get)} if ratios else set()  # furthest either way
    with plt.rc_context(FONTS):  # the projector's font sizes, as every plot of the kit
        fig, ax = plt.subplots(figsize=(7.5, 7), layout="constrained")
        for status, (label, colour, marker, size) in looks.items():
            part = [r for r in rows if r["status"] == status]
            ax.plot([r["plain"] for r in part], [r["safe moves"] for r in part], linestyle="none", marker=marker,
                    markersize=size, color=colour, markeredgecolor="black", markeredgewidth=0.6, label=label)
        ax.plot(ends, ends, color="0.35", linestyle="--", label="the same count both ways")
        for r in rows:
            if r["deal"] in named or r["status"] != Outcome.WON:
                ax.annotate(f"deal {r['deal']}", (r["plain"], r["safe moves"]), xytext=(9, -4),
                            textcoords="offset points", fontsize=12)
        ax.text(0.96, 0.04, "fewer positions\nwith safe moves", transform=ax.transAxes, ha="right", va="bottom",
                color="0.3")
        ax.text(0.04, 0.96, "more positions\nwith safe moves", transform=ax.transAxes, ha="left", va="top", color="0.3")
        ax.set(xscale="log", yscale="log", xlim=ends, ylim=ends, aspect="equal",
               xlabel="positions seen without safe moves", ylabel="positions seen with safe moves",
               title="Mini Klondike: positions the search sees, deal by deal")
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_major_formatter(mticker.FuncFormatter(lambda v, _: f"{v:,.0f}"))
        ax.grid(alpha=0.3)
        fig.legend(loc="outside lower center", ncols=2)
    return fig
