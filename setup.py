"""The build's one step beyond pyproject.toml: the lesson notebooks go into the wheel as package data.

``notebooks/`` stays the lessons' one home (nbval tests them there); a wheel carries a copy in
``solitaire/classroom/notebooks/``, so that an installed kit can write a student's working copy
(``python -m solitaire lessons DIR``) and an nbgrader course (``python -m solitaire nbgrader COURSE_DIR``).
An editable install reads them from the clone instead (``solitaire.classroom.student_copy.lessons_folder``).
"""
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

LESSON_FILES = ["*.ipynb", "TEACHERS.md"]  # the lessons, and the guide their index links to


class BuildWithLessons(build_py):
    """setuptools' build_py, then the lesson notebooks copied into the built package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "solitaire" / "classroom" / "notebooks"
        self.mkpath(str(target))
        here = Path(__file__).resolve().parent / "notebooks"
        for pattern in LESSON_FILES:
            for path in sorted(here.glob(pattern)):
                self.copy_file(str(path), str(target / path.name))


setup(cmdclass={"build_py": BuildWithLessons})
