"""Writing an nbgrader course's files without losing the teacher's: ``python -m solitaire nbgrader COURSE --force``.

The course's files are made aside and moved into place together (``staging``), so an interrupted run leaves the
course as it was. A file the command wrote before and nobody changed since (its manifest, ``.solitaire-course.json``,
keeps what was written) is replaced. A file the teacher changed is kept: ``nbgrader_config.py`` as it is (an
uncommented ``c.Exchange.root`` stays), and a source notebook with the teacher's edits gets only its new points,
in its autograded cells. Nothing else in the course (the gradebook, ``release/``, ``submitted/``, files of the
teacher's own) is touched.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from .staging import StagedFolder, fingerprint, read_manifest

COURSE_MANIFEST = ".solitaire-course.json"
POINTS_LINE = re.compile(r"^# Autograded, [0-9.]+ points?:")


def with_points(text: str, points: dict[str, float], exercise_id) -> str:
    """A course notebook's JSON text with the points of its autograded cells set from ``points`` (by check id;
    ``exercise_id`` turns a cell's grade id into a check id), its other cells as they are.

    >>> cell = {"cell_type": "code", "source": "# Autograded, 1 point: passes...\\nassert check('02c.draw', draw)",
    ...         "metadata": {"nbgrader": {"grade": True, "grade_id": "02c-draw", "points": 1.0}}}
    >>> nb = json.loads(with_points(json.dumps({"cells": [cell]}), {"02c.draw": 3.0}, lambda g: g.replace("-", ".")))
    >>> nb["cells"][0]["metadata"]["nbgrader"]["points"], nb["cells"][0]["source"].split(":")[0]
    (3.0, '# Autograded, 3 points')
    """
    nb = json.loads(text)
    for cell in nb.get("cells", []):
        meta = cell.get("metadata", {}).get("nbgrader", {})
        check_id = exercise_id(str(meta.get("grade_id", ""))) if meta.get("grade") else None
        if check_id in points:
            worth = points[check_id]
            meta["points"] = worth
            source = "".join(cell.get("source", ""))
            cell["source"] = POINTS_LINE.sub(f"# Autograded, {worth:g} point{'s' * (worth != 1)}:", source, count=1)
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def write_course_files(course: Path, files: dict[str, str | bytes], points: dict[str, float], exercise_id,
                       state: dict | None = None) -> list[tuple[str, str]]:
    """Write ``files`` (path in the course -> text or bytes) into ``course``, keeping what the teacher changed;
    what was kept, as (path, why). ``state["committed"]`` is set once the files are in place.

    >>> import tempfile
    >>> course = Path(tempfile.mkdtemp()) / "course"
    >>> write_course_files(course, {"nbgrader_config.py": "c = 1\\n"}, {}, str)
    []
    >>> _ = (course / "nbgrader_config.py").write_text("c = 2  # the teacher's\\n")
    >>> write_course_files(course, {"nbgrader_config.py": "c = 1\\n"}, {}, str)
    [('nbgrader_config.py', 'you changed it since it was written: kept as it is')]
    """
    before = read_manifest(course, COURSE_MANIFEST) if course.is_dir() else {}
    kept, theirs = [], set()
    with StagedFolder(course, COURSE_MANIFEST, state) as staged:
        for rel, content in files.items():
            data = content.encode("utf-8") if isinstance(content, str) else content
            data, why = _choose(course / rel, data, before.get(rel), points, exercise_id)
            if why:
                kept.append((rel, why))
                theirs.add(rel)
            if data is not None:
                (staged.files / rel).parent.mkdir(parents=True, exist_ok=True)
                (staged.files / rel).write_bytes(data)
        staged.commit(remove_unmade=False, theirs=theirs)
    return kept


def _choose(path: Path, new: bytes, written: str | None, points: dict[str, float],
            exercise_id) -> tuple[bytes | None, str]:
    """What to put at ``path``: the bytes (None: leave the file as it is), and why it is the teacher's ("" when it
    is the command's own)."""
    if not path.is_file():
        return new, ""
    old = path.read_bytes()
    if old == new or written is not None and fingerprint(path) == written:
        return new, ""  # the command's own file, unchanged since: replaced
    if path.suffix != ".ipynb":
        return None, "you changed it since it was written: kept as it is"
    try:
        patched = with_points(old.decode("utf-8"), points, exercise_id).encode("utf-8")
    except (UnicodeDecodeError, ValueError):
        return None, "you changed it and it is no notebook JSON now: kept as it is, its points unchanged"
    if patched == new:
        return new, ""  # only its points differed: it is the command's own
    if json.loads(patched) == json.loads(old):
        return None, "you changed it: kept as it is (its points are already those of points.json)"
    return patched, "you changed it: kept with your changes, its points updated"
