# Cython declarations for generation.py (pure-Python mode: the .py is the source; see setup.py).
cimport cython
from .tables cimport RuleTables
from .encoding cimport StateCodec
from .stock cimport StockView
from .pruning cimport SafeMoves
from .columns cimport Build, ColumnInfo, column_info
from .node cimport Node, need

cdef class MoveGenerator:
    cdef public RuleTables tables
    cdef public StateCodec codec
    cdef public StockView stock
    cdef public object options
    cdef public bint prune, restrict, back, waste_to_foundation, fast_talon
    cdef public dict columns
    cdef public SafeMoves safe

    @cython.locals(cache=dict, tables=RuleTables, infos=list, node=Node, out=list)
    cpdef list children(self, tuple state, set wanted, bytes restriction=*)
    @cython.locals(cols=tuple, heights=bytes, targets=dict, empties=list, rest_of_state=tuple, wanted=set,
                   top_up=bint, empty_ok=list, s=int, info=ColumnInfo, build=Build, b=int, dests=object,
                   to_empty=bint)
    cpdef column_moves(self, Node node, list out)
    @cython.locals(then=bytes, cols=tuple, heights=bytes, talon=bytes, in_waste=int, d=int, nc=list)
    cpdef build_moves(self, Node node, int s, Build build, dests, bint to_empty, list out)
    @cython.locals(below=int)
    cpdef bytes preparation_need(self, Node node, Build build)
    @cython.locals(cards=dict, to_foundation_ok=bint, targets=dict, empties=list, candidates=list, c=int,
                   to_empty=bint, to_found=bint, then=bytes, i=int)
    cpdef stock_moves(self, Node node, list out)
    @cython.locals(up=bint)
    cpdef bytes stock_need(self, Node node, int c)
    @cython.locals(cols=tuple, heights=bytes, talon=bytes, in_waste=int, rest=bytes, at=int, one=bytes, d=int,
                   nc=list)
    cpdef talon_card_moves(self, Node node, int c, int i, dests, int empty, bint to_found, bytes then, list out)
    @cython.locals(tables=RuleTables, decks=int, cols=tuple, heights=bytes, targets=dict, empties=list,
                   empty_ok=list, below_card=int, safe=SafeMoves, talon=bytes, c=int, dests=list, lowered=bytes,
                   then=bytes, one=bytes, d=int, nc=list)
    cpdef foundation_moves(self, Node node, list out)
