"""Models of what lossy pictures do to cells, as template banks to compare them with.

A JPEG (or a noisy capture) moves every pixel a little, rings at edges, and keeps colour at
half resolution and in 8x8 blocks: a thin coloured stroke keeps its brightness but loses part of
its colour to its surroundings, and bleeds it into the flat pixels of its block. The banks here
compare cells as brightness and colour (YCrCb) with each template's tolerance widened where
that happens: :func:`lossy_bank` by fixed amounts (the locator's second look), and
:func:`noisy_bank` by what the frame's own clear cells show (the reader's last look).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from bot.reading.banks import RANK_STEP, TemplateBank, sample_step
from bot.reading.detail import YCRCB_INK
from bot.reading.skins import Skin

#: The share of a clear cell's flat pixels that must lie within the widened tolerance: the
#: frame's noise level is where that many of them are.
NOISE_SHARE = 0.9


#: How much of its local contrast in colour (in quarters) a template's pixel near an edge may
#: lose in a lossy frame: colour is kept at half resolution (a JPEG's usual 4:2:0), so a stroke
#: a pixel thin keeps a half (a line) to a quarter (a lone pixel) of its colour. (Half, as for
#: brightness, left xbomb's blue 1 on white 2-3 % of its pixels short at JPEG quality 85.)
THIN_COLOUR_LOSS = 3

#: Most noise (see :func:`noisy_bank`) a frame read as drawn may show, in skin tolerances:
#: JPEG at quality 50 and noise of sigma 8 stay within about one.
MAX_NOISE_TOLERANCES = 2


def noisy_bank(
    samples: np.ndarray,
    bank: TemplateBank,
    skin: Skin,
    best: np.ndarray,
    sure: np.ndarray,
    own_colour: bool = False,
    centred: bool = False,
    by_template: bool = False,
) -> TemplateBank | None:
    """``bank`` in YCrCb (compare with :func:`ycrcb` cells), each sample's tolerance widened
    to the frame's noise level plus, within two pixels of the template's edges, half its local
    contrast in brightness and three quarters in colour (:data:`THIN_COLOUR_LOSS`): a JPEG
    rings at edges and keeps colour at half resolution, so a thin coloured stroke keeps its
    brightness but loses part of its colour (not all: a strong colour gone altogether, as
    in greyscale, still does not match). Flat areas keep
    their colour (tiles told apart by colour stay apart) but at the cell's edge
    (:func:`chroma_ring`). None when no cell is sure.

    The noise level is measured on the flat parts of the cells ``sure`` of their nearest
    template (``best``, an index into the bank), in brightness and in colour apart, and apart
    again where a JPEG puts more of it (:func:`noise_zones`): next to a stroke in its 8x8
    block, and along the cell's edge, where the neighbour's edges ring. Each zone is allowed at
    least the level of the flat parts as a whole.

    ``own_colour``: colour keeps the skin's own tolerance (as :func:`lossy_bank`'s, in YCrCb's
    units) but for the noise measured, for the locator: the skin's tolerance taken as it is in
    YCrCb let a window's grey tint over a board's last row pass for covered cells.

    ``centred``: None also when the flat parts sit off their templates' colours by more than
    :data:`MOST_SHIFT` of the skin's tolerance in the median (in some channel): noise and a
    JPEG scatter a flat area's values round its colour, a screen's colours move them all one
    way (sgt-mines' open tile at gamma 0.6 sits where its covered tile is drawn, 2 levels
    off, with the frame's covered tiles 10 levels up: that is no noise to widen to).

    ``by_template``: each template's zones near strokes and along the edge get the level its
    own sure cells show there where they show more (:func:`own_levels`), for reading.
    """
    if not sure.any():
        return None
    k = len(bank.u8)
    images = ycrcb(bank.u8)
    grad = edge_contrast(images, bank.h, bank.w).reshape(k, -1, 3)
    flat = (grad.max(axis=2) == 0) & bank.mask.reshape(-1, 3)[None, :, 0]
    cells = ycrcb(samples[sure]).reshape(int(sure.sum()), -1, 3).astype(np.int16)
    drawn = images.reshape(k, -1, 3)[best[sure]].astype(np.int16)
    apart = np.abs(cells - drawn)
    seen = flat[best[sure]]
    if centred and seen.any():
        shift = np.median((cells - drawn)[seen], axis=0)
        if np.abs(shift).max() > MOST_SHIFT * skin.tolerance:
            return None
    off = apart.max(axis=2)[seen]
    level = float(np.quantile(off, NOISE_SHARE)) if off.size else 0.0
    most = MAX_NOISE_TOLERANCES * skin.tolerance
    if level > most:
        # Flat areas this far from the skin's colours are a screen's colours moved
        # (contrast, a tint), not noise: widened that far, a 1 passed for GNOME's 2.
        return None
    step, ring = sample_step(skin), chroma_ring(bank, skin)
    floor = np.empty((k, flat.shape[1], 3), np.int16)
    for channels in (slice(0, 1), slice(1, 3)):
        # Brightness rings near edges in brightness, colour bleeds near coloured strokes.
        smooth = grad[:, :, channels].max(axis=2) == 0
        zones = noise_zones(smooth, bank.h, bank.w, step, ring)
        zone_of = zones[best[sure]]
        levels = np.full(ZONES, level)
        for zone in range(1, ZONES):
            here = seen & (zone_of == zone)
            if here.sum() >= MIN_ZONE_PIXELS:
                found = np.quantile(apart[here][:, channels].max(axis=1), ZONE_SHARE)
                levels[zone] = np.clip(found, level, most)
        floor[:, :, channels] = np.rint(levels[zones]).astype(np.int16)[:, :, None]
        if by_template:
            own_levels(floor[:, :, channels], apart[:, :, channels].max(axis=2), seen, zones,
                       best[sure], levels, most)  # fmt: skip
    widen = grad.astype(np.int16) // 2
    # Colour is kept at half resolution: a stroke a pixel thin is mixed with its neighbours.
    widen[:, :, 1:] = grad[:, :, 1:].astype(np.int16) * THIN_COLOUR_LOSS // 4
    own = bank.tol.reshape(k, -1, 3).astype(np.int16)
    if own_colour:
        own[:, :, 1:] //= 2  # in YCrCb's units, as lossy_bank
    tol = np.maximum(own, floor) + widen
    tol[:, ring, 1:] = 255
    return ycrcb_bank(bank, images, tol.reshape(k, -1))


#: How far (a share of the skin's tolerance) the median of a frame's flat pixels may sit from
#: their templates' colours, in any channel, for the rest to be taken as noise
#: (:func:`noisy_bank`'s ``centred``).
MOST_SHIFT = 0.5
#: Zones of a template's pixels by how much noise a JPEG puts there (see :func:`noise_zones`).
ZONES = 3
#: How far (pixels) from a stroke a JPEG's ringing and the stroke's colour reach in flat
#: pixels: its 8x8 block (colour kept in 16x16 blocks, at half resolution).
BLEED_REACH = 8
#: The share of a neighbour's colour (its offset from a cell's own, on each colour axis) a
#: JPEG mixes into the cell's flat pixels within :data:`BLEED_REACH` of it: sgt-mines' blue 1
#: (127 levels off grey in Cb) tints the covered tile below it 14 levels at quality 75.
BLEED_SHARE = 0.3
#: Fewest flat pixels of the frame's sure cells a zone needs for its own noise level.
MIN_ZONE_PIXELS = 200
#: The share of a zone's flat pixels within its noise level: a cell is read at a tenth of its
#: pixels off, and the pixels of a zone crowd in part of it (round a stroke, along an edge).
ZONE_SHARE = 0.98


#: Fewest sure cells of a template its own noise levels (:func:`own_levels`) are measured on:
#: no cell sets the tolerance it is then read with.
MIN_OWN_CELLS = 3


def own_levels(
    floor: np.ndarray,
    apart: np.ndarray,
    seen: np.ndarray,
    zones: np.ndarray,
    best: np.ndarray,
    levels: np.ndarray,
    most: float,
) -> None:
    """Raise ``floor`` (``[K, P]``: each template sample's noise level, in place) in zones 1
    and 2 (:func:`noise_zones`, ``[K, P]``) to the level the sure cells nearest that template
    show there (``apart``: ``[N, P]`` their distance from it, ``seen`` their flat samples,
    ``best`` their template), where :data:`MIN_ZONE_PIXELS` of them from
    :data:`MIN_OWN_CELLS` cells or more are; at most ``most``, never below the frame's level of
    that zone (``levels``).

    A JPEG's noise beside a stroke depends on the stroke: a saturated glyph's is more than a
    grey bevel's, and the zone's level over every sure cell is mostly the commoner tiles'
    (the Windows 98 look's covered tiles at quality 75: 6 at its 98th percentile beside the
    bevel, 14 beside the blue 1, 10 over both; Wine's Minesweeper's green 1 on black: 16
    against 7 over all, its covered tiles' 6).
    """
    for t in np.unique(best):
        mine = best == t
        if mine.sum() < MIN_OWN_CELLS:
            continue
        for zone in range(1, ZONES):
            here = seen[mine] & (zones[t][None, :] == zone)
            if here.sum() < MIN_ZONE_PIXELS or (here.any(axis=1).sum() < MIN_OWN_CELLS):
                continue
            found = float(np.quantile(apart[mine][here], ZONE_SHARE))
            if found > levels[zone]:
                floor[t, zones[t] == zone] = np.rint(min(found, most))


def noise_zones(flat: np.ndarray, h: int, w: int, step: int, ring: np.ndarray) -> np.ndarray:
    """Each template sample (``flat``: ``[K, h * w]``, whether each of ``K`` templates is flat
    there; samples ``step`` pixels apart) by zone: 2 on the ``ring`` (``[h * w]``: along the
    cell's edge, where the neighbour's edges ring), else 1 within :data:`BLEED_REACH` pixels
    of a sample that is not flat (a stroke, a bevel), else 0.

    >>> flat = np.ones((1, 36), bool)
    >>> flat[0, 14] = False  # a stroke at (2, 2)
    >>> ring = np.zeros((6, 6), bool)
    >>> ring[:, 5] = True
    >>> noise_zones(flat, 6, 6, 5, ring.reshape(-1)).reshape(6, 6)[2].tolist()
    [0, 1, 1, 1, 0, 2]
    """
    import cv2

    zones = np.zeros(flat.shape, np.intp)
    for i, row in enumerate(flat):
        if row.all():
            continue
        distance = cv2.distanceTransform(row.reshape(h, w).astype(np.uint8), cv2.DIST_L2, 3)
        zones[i] = (distance * step <= BLEED_REACH).reshape(-1)
    zones[:, ring] = 2
    return zones


def neighbour_bleed(
    cells: np.ndarray,
    rows: int,
    cols: int,
    h: int,
    w: int,
    spacing: tuple[float, float],
    most: float,
) -> np.ndarray:
    """How far each cell's colour may be off for its neighbours' colour bleeding in
    (``[rows * cols, h * w * 3]`` uint8, brightness 0): within :data:`BLEED_REACH` pixels of a
    side, a share (:data:`BLEED_SHARE`) of how far the neighbour's colour there lies from the
    cell's own there, on each colour axis, at most ``most``.
    ``cells``: the cells of a ``rows`` x ``cols`` grid in YCrCb (:func:`ycrcb`), row by row,
    each ``h`` x ``w`` samples ``spacing`` (x, y) frame pixels apart: the reach is the JPEG's
    blocks', in the frame's pixels (12 px cells sampled as 20 reach 13 samples deep).

    A JPEG keeps colour at half resolution in 8x8 blocks: a neighbour's coloured stroke tints
    the flat pixels of this cell that share its block (sgt-mines' blue 1 tints the covered
    tile below it 14 levels at quality 75). A neighbour whose colour there is the cell's own
    (a flat window, a grey tile) lends it nothing.

    >>> cell = np.full((4, 4, 3), 128, np.uint8)
    >>> blue = cell.copy(); blue[3, :, 2] = 200  # a blue stroke along its bottom
    >>> cells = np.stack([blue, cell, cell]).reshape(3, -1)  # a column of three cells
    >>> bleed = neighbour_bleed(cells, 3, 1, 4, 4, (4, 4), 30).reshape(3, 4, 4, 3)
    >>> bleed[1, :, 0].tolist(), int(bleed[2].max())  # 8 px deep, samples 4 px apart
    ([[0, 0, 21], [0, 0, 21], [0, 0, 0], [0, 0, 0]], 0)
    """
    deep = max(1, min(int(BLEED_REACH / spacing[1]), h))
    wide = max(1, min(int(BLEED_REACH / spacing[0]), w))
    grid = cells.reshape(rows, cols, h, w, 3)[..., 1:].astype(np.int16)
    bleed = np.zeros((rows, cols, h, w, 3), np.uint8)
    cap = int(min(most, 255))
    # (this cell's band, the neighbour's band beside it) for each side: above, below, left,
    # right of the cell, as slices of the grid of cells and of a cell's samples.
    sides = (
        ((slice(1, None), slice(None)), (slice(None, -1), slice(None)),
         (slice(0, deep), slice(None)), (slice(h - deep, h), slice(None))),
        ((slice(None, -1), slice(None)), (slice(1, None), slice(None)),
         (slice(h - deep, h), slice(None)), (slice(0, deep), slice(None))),
        ((slice(None), slice(1, None)), (slice(None), slice(None, -1)),
         (slice(None), slice(0, wide)), (slice(None), slice(w - wide, w))),
        ((slice(None), slice(None, -1)), (slice(None), slice(1, None)),
         (slice(None), slice(w - wide, w)), (slice(None), slice(0, wide))),
    )  # fmt: skip
    for own_at, other_at, own_band, other_band in sides:
        own = grid[own_at][:, :, own_band[0], own_band[1]]
        other = grid[other_at][:, :, other_band[0], other_band[1]]
        if not own.size:
            continue  # one row or column: no neighbour on this side
        here = np.median(own.reshape(*own.shape[:2], -1, 2), axis=2)[:, :, None, None, :]
        # Colour mixes in: each axis of it off by at most a share of the neighbour's offset
        # on that axis (a tinted grey window beside a blue 1 is off on the other axis).
        lent = np.minimum(BLEED_SHARE * np.abs(other - here).max(axis=(2, 3)), cap)
        band = bleed[own_at][:, :, own_band[0], own_band[1], 1:]  # a view: written in place
        np.maximum(band, lent[:, :, None, None, :].astype(np.uint8), out=band)
    return bleed.reshape(rows * cols, -1)


#: How far (pixels) into a cell JPEG's colour, kept at half resolution and smoothed back up,
#: brings its neighbour's: a red exploded mine tints the top two rows of the grey 4 below.
CHROMA_REACH = 2


def chroma_ring(bank: TemplateBank, skin: Skin) -> np.ndarray:
    """Which of ``bank``'s samples (``[h * w]`` bool) lie within :data:`CHROMA_REACH` of the
    cell's edge at the skin's own size (wider than needed at larger scales): in a noisy frame
    their colour may be the neighbour's, and only their brightness is compared."""
    step = sample_step(skin)
    ys = skin.inset + np.arange(bank.h) * step
    xs = skin.inset + np.arange(bank.w) * step
    near_y = (ys < CHROMA_REACH) | (ys >= skin.pitch_y - CHROMA_REACH)
    near_x = (xs < CHROMA_REACH) | (xs >= skin.pitch_x - CHROMA_REACH)
    return (near_y[:, None] | near_x[None, :]).reshape(-1)


#: JPEG's noise in a cell's flat areas (levels), allowed on top of the skin's tolerance by the
#: locator's lossy look: at quality 85 it put a third of a sgt-mines board's flat cells past its
#: tolerance of 8. More lets a flat window's colour pass for cells' (8 did for xdemineur's).
LOSSY_NOISE = 3


def lossy_bank(bank: TemplateBank, skin: Skin) -> TemplateBank:
    """``bank`` in YCrCb (compare with :func:`ycrcb` cells), each sample's tolerance widened,
    within two pixels of the template's edges, by half its local contrast in that channel: JPEG
    rings at edges, and keeps colour at half resolution, so a thin coloured stroke keeps its
    brightness but loses part of its colour to its surroundings. Compared as brightness and
    colour, a stroke's colour lost is not also counted as a loss of brightness (in BGR every
    channel loses it). Flat areas keep the skin's tolerance but for JPEG's noise
    (:data:`LOSSY_NOISE`), so a flat area of another colour (a window over the board) still
    does not pass for a cell; but at the cell's edge (:func:`chroma_ring`) only brightness is
    compared, as :func:`noisy_bank` does: there the colour is half the neighbour's, which the
    template does not show (Wine's Minesweeper's saturated green tiles beside their dark blue
    lines lost up to 85 levels of colour at quality 95, and no fresh board was found)."""
    k = len(bank.u8)
    images = ycrcb(bank.u8)
    grad = edge_contrast(images, bank.h, bank.w).astype(np.int16) // 2
    # The skin's tolerance is in BGR levels; YCrCb's colour axes are about half as wide
    # (Cr = 0.71 (R - Y), Cb = 0.56 (B - Y)), so theirs is halved.
    base = bank.tol.astype(np.int16).reshape(k, -1, 3)
    base[:, :, 1:] //= 2
    tol = base + grad.reshape(k, -1, 3) + LOSSY_NOISE
    tol[:, chroma_ring(bank, skin), 1:] = 255
    return ycrcb_bank(bank, images, tol.reshape(k, -1))


def ycrcb_bank(bank: TemplateBank, images: np.ndarray, tol: np.ndarray) -> TemplateBank:
    """``bank`` with its images ``images`` (YCrCb, ``[K, D]``) and tolerance ``tol`` (any
    integer type; masked samples keep 255)."""
    tol = np.where(bank.tol == 255, 255, np.clip(tol, 0, 255)).astype(np.uint8)
    u8 = images.reshape(len(images), -1)
    f32 = np.ascontiguousarray(u8[:, ::RANK_STEP], dtype=np.float32)
    # Widened at edges, the tolerance would let a flat patch pass for a bevel: detail pixels
    # are judged by whether the cell is nearer the template than its commonest colour.
    return replace(
        bank, u8=u8, f32=np.ascontiguousarray(f32.T), sq=(f32 * f32).sum(axis=1), tol=tol,
        tol_all=None, common=ycrcb(bank.common), by_presence=True, ink_levels=YCRCB_INK,
    )  # fmt: skip


def edge_contrast(images: np.ndarray, h: int, w: int) -> np.ndarray:
    """Each template's local contrast per channel within two pixels (a 5x5 morphological
    gradient), for templates ``[K, h * w * 3]`` uint8; the same shape. 0 on flat areas."""
    import cv2

    k = len(images)
    kernel = np.ones((5, 5), np.uint8)
    stacked = images.reshape(k * h, w, 3)
    grad = [cv2.morphologyEx(stacked[i * h : (i + 1) * h], cv2.MORPH_GRADIENT, kernel)
            for i in range(k)]  # fmt: skip
    return np.stack(grad).reshape(k, -1)


def ycrcb(cells: np.ndarray) -> np.ndarray:
    """BGR cells ``[N, P * 3]`` uint8 as YCrCb (same shape)."""
    import cv2

    n, d = cells.shape
    return cv2.cvtColor(
        np.ascontiguousarray(cells).reshape(n, d // 3, 3), cv2.COLOR_BGR2YCrCb
    ).reshape(n, d)
