"""The exact engine seen through flat cell indices, for players in tight loops.

:func:`solver.probability.mine_probabilities` speaks in positions and exact fractions; a player in
a benchmark asks for an analysis after every batch of moves and many more in its look-ahead, on
the simulator's flat cell list (index ``y * width + x``). :func:`analyse` runs the same engine
(:mod:`solver.constraints` and :mod:`solver.probability`) and hands back flat
indices and floats. With ``quick=True`` it stops after the numbers that decide their cells alone,
when those already give a safe cell: most positions of a game need nothing more.

>>> out = analyse(list("1..."), 2, 2, mines=1)
>>> [round(out.probability[i], 4) for i in (1, 2, 3)]
[0.3333, 0.3333, 0.3333]
>>> out.solutions
3
"""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.board import Board, Position
from solver.constraints import Constraints, constrain, settle
from solver.countmemo import CountMemo, count_components
from solver.probability import ComponentCount, combine


@dataclass(frozen=True)
class Outlook:
    """What is known about the covered cells of a position (flat indices).

    ``probability`` maps every covered, unflagged cell to its mine probability; it is empty for a
    quick analysis that stopped before counting. ``solutions`` is the number of mine layouts
    (0 when not counted). ``frontier`` is the set of undecided covered cells next to a number,
    ``interior`` the covered cells next to none.
    """

    safe: tuple[int, ...]
    mines: tuple[int, ...]
    probability: dict[int, float] = field(default_factory=dict)
    solutions: int = 0
    exact: bool = True
    frontier: frozenset[int] = frozenset()
    interior: tuple[int, ...] = ()


@dataclass(frozen=True)
class Counted:
    """A position's constraints and its components' counts, for a look-ahead to reuse."""

    constraints: Constraints
    counts: tuple[ComponentCount, ...]


def analyse(
    cells: list[str],
    width: int,
    height: int,
    mines: int,
    quick: bool = False,
) -> Outlook:
    """Analyse a position given as a flat list of cell characters.

    ``mines`` is the total number of mines on the board, flags included. With ``quick``, stop as
    soon as the single-number rules find a safe cell (``probability`` is then empty).
    Raises :class:`~solver.errors.ContradictionError` if no mine layout fits.
    """
    return survey(cells, width, height, mines, quick)[0]


def survey(
    cells: list[str],
    width: int,
    height: int,
    mines: int,
    quick: bool = False,
    memo: CountMemo | None = None,
) -> tuple[Outlook, Counted | None]:
    """:func:`analyse`, and what it counted (None when a quick analysis stopped early).

    ``memo``, the caller's (:class:`~solver.countmemo.CountMemo`), gives the counts of
    components already counted in the same game."""
    settled = settle(Board.from_cells(cells, width, height), mines)
    if quick and settled.forced_safe:
        return Outlook(settled.forced_safe, settled.forced_mines), None
    cons = constrain(settled)

    def flat(cells: tuple[Position, ...]) -> tuple[int, ...]:
        return tuple(y * width + x for x, y in cells)

    counts = count_components(cons, memo)
    analysis = combine(cons, mines, counts)
    probability: dict[int, float] = {}
    for cells_alike, p in analysis.pools:
        value = float(p)
        for x, y in cells_alike:
            probability[y * width + x] = value
    outlook = Outlook(
        safe=flat(analysis.safe),
        mines=flat(analysis.mines_certain),
        probability=probability,
        solutions=analysis.solutions,
        exact=analysis.exact,
        frontier=frozenset(y * width + x for group in cons.groups for x, y in group.cells),
        interior=flat(cons.outside),
    )
    return outlook, Counted(cons, tuple(counts))
