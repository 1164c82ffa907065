"""A position as the player left it: the analysis, with the player's flags checked first.

People misflag. The solver counts a flag as a mine, so one wrong flag can make a position with
perfectly good numbers look impossible. :func:`analyse_position` trusts the flags while they fit
the numbers; when they do not, it names the flag(s) to blame and solves the position without the
player's flags (the numbers are what the game itself shows).

Naming is exact: the culprits are every smallest set of flags whose removal makes the position
consistent. Two facts keep the search small. With every flag taken off (covered again), a flag
whose cell the numbers prove safe is in every such set, and a flag whose cell they prove a mine is
in none; only the flags in between are tried, in sets of growing size.

>>> from solver.board import Board
>>> checked = analyse_position(Board("F0..\\n...."), mines=1)  # a flag beside a 0
>>> checked.wrong_flags, checked.dropped
(((0, 0),), ((0, 0),))
>>> print(checked.note.replace("; ", ";\\n"))
the flag at (0, 0) contradicts the numbers (they prove its cell safe);
solved without the player's flag
>>> analyse_position(Board("1F\\n.."), mines=1).dropped  # a flag that fits is kept
()
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from solver.board import COVERED, FLAG, Board, Position
from solver.constraints import board_constraints
from solver.errors import ContradictionError
from solver.game import LEVELS
from solver.polynomials import mine_bounds, trim
from solver.probability import Analysis, count_components, mine_probabilities

#: Most analyses spent looking for the smallest sets of wrong flags (each one about a
#: millisecond on an expert board); past it the culprits are given as a superset, said so.
MAX_TRIALS = 1000

#: The mine counts of the usual levels by board size: Windows' three, and the 8x8 of 10 of
#: Windows 3.1's Minesweeper and its clones.
USUAL_MINES = {(level.width, level.height): level.mines for level in LEVELS.values()} | {(8, 8): 10}

#: The share of the cells assumed mined on a board of no usual size (between intermediate's
#: 15.6 % and expert's 20.6 %).
ESTIMATED_DENSITY = 0.18


@dataclass(frozen=True)
class PositionAnalysis:
    """The analysis of a position, and what became of the player's flags.

    ``board`` is the board that was analysed: the player's, or the player's without its flags
    (``dropped`` lists them; empty when every flag fit). ``culprits`` lists the alternatives:
    each is a smallest set of flags whose removal makes the numbers consistent (one set: those
    flags are wrong; several: one of the sets is). ``proven_safe`` are flags on cells the numbers
    alone prove safe. ``complete`` is False when the search gave up before the smallest sets;
    ``culprits`` then holds one set that certainly contains a wrong flag.
    """

    board: Board
    analysis: Analysis
    dropped: tuple[Position, ...] = ()
    culprits: tuple[tuple[Position, ...], ...] = ()
    proven_safe: tuple[Position, ...] = ()
    complete: bool = True

    @property
    def wrong_flags(self) -> tuple[Position, ...]:
        """The flags that are certainly wrong: in every smallest set (with one set, all of it).

        >>> from solver.board import Board
        >>> analyse_position(Board("1..\\nFF."), mines=1).wrong_flags  # either flag, not both
        ()
        """
        if not self.culprits or not self.complete:
            return self.proven_safe
        common = set(self.culprits[0]).intersection(*self.culprits[1:])
        return tuple(sorted(common, key=_row_major))

    @property
    def won(self) -> bool:
        """Every covered cell is a mine (or none is left): all safe cells are open.

        >>> from solver.board import Board
        >>> analyse_position(Board("1."), 1).won, analyse_position(Board("1F"), 1).won
        (True, True)
        >>> analyse_position(Board("1.\\n.."), 1).won
        False
        """
        a = self.analysis
        return len(a.mines_certain) == len(a.covered)

    @property
    def note(self) -> str:
        """One sentence on the dropped flags ('' when none was)."""
        if not self.dropped:
            return ""
        sure = self.wrong_flags
        parts = []
        if sure:
            verb = "contradicts" if len(sure) == 1 else "contradict"
            why = ""
            if set(sure) <= set(self.proven_safe):
                cells = "its cell" if len(sure) == 1 else "their cells"
                why = f" (they prove {cells} safe)"
            parts.append(f"{_flags(sure)} {verb} the numbers{why}")
        others = [tuple(c for c in s if c not in sure) for s in self.culprits]
        others = [s for s in others if s]
        if others and self.complete:
            options = " or ".join(" with ".join(_cell(c) for c in s) for s in others)
            lead = "and so does one of" if sure else "the flags cannot all be right: one of"
            parts.append(f"{lead} {options}")
        elif others:
            lead = "and perhaps" if sure else "the flags cannot all be right: among"
            cells = ", ".join(_cell(c) for c in others[0])
            parts.append(f"{lead} {cells} (too many flags to narrow it further)")
        count = len(self.dropped)
        plural = "flag" if count == 1 else f"{count} flags"
        return "; ".join(parts) + f"; solved without the player's {plural}"

    def on_dropped_flag(self, x: int, y: int) -> str:
        """What to add to a move on ``(x, y)`` when the player's flag (dropped) is on it.

        >>> from solver.board import Board
        >>> analyse_position(Board("F0..\\n...."), 1).on_dropped_flag(0, 0)
        ' (the cell is flagged: take the flag off first)'
        """
        if (x, y) in self.dropped:
            return " (the cell is flagged: take the flag off first)"
        return ""

    def as_dict(self) -> dict:
        """The flags part of a JSON report."""
        return {
            "dropped": [list(c) for c in self.dropped],
            "wrong": [list(c) for c in self.wrong_flags],
            "culprits": [[list(c) for c in s] for s in self.culprits],
            "proven_safe": [list(c) for c in self.proven_safe],
            "complete": self.complete,
            "note": self.note,
        }


def analyse_position(board: Board, mines: int, max_trials: int = MAX_TRIALS) -> PositionAnalysis:
    """The analysis of ``board`` (``mines`` in total, flags included), with the player's flags
    if they fit the numbers, else without them and the culprits named.

    Raises :class:`~solver.errors.ContradictionError` (the one for the board as given) when the
    numbers do not fit even without the flags.
    """
    try:
        return PositionAnalysis(board, mine_probabilities(board, mines))
    except ContradictionError as exc:
        flags = board.cells_of(FLAG)
        if not flags:
            raise
        given = exc
    bare = without(board, flags)
    try:
        free = mine_probabilities(bare, mines)
    except ContradictionError:
        raise given from None
    # Approximated cells' probabilities are not proofs: such flags are always tried.
    odds = {c: p for c, p in free.probabilities.items() if c not in set(free.approximate)}
    proven_safe = tuple(c for c in flags if odds.get(c) == 0)
    maybe = [c for c in flags if c not in odds or 0 < odds[c] < 1]
    culprits, complete = _smallest_sets(board, mines, proven_safe, maybe, max_trials)
    return PositionAnalysis(bare, free, tuple(flags), culprits, proven_safe, complete)


def _smallest_sets(
    board: Board,
    mines: int,
    forced: tuple[Position, ...],
    maybe: list[Position],
    max_trials: int,
) -> tuple[tuple[tuple[Position, ...], ...], bool]:
    """Every smallest set (``forced`` plus some of ``maybe``) of flags whose removal makes
    ``board`` consistent, and whether the search finished within ``max_trials`` analyses."""
    trials = 0
    for size in range(len(maybe) + 1):
        found = []
        for extra in combinations(maybe, size):
            if trials == max_trials:
                return (tuple(sorted((*forced, *maybe), key=_row_major)),), False
            trials += 1
            removed = (*forced, *extra)
            if _consistent(without(board, removed), mines):
                found.append(tuple(sorted(removed, key=_row_major)))
        if found:
            return tuple(found), True
    raise AssertionError("removing every flag was checked to be consistent")  # pragma: no cover


def _consistent(board: Board, mines: int) -> bool:
    try:
        mine_probabilities(board, mines)
    except ContradictionError:
        return False
    return True


def without(board: Board, flags: list[Position] | tuple[Position, ...]) -> Board:
    """``board`` with the given flags covered again.

    >>> print(without(Board("F1\\nF."), [(0, 0)]))
    .1
    F.
    """
    bare = board.copy()
    for x, y in flags:
        bare[x, y] = COVERED
    return bare


def _row_major(cell: Position) -> tuple[int, int]:
    return cell[1], cell[0]


def _cell(cell: Position) -> str:
    return f"({cell[0]}, {cell[1]})"


def _flags(cells: tuple[Position, ...]) -> str:
    if len(cells) == 1:
        return f"the flag at {_cell(cells[0])}"
    return "the flags at " + ", ".join(_cell(c) for c in cells)


def mine_range(board: Board) -> tuple[int, int]:
    """The fewest and the most mines ``board`` may hold in all, as its numbers and flags allow
    (a total outside it contradicts them); :class:`ContradictionError` when none fits.

    >>> mine_range(Board("1..\\n..."))  # one mine by the 1, none to three more beyond it
    (1, 3)
    """
    cells = board.width * board.height
    cons = board_constraints(board, cells)
    fixed = cells - cons.mines_left  # flagged, and settled by the numbers
    totals = [trim(c.total) for c in count_components(cons)]
    if any(t == [0] for t in totals):
        raise ContradictionError("no mine layout satisfies the numbers")
    low, high = mine_bounds(totals, len(cons.outside))
    return fixed + low, fixed + high


def estimated_mines(board: Board) -> int:
    """The mine count to assume when nothing says it: the usual level's for the board's size,
    else :data:`ESTIMATED_DENSITY` of its cells, kept within what the numbers and flags allow
    (:func:`mine_range`; a small board's first click may leave fewer covered cells than the
    level has mines). A board whose numbers contradict each other keeps the plain estimate; the
    analysis names the contradiction.

    >>> estimated_mines(Board("\\n".join(["." * 16] * 16))), estimated_mines(Board("." * 50))
    (40, 9)
    >>> estimated_mines(Board("\\n".join(["00000000"] * 6 + ["00000011", "0000001."])))
    1
    """
    usual = USUAL_MINES.get((board.width, board.height))
    estimate = (
        usual
        if usual is not None
        else max(1, round(ESTIMATED_DENSITY * board.width * board.height))
    )
    try:
        low, high = mine_range(board)
    except ContradictionError:
        return estimate
    return min(max(low, estimate), high)
