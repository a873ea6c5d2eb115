"""The card table's costs: widget models per table, messages per move, click-to-state time, browser time.

    python benchmarks/bench_widget.py              # models, messages, server-side ms (at the deal, after 20,000 moves)
    python benchmarks/bench_widget.py --browser    # also: JupyterLab in Chromium, browser ms and Run All of lesson 01a

Server side: each action goes in through the handler the browser's messages reach (``_handle_custom_msg``) and
ends when its state message is serialised to JSON (as the kernel's session would). Browser side: Playwright
clicks the stock of a table in JupyterLab; the figure is the page's own clock from the click being sent to
the table redrawn (``data-round-trip-ms``, kernel and websocket included); for Run All of lesson 01a, also what
the page's main thread did meanwhile (Chromium's Performance metrics). Targets: at most 10 models per table,
one state message per move, median <= 30 ms on the server and <= 100 ms in the browser, also after 20,000
moves; Run All of lesson 01a under 30 s.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solitaire import Game, Move  # noqa: E402
from solitaire.notation import Pile  # noqa: E402

LONG_GAME = 20_000
BENCH_TIMEOUT_MS = 300_000


def random_move(game: Game, rng: random.Random) -> Move:
    """A seeded random legal move, preferring card moves to draws so the table keeps changing."""
    moves = game.legal_moves()
    cards = [m for m in moves if m.kind not in ("draw", "recycle")]
    return rng.choice(cards if cards and rng.random() < 0.7 else moves)


def play_long_game(game: Game, n: int, rng: random.Random) -> None:
    """Play ``n`` seeded random moves; waste cards stay in play, so the stock can always be clicked after."""
    while len(game.moves) < n:
        moves = [m for m in game.legal_moves() if m.kind not in ("w>t", "w>f")]
        cards = [m for m in moves if m.kind not in ("draw", "recycle")]
        if moves:
            game.play(rng.choice(cards if cards and rng.random() < 0.7 else moves))
        else:
            game.undo()


def messages_for(m: Move) -> list[dict]:
    """The browser's messages for a move: a drag and drop, a double-click, or a click on the stock/a column,
    naming the piles as the state names them (``str(Pile(...))``)."""
    source, target = str(Pile("column", m.source)), str(Pile("column", m.target))
    if m.kind in ("draw", "recycle"):
        return [{"action": "click", "pile": "stock"}]
    if m.kind == "flip":
        return [{"action": "click", "pile": source}]
    if m.kind == "w>t":
        return [{"action": "drop", "source": "waste", "target": target}]
    if m.kind == "w>f":
        return [{"action": "double_click", "pile": "waste"}]
    if m.kind == "t>f":
        return [{"action": "double_click", "pile": source}]
    if m.kind == "t>t":
        return [{"action": "click", "pile": source, "depth": m.count}, {"action": "click", "pile": target}]
    return [{"action": "drop", "source": str(Pile("foundation", m.source)), "target": target}]


def count_models(variant: str) -> int:
    import ipywidgets.widgets.widget as registry

    from solitaire.widget import GameWidget

    before = set(registry._instances)
    table = GameWidget(Game(variant, 1))
    for _ in range(3):
        table.click_stock()
    return len(set(registry._instances) - before)


def time_actions(table, rng: random.Random, n_moves: int) -> tuple[list[float], list[int], list[int]]:
    """Milliseconds per action (message in, state serialised out), state messages per move and per action."""
    sent: list[str] = []
    table.comm.send = lambda data=None, buffers=None, **_: sent.append(json.dumps(data))
    times, per_move, per_action = [], [], []
    while len(per_move) < n_moves:
        if not table.game.legal_moves():  # stuck: take a move back (not timed) and go on
            table.game.undo()
            continue
        m = random_move(table.game, rng)
        before, first = len(table.game.moves), len(sent)
        for message in messages_for(m):
            t, already = time.perf_counter(), len(sent)
            table._handle_custom_msg(message, [])
            times.append((time.perf_counter() - t) * 1000)
            per_action.append(len(sent) - already)
        assert len(table.game.moves) == before + 1, table.message
        per_move.append(len(sent) - first)
    return times, per_move, per_action


def measure_server(variant: str, n_moves: int = 60, seed: int = 7) -> dict:
    from solitaire.widget import GameWidget

    rng = random.Random(seed)
    table = GameWidget(Game(variant, seed))
    fresh, per_move, per_action = time_actions(table, rng, n_moves)
    play_long_game(table.game, LONG_GAME, rng)
    table.refresh()
    late, late_per_move, late_per_action = time_actions(table, rng, n_moves)
    size = len(json.dumps(table.state))
    return {"variant": variant, "models": count_models(variant), "fresh": summary(fresh), "late": summary(late),
            "messages_per_move": sorted(set(per_move + late_per_move)),
            "messages_per_action": sorted(set(per_action + late_per_action)), "state_bytes": size,
            "moves_at_end": len(table.game.moves)}


def summary(ms: list[float]) -> dict:
    ms = sorted(ms)
    return {"n": len(ms), "median": statistics.median(ms), "p90": ms[int(0.9 * (len(ms) - 1))], "max": ms[-1]}


def report_server(rows: list[dict]) -> None:
    print(f"server side: message in -> state serialised (ms), at the deal and after {LONG_GAME:,} moves")
    print("(msgs/move: a drop, double-click or stock click is one action; a move by click-click is two)")
    print(f"{'variant':10} {'models':>6} {'msgs/action':>11} {'msgs/move':>9} {'state':>7} | {'deal median':>11} {'p90':>6} "
          f"{'max':>6} | {'20k median':>10} {'p90':>6} {'max':>6}")
    for r in rows:
        f, a = r["fresh"], r["late"]
        print(f"{r['variant']:10} {r['models']:6d} {str(r['messages_per_action']):>11} {str(r['messages_per_move']):>9} "
              f"{r['state_bytes']:6d}B | "
              f"{f['median']:11.2f} {f['p90']:6.2f} {f['max']:6.2f} | {a['median']:10.2f} {a['p90']:6.2f} {a['max']:6.2f}")


# --- in the browser ---------------------------------------------------------------------------------
BENCH_CELLS = [
    "import random, sys\nsys.path.insert(0, {bench!r})\nimport bench_widget\nimport solitaire",
    "fresh = solitaire.play('klondike', seed=7)\nfresh",
    "long = solitaire.play('klondike', seed=7)\n"
    "bench_widget.play_long_game(long.game, {n}, random.Random(7))\nlong.refresh()\nlong",
]


def measure_browser(clicks: int = 30) -> dict:
    import nbformat
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT / "tests" / "browser"))
    import servers

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        root = Path(tmp)
        shutil.copy(ROOT / "notebooks" / "01a_play.ipynb", root / "01a_play.ipynb")
        cells = [c.format(bench=str(ROOT / "benchmarks"), n=LONG_GAME) for c in BENCH_CELLS]
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nbformat.write(nb, root / "bench.ipynb")
        with servers.jupyter_lab(root) as (url, token):
            browser = servers.chromium(pw)
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            run_all, main_thread = open_and_run(page, f"{url}/lab/tree/01a_play.ipynb?token={token}")
            page = browser.new_page(viewport={"width": 1280, "height": 1000})  # its own workspace: one notebook
            try:
                open_and_run(page, f"{url}/lab/workspaces/bench/tree/bench.ipynb?token={token}", BENCH_TIMEOUT_MS)
            except Exception:
                page.screenshot(path=str(Path(tmp).parent / "bench_widget_failure.png"))
                raise
            tables = page.locator(".sol-root")
            result = {"run_all_04_s": run_all, "run_all_04_page": main_thread, "deal": click_times(page, tables.nth(0), clicks),
                      "late": click_times(page, tables.nth(1), clicks)}
            browser.close()
    return result


def open_and_run(page, url: str | None, timeout_ms: int = 300_000) -> tuple[float, dict]:
    """Open a notebook (unless already open), Run All, wait until every cell ran and the kernel is idle.

    Returns the seconds, and what the page's main thread did meanwhile (Chromium's Performance metrics:
    seconds of tasks, of layout and of style recalculation, and the number of layouts)."""
    import servers

    if url:
        page.goto(url, timeout=120_000)
    servers.wait_for_kernel(page)
    servers.menu(page, "Edit", "Clear Outputs of All Cells")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    before = page_metrics(cdp)
    start = time.perf_counter()
    servers.menu(page, "Run", "Run All Cells")
    servers.wait_until_every_cell_ran(page, timeout_ms / 1000)
    seconds = time.perf_counter() - start
    after = page_metrics(cdp)
    return seconds, {name: after[name] - before[name] for name in after}


def page_metrics(cdp) -> dict:
    names = {"TaskDuration": "tasks_s", "LayoutDuration": "layout_s", "RecalcStyleDuration": "style_s",
             "LayoutCount": "layouts"}
    return {names[m["name"]]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"] if m["name"] in names}


def click_times(page, table, clicks: int) -> dict:
    """Click the stock ``clicks`` times; the page's own round trip and drawing time for each."""
    table.scroll_into_view_if_needed()
    stock, round_trip, draw = table.locator(".sol-stock"), [], []
    for _ in range(clicks):
        seq = int(table.get_attribute("data-seq"))
        stock.click()
        page.wait_for_function("([el, seq]) => Number(el.dataset.seq) > seq", arg=[table.element_handle(), seq],
                               polling="raf", timeout=10_000)
        round_trip.append(float(table.get_attribute("data-round-trip-ms")))
        draw.append(float(table.get_attribute("data-draw-ms")))
    moves = table.locator(".sol-moves-title").text_content()
    return {"round_trip": summary(round_trip), "draw": summary(draw), "moves": moves}


def report_browser(r: dict) -> None:
    print(f"\nbrowser (JupyterLab, Chromium): click on the stock -> table redrawn, page clock (ms)")
    for key, label in (("deal", "at the deal"), ("late", f"after {LONG_GAME:,} moves")):
        t, d = r[key]["round_trip"], r[key]["draw"]
        print(f"  {label:20} round trip median {t['median']:6.1f}  p90 {t['p90']:6.1f}  max {t['max']:6.1f} | "
              f"drawing alone median {d['median']:5.1f}  ({r[key]['moves']})")
    m = r["run_all_04_page"]
    print(f"Run All of lesson 01a in JupyterLab: {r['run_all_04_s']:.1f} s; the page's main thread meanwhile: "
          f"{m['tasks_s']:.1f} s of tasks, {m['layout_s']:.1f} s layout, {m['style_s']:.1f} s style, "
          f"{m['layouts']:.0f} layouts")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--browser", action="store_true", help="also measure in JupyterLab with Chromium")
    parser.add_argument("--variants", nargs="+", default=["klondike", "solijoy", "italian"])
    args = parser.parse_args()
    print(load("at the start"))
    report_server([measure_server(v) for v in args.variants])
    if args.browser:
        report_browser(measure_browser())
    print(load("at the end"))


def load(when: str) -> str:
    """The machine's load average (1, 5, 15 min) and cores: timings on a shared machine are read next to it."""
    one, five, fifteen = os.getloadavg()
    return f"load average {when}: {one:.2f} {five:.2f} {fifteen:.2f} ({os.cpu_count()} cores)"


if __name__ == "__main__":
    main()
