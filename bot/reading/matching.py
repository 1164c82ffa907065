"""Comparing a grid's cells with a skin's templates: the sampling of every cell into one array,
the template banks, and the two-step comparison (see :mod:`bot.reading.classify`, which reads a
whole grid with them and adapts to the screen's colours).

Template banks are a pure function of the skin and scale: they are memoised per skin value.
Sampling maps and work arrays live in the caller's :class:`~bot.reading.state.ReaderState`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from bot.reading.skins import CLASS_CHARS, Skin
from bot.reading.state import LastFrame, ReaderState

if TYPE_CHECKING:
    from bot.reading.grid import Grid


#: How many cells the SSD ranking multiplies at a time. Blocks this small stay in the cache,
#: and numpy's BLAS runs them on one thread: a BLAS thread pool woken for every frame on a busy
#: two-core machine made the product ten times slower (cv2.gemm's threads likewise).
RANK_BLOCK = 64


#: Every how many sampled values the SSD ranking looks at. 1 (all): a sparser ranking is faster
#: but can miss classes that differ only in a thin line, and the ranking must never drop the
#: right class from the two the robust score decides between.
RANK_STEP = 1


@dataclass(frozen=True)
class TemplateBank:
    """A skin's templates cut to the sampled part of a cell and flattened, ready to compare.

    Templates are grouped by class (``starts[g]:starts[g+1]`` are the variants of
    ``classes[g]``)."""

    classes: tuple[str, ...]
    chars: np.ndarray  # [G] board character of each class
    starts: np.ndarray  # [G + 1] first template row of each class
    u8: np.ndarray  # [K, D] uint8, D = h * w * 3
    f32: np.ndarray  # [D / RANK_STEP, K] float32 (templates as columns), for the ranking
    sq: np.ndarray  # [K] squared norms
    tol: np.ndarray  # [K, D] uint8: largest difference that still counts as the same pixel
    #: (255 outside ``mask``)
    mask: np.ndarray  # [D] bool: the samples the robust score counts
    tol_all: int | None  # the tolerance of every sample of every template, if they are all one
    h: int
    w: int


def template_bank(
    skin: Skin,
    sx: float = 1.0,
    sy: float = 1.0,
    step: int | None = None,
    repeated: bool = True,
) -> TemplateBank:
    """The skin's templates as a :class:`TemplateBank`, as they look at scale ``(sx, sy)``.

    At scale 1 the templates are used as they are. At other scales each template is stretched
    the way a desktop scaler or a game drawing bigger cells would (smoothly) and then sampled at
    the same points as the cells, so the blur of the edges is in the templates too; with
    ``repeated`` also as a pixel-repeating scaler draws them (see :func:`nearest_phases`). Built
    once per skin and scale (memoised: the same skin value, scale and step give the same bank).
    """
    step = sample_step(skin) if step is None else step
    return _template_bank(skin, round(sx, 3), round(sy, 3), step, repeated)


#: How many (skin, scale, step) template banks are memoised (the locator tries a few scales of
#: each skin; the reader then uses one).
KEPT_BANKS = 64


@lru_cache(maxsize=KEPT_BANKS)
def _template_bank(
    skin: Skin, sx: float, sy: float, step: int, repeated: bool = True
) -> TemplateBank:
    import cv2

    i = skin.inset
    h, w = len(range(0, skin.pitch_y - 2 * i, step)), len(range(0, skin.pitch_x - 2 * i, step))
    exact = abs(sx - 1) < 1e-3 and abs(sy - 1) < 1e-3
    by_class: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {}
    images = list(skin.variants)
    if not exact:
        # A game that draws each cell size itself (skin.json ``drawn_sizes``): the cells drawn
        # at the size nearest this one, stretched the rest of the way, are variants too (the
        # skin's own images stretched stay: a desktop scaler stretches them so).
        images += skin.drawn_variants(sx * skin.pitch_x, sy * skin.pitch_y)
    # A desktop scaler may repeat pixels instead of smoothing (edges kept sharp): the skin's
    # own images so stretched, at each phase a cell can have, are variants too.
    phases = nearest_phases(sx, sy) if repeated and not exact else []
    own = len(skin.variants)
    for k, (cls, image) in enumerate(images):
        if exact:
            inner = image[i : skin.pitch_y - i : step, i : skin.pitch_x - i : step]
            tol = np.full(inner.shape, skin.tolerance, np.uint8)
            by_class.setdefault(cls, []).append((inner.reshape(-1), tol.reshape(-1)))
            continue
        for phase in [None, *phases] if k < own else [None]:
            # Smoothing moves edge pixels by up to the local contrast: tolerate that much
            # more there, and stay strict on flat areas (which keep their exact colour).
            inner = _stretched_sample(image, skin, sx, sy, step, phase)
            kernel = np.ones((3, 3), np.uint8)
            grad = cv2.morphologyEx(inner, cv2.MORPH_GRADIENT, kernel)
            tol = np.clip(grad.astype(np.int16) // 4 + skin.tolerance, 0, 255).astype(np.uint8)
            by_class.setdefault(cls, []).append((inner.reshape(-1), tol.reshape(-1)))
    classes = tuple(by_class)
    rows = [t for cls in classes for t in by_class[cls]]
    starts = np.cumsum([0] + [len(by_class[c]) for c in classes])
    u8 = np.stack([t for t, _ in rows]).astype(np.uint8)
    f32 = np.ascontiguousarray(u8[:, ::RANK_STEP], dtype=np.float32)
    mask = np.ones((h, w, 3), bool)
    if not exact and _ignores_ring(skin):
        # Cells whose edges depend on their neighbours: the blended outer ring is not counted.
        mask[0], mask[-1], mask[:, 0], mask[:, -1] = False, False, False, False
    # Samples outside the mask may differ by anything: a tolerance of 255.
    tol = np.stack([t for _, t in rows])
    tol[:, ~mask.reshape(-1)] = 255
    bank = TemplateBank(
        classes=classes,
        chars=np.array([CLASS_CHARS[c] for c in classes]),
        starts=starts,
        u8=u8,
        f32=np.ascontiguousarray(f32.T),
        sq=(f32 * f32).sum(axis=1),
        tol=tol,
        tol_all=int(tol.flat[0]) if (tol == tol.flat[0]).all() else None,
        mask=mask.reshape(-1),
        h=h,
        w=w,
    )
    return bank


def sample_step(skin: Skin) -> int:
    """skin.json ``match.sample_step``: compare every n-th pixel of a cell each way (big cells
    need not be compared pixel by pixel; default 1)."""
    return max(1, int(skin.meta.get("match", {}).get("sample_step", 1)))


def _ignores_ring(skin: Skin) -> bool:
    """skin.json ``match.scaled_edges``: ``"neighbour"`` when a cell's outer pixels depend on
    its neighbours (not counted once stretched), else ``"tiled"`` (default)."""
    return skin.meta.get("match", {}).get("scaled_edges", "tiled") == "neighbour"


#: Scalings whose pixel-repeating pattern a template is stretched at every phase of: those of
#: a whole number of quarters (125 %, 150 %, 175 %, 200 %, 250 %...), at most this many
#: phases each way (the pattern of a scaling p / q repeats every q source pixels).
MOST_PHASES = 4


def nearest_phases(sx: float, sy: float) -> list[tuple[int, int]]:
    """The phases ``(a, b)`` (source pixels before a cell, modulo the scaling's period each
    way) at which a pixel-repeating scaler can draw a cell at scale ``(sx, sy)``; none when a
    scale is under 1.2 or not a whole number of quarters.

    >>> nearest_phases(2.0, 2.0), len(nearest_phases(1.25, 1.25)), nearest_phases(1.1, 1.1)
    ([(0, 0)], 16, [])
    """
    periods = []
    for scale in (sx, sy):
        quarters = scale * MOST_PHASES
        if scale < 1.2 or abs(quarters - round(quarters)) > 4e-3:
            return []
        periods.append(MOST_PHASES // int(np.gcd(round(quarters), MOST_PHASES)))
    return [(a, b) for b in range(periods[1]) for a in range(periods[0])]


def _stretched_sample(
    image: np.ndarray,
    skin: Skin,
    sx: float,
    sy: float,
    step: int,
    phase: tuple[int, int] | None = None,
) -> np.ndarray:
    """``image`` (one cell at the skin's pitch, or at a drawn size) stretched to the skin's pitch
    times ``(sx, sy)`` and sampled where :func:`sample_cells` samples: smoothly, or with a
    ``phase`` (see :func:`nearest_phases`) each pixel repeated, as a scaler that started
    ``phase`` source pixels before the cell's column and row draws it."""
    import cv2

    h0, w0 = image.shape[:2]
    if phase is not None:
        # Each pixel of a 3x3 tiling's stretch shows the source pixel it falls in.
        a, b = phase
        size = (int(np.ceil((3 * w0 + a) * sx)), int(np.ceil((3 * h0 + b) * sy)))
        src_x = np.clip(np.floor(np.arange(size[0]) / sx) - a, 0, 3 * w0 - 1)
        src_y = np.clip(np.floor(np.arange(size[1]) / sy) - b, 0, 3 * h0 - 1)
        big = np.tile(image, (3, 3, 1))[src_y.astype(np.intp)[:, None], src_x.astype(np.intp)]
        return _sampled(big, skin, sx, sy, step, ((w0 + a) * sx, (h0 + b) * sy))
    shrink = min(skin.pitch_x * sx / w0, skin.pitch_y * sy / h0) < 1
    interp = cv2.INTER_AREA if shrink else cv2.INTER_LINEAR
    if _ignores_ring(skin):
        size = (max(2, round(skin.pitch_x * sx)), max(2, round(skin.pitch_y * sy)))
        return _sampled(cv2.resize(image, size, interpolation=interp), skin, sx, sy, step, (0, 0))
    # Stretch a 3x3 tiling, so the cell's edges blend with a neighbour as on the screen.
    size = (max(6, round(3 * skin.pitch_x * sx)), max(6, round(3 * skin.pitch_y * sy)))
    big = cv2.resize(np.tile(image, (3, 3, 1)), size, interpolation=interp)
    # Sampled from where the middle copy starts.
    return _sampled(big, skin, sx, sy, step, (skin.pitch_x * sx, skin.pitch_y * sy))


def _sampled(
    big: np.ndarray, skin: Skin, sx: float, sy: float, step: int, origin: tuple[float, float]
) -> np.ndarray:
    """The cell of a stretched picture ``big`` whose top-left corner is at ``origin``, sampled
    where :func:`sample_cells` samples a cell at scale ``(sx, sy)``."""
    import cv2

    cols = np.arange(0, skin.pitch_x - 2 * skin.inset, step)
    rows = np.arange(0, skin.pitch_y - 2 * skin.inset, step)
    w, h = cols.size, rows.size
    jx = origin[0] + (skin.inset + cols + 0.5) * sx - 0.5
    jy = origin[1] + (skin.inset + rows + 0.5) * sy - 0.5
    map_x = np.broadcast_to(jx[None, :], (h, w)).astype(np.float32)
    map_y = np.broadcast_to(jy[:, None], (h, w)).astype(np.float32)
    return cv2.remap(big, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def cell_scale(grid: Grid, skin: Skin) -> tuple[float, float]:
    """How much bigger than the skin's images the grid's cells are drawn.

    On an uneven lattice (``cell.uneven_px``) cells are whole pixels, some one narrower than the
    rest: the wider size is the drawn one (the narrower cells just lose a pixel of their gap).
    """
    px, py = grid.pitch_x, grid.pitch_y
    if skin.uneven_px:
        px, py = float(np.ceil(px - 1e-6)), float(np.ceil(py - 1e-6))
    return px / skin.pitch_x, py / skin.pitch_y


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
    cv2.remap(
        frame,
        maps[0],
        maps[1],  # type: ignore[arg-type]  # None (one map of points) is what OpenCV expects
        cv2.INTER_LINEAR if maps[1] is not None else cv2.INTER_NEAREST,
        dst=dst,
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
        xs = lefts[:, None] + ((skin.inset + np.arange(w) * k + 0.5) * sx - 0.5)  # [cols, w]
        ys = tops[:, None] + ((skin.inset + np.arange(h) * k + 0.5) * sy - 0.5)  # [rows, h]
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
) -> tuple[np.ndarray, ...]:
    """Classify sampled cells ``[N, D]``: ``(class index, confidence, margin, distance)``, each
    ``[N]``.

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
        return score_cells(samples, bank, state)
    hits = [table.get(row.tobytes()) for row in samples]
    missing = np.array([hit is None for hit in hits])
    n = samples.shape[0]
    win, conf, margin, dist = (np.zeros(n, np.intp), np.ones(n), np.zeros(n), np.zeros(n))
    for i, hit in enumerate(hits):
        if hit is not None:
            win[i], margin[i] = hit
    if missing.any():
        part = score_cells(samples[missing], bank, state)
        win[missing], conf[missing], margin[missing], dist[missing] = part
    return win, conf, margin, dist


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
    samples: np.ndarray, bank: TemplateBank, state: ReaderState
) -> tuple[np.ndarray, ...]:
    """The full comparison: SSD ranking of every class, robust score of the nearest two."""
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
    np.take(bank.u8, chosen.T, axis=0, out=diff)
    for j in range(m):
        cv2.absdiff(samples, diff[j], dst=diff[j])
    if bank.tol_all is not None:  # one tolerance everywhere: no per-sample gather
        off = _far_pixels(diff.reshape(m * n, d), bank.tol_all)
    else:
        tol = state.scratch("tol", (m, n, d))
        np.take(bank.tol, chosen.T, axis=0, out=tol)
        off = _far_pixels(diff.reshape(m * n, d), tol.reshape(m * n, d))
    score = 1.0 - off.reshape(m, n).T / (bank.mask.sum() / 3)  # [N, m]
    rms = np.sqrt(np.maximum(class_d2, 0) / ranked.shape[1])
    if groups == 1:
        return top[:, 0], score[:, 0], score[:, 0], rms[:, 0]
    # Winner by robust score; the SSD ranking breaks ties.
    second_better = (score[:, 1] > score[:, 0]) | (
        (score[:, 1] == score[:, 0])
        & (class_d2[rows[:, 0], top[:, 1]] < class_d2[rows[:, 0], top[:, 0]])
    )
    win = np.where(second_better, top[:, 1], top[:, 0])
    best = np.where(second_better, score[:, 1], score[:, 0])
    other = np.where(second_better, score[:, 0], score[:, 1])
    return win, best, best - other, rms[rows[:, 0], win]


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


def _far_pixels(diff: np.ndarray, tol: np.ndarray | int) -> np.ndarray:
    """Per row of ``diff`` ``[M, P * 3]`` (BGR samples), how many pixels have a channel off by
    more than ``tol`` (an array like ``diff`` or one number; masked samples carry a tolerance
    of 255, so they never count). ``diff`` is overwritten.

    >>> diff = np.array([[0, 9, 0, 3, 3, 3], [255, 0, 0, 0, 0, 0]], np.uint8)
    >>> _far_pixels(diff.copy(), np.full(diff.shape, 4, np.uint8)).tolist()
    [1, 1]
    >>> _far_pixels(diff, 4).tolist()
    [1, 1]
    """
    import cv2

    # OpenCV, not numpy: each step is one pass (numpy's strided per-channel views cost 4x).
    # A grey conversion of the 0/255 masks is nonzero exactly where some channel is (every
    # channel has a positive weight), so it is the "any channel" of each pixel.
    m, d = diff.shape
    if isinstance(tol, int):
        cv2.threshold(diff, tol, 255, cv2.THRESH_BINARY, dst=diff)
    else:
        cv2.compare(diff, tol, cv2.CMP_GT, dst=diff)
    pixel = cv2.cvtColor(diff.reshape(m, d // 3, 3), cv2.COLOR_BGR2GRAY)
    cv2.threshold(pixel, 0, 1, cv2.THRESH_BINARY, dst=pixel)
    return cv2.reduce(pixel, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[:, 0]


def skin_tolerance(skin: Skin) -> int:
    """Largest per-channel difference that still counts as the same pixel."""
    return skin.tolerance


def classify_changed_cells(
    samples: np.ndarray,
    key: object,
    classify: Callable[[np.ndarray], tuple[np.ndarray, ...]],
    state: ReaderState,
) -> tuple[np.ndarray, ...]:
    """``classify(samples)``, reusing the results of the last call with the same ``key`` (skin,
    grid, sampling) for the cells whose samples have not changed since: a game's window is read
    frame after frame and between two frames most cells stay as they were. The same samples
    always give the same result, so this changes nothing but the time."""
    import cv2

    last = state.last
    if last is not None and last.key == key and last.samples.shape == samples.shape:
        delta = state.scratch("delta", samples.shape)
        cv2.absdiff(samples, last.samples, dst=delta)
        changed = cv2.reduce(delta, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[:, 0] > 0
        changed_cells: np.ndarray | None = changed
        if changed.all():
            results = classify(samples)  # no copy of the cells to pick the changed ones
        else:
            results = tuple(r.copy() for r in last.results)
            if changed.any():
                for old, new in zip(results, classify(samples[changed]), strict=True):
                    old[changed] = new
        np.copyto(last.samples, samples)
        kept = last.samples
    else:
        results = classify(samples)
        kept = samples.copy()
        changed_cells = None
    state.last = LastFrame(key, kept, tuple(r.copy() for r in results), changed_cells)
    return results
