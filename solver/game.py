"""A seeded Minesweeper game, for benchmarks and tests.

The game keeps the mine layout to itself and shows the player a solver :class:`~solver.board.Board`
(``game.board``), exactly as a real window would after each click.

>>> game = Game(9, 9, 10, rules="classic", seed=1)
>>> game.state
'playing'
>>> revealed = game.open(0, 0)  # classic rules: the first click is never a mine
>>> game.state in ("playing", "won")
True
>>> game.board[0, 0] in "012345678"
True
>>> Game(9, 9, 10, seed=1).open(0, 0) == revealed  # same seed, same game
True

Rules say where mines may be placed:

* ``classic``: mines are placed at the first click, never on the clicked cell (Windows XP and most
  clones, and the benchmark condition of the best published win rates).
* ``opening``: the clicked cell and its neighbours are kept free, so the first click always opens
  an area (Minesweeper Arbiter, minesweeper.online, GNOME Mines, sgt-mines).
* ``unsafe``: mines are placed when the game is created; the first click may lose (PGMS).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from solver.board import COVERED, EXPLODED, FLAG, MINE, WRONG_FLAG, Board, neighbour_table
from solver.errors import MinebotError

Position = tuple[int, int]

RULES = ("classic", "opening", "unsafe")
FIRST_CLICKS = ("corner", "edge", "center", "random")


class GameError(MinebotError, ValueError):
    """A game that cannot be set up (too many mines, unknown rules, a click off the board)."""


@dataclass(frozen=True)
class Level:
    """A board size and mine count."""

    width: int
    height: int
    mines: int


#: The classic Windows levels.
LEVELS: dict[str, Level] = {
    "beginner": Level(9, 9, 10),
    "intermediate": Level(16, 16, 40),
    "expert": Level(30, 16, 99),
}


def first_click_position(spec: str, width: int, height: int, rng: random.Random) -> Position:
    """Where the first click goes: ``corner``, ``edge``, ``center``, ``random`` or ``"x,y"``.

    ``edge`` is the middle of the top edge; ``center`` rounds down. ``rng`` is used only by
    ``random``.

    >>> rng = random.Random(0)
    >>> first_click_position("corner", 30, 16, rng), first_click_position("center", 30, 16, rng)
    ((0, 0), (15, 8))
    >>> first_click_position("edge", 30, 16, rng), first_click_position("3,3", 30, 16, rng)
    ((15, 0), (3, 3))
    """
    if spec == "corner":
        return (0, 0)
    if spec == "edge":
        return (width // 2, 0)
    if spec == "center":
        return (width // 2, height // 2)
    if spec == "random":
        return (rng.randrange(width), rng.randrange(height))
    try:
        x_text, y_text = spec.split(",")
        x, y = int(x_text), int(y_text)
    except ValueError:
        raise GameError(
            f"unknown first click {spec!r}: expected corner, edge, center, random or x,y"
        ) from None
    if not (0 <= x < width and 0 <= y < height):
        raise GameError(f"first click x={x}, y={y} is outside the {width}x{height} board")
    return (x, y)


class Game:
    """One game of Minesweeper with a hidden, seeded mine layout.

    ``open(x, y)`` reveals a cell (and the whole area around a zero), ``flag(x, y)`` toggles a
    flag; ``board`` is the player's view, ``state`` is ``'playing'``, ``'won'`` or ``'lost'``.
    """

    def __init__(
        self,
        width: int,
        height: int,
        mines: int,
        rules: str = "classic",
        seed: int | None = None,
    ) -> None:
        if width < 1 or height < 1:
            raise GameError(f"a board needs at least one cell, got {width}x{height}")
        if rules not in RULES:
            raise GameError(f"unknown rules {rules!r}: expected one of {', '.join(RULES)}")
        # The largest number of cells a first click may have to keep free.
        kept_free = {"classic": 1, "opening": min(9, width * height), "unsafe": 0}[rules]
        if mines < 0 or mines > width * height - kept_free:
            raise GameError(
                f"{mines} mines do not fit on a {width}x{height} board with {rules} rules "
                f"(at most {width * height - kept_free})"
            )
        self.width, self.height, self.mines, self.rules = width, height, mines, rules
        self.rng = random.Random(seed)
        self._neighbours = neighbour_table(width, height)
        self._mine: list[bool] | None = None
        self._count: list[int] = []
        self._view = Board.covered(width, height)
        self._cells = self._view._cells  # flat list of the player's view, updated in place
        self._covered_safe = width * height - mines
        self._flags = 0
        self.state = "playing"
        self.clicks = 0
        if rules == "unsafe":
            self._place_mines(excluded=())

    @classmethod
    def from_layout(cls, text: str) -> Game:
        """A game with a fixed layout: ``*`` mines, any other cell character free.

        >>> game = Game.from_layout("*..\\n...")
        >>> sorted(game.open(2, 1))  # a zero: its area opens
        [(1, 0), (1, 1), (2, 0), (2, 1)]
        >>> print(game.board)
        .10
        .10
        >>> game.open(0, 1), game.state
        ([(0, 1)], 'won')
        >>> print(game.board)
        F10
        110
        """
        rows = [line.strip() for line in text.strip().splitlines()]
        if not rows or any(len(row) != len(rows[0]) for row in rows):
            raise GameError("a layout needs rows of equal length")
        layout = [ch == MINE for row in rows for ch in row]
        game = cls(len(rows[0]), len(rows), sum(layout), rules="unsafe", seed=0)
        game._set_layout(layout)
        return game

    # -- set-up -------------------------------------------------------------------------------

    def _place_mines(self, excluded: tuple[int, ...] | list[int]) -> None:
        banned = set(excluded)
        free = [i for i in range(self.width * self.height) if i not in banned]
        chosen = set(self.rng.sample(free, self.mines))
        self._set_layout([i in chosen for i in range(self.width * self.height)])

    def _set_layout(self, layout: list[bool]) -> None:
        self._mine = layout
        self._count = [sum(layout[j] for j in nbrs) for nbrs in self._neighbours]

    # -- player actions -----------------------------------------------------------------------

    def _index(self, x: int, y: int) -> int:
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise GameError(f"cell x={x}, y={y} is outside the {self.width}x{self.height} board")
        return y * self.width + x

    def open(self, x: int, y: int) -> list[Position]:
        """Reveal ``(x, y)``; returns the cells revealed (in reveal order).

        A zero reveals its neighbours, and so on, as real games do. Opening a flagged or
        already revealed cell, or any cell once the game is over, does nothing.
        """
        i = self._index(x, y)
        if self.state != "playing" or self._cells[i] != COVERED:
            return []
        self.clicks += 1
        if self._mine is None:
            excluded = [i] if self.rules == "classic" else [i, *self._neighbours[i]]
            self._place_mines(excluded)
        assert self._mine is not None
        if self._mine[i]:
            self._lose(i)
            return [(x, y)]
        revealed = self._reveal_area(i)
        if self._covered_safe == 0:
            self._win()
        w = self.width
        return [(j % w, j // w) for j in revealed]

    def _reveal_area(self, start: int) -> list[int]:
        cells, count, nbrs = self._cells, self._count, self._neighbours
        revealed = []
        stack = [start]
        while stack:
            j = stack.pop()
            if cells[j] != COVERED:
                continue
            cells[j] = str(count[j])
            revealed.append(j)
            if count[j] == 0:
                stack.extend(k for k in nbrs[j] if cells[k] == COVERED)
        self._covered_safe -= len(revealed)
        return revealed

    def flag(self, x: int, y: int) -> None:
        """Toggle a flag on a covered cell (no effect on revealed cells or after the game)."""
        i = self._index(x, y)
        if self.state != "playing":
            return
        if self._cells[i] == COVERED:
            self._cells[i] = FLAG
            self._flags += 1
        elif self._cells[i] == FLAG:
            self._cells[i] = COVERED
            self._flags -= 1

    def _lose(self, exploded: int) -> None:
        assert self._mine is not None
        self.state = "lost"
        cells = self._cells
        for j, is_mine in enumerate(self._mine):
            if is_mine and cells[j] == COVERED:
                cells[j] = MINE
            elif not is_mine and cells[j] == FLAG:
                cells[j] = WRONG_FLAG
        cells[exploded] = EXPLODED

    def _win(self) -> None:
        # Real games flag every remaining mine on a win.
        assert self._mine is not None
        self.state = "won"
        for j, is_mine in enumerate(self._mine):
            if is_mine and self._cells[j] == COVERED:
                self._cells[j] = FLAG
                self._flags += 1

    # -- what the player sees -----------------------------------------------------------------

    @property
    def board(self) -> Board:
        """The player's view, as a new :class:`Board` (changing it does not change the game)."""
        return self._view.copy()

    @property
    def cells(self) -> tuple[str, ...]:
        """The player's view as a flat tuple of characters, index ``y * width + x`` (cheap)."""
        return tuple(self._cells)

    @property
    def mines_left(self) -> int:
        """Mines minus flags, as the game's counter shows it."""
        return self.mines - self._flags

    @property
    def started(self) -> bool:
        """Whether the mines have been placed."""
        return self._mine is not None

    def is_mine(self, x: int, y: int) -> bool:
        """Whether ``(x, y)`` holds a mine (for tests and post-mortems; a player must not ask).

        Raises :class:`GameError` before the mines are placed.
        """
        i = self._index(x, y)
        if self._mine is None:
            raise GameError("the mines are placed at the first click")
        return self._mine[i]

    def __repr__(self) -> str:
        return (
            f"Game({self.width}, {self.height}, {self.mines}, rules={self.rules!r}) "
            f"state={self.state!r}"
        )
