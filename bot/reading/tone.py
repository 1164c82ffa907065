"""Learning a frame's tone curve: how the screen shows the colours of the skin's images.

Brightness, contrast, gamma, a night-light tint or a colour profile change every colour on the
screen the same way: each channel goes through one monotonic curve. :func:`fit_tone` learns that
curve (template value -> screen value, per channel) from the cells whose class is clear; the
templates are then put through it and compared with the cells as they are. (Templates through
the curve rather than cells through its inverse: where the screen clips, two template values
become one screen value, which a curve this way round shows as it is.)

It alternates two steps (a few rounds from a start, see :data:`STARTS`):

1. every cell's nearest template by squared difference, the templates put through the current
   curve; cells whose nearest class is clearly nearer than any other are taken as sure;
2. the curve that maps the sure cells' templates onto their pixels: per channel a smooth
   curve ``s = a * 255 * (t / 255) ** p + b`` with bounded ``a``, ``p`` and ``b`` (what a
   display setting does), fitted by least squares to the mean screen value of each template
   value, dropping template values that stay far from it (the wrong ones among the sure cells).

The smooth family is what keeps it honest: a wrong assignment (every open cell taken for a
lighter covered variant, say) asks for a curve with a kink at one grey level, which the family
cannot follow, so the next round puts those cells back. The curve finally used keeps each
template value's own mean screen value, but never more than :data:`FREE_LEVELS` x the tolerance
(at least :data:`FREE_FLOOR` levels) from the smooth curve, and never decreasing.

The caller still applies the skin's strict confidence and margin rules to the corrected cells:
a curve only makes colours comparable, it never lowers the bar. Classes that differ only in
colour (skin.json ``match.colour_only``) stay apart under a curve because the curve is shared
by the whole board; when colour is gone altogether (greyscale) their cells do not match their
coloured templates and are refused.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from bot.reading.state import ToneCurve

#: Exponents ``p`` tried for the smooth curve: gamma 0.8 .. 1.25 with a little margin. The
#: bounds of the family are the changes the reader is built to undo (brightness +-20 levels,
#: contrast 0.85 .. 1.15, gamma 0.8 .. 1.25, a channel x 0.8) with some room: a wider family
#: also fits wrong readings (a fresh board's covered cells read as mines through a curve that
#: flattens the mine's colour onto theirs).
EXPONENTS = np.geomspace(0.76, 1.32, 13)
#: ``255 (t / 255) ** p`` for every template value t (columns) and exponent p (rows).
_POWERS = 255.0 * (np.arange(256.0) / 255.0) ** EXPONENTS[:, None]
#: Bounds of the smooth curve's gain ``a`` and offset ``b`` (levels).
GAIN_RANGE = (0.74, 1.25)
OFFSET_LIMIT = 45.0
#: Rounds of assign-then-fit.
ROUNDS = 4
#: How far (in skin tolerances) a template value's own mean may sit from the smooth curve.
FREE_LEVELS = 1.5
#: ... and at least this many levels, whatever the tolerance: how far the family may miss a
#: real screen at its ends does not shrink with a strict skin's tolerance (GNOME Mines', 6:
#: 20 levels brighter, its black seen through the smooth curve at 9 instead of 20, where
#: 580 pixels of its mines and flags agreed on 20).
FREE_FLOOR = 16.0
#: Template values seen fewer times than this keep the smooth curve's value.
MIN_COUNT = 8

#: ``assign(toned, strict)``: each cell's template (index into the templates, as the curve
#: shows them: ``toned``) and whether the cell is sure of it: with ``strict`` when it reads
#: clearly by the skin's own rules, else when its nearest class by squared difference is
#: clearly nearer than any other.
Assigner = Callable[[np.ndarray, bool], tuple[np.ndarray, np.ndarray]]


#: Where the rounds start: the screen as drawn, and every channel this many levels darker or
#: lighter. A start near the truth matters: a lighter screen can make each cell nearest to a
#: lighter variant of its class, from which the rounds need not find their way back.
STARTS = (0, -20, 20, -40, 40)


def shifted(offset: int) -> ToneCurve:
    """The curve that adds ``offset`` to every channel (0: the screen shows the skin's own
    colours).

    >>> shifted(-20).lut[[0, 100, 255], 0].tolist()
    [0, 80, 235]
    """
    values = np.clip(np.arange(256) + offset, 0, 255).astype(np.uint8)
    return ToneCurve(np.repeat(values[:, None], 3, axis=1))


def warm(blue: float) -> ToneCurve:
    """The curve of a warm tint: the blue channel times ``blue``, the others as drawn (BGR).

    >>> warm(0.8).lut[[100, 255]].tolist()
    [[80, 100, 100], [204, 255, 255]]
    """
    levels = np.arange(256.0)
    lut = np.stack([np.round(levels * blue), levels, levels], axis=1)
    return ToneCurve(np.clip(lut, 0, 255).astype(np.uint8))


#: A night light's blue: the rounds start there too. From a start that moves every channel
#: alike, the cells of a board of few colours (sgt-mines' fresh 18 px board) were nearest to
#: bevel variants a pixel off, and the rounds settled on a flattened curve that read none.
WARM_BLUE = 0.8
#: Every start, in turn (see :data:`STARTS`).
START_CURVES = tuple(shifted(offset) for offset in STARTS) + (warm(WARM_BLUE),)


def fit_tone(
    samples: np.ndarray,
    templates: np.ndarray,
    mask: np.ndarray,
    assign: Assigner,
    tolerance: int,
    start: ToneCurve | None = None,
    least_span: float = 0.0,
) -> ToneCurve | None:
    """The tone curve (template value -> screen value, per channel) that makes ``templates``
    ``[K, D]`` (BGR uint8) look like the cells ``samples`` ``[N, D]``; ``mask`` ``[D]`` (or
    ``[K, D]``, per template) marks the samples that count; ``assign`` tells each cell's
    template (see :data:`Assigner`); ``start`` is the first guess (default: no change). None
    when no cell is sure, and with ``least_span`` also where the template values the sure
    cells show unclipped span fewer levels than that in every channel (learnt from one grey,
    a curve is guesswork elsewhere; one channel's span shows the change's shape, which a
    display setting gives every channel, and a channel seen at one grey alone, the others
    clipped, takes the least change through it: a shift).

    The smooth curve is found from the cells sure by squared difference; the curve returned
    is then made from the cells that read clearly through it: the smooth curve again, and each
    template value's own mean screen value where those cells agree on it.

    >>> rng = np.random.default_rng(1)
    >>> templates = rng.integers(30, 220, (3, 12), dtype=np.uint8)
    >>> cells = (templates[[0, 1, 2, 0, 1, 2, 0, 0]].astype(int) + 20).astype(np.uint8)
    >>> def assign(toned, strict):
    ...     d2 = ((cells[:, None, :].astype(int) - toned[None].astype(int)) ** 2).sum(2)
    ...     order = np.sort(d2, axis=1)
    ...     return d2.argmin(1), order[:, 0] < 0.5 * order[:, 1]
    >>> curve = fit_tone(cells, templates, np.ones(12, bool), assign, 8)
    >>> bool((curve.apply(templates) == cells[:3]).all())
    True
    """
    curve = shifted(0) if start is None else start
    for _ in range(ROUNDS):
        best, sure = assign(curve.apply(templates), False)
        if not sure.any():
            return None
        smooth, _, _, _ = _fit(templates, best[sure], samples[sure], mask, tolerance)
        new = ToneCurve(smooth)
        if np.array_equal(new.lut, curve.lut):
            break
        curve = new
    best, sure = assign(curve.apply(templates), True)
    if not sure.any():
        return curve if least_span == 0 else None
    smooth, means, counts, spread = _fit(templates, best[sure], samples[sure], mask, tolerance)
    if least_span and _span(means, counts) < least_span:
        return None
    return ToneCurve(_free_curve(smooth, means, counts, spread, tolerance))


def _span(means: np.ndarray, counts: np.ndarray) -> float:
    """How far apart (levels; the widest of the channels) the template values lie that many
    samples show unclipped: the range a curve is learnt over. A screen 20 levels lighter
    clips GNOME Mines' light tiles in green and blue, where its won board's flat pixels show
    one grey each, and spans 29 levels in red."""
    seen = (counts >= MIN_COUNT) & (means > 1.5) & (means < 253.5)
    spans = [float(np.ptp(np.flatnonzero(seen[:, c]))) if seen[:, c].any() else 0.0
             for c in range(3)]  # fmt: skip
    return max(spans)


def _fit(
    templates: np.ndarray, drawn: np.ndarray, screen: np.ndarray, mask: np.ndarray, tolerance: int
) -> tuple[np.ndarray, ...]:
    """Per channel, from pairs (template value, screen value) of the counted samples of the
    cells ``screen`` ``[N, D]``, cell ``i`` drawn as template ``drawn[i]`` of ``templates``: the
    smooth curve ``[256, 3]`` uint8, and each template value's mean screen value, count and
    standard deviation (``[256, 3]`` each).

    The cells are first summed per template (one pass over the cells), so the per-value
    statistics come from the few templates' pixels, not from every cell's."""
    order = np.argsort(drawn, kind="stable")
    used, starts, per_template = np.unique(drawn[order], return_index=True, return_counts=True)
    k = len(used)
    cells = screen[order].astype(np.int64)  # squares summed over many cells outgrow int32
    sums = np.add.reduceat(cells, starts, axis=0)  # [k, D]: each used template's cells, summed
    np.multiply(cells, cells, out=cells)
    square_sums = np.add.reduceat(cells, starts, axis=0)
    per_template = per_template.astype(np.float64)
    keep = np.broadcast_to(mask, templates.shape)[used].reshape(k, -1, 3)
    t = templates[used].reshape(k, -1, 3)
    s1, s2 = sums.reshape(k, -1, 3), square_sums.reshape(k, -1, 3)
    smooth = np.empty((256, 3), np.uint8)
    means, counts, spread = np.zeros((256, 3)), np.zeros((256, 3)), np.zeros((256, 3))
    for c in range(3):
        kept = keep[:, :, c]
        values = t[:, :, c][kept].astype(np.intp)
        count = np.bincount(
            values, weights=np.repeat(per_template, kept.sum(axis=1)), minlength=256
        )
        total = np.bincount(values, weights=s1[:, :, c][kept].astype(np.float64), minlength=256)
        squares = np.bincount(values, weights=s2[:, :, c][kept].astype(np.float64), minlength=256)
        mean = np.where(count > 0, total / np.maximum(count, 1), 0.0)
        var = np.where(count > 0, squares / np.maximum(count, 1) - mean * mean, 0.0)
        smooth[:, c] = _smooth_curve(mean, count, tolerance)
        means[:, c], counts[:, c], spread[:, c] = mean, count, np.sqrt(np.maximum(var, 0))
    return smooth, means, counts, spread


def _smooth_curve(mean: np.ndarray, count: np.ndarray, tolerance: int) -> np.ndarray:
    """The bounded curve ``a * 255 * (t / 255) ** p + b`` (then clipped to 0..255, as a screen
    clips) nearest, by weighted least squares, to ``mean[t]``. Template values shown clipped
    (mean screen value at an end) only say the curve runs off there: they are left out of the
    fit, but a curve that does not run off there (one inside the ends where the screen shows
    an end) counts as that far from them. Values far from the fit (more than twice the
    tolerance) are dropped and the fit made again, twice."""
    t = np.arange(256, dtype=np.float64)
    weight = count.copy()
    low, high = (mean < 1.5) & (count > 0), (mean > 253.5) & (count > 0)
    weight[low | high] = 0
    # Yet the curve must run off there: a curve above the floor where the screen shows the
    # floor is wrong (xbomb's black at 0 under a night light, the curve learnt from its white
    # and grey alone: every exponent fits two greys, and one put black at 13).
    off_low, off_high = count * low, count * high
    best = t.copy()
    if weight.sum() == 0:
        return t.astype(np.uint8)
    for _ in range(3):
        # Every exponent's weighted least-squares line at once: one row of _POWERS each.
        total = weight.sum()
        mx = _POWERS @ weight / total
        my = float(weight @ mean) / total
        dx = _POWERS - mx[:, None]
        vx = (dx * dx) @ weight
        flat = vx <= 1e-9
        a = np.where(flat, 1.0, (dx * (mean - my)) @ weight / np.where(flat, 1.0, vx))
        # A gain out of range is clipped; the offset is then the best for that gain (the
        # same formula: the weighted mean of mean - a x).
        a = np.clip(a, *GAIN_RANGE)
        b = np.clip(my - a * mx, -OFFSET_LIMIT, OFFSET_LIMIT)
        curves = a[:, None] * _POWERS + b[:, None]
        errors = ((curves - mean) ** 2) @ weight
        errors += (np.maximum(curves - 1.5, 0) ** 2) @ off_low
        errors += (np.maximum(253.5 - curves, 0) ** 2) @ off_high
        # Where the means do not tell the exponents apart (one template value seen: each
        # curve passes through it), the one nearest no change at all.
        tied = np.flatnonzero(errors <= errors.min() * (1 + 1e-9) + 1e-6)
        best = curves[tied[np.argmin(np.abs(np.log(EXPONENTS[tied])))]]
        far = (np.abs(best - mean) > 2 * tolerance) & (weight > 0)
        if not far.any():
            break
        weight[far] = 0
        if weight.sum() == 0:
            break
    return np.clip(np.round(best), 0, 255).astype(np.uint8)


def _free_curve(
    smooth: np.ndarray,
    means: np.ndarray,
    counts: np.ndarray,
    spread: np.ndarray,
    tolerance: int,
) -> np.ndarray:
    """Each well-seen template value's own mean screen value where its pixels agree (spread
    within half the tolerance), within ``FREE_LEVELS`` x ``tolerance`` (at least
    ``FREE_FLOOR`` levels) of the smooth curve; the smooth curve elsewhere; made
    non-decreasing by :func:`_monotone`, each value weighted by its pixels (a running maximum
    let 17 pixels of one value at 238 lift the 71,000 of the next, GNOME Mines' open grey
    222, to 238 on a screen that changed nothing)."""
    limit = max(FREE_LEVELS * tolerance, FREE_FLOOR)
    base = smooth.astype(np.float64)
    own = np.clip(means, base - limit, base + limit)
    trusted = (counts >= MIN_COUNT) & (spread <= tolerance / 2)
    curve = np.where(trusted, own, base)
    weight = np.where(trusted, counts, 1.0)
    for c in range(3):
        curve[:, c] = _monotone(curve[:, c], weight[:, c])
    return np.clip(np.round(curve), 0, 255).astype(np.uint8)


def _monotone(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The non-decreasing sequence nearest to ``values`` by weighted least squares (pool
    adjacent violators): a template value seen by a few pixels above its neighbours is pooled
    with them, not allowed to lift every value after it.

    >>> values, weights = np.array([1.0, 5.0, 3.0, 4.0]), np.array([1.0, 1.0, 100.0, 1.0])
    >>> _monotone(values, weights).round(2).tolist()
    [1.0, 3.02, 3.02, 4.0]
    """
    means: list[float] = []
    totals: list[float] = []
    sizes: list[int] = []
    for v, w in zip(values.tolist(), weights.tolist(), strict=True):
        means.append(v)
        totals.append(w)
        sizes.append(1)
        while len(means) > 1 and means[-2] > means[-1]:
            w2, w1 = totals.pop(), totals[-1]
            m2 = means.pop()
            means[-1] = (means[-1] * w1 + m2 * w2) / (w1 + w2)
            totals[-1] = w1 + w2
            size = sizes.pop()
            sizes[-1] += size
    return np.repeat(np.array(means), sizes)
