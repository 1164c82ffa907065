"""Brute-force enumeration of mine layouts: the reference the exact engine is tested against."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from solver.board import MINE_CHARS, NUMBERS, Board, Position


def enumerate_probabilities(board: Board, mines: int) -> tuple[int, dict[Position, Fraction]]:
    """Count every placement of the remaining mines among the covered cells that fits all numbers.

    Returns the number of layouts and each covered cell's mine probability (empty if none fit).
    """
    covered = board.covered_cells()
    left = mines - board.known_mines()
    numbers = [
        (int(ch), [n for n in board.neighbours(x, y)], (x, y))
        for (x, y), ch in board.items()
        if ch in NUMBERS
    ]
    hits = dict.fromkeys(covered, 0)
    layouts = 0
    if 0 <= left <= len(covered):
        for chosen in combinations(covered, left):
            mine_set = set(chosen)
            if all(
                value == sum((n in mine_set) or board[n] in MINE_CHARS for n in neighbours)
                for value, neighbours, _ in numbers
            ):
                layouts += 1
                for cell in chosen:
                    hits[cell] += 1
    if not layouts:
        return 0, {}
    return layouts, {cell: Fraction(h, layouts) for cell, h in hits.items()}
