"""Switches for the solver's pruning ideas, so that a lesson can measure the states each one saves."""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..variants import Variant


@dataclass(frozen=True)
class SolverOptions:
    """Which pruning ideas the search uses. All are on by default (``use_right_after`` where it pays, see
    ``for_variant``).

    Turning an idea off only makes the search larger: it never changes a "won" or "unwinnable" answer that
    the search reaches (each idea's proof is in the docstring of the code that applies it), only how many
    states it takes to get there, so ``solve(game, options=SolverOptions(safe_foundation_moves=False)).nodes``
    measures what safe foundation moves save.

    * ``columns_as_a_set``: a state's key ignores the order of the columns (``encoding.StateCodec.key``).
    * ``safe_foundation_moves``: cards that no winning line needs in a column go up at once
      (``pruning.SafeMoves``).
    * ``skip_useless_preparations``: a move that only prepares something (uncovering a face-up card,
      emptying a column, a stock card onto a column, a card back from a foundation) is tried only when
      something could use it at once (``generation``).
    * ``use_right_after``: after a preparing move the search tries only its uses (``generation``).
    * ``walled_in_check``: a start position with a card that can never leave its column is lost at once
      (``pruning.walled_in``).
    * ``loose_columns``: a state's key ignores which of its possible parents each card of a column's top
      build sits on, where the rules make that safe (``encoding.StateCodec.loose_columns``).
    * ``waste_dominance``: with draw > 1 and unlimited passes, a state is skipped when the search already
      holds the same state with the waste at a position from which drawing reaches this one
      (``encoding.StateCodec.waste_place``).
    * ``safe_talon_end``: with draw > 1 and unlimited passes, the last card of the talon goes up at once when it
      is safe and the waste is at a position of the draw cycle (``pruning.SafeMoves``, "the end of the talon";
      on only with ``safe_foundation_moves``). What it saves: ``benchmarks/RESULTS.md`` ("The solver's pruning
      ideas").
    """

    columns_as_a_set: bool = True
    loose_columns: bool = True
    safe_foundation_moves: bool = True
    skip_useless_preparations: bool = True
    use_right_after: bool | None = None  # None: on, except with loose keys and draw > 1 (``for_variant``)
    walled_in_check: bool = True
    waste_dominance: bool = True
    safe_talon_end: bool = True

    def for_variant(self, variant: Variant, parents_interchangeable: bool = False) -> SolverOptions:
        """The options that are sound for this variant (``parents_interchangeable``: may its keys be loose,
        ``tables.RuleTables.parents_interchangeable``).

        With ``draw_only_when_stuck`` (a draw or recycle is legal only when no move that makes progress is),
        playing a card up early uncovers the card below it, and putting a preparing move off leaves other cards
        where they were: either can create a progress move that makes a later draw illegal, so the proofs of
        safe foundation moves and of preparing moves do not hold, and those ideas are turned off.

        Left at None, ``use_right_after`` is on, except with loose keys (``loose_columns``, where the rules
        allow them) and draw > 1: a restricted state keeps its columns in its key, so restricted states merge
        far less than full ones (with draw 3 most states entered are restricted). The measurements behind this
        choice: ``benchmarks/RESULTS.md`` ("The solver's pruning ideas").
        """
        if draw_only_when_stuck(variant):
            return replace(self, safe_foundation_moves=False, skip_useless_preparations=False,
                           use_right_after=False)
        if self.use_right_after is None:
            loose = self.loose_columns and self.columns_as_a_set and parents_interchangeable
            return replace(self, use_right_after=not (loose and variant.draw > 1))
        return self


def draw_only_when_stuck(variant: Variant) -> bool:
    """Does the variant allow a draw or recycle only when no move that makes progress is legal?"""
    return bool(variant.draw_only_when_stuck)
