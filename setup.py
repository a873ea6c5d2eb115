"""The build's one step beyond pyproject.toml: the lessons go into the wheel as package data, as students get them.

``notebooks/`` stays the lessons' one home, the teacher's copies with their solutions (nbval tests them there). A
wheel carries student copies only, in ``solitaire/classroom/notebooks/``: every solution cell blanked to its stub
and every kit's answer shown after a check taken out (``solitaire.classroom.student_copy``), and the teacher's guide
without its answers to the exercises (``student_guide``). So an installed kit writes a student's working copy
(``python -m solitaire lessons DIR``) but holds no solution; the teacher's route to the solutions is the repository
(an nbgrader course is made from its notebooks: ``python -m solitaire nbgrader COURSE_DIR --lessons notebooks``).
An editable install reads the clone's own notebooks instead (``solitaire.classroom.student_copy.lessons_folder``).
"""
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
GUIDE = "TEACHERS.md"  # the guide the lessons' index links to


class BuildWithLessons(build_py):
    """setuptools' build_py, then student copies of the lessons and the guide written into the built package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        sys.path.insert(0, str(HERE))  # the student copies are made by the kit being built
        try:
            from solitaire.classroom.student_copy import student_guide, student_notebook_text
        finally:
            sys.path.remove(str(HERE))
        target = Path(self.build_lib) / "solitaire" / "classroom" / "notebooks"
        self.mkpath(str(target))
        for path in sorted((HERE / "notebooks").glob("*.ipynb")):
            (target / path.name).write_text(student_notebook_text(path), encoding="utf-8")
        guide = HERE / "notebooks" / GUIDE
        if guide.is_file():
            (target / GUIDE).write_text(student_guide(guide.read_text(encoding="utf-8")), encoding="utf-8")


setup(cmdclass={"build_py": BuildWithLessons})
