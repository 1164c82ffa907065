"""The cell pitch of a board: edge maps, and the lag at which edges repeat (see
:mod:`bot.reading.lattice`)."""

from __future__ import annotations

import numpy as np

from bot.errors import LatticeError

#: A colour step (0-255, largest channel) that counts as an edge after smoothing.
EDGE_STEP = 24
#: Most pixels either side of a lag within which the autocorrelation's trough is looked for.
TROUGH = 12


def colour(image: np.ndarray) -> np.ndarray:
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

    img = cv2.blur(colour(image), (2, 2), borderType=cv2.BORDER_REPLICATE)
    if img.ndim == 2:
        img = img[:, :, None]
    h, w, channels = img.shape
    vertical = np.zeros((h, w), np.float32)
    horizontal = np.zeros((h, w), np.float32)
    # Central differences: after the blur a step spreads over two pixels, and the difference
    # across both gives its full height at one pixel. (OpenCV's difference and channel maximum:
    # the same values as numpy's, a few times faster on a whole desktop.)
    if w > 2:
        step = cv2.absdiff(img[:, 2:], img[:, :-2]).reshape(-1, channels)
        vertical[:, 1:-1] = cv2.reduce(step, 1, cv2.REDUCE_MAX).reshape(h, w - 2)
    if h > 2:
        step = cv2.absdiff(img[2:], img[:-2]).reshape(-1, channels)
        horizontal[1:-1, :] = cv2.reduce(step, 1, cv2.REDUCE_MAX).reshape(h - 2, w)
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
    """The lattice pitch (whole pixels, rounded half up) along axis 1 of a binary edge map.

    Pitches are tried in half pixels: p scores the edge coincidences at p, 2p and 3p (each
    within a pixel, and above the trough around it): a true pitch repeats at its multiples,
    while the offsets inside one cell (a bevel two pixels in from the line) do not, and p/2
    misses every other line. A lag's coincidences are counted over two neighbouring lags: a
    pitch of 22.5 px (18 px cells at 125%) puts half of them at 22 and half at 23, and on one
    lag alone its first harmonic would score half its second (45 px, every pair exact), so
    twice the cell would win.

    >>> edges = np.zeros((5, 900), bool)
    >>> edges[:, np.floor(3 + 22.5 * np.arange(40) + 0.5).astype(int)] = True
    >>> estimate_pitch(edges, 8, 290)
    23
    """
    max_lag = min(3 * max_pitch + 2, edges.shape[1] - 1)
    if max_lag < 2 * min_pitch:
        raise LatticeError("the image is too small to hold a board")
    corr = _autocorrelation(edges, max_lag)
    if corr[0] <= 0:
        raise LatticeError("no edges in the image: it is blank")
    corr = corr / corr[0]
    pairs = np.concatenate([corr[:-1] + corr[1:], [corr[-1]]])  # pairs[d] = corr[d..d+1]
    # Pitches whose second harmonic still falls within the lags counted (smaller first).
    p2 = np.arange(2 * min_pitch, min(2 * max_pitch, max_lag - 1) + 1)
    # Each peak counts above the trough around it: long edges (a toolbar, a status bar) add
    # the same to every lag, and a fraction of the pitch (10 px for 29 px cells: 3 x 10 is
    # within a pixel of 29) must not gain from that floor at its first two harmonics. The
    # trough is looked for half a pitch either side, but no further than TROUGH: the lowest of
    # a wider window is lower by chance where noise (a photo) makes the autocorrelation ragged,
    # and large lags (multiples) would gain from it.
    reach = np.minimum(p2 // 4, TROUGH)
    troughs = _RangeMin(corr.astype(np.float64))
    total = np.zeros(p2.size)
    counted = np.zeros(p2.size)
    for k in (1, 2, 3):
        h2 = k * p2
        inside = h2 <= 2 * (max_lag - 1)
        h2 = np.where(inside, h2, 2)
        # The coincidences at lag h2 / 2: the pairs of lags centred within a pixel.
        half = h2 // 2
        peak = np.where(
            h2 % 2 == 1, pairs[half], np.maximum(pairs[np.maximum(half - 1, 0)], pairs[half])
        ).astype(np.float64)
        lo = np.maximum(half - reach, 0)
        hi = np.minimum((h2 + 1) // 2 + reach + 1, corr.size)
        total += np.where(inside, peak - 2 * troughs.min(lo, hi), 0.0)
        counted += inside
    # (3 / 2 for a pitch with only two harmonics inside the lags counted.)
    scores_list = (total * (3 / counted)).tolist() if p2.size else []
    best, best_score = 0, -1.0
    scores: dict[int, float] = {}  # by pitch in half pixels
    for q, score in zip(p2.tolist(), scores_list, strict=True):
        scores[q] = score
        if score > best_score * 1.02:  # prefer the smaller pitch on a near tie
            best, best_score = q, score
    if best == 0:
        raise LatticeError("no repeating cell pattern found")
    # A multiple of the pitch repeats too (every third line is a line): where a fraction of
    # the best lag scores nearly as well, the fraction is the cell. Every fraction down to
    # the smallest pitch is tried, smallest first: with cells up to a few hundred pixels the
    # best lag may be any multiple of a small cell. (A true pitch's own fractions score at
    # most ~0.7 of it on the fixtures: their lags fall inside cells.)
    for m in range(best // (2 * min_pitch), 1, -1):
        # within a half pixel, and a quarter pixel a multiple, of best / m (in half pixels)
        near = [q for q in range(best // m - 1, best // m + 2) if abs(m * q - best) <= 1 + m // 2]
        good = [q for q in near if scores.get(q, 0.0) >= 0.9 * best_score]
        if good:
            best = max(good, key=lambda q: scores[q])
            break
    return (best + 1) // 2


class _RangeMin:
    """Minima of ``values[lo:hi]`` for many ranges at once (a sparse table: the minima of
    every run of a power-of-two length, so each range is the minimum of two overlapping runs).

    >>> _RangeMin(np.array([3.0, 1.0, 4.0, 1.5, 5.0])).min(np.array([0, 2]), np.array([2, 5]))
    array([1. , 1.5])
    """

    def __init__(self, values: np.ndarray) -> None:
        self.levels = [values]
        while 2 ** len(self.levels) <= values.size:
            last, step = self.levels[-1], 2 ** (len(self.levels) - 1)
            self.levels.append(np.minimum(last[:-step], last[step:]))

    def min(self, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """The minimum of each ``values[lo[i]:hi[i]]`` (each range non-empty)."""
        level = np.log2(hi - lo).astype(np.intp)
        out = np.empty(lo.size)
        for k in np.unique(level):
            at = level == k
            run = self.levels[k]
            out[at] = np.minimum(run[lo[at]], run[hi[at] - 2**k])
        return out


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


def repeating(edges: np.ndarray, pitch: int, axis: int) -> np.ndarray:
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
