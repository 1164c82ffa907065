"""The cell-boundary lines along one axis of a board, from its edge profile and pitch (see
:mod:`bot.reading.lattice`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bot.reading.lattice_pitch import refine_pitch


def px(value: float) -> int:
    """Round half up (Python's round() goes to even, which would jitter cell boxes)."""
    return int(np.floor(value + 0.5))


def positions(values: np.ndarray, n: int) -> np.ndarray:
    pos = np.floor(values + 0.5).astype(int)
    return pos[(pos >= 0) & (pos < n)]


def whole_pixel_lines(lines: tuple[int, ...]) -> tuple[int, ...] | None:
    """``lines`` evenly spaced a whole number of pixels apart, when they all lie within a
    pixel of such a lattice (the edges of two kinds of cell a pixel apart: a line found on
    one kind or the other), else None (cells a fraction of a pixel apart: lines drift further).

    >>> whole_pixel_lines((386, 406, 426, 446, 466, 485, 505, 525, 545, 566))
    (386, 406, 426, 446, 466, 486, 506, 526, 546, 566)
    >>> whole_pixel_lines((0, 20, 40, 61, 81, 101, 121, 142, 162, 182)) is None  # 20.22 px
    True
    """
    n = len(lines) - 1
    if n < 1:
        return None
    pitch = int(round((lines[-1] - lines[0]) / n))
    offsets = [v - pitch * k for k, v in enumerate(lines)]
    if pitch < 1 or max(offsets) - min(offsets) > 1:
        return None
    start = max(set(offsets), key=lambda o: (offsets.count(o), -o))  # the commonest, lower
    return tuple(start + pitch * k for k in range(n + 1))


@dataclass(frozen=True)
class Axis:
    """The lattice along one axis: candidate cell-boundary lines and the periodic edge pattern."""

    pitch: float
    lines: tuple[int, ...]  # boundary candidates, left to right, past the board on both sides
    offsets: tuple[int, ...]  # offsets of the periodic edges from a boundary (0 included)


def fit_axis(
    profile: np.ndarray, coarse: int, lo: int, hi: int, whole_pixels: bool = False
) -> list[Axis]:
    """Boundary lines along one axis from a 1-D edge profile over the board span ``lo..hi``.

    The average pitch comes from :func:`refine_pitch`; the edge pattern of one cell is the
    profile folded at that pitch; the lines are then tracked one by one from the middle
    outwards, each placed where the pattern fits best within a couple of pixels of one pitch
    from the previous line (so uneven layouts and rounding on scaled screens are followed).
    With ``whole_pixels`` the pitch may be the whole pixel next to it (:func:`whole_pitch`).
    """
    n = len(profile)
    pad = int(2 * coarse)
    a, b = max(lo - pad, 0), min(hi + pad, n)
    pitch = refine_pitch(profile[a:b], coarse)
    if whole_pixels:
        pitch = whole_pitch(profile, pitch, lo, hi)
    # Fold over the middle of the board only, where the drift of an uneven layout is small.
    mid = (lo + hi) / 2
    half = max(int(min(hi - lo, 10 * pitch) / 2), int(pitch))
    f_lo, f_hi = int(mid - half), int(mid + half)
    count = max(int((f_hi - f_lo) // pitch), 1)
    ks = np.arange(count)
    phases = np.arange(0.0, pitch, 0.25)
    scores = np.array([profile[positions(f_lo + ph + ks * pitch, n)].sum() for ph in phases])
    best = int(np.argmax(scores))
    end = best
    while end + 1 < len(scores) and scores[end + 1] >= scores[best]:
        end += 1
    phase = f_lo + float(phases[(best + end) // 2])
    whole = int(np.ceil(pitch))
    folded = np.array(
        [profile[positions(phase + off + ks * pitch, n)].sum() for off in range(whole)]
    )
    strong = folded >= 0.35 * folded.max()
    offsets = [
        off
        for off in range(whole)
        if strong[off]
        and folded[off] >= folded[(off - 1) % whole]
        and folded[off] > folded[(off + 1) % whole]
    ] or [0]

    # A cell boundary is one of the strongest periodic edges: the line between cells, or the
    # bright edge of a covered cell's bevel rather than its inner, softer edge. Where several
    # are about as strong (both sides of a grid line; both sides of a gap) each is a
    # candidate, the caller keeps the one giving the most cells; ties go to the edge with the
    # longest run before it (the start of a grid line, so a cell begins with its line).
    def gap_before(o: int) -> int:
        earlier = [(o - q) % whole for q in offsets if q != o]
        return min(earlier) if earlier else whole

    top = folded[offsets].max()
    candidates = sorted(
        (o for o in offsets if folded[o] >= 0.9 * top), key=lambda o: -gap_before(o)
    )
    axes = []
    for boundary in candidates:
        # A line moves from one pitch on by the layout's unevenness and the desktop's
        # rounding (a pixel or two), never as far as the next periodic edge: both sides of
        # a gap between tiles are strong, and a line that jumps the gap starts its cell a
        # few pixels off, so its block no longer looks like its neighbours.
        nearest = min((min((o - boundary) % whole, (boundary - o) % whole) for o in offsets
                       if o != boundary), default=whole)  # fmt: skip
        slack = max(1, min(int(round(pitch * 0.06)), 3, (nearest - 1) // 2))
        rel = sorted((o - boundary) % whole for o in offsets)
        pattern = np.zeros(whole + 1)
        for o in offsets:
            pattern[(o - boundary) % whole] = folded[o]
        start = px(phase + boundary + pitch * int((mid - phase - boundary) // pitch))
        lines = _track(profile, pattern, start, pitch, slack, lo, hi)
        # An evenly spaced lattice unless following the lines one by one finds clearly
        # stronger edges (gnome-mines' uneven columns): on a board full of numbers a thin
        # grid line can be outshone by a digit's stroke next to it.
        even = _even_fit(lines, lo, hi)
        inside = [i for i, v in enumerate(even) if lo <= v < hi]
        if inside:
            tracked_score = sum(
                float(profile[lines[i]]) for i in inside if 0 <= lines[i] < len(profile)
            )
            even_score = sum(float(profile[even[i]]) for i in inside if 0 <= even[i] < len(profile))
            if tracked_score <= 1.1 * even_score:
                lines = even
        axes.append(Axis(pitch=pitch, lines=lines, offsets=tuple(rel)))
    return axes


def _even_fit(lines: tuple[int, ...], lo: int, hi: int) -> tuple[int, ...]:
    """Evenly spaced lines fitted to ``lines`` inside ``lo..hi`` (Theil-Sen: the median of
    the pairwise slopes, so a few lines pulled aside by digits do not bend the fit).

    >>> _even_fit((55, 75, 95, 115, 135, 155, 175, 195, 214, 234), 50, 240)
    (55, 75, 95, 115, 135, 155, 175, 195, 215, 235)
    """
    idx = [i for i, v in enumerate(lines) if lo <= v < hi] or list(range(len(lines)))
    if len(idx) < 2:
        return lines
    ks = np.array(idx, float)
    vs = np.array([lines[i] for i in idx], float)
    i, j = np.triu_indices(len(idx), 1)
    slope = float(np.median((vs[j] - vs[i]) / (ks[j] - ks[i])))
    offset = float(np.median(vs - slope * ks))
    return tuple(px(offset + slope * k) for k in range(len(lines)))


def _track(
    profile: np.ndarray, pattern: np.ndarray, start: int, pitch: float, slack: int, lo: int, hi: int
) -> tuple[int, ...]:
    """Boundary lines from ``start`` outwards, each fitted within ``slack`` of one pitch on."""
    n = len(profile)

    def score(pos: int) -> float:
        return float(profile[pos]) if 0 <= pos < n else 0.0

    def fit_near(pred: float) -> float:
        # Follow the boundary edge alone (the other edges of a cell move when tiles are one
        # pixel narrower, as in gnome-mines), and stay on the even lattice unless a shifted
        # line is clearly stronger: the other side of a two-pixel grid line is about as
        # strong and must not make lines jitter.
        base = px(pred)
        here = score(base)
        best_s, best_val = 0, here
        for s in range(-slack, slack + 1):
            val = score(base + s)
            if s != 0 and val > 1.6 * here + 1e-9 and val > best_val:
                best_s, best_val = s, val
        return pred + best_s

    # Lines are followed well past the dense area (parts of a board with few repeated edges,
    # say a column of covered cells beside many numbers, are thin in it); the extent check
    # then keeps the blocks that look like cells.
    first = fit_near(start)
    right = [first]
    while right[-1] + pitch < n:
        right.append(fit_near(right[-1] + pitch))
    left = [first]
    while left[-1] - pitch >= 0:
        left.append(fit_near(left[-1] - pitch))
    return tuple(px(v) for v in left[::-1] + right[1:])


#: How far (px) the refitted pitch may differ from the pitch of the lines found.
REFIT_REACH = 1.5
#: How much more a fractional pitch must gather than the whole pixel next to it.
FRACTION_GAIN = 1.05
#: How far (px) the refitted first line may move: the phase found is kept, the pitch is not.
REFIT_SHIFT = 2


def refit_even(profile: np.ndarray, lines: tuple[int, ...], k0: int, k1: int) -> tuple[int, ...]:
    """``lines`` with the board's ``lines[k0..k1]`` placed again evenly where that gathers
    clearly more of ``profile`` (taken over the whole board) at the inner lines.

    For lines carried out from a seed of a cell or two: their pitch was found over the dense
    area alone, which on a mostly open board can be a row or two of cells, and a pitch off by
    a fraction, carried over nine rows, puts the last lines pixels off. The first line moves
    by a pixel or two at most (which side of a grid line starts a cell stays as found). The
    outer lines are left out of the fit (the frame beside them has edges of its own).

    >>> prof = np.zeros(400); prof[[89 + 29 * k for k in range(10)]] = 1
    >>> refit_even(prof, (88, 118, 148, 178, 208, 238, 268, 298, 328, 358), 0, 9)
    (89, 118, 147, 176, 205, 234, 263, 292, 321, 350)
    """
    n = k1 - k0
    if n < 3:
        return lines
    first, last = lines[k0], lines[k1]
    pitch = (last - first) / n
    # The pitch from the profile's own period over the whole board, or the whole pixel next
    # to it (an unscaled desktop draws whole-pixel cells) unless the fraction gathers clearly
    # more.
    fraction = refine_pitch(profile[max(first, 0) : last + 1], int(round(pitch)))
    starts = first + np.arange(-REFIT_SHIFT, REFIT_SHIFT + 1e-9, 0.5)
    steps = [s for s in (float(round(fraction)), fraction) if abs(s - pitch) <= REFIT_REACH]
    if not steps:
        return lines
    step, start = _whole_or_fraction(profile, starts, steps, np.arange(1, n))
    placed = tuple(px(start + k * step) for k in range(n + 1))
    return (*lines[:k0], *placed, *lines[k1 + 1 :])


def _whole_or_fraction(
    profile: np.ndarray,
    starts: np.ndarray,
    steps: list[float],
    ks: np.ndarray,
    exact: bool = True,
) -> tuple[float, float]:
    """Of ``steps`` (a whole pixel first, then a fraction), the first unless the next gathers
    clearly more of ``profile`` at lines ``start + k * step`` (``k`` in ``ks``), with the best
    of ``starts`` for it. A line's edges a pixel either side count as the line (a grid line
    two pixels wide has an edge each side; a bevel lies one beside it); with ``exact``, exact
    ones count more."""
    size = len(profile)
    wide = np.maximum(profile, np.maximum(np.roll(profile, 1), np.roll(profile, -1)))

    def gathered(step: float, values: np.ndarray) -> np.ndarray:
        pos = np.floor(starts[:, None] + step * ks + 0.5).astype(int)
        inside = (pos >= 0) & (pos < size)
        return np.where(inside, values[np.clip(pos, 0, size - 1)], 0.0).sum(axis=-1)

    fits = []
    for step in steps:
        scores = gathered(step, wide) + (gathered(step, profile) if exact else 0.0)
        best = int(np.argmax(scores))
        fits.append((float(scores[best]), step, float(starts[best])))
    score, step, start = fits[0]
    if len(fits) > 1 and fits[1][0] > FRACTION_GAIN * score:
        score, step, start = fits[1]
    return step, start


def whole_pitch(profile: np.ndarray, pitch: float, lo: int, hi: int) -> float:
    """``pitch`` (px, found to a fraction) as the whole pixel next to it, unless the fraction
    gathers clearly more of the edge ``profile`` over the board's span ``lo..hi``: an unscaled
    desktop draws whole-pixel cells, and on a small board the edges of two kinds of cell a
    pixel apart, or the frame's, pull the period a fraction off (20.1 px for 20).

    >>> prof = np.zeros(400); prof[[50 + 20 * k + (k > 4) for k in range(10)]] = 1
    >>> whole_pitch(prof, 20.12, 50, 240)
    20.0
    >>> prof[:] = 0; prof[np.floor(50 + 26.25 * np.arange(12) + 0.5).astype(int)] = 1
    >>> whole_pitch(prof, 26.25, 50, 340)
    26.25
    """
    whole = float(round(pitch))
    n = int((hi - lo) // pitch)
    if whole == pitch or n < 3:
        return pitch
    starts = lo + np.arange(0.0, pitch, 0.5)
    # Edges a pixel either side of a line count as fully as the line: a fraction that only
    # places lines on the pixel beside (two kinds of cell) gains nothing.
    step, _ = _whole_or_fraction(profile, starts, [whole, pitch], np.arange(n + 1), exact=False)
    return step


@dataclass(frozen=True)
class Lattice:
    """A board's cell grid in image pixels: the x of every column line, the y of every row line.

    Cell (x, y) spans ``xs[x] <= px < xs[x+1]`` and ``ys[y] <= py < ys[y+1]``. Lines are kept
    one by one because toolkits spread leftover pixels unevenly (gnome-mines: 33 px columns,
    then 32 px ones) and scaled desktops round each line on its own.

    >>> lat = Lattice.regular(left=10, top=20, pitch_x=16, pitch_y=16, cols=9, rows=9)
    >>> lat.cell_box(0, 0), lat.cell_box(8, 8)
    ((10, 20, 26, 36), (138, 148, 154, 164))
    >>> lat.center(1, 0), lat.cols, lat.rows
    ((34.0, 28.0), 9, 9)
    """

    xs: tuple[int, ...]
    ys: tuple[int, ...]

    @classmethod
    def regular(
        cls, left: float, top: float, pitch_x: float, pitch_y: float, cols: int, rows: int
    ) -> Lattice:
        """Evenly spaced lines (rounded half up)."""
        return cls(
            xs=tuple(px(left + i * pitch_x) for i in range(cols + 1)),
            ys=tuple(px(top + j * pitch_y) for j in range(rows + 1)),
        )

    @property
    def cols(self) -> int:
        return len(self.xs) - 1

    @property
    def rows(self) -> int:
        return len(self.ys) - 1

    @property
    def pitch_x(self) -> float:
        return (self.xs[-1] - self.xs[0]) / self.cols

    @property
    def pitch_y(self) -> float:
        return (self.ys[-1] - self.ys[0]) / self.rows

    @property
    def left(self) -> int:
        return self.xs[0]

    @property
    def top(self) -> int:
        return self.ys[0]

    def cell_box(self, x: int, y: int) -> tuple[int, int, int, int]:
        """``(x0, y0, x1, y1)`` pixel box of cell (x, y), x1/y1 exclusive."""
        return self.xs[x], self.ys[y], self.xs[x + 1], self.ys[y + 1]

    def center(self, x: int, y: int) -> tuple[float, float]:
        """Pixel centre of cell (x, y)."""
        return (self.xs[x] + self.xs[x + 1]) / 2, (self.ys[y] + self.ys[y + 1]) / 2

    @property
    def box(self) -> tuple[int, int, int, int]:
        """``(x0, y0, x1, y1)`` of the whole board."""
        return self.xs[0], self.ys[0], self.xs[-1], self.ys[-1]

    def cells(self, image: np.ndarray, size: tuple[int, int] | None = None) -> np.ndarray:
        """All cells cut out as one array ``[rows, cols, h, w, channels]``.

        ``size`` (w, h) defaults to the most common cell size; a cell of another size (a
        wider column, a scaled desktop) is resized to it, so every cell has the same shape.
        """
        import cv2

        if size is None:
            widths = np.diff(self.xs)
            heights = np.diff(self.ys)
            size = (int(np.bincount(widths).argmax()), int(np.bincount(heights).argmax()))
        w, h = size
        img = image if image.ndim == 3 else image[:, :, None]
        out = np.empty((self.rows, self.cols, h, w, img.shape[2]), img.dtype)
        for y in range(self.rows):
            for x in range(self.cols):
                x0, y0, x1, y1 = self.cell_box(x, y)
                cell = img[y0:y1, x0:x1]
                if cell.shape[:2] != (h, w):
                    cell = cv2.resize(cell, (w, h), interpolation=cv2.INTER_AREA)
                    if cell.ndim == 2:
                        cell = cell[:, :, None]
                out[y, x] = cell
        return out

    def shifted(self, dx: int, dy: int) -> Lattice:
        """The same lattice with every line moved by ``dx``, ``dy`` pixels.

        >>> Lattice(xs=(0, 20, 40), ys=(5, 25)).shifted(1, -1)
        Lattice(xs=(1, 21, 41), ys=(4, 24))
        """
        return Lattice(tuple(x + dx for x in self.xs), tuple(y + dy for y in self.ys))

    def describe(self) -> str:
        """One line for people: ``30x16 cells, pitch 20.00x20.00 px, at (4, 28)``."""
        return (
            f"{self.cols}x{self.rows} cells, pitch {self.pitch_x:.2f}x{self.pitch_y:.2f} px, "
            f"at ({self.left}, {self.top})"
        )
