"""Screenshots of the card table in JupyterLab, to look at: every variant, dark theme, four colours, empty piles.

    PYTHONPATH=. python tests/browser/gallery.py [OUT_DIR] [--width 1024] [--lab-dark]

Opens JupyterLab (file browser open) in Debian's Chromium at the given window width, runs a notebook of
tables, and saves one PNG per table plus the whole window around the SoliJoy table.
"""
from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).parent))
import servers  # noqa: E402

TABLES = {
    "klondike": 'solitaire.play("klondike", seed=1)',
    "solijoy": 'solitaire.play("solijoy", seed=1)',
    "italian": 'solitaire.play("italian", seed=1)',
    "dark": 'solitaire.play("klondike", seed=5, theme="dark")',
    "four_colour": 'solitaire.play("solijoy", seed=2, four_colour=True)',
    "empty_piles": ('t = solitaire.play("klondike", seed=1)\nfor m in ["t1>t7", "draw", "w>t5"]:\n'
                    '    t.play_move(m)\nt.click_column(6, 2)\nt'),
    "draw_three_hint": ('g = Game(replace(KLONDIKE, draw=3), seed=2)\nh = GameWidget(g)\nh.click_stock()\n'
                        'h.click_stock()\nh.hint()\nh'),
    "mid_game": ('m = solitaire.play("klondike", seed=1)\nfor mv in solitaire.solve(m.game).moves[:215]:\n'
                 '    m.game.play(mv)\nm.hint()\nm'),  # the README's picture (docs/card_table.png)
    "won": ('w = solitaire.play("klondike", seed=2)\nfor m in solitaire.solve(w.game).moves:\n    w.game.play(m)\nw.refresh()\nw'),
}


def notebook(path: Path) -> None:
    cells = [nbformat.v4.new_code_cell("import solitaire\nfrom dataclasses import replace\n"
                                       "from solitaire import Game, KLONDIKE\nfrom solitaire.widget import GameWidget")]
    cells += [nbformat.v4.new_code_cell(code) for code in TABLES.values()]
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="artifacts/gallery")
    parser.add_argument("--width", type=int, default=1024)
    parser.add_argument("--lab-dark", action="store_true", help="JupyterLab's dark theme (tables on 'auto' follow it)")
    args = parser.parse_args()
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        root = Path(tmp)
        notebook(root / "gallery.ipynb")
        with servers.jupyter_lab(root, dark=args.lab_dark) as (url, token):
            browser = servers.chromium(pw)
            page = browser.new_page(viewport={"width": args.width, "height": 900})
            page.goto(f"{url}/lab/tree/gallery.ipynb?token={token}", timeout=120_000)
            servers.wait_for_kernel(page)
            page.locator(".lm-MenuBar-itemLabel", has_text=re.compile("^Run$")).click()
            page.locator(".lm-Menu-itemLabel", has_text=re.compile("^Run All Cells$")).click()
            tables = page.locator(".sol-root")
            tables.nth(len(TABLES) - 1).wait_for(timeout=120_000)
            page.wait_for_function("() => document.querySelector(\".jp-Notebook-ExecutionIndicator[data-status='idle']\")",
                                   timeout=120_000)
            time.sleep(1)
            for i, name in enumerate(TABLES):
                table = tables.nth(i)
                table.scroll_into_view_if_needed()
                time.sleep(0.3)  # let the short move animations end
                table.screenshot(path=str(out / f"{name}.png"))
                if name == "solijoy":
                    page.screenshot(path=str(out / f"solijoy_window_{args.width}px.png"))
                    width = table.locator(".sol-felt").bounding_box()["width"]
                    room = table.bounding_box()["width"]
                    print(f"SoliJoy felt {width:.0f} px in an output {room:.0f} px wide (window {args.width} px)")
            browser.close()
    print(f"screenshots in {out}")


if __name__ == "__main__":
    main()
