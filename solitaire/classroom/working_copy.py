"""A student's working copy of the lessons, so that the kit's own notebooks stay as they came.

The copy is every lesson as a student copy (``student_copy``: the exercises blanked to runnable stubs, the outputs
cleared, so nothing gives an answer away before the student runs it) and the teacher's guide the index links to.
A copy is never written over a student's work: a notebook of the folder that differs from what the kit wrote
there (``MANIFEST`` keeps a fingerprint of each file written) counts as the student's, and is kept.
"""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from .staging import StagedFolder, read_manifest
from .student_copy import lessons_folder, notebooks_in, relative_name, student_guide, student_notebook_text

MANIFEST = ".solitaire-lessons.json"  # what the kit wrote into a working copy: file name -> sha256 of its text
GUIDE = "TEACHERS.md"  # the rules, the glossary and the course plan, linked from the index
# The kernel a working copy runs on, as JupyterLab names it: a copy that names it otherwise is changed (and
# autosaved) by JupyterLab the moment it is opened, and would then count as the student's own work.
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
HEADING = re.compile(r"#{1,6}\s")
TEACHERS_HEADING = re.compile(r"#{1,6}\s+For teachers\b", re.IGNORECASE)


def kernelspec() -> dict[str, str]:
    """The kernel spec of the installed Python kernel (ipykernel's ``python3``), as JupyterLab will name it.

    >>> kernelspec()["name"], kernelspec()["language"]
    ('python3', 'python')
    """
    try:
        from jupyter_client.kernelspec import KernelSpecManager
        spec = KernelSpecManager().get_kernel_spec("python3")
        return {"name": "python3", "display_name": spec.display_name, "language": spec.language}
    except Exception:  # noqa: BLE001 - no Jupyter here (only the lessons command): ipykernel's own name
        return dict(KERNELSPEC)


def for_students(nb: dict, spec: dict[str, str] | None = None) -> dict:
    """A lesson as it goes into a student's working copy: its kernel named as JupyterLab names it (so that opening
    it changes nothing), and the sections headed "For teachers" left out, to the next heading (they speak of the
    kit's own notebooks, which hold the solutions; a student's copy does not).

    >>> nb = {"cells": [{"cell_type": "markdown", "source": "## The lessons\\nRead on.\\n\\n## For teachers\\nAnswers."},
    ...                 {"cell_type": "code", "source": "make_copies()"},
    ...                 {"cell_type": "markdown", "source": "## What we learned\\n- cards"}], "metadata": {}}
    >>> [c["source"] for c in for_students(nb, KERNELSPEC)["cells"]]
    ['## The lessons\\nRead on.', '## What we learned\\n- cards']
    """
    out = json.loads(json.dumps(nb))
    out.setdefault("metadata", {})["kernelspec"] = dict(spec or kernelspec())
    cells, teachers = [], False
    for cell in out["cells"]:
        if cell["cell_type"] != "markdown":
            if not teachers:
                cells.append(cell)
            continue
        kept, fenced = [], False
        for line in "".join(cell["source"]).splitlines():
            fenced ^= line.lstrip().startswith("```")
            if not fenced and HEADING.match(line):
                teachers = bool(TEACHERS_HEADING.match(line))
            if not teachers:
                kept.append(line)
        if "".join(kept).strip():
            cells.append(cell | {"source": "\n".join(kept).rstrip()})
    out["cells"] = cells
    return out


def fresh_copy(lessons: Path | None = None) -> dict[str, str]:
    """What a working copy holds, as file name -> text: the student copy of each lesson, then the guide.

    >>> texts = fresh_copy()
    >>> list(texts)[0], "TEACHERS.md" in texts, "### BEGIN SOLUTION" in texts["02b_moves.ipynb"]
    ('00_index.ipynb', True, False)
    >>> "deeper/07_reachable.ipynb" in texts, "def dfs(" in texts["TEACHERS.md"]
    (True, False)
    """
    lessons = Path(lessons) if lessons is not None else lessons_folder()
    spec = kernelspec()
    texts = {relative_name(path, lessons): json.dumps(for_students(json.loads(student_notebook_text(path)), spec),
                                                     indent=1, ensure_ascii=False) + "\n"
             for path in notebooks_in(lessons)}
    if not texts:
        raise ValueError(f"no lesson notebooks in {str(lessons)!r}: reinstall the kit (pip install solitaire-kit)")
    if (lessons / GUIDE).is_file():  # without its answers to the exercises, from a clone too
        texts[GUIDE] = student_guide((lessons / GUIDE).read_text(encoding="utf-8"))
    return texts


def _fingerprint(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


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
    before = read_manifest(folder, MANIFEST)
    work = []
    for name, text in fresh.items():
        path = folder / name
        if path.is_file():
            now = path.read_text(encoding="utf-8", errors="replace")
            if now != text and _fingerprint(now) != before.get(name):
                work.append(name)
    return work


def check_not_the_kits_own(folder: Path, lessons: Path | None = None) -> None:
    """Refuse to write a working copy into the kit's own lessons folder (the teacher's notebooks).

    >>> check_not_the_kits_own(lessons_folder())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: '...' is the kit's own lessons folder (the teacher's notebooks): give another folder for your copy, such as solitaire-lessons
    """
    own = Path(lessons) if lessons is not None else lessons_folder()
    try:
        same = folder.is_dir() and folder.samefile(own)
    except OSError:
        same = False
    if same:
        raise ValueError(f"{str(folder)!r} is the kit's own lessons folder (the teacher's notebooks): give another "
                         "folder for your copy, such as solitaire-lessons")


def write_working_copy(folder: str | Path, lessons: Path | None = None, missing_only: bool = False,
                       state: dict | None = None) -> list[Path]:
    """Write the working copy of the lessons into ``folder`` (made if missing) and return the files written.
    ``missing_only`` writes only the files the folder lacks. Refuses (ValueError, nothing written) when the copy
    would replace a notebook the student changed. The files are written aside and moved into place together
    (``staging``): an interrupted copy leaves the folder as it was; ``state["committed"]`` says when they are in.

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
    check_not_the_kits_own(folder, lessons)
    fresh = fresh_copy(lessons)
    if missing_only:
        fresh = {name: text for name, text in fresh.items() if not (folder / name).exists()}
        if not fresh:
            return []
    work = students_work(folder, fresh)
    if work:
        more = f" and {len(work) - 1} more" if len(work) > 1 else ""
        raise ValueError(f"{str(folder)!r} holds lessons you have changed ({work[0]}{more}): nothing was written; "
                         "give another folder, or move those notebooks away to start them afresh")
    with StagedFolder(folder, MANIFEST, state) as staged:
        for name, text in fresh.items():
            (staged.files / name).parent.mkdir(parents=True, exist_ok=True)  # deeper/: the Going deeper notebooks
            (staged.files / name).write_bytes(text.encode("utf-8"))  # the bytes are the text, on every system
        staged.commit(remove_unmade=False)
    return [folder / name for name in fresh]
