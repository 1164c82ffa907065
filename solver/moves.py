"""One move for one position: what ``minebot solve`` prints and the live bot clicks.

>>> from solver.board import Board
>>> choose_move(Board("1.\\n.."), mines=1, strategy="min-risk", rng=random.Random(0)).p_mine
0.3333333333333333
>>> choose_move(Board("11.\\n..."), mines=1)  # the mine is under both 1s: (2, x) are safe
Move(action='open', x=2, y=0, p_mine=0.0)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from solver.board import Board
from solver.errors import MinebotError

if TYPE_CHECKING:
    from solver.probability import Analysis


@dataclass(frozen=True)
class Move:
    """Open or flag the cell ``(x, y)``; ``p_mine`` is its mine probability (0.0: certain safe).

    >>> Move("open", 3, 4, 0.25)
    Move(action='open', x=3, y=4, p_mine=0.25)
    """

    action: str
    x: int
    y: int
    p_mine: float
    #: For a guess, the rule that chose it (:data:`solver.policy.GUESS_RULES`); not compared.
    why: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.action not in ("open", "flag"):
            raise ValueError(f"a move opens or flags, not {self.action!r}")

    @property
    def is_guess(self) -> bool:
        """An open that may hit a mine."""
        return self.action == "open" and self.p_mine > 0.0


def choose_move(
    board: Board,
    mines: int,
    strategy: str = "best",
    rng: random.Random | None = None,
    analysis: Analysis | None = None,
) -> Move:
    """The next cell to open on ``board`` (``mines`` in total, flags included).

    A certainly safe cell if there is one, else the strategy's guess. Never a flag: a live
    player gains nothing from flagging, and the solver counts its own certain mines.
    ``analysis``, the board's :func:`~solver.probability.mine_probabilities` when the caller
    already has it, saves analysing the board again for a safe cell (the first in row order).
    Raises :class:`~solver.errors.ContradictionError` if the board cannot be right, and
    :class:`~solver.errors.MinebotError` if no cell is left to open.

    >>> from solver.probability import mine_probabilities
    >>> board = Board("11.\\n...")
    >>> choose_move(board, 1, analysis=mine_probabilities(board, 1))
    Move(action='open', x=2, y=0, p_mine=0.0)
    """
    from solver.policy import plan_moves

    # Not for pgms: the baseline opens only the safe cells its own rules find.
    if analysis is not None and analysis.safe and strategy != "pgms":
        x, y = min(analysis.safe, key=lambda cell: (cell[1], cell[0]))
        return Move("open", x, y, 0.0)

    moves = plan_moves(board, mines, strategy=strategy, rng=rng or random.Random())
    for move in moves:
        if move.action == "open":
            return move
    raise MinebotError("no cell is left to open: every covered cell is a mine")
