"""One real-browser test: Voilà serves tests/browser/play.ipynb and Chromium plays two moves by clicking."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = Path(__file__).parent / "browser" / "play.ipynb"
SHOTS = ROOT / "artifacts" / "browser"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"needs Debian's Chromium at {CHROMIUM}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def voila_url(tmp_path):
    """Start Voilà on a free localhost port; stop it (and its kernel) afterwards."""
    port = _free_port()
    log = tmp_path / "voila.log"
    with open(log, "w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "voila", str(NOTEBOOK), f"--port={port}", "--no-browser",
             "--Voila.ip=127.0.0.1", "--theme=light", "--show_tracebacks=True"],
            cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            env={**os.environ, "JUPYTER_PLATFORM_DIRS": "1"})
    try:
        url = f"http://127.0.0.1:{port}/"
        _wait_for_port(port, server, log)
        yield url
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=5)


def _wait_for_port(port: int, server: subprocess.Popen, log: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"Voilà stopped with code {server.returncode}:\n{log.read_text()[-3000:]}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    pytest.fail(f"Voilà did not open port {port} within {timeout} s:\n{log.read_text()[-3000:]}")


def test_play_klondike_in_a_browser(voila_url):
    sync_api = pytest.importorskip("playwright.sync_api")
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 900})
            page.goto(voila_url, timeout=30_000)
            stock = page.locator(".sol-stock")
            stock.wait_for(timeout=40_000)
            counter = page.locator(".sol-moves")
            sync_api.expect(counter).to_contain_text("Moves: 0", timeout=10_000)
            page.screenshot(path=str(SHOTS / "klondike_deal.png"), full_page=True)

            stock.click()  # draw
            sync_api.expect(counter).to_contain_text("Moves: 1", timeout=10_000)
            sync_api.expect(page.locator(".sol-waste").first).to_be_visible()

            # seed 1 deals 7♦ on t1 and 8♠ on t7: click the 7♦, then the 8♠ (t1>t7)
            page.locator(".sol-t1:visible").last.click()
            sync_api.expect(page.locator(".sol-status")).to_contain_text("Selected 7♦", timeout=10_000)
            page.locator(".sol-t7:visible").last.click()
            sync_api.expect(counter).to_contain_text("Moves: 2", timeout=10_000)
            sync_api.expect(counter).to_contain_text("t1>t7")
            sync_api.expect(page.locator(".sol-t7:visible")).to_have_count(8)

            # pick up the build 8♠ 7♦ by its visible strip, then try the empty t1: only a King may go there
            page.locator(".sol-t7:visible").nth(6).click(position={"x": 29, "y": 8})
            sync_api.expect(page.locator(".sol-status")).to_contain_text("Selected 8♠ 7♦ from t7", timeout=10_000)
            page.locator(".sol-t1:visible").click()
            sync_api.expect(page.locator(".sol-status")).to_contain_text("t7>t1:2 is illegal", timeout=10_000)
            sync_api.expect(page.locator(".sol-status")).to_contain_text("only a King")
            sync_api.expect(counter).to_contain_text("Moves: 2")
            page.screenshot(path=str(SHOTS / "klondike_after_moves.png"), full_page=True)
        finally:
            browser.close()
