"""The classroom tools, built on the lessons: students' working copies, an nbgrader course, the class's results.

- ``student_copy``: a lesson with its exercises blanked to runnable stubs and its outputs cleared, and where the
  kit's lessons are (``lessons_folder``: shipped in the wheel, or a clone's ``notebooks/``);
- ``working_copy``: a student's own copy of every lesson, never written over the student's work;
- ``course``: an nbgrader course made from the lessons;
- ``class_report``: which exercises a class found hardest, from the course's gradebook;
- ``cli_lessons``, ``cli_lab``, ``cli_nbgrader``, ``cli_class_report``: their commands, ``python -m solitaire
  lessons | lab | nbgrader | class-report``.

Importing this package loads none of them (``class_report`` needs pandas, and nbgrader for a gradebook).
"""
