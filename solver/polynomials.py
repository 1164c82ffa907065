"""Polynomials in the number of mines, as lists of coefficients: ``p[k]`` counts the layouts
of a group of cells holding ``k`` mines. Components multiply (their layouts combine freely);
the board's total picks one coefficient.

>>> poly_mul([1, 2], [1, 1])  # two cells beside a 1-or-none and one free cell
[1, 3, 2]
"""

from __future__ import annotations


def poly_mul(a: list[int], b: list[int]) -> list[int]:
    """The product of two polynomials given by their coefficients.

    >>> poly_mul([1, 1], [1, 2])
    [1, 3, 2]
    """
    if a == [1]:
        return b
    if b == [1]:
        return a
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                if y:
                    out[i + j] += x * y
    return out


def running_products(totals: list[list[int]]) -> tuple[list[list[int]], list[list[int]]]:
    """``prefix[i]`` and ``suffix[i]``: the product (:func:`poly_mul`) of ``totals`` before
    and from index ``i`` (each list one longer than ``totals``), so that all but one of them is
    ``poly_mul(prefix[i], suffix[i + 1])``.

    >>> running_products([[1, 1], [1, 2]])
    ([[1], [1, 1], [1, 3, 2]], [[1, 3, 2], [1, 2], [1]])
    """
    prefix = [[1]]
    for t in totals:
        prefix.append(poly_mul(prefix[-1], t))
    suffix = [[1]] * (len(totals) + 1)
    for i in range(len(totals) - 1, -1, -1):
        suffix[i] = poly_mul(totals[i], suffix[i + 1])
    return prefix, suffix


def trim(poly: list[int]) -> list[int]:
    """The polynomial without its zero coefficients at the top (at least one is kept)."""
    end = len(poly)
    while end > 1 and poly[end - 1] == 0:
        end -= 1
    return poly[:end]


def mine_bounds(totals: list[list[int]], outside: int) -> tuple[int, int]:
    """Fewest and most mines components of ``totals`` (trimmed, none ``[0]``) and ``outside``
    cells may hold."""
    low = sum(next(m for m, w in enumerate(t) if w) for t in totals)
    return low, sum(len(t) - 1 for t in totals) + outside
