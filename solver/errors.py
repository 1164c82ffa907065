"""Every exception the solver raises, in one place.

All derive from :class:`MinebotError`, so a caller (the CLI, the live bot) can catch one type and
print its message.
"""

from __future__ import annotations


class MinebotError(Exception):
    """Base class of every error minebot raises on purpose."""


class BoardFormatError(MinebotError, ValueError):
    """The text of a board is malformed (ragged rows, unknown characters, impossible numbers)."""


class ContradictionError(MinebotError, ValueError):
    """No mine layout satisfies the board.

    ``cells`` lists the ``(x, y)`` positions of the numbers (or the flag count) that cannot all
    hold at once; it may be empty when the conflict is with the total mine count alone.
    """

    def __init__(self, message: str, cells: tuple[tuple[int, int], ...] = ()) -> None:
        super().__init__(message)
        self.cells = cells
