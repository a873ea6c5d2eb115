"""A student's first steps: ``python -m solitaire lessons DIR`` writes a working copy of the lessons (and never
over the student's work), and ``python -m solitaire lab DIR`` says where it is and serves its index in JupyterLab;
a lesson of the copy opened in JupyterLab stays unchanged (issue 55)."""
from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from solitaire import cli
from solitaire.classroom import student_copy
from solitaire.classroom.cli_lab import jupyter_lab_command
from solitaire.classroom.working_copy import MANIFEST, for_students, fresh_copy, kernelspec, write_working_copy

ROOT = Path(__file__).resolve().parents[1]
PORT = 8650  # free on a developer's machine and in CI; the test skips when it is taken


def _cli(args: list[str], capsys: pytest.CaptureFixture) -> tuple[int, str, str]:
    try:
        code = cli.main(args)
    except SystemExit as e:
        code = e.code
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_working_copy_is_every_lesson_blanked_and_the_kits_notebooks_stay_as_they_were(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    kit = {p: p.read_bytes() for p in (ROOT / "notebooks").glob("*.ipynb")}
    code, out, _ = _cli(["lessons", str(tmp_path / "mine")], capsys)
    deeper = sorted(p.name for p in (ROOT / "notebooks" / "deeper").glob("*.ipynb"))
    assert code == 0 and f"wrote {len(kit)} lessons and {len(deeper)} Going deeper notebooks (in deeper/)" in out
    assert sorted(p.name for p in (tmp_path / "mine" / "deeper").glob("*.ipynb")) == deeper  # no dead link
    names = sorted(p.name for p in (tmp_path / "mine").glob("*.ipynb"))
    assert names == sorted(p.name for p in kit)
    for path in kit:
        copy = json.loads((tmp_path / "mine" / path.name).read_text(encoding="utf-8"))
        assert copy == for_students(student_copy.student_notebook(json.loads(path.read_text(encoding="utf-8"))))
    moves = (tmp_path / "mine" / "02b_moves.ipynb").read_text(encoding="utf-8")
    assert "raise NotImplementedError" in moves and '"outputs": []' in moves
    guide = (tmp_path / "mine" / "TEACHERS.md").read_text(encoding="utf-8")
    assert "## Answers to the exercises" in guide and "def dfs(" not in guide  # the guide without its answers
    assert {p: p.read_bytes() for p in kit} == kit


def test_the_copy_is_never_written_over_the_students_work(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    mine = tmp_path / "mine"
    assert _cli(["lessons", str(mine)], capsys)[0] == 0
    assert _cli(["lessons", str(mine)], capsys)[0] == 0  # untouched: written again, no harm done
    record = json.loads((mine / MANIFEST).read_text(encoding="utf-8"))
    old = mine / "01_cards.ipynb"
    old.write_text(old.read_text(encoding="utf-8").replace("Cards", "Cards (last year's)"), encoding="utf-8")
    record["01_cards.ipynb"] = hashlib.sha256(old.read_text(encoding="utf-8").encode()).hexdigest()
    (mine / MANIFEST).write_text(json.dumps(record), encoding="utf-8")  # as an older kit would have written it
    assert _cli(["lessons", str(mine)], capsys)[0] == 0 and "last year's" not in old.read_text(encoding="utf-8")
    worked = mine / "02b_moves.ipynb"
    worked.write_text(worked.read_text(encoding="utf-8").replace("raise NotImplementedError", "return []"),
                      encoding="utf-8")
    before = {p.name: p.read_bytes() for p in mine.iterdir() if p.is_file()}
    code, out, err = _cli(["lessons", str(mine)], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "holds lessons you have changed (02b_moves.ipynb): nothing was written" in err
    assert {p.name: p.read_bytes() for p in mine.iterdir() if p.is_file()} == before
    assert write_working_copy(mine, missing_only=True) == []  # what lab does: the student's work stays
    (mine / "03_variants.ipynb").unlink()
    assert write_working_copy(mine, missing_only=True) == [mine / "03_variants.ipynb"]
    code, _, err = _cli(["lessons", str(worked)], capsys)
    assert code == 2 and "is a file: give a folder for the lessons" in err


def test_jupyterlab_is_told_to_allow_root_only_as_root() -> None:
    assert "--allow-root" in jupyter_lab_command(as_root=True)
    assert "--allow-root" not in jupyter_lab_command(as_root=False)
    assert jupyter_lab_command(as_root=False)[1:5] == ["-m", "jupyter", "lab", "00_index.ipynb"]


def _free(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.read().decode("utf-8", "replace")
    except OSError:
        return 0, ""


def test_the_working_copys_texts_are_true_for_a_working_copy_and_name_the_kernel_as_jupyterlab_does(
        tmp_path: Path) -> None:
    """Issue 55: the copy's index said "These notebooks hold the solutions", and every lesson named its kernel
    "Python 3" where JupyterLab says "Python 3 (ipykernel)", so opening it changed it (and JupyterLab saved that)."""
    write_working_copy(tmp_path / "mine")
    for path in sorted((tmp_path / "mine").glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        assert nb["metadata"]["kernelspec"] == kernelspec(), path.name
        text = "".join("".join(c["source"]) for c in nb["cells"])
        assert "hold the solutions" not in text and "## For teachers" not in text, path.name
    from jupyter_client.kernelspec import KernelSpecManager
    assert kernelspec()["display_name"] == KernelSpecManager().get_kernel_spec("python3").display_name


def test_lab_says_where_the_copy_is_first_and_serves_its_index(tmp_path: Path) -> None:
    """The student's one command, as a user (or root) runs it: its own line comes before JupyterLab's (it sat in
    a buffer until JupyterLab stopped), the address JupyterLab prints opens the index (it opened the Launcher), the
    server answers with the copy, and stops with its process group."""
    pytest.importorskip("jupyterlab")
    if not _free(PORT):
        pytest.skip(f"port {PORT} is taken")
    token = "solitaire-test"
    env = {**os.environ, "JUPYTER_TOKEN": token, "JUPYTER_DATA_DIR": str(tmp_path / "data"),
           "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"), "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    log = open(tmp_path / "lab.log", "w", encoding="utf-8")
    lab = subprocess.Popen([sys.executable, "-m", "solitaire", "lab", "mine", "--port", str(PORT), "--no-browser"],
                           cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        status, page, deadline = 0, "", time.monotonic() + 120
        while status != 200 and lab.poll() is None and time.monotonic() < deadline:
            time.sleep(1)
            status, page = _get(f"http://127.0.0.1:{PORT}/lab/tree/00_index.ipynb?token={token}")
        assert status == 200 and "<title>JupyterLab</title>" in page, (tmp_path / "lab.log").read_text()
        status, listing = _get(f"http://127.0.0.1:{PORT}/api/contents?token={token}")
        served = {item["name"] for item in json.loads(listing)["content"]}
        assert status == 200 and {name.split("/")[0] for name in fresh_copy()} <= served  # deeper/: a folder
    finally:
        os.killpg(lab.pid, signal.SIGTERM)
        lab.wait(timeout=60)
        log.close()
    lines = (tmp_path / "lab.log").read_text(encoding="utf-8").splitlines()
    assert lines[0] == (f"wrote your working copy of the lessons in {(tmp_path / 'mine').resolve()}; starting "
                        "JupyterLab on its index (stop it with Ctrl+C)")
    addresses = [line.split()[-1] for line in lines if f":{PORT}/" in line and "token=" in line]
    assert addresses and all(f":{PORT}/lab/tree/00_index.ipynb?token=" in a for a in addresses), addresses
    lessons = sorted((tmp_path / "mine").glob("*.ipynb"))
    assert len(lessons) == len(list((ROOT / "notebooks").glob("*.ipynb")))
    for _ in range(30):  # the server and its process group are gone, and the port with them
        if _free(PORT):
            break
        time.sleep(1)
    assert _free(PORT), f"something still serves on port {PORT}"


def test_a_lesson_of_the_copy_opened_in_jupyterlab_stays_unchanged(tmp_path: Path) -> None:
    """Issue 55: opening any lesson of the copy marked it modified (JupyterLab renamed its kernel), and JupyterLab
    then saved it: the copy would count as the student's own work. In headless Chromium: opened, its kernel
    started, the notebook is not marked modified."""
    sys.path.insert(0, str(ROOT / "tests" / "browser"))
    import servers
    if not servers.CHROMIUM.exists():
        pytest.skip(f"needs Debian's Chromium at {servers.CHROMIUM}")
    from playwright import sync_api

    write_working_copy(tmp_path / "mine")
    before = (tmp_path / "mine" / "01_cards.ipynb").read_bytes()
    with servers.jupyter_lab(tmp_path / "mine") as (url, token), sync_api.sync_playwright() as pw:
        browser = servers.chromium(pw)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"{url}/lab/tree/01_cards.ipynb?token={token}", timeout=120_000)
            servers.wait_for_kernel(page)
            page.wait_for_timeout(3000)  # JupyterLab writes the kernel's name into a notebook right after it starts
            tab = page.locator(".lm-TabBar-tab", has_text="01_cards.ipynb")
            dirty = "jp-mod-dirty" in (tab.get_attribute("class") or "")
            (ROOT / "artifacts" / "browser").mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ROOT / "artifacts" / "browser" / "lab_copy_opened.png"))
        finally:
            browser.close()
    assert not dirty, "JupyterLab changed the lesson just by opening it"
    assert (tmp_path / "mine" / "01_cards.ipynb").read_bytes() == before
