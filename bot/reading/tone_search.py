"""Reading cells through a screen's tone curve: the curves learnt from them
(:func:`~bot.reading.tone.fit_tone` from each start), the template banks as a curve shows
them, and the search :func:`~bot.reading.classify.classify_cells` runs when a frame's cells do
not read clearly as drawn, or read clearly far from their images (a screen whose colours
moved).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from bot.reading.banks import RANK_STEP, TemplateBank, sample_step, template_bank, tone_fit_banks
from bot.reading.detail import kept_detail
from bot.reading.matching import cell_scale, classify_samples, reads_clearly, sample_cells
from bot.reading.nearest import assigner
from bot.reading.noisy_read import read_noisy
from bot.reading.skins import Skin
from bot.reading.state import ReaderState, ToneCurve
from bot.reading.tone import START_CURVES, fit_tone

if TYPE_CHECKING:
    from bot.reading.grid import Grid


def read_through_tones(
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
        for curve in fitted_curves(samples, fit, skin, state):
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
            toned = bank if shown is None else toned_bank(bank, shown, state)
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


def fitted_curves(
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


def toned_bank(bank: TemplateBank, curve: ToneCurve, state: ReaderState) -> TemplateBank:
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
        for curve in fitted_curves(samples, fit, skin, state):
            toned = toned_bank(bank, curve, state)
            _, conf, margin, _ = classify_samples(samples, skin, sx, sy, False, step, state, toned)
            if reads_clearly(conf, margin, skin).all():
                return curve
    return None
