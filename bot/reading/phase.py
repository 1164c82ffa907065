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

from bot.reading.banks import TemplateBank, nearest_phases, sample_step, template_bank
from bot.reading.extent import Located
from bot.reading.matching import cell_scale, far_pixels, sample_cells, score_cells
from bot.reading.state import ReaderState

#: Moves of the lattice tried along each axis (px), coarse, then around the best one, fine.
COARSE = (-1.0, -0.75, -0.5, -0.25, 0.25, 0.5, 0.75, 1.0)
FINE = (-0.125, 0.125)
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
    (:func:`~bot.reading.banks.nearest_phases`), when the cells already match exactly, or
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

    def fit(dx: float, dy: float) -> float:
        moved = replace(grid, left=grid.left + dx, top=grid.top + dy)
        part = sample_cells(frame, moved, skin, step=step, state=state)[cells]
        return _class_match(part, sharp, classes)

    best, at = fit(0.0, 0.0), (0.0, 0.0)
    for moves in (COARSE, FINE):
        for axis in (0, 1):
            base = at
            for move in moves:
                trial = (base[0] + move, base[1]) if axis == 0 else (base[0], base[1] + move)
                score = fit(*trial)
                if score > best:
                    best, at = score, trial
    if at == (0.0, 0.0) or best < SHARP_MATCH:
        return located  # no phase at which the cells are drawn sharp: a smoothing scaler
    return replace(located, grid=replace(grid, left=grid.left + at[0], top=grid.top + at[1]))


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
