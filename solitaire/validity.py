"""Could play reach this position? ``status`` lists every reason it could not; ``validate`` raises.

A position is valid when some sequence of legal moves from some deal of its variant could reach it. The kit
cannot try every deal, so it checks what every game keeps true, and refuses only what no game could reach
(python-chess's ``Board.status()`` is the model: one function that names each reason, and an empty answer
for a position play can reach). Read ``status``, then one small function per check, in its order:

1. ``_shape``: as many columns and foundations as the variant has, face-down counts that fit their columns;
2. ``_deck``: exactly the variant's cards, each as many times as its decks hold;
3. ``_foundations``: each starts with the first rank and follows its suit in the variant's order;
4. ``_columns``: never more face-down cards than the deal gave the column (no move turns a card face down);
   the face-up cards built by the variant's rule (only the deal lays face-up cards that do not follow it);
   a face-up top card where flips are automatic; where the deal sets Aces aside, no Ace turned up by it;
5. ``_stock``: no more cards in the stock and the waste than the deal left there (no move puts a card back),
   and, before the first recycle, a stock that lost only whole draws;
6. ``_recycles``: no more recycles than the variant's passes allow.

A text can say more than a ``Position`` holds: ``face_down_problem`` refuses a face-down card in the waste or
on a foundation, where every card lies face up (the readers of ``solitaire.notation`` ask it).
"""
from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from .cards import Card, full_deck
from .moves import rules
from .state import Position
from .variants import Variant, rank_phrase

SHAPE, DECK, FOUNDATION, FACE_DOWN, BUILD, DEAL, STOCK, RECYCLES = (
    "shape", "deck", "foundation", "face down", "build", "deal", "stock", "recycles")
RULES = (SHAPE, DECK, FOUNDATION, FACE_DOWN, BUILD, DEAL, STOCK, RECYCLES)  # each reason's name, in check order
MOST_SHOWN = 3  # reasons in one error message, so that it stays one readable line


class InvalidPositionError(ValueError):
    """A position that no sequence of legal moves from a deal of its variant could reach."""


class Problem(NamedTuple):
    """One reason a position cannot be reached: the pile it is about ('t3', 'f1', 'waste', 'stock', 'recycles',
    or '' for the whole position), the rule it breaks (one of ``RULES``) and the reason in words.

    >>> str(Problem("t3", BUILD, "9♥ lies on 6♠"))
    't3: 9♥ lies on 6♠'
    """

    pile: str
    rule: str
    text: str

    def __str__(self) -> str:
        return f"{self.pile}: {self.text}" if self.pile else self.text


def status(p: Position) -> list[Problem]:
    """Every reason no game of ``p.variant`` could reach ``p``; an empty list when none is found.

    >>> from solitaire import KLONDIKE, deal
    >>> status(deal(KLONDIKE, 1))
    []
    >>> p = deal(KLONDIKE, 1)  # column t2 is <9♣> 6♦: turn 9♣ face up too
    >>> [str(problem) for problem in status(p._replace(hidden=(0, 0) + p.hidden[2:]))]  # doctest: +ELLIPSIS
    ['t2: 6♦ lies face up on 9♣, but in Klondike a card goes on the card just before it in the order K Q J ...']
    """
    shape = list(_shape(p))
    if shape:  # the other checks would read piles that are not there
        return shape
    return [*_deck(p), *_foundations(p), *_columns(p), *_stock(p), *_recycles(p)]


def validate(p: Position) -> Position:
    """``p`` itself when play could reach it; else ``InvalidPositionError`` naming the reasons in one line.

    >>> from solitaire import KLONDIKE, deal
    >>> validate(deal(KLONDIKE, 1)) == deal(KLONDIKE, 1)
    True
    >>> validate(deal(KLONDIKE, 1)._replace(recycles=-1))
    Traceback (most recent call last):
    solitaire.validity.InvalidPositionError: impossible Klondike position: recycles: -1 is not a count of recycles (a whole number from 0)

    Raises:
        InvalidPositionError: (a ValueError) naming the pile, the cards and the rule of each reason.
    """
    problems = status(p)
    if problems:
        raise InvalidPositionError(f"impossible {p.variant.name} position: {describe(problems)}")
    return p


def describe(problems: list[Problem]) -> str:
    """The reasons in one line: the first ``MOST_SHOWN``, then how many more.

    >>> describe([Problem("t1", BUILD, "a"), Problem("", DECK, "b")] * 3)
    't1: a; b; t1: a; and 3 more'
    """
    shown = "; ".join(str(problem) for problem in problems[:MOST_SHOWN])
    return shown + (f"; and {len(problems) - MOST_SHOWN} more" if len(problems) > MOST_SHOWN else "")


def face_down_problem(pile: str, cards: tuple[Card, ...], face_down: int) -> Problem | None:
    """A face-down card where every card lies face up: the waste ('waste') and the foundations ('f1', ...).

    >>> from solitaire import Card
    >>> str(face_down_problem("waste", (Card("7♥"),), 1))
    'waste: <7♥> is face down, but every card of the waste lies face up (a draw turns it over)'
    >>> face_down_problem("t1", (Card("7♥"),), 1) is None  # a column may hide cards
    True
    """
    if not face_down or pile in ("stock",) or pile.startswith("t"):
        return None
    where = "the waste" if pile == "waste" else "a foundation"
    why = "a draw turns it over" if pile == "waste" else "a card goes there from the waste or a column's top"
    down = " ".join(f"<{c}>" for c in cards[:face_down])
    return Problem(pile, FACE_DOWN, f"{down} {'is' if face_down == 1 else 'are'} face down, but every card of "
                                    f"{where} lies face up ({why})")


# --- 1. the shape of the position ----------------------------------------------------------------------
def _shape(p: Position):
    v = p.variant
    if not isinstance(v, Variant):
        yield Problem("", SHAPE, f"its variant must be a Variant, not {type(v).__name__}")
        return
    if len(p.columns) != len(v.columns) or len(p.hidden) != len(p.columns):
        yield Problem("", SHAPE, f"{v.name} has {len(v.columns)} columns; the position has {len(p.columns)}, "
                                 f"with {len(p.hidden)} face-down counts")
    if len(p.foundations) != v.foundations:
        yield Problem("", SHAPE, f"{v.name} has {v.foundations} foundations; the position has {len(p.foundations)}")
    if not all(isinstance(c, Card) for c in p.cards()):
        yield Problem("", SHAPE, "every card must be a Card (solitaire.Card)")
    for i, (col, h) in enumerate(zip(p.columns, p.hidden), 1):
        if type(h) is not int or not 0 <= h <= len(col):
            yield Problem(f"t{i}", SHAPE, f"{h!r} face-down cards in a column of {len(col)}")
    if type(p.recycles) is not int or p.recycles < 0:
        yield Problem("recycles", SHAPE, f"{p.recycles!r} is not a count of recycles (a whole number from 0)")


def _cards(n: int, what: str = "card") -> str:
    """``n`` cards in words: '1 card', '3 cards'."""
    return f"{n} {what}{'s' * (n != 1)}"


# --- 2. the deck ---------------------------------------------------------------------------------------
def _deck(p: Position):
    v = p.variant
    have, need = Counter(p.cards()), Counter(full_deck(v.ranks, v.decks))
    if have != need:
        missing, extra = need - have, have - need
        parts = [f"missing {some(missing)}" if missing else "",
                 f"not in this deck or too many: {some(extra)}" if extra else ""]
        yield Problem("", DECK, f"the position must hold the {v.deck_size} cards of {v.name}: "
                                + "; ".join(x for x in parts if x))


def some(cards: Counter, most: int = 12) -> str:
    """At most ``most`` of the cards, then how many more, so that a message stays readable.

    >>> some(Counter(full_deck()), 3)
    'A♣ 2♣ 3♣ and 49 more'
    """
    shown = [str(c) for c, _ in zip(cards.elements(), range(most))]
    more = sum(cards.values()) - len(shown)
    return " ".join(shown) + (f" and {more:,} more" if more else "")


# --- 3. the foundations --------------------------------------------------------------------------------
def _foundations(p: Position):
    v, r = p.variant, rules(p.variant)
    for i, pile in enumerate(p.foundations, 1):
        if pile and r.step[pile[0]] != 0:
            yield Problem(f"f{i}", FOUNDATION, f"{pile[0]} cannot start a foundation: it must start with "
                                               f"{rank_phrase(v.ranks[0])}")
        for below, above in zip(pile, pile[1:]):
            if r.next_up[below] != above:
                yield Problem(f"f{i}", FOUNDATION, f"{above} cannot follow {below}: a foundation takes the next "
                                                   f"card of its suit in the order {' '.join(v.ranks)}")
                break


# --- 4. the columns ------------------------------------------------------------------------------------
def _columns(p: Position):
    v = p.variant
    for i, (col, h, size) in enumerate(zip(p.columns, p.hidden, v.columns), 1):
        dealt_down = size - v.face_up  # the face-down cards the deal gave this column
        if h > dealt_down:
            yield Problem(f"t{i}", DEAL, f"{_cards(h, 'face-down card')}, but the deal gives column {i} only "
                                         f"{dealt_down} and no move turns a card face down")
            continue
        yield from _build(p, i, col, h, untouched=h == dealt_down)
        if col and h == len(col) and v.auto_flip:
            yield Problem(f"t{i}", DEAL, f"the top card <{col[-1]}> is face down, but in {v.name} the top card of "
                                         "a column is always face up")
        if v.aces_aside and 0 < h == dealt_down < len(col) and rules(v).step[col[h]] == 0:
            yield Problem(f"t{i}", DEAL, f"{col[h]} lies face up on the {h} cards the deal put face down, so the "
                                         f"deal turned it up, but {v.name} sets aside each {v.ranks[0]} the deal "
                                         "turns up")


def _build(p: Position, i: int, col: tuple[Card, ...], h: int, untouched: bool):
    """The face-up cards of column ``i``: each on a card it may sit on, except where the deal laid them.

    Cards reach a column only by moves that follow the build rule, and a flip leaves a single face-up card; so
    only a column that still holds every face-down card it was dealt may keep face-up cards the deal laid
    there (its first ``face_up`` places), whatever they are.
    """
    v, parents = p.variant, rules(p.variant).parents
    dealt = v.columns[i - 1] if untouched else 0  # the places that may still hold the deal's own cards
    for k in range(h, len(col) - 1):
        below, above = col[k], col[k + 1]
        if below not in parents[above] and k + 1 >= dealt:
            yield Problem(f"t{i}", BUILD, f"{above} lies face up on {below}, but in {v.name} {v.column_rule()}")
            return


# --- 5. the stock and the waste ------------------------------------------------------------------------
def _stock(p: Position):
    v = p.variant
    left = dealt_stock_sizes(v)  # how many cards the deal may have left in the stock
    if len(p.stock) + len(p.waste) > max(left):
        yield Problem("stock", STOCK, f"the stock and the waste hold {len(p.stock) + len(p.waste)} cards, but the "
                                      f"deal of {v.name} leaves at most {max(left)} there and no move puts one back")
    elif p.recycles == 0 and p.stock and not any(_whole_draws(n, len(p.stock), v.draw) for n in left):
        start = max(left)
        yield Problem("stock", STOCK, f"{_cards(len(p.stock))} before the first recycle, but each draw takes "
                                      f"{v.draw} of the {start} the deal left, so the stock holds {start}, "
                                      f"{start - v.draw}, {start - 2 * v.draw} … cards until it runs out")


def _whole_draws(dealt: int, stock: int, draw: int) -> bool:
    """Could draws of ``draw`` cards take a stock of ``dealt`` down to ``stock`` cards, with cards still left?"""
    return stock <= dealt and (dealt - stock) % draw == 0


def dealt_stock_sizes(v: Variant) -> range:
    """How many cards a deal of ``v`` may leave in the stock: the rest of the deck, less the Aces set aside.

    >>> from solitaire import KLONDIKE, ITALIAN
    >>> list(dealt_stock_sizes(KLONDIKE)), list(dealt_stock_sizes(ITALIAN))
    ([24], [0, 1, 2, 3, 4])
    """
    rest = v.deck_size - sum(v.columns)
    return range(rest - (v.foundations if v.aces_aside else 0), rest + 1)


# --- 6. the recycles -----------------------------------------------------------------------------------
def _recycles(p: Position):
    v = p.variant
    if v.passes is not None and p.recycles > v.passes - 1:
        yield Problem("recycles", RECYCLES, f"{v.name} allows {v.passes} pass(es) through the stock, so at most "
                                            f"{v.passes - 1} recycle(s), not {p.recycles}")
    elif p.recycles and max(dealt_stock_sizes(v)) == 0:
        yield Problem("recycles", RECYCLES, f"{p.recycles}, but the deal of {v.name} leaves no stock to recycle")
