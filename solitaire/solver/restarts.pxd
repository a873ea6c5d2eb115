# Cython declarations for restarts.py (pure-Python mode: the .py is the source; see setup.py).
cimport cython
from .search cimport Search, Budget

cdef class ProvingSearch(Search):
    cdef public dict number
    cdef public list open

    cpdef bint run(self, root, bytes root_key)
    @cython.locals(number=dict, mine=cython.long, low=cython.long, wanted=set, kids=list, move=tuple, child=tuple,
                   column=int, then=bytes, autos=object, k=bytes, by=object, below=cython.long)
    cpdef long prove(self, tuple state, bytes key, bytes restriction)
    @cython.locals(lost=set, open_states=list, k=bytes)
    cpdef _record_lost(self, bytes key)
