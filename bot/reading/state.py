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
from typing import TYPE_CHECKING

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


@dataclass(frozen=True)
class ToneCurve:
    """A monotonic per-channel mapping from screen values to template values, ``lut``
    ``[256, 3]`` uint8 (B, G, R), learnt from the cells of one frame (see
    :func:`bot.reading.tone.fit_tone`)."""

    lut: np.ndarray

    def apply(self, samples: np.ndarray, out: np.ndarray) -> np.ndarray:
        """``samples`` ``[N, P * 3]`` BGR uint8 mapped through the curve into ``out``."""
        import cv2

        n, d = samples.shape
        cv2.LUT(
            samples.reshape(n, d // 3, 3),
            self.lut.reshape(256, 1, 3),
            dst=out.reshape(n, d // 3, 3),
        )
        return out


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
        #: Per skin name: the tone curve that made the last frame read (None: the screen
        #: shows the skin's own colours).
        self.tones: dict[str, ToneCurve] = {}
        #: (counter box, hash of its pixels) -> the text read there last time.
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
