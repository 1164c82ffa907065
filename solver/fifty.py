"""50/50s that no number can ever settle: take them early.

Two covered cells side by side, one of them a mine, whose other neighbours all see both cells or
neither (the cells beyond the pair's ends are mines or off the board): no number will ever tell
them apart, so one of them must be guessed at even odds some time. Taking such a guess now costs
nothing, and the number it shows may help the rest of the board (:func:`forced_guess`).
"""

from __future__ import annotations

from solver import frontier
from solver.errors import ContradictionError

#: Probabilities closer than this are treated as equal.
TIE = 1e-9


def forced_guess(
    cells: list[str], width: int, height: int, mines: int, outlook: frontier.Outlook
) -> int | None:
    """A cell of a 50/50 that no number can ever settle, if there is one: guess it now.

    Two side-by-side covered cells, one of them a mine in every layout, whose neighbours beyond
    the pair's ends are off the board or mines: every cell that could later show a number sees
    both or neither, so the guess is unavoidable.

    >>> cells = list(".3F......" ".6F......" "FFF......")
    >>> out = frontier.analyse(cells, 9, 3, mines=8)
    >>> forced_guess(cells, 9, 3, 8, out) in (0, 9)
    True
    """
    probability = outlook.probability
    mined = set(outlook.mines) | {k for k, ch in enumerate(cells) if ch in "F*X"}

    def quiet(x: int, y: int) -> bool:
        return not (0 <= x < width and 0 <= y < height) or y * width + x in mined

    for a, p in sorted(probability.items()):
        if abs(p - 0.5) > TIE:
            continue
        ax, ay = a % width, a // width
        for dx, dy in ((1, 0), (0, 1)):
            bx, by = ax + dx, ay + dy
            b = by * width + bx
            if bx >= width or by >= height or abs(probability.get(b, 0.0) - 0.5) > TIE:
                continue
            ends = [(ax - dx + dy * d, ay - dy + dx * d) for d in (-1, 0, 1)]
            ends += [(bx + dx + dy * d, by + dy + dx * d) for d in (-1, 0, 1)]
            if all(quiet(x, y) for x, y in ends) and not (
                fits(cells, width, height, mines, {a: "F", b: "F"})
                or fits(cells, width, height, mines, {a: "W", b: "W"})
            ):
                return a
    return None


def fits(cells: list[str], width: int, height: int, mines: int, change: dict[int, str]) -> bool:
    """Whether some layout fits ``cells`` with ``change`` made ('F' a mine, 'W' safe)."""
    trial = list(cells)
    for k, ch in change.items():
        trial[k] = ch
    try:
        return frontier.analyse(trial, width, height, mines).solutions > 0
    except ContradictionError:
        return False
