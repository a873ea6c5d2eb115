"""Writing a folder so that nothing is lost: the commands that write one (``lessons``, ``nbgrader``, ``lite``) make
their files aside and move them into place in one step that Ctrl-C cannot cut, and replace or remove only the files
they made themselves.

A new folder is made aside (``.NAME.partial-...`` beside it) and renamed into place when whole. Into a folder that
exists, the files are made in a hidden folder inside it (``.solitaire-partial-...``, on the same disk, so each is
moved in by a rename) and moved in one by one, Ctrl-C held until the last. A manifest in the folder records what the
command wrote (file name -> SHA-256 of its bytes): a later run removes a file it no longer makes only when it is
still as written; any other file of the folder (a ``.git`` folder, a teacher's notes) is never touched. An
interrupted run leaves the folder as it was, and no partial folder behind.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

from ..cards import quote
from ..cli_support import interrupts_deferred

PARTIAL = ".solitaire-partial-"


def fingerprint(path: Path) -> str:
    """The SHA-256 of a file's bytes, as a manifest keeps it.

    >>> p = Path(tempfile.mkdtemp()) / "x"; _ = p.write_bytes(b"")
    >>> fingerprint(p)[:12]
    'e3b0c44298fc'
    """
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_manifest(folder: Path, name: str) -> dict[str, str]:
    """What a command wrote into ``folder`` before (file name -> SHA-256), from its manifest ``name``; {} if none.

    >>> read_manifest(Path(tempfile.mkdtemp()), ".made.json")
    {}
    """
    try:
        recorded = json.loads((folder / name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in recorded.items() if isinstance(v, str)} if isinstance(recorded, dict) else {}


def check_folder_name(text: str, what: str, example: str) -> Path:
    """The folder a command was given, refused when empty (an empty name would mean the current folder).

    >>> check_folder_name("", "the folder for your copy", "solitaire-lessons")
    Traceback (most recent call last):
    ValueError: the folder for your copy is empty: give a folder name, such as solitaire-lessons
    """
    if not str(text).strip():
        raise ValueError(f"{what} is empty: give a folder name, such as {example}")
    return Path(text)


def _existing_ancestor(path: Path) -> Path:
    """The nearest folder (or file) of ``path``'s line that exists: ``path`` itself, its parent, ..."""
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


class StagedFolder:
    """Make a folder's files aside (in ``files``), then ``commit()`` them into ``target``; leaving the block
    without a commit (an error, Ctrl-C) removes what was made aside and leaves ``target`` as it was.

    >>> target = Path(tempfile.mkdtemp()) / "site"
    >>> with StagedFolder(target, ".made.json") as staged:
    ...     _ = (staged.files / "index.html").write_text("hello")
    ...     _ = staged.commit()
    >>> sorted(p.name for p in target.iterdir()), sorted(p.name for p in target.parent.iterdir())
    (['.made.json', 'index.html'], ['site'])
    """

    def __init__(self, target: Path, manifest: str, state: dict | None = None) -> None:
        self.target, self.manifest, self.state = Path(target), manifest, state  # state["committed"]: once in place
        self.before = read_manifest(self.target, manifest) if self.target.is_dir() else {}
        self.files: Path = Path()
        self.committed = False

    def __enter__(self) -> "StagedFolder":
        target = self.target
        if target.exists() and not target.is_dir():
            raise ValueError(f"{quote(str(target), 100)} is a file: give a folder")
        where = target if target.is_dir() else _existing_ancestor(target.parent)
        if not where.is_dir():
            raise ValueError(f"cannot make the folder {quote(str(target), 100)}: {quote(str(where), 100)} is a file, "
                             "not a folder")
        prefix = PARTIAL if target.is_dir() else f".{target.name}.partial-"
        try:
            with interrupts_deferred():  # made and named whole: a Ctrl-C here cannot leave a folder nobody knows of
                try:
                    self.files = Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=where))
                except OSError as e:
                    raise ValueError(f"cannot make a folder in {quote(str(where), 100)} ({e.strerror}): give a "
                                     "folder you may write to") from None
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(self.files, 0o777 & ~umask)  # as a folder made with mkdir (mkdtemp's is private)
        except BaseException:
            self.__exit__()  # the Ctrl-C held above arrives here, before the with-block that would clean up
            raise
        return self

    def conflicts(self) -> list[str]:
        """The new files whose place in ``target`` is taken by a folder (or lies under a file)."""
        bad = []
        for rel in self._new_files():
            place = self.target / rel
            parents = [self.target / p for p in Path(rel).parents if str(p) != "."]
            if place.is_dir() and not place.is_symlink() or any(p.exists() and not p.is_dir() for p in parents):
                bad.append(rel)
        return bad

    def _new_files(self) -> list[str]:
        return sorted(str(p.relative_to(self.files)) for p in self.files.rglob("*") if not p.is_dir())

    def commit(self, remove_unmade: bool = True, theirs: set[str] | frozenset = frozenset()) -> dict[str, str]:
        """Move the files made aside into ``target`` (Ctrl-C held until the last), and record what the command
        made; the new manifest. The files it made before and makes no more are removed (only those still as
        written), or with ``remove_unmade=False`` kept on its list. ``theirs``: files moved in that stay the
        user's (a teacher's notebook with new points): recorded as they were before, so a later run knows them."""
        if not self.target.is_dir():
            return self._commit_new(theirs)
        bad = self.conflicts()
        if bad:
            raise ValueError(f"cannot write {quote(str(self.target / bad[0]), 100)}: a folder or a file of yours is in "
                             "its place; move it away and run the command again")
        new = self._new_files()
        made = self._made(new, theirs)
        with interrupts_deferred():
            for rel in new:
                (self.target / rel).parent.mkdir(parents=True, exist_ok=True)
                os.replace(self.files / rel, self.target / rel)
            for rel, print_ in self.before.items():
                if rel in made or rel in theirs:
                    continue
                if remove_unmade:
                    self._remove_if_unchanged(rel, print_)
                elif (self.target / rel).is_file():
                    made[rel] = print_
            self._write_manifest(self.target, made)
            self._committed()
            shutil.rmtree(self.files, ignore_errors=True)  # what is left aside: the emptied folders
        return made

    def _made(self, new: list[str], theirs: set[str] | frozenset) -> dict[str, str]:
        made = {rel: fingerprint(self.files / rel) for rel in new if rel not in theirs}
        made.update({rel: self.before[rel] for rel in theirs if rel in self.before})
        return made

    def _commit_new(self, theirs: set[str] | frozenset) -> dict[str, str]:
        made = self._made(self._new_files(), theirs)
        self._write_manifest(self.files, made)
        with interrupts_deferred():
            self.target.parent.mkdir(parents=True, exist_ok=True)
            os.rename(self.files, self.target)
            self._committed()
        return made

    def _committed(self) -> None:
        """Inside the step Ctrl-C cannot cut: the files are in place (a Ctrl-C held till now says so)."""
        self.committed = True
        if self.state is not None:
            self.state["committed"] = True

    def _remove_if_unchanged(self, rel: str, print_: str) -> None:
        path = self.target / rel
        try:
            if path.is_file() and not path.is_symlink() and fingerprint(path) == print_:
                path.unlink()
                for parent in path.relative_to(self.target).parents:  # folders it leaves empty
                    if str(parent) != "." and not any((self.target / parent).iterdir()):
                        (self.target / parent).rmdir()
        except OSError:
            pass  # a file that cannot be removed stays: nothing is lost

    def _write_manifest(self, folder: Path, made: dict[str, str]) -> None:
        text = json.dumps(made, indent=1, sort_keys=True) + "\n"
        (folder / self.manifest).write_text(text, encoding="utf-8")

    def __exit__(self, *exc: object) -> None:
        if self.files.name and self.files.exists():  # what was made aside (and is not in place): Ctrl-C held meanwhile
            with interrupts_deferred():
                shutil.rmtree(self.files, ignore_errors=True)
