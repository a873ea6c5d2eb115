"""Positions as text and games as JSON: human-readable, exact round trips, errors that point at the line."""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import asdict, fields, replace
from typing import TYPE_CHECKING

from .cards import Card, InvalidCardError, full_deck, parse_card
from .moves import Move, rules
from .state import Pile, Position
from .variants import VARIANTS, Variant, get_variant

if TYPE_CHECKING:
    from .game import Game

HEADER = "# solitaire position: piles list cards bottom first (top last); <card> is face down"
_SETTING = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)')


class PositionTextError(ValueError):
    """The text of a position cannot be read; the message names the line."""


def variant_to_text(v: Variant) -> str:
    """``klondike`` for a registered variant, else the nearest registered one and the changed rules."""
    if v.key:
        return v.key
    base_key = min(VARIANTS, key=lambda k: len(v.changes_from(VARIANTS[k])))
    changes = v.changes_from(VARIANTS[base_key])
    return " ".join([base_key] + [f"{k}={json.dumps(val, separators=(',', ':'), ensure_ascii=False)}"
                                  for k, val in changes.items()])


def variant_from_text(text: str) -> Variant:
    base, _, rest = text.strip().partition(" ")
    variant = get_variant(base)
    types = {f.name: f for f in fields(Variant)}
    changes = {}
    for key, raw in _SETTING.findall(rest):
        if key not in types:
            raise ValueError(f"unknown rule {key!r} in {text!r}: rules are {', '.join(types)}")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            raise ValueError(f"cannot read the value of {key} in {key}={raw}: write a number, true, false, null, "
                             '"text" or a list such as [1,2,3]') from None
        changes[key] = tuple(value) if isinstance(value, list) else value
    if _SETTING.sub("", rest).strip():
        raise ValueError(f"cannot read the rules in {rest!r}: write rule=value, such as draw=3")
    return replace(variant, **changes)


def _pile_text(pile: Pile, hidden: int = 0) -> str:
    return " ".join(f"<{c}>" if i < hidden else str(c) for i, c in enumerate(pile))


def position_to_text(p: Position) -> str:
    """One compact text of the whole position; ``position_from_text`` reads it back exactly."""
    lines = [HEADER, f"variant: {variant_to_text(p.variant)}", f"recycles: {p.recycles}",
             f"stock: {_pile_text(p.stock, len(p.stock))}", f"waste: {_pile_text(p.waste)}"]
    lines += [f"f{i}: {_pile_text(pile)}" for i, pile in enumerate(p.foundations, 1)]
    lines += [f"t{i}: {_pile_text(col, h)}" for i, (col, h) in enumerate(zip(p.columns, p.hidden), 1)]
    return "\n".join(line.rstrip() for line in lines) + "\n"


def read_pile(text: str, where: str) -> tuple[Pile, int]:
    """Cards of one pile and how many at its bottom are face down."""
    cards: list[Card] = []
    hidden = 0
    for token in text.split():
        down = token.startswith("<") and token.endswith(">")
        if down and hidden < len(cards):
            raise PositionTextError(f"{where}: face-down card {token!r} lies on a face-up card; face-down cards "
                                    "must be at the bottom of a pile")
        try:
            cards.append(parse_card(token[1:-1] if down else token))
        except InvalidCardError as e:
            raise PositionTextError(f"{where}: {e}") from None
        hidden += down
    return tuple(cards), hidden


def position_from_text(text: str) -> Position:
    """Read a position written by ``position_to_text`` (blank lines and # comments are ignored)."""
    entries: dict[str, tuple[int, str]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, colon, value = line.partition(":")
        if not colon:
            raise PositionTextError(f"line {number}: expected 'name: cards', got {line!r}")
        entries[name.strip().lower()] = (number, value.strip())
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
        raise PositionTextError(f"unexpected lines {sorted(extra)} for {v.name}")
    recycles_text = entries.get("recycles", (0, "0"))[1]
    if not recycles_text.isdigit():
        raise PositionTextError(f"recycles must be a whole number, got {recycles_text!r}")
    columns = [pile(f"t{i}") for i in range(1, len(v.columns) + 1)]
    foundations = tuple(pile(f"f{i}")[0] for i in range(1, v.foundations + 1))
    waste = pile("waste")[0]
    p = Position(v, pile("stock")[0], waste, foundations,
                 tuple(c for c, _ in columns), tuple(h for _, h in columns), int(recycles_text))
    check_position(p)
    return p


def check_position(p: Position) -> None:
    """Raise PositionTextError unless the position holds exactly the variant's deck in valid piles."""
    v = p.variant
    have, need = Counter(p.cards()), Counter(full_deck(v.ranks, v.decks))
    if have != need:
        missing, extra = need - have, have - need
        parts = [f"missing {' '.join(map(str, missing.elements()))}" if missing else "",
                 f"not in this deck or too many: {' '.join(map(str, extra.elements()))}" if extra else ""]
        raise PositionTextError(f"the position must hold the {v.deck_size} cards of {v.name}: "
                                + "; ".join(x for x in parts if x))
    r = rules(v)
    for i, pile in enumerate(p.foundations, 1):
        for below, above in zip(pile, pile[1:]):
            if r.next_up[below] != above:
                raise PositionTextError(f"foundation f{i}: {above} cannot follow {below}")
        if pile and r.step[pile[0]] != 0:
            raise PositionTextError(f"foundation f{i} must start with {v.ranks[0]}, not {pile[0]}")
    for i, (col, h) in enumerate(zip(p.columns, p.hidden), 1):
        if col and h >= len(col) and v.auto_flip:
            raise PositionTextError(f"column t{i}: in {v.name} the top card of a column is always face up")


def game_to_json(game: Game) -> str:
    """The whole game: variant, seed, start position, moves played and moves that can be redone."""
    return json.dumps({"format": "solitaire-game", "version": 1, "variant": asdict(game.variant),
                       "seed": game.seed, "start": position_to_text(game.start),
                       "moves": [str(m) for m in game.moves],
                       "redo": [str(m) for m in reversed(game._undone)]}, ensure_ascii=False, indent=1)


def game_from_json(text: str) -> Game:
    from .game import Game
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise PositionTextError(f"not a saved game: {e}") from None
    if not isinstance(data, dict) or data.get("format") != "solitaire-game":
        raise PositionTextError("not a saved game: the JSON has no \"format\": \"solitaire-game\"")
    game = Game.from_position(position_from_text(data["start"]))
    game.seed = data.get("seed")
    redo = [Move.from_text(m) for m in data.get("redo", [])]
    game.play_all(data.get("moves", []) + [str(m) for m in redo])
    for _ in redo:
        game.undo()
    return game
