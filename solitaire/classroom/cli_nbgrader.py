"""The nbgrader command: ``python -m solitaire nbgrader COURSE_DIR`` writes an nbgrader course made from the lessons."""
from __future__ import annotations

import argparse
from pathlib import Path


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register ``nbgrader COURSE_DIR [--force] [--lessons DIR] [--points FILE]``.

    >>> parser = argparse.ArgumentParser()
    >>> add_parser(parser.add_subparsers(dest="command"))
    >>> parser.parse_args(["nbgrader", "course", "--force"]).force
    True
    """
    nb = subparsers.add_parser(
        "nbgrader", help="write an nbgrader course made from the lessons, autograded by the kit's checks",
        description="Write COURSE_DIR/nbgrader_config.py, COURSE_DIR/grading_secret and "
                    "COURSE_DIR/source/<lesson>/<lesson>.ipynb for every lesson with exercises: solution cells that "
                    "nbgrader blanks, and after each exercise a locked test cell that grades the answer in a fresh "
                    "process, on hidden inputs drawn from the course's secret (autograde grades outside the "
                    "notebook's kernel). Then run nbgrader's own commands in COURSE_DIR (notebooks/TEACHERS.md, "
                    "\"Grading with nbgrader\"). From an installed wheel, give the teacher's notebooks with --lessons.",
        epilog="example: python -m solitaire nbgrader course/ && cd course && nbgrader generate_assignment 02b_moves "
               "--create")
    nb.add_argument("course", metavar="COURSE_DIR", help="a new or empty folder for the course")
    nb.add_argument("--force", action="store_true",
                    help="update a course that is not empty: the files this command wrote are replaced, the ones "
                         "you changed kept (a changed source notebook gets only its new points), and so are the "
                         "gradebook, submissions and grading_secret")
    nb.add_argument("--lessons", default=None, metavar="DIR",
                    help="the folder of the lesson notebooks (default: the kit's own lessons)")
    nb.add_argument("--points", default=None, metavar="FILE",
                    help='points per exercise as JSON, such as {"02b.waste_moves": 2} (default: 1 each; with --force, '
                         "the course's own points.json)")
    nb.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Write the course, list its assignments and say what to run next; 0 when written.

    >>> run(argparse.Namespace(course="", lessons=None, points=None, force=False))
    Traceback (most recent call last):
    ValueError: the course folder is empty: give a folder name, such as course/
    """
    from .course import write_course
    from .staging import check_folder_name

    course = check_folder_name(args.course, "the course folder", "course/")
    state: dict = {}
    before = (f"{course} is as it was" if course.is_dir() else f"nothing was written ({course} is made only when "
              "the course is whole)")
    args.kept = lambda: (f"after the course was written: {course} holds the whole course" if state.get("committed")
                         else f"while writing the course: {before} (the course is written aside and moved into place "
                              "only when whole)")
    made = write_course(course, Path(args.lessons) if args.lessons else None,
                        Path(args.points) if args.points else None, force=args.force, state=state)
    for name, ids in made.items():
        print(f"{course / 'source' / name / name}.ipynb: {len(ids)} exercise{'s' * (len(ids) != 1)} "
              f"({', '.join(ids)})")
    for rel, why in state.get("kept", []):
        print(f"{course / rel}: {why}")
    first = next(iter(made))
    print(f"next: cd {course} && nbgrader generate_assignment {first} --create   (points: "
          f"{course / 'points.json'}, change them and rerun with --force)")
    return 0
