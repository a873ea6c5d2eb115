# Cython declarations for pruning.py (pure-Python mode: the .py is the source; see setup.py).
cimport cython
from .tables cimport RuleTables
from .encoding cimport StateCodec, without_top

cdef class SafeMoves:
    cdef public RuleTables tables
    cdef public StateCodec codec
    cdef public bint enabled, talon_end

    @cython.locals(need=tuple, lows=bytes, watch=tuple, step=list, suit=list, d=int)
    cpdef bint is_safe(self, int c, bytes heights_after, bytes talon)
    @cython.locals(wanted=set, changed=bint, j=int, col=bytes, c=int, raised=bytes, played=object, i=int)
    cpdef tuple settle(self, tuple columns, bytes heights, bytes talon, int in_waste, recycles, list autos)
    @cython.locals(c=int)
    cpdef bint end_is_safe(self, bytes heights, bytes talon, int in_waste)
    @cython.locals(free=bint, c=int, i=int, raised=bytes)
    cpdef object _settle_talon(self, bytes heights, bytes talon, int in_waste, set wanted)
