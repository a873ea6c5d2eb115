"""The lab command: ``python -m solitaire lab [DIR]`` opens the student's working copy of the lessons in JupyterLab.

It installs nothing: it writes the working copy where it is missing (``working_copy``), marks the lessons trusted
(``jupyter trust``, so their card tables show as pictures) and starts JupyterLab on the index, with
``--allow-root`` when run as root (JupyterLab refuses root without it).
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

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
                    "does; your own changes are kept), mark the lessons trusted and start JupyterLab on the index. "
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
    """The command that starts JupyterLab on the index, run in the working copy's folder.

    >>> jupyter_lab_command(8650, True, as_root=True)[1:]
    ['-m', 'jupyter', 'lab', '00_index.ipynb', '--port=8650', '--no-browser', '--allow-root']
    """
    if as_root is None:
        as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    command = [sys.executable, "-m", "jupyter", "lab", INDEX]
    command += [f"--port={port}"] * (port is not None) + ["--no-browser"] * no_browser + ["--allow-root"] * as_root
    return command


def run(args: argparse.Namespace) -> int:
    """Make the copy where missing, trust the lessons, run JupyterLab until it stops; return its exit code."""
    from .student_copy import lessons_folder, notebooks_in
    from .working_copy import write_working_copy

    if importlib.util.find_spec("jupyterlab") is None:
        raise ValueError(f"JupyterLab is not installed for {sys.executable}: install it with the kit, "
                         "pip install -e \".[lab]\" in the kit's folder (or pip install \"solitaire-kit[lab]\")")
    folder = Path(args.folder)
    written = write_working_copy(folder, missing_only=True)
    lessons = [p.name for p in notebooks_in(lessons_folder()) if (folder / p.name).is_file()]
    print(f"{'wrote' if written else 'using'} your working copy of the lessons in {folder.resolve()}")
    trust = subprocess.run([sys.executable, "-m", "jupyter", "trust", *lessons], cwd=folder,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if trust.returncode:
        said = (trust.stderr.strip().splitlines() or ["no message"])[-1]
        raise ValueError(f"jupyter trust failed ({said[:200]}): reinstall JupyterLab, pip install -e \".[lab]\"")
    lab = subprocess.Popen(jupyter_lab_command(args.port, args.no_browser), cwd=folder)
    while True:
        try:
            return lab.wait()
        except KeyboardInterrupt:  # JupyterLab has the Ctrl+C too, and asks or stops; wait for it
            continue
