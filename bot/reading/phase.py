"""The sub-pixel phase of a scaled board's lattice.

On a scaled desktop a cell is 26.25 px wide (21 px at 125 %), so its lines fall between
pixels. The locator places the lattice from anchor matches at whole pixels; a fraction of a
pixel off is nothing for a smooth scaler's blurred cells, but a pixel-repeating scaler draws
sharp cells, and samples taken half a pixel off blend two of their pixels: every digit then
reads at 0.83 where it would read at 1.00 (xdemineur at 125 %). :func:`refined_phase` moves
the whole lattice by fractions of a pixel to where the cells match their own class's sharp
images (:func:`~bot.reading.banks.template_bank` with ``sharp``) exactly.

The cells are not read anew here: each keeps the class it reads as where the lattice was
found, and only how well it matches that class's templates decides the phase. A phase can
then only make the reading surer, never change which class a cell is.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from bot.reading.banks import TemplateBank, sample_step, template_bank
from bot.reading.detail import far_pixels
from bot.reading.extent import Located
from bot.reading.grid import Grid
from bot.reading.matching import cell_scale, sample_cells, sample_offsets, score_cells
from bot.reading.nearest_scaling import nearest_phases
from bot.reading.state import ReaderState

#: How far the lattice may move each way (px) and the step of the scan: the cells match
#: their sharp images only on plateaus about 3/16 px wide (at 125 %), with lower peaks between
#: them, so every position is tried rather than a descent from the start; a step under the
#: plateau's width lands on it.
REACH = 1.5
SCAN_STEP = 1 / 8
#: How well the cells must match their sharp (pixel-repeated) images at the phase found for
#: the lattice to move there: a smoothing scaler's cells match none so well at any phase.
SHARP_MATCH = 0.99
#: The cells whose match decides the phase: this many with the most detail (flat cells
#: match at any phase and tell nothing).
PHASE_CELLS = 48


def refined_phase(frame: np.ndarray, located: Located) -> Located:
    """``located`` with its grid moved by a fraction of a pixel each way to where the cells
    match the sharp images of the class they read as (at least :data:`SHARP_MATCH`);
    unchanged but at the scales a pixel-repeating scaler draws
    (:func:`~bot.reading.nearest_scaling.nearest_phases`), when the cells already match exactly, or
    when no move makes them.

    >>> from bot.reading.grid import Grid
    >>> from bot.reading.skins import find_skin
    >>> board = Located(find_skin("sgt-mines"), Grid(0.0, 0.0, 20.0, 20.0, 2, 2), 1.0)
    >>> refined_phase(np.zeros((40, 40, 3), np.uint8), board) is board  # scale 1
    True
    """
    skin, grid = located.skin, located.grid
    sx, sy = cell_scale(grid, skin)
    if not nearest_phases(sx, sy):
        return located  # the skin's own scale, or one no pixel-repeating scaler draws sharp
    step = sample_step(skin)
    bank = template_bank(skin, sx, sy, step)
    state = ReaderState()
    samples = sample_cells(frame, grid, skin, step=step, state=state)
    detail = samples.reshape(len(samples), -1, 3).astype(np.float32).std(axis=1).sum(axis=1)
    cells = np.argsort(-detail)[:PHASE_CELLS]
    cells = cells[detail[cells] > 0]
    if not cells.size:
        return located
    win, conf, _, _ = score_cells(np.ascontiguousarray(samples[cells]), bank, state)
    if conf.min() >= 1.0:
        return located
    sharp = template_bank(skin, sx, sy, step, sharp=True)
    classes = np.array([sharp.classes.index(bank.classes[w]) for w in win])

    offsets = sample_offsets(skin, (sx, sy), (bank.h, bank.w), step)

    def fit(dx: float, dy: float) -> float:
        part = _cell_samples(frame, grid, cells, offsets, (dx, dy))
        return _class_match(part, sharp, classes)

    moves = np.arange(-REACH, REACH + SCAN_STEP / 2, SCAN_STEP)
    at = (0.0, 0.0)
    # A sharp cell's columns depend on the lattice's x and its rows on its y: one axis at a
    # time, the first again once the second is placed.
    for axis in (0, 1, 0):
        scores = [fit(m, at[1]) if axis == 0 else fit(at[0], m) for m in moves]
        best = max(scores)
        # The middle of the best plateau: as far from its falling edges as can be.
        tops = np.flatnonzero(np.asarray(scores) >= best - 1e-9)
        move = float(moves[tops[len(tops) // 2]])
        at = (move, at[1]) if axis == 0 else (at[0], move)
    if best < SHARP_MATCH or at == (0.0, 0.0):
        return located  # no phase at which the cells are drawn sharp: a smoothing scaler
    return replace(located, grid=replace(grid, left=grid.left + at[0], top=grid.top + at[1]))


def _cell_samples(
    frame: np.ndarray,
    grid: Grid,
    cells: np.ndarray,
    offsets: tuple[np.ndarray, np.ndarray],
    move: tuple[float, float],
) -> np.ndarray:
    """The samples of ``cells`` (indices, row by row) of ``grid`` moved by ``move`` px, each at
    ``offsets`` from its edges (:func:`~bot.reading.matching.sample_offsets`), taken as
    :func:`~bot.reading.matching.sample_cells` takes them (``[len(cells), D]``): only the few
    cells the phase is judged on, for each of the many positions tried."""
    import cv2

    px, py = offsets
    ys, xs = np.divmod(cells, grid.cols)
    lefts = np.array([grid.col_left(int(x)) for x in xs]) + move[0]
    tops = np.array([grid.row_top(int(y)) for y in ys]) + move[1]
    shape = (len(cells), len(py), len(px))
    map_x = np.broadcast_to((lefts[:, None] + px)[:, None, :], shape).astype(np.float32)
    map_y = np.broadcast_to((tops[:, None] + py)[:, :, None], shape).astype(np.float32)
    out = cv2.remap(
        np.ascontiguousarray(frame[:, :, :3]),
        map_x.reshape(len(cells), -1),
        map_y.reshape(len(cells), -1),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0),
    )
    return out.reshape(len(cells), -1)


def _class_match(samples: np.ndarray, bank: TemplateBank, classes: np.ndarray) -> float:
    """Mean over ``samples`` (``[N, D]``) of the share of pixels within tolerance of the best
    template of the class each reads as (``classes``: indices into ``bank.classes``)."""
    import cv2

    pixels = bank.mask.sum() / 3
    total = 0.0
    for cls in np.unique(classes):
        rows = slice(bank.starts[cls], bank.starts[cls + 1])
        cells = samples[classes == cls]
        n, k = len(cells), rows.stop - rows.start
        # Every cell against every variant of its class, one row each: [n * k, D].
        diff = cv2.absdiff(np.repeat(cells, k, axis=0), np.tile(bank.u8[rows], (n, 1)))
        far = far_pixels(diff, np.tile(bank.tol[rows], (n, 1))).reshape(n, k)
        total += float((1.0 - far / pixels).max(axis=1).sum())
    return total / max(len(samples), 1)
