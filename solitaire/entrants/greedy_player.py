"""The kit's greedy player as a tournament entrant: the form of an entrant file that defines ``strategy``."""
from solitaire.players import GreedyStrategy

strategy = GreedyStrategy()
