"""Find the cell grid of a Minesweeper board in a screenshot without knowing the skin.

A board is a regular lattice of equal cells: whatever the skin draws, the edges between and
inside cells repeat with the cell pitch, in both directions, over a large rectangle; nothing
else on a desktop does that over such an area. :func:`find_lattice` uses only that:

1. smooth the image (2x2 box, which flattens the one-pixel dithering some skins use) and mark
   the pixels where the colour jumps left-to-right (vertical edges) and top-to-bottom;
2. the pitch along each axis is the lag whose *harmonics* (p, 2p, 3p) gather the most edge
   coincidences (autocorrelation by FFT), refined to a fraction of a pixel so that boards on a
   scaled desktop (125%: 16 px -> 20 px, 21 px -> 26.25 px) are found too;
3. the board's area is where edges repeat at that pitch densely (largest connected blob);
4. the cell boundary is the strongest periodic edge (the line between cells, or the bright
   bevel of a covered cell), and the board runs from the first to the last cell whose block
   shows the skin's periodic edge pattern in both directions;
5. where no edge runs along the cells' sides (one grass tile under every cell), the board is
   where the picture repeats at the pitch (:mod:`bot.reading.lattice_tiles`), if it ends at
   its frame.

>>> import numpy as np
>>> tile = np.full((20, 20, 3), 190, np.uint8); tile[:2] = 0; tile[:, :2] = 0
>>> board = np.tile(tile, (8, 12, 1))                     # 12 x 8 cells of 20 px
>>> desk = np.full((300, 400, 3), 230, np.uint8); desk[50:210, 60:300] = board
>>> desk[210:212, 60:302] = 0; desk[50:212, 300:302] = 0  # the closing grid lines
>>> lat = find_lattice(desk)
>>> (lat.cols, lat.rows, round(lat.pitch_x, 2), round(lat.left), round(lat.top))
(12, 8, 20.0, 60, 50)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from bot.errors import LatticeError
from bot.reading.lattice_extent import (
    SEED_PITCH_CELLS,
    best_extent,
    even_ends,
    extrapolated,
    grow_extent,
)
from bot.reading.lattice_frame import framed_lattice, whole_lattice
from bot.reading.lattice_lines import Lattice, fit_axis, refit_even
from bot.reading.lattice_pitch import (
    EDGE_STEP,
    colour,
    edge_maps,
    estimate_pitch,
    refine_pitch,
    repeating,
)
from bot.reading.lattice_tiles import tiled_lattice

__all__ = ["EDGE_STEP", "MIN_CELLS", "Lattice", "edge_maps", "estimate_pitch", "find_lattice",
           "find_lattices", "whole_lattice",
           "refine_pitch"]  # fmt: skip

#: The faintest colour step that counts as an edge where none of :data:`EDGE_STEP` shows a
#: whole board (see :func:`find_lattice`).
FAINT_STEP = 4
#: A colour step that counts as an edge when telling cells from the frame around them: the
#: bevels of cells over a shaded background (KMines) are faint in places.
WEAK_STEP = EDGE_STEP // 2
#: How much more an edge that runs along a cell side counts for the boundary than a short one.
LONG_WEIGHT = 4.0
#: Fewest cells along each axis for a lattice to count as a board.
MIN_CELLS = 4
#: Ratio of the two pitches beyond which the larger is taken for a multiple of the cell.
SQUARE = 1.75
#: Largest cell size looked for by default (px): 64 px tiles on a 300% desktop are 192 px, and
#: games that scale tiles to the window draw bigger ones (gnome-mines' 8x8 board in a 1200x1000
#: window: 113 px a cell, 339 px on a 300% desktop). The image's size bounds it further
#: (``min_cells`` cells must fit).
MAX_PITCH = 400


def _largest_blob(mask: np.ndarray, weight: np.ndarray) -> tuple[int, int, int, int]:
    import cv2

    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        mask.astype(np.uint8), connectivity=8
    )
    if count <= 1:
        raise LatticeError("no repeating cell pattern found")
    sums = np.bincount(labels.ravel(), weights=weight.ravel(), minlength=count)
    sums[0] = -1
    k = int(np.argmax(sums))
    x, y, w, h = (int(v) for v in stats[k, :4])
    return x, y, x + w, y + h


def _long_runs(edges: np.ndarray, pitch: int, axis: int) -> np.ndarray:
    """1 where an edge pixel is part of a run of at least 4/5 of ``pitch`` along ``axis``."""
    import cv2

    k = max(3, int(0.8 * pitch))
    kernel = np.ones((k, 1) if axis == 0 else (1, k), np.uint8)
    return cv2.morphologyEx(edges.astype(np.uint8), cv2.MORPH_OPEN, kernel).astype(np.float32)


def _inside(lines: tuple[int, ...], lo: int, hi: int) -> tuple[int, int]:
    """First index and number of the line-to-line blocks inside ``lo..hi``."""
    ks = [k for k in range(len(lines) - 1) if lines[k] >= lo and lines[k + 1] <= hi]
    return (ks[0], len(ks)) if ks else (0, 0)


def find_lattice(
    image: np.ndarray,
    min_pitch: int = 8,
    max_pitch: int = MAX_PITCH,
    min_cells: int = MIN_CELLS,
    whole_pixels: bool = False,
) -> Lattice:
    """The board's lattice in a screenshot (BGR, BGRA or grey), or :class:`LatticeError`.

    ``min_pitch``/``max_pitch`` bound the cell size in pixels; ``min_cells`` is the fewest
    cells along each axis. The error says what was missing, so the caller can tell the user
    what to capture instead.

    Edges are colour steps of :data:`EDGE_STEP`; where they show no board, of
    :data:`FAINT_STEP` (a web clone's fresh board: squares of two greens 8 levels apart),
    when the board so found ends at its frame.

    ``whole_pixels``: the cells are drawn a whole number of pixels apart (a capture at
    100 %): a pitch found a fraction off is taken as the whole pixel next to it where that
    gathers as many edges (:func:`~bot.reading.lattice_lines.whole_pitch`).
    """
    return next(_lattices(image, min_pitch, max_pitch, min_cells, whole_pixels=whole_pixels))


def find_lattices(
    image: np.ndarray,
    min_pitch: int = 8,
    max_pitch: int = MAX_PITCH,
    min_cells: int = MIN_CELLS,
    whole_pixels: bool = False,
) -> list[Lattice]:
    """The lattices found with edges of :data:`EDGE_STEP`, then of :data:`FAINT_STEP`
    (distinct ones, in that order), or :class:`LatticeError` when neither finds one: faint
    edges show a web clone's whole board where its coloured cells alone showed part of it,
    or a header's text (the caller knowing the board's size takes the one of that size);
    ``whole_pixels`` as for :func:`find_lattice`."""
    found = _lattices(image, min_pitch, max_pitch, min_cells, every=True, whole_pixels=whole_pixels)
    return list(dict.fromkeys(found))


def _lattices(
    image: np.ndarray,
    min_pitch: int,
    max_pitch: int,
    min_cells: int,
    every: bool = False,
    whole_pixels: bool = False,
) -> Iterator[Lattice]:
    """The lattice found with edges of :data:`EDGE_STEP`; with ``every``, or where none is,
    the one found with edges of :data:`FAINT_STEP` (without ``every``: only one that ends at
    its frame), then the board where one tile repeats (:func:`_tiled`, whole only);
    :class:`LatticeError` where none is found."""
    maps = edge_maps(image)
    refused: LatticeError | None = None
    found = False
    for gain in (1.0, EDGE_STEP / FAINT_STEP):
        try:
            lattice = _lattice_of(image, (maps[0] * gain, maps[1] * gain), min_pitch,
                                  max_pitch, min_cells, whole_pixels)  # fmt: skip
        except LatticeError as error:
            refused = refused or error
            continue
        if not every and gain != 1.0 and not whole_lattice(image, lattice):
            # Faint edges alone: only a board that ends at its frame (KMines' won board
            # showed a 16x13 lattice in its 16x16 one).
            refused = refused or LatticeError(f"{lattice.describe()} found only at faint edges,"
                                              " not ending at a frame")  # fmt: skip
            continue
        found = True
        yield lattice
        if not every:
            return
    if every or not found:
        # A theme whose cells draw no edge along their sides: the board is where one tile
        # repeats (KMines' grass), ending at its frame.
        tiled = _tiled(image, maps, min_pitch, max_pitch, min_cells)
        if tiled is not None:
            found = True
            yield tiled
    if not found and refused is not None:
        raise refused


def _tiled(
    image: np.ndarray,
    maps: tuple[np.ndarray, np.ndarray],
    min_pitch: int,
    max_pitch: int,
    min_cells: int,
) -> Lattice | None:
    """The board whose cells repeat one tile (:func:`~bot.reading.lattice_tiles.tiled_lattice`)
    at the pitches faint edges give, when it ends at its frame; else None."""
    gain = EDGE_STEP / FAINT_STEP
    ev, eh = maps[0] * gain >= EDGE_STEP, maps[1] * gain >= EDGE_STEP
    h, w = ev.shape
    max_pitch = max(min(max_pitch, w // min_cells, h // min_cells), min_pitch)
    try:
        px = estimate_pitch(ev, min_pitch, max_pitch)
        py = estimate_pitch(eh.T, min_pitch, max_pitch)
        lattice = tiled_lattice(image, px, py, min_cells)
    except LatticeError:
        return None
    return lattice if whole_lattice(image, lattice) else None


def _lattice_of(
    image: np.ndarray,
    maps: tuple[np.ndarray, np.ndarray],
    min_pitch: int,
    max_pitch: int,
    min_cells: int,
    whole_pixels: bool = False,
) -> Lattice:
    """:func:`find_lattice` with the edge strengths ``maps`` (see :func:`edge_maps`)."""
    vertical, horizontal = maps
    ev = vertical >= EDGE_STEP
    eh = horizontal >= EDGE_STEP
    if ev.sum() < 4 * min_cells or eh.sum() < 4 * min_cells:
        raise LatticeError("no board in the image: it has almost no edges")
    h, w = ev.shape
    max_pitch = max(min(max_pitch, w // min_cells, h // min_cells), min_pitch)
    px = estimate_pitch(ev, min_pitch, max_pitch)
    py = estimate_pitch(eh.T, min_pitch, max_pitch)
    # Cells are about square: of two pitches far apart, the larger may be a multiple of the
    # cell (noise beside a small board can outweigh its first harmonic on one axis), or the
    # smaller a fraction of it (digits' strokes down a column of numbers): each axis is looked
    # at again near the other's, and the pair giving the larger board is kept.
    if max(px, py) <= SQUARE * min(px, py):
        lattice = _lattice_at(image, vertical, horizontal, px, py, min_cells, whole_pixels)
        return framed_lattice(image, lattice)
    big, small = max(px, py), min(px, py)
    pairs = []
    for again, edges in ((px == big, ev), (py == big, eh.T)):
        near = (
            estimate_pitch(edges, min_pitch, max(int(1.5 * small), min_pitch))
            if again
            else estimate_pitch(edges, max(int(big / 1.5), min_pitch), max_pitch)
        )
        pairs.append((near, py) if edges is ev else (px, near))
    found: list[Lattice] = []
    error = LatticeError("no repeating cell pattern found")
    for qx, qy in dict.fromkeys(pairs):
        try:
            found.append(_lattice_at(image, vertical, horizontal, qx, qy, min_cells, whole_pixels))
        except LatticeError as exc:
            error = exc
    if not found:
        raise error
    return framed_lattice(image, max(found, key=lambda lat: lat.cols * lat.rows))


def _lattice_at(
    image: np.ndarray,
    vertical: np.ndarray,
    horizontal: np.ndarray,
    px: int,
    py: int,
    min_cells: int,
    whole_pixels: bool = False,
) -> Lattice:
    """The lattice at pitches ``(px, py)`` in ``image`` (edge strengths ``vertical`` and
    ``horizontal``, see :func:`edge_maps`), or :class:`LatticeError`; ``whole_pixels`` as
    for :func:`find_lattice`."""
    import cv2

    ev = vertical >= EDGE_STEP
    eh = horizontal >= EDGE_STEP
    # Where do the edges repeat at the pitch? Dense there = the board.
    rv, rh = repeating(ev, px, 1), repeating(eh, py, 0)
    repeat = (rv | rh).astype(np.float32)
    density = cv2.boxFilter(repeat, -1, (px, py), normalize=True)
    if density.max() <= 0:
        raise LatticeError("no repeating cell pattern found")
    x0, y0, x1, y1 = _largest_blob(density >= 0.3 * density.max(), repeat)

    # Only edges that repeat at the pitch speak for the lattice (not counters, text, frames).
    # Of those, edges that run along most of a cell side (grid lines, bevels) place the cell
    # boundary: a digit's strokes repeat at the pitch too on a board full of numbers, centred
    # in the cells, but they are shorter than a side.
    wv = (rv * vertical) * (1 + LONG_WEIGHT * _long_runs(ev, py, axis=0))
    wh = (rh * horizontal) * (1 + LONG_WEIGHT * _long_runs(eh, px, axis=1))
    weak_v, weak_h = vertical >= WEAK_STEP, horizontal >= WEAK_STEP
    # The same by how much of the dense area each line runs across, however faint: grid
    # lines between open cells a few levels lighter than the cells (KMines) run across every
    # row of cells, where bold digits in those cells outweigh them by strength.

    def by_strength(a: int, b: int, c: int, d: int) -> tuple[np.ndarray, np.ndarray]:
        return wv[c:d].sum(axis=0), wh[:, a:b].sum(axis=1)

    def by_reach(a: int, b: int, c: int, d: int) -> tuple[np.ndarray, np.ndarray]:
        return weak_v[c:d].mean(axis=0), weak_h[:, a:b].mean(axis=1)

    found: list[Lattice] = []
    error = LatticeError("no repeating cell pattern found")
    for profiles in (by_strength, by_reach):
        try:
            found.append(
                _bounded(
                    image,
                    (ev, eh),
                    (weak_v, weak_h),
                    profiles,
                    (px, py),
                    (x0, x1, y0, y1),
                    min_cells,
                    whole_pixels,
                )
            )
        except LatticeError as exc:
            error = exc
    if not found:
        raise error
    # The lattice whose cells run furthest (a boundary placed mid-cell breaks every row of
    # cells into pieces that do not grow), the first on a tie.
    return max(found, key=lambda lat: lat.cols * lat.rows)


def _bounded(
    image: np.ndarray,
    edges: tuple[np.ndarray, np.ndarray],
    weak: tuple[np.ndarray, np.ndarray],
    profiles: Callable[[int, int, int, int], tuple[np.ndarray, np.ndarray]],
    pitches: tuple[int, int],
    span: tuple[int, int, int, int],
    min_cells: int,
    whole_pixels: bool = False,
) -> Lattice:
    """The board's lattice with its boundary lines placed by the edge ``profiles`` (along x
    and along y, over a box x0, x1, y0, y1) of the dense area ``span``, grown out to the
    board's frame; or :class:`LatticeError` when fewer than ``min_cells`` cells a side are
    found."""
    ev, eh = edges
    x0, x1, y0, y1 = span
    along_x, along_y = profiles(*span)
    axs = fit_axis(along_x, pitches[0], x0, x1, whole_pixels)
    ays = fit_axis(along_y, pitches[1], y0, y1, whole_pixels)
    ax, (first_col, ncols) = best_extent(ev, eh, axs, ays[0], (y0, y1))
    ay, (first_row, nrows) = best_extent(eh.T, ev.T, ays, axs[0], (x0, x1))
    # Where few blocks show the whole cell pattern (boards mostly open, in a skin whose open
    # cells draw no lines) the lattice starts from the lines inside the dense area instead.
    if not ncols:
        first_col, ncols = _inside(ax.lines, x0, x1)
    if not nrows:
        first_row, nrows = _inside(ay.lines, y0, y1)
    seed = (first_col, first_col + ncols, first_row, first_row + nrows)
    c0, c1, r0, r1 = seed
    if ncols and nrows:
        c0, c1, r0, r1 = grow_extent(colour(image), weak[0], weak[1], ax.lines, ay.lines, seed)
    xs = extrapolated(ax.lines, ax.pitch, seed[0], seed[1], c0, c1)
    ys = extrapolated(ay.lines, ay.pitch, seed[2], seed[3], r0, r1)
    ncols, nrows = c1 - c0, r1 - r0
    if ncols < min_cells or nrows < min_cells:
        raise LatticeError(
            f"the repeating pattern found is only {ncols}x{nrows} cells: no board in the image"
        )
    # A seed of fewer cells than extrapolated() takes its own pitch from: the lines carried
    # out from it are placed again over the whole board, where edges run across it however
    # faint (the lines between open cells: the seed may hold none).
    # (Lines carried out may lie beyond the image: only the part inside is looked at.)
    h, w = weak[0].shape
    rows = weak[0][min(max(ys[r0], 0), h) : min(max(ys[r1], 0), h)]
    cols = weak[1][:, min(max(xs[c0], 0), w) : min(max(xs[c1], 0), w)]
    if seed[1] - seed[0] < SEED_PITCH_CELLS and rows.size:
        xs = refit_even(rows.mean(axis=0), xs, c0, c1)
    if seed[3] - seed[2] < SEED_PITCH_CELLS and cols.size:
        ys = refit_even(cols.mean(axis=1), ys, r0, r1)
    return Lattice(xs=even_ends(xs[c0 : c1 + 1]), ys=even_ends(ys[r0 : r1 + 1]))
