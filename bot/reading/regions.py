"""Where to look for a board: the areas of a picture dense in a skin's key colours
(:mod:`bot.reading.colour_keys`), and the cell pitches worth trying there
(:mod:`bot.reading.pitches`): step 1 of :mod:`bot.reading.locate`.

The picture is sampled every other pixel each way; blocks of it dense in a skin's colours,
joined where a board's numbers lie between its cells, are the areas searched.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from bot.reading.colour_keys import key_mask
from bot.reading.pitches import Pitches, candidate_pitches, smallest_pitch
from bot.reading.skins import DESKTOP_SCALING, Skin

#: :func:`find_regions` samples every other pixel each way.
SAMPLE_STEP = 2
#: ... counts a block dense in the key colours when this share of it shows them ...
DENSE_SHARE = 0.15
#: ... and grows each dense block by this many blocks each way, so a board's cells, its numbers
#: between them, make one area.
CLOSING_BLOCKS = 2


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
