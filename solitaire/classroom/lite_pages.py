"""The lessons as a JupyterLite site shows them: what is true on a machine with Python is not always true in a
browser.

``for_the_browser`` rewrites a student copy for the site: the sections that install Python (pip, venv) give the
browser's steps instead, and a paragraph or list item that gives pip or venv commands, or links to a file the site
does not carry (the teacher's guide, with its answers), is left out. ``install_check`` is the code that follows the
first cell's ``%pip`` in a lesson that needs Pyodide's CDN: where the CDN cannot be reached, that install fails
without a word (only the browser's console says "Failed to fetch"), so the cell says it in one line, with what to do.
"""
from __future__ import annotations

import re

HEADING = re.compile(r"#{1,6}\s")
INSTALL_HEADING = re.compile(r"#{1,6}\s+Install", re.IGNORECASE)
TEACHERS_HEADING = re.compile(r"#{1,6}\s+For teachers\b", re.IGNORECASE)
MACHINE_ONLY = re.compile(r"pip install|\bvenv\b|\.venv|python -m ", re.IGNORECASE)
LINK = re.compile(r"\]\(([^)#?\s]+)")
ITEM = re.compile(r"\s*([-*+]|\d+\.)\s")
BROWSER_STEPS = """## In the browser

Nothing to install: these lessons run Python in your browser (JupyterLite). Open a lesson from the file browser on \
the left and run its cells from the top (Shift+Enter); its first cell installs the kit from this site. Your work \
is kept in this browser only: download a lesson (File → Download) to keep it or hand it in."""
CDN = "cdn.jsdelivr.net"


def _blocks(text: str) -> list[str]:
    """A markdown text in blocks: paragraphs, code fences whole, and a list's items one by one."""
    blocks: list[str] = []
    current: list[str] = []
    fenced = False

    def close() -> None:
        if current:
            blocks.append("\n".join(current))
            current.clear()

    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            if not fenced:
                close()
            current.append(line)
            fenced = not fenced
            if not fenced:
                close()
        elif fenced:
            current.append(line)
        elif not line.strip() or HEADING.match(line):
            close()
            blocks.append(line)
        else:
            if ITEM.match(line) and current:
                close()
            current.append(line)
    close()
    return blocks


def _keep(block: str, site_files: set[str]) -> bool:
    """Does this block stay in the site: no pip or venv command, and no link to a file the site does not carry."""
    if MACHINE_ONLY.search(block):
        return False
    targets = [t for t in LINK.findall(block) if "://" not in t and not t.startswith(("mailto:", "#"))]
    return all(t in site_files for t in targets)


def for_the_browser(nb: dict, site_files: set[str]) -> dict:
    """A student copy as the site shows it (the input is not changed): the install sections give the browser's steps;
    blocks with pip or venv commands, or links to files the site lacks (``site_files``: the names it carries), go;
    sections for teachers go too.

    >>> nb = {"cells": [{"cell_type": "markdown", "source": "# Start\\nThe guide, [TEACHERS.md](TEACHERS.md), has it."
    ...                  "\\n\\n## Install and start\\n```\\npython -m venv .venv\\n```\\n\\n## The lessons\\n"
    ...                  "- [01](01_cards.ipynb) cards\\n- `pip install x` is all you need"}]}
    >>> print(for_the_browser(nb, {"01_cards.ipynb"})["cells"][0]["source"])  # doctest: +ELLIPSIS
    # Start
    <BLANKLINE>
    ## In the browser
    <BLANKLINE>
    Nothing to install: ...
    <BLANKLINE>
    ## The lessons
    - [01](01_cards.ipynb) cards
    """
    out = {**nb, "cells": []}
    section = ""  # "install", "teachers" or "" (any other), by the last heading seen
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            if section != "teachers":
                out["cells"].append(cell)
            continue
        kept: list[str] = []
        for block in _blocks("".join(cell["source"])):
            if HEADING.match(block):
                section = ("install" if INSTALL_HEADING.match(block) else "teachers" if TEACHERS_HEADING.match(block)
                           else "")
                if section == "install":
                    kept.append(BROWSER_STEPS + "\n")
                    continue
            if section or not (block.strip() == "" or _keep(block, site_files)):
                continue
            kept.append(block)
        text = re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()
        if text:
            out["cells"].append({**cell, "source": text})
    return out


def install_check(needs: list[str], site_only: list[str]) -> str:
    """The lines after a lesson's ``%pip``: where ``needs`` (Pyodide's packages, from its CDN) did not install, one
    line says so and what to do; ``site_only``: the lessons that need nothing from outside the site.

    >>> import contextlib, io, sys
    >>> with contextlib.redirect_stderr(io.StringIO()) as said:
    ...     exec(install_check(["no_such_package"], ["01"]))
    >>> said.getvalue()  # doctest: +ELLIPSIS
    "This lesson needs no_such_package from Pyodide's CDN (cdn.jsdelivr.net), which this browser cannot reach: ...\\n"
    """
    names = needs[0] if len(needs) == 1 else ", ".join(needs[:-1]) + " and " + needs[-1]
    lessons = ", ".join(site_only)
    message = (f"This lesson needs {names} from Pyodide's CDN ({CDN}), which this browser cannot reach: connect to "
               f"the internet and run this cell again (lessons {lessons} need nothing but this site)")
    return (f"import importlib.util, sys\n"
            f"if not all(importlib.util.find_spec(name) for name in {needs!r}):\n"
            f"    print({message!r},\n          file=sys.stderr)\n")
