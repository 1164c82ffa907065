"""A skin's key colours: the most common colour of each anchor template (a covered cell, an
empty revealed cell), and where a picture shows them (:func:`key_mask`). Flat colours survive
desktop scaling, so they are looked up at every scale, and a skin whose colours are absent
costs almost nothing (:mod:`bot.reading.regions`, :mod:`bot.reading.pitches`).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from bot.reading.skins import Skin


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
