#!/usr/bin/env python3
"""Write student copies of the lesson notebooks: ``python scripts/make_student_version.py notebooks/ student/``.

A thin wrapper kept for old instructions: the maker lives in ``solitaire.classroom.student_copy``, and a student's
own working copy of the lessons is ``python -m solitaire lessons DIR``.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the clone's solitaire, installed or not
from solitaire.classroom.student_copy import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
