# Cython declarations for node.py (pure-Python mode: the .py is the source; see setup.py).
cimport cython
from .tables cimport RuleTables
from .columns cimport Build, ColumnInfo


cpdef bytes need(int flags, int z=*)

cdef class Node:
    cdef public object gen  # the MoveGenerator
    cdef public RuleTables tables
    cdef public tuple state, columns
    cdef public bytes heights
    cdef public set wanted
    cdef public list infos
    cdef public object only  # a set of columns, or None
    cdef public bint top_up, stock_free_of_restriction, dead
    cdef public int below_card, stock_fill
    cdef public list below_targets, empties, stock_empties
    cdef public object _accessible, _worth
    cdef public dict targets, stock_targets, stock_cards
    cdef public object foundation_tops, stock_first

    @cython.locals(flags=int, z=int, infos=list, t=RuleTables, j=int, info=ColumnInfo)
    cpdef object _restrict(self, bytes restriction)
    @cython.locals(targets=dict, empties=list, j=int, info=ColumnInfo, ch=int, found=list)
    cpdef tuple _where_cards_go(self, scope)
    @cython.locals(below=int)
    cpdef _narrow(self, scope, int flags)
    cpdef tuple after_stock_targets(self)
    @cython.locals(fill=int, info=ColumnInfo, c=int)
    cpdef tuple accessible(self)
    cpdef int fill(self)
    @cython.locals(two_decks=bint, ch=int)
    cpdef bint can_hold(self, int below, int moved)
    @cython.locals(memo=dict, found=object, ch=int)
    cpdef bint worth_from_stock(self, int c)
    @cython.locals(ch=int, t=RuleTables, under=int)
    cpdef bint worth_taking_down(self, int c, dict targets, list empties)
    cpdef bint playable_from_waste(self, int c)
    @cython.locals(t=RuleTables, targets=dict, empties=list, s=int, info=ColumnInfo, build=Build, d=int,
                   talon=bytes, in_waste=int)
    cpdef bint has_progress_move(self)
