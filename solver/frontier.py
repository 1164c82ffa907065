"""A fast mine-probability engine for playing many games: flat cell lists in, floats out.

:func:`solver.probability.mine_probabilities` is the reference (exact fractions, positions); a
player in a benchmark asks for an analysis after every batch of moves, so this module works on the
game's flat cell list (index ``y * width + x``) and returns floats. It counts exactly all the same:
Python integers for the weights, so "certainly safe" means a count of exactly zero.

Two stages, since most positions in a game need only the first:

1. Propagation: a number whose covered neighbours must all be safe (or all mines) settles them,
   repeatedly. Cheap; :func:`analyse` with ``quick=True`` stops here when it found a safe cell.
2. Counting: the covered cells next to numbers are split into groups (cells next to the same
   numbers are interchangeable) and independent components; each component's solutions are
   enumerated over its groups (with binomial weights) per number of mines, and the components are
   combined with the cells next to no number through binomials of the mines left.

>>> from solver.game import neighbour_table
>>> cells = list("1." "..")
>>> out = analyse(cells, 2, 2, mines=1)
>>> [round(out.probability[i], 4) for i in (1, 2, 3)]
[0.3333, 0.3333, 0.3333]
>>> out.solutions
3
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb

from solver.errors import ContradictionError

#: Enumeration leaves after which a component is given up as too large for exact counting.
MAX_LEAVES = 400_000

_COVERED = frozenset(".?")
_MINE = frozenset("F*X")


@dataclass(frozen=True)
class Outlook:
    """What is known about the covered cells of a position (flat indices).

    ``probability`` maps every covered, unflagged cell to its mine probability; it is empty for a
    quick analysis that stopped at propagation. ``solutions`` is the number of mine layouts
    (0 when not counted). ``frontier`` is the set of covered cells next to a number.
    """

    safe: tuple[int, ...]
    mines: tuple[int, ...]
    probability: dict[int, float] = field(default_factory=dict)
    solutions: int = 0
    exact: bool = True
    frontier: frozenset[int] = frozenset()
    interior: tuple[int, ...] = ()


class TooManySolutions(Exception):
    """Internal: a component's enumeration went past :data:`MAX_LEAVES`."""


def _neighbours(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    from solver.game import neighbour_table

    return neighbour_table(width, height)


def analyse(
    cells: list[str],
    width: int,
    height: int,
    mines: int,
    quick: bool = False,
) -> Outlook:
    """Analyse a position given as a flat list of cell characters.

    ``mines`` is the total number of mines on the board, flags included. With ``quick``, stop as
    soon as propagation alone finds a safe cell (``probability`` is then empty).
    Raises :class:`ContradictionError` if no mine layout fits.
    """
    nbrs = _neighbours(width, height)
    known: dict[int, bool] = {}  # covered cell -> is it a mine
    flags = 0
    constraints: list[list] = []  # [covered neighbours (list), mines they owe, number's index]
    for i, ch in enumerate(cells):
        if ch in _MINE:
            flags += 1
        elif "0" <= ch <= "8":
            owed = ord(ch) - 48
            around = []
            for j in nbrs[i]:
                c = cells[j]
                if c in _MINE:
                    owed -= 1
                elif c in _COVERED:
                    around.append(j)
            if owed < 0 or owed > len(around):
                x, y = i % width, i // width
                raise ContradictionError(f"the {ch} at x={x}, y={y} cannot be satisfied", ((x, y),))
            if around:
                constraints.append([around, owed, i])

    # 1. Propagation.
    changed = True
    while changed:
        changed = False
        live = []
        for con in constraints:
            around, owed, where = con
            if any(j in known for j in around):
                owed -= sum(known[j] for j in around if j in known)
                around = [j for j in around if j not in known]
                if owed < 0 or owed > len(around):
                    x, y = where % width, where // width
                    raise ContradictionError(
                        f"the {cells[where]} at x={x}, y={y} cannot be satisfied", ((x, y),)
                    )
                con[0], con[1] = around, owed
            if not around:
                continue
            if owed == 0 or owed == len(around):
                is_mine = owed > 0
                for j in around:
                    known[j] = is_mine
                changed = True
                continue
            live.append(con)
        constraints = live
    safe = tuple(j for j, m in known.items() if not m)
    certain = tuple(j for j, m in known.items() if m)
    mines_left = mines - flags - len(certain)
    if mines_left < 0:
        raise ContradictionError(f"more mines are certain or flagged than the {mines} in the game")
    if quick and safe:
        return Outlook(safe, certain)

    # 2. Counting.
    covered = [i for i, ch in enumerate(cells) if ch in _COVERED and i not in known]
    cons_of: dict[int, list[int]] = {}
    for ci, (around, _owed, _where) in enumerate(constraints):
        for j in around:
            cons_of.setdefault(j, []).append(ci)
    interior = tuple(i for i in covered if i not in cons_of)
    groups: dict[tuple[int, ...], list[int]] = {}
    for j, cis in cons_of.items():
        groups.setdefault(tuple(cis), []).append(j)
    group_list = list(groups.items())

    # Components: constraints linked through shared groups (union-find on constraints).
    parent = list(range(len(constraints)))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for cis, _cells in group_list:
        root = find(cis[0])
        for c in cis[1:]:
            other = find(c)
            if other != root:
                parent[other] = root
    comp_groups: dict[int, list[int]] = {}
    for gi, (cis, _cells) in enumerate(group_list):
        comp_groups.setdefault(find(cis[0]), []).append(gi)

    needs = [owed for _around, owed, _where in constraints]
    exact = True
    components = []  # (weights by mines, [(cells, weighted mines by k)])
    for gis in comp_groups.values():
        try:
            components.append(_count_component(gis, group_list, needs, mines_left))
        except TooManySolutions:
            exact = False
            components.append(_approximate_component(gis, group_list, needs))

    # Combine: polynomial in frontier mines, times C(interior, mines left - frontier mines).
    n_in = len(interior)

    def tail(f: int) -> int:
        r = mines_left - f
        return comb(n_in, r) if 0 <= r <= n_in else 0

    prefix = [[1]]
    for weights, _g in components:
        prefix.append(_convolve(prefix[-1], weights))
    suffix = [[1]]
    for weights, _g in reversed(components):
        suffix.append(_convolve(suffix[-1], weights))
    suffix.reverse()
    everything = prefix[-1]
    # Frontier mine counts never exceed len(everything) - 1: only those tails are needed.
    tails = [tail(f) for f in range(len(everything))]
    total = sum(w * t for w, t in zip(everything, tails, strict=True))
    if total == 0:
        raise ContradictionError("no mine layout fits the numbers and the mine count")

    probability: dict[int, float] = {}
    safe_list, mine_list = list(safe), list(certain)
    for ci, (_weights, glist) in enumerate(components):
        others = _convolve(prefix[ci], suffix[ci + 1])
        # view[k]: ways for everything else when this component holds k mines
        view = [
            sum(w * tails[k + j] for j, w in enumerate(others) if w) for k in range(len(_weights))
        ]
        for gcells, by_k in glist:
            num = sum(wm * view[k] for k, wm in enumerate(by_k))
            den = total * len(gcells)
            p = num / den
            for j in gcells:
                probability[j] = p
            if num == 0:
                safe_list.extend(gcells)
            elif num == den:
                mine_list.extend(gcells)
    if n_in:
        num = sum(
            w * comb(n_in - 1, mines_left - f - 1)
            for f, w in enumerate(everything)
            if 0 <= mines_left - f - 1 <= n_in - 1
        )
        p = num / total
        for j in interior:
            probability[j] = p
        if num == 0:
            safe_list.extend(interior)
        elif num == total:
            mine_list.extend(interior)
    for j in safe:
        probability[j] = 0.0
    for j in certain:
        probability[j] = 1.0
    return Outlook(
        tuple(safe_list),
        tuple(mine_list),
        probability,
        total,
        exact,
        frozenset(cons_of),
        interior,
    )


def _convolve(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                if y:
                    out[i + j] += x * y
    return out


def _count_component(
    gis: list[int],
    group_list: list[tuple[tuple[int, ...], list[int]]],
    needs: list[int],
    mines_left: int,
):
    """Enumerate a component's mine counts per group; weights per total mines ``k``."""
    # Order groups so that each constraint is completed as early as possible: grow from one
    # group through shared constraints (breadth first).
    by_con: dict[int, list[int]] = {}
    for g in gis:
        for c in group_list[g][0]:
            by_con.setdefault(c, []).append(g)
    order: list[int] = []
    seen = set()
    queue = [gis[0]]
    seen.add(gis[0])
    while queue:
        g = queue.pop(0)
        order.append(g)
        for c in group_list[g][0]:
            for h in by_con[c]:
                if h not in seen:
                    seen.add(h)
                    queue.append(h)
    sizes = [len(group_list[g][1]) for g in order]
    binom = [[comb(s, m) for m in range(s + 1)] for s in sizes]
    cons = [group_list[g][0] for g in order]
    owed = {c: needs[c] for c in by_con}
    room = {c: sum(len(group_list[g][1]) for g in by_con[c]) for c in by_con}
    n = len(order)
    max_k = min(mines_left, sum(sizes))
    weights = [0] * (max_k + 1)
    gmines = [[0] * (max_k + 1) for _ in range(n)]
    assign = [0] * n
    leaves = 0

    def rec(i: int, k: int, weight: int) -> None:
        nonlocal leaves
        if i == n:
            leaves += 1
            if leaves > MAX_LEAVES:
                raise TooManySolutions
            weights[k] += weight
            for gi in range(n):
                if assign[gi]:
                    gmines[gi][k] += weight * assign[gi]
            return
        s = sizes[i]
        lo, hi = 0, min(s, max_k - k)
        for c in cons[i]:
            left = owed[c]
            if left < hi:
                hi = left
            need_here = left - (room[c] - s)
            if need_here > lo:
                lo = need_here
        if lo > hi:
            return
        for c in cons[i]:
            room[c] -= s
        for m in range(lo, hi + 1):
            for c in cons[i]:
                owed[c] -= m
            assign[i] = m
            rec(i + 1, k + m, weight * binom[i][m])
            for c in cons[i]:
                owed[c] += m
        assign[i] = 0
        for c in cons[i]:
            room[c] += s

    rec(0, 0, 1)
    return weights, [(group_list[g][1], gmines[i]) for i, g in enumerate(order)]


def _approximate_component(gis, group_list, needs):
    """A crude stand-in for a component too large to count: each group's cells get the mean
    owed density of its numbers, with one weight at the rounded expected mine count."""
    glist = []
    expected = 0.0
    for g in gis:
        cis, gcells = group_list[g]
        density = max(
            needs[c] / sum(len(group_list[h][1]) for h in gis if c in group_list[h][0]) for c in cis
        )
        expected += density * len(gcells)
        glist.append((gcells, density))
    k = round(expected)
    weights = [0] * k + [1]
    out = []
    for gcells, density in glist:
        by_k = [0] * (k + 1)
        by_k[k] = density * len(gcells)
        out.append((gcells, by_k))
    return weights, out
