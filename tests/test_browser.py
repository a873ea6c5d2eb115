"""Real-browser tests (Debian's Chromium through Playwright): Voilà serves a table; JupyterLab (at 1366×768) and
Notebook 7 run lesson 01a; JupyterLab shows the saved lesson, never run, with a picture of each table; the status
line while the kernel is busy; the hint's colours in each theme. On the way: every covered card shows its rank
and whole suit, a click on a card just turned up is no double-click, the challenge table has no aids, and
Auto-finish waits early in a game (saying why) and wins it at the end, its cards seen flying home.

Screenshots are saved as artifacts in artifacts/browser/ (the test prints the folder).
"""
from __future__ import annotations

import re
import shutil
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "browser"))
import servers  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = Path(__file__).parent / "browser" / "play.ipynb"
LESSON = ROOT / "notebooks" / "01a_play.ipynb"
SHOTS = ROOT / "artifacts" / "browser"

pytestmark = pytest.mark.skipif(not servers.CHROMIUM.exists(), reason=f"needs Debian's Chromium at {servers.CHROMIUM}")


@pytest.fixture
def shots():
    SHOTS.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots: {SHOTS}")
    return SHOTS


@pytest.fixture
def browser():
    from playwright import sync_api  # part of the test extra: missing, the test fails rather than skips

    with sync_api.sync_playwright() as pw:
        chromium = servers.chromium(pw)
        try:
            yield chromium
        finally:
            chromium.close()


def expect():
    from playwright.sync_api import expect as playwright_expect
    return playwright_expect


def drag(page, source, target) -> None:
    """Drag with the mouse, in small steps, from the middle of ``source`` to the middle of ``target``."""
    a, b = source.bounding_box(), target.bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + min(12, a["height"] / 2))
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=12)
    page.mouse.up()


def shot(page, path: Path) -> None:
    """A screenshot once the short move animations (160 ms) are over."""
    page.wait_for_timeout(300)
    page.screenshot(path=str(path))


def faces(pile) -> list[str]:
    """The face-up cards drawn in a pile, bottom first."""
    return [c.get_attribute("data-card") for c in pile.locator(".sol-face").all()]


# Where things are laid out in their column (offsets, so a card still gliding to its place does not count)
COVERED = """root => [...root.querySelectorAll('.sol-columns .sol-pile')].flatMap(pile => {
    const cards = [...pile.querySelectorAll('.sol-face')];
    return cards.slice(0, -1).map((card, i) => {
        const corner = card.querySelector('.sol-tl');
        const spans = [corner.querySelector('.sol-rank'), corner.querySelector('.sol-suit')];
        const bottom = card.offsetTop + corner.offsetTop + Math.max(...spans.map(s => s.offsetTop + s.offsetHeight));
        return {card: card.dataset.card, corner: corner.textContent, bottom, next: cards[i + 1].offsetTop};
    });
})"""


def covered_cards_show_rank_and_suit(table) -> None:
    """Every face-up card covered by the next one in a fanned column shows its whole corner, rank and suit
    (K♦ told from K♥): the corner reads as the card, and ends above the card that covers it."""
    covered = table.evaluate(COVERED)
    assert covered, "no covered face-up card on this table"
    for c in covered:
        assert c["corner"] == c["card"] and c["bottom"] <= c["next"] + 0.5, c


# --- Voilà -------------------------------------------------------------------------------------------
def test_play_klondike_in_voila(tmp_path, browser, shots):
    with servers.voila(NOTEBOOK, tmp_path) as url:
        page = browser.new_page(viewport={"width": 1000, "height": 900})
        page.goto(url, timeout=60_000)
        table = page.locator(".sol-root").first
        table.locator(".sol-stock").wait_for(timeout=60_000)
        moves, status = table.locator(".sol-moves-title"), table.locator(".sol-status")
        expect()(moves).to_have_text("Moves: 0", timeout=10_000)
        shot(page, shots / "voila_deal.png")

        table.locator(".sol-stock").click()  # draw
        expect()(moves).to_have_text("Moves: 1", timeout=10_000)
        expect()(table.locator(".sol-waste .sol-face")).to_have_count(1)

        # seed 1 deals 7♦ on t1 and 8♠ on t7: click the 7♦, then the 8♠ (t1>t7)
        table.locator(".sol-t1 .sol-face").last.click()
        expect()(status).to_contain_text("Selected 7♦", timeout=10_000)
        table.locator(".sol-t7 .sol-face").last.click()
        expect()(moves).to_have_text("Moves: 2", timeout=10_000)
        expect()(table.locator(".sol-move-list")).to_contain_text("t1>t7")
        expect()(table.locator(".sol-t7 .sol-card")).to_have_count(8)
        expect()(table.locator(".sol-t1 .sol-card")).to_have_count(0)  # nothing ghostly on the empty column
        covered_cards_show_rank_and_suit(table)  # 8♠ under 7♦

        # pick up the build 8♠ 7♦ by its visible strip, then try the empty t1: only a King may go there
        table.locator(".sol-t7 .sol-face").first.click(position={"x": 20, "y": 6})
        expect()(status).to_contain_text("Selected 8♠ 7♦ from t7", timeout=10_000)
        table.locator(".sol-t1").click()
        expect()(status).to_contain_text("t7>t1:2 is illegal", timeout=10_000)
        expect()(status).to_contain_text("only a King")
        expect()(moves).to_have_text("Moves: 2")
        shot(page, shots / "voila_after_moves.png")


# --- JupyterLab: lesson 01a, Run All, then play -------------------------------------------------------
# A table at the end of a game, added to the copy of the lesson: deal 1 played on the solver's line up to the
# first position that leaves nothing to decide (every card face up), where Auto-finish acts.
NEAR_THE_END = """from solitaire.endgame import plain_finish

near_end = solitaire.play("klondike", seed=1)
for move in solitaire.solve(near_end.game).moves:
    if plain_finish(near_end.game.position)[0] is not None:
        break
    near_end.game.play(move)
near_end.refresh()
near_end"""


def lab_root(tmp_path: Path, near_end: bool = False) -> Path:
    """A folder with a copy of lesson 01a (and, with ``near_end``, a table near its end after it), so the
    repository is not touched."""
    import nbformat

    root = tmp_path / "lab"
    root.mkdir()
    shutil.copy(LESSON, root / LESSON.name)
    if near_end:
        nb = nbformat.read(root / LESSON.name, as_version=4)
        nb.cells += [nbformat.v4.new_code_cell("import solitaire"), nbformat.v4.new_code_cell(NEAR_THE_END)]
        nbformat.write(nb, root / LESSON.name)
    return root


def run_all(page) -> float:
    """Clear every output, Run All, and wait until every code cell has run and the kernel is idle; seconds."""
    servers.wait_for_kernel(page)
    servers.menu(page, "Edit", "Clear Outputs of All Cells")
    prompts = page.locator(".jp-CodeCell .jp-InputPrompt")
    expect()(prompts.first).to_have_text(re.compile(r"\[ ?\]:"), timeout=10_000)
    start = time.perf_counter()
    servers.menu(page, "Run", "Run All Cells")
    try:
        servers.wait_until_every_cell_ran(page)
    except Exception:
        page.screenshot(path=str(SHOTS / "lab_run_all_timeout.png"))
        raise
    seconds = time.perf_counter() - start
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    assert errors.count() == 0, f"a cell failed: {errors.first.text_content()[-2000:]}"
    return seconds


def open_notebook(browser, url: str, viewport: tuple[int, int] = (1280, 1000)):
    """A page with the notebook at ``url`` open (JupyterLab's .../lab/tree/..., Notebook 7's .../notebooks/...)."""
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    page.goto(url, timeout=120_000)
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=120_000)
    return page


def test_lesson_01a_in_jupyterlab(tmp_path, browser, shots):
    root = lab_root(tmp_path, near_end=True)
    with servers.jupyter_lab(root) as (url, token):
        page = open_notebook(browser, f"{url}/lab/tree/{LESSON.name}?token={token}", viewport=(1366, 768))
        seconds = run_all(page)
        print(f"Run All of lesson 01a in JupyterLab: {seconds:.1f} s")
        code_cells = page.locator(".jp-CodeCell").count()
        tables = page.locator(".sol-root")
        expect()(tables).to_have_count(3, timeout=30_000)  # one per table cell, nothing left from the saved file
        assert code_cells >= 9
        play_klondike(page, tables.nth(0), shots)
        the_challenge_has_no_aids(page, tables.nth(1), shots)
        auto_finish_waits(page, tables.nth(0), shots)  # after play_klondike: seed 3, face-down cards left
        auto_finish_at_the_end(page, tables.nth(2), shots)


def test_saved_lesson_01a_in_jupyterlab_shows_pictures(tmp_path, browser, shots):
    """Opened and never run (trusted, the kernel idle), lesson 01a shows each table as a picture of its
    position, not "Error displaying widget: model not found"."""
    root = lab_root(tmp_path)
    servers.trust(root / LESSON.name)
    with servers.jupyter_lab(root) as (url, token):
        page = open_notebook(browser, f"{url}/lab/tree/{LESSON.name}?token={token}")
        saved_pictures(page, shots / "lab_00_saved_not_run.png")


def saved_pictures(page, screenshot: Path) -> None:
    """Every saved table of the (trusted, not yet run) lesson is drawn as its SVG picture, none is an error."""
    servers.wait_for_kernel(page)
    pictures = page.locator(".jp-OutputArea-output[data-mime-type='image/svg+xml']")
    expect()(pictures).to_have_count(2, timeout=30_000)  # the two tables
    page.wait_for_timeout(2000)  # the widget manager has restored what it could: nothing may turn into an error
    expect()(page.locator(".jp-OutputArea-output").filter(has_text="Error displaying widget")).to_have_count(0)
    words = page.locator(".jp-OutputArea-output[data-mime-type='text/plain']").filter(has_text="<card table")
    assert words.count() == 0  # trusted: the picture, not the words
    box = pictures.first.bounding_box()
    assert box["width"] > 400 and box["height"] > 200, box  # drawn at a readable size
    pictures.first.scroll_into_view_if_needed()
    shot(page, screenshot)


def test_lesson_01a_in_notebook_7(tmp_path, browser, shots):
    """Jupyter Notebook 7: the saved lesson shows pictures; Run All, every table drawn, one move by click-click."""
    root = lab_root(tmp_path)
    servers.trust(root / LESSON.name)
    with servers.jupyter_notebook(root) as (url, token):
        page = open_notebook(browser, f"{url}/notebooks/{LESSON.name}?token={token}")
        saved_pictures(page, shots / "nb7_00_saved_not_run.png")
        seconds = run_all(page)
        print(f"Run All of lesson 01a in Notebook 7: {seconds:.1f} s")
        tables = page.locator(".sol-root")
        expect()(tables).to_have_count(2, timeout=30_000)
        expect()(page.locator(".jp-OutputArea-output").filter(has_text="Error displaying widget")).to_have_count(0)
        for i in range(2):  # every table drawn: its stock, its columns and face-up cards
            table = tables.nth(i)
            assert table.locator(".sol-stock").count() == 1 and table.locator(".sol-face").count() >= 4, i
        table = tables.nth(0)
        table.scroll_into_view_if_needed()
        moves = table.locator(".sol-moves-title")
        expect()(moves).to_have_text("Moves: 0")
        shot(page, shots / "nb7_01_run_all.png")
        # seed 1 deals 7♦ on t1 and 8♠ on t7: click the 7♦, then the 8♠
        table.locator(".sol-t1 .sol-face").last.click()
        expect()(table.locator(".sol-status")).to_contain_text("Selected 7♦", timeout=10_000)
        table.locator(".sol-t7 .sol-face").last.click()
        expect()(moves).to_have_text("Moves: 1", timeout=10_000)
        assert faces(table.locator(".sol-t7"))[-2:] == ["8♠", "7♦"] and faces(table.locator(".sol-t1")) == []
        expect()(table.locator(".sol-move-list")).to_contain_text("t1>t7")
        shot(page, shots / "nb7_02_after_move.png")
        after_a_kernel_restart(page, table, shots / "nb7_03_kernel_restarted.png")


def after_a_kernel_restart(page, table, screenshot: Path) -> None:
    """The kernel restarted, the table's Python side is gone: a click is not silently lost, the table says so
    (and only then asks to run the cell again)."""
    servers.menu(page, "Kernel", "Restart Kernel")
    page.locator(".jp-Dialog button.jp-mod-accept").click()
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for(timeout=120_000)
    moves = table.locator(".sol-moves-title").text_content()
    table.locator(".sol-stock").click()
    waiting = table.locator(".sol-waiting")
    expect()(waiting).to_contain_text("The kernel has no model for this table", timeout=10_000)
    expect()(waiting).to_contain_text("run this cell again to play")
    expect()(waiting).to_have_attribute("data-why", "no-model")
    assert table.locator(".sol-moves-title").text_content() == moves  # nothing moved
    shot(page, screenshot)


# --- the status line while the kernel is busy (issue 23) -------------------------------------------------
SLOW_TABLE = """import time
import solitaire

table = solitaire.play("solijoy", seed=1)
estimate = table.game.win_chance


def slow_win_chance():  # Win chance keeps the kernel busy for 6 s at least
    time.sleep(6)
    return estimate()


table.game.win_chance = slow_win_chance
table"""

RECORD_STATUS = """root => {
    window.statusSeen = [];
    const record = () => {
        for (const line of [root.querySelector('.sol-status'), root.querySelector('.sol-waiting')]) {
            const seen = {line: line.className.split(' ')[0], text: line.textContent, hidden: line.hidden,
                          request: line.dataset.request || '', action: line.dataset.action || '',
                          why: line.dataset.why || ''};
            const last = window.statusSeen.filter(s => s.line === seen.line).pop();
            if (!last || JSON.stringify(last) !== JSON.stringify(seen)) window.statusSeen.push(seen);
        }
    };
    record();
    new MutationObserver(record).observe(root, {subtree: true, childList: true, characterData: true,
                                                attributes: true});
}"""


def test_the_status_line_names_its_own_action_while_the_kernel_is_busy(tmp_path, browser, shots):
    """Win chance (slow), then Position text at once: the status line shows each answer under its own action,
    the line under it says the kernel is busy with Win chance (never "run this cell again"), Position text
    answers with its panel, and the next action's status is its own, not one answer behind."""
    import nbformat

    root = tmp_path / "lab"
    root.mkdir()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(SLOW_TABLE)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, root / "slow.ipynb")
    with servers.jupyter_lab(root) as (url, token):
        page = open_notebook(browser, f"{url}/lab/tree/slow.ipynb?token={token}")
        run_all(page)
        table = page.locator(".sol-root").first
        table.locator(".sol-stock").wait_for(timeout=30_000)
        status, waiting = table.locator(".sol-status"), table.locator(".sol-waiting")
        table.evaluate(RECORD_STATUS)
        table.locator(".sol-win-chance").click()
        expect()(status).to_contain_text("Estimating the win chance", timeout=10_000)
        table.locator(".sol-position-text").click()
        expect()(waiting).to_contain_text("still working on Win chance; Position text comes next", timeout=10_000)
        expect()(waiting).to_have_attribute("data-action", "position_text")
        shot(page, shots / "lab_status_busy.png")
        expect()(status).to_contain_text("Win chance from here", timeout=60_000)
        expect()(status).to_have_attribute("data-action", "win_chance")  # the answer, under its own action
        expect()(table.locator(".sol-text")).to_contain_text("variant: solijoy")  # Position text's answer: its panel
        expect()(waiting).to_be_hidden()
        table.locator(".sol-stock").click()  # a fast action afterwards: its own answer, not the last one's
        expect()(status).to_contain_text("draw: turned", timeout=10_000)
        expect()(status).to_have_attribute("data-action", "click")
        seen = page.evaluate("window.statusSeen")
        shot(page, shots / "lab_status_answered.png")

    answers = [s for s in seen if s["line"] == "sol-status" and s["request"]]
    words = {"win_chance": ("Estimating the win chance", "Win chance from here"), "click": ("draw: turned",)}
    for s in answers:  # each message shown belongs to its own action
        assert any(w in s["text"] for w in words[s["action"]]), s
    assert [s["action"] for s in answers] == ["win_chance", "win_chance", "click"], answers
    assert len({s["request"] for s in answers}) == 2 and answers[0]["request"] == answers[1]["request"]
    waits = [s for s in seen if s["line"] == "sol-waiting" and not s["hidden"]]
    assert waits and all(s["why"] in ("busy", "working") for s in waits), waits  # the kernel was busy, not lost
    assert not any("run this cell again" in s["text"] for s in seen), seen
    assert {s["action"] for s in waits} <= {"win_chance", "position_text"}, waits


def play_klondike(page, table, shots) -> None:
    """Drag, click-click, keyboard only, an emptied waste, undo, a new seed and a double-click."""
    table.scroll_into_view_if_needed()
    moves, status = table.locator(".sol-moves-title"), table.locator(".sol-status")
    expect()(moves).to_have_text("Moves: 0")
    # screen readers and the keyboard: one tab stop per pile (no card is one), every pile says what it holds
    assert table.locator(".sol-felt [tabindex='0']").count() == 13 and table.locator(".sol-card[tabindex]").count() == 0
    expect()(table.locator(".sol-t5")).to_have_attribute("aria-label", "column 5: king of hearts, 4 face-down cards")
    expect()(table.locator(".sol-status")).to_have_attribute("aria-live", "polite")
    shot(page, shots / "lab_01_deal.png")

    drag(page, table.locator(".sol-t1 .sol-face").last, table.locator(".sol-t7 .sol-face").last)  # 7♦ onto 8♠
    expect()(moves).to_have_text("Moves: 1", timeout=10_000)
    assert faces(table.locator(".sol-t7"))[-2:] == ["8♠", "7♦"] and faces(table.locator(".sol-t1")) == []
    covered_cards_show_rank_and_suit(table)
    table.locator(".sol-stock").click()  # draw Q♣
    expect()(moves).to_have_text("Moves: 2", timeout=10_000)
    table.locator(".sol-waste .sol-face").last.click()  # click Q♣, then click K♥ on t5
    expect()(status).to_contain_text("Selected Q♣", timeout=10_000)
    table.locator(".sol-t5 .sol-face").last.click()
    expect()(moves).to_have_text("Moves: 3", timeout=10_000)
    expect()(table.locator(".sol-waste .sol-card")).to_have_count(0)  # the emptied waste draws no card ...
    expect()(table.locator(".sol-waste .sol-slot")).to_have_count(1)  # ... only its empty place
    shot(page, shots / "lab_02_empty_waste.png")

    # keyboard only: on t5, Up picks K♥ Q♣ (two cards), Enter picks up, four times Left to t1, Enter drops
    table.locator(".sol-t5").focus()
    for key in ["ArrowUp", "Enter"]:
        page.keyboard.press(key)
    expect()(status).to_contain_text("Selected K♥ Q♣ from t5", timeout=10_000)
    for key in ["ArrowLeft"] * 4 + ["Enter"]:
        page.keyboard.press(key)
    expect()(moves).to_have_text("Moves: 4", timeout=10_000)
    assert faces(table.locator(".sol-t1")) == ["K♥", "Q♣"]
    covered_cards_show_rank_and_suit(table)  # K♥ under Q♣, 8♠ under 7♦
    expect()(table.locator(".sol-t1")).to_be_focused()
    expect()(table.locator(".sol-t1")).to_have_attribute("aria-label", "column 1: queen of clubs on king of hearts")
    ring = table.locator(".sol-t1").evaluate("e => [getComputedStyle(e).outlineStyle, getComputedStyle(e).outlineWidth]")
    assert ring == ["solid", "3px"], ring  # a visible focus ring
    shot(page, shots / "lab_03_keyboard_move.png")
    page.keyboard.press("u")  # U undoes, from the keyboard too
    expect()(moves).to_have_text("Moves: 3", timeout=10_000)
    table.locator(".sol-undo").click()  # the Undo button
    expect()(moves).to_have_text("Moves: 2", timeout=10_000)
    assert faces(table.locator(".sol-waste")) == ["Q♣"] and faces(table.locator(".sol-t5"))[-1] == "K♥"

    seed = table.locator(".sol-seed")
    seed.fill("3")
    seed.press("Enter")  # seed 3 deals A♦ on t1
    expect()(table.locator(".sol-title")).to_have_text("Klondike · seed 3", timeout=10_000)
    expect()(table.locator(".sol-waste .sol-card")).to_have_count(0)  # no card left over from the last deal
    table.locator(".sol-t1 .sol-face").last.dblclick()
    expect()(moves).to_have_text("Moves: 1", timeout=10_000)
    assert faces(table.locator(".sol-f1")) == ["A♦"]
    expect()(table.locator(".sol-t1 .sol-card")).to_have_count(0)  # t1 held only the Ace: now its empty place
    expect()(table.locator(".sol-t1 .sol-slot")).to_have_count(1)
    shot(page, shots / "lab_04_double_click.png")

    # a quick double-click on a face-down card: the first click turns it up (3♦), the second only selects it,
    # never a double-click that would try to send 3♦ home and be refused
    table.locator(".sol-t2 .sol-face").last.dblclick()  # A♥ home: a real double-click
    expect()(moves).to_have_text("Moves: 2", timeout=10_000)
    table.locator(".sol-t2 .sol-back").last.dblclick()
    expect()(status).to_contain_text("Selected 3♦ from t2", timeout=10_000)
    expect()(moves).to_have_text("Moves: 3")
    assert faces(table.locator(".sol-t2")) == ["3♦"] and table.locator(".sol-move-list li").last.text_content() == "flip t2"
    shot(page, shots / "lab_05_double_click_after_a_flip.png")


def the_challenge_has_no_aids(page, table, shots) -> None:
    """After Run All the challenge table is still as dealt (the teacher's solution plays on Games of its own),
    and it has no Hint, Solution, Auto-finish, Win chance or Position text (aids=False); Undo stays."""
    table.scroll_into_view_if_needed()
    expect()(table.locator(".sol-moves-title")).to_have_text(re.compile(r"^Moves: 0\b"))
    for aid in ("hint", "solution", "auto-finish", "win-chance", "position-text"):
        expect()(table.locator(f".sol-{aid}")).to_be_hidden()
    expect()(table.locator(".sol-undo")).to_be_visible()
    shot(page, shots / "lab_06_challenge_without_aids.png")


def auto_finish_waits(page, table, shots) -> None:
    """Early in a game (face-down cards left) Auto-finish plays nothing and says in one sentence why it waits."""
    table.scroll_into_view_if_needed()
    moves, banner = table.locator(".sol-moves-title"), table.locator(".sol-banner")
    played = moves.text_content()
    assert table.locator(".sol-back").count() > 0  # face-down cards left
    table.locator(".sol-auto-finish").click()
    expect()(table.locator(".sol-status")).to_contain_text(re.compile(r"Auto-finish waits: \d+ cards are still face "
                                                                      r"down\."), timeout=10_000)
    page.wait_for_timeout(500)
    expect()(moves).to_have_text(played)  # nothing played
    assert not banner.is_visible() and table.locator(".sol-flying").count() == 0
    shot(page, shots / "lab_07_auto_finish_waits.png")


def auto_finish_at_the_end(page, table, shots) -> None:
    """Once nothing is left to decide, Auto-finish wins the game in one click: the cards fly home one after
    another (seen in flight), then the banner says the game is won."""
    table.scroll_into_view_if_needed()
    banner = table.locator(".sol-banner")
    expect()(banner).to_be_hidden()
    assert table.locator(".sol-back").count() == 0  # every card is face up
    table.locator(".sol-auto-finish").click()
    flying = table.locator(".sol-flying")
    flying.first.wait_for(timeout=10_000)
    page.screenshot(path=str(shots / "lab_08_auto_finish_flying.png"))
    expect()(banner).to_contain_text("You won", timeout=10_000)
    expect()(table.locator(".sol-status")).to_contain_text(re.compile(r"Auto-finish sent \d+ cards home"))
    expect()(flying).to_have_count(0, timeout=5_000)  # every card has landed
    assert table.locator(".sol-columns .sol-card").count() == 0
    tops = [faces(table.locator(f".sol-f{i}")) for i in range(1, 5)]
    assert all(top and top[-1].startswith("K") for top in tops), tops  # a King on each foundation
    shot(page, shots / "lab_09_auto_finished.png")


# --- the hint's colours as drawn (issue 23) --------------------------------------------------------------
def test_the_hint_is_drawn_in_the_colours_its_sentence_names(tmp_path, browser, shots):
    """In each theme the hint's cards are outlined in pink and its target in cyan, as the status line says,
    apart from the selection (orange) and the keyboard focus (yellow)."""
    import hint_colours

    from solitaire.widget.aids import HINT_COLOURS

    def rgb(colour: str) -> str:
        return "rgb({}, {}, {})".format(*(int(colour[i:i + 2], 16) for i in (1, 3, 5)))

    root = tmp_path / "lab"
    root.mkdir()
    hint_colours.notebook(root / "hint.ipynb")
    with servers.jupyter_lab(root) as (url, token):
        page = open_notebook(browser, f"{url}/lab/tree/hint.ipynb?token={token}")
        run_all(page)
        tables = page.locator(".sol-root")
        expect()(tables).to_have_count(len(hint_colours.THEMES), timeout=30_000)
        for i, theme in enumerate(hint_colours.THEMES):
            table = tables.nth(i)
            table.scroll_into_view_if_needed()
            table.locator(".sol-t2").focus()
            page.keyboard.press("ArrowRight")  # the keyboard focus on t3
            expect()(table.locator(".sol-status")).to_contain_text("outlined in pink, the place they go in cyan")
            shadow = table.locator(".sol-t1 .sol-source").evaluate("e => getComputedStyle(e).boxShadow")
            target = table.locator(".sol-t7").evaluate("e => getComputedStyle(e).boxShadow")
            selected = table.locator(".sol-t5 .sol-selected").evaluate("e => getComputedStyle(e).boxShadow")
            focus = table.locator(".sol-t3").evaluate("e => getComputedStyle(e).outlineColor")
            assert rgb(HINT_COLOURS["source"][1]) in shadow and rgb(HINT_COLOURS["target"][1]) in target, theme
            assert rgb("#ff9800") in selected and focus == rgb("#ffeb3b"), (theme, selected, focus)
            table.screenshot(path=str(shots / f"hint_{theme}.png"))
