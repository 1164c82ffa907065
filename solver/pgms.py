"""The PGMS Equation Strategy (Programmer's Minesweeper), a classic rule-based baseline.

Knowledge is a set of equations ``c = S``: the mines among the covered, unflagged cells ``S`` add
up to ``c``. Every revealed number with covered neighbours gives one. The whole board gives one
more (mines left over all covered cells), which joins the others once 8 or fewer covered cells
are left. Rules, applied until none applies:

1. ``0 = S``: every cell of ``S`` is safe.
2. ``c = S`` with ``c == |S|``: every cell of ``S`` is a mine.
3. ``S0`` a proper subset of ``S1``: add ``c1 - c0 = S1 - S0``.
4. ``c0 < c1`` and ``c1 - c0 == |S1 - S0|``: ``S1 - S0`` are mines, ``S0 - S1`` are safe.
5. (Mio's rule) ``c0 + c1 < c2`` and ``c2 - c1 - c0 == |S2 - (S0 | S1)|``:
   ``S2 - (S0 | S1)`` are mines, ``((S0 | S1) - S2) | (S0 & S1)`` are safe.

A guess opens the cell whose largest ``c / |S|`` over the equations containing it is smallest; a
cell in no equation counts as (mines left) / (covered cells). Ties go to the first such cell in
row order from a random covered cell (rows and columns wrap), as the original program scans.

Where this differs from the restatement in ``shared/pgms-equation-strategy.md`` it follows the
original program (J. D. Ramsdell's PGMS, ``eqn.MioStrategy``, 2003), whose runs gave the
published figures: the whole-board equation joins at 8 covered cells (not 8 mines), and "used
when guessing" means only for cells in no other equation; a cell next to a number is judged by
its numbers alone, even below the board's density.

The equations are rebuilt from the board at each call rather than kept between moves: the
derived equations of the original incremental player are exactly what rule 3 derives again
from the current numbers, so the deductions are the same. (The original tries rule 5 only on
triples it meets from two equations' shared cell, so it may miss a rare Mio deduction made
here; its author found Mio's whole gain too small to see in 10,000 games.) The original's map
opens one cell per probe; a zero's neighbours are then opened by rule 1 before any guess, so a
simulator that opens a zero's area at once plays the same games.

>>> deduce(list("1.." "..."), 3, 2, mines=2)  # nothing certain yet
((), ())
>>> deduce(list("11.." "...."), 4, 2, mines=2)  # the 1s share a mine: (2, 0), (2, 1) safe
((2, 6), ())
"""

from __future__ import annotations

import random
from fractions import Fraction

from solver.errors import ContradictionError

_COVERED = frozenset(".?")
_MINE = frozenset("F*X")

#: The whole-board equation joins the rules when this few covered cells (or fewer) are left.
BOARD_EQUATION_CELLS = 8

Equation = tuple[frozenset[int], int]


def _neighbours(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    from solver.board import neighbour_table

    return neighbour_table(width, height)


def equations(
    cells: list[str] | tuple[str, ...], width: int, height: int, mines: int
) -> tuple[dict[frozenset[int], int], Equation]:
    """The numbers' equations (``{S: c}``) and the whole-board equation ``(S, c)``."""
    nbrs = _neighbours(width, height)
    eqs: dict[frozenset[int], int] = {}
    flags = 0
    covered = []
    for i, ch in enumerate(cells):
        if ch in _MINE:
            flags += 1
        elif ch in _COVERED:
            covered.append(i)
        elif "0" <= ch <= "8":
            owed = ord(ch) - 48
            around = []
            for j in nbrs[i]:
                if cells[j] in _MINE:
                    owed -= 1
                elif cells[j] in _COVERED:
                    around.append(j)
            if around:
                _add(eqs, frozenset(around), owed)
    return eqs, (frozenset(covered), mines - flags)


def _add(eqs: dict[frozenset[int], int], cells: frozenset[int], c: int) -> bool:
    """Add ``c = cells``; True if it is new. Raises on an impossible or conflicting equation."""
    if c < 0 or c > len(cells):
        raise ContradictionError(f"an equation asks for {c} mines among {len(cells)} cells")
    old = eqs.get(cells)
    if old is None:
        eqs[cells] = c
        return True
    if old != c:
        raise ContradictionError("two equations give different mine counts to the same cells")
    return False


def _settle(
    eqs: dict[frozenset[int], int], safe: set[int], mines: set[int]
) -> dict[frozenset[int], int]:
    """Remove known cells from every equation (a mine lowers ``c``)."""
    known = safe | mines
    out: dict[frozenset[int], int] = {}
    for cells, c in eqs.items():
        if cells & known:
            c -= len(cells & mines)
            cells = cells - known
        if cells:
            _add(out, cells, c)
        elif c:
            raise ContradictionError("an equation is left with mines but no cells")
    return out


def deduce(
    cells: list[str] | tuple[str, ...], width: int, height: int, mines: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Apply rules 1-5 until none applies: ``(safe cells, mine cells)`` as flat indices."""
    safe, mines_found, _eqs, _board = _deduce(cells, width, height, mines)
    return tuple(sorted(safe)), tuple(sorted(mines_found))


def _deduce(cells, width, height, mines, stop_at_safe=False):
    eqs, board_eq = equations(cells, width, height, mines)
    if 0 < len(board_eq[0]) <= BOARD_EQUATION_CELLS:
        _add(eqs, *board_eq)
    safe, mines_found, eqs = _closure(eqs, stop_at_safe)
    return safe, mines_found, eqs, board_eq


def _closure(
    eqs: dict[frozenset[int], int], stop_at_safe: bool = False
) -> tuple[set[int], set[int], dict[frozenset[int], int]]:
    """Apply the rules until none applies, or (``stop_at_safe``) until a safe cell is found.

    Stopping early changes nothing about the game: the safe cells get opened, the next call
    finds whatever else the rules find, and a guess is made only at the same fixed point.
    """
    safe: set[int] = set()
    mines: set[int] = set()
    while True:
        eqs = _settle(eqs, safe, mines)
        if safe and stop_at_safe:
            return safe, mines, eqs
        # Rules 1 and 2.
        found = False
        for cells, c in eqs.items():
            if c == 0:
                safe |= cells
                found = True
            elif c == len(cells):
                mines |= cells
                found = True
        if found:
            continue
        if not _pair_and_triple_rules(eqs, safe, mines):
            return safe, mines, eqs


def _pair_and_triple_rules(eqs: dict[frozenset[int], int], safe: set[int], mines: set[int]) -> bool:
    """Rules 3, 4 and 5; True if they added an equation or settled a cell."""
    items = list(eqs.items())
    containing: dict[int, list[int]] = {}
    for k, (cells, _c) in enumerate(items):
        for j in cells:
            containing.setdefault(j, []).append(k)

    def overlapping(k: int) -> set[int]:
        out = set()
        for j in items[k][0]:
            out.update(containing[j])
        out.discard(k)
        return out

    progress = False
    new: list[Equation] = []
    for k1, (s1, c1) in enumerate(items):
        for k0 in overlapping(k1):
            s0, c0 = items[k0]
            if s0 < s1:  # rule 3
                new.append((s1 - s0, c1 - c0))
            elif c0 < c1:  # rule 4
                only1 = s1 - s0
                if c1 - c0 == len(only1):
                    mines |= only1
                    safe |= s0 - s1
                    progress = True
    for cells, c in new:
        if _add(eqs, cells, c):
            progress = True
    if progress:
        return True
    for k2, (s2, c2) in enumerate(items):  # rule 5
        if c2 < 1:
            continue
        around = [(items[k][0], items[k][1]) for k in sorted(overlapping(k2)) if items[k][1] < c2]
        for a, (s0, c0) in enumerate(around):
            rest0 = s2 - s0
            owed = c2 - c0
            for s1, c1 in around[a + 1 :]:
                if c1 >= owed:
                    continue
                only2 = rest0 - s1
                if owed - c1 == len(only2):
                    settled_safe = ((s0 | s1) - s2) | (s0 & s1)
                    if only2 or settled_safe:
                        mines |= only2
                        safe |= settled_safe
                        progress = True
    return progress


def choose(
    cells: list[str] | tuple[str, ...],
    width: int,
    height: int,
    mines: int,
    rng: random.Random,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, float] | None]:
    """What PGMS does next: ``(safe cells, mine cells, guess)``.

    The guess, ``(cell, P)``, is given only when the rules settle no cell (see
    :func:`guess_ratios` and :func:`scan_first`).

    >>> choose(list("1." ".."), 2, 2, mines=1, rng=random.Random(0))[2][1]
    0.3333333333333333
    """
    safe, mines_found, eqs, (board_cells, board_mines) = _deduce(
        cells, width, height, mines, stop_at_safe=True
    )
    if safe or mines_found:
        return tuple(sorted(safe)), tuple(sorted(mines_found)), None
    if not board_cells:
        raise ContradictionError("no covered cell left to open")
    ratios = guess_ratios(eqs, board_cells, board_mines)
    best = min(ratios.values())
    start = rng.choice(sorted(board_cells))
    cell = scan_first([j for j, r in ratios.items() if r == best], start, width, height)
    return (), (), (cell, float(best))


def guess_ratios(
    eqs: dict[frozenset[int], int], board_cells: frozenset[int], board_mines: int
) -> dict[int, Fraction]:
    """``P(t)`` for each covered cell: its largest ``c / |S|`` over the equations holding it.

    A cell in no equation gets the whole board's ``mines / cells``; a cell next to a number does
    not (unless the whole-board equation has joined ``eqs``).

    >>> eqs = {frozenset({0, 1}): 1, frozenset({1, 2}): 0}
    >>> ratios = guess_ratios(eqs, frozenset({0, 1, 2, 3}), 2)
    >>> [str(ratios[j]) for j in range(4)]
    ['1/2', '1/2', '0', '1/2']
    """
    ratios: dict[int, Fraction] = {}
    for s, c in eqs.items():
        ratio = Fraction(c, len(s))
        for j in s:
            if j not in ratios or ratio > ratios[j]:
                ratios[j] = ratio
    away = Fraction(board_mines, len(board_cells))
    for j in board_cells:
        ratios.setdefault(j, away)
    return ratios


def scan_first(candidates: list[int], start: int, width: int, height: int) -> int:
    """The first of ``candidates`` met scanning rows from ``start``, both axes wrapping.

    The original program breaks ties this way: it starts at a random covered cell and keeps the
    first cell with the smallest ``P``, so a candidate after a long run of others is likelier.

    >>> scan_first([0, 5, 7], start=6, width=3, height=3)  # (0, 2), (1, 2): found
    7
    >>> scan_first([0, 5, 7], start=2, width=3, height=3)  # (2, 0), then x wraps: (0, 0)
    0
    """
    x0, y0 = start % width, start // width
    return min(candidates, key=lambda j: ((j // width - y0) % height, (j % width - x0) % width))
