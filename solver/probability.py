"""Exact mine probabilities.

How it counts (all in Python integers, so every probability is an exact fraction):

1. :func:`solver.constraints.board_constraints` turns the board into constraints, groups of
   interchangeable cells, independent components, and the ``outside`` cells touching no number.
2. Each component is counted by dynamic programming over its groups in a chosen order. The state
   between two groups is the mines still owed by the numbers that have groups on both sides (the
   "frontier"), so the cost grows with the frontier, not with the number of solutions: the super
   board of death (61,440 group-level solutions) needs a few hundred states. Per state we keep a
   polynomial in the number of mines used, packed into one Python integer (coefficient ``m`` in
   bits ``m*B`` to ``(m+1)*B``), so shifting, adding and convolving polynomials are single
   big-integer operations (:mod:`solver.packing`; the look-ahead's counts, whose layouts the
   position's own count already bounds, are packed tighter). A forward and a backward pass give,
   for every group, the number of solutions weighted by its mines, per total mine count.
3. Components are combined with the outside cells through exact binomial weights for the mines
   left: a layout using ``m`` mines in the components leaves ``C(outside, mines_left - m)`` ways.

A component whose counting would cost more than :data:`MAX_WORK` is not enumerated: it gets a
labelled approximation (``Analysis.exact`` is False, ``approximate`` lists its cells).

>>> from solver.board import Board
>>> a = mine_probabilities(Board("1.\\n.."), mines=1)
>>> a.probability(1, 1), a.solutions
(Fraction(1, 3), 3)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb
from operator import mul, sub

import numpy as np

from solver.board import Board, Position
from solver.constraints import Component, Constraints, board_constraints
from solver.errors import ContradictionError
from solver.packing import Known, Packing
from solver.polynomials import mine_bounds, poly_mul, running_products, trim

#: Most work (transitions times the machine words of a packed polynomial) one component may
#: cost before it is approximated instead: about two seconds of counting.
MAX_WORK = 40_000_000


@dataclass(frozen=True)
class Analysis:
    """Mine probabilities of every covered cell of a board.

    ``solutions`` is the number of ways to place all the mines consistently with the board
    (flags count as mines). ``probability(x, y)`` is exact; ``grid`` is the same as floats.
    """

    width: int
    height: int
    mines: int
    solutions: int
    exact: bool
    covered: tuple[Position, ...]
    safe: tuple[Position, ...]
    mines_certain: tuple[Position, ...]
    approximate: tuple[Position, ...]
    _probabilities: dict[Position, Fraction] = field(repr=False, compare=False)
    #: The same, pooled: cells that share one probability (a group, the outside, settled cells).
    pools: tuple[tuple[tuple[Position, ...], Fraction], ...] = field(
        default=(), repr=False, compare=False
    )

    def probability(self, x: int, y: int) -> Fraction | None:
        """Exact probability that covered cell ``(x, y)`` is a mine; None if not covered."""
        return self._probabilities.get((x, y))

    @property
    def probabilities(self) -> dict[Position, Fraction]:
        """Every covered cell's probability (a copy)."""
        return dict(self._probabilities)

    @property
    def grid(self) -> np.ndarray:
        """Probabilities as a float array ``[height, width]``, ``nan`` where not covered."""
        out = np.full((self.height, self.width), np.nan)
        for (x, y), p in self._probabilities.items():
            out[y, x] = float(p)
        return out


def mine_probabilities(board: Board, mines: int) -> Analysis:
    """The exact probability that each covered cell of ``board`` hides a mine.

    ``mines`` is the total number of mines of the game (flags included). Raises
    :class:`ContradictionError` when no layout of the mines fits the board.
    """
    if mines < 0:
        raise ContradictionError(f"the mine count must not be negative, got {mines}")
    return count_constraints(board_constraints(board, mines), mines)


def count_constraints(cons: Constraints, mines: int) -> Analysis:
    """The analysis of a board already turned into constraints (``mines`` in total)."""
    return combine(cons, mines, count_components(cons))


def count_components(cons: Constraints) -> list[ComponentCount]:
    """Every component of ``cons`` counted on its own (see :func:`combine`)."""
    return [count_component(cons, comp) for comp in cons.components]


# -- counting one component ---------------------------------------------------------------------


@dataclass(frozen=True)
class ComponentCount:
    """Per-mine-count solution counts of one component.

    ``total[m]`` counts the layouts of the component with ``m`` mines; ``weighted[g][m]`` sums the
    mines of group ``g`` over those layouts. ``exact`` False means ``approx`` holds estimated
    per-group probabilities instead and ``total`` is a single mine count with weight 1.
    """

    component: Component
    total: list[int]
    weighted: dict[int, list[int]]
    exact: bool = True
    approx: dict[int, float] = field(default_factory=dict)
    stride: int = 0  # with marked groups: the length of one slice t (see count_component)


def _elimination_order(cons: Constraints, comp: Component) -> list[int]:
    """Order the groups so that few numbers are open (half assigned) at any time.

    The order depends only on which numbers each group touches: it is made once per such
    structure (:func:`_order_of`) and kept. Any order counts the same; this one counts fast.
    """
    local = {c: i for i, c in enumerate(comp.constraints)}
    groups = cons.groups
    structure = tuple(tuple(local[c] for c in groups[g].constraints) for g in comp.groups)
    return [comp.groups[i] for i in _order_of(structure)]


@lru_cache(maxsize=4096)
def _order_of(structure: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """:func:`_elimination_order` of groups ``0..n-1``, group ``g`` touching the numbers
    ``structure[g]``."""
    remaining_in: dict[int, int] = {}
    group_of: dict[int, list[int]] = {}
    for g, touching in enumerate(structure):
        for c in touching:
            remaining_in[c] = remaining_in.get(c, 0) + 1
            group_of.setdefault(c, []).append(g)
    active: set[int] = set()
    left = set(range(len(structure)))
    candidates: set[int] = set()
    order: list[int] = []
    while left:
        pool = candidates or left
        best, best_key = -1, None
        for g in pool:
            cs = structure[g]
            opened = closed = 0
            for c in cs:
                if c not in active:
                    opened += 1
                if remaining_in[c] == 1:
                    closed += 1
            key = (opened - closed, opened, -len(cs), g)
            if best_key is None or key < best_key:
                best, best_key = g, key
        order.append(best)
        left.discard(best)
        candidates.discard(best)
        for c in structure[best]:
            remaining_in[c] -= 1
            if remaining_in[c] == 0:
                active.discard(c)
            else:
                active.add(c)
                candidates.update(g for g in group_of[c] if g in left)
    return tuple(order)


@lru_cache(maxsize=4096)
def _fillings_bits(size: int, cap: int) -> int:
    """Bits of the ways to fill ``size`` cells with at most ``cap`` mines (kept: asked often)."""
    return sum(comb(size, k) for k in range(cap + 1)).bit_length()


def count_component(
    cons: Constraints,
    comp: Component,
    marked: frozenset[int] = frozenset(),
    known: Known | None = None,
) -> ComponentCount:
    """Count the layouts of one component, per mine count, and each group's mines over them.

    Groups in ``marked`` (by index) have their mines
    counted a second time, as a second variable: then ``total[m + stride * t]`` counts the
    layouts with ``m`` mines of which ``t`` are in marked groups (``stride`` is in the result).
    The look-ahead uses it to count every number a cell may show at once: the new number's
    constraint is left out and each value of it is a slice ``t = value``. ``known`` (what the
    caller knows of the layouts) packs the polynomials tighter: same counts, sooner.
    """
    groups = cons.groups
    order = _elimination_order(cons, comp)
    n_cells = sum(groups[g].size for g in comp.groups)
    marks = sum(groups[g].size for g in marked)
    if known is None:
        # A component holds at most as many mines as its numbers owe (every cell touches one, or
        # is marked), and no count exceeds the product over groups of their possible fillings:
        # that bounds the packed polynomial's length and its coefficients (times n_cells for
        # the weighted sums).
        most_mines = min(n_cells, sum(cons.constraints[c].value for c in comp.constraints) + marks)
        fillings = 0
        for g in comp.groups:
            size = groups[g].size
            cap = min(
                size,
                min((cons.constraints[c].value for c in groups[g].constraints), default=size),
            )
            fillings += _fillings_bits(size, cap)
        bits = fillings + max(1, n_cells).bit_length() + 2
        pack = Packing((bits + 7) // 8 * 8, marks + 1, most_mines + 1)
    else:
        # Every coefficient a layout reaches (a prefix or completion that some layout extends,
        # a weighted sum) is at most n_cells times the number of layouts; every layout's mines
        # lie in known.low..known.high, so the mines are packed modulo that window's width.
        bits = (max(1, n_cells) * known.layouts).bit_length() + 1
        width = known.high - known.low + 1
        pack = Packing((bits + 7) // 8 * 8, marks + 1, width, cyclic=True, low=known.low)
    words = pack.size // 64 + 1
    work = 0

    def folded(polys: dict[tuple[int, ...], int]) -> dict[tuple[int, ...], int]:
        """``polys`` folded (:meth:`Packing.fold`) where past the size of a cyclic packing."""
        if not pack.cyclic:
            return polys
        size, fold = pack.size, pack.fold
        return {key: fold(poly) if poly >> size else poly for key, poly in polys.items()}

    last: dict[int, int] = {}
    for i, g in enumerate(order):
        for c in groups[g].constraints:
            last[c] = i

    # Per group: size, values of the numbers it opens, its numbers' places in the extended
    # state, kept and closed places, lowered[k] (k mines taken from the kept numbers, or None).
    steps = []
    units: list[int] = []  # per group: the shift of one of its mines in the packed polynomial
    active: list[int] = []
    for i, g in enumerate(order):
        new = [c for c in groups[g].constraints if c not in active]
        extended = active + new
        where = [extended.index(c) for c in groups[g].constraints]
        keep = [k for k, c in enumerate(extended) if last[c] != i]
        closing = [k for k, c in enumerate(extended) if last[c] == i]
        unit = pack.unit(g in marked)
        size = groups[g].size
        in_where = [c in where for c in keep]
        lowered = None
        if any(in_where):
            # A group holds no more mines than the least of its numbers' values.
            most = min([size] + [cons.constraints[c].value for c in groups[g].constraints])
            lowered = [tuple([k if f else 0 for f in in_where]) for k in range(most + 1)]
        values = tuple(cons.constraints[c].value for c in new)
        steps.append((size, values, where, keep, closing, lowered))
        units.append(unit)
        active = [extended[k] for k in keep]

    # Forward pass: forward[i] maps frontier state -> packed polynomial over prefix mines;
    # moved[i + 1] the same weighted by the mines of group order[i].
    forward: list[dict[tuple[int, ...], int]] = [{(): 1}]
    moved: list[dict[tuple[int, ...], int]] = [{}]
    transitions: list[list[tuple[tuple[int, ...], int, tuple[int, ...]]]] = []
    for (size, new_values, where, keep, closing, lowered), unit in zip(steps, units, strict=True):
        nxt: dict[tuple[int, ...], int] = {}
        nxt_moved: dict[tuple[int, ...], int] = {}
        trans = []
        ways = [comb(size, k) for k in range(size + 1)]
        # The next state: the kept numbers, less k where the group is one of their cells
        # (lowered[k], subtracted from them all at once).
        for state, poly in forward[-1].items():
            ext = state + new_values
            top = size
            for c in where:
                if ext[c] < top:
                    top = ext[c]
            work += (top + 1) * words
            if work > MAX_WORK:
                return _approximate_component(cons, comp)
            if closing:  # a number whose last group this is owes exactly k mines to it
                k = ext[closing[0]]
                choices: Iterable[int] = (
                    (k,) if k <= top and all(ext[c] == k for c in closing) else ()
                )
            else:
                choices = range(top + 1)
            same = tuple([ext[c] for c in keep])
            for k in choices:
                key = tuple(map(sub, same, lowered[k])) if k and lowered else same
                term = ways[k] * (poly << (k * unit))
                nxt[key] = nxt.get(key, 0) + term
                if k:
                    nxt_moved[key] = nxt_moved.get(key, 0) + k * term
                trans.append((state, k, key))
        forward.append(folded(nxt))
        moved.append(folded(nxt_moved))
        transitions.append(trans)

    # Backward pass: backward[i] maps a state at boundary i -> packed polynomial over the mines
    # of groups order[i:], counting completions.
    n = len(order)
    backward: list[dict[tuple[int, ...], int]] = [{} for _ in range(n + 1)]
    backward[n] = {(): 1} if () in forward[n] else {}
    for i in range(n - 1, -1, -1):
        size, unit = steps[i][0], units[i]
        ways = [comb(size, k) for k in range(size + 1)]
        after = backward[i + 1]
        here: dict[tuple[int, ...], int] = {}
        for state, k, key in transitions[i]:
            tail = after.get(key)
            if tail:
                here[state] = here.get(state, 0) + ways[k] * (tail << (k * unit))
        backward[i] = folded(here)

    packed = [backward[0].get((), 0)]  # the total, then each group's weighted sum
    for i in range(n):
        after = backward[i + 1]
        acc = 0
        for key, poly in moved[i + 1].items():
            tail = after.get(key)
            if tail:
                acc += poly * tail
        packed.append(acc)
    total, *sums = pack.unpack_many(packed)
    weighted = dict(zip(order, sums, strict=True))
    return ComponentCount(comp, total, weighted, stride=pack.stride)


def _approximate_component(cons: Constraints, comp: Component) -> ComponentCount:
    """Per-group probabilities by iterative proportional fitting of the numbers.

    Used only when exact counting would cost more than MAX_WORK. The mine count of the component
    is taken as its expected value, rounded.
    """
    groups = cons.groups
    density = 0.5
    p = {g: density for g in comp.groups}
    members_of: dict[int, list[int]] = {c: [] for c in comp.constraints}
    for g in comp.groups:
        for c in groups[g].constraints:
            members_of[c].append(g)
    for _ in range(50):
        for c, members in members_of.items():
            expected = sum(p[g] * groups[g].size for g in members)
            if expected <= 0:
                continue
            scale = cons.constraints[c].value / expected
            for g in members:
                p[g] = min(1.0, max(0.0, p[g] * scale))
    mines = round(sum(p[g] * groups[g].size for g in comp.groups))
    total = [0] * (mines + 1)
    total[mines] = 1
    return ComponentCount(comp, total, {}, exact=False, approx=p)


# -- combining components ------------------------------------------------------------------------


def combine(cons: Constraints, mines: int, counts: list[ComponentCount]) -> Analysis:
    """The analysis from the counts of every component of ``cons`` and the outside cells."""
    left = cons.mines_left
    n_out = len(cons.outside)
    totals = [trim(c.total) for c in counts]
    if any(t == [0] for t in totals):
        bad = next(c for c, t in zip(counts, totals, strict=True) if t == [0])
        cells = tuple(sorted(cons.constraints[i].cell for i in bad.component.constraints))
        raise ContradictionError(
            "no mine layout satisfies the numbers at " + _cells_text(cells), cells
        )

    prefix, suffix = running_products(totals)
    everything = prefix[-1]

    def outside_ways(m: int) -> int:
        rest = left - m
        return comb(n_out, rest) if 0 <= rest <= n_out else 0

    solutions = sum(w * outside_ways(m) for m, w in enumerate(everything) if w)
    if solutions == 0:
        low, high = mine_bounds(totals, n_out)
        raise ContradictionError(
            f"{left} mines are left to place, but the numbers need at least {low} and the "
            f"covered cells hold at most {high}"
        )

    probs: dict[Position, Fraction] = {}
    pools: list[tuple[tuple[Position, ...], Fraction]] = []
    safe: list[Position] = []
    certain: list[Position] = []
    approximate: list[Position] = []

    def settle(cells: tuple[Position, ...], p: Fraction) -> None:
        pools.append((cells, p))
        for cell in cells:
            probs[cell] = p
        if p == 0:
            safe.extend(cells)
        elif p == 1:
            certain.extend(cells)

    # ways[x]: the fillings of the outside cells when the components hold x mines.
    ways = [outside_ways(x) for x in range(len(everything))]
    for i, count in enumerate(counts):
        others = poly_mul(prefix[i], suffix[i + 1])
        # weight[m]: layouts of everything else, given this component holds m mines.
        weight = [sum(map(mul, others, ways[m:])) for m in range(len(totals[i]))]
        for g in count.component.groups:
            group = cons.groups[g]
            if count.exact:
                mass = sum(map(mul, count.weighted[g], weight))
                settle(group.cells, Fraction(mass, solutions * group.size))
            else:
                settle(group.cells, Fraction(count.approx[g]).limit_denominator(10**6))
                approximate.extend(group.cells)
    if n_out:
        mass = sum(w * outside_ways(m) * (left - m) for m, w in enumerate(everything) if w)
        settle(cons.outside, Fraction(mass, solutions * n_out))
    settle(cons.forced_mines, Fraction(1))
    settle(cons.forced_safe, Fraction(0))
    safe = sorted(safe, key=_row_major)
    certain = sorted(certain, key=_row_major)

    return Analysis(
        width=cons.width,
        height=cons.height,
        mines=mines,
        solutions=solutions,
        exact=not approximate,
        covered=cons.covered,
        safe=tuple(safe),
        mines_certain=tuple(certain),
        approximate=tuple(approximate),
        _probabilities=probs,
        pools=tuple(pools),
    )


def _row_major(cell: Position) -> tuple[int, int]:
    return cell[1], cell[0]


def _cells_text(cells: tuple[Position, ...]) -> str:
    return ", ".join(f"({x}, {y})" for x, y in cells)
