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
show the skin's own colours, through a tone curve (:mod:`bot.reading.tone`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from bot.reading.skins import Skin, first_images
from bot.reading.state import LastFrame, ReaderState, ToneCurve
from bot.reading.tone import START_CURVES, fit_tone

if TYPE_CHECKING:
    from bot.reading.grid import Grid

from bot.reading.banks import RANK_STEP, TemplateBank, sample_step, template_bank, tone_fit_banks
from bot.reading.detail import kept_detail
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
from bot.reading.nearest import assigner
from bot.reading.noisy_read import (
    NOISY_MARGIN,
    TELLING_SLACK,
    ink_told,
    measured_lossy,
    read_noisy,
    widened_where_unsure,
)
from bot.reading.reuse import classify_changed_cells
from bot.reading.telling import telling_margin

__all__ = ["CellScores", "as_screen_shows", "classify_cells", "learn_tone", "reads_clearly"]


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
        toned = bank if curve is None else _toned_bank(bank, curve, state)
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
        widened = score_cells(ycrcb(samples), lossy_bank(smooth), state, runner_up=True)
        results = widened_where_unsure(samples, smooth, skin, widened, results)
        if unclear(results):
            results = measured_lossy(samples, smooth, skin, state, results, bleed)
    if adapt_tone and unclear(results):
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
                if unclear(results):
                    firsts = partial(template_bank, first_images(skin), sx, sy, step)
                    # Cells drawn where the images were taken: a stroke's place is exact.
                    same_places = even and abs(sx - 1) < 1e-3 and abs(sy - 1) < 1e-3
                    results = _read_through_tones(
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


def _read_through_tones(
    samples: np.ndarray,
    skin: Skin,
    bank: TemplateBank,
    firsts: Callable[[], TemplateBank],
    state: ReaderState,
    read: Callable[[ToneCurve | None], tuple[np.ndarray, ...]],
    unclear: Callable[[tuple[np.ndarray, ...]], int],
    found_through: ToneCurve | None = None,
    bleed: Callable[[], np.ndarray] | None = None,
    in_place: bool = False,
) -> tuple[np.ndarray, ...]:
    """The cells read through the tone curve learnt from them (:func:`fit_tone`) against each
    bank of :func:`~bot.reading.banks.tone_fit_banks` in turn, from each of
    :data:`~bot.reading.tone.START_CURVES`. Where none gives a curve, against ``firsts()``
    (each class's first image alone, :func:`~bot.reading.skins.first_images`): against every
    image a screen's contrast can leave too few cells sure of their class to learn from
    (GNOME Mines' number tiles differ from its empty one by a glyph; at contrast 1.15 only
    the empty cells of its 8x8 won board of 60 px cells were sure: one grey, no curve).

    When no curve reads every cell clearly, read
    again with the tolerance widened by the frame's noise and each template's edges
    (:func:`~bot.reading.lossy.noisy_bank`: lossy compression smears edges and colour), where
    a winner must beat the runner-up by :data:`~bot.reading.noisy_read.NOISY_MARGIN` more
    and draw the cell's strokes (where they are, ``in_place``:
    :func:`~bot.reading.noisy_read.noisy_scores`).

    When two curves both read every cell clearly but differently, the frame is ambiguous:
    the cells they disagree on get a margin of 0 (refused). A curve that read every cell
    with the skin's own tolerance is kept in ``state`` for the next frame."""
    best: tuple[np.ndarray, ...] = read(None)
    clear: list[tuple[ToneCurve | None, tuple[np.ndarray, ...]]] = []
    tried: list[ToneCurve] = []
    nearest: ToneCurve | None = None  # the curve that left the fewest cells unclear

    def fits() -> Iterator[TemplateBank]:
        yield from tone_fit_banks(bank)
        if not tried:  # (looked at once the banks before have been tried)
            yield firsts()

    for fit in fits():
        if clear:
            break
        for curve in _fitted_curves(samples, fit, skin, state):
            if any(np.array_equal(curve.lut, t.lut) for t in tried):
                continue
            tried.append(curve)
            results = tuple(r.copy() for r in read(curve))
            if not unclear(results):
                clear.append((curve, results))
            elif unclear(results) < unclear(best):
                best, nearest = results, curve
    if not clear:
        # As drawn, then through the curve that read most cells (a screen's colours moved,
        # then saved as a JPEG).
        for shown in (None,) if nearest is None else (None, nearest):
            if clear:
                break
            toned = bank if shown is None else _toned_bank(bank, shown, state)
            noisy = read_noisy(samples, toned, skin, state, bleed, in_place)
            if noisy is not None:
                if not unclear(noisy):
                    clear.append((shown, noisy))
                elif unclear(noisy) < unclear(best):
                    best = noisy
    if found_through is not None:
        # Last: a curve learnt from a fresh board's one colour may as well show its covered
        # cells as open ones, which the frame's own curves, from starts near the skin's
        # colours, would have been. Where a curve of the frame's own reads every cell too,
        # it is a second opinion: a colour-only pair (GNOME Mines' 0 and covered) the two
        # curves read apart is refused, not guessed.
        results = tuple(r.copy() for r in read(found_through))
        if not unclear(results):
            clear.append((found_through, results))
    if not clear:
        return best
    chosen, results = clear[0]
    classes = bank.chars[results[0]]
    differ = np.zeros(len(classes), bool)
    for _, other in clear[1:]:
        differ |= bank.chars[other[0]] != classes
    if differ.any():
        margin = results[2].copy()
        margin[differ] = 0.0
        return (results[0], results[1], margin, results[3])
    if chosen is not None:
        state.tones[skin.name] = chosen
    return results


#: The least range of template values (levels) the flat pixels of the sure cells must cover, in
#: some channel, for a curve to be learnt from them alone: one grey (a block of another game's
#: flat cells, a fresh board's covered cells beside a clipped gap) leaves the rest of the curve
#: to guesswork.
FLAT_SPAN = 24.0
#: How many template banks seen through a tone curve a reader state keeps.
KEPT_TONED = 8


def _fitted_curves(
    samples: np.ndarray, fit: TemplateBank, skin: Skin, state: ReaderState
) -> Iterator[ToneCurve]:
    """The curves :func:`~bot.reading.tone.fit_tone` learns from the cells ``samples`` against
    the bank ``fit``, from each of :data:`~bot.reading.tone.START_CURVES` in turn."""
    assign = assigner(samples, fit, skin, state)
    # First from each image's flat pixels alone, where they span greys enough: where a
    # stretched image's colour steps, the game may draw the step a fraction of a pixel
    # elsewhere (GNOME Mines' tile edges at 63 px beside the white gap: 206 shown as 240
    # where the screen added 20, which bent the curve; its first boards at 60 px read through
    # no curve so learnt from every pixel). Then from every pixel: a fresh board's flat pixels
    # hold one grey beside a gap the screen clips, a block of another game's flat cells one.
    flat = fit.mask & (fit.tol <= fit.tol.min(axis=1, keepdims=True))
    seen: set[bytes] = set()
    for mask, span in ((flat, FLAT_SPAN), (fit.mask, 0.0)):
        for start in START_CURVES:
            curve = fit_tone(samples, fit.u8, mask, assign, skin.tolerance, start, span)
            if curve is not None and curve.lut.tobytes() not in seen:
                seen.add(curve.lut.tobytes())
                yield curve


def _toned_bank(bank: TemplateBank, curve: ToneCurve, state: ReaderState) -> TemplateBank:
    """``bank`` with its templates as ``curve`` shows them (kept in ``state``: a window keeps
    its curve frame after frame)."""
    key = (id(bank), curve.lut.tobytes())
    toned = state.toned_banks.get(key)
    if toned is None:
        u8 = curve.apply(bank.u8)
        f32 = np.ascontiguousarray(u8[:, ::RANK_STEP], dtype=np.float32)
        tol, common = toned_tolerance(bank.u8, bank.tol, curve), curve.apply(bank.common)
        detail, count = kept_detail(bank.detail, u8, common, tol, int(bank.mask.sum() // 3))
        toned = replace(
            bank,
            u8=u8,
            f32=np.ascontiguousarray(f32.T),
            sq=(f32 * f32).sum(axis=1),
            tol=tol,
            tol_all=None,
            common=common,
            detail=detail,
            detail_count=np.where(bank.detail_count > 0, count, 0),
        )
        if len(state.toned_banks) >= KEPT_TONED:
            state.toned_banks.pop(next(iter(state.toned_banks)))
        state.toned_banks[key] = toned
    return toned


def toned_tolerance(templates: np.ndarray, tol: np.ndarray, curve: ToneCurve) -> np.ndarray:
    """The tolerance ``tol`` of ``templates`` (``[K, D]`` uint8, BGR) as ``curve`` shows it: a
    template value may be off by the tolerance either way, and a screen that stretches its
    levels stretches that band too (gamma 1.25 makes the light end 1.2 times steeper: GNOME
    Mines' 4s at 85 px, their glyph drawn unlike its stretched image and matched by 0.92 as
    drawn, fell to 0.45 through the curve). Never narrower than ``tol``: the screen's own
    rounding does not shrink where the curve flattens.

    >>> lut = np.repeat(np.round(255 * (np.arange(256) / 255) ** 1.25)[:, None], 3, axis=1)
    >>> tol = np.full((1, 6), 6, np.uint8)
    >>> templates = np.array([[20, 20, 20, 240, 240, 240]], np.uint8)
    >>> toned_tolerance(templates, tol, ToneCurve(lut.astype(np.uint8))).tolist()
    [[6, 6, 6, 8, 8, 8]]
    """
    import cv2

    # OpenCV's saturating uint8 arithmetic clips the band at 0 and 255 as the screen would,
    # in one pass each (integer fancy indexing per pixel cost ten times the curve itself).
    here = curve.apply(templates)
    up = cv2.subtract(curve.apply(cv2.add(templates, tol)), here)
    down = cv2.subtract(here, curve.apply(cv2.subtract(templates, tol)))
    toned = np.maximum(tol, np.maximum(up, down))
    toned[tol == 255] = 255  # not counted: stays so
    return toned


def learn_tone(
    frame_bgr: np.ndarray,
    grid: Grid,
    skin: Skin,
    step: int | None = None,
    fit_with: Skin | None = None,
) -> ToneCurve | None:
    """The tone curve (:func:`~bot.reading.tone.fit_tone`, from each start as the reader
    tries them) through which every cell of ``grid`` reads clearly as ``skin``'s, learnt even
    where they read clearly as drawn, from ``fit_with``'s images (default: ``skin``'s; the
    same pitch); None where no curve does."""
    state = ReaderState()
    sx, sy = cell_scale(grid, skin)
    step = sample_step(skin) if step is None else step
    bank = template_bank(skin, sx, sy, step)
    fitted = bank if fit_with is None else template_bank(fit_with, sx, sy, step)
    samples = sample_cells(frame_bgr, grid, skin, step=step, state=state)
    for fit in tone_fit_banks(fitted):
        for curve in _fitted_curves(samples, fit, skin, state):
            toned = _toned_bank(bank, curve, state)
            _, conf, margin, _ = classify_samples(samples, skin, sx, sy, False, step, state, toned)
            if reads_clearly(conf, margin, skin).all():
                return curve
    return None


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
