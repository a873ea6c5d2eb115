"""The classroom tools, built on the lessons: students' working copies, an nbgrader course, the class's results.

- ``student_copy``: a lesson with its exercises blanked to runnable stubs and its outputs cleared;
- ``course``: an nbgrader course made from the lessons (``python -m solitaire nbgrader``);
- ``class_report``: which exercises a class found hardest, from nbgrader's grades.

Importing this package loads none of them (``class_report`` needs pandas).
"""
