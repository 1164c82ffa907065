"""The cell pitches worth trying in an area of a picture (step 1 of :mod:`bot.reading.locate`,
with :mod:`bot.reading.regions`): how often a skin's key colours repeat across the area (a 1-D
autocorrelation of per-column counts) gives the skin's desktop scalings that draw cells that
wide, or for games whose cells grow with the window that period itself.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from bot.reading.colour_keys import anchor_colour, key_mask
from bot.reading.skins import DESKTOP_SCALING, Skin

#: Cell pitches ``(px, py)`` to try, in frame pixels.
Pitches = list[tuple[float, float]]

#: How far (relative) a fixed-pixel skin's scaled pitch may be from the period of its key
#: colours in an area and still be tried there (measured on the fixtures at 100-200 %: at most
#: 1.3 % apart).
PERIOD_SLACK = 0.03
#: A listed scaling further than this from the period (relative) may be the wrong one: the
#: period itself is tried first too (sgt-mines' own 36 px tiles repeat every 36.03 px, 2.9 %
#: from its 35 px at 175 %, which matched the cells of a few corners only).
LISTED_CLOSE = 0.015

#: How far (relative) the period of a game's whole-pixel cells may lie below the whole size
#: for the cells to be taken as drawn at that size: further, they may be a desktop's stretch
#: of smaller ones (read at the period itself, see :func:`candidate_pitches`; GNOME Mines' 26
#: px cells at 125 % repeat every 32.4 px, 1.8 % below 33; a GTK window's header beside 339 px
#: cells every 115.56 px, 0.4 % below 116, where nothing read at either).
STRETCHED_OFF = 0.01

#: Half the key colours' period is the period when they repeat there at least this strongly
#: (autocorrelation, against that at the whole period).
HALF_PERIOD_SHARE = 0.8


def smallest_pitch(skin: Skin) -> float:
    """The smallest cell pitch (px) the skin's cells are looked for at: its own size at its
    smallest desktop scaling, or the least of its range for cells that grow with the window.

    >>> from bot.reading.skins import find_skin
    >>> smallest_pitch(find_skin("winmine")), smallest_pitch(find_skin("gnome-mines"))
    (16.0, 20.0)
    """
    if skin.scales_with_window:
        return float(skin.pitch_range[0])
    # (Not the sizes the game draws below its own: the areas dense in its colours are found
    # as well with these blocks, and smaller ones found beside other games' boards are many.)
    return float(min(skin.pitch_x, skin.pitch_y) * min(skin.scales + (1.0,)))


def largest_pitch(skin: Skin) -> float:
    """The largest cell pitch (px) the skin's cells come in: the top of its range for cells
    that grow with the window, else its own or a drawn size at the largest desktop scaling.

    >>> from bot.reading.skins import find_skin
    >>> largest_pitch(find_skin("winmine")), largest_pitch(find_skin("sgt-mines"))
    (48.0, 192.0)
    """
    sizes = [(skin.pitch_x, skin.pitch_y), *((z.pitch_x, z.pitch_y) for z in skin.sizes)]
    return float(max(skin.pitch_range[1], max(map(max, sizes)) * DESKTOP_SCALING[1]))


def comes_in(skin: Skin, pitch: float, slack: float, any_smaller: bool = False) -> bool:
    """Whether cells ``pitch`` px apart are of a size the skin's cells come in: from
    :func:`smallest_pitch` to :func:`largest_pitch`, each widened by ``slack`` (relative);
    with ``any_smaller``, only the upper bound.

    >>> from bot.reading.skins import find_skin
    >>> winmine = find_skin("winmine")
    >>> comes_in(winmine, 50, 0.03), comes_in(winmine, 12, 0.03), comes_in(winmine, 12, 0.03, True)
    (False, False, True)
    """
    widened = 1 + slack
    too_small = not any_smaller and pitch < smallest_pitch(skin) / widened
    return not too_small and pitch <= largest_pitch(skin) * widened


def lowest_scale(skin: Skin) -> float:
    """The smallest scale of the skin's own size its cells are looked for at: its smallest
    desktop scaling (1 at most), or the smallest size the game draws its cells at itself
    (skin.json ``drawn_sizes``: sgt-mines' tiles go down to 12 px from its own 20).

    >>> from bot.reading.skins import find_skin
    >>> lowest_scale(find_skin("winmine")), lowest_scale(find_skin("sgt-mines")) < 1
    (1.0, True)
    """
    drawn = [min(z.pitch_x / skin.pitch_x, z.pitch_y / skin.pitch_y) for z in skin.sizes]
    return float(min([*skin.scales, 1.0, *drawn]))


def _blob_pitches(frame: np.ndarray, skin: Skin, roi: tuple[int, int, int, int]) -> list[float]:
    """For cells that grow with the window: pitches suggested by the blobs of an anchor's main
    colour in the area (a covered tile is a square of one colour, separated from the next by
    a gap), scaled by how wide that colour is inside the skin's image."""
    import cv2

    x0, y0, x1, y1 = roi
    area = frame[y0:y1, x0:x1]
    tol = max(6, skin.tolerance // 3)
    found: list[float] = []
    for anchor in skin.anchors:
        colour = anchor_colour(skin, anchor)
        inside = np.all(np.abs(skin.templates[anchor].astype(np.int16) - colour) <= tol, axis=2)
        cols, rows = np.nonzero(inside.any(axis=0))[0], np.nonzero(inside.any(axis=1))[0]
        if cols.size == 0:
            continue
        width, height = int(np.ptp(cols)) + 1, int(np.ptp(rows)) + 1
        if width >= skin.pitch_x - 1:
            continue  # the colour reaches the cell's edges: no blob per cell
        mask = key_mask(area, skin, [colour])
        count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
        w, h, n = stats[1:, 2], stats[1:, 3], stats[1:, 4]
        smallest = skin.pitch_range[0] * width / skin.pitch_x
        largest = skin.pitch_range[1] * width / skin.pitch_x
        square = (w >= smallest) & (w <= largest) & (np.abs(w - h * width / height) <= 2)
        square &= n >= 0.6 * w * h
        if square.sum() >= 3:
            found.append(float(np.median(w[square])) * skin.pitch_x / width)
    return found


def _colour_period(
    frame: np.ndarray, skin: Skin, roi: tuple[int, int, int, int], shortest: float, longest: float
) -> float | None:
    """How often the skin's key colours repeat from left to right in the area (px, to a
    fraction), looked for between ``shortest`` and ``longest``; None when they do not show.

    Counting the key-colour pixels of each column gives a profile that rises and falls once
    per cell on a board; its autocorrelation finds the period (:mod:`bot.reading.lattice`), all in
    one dimension, so this costs a fraction of one template match.
    """
    import cv2

    from bot.errors import LatticeError
    from bot.reading.lattice import estimate_pitch, refine_pitch

    x0, y0, x1, y1 = roi
    # Every other row is plenty for a per-column count (cells are many rows tall).
    mask = key_mask(frame[y0:y1:2, x0:x1], skin)
    profile = cv2.reduce(mask, 0, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[0].astype(np.float64)
    smallest = max(3, int(shortest))
    if not profile.any() or profile.size < 4 * smallest:
        return None
    # Only the part that rises and falls from cell to cell: take away the running mean.
    kernel = np.ones(smallest) / smallest
    detrended = np.maximum(profile - np.convolve(profile, kernel, mode="same"), 0)
    try:
        coarse = estimate_pitch(detrended[None, :], smallest, int(np.ceil(longest)))
    except LatticeError:
        return None
    # Over a long range a multiple of the period can score as well as the period itself:
    # half of it wins when the colours repeat there about as strongly.
    centred = detrended - detrended.mean()
    corr = np.correlate(centred, centred, mode="full")[centred.size - 1 :]
    while coarse // 2 >= smallest:
        half = corr[max(coarse // 2 - 1, 1) : coarse // 2 + 2].max()
        if half < HALF_PERIOD_SHARE * corr[max(coarse - 1, 1) : coarse + 2].max():
            break
        coarse //= 2
    return refine_pitch(profile, coarse)


def candidate_pitches(
    skin: Skin, frame: np.ndarray | None = None, roi: tuple[int, int, int, int] | None = None
) -> tuple[Pitches, Callable[[], Pitches]]:
    """Pitches to try in the area ``roi`` of ``frame`` first, and a function giving the ones
    to try only if no board is found with those.

    First: the skin's desktop scalings that fit the period of its key colours there (all of
    them where no period shows), or for cells that grow with the window that period itself
    (where it is in the skin's range; the blob pitches where no period shows). Later: the other
    scalings, or the pitches the colour blobs suggest. Without a frame, the
    scalings, or a range of pitches from the skin's own size outwards."""
    if not skin.scales_with_window:
        pitches = [(skin.pitch_x * s, skin.pitch_y * s) for s in skin.scales]
        if frame is None or roi is None:
            return pitches, list
        lo = min(p for p, _ in pitches)
        hi = max(max(p for p, _ in pitches), skin.pitch_x * DESKTOP_SCALING[1])
        period = _colour_period(frame, skin, roi, 0.45 * lo, 1.1 * hi)
        if period is None:
            return pitches, list
        # A board's key colours repeat with its cell pitch (or twice per cell): only the
        # scalings that draw cells that wide are worth matching first. None fits: most likely
        # another game whose colours happen to be close.
        apart = [(abs(px / (k * period) - 1), (px, py)) for k in (1, 2) for px, py in pitches]
        first = [p for off, p in apart if off <= PERIOD_SLACK]
        # A scaling the skin does not list (fractional, or beyond 200 %), or a size the game
        # draws itself: the period is the pitch (or half of it), fitted to the anchors found
        # (see _search_area); first when no listed scaling fits, else after the listed ones
        # (a 14 px tile at 125 % repeats every 17.5 px, as twice the period of 35 px cells).
        lo_scale = min(DESKTOP_SCALING[0], lowest_scale(skin))
        hi_scale = DESKTOP_SCALING[1]
        unlisted = [
            (k * period, k * period * skin.pitch_y / skin.pitch_x)
            for k in (1, 2)
            if lo_scale * (1 - PERIOD_SLACK)
            <= k * period / skin.pitch_x
            <= hi_scale * (1 + PERIOD_SLACK)
        ]
        drawn = any(abs(z.pitch_x / period - 1) <= LISTED_CLOSE for z in skin.sizes)
        nearest = min(abs(px / period - 1) for px, _ in pitches)  # a scaling as the period
        if min(off for off, _ in apart) > LISTED_CLOSE or (drawn and nearest > LISTED_CLOSE):
            # No listed scaling fits closely: the period itself is tried too (after any that
            # fits within the slack). So also where it is a size the game draws itself and a
            # listed scaling fits only twice it (sgt-mines' 15 px tiles amid a desktop of their
            # colour: 30 px, at 150 %, then every other scaling, each over the whole desktop).
            first = first + unlisted
        first = list(dict.fromkeys(first))
        return first, lambda: [p for p in dict.fromkeys(pitches + unlisted) if p not in first]
    ratio = skin.pitch_y / skin.pitch_x
    if frame is not None and roi is not None:
        lo, hi = skin.pitch_range
        period = _colour_period(frame, skin, roi, 0.9 * lo, 1.1 * hi)

        def blobs() -> Pitches:  # slower: for areas without a clear period
            found = dict.fromkeys(round(b, 1) for b in _blob_pitches(frame, skin, roi))
            return [(p, p * ratio) for p in found if period is None or abs(p - period) > 0.5]

        if period is None:
            return blobs(), list
        if lo <= period <= hi:
            measured = period
            if skin.uneven_px:  # whole-pixel cells: the wider ones are the drawn size
                period = float(np.ceil(period - 1e-6))
                if period - measured > STRETCHED_OFF * measured:
                    # A desktop's scaler stretches them to a fraction (GNOME Mines' 26 px at
                    # 125 %: 32.5 px, not 33): the period itself is tried when nothing reads at
                    # the whole size.
                    return [(period, period * ratio)], lambda: [(measured, measured * ratio),
                                                                *blobs()]  # fmt: skip
            return [(period, period * ratio)], blobs
        return [], blobs  # a clear period, but not of cells this skin draws: most likely none
    lo, hi = skin.pitch_range
    steps = [float(skin.pitch_x)]
    p = skin.pitch_x / 1.07
    while p >= lo:
        steps.append(p)
        p /= 1.07  # neighbouring steps overlap; the lattice fit finds the exact pitch
    p = skin.pitch_x * 1.07
    while p <= hi:
        steps.append(p)
        p *= 1.07
    steps.sort(key=lambda v: abs(np.log(v / skin.pitch_x)))
    return [(p, p * ratio) for p in steps], list
