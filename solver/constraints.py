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

from dataclasses import dataclass
from functools import lru_cache

from solver.board import COVERED_CHARS, MINE_CHARS, NUMBERS, Board, Position
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


@lru_cache(maxsize=16)
def _neighbour_table(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """Flat indices of each cell's neighbours (cached per board size: a pure function)."""
    table = []
    for y in range(height):
        for x in range(width):
            table.append(
                tuple(
                    ny * width + nx
                    for ny in range(max(0, y - 1), min(height, y + 2))
                    for nx in range(max(0, x - 1), min(width, x + 2))
                    if (nx, ny) != (x, y)
                )
            )
    return tuple(table)


def board_constraints(board: Board, mines: int) -> Constraints:
    """Constraints, groups and components of ``board`` with ``mines`` mines in total.

    Raises :class:`ContradictionError` for contradictions visible locally: a number with more
    mines around it than its value, or fewer covered cells than it still needs, two numbers that
    ask different counts of the same cells, or more mines on the board than ``mines``.
    """
    width, height = board.width, board.height
    cells = board.flat()
    table = _neighbour_table(width, height)
    is_covered = [ch in COVERED_CHARS for ch in cells]
    is_mine = [ch in MINE_CHARS for ch in cells]
    known = sum(is_mine)
    if known > mines:
        raise ContradictionError(
            f"{known} flags and shown mines on the board, but only {mines} mines in total"
        )
    equations: list[tuple[Position, int, set[int]]] = []
    for i, ch in enumerate(cells):
        if ch not in NUMBERS:
            continue
        around = table[i]
        covered = [j for j in around if is_covered[j]]
        flagged = sum(map(is_mine.__getitem__, around))
        value = int(ch) - flagged
        if not covered and value == 0:
            continue  # the common case: a number with nothing left to say
        pos = (i % width, i // width)
        if value < 0:
            raise ContradictionError(
                f"the {ch} at x={pos[0]}, y={pos[1]} has {flagged} flags or mines around it",
                (pos,),
            )
        if value > len(covered):
            raise ContradictionError(
                f"the {ch} at x={pos[0]}, y={pos[1]} needs {value} more mines but has only "
                f"{len(covered)} covered neighbours",
                (pos,),
            )
        if covered:
            equations.append((pos, value, set(covered)))
    forced = _propagate(equations)

    constraints: list[Constraint] = []
    touched: dict[int, list[int]] = {}
    seen: dict[frozenset[int], Constraint] = {}
    for pos, value, members in equations:
        if not members:
            continue
        key = frozenset(members)
        twin = seen.get(key)
        if twin is not None:
            if twin.value != value:
                raise ContradictionError(
                    f"the numbers at x={twin.cell[0]}, y={twin.cell[1]} and x={pos[0]}, "
                    f"y={pos[1]} ask {twin.value} and {value} mines of the same cells",
                    (twin.cell, pos),
                )
            continue  # the same equation twice adds nothing
        constraint = Constraint(pos, value, frozenset((j % width, j // width) for j in members))
        seen[key] = constraint
        index = len(constraints)
        constraints.append(constraint)
        for j in members:
            touched.setdefault(j, []).append(index)

    by_key: dict[tuple[int, ...], list[Position]] = {}
    outside: list[Position] = []
    covered_all: list[Position] = []
    for i, covered_cell in enumerate(is_covered):
        if not covered_cell:
            continue
        pos = (i % width, i // width)
        covered_all.append(pos)
        if i in forced:
            continue
        key = tuple(touched.get(i, ()))
        if key:
            by_key.setdefault(key, []).append(pos)
        else:
            outside.append(pos)
    groups = tuple(Group(tuple(members), key) for key, members in by_key.items())
    return Constraints(
        width=width,
        height=height,
        constraints=tuple(constraints),
        groups=groups,
        components=_components(len(constraints), groups),
        outside=tuple(outside),
        covered=tuple(covered_all),
        mines_left=mines - known - sum(forced.values()),
        forced_mines=tuple((j % width, j // width) for j, mine in forced.items() if mine),
        forced_safe=tuple((j % width, j // width) for j, mine in forced.items() if not mine),
    )


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
