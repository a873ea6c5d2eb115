"""Execute lessons in place and save their outputs, without run-to-run noise (timestamps, widget state).

A widget output that also carries a picture (the card table's SVG) is saved as the picture alone.

    python scripts/execute_notebooks.py notebooks/02_rules.ipynb [more.ipynb ...]   (default: every lesson)
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


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
            data = output.get("data", {})
            if WIDGET_VIEW in data and set(data) - {WIDGET_VIEW, "text/plain"}:
                del data[WIDGET_VIEW]  # no saved state: Jupyter would say "model not found", not show the picture
    nbformat.write(nb, path)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("notebooks", nargs="*", type=Path, help="lessons to execute (default: every lesson)")
    paths = parser.parse_args().notebooks
    paths = paths or sorted(Path(__file__).parent.parent.joinpath("notebooks").glob("[0-9]*.ipynb"))
    missing = [str(path) for path in paths if not path.is_file()]
    if missing:
        parser.error(f"no such notebook: {', '.join(missing)}")
    for path in paths:
        print(f"{path.name}: {execute(path):.1f} s", flush=True)


if __name__ == "__main__":
    main()
