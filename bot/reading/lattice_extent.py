"""Where a board's lattice starts and stops: the run of line-to-line blocks that look like
cells (see :mod:`bot.reading.lattice`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bot.reading.lattice_lines import Axis, px

#: Fewest cells of a seed along an axis for its own lines to give the pitch the lines beyond
#: it are placed at (a smaller seed goes by the pitch found over the dense area).
SEED_PITCH_CELLS = 4


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


def extrapolated(
    lines: tuple[int, ...], pitch: float, s0: int, s1: int, k0: int, k1: int
) -> tuple[int, ...]:
    """``lines`` with those in ``k0..k1`` outside the seed's ``s0..s1`` placed one pitch apart
    from the seed's: beyond the seed the lines were tracked over open cells and frames, whose
    edges pull them aside. A seed of several cells gives the pitch and the start itself from
    its inner lines (its outer ones may sit on the frame; a fraction of a pixel off, summed
    over a board, adds a pixel); a smaller one goes by ``pitch``.

    >>> extrapolated((0, 18, 40, 60, 80, 101, 123), 20.06, 1, 5, 0, 6)
    (0, 20, 40, 60, 80, 100, 120)
    """
    if s1 - s0 >= SEED_PITCH_CELLS:
        s0, s1 = s0 + 1, s1 - 1
        pitch = (lines[s1] - lines[s0]) / (s1 - s0)
    out = list(lines)
    for k in range(k0, min(s0, len(out))):
        out[k] = px(lines[s0] - (s0 - k) * pitch)
    for k in range(s1 + 1, min(k1 + 1, len(out))):
        out[k] = px(lines[s1] + (k - s1) * pitch)
    return tuple(out)


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


#: Share of a block's pixels with an edge above which it is texture (a photo, noise), which
#: has edges at every offset, the cell's too, but is no cell: cells are mostly flat inside.
TEXTURE = 0.6


def _textured(edges: np.ndarray, r0: int, r1: int, c0: int, c1: int) -> bool:
    """Whether the middle ``c0..c1`` of a block over rows ``r0..r1`` is edges nearly all over."""
    part = edges[r0:r1, c0:c1]
    return bool(part.size) and float(part.mean()) >= TEXTURE


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
    # Each line's edges within a pixel of it, counted once for every block (the blocks differ
    # only in which columns they take): a column's share over the span, a row's running count.
    own_share = _near(own_edges[c0:c1], axis=1).mean(axis=0)
    rows = sorted({q0 + off for q0 in cross_lines for off in across.offsets
                   if c0 <= q0 + off < c1 and 0 <= q0 + off < n_cross})  # fmt: skip
    counts = {
        q: np.concatenate(([0], np.cumsum(cross_edges[max(q - 1, 0) : q + 2].any(axis=0))))
        for q in rows
    }
    oks = []
    for k in range(len(along.lines) - 1):
        start, stop = along.lines[k], along.lines[k + 1]
        own = []
        for off in along.offsets:
            p = start + off
            own.append(float(own_share[p]) if 0 <= p < n_along and p < stop else 0.0)
        b0 = max(start + (stop - start) // 6, 0)
        b1 = min(stop - (stop - start) // 6, n_along)
        cross = []
        if b1 > b0:
            for q0 in cross_lines:
                for off in across.offsets:
                    q = q0 + off
                    if c0 <= q < c1 and 0 <= q < n_cross:
                        cross.append(float(counts[q][b1] - counts[q][b0]) / (b1 - b0))
        # the boundary itself must run along the block; the other periodic edges may be cell
        # content (digits on a won board) that not every block has
        own_score = own[along.offsets.index(0)] if 0 in along.offsets else 0.0
        cross_score = float(np.mean(cross)) if cross else 0.0
        oks.append(
            own_score >= 0.5 and cross_score >= 0.3 and not _textured(own_edges, c0, c1, b0, b1)
        )
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


def _near(edges: np.ndarray, axis: int) -> np.ndarray:
    """Whether each pixel of ``edges`` has an edge within one pixel of it along ``axis``.

    >>> _near(np.array([[0, 0, 1, 0, 0]], bool), axis=1).astype(int).tolist()
    [[0, 1, 1, 1, 0]]
    """
    near = edges.astype(bool)
    out = near.copy()
    if axis == 1:
        out[:, 1:] |= near[:, :-1]
        out[:, :-1] |= near[:, 1:]
    else:
        out[1:] |= near[:-1]
        out[:-1] |= near[1:]
    return out


#: Share of a strip's length that a cell side or a frame line must cover to count as unbroken.
UNBROKEN = 0.9
#: Share of a strip's blocks that must show both their sides for the strip to be a row of
#: cells (a header's digits and buttons give a few such blocks by chance, never this many).
CELL_SHARE = 0.5
#: Fewest blocks drawn like the board's cells in a strip whose sides draw no lines but along
#: which the frame runs on (a header's one button may look like a cell; two do not).
MIN_FRAMED_CELLS = 2


#: Mean colour difference (0-255) within which two blocks are drawn alike.
SAME_LOOK = 12.0
#: Fewest cells across a strip for judging whether it belongs to the board.
SPAN = 4

Rect = tuple[int, int, int, int]  # first and last+1 line index across, then along


#: Longest run of rows without an edge (px) that a line drawn dotted leaves between its dots
#: (ace-minesweeper's gutter: a dot every 6 px between open cells)...
DOT_GAP = 3
#: ... and the longest run with one, and the fewest runs, for a line to count as dotted (two
#: strokes of an LED digit, a gap between them, are no dotted line).
DOT_LENGTH, MIN_DOTS = 6, 3


def _hits(band: np.ndarray) -> float:
    """Share of the band's rows with an edge anywhere in it; along a dotted line (short runs
    of rows with an edge, :data:`MIN_DOTS` or more, at most :data:`DOT_GAP` rows apart) the
    rows between the dots count too.

    >>> dots = np.array([1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0], bool)[:, None]
    >>> round(_hits(dots), 2), round(_hits(dots[:6]), 2)  # three dots run on; two do not
    (0.83, 0.67)
    """
    if not band.size:
        return 0.0
    marked = band.any(axis=1)
    edges = np.diff(np.r_[0, marked.astype(np.int8), 0])
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    hits = int(marked.sum())
    if starts.size >= MIN_DOTS and (ends - starts).max() <= DOT_LENGTH:
        gaps = starts[1:] - ends[:-1]
        hits += int(gaps[gaps <= DOT_GAP].sum())
    return hits / band.shape[0]


def _frame_cols(
    side: np.ndarray, across: tuple[int, ...], c0: int, c1: int, a: int, b: int, reach: int
) -> list[int]:
    """The board's frame at the ends of a span: for the lines ``across[c0]`` and
    ``across[c1]``, the pixel column within ``reach`` of each whose edge runs unbroken over
    rows ``a..b`` (none for an end without one: an end inside the board, or no frame)."""
    out = []
    n = side.shape[1]
    for x in (across[c0], across[c1]):
        lo, hi = max(x - reach, 0), min(x + reach + 1, n)
        if hi <= lo:
            continue
        share = side[a:b, lo:hi].mean(axis=0)
        best = int(np.argmax(share))
        if share[best] >= UNBROKEN:
            out.append(lo + best)
    return out


@dataclass(frozen=True)
class View:
    """A board image seen along one axis: strips run along axis 1. ``side`` holds the edges
    across a strip (a cell's sides), ``own`` those along it, ``pixels`` the colours."""

    side: np.ndarray
    own: np.ndarray
    pixels: np.ndarray


def _block(view: View, a: int, b: int, x0: int, x1: int, m: int) -> np.ndarray:
    return view.pixels[a + m : b - m, x0 + m : x1 - m]


def _looks_like(block: np.ndarray, others: list[np.ndarray]) -> bool:
    """Whether ``block`` is drawn like one of ``others`` (mean colour difference), allowing a
    one-pixel shift: on a scaled desktop lines are rounded to one pixel or the next, so
    blocks differ in size by a pixel or two too (compared over the size they share)."""
    for other in others:
        h = min(block.shape[0], other.shape[0]) - 2
        w = min(block.shape[1], other.shape[1]) - 2
        if h <= 0 or w <= 0:
            continue
        core = block[1 : 1 + h, 1 : 1 + w]
        for dy in (0, -1, 1):
            for dx in (0, -1, 1):
                part = other[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w]
                if part.shape == core.shape and float(np.abs(core - part).mean()) <= SAME_LOOK:
                    return True
    return False


def strip_is_board(
    view: View,
    across: tuple[int, ...],
    span: tuple[int, int],
    strip: tuple[int, int],
    inner: tuple[int, int],
    frame: list[int],
    lined: bool = False,
) -> bool:
    """Whether the strip of rows ``strip`` (one lattice step) over the lines ``span`` belongs
    to the board whose outermost strip is ``inner``.

    Yes when most of its blocks are cells: edges along both sides, and drawn like a block of
    the board's strip beside it (a row of cells repeats its looks at every lattice line; a
    header's counters and buttons line up with a few lines by chance, never look like a
    cell), or when the board's frame runs on along its ends (open cells that draw no lines,
    inside the frame; an end inside the board does not count). With ``lined``, a strip with
    sides at nearly every lattice line is kept too (a seed's row on a scaled desktop, where
    cells are resampled unalike)."""
    c0, c1 = span
    a, b = strip
    m = max(1, (b - a) // 6)
    if a < 1 or b + 1 >= view.side.shape[0] or b - a <= 2 * m:
        return False
    rows = view.side[a + m : b - m]
    if _textured(view.own, a + m, b - m, across[c0], across[c1]):
        return False
    full = [_hits(rows[:, max(x - 1, 0) : x + 2]) >= UNBROKEN - 0.05 for x in across[c0 : c1 + 1]]
    if lined and sum(full) >= 0.75 * len(full):
        return True
    board = [_block(view, *inner, across[k], across[k + 1], m) for k in range(c0, c1)]
    cells = 0
    for k in range(c0, c1):
        if full[k - c0] and full[k + 1 - c0]:
            cells += _looks_like(_block(view, a, b, across[k], across[k + 1], m), board)
    if cells >= CELL_SHARE * (c1 - c0):
        return True
    # Open cells that draw no lines: the frame must run on along the strip's ends, and two
    # of its blocks at least must be cells as seen beside it (a header box may line up with
    # one side of the frame, and hold a button drawn like a cell: ace-minesweeper's).
    return (
        bool(frame)
        and cells >= MIN_FRAMED_CELLS
        and all(rows[:, col].mean() >= UNBROKEN for col in frame)
    )


def grow_extent(
    pixels: np.ndarray,
    ev: np.ndarray,
    eh: np.ndarray,
    xs: tuple[int, ...],
    ys: tuple[int, ...],
    rect: Rect,
) -> Rect:
    """The lattice span ``rect`` (first and last+1 index into ``xs``, then ``ys``) moved out to
    the board's edges, or in from a strip that is no row of cells (a header taken for one).

    A seed found where the cell period is strong (covered cells, drawn lines) stops where the
    board has open cells that draw no lines; a row or column beyond it belongs to the board
    while it is a row of cells or the board's frame runs on along its ends (see
    :func:`strip_is_board`). ``pixels`` is the image (float, channels last).
    """
    c0, c1, r0, r1 = rect
    reach_x = max(2, int((xs[-1] - xs[0]) / max(len(xs) - 1, 1) / 4))
    reach_y = max(2, int((ys[-1] - ys[0]) / max(len(ys) - 1, 1) / 4))
    rows_view = View(ev, eh, pixels)
    cols_view = View(eh.T, ev.T, pixels.transpose(1, 0, 2))

    def row_ok(j: int, c0: int, c1: int, r0: int, r1: int, lined: bool = False) -> bool:
        if j < 0 or j + 1 >= len(ys):
            return False
        frame = _frame_cols(ev, xs, c0, c1, ys[r0], ys[r1], reach_x)
        near = r0 if j < r0 else r1 - 1
        strip, inner = (ys[j], ys[j + 1]), (ys[near], ys[near + 1])
        return strip_is_board(rows_view, xs, (c0, c1), strip, inner, frame, lined)

    def col_ok(k: int, c0: int, c1: int, r0: int, r1: int, lined: bool = False) -> bool:
        if k < 0 or k + 1 >= len(xs):
            return False
        frame = _frame_cols(eh.T, ys, r0, r1, xs[c0], xs[c1], reach_y)
        near = c0 if k < c0 else c1 - 1
        strip, inner = (xs[k], xs[k + 1]), (xs[near], xs[near + 1])
        return strip_is_board(cols_view, ys, (r0, r1), strip, inner, frame, lined)

    # In: outer strips of the seed that are no row of cells (judged against the rest, and
    # only over a span of several cells: along one or two cells anything looks like cells).
    while r1 - r0 > 1 and c1 - c0 >= SPAN and not row_ok(r0, c0, c1, r0 + 1, r1, True):
        r0 += 1
    while r1 - r0 > 1 and c1 - c0 >= SPAN and not row_ok(r1 - 1, c0, c1, r0, r1 - 1, True):
        r1 -= 1
    while c1 - c0 > 1 and r1 - r0 >= SPAN and not col_ok(c0, c0 + 1, c1, r0, r1, True):
        c0 += 1
    while c1 - c0 > 1 and r1 - r0 >= SPAN and not col_ok(c1 - 1, c0, c1 - 1, r0, r1, True):
        c1 -= 1
    # Out: one strip a side at a time, so each side is judged over the others' new span.
    grown = True
    while grown:
        grown = False
        if row_ok(r0 - 1, c0, c1, r0, r1, True):
            r0, grown = r0 - 1, True
        if row_ok(r1, c0, c1, r0, r1, True):
            r1, grown = r1 + 1, True
        if col_ok(c0 - 1, c0, c1, r0, r1, True):
            c0, grown = c0 - 1, True
        if col_ok(c1, c0, c1, r0, r1, True):
            c1, grown = c1 + 1, True
    return c0, c1, r0, r1
