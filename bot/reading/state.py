"""What the reader keeps between frames of one window: :class:`ReaderState`, owned by the caller.

A window is read frame after frame with the same skin and grid. Rebuilding the per-grid
sampling maps, allocating multi-megabyte work arrays and comparing cells that did not change
would cost more than the reading itself, so the caller (the play loop, one state per game
window) keeps one :class:`ReaderState` and passes it to every read. A read without a state is
exactly as correct, only slower: it starts from a fresh one.

Pure functions of a skin (its template banks, the counter glyphs) are not kept here: they are
memoised per skin value in :mod:`bot.reading.classify` and :mod:`bot.reading.read`.

>>> state = ReaderState()
>>> state.scratch("diff", (2, 3)).shape
(2, 3)
>>> state.scratch("diff", (2, 3)) is state.scratch("diff", (2, 3))
True
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from bot.reading.skins import Skin

#: How many grids' sampling maps a state keeps (the locator tries a few grids in a row).
KEPT_MAPS = 8


@dataclass(frozen=True)
class LastFrame:
    """The cells of the last frame read and what they read as: ``key`` names the grid (and
    sampling) they were taken with, ``samples`` is ``[cells, D]`` uint8 and ``results`` the
    classifier's per-cell arrays for them."""

    key: object
    samples: np.ndarray
    results: tuple[np.ndarray, ...]
    #: ``[cells]`` bool: the cells whose samples differ from the frame read before this one
    #: with the same key (None when there was none).
    changed: np.ndarray | None = None


@dataclass(frozen=True)
class ToneCurve:
    """How the screen shows the skin's colours: a monotonic per-channel mapping from template
    values to screen values, ``lut`` ``[256, 3]`` uint8 (B, G, R), learnt from the cells of one
    frame (see :func:`bot.reading.tone.fit_tone`).

    >>> import numpy as np
    >>> lighter = ToneCurve(np.repeat(np.arange(256)[:, None] // 2 + 128, 3, 1).astype(np.uint8))
    >>> lighter.apply(np.array([[0, 100, 255]], np.uint8)).tolist()
    [[128, 178, 255]]
    """

    lut: np.ndarray

    def apply(self, templates: np.ndarray) -> np.ndarray:
        """``templates`` ``[K, P * 3]`` BGR uint8 as the screen shows them (a new array)."""
        import cv2

        k, d = templates.shape
        if not templates.size:
            return templates.copy()
        # cv2's table look-up maps each channel by its own column, four times as fast as numpy's
        # indexing a channel at a time.
        pixels = np.ascontiguousarray(templates).reshape(k, d // 3, 3)
        return cv2.LUT(pixels, self.lut.reshape(1, 256, 3)).reshape(k, d)


class ReaderState:
    """The reader's memory of one window: sampling maps of recent grids, reusable work arrays,
    the last frame's cells and readings, the tone curve learnt for each skin, and the last
    counter text read.

    One state per window (the play loop keeps one per game window, ``time_reader`` one per
    board): frames of different windows would only evict each other's maps.
    """

    def __init__(self) -> None:
        #: (grid, skin, scale, step) -> cv2.remap maps (second None for whole-pixel points).
        self.maps: OrderedDict[object, tuple[np.ndarray, np.ndarray | None]] = OrderedDict()
        #: name -> work array, replaced when a different shape or type is asked for.
        self.buffers: dict[str, np.ndarray] = {}
        #: The cells of the last frame classified, to reuse the readings of unchanged cells.
        self.last: LastFrame | None = None
        #: The last frame whose cells were read through the tone curves sought for them, and
        #: the outcome (bot.reading.classify.classify_cells).
        self.searched: LastFrame | None = None
        #: Per skin name: the tone curve that made the last frame read, when the screen does
        #: not show the skin's own colours.
        self.tones: dict[str, ToneCurve] = {}
        #: Template banks as a tone curve shows them (bot.reading.tone_search.toned_bank).
        self.toned_banks: dict[object, Any] = {}
        #: (skin, counter box, its pixels) -> the text read there last time.
        self.counter_key: object = None
        self.counter_text: str | None = None

    def scratch(self, name: str, shape: tuple[int, ...], dtype: type = np.uint8) -> np.ndarray:
        """A work array kept between calls (one per ``name``, replaced when the shape or type
        changes): fresh multi-megabyte arrays every frame cost more in page faults (each is a
        new mmap) than the arithmetic done in them."""
        buf = self.buffers.get(name)
        if buf is None or buf.shape != shape or buf.dtype != dtype:
            buf = np.empty(shape, dtype)
            self.buffers[name] = buf
        return buf

    def remember_maps(self, key: object, maps: tuple[np.ndarray, np.ndarray | None]) -> None:
        """Keep ``maps`` for ``key``, forgetting the oldest beyond :data:`KEPT_MAPS` grids."""
        self.maps[key] = maps
        self.maps.move_to_end(key)
        while len(self.maps) > KEPT_MAPS:
            self.maps.popitem(last=False)

    def tone_for(self, skin: Skin) -> ToneCurve | None:
        """The tone curve last learnt for ``skin`` in this window, if any."""
        return self.tones.get(skin.name)
