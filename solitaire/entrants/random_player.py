"""The kit's random player as a tournament entrant (its own seeded generator, so its games can be replayed)."""
from solitaire.players import RandomStrategy

strategy = RandomStrategy(seed=2026)
