"""Cheats of every kind issue 53 lists, each as a kernel object (what ``grade`` takes) and as the source of an answer
cell (what a course's autograde reads). Each passes the practice ``check`` of the kit before graded checks existed
(tests/test_grading.py shows it still does) and is refused by ``grade`` and by the autograde.

The kinds: the answers on the student's machine (TEACHERS.md, the teacher's notebook); the checkers' own answers
importable; a reference to the kit's piece kept where a switch does not reach (a list, a default argument,
``__wrapped__``, ``gc``, a copy of ``sys.modules``' namespace, a reloaded module, a second copy loaded from the file,
the switched-off stand-in's ``__kit_switched_off__``, an ``exec``'d copy in a dictionary); another kit function that
computes the same (``explain_illegal``, ``knowledge_of``, a subclass of greedy); the student's code in the checker's
process (a patched checker, a table filled before the check); predictable hidden inputs; a record of play that
is the solver's.
"""
from __future__ import annotations

import gc
import importlib.util
import inspect
import json
import math
import os
import sys
from pathlib import Path
from typing import Any, Callable, NamedTuple

import solitaire
from solitaire import Game, Move, apply, deal, legal_moves, observe
from solitaire.expert import WinChance  # noqa: F401  (the lesson's estimates)
from solitaire.knowledge import knowledge_of
from solitaire.lessons import lesson06b, lesson07
from solitaire.lessons.pieces import playout_positions
from solitaire.moves import WASTE_TO_COLUMN, WASTE_TO_FOUNDATION, _waste_moves, column_targets, foundation_wants, rules
from solitaire.players import GreedyStrategy
from solitaire.stats import sign_test, wilson
from solitaire.variants import ITALIAN, KLONDIKE, SOLIJOY

ROOT = Path(__file__).resolve().parents[1]
TEACHERS = str(ROOT / "notebooks" / "TEACHERS.md")  # where a clone keeps the answers
SEARCH_NOTEBOOK = str(ROOT / "notebooks" / "07_search.ipynb")


class Cheat(NamedTuple):
    """One cheat: its kind, the exercise, the answer in a kernel (made when asked), and an answer cell's source."""

    kind: str
    exercise: str
    make: Callable[[], Any]
    cell: str


# --- the answers on the student's machine -------------------------------------------------------------------------

def _reachable_from_the_guide(number: int) -> int:
    """07.reachable from TEACHERS.md: deal 81's count in bold, then the five other deals with their counts."""
    import re
    text = open(TEACHERS, encoding="utf-8").read()
    part = text[text.index("**07.reachable**"):][:1500]
    counts = {81: int(re.search(r"\*\*([\d,]+)\*\*", part).group(1).replace(",", ""))}
    deals, said = re.search(r"\(([\d,\s]+): ([\d,\s]+(?:and [\d,]+)?) positions\)", part).groups()
    numbers = [int(x.replace(",", "")) for x in re.findall(r"\d[\d,]*\d|\d", said.replace(" and ", ", ").replace(",\n", ", "))]
    counts.update(zip((int(d) for d in deals.split(",")), numbers))
    return counts[number]


def _teachers_dfs() -> Callable:
    """07.dfs: the teacher's solution cell, read from the lesson's notebook and run."""
    cells = json.loads(Path(SEARCH_NOTEBOOK).read_text(encoding="utf-8"))["cells"]
    source = next("".join(c["source"]) for c in cells if "solution" in c.get("metadata", {}).get("tags", [])
                  and "def dfs" in "".join(c["source"]))
    namespace = {"plain_key": lesson07.plain_key, "is_won": solitaire.moves.is_won, "legal_moves": legal_moves,
                 "apply": apply}
    exec(source, namespace)
    return namespace["dfs"]


READ_THE_GUIDE = f'''TEACHERS = {TEACHERS!r}
def reachable(number):
    import re
    text = open(TEACHERS, encoding="utf-8").read()
    part = text[text.index("**07.reachable**"):][:1500]
    counts = {{81: int(re.search(r"\\*\\*([\\d,]+)\\*\\*", part).group(1).replace(",", ""))}}
    deals, said = re.search(r"\\(([\\d,\\s]+): ([\\d,\\s]+(?:and [\\d,]+)?) positions\\)", part).groups()
    numbers = [int(x.replace(",", "")) for x in re.findall(r"\\d[\\d,]*\\d|\\d", said.replace(" and ", ", ").replace(",\\n", ", "))]
    counts.update(zip((int(d) for d in deals.split(",")), numbers))
    return counts[number]
'''
READ_THE_NOTEBOOK = f'''import json
cells = json.load(open({SEARCH_NOTEBOOK!r}, encoding="utf-8"))["cells"]
exec(next("".join(c["source"]) for c in cells if "def dfs" in "".join(c["source"])))
'''

# --- the checkers' own answers ------------------------------------------------------------------------------------


def _checkers_width(width: float) -> int:
    from solitaire.lessons.lesson06 import _checked_width_answer
    return _checked_width_answer(width)


# --- a reference to the kit's piece kept where a switch does not reach -----------------------------------------------

KEPT = [_waste_moves]


def _waste_from_a_list(p, targets, wants):
    return KEPT[0](p, rules(p.variant), targets, wants)


def _waste_from_a_default(p, targets, wants, kit=_waste_moves):
    return kit(p, rules(p.variant), targets, wants)


def _fits_through_wrapped(card, under, variant, kit=rules.__wrapped__, compiled={}):  # noqa: B006 - a cache
    if variant not in compiled:
        compiled[variant] = kit(variant)
    return under in compiled[variant].parents[card]


def _waste_from_gc(p, targets, wants, found=[]):  # noqa: B006 - what the first search found, kept
    if not found:
        found.append(next(f for f in gc.get_objects() if callable(f) and getattr(f, "__name__", "") == "_waste_moves"
                          and getattr(f, "__module__", "") == "solitaire.moves"))
    return found[0](p, rules(p.variant), targets, wants)


SAVED = dict(vars(sys.modules["solitaire.moves"]))  # the module's names, copied before any check


def _waste_from_saved_names(p, targets, wants):
    return SAVED["_waste_moves"](p, SAVED["rules"](p.variant), targets, wants)


def _second_copy() -> Callable:
    source = os.path.join(os.path.dirname(solitaire.moves.__file__), "moves.py")  # its .py, in either build
    spec = importlib.util.spec_from_file_location("solitaire.moves_again", source)
    copy = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = copy  # while it runs: its dataclasses look their module up
    spec.loader.exec_module(copy)
    del sys.modules[spec.name]

    def waste_moves(p, targets, wants):
        return [Move(*m) for m in copy._waste_moves(p, copy.rules(p.variant), targets, wants)]
    return waste_moves


def _chance_through_the_stand_in(chance):
    kit = getattr(wilson, "__kit_switched_off__", wilson)
    return (chance.won / chance.samples, *kit(chance.won, chance.samples))


def _dfs_copy_in_a_dict() -> Callable:
    namespace: dict = {}
    exec(inspect.getsource(lesson07.depth_first), dict(vars(lesson07)), namespace)
    kept = {"search": namespace["depth_first"]}

    def dfs(start, max_nodes=100_000):
        return kept["search"](start, max_nodes=max_nodes)
    return dfs


# --- another kit function computes the same --------------------------------------------------------------------

def _waste_by_explanation(p, targets, wants):
    from solitaire.explain import explain_illegal
    candidates = [Move(WASTE_TO_FOUNDATION)] + [Move(WASTE_TO_COLUMN, target=t) for t in range(len(p.columns))]
    return [m for m in candidates if explain_illegal(p, m) is None]


def _layouts_by_knowledge(game):
    positions = [game.start]
    for m in game.moves:
        positions.append(apply(positions[-1], m))
    return math.factorial(knowledge_of([observe(q) for q in positions]).unknown_slots)


def _renamed(fn: Callable, name: str) -> Callable:
    """``fn``'s own code under another name, its first line moved to another function's: no watch of the kit's
    code, nor its source, names it."""
    import inspect
    import types

    from solitaire import players
    elsewhere = inspect.getsourcelines(players._moving_card)[1]

    def moved(code: types.CodeType) -> types.CodeType:
        consts = tuple(moved(c) if isinstance(c, types.CodeType) else c for c in code.co_consts)
        return code.replace(co_firstlineno=elsewhere, co_consts=consts)
    code = moved(fn.__code__).replace(co_name=name, co_qualname=name)
    return types.FunctionType(code, fn.__globals__, name, fn.__defaults__, fn.__closure__)


class Greedier(GreedyStrategy):
    """Greedy under another name: its three methods kept in the subclass, out of the switch's reach."""

    name = "greedier"
    choose = _renamed(GreedyStrategy.choose, "choose_again")
    rank = _renamed(GreedyStrategy.rank, "rank_again")
    rule = _renamed(GreedyStrategy.rule, "rule_again")


# --- the student's code in the checker's process ---------------------------------------------------------------

def _patched_range() -> Callable:
    import solitaire.lessons.lesson06a as lesson
    lesson.agrees_as_shown = lambda *args, **kwargs: True  # the test restores it

    def winnable_range(outcomes):
        return 0.001, 0.999
    return winnable_range


def _table_of_moves() -> Callable:
    table = {}
    for v in (KLONDIKE, SOLIJOY, ITALIAN, Variant_come_back()):
        for p in playout_positions(v, "waste"):
            r = rules(p.variant)
            table[p] = _waste_moves(p, r, column_targets(p, r), foundation_wants(p, r))

    def waste_moves(p, targets, wants):
        return table[p]
    return waste_moves


def Variant_come_back():
    from solitaire.lessons.pieces import CARDS_COME_BACK
    return CARDS_COME_BACK


def _table_of_p_values() -> Callable:
    table = {pair: sign_test(*pair) for pair in lesson06b.P_VALUE_PAIRS + [(51, 36)]}

    def p_value(a, b):
        return table[(a, b)]
    return p_value


def _solvers_line() -> list[str]:
    from solitaire.lessons.lesson01a import PYSOL_LAYOUT
    from solitaire.solver import solve
    return [str(m) for m in solve(Game.from_pysol(PYSOL_LAYOUT), max_seconds=None, max_nodes=100_000).moves]


def _dfs_from_the_guide() -> Callable:
    """07.dfs: the answer's code read from TEACHERS.md (its answers section) and run."""
    from solitaire import apply, legal_moves
    from solitaire.lessons.lesson07 import plain_key
    from solitaire.moves import is_won
    text = open(TEACHERS, encoding="utf-8").read()
    start = text.index("def dfs(start, max_nodes=100_000):")
    namespace = {"apply": apply, "legal_moves": legal_moves, "plain_key": plain_key, "is_won": is_won}
    exec(text[start:text.index("```", start)], namespace)  # noqa: S102 - the cheat a student might write
    return namespace["dfs"]


def _wilson_through_the_stand_in(wins, games):
    from solitaire.stats import wilson as kit
    return getattr(kit, "__kit_switched_off__", kit)(wins, games)


WASTE_FILTER = "return {0}(p, rules(p.variant), targets, wants)"
CHEATS = [
    Cheat("the answers on the student's machine: TEACHERS.md", "07.reachable", lambda: _reachable_from_the_guide,
          READ_THE_GUIDE),
    Cheat("the answers on the student's machine: TEACHERS.md, a graded exercise", "07.dfs",
          lambda: _dfs_from_the_guide(),
          f"TEXT = open({TEACHERS!r}, encoding='utf-8').read()\nSTART = TEXT.index('def dfs(start, max_nodes=100_000):')\n"
          "exec(TEXT[START:TEXT.index('```', START)])\n"),
    Cheat("the stand-in's __kit_switched_off__, a graded exercise", "06.wilson", lambda: _wilson_through_the_stand_in,
          "def my_wilson(wins, games):\n    from solitaire.stats import wilson as kit\n"
          "    return getattr(kit, '__kit_switched_off__', kit)(wins, games)\n"),
    Cheat("the answers on the student's machine: the teacher's notebook", "07.dfs", _teachers_dfs, READ_THE_NOTEBOOK),
    Cheat("the checkers' own answers importable", "06.deals_needed", lambda: _checkers_width,
          "from solitaire.lessons.lesson06 import _checked_width_answer\n"
          "def deals_needed(width):\n    return _checked_width_answer(width)\n"),
    Cheat("a reference in a list", "02b.waste_moves", lambda: _waste_from_a_list,
          "from solitaire.moves import _waste_moves, rules\nKEPT = [_waste_moves]\ndef waste_moves(p, targets, wants):\n"
          "    " + WASTE_FILTER.format("KEPT[0]") + "\n"),
    Cheat("a reference in a default argument", "02b.waste_moves", lambda: _waste_from_a_default,
          "from solitaire.moves import _waste_moves, rules\ndef waste_moves(p, targets, wants, kit=_waste_moves):\n"
          "    " + WASTE_FILTER.format("kit") + "\n"),
    Cheat("rules.__wrapped__", "02a.fits", lambda: _fits_through_wrapped,
          "def fits(card, under, variant, kit=rules.__wrapped__, compiled={}):\n    if variant not in compiled:\n"
          "        compiled[variant] = kit(variant)\n    return under in compiled[variant].parents[card]\n"),
    Cheat("gc.get_objects()", "02b.waste_moves", lambda: _waste_from_gc,
          "import gc\nfrom solitaire.moves import rules\ndef waste_moves(p, targets, wants, found=[]):\n"
          "    if not found:\n        found.append(next(f for f in gc.get_objects() if callable(f) and "
          "getattr(f, '__name__', '') == '_waste_moves' and getattr(f, '__module__', '') == 'solitaire.moves'))\n"
          "    return found[0](p, rules(p.variant), targets, wants)\n"),
    Cheat("sys.modules' names taken before the check", "02b.waste_moves", lambda: _waste_from_saved_names,
          "import sys\nSAVED = dict(vars(sys.modules['solitaire.moves']))\ndef waste_moves(p, targets, wants):\n"
          "    return SAVED['_waste_moves'](p, SAVED['rules'](p.variant), targets, wants)\n"),
    Cheat("a second copy of moves.py loaded from its file", "02b.waste_moves", _second_copy,
          "import importlib.util, os, solitaire.moves\nspec = importlib.util.spec_from_file_location('solitaire.again', "
          "os.path.join(os.path.dirname(solitaire.moves.__file__), 'moves.py'))\nagain = importlib.util.module_from_spec(spec)\nimport sys\nsys.modules[spec.name] = again\n"
          "spec.loader.exec_module(again)\n"
          "from solitaire import Move\ndef waste_moves(p, targets, wants):\n"
          "    return [Move(*m) for m in again._waste_moves(p, again.rules(p.variant), targets, wants)]\n"),
    Cheat("the stand-in's __kit_switched_off__", "08.chance_by_hand", lambda: _chance_through_the_stand_in,
          "from solitaire.stats import wilson\ndef chance_by_hand(chance):\n"
          "    kit = getattr(wilson, '__kit_switched_off__', wilson)\n"
          "    return (chance.won / chance.samples, *kit(chance.won, chance.samples))\n"),
    Cheat("an exec'd copy of depth_first in a dictionary", "07.dfs", _dfs_copy_in_a_dict,
          "import inspect\nfrom solitaire.lessons import lesson07\nnamespace = {}\n"
          "exec(inspect.getsource(lesson07.depth_first), dict(vars(lesson07)), namespace)\nkept = {'search': "
          "namespace['depth_first']}\ndef dfs(start, max_nodes=100_000):\n    return kept['search'](start, "
          "max_nodes=max_nodes)\n"),
    Cheat("another kit function: explain_illegal", "02b.waste_moves", lambda: _waste_by_explanation,
          inspect.getsource(_waste_by_explanation).replace("_waste_by_explanation", "waste_moves")),
    Cheat("another kit function: knowledge_of", "08.layouts", lambda: _layouts_by_knowledge,
          "from solitaire.knowledge import knowledge_of\nfrom solitaire import apply, observe\n"
          + inspect.getsource(_layouts_by_knowledge).replace("_layouts_by_knowledge", "layouts")),
    Cheat("another kit function: a subclass of greedy", "05.strategy", lambda: Greedier(),
          "from solitaire.players import GreedyStrategy\n" + inspect.getsource(_renamed) + inspect.getsource(Greedier)
          + "my_strategy = Greedier()\n"),
    Cheat("the checker monkeypatched", "06a.winnable_range", _patched_range,
          "import solitaire.lessons.lesson06a as lesson\nlesson.agrees_as_shown = lambda *args, **kwargs: True\n"
          "def winnable_range(outcomes):\n    return 0.001, 0.999\n"),
    Cheat("a table of the kit's answers filled before the check", "02b.waste_moves", _table_of_moves,
          "from solitaire.lessons.pieces import playout_positions, CARDS_COME_BACK\nfrom solitaire import KLONDIKE, "
          "SOLIJOY, ITALIAN\nfrom solitaire.moves import _waste_moves, column_targets, foundation_wants, rules\n"
          "table = {}\nfor v in (KLONDIKE, SOLIJOY, ITALIAN, CARDS_COME_BACK):\n    for p in playout_positions(v, "
          "'waste'):\n        r = rules(p.variant)\n        table[p] = _waste_moves(p, r, column_targets(p, r), "
          "foundation_wants(p, r))\ndef waste_moves(p, targets, wants):\n    return table[p]\n"),
    Cheat("the hidden inputs predictable", "06b.p_value", _table_of_p_values,
          f"TABLE = {({pair: sign_test(*pair) for pair in lesson06b.P_VALUE_PAIRS + [(51, 36)]})!r}\n"
          "def p_value(a, b):\n    return TABLE[(a, b)]\n"),
    Cheat("a record of play that is the solver's", "01a.win", _solvers_line,
          "from solitaire.lessons.lesson01a import PYSOL_LAYOUT\nfrom solitaire.solver import solve\n"
          "won = [str(m) for m in solve(Game.from_pysol(PYSOL_LAYOUT), max_seconds=None, max_nodes=100_000).moves]\n"),
]
# The answer cell's name for each exercise (what the course's test cell passes to grade)
ANSWER_NAMES = {"07.reachable": "reachable", "07.dfs": "dfs", "06.deals_needed": "deals_needed",
                "02b.waste_moves": "waste_moves", "02a.fits": "fits", "08.chance_by_hand": "chance_by_hand",
                "08.layouts": "layouts", "05.strategy": "my_strategy", "06a.winnable_range": "winnable_range",
                "06b.p_value": "p_value", "01a.win": "won", "06.wilson": "my_wilson"}
