"""Comparing a grid's cells with a skin's templates: the sampling of every cell into one array
and the two-step comparison against a template bank (:mod:`bot.reading.banks`; see
:mod:`bot.reading.classify`, which reads a whole grid with them and adapts to the screen's
colours).

Sampling maps and work arrays live in the caller's :class:`~bot.reading.state.ReaderState`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from bot.reading.banks import (
    KEPT_BANKS,
    RANK_STEP,
    TemplateBank,
    sample_step,
    template_bank,
)
from bot.reading.detail import absent_pixels, detail_cap, far_pixel_map, shown_cap
from bot.reading.skins import Skin
from bot.reading.state import ReaderState
from bot.reading.variants import best_variant_scores, differences_in_place

if TYPE_CHECKING:
    from bot.reading.grid import Grid


#: How many cells the SSD ranking multiplies at a time. Blocks this small stay in the cache,
#: and numpy's BLAS runs them on one thread: a BLAS thread pool woken for every frame on a busy
#: two-core machine made the product ten times slower (cv2.gemm's threads likewise).
RANK_BLOCK = 64


def cell_scale(grid: Grid, skin: Skin) -> tuple[float, float]:
    """How much bigger than the skin's images the grid's cells are drawn.

    On an uneven lattice (``cell.uneven_px``) cells are whole pixels, some one narrower than the
    rest: the wider size is the drawn one (the narrower cells just lose a pixel of their gap),
    unless a desktop's scaler stretched them (``grid.stretched``): then the pitch is.
    """
    px, py = grid.pitch_x, grid.pitch_y
    if skin.uneven_px and not grid.stretched:
        px, py = float(np.ceil(px - 1e-6)), float(np.ceil(py - 1e-6))
    return px / skin.pitch_x, py / skin.pitch_y


#: Most map rows (cells) one :func:`cv2.remap` takes (its limit is 32767).
REMAP_ROWS = 32000


def sample_cells(
    frame_bgr: np.ndarray,
    grid: Grid,
    skin: Skin,
    out: np.ndarray | None = None,
    step: int | None = None,
    state: ReaderState | None = None,
) -> np.ndarray:
    """Every cell's sampled pixels, ``[rows * cols, h * w * 3]`` uint8, row by row (written
    into ``out`` when given, an array of that shape); every ``step``-th pixel each way
    (default: the skin's :func:`sample_step`). ``state`` keeps the grid's sampling maps for the
    next frame.

    Sample ``j`` of a cell sits where pixel ``inset + j`` of the skin's template would be once the
    template is stretched to the grid's pitch.
    """
    import cv2

    state = ReaderState() if state is None else state
    sx, sy = cell_scale(grid, skin)
    step = sample_step(skin) if step is None else step
    bank = template_bank(skin, sx, sy, step)
    n = grid.rows * grid.cols
    if out is None:
        out = np.empty((n, bank.h * bank.w * 3), np.uint8)
    frame = frame_bgr if frame_bgr.flags.c_contiguous else np.ascontiguousarray(frame_bgr)
    fast = _whole_pixel_block(frame[:, :, :3], grid, skin, sx, sy)
    if fast is not None:
        # Scale 1 on a whole-pixel lattice: the cells are a reshape of one crop, no resampling.
        i = skin.inset
        k = step
        cells = fast[:, i : skin.pitch_y - i : k, :, i : skin.pitch_x - i : k]
        out.reshape(grid.rows, grid.cols, bank.h, bank.w, 3)[...] = cells.transpose(0, 2, 1, 3, 4)
        return out
    maps = _sampling_maps(grid, skin, (sx, sy), (bank.h, bank.w), step, state)
    # One remap straight into cell-major order (map row i holds cell i's sample points), so no
    # reshuffle follows; a BGRA frame (mss) is remapped as it is and its alpha dropped after.
    channels = frame.shape[2]
    cells = out.reshape(n, bank.h * bank.w, 3)
    dst = cells if channels == 3 else state.scratch("bgra", (n, bank.h * bank.w, channels))
    # OpenCV remaps at most SHRT_MAX rows at once (a grid of tiny cells over a big picture).
    for i in range(0, n, REMAP_ROWS):
        cv2.remap(
            frame,
            maps[0][i : i + REMAP_ROWS],
            None if maps[1] is None else maps[1][i : i + REMAP_ROWS],  # type: ignore[arg-type]
            cv2.INTER_LINEAR if maps[1] is not None else cv2.INTER_NEAREST,
            dst=dst[i : i + REMAP_ROWS],
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(0, 0, 0, 0),
        )
    if channels != 3:  # one SIMD pass, where a strided numpy copy costs several times more
        cv2.cvtColor(dst, cv2.COLOR_BGRA2BGR, dst=cells)
    return out


def _sampling_maps(
    grid: Grid,
    skin: Skin,
    scale: tuple[float, float],
    size: tuple[int, int],
    k: int,
    state: ReaderState,
) -> tuple[np.ndarray, np.ndarray | None]:
    """:func:`cv2.remap` maps ``[cells, h * w]`` of the grid's sample points, built once per grid
    (the same grid is read frame after frame); the second map is None when every point is a
    whole pixel (an uneven lattice of whole-pixel cells at scale 1): a nearest-pixel gather
    is then the same picture at a third of the cost."""
    import cv2

    (sx, sy), (h, w) = scale, size
    key = (grid, skin.inset, round(sx, 6), round(sy, 6), h, w, k)
    maps = state.maps.get(key)
    if maps is None:
        lefts = np.array([grid.col_left(x) for x in range(grid.cols)])
        tops = np.array([grid.row_top(y) for y in range(grid.rows)])
        off_x, off_y = sample_offsets(skin, (sx, sy), (h, w), k)
        xs = lefts[:, None] + off_x  # [cols, w]
        ys = tops[:, None] + off_y  # [rows, h]
        whole = bool(np.all(np.abs(xs - np.round(xs)) < 1e-3) and
                     np.all(np.abs(ys - np.round(ys)) < 1e-3))  # fmt: skip
        # Map row r * cols + c holds cell (c, r)'s points, h rows of w: filled by broadcasting.
        shape = (grid.rows, grid.cols, h, w)
        if whole:
            map1 = np.empty((grid.rows * grid.cols, h * w, 2), np.int16)
            points = map1.reshape(*shape, 2)
            points[..., 0] = np.round(xs)[None, :, None, :]
            points[..., 1] = np.round(ys)[:, None, :, None]
            maps = (map1, None)
        else:
            fx = np.empty((grid.rows * grid.cols, h * w), np.float32)
            fy = np.empty_like(fx)
            fx.reshape(shape)[...] = xs[None, :, None, :]
            fy.reshape(shape)[...] = ys[:, None, :, None]
            maps = cv2.convertMaps(fx, fy, cv2.CV_16SC2)
        state.remember_maps(key, maps)
    return maps


def sample_offsets(
    skin: Skin, scale: tuple[float, float], size: tuple[int, int], step: int
) -> tuple[np.ndarray, np.ndarray]:
    """Where a cell's samples sit, from its left and top edges (frame px): sample ``j`` where
    pixel ``inset + j * step`` of the skin's template would be once stretched by ``scale``
    (pixel centres matched); ``size`` is the bank's ``(h, w)``.

    >>> skin = type("S", (), {"inset": 1})()
    >>> [a.tolist() for a in sample_offsets(skin, (2.0, 1.0), (1, 2), 1)]
    [[2.5, 4.5], [1.0]]
    """
    (sx, sy), (h, w) = scale, size
    xs = (skin.inset + np.arange(w) * step + 0.5) * sx - 0.5
    ys = (skin.inset + np.arange(h) * step + 0.5) * sy - 0.5
    return xs, ys


def _whole_pixel_block(
    frame: np.ndarray, grid: Grid, skin: Skin, sx: float, sy: float
) -> np.ndarray | None:
    """The board as a ``[rows, pitch_y, cols, pitch_x, 3]`` view when cells sit on whole pixels
    at scale 1 inside the frame, else None."""
    if abs(sx - 1) > 1e-9 or abs(sy - 1) > 1e-9 or grid.col_offsets or grid.row_offsets:
        return None
    left, top = round(grid.left), round(grid.top)
    if abs(grid.left - left) > 1e-9 or abs(grid.top - top) > 1e-9:
        return None
    pw, ph = skin.pitch_x, skin.pitch_y
    if abs(grid.pitch_x - pw) > 1e-9 or abs(grid.pitch_y - ph) > 1e-9:
        return None
    right, bottom = left + grid.cols * pw, top + grid.rows * ph
    if left < 0 or top < 0 or right > frame.shape[1] or bottom > frame.shape[0]:
        return None
    return frame[top:bottom, left:right].reshape(grid.rows, ph, grid.cols, pw, 3)


def classify_samples(
    samples: np.ndarray,
    skin: Skin,
    sx: float = 1.0,
    sy: float = 1.0,
    lookup: bool = True,
    step: int | None = None,
    state: ReaderState | None = None,
    bank: TemplateBank | None = None,
    runner_up: bool = False,
) -> tuple[np.ndarray, ...]:
    """Classify sampled cells ``[N, D]``: ``(class index, confidence, margin, distance)``, each
    ``[N]``; with ``runner_up`` the runner-up class's index last (-1 for a cell looked up).

    Games that draw cells pixel-exactly repeat a few pictures: with ``lookup``, a cell identical
    to a template (at scale 1) is looked up; only the others are compared. ``step``: as the
    samples were taken (:func:`sample_cells`); ``state`` lends the work arrays; ``bank``: the
    templates to compare with (default: the skin's at this scale).
    """
    state = ReaderState() if state is None else state
    bank = template_bank(skin, sx, sy, step) if bank is None else bank
    exact = lookup and abs(sx - 1) < 1e-3 and abs(sy - 1) < 1e-3
    table = _exact_table(skin, sample_step(skin) if step is None else step) if exact else {}
    if not table:
        return score_cells(samples, bank, state, skin.min_confidence, runner_up=runner_up)
    hits = [table.get(row.tobytes()) for row in samples]
    missing = np.array([hit is None for hit in hits])
    n = samples.shape[0]
    win, conf, margin, dist = (np.zeros(n, np.intp), np.ones(n), np.zeros(n), np.zeros(n))
    second = np.full(n, -1, np.intp)
    for i, hit in enumerate(hits):
        if hit is not None:
            win[i], margin[i] = hit
    if missing.any():
        part = score_cells(samples[missing], bank, state, skin.min_confidence, runner_up=runner_up)
        win[missing], conf[missing], margin[missing], dist[missing] = part[:4]
        if runner_up:
            second[missing] = part[4]
    return (win, conf, margin, dist, second) if runner_up else (win, conf, margin, dist)


@lru_cache(maxsize=KEPT_BANKS)
def _exact_table(skin: Skin, step: int) -> dict[bytes, tuple[int, float]]:
    """Template bytes at scale 1 -> (class index, margin): the margin of a cell identical to the
    template is 1 minus its best robust score against any other class (conservative).
    Memoised per skin value and step."""
    bank = template_bank(skin, 1.0, 1.0, step)
    class_of = np.repeat(np.arange(len(bank.classes)), np.diff(bank.starts))
    pixels = bank.mask.sum() / 3
    table = {}
    for k, row in enumerate(bank.u8):
        far = (np.abs(bank.u8.astype(np.int16) - row.astype(np.int16)) > bank.tol) & bank.mask
        far = far.reshape(len(bank.u8), -1, 3).any(axis=2)
        sim = 1.0 - far.sum(axis=1) / pixels
        others = sim[class_of != class_of[k]]
        table[row.tobytes()] = (
            int(class_of[k]),
            float(1.0 - others.max()) if others.size else 1.0,
        )
    return table


def score_cells(
    samples: np.ndarray,
    bank: TemplateBank,
    state: ReaderState,
    recheck_below: float | None = None,
    widen: np.ndarray | None = None,
    runner_up: bool = False,
) -> tuple[np.ndarray, ...]:
    """The full comparison: SSD ranking of every class, robust score of the nearest two:
    ``(class index, confidence, margin, distance)``, each ``[N]``, and with ``runner_up`` the
    other candidate class's index last.

    ``widen``: each cell's own least tolerance ``[N, D]`` (uint8) over the bank's, as
    neighbours lend it (:func:`~bot.reading.lossy.neighbour_bleed`). With ``recheck_below``,
    a cell whose nearest variant (by SSD) of a candidate class scores below it is scored
    against every variant of its two candidate classes (see :func:`_best_variants`)."""
    import cv2

    n = samples.shape[0]
    # The ranking picks the two candidate classes the robust score then decides between.
    ranked = samples[:, ::RANK_STEP]
    cross, norms = cross_products(ranked, bank.f32, state)
    d2 = norms[:, None] + bank.sq[None, :] - 2.0 * cross
    groups = len(bank.classes)
    # Each class's nearest variant (most classes have one: only those with more are searched).
    class_d2 = np.minimum.reduceat(d2, bank.starts[:-1], axis=1)
    class_arg = np.repeat(bank.starts[None, :-1], n, axis=0)
    for g in np.nonzero(np.diff(bank.starts) > 1)[0]:
        class_arg[:, g] += d2[:, bank.starts[g] : bank.starts[g + 1]].argmin(axis=1)
    # The two nearest classes (one when the skin has a single class).
    top = np.argpartition(class_d2, 1, axis=1)[:, :2] if groups > 1 else np.zeros((n, 1), np.intp)
    rows = np.arange(n)[:, None]
    chosen = class_arg[rows, top]  # [N, 2] template row of each candidate class
    m, d = top.shape[1], samples.shape[1]
    # Candidate j of every cell: its template, then (in place) the cell's difference from it.
    diff = state.scratch("diff", (m, n, d))
    # mode="clip" (the rows are valid anyway): with the default "raise", numpy buffers ``out``
    # whole and copies it again, four times the cost of the gather itself.
    np.take(bank.u8, chosen.T, axis=0, out=diff, mode="clip")
    differences_in_place(samples, diff)
    judged = bank.detail_count.any()
    absent = None
    if judged and bank.by_presence:
        away = state.scratch("common", (m, n, d))
        np.take(bank.common, chosen.T, axis=0, out=away, mode="clip")
        differences_in_place(samples, away)
        absent = absent_pixels(diff.reshape(m * n, d), away.reshape(m * n, d))
    if bank.tol_all is not None and widen is None:  # one tolerance everywhere: no gather
        far = far_pixel_map(diff.reshape(m * n, d), bank.tol_all)
    else:
        tol = state.scratch("tol", (m, n, d))
        np.take(bank.tol, chosen.T, axis=0, out=tol, mode="clip")
        if widen is not None:
            np.maximum(tol, widen[None], out=tol)
        far = far_pixel_map(diff.reshape(m * n, d), tol.reshape(m * n, d))
    off = cv2.reduce(far, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[:, 0]
    score = 1.0 - off.reshape(m, n).T / (bank.mask.sum() / 3)  # [N, m]
    if judged:
        detail = state.scratch("detail", (m, n, d // 3))
        np.take(bank.detail, chosen.T, axis=0, out=detail, mode="clip")
        count = bank.detail_count[chosen.T].reshape(-1)
        missed = far if absent is None else absent
        np.minimum(score, detail_cap(missed, detail.reshape(m * n, -1), count)
                   .reshape(m, n).T, out=score)  # fmt: skip
    if recheck_below is not None:
        _best_variants(samples, bank, top, score, recheck_below, widen)
    rms = np.sqrt(np.maximum(class_d2, 0) / ranked.shape[1])
    if groups == 1:
        best = np.minimum(score[:, 0], _shown(samples, bank, chosen[:, 0], widen, state))
        alone = (top[:, 0], best, best, rms[:, 0])
        return (*alone, top[:, 0]) if runner_up else alone
    # Winner by robust score; the SSD ranking breaks ties.
    second_better = (score[:, 1] > score[:, 0]) | (
        (score[:, 1] == score[:, 0])
        & (class_d2[rows[:, 0], top[:, 1]] < class_d2[rows[:, 0], top[:, 0]])
    )
    win = np.where(second_better, top[:, 1], top[:, 0])
    best = np.where(second_better, score[:, 1], score[:, 0])
    best = np.minimum(
        best, _shown(samples, bank, np.where(second_better, *chosen.T[::-1]), widen, state)
    )
    other = np.where(second_better, score[:, 0], score[:, 1])
    scored = (win, best, best - other, rms[rows[:, 0], win])
    return (*scored, np.where(second_better, top[:, 0], top[:, 1])) if runner_up else scored


def _shown(
    samples: np.ndarray,
    bank: TemplateBank,
    winners: np.ndarray,
    widen: np.ndarray | None,
    state: ReaderState,
) -> np.ndarray:
    """The most each cell may score as its winning template ``winners`` (rows of ``bank``)
    for what it shows (:func:`~bot.reading.detail.shown_cap`): never the choice between two
    classes (a pointer's ink is no more one's than the other's), only how sure the winner is."""
    import cv2

    if bank.ink_free is None:
        return np.ones(len(winners))
    to_common = state.scratch("to_common", samples.shape)
    np.take(bank.common, winners, axis=0, out=to_common, mode="clip")
    cv2.absdiff(samples, to_common, dst=to_common)
    return shown_cap(to_common, bank.glyph_near[winners], bank.glyph_count[winners],
                     bank.ink_free[winners], int(bank.mask.sum() // 3), widen,
                     bank.ink_levels)  # fmt: skip


def _best_variants(
    samples: np.ndarray,
    bank: TemplateBank,
    top: np.ndarray,
    score: np.ndarray,
    below: float,
    widen: np.ndarray | None = None,
) -> None:
    """Raise ``score`` ``[N, m]`` (of the candidate classes ``top``) to the best robust score
    of any variant of each class, for the cells whose nearest variant by SSD scores below
    ``below`` (in place); ``widen``: each cell's own least tolerance, as in
    :func:`score_cells`.

    The SSD ranking only picks what the robust score decides between. Among a class's variants
    the nearest by SSD is not always the one that matches: cells drawn semi-transparent over a
    shaded background (KMines' default theme) differ from their variants mostly by the
    background's brightness, a difference well within the tolerance that the SSD weighs over
    every pixel, while a few pixels of an edge drawn after a neighbour (beyond the tolerance)
    match only the variant cut beside a neighbour of the same kind.
    """
    counts = np.diff(bank.starts)
    pixels = bank.mask.sum() / 3
    weak = (score < below) & (counts[top] > 1)  # [N, m]
    # One class at a time: its weak cells against all its variants in one comparison.
    for g in np.unique(top[weak]):
        cells, slots = np.nonzero(weak & (top == g))
        lo, hi = int(bank.starts[g]), int(bank.starts[g + 1])
        best = best_variant_scores(
            samples[cells], bank, lo, hi, None if widen is None else widen[cells], pixels
        )
        score[cells, slots] = np.maximum(score[cells, slots], best)


def cross_products(
    ranked: np.ndarray, templates: np.ndarray, state: ReaderState, name: str = "ranked"
) -> tuple[np.ndarray, ...]:
    """``(cells @ templates, squared norm of each cell)`` in float32; ``ranked`` [N, D] uint8,
    ``templates`` [D, K].

    One matrix product per block of 64 cells: the blocks stay in the cache, and it is three to
    four times faster than a matrix-vector product per template. With big cells (GNOME Mines'
    33 px) even a block is big enough for the BLAS library to use its thread pool, which on a
    busy machine costs more than it gains: ``minebot`` runs BLAS on one thread (``bot.cli``).
    """
    n = ranked.shape[0]
    cross = np.empty((n, templates.shape[1]), np.float32)
    norms = np.empty(n, np.float32)
    block = state.scratch(name, (min(n, RANK_BLOCK), ranked.shape[1]), np.float32)
    for i in range(0, n, RANK_BLOCK):
        part = block[: min(RANK_BLOCK, n - i)]
        np.copyto(part, ranked[i : i + RANK_BLOCK], casting="unsafe")
        np.matmul(part, templates, out=cross[i : i + len(part)])
        norms[i : i + len(part)] = np.einsum("ij,ij->i", part, part)
    return cross, norms


def skin_tolerance(skin: Skin) -> int:
    """Largest per-channel difference that still counts as the same pixel."""
    return skin.tolerance


def reads_clearly(confidence: np.ndarray, margin: np.ndarray, skin: Skin) -> np.ndarray:
    """Which cells read clearly by ``skin``'s rules: its confidence and margin, each at least.

    >>> from bot.reading.skins import find_skin
    >>> skin = find_skin("winmine")
    >>> reads_clearly(np.array([1.0, 1.0, 0.5]), np.array([0.5, 0.0, 0.5]), skin).tolist()
    [True, False, False]
    """
    return (confidence >= skin.min_confidence) & (margin >= skin.min_margin)
