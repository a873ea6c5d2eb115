"""The JupyterLite site: its size, its build time, and the time to a first card table in the browser.

    python benchmarks/bench_lite.py [--runs 3]

Builds the site offline (the Pyodide runtime cached once before, as tests/test_lite.py does), serves it on
127.0.0.1 and opens lesson 04 in headless Chromium, a fresh browser each run (no cache): the seconds from opening
the page to the first table drawn (the Pyodide kernel started, the kit installed from the site, the cells run).
Prints wall seconds, and the build's CPU seconds beside its wall time.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                      ".wasm": "application/wasm"}

    def log_message(self, *args) -> None:
        pass


def first_table_seconds(url: str) -> float:
    """Open lesson 04 in a fresh headless Chromium, Run All, and time the first card table drawn."""
    import servers
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = servers.chromium(pw)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            start = time.perf_counter()
            page.goto(f"{url}/lab/index.html?path=01a_play.ipynb", timeout=120_000)
            servers.wait_for_kernel(page, timeout_ms=180_000)
            servers.menu(page, "Run", "Run All Cells")
            page.locator(".sol-root .sol-stock").first.wait_for(timeout=180_000)
            return time.perf_counter() - start
        finally:
            browser.close()


def main() -> None:
    from solitaire.classroom import lite, lite_runtime

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="browser runs (default: 3)")
    args = parser.parse_args()
    lite_runtime.prefetch()
    with tempfile.TemporaryDirectory() as tmp:
        cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime + time.process_time()
        made = lite.build_site(Path(tmp) / "site", offline=True)
        cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime + time.process_time() - cpu
        print(f"site: {made['bytes'] / 2 ** 20:.1f} MiB, {len(made['lessons'])} lessons; build {made['seconds']} s "
              f"wall, {cpu:.1f} s CPU (this process and its children)")
        handler = functools.partial(_Quiet, directory=str(Path(tmp) / "site"))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            url = f"http://127.0.0.1:{server.server_address[1]}"
            times = [first_table_seconds(url) for _ in range(args.runs)]
        finally:
            server.shutdown()
    print(f"first card table in the browser: median {statistics.median(times):.1f} s over {len(times)} runs "
          f"({', '.join(f'{t:.1f}' for t in times)})")


if __name__ == "__main__":
    main()
