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
    """Write the working copy and say where it is; 0 when written."""
    from .working_copy import write_working_copy

    written = write_working_copy(Path(args.folder))
    lessons = [p for p in written if p.suffix == ".ipynb"]
    print(f"wrote {len(lessons)} lessons to {args.folder} (exercises blanked, outputs cleared): start with "
          f"{Path(args.folder) / '00_index.ipynb'}, or run python -m solitaire lab {args.folder}")
    return 0
