"""Anchor cells and the lattice they lie on (step 2 of :mod:`bot.reading.locate`).

The anchor templates (a covered cell, an empty revealed cell), stretched to a candidate pitch,
are matched with :func:`cv2.matchTemplate`; good matches vote for the lattice phase (origin
modulo pitch), and where cells grow with the window a least-squares fit of the matches gives
the exact pitch.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from bot.reading.skins import Skin

#: An anchor's image drawn at another size places the lattice instead of the skin's own image
#: stretched when it matches this many times as many cells ...
PREFER_MORE = 1.1
#: ... or as many, this much more closely (1 minus the median difference against the limit).
CLOSER = 0.2
#: An image that matches this closely is the one drawn: no other is matched.
DRAWN_AS_IS = 0.99


def _anchor_images(skin: Skin, anchor: str, px: float, py: float) -> tuple[np.ndarray, ...]:
    """The anchor's grey images at pitch ``(px, py)``: the skin's image stretched, then the one
    the game draws at that size as near as the skin tells (``Skin.drawn_at``) (memoised per
    skin value and pitch)."""
    return _anchor_images_at(skin, anchor, round(px, 3), round(py, 3))


@lru_cache(maxsize=256)
def _anchor_images_at(skin: Skin, anchor: str, px: float, py: float) -> tuple[np.ndarray, ...]:
    return tuple(
        _stretched_gray(source, px, py) for source in _anchor_sources(skin, anchor, px, py)
    )


@lru_cache(maxsize=256)
def _anchor_sources(skin: Skin, anchor: str, px: float, py: float) -> tuple[np.ndarray, ...]:
    """The images :func:`_anchor_images_at` stretches: the skin's, then the first of the anchor
    at each size the game may draw it at for pitch ``(px, py)`` (``Skin.drawn_at``), if any;
    in a skin that stretches only the nearest size's images (``stretch_nearest``), that size's
    first alone (memoised: drawing a gap-keeping game's cells anew is done once per pitch)."""
    if skin.stretch_nearest:  # only the nearest size's images stand for the cells
        return tuple(image for cls, image in skin.nearest_at(px, py) if cls == anchor)[:1]
    # The first image of each size the cells may be drawn at (the nearest size, and sizes a
    # desktop scaling stretches to this pitch).
    native: dict[tuple[int, ...], np.ndarray] = {}
    for cls, image in skin.drawn_at(px, py):
        if cls == anchor:
            native.setdefault(image.shape, image)
    return (skin.templates[anchor], *native.values())


@lru_cache(maxsize=256)
def _anchor_variance(
    skin: Skin, anchor: str, px: float, py: float
) -> tuple[tuple[float, float], ...]:
    """The variance of each of :func:`_anchor_images`, and that variance as if drawn at the
    skin's own size (memoised per skin value and pitch): a game drawing bigger cells keeps
    its lines and gaps a few pixels wide, so the same cell's variance falls with its size."""
    sources = _anchor_sources(skin, anchor, px, py)
    return tuple(
        (float(image.var()), float(image.var()) * max(1.0, source.shape[1] / skin.pitch_x))
        for image, source in zip(_anchor_images_at(skin, anchor, px, py), sources, strict=True)
    )


#: An anchor image whose variance (as if drawn at the skin's own size) is below this is too flat
#: to place a lattice ...
FLAT_VARIANCE = 50.0
#: ... or below this many times the least squared difference a match allows: :func:`_match`
#: cannot match a flat area with an image whose variance exceeds that floor, and a screen
#: that pushes light colours against white (brightness up) leaves an empty cell little more.
FLAT_MARGIN = 3.0

#: Fewer matches of an anchor's smooth stretch than this: its pixel-repeated stretches are
#: matched too (see :func:`_nearest_anchor_images`).
MIN_SMOOTH_MATCHES = 3


@lru_cache(maxsize=64)
def _nearest_anchor_images(skin: Skin, anchor: str, px: float, py: float) -> tuple[np.ndarray, ...]:
    """The anchor's grey image at pitch ``(px, py)`` as a pixel-repeating scaler draws it, at
    each phase a cell can have (:func:`~bot.reading.nearest_scaling.nearest_phases`); none at a
    scaling of no such phases (memoised per skin value and pitch)."""
    import cv2

    from bot.reading.nearest_scaling import nearest_phases, repeated_tiling

    gray = cv2.cvtColor(skin.templates[anchor], cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    sx, sy = px / w, py / h
    images = []
    for a, b in nearest_phases(sx, sy):
        # The middle copy: its first pixel is the first to show source pixel w (h).
        x0, x1 = (int(np.ceil((k * w + a) * sx - 1e-9)) for k in (1, 2))
        y0, y1 = (int(np.ceil((k * h + b) * sy - 1e-9)) for k in (1, 2))
        big = repeated_tiling(gray, sx, sy, (a, b))
        images.append(np.ascontiguousarray(big[y0:y1, x0:x1]))
    return tuple(images)


def _stretched_gray(cell: np.ndarray, px: float, py: float) -> np.ndarray:
    """The grey image of one cell (BGR) stretched to ``(px, py)``."""
    import cv2

    # The whole cell, grid lines and bevels included: they are what tells a cell from a
    # flat area of the same colour.
    gray = cv2.cvtColor(cell, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    sx, sy = px / w, py / h
    if (round(sx, 3), round(sy, 3)) == (1, 1):
        return gray
    # Stretch a 3x3 tiling so the cell's edges blend with neighbours as on the screen.
    tiled = np.tile(gray, (3, 3))
    if px != round(px) or py != round(py):
        # A fraction of a pixel wide: stretched by exactly the scale with the cell's first edge
        # on the image's (cropping a stretch to whole pixels puts it up to a pixel in, and the
        # lattice placed from matches that far off reads no small cell).
        size = (max(3, int(px)), max(3, int(py)))
        if min(sx, sy) >= 1:
            from bot.reading.banks import exact_stretch

            return exact_stretch(tiled, sx, sy, (0.0, 0.0), size)
        shrunk = cv2.resize(tiled, None, fx=sx, fy=sy, interpolation=cv2.INTER_AREA)
        shift = np.array([[1, 0, -w * sx], [0, 1, -h * sy]], np.float32)
        return cv2.warpAffine(shrunk, shift, size, flags=cv2.INTER_LINEAR)
    size = (max(9, round(3 * w * sx)), max(9, round(3 * h * sy)))
    interp = cv2.INTER_AREA if sx < 1 else cv2.INTER_LINEAR
    tiled = cv2.resize(tiled, size, interpolation=interp)
    image = tiled[round(h * sy) : round(2 * h * sy), round(w * sx) : round(2 * w * sx)]
    return np.ascontiguousarray(image)


def anchor_matches(
    gray: np.ndarray, skin: Skin, px: float, py: float
) -> tuple[np.ndarray, np.ndarray]:
    """Top-left corners (x, y) of cells whose anchor template matches well, in ``gray``."""

    xs_all, ys_all = [], []
    key = (round(px, 3), round(py, 3))
    for anchor in skin.anchors:
        # The skin's image stretched, and the one drawn at the nearest size: the one that
        # matches more cells places the lattice (a stretched image can match drawn cells a
        # few pixels off, where the game draws its gaps and bevels at their own size).
        points, closeness = np.empty((0, 2)), 0.0
        for templ, (variance, own_size) in zip(
            _anchor_images_at(skin, anchor, *key), _anchor_variance(skin, anchor, *key), strict=True
        ):
            th, tw = templ.shape
            if gray.shape[0] < th or gray.shape[1] < tw:
                continue
            if own_size < min(FLAT_VARIANCE, FLAT_MARGIN * _floor(skin.tolerance)):
                continue  # a flat anchor would match every flat area of its colour
            # To a fraction of a pixel on an even lattice only: an uneven one's cells are
            # whole pixels, placed line by line.
            subpixel = not skin.uneven_px
            found, fit = _match(gray, templ, variance, skin.tolerance, px, py, subpixel)
            # The skin's own image first: the drawn size's only when it matches clearly more
            # cells (a tenth), or as many more closely.
            more = len(found) > PREFER_MORE * len(points)
            if more or (len(found) == len(points) > 0 and fit > closeness + CLOSER):
                points, closeness = found, fit
            if closeness >= DRAWN_AS_IS and len(points) >= MIN_SMOOTH_MATCHES:
                # Most matches within a level or two: the game draws this very image here,
                # and another size's image could only match other cells (a first read of
                # sgt-mines spent 6 ms on one).
                break
        if len(points) < MIN_SMOOTH_MATCHES and anchor == skin.anchors[0]:
            # A scaler that repeats pixels draws cells the smooth stretch does not match: the
            # first anchor drawn so, at each phase a cell can have (each matches its own
            # cells). Only the first (a covered cell): an empty cell is flat but for its line,
            # and at every phase it also matches a desktop's lines.
            variance = _anchor_variance(skin, anchor, *key)[0][0]
            phased = [
                _match(gray, templ, variance, skin.tolerance, px, py)[0]
                for templ in _nearest_anchor_images(skin, anchor, *key)
                if gray.shape[0] >= templ.shape[0] and gray.shape[1] >= templ.shape[1]
            ]
            if sum(len(f) for f in phased) > len(points):
                points = np.concatenate(phased)
        xs, ys = points[:, 0], points[:, 1]
        xs_all.append(xs.astype(float))
        ys_all.append(ys.astype(float))
        if xs.size >= 3:
            break  # enough to place the lattice; the extent step does the rest
    if not xs_all:
        return np.empty(0), np.empty(0)
    return np.concatenate(xs_all), np.concatenate(ys_all)


def _floor(tolerance: int) -> float:
    """The least mean squared difference per pixel :func:`_match` allows."""
    return (tolerance * 0.5) ** 2


def _match(
    gray: np.ndarray,
    templ: np.ndarray,
    variance: float,
    tolerance: int,
    px: float,
    py: float,
    subpixel: bool = False,
) -> tuple[np.ndarray, float]:
    """``[n, 2]`` top-left corners (x, y) where ``templ`` matches ``gray`` well (local minima
    of the squared difference, one per cell of pitch ``(px, py)`` at most), and how closely
    (1 minus the median difference against the limit: 1 is exact). With ``subpixel``, at a
    pitch a fraction of a pixel wide each corner is placed to a fraction of a pixel."""
    import cv2

    result = cv2.matchTemplate(gray, templ, cv2.TM_SQDIFF)
    # Exact skins match with 0; smoothing (desktop scaling) blurs the edges, which costs a
    # small part of the template's own contrast.
    limit = max(_floor(tolerance), 0.3 * variance) * templ.size
    _, below = cv2.threshold(result, limit, 255, cv2.THRESH_BINARY_INV)
    below = below.astype(np.uint8)
    if not cv2.countNonZero(below):  # nothing like the anchor here: no minima to find
        return np.empty((0, 2)), 0.0
    kernel = np.ones((max(3, int(py * 0.5)), max(3, int(px * 0.5))), np.uint8)
    minimum = cv2.compare(result, cv2.erode(result, kernel), cv2.CMP_LE)
    points = cv2.findNonZero(cv2.bitwise_and(below, minimum))
    if points is None:
        return np.empty((0, 2)), 0.0
    points = points.reshape(-1, 2)
    closeness = 1.0 - float(np.median(result[points[:, 1], points[:, 0]])) / limit
    if subpixel and (px != round(px) or py != round(py)):
        # Cells a fraction of a pixel wide sit between pixels: each minimum to a fraction.
        return _subpixel(result, points), closeness
    return points, closeness


def _subpixel(result: np.ndarray, points: np.ndarray) -> np.ndarray:
    """``points`` (x, y), minima of ``result``, moved to where a parabola through each and its
    neighbours has its least (half a pixel at most each way).

    >>> r = np.array([[9.0, 4.0, 1.0, 2.0, 7.0]])
    >>> _subpixel(r, np.array([[2, 0]]))
    array([[2.25, 0.  ]])
    """
    xs, ys = points[:, 0].astype(float), points[:, 1].astype(float)
    for values, axis in ((xs, 1), (ys, 0)):
        i, j = points[:, 1], points[:, 0]
        inner = (points[:, 1 - axis] > 0) & (points[:, 1 - axis] < result.shape[axis] - 1)
        i, j = i[inner], j[inner]
        step = (0, 1) if axis == 1 else (1, 0)
        before = result[i - step[0], j - step[1]].astype(float)
        here = result[i, j].astype(float)
        after = result[i + step[0], j + step[1]].astype(float)
        curve = before - 2 * here + after
        shift = np.where(curve > 0, (before - after) / (2 * np.maximum(curve, 1e-9)), 0.0)
        values[inner] += np.clip(shift, -0.5, 0.5)
    return np.stack([xs, ys], axis=1)


def _phase(values: np.ndarray, pitch: float) -> float:
    """The most voted-for position modulo ``pitch`` (circular, 1 px bins)."""
    bins = max(1, int(round(pitch)))
    phases = np.mod(values, pitch)
    hist = np.bincount(np.floor(phases * bins / pitch).astype(int) % bins, minlength=bins)
    smooth = hist + np.roll(hist, 1) + np.roll(hist, -1)
    centre = (smooth.argmax() + 0.5) * pitch / bins
    delta = (phases - centre + pitch / 2) % pitch - pitch / 2
    near = np.abs(delta) <= 1.5
    return float(centre + delta[near].mean()) if near.any() else float(centre)


def matches_at_pitch(
    roi: np.ndarray, skin: Skin, px: float, py: float
) -> tuple[np.ndarray, np.ndarray, float, float] | None:
    """Anchor matches ``(xs, ys)`` in the grey area ``roi`` at pitch ``(px, py)`` and the pitch
    they fit (see :func:`fitted_matches`); None with fewer than two matches."""
    xs, ys = anchor_matches(roi, skin, px, py)
    return fitted_matches(roi, skin, xs, ys, px, py)


def fitted_matches(
    roi: np.ndarray,
    skin: Skin,
    xs: np.ndarray,
    ys: np.ndarray,
    px: float,
    py: float,
    reach: float | None = None,
) -> tuple[np.ndarray, np.ndarray, float, float] | None:
    """The anchor matches ``(xs, ys)`` found in ``roi`` at pitch ``(px, py)``, and the pitch
    they fit: cells that grow with the window, or a scaling the skin does not list, are drawn
    at a pitch only known to a fraction, fitted to the matches (and matched again at that size
    when it is half a pixel or more away). None with fewer than two matches. ``reach``: how far
    (px) an uneven lattice's lines may lie off an even one (default: the skin's ``uneven_px``)."""
    if xs.size < 2:
        return None
    listed = any(abs(px - skin.pitch_x * k) < 1e-6 for k in skin.scales)
    if skin.scales_with_window or not listed:
        fit_x, fit_y = fit_pitch(xs, ys, px, py, skin.uneven_px if reach is None else reach)
        if skin.uneven_px:  # whole-pixel cells: the wider ones are the drawn size
            ax, ay = float(np.ceil(fit_x - 1e-6)), float(np.ceil(fit_y - 1e-6))
        else:
            ax, ay = fit_x, fit_y
        if max(abs(ax - px), abs(ay - py)) > 0.5:
            # Match again with anchors drawn at the size found, for exact positions.
            xs, ys = anchor_matches(roi, skin, ax, ay)
            if xs.size < 2:
                return None
        px, py = fit_x, fit_y
    return xs, ys, px, py


def place_lattice(
    xs: np.ndarray, ys: np.ndarray, px: float, py: float, slack: float = 0.0
) -> tuple[float, float, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """Phase of the lattice, the lattice indices of the matches that sit on it (within
    ``slack`` px more than usual) and their offsets from the even lattice."""
    if xs.size < 2:
        return None
    fx, fy = _phase(xs, px), _phase(ys, py)
    kx = np.round((xs - fx) / px)
    ky = np.round((ys - fy) / py)
    dx, dy = xs - fx - kx * px, ys - fy - ky * py
    on = (np.abs(dx) <= 1.5 + slack) & (np.abs(dy) <= 1.5 + slack)
    if on.sum() < 2:
        return None
    return fx, fy, kx[on].astype(int), ky[on].astype(int), dx[on], dy[on]


def line_offsets(k: np.ndarray, d: np.ndarray, first: int, last: int) -> tuple[float, ...]:
    """Per-line offsets ``first..last`` from the even lattice: the median offset of the matches
    on each line, interpolated between lines without matches.

    >>> line_offsets(np.array([0, 0, 0, 2]), np.array([1.0, 3.0, 2.0, 4.0]), 0, 3)
    (2.0, 3.0, 4.0, 4.0)
    """
    # Each line's median from one sort of all matches (by line, then offset), not a median
    # per line: a board has dozens of lines.
    order = np.lexsort((d, k))
    lines, offsets = k[order], d[order]
    known, start, count = np.unique(lines, return_index=True, return_counts=True)
    med = (offsets[start + (count - 1) // 2] + offsets[start + count // 2]) / 2
    return tuple(float(v) for v in np.interp(np.arange(first, last + 1), known, med))


def fit_pitch(
    xs: np.ndarray, ys: np.ndarray, px: float, py: float, uneven: float = 0.0
) -> tuple[float, float]:
    """Least-squares pitch from matches spread over the board (cells that scale with the window),
    starting from the spacing of the matches' columns and rows (:func:`match_spacing`): from
    the pitch tried alone, a few per cent off, the lines of a wide board are numbered wrong
    (GNOME's 30 columns at 125 %, tried at 42 px for 40.8, were fitted at 42.5)."""
    fit_x, fit_y = match_spacing(xs, px), match_spacing(ys, py)
    for _ in range(2):
        lat = place_lattice(xs, ys, fit_x, fit_y, 2 * uneven)
        if lat is None:
            return fit_x, fit_y
        fx, fy = lat[0], lat[1]
        on_x = np.round((xs - fx) / fit_x)
        on_y = np.round((ys - fy) / fit_y)
        slack = 2.5 + 2 * uneven
        keep = (np.abs(xs - fx - on_x * fit_x) <= slack) & (np.abs(ys - fy - on_y * fit_y) <= slack)
        if on_x[keep].size and np.ptp(on_x[keep]) >= 2:
            fit_x = float(np.polyfit(on_x[keep], xs[keep], 1)[0])
        if on_y[keep].size and np.ptp(on_y[keep]) >= 2:
            fit_y = float(np.polyfit(on_y[keep], ys[keep], 1)[0])
    return fit_x, fit_y


#: How far (a share of the pitch tried) the matches' spacing may lie from it to be taken.
SPACING_REACH = 0.1


def match_spacing(positions: np.ndarray, pitch: float) -> float:
    """The pitch the match ``positions`` (along one axis) suggest near ``pitch``: the median
    distance between neighbouring lines of matches (matches within half a pitch of each other
    are one line), each divided by the whole number of cells it spans; ``pitch`` itself when
    fewer than two lines are matched or the spacing lies further than :data:`SPACING_REACH`.

    >>> match_spacing(np.array([0.0, 1.0, 41.0, 82.0, 163.0, 164.0]), 42.0)
    40.75
    """
    points = np.unique(np.round(positions))
    if points.size < 2:
        return pitch
    lines = np.split(points, np.nonzero(np.diff(points) > pitch / 2)[0] + 1)
    centres = np.array([line.mean() for line in lines])
    if centres.size < 2:
        return pitch
    gaps = np.diff(centres)
    spacing = float(np.median(gaps / np.maximum(np.round(gaps / pitch), 1)))
    return spacing if abs(spacing - pitch) <= SPACING_REACH * pitch else pitch


def lattice_step(xs: np.ndarray, ys: np.ndarray, px: float, py: float, slack: float = 0.0) -> int:
    """How many cells of pitch ``(px, py)`` apart every match on the lattice is, both ways (the
    greatest common divisor of their lattice steps; 1 when fewer than three matches sit on it).

    >>> lattice_step(np.array([0.0, 48, 96, 0]), np.array([0.0, 0, 48, 96]), 24.0, 24.0)
    2
    >>> lattice_step(np.array([0.0, 24, 96]), np.array([0.0, 0, 48]), 24.0, 24.0)
    1
    """
    lat = place_lattice(xs, ys, px, py, slack)
    if lat is None or lat[2].size < 3:
        return 1
    kx, ky = lat[2], lat[3]
    return int(np.gcd.reduce(np.concatenate([kx - kx.min(), ky - ky.min()])))
