"""Where a board's lines go: those of an uneven lattice placed together, and no outer line of
cells that only passes for the board's.

Lines of an uneven lattice placed together: a game that shares out spare pixels (GNOME
Mines) draws cells of two widths a pixel apart, so each line sits a little off an even lattice.
Placed one by one where its cells read best, a lossy picture's lines wander (cells of 31 and
34 px for 32.7); placed together, every cell stays a whole number of pixels within one of the
pitch, and the wider ones first where the game gives them out first.
"""

from __future__ import annotations

import numpy as np

from bot.reading.whole import SIDES


def steady_moves(
    quality: np.ndarray,
    starts: np.ndarray,
    moves: np.ndarray,
    pitch: float,
    spread: float,
    wider_first: bool = False,
) -> np.ndarray:
    """The move (one of ``moves``) of each line starting at ``starts`` that makes the most of
    ``quality`` (``[move, line]``) with every gap between neighbouring lines less than
    ``spread`` from ``pitch``; with ``wider_first``, no gap wider than the pitch after one
    narrower. Each line alone where no moves keep to that.

    Alone, the middle line would move a pixel: cells of 34 and 32 px for a pitch of 32.7.

    >>> q = np.array([[1.0, 0.8, 1.0], [0.0, 0.9, 0.0]])  # moves 0 and 1
    >>> steady_moves(q, np.array([0.0, 33.0, 66.0]), np.array([0, 1]), 32.7, 1.0).tolist()
    [0, 0, 0]
    >>> steady_moves(q, np.array([0.0, 33.0, 66.0]), np.array([0, 1]), 32.7, 2.0).tolist()
    [0, 1, 0]

    A 33 px cell after a 32 px one, where the wider come first, is not kept:

    >>> q = np.array([[1.0, 1.0, 0.9], [0.0, 0.0, 0.0]])  # moves 0 and -1
    >>> steady_moves(q, np.array([0.0, 32.0, 65.0]), np.array([0, -1]), 32.5, 1.0).tolist()
    [0, 0, 0]
    >>> steady_moves(q, np.array([0.0, 32.0, 65.0]), np.array([0, -1]), 32.5, 1.0, True).tolist()
    [0, 0, -1]
    """
    n_moves, lines = quality.shape
    if lines < 2:
        return moves[np.argmax(quality, axis=0)]
    positions = starts[None, :] + moves[:, None]
    # States: each move, before (first half) and after (second half) a narrower gap.
    total = np.concatenate([quality[:, 0], np.full(n_moves, -np.inf)])
    came_from = np.zeros((2 * n_moves, lines), int)
    for k in range(1, lines):
        gaps = positions[:, k][:, None] - positions[:, k - 1][None, :]  # [move now, move before]
        allowed = np.abs(gaps - pitch) < spread - 1e-3
        narrower = gaps < pitch
        wide_ok = allowed & ~narrower
        # To a state before a narrower gap: from one before it by a wide gap; after: from
        # either by a narrower gap, or (unordered) from one after it by a wide gap.
        to_before = np.where(wide_ok, total[None, :n_moves], -np.inf)
        to_after = np.concatenate(
            [
                np.where(allowed & narrower, total[None, :n_moves], -np.inf),
                np.where(allowed & (narrower | (not wider_first)), total[None, n_moves:], -np.inf),
            ],
            axis=1,
        )
        came_from[:n_moves, k] = to_before.argmax(axis=1)
        came_from[n_moves:, k] = to_after.argmax(axis=1)
        total = np.concatenate([to_before.max(axis=1), to_after.max(axis=1)])
        total += np.concatenate([quality[:, k], quality[:, k]])
    if not np.isfinite(total).any():
        return moves[np.argmax(quality, axis=0)]
    state = int(total.argmax())
    chosen = np.zeros(lines, int)
    for k in range(lines - 1, -1, -1):
        chosen[k] = state % n_moves
        if k:
            state = int(came_from[state, k])
    return moves[chosen]


#: An outer line of a board every cell of which is this many times farther (root-mean-square)
#: from its image than the cells of its class inside the board (their median) is no line of
#: the board (:func:`unlike_sides_off`). The cells of one class inside lie within 15 % of their
#: median where a scaler's blur falls differently on each (sgt-mines' 13 px tiles at 125 %).
UNLIKE_FACTOR = 1.4
#: ... and at least this much farther (levels): cells matching their images exactly inside
#: (a pixel-repeating scaler's) leave the frame's nearest ones a fraction of a level off.
UNLIKE_GAP = 5.0
#: Fewest cells of a class inside the board to compare a line's cells of that class with.
UNLIKE_SAMPLES = 3
#: A cell of a class not seen inside is unlike the board's cells this many times and levels
#: farther than the median of all the cells inside: classes lie apart (sgt-mines' covered
#: cells at 125 % at 11-15, its numbers at 8), a won board's margin read as covered cells four
#: times as far as its open cells.
UNLIKE_ANY_FACTOR, UNLIKE_ANY_GAP = 2.5, 10.0


def middle_half(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The cells of ``box`` (x0, y0, x1, y1, inclusive) a quarter of its width and height (at
    least one line) in from each side: a board's cells away from any margin it was grown over.

    >>> middle_half((0, 0, 15, 7))
    (4, 2, 11, 5)
    """
    x0, y0, x1, y1 = box
    kx, ky = max(1, (x1 - x0 + 1) // 4), max(1, (y1 - y0 + 1) // 4)
    return x0 + kx, y0 + ky, x1 - kx, y1 - ky


def unlike_sides_off(
    classes: np.ndarray,
    distance: np.ndarray,
    box: tuple[int, int, int, int],
    clear: np.ndarray | None = None,
) -> tuple[int, int, int, int]:
    """``box`` (x0, y0, x1, y1, inclusive, in the arrays ``[rows, cols]`` of each cell's class
    and distance from its image) less any outer line every cell of which is
    :data:`UNLIKE_FACTOR` times farther from its image than the cells of its class inside (the
    middle half each way), and :data:`UNLIKE_GAP` levels farther.

    A flat margin beside a covered board, the frame's line on its right, passes for a column of
    covered cells once a scaler's blur has widened the tolerance of a bevel (sgt-mines' 13 px
    tiles at 125 %: 0.95 at a distance of 20.7, the cells inside 11-15); a real line has cells
    that read as those inside. A cell of a class seen fewer than :data:`UNLIKE_SAMPLES` times
    inside is compared with the median of all the cells inside, by :data:`UNLIKE_ANY_FACTOR`
    and :data:`UNLIKE_ANY_GAP` (a won board's margin reads as covered cells, and none is left
    inside); one that does not read clearly (``clear``, per cell: the margin's corner, read as
    no cell at all) is not compared, and a line no cell of which reads clearly goes.

    >>> classes = np.zeros((4, 5), int)
    >>> distance = np.full((4, 5), 12.0); distance[:, 0] = 21.0
    >>> unlike_sides_off(classes, distance, (0, 0, 4, 3))
    (1, 0, 4, 3)
    >>> distance[1, 0] = 13.0  # one cell reads as those inside
    >>> unlike_sides_off(classes, distance, (0, 0, 4, 3))
    (0, 0, 4, 3)
    >>> exact = np.zeros((4, 5)); exact[:, 0] = 0.3  # a fraction of a level: near enough
    >>> unlike_sides_off(classes, exact, (0, 0, 4, 3))
    (0, 0, 4, 3)
    >>> distance[1, 0] = 21.0; classes[0, 0] = 7  # a class not seen inside: against them all
    >>> unlike_sides_off(classes, distance, (0, 0, 4, 3))
    (0, 0, 4, 3)
    >>> distance[0, 0] = 31.0  # ... and far beyond them
    >>> unlike_sides_off(classes, distance, (0, 0, 4, 3))
    (1, 0, 4, 3)
    >>> distance[0, 0] = 12.0
    >>> clear = np.ones((4, 5), bool); clear[0, 0] = False  # ... but reading as no cell
    >>> unlike_sides_off(classes, distance, (0, 0, 4, 3), clear)
    (1, 0, 4, 3)
    """
    unclear = np.zeros(classes.shape, bool) if clear is None else ~clear
    x0, y0, x1, y1 = box
    while x1 - x0 >= 2 and y1 - y0 >= 2:  # a line each side, then the next should it go
        # Inside: the middle half each way, as a margin may be several lines deep (a margin's
        # cells inside would set what their own class is like).
        ix0, iy0, ix1, iy1 = middle_half((x0, y0, x1, y1))
        inner_classes = classes[iy0 : iy1 + 1, ix0 : ix1 + 1]
        inner_distance = distance[iy0 : iy1 + 1, ix0 : ix1 + 1]
        if inner_distance.size < UNLIKE_SAMPLES:
            break
        typical = {
            c: float(np.median(inner_distance[inner_classes == c]))
            for c in _often_inside(classes, (x0, y0, x1, y1))
        }
        overall = float(np.median(inner_distance))
        # A class seldom seen in the middle half may be common nearer the sides (a board's
        # covered cells left in its last rows): its cells inside the outer lines say what it
        # is like, by the few that read closest (a margin several lines deep reads as that
        # class too, all of it far).
        rest = (slice(y0 + 1, y1), slice(x0 + 1, x1))
        rest_classes, rest_distance = classes[rest], distance[rest]
        seldom = {
            int(c): float(np.sort(rest_distance[rest_classes == c])[UNLIKE_SAMPLES - 1])
            for c in np.unique(rest_classes)
            if int(c) not in typical and (rest_classes == c).sum() >= UNLIKE_SAMPLES
        }
        cuts = {side: _line((x0, y0, x1, y1), side) for side in SIDES}
        unlike = [
            side
            for side, cut in cuts.items()
            if _unlike(classes[cut], distance[cut], unclear[cut], typical, overall, seldom)
        ]
        if not unlike:
            break
        x0 += "left" in unlike
        x1 -= "right" in unlike
        y0 += "top" in unlike
        y1 -= "bottom" in unlike
    return x0, y0, x1, y1


#: Most outer lines of one class a board found in a lossy picture may have grown over on a
#: side (:func:`margin_depths`): a window's margin three cells deep below a won board.
MARGIN_DEPTH = 3


def margin_depths(
    classes: np.ndarray, clear: np.ndarray, box: tuple[int, int, int, int]
) -> tuple[int, int, int, int]:
    """How many outer lines on each side of ``box`` (x0, y0, x1, y1, inclusive; left, top,
    right, bottom; at most :data:`MARGIN_DEPTH`) could be a margin the board was grown over:
    every cell that reads clearly there is of one class the middle half holds fewer than
    :data:`UNLIKE_SAMPLES` of. A won board's flat margin reads as covered cells, of which it
    has none, about as far from their image as its numbers under JPEG's ringing.

    >>> classes = np.zeros((6, 6), int); classes[0] = 9; classes[:, 5] = 9
    >>> margin_depths(classes, np.ones((6, 6), bool), (0, 0, 5, 5))
    (0, 1, 1, 0)
    """
    x0, y0, x1, y1 = box
    seen = set(_often_inside(classes, box))

    def margin(line: np.ndarray, known: np.ndarray) -> bool:
        kinds = {int(c) for c in line[known]}
        return len(kinds) <= 1 and not kinds & seen

    depths = []
    for side in SIDES:
        span = x1 - x0 if side in ("left", "right") else y1 - y0
        depth = 0
        while depth < min(MARGIN_DEPTH, span // 2):
            cut = _line(box, side, depth)
            if not margin(classes[cut], clear[cut]):
                break
            depth += 1
        depths.append(depth)
    return depths[0], depths[1], depths[2], depths[3]


def _line(
    box: tuple[int, int, int, int], side: str, depth: int = 0
) -> tuple[int | slice, int | slice]:
    """The index (``[rows, cols]``) of the line ``depth`` lines in from ``side`` of ``box``
    (x0, y0, x1, y1, inclusive).

    >>> _line((1, 2, 5, 6), "right", 1)
    (slice(2, 7, None), 4)
    """
    x0, y0, x1, y1 = box
    if side in ("left", "right"):
        return slice(y0, y1 + 1), (x0 + depth if side == "left" else x1 - depth)
    return (y0 + depth if side == "top" else y1 - depth), slice(x0, x1 + 1)


def _often_inside(classes: np.ndarray, box: tuple[int, int, int, int]) -> list[int]:
    """The classes at least :data:`UNLIKE_SAMPLES` cells of the middle half of ``box`` read as
    (:func:`middle_half`)."""
    ix0, iy0, ix1, iy1 = middle_half(box)
    inner = classes[iy0 : iy1 + 1, ix0 : ix1 + 1]
    return [int(c) for c in np.unique(inner) if (inner == c).sum() >= UNLIKE_SAMPLES]


def _unlike(
    classes: np.ndarray,
    distance: np.ndarray,
    unclear: np.ndarray,
    typical: dict[int, float],
    overall: float,
    seldom: dict[int, float] | None = None,
) -> bool:
    """Whether every cell of a line that reads clearly is :data:`UNLIKE_FACTOR` times and
    :data:`UNLIKE_GAP` levels farther from its image than ``typical`` (its class's median
    distance inside the board; ``overall``, all the cells', for a class seldom seen there);
    or whether none reads clearly."""
    known = ~unclear
    if not known.any():
        return True  # read as no cell at all
    seldom = seldom or {}

    def limit(c: int) -> float:
        if c in typical:
            return max(UNLIKE_FACTOR * typical[c], typical[c] + UNLIKE_GAP)
        near = min(overall, seldom.get(c, overall))
        return max(UNLIKE_ANY_FACTOR * near, near + UNLIKE_ANY_GAP)

    limits = [limit(int(c)) for c in classes[known]]
    return all(d > limit for d, limit in zip(distance[known], limits, strict=True))
