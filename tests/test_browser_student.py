"""A card table in JupyterLab whose engine runs on a student's function (headless Chromium through Playwright).

A notebook cell defines the student's ``waste_moves`` (a first version that forgets SoliJoy's rule: its waste
never goes to a foundation) and opens a SoliJoy table on it with ``solitaire.play(..., use=solitaire.use(...))``;
a second table runs on the right version. In the browser we draw the 13 cards of deal 0 that turn up an Ace and
double-click it: the wrong piece's table plays it to a foundation and its status line says the kit's rules refuse
it; the right one's refuses the move. A third table plays the Italian game on lesson 02c's first ``move_build``:
a build moved off a column's last face-up card leaves the card under it face down, and the status line says the
rules make another position. Screenshots go to artifacts/browser/.
"""
from __future__ import annotations

import json

import pytest

from test_browser import SHOTS, browser, expect, open_notebook, run_all, servers, shot, shots  # noqa: F401

pytestmark = pytest.mark.skipif(not servers.CHROMIUM.exists(), reason=f"needs Debian's Chromium at {servers.CHROMIUM}")

CELLS = [
    '''import solitaire
from solitaire import Move
from solitaire.moves import WASTE_TO_COLUMN, WASTE_TO_FOUNDATION''',
    '''def waste_moves_first(p, targets, wants):
    """The student's first version: forgets that SoliJoy's waste never goes to a foundation."""
    top = p.waste[-1]
    found = []
    if top in wants:
        found.append(Move(WASTE_TO_FOUNDATION))
    for d in targets.get(top, []):
        found.append(Move(WASTE_TO_COLUMN, target=d))
    return found''',
    '''def waste_moves(p, targets, wants):
    """The student's second version."""
    top = p.waste[-1]
    found = []
    if p.variant.waste_to_foundation and top in wants:
        found.append(Move(WASTE_TO_FOUNDATION))
    for d in targets.get(top, []):
        found.append(Move(WASTE_TO_COLUMN, target=d))
    return found''',
    '''solitaire.play("solijoy", 0, use=solitaire.use(waste_moves=waste_moves_first))''',
    '''solitaire.play("solijoy", 0, use=solitaire.use(waste_moves=waste_moves))''',
    '''def build_first(p, m):
    """Lesson 02c's first move_build: moves the cards, and forgets the Italian game's auto_flip."""
    columns = list(p.columns)
    cards = columns[m.source][-m.count:]
    columns[m.source] = columns[m.source][:-m.count]
    columns[m.target] = columns[m.target] + cards
    return p._replace(columns=tuple(columns))''',
    '''solitaire.play("italian", 0, use=solitaire.use(move_build=build_first))''',
]


def student_notebook(path) -> None:
    cells = [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "execution_count": None, "outputs": [],
              "source": source} for i, source in enumerate(CELLS)]
    path.write_text(json.dumps({"cells": cells, "metadata": {"kernelspec": {
        "name": "python3", "display_name": "Python 3", "language": "python"}}, "nbformat": 4, "nbformat_minor": 5}))


def draw_to_the_ace(table) -> None:
    """13 clicks on the stock: SoliJoy deal 0's 13th card drawn is an Ace (lesson 03)."""
    moves = table.locator(".sol-moves-title")
    for n in range(1, 14):
        table.locator(".sol-stock").click()
        expect()(moves).to_have_text(f"Moves: {n}", timeout=10_000)
    assert table.locator(".sol-waste .sol-face").last.get_attribute("data-card").startswith("A")


def test_a_table_on_a_students_waste_moves(tmp_path, browser, shots):  # noqa: F811
    root = tmp_path / "lab"
    root.mkdir()
    student_notebook(root / "student.ipynb")
    with servers.jupyter_lab(root) as (url, token):
        page = open_notebook(browser, f"{url}/lab/tree/student.ipynb?token={token}", viewport=(1366, 1400))
        run_all(page)
        tables = page.locator(".sol-root")
        expect()(tables).to_have_count(3, timeout=30_000)
        wrong, right, italian = tables.nth(0), tables.nth(1), tables.nth(2)

        wrong.scroll_into_view_if_needed()
        draw_to_the_ace(wrong)
        ace = wrong.locator(".sol-waste .sol-face").last.get_attribute("data-card")
        wrong.locator(".sol-waste .sol-face").last.dblclick()
        status = wrong.locator(".sol-status")
        expect()(status).to_contain_text("But the kit's rules refuse it", timeout=10_000)
        expect()(status).to_contain_text("only to a column")
        expect()(wrong.locator(".sol-moves-title")).to_have_text("Moves: 14")
        assert ace in [c.get_attribute("data-card") for c in wrong.locator(".sol-foundations .sol-face").all()]
        shot(page, shots / "student_wrong_waste_moves.png")

        right.scroll_into_view_if_needed()
        draw_to_the_ace(right)
        right.locator(".sol-waste .sol-face").last.dblclick()
        expect()(right.locator(".sol-status")).to_contain_text("is illegal", timeout=10_000)
        expect()(right.locator(".sol-moves-title")).to_have_text("Moves: 13")
        assert right.locator(".sol-foundations .sol-face").count() == 0
        shot(page, shots / "student_right_waste_moves.png")

        # 02c's first move_build on the Italian game: 8♣ from t3 onto 9♦, click then click. The rules turn up the
        # card under it (auto_flip); the student's piece leaves it face down, and the status line says so.
        italian.scroll_into_view_if_needed()
        italian.locator(".sol-t3 .sol-face").last.click()
        italian.locator(".sol-t1 .sol-face").last.click()
        expect()(italian.locator(".sol-moves-title")).to_have_text("Moves: 1", timeout=10_000)
        expect()(italian.locator(".sol-status")).to_contain_text("But the kit's rules make another position: yours "
                                                                 "leaves 2 face-down cards in column 3, the rules 1")
        assert italian.locator(".sol-t3 .sol-face").count() == 0
        shot(page, shots / "student_first_move_build.png")
