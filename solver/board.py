"""The board model and its text form.

One character per cell, one line per row, column ``x`` and row ``y`` counted from 0 at the top
left:

====  =========================================================
``.``  covered
``?``  covered, marked with a question mark (the solver treats it as covered)
``0``-``8``  revealed number
``F``  flag (counted as a mine: the solver trusts the player's flags)
``*``  mine shown (after a loss)
``X``  the exploded mine
``W``  wrong flag (shown after a loss: a flag on a cell that is not a mine)
====  =========================================================

>>> board = Board("1.\\n..")
>>> board.width, board.height
(2, 2)
>>> board[1, 0]
'.'
>>> str(board)
'1.\\n..'
>>> Board(str(board)) == board
True
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from solver.errors import BoardFormatError

COVERED = "."
QUESTION = "?"
FLAG = "F"
MINE = "*"
EXPLODED = "X"
WRONG_FLAG = "W"
NUMBERS = "012345678"

#: Every character of the text form.
CELL_CHARS = frozenset(NUMBERS + COVERED + QUESTION + FLAG + MINE + EXPLODED + WRONG_FLAG)
#: Cells whose content the player does not know.
COVERED_CHARS = frozenset(COVERED + QUESTION)
#: Cells that count as mines for the solver.
MINE_CHARS = frozenset(FLAG + MINE + EXPLODED)

Position = tuple[int, int]


class Board:
    """A rectangular Minesweeper board, as a player sees it.

    Build it from its text form (``Board(text)``) or as a fresh covered board
    (``Board.covered(width, height)``). ``str(board)`` gives the text form back, exactly.
    Cells are read and written with ``board[x, y]``.

    >>> b = Board.covered(3, 2)
    >>> b[0, 1] = "1"
    >>> b[2, 0] = "F"
    >>> print(b)
    ..F
    1..
    """

    __slots__ = ("width", "height", "_cells")

    def __init__(self, text: str) -> None:
        rows = [line.strip() for line in text.strip().splitlines()]
        if not rows or not rows[0]:
            raise BoardFormatError("empty board: expected at least one row of cells")
        width = len(rows[0])
        for y, row in enumerate(rows):
            if len(row) != width:
                raise BoardFormatError(
                    f"ragged rows: row {y} has {len(row)} cells, row 0 has {width}"
                )
            for x, ch in enumerate(row):
                if ch not in CELL_CHARS:
                    raise BoardFormatError(
                        f"unknown character {ch!r} at x={x}, y={y} (allowed: . ? 0-8 F * X W)"
                    )
        self.width = width
        self.height = len(rows)
        self._cells = [ch for row in rows for ch in row]
        self._check_numbers()

    @classmethod
    def covered(cls, width: int, height: int) -> Board:
        """A board of ``width`` x ``height`` covered cells."""
        if width < 1 or height < 1:
            raise BoardFormatError(f"a board needs at least one cell, got {width}x{height}")
        return cls("\n".join(COVERED * width for _ in range(height)))

    @classmethod
    def from_cells(cls, cells: list[str] | tuple[str, ...], width: int, height: int) -> Board:
        """A board from its cells row by row (index ``y * width + x``), as simulators keep them.

        >>> print(Board.from_cells(list("1..F"), 2, 2))
        1.
        .F
        """
        if width < 1 or height < 1 or len(cells) != width * height:
            raise BoardFormatError(f"{len(cells)} cells do not make a {width}x{height} board")
        present = set(cells)
        if present - CELL_CHARS:
            raise BoardFormatError(f"unknown characters {sorted(present - CELL_CHARS)}")
        board = cls.__new__(cls)
        board.width, board.height, board._cells = width, height, list(cells)
        board._check_numbers(present)
        return board

    def _check_numbers(self, present: set[str] | None = None) -> None:
        present = set(self._cells) if present is None else present
        if self.width >= 2 and self.height >= 2 and not present & set("45678"):
            return  # every cell has at least 3 neighbours: numbers up to 3 always fit
        table = neighbour_table(self.width, self.height)
        cells = self._cells
        # Only a cell with fewer than 8 neighbours (on the board's edge) can hold a number too
        # large for it; they are looked at in board order, so the first found is the same.
        for i in short_of_neighbours(self.width, self.height):
            ch = cells[i]
            if ch in NUMBERS and int(ch) > len(table[i]):
                raise BoardFormatError(
                    f"number {ch} at x={i % self.width}, y={i // self.width} is larger than "
                    f"its {len(table[i])} neighbours"
                )

    # -- access -------------------------------------------------------------------------------

    def __getitem__(self, pos: Position) -> str:
        x, y = pos
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError(f"cell x={x}, y={y} is outside the {self.width}x{self.height} board")
        return self._cells[y * self.width + x]

    def __setitem__(self, pos: Position, ch: str) -> None:
        x, y = pos
        if ch not in CELL_CHARS:
            raise BoardFormatError(f"unknown character {ch!r}")
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError(f"cell x={x}, y={y} is outside the {self.width}x{self.height} board")
        self._cells[y * self.width + x] = ch

    def items(self) -> Iterator[tuple[Position, str]]:
        """Every ``((x, y), char)``, row by row."""
        w = self.width
        for i, ch in enumerate(self._cells):
            yield (i % w, i // w), ch

    def neighbours(self, x: int, y: int) -> list[Position]:
        """The up to 8 cells around ``(x, y)``."""
        return [
            (nx, ny)
            for ny in range(max(0, y - 1), min(self.height, y + 2))
            for nx in range(max(0, x - 1), min(self.width, x + 2))
            if (nx, ny) != (x, y)
        ]

    def cells_of(self, chars: str | frozenset[str]) -> list[Position]:
        """Positions of every cell whose character is in ``chars``."""
        return [pos for pos, ch in self.items() if ch in chars]

    def covered_cells(self) -> list[Position]:
        """Cells the player has not opened (``.`` and ``?``)."""
        return self.cells_of(COVERED_CHARS)

    def known_mines(self) -> int:
        """Flags, shown mines and the exploded mine: cells the solver counts as mines."""
        return sum(ch in MINE_CHARS for ch in self._cells)

    def flat(self) -> list[str]:
        """Every cell's character, row by row (a copy: index ``y * width + x``)."""
        return list(self._cells)

    @property
    def rows(self) -> list[str]:
        """The text form's rows."""
        w = self.width
        return ["".join(self._cells[y * w : (y + 1) * w]) for y in range(self.height)]

    # -- values -------------------------------------------------------------------------------

    def copy(self) -> Board:
        clone = Board.__new__(Board)
        clone.width, clone.height, clone._cells = self.width, self.height, list(self._cells)
        return clone

    def __str__(self) -> str:
        return "\n".join(self.rows)

    def __repr__(self) -> str:
        return f"Board({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Board)
            and (self.width, self.height) == (other.width, other.height)
            and self._cells == other._cells
        )

    def __hash__(self) -> int:
        return hash((self.width, self.height, "".join(self._cells)))

    def differences(self, other: Board) -> list[tuple[Position, str, str]]:
        """Cells where two boards of the same size differ: ``((x, y), mine, theirs)``."""
        if (self.width, self.height) != (other.width, other.height):
            raise BoardFormatError(
                f"boards differ in size: {self.width}x{self.height} vs {other.width}x{other.height}"
            )
        return [
            (pos, a, b) for (pos, a), b in zip(self.items(), other._cells, strict=True) if a != b
        ]


@lru_cache(maxsize=16)
def neighbour_table(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """Flat indices (``y * width + x``) of each cell's up to 8 neighbours, cell by cell.

    A pure function of the size, cached: the solver and the simulator look neighbours up in it.

    >>> neighbour_table(2, 2)[0]
    (1, 2, 3)
    """
    return tuple(
        tuple(
            ny * width + nx
            for ny in range(max(0, y - 1), min(height, y + 2))
            for nx in range(max(0, x - 1), min(width, x + 2))
            if (nx, ny) != (x, y)
        )
        for y in range(height)
        for x in range(width)
    )


@lru_cache(maxsize=16)
def short_of_neighbours(width: int, height: int) -> tuple[int, ...]:
    """Flat indices, in order, of the cells with fewer than 8 neighbours (the board's edge).

    >>> short_of_neighbours(3, 3)
    (0, 1, 2, 3, 5, 6, 7, 8)
    """
    table = neighbour_table(width, height)
    return tuple(i for i, around in enumerate(table) if len(around) < 8)


def read_board(path: str) -> Board:
    """Read a board from a text file; the error names the file."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise BoardFormatError(f"{path}: cannot read: {exc.strerror}") from exc
    try:
        return Board(text)
    except BoardFormatError as exc:
        raise BoardFormatError(f"{path}: {exc}") from exc
