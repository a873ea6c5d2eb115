"""Move generation: the children of a state that are worth trying, and the rules for preparing moves.

Internal moves (expanded into real ones by ``replay``):
``("tt", s, d, k)`` a build of k cards from column s to d, ``("tf", s)`` column top to its foundation,
``("wt", i, d)`` talon card i to column d, ``("wf", i)`` talon card i to its foundation,
``("ft", card, d)`` a foundation top to column d.

**Preparing moves.** Some moves only prepare something: moving a build off a face-up card (its use: a card
onto the card left on top, or that card going up), emptying a column (its use: a card into it), with a free
stock putting a stock card on a column (its use: a card onto it, or, when the waste may not play to a
foundation, the card going up) and taking a card back from a foundation (its use: a card onto it, or, with
one deck, the card under it coming down too). Claim: if a state can be won, some winning line plays every
preparing move right before one of its uses. Argument (a sketch, checked against an exhaustive search of
the real rules on small positions in ``tests/test_solver.py``): take a winning line and a preparing move
``m`` in it that is not followed at once by a use, and let ``u`` be the first later move that touches what
``m`` changed (a use; or a move of the cards ``m`` moved, alone or as part of a longer build). Play ``m``
just before ``u`` instead. The moves in between are legal without ``m``: none is a use, so none needs the
uncovered card, the emptied column or the taken-down card; a move that put cards on the moved cards' top
finds that same top card before ``m`` (the cards then move with them). If ``u`` moves the same cards again,
``m`` and ``u`` merge into one move from ``m``'s source; if ``u`` moves a longer build that ``m`` completed,
its lower part moves first and ``m`` follows onto it, again right before a later use. Each step moves a
preparing move later or removes one, so the process ends with a line of the required form. With a free
stock, a stock card waits in the talon until its use, since every talon card stays reachable. Nothing here
depends on the number of decks or the rank order. Hence:

* ``skip_useless_preparations``: a preparing move is tried only when something could use it at once (for a
  stock card on a column: a chain of stock cards ending in such a use).
* ``use_right_after``: after a preparing move the next move must be one of its uses. Such a "restricted"
  state has its own key (the need is appended), so meeting the full state later searches it again.
With draw > 1 or limited passes, a stock card put on a column also changes which stock cards come up next,
so any stock play may follow it too. With the strict draw rule neither idea is used (see ``SolverOptions``).
"""
from __future__ import annotations

from .columns import EMPTYING, FROM_FOUNDATION, PARTIAL, REVEAL, TALON_TO_COLUMN, TALON_TO_FOUNDATION, \
    TO_FOUNDATION, column_info
from .encoding import BYTE
from .node import BELOW, EMPTY, TALON, UP, Node, need


class MoveGenerator:
    """The children of a state: ``[(priority, internal move, child state, column, need)]``.

    ``column`` >= 0 names the only column whose top changed (so settling the child is cheap); -1 asks for a
    full settle. A card taken back from a foundation names its column: lowering a foundation makes no card
    safe that was not, and the card itself is never safe there (a safe card is not taken down: settling
    would play it straight back, a move that changes nothing). ``need`` is what the child's own move requires next (empty for a move that prepares nothing).
    """

    def __init__(self, tables, codec, stock, options) -> None:
        self.tables = tables
        self.codec = codec
        self.stock = stock
        self.options = options
        self.prune = options.skip_useless_preparations
        self.restrict = options.use_right_after
        self.back = tables.variant.foundation_to_tableau
        self.waste_to_foundation = tables.variant.waste_to_foundation
        self.columns = tables.column_cache
        # after a waste card goes to a column, only that column's top can have become safe to play
        self.fast_talon = (tables.free_stock or not tables.safe_from_stock) and not tables.watches_stock
        self.safe = None  # the SafeMoves, when safe foundation moves are on (set by the solver)

    def children(self, state, wanted: set[int], restriction: bytes = b"") -> list:
        cache, tables = self.columns, self.tables
        infos = [cache.get(col) or column_info(col, tables, cache) for col in state[0]]
        node = Node(self, state, wanted, infos, restriction)
        if node.dead:
            return []
        out: list = []
        self.column_moves(node, out)
        if node.stock_cards:
            self.stock_moves(node, out)
        if self.back:
            self.foundation_moves(node, out)
        return out

    # --- column moves --------------------------------------------------------------------------------
    def column_moves(self, node: Node, out: list) -> None:
        cols, heights = node.columns, node.heights
        targets, empties, only = node.targets, node.empties, node.only
        rest_of_state = node.state[2:]
        wanted, top_up, empty_ok = node.wanted, node.top_up, self.tables.empty_ok
        target_cards = targets.keys()
        for s, info in enumerate(node.infos):
            if info is None:
                continue
            if top_up and info.top in wanted and (only is None or s in only):
                out.append((TO_FOUNDATION, ("tf", s), (cols[:s] + (info.without_top,) + cols[s + 1:],
                                                       self.codec.raised(heights, info.top)) + rest_of_state, -1,
                            b""))
            if target_cards.isdisjoint(info.movable) and not (empties and info.fill):
                continue  # no build of this column has anywhere to go
            for build in info.builds:
                b = build.bottom
                dests = targets.get(b)
                to_empty = empties and empty_ok[b] and build.kind != EMPTYING
                if dests or to_empty:
                    self.build_moves(node, s, build, dests, to_empty, out)

    def build_moves(self, node: Node, s: int, build, dests, to_empty: bool, out: list) -> None:
        """The moves of ``build`` from column ``s`` to the columns ``dests`` and, if ``to_empty``, an empty one."""
        if build.kind == REVEAL:
            priority, then = build.kind - build.rest[0] / 64, b""  # uncover the deepest pile first
        else:
            then = self.preparation_need(node, build)
            if then is None:
                return
            priority = build.kind
        cols, heights, talon, in_waste, recycles = node.state
        for d in dests or ():
            if d != s:
                nc = list(cols)
                nc[s] = build.rest
                nc[d] = cols[d] + build.cards
                out.append((priority, ("tt", s, d, build.count), (tuple(nc), heights, talon, in_waste, recycles), s,
                            then))
        if to_empty:
            d = node.empties[0]  # empty columns are all alike
            nc = list(cols)
            nc[s] = build.rest
            nc[d] = b"\x00" + build.cards
            out.append((priority, ("tt", s, d, build.count), (tuple(nc), heights, talon, in_waste, recycles), s,
                        then))

    def preparation_need(self, node: Node, build) -> bytes | None:
        """What must follow a build move that uncovers no card, or None when it is not worth trying."""
        if build.kind == PARTIAL:  # worth it only if the card left on top is used at once
            below = build.below
            if self.prune and below not in node.wanted and not node.can_hold(below, build.bottom):
                return None
            return need(UP, below) if self.restrict else b""
        if self.prune and node.fill() <= 0:  # emptying a column: worth it only if something can fill it
            return None
        return need(EMPTY) if self.restrict else b""

    # --- stock and waste -----------------------------------------------------------------------------
    def stock_moves(self, node: Node, out: list) -> None:
        cards = node.stock_cards
        to_foundation_ok = self.waste_to_foundation and (node.only is None or node.stock_free_of_restriction)
        targets, empties = node.stock_targets, node.stock_empties
        if empties:
            candidates = list(cards)
        else:
            candidates = [c for c in targets if c in cards]
            if to_foundation_ok:
                candidates += [c for c in node.wanted if c in cards and c not in targets]
        for c in candidates:
            dests = targets.get(c)
            to_empty = empties and self.tables.empty_ok[c]
            to_found = to_foundation_ok and c in node.wanted
            if not (dests or to_empty or to_found):
                continue
            then = b""
            if dests or to_empty:
                then = self.stock_need(node, c)
                if then is None:
                    dests, to_empty = None, False
                    if not to_found:
                        continue
            for i in cards[c]:
                self.talon_card_moves(node, c, i, dests, empties[0] if to_empty else -1, to_found, then, out)

    def stock_need(self, node: Node, c: int) -> bytes | None:
        """What must follow putting stock card ``c`` on a column, or None when it is not worth it."""
        up = not self.waste_to_foundation
        if self.tables.free_stock:  # the card waits in the talon until a column can use it
            if self.prune and not node.worth_from_stock(c):
                return None
            return need(UP if up else 0, c) if self.restrict else b""
        # it changes the stock, so the next move may also be any stock play
        return need(TALON | UP if up else TALON, c) if self.restrict else b""

    def talon_card_moves(self, node: Node, c: int, i: int, dests, empty: int, to_found: bool, then: bytes,
                         out: list) -> None:
        cols, heights, talon, in_waste, recycles = node.state
        rest = talon[:i] + talon[i + 1:]
        if self.tables.free_stock:
            at, recycles = 0, recycles
        elif node.stock_first is not None:
            at, recycles = i, node.stock_first[i][1]
        else:
            at, recycles = i, self.stock.recycles_after(talon, in_waste, recycles, i)
        if to_found:
            out.append((TALON_TO_FOUNDATION, ("wf", i), (cols, self.codec.raised(heights, c), rest, at, recycles), -1,
                        b""))
        one = BYTE[c]
        for d in list(dests or ()) + ([empty] if empty >= 0 else []):
            nc = list(cols)
            nc[d] = (cols[d] if d != empty else b"\x00") + one
            out.append((TALON_TO_COLUMN, ("wt", i, d), (tuple(nc), heights, rest, at, recycles),
                        d if self.fast_talon else -1, then))

    # --- back from a foundation ----------------------------------------------------------------------
    def foundation_moves(self, node: Node, out: list) -> None:
        tables, decks = self.tables, self.tables.decks
        cols, heights = node.columns, node.heights
        targets, empties = node.after_stock_targets()
        empty_ok, below_card = tables.empty_ok, node.below_card
        safe, talon = self.safe, node.state[2]
        for c in self.codec.pile_tops(heights):
            if c not in targets and c != below_card and not (empties and empty_ok[c]):
                continue  # nowhere to go
            if safe is not None and safe.is_safe(c, heights, talon):
                continue  # a safe card would go straight back up (see the class docstring)
            dests = list(targets.get(c, ()))
            if empties and empty_ok[c]:
                dests.append(empties[0])
            if c == below_card:  # the use of the card just taken down from this foundation
                dests = node.below_targets
            if not dests:
                continue
            if self.prune and not (decks > 1 or node.worth_taking_down(c, targets, empties)):
                continue
            lowered = self.codec.lowered(heights, c)
            then = need(BELOW, c) if decks == 1 and self.restrict else b""
            one = BYTE[c]
            for d in dests:
                nc = list(cols)
                nc[d] = cols[d] + one
                out.append((FROM_FOUNDATION, ("ft", c, d), (tuple(nc), lowered) + node.state[2:], d, then))
