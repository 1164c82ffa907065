"""Classify every cell of a located grid at once against a skin's templates.

All cells are sampled into one array with a single :func:`cv2.remap` (bilinear, so fractional
pitches from desktop scaling work; nearest-pixel where every sample point is a whole pixel),
whose maps are built once per grid. Then every cell is compared with every template in two
steps:

1. a sum-of-squared-differences ranking by matrix products (cheap, all templates at once), which
   picks the two nearest *classes* for each cell;
2. a robust score for those two: the fraction of sampled pixels whose every channel is within the
   skin's ``tolerance`` of the template. A mouse pointer or a highlight on part of a cell lowers
   this score instead of dragging the average towards another class, so the reader refuses
   rather than misreads.

``confidence`` is the winner's robust score, ``margin`` the gap to the runner-up class.

Speed (a window is read frame after frame): cells identical to a template are looked up, cells
unchanged since the last frame of the same grid keep their reading, and the sampling maps and
big work arrays are kept between frames in the caller's
:class:`~bot.reading.state.ReaderState` (fresh multi-megabyte arrays cost more in page faults
than the arithmetic done in them). Template banks are a pure function of the skin and scale:
they are memoised per skin value. The sampling and the comparison are
:mod:`bot.reading.matching`; this module reads a grid with them and, when the screen does not
show the skin's own colours, through a tone curve (:mod:`bot.reading.tone`, the search for one
:mod:`bot.reading.tone_search`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from bot.reading.skins import Skin, first_images
from bot.reading.state import LastFrame, ReaderState, ToneCurve

if TYPE_CHECKING:
    from bot.reading.grid import Grid

from bot.reading.banks import TemplateBank, sample_step, template_bank
from bot.reading.lossy import (
    MAX_NOISE_TOLERANCES,
    lossy_bank,
    neighbour_bleed,
    ycrcb,
)
from bot.reading.matching import (
    cell_scale,
    classify_samples,
    reads_clearly,
    sample_cells,
    score_cells,
)
from bot.reading.noisy_read import (
    NOISY_MARGIN,
    TELLING_SLACK,
    ink_told,
    measured_lossy,
    widened_where_unsure,
)
from bot.reading.reuse import classify_changed_cells
from bot.reading.telling import telling_margin
from bot.reading.tone_search import learn_tone, read_through_tones, toned_bank

__all__ = ["CellScores", "as_screen_shows", "classify_cells", "reads_clearly"]


@dataclass(frozen=True)
class CellScores:
    """The outcome of classifying a grid: per cell ``[rows, cols]`` arrays."""

    chars: np.ndarray  # board character of the winning class
    classes: np.ndarray  # index into the bank's classes
    confidence: np.ndarray  # robust score of the winner, 0..1
    margin: np.ndarray  # winner's score minus the runner-up class's score
    distance: np.ndarray  # root-mean-square difference to the winner's template, 0..255

    def clear(self, skin: Skin) -> np.ndarray:
        """The cells that read clearly by ``skin``'s rules (its confidence and margin); the
        reader refuses a board with any other."""
        return reads_clearly(self.confidence, self.margin, skin)


def classify_cells(
    frame_bgr: np.ndarray,
    grid: Grid,
    skin: Skin,
    step: int | None = None,
    state: ReaderState | None = None,
    adapt_tone: bool = False,
    lossy: bool = False,
    found_through: ToneCurve | None = None,
    detail: bool = True,
    through: ToneCurve | None = None,
    tell: bool = False,
) -> CellScores:
    """Classify every cell of ``grid`` in ``frame_bgr`` (BGR or BGRA), comparing every
    ``step``-th pixel each way (default: the skin's :func:`sample_step`; the locator looks at
    big cells more sparsely, the reader never does).

    ``state`` is what the caller keeps between frames of one window (sampling maps, work
    arrays, the last frame's readings, the tone curve learnt); without one a fresh state is
    used: the same result, only slower. With ``adapt_tone``, a frame whose cells do not all
    read clearly as drawn is read again through the tone curve learnt from its clear cells
    (:mod:`bot.reading.tone`: brightness, gamma, a tint); the strict rules stay the same.
    With ``lossy`` (the locator's second look), cells that do not read clearly are read again
    with each template's edges allowed what lossy compression does to them
    (:func:`~bot.reading.lossy.lossy_bank`); no tone curve, and flat areas keep the skin's own
    tolerance but for a little noise. ``found_through``: the curve the board was found through
    (a board located on a recoloured screen), tried when no curve learnt from the frame reads
    every cell.
    ``detail``: False scores cells without the cap on templates' detail pixels
    (:func:`~bot.reading.detail.detail_cap`), for a search that needs a cell a pixel off to
    score nearly as well as one in place; never for reading. ``through``: the cells read
    through this curve alone (see :func:`as_screen_shows`). ``tell``: a cell that reads
    narrowly as a class the pixels telling it from the runner-up do not show is unclear
    (:func:`told_apart`); for reading (the locator's many looks need not pay for it).
    """
    state = ReaderState() if state is None else state
    sx, sy = cell_scale(grid, skin)
    step = sample_step(skin) if step is None else step
    bank = template_bank(skin, sx, sy, step)
    if not detail:
        bank = replace(
            bank,
            detail_count=np.zeros_like(bank.detail_count),
            glyph_count=np.zeros_like(bank.glyph_count),
            ink_free=None,
        )
    samples = sample_cells(
        frame_bgr,
        grid,
        skin,
        out=state.scratch("samples", (grid.rows * grid.cols, bank.u8.shape[1])),
        step=step,
        state=state,
    )
    # On an uneven lattice the narrower cells cannot equal a template: no lookups to waste.
    even = not (grid.col_offsets or grid.row_offsets)

    def read(curve: ToneCurve | None) -> tuple[np.ndarray, ...]:
        toned = bank if curve is None else toned_bank(bank, curve, state)
        lookup = even and curve is None

        def scored(part: np.ndarray) -> tuple[np.ndarray, ...]:
            results = classify_samples(part, skin, sx, sy, lookup, step, state, toned, tell)
            if tell and curve is not None:
                # Through a curve a tile's colour can pass for another class's: the glyph
                # must be the winner's too.
                win, conf, margin, *rest = results
                results = (win, conf, ink_told(part, toned, win, rest[1], margin), *rest)
            return told_apart(part, toned, skin, results) if tell else results[:4]

        key = (skin, grid, step, None if curve is None else curve.lut.tobytes(), detail, tell)
        return classify_changed_cells(samples, key, scored, state)

    def unclear(results: tuple[np.ndarray, ...]) -> int:
        return int((~reads_clearly(results[1], results[2], skin)).sum())

    def bleed() -> np.ndarray:
        most = MAX_NOISE_TOLERANCES * skin.tolerance
        spacing = (step * sx, step * sy)  # frame pixels between samples
        return neighbour_bleed(ycrcb(samples), grid.rows, grid.cols, bank.h, bank.w, spacing, most)

    learnt = state.tones.get(skin.name) if adapt_tone else through
    results = read(learnt)
    if lossy and unclear(results):
        # Smooth stretches only: a pixel-repeated one with its edges widened also passes for
        # a block of smaller cells (lines a pixel thin inside it).
        smooth = template_bank(skin, sx, sy, step, repeated=False)  # the same classes
        widened = score_cells(ycrcb(samples), lossy_bank(smooth, skin), state, runner_up=True)
        results = widened_where_unsure(samples, smooth, skin, widened, results)
        if unclear(results):
            results = measured_lossy(samples, smooth, skin, state, results, bleed)
    # Every cell clear as drawn, yet far from its image: the screen's colours moved, and one
    # class's face onto another's (sgt-mines' covered tiles 20 levels darker at gamma 0.8
    # show its open cells' face, and read clearly as 0s where only their edges differ).
    unsure = adapt_tone and unclear(results) > 0
    moved = adapt_tone and learnt is None and not unsure and far_off(results[3], skin)
    if unsure or moved:
        # The same cells through the same curve give the same answer: a message waited out
        # is the same frame many times over, judged once.
        key = (skin, grid, step, None if learnt is None else learnt.lut.tobytes())
        judged = state.searched
        if judged is not None and judged.key == key and np.array_equal(judged.samples, samples):
            results = tuple(r.copy() for r in judged.results)
        else:
            if not _local_change(state.last, skin):
                if learnt is not None:
                    results = read(None)
                if unclear(results) or moved:
                    firsts = partial(template_bank, first_images(skin), sx, sy, step)
                    # Cells drawn where the images were taken: a stroke's place is exact.
                    same_places = even and abs(sx - 1) < 1e-3 and abs(sy - 1) < 1e-3
                    results = read_through_tones(
                        samples,
                        skin,
                        bank,
                        firsts,
                        state,
                        read,
                        unclear,
                        found_through,
                        bleed,
                        same_places,
                    )
            state.searched = LastFrame(key, samples.copy(), tuple(r.copy() for r in results))
    win, conf, margin, distance = results
    shape = (grid.rows, grid.cols)
    return CellScores(
        chars=bank.chars[win].reshape(shape),
        classes=win.reshape(shape),
        confidence=conf.reshape(shape),
        margin=margin.reshape(shape),
        distance=distance.reshape(shape),
    )


def told_apart(
    samples: np.ndarray, bank: TemplateBank, skin: Skin, results: tuple[np.ndarray, ...]
) -> tuple[np.ndarray, ...]:
    """``results`` (class, confidence, margin, distance and runner-up class of each cell
    ``samples[i]``, see :func:`~bot.reading.matching.classify_samples`) without the runner-up,
    with a margin of 0 (unclear) where a cell read clearly but narrowly (a margin under the
    skin's ``min_margin`` and :data:`~bot.reading.noisy_read.NOISY_MARGIN`) while the pixels
    that tell its class from the runner-up's say the runner-up
    (:func:`~bot.reading.telling.telling_margin` below
    :data:`~bot.reading.noisy_read.TELLING_SLACK`).

    Two glyphs on one tile (GNOME Mines' flag, and the flag with a question mark) differ in a
    few per cent of the cell: with lines a few pixels off, a flag scored 0.02 above as a
    question mark, while on the pixels of the mark it was a flag (-0.82)."""
    win, conf, margin, distance, other = results
    narrow = reads_clearly(conf, margin, skin) & (margin < skin.min_margin + NOISY_MARGIN)
    narrow &= other >= 0  # (a cell identical to an image is that image)
    if not narrow.any():
        return win, conf, margin, distance
    telling = telling_margin(samples[narrow], bank, win[narrow], other[narrow])
    margin = margin.copy()
    margin[narrow] = np.where(telling < -TELLING_SLACK, 0.0, margin[narrow])
    return win, conf, margin, distance


#: At most this share of a board's cells may change between two frames for the change to be
#: taken as local (see :func:`_local_change`).
LOCAL_CHANGE_SHARE = 0.05


def _local_change(frame: LastFrame | None, skin: Skin) -> bool:
    """Whether a frame's unclear cells are a local change on a screen whose colours are known:
    few cells changed since the frame read before with the same grid, sampling and tone curve
    (:data:`LOCAL_CHANGE_SHARE`), and every unclear cell is one of them (a pointer over a cell,
    a cell being redrawn). The unchanged cells, most of the board, read clearly as the curve
    shows the skin; a colour change would have moved them all. So no other curve is sought:
    the unclear cells are refused by name as they are.

    This only saves the search (tens of ms a frame): it can refuse a cell the search might
    have read, never read a cell otherwise."""
    if frame is None or frame.changed is None:
        return False
    conf, margin = frame.results[1], frame.results[2]
    unclear = ~reads_clearly(conf, margin, skin)
    changed = frame.changed
    return bool(
        changed.sum() <= LOCAL_CHANGE_SHARE * len(changed) and not (unclear & ~changed).any()
    )


def in_skin_colours(distance: np.ndarray, skin: Skin) -> bool:
    """Whether cells at ``distance`` from their images as drawn show ``skin``'s own colours:
    half of them or more within its tolerance (a screen's colour change moves every cell off
    its image; noise, JPEG or a lost colour leave most on it). True for no cells.

    >>> from bot.reading.skins import find_skin
    >>> skin = find_skin("winmine")
    >>> in_skin_colours(np.array([1.0, 2.0, 90.0]), skin), in_skin_colours(np.array([40.0]), skin)
    (True, False)
    """
    return not distance.size or float(np.median(distance)) <= skin.tolerance


#: Cells lie this many tolerances from their images (the median) only on a screen whose colours
#: moved: JPEG and noise leave them within two.
FAR_TOLERANCES = 3.0


def far_off(distance: np.ndarray, skin: Skin) -> bool:
    """Whether cells at ``distance`` from their images lie :data:`FAR_TOLERANCES` of ``skin``'s
    tolerance or more from them (the median).

    >>> from bot.reading.skins import find_skin
    >>> far_off(np.array([1.0, 50.0, 60.0]), find_skin("winmine"))
    True
    """
    return bool(distance.size) and float(np.median(distance)) >= FAR_TOLERANCES * skin.tolerance


def as_screen_shows(
    frame_bgr: np.ndarray,
    grid: Grid,
    skin: Skin,
    scores: CellScores,
    inside: tuple[int, int, int, int],
    step: int | None = None,
) -> CellScores:
    """``scores`` (``grid``'s cells as drawn), or where the cells of ``inside`` (x0, y0, x1, y1,
    inclusive) lie farther than the skin's tolerance from their images (the median), the cells
    read again through the tone curve learnt from those (:func:`learn_tone`).

    A screen's colour change moves every cell off its image, the board's and a flat margin
    beside it read as covered cells alike: compared as drawn, the margin is not much farther
    (sgt-mines' 24 px won board at gamma 1.25: 20.9 against 9.3 inside); through the curve the
    board's cells come back to their images and the margin does not (23.9 against 2.3).
    """
    x0, y0, x1, y1 = inside
    if in_skin_colours(scores.distance[y0 : y1 + 1, x0 : x1 + 1], skin):
        return scores
    curve = learn_tone(frame_bgr, grid.part(x0, y0, x1 - x0 + 1, y1 - y0 + 1), skin, step)
    if curve is None:
        return scores
    return classify_cells(frame_bgr, grid, skin, step, through=curve)
