"""Find a board in a picture: which skin, where the cell lattice is, how many rows and columns.

For each skin (all known skins unless told):

1. **Where to look.** The most common colour of each anchor template (a covered cell, an empty
   revealed cell) is looked up in the picture, sampled every other pixel; only the areas dense
   in that colour are searched further. Flat colours survive desktop scaling, so this works at
   every scale, and skins whose colours are absent cost almost nothing.
2. **Anchors.** In those areas the anchor templates, stretched to each candidate pitch, are
   matched with :func:`cv2.matchTemplate`. The candidates come from how often the key colours
   repeat across the area (a 1-D autocorrelation of per-column counts): the skin's desktop
   scalings that draw cells that wide, or for games whose cells grow with the window that
   period itself; an area whose period fits no scaling is another game's and is skipped. Good
   matches vote for the lattice phase (origin modulo pitch); the largest cluster of matches on
   the winning phase seeds the board.
3. **Extent.** The cells around the seeds are classified (:mod:`bot.reading.classify`; big cells at
   their own size every n-th pixel), the window growing while the board reaches its edge, so a
   border row without any anchor (all numbers) is still found, and the board frame stops the
   growth. On an uneven lattice (cells of two widths) the lines between and beyond the anchors
   are only estimated: when the board found stops short (anchors outside it, or a side line
   that reads like cells), each line is moved to where its cells read best and the board
   grown again; one that still stops short is refused, never given in part.

The candidate with the most confidently read cells wins.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np

from bot.errors import BoardNotFoundError, TwoBoardsError
from bot.reading.classify import CellScores, classify_cells
from bot.reading.grid import Grid
from bot.reading.matching import cell_scale, sample_step
from bot.reading.skins import Skin, load_skins
from bot.reading.whole import board_problem, check_whole, side_problem

#: Cell pitches ``(px, py)`` to try, in frame pixels.
Pitches = list[tuple[float, float]]

#: How far (relative) a fixed-pixel skin's scaled pitch may be from the period of its key
#: colours in an area and still be tried there (measured on the fixtures at 100-200 %: at most
#: 1.3 % apart).
PERIOD_SLACK = 0.03


#: The desktop scalings fixed-pixel skins are looked for at: those the skin lists first, and
#: any other in this range when its key colours repeat at such a pitch.
DESKTOP_SCALING = (1.0, 3.0)

#: Half the key colours' period is the period when they repeat there at least this strongly
#: (autocorrelation, against that at the whole period).
HALF_PERIOD_SHARE = 0.8

#: On an uneven lattice, a line along a side of the board found whose median confidence is at
#: least this reads like cells, not like the board's surroundings: the board found may stop
#: short (GNOME Mines: cells off by a pixel or two read 0.6-0.85, its background 0.15-0.25).
SIDE_LEVEL = 0.5

#: Most boards looked for in one area (more than one is refused: see :func:`locate_board`).
MAX_BOARDS = 3
#: Fewest cells of a clear reading beside a whole board that make it "two boards".
MIN_OTHER_CELLS = 9
#: Fewest anchor matches beyond a board found that are looked at as another board.
MIN_ANCHORS = 3


@dataclass(frozen=True)
class Located:
    """A board found in a picture: its skin, its grid and the scale (grid pitch / skin pitch)."""

    skin: Skin
    grid: Grid
    scale: float


@dataclass(frozen=True)
class _Candidate:
    located: Located
    score: float
    mean_confidence: float
    distance: float  # mean distance of the cells to their templates (lower: a closer fit)

    passing: float = 1.0  # share of the board's cells that read clearly
    #: Anchor matches lie outside the board found: it stops short of the board (refused).
    cut: bool = False

    @property
    def clean(self) -> bool:
        """Nearly every cell reads clearly (one under the pointer may not)."""
        return self.passing >= 0.98

    @property
    def area(self) -> float:
        grid = self.located.grid
        return grid.cols * grid.rows * grid.pitch_x * grid.pitch_y

    def better_than(self, other: _Candidate | None) -> bool:
        """Whole boards before cut ones (see below); clean readings first; then a clearly bigger
        board (a fragment of a board loses to the board); between readings of about the same
        area, the closest fit (the right pitch)."""
        if other is None:
            return True
        if self.cut != other.cut:
            # A whole board beats a cut one, unless the cut one is clearly bigger: a fragment
            # elsewhere must not stand in for a board that could not be read whole (refused).
            cut, whole = (self, other) if self.cut else (other, self)
            return (self is cut) == (cut.area > 1.5 * whole.area)
        if self.clean != other.clean:
            return self.clean
        ratio = self.area / other.area
        if ratio > 1.5 or ratio < 1 / 1.5:
            return ratio > 1
        if self.clean:
            return self.distance < other.distance
        return self.score > other.score


def locate_board(frame_bgr: np.ndarray, skins: Sequence[Skin] | None = None) -> Located:
    """Find the board in ``frame_bgr`` (BGR or BGRA, a window or a whole desktop).

    Raises :class:`~bot.errors.BoardNotFoundError` when no skin's board is there.
    """
    import cv2

    if frame_bgr is None or frame_bgr.ndim != 3 or frame_bgr.shape[2] not in (3, 4):
        raise BoardNotFoundError("not a colour picture (expected an H x W x 3 or 4 array)")
    frame = np.ascontiguousarray(frame_bgr[:, :, :3])
    skins = load_skins() if skins is None else list(skins)
    if not skins:
        raise BoardNotFoundError("no skins to look for (no skin folders found)")
    if min(frame.shape[:2]) < 2:  # halving it below leaves no pixel: there is no board anyway
        raise BoardNotFoundError(
            f"no board found in the {frame.shape[1]}x{frame.shape[0]} picture (too small)"
        )
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    # Every skin's first look is at the frame sampled every other pixel: made once for all.
    h, w = frame.shape[:2]
    small = cv2.resize(frame, (w // 2, h // 2), interpolation=cv2.INTER_NEAREST)
    found: list[_Candidate] = []
    later: list[tuple[Skin, tuple[int, int, int, int], Callable[[], Pitches]]] = []
    for skin in skins:
        taken = [c.located.grid.bounds for c in found if c.clean]
        found += _locate_skin(frame, gray, small, skin, later, taken)
    if not any(c.clean for c in found):
        # The key colours' period ruled these pitches out; but a board amid other things of
        # its colours (a grey desktop round a grey game) can hide its period: try them too
        # before giving up.
        for skin, core, pitches in later:
            found += _search_area(frame, gray, skin, core, pitches())
    boards = _distinct(found)
    whole = [c for c in boards if c.clean and not c.cut
             and board_problem(frame, c.located.grid) is None]  # fmt: skip
    if whole:
        # Any other clear reading of the skin's cells beside a whole board is another board,
        # or part of one: which board the user means cannot be told (refused, both named).
        others = [c for c in boards if c is not whole[0] and c.clean
                  and c.located.grid.cols * c.located.grid.rows >= MIN_OTHER_CELLS]  # fmt: skip
        if others:
            raise TwoBoardsError(
                f"{1 + len(others)} boards in the picture: "
                + " and ".join(_where(c.located, c in whole) for c in [whole[0], *others])
                + "; show one at a time (or capture one window)"
            )
        return whole[0].located
    best = None
    for candidate in boards:
        if candidate.better_than(best):
            best = candidate
    if best is None:
        names = ", ".join(s.name for s in skins)
        raise BoardNotFoundError(
            f"no board found in the {frame.shape[1]}x{frame.shape[0]} picture "
            f"(skins tried: {names})"
        )
    if best.cut:
        grid = best.located.grid
        raise BoardNotFoundError(
            f"a {best.located.skin.name} board was found only in part: its cells read clearly "
            f"in a {grid.cols}x{grid.rows} part at ({grid.left:.0f}, {grid.top:.0f}), but cells "
            "of the board lie beyond it"
        )
    check_whole(frame, best.located.grid, f"{best.located.skin.name} board")
    return best.located


def _where(located: Located, whole: bool = True) -> str:
    """``a 30x16 sgt-mines board at x 30..630, y 55..375`` (for messages); a board not known to
    be whole is ``part of a sgt-mines board (12x16 cells) at ...``."""
    grid = located.grid
    left, top, right, bottom = (round(v) for v in grid.bounds)
    what = (
        f"a {grid.cols}x{grid.rows} {located.skin.name} board"
        if whole
        else f"part of a {located.skin.name} board ({grid.cols}x{grid.rows} cells)"
    )
    return f"{what} at x {left}..{right}, y {top}..{bottom}"


def _distinct(candidates: list[_Candidate]) -> list[_Candidate]:
    """The best candidate of each place: readings that overlap (one board read by several
    skins or pitches) give way to the better one."""
    kept: list[_Candidate] = []
    for candidate in candidates:
        box = candidate.located.grid.bounds
        rivals = [k for k in kept if _overlap(box, k.located.grid.bounds)]
        if all(candidate.better_than(k) for k in rivals):
            kept = [k for k in kept if k not in rivals] + [candidate]
    return kept


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Whether boxes ``(x0, y0, x1, y1)`` share any area.

    >>> _overlap((0, 0, 10, 10), (5, 5, 20, 20)), _overlap((0, 0, 10, 10), (10, 0, 20, 10))
    (True, False)
    """
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


# -- step 1: where to look ----------------------------------------------------------------------


@lru_cache(maxsize=64)
def _anchor_colour(skin: Skin, anchor: str) -> np.ndarray:
    """The most common colour of an anchor template (BGR, int16); memoised per skin value."""
    # Each BGR pixel as one number: counting those is much cheaper than rows of three.
    bgr = skin.templates[anchor].reshape(-1, 3).astype(np.int32)
    packed = (bgr[:, 0] << 16) | (bgr[:, 1] << 8) | bgr[:, 2]
    values, counts = np.unique(packed, return_counts=True)
    top = int(values[counts.argmax()])
    return np.array([top >> 16, (top >> 8) & 255, top & 255], np.int16)


def _key_colours(skin: Skin) -> list[np.ndarray]:
    """The anchors' most common colours (BGR), each once."""
    colours: list[np.ndarray] = []
    for anchor in skin.anchors:
        colour = _anchor_colour(skin, anchor)
        if not any((colour == c).all() for c in colours):
            colours.append(colour)
    return colours


def _key_mask(area: np.ndarray, skin: Skin, colours: list[np.ndarray] | None = None) -> np.ndarray:
    """255 where ``area`` shows one of the skin's key colours (or of ``colours``), else 0."""
    import cv2

    tol = max(6, skin.tolerance // 3)
    mask = np.zeros(area.shape[:2], np.uint8)
    for colour in _key_colours(skin) if colours is None else colours:
        lo = np.clip(colour - tol, 0, 255).astype(np.uint8)
        hi = np.clip(colour + tol, 0, 255).astype(np.uint8)
        in_range: np.ndarray = cv2.inRange(area, lo, hi)
        mask |= in_range
    return mask


def _regions(frame: np.ndarray, small: np.ndarray, skin: Skin) -> list[tuple[int, int, int, int]]:
    """Boxes ``(x0, y0, x1, y1)`` of the frame dense in the skin's key colours (``small``: the
    frame sampled every other pixel); boxes that would overlap once padded are merged, so a
    board is searched once."""
    import cv2

    step = 2
    mask = _key_mask(small, skin)
    # Density in blocks about a third of the smallest cell, then close the gaps between cells.
    smallest = min(skin.pitch_x, skin.pitch_y) * min(skin.scales + (1.0,))
    if skin.scales_with_window:
        smallest = skin.pitch_range[0]
    block = max(2, int(smallest / step / 2))
    h, w = mask.shape
    hb, wb = h // block, w // block
    if hb == 0 or wb == 0:
        return []
    # Block means by area resampling (exact for whole blocks, and a tenth of numpy's cost).
    dens = cv2.resize(mask[: hb * block, : wb * block], (wb, hb), interpolation=cv2.INTER_AREA)
    dense: np.ndarray = (dens > 255 * 0.15).astype(np.uint8)
    dense = cv2.dilate(dense, np.ones((5, 5), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(dense, connectivity=8)
    cores = []
    for i in range(1, count):
        x, y, bw, bh, _area = stats[i]
        if bw * block * step < smallest * 2 or bh * block * step < smallest * 2:
            continue  # smaller than two cells
        x0, y0 = x * block * step, y * block * step
        cores.append((x0, y0, x0 + bw * block * step, y0 + bh * block * step))
    # Areas that would share cells once padded are one area.
    return _merge_overlapping(cores, gap=2 * _padding(skin))


def _padding(skin: Skin, pitch: float | None = None) -> int:
    """How far around a dense area to search: two cells (of ``pitch``, else of the biggest
    size the skin's cells come in), for a border row of numbers without any key colour."""
    largest = max(skin.pitch_range[1], max(skin.pitch_x, skin.pitch_y) * DESKTOP_SCALING[1])
    return int(np.ceil(2 * (largest if pitch is None else pitch)))


def _padded(
    box: tuple[int, int, int, int], pad: int, frame: np.ndarray
) -> tuple[int, int, int, int]:
    """``box`` grown by ``pad`` px on every side, inside the frame."""
    x0, y0, x1, y1 = box
    h, w = frame.shape[:2]
    return max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)


def _merge_overlapping(
    boxes: list[tuple[int, int, int, int]], gap: int = 0
) -> list[tuple[int, int, int, int]]:
    """``boxes`` with every pair closer than ``gap`` px (or overlapping) replaced by the box
    around both.

    >>> _merge_overlapping([(0, 0, 10, 10), (50, 50, 60, 60), (5, 5, 20, 20)])
    [(0, 0, 20, 20), (50, 50, 60, 60)]
    >>> _merge_overlapping([(0, 0, 10, 10), (15, 0, 20, 10)], gap=6)
    [(0, 0, 20, 10)]
    """
    out = [(int(a), int(b), int(c), int(d)) for a, b, c, d in boxes]
    i = 0
    while i < len(out):
        a = out[i]
        j = next(
            (j for j in range(i + 1, len(out))
             if a[0] < out[j][2] + gap and out[j][0] < a[2] + gap
             and a[1] < out[j][3] + gap and out[j][1] < a[3] + gap),
            None,
        )  # fmt: skip
        if j is None:
            i += 1
            continue
        b = out.pop(j)
        out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
        i = 0  # the bigger box may now reach an earlier one
    return out


# -- step 2: anchors and the lattice ------------------------------------------------------------


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
        colour = _anchor_colour(skin, anchor)
        inside = np.all(np.abs(skin.templates[anchor].astype(np.int16) - colour) <= tol, axis=2)
        cols, rows = np.nonzero(inside.any(axis=0))[0], np.nonzero(inside.any(axis=1))[0]
        if cols.size == 0:
            continue
        width, height = int(np.ptp(cols)) + 1, int(np.ptp(rows)) + 1
        if width >= skin.pitch_x - 1:
            continue  # the colour reaches the cell's edges: no blob per cell
        mask = _key_mask(area, skin, [colour])
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
    mask = _key_mask(frame[y0:y1:2, x0:x1], skin)
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


def _candidate_pitches(
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
        first = [
            (px, py)
            for k in (1, 2)
            for px, py in pitches
            if abs(px / (k * period) - 1) <= PERIOD_SLACK
        ]
        if not first:
            # A scaling the skin does not list (fractional, or beyond 200 %): the period is
            # the pitch (or half of it), fitted to the anchors found (see _search_area).
            lo_scale, hi_scale = DESKTOP_SCALING
            first = [
                (k * period, k * period * skin.pitch_y / skin.pitch_x)
                for k in (1, 2)
                if lo_scale * (1 - PERIOD_SLACK)
                <= k * period / skin.pitch_x
                <= hi_scale * (1 + PERIOD_SLACK)
            ]
        first = list(dict.fromkeys(first))
        return first, lambda: [p for p in pitches if p not in first]
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
            if skin.uneven_px:  # whole-pixel cells: the wider ones are the drawn size
                period = float(np.ceil(period - 1e-6))
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


def _anchor_image(skin: Skin, anchor: str, px: float, py: float) -> np.ndarray:
    """The anchor's grey image at pitch ``(px, py)`` (memoised per skin value and pitch)."""
    return _anchor_image_at(skin, anchor, round(px, 3), round(py, 3))


@lru_cache(maxsize=256)
def _anchor_image_at(skin: Skin, anchor: str, px: float, py: float) -> np.ndarray:
    import cv2

    # The whole cell, grid lines and bevels included: they are what tells a cell from a
    # flat area of the same colour.
    gray = cv2.cvtColor(skin.templates[anchor], cv2.COLOR_BGR2GRAY)
    sx, sy = px / skin.pitch_x, py / skin.pitch_y
    if (round(sx, 3), round(sy, 3)) == (1, 1):
        image = gray
    else:
        # Stretch a 3x3 tiling so the cell's edges blend with neighbours as on the screen.
        h, w = gray.shape
        size = (max(9, round(3 * w * sx)), max(9, round(3 * h * sy)))
        interp = cv2.INTER_AREA if sx < 1 else cv2.INTER_LINEAR
        tiled = cv2.resize(np.tile(gray, (3, 3)), size, interpolation=interp)
        image = tiled[round(h * sy) : round(2 * h * sy), round(w * sx) : round(2 * w * sx)]
        image = np.ascontiguousarray(image)
    return image


@lru_cache(maxsize=256)
def _anchor_variance(skin: Skin, anchor: str, px: float, py: float) -> float:
    """The variance of :func:`_anchor_image` (memoised per skin value and pitch)."""
    return float(_anchor_image(skin, anchor, px, py).var())


def _variance(skin: Skin, anchor: str, px: float, py: float, templ: np.ndarray) -> float:
    """The variance of ``templ``, the anchor's image at ``(px, py)``."""
    return _anchor_variance(skin, anchor, round(px, 3), round(py, 3))


def _anchor_matches(
    gray: np.ndarray, skin: Skin, px: float, py: float
) -> tuple[np.ndarray, np.ndarray]:
    """Top-left corners (x, y) of cells whose anchor template matches well, in ``gray``."""
    import cv2

    xs_all, ys_all = [], []
    for anchor in skin.anchors:
        templ = _anchor_image(skin, anchor, px, py)
        th, tw = templ.shape
        if gray.shape[0] < th or gray.shape[1] < tw:
            continue
        variance = _variance(skin, anchor, px, py, templ)
        if variance < 50:
            continue  # a flat anchor would match every flat area of its colour
        result = cv2.matchTemplate(gray, templ, cv2.TM_SQDIFF)
        # Exact skins match with 0; smoothing (desktop scaling) blurs the edges, which costs a
        # small part of the template's own contrast.
        limit = max((skin.tolerance * 0.5) ** 2, 0.3 * variance) * templ.size
        _, below = cv2.threshold(result, limit, 255, cv2.THRESH_BINARY_INV)
        below = below.astype(np.uint8)
        points = None
        if cv2.countNonZero(below):  # else nothing like the anchor here: no minima to find
            kernel = np.ones((max(3, int(py * 0.5)), max(3, int(px * 0.5))), np.uint8)
            minimum = cv2.compare(result, cv2.erode(result, kernel), cv2.CMP_LE)
            points = cv2.findNonZero(cv2.bitwise_and(below, minimum))
        points = np.empty((0, 2)) if points is None else points.reshape(-1, 2)
        xs, ys = points[:, 0], points[:, 1]
        xs_all.append(xs.astype(float))
        ys_all.append(ys.astype(float))
        if xs.size >= 3:
            break  # enough to place the lattice; the extent step does the rest
    if not xs_all:
        return np.empty(0), np.empty(0)
    return np.concatenate(xs_all), np.concatenate(ys_all)


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


def _lattice(
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


def _offsets(k: np.ndarray, d: np.ndarray, first: int, last: int) -> tuple[float, ...]:
    """Per-line offsets ``first..last`` from the even lattice: the median offset of the matches
    on each line, interpolated between lines without matches."""
    known = np.unique(k)
    med = np.array([np.median(d[k == v]) for v in known])
    return tuple(float(v) for v in np.interp(np.arange(first, last + 1), known, med))


# -- step 3: extent -----------------------------------------------------------------------------


def _extent(
    frame: np.ndarray,
    skin: Skin,
    fx: float,
    fy: float,
    px: float,
    py: float,
    seeds: tuple[np.ndarray, np.ndarray],
    roi: tuple[int, int, int, int],
    shifts: tuple[np.ndarray, np.ndarray] | None = None,
) -> _Candidate | None:
    """The board around the seed cells: classify every lattice cell of the search area at
    once, keep the connected group of confidently read cells holding most seeds, and take its
    bounding box. The board's frame (never a cell) cuts the group off from look-alike areas.

    Seeds left outside the group mean the group stopped inside the board: on an uneven lattice
    the lines are then placed again by how well their cells read (:func:`_fit_offsets`); if
    seeds still lie outside, the candidate is marked ``cut`` (a smaller board is never given)."""
    x0, y0, x1, y1 = roi
    kx0, kx1 = int(np.ceil((x0 - fx) / px)), int(np.floor((x1 - fx) / px)) - 1
    ky0, ky1 = int(np.ceil((y0 - fy) / py)), int(np.floor((y1 - fy) / py)) - 1
    if kx1 < kx0 or ky1 < ky0:
        return None
    kx, ky = seeds
    lattice = _Lattice(fx, fy, px, py, (kx0, ky0, kx1, ky1))
    if shifts is not None:
        lattice = replace(
            lattice,
            col_offsets=_offsets(kx, shifts[0], kx0, kx1),
            row_offsets=_offsets(ky, shifts[1], ky0, ky1),
        )
    inside = (kx >= kx0) & (kx <= kx1) & (ky >= ky0) & (ky <= ky1)
    if not inside.any():
        return None
    kx, ky = kx[inside], ky[inside]
    # Finding the board needs no pixel-by-pixel look at big cells drawn at the skin's own
    # size: about 16 samples across each (the reader then compares every pixel). Stretched
    # cells keep every pixel: their blurred edges already cost some of each cell's score.
    own_size = cell_scale(_grid(fx, fy, px, py, 0, 0, 0, 0), skin) == (1.0, 1.0)
    step = max(sample_step(skin), int(min(px, py) // 16)) if own_size else sample_step(skin)
    window = (
        max(kx0, kx.min() - 2),
        max(ky0, ky.min() - 2),
        min(kx1, kx.max() + 2),
        min(ky1, ky.max() + 2),
    )
    grown = _grow(frame, skin, lattice, window, (kx, ky), step)
    if grown is None:
        return None
    # Lines an uneven lattice's anchors did not place may be off by a few pixels; elsewhere
    # the lattice is exact, and a look-alike margin may read like cells.
    short = shifts is not None and _stops_short(frame, lattice, grown, (kx, ky))
    for _ in range(3):  # the window widens as lines are placed: place the new ones too
        if not short:
            break
        fitted = grown[0]
        lattice = _fit_offsets(frame, skin, lattice, fitted, step)
        grown = _grow(frame, skin, lattice, fitted, (kx, ky), step)
        if grown is None:
            return None
        short = _stops_short(frame, lattice, grown, (kx, ky))
        if grown[0] == fitted:
            break  # every line of the window placed: no better to be had
    (wx0, wy0, _, _), scores, (bx0, by0, bx1, by1) = grown
    if (bx1 - bx0 + 1) * (by1 - by0 + 1) < 4:
        return None
    conf = scores.confidence[by0 : by1 + 1, bx0 : bx1 + 1]
    theta = skin.min_confidence
    # Clean cells count +1, doubtful ones down to -1: a look-alike read at the wrong pitch
    # (many cells, all so-so) loses to the real board (cells that match exactly).
    score = float(np.clip((conf - theta) / (1 - theta), -1, 1).sum())
    board = lattice.grid(wx0 + bx0, wy0 + by0, wx0 + bx1, wy0 + by1)
    located = Located(skin, board, float(px / skin.pitch_x))
    distance = float(scores.distance[by0 : by1 + 1, bx0 : bx1 + 1].mean())
    readable = (conf >= theta) & (scores.margin[by0 : by1 + 1, bx0 : bx1 + 1] >= skin.min_margin)
    return _Candidate(located, score, float(conf.mean()), distance, float(readable.mean()), short)


@dataclass(frozen=True)
class _Lattice:
    """The lattice a board is searched on: phase ``(fx, fy)``, pitch, the lattice indices
    ``(kx0, ky0, kx1, ky1)`` inside the search area and, on uneven lattices, each line's offset
    from the even lattice (index 0: line ``kx0`` / ``ky0``)."""

    fx: float
    fy: float
    px: float
    py: float
    limits: tuple[int, int, int, int]
    col_offsets: tuple[float, ...] = ()
    row_offsets: tuple[float, ...] = ()

    def grid(self, x0: int, y0: int, x1: int, y1: int) -> Grid:
        """The grid of lattice cells ``x0..x1`` by ``y0..y1`` (inclusive), lines offset."""
        kx0, ky0 = self.limits[:2]
        return replace(
            _grid(self.fx, self.fy, self.px, self.py, x0, y0, x1, y1),
            col_offsets=self.col_offsets[x0 - kx0 : x1 - kx0 + 1],
            row_offsets=self.row_offsets[y0 - ky0 : y1 - ky0 + 1],
        )


#: What :func:`_grow` finds: the window classified ``(x0, y0, x1, y1)`` (lattice indices), its
#: scores and the board's box in the window ``(bx0, by0, bx1, by1)`` (inclusive).
_Grown = tuple[tuple[int, int, int, int], CellScores, tuple[int, int, int, int]]


def _grow(
    frame: np.ndarray,
    skin: Skin,
    lattice: _Lattice,
    window: tuple[int, int, int, int],
    seeds: tuple[np.ndarray, np.ndarray],
    step: int,
) -> _Grown | None:
    """Classify ``window`` (lattice indices) and keep the connected group of confidently read
    cells holding most seeds, widening the window while the group reaches its edge (cheaper
    than the whole search area)."""
    import cv2

    kx0, ky0, kx1, ky1 = lattice.limits
    wx0, wy0, wx1, wy1 = window
    kx, ky = seeds
    for _ in range(50):
        scores = classify_cells(frame, lattice.grid(wx0, wy0, wx1, wy1), skin, step)
        # Stricter than reading: a cell must match clearly to extend the board, so look-alike
        # areas next to it (a margin of the same grey) stay out; the reader judges every cell.
        good = (scores.confidence >= (1 + skin.min_confidence) / 2) & (
            scores.margin >= skin.min_margin
        )
        count, labels = cv2.connectedComponents(good.astype(np.uint8), connectivity=8)
        votes = np.bincount(labels[ky - wy0, kx - wx0], minlength=count)
        votes[0] = 0
        if votes.max() == 0:
            return None
        ys, xs = np.nonzero(labels == votes.argmax())
        bx0, by0, bx1, by1 = xs.min(), ys.min(), xs.max(), ys.max()
        grow = (
            4 * (bx0 == 0 and wx0 > kx0),
            4 * (by0 == 0 and wy0 > ky0),
            4 * (bx1 == wx1 - wx0 and wx1 < kx1),
            4 * (by1 == wy1 - wy0 and wy1 < ky1),
        )
        if not any(grow):
            break
        wx0, wy0 = max(kx0, wx0 - grow[0]), max(ky0, wy0 - grow[1])
        wx1, wy1 = min(kx1, wx1 + grow[2]), min(ky1, wy1 + grow[3])
    return (wx0, wy0, wx1, wy1), scores, (int(bx0), int(by0), int(bx1), int(by1))


def _stops_short(
    frame: np.ndarray, lattice: _Lattice, grown: _Grown, seeds: tuple[np.ndarray, np.ndarray]
) -> bool:
    """Whether the board found stops inside the board: anchor matches on the lattice lie
    beyond a side that does not end at a frame (beyond a frame they are another board's), or
    a line along one of its sides reads like cells (median confidence at least
    :data:`SIDE_LEVEL`) where a board's surroundings read as nothing."""
    (wx0, wy0, _, _), scores, (bx0, by0, bx1, by1) = grown
    kx, ky = seeds[0] - wx0, seeds[1] - wy0
    beyond = {
        "left": (kx < bx0).any(),
        "right": (kx > bx1).any(),
        "top": (ky < by0).any(),
        "bottom": (ky > by1).any(),
    }
    if any(beyond.values()):
        grid = lattice.grid(wx0 + bx0, wy0 + by0, wx0 + bx1, wy0 + by1)
        if any(side_problem(frame, grid, side) for side, out in beyond.items() if out):
            return True
    conf = scores.confidence
    h, w = conf.shape
    sides = [
        conf[by0 : by1 + 1, bx0 - 1] if bx0 > 0 else None,
        conf[by0 : by1 + 1, bx1 + 1] if bx1 + 1 < w else None,
        conf[by0 - 1, bx0 : bx1 + 1] if by0 > 0 else None,
        conf[by1 + 1, bx0 : bx1 + 1] if by1 + 1 < h else None,
    ]
    return any(side is not None and np.median(side) >= SIDE_LEVEL for side in sides)


def _fit_offsets(
    frame: np.ndarray, skin: Skin, lattice: _Lattice, window: tuple[int, int, int, int], step: int
) -> _Lattice:
    """Each column's, then each row's offset moved by whole pixels (up to the skin's
    ``uneven_px``) to where the line's cells read best: the anchor matches place the lines
    only where they are, and a board of few anchors (a lost dense board is nearly all mines)
    leaves lines guessed between matches or beyond the last one."""
    wx0, wy0, wx1, wy1 = window
    kx0, ky0 = lattice.limits[:2]
    reach = int(np.ceil(skin.uneven_px))
    moves = np.arange(-reach, reach + 1)
    for axis in (1, 0):  # columns (a line along axis 0 of the scores), then rows
        name = "col_offsets" if axis == 1 else "row_offsets"
        first, lo, hi = (kx0, wx0, wx1) if axis == 1 else (ky0, wy0, wy1)
        phase, pitch = (lattice.fx, lattice.px) if axis == 1 else (lattice.fy, lattice.py)
        offsets = np.array(getattr(lattice, name))
        # Such lattices are of whole-pixel cells: each line starts on a whole pixel.
        even = phase + (first + np.arange(offsets.size)) * pitch
        offsets = np.round(even + offsets) - even
        part = slice(lo - first, hi - first + 1)
        # Mean confidence of each line with all the window's lines moved by each amount.
        quality = []
        for move in moves:
            moved = offsets.copy()
            moved[part] += move
            changes: dict[str, Any] = {name: tuple(moved)}
            trial = replace(lattice, **changes)
            conf = classify_cells(frame, trial.grid(wx0, wy0, wx1, wy1), skin, step).confidence
            quality.append(conf.mean(axis=1 - axis))
        best = moves[np.argmax(np.array(quality), axis=0)]
        # Lines beyond the window follow the nearest line inside it.
        offsets += np.interp(np.arange(offsets.size), np.arange(lo, hi + 1) - first, best)
        final: dict[str, Any] = {name: tuple(float(v) for v in offsets)}
        lattice = replace(lattice, **final)
    return lattice


def _grid(fx: float, fy: float, px: float, py: float, x0: int, y0: int, x1: int, y1: int) -> Grid:
    """The grid of lattice cells ``x0..x1`` by ``y0..y1`` (inclusive)."""
    return Grid(
        float(fx + x0 * px),
        float(fy + y0 * py),
        float(px),
        float(py),
        int(x1 - x0 + 1),
        int(y1 - y0 + 1),
    )


def _refine_pitch(
    xs: np.ndarray, ys: np.ndarray, px: float, py: float, uneven: float = 0.0
) -> tuple[float, float]:
    """Least-squares pitch from matches spread over the board (cells that scale with the window)."""
    fit_x, fit_y = px, py
    for _ in range(2):
        lat = _lattice(xs, ys, fit_x, fit_y, 2 * uneven)
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


def _locate_skin(
    frame: np.ndarray,
    gray: np.ndarray,
    small: np.ndarray,
    skin: Skin,
    later: list[tuple[Skin, tuple[int, int, int, int], Callable[[], Pitches]]],
    taken: list[tuple[float, float, float, float]],
) -> list[_Candidate]:
    """The skin's boards in the frame, trying each dense area's first pitches; the pitches to
    try later are added to ``later``. ``taken``: boxes where other skins read a board clearly."""
    found: list[_Candidate] = []
    for core in _regions(frame, small, skin):
        first, rest = _candidate_pitches(skin, frame, _padded(core, _padding(skin), frame))
        listed = {(skin.pitch_x * k, skin.pitch_y * k) for k in skin.scales}
        if taken and not set(first) & listed and any(_overlap(core, box) for box in taken):
            # Only a scaling the skin does not list fits here, and another skin read a board
            # clearly here: tried only if no board is found (saves a match per frame).
            later.append((skin, core, functools.partial(_then, first, rest)))
            continue
        found += _search_area(frame, gray, skin, core, first)
        later.append((skin, core, rest))
    return found


def _then(first: Pitches, rest: Callable[[], Pitches]) -> Pitches:
    """``first`` and then the pitches ``rest`` gives (worked out only when asked for)."""
    return first + rest()


def _search_area(
    frame: np.ndarray,
    gray: np.ndarray,
    skin: Skin,
    core: tuple[int, int, int, int],
    pitches: Pitches,
) -> list[_Candidate]:
    """The best board of the skin around the dense area ``core`` at one of ``pitches``, and
    other boards found at that pitch beside it (their anchors on another phase)."""
    best: list[_Candidate] = []
    for px, py in pitches:
        # Matched in the dense area and two cells of this pitch around it.
        x0, y0, x1, y1 = _padded(core, _padding(skin, max(px, py)), frame)
        roi = gray[y0:y1, x0:x1]
        xs, ys = _anchor_matches(roi, skin, px, py)
        if xs.size < 2:
            continue
        listed = any(abs(px - skin.pitch_x * k) < 1e-6 for k in skin.scales)
        if skin.scales_with_window or not listed:
            fit_x, fit_y = _refine_pitch(xs, ys, px, py, skin.uneven_px)
            if skin.uneven_px:  # whole-pixel cells: the wider ones are the drawn size
                ax, ay = float(np.ceil(fit_x - 1e-6)), float(np.ceil(fit_y - 1e-6))
            else:
                ax, ay = fit_x, fit_y
            if max(abs(ax - px), abs(ay - py)) > 0.5:
                # Match again with anchors drawn at the size found, for exact positions.
                xs, ys = _anchor_matches(roi, skin, ax, ay)
                if xs.size < 2:
                    continue
            px, py = fit_x, fit_y
        boards: list[_Candidate] = []
        for _ in range(MAX_BOARDS):
            lat = _lattice(xs, ys, px, py, skin.uneven_px)
            if lat is None:
                break
            fx, fy, kx, ky, dx, dy = lat
            shifts = (dx, dy) if skin.uneven_px else None
            roi_box = (x0, y0, x1, y1)
            found = _extent(frame, skin, fx + x0, fy + y0, px, py, (kx, ky), roi_box, shifts)
            if found is None or found.score <= 0:
                break
            boards.append(found)
            # Anchors well outside this board (beyond its frame) may be another board's.
            left, top, right, bottom = found.located.grid.bounds
            away = (
                (xs + x0 < left - 2 * px) | (xs + x0 > right + px)
                | (ys + y0 < top - 2 * py) | (ys + y0 > bottom + py)
            )  # fmt: skip
            if away.sum() < MIN_ANCHORS:
                break
            xs, ys = xs[away], ys[away]
        if not boards:
            continue
        if not best or boards[0].better_than(best[0]):
            best = boards
        if boards[0].clean and boards[0].distance < 1.0:
            break  # pixel-exact at this pitch: no other pitch can fit better
    return best
