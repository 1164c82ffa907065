"""Play strategies: which cells to open (or flag) next.

Every strategy opens the cells it knows are safe first; they differ in how they guess:

* ``min-risk``: the covered cell with the lowest mine probability, ties broken at random.
* ``best``: the lowest probability refined by look-ahead (see :func:`best_guess`).
* ``pgms``: the PGMS Equation Strategy (:mod:`solver.pgms`), a rule-based baseline.

:func:`plan` works on a flat list of cells (``y * width + x``) and returns every certain move at
once (a batch of safe opens and certain flags) or a single guess; a game loop plays the batch
and asks again.

>>> import random
>>> [m.x for m in plan_moves(Board("11..\\n...."), 2, "best", random.Random(0)) if m.p_mine == 0]
[2, 2]
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from solver import frontier, pgms
from solver.board import Board
from solver.errors import MinebotError
from solver.moves import Move

STRATEGIES = ("best", "min-risk", "pgms")

#: Probabilities closer than this are treated as equal.
TIE = 1e-9


def plan_moves(board: Board, mines: int, strategy: str, rng: random.Random) -> list[Move]:
    """:func:`plan` for a :class:`Board`."""
    return plan(list("".join(board.rows)), board.width, board.height, mines, strategy, rng)


def plan(
    cells: Sequence[str],
    width: int,
    height: int,
    mines: int,
    strategy: str,
    rng: random.Random,
) -> list[Move]:
    """Certain flags, then either every certainly safe cell or one guess."""
    if strategy == "pgms":
        return _plan_pgms(list(cells), width, height, mines, rng)
    if strategy not in STRATEGIES:
        raise MinebotError(
            f"unknown strategy {strategy!r}: expected one of {', '.join(STRATEGIES)}"
        )
    outlook = frontier.analyse(list(cells), width, height, mines, quick=True)
    flags = [Move("flag", j % width, j // width, 1.0) for j in outlook.mines]
    if outlook.safe:
        return flags + [Move("open", j % width, j // width, 0.0) for j in outlook.safe]
    if not outlook.probability:
        outlook = frontier.analyse(list(cells), width, height, mines)
        flags = [Move("flag", j % width, j // width, 1.0) for j in outlook.mines]
        if outlook.safe:
            return flags + [Move("open", j % width, j // width, 0.0) for j in outlook.safe]
    choices = [j for j, p in outlook.probability.items() if p < 1.0]
    if not choices:
        raise MinebotError("no cell is left to open: every covered cell is a mine")
    if strategy == "min-risk":
        j = min_risk_guess(outlook, rng)
    else:
        j = best_guess(list(cells), width, height, outlook, rng)
    return flags + [Move("open", j % width, j // width, outlook.probability[j])]


def min_risk_guess(outlook: frontier.Outlook, rng: random.Random) -> int:
    """The lowest mine probability, ties broken at random."""
    low = min(outlook.probability.values())
    ties = sorted(j for j, p in outlook.probability.items() if p <= low + TIE)
    return rng.choice(ties)


def best_guess(
    cells: list[str], width: int, height: int, outlook: frontier.Outlook, rng: random.Random
) -> int:
    """Lowest probability, refined by look-ahead."""
    from solver.game import neighbour_table

    nbrs = neighbour_table(width, height)
    low = min(outlook.probability.values())
    ties = sorted(j for j, p in outlook.probability.items() if p <= low + TIE)

    # Fewer covered neighbours: more likely to show a zero or a number that settles cells.
    def score(j: int) -> tuple[int, float]:
        return (sum(cells[k] in ".?" for k in nbrs[j]), rng.random())

    return min(ties, key=score)


def _plan_pgms(
    cells: list[str], width: int, height: int, mines: int, rng: random.Random
) -> list[Move]:
    safe, mine_cells, guess = pgms.choose(cells, width, height, mines, rng)
    flags = [Move("flag", j % width, j // width, 1.0) for j in mine_cells]
    if safe:
        return flags + [Move("open", j % width, j // width, 0.0) for j in safe]
    if guess is None:  # only mines settled: guess with them flagged
        for j in mine_cells:
            cells[j] = "F"
        return flags + _plan_pgms(cells, width, height, mines, rng)
    j, p = guess
    return flags + [Move("open", j % width, j // width, p)]
