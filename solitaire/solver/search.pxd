# Cython declarations for search.py (pure-Python mode: the .py is the source; see setup.py).
cimport cython
from .encoding cimport StateCodec, sorted_columns, without_top
from .generation cimport MoveGenerator
from .pruning cimport SafeMoves

cdef class Budget:
    cdef public object max_nodes, deadline
    cdef public long long nodes
    cpdef spend(self)

cdef class Search:
    cdef public StateCodec codec
    cdef public object jitter
    cdef public bint found, talon_end, loose
    cdef public MoveGenerator generator
    cdef public SafeMoves safe
    cdef public Budget budget
    cdef public set seen
    cdef public list path, move_cost
    cdef public int deck_size, draw, remaining_weight, hidden_weight, talon_weight
    cdef public object off_cycle, lost, frontier
    cdef public long long tick

    @cython.locals(col=bytes, talon=bytes)
    cpdef tuple settled_child(self, tuple child, int column, set wanted)
    @cython.locals(k=bytes, full=bytes, by=object)
    cpdef tuple child_key(self, tuple child, bytes then, autos, seen)
    @cython.locals(base=bytes, in_waste=int, on_cycle=bint, off_cycle=dict, draw=int, prefix=bytes, p=bytes, q=int,
                   found=list)
    cpdef object dominated(self, bytes k, tuple child, bytes full, bint restricted)
    @cython.locals(kids=list, out=list, columns=tuple, parents=list, kid=tuple, move=tuple, child=tuple, autos=object,
                   s=int, freed=bytes, up=tuple)
    cpdef list children(self, tuple state, set wanted, bytes restriction)
    @cython.locals(wanted=set, kids=list)
    cpdef tuple ordered_children(self, tuple state, bytes restriction)
    @cython.locals(wanted=set, kids=list, move=tuple, child=tuple, column=int, then=bytes, autos=object, k=bytes)
    cpdef bint dfs(self, tuple state, bytes restriction=*)
    @cython.locals(heap=list, parent=dict, cost=list, deck_size=int, tick=cython.longlong, g0=cython.longlong,
                   k0=bytes, state=tuple, restriction=bytes, wanted=set, child=tuple, column=int, then=bytes,
                   autos=object, k=bytes, up=int, g=cython.longlong)
    cpdef object best_first(self, root)
    @cython.locals(hidden=int, col=bytes)
    cpdef long score(self, tuple state, up=*)

@cython.locals(s=int, d=int, k=int, col=bytes)
cpdef bint within_class(tuple columns, tuple move, list parents)
