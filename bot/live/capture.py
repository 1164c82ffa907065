"""Grab the screen (or a part of it) as a BGR numpy frame, with mss.

A :class:`Frame` remembers which :class:`Region` of the desktop it shows, in mss' coordinates
(physical pixels on Linux and Windows, points on macOS), so a pixel of the frame can be mapped
back to the desktop and to the mouse (see :mod:`bot.live.mouse`). A Retina screen gives frames with
two pixels per point: ``frame.scale`` says so, measured from the grab, never assumed.

>>> import numpy as np
>>> frame = Frame(np.zeros((200, 300, 3), np.uint8), Region(-300, 0, 150, 100))
>>> frame.scale
(2.0, 2.0)
>>> frame.to_desktop(30, 40)
(-285.0, 20.0)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

import numpy as np

from bot.errors import DisplayError


@dataclass(frozen=True)
class Region:
    """A rectangle of the desktop in mss coordinates (``left``/``top`` may be negative).

    >>> Region(0, 0, 10, 5).contains(Region(2, 1, 3, 3))
    True
    >>> Region(0, 0, 10, 5).intersects(Region(10, 0, 3, 3))
    False
    """

    left: int
    top: int
    width: int
    height: int

    @property
    def right(self) -> int:
        return self.left + self.width

    @property
    def bottom(self) -> int:
        return self.top + self.height

    def contains(self, other: Region) -> bool:
        return (
            self.left <= other.left
            and self.top <= other.top
            and other.right <= self.right
            and other.bottom <= self.bottom
        )

    def intersects(self, other: Region) -> bool:
        return (
            self.left < other.right
            and other.left < self.right
            and self.top < other.bottom
            and other.top < self.bottom
        )

    def clipped(self, other: Region) -> Region | None:
        """The part of this rectangle inside ``other`` (None when they do not overlap).

        >>> Region(620, 593, 661, 432).clipped(Region(0, 0, 1280, 1024))
        Region(left=620, top=593, width=660, height=431)
        """
        left, top = max(self.left, other.left), max(self.top, other.top)
        right, bottom = min(self.right, other.right), min(self.bottom, other.bottom)
        if right <= left or bottom <= top:
            return None
        return Region(left, top, right - left, bottom - top)

    def as_mss(self) -> dict[str, int]:
        return {"left": self.left, "top": self.top, "width": self.width, "height": self.height}

    @classmethod
    def from_mss(cls, monitor: dict[str, Any]) -> Region:
        return cls(
            int(monitor["left"]), int(monitor["top"]), int(monitor["width"]), int(monitor["height"])
        )


@dataclass(frozen=True)
class Frame:
    """One screenshot: ``image`` (BGR, uint8, [height, width, 3]) of ``region`` at ``time``."""

    image: np.ndarray
    region: Region
    time: float = field(default=0.0, compare=False)

    @property
    def scale(self) -> tuple[float, float]:
        """Frame pixels per desktop unit, (x, y): 2.0 on a Retina screen, else 1.0."""
        h, w = self.image.shape[:2]
        return w / self.region.width, h / self.region.height

    def to_desktop(self, fx: float, fy: float) -> tuple[float, float]:
        """Desktop (mss) coordinates of frame pixel position ``(fx, fy)``."""
        sx, sy = self.scale
        return self.region.left + fx / sx, self.region.top + fy / sy

    def to_frame(self, dx: float, dy: float) -> tuple[float, float]:
        """Frame pixel position of desktop (mss) coordinates ``(dx, dy)``."""
        sx, sy = self.scale
        return (dx - self.region.left) * sx, (dy - self.region.top) * sy


def bgra_to_bgr(raw: np.ndarray) -> np.ndarray:
    """Drop the alpha channel of an mss shot, as a contiguous array (OpenCV wants one).

    >>> bgra_to_bgr(np.zeros((2, 3, 4), np.uint8)).shape
    (2, 3, 3)
    """
    return np.ascontiguousarray(raw[:, :, :3])


class ScreenCapture:
    """Screenshots through one mss handle: ``with ScreenCapture() as cap: cap.grab()``.

    mss is imported when the capture opens, so importing this module needs no display.
    """

    def __init__(self) -> None:
        self._sct: Any = None

    def open(self) -> ScreenCapture:
        import mss

        try:
            self._sct = mss.MSS() if hasattr(mss, "MSS") else mss.mss()
        except Exception as exc:  # mss raises its own ScreenShotError, or Xlib errors
            raise DisplayError(f"cannot open the screen for capture: {exc}") from exc
        return self

    def close(self) -> None:
        if self._sct is not None:
            self._sct.close()
            self._sct = None

    def __enter__(self) -> ScreenCapture:
        return self.open()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def monitors(self) -> list[Region]:
        """mss' monitors: index 0 is the whole desktop, then one per monitor."""
        if self._sct is None:
            self.open()
        return [Region.from_mss(m) for m in self._sct.monitors]

    def primary(self) -> Region:
        """The primary monitor (the one mss flags, else the first)."""
        if self._sct is None:
            self.open()
        monitors = self._sct.monitors
        for m in monitors[1:]:
            if m.get("is_primary"):
                return Region.from_mss(m)
        return Region.from_mss(monitors[1] if len(monitors) > 1 else monitors[0])

    def grab(self, region: Region | None = None) -> Frame:
        """A frame of ``region`` (default: the whole desktop), cut to the desktop: a window
        partly off the screen (a border past the edge) gives the part on it."""
        if self._sct is None:
            self.open()
        desktop = self.monitors[0]
        wanted = region or desktop
        region = wanted.clipped(desktop)
        if region is None:
            raise DisplayError(f"{wanted} is off the screen ({desktop}): nothing to capture")
        try:
            shot = self._sct.grab(region.as_mss())
        except Exception as exc:
            raise DisplayError(f"screen capture of {region} failed: {exc}") from exc
        return Frame(bgra_to_bgr(np.asarray(shot)), region, time.monotonic())
