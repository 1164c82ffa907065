"""Component counts kept for the rest of a game, found again by the shape of the component.

A game asks for the same counts again and again: every analysis after a move recounts the
components the move did not touch, and every guess's look-ahead recounts, around each
candidate, sub-problems that the previous guess's look-ahead already counted. A component's
count depends only on its shape: its numbers' values and, group by group, the group's size,
which of the numbers it touches and whether it is marked (see
:func:`solver.probability.count_component`), and the caller's window on its layouts. Two
components of the same shape anywhere on the board have the same counts, group for group.

:class:`CountMemo` is owned by its caller (a game loop keeps one per game) and passed down to
the analyses; nothing is kept between games unless the caller keeps it.

>>> from solver.board import Board
>>> from solver.constraints import board_constraints
>>> memo = CountMemo()
>>> cons = board_constraints(Board("1..1\\n...."), 2)
>>> [c.total for c in count_components(cons, memo)]
[[0, 3], [0, 3]]
>>> memo.hits, memo.misses  # the two 1s in their corners have the same shape
(1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable

from solver.constraints import Component, Constraints
from solver.packing import Known
from solver.probability import ComponentCount, count_component

_Shape = tuple[
    tuple[int, ...],
    tuple[tuple[int, tuple[int, ...], bool], ...],
    tuple[int, int, int] | None,
]


class CountMemo:
    """Exact component counts by shape, for one caller (a game): see the module's docstring.

    Holds at most ``limit`` shapes; past that it starts afresh (a long game on a huge board
    does not grow it without end). ``hits`` and ``misses`` count the look-ups.
    """

    def __init__(self, limit: int = 20_000) -> None:
        self.limit = limit
        self.hits = 0
        self.misses = 0
        # shape -> (total, weighted in the component's group order, stride)
        self._counts: dict[_Shape, tuple[list[int], list[list[int]], int]] = {}

    def count(
        self,
        cons: Constraints,
        comp: Component,
        marked: Iterable[int] = frozenset(),
        known: Known | None = None,
    ) -> ComponentCount:
        """:func:`solver.probability.count_component`, from the memo when the shape is known."""
        marked = frozenset(marked)
        shape = _shape(cons, comp, marked, known)
        kept = self._counts.get(shape)
        if kept is not None:
            self.hits += 1
            total, weighted, stride = kept
            return ComponentCount(
                comp, total, dict(zip(comp.groups, weighted, strict=True)), stride=stride
            )
        self.misses += 1
        count = count_component(cons, comp, marked, known)
        if count.exact:  # an approximation is cheap and is not what the shape alone gives
            if len(self._counts) >= self.limit:
                self._counts.clear()
            self._counts[shape] = (
                count.total,
                [count.weighted[g] for g in comp.groups],
                count.stride,
            )
        return count

    def keep(
        self,
        values: tuple[int, ...],
        groups: tuple[tuple[int, tuple[int, ...]], ...],
        total: list[int],
        weighted: list[list[int]],
    ) -> None:
        """Keep a count made elsewhere, of a component with no marked group and no window:
        its numbers' ``values``, and per group (in board order of their first cells) its size
        and the numbers it touches (as indices into ``values``), ``total`` and ``weighted``
        as in :class:`~solver.probability.ComponentCount`. Numbers in board order, group by
        group in board order: the order an analysis of the board lists them in, so it finds
        the count here."""
        if len(self._counts) >= self.limit:
            self._counts.clear()
        shape = (values, tuple((size, numbers, False) for size, numbers in groups), None)
        self._counts[shape] = (list(total), [list(w) for w in weighted], len(total))


def _shape(
    cons: Constraints, comp: Component, marked: frozenset[int], known: Known | None
) -> _Shape:
    """What a component's count depends on, in its own numbering."""
    local = {c: i for i, c in enumerate(comp.constraints)}
    groups = cons.groups
    return (
        tuple(cons.constraints[c].value for c in comp.constraints),
        tuple(
            (groups[g].size, tuple(local[c] for c in groups[g].constraints), g in marked)
            for g in comp.groups
        ),
        None if known is None else (known.low, known.high, known.layouts),
    )


def count_components(cons: Constraints, memo: CountMemo | None = None) -> list[ComponentCount]:
    """Every component of ``cons`` counted on its own, through ``memo`` when there is one."""
    if memo is None:
        return [count_component(cons, comp) for comp in cons.components]
    return [memo.count(cons, comp) for comp in cons.components]
