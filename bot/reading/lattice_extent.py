"""Where a board's lattice starts and stops: the run of line-to-line blocks that look like
cells (see :mod:`bot.reading.lattice`)."""

from __future__ import annotations

import numpy as np

from bot.reading.lattice_lines import Axis, px


def even_ends(lines: tuple[int, ...]) -> tuple[int, ...]:
    """The outer lines one local pitch from their neighbours: outside the board the frame's
    own edges (a black line meeting the white window) can outshine the cell boundary.

    >>> even_ends((4, 25, 45, 65, 87))
    (5, 25, 45, 65, 85)
    """
    if len(lines) < 4:
        return lines
    pitch = (lines[-2] - lines[1]) / (len(lines) - 3)
    return (px(lines[1] - pitch), *lines[1:-1], px(lines[-2] + pitch))


def best_extent(
    own_edges: np.ndarray,
    cross_edges: np.ndarray,
    candidates: list[Axis],
    across: Axis,
    cross_span: tuple[int, int],
) -> tuple[Axis, tuple[int, int]]:
    """The boundary candidate giving the most cells (the first one on a tie)."""
    best: tuple[Axis, tuple[int, int]] | None = None
    for axis in candidates:
        extent = _extent(own_edges, cross_edges, axis, across, cross_span)
        if best is None or extent[1] > best[1][1]:
            best = (axis, extent)
    assert best is not None
    return best


def _extent(
    own_edges: np.ndarray,
    cross_edges: np.ndarray,
    along: Axis,
    across: Axis,
    cross_span: tuple[int, int],
) -> tuple[int, int]:
    """First line index and number of cells along one axis (axis 1 of the edge maps).

    The block between two boundary lines belongs to the board when, over the board's span
    the other way, it shows the skin's periodic edges: its own edge pattern along the axis
    *and* the lines running across it (the strip beyond a closing grid line has the first
    but not the second; the frame around a board has neither).
    """
    c0, c1 = cross_span
    n_along = own_edges.shape[1]
    n_cross = own_edges.shape[0]
    cross_lines = [q for q in across.lines if c0 - across.pitch <= q <= c1 + across.pitch]
    oks = []
    for k in range(len(along.lines) - 1):
        start, stop = along.lines[k], along.lines[k + 1]
        own = []
        for off in along.offsets:
            p = start + off
            if 0 <= p < n_along and p < stop:
                own.append(own_edges[c0:c1, max(p - 1, 0) : p + 2].any(axis=1).mean())
            else:
                own.append(0.0)
        b0 = max(start + (stop - start) // 6, 0)
        b1 = min(stop - (stop - start) // 6, n_along)
        cross = []
        if b1 > b0:
            for q0 in cross_lines:
                for off in across.offsets:
                    q = q0 + off
                    if c0 <= q < c1 and 0 <= q < n_cross:
                        cross.append(cross_edges[max(q - 1, 0) : q + 2, b0:b1].any(axis=0).mean())
        # the boundary itself must run along the block; the other periodic edges may be cell
        # content (digits on a won board) that not every block has
        own_score = own[along.offsets.index(0)] if 0 in along.offsets else 0.0
        cross_score = float(np.mean(cross)) if cross else 0.0
        oks.append(own_score >= 0.5 and cross_score >= 0.3)
    best = (0, 0)
    k = 0
    while k < len(oks):
        if oks[k]:
            j = k
            while j < len(oks) and oks[j]:
                j += 1
            if j - k > best[1]:
                best = (k, j - k)
            k = j
        else:
            k += 1
    return best
