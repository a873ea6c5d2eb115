"""The class's results from nbgrader's gradebook: which exercises the class found hardest, and a table per student.

``python -m solitaire class-report COURSE_DIR --out report.png``, or in a notebook::

    from solitaire.classroom.class_report import class_report
    report = class_report("course/")   # report.exercises, report.students, report.missing, report.figure

The grades are read from the gradebook (``gradebook.db``) of a course made by ``python -m solitaire nbgrader``,
one row per student and exercise (``GRADE_COLUMNS``); ``--by-exercise FILE`` writes those rows as CSV, and the
report reads such a file too. An exercise counts as right when its test cell got all its points, which happens
exactly when the kit's check said right. Only the notebooks handed in count: a student who did not submit an
assignment is named in ``missing``, not counted as wrong.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pandas as pd

from ..cli_support import atomic_path
from ..stats import wilson
from .course import exercise_id

GRADE_COLUMNS = ["assignment", "exercise", "student_id", "score", "max_score", "submitted"]
GRADEBOOK = "gradebook.db"


def gradebook_grades(db: Path) -> pd.DataFrame:
    """One row per student and exercise from nbgrader's gradebook ``db`` (``GRADE_COLUMNS``): every student of the
    gradebook under every exercise, with ``submitted`` False and a score of 0 where the student handed nothing in.
    The gradebook is opened read-only.

    >>> import sqlite3, tempfile
    >>> tmp = tempfile.TemporaryDirectory()
    >>> sqlite3.connect(Path(tmp.name) / "other.db").close()
    >>> gradebook_grades(Path(tmp.name) / "other.db")
    Traceback (most recent call last):
    ValueError: ...other.db' is not an nbgrader gradebook: give the course folder after nbgrader autograde has run there
    >>> tmp.cleanup()
    """
    try:
        from nbgrader.api import Gradebook, MissingEntry
        from sqlalchemy.exc import SQLAlchemyError
    except ModuleNotFoundError:
        raise ValueError("reading the gradebook needs nbgrader: pip install -e \".[teach]\"") from None
    rows = []
    try:
        with Gradebook(f"sqlite:///file:{quote(str(Path(db).resolve()))}?mode=ro&uri=true") as gradebook:
            students = [s.id for s in gradebook.students]
            for assignment in gradebook.assignments:
                handed_in = {s.student.id for s in assignment.submissions}
                for notebook in assignment.notebooks:
                    for cell in notebook.grade_cells:
                        for student in students:
                            score = 0.0
                            if student in handed_in:
                                try:
                                    score = gradebook.find_grade(cell.name, notebook.name, assignment.name,
                                                                 student).score or 0.0
                                except MissingEntry:
                                    pass
                            rows.append([assignment.name, exercise_id(cell.name), student, float(score),
                                         float(cell.max_score), student in handed_in])
    except SQLAlchemyError:
        raise ValueError(f"{str(db)!r} is not an nbgrader gradebook: give the course folder after nbgrader "
                         "autograde has run there") from None
    return pd.DataFrame(rows, columns=GRADE_COLUMNS)


def _read_table(grades: Any) -> tuple[pd.DataFrame, str]:
    """The raw table: from a DataFrame, a course folder or its gradebook.db, or a CSV as --by-exercise writes."""
    if isinstance(grades, pd.DataFrame):
        return grades.copy(), "the grades table"
    path, name = Path(grades), repr(str(grades))
    db = path / GRADEBOOK if path.is_dir() else path
    if path.is_dir() and not db.is_file():
        raise ValueError(f"{name} has no {GRADEBOOK}: give the course folder after nbgrader autograde has run there")
    if db.suffix == ".db" and db.is_file():
        return gradebook_grades(db), name
    try:
        return pd.read_csv(path, dtype={"student_id": str, "assignment": str, "exercise": str}), name
    except FileNotFoundError:
        raise ValueError(f"there is no course folder or file {name}: give the course folder (its {GRADEBOOK}) "
                         "or a CSV that --by-exercise wrote") from None
    except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read {name} as CSV ({str(e).splitlines()[0][:100]}): give the course folder "
                         f"(its {GRADEBOOK})") from None


def read_grades(grades: Any) -> pd.DataFrame:
    """The grades, one row per student and exercise, checked: from a course folder (its gradebook), a
    ``gradebook.db``, a CSV as ``--by-exercise`` writes it, or a DataFrame.

    >>> read_grades(pd.DataFrame({"assignment": ["01_cards"], "exercise": ["01.red_cards"], "student_id": ["ana"],
    ...                           "score": [1.0], "max_score": [1.0], "submitted": [True]}))["right"].tolist()
    [True]
    """
    df, name = _read_table(grades)
    missing = [c for c in GRADE_COLUMNS if c not in df.columns]
    if missing and "raw_score" in df.columns:
        raise ValueError(f"{name} is nbgrader export's table of totals (one row per student and assignment): give "
                         f"the course folder, whose {GRADEBOOK} has each exercise")
    if missing:
        raise ValueError(f"{name} has no column {', '.join(missing)}: give the course folder (its {GRADEBOOK})")
    if df.empty:
        raise ValueError(f"{name} has no grades yet: run nbgrader autograde in the course folder first")
    for column in ("score", "max_score"):
        numbers = pd.to_numeric(df[column], errors="coerce")
        if numbers.isna().any() or (numbers < 0).any():
            bad = df.loc[numbers.isna() | (numbers < 0), column].iloc[0]
            raise ValueError(f"{name}: the {column} column holds {bad!r}, not a number >= 0")
        df[column] = numbers.astype(float)
    said = df["submitted"].map(lambda v: str(v).strip().lower())
    if not said.isin(["true", "false", "1", "0"]).all():
        bad = df.loc[~said.isin(["true", "false", "1", "0"]), "submitted"].iloc[0]
        raise ValueError(f"{name}: the submitted column holds {bad!r}, not True or False")
    df["submitted"] = said.isin(["true", "1"])
    df["right"] = (df["score"] >= df["max_score"]) & (df["max_score"] > 0) & df["submitted"]
    return df


def exercise_summary(grades: pd.DataFrame, z: float = 1.96) -> pd.DataFrame:
    """Per exercise (in course order): the students who handed it in, how many of them got it right, the share
    right with its Wilson interval, and how many did not hand it in (not counted in the share).

    >>> g = read_grades(pd.DataFrame({"assignment": "a", "exercise": ["a.x", "a.x", "a.x", "a.y", "a.y", "a.y"],
    ...     "student_id": ["s1", "s2", "s3"] * 2, "score": [1, 0, 0, 1, 1, 0], "max_score": 1,
    ...     "submitted": [True, True, False] * 2}))
    >>> exercise_summary(g)[["exercise", "students", "right", "share", "not_submitted"]].values.tolist()
    [['a.x', 2, 1, 0.5, 1], ['a.y', 2, 2, 1.0, 1]]
    """
    rows = []
    for (assignment, exercise), part in grades.groupby(["assignment", "exercise"], sort=False):
        handed_in = part[part["submitted"]]
        n, k = int(handed_in["student_id"].nunique()), int(handed_in.groupby("student_id")["right"].all().sum())
        low, high = wilson(k, n, z)
        rows.append({"assignment": assignment, "exercise": exercise, "students": n, "right": k,
                     "share": k / n if n else float("nan"), "low": low, "high": high,
                     "not_submitted": int(part["student_id"].nunique()) - n})
    return pd.DataFrame(rows)


def not_submitted(grades: pd.DataFrame) -> dict[str, list[str]]:
    """Per assignment, the students who did not hand it in (assignments everyone handed in left out).

    >>> g = read_grades(pd.DataFrame({"assignment": ["a", "a", "b", "b"], "exercise": ["a.x", "a.x", "b.x", "b.x"],
    ...     "student_id": ["s1", "s2"] * 2, "score": 1, "max_score": 1, "submitted": [True, False, True, True]}))
    >>> not_submitted(g)
    {'a': ['s2']}
    """
    missing = {}
    for assignment, part in grades.groupby("assignment", sort=False):
        handed = part.groupby("student_id")["submitted"].any()
        if not handed.all():
            missing[assignment] = sorted(handed.index[~handed])
    return missing


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
    """The class's results: ``exercises`` (share right per exercise, of those who handed it in), ``students``
    (a row each), ``missing`` (per assignment, who did not hand it in), ``grades`` (a row per student and
    exercise) and ``figure``."""

    exercises: pd.DataFrame
    students: pd.DataFrame
    missing: dict
    grades: pd.DataFrame
    figure: Any = None

    def _repr_html_(self) -> str:  # a notebook shows both tables and who is missing (the figure shows itself)
        missing = "".join(f"<p>did not submit {a}: {', '.join(who)}</p>" for a, who in self.missing.items())
        return self.exercises.to_html(index=False, float_format="{:.2f}".format) + missing + self.students.to_html()

    def text(self) -> str:
        """Both tables and who did not submit, as plain text, for a terminal."""
        shown = self.exercises.assign(share=self.exercises["share"].map("{:.0%}".format),
                                      interval=[f"[{lo:.0%}, {hi:.0%}]" for lo, hi in
                                                zip(self.exercises["low"], self.exercises["high"])])
        missing = "".join(f"\ndid not submit {a}: {', '.join(who)}" for a, who in self.missing.items())
        return (shown[["assignment", "exercise", "students", "right", "share", "interval"]].to_string(index=False)
                + "\n(students: those who handed the assignment in)" + missing + "\n\n" + self.students.to_string())

    def write_by_exercise(self, path: str | Path) -> int:
        """Write the grades as CSV, one row per student and exercise (``GRADE_COLUMNS``); return the rows."""
        with atomic_path(path) as temporary:  # an earlier file stays whole until the new one is
            self.grades[GRADE_COLUMNS].to_csv(temporary, index=False)
        return len(self.grades)


def class_report(grades: Any, out: str | Path | None = None, plot: bool = True) -> ClassReport:
    """Read the grades (a course folder, its gradebook.db, a CSV of rows per exercise or a DataFrame), summarise
    them and draw the shares (saved to ``out``).

    >>> g = pd.DataFrame({"assignment": "a", "exercise": "a.x", "student_id": ["s1", "s2"], "score": [1, 0],
    ...                   "max_score": 1, "submitted": [True, False]})
    >>> report = class_report(g, plot=False)
    >>> report.missing, report.exercises["share"].tolist()
    ({'a': ['s2']}, [1.0])
    """
    if out is not None:
        _check_image_path(Path(out))
    g = read_grades(grades)
    report = ClassReport(exercise_summary(g), student_table(g), not_submitted(g), g)
    if plot or out is not None:
        from ..plots import class_results
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
