"""The lessons in the browser: ``python -m solitaire lite DIR`` builds a JupyterLite site, which is served here on
127.0.0.1 and opened in headless Chromium; lesson 01 runs in the browser's Python (Pyodide) and a click plays a move
on lesson 04's card table. The kit's code paths for the browser (no processes, no threads) are checked here too.

The Pyodide core comes from the npm registry's ``pyodide`` package and micropip from PyPI, downloaded once into the
cache (~/.cache/solitaire); where they cannot be had, or Chromium is missing, the tests that need them skip and say
why. Screenshots go to artifacts/lite/.
"""
from __future__ import annotations

import concurrent.futures as cf
import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "browser"))
import servers  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "artifacts" / "lite"
CDN_HOST = "https://cdn.jsdelivr.net"
NEEDS_CHROMIUM = pytest.mark.skipif(not servers.CHROMIUM.exists(), reason=f"needs Debian's Chromium at "
                                    f"{servers.CHROMIUM}")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A site built offline (after the runtime is in the cache): its folder and the build's summary."""
    pytest.importorskip("jupyterlite_core", reason="needs the lite extra: pip install -e '.[lite]'")
    pytest.importorskip("jupyterlite_pyodide_kernel", reason="needs the lite extra: pip install -e '.[lite]'")
    from solitaire.classroom import lite, lite_runtime
    from solitaire.cli_support import CommandError

    try:
        lite_runtime.prefetch()
    except (ValueError, CommandError) as e:
        pytest.skip(f"the Pyodide runtime cannot be had here: {e}")
    out = tmp_path_factory.mktemp("lite") / "site"
    made = lite.build_site(out, offline=True)
    print(f"\nsite: {made['bytes'] / 2 ** 20:.1f} MiB in {made['seconds']} s")
    return out, made


# --- what the site holds (no browser) ----------------------------------------------------------------------------
def test_the_site_holds_the_student_lessons_each_installing_the_kit_from_the_site(site):
    out, made = site
    assert "01_cards.ipynb" in made["lessons"] and "01a_play.ipynb" in made["lessons"]
    nb = json.loads((out / "files" / "02b_moves.ipynb").read_text(encoding="utf-8"))
    assert "%pip install" in nb["cells"][0]["source"] and "solitaire-kit" in nb["cells"][0]["source"].split()
    sources = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    assert any("raise NotImplementedError" in s for s in sources)  # the student copy, not the teacher's
    assert all(not c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code")
    assert "numpy" not in nb["cells"][0]["source"]  # a lesson of the kit alone needs nothing from outside the site
    uses_pandas = json.loads((out / "files" / "06_experiments.ipynb").read_text(encoding="utf-8"))["cells"][0]
    assert {"numpy", "pandas", "matplotlib"} <= set(uses_pandas["source"].split())  # from Pyodide's CDN


def test_the_kit_and_the_table_come_from_the_site_and_never_from_pypi(site):
    out, _ = site
    index = json.loads((out / "pypi" / "all.json").read_text(encoding="utf-8"))
    assert {"solitaire-kit", "anywidget", "ipywidgets"} <= set(index)
    kit = next(out.glob("pypi/solitaire_kit-*.whl"))
    names = zipfile.ZipFile(kit).namelist()
    assert "solitaire/widget/table.js" in names and "solitaire/lessons/lesson01.py" in names
    config = json.loads((out / "jupyter-lite.json").read_text(encoding="utf-8"))["jupyter-config-data"]
    kernel = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["disablePyPIFallback"] is True and kernel["pyodideUrl"].startswith("./static/pyodide/")
    assert {"anywidget", "@jupyter-widgets/jupyterlab-manager"} <= {e["name"] for e in config["federated_extensions"]}


def test_the_runtime_lock_serves_the_kernels_packages_and_leaves_numpy_to_pyodides_cdn(site):
    from solitaire.classroom.lite_wheels import sha256_of

    out, made = site
    runtime = out / "static" / "pyodide"
    lock = json.loads((runtime / "pyodide-lock.json").read_text(encoding="utf-8"))["packages"]
    for name in ("micropip", "ipython", "jedi", "traitlets"):
        assert sha256_of(runtime / lock[name]["file_name"]) == lock[name]["sha256"], name
    assert lock["numpy"]["file_name"].startswith("https://") and "numpy" in made["cdn"]
    assert (runtime / "pyodide.asm.wasm").is_file() and (runtime / "python_stdlib.zip").is_file()


def test_a_folder_that_is_not_a_site_is_refused_and_kept(tmp_path, site):
    from solitaire.cli import main

    (tmp_path / "mine.txt").write_text("keep me")
    with pytest.raises(SystemExit) as stop:
        main(["lite", str(tmp_path), "--offline"])
    assert stop.value.code == 2 and (tmp_path / "mine.txt").read_text() == "keep me"


# --- a rebuild keeps what the build did not make; Ctrl-C leaves the old site whole (issue 55) ------------------------
@pytest.fixture
def published(site, tmp_path):
    """The site as TEACHERS.md says to publish it: a git repository made in the folder, and a file of the teacher's."""
    out = tmp_path / "S1"
    shutil.copytree(site[0], out, symlinks=True)
    (out / "notes.md").write_text("the teacher's own page\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-C", str(out)]
    for args in (["init", "-q", "-b", "gh-pages"], ["add", "-A"], ["commit", "-q", "-m", "site"]):
        subprocess.run(git + args, check=True, capture_output=True)
    return out


def test_a_rebuild_replaces_only_what_a_build_makes(published):
    """Before: a rebuild deleted the folder first, .git (the publishing repository) and added files with it."""
    from solitaire.classroom import lite

    (published / "api" / "contents" / "mine.json").write_text("{}")  # a file of the teacher's inside the site's tree
    lite.build_site(published, offline=True)
    status = subprocess.run(["git", "-C", str(published), "status", "--porcelain"], capture_output=True, text=True,
                            check=True).stdout.splitlines()
    assert not [line for line in status if line.startswith(" D")], status  # nothing the repository holds was deleted
    assert (published / "notes.md").read_text() == "the teacher's own page\n"
    assert (published / "api" / "contents" / "mine.json").read_text() == "{}"
    assert (published / "api" / "contents" / "all.json").is_file()
    made = json.loads((published / lite.SITE_MANIFEST).read_text(encoding="utf-8"))
    assert "notes.md" not in made and not any(name.startswith(".git") for name in made)
    assert not list(published.glob(".solitaire-partial-*")) and not list(published.parent.glob(".S1.partial-*"))


@pytest.mark.parametrize("times", [1, 2])
def test_ctrl_c_during_a_rebuild_leaves_the_old_site_whole(published, times):
    """Before: Ctrl-C during a rebuild left 449 of 596 files and no api/contents/all.json."""
    from stopping import files_of, interrupt

    before = files_of(published)
    old_index = published / "api" / "contents" / "all.json"

    def building() -> bool:  # the new site is being written (today's code deleted the old one first)
        return not old_index.exists() or any(any(p.iterdir()) for p in published.glob(".solitaire-partial-*"))

    stopped = interrupt(["lite", str(published), "--offline"], published.parent, building, wait=120, settle=1.0,
                        times=times)
    assert stopped.code == 130 and stopped.left == [], (stopped.code, stopped.left, stopped.err[-2000:])
    assert stopped.err.strip().splitlines()[-1] == (
        f"python -m solitaire lite: interrupted while building the site: '{published}' is as it was (the new site "
        "is built aside and moved into place only when whole)")
    assert "Traceback" not in stopped.err
    assert files_of(published) == before
    assert not list(published.glob(".solitaire-partial-*"))


def test_a_folder_that_cannot_be_written_is_said_in_one_line_before_any_work(tmp_path):
    """Before: a traceback (RuntimeError, PermissionError) and exit 1, after the whole build."""
    locked = tmp_path / "locked"
    locked.mkdir()
    command = [sys.executable, "-m", "solitaire", "lite", str(locked / "site"), "--offline"]
    if os.geteuid() == 0:  # root writes anywhere: the folder is made read-only for the command by bubblewrap
        if shutil.which("bwrap") is None:
            pytest.skip("as root, needs bubblewrap to make a folder read-only")
        command = ["bwrap", "--dev-bind", "/", "/", "--ro-bind", str(locked), str(locked), *command]
    else:
        locked.chmod(0o555)
    from stopping import ENV
    done = subprocess.run(command, capture_output=True, text=True, env=ENV)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.startswith(f"python -m solitaire lite: error: cannot make a folder in '{locked}' (")
    assert done.stderr.endswith("): give a folder you may write to\n") and done.stderr.count("\n") == 1
    assert list(locked.iterdir()) == []


# --- the kit's paths for the browser: no processes, no threads (checked here with sys.platform set) -------------
def test_experiments_play_in_this_process_in_the_browser(monkeypatch):
    pytest.importorskip("pandas")
    from solitaire import experiments

    started = []

    def no_pool(*args, **kwargs):
        raise AssertionError("a process pool was started in the browser")

    monkeypatch.setattr(cf, "ProcessPoolExecutor", no_pool)
    monkeypatch.setattr(threading.Thread, "start", lambda self: started.append(self.name))
    import tqdm.std
    monkeypatch.setattr(tqdm.std.tqdm, "monitor_interval", tqdm.std.tqdm.monitor_interval)
    monkeypatch.setattr(sys, "platform", "emscripten")
    table = experiments.run("klondike", "greedy", 6, workers=4, progress=True)
    monkeypatch.undo()
    assert len(table) == 6 and started == []


def test_the_tournament_says_in_one_line_that_the_browser_cannot_isolate_entrants(monkeypatch):
    from solitaire import tournament

    monkeypatch.setattr(sys, "platform", "emscripten")
    with pytest.raises(RuntimeError, match="own process, which the browser") as e:
        tournament.run(tournament.ENTRANTS / "greedy_player.py", deals=1, seeds={"klondike": [3]})
    assert "\n" not in str(e.value)


# --- in the browser ------------------------------------------------------------------------------------------------
class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                      ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json"}

    served: list[str] = []  # every path asked for, in order

    def log_message(self, *args) -> None:
        _Quiet.served.append(self.path)


@pytest.fixture(scope="module")
def served(site):
    """The site on a free port of 127.0.0.1, as any static web server would serve it."""
    out, _ = site
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(out)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def page(served):
    from playwright import sync_api

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as pw:
        browser = servers.chromium(pw)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 1000})
            context.cdn = []  # Pyodide's CDN is made unreachable (as offline), for the page and its kernel's worker
            context.route(f"{CDN_HOST}/**", lambda route: (context.cdn.append(route.request.url), route.abort()))
            tab = context.new_page()
            tab.cdn = context.cdn
            tab.outside = []  # the page's requests that leave 127.0.0.1 (the kernel worker's are not seen here; its failed loads are errors)
            tab.on("request", lambda r: None if r.url.startswith((served, "blob:", "data:")) else tab.outside.append(r.url))
            tab.errors = []  # scripts' errors (the site's probes for optional files, answered 404, are expected)
            tab.on("pageerror", lambda e: tab.errors.append(str(e)))
            tab.on("console", lambda m: tab.errors.append(m.text[:500]) if m.type == "error"
                   and not m.text.startswith("Failed to load resource") else None)
            yield tab
        finally:
            browser.close()


def open_lesson(page, served: str, name: str) -> float:
    """Open a lesson of the site, wait for its Pyodide kernel, Run All; seconds until every cell has run."""
    start = time.perf_counter()
    page.goto(f"{served}/lab/index.html?path={name}", timeout=120_000)
    servers.wait_for_kernel(page, timeout_ms=180_000)
    servers.menu(page, "Run", "Run All Cells")
    servers.wait_until_every_cell_ran(page, timeout_s=180)
    return time.perf_counter() - start


def errors_on(page) -> list[str]:
    found = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    return [found.nth(i).text_content()[-1500:] for i in range(found.count())]


@NEEDS_CHROMIUM
def test_lesson_01_runs_in_the_browser_kernel(served, page):
    seconds = open_lesson(page, served, "01_cards.ipynb")
    print(f"\nlesson 01 in the browser: every cell ran {seconds:.1f} s after the page was opened")
    wheels = [path.split("?")[0].rsplit("/", 1)[-1] for path in _Quiet.served if ".whl" in path]
    assert any(w.startswith("solitaire_kit-") for w in wheels) and any(w.startswith("micropip-") for w in wheels)
    page.screenshot(path=str(SHOTS / "lite_01_cards.png"))
    assert errors_on(page) == []
    outputs = page.locator(".jp-OutputArea-output").all_text_contents()
    assert any("♠" in text for text in outputs)  # the lesson's cards, made by the kit in the browser
    assert any("Not yet" in text for text in outputs)  # the student copy's blank exercise, checked by the kit
    assert page.outside == [] and page.errors == []  # the kernel's worker logs its failed loads as errors too


@NEEDS_CHROMIUM
def test_a_click_plays_a_move_on_the_card_table_in_the_browser(served, page):
    from playwright.sync_api import expect

    start = time.perf_counter()
    page.goto(f"{served}/lab/index.html?path=01a_play.ipynb", timeout=120_000)
    servers.wait_for_kernel(page, timeout_ms=180_000)
    servers.menu(page, "Run", "Run All Cells")
    table = page.locator(".sol-root").first
    table.locator(".sol-stock").wait_for(timeout=180_000)
    print(f"\nthe first card table in the browser: {time.perf_counter() - start:.1f} s after the page was opened")
    servers.wait_until_every_cell_ran(page, timeout_s=180)
    assert errors_on(page) == []
    table.scroll_into_view_if_needed()
    moves = table.locator(".sol-moves-title")
    expect(moves).to_have_text("Moves: 0")
    page.screenshot(path=str(SHOTS / "lite_04_deal.png"))
    # seed 1 deals 7♦ on t1 and 8♠ on t7: click the 7♦, then the 8♠ (t1>t7), played by the kit in Pyodide
    table.locator(".sol-t1 .sol-face").last.click()
    expect(table.locator(".sol-status")).to_contain_text("Selected 7♦", timeout=20_000)
    table.locator(".sol-t7 .sol-face").last.click()
    expect(moves).to_have_text("Moves: 1", timeout=20_000)
    expect(table.locator(".sol-move-list")).to_contain_text("t1>t7")
    expect(table.locator(".sol-t7 .sol-card")).to_have_count(8)
    expect(table.locator(".sol-t1 .sol-card")).to_have_count(0)
    legal = table.locator(".sol-legal")
    expect(legal).to_be_hidden()
    table.locator(".sol-legal-moves").click()  # a None sent by Python arrives in the browser as undefined
    expect(legal).to_contain_text("Legal moves (", timeout=20_000)
    page.wait_for_timeout(300)
    page.screenshot(path=str(SHOTS / "lite_04_after_a_move.png"))
    assert page.outside == [] and page.errors == []  # the kernel's worker logs its failed loads as errors too


@NEEDS_CHROMIUM
def test_a_lesson_that_needs_the_cdn_says_in_one_line_that_it_cannot_be_reached(served, page):
    """Issue 55: offline, the %pip cell printed nothing ("Failed to fetch" only in the browser's console) and the next
    cell failed with ModuleNotFoundError. The first cell now says it in one line, with what to do."""
    page.goto(f"{served}/lab/index.html?path=06_experiments.ipynb", timeout=120_000)
    servers.wait_for_kernel(page, timeout_ms=180_000)
    first = page.locator(".jp-Notebook .jp-CodeCell").first
    first.click()
    page.keyboard.press("Shift+Enter")
    first.locator(".jp-OutputArea-output").first.wait_for(timeout=180_000)
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for(timeout=180_000)
    said = first.locator(".jp-OutputArea-output").all_text_contents()
    page.screenshot(path=str(SHOTS / "lite_06_offline.png"))
    assert page.cdn, "the lesson did not ask Pyodide's CDN for its packages"
    assert len(said) == 1 and said[0].strip().count("\n") == 0, said
    assert said[0].startswith("This lesson needs numpy, pandas and matplotlib from Pyodide's CDN (cdn.jsdelivr.net), "
                              "which this browser cannot reach: connect to the internet and run this cell again")


def test_the_site_shows_the_browsers_steps_and_links_only_to_what_it_carries(site):
    """Issue 55: the site's index linked to a TEACHERS.md the site does not carry, and showed pip and venv steps."""
    out, _ = site
    files = out / "files"
    carried = {p.relative_to(files).as_posix() for p in files.rglob("*") if p.is_file()}
    assert "TEACHERS.md" not in carried  # the teacher's answers are not published with the site
    assert any(name.startswith("deeper/") for name in carried)  # the Going deeper notebooks the lessons link to
    for path in sorted(files.rglob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
        here = path.parent.relative_to(files).as_posix()
        links = {os.path.normpath(os.path.join(here, t)) for t in re.findall(r"\]\(([^)#?\s]+)", text)
                 if "://" not in t}
        assert links <= carried, (path.name, links - carried)
        assert not re.search(r"pip install|venv|python -m ", text), path.name
    index = json.loads((out / "files" / "00_index.ipynb").read_text(encoding="utf-8"))
    assert any("## In the browser" in "".join(c["source"]) for c in index["cells"])
    assert not any("hold the solutions" in "".join(c["source"]) for c in index["cells"])


def test_teachers_md_names_the_lessons_that_need_the_internet_as_the_site_does():
    """Issue 55: TEACHERS.md listed a lesson 04 that no longer exists and left out 01a."""
    from solitaire.classroom.lite import needs_cdn
    from solitaire.classroom.student_copy import lessons_folder, notebooks_in

    stems = {p.stem.split("_")[0]: needs_cdn(json.loads(p.read_text(encoding="utf-8")))
             for p in notebooks_in(lessons_folder()) if p.parent == lessons_folder()}  # the lessons, not deeper/
    guide = (ROOT / "notebooks" / "TEACHERS.md").read_text(encoding="utf-8")
    section = guide.split("## The lessons in the browser (JupyterLite)", 1)[1].split("\n## ", 1)[0]

    def listed(label: str) -> set[str]:
        found = re.search(rf"\*\*{label}\.\*\* Lessons ([0-9a-z, and]+?) (use|need)", section)
        assert found, label
        return set(re.findall(r"\d+[a-z]?", found[1]))

    assert listed("What works in the browser") == {stem for stem, cdn in stems.items() if not cdn}
    assert listed("What needs more") == {stem for stem, cdn in stems.items() if cdn}
