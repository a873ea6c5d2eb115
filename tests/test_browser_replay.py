"""The card table when Auto-finish ends a game during a Solution replay, in JupyterLab (headless Chromium through
Playwright), issue 55: the replay bar still said "Replay step 266/276 — next: t4>f" under a won game.

A notebook cell asks for the Solution of Klondike deal 1 (276 moves, a replay) and steps through it until
Auto-finish can act (move 266); in the browser we see the bar at step 266, press Auto-finish, and the game is won
with no replay bar left. A table made without aids shows no Hint button. Screenshots go to artifacts/browser/.
"""
from __future__ import annotations

import json
import re

import pytest

from test_browser import browser, expect, open_notebook, run_all, servers, shot, shots  # noqa: F401

pytestmark = pytest.mark.skipif(not servers.CHROMIUM.exists(), reason=f"needs Debian's Chromium at {servers.CHROMIUM}")

CELLS = [
    '''import solitaire
from solitaire.endgame import plain_finish

table = solitaire.play("klondike", seed=1)
table.show_solution()  # the Solution button
while plain_finish(table.game.position)[0] is None:  # the replay's Next, up to where Auto-finish can act
    table.replay_next()
table''',
    '''solitaire.play("klondike", seed=11982, aids=False)''',
]


def notebook(path) -> None:
    cells = [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "execution_count": None, "outputs": [],
              "source": source} for i, source in enumerate(CELLS)]
    path.write_text(json.dumps({"cells": cells, "metadata": {"kernelspec": {
        "name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5}))


def test_auto_finish_during_a_replay_ends_the_replay_with_the_game(tmp_path, browser, shots):  # noqa: F811
    root = tmp_path / "lab"
    root.mkdir()
    notebook(root / "replay.ipynb")
    with servers.jupyter_lab(root) as (url, token):
        page = open_notebook(browser, f"{url}/lab/tree/replay.ipynb?token={token}", viewport=(1280, 1100))
        run_all(page)
        tables = page.locator(".sol-root")
        expect()(tables).to_have_count(2, timeout=30_000)
        table, challenge = tables.nth(0), tables.nth(1)
        table.scroll_into_view_if_needed()
        bar = table.locator(".sol-replay")
        expect()(bar).to_be_visible()
        expect()(bar.locator(".sol-replay-label")).to_have_text(re.compile(r"^Replay step 266/276 — next: "))
        shot(page, shots / "replay_before_auto_finish.png")
        table.locator(".sol-auto-finish").click()
        expect()(table.locator(".sol-banner")).to_contain_text("You won!", timeout=20_000)
        expect()(bar).to_be_hidden()
        expect()(table.locator(".sol-status")).to_contain_text("Auto-finish sent")
        page.wait_for_timeout(2000)  # the cards' flights home are over
        shot(page, shots / "replay_ended_by_auto_finish.png")

        challenge.scroll_into_view_if_needed()
        expect()(challenge.locator(".sol-hint")).to_be_hidden()
        expect()(challenge.locator(".sol-undo")).to_be_visible()
        challenge.locator(".sol-t1").focus()
        page.keyboard.press("h")  # the H key asks for a hint too: refused
        expect()(challenge.locator(".sol-status")).to_contain_text("Hint is switched off on this table",
                                                                   timeout=10_000)
        shot(page, shots / "challenge_without_hint.png")
