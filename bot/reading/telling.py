"""Margins judged on the pixels that tell two classes apart: a flag and a question mark on one
tile differ in a few per cent of the cell, so the whole cell's margin stays small where these
pixels decide clearly (used by :mod:`bot.reading.classify` for noisy frames)."""

from __future__ import annotations

import numpy as np

from bot.reading.banks import TemplateBank
from bot.reading.detail import inside_border
from bot.reading.variants import cells_apart

#: Fewest pixels that must tell two classes apart for :func:`telling_margin` to judge them.
MIN_TELLING_PIXELS = 4
#: The share of their tolerance by which two classes' images must differ on a pixel for it to
#: tell them apart in :func:`nearer_margin`'s judgement of a runner-up within the tolerance.
RIVAL_LIMIT = 0.5


def telling_margin(
    samples: np.ndarray,
    bank: TemplateBank,
    win: np.ndarray,
    other: np.ndarray | None = None,
    sizes: np.ndarray | None = None,
) -> np.ndarray:
    """For each cell ``samples[i]`` read as class ``win[i]``: on the pixels where that class's
    image and the runner-up class's differ by more than their tolerance (the pixels that tell
    them apart), the share within tolerance of the winner minus the share within tolerance of
    the runner-up; 0 where fewer than :data:`MIN_TELLING_PIXELS` tell them apart.

    Two glyphs on one tile (a flag, a question mark) differ in a few per cent of a cell's
    pixels, so the score over the whole cell separates them by little even when the cell is
    plainly one of them; on the pixels that differ it is near 1. Each class is represented by
    its variant nearest the cell. ``other``: each cell's runner-up class, when known (only
    the two classes' variants are then compared). ``sizes``: when given (``[N]`` int), filled
    with how many pixels tell each cell's two classes apart.

    >>> from bot.reading.skins import find_skin
    >>> from bot.reading.banks import template_bank
    >>> bank = template_bank(find_skin("sgt-mines"))
    >>> one = int(np.nonzero(bank.chars == "1")[0][0])
    >>> cell = bank.u8[bank.starts[one]][None]
    >>> float(telling_margin(cell, bank, np.array([one]))[0])
    1.0
    """
    k = len(bank.u8)
    group = np.searchsorted(bank.starts, np.arange(k), side="right") - 1
    margin = np.zeros(samples.shape[0])
    # Cells of one winner (and runner-up) are compared with the same variants at once.
    key = win if other is None else win * len(bank.classes) + other
    for value in np.unique(key):
        at = np.flatnonzero(key == value)
        mine = group == win[at[0]]
        variants = np.flatnonzero(mine | (True if other is None else group == other[at[0]]))
        within = _within_tolerance(samples[at], bank.u8[variants], bank.tol[variants])
        counts = np.count_nonzero(within, axis=2)
        own = mine[variants]
        # The winner's nearest variant; the runner-up: the best other class's nearest variant.
        first = np.where(own[None, :], counts, -1).argmax(axis=1)
        second = np.where(own[None, :], -1, counts).argmax(axis=1)
        # The pixels telling each pair of variants apart, once per pair met.
        # (Each pair as one number: numpy's unique rows are many times slower.)
        met, index = np.unique(first * variants.size + second, return_inverse=True)
        pairs = np.divmod(met, variants.size)
        telling = _telling_pixels(bank, variants[pairs[0]], variants[pairs[1]])
        telling = telling[index.reshape(-1)]
        size = np.count_nonzero(telling, axis=1)
        rows = np.arange(at.size)
        good = np.count_nonzero(within[rows, first] & telling, axis=1)
        bad = np.count_nonzero(within[rows, second] & telling, axis=1)
        told = (good - bad) / np.maximum(size, 1)
        margin[at] = np.where(size >= MIN_TELLING_PIXELS, told, 0.0)
        if sizes is not None:
            sizes[at] = size
    return margin


def ink_margin(
    samples: np.ndarray, bank: TemplateBank, win: np.ndarray, other: np.ndarray
) -> np.ndarray:
    """For each cell ``samples[i]`` (BGR) read as class ``win[i]`` with runner-up class
    ``other[i]``: on the pixels where the two classes' images differ in brightness by
    :data:`~bot.reading.detail.INK_LEVEL` or more (one draws ink there and the other not), the
    share nearer the winner's brightness minus the share nearer the runner-up's; 1 where fewer
    than :data:`MIN_TELLING_PIXELS` pixels differ so. Each class is represented by its
    variant nearest the cell in brightness. Inside the border band only
    (:data:`~bot.reading.detail.INK_BORDER`), where glyphs are drawn: a cell's outer pixels
    show its neighbours' edges (KMines' covered tile draws the one below's shadow, and its
    images from one place of the board do not show another's).

    Brightness, and only where the ink differs: a screen's colours (a tint, a saturation, a
    brightness) move a tile's colour by tens of levels and can bring it nearer another class's
    tile colour (GNOME Mines tells its numbers by tile colour and glyph), but they leave a
    glyph's strokes far from the tile. A 3 desaturated read as a 2 by its tile colour is
    nearer the 3 on its strokes: below 0.

    >>> from bot.reading.skins import find_skin
    >>> from bot.reading.banks import template_bank
    >>> bank = template_bank(find_skin("sgt-mines"))
    >>> one, two = (int(np.nonzero(bank.chars == c)[0][0]) for c in "12")
    >>> cell = bank.u8[bank.starts[two]][None]
    >>> float(ink_margin(cell, bank, np.array([one]), np.array([two]))[0])
    -1.0
    """
    from bot.reading.detail import INK_LEVEL

    classes = len(bank.classes)
    cells_y, images_y = _brightness(samples), _brightness(bank.u8)  # [N, P], [K, P]
    counted = inside_border(bank.mask.reshape(-1, 3)[:, 0], bank.h, bank.w)
    margin = np.ones(samples.shape[0])
    key = win * classes + other
    for value in np.unique(key):
        at = np.flatnonzero(key == value)
        cells = cells_y[at]

        mine, theirs = (
            _nearest_variant(cells, images_y[bank.starts[g] : bank.starts[g + 1]])
            for g in (int(value // classes), int(value % classes))
        )
        apart = (np.abs(mine - theirs) >= INK_LEVEL) & counted[None]
        size = np.count_nonzero(apart, axis=1)
        to_mine, to_theirs = np.abs(cells - mine), np.abs(cells - theirs)
        nearer = np.count_nonzero((to_mine < to_theirs) & apart, axis=1)
        farther = np.count_nonzero((to_mine > to_theirs) & apart, axis=1)
        told = (nearer - farther) / np.maximum(size, 1)
        margin[at] = np.where(size >= MIN_TELLING_PIXELS, told, 1.0)
    return margin


def _nearest_variant(cells: np.ndarray, variants: np.ndarray) -> np.ndarray:
    """For each of ``cells`` ``[m, P]``, the one of a class's ``variants`` ``[V, P]`` nearest
    it (the sum of absolute differences): ``[m, P]``, or the one variant ``[1, P]`` (it
    broadcasts over the cells)."""
    if len(variants) == 1:
        return variants
    far = np.abs(cells[:, None, :] - variants[None]).sum(axis=2)  # [m, V]
    return variants[far.argmin(axis=1)]


def _brightness(pixels: np.ndarray) -> np.ndarray:
    """Each pixel's brightness (BT.601 luma, YCrCb's Y) of ``pixels`` ``[N, P * 3]`` (BGR
    uint8): ``[N, P]`` int16."""
    import cv2

    n, d = pixels.shape
    grey = cv2.cvtColor(np.ascontiguousarray(pixels).reshape(n, d // 3, 3), cv2.COLOR_BGR2GRAY)
    return grey.reshape(n, -1).astype(np.int16)


def nearer_margin(
    samples: np.ndarray,
    bank: TemplateBank,
    win: np.ndarray,
    brightness: bool = False,
    rival: np.ndarray | None = None,
) -> np.ndarray:
    """For each cell ``samples[i]`` read as class ``win[i]``, against every other class: on
    the pixels that tell the two apart (their images differ by more than their tolerance),
    the share nearer the winner's image minus the share nearer the other's; the least of these
    over the other classes (classes told apart by fewer than :data:`MIN_TELLING_PIXELS`
    pixels are not judged; 0 when none is). Each class is represented by its variant nearest
    the cell.

    Nearer, not within the tolerance (:func:`telling_margin`): a lossy picture (JPEG) smears a
    thin coloured stroke's colour so that neither class's image matches it there, but the
    stroke is still where the winner draws it.

    With ``brightness``, brightness alone is compared, on the pixels the two images tell apart
    in brightness: JPEG keeps a stroke's brightness at full resolution but its colour at half,
    so a thin red 3 loses enough red to look nearer a dark red 5 in colour, never in
    brightness. A class told apart in brightness by too few pixels then leaves the cell
    undecided (-1): colour is what tells those two apart.

    ``rival``: each cell's runner-up class, which is always judged: where fewer than
    :data:`MIN_TELLING_PIXELS` pixels tell it from the winner at their tolerance, on the pixels
    where their images differ by more than :data:`RIVAL_LIMIT` of it (-1, undecided, where
    too few do). A tuned GNOME Mines skin's light covered tile and its empty one lie within
    its tolerance of 32 of each other nearly everywhere; left out, at contrast 0.85 every 0 of
    a lost board (halfway between the two) was nearer the covered tile than any class but
    the one it narrowly beat, and read as covered.
    """
    n = samples.shape[0]
    k = len(bank.u8)
    if brightness:
        from bot.reading.lossy import ycrcb

        images_u8 = ycrcb(bank.u8).reshape(k, -1, 3)[:, :, :1]
        cells_u8 = ycrcb(samples).reshape(n, -1, 3)[:, :, :1]
    else:
        images_u8, cells_u8 = bank.u8.reshape(k, -1, 3), samples.reshape(n, -1, 3)
    images, cells = images_u8.astype(np.int16), cells_u8.astype(np.int16)
    group = np.searchsorted(bank.starts, np.arange(k), side="right") - 1
    variant_distance = _summed_distances(cells_u8.reshape(n, -1), images_u8.reshape(k, -1))
    own = np.where(group[None, :] == win[:, None], variant_distance, np.iinfo(np.int64).max)
    first = own.argmin(axis=1)
    # [N, P]: each pixel's distance (summed over channels) to the winner's nearest variant.
    near_first = np.abs(cells - images[first]).sum(axis=2)
    margin = np.full(n, np.inf)
    for g in range(len(bank.starts) - 1):
        lo, hi = bank.starts[g], bank.starts[g + 1]
        second = lo + variant_distance[:, lo:hi].argmin(axis=1)
        apart = _telling_pixels(bank, first, second, images)
        size = apart.sum(axis=1)
        near_second = np.abs(cells - images[second]).sum(axis=2)
        nearer = near_first < near_second
        farther = near_first > near_second
        share = _nearer_share(nearer, farther, apart)
        other = group[second] != win
        if brightness:
            share = np.where(size >= MIN_TELLING_PIXELS, share, -1.0)
            judged = other
        else:
            judged = (size >= MIN_TELLING_PIXELS) & other
            close = None if rival is None else other & (size < MIN_TELLING_PIXELS) & (rival == g)
            if close is not None and close.any():
                # The runner-up is judged whatever: where too few pixels tell it apart at
                # the tolerance, on those where its image differs by over a share of it.
                wide = _telling_pixels(bank, first, second, images, RIVAL_LIMIT)
                told = np.where(
                    wide.sum(axis=1) >= MIN_TELLING_PIXELS,
                    _nearer_share(nearer, farther, wide),
                    -1.0,
                )
                share = np.where(close, told, share)
                judged |= close
        margin = np.where(judged, np.minimum(margin, share), margin)
    return np.where(np.isfinite(margin), margin, 0.0)


def _nearer_share(nearer: np.ndarray, farther: np.ndarray, apart: np.ndarray) -> np.ndarray:
    """Of the pixels ``apart`` (``[N, P]``), the share ``nearer`` the winner's image less the
    share ``farther`` from it."""
    told = (nearer & apart).sum(axis=1) - (farther & apart).sum(axis=1)
    return told / np.maximum(apart.sum(axis=1), 1)


def _within_tolerance(cells: np.ndarray, images: np.ndarray, tol: np.ndarray) -> np.ndarray:
    """``[N, K, P]`` bool: which pixels of each of ``cells`` (``[N, P * 3]`` uint8) lie within
    ``tol`` (``[K, P * 3]``) of each of ``images`` (``[K, P * 3]``) in every channel; one cell
    or one image at a time, whichever are fewer (``[K, D]`` or ``[N, D]`` in memory).

    >>> _within_tolerance(np.array([[9, 9, 9]], np.uint8), np.array([[0, 0, 0], [9, 9, 40]],
    ...                   np.uint8), np.full((2, 3), 30, np.uint8)).tolist()
    [[[True], [False]]]
    """

    n, k = len(cells), len(images)
    within = np.empty((n, k, cells.shape[1] // 3), bool)
    if n <= k:
        for i, apart in cells_apart(cells, images):
            off = (apart > tol).reshape(k, -1, 3)
            # (Channel by channel: numpy's reduction over an axis of three is slow.)
            within[i] = ~(off[..., 0] | off[..., 1] | off[..., 2])
    else:
        for j, apart in cells_apart(images, cells):
            off = (apart > tol[j]).reshape(n, -1, 3)
            within[:, j] = ~(off[..., 0] | off[..., 1] | off[..., 2])
    return within


def _summed_distances(cells: np.ndarray, images: np.ndarray) -> np.ndarray:
    """``[N, K]``: the summed absolute difference of each of ``cells`` (``[N, D]`` uint8) from
    each of ``images`` (``[K, D]`` uint8). A cell at a time against every image (a skin of
    many variants stretched at many phases has thousands): five times as fast as numpy's
    differences of every pair at once, and in a K x D buffer.

    >>> _summed_distances(np.array([[0, 5]], np.uint8), np.array([[1, 1], [0, 5]], np.uint8))
    array([[5, 0]])
    """
    import cv2

    out = np.empty((len(cells), len(images)), np.int64)
    if not images.size:
        out[:] = 0
        return out
    for i, apart in cells_apart(cells, images):
        out[i] = cv2.reduce(apart, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[:, 0]
    return out


def _telling_pixels(
    bank: TemplateBank,
    first: np.ndarray,
    second: np.ndarray,
    images: np.ndarray | None = None,
    share: float = 1.0,
) -> np.ndarray:
    """``[N, P]`` bool: the counted pixels where variant ``first[i]``'s image and variant
    ``second[i]``'s differ by more than the smaller of their tolerances (times ``share``: the
    pixels that tell the two apart); in ``images`` (``[K, P, C]`` int16, default the bank's
    own; fewer channels are compared against the tolerance of the first ones)."""
    if images is None:
        images = bank.u8.astype(np.int16).reshape(len(bank.u8), -1, 3)
    tol = np.minimum(bank.tol[first], bank.tol[second]).astype(np.int16)
    if share != 1.0:
        tol = (tol * share).astype(np.int16)
    limit = tol.reshape(len(first), -1, 3)[:, :, : images.shape[2]]
    told = (np.abs(images[first] - images[second]) > limit).any(axis=2)
    return told & bank.mask.reshape(-1, 3)[None, :, 0]


#: Brightness (0-255) by which a cell's pixel must differ from its image's, past the cell's
#: brightness as a whole, to be a stroke only one of the two draws (a JPEG's ringing at
#: quality 50 and noise of sigma 8 stay within it but for a few pixels).
STRAY_LEVEL = 48


def stray_strokes(samples: np.ndarray, bank: TemplateBank, win: np.ndarray) -> np.ndarray:
    """For each cell ``samples[i]`` (BGR) read as class ``win[i]``: the share of its pixels
    inside the border band that differ in brightness from the winner's image (its variant
    nearest the cell) by :data:`STRAY_LEVEL` or more, once the cell's own brightness shift
    (the median difference) is taken off: strokes the image does not draw, or its strokes
    missing from the cell. For cells drawn where the images were taken (the same size, at
    whole pixels): a stroke is then where the image has it, to the pixel.

    A screen's noise and a JPEG's ringing change a stroke's shade, not where it is, and leave
    this near 0; a glyph the skin has no image of (a 5 where a skin tuned from a board without
    one knows the 3 drawn in nearly its colour) draws strokes where the nearest glyph has none,
    however widened the tolerance it passes within.

    >>> from bot.reading.skins import find_skin
    >>> from bot.reading.banks import template_bank
    >>> bank = template_bank(find_skin("sgt-mines"))
    >>> one, two = (int(np.nonzero(bank.chars == c)[0][0]) for c in "12")
    >>> cells = bank.u8[[bank.starts[one], bank.starts[two]]]
    >>> [round(float(v), 2) for v in stray_strokes(cells, bank, np.array([one, one]))]
    [0.0, 0.19]
    """
    cells_y, images_y = _brightness(samples), _brightness(bank.u8)
    counted = inside_border(bank.mask.reshape(-1, 3)[:, 0], bank.h, bank.w)
    out = np.zeros(samples.shape[0])
    for g in np.unique(win):
        at = np.flatnonzero(win == g)
        cells = cells_y[at][:, counted]
        variants = images_y[bank.starts[g] : bank.starts[g + 1]][:, counted]
        apart = cells - _nearest_variant(cells, variants)
        apart -= np.median(apart, axis=1).astype(np.int16)[:, None]
        out[at] = np.count_nonzero(np.abs(apart) >= STRAY_LEVEL, axis=1) / max(cells.shape[1], 1)
    return out
