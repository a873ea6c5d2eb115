# Cython declarations for stock.py (pure-Python mode: the .py is the source; see setup.py).
cimport cython
from .tables cimport RuleTables

@cython.locals(first=dict, ops=dict, done=list, seen=set, recycled=int)
cpdef tuple talon_reach(int n, int in_waste, recycles, int draw, passes)

cdef class StockView:
    cdef public RuleTables tables
    cdef public int draw
    cdef public object passes
    cdef public dict cache

    @cython.locals(t=RuleTables, found=tuple)
    cpdef tuple reachable(self, bytes talon, int in_waste, recycles, playable=*)
    @cython.locals(found=tuple, first=dict)
    cpdef tuple reach(self, bytes talon, int in_waste, recycles)
    cpdef tuple _strict(self, bytes talon, int in_waste, recycles, playable)
    @cython.locals(cards=dict, i=int, c=int, empty_ok=list, fill=int)
    cpdef tuple _by_card(self, bytes talon, indices)
    cpdef int recycles_after(self, bytes talon, int in_waste, recycles, int i)
