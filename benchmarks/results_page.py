"""Rewrite one section of benchmarks/RESULTS.md, the kit's one page of figures, from a benchmark script.

Each topic of the page sits between ``<!-- BEGIN name -->`` and ``<!-- END name -->``; a script that measures
a topic replaces what lies between its markers and leaves the rest of the page as it is.

    from results_page import write_section
    write_section("lesson-times", table_text)
"""
from __future__ import annotations

import re
from pathlib import Path

PAGE = Path(__file__).resolve().parent / "RESULTS.md"


def replace_section(page: str, name: str, body: str) -> str:
    """The page with section ``name``'s text replaced by ``body``.

    >>> replace_section("a\\n<!-- BEGIN x -->\\nold\\n<!-- END x -->\\nb", "x", "new")
    'a\\n<!-- BEGIN x -->\\nnew\\n<!-- END x -->\\nb'
    >>> replace_section("no markers", "x", "new")
    Traceback (most recent call last):
    ValueError: RESULTS.md has no section 'x': add the lines <!-- BEGIN x --> and <!-- END x --> where it belongs
    """
    pattern = re.compile(rf"(<!-- BEGIN {re.escape(name)} -->\n).*?(\n<!-- END {re.escape(name)} -->)", re.S)
    if not pattern.search(page):
        raise ValueError(f"RESULTS.md has no section {name!r}: add the lines <!-- BEGIN {name} --> and "
                         f"<!-- END {name} --> where it belongs")
    return pattern.sub(lambda m: m.group(1) + body.strip("\n") + m.group(2), page, count=1)


def write_section(name: str, body: str, page: Path = PAGE) -> None:
    """Replace section ``name`` of the results page with ``body`` (Markdown), in place."""
    page.write_text(replace_section(page.read_text(encoding="utf-8"), name, body), encoding="utf-8")
