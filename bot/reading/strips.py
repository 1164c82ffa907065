"""The strips of picture beyond a board's sides that :mod:`bot.reading.whole` and
:mod:`bot.reading.fence` judge: where they lie and their pixels, laid out alike for every side
(``[offset beyond the side, along the side, channel]``, nearest the side first)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bot.reading.grid import Grid

#: How deep the strip checked beyond each side is, in cells (the shipped games' frames are at
#: least 0.55 cells wide: GNOME Mines' bottom margin at its smallest window).
STRIP_DEPTH = 0.33
#: How much of the strip next to the side is skipped, in cells (uneven lattices: lines up to
#: a few pixels off; grid lines that belong to the last cell).
STRIP_SKIP = 0.1
#: Fewest pixels of frame looked at beyond a side (tiny cells).
MIN_STRIP = 3
#: A lattice line runs on into the strip where the strip differs this much (0-255) from its
#: middle within a pixel of the line...
LINE_CONTRAST = 10
#: ... at this share of the lines (a frame has no marks at the lattice's spacing).
LINE_SHARE = 0.7
#: ... and within this share of a cell of the line, a pixel at least (more from 60 px cells: a
#: lattice of big cells as placed may sit a few pixels off their gaps, GNOME Mines' 113 px
#: cells 2-3 px).
LINE_REACH = 0.025


def line_reach(pitch: float) -> int:
    """How far (px) from a lattice line a mark of it is looked for (:data:`LINE_REACH`).

    >>> line_reach(16), line_reach(60), line_reach(113)
    (1, 2, 3)
    """
    return max(1, int(round(pitch * LINE_REACH)))


SIDES = ("left", "top", "right", "bottom")


@dataclass(frozen=True)
class Strip:
    """Pixels beyond one side: ``pixels[depth, along, channel]`` (float32), from ``skip`` to
    ``depth`` px beyond the side; ``box`` is its ``(x0, y0, x1, y1)`` in the picture (x1, y1
    exclusive)."""

    side: str
    pixels: np.ndarray
    box: tuple[int, int, int, int]
    thin: bool = False  # the picture leaves less than the usual depth (a thin frame)
    fence: bool = False  # a frame drawn cell by cell (:func:`bot.reading.fence.is_fence`)


def bounds(grid: Grid) -> tuple[int, int, int, int]:
    """The board's box ``(left, top, right, bottom)`` in whole pixels."""
    left, top, right, bottom = grid.bounds
    return round(left), round(top), round(right), round(bottom)


def strip_beyond(frame: np.ndarray, grid: Grid, side: str) -> Strip | str:
    """The strip beyond ``side`` (:data:`STRIP_SKIP` to :data:`STRIP_DEPTH` of a cell), or
    the problem that it is outside the picture."""
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = bounds(grid)
    pitch = grid.pitch_x if side in ("left", "right") else grid.pitch_y
    depth = max(MIN_STRIP + 1, int(np.ceil(STRIP_DEPTH * pitch)))
    skip = min(int(round(STRIP_SKIP * pitch)), depth - MIN_STRIP)
    room = {"left": x0, "top": y0, "right": w - x1, "bottom": h - y1}[side]
    thin = MIN_STRIP + 1 <= room < depth
    if thin:
        depth = room  # a thin frame (xbomb: 4-5 px at 20 px cells): look at what there is
        skip = min(skip, depth - MIN_STRIP)
    pixels = band(frame, grid, side, skip, depth) if room >= depth else None
    if pixels is None:
        return (
            f"the board runs off the {side} edge of the picture ({max(room, 0)} px of picture "
            f"beyond its {side} side, {depth} needed to see a frame)"
        )
    box = {
        "left": (x0 - depth, y0, x0 - skip, y1),
        "right": (x1 + skip, y0, x1 + depth, y1),
        "top": (x0, y0 - depth, x1, y0 - skip),
        "bottom": (x0, y1 + skip, x1, y1 + depth),
    }[side]
    return Strip(side, pixels, box, thin)


def band(frame: np.ndarray, grid: Grid, side: str, start: int, stop: int) -> np.ndarray | None:
    """The pixels ``start..stop`` px beyond ``side`` (negative: inside the board), as
    ``[offset, along, channel]`` (float32) like a strip's; None where the picture ends first."""
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = bounds(grid)
    if side == "left" and x0 - stop >= 0 and x0 - start <= w:
        part = frame[y0:y1, x0 - stop : x0 - start][:, ::-1].transpose(1, 0, 2)
    elif side == "right" and x1 + start >= 0 and x1 + stop <= w:
        part = frame[y0:y1, x1 + start : x1 + stop].transpose(1, 0, 2)
    elif side == "top" and y0 - stop >= 0 and y0 - start <= h:
        part = frame[y0 - stop : y0 - start, x0:x1][::-1]
    elif side == "bottom" and y1 + start >= 0 and y1 + stop <= h:
        part = frame[y1 + start : y1 + stop, x0:x1]
    else:
        return None
    return np.ascontiguousarray(part[..., :3], dtype=np.float32)


def lines_along(grid: Grid, side: str) -> np.ndarray:
    """Where the lattice's lines between cells cross the strip beyond ``side`` (px along it)."""
    x0, y0, _, _ = bounds(grid)
    if side in ("left", "right"):
        return np.array([round(grid.row_top(k)) - y0 for k in range(1, grid.rows)], int)
    return np.array([round(grid.col_left(k)) - x0 for k in range(1, grid.cols)], int)


def running_median(values: np.ndarray, half: int, axis: int) -> np.ndarray:
    """The median of each value's window of ``2 * half + 1`` along ``axis`` (reflected at the
    ends): a line of frame with a few gaps stays itself, where a mean would be pulled off it
    round each gap. (The window is odd: its median is its middle value once partitioned.)

    >>> running_median(np.array([5, 5, 90, 5, 5, 7]), 1, axis=0).tolist()
    [5, 5, 5, 5, 5, 5]
    """
    pad = [(0, 0)] * values.ndim
    pad[axis] = (half, half)
    windows = np.lib.stride_tricks.sliding_window_view(
        np.pad(values, pad, mode="reflect"), 2 * half + 1, axis=axis
    )
    return np.partition(windows, half, axis=-1)[..., half]
