"""Execute lessons in place and save their outputs, without run-to-run noise (timestamps, widget state).

A widget output that also carries a picture (the card table's SVG) is saved as the picture alone, and a
progress bar (a tqdm widget) as the text of a finished bar: a saved widget has no state, so Jupyter would show
"model not found" in its place. (notebooks/nbval.cfg reads every progress bar's text as the same.)

    python scripts/execute_notebooks.py notebooks/02_rules.ipynb [more.ipynb ...]   (default: every lesson)
"""
from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
PROGRESS_BAR = re.compile(r"^(?P<what>[^\n|]*?):?\s*\d+%\|[^|\n]*\|\s*\d+/(?P<total>\d+)")


def finished_bar(text: str) -> str | None:
    """The text of a tqdm bar at its end ('games: 100%|██████████| 40/40'), or None if ``text`` is no bar.

    >>> finished_bar("games:   0%|          | 0/40 [00:00<?, ?game/s]")
    'games: 100%|██████████| 40/40'
    >>> finished_bar("<card table: Klondike, seed 1, 0 moves>") is None
    True
    """
    bar = PROGRESS_BAR.match(text)
    if bar is None:
        return None
    what = f"{bar['what']}: " if bar["what"] else ""
    return f"{what}100%|{'█' * 10}| {bar['total']}/{bar['total']}"


def without_widget_views(output: dict) -> None:
    """Keep what Jupyter can show without the kernel: the picture of a table, the end of a progress bar."""
    data = output.get("data", {})
    if WIDGET_VIEW not in data:
        return
    if set(data) - {WIDGET_VIEW, "text/plain"}:
        del data[WIDGET_VIEW]  # no saved state: Jupyter would say "model not found", not show the picture
    elif finished_bar("".join(data.get("text/plain", ""))):
        data["text/plain"] = finished_bar("".join(data["text/plain"]))
        del data[WIDGET_VIEW]


def execute(path: Path) -> float:
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}},
                   record_timing=False).execute()
    seconds = time.perf_counter() - start
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        for output in cell.get("outputs", []):
            without_widget_views(output)
    nbformat.write(nb, path)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("notebooks", nargs="*", type=Path, help="lessons to execute (default: every lesson, and the Going deeper notebooks in notebooks/deeper/)")
    paths = parser.parse_args().notebooks
    folder = Path(__file__).parent.parent.joinpath("notebooks")
    paths = paths or sorted(folder.glob("[0-9]*.ipynb")) + sorted(folder.glob("deeper/[0-9]*.ipynb"))
    missing = [str(path) for path in paths if not path.is_file()]
    if missing:
        parser.error(f"no such notebook: {', '.join(missing)}")
    for path in paths:
        print(f"{path.name}: {execute(path):.1f} s", flush=True)


if __name__ == "__main__":
    main()
