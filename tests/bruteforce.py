"""Brute-force enumeration of mine layouts: the reference the exact engine is tested against."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

from solver.board import MINE_CHARS, NUMBERS, Board, Position


def enumerate_probabilities(board: Board, mines: int) -> tuple[int, dict[Position, Fraction]]:
    r"""Count every placement of the remaining mines among the covered cells that fits all numbers.

    Returns the number of layouts and each covered cell's mine probability (empty if none fit).
    Every set of mines among the covered cells next to a number is tried; the cells next to no
    number are alike, so each fitting set stands for every way of placing the other mines among
    them (a binomial count), each of those cells a mine in the same share of them.

    >>> enumerate_probabilities(Board("1.\n.."), 1)[1][(1, 1)]
    Fraction(1, 3)
    """
    covered = board.covered_cells()
    left = mines - board.known_mines()
    numbers = [
        (int(ch), [n for n in board.neighbours(x, y)], (x, y))
        for (x, y), ch in board.items()
        if ch in NUMBERS
    ]
    touched = {n for _, neighbours, _ in numbers for n in neighbours}
    edge = [c for c in covered if c in touched]
    rest = [c for c in covered if c not in touched]
    hits = dict.fromkeys(covered, 0)
    layouts = 0
    rest_mines = 0  # summed over every layout: mines among the cells next to no number
    for k in range(max(0, left - len(rest)), min(left, len(edge)) + 1):
        ways = comb(len(rest), left - k)
        for chosen in combinations(edge, k):
            mine_set = set(chosen)
            if all(
                value == sum((n in mine_set) or board[n] in MINE_CHARS for n in neighbours)
                for value, neighbours, _ in numbers
            ):
                layouts += ways
                rest_mines += ways * (left - k)
                for cell in chosen:
                    hits[cell] += ways
    if not layouts:
        return 0, {}
    for cell in rest:
        hits[cell] = rest_mines // len(rest)  # whole: alike cells share the mines equally
    return layouts, {cell: Fraction(h, layouts) for cell, h in hits.items()}
