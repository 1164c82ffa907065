"""Where to look for a board: the areas of a picture dense in a skin's key colours, and the cell
pitches worth trying there (step 1 of :mod:`bot.reading.locate`).

The most common colour of each anchor template (a covered cell, an empty revealed cell) is
looked up in the picture, sampled every other pixel. Flat colours survive desktop scaling, so
this works at every scale, and skins whose colours are absent cost almost nothing. How often
those colours repeat across an area (a 1-D autocorrelation of per-column counts) gives the
pitches to try: the skin's desktop scalings that draw cells that wide, or for games whose cells
grow with the window that period itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

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


#: :func:`find_regions` samples every other pixel each way.
SAMPLE_STEP = 2
#: ... counts a block dense in the key colours when this share of it shows them ...
DENSE_SHARE = 0.15
#: ... and grows each dense block by this many blocks each way, so a board's cells, its numbers
#: between them, make one area.
CLOSING_BLOCKS = 2


#: Half the key colours' period is the period when they repeat there at least this strongly
#: (autocorrelation, against that at the whole period).
HALF_PERIOD_SHARE = 0.8


@lru_cache(maxsize=64)
def anchor_colour(skin: Skin, anchor: str) -> np.ndarray:
    """The most common colour of an anchor template (BGR, int16); memoised per skin value."""
    return _commonest(skin.templates[anchor])


def _commonest(image: np.ndarray) -> np.ndarray:
    """The most common colour of ``image`` (BGR, int16)."""
    # Each BGR pixel as one number: counting those is much cheaper than rows of three.
    bgr = image.reshape(-1, 3).astype(np.int32)
    packed = (bgr[:, 0] << 16) | (bgr[:, 1] << 8) | bgr[:, 2]
    values, counts = np.unique(packed, return_counts=True)
    top = int(values[counts.argmax()])
    return np.array([top >> 16, (top >> 8) & 255, top & 255], np.int16)


def key_colours(skin: Skin) -> list[np.ndarray]:
    """The anchors' most common colours (BGR), each once; in a skin cut from the user's screen
    at several sizes (``stretch_nearest``) those of each size's anchor images too: cells drawn
    see-through over a shaded background show another tone at each size (KMines)."""
    colours: list[np.ndarray] = []
    for anchor in skin.anchors:
        found: list[np.ndarray | None] = [anchor_colour(skin, anchor)]
        if skin.stretch_nearest:
            found += [_sized_anchor_colour(skin, k, anchor) for k in range(len(skin.sizes))]
        for colour in found:
            if colour is not None and not any((colour == c).all() for c in colours):
                colours.append(colour)
    return colours


@lru_cache(maxsize=64)
def _sized_anchor_colour(skin: Skin, size: int, anchor: str) -> np.ndarray | None:
    """The most common colour of the anchor's first image at the skin's ``size``-th drawn size
    (None when that size has none); memoised per skin value."""
    images = [image for cls, image in skin.sizes[size].variants if cls == anchor]
    return _commonest(images[0]) if images else None


def key_mask(area: np.ndarray, skin: Skin, colours: list[np.ndarray] | None = None) -> np.ndarray:
    """255 where ``area`` shows one of the skin's key colours (or of ``colours``), else 0."""
    import cv2

    tol = max(6, skin.tolerance // 3)
    mask = np.zeros(area.shape[:2], np.uint8)
    for colour in key_colours(skin) if colours is None else colours:
        lo = np.clip(colour - tol, 0, 255).astype(np.uint8)
        hi = np.clip(colour + tol, 0, 255).astype(np.uint8)
        in_range: np.ndarray = cv2.inRange(area, lo, hi)
        mask |= in_range
    return mask


@dataclass
class FrameLook:
    """What every skin's first look at one frame shares: the frame (BGR), its grey, the frame
    sampled every other pixel, and each skin's key-colour mask of that, its dense areas and the
    pitches to try in an area (made when first asked for). One locate owns it; :meth:`blanked`
    gives the look at the frame with a box blanked out without working the whole frame out
    again."""

    frame: np.ndarray
    gray: np.ndarray
    small: np.ndarray
    masks: dict[Skin, np.ndarray] = field(default_factory=dict)
    pitches: dict[tuple[Skin, tuple[int, int, int, int]], tuple[Pitches, Callable[[], Pitches]]] = (
        field(default_factory=dict)
    )
    regions: dict[Skin, list[tuple[int, int, int, int]]] = field(default_factory=dict)

    @classmethod
    def of(cls, frame: np.ndarray) -> FrameLook:
        import cv2

        h, w = frame.shape[:2]
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        small = cv2.resize(
            frame, (w // SAMPLE_STEP, h // SAMPLE_STEP), interpolation=cv2.INTER_NEAREST
        )
        return cls(frame, gray, small)

    def mask(self, skin: Skin) -> np.ndarray:
        """:func:`key_mask` of :attr:`small` for ``skin``."""
        if skin not in self.masks:
            self.masks[skin] = key_mask(self.small, skin)
        return self.masks[skin]

    def regions_of(self, skin: Skin) -> list[tuple[int, int, int, int]]:
        """:func:`find_regions` of the frame for ``skin`` (worked out once: the look for a
        board beside another asks again)."""
        if skin not in self.regions:
            self.regions[skin] = find_regions(self.frame, self.small, skin, self.mask(skin))
        return self.regions[skin]

    def pitches_in(
        self, skin: Skin, box: tuple[int, int, int, int]
    ) -> tuple[Pitches, Callable[[], Pitches]]:
        """:func:`candidate_pitches` of the frame's area ``box`` for ``skin`` (worked out once:
        the look for a board beside another asks again)."""
        if (skin, box) not in self.pitches:
            self.pitches[skin, box] = candidate_pitches(skin, self.frame, box)
        return self.pitches[skin, box]

    def masks_blanked(
        self,
        box: tuple[int, int, int, int],
        colour: tuple[int, int, int],
        skins: Sequence[Skin] = (),
    ) -> FrameLook:
        """The look at the frame with ``box`` filled with ``colour`` as far as the key colours
        of ``skins`` (and of the skins looked at already) go: their masks, and the dense areas
        found from them, as :meth:`blanked` gives them; the frame's pixels are not blanked (a
        look only for :meth:`regions_of` those skins: blanking a desktop's pixels costs a
        first read 4 ms, where most often no skin's colours lie beside the board at all)."""
        for skin in skins:
            self.mask(skin)
        masks = {k: m.copy() for k, m in self.masks.items()}
        hit = self._sampled_box(box)
        if hit is not None:
            pixel = np.array([[colour]], np.uint8)
            for skin, mask in masks.items():
                mask[hit] = key_mask(pixel, skin)[0, 0]
        return FrameLook(self.frame, self.gray, self.small, masks)

    def dense_within(
        self, skin: Skin, box: tuple[int, int, int, int]
    ) -> tuple[int, int, int, int] | None:
        """The box round the blocks of ``box`` (x0, y0, x1, y1) dense in the skin's key colours,
        as :func:`find_regions` measures them, not grown; None when there are none."""
        import cv2

        block = _density_block(skin)
        unit = block * SAMPLE_STEP  # a block's side in frame pixels
        x0, y0, x1, y1 = box
        bx0, by0 = x0 // unit, y0 // unit
        part = self.mask(skin)[
            by0 * block : -(-y1 // unit) * block, bx0 * block : -(-x1 // unit) * block
        ]
        hb, wb = part.shape[0] // block, part.shape[1] // block
        if hb == 0 or wb == 0:
            return None
        dens = cv2.resize(part[: hb * block, : wb * block], (wb, hb), interpolation=cv2.INTER_AREA)
        ys, xs = np.nonzero(dens > 255 * DENSE_SHARE)
        if not ys.size:
            return None
        return (
            max(x0, int(bx0 + xs.min()) * unit),
            max(y0, int(by0 + ys.min()) * unit),
            min(x1, int(bx0 + xs.max() + 1) * unit),
            min(y1, int(by0 + ys.max() + 1) * unit),
        )

    def _sampled_box(self, box: tuple[int, int, int, int]) -> tuple[slice, slice] | None:
        """The pixels of :attr:`small` whose source pixel lies in ``box`` (x0, y0, x1, y1), as
        the resize of :meth:`of` picks them (a box: the source of each sampled column and row
        is monotone); None when there are none."""
        import cv2

        x0, y0, x1, y1 = box
        small_h, small_w = self.small.shape[:2]
        h, w = self.frame.shape[:2]
        nearest = cv2.INTER_NEAREST
        src_x = cv2.resize(np.arange(w, dtype=np.int32)[None, :], (small_w, 1), None, 0, 0, nearest)
        src_y = cv2.resize(np.arange(h, dtype=np.int32)[:, None], (1, small_h), None, 0, 0, nearest)
        cols = np.flatnonzero((src_x[0] >= x0) & (src_x[0] < x1))
        rows = np.flatnonzero((src_y[:, 0] >= y0) & (src_y[:, 0] < y1))
        if not (cols.size and rows.size):
            return None
        return np.s_[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1]

    def blanked(
        self,
        box: tuple[int, int, int, int],
        colour: tuple[int, int, int],
        masked: FrameLook | None = None,
    ) -> FrameLook:
        """The look at the frame with ``box`` (x0, y0, x1, y1) filled with ``colour`` (BGR):
        the same as :meth:`of` the blanked frame, pixel for pixel (each reduction is per pixel,
        so only the box's pixels change, to what the colour alone gives). ``masked``, the
        :meth:`masks_blanked` look of the same box and colour when made already, lends its
        masks and the dense areas found from them."""
        import cv2

        x0, y0, x1, y1 = box
        pixel = np.array([[colour]], np.uint8)
        frame = self.frame.copy()
        # A row of the colour first: assigning three values across the whole box at once goes
        # three bytes at a time.
        inside = frame[y0:y1, x0:x1]
        inside[:] = np.repeat(pixel[0], inside.shape[1], axis=0)
        gray = self.gray.copy()
        gray[y0:y1, x0:x1] = cv2.cvtColor(pixel, cv2.COLOR_BGR2GRAY)[0, 0]
        small = self.small.copy()
        hit = self._sampled_box(box)
        if hit is not None:
            small[hit] = pixel[0, 0]
        if masked is None:
            masked = self.masks_blanked(box, colour)
        return FrameLook(frame, gray, small, dict(masked.masks), regions=dict(masked.regions))


def find_regions(
    frame: np.ndarray, small: np.ndarray, skin: Skin, mask: np.ndarray | None = None
) -> list[tuple[int, int, int, int]]:
    """Boxes ``(x0, y0, x1, y1)`` of the frame dense in the skin's key colours (``small``: the
    frame sampled every other pixel; ``mask``: its :func:`key_mask`, when known); boxes that
    would overlap once padded are merged, so a board is searched once."""
    import cv2

    step = SAMPLE_STEP
    if mask is None:
        mask = key_mask(small, skin)
    # Density in blocks about a third of the smallest cell, then close the gaps between cells.
    smallest = smallest_pitch(skin)
    block = _density_block(skin)
    h, w = mask.shape
    hb, wb = h // block, w // block
    if hb == 0 or wb == 0:
        return []
    # Block means by area resampling (exact for whole blocks, and a tenth of numpy's cost).
    dens = cv2.resize(mask[: hb * block, : wb * block], (wb, hb), interpolation=cv2.INTER_AREA)
    dense: np.ndarray = (dens > 255 * DENSE_SHARE).astype(np.uint8)
    reach = 2 * CLOSING_BLOCKS + 1
    dense = cv2.dilate(dense, np.ones((reach, reach), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(dense, connectivity=8)
    cores = []
    for i in range(1, count):
        x, y, bw, bh, _area = stats[i]
        if bw * block * step < smallest * 2 or bh * block * step < smallest * 2:
            continue  # smaller than two cells
        x0, y0 = x * block * step, y * block * step
        cores.append((x0, y0, x0 + bw * block * step, y0 + bh * block * step))
    # Areas that would share cells once padded are one area.
    return merge_overlapping(cores, gap=2 * search_padding(skin))


def _density_block(skin: Skin) -> int:
    """The side (in pixels of the sampled frame) of the blocks whose density
    :func:`find_regions` measures: about a third of the skin's smallest cell."""
    return max(2, int(smallest_pitch(skin) / SAMPLE_STEP / 2))


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


def search_padding(skin: Skin, pitch: float | None = None) -> int:
    """How far around a dense area to search: two cells (of ``pitch``, else of the biggest
    size the skin's cells come in), for a border row of numbers without any key colour."""
    largest = max(skin.pitch_range[1], max(skin.pitch_x, skin.pitch_y) * DESKTOP_SCALING[1])
    return int(np.ceil(2 * (largest if pitch is None else pitch)))


def padded_box(
    box: tuple[int, int, int, int], pad: int, frame: np.ndarray
) -> tuple[int, int, int, int]:
    """``box`` grown by ``pad`` px on every side, inside the frame."""
    x0, y0, x1, y1 = box
    h, w = frame.shape[:2]
    return max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)


def merge_overlapping(
    boxes: list[tuple[int, int, int, int]], gap: int = 0
) -> list[tuple[int, int, int, int]]:
    """``boxes`` with every pair closer than ``gap`` px (or overlapping) replaced by the box
    around both.

    >>> merge_overlapping([(0, 0, 10, 10), (50, 50, 60, 60), (5, 5, 20, 20)])
    [(0, 0, 20, 20), (50, 50, 60, 60)]
    >>> merge_overlapping([(0, 0, 10, 10), (15, 0, 20, 10)], gap=6)
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
