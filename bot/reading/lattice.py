"""Find the cell grid of a Minesweeper board in a screenshot without knowing the skin.

A board is a regular lattice of equal cells: whatever the skin draws, the edges between and
inside cells repeat with the cell pitch, in both directions, over a large rectangle; nothing
else on a desktop does that over such an area. :func:`find_lattice` uses only that:

1. smooth the image (2x2 box, which flattens the one-pixel dithering some skins use) and mark
   the pixels where the colour jumps left-to-right (vertical edges) and top-to-bottom;
2. the pitch along each axis is the lag whose *harmonics* (p, 2p, 3p) gather the most edge
   coincidences (autocorrelation by FFT), refined to a fraction of a pixel so that boards on a
   scaled desktop (125%: 16 px -> 20 px, 21 px -> 26.25 px) are found too;
3. the board's area is where edges repeat at that pitch densely (largest connected blob);
4. the cell boundary is the strongest periodic edge (the line between cells, or the bright
   bevel of a covered cell), and the board runs from the first to the last cell whose block
   shows the skin's periodic edge pattern in both directions.

>>> import numpy as np
>>> tile = np.full((20, 20, 3), 190, np.uint8); tile[:2] = 0; tile[:, :2] = 0
>>> board = np.tile(tile, (8, 12, 1))                     # 12 x 8 cells of 20 px
>>> desk = np.full((300, 400, 3), 230, np.uint8); desk[50:210, 60:300] = board
>>> desk[210:212, 60:302] = 0; desk[50:212, 300:302] = 0  # the closing grid lines
>>> lat = find_lattice(desk)
>>> (lat.cols, lat.rows, round(lat.pitch_x, 2), round(lat.left), round(lat.top))
(12, 8, 20.0, 60, 50)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bot.errors import LatticeError

#: A colour step (0-255, largest channel) that counts as an edge after smoothing.
EDGE_STEP = 24
#: Fewest cells along each axis for a lattice to count as a board.
MIN_CELLS = 4


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
            xs=tuple(_px(left + i * pitch_x) for i in range(cols + 1)),
            ys=tuple(_px(top + j * pitch_y) for j in range(rows + 1)),
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


def _colour(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image[:, :, None].astype(np.float32)
    if image.shape[2] == 4:  # mss frames are BGRA
        image = image[:, :, :3]
    return image.astype(np.float32)


def edge_maps(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Edge strengths ``(vertical, horizontal)``, each the image's shape (float32, 0-255).

    ``vertical[y, x]`` is the colour step between pixel x-1 and x (a vertical line at the left
    of x); ``horizontal[y, x]`` the step between rows y-1 and y. The 2x2 box blur first turns
    a one-pixel checkerboard dither into a flat tone, so dithered cells have no inner edges.
    """
    import cv2

    img = cv2.blur(_colour(image), (2, 2), borderType=cv2.BORDER_REPLICATE)
    if img.ndim == 2:
        img = img[:, :, None]
    vertical = np.zeros(img.shape[:2], np.float32)
    horizontal = np.zeros(img.shape[:2], np.float32)
    # Central differences: after the blur a step spreads over two pixels, and the difference
    # across both gives its full height at one pixel.
    vertical[:, 1:-1] = np.abs(img[:, 2:] - img[:, :-2]).max(axis=2)
    horizontal[1:-1, :] = np.abs(img[2:] - img[:-2]).max(axis=2)
    return vertical, horizontal


def _autocorrelation(edges: np.ndarray, max_lag: int) -> np.ndarray:
    """Sum over rows of each row's autocorrelation (edges along axis 1), lags 0..max_lag."""
    n = edges.shape[1]
    size = 1 << int(np.ceil(np.log2(n + max_lag + 1)))
    spectrum = np.fft.rfft(edges.astype(np.float32), size, axis=1)
    power = (spectrum * spectrum.conj()).real.sum(axis=0)
    corr = np.fft.irfft(power, size)[: max_lag + 1]
    return np.maximum(corr, 0.0)


def estimate_pitch(edges: np.ndarray, min_pitch: int, max_pitch: int) -> int:
    """The lattice pitch (whole pixels) along axis 1 of a binary edge map.

    The lag p scores the edge coincidences at p, 2p and 3p (each +-1 pixel, for fractional
    pitches): a true pitch repeats at its multiples, while the offsets inside one cell (a bevel
    two pixels in from the line) do not, and p/2 misses every other line.
    """
    max_lag = min(3 * max_pitch + 2, edges.shape[1] - 1)
    if max_lag < 2 * min_pitch:
        raise LatticeError("the image is too small to hold a board")
    corr = _autocorrelation(edges, max_lag)
    if corr[0] <= 0:
        raise LatticeError("no edges in the image: it is blank")
    corr = corr / corr[0]
    padded = np.concatenate([corr, np.zeros(2)])
    tolerant = np.maximum(np.maximum(padded[:-2], padded[1:-1]), padded[2:])
    tolerant = np.concatenate([[tolerant[0]], tolerant])  # tolerant[d] = max corr[d-1..d+1]
    best, best_score = 0, -1.0
    for p in range(min_pitch, max_pitch + 1):
        harmonics = [k * p for k in (1, 2, 3) if k * p <= max_lag]
        if len(harmonics) < 2:
            break
        score = float(sum(tolerant[h] for h in harmonics)) * 3 / len(harmonics)
        if score > best_score * 1.02:  # prefer the smaller pitch on a near tie
            best, best_score = p, score
    if best == 0:
        raise LatticeError("no repeating cell pattern found")
    return best


def _largest_blob(mask: np.ndarray, weight: np.ndarray) -> tuple[int, int, int, int]:
    import cv2

    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        mask.astype(np.uint8), connectivity=8
    )
    if count <= 1:
        raise LatticeError("no repeating cell pattern found")
    sums = np.bincount(labels.ravel(), weights=weight.ravel(), minlength=count)
    sums[0] = -1
    k = int(np.argmax(sums))
    x, y, w, h = (int(v) for v in stats[k, :4])
    return x, y, x + w, y + h


def _shifted(mask: np.ndarray, d: int, axis: int) -> np.ndarray:
    """``mask`` moved by ``d`` along ``axis`` (zeros shifted in)."""
    out = np.zeros_like(mask)
    n = mask.shape[axis]
    if abs(d) >= n:
        return out
    src = [slice(None)] * 2
    dst = [slice(None)] * 2
    if d >= 0:
        src[axis], dst[axis] = slice(0, n - d), slice(d, n)
    else:
        src[axis], dst[axis] = slice(-d, n), slice(0, n + d)
    out[tuple(dst)] = mask[tuple(src)]
    return out


def _repeating(edges: np.ndarray, pitch: int, axis: int) -> np.ndarray:
    """Edge pixels with another edge one pitch (+-1) before or after them along ``axis``.

    Noise (a photo on the desktop) has edges everywhere, so they "repeat" at every lag: an
    edge only counts when it does *not* also repeat at a lag of about half a pitch, where a
    lattice of cells has no edges.
    """

    def near(lag: int) -> np.ndarray:
        out = np.zeros_like(edges)
        for d in (lag - 1, lag, lag + 1, -lag + 1, -lag, -lag - 1):
            out |= _shifted(edges, d, axis)
        return out

    off_lag = max(int(round(0.45 * pitch)), 3)
    return edges & near(pitch) & ~near(off_lag)


def _px(value: float) -> int:
    """Round half up (Python's round() goes to even, which would jitter cell boxes)."""
    return int(np.floor(value + 0.5))


def _positions(values: np.ndarray, n: int) -> np.ndarray:
    pos = np.floor(values + 0.5).astype(int)
    return pos[(pos >= 0) & (pos < n)]


def refine_pitch(profile: np.ndarray, coarse: int) -> float:
    """The pitch of a 1-D edge profile to a fraction of a pixel, starting from ``coarse``.

    The profile's autocorrelation peaks at every multiple of the pitch; the peak near the
    k-th multiple pins the pitch down to about 1/k pixel, so k doubles while the peaks stay
    inside the profile (each step's window is narrow enough to stay on the right peak).

    >>> prof = np.zeros(400); prof[np.rint(7 + 26.25 * np.arange(15)).astype(int)] = 1
    >>> round(refine_pitch(prof, 26), 2)
    26.25
    """
    n = len(profile)
    size = 1 << int(np.ceil(np.log2(2 * n)))
    # Remove the slow trend (the board's overall edge density) so the autocorrelation has
    # sharp peaks at the multiples and not a ramp that pulls them towards small lags.
    kernel = np.ones(max(coarse, 1)) / max(coarse, 1)
    detrended = profile - np.convolve(profile, kernel, mode="same")
    spectrum = np.fft.rfft(detrended, size)
    corr = np.fft.irfft((spectrum * spectrum.conj()).real, size)[:n]
    pitch, err, k = float(coarse), 1.0, 2
    while k * pitch <= 0.75 * n:
        center = k * pitch
        half = min(int(np.ceil(k * err)) + 1, int(pitch // 2))
        lo, hi = max(int(round(center)) - half, 1), min(int(round(center)) + half, n - 2)
        if hi <= lo:
            break
        d = lo + int(np.argmax(corr[lo : hi + 1]))
        # parabolic interpolation of the peak for sub-pixel precision
        a, b, c = corr[d - 1], corr[d], corr[d + 1]
        denom = a - 2 * b + c
        shift = 0.5 * (a - c) / denom if denom < 0 else 0.0
        pitch = (d + max(min(shift, 0.5), -0.5)) / k
        err = 1.0 / k
        k *= 2
    return float(pitch)


@dataclass(frozen=True)
class _Axis:
    """The lattice along one axis: candidate cell-boundary lines and the periodic edge pattern."""

    pitch: float
    lines: tuple[int, ...]  # boundary candidates, left to right, past the board on both sides
    offsets: tuple[int, ...]  # offsets of the periodic edges from a boundary (0 included)


def _fit_axis(profile: np.ndarray, coarse: int, lo: int, hi: int) -> list[_Axis]:
    """Boundary lines along one axis from a 1-D edge profile over the board span ``lo..hi``.

    The average pitch comes from :func:`refine_pitch`; the edge pattern of one cell is the
    profile folded at that pitch; the lines are then tracked one by one from the middle
    outwards, each placed where the pattern fits best within a couple of pixels of one pitch
    from the previous line (so uneven layouts and rounding on scaled screens are followed).
    """
    n = len(profile)
    pad = int(2 * coarse)
    a, b = max(lo - pad, 0), min(hi + pad, n)
    pitch = refine_pitch(profile[a:b], coarse)
    # Fold over the middle of the board only, where the drift of an uneven layout is small.
    mid = (lo + hi) / 2
    half = max(int(min(hi - lo, 10 * pitch) / 2), int(pitch))
    f_lo, f_hi = int(mid - half), int(mid + half)
    count = max(int((f_hi - f_lo) // pitch), 1)
    ks = np.arange(count)
    phases = np.arange(0.0, pitch, 0.25)
    scores = np.array([profile[_positions(f_lo + ph + ks * pitch, n)].sum() for ph in phases])
    best = int(np.argmax(scores))
    end = best
    while end + 1 < len(scores) and scores[end + 1] >= scores[best]:
        end += 1
    phase = f_lo + float(phases[(best + end) // 2])
    whole = int(np.ceil(pitch))
    folded = np.array(
        [profile[_positions(phase + off + ks * pitch, n)].sum() for off in range(whole)]
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
    slack = max(2, int(round(pitch * 0.06)))
    axes = []
    for boundary in candidates:
        rel = sorted((o - boundary) % whole for o in offsets)
        pattern = np.zeros(whole + 1)
        for o in offsets:
            pattern[(o - boundary) % whole] = folded[o]
        start = _px(phase + boundary + pitch * int((mid - phase - boundary) // pitch))
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
        axes.append(_Axis(pitch=pitch, lines=lines, offsets=tuple(rel)))
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
    return tuple(_px(offset + slope * k) for k in range(len(lines)))


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
        base = _px(pred)
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
    return tuple(_px(v) for v in left[::-1] + right[1:])


def find_lattice(
    image: np.ndarray,
    min_pitch: int = 8,
    max_pitch: int = 100,
    min_cells: int = MIN_CELLS,
) -> Lattice:
    """The board's lattice in a screenshot (BGR, BGRA or grey), or :class:`LatticeError`.

    ``min_pitch``/``max_pitch`` bound the cell size in pixels; ``min_cells`` is the fewest
    cells along each axis. The error says what was missing, so the caller can tell the user
    what to capture instead.
    """
    import cv2

    vertical, horizontal = edge_maps(image)
    ev = vertical >= EDGE_STEP
    eh = horizontal >= EDGE_STEP
    if ev.sum() < 4 * min_cells or eh.sum() < 4 * min_cells:
        raise LatticeError("no board in the image: it has almost no edges")
    h, w = ev.shape
    max_pitch = max(min(max_pitch, w // min_cells, h // min_cells), min_pitch)
    px = estimate_pitch(ev, min_pitch, max_pitch)
    py = estimate_pitch(eh.T, min_pitch, max_pitch)

    # Where do the edges repeat at the pitch? Dense there = the board.
    rv, rh = _repeating(ev, px, 1), _repeating(eh, py, 0)
    repeat = (rv | rh).astype(np.float32)
    density = cv2.boxFilter(repeat, -1, (px, py), normalize=True)
    if density.max() <= 0:
        raise LatticeError("no repeating cell pattern found")
    x0, y0, x1, y1 = _largest_blob(density >= 0.3 * density.max(), repeat)

    # Only edges that repeat at the pitch speak for the lattice (not counters, text, frames).
    axs = _fit_axis((rv[y0:y1] * vertical[y0:y1]).sum(axis=0), px, x0, x1)
    ays = _fit_axis((rh[:, x0:x1] * horizontal[:, x0:x1]).sum(axis=1), py, y0, y1)
    ax, (first_col, ncols) = _best_extent(ev, eh, axs, ays[0], (y0, y1))
    ay, (first_row, nrows) = _best_extent(eh.T, ev.T, ays, axs[0], (x0, x1))
    if ncols < min_cells or nrows < min_cells:
        raise LatticeError(
            f"the repeating pattern found is only {ncols}x{nrows} cells: no board in the image"
        )
    return Lattice(
        xs=_even_ends(ax.lines[first_col : first_col + ncols + 1]),
        ys=_even_ends(ay.lines[first_row : first_row + nrows + 1]),
    )


def _even_ends(lines: tuple[int, ...]) -> tuple[int, ...]:
    """The outer lines one local pitch from their neighbours: outside the board the frame's
    own edges (a black line meeting the white window) can outshine the cell boundary.

    >>> _even_ends((4, 25, 45, 65, 87))
    (5, 25, 45, 65, 85)
    """
    if len(lines) < 4:
        return lines
    pitch = (lines[-2] - lines[1]) / (len(lines) - 3)
    return (_px(lines[1] - pitch), *lines[1:-1], _px(lines[-2] + pitch))


def _best_extent(
    own_edges: np.ndarray,
    cross_edges: np.ndarray,
    candidates: list[_Axis],
    across: _Axis,
    cross_span: tuple[int, int],
) -> tuple[_Axis, tuple[int, int]]:
    """The boundary candidate giving the most cells (the first one on a tie)."""
    best: tuple[_Axis, tuple[int, int]] | None = None
    for axis in candidates:
        extent = _extent(own_edges, cross_edges, axis, across, cross_span)
        if best is None or extent[1] > best[1][1]:
            best = (axis, extent)
    assert best is not None
    return best


def _extent(
    own_edges: np.ndarray,
    cross_edges: np.ndarray,
    along: _Axis,
    across: _Axis,
    cross_span: tuple[int, int],
) -> tuple[int, int]:
    """First line index and number of cells along one axis (axis 1 of the edge maps).

    The block between two boundary lines belongs to the board when, over the board's span
    the other way, it shows the skin's periodic edges: its own edge pattern along the axis
    *and* the lines running across it (the strip beyond a closing grid line has the first
    but not the second; the frame around a board has neither).
    """
    c0, c1 = cross_span
    n_along = own_edges.shape[1]
    n_cross = own_edges.shape[0]
    cross_lines = [q for q in across.lines if c0 - across.pitch <= q <= c1 + across.pitch]
    oks = []
    for k in range(len(along.lines) - 1):
        start, stop = along.lines[k], along.lines[k + 1]
        own = []
        for off in along.offsets:
            p = start + off
            if 0 <= p < n_along and p < stop:
                own.append(own_edges[c0:c1, max(p - 1, 0) : p + 2].any(axis=1).mean())
            else:
                own.append(0.0)
        b0 = max(start + (stop - start) // 6, 0)
        b1 = min(stop - (stop - start) // 6, n_along)
        cross = []
        if b1 > b0:
            for q0 in cross_lines:
                for off in across.offsets:
                    q = q0 + off
                    if c0 <= q < c1 and 0 <= q < n_cross:
                        cross.append(cross_edges[max(q - 1, 0) : q + 2, b0:b1].any(axis=0).mean())
        # the boundary itself must run along the block; the other periodic edges may be cell
        # content (digits on a won board) that not every block has
        own_score = own[along.offsets.index(0)] if 0 in along.offsets else 0.0
        cross_score = float(np.mean(cross)) if cross else 0.0
        oks.append(own_score >= 0.5 and cross_score >= 0.3)
    best = (0, 0)
    k = 0
    while k < len(oks):
        if oks[k]:
            j = k
            while j < len(oks) and oks[j]:
                j += 1
            if j - k > best[1]:
                best = (k, j - k)
            k = j
        else:
            k += 1
    return best
