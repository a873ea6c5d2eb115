# Cython declarations for encoding.py (pure-Python mode: the .py is the source; see setup.py).
cimport cython
from .tables cimport RuleTables

cdef class StateCodec:
    cdef public RuleTables tables
    cdef public int decks, draw
    cdef public object passes
    cdef public bint waste_dominance, loose, as_a_set
    cdef dict _wanted, _tops, _pile_tops
    cdef object _fixed  # a FixedParts: a dict whose __missing__ fills it (so never typed as a dict)

    cpdef bytes columns_part(self, tuple columns)
    cpdef bytes loose_columns(self, tuple columns)
    @cython.locals(columns=tuple, heights=bytes, talon=bytes, in_waste=int, k=bytes, t=RuleTables)
    cpdef bytes key(self, tuple state)
    @cython.locals(in_waste=int)
    cpdef tuple waste_place(self, bytes full, tuple state)
    @cython.locals(found=set, d=int)
    cpdef set wanted(self, bytes heights)
    @cython.locals(t=RuleTables, suit=int, h=int, d=int, group=list)
    cpdef bytes raised(self, bytes heights, int c)
    @cython.locals(t=RuleTables, suit=int, h=int, d=int, group=list)
    cpdef bytes lowered(self, bytes heights, int c)
    @cython.locals(found=set, d=int)
    cpdef set tops(self, bytes heights)
    @cython.locals(found=tuple, d=int)
    cpdef tuple pile_tops(self, bytes heights)
    cpdef bint is_won(self, tuple state)

cpdef bytes sorted_columns(tuple columns)
@cython.locals(p=int)
cpdef bytes fixed_part(bytes col, parents)
@cython.locals(rest=bytes, n=int)
cpdef bytes without_top(bytes col, int k)
