# Cython declarations for moves.py (pure-Python mode: moves.py is the source and stays plain Python; see setup.py).
# A function that another function of the kit reaches only through a module attribute when a lesson switches it
# off (legal_moves, apply, rules, and what apply dispatches to) stays a Python-level function: a check switches it
# off wherever it is called from. The helpers below are called directly.
cimport cython

cpdef dict foundation_wants(p, r=*)

cpdef bint makes_progress(p, m)

cpdef bint is_won(p)

@cython.locals(targets=dict, empty=list, hidden=tuple, d=int, col=tuple)
cpdef dict column_targets(p, r)

@cython.locals(moves=list, hidden=tuple, s=int, col=tuple, face_up=int, k=int, d=int)
cpdef list _column_moves(p, r, dict targets, wants)

cpdef list _waste_moves(p, r, dict targets, wants)

cpdef list _foundation_to_column_moves(p, r, dict targets)

cpdef list _stock_moves(p, r)

cpdef bint passes_left(p)

@cython.locals(counts=list)
cpdef tuple _one_less(hidden, s)
