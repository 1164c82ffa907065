"""Exact endgame search: the move with the highest chance to win, when few layouts remain.

When only a handful of mine layouts fit the board, every layout can be listed and the game tree
searched exactly: opening a cell either hits a mine (in the layouts where it is one) or shows a
number, which keeps only the layouts giving that number. The value of a position is the best,
over its cells, of the chance to survive the cell times the value of what it may show.

Cells safe in every layout are opened for free (their numbers only ever help), so the search
branches only on real guesses.

>>> layouts = [frozenset({0}), frozenset({1})]  # a 50/50 between cells 0 and 1
>>> around = {0: (1,), 1: (0,)}
>>> win_chance(layouts, [0, 1], around)
(0.5, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from solver.board import neighbour_table

#: Search only when at most this many layouts fit the board.
MAX_LAYOUTS = 500
#: ... and at most this many covered cells are left.
MAX_COVERED = 60
#: Give the search up (the caller falls back to its heuristic) past this many cell trials.
MAX_TRIALS = 20_000


class SearchTooLarge(Exception):
    """The endgame search went past :data:`MAX_TRIALS`."""


Layout = frozenset[int]


def list_layouts(
    covered: Sequence[int],
    constraints: Sequence[tuple[Sequence[int], int]],
    mines_left: int,
    limit: int = MAX_LAYOUTS,
) -> list[Layout] | None:
    """Every set of ``mines_left`` covered cells meeting the constraints, or None past ``limit``.

    ``constraints`` are ``(cells, mines among them)``.

    >>> sorted(sorted(x) for x in list_layouts([0, 1, 2], [((0, 1), 1)], 1))
    [[0], [1]]
    """
    constrained = sorted({j for cells, _ in constraints for j in cells})
    free = [j for j in covered if j not in set(constrained)]
    cons_of: dict[int, list[int]] = {j: [] for j in constrained}
    owed = [c for _cells, c in constraints]
    room = [len(cells) for cells, _c in constraints]
    for ci, (cells, _c) in enumerate(constraints):
        for j in cells:
            cons_of[j].append(ci)
    out: list[Layout] = []
    chosen: list[int] = []

    def rec(i: int, used: int) -> bool:
        if i == len(constrained):
            rest = mines_left - used
            if 0 <= rest <= len(free):
                for extra in combinations(free, rest):
                    out.append(frozenset(chosen + list(extra)))
                    if len(out) > limit:
                        return False
            return True
        j = constrained[i]
        cis = cons_of[j]
        for c in cis:
            room[c] -= 1
        ok = True
        # Try "safe", then "mine".
        if all(owed[c] <= room[c] for c in cis):
            ok = rec(i + 1, used)
        if ok and used < mines_left and all(owed[c] > 0 for c in cis):
            for c in cis:
                owed[c] -= 1
            chosen.append(j)
            ok = rec(i + 1, used + 1)
            chosen.pop()
            for c in cis:
                owed[c] += 1
        for c in cis:
            room[c] += 1
        return ok

    if not rec(0, 0):
        return None
    return out


def win_chance(
    layouts: Sequence[Layout],
    covered: Iterable[int],
    around: dict[int, Sequence[int]],
    max_trials: int = MAX_TRIALS,
) -> tuple[float, int]:
    """The best chance to win and the cell to open for it (layouts equally likely).

    Raises :class:`SearchTooLarge` past ``max_trials`` cell trials.

    ``around[j]`` are the covered cells next to covered cell ``j`` (its number counts only
    those, the rest of its neighbours being revealed and mine-free).

    A position is a set of layouts, held as one integer whose bit ``t`` stands for layout
    ``t``: what a cell shows splits it with a few big-integer ANDs
    (:class:`_Outcomes`) instead of a pass over its layouts. A position's value is the number
    of its layouts the best play wins: whole numbers, so equal values are equal whatever order
    they were summed in. The value, the cell chosen (the first best in ``covered``'s order)
    and the trials counted depend only on the set of layouts, not on the path that led to it
    (a cell opened on the way shows the same number in all of them), so the order the
    outcomes of a cell are searched in changes nothing.
    """
    cells = tuple(covered)
    place = {j: i for i, j in enumerate(cells)}
    distinct = {frozenset(place[j] for j in lay) for lay in layouts}
    outcomes = _Outcomes(list(distinct), len(cells), [[place[k] for k in around[j]] for j in cells])
    mine_in, shows = outcomes.mine_in, outcomes.shows
    memo: dict[int, int] = {}
    trials = 0

    def value(part: int, unopened: tuple[int, ...]) -> int:
        """The layouts of ``part`` won (one layout left is won), from the memo when known."""
        if not part & (part - 1):
            return 1
        known = memo.get(part)
        return known if known is not None else wins(part, unopened)[0]

    def wins(group: int, unopened: tuple[int, ...]) -> tuple[int, int]:
        if not group & (group - 1):  # one layout left: won
            return 1, -1
        cached = memo.get(group)
        if cached is not None:
            return cached, -1
        # Free information first: cells safe in every layout.
        rest = tuple([i for i in unopened if group & mine_in[i]])
        if len(rest) < len(unopened):
            parts = [group]
            safe = [i for i in unopened if not group & mine_in[i]]
            for i in safe:
                numbers = shows[i] or outcomes.fill(i)
                parts = [q for p in parts for c in numbers if (q := p & c)]
            if len(parts) > 1:
                total = sum([value(p, rest) for p in parts])
                memo[group] = total
                return total, safe[0]
            unopened = rest
        best, best_cell = -1, -1
        nonlocal trials
        trials += len(unopened)
        if trials > max_trials:
            raise SearchTooLarge
        size = group.bit_count()
        for n, i in enumerate(unopened):
            survivors = size - (group & mine_in[i]).bit_count()
            if survivors == 0 or survivors <= best:
                continue  # cannot beat the best: winning needs surviving this move
            rest = unopened[:n] + unopened[n + 1 :]
            numbers = shows[i] or outcomes.fill(i)
            total = sum([value(part, rest) for c in numbers if (part := group & c)])
            if total > best:
                best, best_cell = total, i
        memo[group] = best
        return best, best_cell

    won, index = wins((1 << len(distinct)) - 1, tuple(range(len(cells))))
    return won / len(layouts), cells[index] if index >= 0 else -1


class _Outcomes:
    """What each cell shows in each layout, as sets of layouts (integers, bit ``t`` for layout
    ``t``): ``mine_in[i]`` the layouts with a mine at cell ``i``, :meth:`shows` the layouts
    where it is safe, one set per number it shows there."""

    def __init__(self, layouts: list[frozenset[int]], cells: int, around: list[list[int]]) -> None:
        mine_in = [0] * cells
        for t, lay in enumerate(layouts):
            for i in lay:
                mine_in[i] |= 1 << t
        self.mine_in = mine_in
        self._everything = (1 << len(layouts)) - 1
        self._around = around
        #: Per cell, the nonempty sets of layouts where it is safe, one per number it shows
        #: (empty until :meth:`fill` made it; asked only of a cell safe in some layout).
        self.shows: list[list[int]] = [[] for _ in range(cells)]

    def fill(self, i: int) -> list[int]:
        """Make ``shows[i]`` and return it."""
        # The mines around i per layout, added up in binary: planes[p] holds bit p of each
        # layout's count (at most 8: four planes).
        planes = [0, 0, 0, 0]
        for k in self._around[i]:
            carry = self.mine_in[k]
            for p in range(4):
                planes[p], carry = planes[p] ^ carry, planes[p] & carry
                if not carry:
                    break
        safe = self._everything & ~self.mine_in[i]
        out = []
        for value in range(len(self._around[i]) + 1):
            layouts = safe
            for p in range(4):
                layouts &= planes[p] if value >> p & 1 else ~planes[p]
            if layouts:
                out.append(layouts)
        self.shows[i] = out
        return out


def best_cell(cells: Sequence[str], width: int, height: int, mines: int) -> int | None:
    """The cell (flat index) with the best chance to win the board ``cells`` (``mines`` in all),
    or None when its layouts or its game tree are over the limits (:data:`MAX_LAYOUTS`,
    :data:`MAX_COVERED`, :class:`SearchTooLarge`) or no cell needs guessing.

    >>> best_cell(list("1." ".."), 2, 2, 1) in (1, 2, 3)  # one mine, a third each
    True
    """
    covered = [j for j, ch in enumerate(cells) if ch in ".?"]
    if len(covered) > MAX_COVERED:
        return None
    nbrs = neighbour_table(width, height)
    covered_set = set(covered)
    constraints = []
    for i, ch in enumerate(cells):
        if "0" <= ch <= "8":
            around = [k for k in nbrs[i] if k in covered_set]
            if around:
                flagged = sum(cells[k] in "F*X" for k in nbrs[i])
                constraints.append((around, ord(ch) - 48 - flagged))
    mines_left = mines - sum(ch in "F*X" for ch in cells)
    layouts = list_layouts(covered, constraints, mines_left, MAX_LAYOUTS)
    if not layouts:
        return None
    around_covered: dict[int, Sequence[int]] = {
        j: tuple(k for k in nbrs[j] if k in covered_set) for j in covered
    }
    try:
        # MAX_TRIALS read now, not as win_chance's default: a paired variant may change it.
        _chance, cell = win_chance(layouts, covered, around_covered, MAX_TRIALS)
    except SearchTooLarge:
        return None
    return cell if cell >= 0 else None
