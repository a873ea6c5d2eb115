"""Real servers and a real browser for the browser tests and the widget benchmark.

``voila(notebook, workdir)``, ``jupyter_lab(root)`` and ``jupyter_notebook(root)`` (Notebook 7) start a server
on a free localhost port (Lab and Notebook with a token) and stop it with its kernels afterwards;
``trust(notebook)`` signs a notebook for them; ``chromium(playwright)`` launches Debian's Chromium.
"""
from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class ServerError(RuntimeError):
    """A server did not start; the message carries the end of its log."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_port(port: int, server: subprocess.Popen, log: Path, name: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise ServerError(f"{name} stopped with code {server.returncode}:\n{log.read_text()[-3000:]}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise ServerError(f"{name} did not open port {port} within {timeout} s:\n{log.read_text()[-3000:]}")


def _stop(server: subprocess.Popen) -> None:
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=5)


@contextlib.contextmanager
def _serve(command: list[str], workdir: Path, name: str, port: int) -> Iterator[None]:
    log = workdir / f"{name.lower().replace(' ', '_')}.log"
    env = {**os.environ, "JUPYTER_PLATFORM_DIRS": "1", "PYTHONPATH": os.pathsep.join(
        [str(Path(__file__).resolve().parents[2]), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    with open(log, "w") as out:
        server = subprocess.Popen(command, cwd=workdir, stdout=out, stderr=subprocess.STDOUT,
                                  start_new_session=True, env=env)
    try:
        _wait_for_port(port, server, log, name)
        yield
    finally:
        _stop(server)


@contextlib.contextmanager
def voila(notebook: Path, workdir: Path) -> Iterator[str]:
    """Voilà serving ``notebook``; yields its URL."""
    port = free_port()
    command = [sys.executable, "-m", "voila", str(notebook), f"--port={port}", "--no-browser",
               "--Voila.ip=127.0.0.1", "--theme=light", "--show_tracebacks=True"]
    with _serve(command, workdir, "Voila", port):
        yield f"http://127.0.0.1:{port}/"


def _jupyter_settings(root: Path, dark: bool) -> Path:
    """Settings shared by JupyterLab and Notebook 7 (the same plugins): no pop-ups, every cell in the page."""
    settings = root / ".lab-settings"
    (settings / "@jupyterlab" / "apputils-extension").mkdir(parents=True, exist_ok=True)
    # no news or update pop-ups over the notebook
    (settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings").write_text(
        '{"fetchNews": "false", "checkForUpdates": false}')
    if dark:
        (settings / "@jupyterlab" / "apputils-extension" / "themes.jupyterlab-settings").write_text(
            '{"theme": "JupyterLab Dark"}')
    (settings / "@jupyterlab" / "notebook-extension").mkdir(parents=True, exist_ok=True)
    # every cell stays in the page (no virtual scrolling), so a test can find every output
    (settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings").write_text(
        '{"windowingMode": "none"}')
    return settings


@contextlib.contextmanager
def _jupyter(app: str, config: str, root: Path, dark: bool) -> Iterator[tuple[str, str]]:
    port, token = free_port(), secrets.token_hex(16)
    settings = _jupyter_settings(root, dark)
    command = [sys.executable, "-m", "jupyter", app, f"--port={port}", "--no-browser", "--ServerApp.ip=127.0.0.1",
               "--allow-root", "--ServerApp.open_browser=False",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
               f"--{config}.user_settings_dir={settings}", f"--{config}.workspaces_dir={root / '.lab-workspaces'}"]
    with _serve(command, root, "JupyterLab" if app == "lab" else "Notebook 7", port):
        yield f"http://127.0.0.1:{port}", token


@contextlib.contextmanager
def jupyter_lab(root: Path, dark: bool = False) -> Iterator[tuple[str, str]]:
    """JupyterLab serving the folder ``root`` with a random token; yields (base URL, token).

    ``dark`` starts Lab in its dark theme (the table's "auto" theme follows it)."""
    with _jupyter("lab", "LabApp", root, dark) as served:
        yield served


@contextlib.contextmanager
def jupyter_notebook(root: Path) -> Iterator[tuple[str, str]]:
    """Jupyter Notebook 7 serving the folder ``root`` with a random token; yields (base URL, token)."""
    with _jupyter("notebook", "JupyterNotebookApp", root, False) as served:
        yield served


def trust(notebook: Path) -> None:
    """Sign ``notebook`` as the servers here would (same environment), so its saved outputs are trusted."""
    env = {**os.environ, "JUPYTER_PLATFORM_DIRS": "1"}
    subprocess.run([sys.executable, "-m", "jupyter", "trust", str(notebook)], check=True, env=env,
                   capture_output=True, text=True)


def chromium(playwright):
    """Debian's Chromium, headless, with the flags the kit's machines need."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


def menu(page, name: str, item: str) -> None:
    """Choose ``item`` in the menu bar's ``name`` menu (JupyterLab and Notebook 7 share it); ``item`` may
    be the start of the label ("Restart Kernel" for "Restart Kernel…")."""
    import re

    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{re.escape(name)}$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(item)}")).first.click()


def wait_for_kernel(page, timeout_ms: int = 120_000) -> None:
    """Wait until the notebook's kernel is idle; accept JupyterLab's "Select Kernel" dialog if it asks
    (it does when the kernel is slow to start on a busy machine)."""
    dialog = page.locator(".jp-Dialog").filter(has_text="Select Kernel")
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=timeout_ms)
    page.wait_for_timeout(1500)  # the dialog, if any, comes right after the notebook opens
    if dialog.count():
        dialog.locator("button.jp-mod-accept").click()
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for(timeout=timeout_ms)


RAN_ALL = """() => {
    const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')];
    const idle = document.querySelector(".jp-Notebook-ExecutionIndicator[data-status='idle']");
    const failed = document.querySelector(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']");
    return Boolean(failed) || Boolean(idle && prompts.length > 0
        && prompts.every(p => /^\\[\\d+\\]:$/.test(p.textContent.trim())));
}"""


def wait_until_every_cell_ran(page, timeout_s: float = 180) -> None:
    """After Run All: wait until every code cell has a number and the kernel is idle (or a cell failed),
    accepting a late "Select Kernel" dialog on the way."""
    import time

    deadline = time.monotonic() + timeout_s
    dialog = page.locator(".jp-Dialog").filter(has_text="Select Kernel")
    while not page.evaluate(RAN_ALL):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the notebook did not finish running within {timeout_s:.0f} s")
        if dialog.count():
            dialog.locator("button.jp-mod-accept").click()
        page.wait_for_timeout(100)
