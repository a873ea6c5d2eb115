"""Screenshots of the hint's colours beside the selection and the keyboard focus, in each theme, to look at.

    PYTHONPATH=. python tests/browser/hint_colours.py [OUT_DIR]

JupyterLab in Debian's Chromium runs one table per theme (light, dark, four-colour, dark four-colour) of
Klondike seed 1: a hint marked (its cards and where they go), K♥ on t5 selected, and the keyboard focus
on t3; one PNG per table (OUT_DIR/widget-hint-<theme>.png), and the status line's words printed.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).parent))
import servers  # noqa: E402

THEMES = {"light": 'theme="light"', "dark": 'theme="dark"', "four-colour": 'theme="light", four_colour=True',
          "dark-four-colour": 'theme="dark", four_colour=True'}
TABLE = ('w = solitaire.play("klondike", seed=1, {options})\nw.hint()\n'
         'w.selection = Selection("column", 4)  # K♥ selected beside the hint, which keeps its words\nw.refresh()\nw')


def notebook(path: Path) -> None:
    cells = [nbformat.v4.new_code_cell("import solitaire\nfrom solitaire.widget import Selection")]
    cells += [nbformat.v4.new_code_cell(TABLE.format(options=options)) for options in THEMES.values()]
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "artifacts/hint").resolve()
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        root = Path(tmp)
        notebook(root / "hint.ipynb")
        with servers.jupyter_lab(root) as (url, token):
            browser = servers.chromium(pw)
            page = browser.new_page(viewport={"width": 1100, "height": 900}, device_scale_factor=1)
            page.goto(f"{url}/lab/tree/hint.ipynb?token={token}", timeout=120_000)
            servers.wait_for_kernel(page)
            servers.menu(page, "Run", "Run All Cells")
            servers.wait_until_every_cell_ran(page)
            tables = page.locator(".sol-root")
            tables.nth(len(THEMES) - 1).locator(".sol-stock").wait_for(timeout=60_000)
            for i, name in enumerate(THEMES):
                table = tables.nth(i)
                table.scroll_into_view_if_needed()
                table.locator(".sol-t2").focus()
                page.keyboard.press("ArrowRight")  # the keyboard focus on t3, drawn as it is for keyboard users
                page.wait_for_timeout(300)
                table.screenshot(path=str(out / f"widget-hint-{name}.png"))
                if i == 0:
                    print(table.locator(".sol-status").text_content())
            browser.close()
    print(f"screenshots in {out}")


if __name__ == "__main__":
    main()
