"""The class's results from nbgrader's grades: which exercises the class found hardest, and a table per student.

``python -m solitaire class-report grades.csv --out report.png``, or in a notebook::

    from solitaire.class_report import class_report
    report = class_report("course/grades.csv")   # report.exercises, report.students, report.figure

The grades are the CSV that ``nbgrader export`` writes in a course made by ``python -m solitaire nbgrader``: one
row per student and exercise (``solitaire.course.GRADE_COLUMNS``). An exercise counts as right when its test cell
got all its points, which happens exactly when the kit's check said right.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from .cli_support import atomic_path
from .course import GRADE_COLUMNS
from .stats import wilson


def read_grades(grades: Any) -> pd.DataFrame:
    """The grades table from a CSV path (or a DataFrame), checked: one row per student and exercise.

    >>> read_grades(pd.DataFrame({"assignment": ["01_cards"], "exercise": ["01.red_cards"], "student_id": ["ana"],
    ...                           "score": [1.0], "max_score": [1.0], "submitted": [True]}))["right"].tolist()
    [True]
    """
    if isinstance(grades, pd.DataFrame):
        df, name = grades.copy(), "the grades table"
    else:
        name = repr(str(grades))
        try:
            df = pd.read_csv(grades, dtype={"student_id": str, "assignment": str, "exercise": str})
        except FileNotFoundError:
            raise ValueError(f"there is no file {name}: give the grades.csv that nbgrader export wrote") from None
        except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as e:
            raise ValueError(f"cannot read {name} as CSV ({str(e).splitlines()[0][:100]}): give the grades.csv that "
                             "nbgrader export wrote") from None
    missing = [c for c in GRADE_COLUMNS if c not in df.columns]
    if missing and "raw_score" in df.columns:
        raise ValueError(f"{name} has one row per assignment (nbgrader's own export), not per exercise: run nbgrader "
                         "export in a course made by python -m solitaire nbgrader, whose config writes one per "
                         "exercise")
    if missing:
        raise ValueError(f"{name} has no column {', '.join(missing)}: give the grades.csv that nbgrader export wrote "
                         "in a course made by python -m solitaire nbgrader")
    if df.empty:
        raise ValueError(f"{name} has no grades yet: run nbgrader autograde, then nbgrader export")
    for column in ("score", "max_score"):
        numbers = pd.to_numeric(df[column], errors="coerce")
        if numbers.isna().any() or (numbers < 0).any():
            bad = df.loc[numbers.isna() | (numbers < 0), column].iloc[0]
            raise ValueError(f"{name}: the {column} column holds {bad!r}, not a number >= 0")
        df[column] = numbers.astype(float)
    df["right"] = (df["score"] >= df["max_score"]) & (df["max_score"] > 0)
    return df


def exercise_summary(grades: pd.DataFrame, z: float = 1.96) -> pd.DataFrame:
    """Per exercise (in course order): students, how many got it right, the share right with its Wilson interval.

    >>> g = read_grades(pd.DataFrame({"assignment": "a", "exercise": ["a.x", "a.x", "a.y", "a.y"],
    ...     "student_id": ["s1", "s2", "s1", "s2"], "score": [1, 0, 1, 1], "max_score": 1, "submitted": True}))
    >>> exercise_summary(g)[["exercise", "students", "right", "share"]].values.tolist()
    [['a.x', 2, 1, 0.5], ['a.y', 2, 2, 1.0]]
    """
    rows = []
    for (assignment, exercise), part in grades.groupby(["assignment", "exercise"], sort=False):
        n, k = int(part["student_id"].nunique()), int(part.groupby("student_id")["right"].all().sum())
        low, high = wilson(k, n, z)
        rows.append({"assignment": assignment, "exercise": exercise, "students": n, "right": k,
                     "share": k / n if n else float("nan"), "low": low, "high": high,
                     "submitted": int(part.groupby("student_id")["submitted"].any().sum())})
    return pd.DataFrame(rows)


def student_table(grades: pd.DataFrame) -> pd.DataFrame:
    """One row per student: ✔ or ✘ per exercise (– when not handed in), then points and the most points.

    >>> g = read_grades(pd.DataFrame({"assignment": "a", "exercise": ["a.x", "a.y"], "student_id": "s1",
    ...     "score": [1, 0], "max_score": 1, "submitted": True}))
    >>> [str(x) for x in student_table(g).loc["s1"]]
    ['✔', '✘', '1.0', '2.0']
    """
    marks = grades.assign(mark=grades["right"].map({True: "✔", False: "✘"}).where(grades["submitted"].astype(bool),
                                                                                   "–"))
    order = list(dict.fromkeys(grades["exercise"]))
    table = marks.pivot_table(index="student_id", columns="exercise", values="mark", aggfunc="first")[order]
    table["points"] = grades.groupby("student_id")["score"].sum()
    table["of"] = grades.groupby("student_id")["max_score"].sum()
    table.columns.name = None
    return table.sort_index()


@dataclass
class ClassReport:
    """The class's results: ``exercises`` (share right per exercise), ``students`` (a row each), ``figure``."""

    exercises: pd.DataFrame
    students: pd.DataFrame
    figure: Any = None

    def _repr_html_(self) -> str:  # a notebook shows both tables (the figure shows itself)
        return self.exercises.to_html(index=False, float_format="{:.2f}".format) + self.students.to_html()

    def text(self) -> str:
        """Both tables as plain text, for a terminal."""
        shown = self.exercises.assign(share=self.exercises["share"].map("{:.0%}".format),
                                      interval=[f"[{lo:.0%}, {hi:.0%}]" for lo, hi in
                                                zip(self.exercises["low"], self.exercises["high"])])
        return (shown[["assignment", "exercise", "students", "right", "share", "interval"]].to_string(index=False)
                + "\n\n" + self.students.to_string())


def class_report(grades: Any, out: str | Path | None = None, plot: bool = True) -> ClassReport:
    """Read the grades (a CSV path or a DataFrame), summarise them and draw the shares (saved to ``out``)."""
    if out is not None:
        _check_image_path(Path(out))
    g = read_grades(grades)
    report = ClassReport(exercise_summary(g), student_table(g))
    if plot or out is not None:
        from .plots import class_results
        report.figure = class_results(report.exercises)
        if out is not None:
            with atomic_path(out) as path:  # the old picture stays whole until the new one is
                report.figure.savefig(path, dpi=100)
    return report


def _check_image_path(out: Path) -> None:
    if out.is_dir():
        raise ValueError(f"--out {str(out)!r} is a folder: give a file name, such as report.png")
    if out.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise ValueError(f"--out {str(out)!r}: give a .png, .svg or .pdf file name")
    if not out.resolve().parent.is_dir():
        raise ValueError(f"--out {str(out)!r}: the folder {str(out.parent)!r} does not exist")
