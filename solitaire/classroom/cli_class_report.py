"""The class-report command: ``python -m solitaire class-report COURSE_DIR`` reads the course's gradebook."""
from __future__ import annotations

import argparse


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register ``class-report GRADES [--out FILE.png] [--by-exercise FILE.csv]``.

    >>> parser = argparse.ArgumentParser()
    >>> add_parser(parser.add_subparsers(dest="command"))
    >>> parser.parse_args(["class-report", "course", "--by-exercise", "rows.csv"]).by_exercise
    'rows.csv'
    """
    cr = subparsers.add_parser(
        "class-report", help="the class's results from an nbgrader course: share right per exercise, per student",
        description="Read the gradebook of a course made by `python -m solitaire nbgrader` (after nbgrader "
                    "autograde), print the share right per exercise among the students who handed it in, with its "
                    "Wilson 95% interval, who did not submit, and a table per student; draw the shares.",
        epilog="example: python -m solitaire class-report course/ --out report.png --by-exercise by_exercise.csv")
    cr.add_argument("grades", metavar="COURSE_DIR", help="the course folder (its gradebook.db), or a CSV that "
                                                         "--by-exercise wrote")
    cr.add_argument("--out", default=None, metavar="FILE.png", help="save the plot to this file (default: no plot)")
    cr.add_argument("--by-exercise", default=None, metavar="FILE.csv",
                    help="also write the grades as CSV, one row per student and exercise (nbgrader export writes "
                         "one per student and assignment)")
    cr.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the report (and write the plot and the rows per exercise when asked); 0 when done."""
    from ..cli_support import check_output, check_ours
    from .class_report import GRADE_COLUMNS, class_report

    check_output("--out", args.out, example="report.png")  # never over a gradebook or another results file
    check_output("--by-exercise", args.by_exercise, example="by_exercise.csv")
    if args.out:  # nor over another file: an earlier plot may be replaced, nothing else
        check_ours("--out", args.out, _is_picture, "a picture", "report.png")
    if args.by_exercise:  # an earlier --by-exercise table may be replaced; nbgrader export's grades.csv may not
        header = ",".join(GRADE_COLUMNS).encode()
        check_ours("--by-exercise", args.by_exercise, lambda head: head.lstrip(b"\xef\xbb\xbf").startswith(header),
                   "a table of grades per exercise", "by_exercise.csv")
    report = class_report(args.grades, out=args.out, plot=args.out is not None)
    print(report.text())
    if args.out:
        print(f"wrote {args.out}")
    if args.by_exercise:
        print(f"wrote {args.by_exercise}: {report.write_by_exercise(args.by_exercise)} rows, one per student and "
              "exercise")
    return 0


def _is_picture(head: bytes) -> bool:
    """Do these first bytes start a PNG, a PDF or an SVG file (what --out writes)?

    >>> _is_picture(b"\\x89PNG\\r\\n\\x1a\\n"), _is_picture(b"assignment,duedate")
    (True, False)
    """
    text = head.lstrip()
    return head.startswith((b"\x89PNG", b"%PDF")) or text.startswith((b"<?xml", b"<svg", b"<!DOCTYPE svg"))
