"""What the loop plans on a board it read: the clicks (every proven-safe cell, else one guess),
the first click a game's rules favour, and the guard against clicking a cell twice.

Nothing here looks at a screen: a :class:`solver.board.Board` in, cells out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bot.errors import PlayError
from bot.reading.shown import zeros_beside_covered as zeros_in
from solver.board import COVERED, NUMBERS, QUESTION, Board
from solver.position import estimated_mines

Position = tuple[int, int]


@dataclass(frozen=True)
class PlannedClick:
    """One cell to open, with the solver's mine probability for it (0.0: proven safe)."""

    x: int
    y: int
    p_mine: float


class ClickLedger:
    """Remembers the cells clicked since the screen last changed; a second click is refused.

    >>> ledger = ClickLedger()
    >>> ledger.record(3, 4)
    >>> try:
    ...     ledger.record(3, 4)
    ... except PlayError as exc:
    ...     print(exc)
    cell (3, 4) was already clicked and the screen has not changed since: stopping
    >>> ledger.screen_changed(); ledger.record(3, 4)
    """

    def __init__(self) -> None:
        self._clicked: set[Position] = set()

    def check(self, x: int, y: int) -> None:
        if (x, y) in self._clicked:
            raise PlayError(
                f"cell ({x}, {y}) was already clicked and the screen has not changed since: "
                "stopping"
            )

    def record(self, x: int, y: int) -> None:
        self.check(x, y)
        self._clicked.add((x, y))

    def screen_changed(self) -> None:
        self._clicked.clear()


def plan_clicks(board: Board, mines: int, choose_move: Callable[..., Any] | None = None,
                probabilities: Callable[..., Any] | None = None) -> list[PlannedClick]:  # fmt: skip
    """The cells to open next: all proven-safe cells, else the policy's single best guess.

    Raises :class:`solver.errors.ContradictionError` when the board has no solution.

    >>> plan_clicks(Board("01.\\n01.\\n01."), mines=1)
    [PlannedClick(x=2, y=0, p_mine=0.0), PlannedClick(x=2, y=2, p_mine=0.0)]
    """
    from solver.moves import choose_move as default_move
    from solver.probability import mine_probabilities

    analysis = (probabilities or mine_probabilities)(board, mines)
    if analysis.safe:
        return [PlannedClick(x, y, 0.0) for x, y in sorted(analysis.safe, key=lambda p: p[::-1])]
    move = (choose_move or default_move)(board, mines)
    if move.action != "open":
        # Flags are never needed to win; a policy that wants one gets the least risky cell.
        risk = analysis.probabilities
        x, y = min(risk, key=lambda p: (risk[p], p[::-1]))
        return [PlannedClick(x, y, float(risk[(x, y)]))]
    p = analysis.probability(move.x, move.y)
    return [PlannedClick(move.x, move.y, float(p if p is not None else move.p_mine))]


#: Where the first click goes under ``opening`` rules, from the top-left corner: far enough
#: from the edges that the guaranteed area touches the most unknown cells (it wins more than a
#: corner: ``minebot bench --rules opening --first-click 3,3`` against ``--first-click corner``).
OPENING_FIRST_CLICK = (3, 3)


def first_click(rules: str | None, width: int, height: int, mines: int) -> PlannedClick:
    """The cell to open on a blank board, the one that wins most under the game's first-click
    ``rules`` (:data:`FIRST_CLICK_RULES`; None: unknown), with its mine probability.

    Under ``opening`` rules :data:`OPENING_FIRST_CLICK`, moved towards the middle on boards too
    small for it; otherwise a corner, the cell most likely to be a zero (fewest neighbours).

    >>> first_click("opening", 30, 16, 99), first_click("opening", 5, 4, 3)
    (PlannedClick(x=3, y=3, p_mine=0.0), PlannedClick(x=2, y=1, p_mine=0.0))
    >>> first_click("classic", 30, 16, 99), first_click(None, 8, 8, 16)
    (PlannedClick(x=0, y=0, p_mine=0.0), PlannedClick(x=0, y=0, p_mine=0.25))
    """
    if rules == "opening":
        x, y = OPENING_FIRST_CLICK
        return PlannedClick(min(x, (width - 1) // 2), min(y, (height - 1) // 2), 0.0)
    p_mine = 0.0 if rules == "classic" else mines / (width * height)
    return PlannedClick(0, 0, p_mine)


def is_blank(board: Board) -> bool:
    """True when no cell of ``board`` is open, flagged or marked (a game not started yet).

    >>> is_blank(Board("..\\n..")), is_blank(Board(".F\\n.."))
    (True, False)
    """
    return all(ch == COVERED for _, ch in board.items())


def inconsistent_cells(before: Board, after: Board) -> list[Position]:
    """Revealed numbers of ``before`` that show something else in ``after`` (a misread: a
    revealed cell never changes while a game runs).

    >>> inconsistent_cells(Board("1.\\n.."), Board("12\\n.."))
    []
    >>> inconsistent_cells(Board("1.\\n.."), Board("2.\\n.."))
    [(0, 0)]
    """
    if (before.width, before.height) != (after.width, after.height):
        return [(0, 0)]
    return [
        (x, y)
        for y in range(before.height)
        for x in range(before.width)
        if before[x, y] in NUMBERS and after[x, y] != before[x, y]
    ]


def zeros_beside_covered(board: Board, before: Board | None = None) -> list[Position]:
    """Cells showing 0 with a covered neighbour (only those covered on ``before``, when given):
    a game opens every cell around a 0 at once, so a cell caught still held down (most games
    draw it like an opened empty cell: KMines, under load, showed one before it took the
    button's release), or a misread. Planning on it would take the cells around it for safe.

    >>> zeros_beside_covered(Board("01.\\n01.")), zeros_beside_covered(Board("0..\\n1.."))
    ([], [(0, 0)])
    >>> zeros_beside_covered(Board("0..\\n1.."), before=Board("0..\\n..."))
    []
    """
    chars = np.array([list(row) for row in board.rows])
    return [(x, y) for x, y in zeros_in(chars) if before is None or before[x, y] == COVERED]


def reading_doubt(located: Any, previous: Board | None, board: Board) -> str:
    """Why ``board``, read while a game runs after ``previous`` (the board last acted on) on
    the board ``located``, cannot be what the game shows ("" when nothing says so): a revealed
    cell that changed, or a cell opened since as a 0 beside a covered cell (where the skin's
    game opens every cell round a 0 at once, as most do).

    >>> reading_doubt(None, Board("1.\\n.."), Board("2.\\n.."))
    'revealed cells changed between two readings (a misread): (0, 0)'
    >>> reading_doubt(None, Board("1.\\n.."), Board("10\\n.."))
    'a 0 beside covered cells (a cell still pressed, or a misread): (1, 0)'
    >>> reading_doubt(None, None, Board("0.\\n.."))
    ''
    >>> from types import SimpleNamespace as S
    >>> reading_doubt(S(skin=S(opens_round_zeros=False)), Board("1.\\n.."), Board("10\\n.."))
    ''
    """
    if previous is None:
        return ""
    changed = inconsistent_cells(previous, board)
    if changed:
        cells = ", ".join(f"({x}, {y})" for x, y in changed[:8])
        return f"revealed cells changed between two readings (a misread): {cells}"
    opens = bool(getattr(getattr(located, "skin", None), "opens_round_zeros", True))
    zeros = zeros_beside_covered(board, previous) if opens else []
    if zeros:
        cells = ", ".join(f"({x}, {y})" for x, y in zeros[:8])
        return f"a 0 beside covered cells (a cell still pressed, or a misread): {cells}"
    return ""


def unopened(board: Board, batch: Sequence[PlannedClick], reading: Any = None) -> bool:
    """True when a cell of ``batch`` still shows covered (or question-marked) on ``board``;
    the cells of an unknown class of ``reading`` (shown covered on its board) are open.

    >>> board = Board("1.\\n..")
    >>> unopened(board, [PlannedClick(0, 0, 0.0)]), unopened(board, [PlannedClick(1, 0, 0.0)])
    (False, True)
    >>> from types import SimpleNamespace
    >>> unopened(board, [PlannedClick(1, 0, 0.0)], SimpleNamespace(unknown=((1, 0),)))
    False
    """
    opened = set(getattr(reading, "unknown", ()))
    return any(board[c.x, c.y] in (COVERED, QUESTION) for c in batch if (c.x, c.y) not in opened)


def least_risky_elsewhere(
    board: Board, mines: int, unknown: Iterable[Position]
) -> list[PlannedClick]:
    """When the solver's only moves are cells the bot cannot click (``unknown``: of a class the
    skin lacks; or under the player's flags): the covered cell least likely to be a mine among
    the others, as a one-click plan ([] if none).

    >>> least_risky_elsewhere(Board("1.\\n.."), 1, [(1, 0)])
    [PlannedClick(x=0, y=1, p_mine=0.3333333333333333)]
    """
    from solver.probability import mine_probabilities

    skip = set(unknown)
    analysis = mine_probabilities(board, mines)
    cells = [p for p in analysis.covered if p not in skip]
    if not cells:
        return []
    risk = analysis.probabilities
    x, y = min(cells, key=lambda p: (risk[p], p[::-1]))
    return [PlannedClick(x, y, float(risk[(x, y)]))]


def plan_despite_flags(
    board: Board, mines: int, plan: Callable[[Board, int], list[PlannedClick]]
) -> tuple[list[PlannedClick], str]:
    """The clicks on a board whose player's flags contradict its numbers (people misflag), and
    a line naming the wrong flag(s): planned on the board without the player's flags
    (:func:`solver.position.analyse_position`), never on a flagged cell (a game ignores a click
    there). Raises :class:`solver.errors.ContradictionError` when the numbers themselves do
    not fit (a misread), and :class:`PlayError` when the only safe cells are under the flags.

    >>> clicks, note = plan_despite_flags(Board("F0..\\n...."), 1, plan_clicks)
    >>> [(c.x, c.y) for c in clicks], note.split(" contradicts")[0]
    ([(2, 0), (0, 1), (1, 1), (2, 1)], 'the flag at (0, 0)')
    """
    from solver.board import FLAG
    from solver.position import analyse_position

    checked = analyse_position(board, mines)
    flagged = {p for p, ch in board.items() if ch == FLAG}
    planned = plan(checked.board, mines)
    clicks = [c for c in planned if (c.x, c.y) not in flagged]
    if not clicks and planned and planned[0].p_mine == 0.0:
        cells = ", ".join(f"({c.x}, {c.y})" for c in planned)
        raise PlayError(
            f"{checked.note}; the only cells proven safe are under the player's flags at "
            f"{cells}: remove those flags, nothing clicked"
        )
    if not clicks:
        clicks = least_risky_elsewhere(checked.board, mines, flagged)
    return clicks, checked.note


def known_mines(reading: Any, given: int | None, skin: Any) -> int | None:
    """The board's mine count: ``given`` (``--mines``), else the one the screen shows, else
    the skin's standard level of the board's size (a reading made of the cells that read, with
    a message over part of the board, has no count of its own); None when nothing says.

    >>> from types import SimpleNamespace
    >>> from bot.reading.skins import find_skin
    >>> board = SimpleNamespace(width=30, height=16)
    >>> known_mines(SimpleNamespace(mines=None, board=board), None, find_skin("winmine"))
    99
    >>> known_mines(SimpleNamespace(mines=None, board=board), None, None) is None
    True
    """
    if given is not None:
        return given
    if getattr(reading, "mines", None) is not None:
        return int(reading.mines)
    level = getattr(skin, "level_mines", None)
    mines = None if level is None else level(reading.board.width, reading.board.height)
    return None if mines is None else int(mines)


def assumed_mines(board: Board) -> tuple[int, str]:
    """The mine count to assume when nothing says it (:func:`solver.position.estimated_mines`:
    the usual level's for its size, else a share of the cells), and the warning that says so.
    A wrong count stops the game at its end (the numbers then need fewer or more mines than
    are left): 41 for Wine's Minesweeper's intermediate 40 stopped a run.

    >>> assumed_mines(Board("\\n".join(["." * 30] * 16)))[0]
    99
    >>> assumed_mines(Board("\\n".join(["." * 16] * 16)))[1]
    'warning: the mine count is not shown and not given (--mines): assuming 40 for a 16x16 board'
    """
    mines = estimated_mines(board)
    return mines, (
        "warning: the mine count is not shown and not given (--mines): "
        f"assuming {mines} for a {board.width}x{board.height} board"
    )
