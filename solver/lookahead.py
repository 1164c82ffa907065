"""Counting the position after one more number without recounting the whole board.

The look-ahead of a guess asks, for a candidate cell ``j`` and every number it may show, how many
mine layouts give that number and how safe the position after it is. Revealing ``j`` touches only
the components that hold ``j`` or one of its covered neighbours: the new number links them into
one sub-problem; every other component keeps its counts from the position before, and the cells
touching no number lose only ``j``'s neighbours. The sub-problem is made from the position's own
constraints (groups split by whether they touch ``j``), never rebuilt from the board's text, and
counted once for every number ``j`` may show: the mines next to ``j`` are a second variable of
the count (:func:`solver.probability.count_component`'s ``marked``), and each number is a slice
of it. Everything is counted in integers, so a trial is exactly what
:func:`solver.probability.mine_probabilities` gives for the board with the number written in.

>>> from solver.board import Board
>>> from solver.constraints import board_constraints
>>> from solver.probability import count_components
>>> cells = list("1..." "....")  # a 1 in a 4x2 corner, 2 mines
>>> cons = board_constraints(Board.from_cells(cells, 4, 2), 2)
>>> ahead = Lookahead(cells, 4, 2, cons, count_components(cons))
>>> trial = ahead.reveal(1, 1)  # the cell right of the 1 shows a 1: (2, 0) and (2, 1) are safe
>>> trial.solutions, trial.lowest, trial.has_safe
(4, Fraction(0, 1), True)
>>> from solver.probability import mine_probabilities
>>> mine_probabilities(Board("11..\\n...."), 2).solutions
4
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from functools import lru_cache
from math import comb
from operator import mul

from solver.board import MINE_CHARS, Position, neighbour_table
from solver.constraints import Component, Constraint, Constraints, Group
from solver.countmemo import CountMemo
from solver.packing import Known
from solver.polynomials import poly_mul, running_products, trim
from solver.probability import ComponentCount, count_component
from solver.trialdata import Part, Prepared, Trial

__all__ = ["Lookahead", "NotExact", "Trial"]


class NotExact(Exception):
    """The sub-problem is too large to count exactly: analyse the board from scratch instead."""


class Lookahead:
    """A position's constraints and component counts, shared by every trial reveal.

    ``cells`` is the board (flat, ``y * width + x``), ``cons`` its constraints and ``counts``
    its components' counts (:func:`solver.probability.count_components`). ``settled`` are cells
    known to be mines that the caller leaves out of :attr:`Trial.lowest`. ``memo``, the
    caller's, gives the counts of sub-problems already counted in the same game.
    """

    def __init__(
        self,
        cells: Sequence[str],
        width: int,
        height: int,
        cons: Constraints,
        counts: Sequence[ComponentCount],
        settled: Iterable[int] = (),
        memo: CountMemo | None = None,
    ) -> None:
        if not all(c.exact for c in counts):
            raise NotExact("the position itself is approximated")
        self.width = width
        self._cons = cons
        self._counts = list(counts)
        self._nbrs = neighbour_table(width, height)
        self._settled = frozenset(settled)
        self._memo = memo

        def flat(cells: Iterable[tuple[int, int]]) -> list[int]:
            return [y * width + x for x, y in cells]

        self._group_cells = [flat(g.cells) for g in cons.groups]
        self._group_of = {j: g for g, members in enumerate(self._group_cells) for j in members}
        self._component_of = [0] * len(cons.groups)
        for i, comp in enumerate(cons.components):
            for g in comp.groups:
                self._component_of[g] = i
        self._outside = flat(cons.outside)
        self._outside_set = frozenset(self._outside)
        self._known_mines = frozenset(
            [j for j, ch in enumerate(cells) if ch in MINE_CHARS] + flat(cons.forced_mines)
        )
        self._forced_safe = flat(cons.forced_safe)
        self._totals = [trim(c.total) for c in self._counts]
        # Per component: its fewest and most mines, and its number of layouts.
        self._known = [
            Known(next((m for m, n in enumerate(t) if n), 0), len(t) - 1, sum(t))
            for t in self._totals
        ]
        self._prepared: dict[int, Prepared] = {}
        self._trials: dict[tuple[int, int], Trial] = {}
        self._parts: dict[int, Part] = {}
        # Per cell and part of the rest (and group): what _mass_of makes, kept.
        self._rest_w: dict[tuple[int, int], list[int]] = {}
        self._rest_q: dict[tuple[int, int, int], list[int]] = {}

    def reveal(self, j: int, number: int, probabilities: bool = False) -> Trial:
        """The position after covered cell ``j`` shows ``number`` (kept: asked again, the
        same trial without a recount).

        Raises :class:`NotExact` if its sub-problem is over the exact engine's work budget.
        """
        if probabilities:
            return self._reveal(j, number, True)
        kept = self._trials.get((j, number))
        if kept is None:
            kept = self._trials[j, number] = self._reveal(j, number, False)
        return kept

    def _reveal(self, j: int, number: int, probabilities: bool) -> Trial:
        if j in self._known_mines:
            return Trial(0)
        prep = self._prepared.get(j)
        if prep is None:
            prep = self._prepared[j] = self._prepare(j)
        value = number - prep.known
        if prep.impossible or value < 0 or value > prep.room:
            return Trial(0)
        count = prep.count
        head = None
        if count is not None:
            start, end = value * count.stride, (value + 1) * count.stride
            head = Part(
                trim(count.total[start:end]),
                [
                    (count.weighted[g][start:end], cells, counted)
                    for g, (cells, counted) in enumerate(prep.groups)
                ],
            )
        return self._combine(j, head, prep, probabilities)

    def layouts_safe(self, j: int) -> int | None:
        """The layouts with ``j`` safe, over every number it may show: the sum of their
        :attr:`Trial.solutions`. None where a trial of ``j`` is not counted from its slice."""
        if j in self._known_mines:
            return None
        prep = self._prepared.get(j)
        if prep is None:
            prep = self._prepared[j] = self._prepare(j)
        count = prep.count
        if prep.impossible or count is None:
            return None
        stride = count.stride
        merged = [sum(count.total[m::stride]) for m in range(stride)]
        return sum(map(mul, merged, prep.head_weight))

    def seed(self, j: int, number: int) -> None:
        """Give the memo the count of the component that ``number`` at ``j`` makes, as an
        analysis of the board after it (the settled mines flagged) finds it: its slice of the
        sub-problem, counted already. Nothing without a memo, or where that analysis would
        settle cells by single numbers (its component is then another).
        """
        if self._memo is None or j in self._known_mines:
            return
        prep = self._prepared.get(j)
        if prep is None:
            prep = self._prepared[j] = self._prepare(j)
        count, value = prep.count, number - prep.known
        if prep.impossible or count is None or not 0 < value < prep.room:
            return
        width = self.width
        start = value * count.stride
        stop = start + count.stride
        total = count.total[start:stop]
        new = len(prep.constraints)  # the new number, after the sub-problem's own
        values = [c.value for c in prep.constraints] + [value]
        cells = [0] * len(values)
        kept: list[tuple[int, int, Group, tuple[int, ...]]] = []
        removed = 0
        for g, group in enumerate(prep.sub_groups):
            numbers = group.constraints + ((new,) if g in prep.marked else ())
            if not prep.groups[g][1]:  # mines settled before: flagged on that board
                size = group.size
                mass = count.weighted[g][start:stop]
                if len(mass) != len(total) or any(
                    w != size * n for w, n in zip(mass, total, strict=True)
                ):
                    return  # settled by the mine total only: not a mine in every layout here
                removed += size
                for c in numbers:
                    values[c] -= group.size
                continue
            for c in numbers:
                cells[c] += group.size
            x, y = group.cells[0]
            kept.append((y * width + x, g, group, numbers))
        alive = [c for c in range(len(values)) if cells[c]]
        if not kept or any(not 0 < values[c] < cells[c] for c in alive):
            return
        position = [c.cell for c in prep.constraints] + [(j % width, j // width)]
        alive.sort(key=lambda c: (position[c][1], position[c][0]))
        local = {c: i for i, c in enumerate(alive)}
        kept.sort()
        self._memo.keep(
            tuple(values[c] for c in alive),
            tuple(
                (group.size, tuple(sorted(local[c] for c in numbers)))
                for *_, group, numbers in kept
            ),
            total[removed:],
            [count.weighted[g][start + removed : stop] for _, g, _, _ in kept],
        )

    def _prepare(self, j: int) -> Prepared:
        cons = self._cons
        around = [k for k in self._nbrs[j] if k in self._group_of or k in self._outside_set]
        near = set(around)
        known = sum(k in self._known_mines for k in self._nbrs[j])
        touched = sorted(
            {self._component_of[self._group_of[k]] for k in [j, *around] if k in self._group_of}
        )
        # The sub-problem: the touched components' numbers (renumbered), their groups split by
        # whether they are next to j (marked: their mines are what j's number counts), and the
        # cells next to j touching no number.
        local: dict[int, int] = {}
        constraints: list[Constraint] = []
        for i in touched:
            for c in cons.components[i].constraints:
                local[c] = len(constraints)
                constraints.append(cons.constraints[c])
        width = self.width
        groups: list[Group] = []
        counted: list[bool] = []
        marked: set[int] = set()

        def add(members: list[int], key: tuple[int, ...], is_near: bool) -> None:
            if members:
                if is_near:
                    marked.add(len(groups))
                groups.append(Group(tuple((k % width, k // width) for k in members), key))
                counted.append(members[0] not in self._settled)

        for i in touched:
            for g in cons.components[i].groups:
                key = tuple(local[c] for c in cons.groups[g].constraints)
                members = [k for k in self._group_cells[g] if k != j]
                add([k for k in members if k not in near], key, False)
                add([k for k in members if k in near], key, True)
        add(sorted(k for k in around if k in self._outside_set), (), True)
        alive = {c for group in groups for c in group.constraints}
        count = None
        if groups:
            sub = Constraints(
                width=cons.width,
                height=cons.height,
                constraints=tuple(constraints),
                groups=tuple(groups),
                components=(),
                outside=(),
                covered=(),
                mines_left=cons.mines_left,
            )
            comp = Component(tuple(range(len(groups))), tuple(sorted(alive)))
            # The sub-problem's layouts are those of the touched components with j safe, times
            # any filling of the cells next to j that touch no number.
            free = sum(k in self._outside_set for k in around)
            layouts = 1 << free
            for i in touched:
                layouts *= self._known[i].layouts
            window = Known(
                sum(self._known[i].low for i in touched),
                sum(self._known[i].high for i in touched) + free,
                layouts,
            )
            if self._memo is not None:
                count = self._memo.count(sub, comp, frozenset(marked), window)
            else:
                count = count_component(sub, comp, frozenset(marked), window)
            if not count.exact:
                raise NotExact(f"the sub-problem around cell {j} is over the work budget")
        rest = [self._part(i) for i in range(len(cons.components)) if i not in touched]
        totals = [part.total for part in rest]
        prefix, suffix = running_products(totals)
        rest_all = prefix[-1]
        left_out = list(self._outside)  # less j and its neighbours, in board order
        for k in [j, *around]:
            if k in self._outside_set:
                left_out.remove(k)
        outside = tuple(left_out)
        span = 1 if count is None else count.stride  # the longest a slice may be
        n_out = len(outside)
        ways = _outside_ways(n_out, cons.mines_left, span + len(rest_all) - 1)
        return Prepared(
            # j was the only covered cell of a number: it cannot show if the number owes a mine.
            impossible=any(k.value for c, k in enumerate(constraints) if c not in alive),
            known=known,
            room=len(around),
            count=count,
            groups=tuple((g.cells, c) for g, c in zip(groups, counted, strict=True)),
            rest=rest,
            outside=outside,
            rest_all=rest_all,
            rest_products=(prefix, suffix),
            ways=ways,
            head_weight=[sum(map(mul, rest_all, ways[m : m + len(rest_all)])) for m in range(span)]
            if count is not None
            else [],
            constraints=tuple(constraints),
            sub_groups=tuple(groups),
            marked=frozenset(marked),
        )

    def _part(self, i: int) -> Part:
        """Component ``i`` as a part of the rest: made once, shared by every trial."""
        part = self._parts.get(i)
        if part is None:
            cons = self._cons
            total = self._totals[i]
            groups = [
                (
                    self._counts[i].weighted[g],
                    cons.groups[g].cells,
                    self._group_cells[g][0] not in self._settled,
                )
                for g in cons.components[i].groups
            ]
            # After a reveal elsewhere a group's probability is a weighted mean, over the
            # part's mine counts m, of its probability given m: at least the least of those.
            lows = tuple(
                min(
                    (w / (n * len(cells)) for w, n in zip(weighted, total, strict=False) if n),
                    default=0.0,
                )
                * (1 - 1e-9)
                for weighted, cells, _counts in groups
            )
            part = self._parts[i] = Part(total, groups, lows)
        return part

    def _mass_of(self, j: int, prep: Prepared, i: int, g: int) -> list[int]:
        """For group ``g`` of part ``i`` of the rest, ``q`` such that the group's mines over
        the layouts with the new number's slice ``h`` are ``sum(h[a] * q[a])``.

        A group's mines, ``sum_m weighted[m] * sum_k (h * others)[k] * ways[m + k]``, are
        ``sum_a h[a] * q[a]`` with ``q[a] = sum_m weighted[m] * W[m + a]`` and
        ``W[x] = sum_b others[b] * ways[x + b]``: made once for the cell, not once per number,
        and only for the groups a trial looks at.
        """
        q = self._rest_q.get((j, i, g))
        if q is None:
            part = prep.rest[i]
            n = len(part.total)
            span = len(prep.head_weight) or 1
            w = self._rest_w.get((j, i))
            if w is None:
                prefix, suffix = prep.rest_products
                others = poly_mul(prefix[i], suffix[i + 1])
                ways = prep.ways
                w = self._rest_w[j, i] = [
                    sum(map(mul, others, ways[x:])) for x in range(n + span - 1)
                ]
            weighted = part.groups[g][0][:n]
            q = self._rest_q[j, i, g] = [sum(map(mul, weighted, w[a:])) for a in range(span)]
        return q

    def _combine(self, j: int, head: Part | None, prep: Prepared, want_all: bool) -> Trial:
        """Exact layout count and probabilities from the new number's slice of the sub-problem
        (``head``, None when it has no cell), the rest and the outside cells.

        Without ``want_all``, a position found to have a safe cell is answered at once: its
        lowest probability is that cell's, 0, and the other parts cannot change it.
        """
        if (head is not None and head.total == [0]) or any(p.total == [0] for p in prep.rest):
            return Trial(0)
        left = self._cons.mines_left
        n_out = len(prep.outside)
        everything = prep.rest_all if head is None else poly_mul(head.total, prep.rest_all)
        ways = prep.ways  # at least as long as everything
        solutions = sum(map(mul, everything, ways))
        if solutions == 0:
            return Trial(0)
        has_safe = any(k != j for k in self._forced_safe)
        if has_safe and not want_all:
            return Trial(solutions, True, Fraction(0))
        best_mass, best_size = -1, 1
        exact: dict[int, Fraction] | None = {} if want_all else None
        # Each group with its mines over the layouts, the new number's first: its new safe
        # cells are next to it, and the rest need not be looked at once one is found.
        slice_ = [1] if head is None else head.total
        # The lowest probability so far, a little over (None: none yet), for the bounds.
        above: list[float | None] = [None]

        def groups() -> Iterator[tuple[int, tuple[Position, ...], bool]]:
            if head is not None:
                weight = prep.head_weight
                for weighted, cells, counts in head.groups:
                    yield (
                        sum(map(mul, weighted, weight)),
                        cells,
                        counts,
                    )
            for i, part in enumerate(prep.rest):
                for g, (_weighted, cells, counts) in enumerate(part.groups):
                    low = part.lows[g]
                    if exact is None and low > 0:
                        # Never safe, and never below the lowest so far (or not counted in
                        # the lowest): it changes nothing.
                        ceiling = above[0]
                        if not counts or (ceiling is not None and low >= ceiling):
                            continue
                    yield sum(map(mul, slice_, self._mass_of(j, prep, i, g))), cells, counts

        for mass, cells, counts in groups():
            if mass == 0:
                has_safe = True
                if counts and exact is None:
                    return Trial(solutions, True, Fraction(0))
            size = len(cells)
            if counts and (best_mass < 0 or mass * best_size < best_mass * size):
                best_mass, best_size = mass, size
                above[0] = best_mass / (solutions * best_size) * (1 + 1e-9)
            if exact is not None:
                p = Fraction(mass, solutions * size)
                exact.update(((y * self.width + x), p) for x, y in cells)
        if n_out:
            mass = sum(
                e * w * (left - m)
                for m, (e, w) in enumerate(zip(everything, ways, strict=False))
                if e
            )
            if mass == 0:
                has_safe = True
            if prep.outside[0] not in self._settled and (
                best_mass < 0 or mass * best_size < best_mass * n_out
            ):
                best_mass, best_size = mass, n_out
            if exact is not None:
                p = Fraction(mass, solutions * n_out)
                exact.update((k, p) for k in prep.outside)
        # Cells the single numbers settled keep their probability: 0 or 1.
        forced = [y * self.width + x for x, y in self._cons.forced_mines]
        if exact is not None:
            exact.update((k, Fraction(1)) for k in forced)
            exact.update((k, Fraction(0)) for k in self._forced_safe if k != j)
        if any(k != j for k in self._forced_safe):
            best_mass, best_size = 0, 1
        elif best_mass < 0 and any(k not in self._settled for k in forced):
            best_mass, best_size = solutions, 1
        lowest = Fraction(best_mass, solutions * best_size) if best_mass >= 0 else None
        return Trial(solutions, has_safe, lowest, exact)


def _outside_ways(n_out: int, left: int, length: int) -> list[int]:
    """``ways[m]`` for ``m`` below ``length``: the fillings of ``n_out`` cells touching no
    number with the ``left`` mines less ``m``."""
    table = _fillings(n_out, left)
    return list(table[:length]) + [0] * (length - len(table))


@lru_cache(maxsize=512)
def _fillings(n_out: int, left: int) -> tuple[int, ...]:
    """``C(n_out, left - m)`` for ``m`` from 0 to ``left``: binomials of large numbers, asked
    for by every trial's sub-problem with the few counts of cells a game's positions have."""
    return tuple(comb(n_out, left - m) if left - m <= n_out else 0 for m in range(left + 1))
