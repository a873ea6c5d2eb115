"""The reading path: every function, class and method of the rules core is shown in a lesson with ``show_source``.

Each lesson's code cells are read (not run): their ``solitaire`` imports are executed, and the first argument of
each ``show_source(obj, start, stop)`` call is evaluated to the object it shows, so the test knows exactly which
lines of the core a lesson displays (``start``/``stop`` cut them as ``show_source`` does). A definition is read
when every non-blank line of it is displayed in some lesson (a class: its lines outside its methods, which count
on their own; functions nested in a function are read with it). The table of notebooks/TEACHERS.md, section
"Reading the rules core", is generated from the same walk:

    python tests/test_reading_path.py            # print the table
    python tests/test_reading_path.py --write    # write it into TEACHERS.md
"""
from __future__ import annotations

import ast
import importlib
import json
import sys
import textwrap
from pathlib import Path

from solitaire.lessons.guard import source_lines

ROOT = Path(__file__).resolve().parents[1]
CORE = ("cards", "variants", "state", "moves")
# the main path's lessons and the optional "Going deeper" notebooks: the core's internals are read in the latter
LESSONS = sorted(p for p in (ROOT / "notebooks").glob("0[0-8]*.ipynb")) + sorted(
    p for p in (ROOT / "notebooks" / "deeper").glob("0[0-8]*.ipynb"))
TEACHERS = ROOT / "notebooks" / "TEACHERS.md"
TABLE_HEADING = "## Reading the rules core"


def core_definitions() -> dict[str, tuple[str, set[int]]]:
    """``"module.Qualname"`` -> (source file, the non-blank lines that belong to it) for every top-level function
    and class of the core and every method of its classes."""
    found: dict[str, tuple[str, set[int]]] = {}
    for name in CORE:
        # the files the lessons show (a compiled module's source is the .py beside it)
        path = Path(importlib.import_module(f"solitaire.{name}").__file__).resolve().with_name(f"{name}.py")
        text = path.read_text(encoding="utf-8").splitlines()

        def lines(node: ast.AST) -> set[int]:
            first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            return {n for n in range(first, node.end_lineno + 1) if text[n - 1].strip()}

        for node in ast.parse("\n".join(text)).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                own = lines(node)
                if isinstance(node, ast.ClassDef):
                    for item in node.body:
                        if isinstance(item, ast.FunctionDef):
                            found[f"{name}.{node.name}.{item.name}"] = (str(path), lines(item))
                            own -= lines(item)
                found[f"{name}.{node.name}"] = (str(path), own)
    return found


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _parse(source: str) -> ast.Module | None:
    try:
        return ast.parse("\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))))
    except SyntaxError:
        return None


def _displayed(obj: object, start: str | None, stop: str | None) -> tuple[str, set[int]]:
    """The file and the file lines that ``show_source(obj, start, stop)`` prints (as solitaire.lessons.checks does)."""
    lines, first_line, path = source_lines(obj)  # (also for a compiled module: its .py)
    lines = textwrap.dedent("".join(lines)).splitlines()
    first = next((i for i, line in enumerate(lines) if start in line), None) if start else 0
    if first is None:
        return path, set()
    last = len(lines) - 1
    if stop:
        last = next((i for i in range(first + 1, len(lines)) if stop in lines[i]), last)
    return str(Path(path).resolve()), set(range(first_line + first, first_line + last + 1))


def shown(lessons: list[Path] = LESSONS, skip: tuple[str, int] | None = None) -> list[tuple[str, str, str, set[int]]]:
    """Every ``show_source`` call of the lessons: (lesson stem, section heading, file, displayed lines).
    ``skip`` = (lesson stem, n) leaves out that lesson's n-th call, to prove that the test notices."""
    calls = []
    for path in lessons:
        namespace: dict = {}
        section, n = "(top)", 0
        for cell in _cells(path):
            source = "".join(cell["source"])
            if cell["cell_type"] == "markdown":
                section = next((h[3:].strip() for h in source.splitlines() if h.startswith("## ")), section)
                continue
            tree = _parse(source)
            for node in ast.walk(tree) if tree else ():
                if isinstance(node, (ast.Import, ast.ImportFrom)) and "solitaire" in ast.unparse(node):
                    exec(ast.unparse(node), namespace)
            for node in ast.walk(tree) if tree else ():
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "show_source" and node.args:
                    n += 1
                    if skip == (_name(path), n):
                        continue
                    obj = eval(ast.unparse(node.args[0]), namespace)
                    cut = [a.value if isinstance(a, ast.Constant) else None for a in node.args[1:3]]
                    cut += [kw.value.value for kw in node.keywords if kw.arg in ("start", "stop")]
                    calls.append((_name(path), section, *_displayed(obj, *(cut + [None, None])[:2])))
    return calls


def _name(path: Path) -> str:
    """A lesson's name as TEACHERS.md links it: its stem, under ``deeper/`` for a Going deeper notebook."""
    return path.stem if path.parent.name == "notebooks" else f"{path.parent.name}/{path.stem}"


def reading_path(calls: list | None = None) -> dict[str, tuple[str, str] | None]:
    """Each core definition -> (lesson, section) where its first line is shown, or None if not fully read."""
    calls = shown() if calls is None else calls
    where: dict[str, tuple[str, str] | None] = {}
    for name, (path, lines) in core_definitions().items():
        path = str(Path(path).resolve())
        seen = set().union(*[ls for _, _, f, ls in calls if f == path])
        first = min(lines)
        place = next(((lesson, section) for lesson, section, f, ls in calls if f == path and first in ls), None)
        where[name] = place if lines <= seen else None
    return where


def table(where: dict[str, tuple[str, str] | None]) -> str:
    rows = ["| core definition | lesson | section |", "|---|---|---|"]
    for name, place in where.items():
        lesson, section = place or ("not read", "")
        rows.append(f"| `{name}` | [{lesson}]({lesson}.ipynb) | {section} |")
    return "\n".join(rows)


def teachers_table() -> str:
    text = TEACHERS.read_text(encoding="utf-8")
    body = text.split(TABLE_HEADING, 1)[1].split("\n## ", 1)[0]
    return "\n".join(line for line in body.splitlines() if line.startswith("|"))


# --- the tests -------------------------------------------------------------------------------------

def test_the_core_has_its_definitions() -> None:
    names = core_definitions()
    assert {"cards.Card", "cards.Card.rank", "moves.legal_moves", "moves._waste_moves", "moves.Move.__str__",
            "state.SplitMix64.next64", "variants.Variant._rule_problems"} <= set(names)
    assert len(names) > 60 and all(lines for _, lines in names.values())


def test_every_core_definition_is_shown_in_a_lesson() -> None:
    missing = [name for name, place in reading_path().items() if place is None]
    assert not missing, f"never shown in full with show_source in lessons 00-08: {', '.join(missing)}"


def test_leaving_one_show_source_out_is_noticed() -> None:
    calls = shown()
    lesson = next(lesson for lesson, *_ in calls if lesson.startswith("deeper/02b"))
    # the first call of deeper/02b (the columns' moves) shows lines nothing else shows: without it something is unread
    assert any(place is None for place in reading_path(shown(skip=(lesson, 1))).values())
    assert all(place is not None for place in reading_path(calls).values())


def test_teachers_table_matches_the_lessons() -> None:
    assert teachers_table() == table(reading_path()), \
        "TEACHERS.md's reading table is out of date: run python tests/test_reading_path.py --write"


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    made = table(reading_path())
    if "--write" in sys.argv:
        text = TEACHERS.read_text(encoding="utf-8")
        head, rest = text.split(TABLE_HEADING, 1)
        body, *tail = rest.split("\n## ", 1)
        intro = "\n".join(line for line in body.splitlines() if not line.startswith("|")).rstrip()
        TEACHERS.write_text(head + TABLE_HEADING + intro + "\n\n" + made + "\n" + ("\n## " + tail[0] if tail else ""),
                            encoding="utf-8")
    print(made)
