# Cython declarations for tables.py (pure-Python mode: the .py is the source; see setup.py).
cdef class RuleTables:
    cdef public object variant, passes
    cdef public int decks
    cdef public list step, deck, suit, card_at, children, parents, empty_ok, threshold, stock_watch
    cdef public bint strict_draw, free_stock, safe_from_stock, waste_dominance, safe_talon_end, watches_stock
    cdef public bint parents_interchangeable
    cdef public dict column_cache, wanted_cache, tops_cache, pile_tops_cache
