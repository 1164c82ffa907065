"""What a trial reveal of :class:`solver.lookahead.Lookahead` gives, and what it keeps per cell.

:class:`Trial` is the answer; :class:`Part` and :class:`Prepared` are the look-ahead's own
working data (a factor of the count, and what every number of one cell shares).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from solver.board import Position
from solver.constraints import Constraint, Group
from solver.probability import ComponentCount


@dataclass(frozen=True)
class Trial:
    """The position after a reveal.

    ``solutions`` counts its mine layouts (0: the number cannot show). ``has_safe``: some covered
    cell is safe in every layout. ``lowest`` is the lowest mine probability among the covered
    cells other than those settled as mines before the reveal (None when none is left).
    ``probabilities`` (only when asked for) maps every covered cell to its exact probability.
    """

    solutions: int
    has_safe: bool = False
    lowest: Fraction | None = None
    probabilities: dict[int, Fraction] | None = None


@dataclass(frozen=True)
class Part:
    """One factor of the count: a polynomial over its mines, and its groups' mine sums."""

    total: list[int]
    groups: list[tuple[list[int], tuple[Position, ...], bool]]  # (weighted, cells, in lowest)
    #: Per group, a lower bound of its mine probability after any reveal elsewhere (the
    #: least over the part's mine counts, a little under): a group above the lowest so far
    #: need not be looked at. Only for the parts of the rest.
    lows: tuple[float, ...] = ()


@dataclass(frozen=True)
class Prepared:
    """What every number of one cell shares: its sub-problem counted once for all numbers."""

    impossible: bool  # a number around the cell has no covered cell left but still owes mines
    known: int  # mines around the cell already known (flags, shown, settled by single numbers)
    room: int  # covered, unsettled neighbours: the new number's cells
    #: The sub-problem's count, the mines among the new number's cells as a second variable
    #: (None when no covered cell is left in it), and its groups' cells and lowest-flags.
    count: ComponentCount | None
    groups: tuple[tuple[tuple[Position, ...], bool], ...]
    rest: list[Part]  # the components left as they are
    outside: tuple[int, ...]  # cells touching no number after the reveal
    #: The product of the rest's totals, and their running products from either end (each
    #: part's product of the others' is made from them when needed): every number's trial
    #: multiplies only its own slice into them.
    rest_all: list[int]
    rest_products: tuple[list[list[int]], list[list[int]]]
    #: ``ways[m]``: the fillings of the outside cells when the parts hold ``m`` mines; and the
    #: weight of the new number's slice, ``m`` -> the layouts of the rest and the outside with it.
    ways: list[int]
    head_weight: list[int]
    #: The sub-problem itself: its numbers, its groups and which of them are marked.
    constraints: tuple[Constraint, ...] = ()
    sub_groups: tuple[Group, ...] = ()
    marked: frozenset[int] = frozenset()
