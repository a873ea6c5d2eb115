"""Moves, piles and positions as text, games as JSON: human-readable, exact round trips, strict readers.

A move's text (``t3>t7:4``) is read by ``move_from_text``, a pile's name (``t3:2``, ``waste``) by ``parse_pile``;
``str(move)`` and ``str(pile)`` write them.

Every reader here refuses what the rules could not have made, with a ``PositionTextError`` (a ``ValueError``)
that names the bad part and echoes it, cut to a readable length: a position no game could reach (every reason
``solitaire.validity.status`` finds, and a face-down card in the waste or on a foundation), a seed that did not
deal the start, moves that are not legal, and texts too large to be a game (they are refused before they are read).

This module builds on the rules core and never imports ``solitaire.game``: ``Game.to_json`` and
``Game.from_json`` hand it a ``SavedGame``, the plain data of a game.
"""
from __future__ import annotations

import json
import re
from dataclasses import asdict, fields, replace
from typing import NamedTuple

from .cards import Card, InvalidCardError, parse_card, quote
from .explain import explain_illegal
from .moves import COLUMN_TO_COLUMN, COLUMN_TO_FOUNDATION, DRAW, FLIP, FOUNDATION_TO_COLUMN, RECYCLE, \
    WASTE_TO_COLUMN, WASTE_TO_FOUNDATION, InvalidMoveError, Move, apply, legal_moves
from .state import Position, deal
from .validity import Problem, describe, face_down_problem, status
from .variants import VARIANTS, Variant, get_variant

HEADER = "# solitaire position: piles list cards bottom first (top last); <card> is face down"
MAX_POSITION_TEXT = 100_000  # characters: a position's text is about 1,000
MAX_SAVED_GAME = 5_000_000  # characters: a saved game of 10,000 moves is about 0.16 MB
MAX_MOVES = 10_000  # moves in a saved game, played and to redo together (benchmarks/bench_loading.py)
BOM = "\ufeff"  # the byte-order mark some editors write at the start of a UTF-8 file: skipped by the readers
# rule=value; \b starts a rule name only at the start of a word, so a long word without "=" is read once,
# not once from each of its letters (which took quadratic time: 46 s for 20,000 digits)
_SETTING = re.compile(r'\b(\w+)=("(?:[^"\\]|\\.)*"|\S+)')
_LINE_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}  # str.splitlines splits on them


class PositionTextError(ValueError):
    """A position, saved game or layout cannot be read; the message names the line or part and echoes it."""


class SavedGame(NamedTuple):
    """What a saved game holds: where it started, the seed that dealt it (if any), and its moves."""

    start: Position
    seed: int | None
    moves: list[Move]
    redo: list[Move]  # the moves taken back that can be played again, the next one first


# --- moves and pile names ------------------------------------------------------------------------------
# A move is written "source>target", and the first letters of the two say its kind (see moves._TEXT).
_KINDS = {("w", "t"): WASTE_TO_COLUMN, ("w", "f"): WASTE_TO_FOUNDATION, ("t", "f"): COLUMN_TO_FOUNDATION,
          ("t", "t"): COLUMN_TO_COLUMN, ("f", "t"): FOUNDATION_TO_COLUMN}
_MOVE_HELP = "write one of draw, recycle, flip t3, w>t3, w>f, t3>f, t3>t7, t3>t7:4 (the top 4 cards) or f2>t3"
_PILE_HELP = "write stock, waste, f2, t3 or t3:2 (the top 2 cards of t3)"
_STARTS_AT_ONE = "columns, foundations and counts start at 1"


class InvalidPileError(ValueError):
    """The text does not name a pile of the table."""


class PileNumberError(InvalidPileError):
    """A pile's name with a number 0 in it: columns, foundations and counts start at 1."""


class Pile(NamedTuple):
    """A pile by name: ``kind`` is 'stock', 'waste', 'foundation' or 'column', ``index`` counts from 0 (as in
    ``Move``), ``count`` is how many cards from a column's top. ``str`` gives the name back.

    >>> str(Pile("column", 2, count=2)), str(Pile("foundation", 1)), str(Pile("waste"))
    ('t3:2', 'f2', 'waste')
    """

    kind: str
    index: int = 0
    count: int = 1

    def __str__(self) -> str:
        if self.kind in ("stock", "waste"):
            return self.kind
        count = f":{self.count}" if self.kind == "column" and self.count > 1 else ""
        return f"{_LETTERS[self.kind]}{self.index + 1}{count}"


_NAMED_PILES = {"stock": "stock", "waste": "waste", "w": "waste"}  # 'w' is how moves write the waste
_NUMBERED_PILES = {"t": "column", "f": "foundation"}
_LETTERS = {"column": "t", "foundation": "f"}


def parse_pile(text: str) -> Pile:
    """Read a pile's name: 'stock', 'waste' (or 'w'), 'f2' (foundation 2), 't3' (column 3), 't3:2' (its top 2 cards).

    Case and spaces around the name do not matter; a number has one to three digits.

    >>> parse_pile("t3:2"), parse_pile(" F1 ")
    (Pile(kind='column', index=2, count=2), Pile(kind='foundation', index=0, count=1))
    >>> parse_pile("waste") == parse_pile("w") == Pile("waste")
    True
    >>> parse_pile("t0")
    Traceback (most recent call last):
    solitaire.notation.PileNumberError: cannot read a pile from 't0': columns, foundations and counts start at 1

    Raises:
        InvalidPileError: for text that names no pile (``PileNumberError`` for a number 0); the message echoes it.
    """
    name = text.strip().lower() if isinstance(text, str) else ""
    if name in _NAMED_PILES:
        return Pile(_NAMED_PILES[name])
    number, colon, count = name[1:].partition(":")  # 't3:2' -> '3', ':', '2'; 't3' -> '3', '', ''
    numbers = [number, count] if colon else [number]
    if name[:1] not in _NUMBERED_PILES or (colon and name[0] != "t") or not all(_is_number(n) for n in numbers):
        raise InvalidPileError(f"cannot read a pile from {quote(text)}: {_PILE_HELP}")
    if 0 in [int(n) for n in numbers]:
        raise PileNumberError(f"cannot read a pile from {quote(text)}: {_STARTS_AT_ONE}")
    return Pile(_NUMBERED_PILES[name[0]], int(number) - 1, int(count) if colon else 1)


def _is_number(digits: str) -> bool:
    """Is it a number as pile names write them: one to three digits?"""
    return 1 <= len(digits) <= 3 and digits.isdecimal()


def move_from_text(text: str) -> Move:
    """Read ``draw``, ``recycle``, ``flip t3``, ``w>t3``, ``w>f``, ``t3>f``, ``t3>t7``, ``t3>t7:4``, ``f2>t3``:
    the text ``str(move)`` writes. Case and spaces do not matter.

    >>> move_from_text("T3 > t7:2")
    Move('t>t', 2, 6, 2)
    >>> move_from_text("t0>t1")
    Traceback (most recent call last):
    solitaire.moves.InvalidMoveError: cannot read a move from 't0>t1': columns, foundations and counts start at 1

    Raises:
        InvalidMoveError: for text that is not a move; the message echoes it (cut to a readable length).
    """
    compact = "".join(text.split()).lower() if isinstance(text, str) else ""  # every space left out
    if compact in (DRAW, RECYCLE):
        return Move(compact)
    try:
        kind, source, target = _split_move(compact)
        s, t = _read_piles(source, target)
    except PileNumberError:  # (from None: this message says it all, so Python does not show the first error too)
        raise InvalidMoveError(f"cannot read a move from {quote(text)}: {_STARTS_AT_ONE}") from None
    except InvalidPileError:
        raise InvalidMoveError(f"cannot read a move from {quote(text)}: {_MOVE_HELP}") from None
    return Move(kind, s.index, t.index, t.count)


def _split_move(text: str) -> tuple[str, str, str]:
    """A move's text without spaces -> (kind, source, target), the piles as named in it, by the letters alone.

    'flipt3' -> (FLIP, 't3', ''); 't3>t7:4' -> (COLUMN_TO_COLUMN, 't3', 't7:4'); 'w>f' -> (WASTE_TO_FOUNDATION,
    '', ''): the waste ('w') and "a foundation" ('f') carry no number, so they are not named again.
    """
    unreadable = InvalidPileError(f"no move is written {quote(text)}")
    if text.startswith("flip"):
        kind, source, target = FLIP, text[len("flip"):], ""
        if source[:1] != "t":
            raise unreadable
    else:
        source, _, target = text.partition(">")
        kind = _KINDS.get((source[:1], target[:1]))
        if kind is None or (source[:1] == "w" and source != "w") or (target[:1] == "f" and target != "f"):
            raise unreadable
        source = "" if source == "w" else source
        target = "" if target == "f" else target
    if ":" in source or (":" in target and kind != COLUMN_TO_COLUMN):  # only a move of several cards has a count
        raise unreadable
    return kind, source, target


def _read_piles(*names: str) -> list[Pile]:
    """``parse_pile`` on each name ('' names no pile: index -1); a name that is no pile at all is reported
    before a number 0 in another."""
    piles, zero = [], None
    for name in names:
        try:
            piles.append(parse_pile(name) if name else Pile("", -1))
        except PileNumberError as exc:
            zero = exc
            piles.append(Pile("", -1))
    if zero is not None:
        raise zero
    return piles


# --- variants ---------------------------------------------------------------------------------------
def variant_to_text(v: Variant) -> str:
    """``klondike`` for a registered variant, else the nearest registered one and the changed rules.

    >>> from solitaire import ITALIAN
    >>> from dataclasses import replace
    >>> variant_to_text(replace(ITALIAN, draw_only_when_stuck=True))
    'italian draw_only_when_stuck=true'
    """
    if v.key:
        return v.key
    base_key = min(VARIANTS, key=lambda k: len(v.changes_from(VARIANTS[k])))
    settings = [f"{k}={_json(val)}" for k, val in v.changes_from(VARIANTS[base_key]).items()]
    return " ".join([base_key] + settings)


def _json(value: object) -> str:
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return "".join(_LINE_BREAKS.get(ch, ch) for ch in text)


def variant_from_text(text: str) -> Variant:
    """Read what ``variant_to_text`` writes: a registered variant and ``rule=value`` settings.

    >>> variant_from_text("klondike draw=3").draw
    3
    >>> variant_from_text("klondike draw=three")
    Traceback (most recent call last):
    ValueError: cannot read the value of draw in draw=three: write a number, true, false, null, "text" or a list such as [1,2,3]

    Raises:
        ValueError: for an unknown variant or rule, an unreadable value, or rules that cannot go together
            (``InvalidVariantError``, a ``ValueError``).
    """
    base, _, rest = text.strip().partition(" ")
    names = [f.name for f in fields(Variant)]
    changes = {}
    for key, raw in _SETTING.findall(rest):
        if key not in names:
            raise ValueError(f"unknown rule {quote(key)} in {quote(text)}: rules are {', '.join(names)}")
        changes[key] = _setting_value(key, raw)
    if _SETTING.sub("", rest).strip():
        raise ValueError(f"cannot read the rules in {quote(rest)}: write rule=value, such as draw=3")
    return replace(get_variant(base), **changes)


def _setting_value(key: str, raw: str) -> object:
    try:
        value = json.loads(raw) if len(raw) <= 400 else None
    except (json.JSONDecodeError, RecursionError, ValueError):
        value = None
    if value is None and raw != "null":
        raise ValueError(f"cannot read the value of {key} in {key}={quote(raw)[1:-1]}: write a number, true, false, "
                         'null, "text" or a list such as [1,2,3]')
    return tuple(value) if isinstance(value, list) else value


# --- positions ---------------------------------------------------------------------------------------
def _pile_text(pile: tuple[Card, ...], hidden: int = 0) -> str:
    return " ".join(f"<{c}>" if i < hidden else str(c) for i, c in enumerate(pile))


def position_to_text(p: Position) -> str:
    """One compact text of the whole position; ``position_from_text`` reads it back exactly.

    >>> from solitaire import ITALIAN, deal
    >>> print(position_to_text(deal(ITALIAN, 1)))  # doctest: +ELLIPSIS
    # solitaire position: ...
    variant: italian
    recycles: 0
    stock: <K♣> <7♥> <A♣> <7♦>
    waste:
    f1:
    ...
    t1: K♠
    ...
    """
    lines = [HEADER, f"variant: {variant_to_text(p.variant)}", f"recycles: {p.recycles}",
             f"stock: {_pile_text(p.stock, len(p.stock))}", f"waste: {_pile_text(p.waste)}"]
    lines += [f"f{i}: {_pile_text(pile)}" for i, pile in enumerate(p.foundations, 1)]
    lines += [f"t{i}: {_pile_text(col, h)}" for i, (col, h) in enumerate(zip(p.columns, p.hidden), 1)]
    return "\n".join(line.rstrip() for line in lines) + "\n"


def read_pile(text: str, where: str) -> tuple[tuple[Card, ...], int]:
    """Cards of one pile and how many at its bottom are face down.

    >>> read_pile("<7♣> 10♥ 9♠", "t1")
    ((Card('7♣'), Card('10♥'), Card('9♠')), 1)

    Raises:
        PositionTextError: for a token that is not a card, or a face-down card on a face-up one.
    """
    cards: list[Card] = []
    hidden = 0
    for token in text.split():
        down = token.startswith("<") and token.endswith(">")
        if down and hidden < len(cards):
            raise PositionTextError(f"{where}: face-down card {quote(token)} lies on a face-up card; face-down cards "
                                    "must be at the bottom of a pile")
        try:
            cards.append(parse_card(token[1:-1] if down else token))
        except InvalidCardError as e:
            raise PositionTextError(f"{where}: {e}") from None
        hidden += down
    return tuple(cards), hidden


def position_from_text(text: str) -> Position:
    """Read a position written by ``position_to_text`` (blank lines and # comments are ignored).

    >>> from solitaire import KLONDIKE, deal
    >>> position_from_text(position_to_text(deal(KLONDIKE, 5))) == deal(KLONDIKE, 5)
    True

    Raises:
        PositionTextError: naming the line that cannot be read, or what makes the position impossible.
    """
    entries = _entries(text, MAX_POSITION_TEXT, "a position")
    for required in ("variant", "stock", "waste"):
        if required not in entries:
            raise PositionTextError(f"the position has no '{required}:' line")
    try:
        v = variant_from_text(entries["variant"][1])
    except ValueError as e:
        raise PositionTextError(f"line {entries['variant'][0]} (variant): {e}") from None

    def pile(name: str) -> tuple[Pile, int]:
        if name not in entries:
            raise PositionTextError(f"the position has no '{name}:' line ({v.name} has {len(v.columns)} columns "
                                    f"t1-t{len(v.columns)} and {v.foundations} foundations f1-f{v.foundations})")
        number, value = entries[name]
        return read_pile(value, f"line {number} ({name})")

    extra = set(entries) - {"variant", "recycles", "stock", "waste"} - {f"f{i}" for i in range(1, v.foundations + 1)} \
        - {f"t{i}" for i in range(1, len(v.columns) + 1)}
    if extra:
        raise PositionTextError(f"unexpected lines {quote(sorted(extra), 80)} for {v.name}")
    columns = [pile(f"t{i}") for i in range(1, len(v.columns) + 1)]
    face_up = {"waste": pile("waste")} | {f"f{i}": pile(f"f{i}") for i in range(1, v.foundations + 1)}
    face_down = [face_down_problem(name, *read) for name, read in face_up.items()]  # only a column may hide cards
    p = Position(v, pile("stock")[0], face_up.pop("waste")[0], tuple(cards for cards, _ in face_up.values()),
                 tuple(c for c, _ in columns), tuple(h for _, h in columns), _recycles(entries))
    _refuse([q for q in face_down if q] + status(p), entries)
    return p


def _entries(text: str, limit: int, what: str) -> dict[str, tuple[int, str]]:
    """The ``name: value`` lines of a text, by lower-case name, with their line numbers."""
    if not isinstance(text, str):
        raise PositionTextError(f"{what} is text, got {type(text).__name__} {quote(text)}")
    if len(text) > limit:
        raise PositionTextError(f"{what} is at most {limit:,} characters long; this text has {len(text):,}")
    entries: dict[str, tuple[int, str]] = {}
    for number, line in enumerate(text.removeprefix(BOM).splitlines(), 1):  # some editors begin a file with a BOM
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, colon, value = line.partition(":")
        if not colon:
            raise PositionTextError(f"line {number}: expected 'name: cards', got {quote(line, 60)}")
        key = name.strip().lower()
        if key in entries:
            raise PositionTextError(f"line {number}: a second {quote(key)} line (the first is line {entries[key][0]})")
        entries[key] = (number, value.strip())
    return entries


def _recycles(entries: dict[str, tuple[int, str]]) -> int:
    number, text = entries.get("recycles", (0, "0"))
    if not re.fullmatch("[0-9]{1,7}", text):
        raise PositionTextError(f"line {number} (recycles): write a whole number of at most 7 digits, got {quote(text)}")
    return int(text)


def check_position(p: Position, lines: dict[str, tuple[int, str]] | None = None) -> None:
    """Raise PositionTextError unless some game of the variant could reach ``p`` (``solitaire.validity.status``):
    the message names each reason's pile (and its line in ``lines``, a text's entries), its cards and the rule.

    >>> from solitaire import KLONDIKE, deal
    >>> check_position(deal(KLONDIKE, 1)) is None
    True
    >>> check_position(deal(KLONDIKE, 1)._replace(hidden=(0, 2, 2, 3, 4, 5, 6)))
    Traceback (most recent call last):
    solitaire.notation.PositionTextError: t2: 2 face-down cards, but the deal gives column 2 only 1 and no move turns a card face down

    Raises:
        PositionTextError: for a position that no sequence of legal moves from a deal could reach.
    """
    _refuse(status(p), lines or {})


def _refuse(problems: list[Problem], lines: dict[str, tuple[int, str]]) -> None:
    """PositionTextError naming the problems, each pile with its line when the text has one."""
    if problems:
        raise PositionTextError(describe([q._replace(pile=f"line {lines[q.pile][0]} ({q.pile})")
                                          if q.pile in lines and lines[q.pile][0] else q for q in problems]))


# --- saved games ---------------------------------------------------------------------------------------
_KEYS = ("format", "version", "variant", "seed", "start", "moves", "redo")


def saved_game_to_json(game: SavedGame) -> str:
    """The whole game as JSON: variant, seed, start position, moves played and moves that can be redone.

    >>> from solitaire import KLONDIKE, deal
    >>> text = saved_game_to_json(SavedGame(deal(KLONDIKE, 3), 3, [move_from_text("draw")], []))
    >>> saved_game_from_json(text).moves
    [Move('draw')]
    """
    return json.dumps({"format": "solitaire-game", "version": 1, "variant": asdict(game.start.variant),
                       "seed": game.seed, "start": position_to_text(game.start), "moves": [str(m) for m in game.moves],
                       "redo": [str(m) for m in game.redo]}, ensure_ascii=False, indent=1)


def saved_game_from_json(text: str) -> SavedGame:
    """Read a saved game, checking that the rules could have made it: every move is replayed.

    >>> saved_game_from_json('{"format": "solitaire-game"}')
    Traceback (most recent call last):
    solitaire.notation.PositionTextError: not a saved game: it has no "start" (a saved game has format, version, variant, seed, start, moves, redo)

    Raises:
        PositionTextError: for text that is not JSON or not a saved game, a start position that cannot be
            read, a variant or seed that does not match the start, or a move that cannot be played.
    """
    return read_saved_game(text)[0]


def read_saved_game(text: str) -> tuple[SavedGame, list[Position]]:
    """``saved_game_from_json``, and the positions of its replay: before each move (played, then to redo), and
    after the last, so that ``Game.from_json`` does not replay the game a second time.

    >>> from solitaire import KLONDIKE, deal
    >>> saved, positions = read_saved_game(saved_game_to_json(SavedGame(deal(KLONDIKE, 3), 3, [Move("draw")], [])))
    >>> len(positions), len(positions[1].waste)
    (2, 1)
    """
    data = _json_object(text)
    start = position_from_text(data["start"])
    if data.get("variant") != json.loads(json.dumps(asdict(start.variant))):
        raise PositionTextError(f"the saved game's \"variant\" {quote(data.get('variant'), 60)} is not the variant "
                                f"of its start position ({variant_to_text(start.variant)})")
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2 ** 64):
        raise PositionTextError(f"the saved game's seed must be null or a whole number from 0 to 2**64 - 1, got "
                                f"{quote(seed)}")
    if seed is not None and deal(start.variant, seed) != start:
        raise PositionTextError(f"seed {seed} does not deal the saved game's start position")
    moves, redo = _moves(data, "moves"), _moves(data, "redo")
    if len(moves) + len(redo) > MAX_MOVES:
        raise PositionTextError(f"a saved game holds at most {MAX_MOVES:,} moves (played and to redo together); this "
                                f"one has {len(moves):,} + {len(redo):,}")
    return SavedGame(start, seed, moves, redo), _replay(start, moves + redo)


def _json_object(text: str) -> dict:
    if not isinstance(text, (str, bytes)) or len(text) > MAX_SAVED_GAME:
        size = f"{len(text):,} characters" if isinstance(text, (str, bytes)) else type(text).__name__
        raise PositionTextError(f"not a saved game: expected JSON text of at most {MAX_SAVED_GAME:,} characters, "
                                f"got {size}")
    try:
        data = json.loads(text.removeprefix(BOM if isinstance(text, str) else BOM.encode()))  # a BOM, as from an editor
    except (ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError, so is a number too long to read
        raise PositionTextError(f"not a saved game: {quote(str(e), 120)[1:-1]}") from None
    if not isinstance(data, dict) or data.get("format") != "solitaire-game" or data.get("version", 1) != 1:
        raise PositionTextError('not a saved game: the JSON has no "format": "solitaire-game" (version 1)')
    unknown = sorted(set(data) - set(_KEYS))
    if unknown or not isinstance(data.get("start"), str):
        what = f"unknown keys {quote(unknown, 60)}" if unknown else 'no "start"' if "start" not in data else \
            f'"start" must be a position\'s text, not {quote(data["start"])}'
        raise PositionTextError(f"not a saved game: it has {what} (a saved game has {', '.join(_KEYS)})")
    return data


def _moves(data: dict, key: str) -> list[Move]:
    texts = data.get(key, [])
    if not isinstance(texts, list) or len(texts) > MAX_MOVES or not all(isinstance(t, str) for t in texts):
        raise PositionTextError(f'the saved game\'s "{key}" must be a list of at most {MAX_MOVES:,} moves such '
                                f"as \"t3>t7\", got {quote(texts)}")
    try:
        known = {t: move_from_text(t) for t in set(texts)}  # a long game repeats a few hundred texts: read each once
        return [known[t] for t in texts]
    except InvalidMoveError as e:
        raise PositionTextError(f'the saved game\'s "{key}": {e}') from None


def _replay(p: Position, moves: list[Move]) -> list[Position]:
    positions = [p]
    for number, m in enumerate(moves, 1):
        if m not in legal_moves(p):
            reason = explain_illegal(p, m) or "that move is not legal here"
            raise PositionTextError(f"move {number} of the saved game ({m}) is illegal: {reason}")
        p = apply(p, m)
        positions.append(p)
    return positions
