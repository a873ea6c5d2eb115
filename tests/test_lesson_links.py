"""Every link between lessons names its target by the target's own title, and points at a notebook that exists:
the links line at a lesson's end, the index's list, and the Going deeper notebooks' links back."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "notebooks"
NOTEBOOKS = sorted(FOLDER.glob("0*.ipynb")) + sorted((FOLDER / "deeper").glob("0*.ipynb"))
LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+\.ipynb)\)")


def title(path: Path) -> str:
    """A notebook's title: its first cell's `# ` heading."""
    first = "".join(json.loads(path.read_text(encoding="utf-8"))["cells"][0]["source"])
    return next(line[2:].strip() for line in first.splitlines() if line.startswith("# "))


def links(path: Path) -> list[tuple[str, Path]]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return [(text_, (path.parent / target).resolve()) for text_, target in LINK.findall(text)]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_links_between_lessons_name_their_target_by_its_title(path: Path) -> None:
    for text, target in links(path):
        assert target.is_file(), f"{path.name} links to {target.name}, which does not exist"
        if text in ("index", "the index") or target == path.resolve():
            continue
        name = title(target)
        assert text in (name, name.removeprefix("Going deeper · ")), \
            f"{path.name}: the link [{text}] to {target.name} should read [{name}]"
