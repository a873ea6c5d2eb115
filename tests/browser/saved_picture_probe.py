"""Why a saved card table is an SVG of the position when it was shown, not after later moves: two probes.

    PYTHONPATH=. python tests/browser/saved_picture_probe.py [OUT_DIR]

1. Keeping the saved picture current needs ``update_display_data`` (a display id). In JupyterLab the widget
   renderer answers an update by building a second view of the same model: the table on screen is rebuilt
   (focus lost) and the old view, detached, keeps redrawing on every state message.
2. Saving the widget state in the notebook (what nbclient records) lets JupyterLab restore a drawn table at
   its last position without a kernel, but it cannot be played, and nbconvert (nbviewer) then shows widget
   views needing a CDN instead of the pictures.

Prints what it found; screenshots go to OUT_DIR (default artifacts/probe). Re-run it after upgrading
ipywidgets, nbconvert or anywidget: if probe 1 stops finding a detached live view, the picture could follow.
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).parent))
import servers  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
LESSON = ROOT / "notebooks" / "01a_play.ipynb"
STATE = "application/vnd.jupyter.widget-state+json"
UPDATE_CELLS = ["import solitaire\nfrom IPython.display import display\nw = solitaire.play('klondike', seed=1)\n"
                "h = display(w, display_id=True)",
                "w.click_stock()\nh.update(w)  # the saved picture would follow the table"]


def run_cell(page, index: int) -> None:
    page.locator(".jp-CodeCell").nth(index).locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")


def probe_display_update(browser, root: Path, out: Path) -> dict:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in UPDATE_CELLS])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, root / "update.ipynb")
    with servers.jupyter_lab(root) as (url, token):
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.goto(f"{url}/lab/tree/update.ipynb?token={token}", timeout=120_000)
        servers.wait_for_kernel(page)
        run_cell(page, 0)
        page.locator(".sol-root .sol-stock").wait_for(timeout=60_000)
        page.evaluate("() => { window.firstView = document.querySelector('.sol-root'); }")
        run_cell(page, 1)  # the kernel updates the display
        page.locator(".sol-moves-title", has_text="Moves: 1").wait_for(timeout=60_000)
        page.locator(".sol-stock").click()  # a move in the browser after the update
        page.locator(".sol-moves-title", has_text="Moves: 2").wait_for(timeout=60_000)
        page.wait_for_timeout(500)
        page.screenshot(path=str(out / "display_update.png"))
        return page.evaluate("""() => ({
            tables_on_screen: document.querySelectorAll('.sol-root').length,
            rebuilt: document.querySelector('.sol-root') !== window.firstView,
            old_view_attached: document.contains(window.firstView),
            old_view_still_redraws: window.firstView.querySelector('.sol-moves-title').textContent === 'Moves: 2',
        })""")


def probe_saved_state(browser, root: Path, out: Path) -> dict:
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter

    nb = nbformat.read(LESSON, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(root)}}).execute()
    state = nb.metadata["widgets"][STATE]["state"]
    body, _ = HTMLExporter().from_notebook_node(nb)
    found = {"state_kb": len(json.dumps(nb.metadata["widgets"])) // 1024, "models": len(state),
             "html_pictures": body.count('data-mime-type="image/svg+xml"'),
             "html_widget_views": body.count('<script type="application/vnd.jupyter.widget-view+json">')}
    nbformat.write(nb, root / "with_state.ipynb")
    servers.trust(root / "with_state.ipynb")
    with servers.jupyter_lab(root) as (url, token):
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.goto(f"{url}/lab/tree/with_state.ipynb?token={token}", timeout=120_000)
        servers.wait_for_kernel(page)
        page.locator(".sol-root").last.wait_for(timeout=60_000)
        tables = page.locator(".sol-root")
        found["restored_tables"] = tables.count()
        found["restored_moves"] = [t.locator(".sol-moves-title").text_content() for t in tables.all()]
        first = tables.first
        first.scroll_into_view_if_needed()
        first.locator(".sol-stock").click()
        page.wait_for_timeout(2000)
        found["a_click_on_a_restored_table"] = first.locator(".sol-moves-title").text_content()
        page.screenshot(path=str(out / "saved_state_restored.png"))
    return found


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "artifacts/probe").resolve()
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = servers.chromium(pw)
        try:
            for name, probe in (("display update", probe_display_update), ("saved widget state", probe_saved_state)):
                root = Path(tmp) / name.replace(" ", "_")
                root.mkdir()
                print(f"{name}: {probe(browser, root, out)}", flush=True)
        finally:
            browser.close()
    print(f"screenshots: {out}")


if __name__ == "__main__":
    main()
