"""The lab command: ``python -m solitaire lab [DIR]`` opens the student's working copy of the lessons in JupyterLab.

It installs nothing: it writes the working copy where it is missing (``working_copy``), says so, and starts
JupyterLab on the index (the address it prints opens the index too), with ``--allow-root`` when run as root
(JupyterLab refuses root without it). The copy has no saved outputs, so there is nothing to trust: what the
student runs and saves, JupyterLab signs itself.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from ..cli_support import CommandError
from .cli_lessons import DEFAULT_FOLDER

INDEX = "00_index.ipynb"


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register ``lab [DIR] [--port N] [--no-browser]``.

    >>> parser = argparse.ArgumentParser()
    >>> add_parser(parser.add_subparsers(dest="command"))
    >>> args = parser.parse_args(["lab", "--port", "8888"])
    >>> args.folder, args.port, args.no_browser
    ('solitaire-lessons', 8888, False)
    """
    p = subparsers.add_parser(
        "lab", help="open your working copy of the lessons in JupyterLab (made first if missing)",
        description="Write the working copy of the lessons into DIR where it is missing (as the lessons command "
                    "does; your own changes are kept) and start JupyterLab on the index. "
                    "Installs nothing: JupyterLab comes with pip install -e \".[lab]\". Stop it with Ctrl+C.",
        epilog=f"example: python -m solitaire lab   (the copy goes to ./{DEFAULT_FOLDER})")
    p.add_argument("folder", metavar="DIR", nargs="?", default=DEFAULT_FOLDER,
                   help=f"the folder of your working copy (default: {DEFAULT_FOLDER})")
    p.add_argument("--port", type=_port, default=None, metavar="N", help="the port to serve on (default: 8888, or "
                                                                        "the next free one)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser (print the address instead)")
    p.set_defaults(handler=run)


def _port(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port number from 1 to 65535, got {text!r}")
    return int(text)


def jupyter_lab_command(port: int | None = None, no_browser: bool = False, as_root: bool | None = None) -> list[str]:
    """The command that starts JupyterLab on the index, run in the working copy's folder: the address it prints
    opens the index (``default_url``), not the Launcher.

    >>> jupyter_lab_command(8650, True, as_root=True)[3:6]
    ['lab', '00_index.ipynb', '--LabApp.default_url=/lab/tree/00_index.ipynb']
    >>> jupyter_lab_command(8650, True, as_root=True)[6:]
    ['--port=8650', '--no-browser', '--allow-root']
    """
    if as_root is None:
        as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    command = [sys.executable, "-m", "jupyter", "lab", INDEX, f"--LabApp.default_url=/lab/tree/{INDEX}"]
    command += [f"--port={port}"] * (port is not None) + ["--no-browser"] * no_browser + ["--allow-root"] * as_root
    return command


def run(args: argparse.Namespace) -> int:
    """Make the copy where missing and say so, then run JupyterLab until it stops; return its exit code.

    >>> run(argparse.Namespace(folder="", port=None, no_browser=True))
    Traceback (most recent call last):
    ValueError: the folder of your working copy is empty: give a folder name, such as solitaire-lessons
    """
    from .staging import check_folder_name
    from .working_copy import write_working_copy

    folder = check_folder_name(args.folder, "the folder of your working copy", DEFAULT_FOLDER)
    if importlib.util.find_spec("jupyterlab") is None:
        raise CommandError(f"JupyterLab is not installed for {sys.executable}: install it with the kit, "
                           "pip install -e \".[lab]\" in the kit's folder (or pip install \"solitaire-kit[lab]\")")
    state: dict = {}
    args.kept = lambda: (f"while writing your working copy: {folder} is as it was" if not state.get("committed")
                         else f"before JupyterLab started: your working copy is in {folder}")
    written = write_working_copy(folder, missing_only=True, state=state)
    state["committed"] = True
    print(f"{'wrote' if written else 'using'} your working copy of the lessons in {folder.resolve()}; starting "
          "JupyterLab on its index (stop it with Ctrl+C)", flush=True)  # before JupyterLab's own lines
    lab = subprocess.Popen(jupyter_lab_command(args.port, args.no_browser), cwd=folder)
    args.kept = lambda: f"JupyterLab is stopped; your working copy is in {folder}"
    while True:
        try:
            return lab.wait()
        except KeyboardInterrupt:  # JupyterLab has the Ctrl+C too, and asks or stops; wait for it
            continue
