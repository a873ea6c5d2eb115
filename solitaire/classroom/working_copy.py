"""A student's working copy of the lessons, so that the kit's own notebooks stay as they came.

The copy is every lesson as a student copy (``student_copy``: the exercises blanked to runnable stubs, the outputs
cleared, so nothing gives an answer away before the student runs it) and the teacher's guide the index links to.
A copy is never written over a student's work: a notebook of the folder that differs from what the kit wrote
there (``MANIFEST`` keeps a fingerprint of each file written) counts as the student's, and is kept.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .student_copy import lessons_folder, notebooks_in, student_notebook_text

MANIFEST = ".solitaire-lessons.json"  # what the kit wrote into a working copy: file name -> sha256 of its text
GUIDE = "TEACHERS.md"  # the rules, the glossary and the course plan, linked from the index


def fresh_copy(lessons: Path | None = None) -> dict[str, str]:
    """What a working copy holds, as file name -> text: the student copy of each lesson, then the guide.

    >>> texts = fresh_copy()
    >>> list(texts)[0], "TEACHERS.md" in texts, "### BEGIN SOLUTION" in texts["02b_moves.ipynb"]
    ('00_index.ipynb', True, False)
    """
    lessons = Path(lessons) if lessons is not None else lessons_folder()
    texts = {path.name: student_notebook_text(path) for path in notebooks_in(lessons)}
    if not texts:
        raise ValueError(f"no lesson notebooks in {str(lessons)!r}: reinstall the kit (pip install solitaire-kit)")
    if (lessons / GUIDE).is_file():
        texts[GUIDE] = (lessons / GUIDE).read_text(encoding="utf-8")
    return texts


def _fingerprint(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _written_before(folder: Path) -> dict[str, str]:
    try:
        recorded = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return recorded if isinstance(recorded, dict) else {}


def students_work(folder: Path, fresh: dict[str, str]) -> list[str]:
    """The files of ``folder`` that a new copy would replace and that hold the student's work: each differs both
    from the new copy and from what the kit wrote there before.

    >>> import tempfile
    >>> tmp = tempfile.TemporaryDirectory()
    >>> _ = (Path(tmp.name) / "01_cards.ipynb").write_text("my answers", encoding="utf-8")
    >>> students_work(Path(tmp.name), {"01_cards.ipynb": "the lesson", "02_rules.ipynb": "another"})
    ['01_cards.ipynb']
    >>> tmp.cleanup()
    """
    before = _written_before(folder)
    work = []
    for name, text in fresh.items():
        path = folder / name
        if path.is_file():
            now = path.read_text(encoding="utf-8", errors="replace")
            if now != text and _fingerprint(now) != before.get(name):
                work.append(name)
    return work


def write_working_copy(folder: str | Path, lessons: Path | None = None, missing_only: bool = False) -> list[Path]:
    """Write the working copy of the lessons into ``folder`` (made if missing) and return the files written.
    ``missing_only`` writes only the files the folder lacks. Refuses (ValueError, nothing written) when the copy
    would replace a notebook the student changed.

    >>> import tempfile
    >>> tmp = tempfile.TemporaryDirectory()
    >>> folder = Path(tmp.name) / "lessons"
    >>> len(write_working_copy(folder)) == len(fresh_copy()), write_working_copy(folder, missing_only=True)
    (True, [])
    >>> tmp.cleanup()
    """
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{str(folder)!r} is a file: give a folder for the lessons")
    fresh = fresh_copy(lessons)
    if missing_only:
        fresh = {name: text for name, text in fresh.items() if not (folder / name).exists()}
    work = students_work(folder, fresh)
    if work:
        more = f" and {len(work) - 1} more" if len(work) > 1 else ""
        raise ValueError(f"{str(folder)!r} holds lessons you have changed ({work[0]}{more}): nothing was written; "
                         "give another folder, or move those notebooks away to start them afresh")
    folder.mkdir(parents=True, exist_ok=True)
    record = _written_before(folder)
    written = []
    for name, text in fresh.items():
        (folder / name).write_text(text, encoding="utf-8")
        record[name] = _fingerprint(text)
        written.append(folder / name)
    (folder / MANIFEST).write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return written
