"""Pictures a pixel-repeating scaler enlarged, and the picture before it.

A scaler that repeats pixels (nearest neighbour) by a factor ``s`` between 1 and 2 draws each
source pixel one or two pixels wide, at a pattern that repeats only as often as the fraction of
``s`` allows (110 %: every tenth pixel twice). A cell then differs from its neighbour by where
its doubled pixels fall, and no handful of stretched templates fits every cell. But nothing is
lost: each source pixel is still on the screen whole, so keeping the first picture line of each
gives back the picture as drawn, read at its own size with the skin's own images.

A picture is taken as such an enlargement only when its lines say so: every line that differs
from the one before it must start a source pixel under one scale and phase (the picture's size
over a whole number of source pixels, as a scaler enlarging a whole picture draws it), and the
lines that scale repeats must be too many to fall on unchanged lines by chance. Keeping a line
only where its neighbour is the same drops nothing that differs, so a board read in the picture
given back is the board shown.

>>> src = np.arange(40, dtype=np.uint8).reshape(1, 40, 1).repeat(3, axis=2).repeat(8, axis=0)
>>> big = np.repeat(src, [2 if i % 4 == 1 else 1 for i in range(40)], axis=1)  # 125 %
>>> axis = fit_axis(changed_lines(big, 1))
>>> round(axis.scale, 3), np.array_equal(big[:, list(axis.lines)], src)
(1.25, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from bot.errors import BoardNotFoundError
from bot.reading.grid import Grid

if TYPE_CHECKING:
    from bot.reading.extent import Located

#: Scales looked for (source pixels drawn 1.02 to 4 pixels wide): under the least, a picture's
#: few repeated lines could be chance; over the most, the skins' scaled banks read it anyway.
LEAST_SCALE = 1.02
MOST_SCALE = 4.0
#: Fewest lines that differ from the one before, each way, for a scale to be fitted at all.
MIN_CHANGES = 24
#: How unlikely (natural log) the repeated lines of a scale must be to fall on unchanged lines
#: by chance, each way: about one in a million, with a few hundred scales tried.
MIN_EVIDENCE = 14.0


@dataclass(frozen=True)
class AxisRepeat:
    """One axis of an enlargement: ``span`` picture lines show a source pixel each ``scale``
    lines, the first of each at ``lines``."""

    span: int
    scale: float
    lines: tuple[int, ...]

    def to_picture(self, at: float) -> float:
        """Where ``at`` (a position in the source picture, in its pixels) lies in the picture."""
        k = int(np.clip(math.floor(at), 0, len(self.lines) - 1))
        end = self.lines[k + 1] if k + 1 < len(self.lines) else self.span
        return float(self.lines[k] + (at - k) * (end - self.lines[k]))


@dataclass(frozen=True)
class Enlargement:
    """A picture's enlargement by a pixel-repeating scaler (see the module)."""

    x: AxisRepeat
    y: AxisRepeat

    def unscaled(self, frame: np.ndarray) -> np.ndarray:
        """The picture before the enlargement (the first line of each source pixel); a frame
        of another size than the picture the enlargement was found in is refused."""
        h, w = frame.shape[:2]
        if (w, h) != (self.x.span, self.y.span):
            raise BoardNotFoundError(
                f"the picture is {w}x{h}, not {self.x.span}x{self.y.span} as when its board was "
                "found enlarged: locate the board again"
            )
        return np.ascontiguousarray(frame[list(self.y.lines)][:, list(self.x.lines)])

    def located(self, found: Located) -> Located:
        """``found`` (a board found in :meth:`unscaled` of the picture) where it lies in the
        picture, read through this enlargement."""
        g = found.grid
        grid = replace(
            g,
            left=self.x.to_picture(g.left),
            top=self.y.to_picture(g.top),
            pitch_x=g.pitch_x * self.x.scale,
            pitch_y=g.pitch_y * self.y.scale,
            col_offsets=tuple(o * self.x.scale for o in g.col_offsets),
            row_offsets=tuple(o * self.y.scale for o in g.row_offsets),
        )
        inside = Unscaled(self, g, found.scale)
        return replace(found, grid=grid, scale=found.scale * self.x.scale, repeat=inside)


@dataclass(frozen=True)
class Unscaled:
    """A board read through an enlargement: where it lies in the picture before it."""

    enlargement: Enlargement
    grid: Grid
    scale: float


def changed_lines(frame: np.ndarray, axis: int) -> np.ndarray:
    """Whether each line (a column for ``axis`` 1, a row for 0) differs from the next: a bool
    array one shorter than the picture that way."""
    if axis == 1:
        return np.asarray((frame[:, 1:] != frame[:, :-1]).any(axis=(0, 2)))
    return np.asarray((frame[1:] != frame[:-1]).any(axis=(1, 2)))


def fit_axis(changed: np.ndarray) -> AxisRepeat | None:
    """The largest enlargement (see the module) the lines that differ from the one before
    (``changed``, from :func:`changed_lines`) fit, if the evidence for it is strong enough.

    Line ``t`` starts a source pixel when ``(t * size + offset) mod n < size``: each start
    allows the offsets of one arc of ``size`` of the ``n`` around a circle, so the starts fit
    when their arcs meet, that is when the points ``-t * size mod n`` leave a gap of more than
    ``n - size`` between them."""
    n = len(changed) + 1
    starts = np.nonzero(changed)[0] + 1
    unchanged = 1.0 - float(changed.mean()) if len(changed) else 0.0
    if starts.size < MIN_CHANGES or unchanged <= 0.0:
        return None
    sizes = np.arange(math.ceil(n / MOST_SCALE), math.floor(n / LEAST_SCALE) + 1)
    # A scale's repeated lines all fall on unchanged lines: by chance, unchanged ** repeats.
    sizes = sizes[(n - sizes) * -math.log(unchanged) >= MIN_EVIDENCE]
    if sizes.size == 0:
        return None
    points = np.sort((-starts[None, :] * sizes[:, None]) % n, axis=1)
    gaps = np.diff(np.concatenate([points, points[:, :1] + n], axis=1), axis=1)
    fitting = np.nonzero(gaps.max(axis=1) >= n - sizes)[0]
    if fitting.size == 0:
        return None
    for best in fitting:  # the fewest source pixels first: the largest scale
        size, wide = int(sizes[best]), int(gaps[best].argmax())
        # The starts' points run from the one after the widest gap round to the one before
        # it; every offset from there on for the arc's room left fits them all (room -1: all
        # but the arc's first, whose lines a scaler's rounding put a line late or early).
        # Offset 0 if it is among them: the picture then starts with a source pixel.
        first, last = int(points[best, (wide + 1) % starts.size]), int(points[best, wide])
        room = size - 1 - (last - first) % n
        # Where the starts leave a choice (flat runs of lines), the offsets a whole picture's
        # enlargement has first: its first line the start of a pixel (floor), or each line
        # the pixel under its centre.
        for offset in (0, size // 2, 0 if last + room >= n else last):
            source = (np.arange(n) * size + offset) // n
            model = np.nonzero(np.r_[True, source[1:] != source[:-1]])[0]
            repaired = _repaired(n, size, model, np.r_[0, starts])
            if repaired is not None:
                return repaired
    return None


def _repaired(n: int, size: int, model: np.ndarray, starts: np.ndarray) -> AxisRepeat | None:
    """The lines ``model`` with each start it misses by a line moved there (a scaler's
    rounding on the very edge of two source pixels), if then every start of ``starts`` is
    kept; else None."""
    kept = set(model.tolist())
    missed = [int(t) for t in starts if t not in kept]
    seen = set(starts.tolist())
    for t in missed:
        near = [m for m in (t - 1, t + 1) if m in kept and m not in seen]
        if not near:
            return None
        kept.discard(near[0])
        kept.add(t)
    return AxisRepeat(n, n / size, tuple(sorted(kept)))


def find_repeat(frame: np.ndarray) -> Enlargement | None:
    """The enlargement ``frame`` (BGR) shows both ways, or None."""
    x = fit_axis(changed_lines(frame, 1))
    y = fit_axis(changed_lines(frame, 0)) if x is not None else None
    if x is None or y is None:
        return None
    return Enlargement(x, y)
