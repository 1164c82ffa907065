"""minebot's solver: the board model, exact mine probabilities and move choice.

Knows nothing of screens; numpy at most.
"""

from solver.board import Board, read_board
from solver.errors import BoardFormatError, ContradictionError, MinebotError

__all__ = ["Board", "read_board", "BoardFormatError", "ContradictionError", "MinebotError"]
