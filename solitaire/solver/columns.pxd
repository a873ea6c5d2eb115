# Cython declarations for columns.py (pure-Python mode: the .py is the source; see setup.py).
cimport cython
from .tables cimport RuleTables
from .encoding cimport without_top

cdef class Build:
    cdef readonly int bottom, count, kind, below
    cdef readonly bytes rest, cards

cdef class ColumnInfo:
    cdef readonly int top, fill
    cdef readonly tuple kids, builds, movable
    cdef readonly bytes without_top

@cython.locals(info=ColumnInfo, parents=list, empty_ok=list, n=int, hidden=int, builds=list, movable=list, fill=int,
               p=int, bottom=int, kind=int, below=int)
cpdef ColumnInfo column_info(bytes col, RuleTables tables, dict cache)
