"""The lessons command: ``python -m solitaire lessons DIR`` writes a student's working copy of the lessons."""
from __future__ import annotations

import argparse
from pathlib import Path

DEFAULT_FOLDER = "solitaire-lessons"


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register ``lessons DIR``.

    >>> parser = argparse.ArgumentParser()
    >>> add_parser(parser.add_subparsers(dest="command"))
    >>> parser.parse_args(["lessons", "mine"]).folder
    'mine'
    """
    p = subparsers.add_parser(
        "lessons", help="write your own working copy of the lessons, to run and change",
        description="Write every lesson notebook into DIR with its exercises blanked and its outputs cleared, and "
                    "the teacher's guide the lessons link to, so that you work on your copy and the kit's own "
                    "notebooks stay as they came. A notebook of DIR that you changed is never written over.",
        epilog=f"example: python -m solitaire lessons {DEFAULT_FOLDER}   (then: python -m solitaire lab "
               f"{DEFAULT_FOLDER})")
    p.add_argument("folder", metavar="DIR", help="the folder for your copy (made if missing)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Write the working copy and say where it is; 0 when written.

    >>> run(argparse.Namespace(folder=""))
    Traceback (most recent call last):
    ValueError: the folder for your copy is empty: give a folder name, such as solitaire-lessons
    """
    from .staging import check_folder_name
    from .working_copy import write_working_copy

    folder = check_folder_name(args.folder, "the folder for your copy", DEFAULT_FOLDER)
    state: dict = {}
    args.kept = lambda: (f"after the lessons were written: {folder} holds the whole copy" if state.get("committed")
                         else f"while writing the lessons: {folder} is as it was (the copy is written aside and "
                              "moved into place only when whole)")
    written = write_working_copy(folder, state=state)
    lessons = [p for p in written if p.suffix == ".ipynb" and p.parent == folder]
    deeper = [p for p in written if p.suffix == ".ipynb" and p.parent != folder]
    print(f"wrote {len(lessons)} lessons and {len(deeper)} Going deeper notebooks (in deeper/) to {folder} "
          "(exercises blanked, outputs cleared): start with "
          f"{folder / '00_index.ipynb'}, or run python -m solitaire lab {folder}")
    return 0
