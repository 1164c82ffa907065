"""From a board to the constraints the solver counts with.

Every revealed number with covered neighbours says "exactly ``value`` mines among these cells"
(its ``value`` already lowered by the flags and shown mines around it). Covered cells that touch
exactly the same numbers are interchangeable, so they are pooled into a :class:`Group`; numbers
linked through shared groups form a :class:`Component` that can be counted on its own. Covered
cells touching no number are the ``outside``: only the total mine count speaks of them.

>>> from solver.board import Board
>>> c = board_constraints(Board("1.\\n.."), mines=1)
>>> [(k.value, sorted(k.cells)) for k in c.constraints]
[(1, [(0, 1), (1, 0), (1, 1)])]
>>> len(c.groups), c.outside, c.mines_left
(1, (), 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import cast

import numpy as np

from solver.board import (
    COVERED,
    EXPLODED,
    FLAG,
    MINE,
    QUESTION,
    Board,
    Position,
    neighbour_table,
)
from solver.errors import ContradictionError


@dataclass(frozen=True)
class Constraint:
    """The number at ``cell`` needs exactly ``value`` more mines among ``cells``."""

    cell: Position
    value: int
    cells: frozenset[Position]


@dataclass(frozen=True)
class Group:
    """Covered cells touching exactly the numbers ``constraints`` (indices)."""

    cells: tuple[Position, ...]
    constraints: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.cells)


@dataclass(frozen=True)
class Component:
    """Groups and constraints linked together; counted independently of other components."""

    groups: tuple[int, ...]
    constraints: tuple[int, ...]


@dataclass(frozen=True)
class Constraints:
    """Everything the counting engine needs to know about a board."""

    width: int
    height: int
    constraints: tuple[Constraint, ...]
    groups: tuple[Group, ...]
    components: tuple[Component, ...]
    outside: tuple[Position, ...]
    covered: tuple[Position, ...]
    mines_left: int
    forced_mines: tuple[Position, ...] = ()
    forced_safe: tuple[Position, ...] = ()


@dataclass(frozen=True)
class Settled:
    """What the numbers settle one at a time (:func:`settle`), and the board's equations after
    it, from which :func:`constrain` builds the rest.

    ``forced_mines`` and ``forced_safe`` are flat indices (``y * width + x``) in the order they
    were settled. ``equations`` are the numbers' equations still open, each once: (the number's
    position, mines owed, its covered unsettled cells as flat indices).
    """

    width: int
    height: int
    forced_mines: tuple[int, ...]
    forced_safe: tuple[int, ...]
    equations: tuple[tuple[Position, int, frozenset[int]], ...] = field(repr=False)
    covered: tuple[int, ...] = field(repr=False)  # every covered cell, flat, in board order
    mines_left: int = 0


def board_constraints(board: Board, mines: int) -> Constraints:
    """Constraints, groups and components of ``board`` with ``mines`` mines in total.

    Raises :class:`ContradictionError` for contradictions visible locally: a number with more
    mines around it than its value, or fewer covered cells than it still needs, two numbers that
    ask different counts of the same cells, or more mines on the board than ``mines``.
    """
    return constrain(settle(board, mines))


#: Per character code: 1 for a covered cell, _MINE_WEIGHT for a flag or shown mine, so that
#: one box sum counts both around a cell (at most 8 covered cells: below _MINE_WEIGHT).
_MINE_WEIGHT = 16
_WEIGHT = np.zeros(256, dtype=np.int16)
_WEIGHT[[ord(COVERED), ord(QUESTION)]] = 1
_WEIGHT[[ord(FLAG), ord(MINE), ord(EXPLODED)]] = _MINE_WEIGHT
#: Per character code: a number's value (0 for any other cell), and whether it is a number.
_VALUE = np.zeros(256, dtype=np.int16)
_VALUE[ord("0") : ord("9")] = np.arange(9)
_IS_NUMBER = np.zeros(256, dtype=bool)
_IS_NUMBER[ord("0") : ord("9")] = True


def settle(board: Board, mines: int) -> Settled:
    """The first stage of :func:`board_constraints`: the numbers' equations, the cells single
    numbers settle, and every contradiction :func:`board_constraints` raises.

    A player that only wants a safe cell stops here when there is one: building the groups and
    components of every covered cell (:func:`constrain`) costs as much again.
    """
    width, height = board.width, board.height
    cells = board.flat()
    table = neighbour_table(width, height)
    codes = np.frombuffer("".join(cells).encode("ascii"), dtype=np.uint8)
    weight = _WEIGHT[codes].reshape(height, width)
    known = int((weight >= _MINE_WEIGHT).sum())
    if known > mines:
        raise ContradictionError(
            f"{known} flags and shown mines on the board, but only {mines} mines in total"
        )
    # Only numbers with covered neighbours, or whose mines around do not add up, need a look:
    # count both around every cell at once, in one box sum of the weights.
    around = neighbour_counts(weight)
    owed = _VALUE[codes].reshape(height, width) - around // _MINE_WEIGHT
    worth = np.flatnonzero(
        _IS_NUMBER[codes].reshape(height, width) & ((around % _MINE_WEIGHT > 0) | (owed != 0))
    )
    equations: list[tuple[Position, int, set[int]]] = []
    for i, value in zip(worth.tolist(), owed.ravel()[worth].tolist(), strict=True):
        ch = cells[i]
        covered = [j for j in table[i] if cells[j] == COVERED or cells[j] == QUESTION]
        pos = (i % width, i // width)
        if value < 0:
            raise ContradictionError(
                f"the {ch} at x={pos[0]}, y={pos[1]} has {int(ch) - value} flags or mines "
                "around it",
                (pos,),
            )
        if value > len(covered):
            raise ContradictionError(
                f"the {ch} at x={pos[0]}, y={pos[1]} needs {value} more mines but has only "
                f"{len(covered)} covered neighbours",
                (pos,),
            )
        equations.append((pos, value, set(covered)))
    forced = _propagate(equations)
    settled_mines = sum(forced.values())
    if known + settled_mines > mines:
        raise ContradictionError(
            f"the numbers need {known + settled_mines} mines where the game has only {mines}"
        )
    distinct: list[tuple[Position, int, frozenset[int]]] = []
    seen: dict[frozenset[int], tuple[Position, int]] = {}
    for pos, value, members in equations:
        if not members:
            continue
        key = frozenset(members)
        twin = seen.get(key)
        if twin is not None:
            if twin[1] != value:
                raise ContradictionError(
                    f"the numbers at x={twin[0][0]}, y={twin[0][1]} and x={pos[0]}, "
                    f"y={pos[1]} ask {twin[1]} and {value} mines of the same cells",
                    (twin[0], pos),
                )
            continue  # the same equation twice adds nothing
        seen[key] = (pos, value)
        distinct.append((pos, value, key))
    return Settled(
        width=width,
        height=height,
        forced_mines=tuple(j for j, mine in forced.items() if mine),
        forced_safe=tuple(j for j, mine in forced.items() if not mine),
        equations=tuple(distinct),
        covered=tuple(np.flatnonzero(weight.ravel() == 1).tolist()),
        mines_left=mines - known - settled_mines,
    )


def constrain(settled: Settled) -> Constraints:
    """The second stage of :func:`board_constraints`: constraints, groups and components."""
    width = settled.width
    constraints: list[Constraint] = []
    touched: dict[int, list[int]] = {}
    for pos, value, members in settled.equations:
        index = len(constraints)
        constraints.append(
            Constraint(pos, value, frozenset((j % width, j // width) for j in members))
        )
        for j in members:
            touched.setdefault(j, []).append(index)

    forced = set(settled.forced_mines) | set(settled.forced_safe)
    at = positions(width, settled.height)
    # Groups in board order of their first cells, each cell in board order.
    by_key: dict[tuple[int, ...], list[Position]] = {}
    for i in sorted(touched):
        if i not in forced:
            by_key.setdefault(tuple(touched[i]), []).append(at[i])
    covered_all = [at[i] for i in settled.covered]
    outside = [at[i] for i in settled.covered if i not in touched and i not in forced]
    groups = tuple(Group(tuple(members), key) for key, members in by_key.items())
    return Constraints(
        width=width,
        height=settled.height,
        constraints=tuple(constraints),
        groups=groups,
        components=_components(len(constraints), groups),
        outside=tuple(outside),
        covered=tuple(covered_all),
        mines_left=settled.mines_left,
        forced_mines=tuple((j % width, j // width) for j in settled.forced_mines),
        forced_safe=tuple((j % width, j // width) for j in settled.forced_safe),
    )


@cache
def positions(width: int, height: int) -> tuple[Position, ...]:
    """Every cell's position by its flat index ``y * width + x``."""
    return tuple((i % width, i // width) for i in range(width * height))


def neighbour_counts(mask: np.ndarray) -> np.ndarray:
    """How many of each cell's 8 neighbours are set in ``mask``."""
    h, w = mask.shape
    padded = np.zeros((h + 2, w + 2), dtype=np.int16)
    padded[1:-1, 1:-1] = mask
    # The 3x3 box sum, a row of three then a column of three (np.pad and eight slices cost
    # twice as much on a board this small), less the cell itself.
    rows = padded[:, :-2] + padded[:, 1:-1] + padded[:, 2:]
    return cast(np.ndarray, rows[:-2] + rows[1:-1] + rows[2:] - padded[1:-1, 1:-1])


def covered_neighbours(cells: Sequence[str], width: int, height: int) -> list[int]:
    """Each cell's count of covered neighbours, flat (``y * width + x``), counted over the whole
    board at once (a sum over each cell's neighbours costs more for a few dozen cells).

    >>> covered_neighbours(list("1." ".."), 2, 2)
    [3, 2, 2, 2]
    """
    codes = np.frombuffer("".join(cells).encode("ascii"), dtype=np.uint8)
    covered = (codes == ord(COVERED)) | (codes == ord(QUESTION))
    return cast(list[int], neighbour_counts(covered.reshape(height, width)).ravel().tolist())


def _propagate(equations: list[tuple[Position, int, set[int]]]) -> dict[int, bool]:
    """Settle the cells that single numbers decide, in place; returns cell -> is a mine.

    A number owing no mines clears its cells; a number owing as many mines as it has cells
    mines them all. Both are sound, so the counting that follows is unchanged; it only gets
    smaller components. A cell settled both ways, or a number left owing a negative count or
    more mines than cells, is a contradiction naming the number.
    """
    forced: dict[int, bool] = {}
    pending = [e for e, (_, value, members) in enumerate(equations) if value in (0, len(members))]
    if not pending:
        return forced
    holders: dict[int, list[int]] = {}
    for e, (_, _, members) in enumerate(equations):
        for j in members:
            if j in holders:
                holders[j].append(e)
            else:
                holders[j] = [e]
    while pending:
        e = pending.pop()
        pos, value, members = equations[e]
        if value < 0 or value > len(members):
            raise ContradictionError(
                f"the number at x={pos[0]}, y={pos[1]} cannot be satisfied "
                f"(the cells around it are decided by its neighbours)",
                (pos,),
            )
        if not members or 0 < value < len(members):
            continue
        is_mine = value > 0
        for j in list(members):
            forced[j] = is_mine
            for other in holders[j]:
                o_pos, o_value, o_members = equations[other]
                if j in o_members:
                    o_members.discard(j)
                    equations[other] = (o_pos, o_value - is_mine, o_members)
                    pending.append(other)
    return forced


def _components(n_constraints: int, groups: tuple[Group, ...]) -> tuple[Component, ...]:
    """Connected components of constraints linked by shared groups (union-find)."""
    parent = list(range(n_constraints))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for group in groups:
        first = find(group.constraints[0])
        for other in group.constraints[1:]:
            root = find(other)
            if root != first:
                parent[root] = first
    members: dict[int, tuple[list[int], list[int]]] = {}
    for c in range(n_constraints):
        members.setdefault(find(c), ([], []))[1].append(c)
    for g, group in enumerate(groups):
        members[find(group.constraints[0])][0].append(g)
    return tuple(Component(tuple(gs), tuple(cs)) for gs, cs in members.values())
