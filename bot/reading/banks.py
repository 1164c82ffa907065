"""Template banks: a skin's templates as the cells of a grid are sampled, stretched to the
grid's scale the way a desktop scaler or a game drawing bigger cells would (smoothly, or with
pixels repeated), ready to compare (see :mod:`bot.reading.matching`).

Banks are a pure function of the skin, scale and sampling step: they are memoised per skin value.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from bot.reading.detail import (
    BGR_INK,
    MIN_DETAIL_SHARE,
    detail_pixels,
    glyph_pixels,
    ink_free_pixels,
)
from bot.reading.nearest_scaling import nearest_phases, repeated_part
from bot.reading.skins import CLASS_CHARS, Skin

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
    #: [K, D / 3] uint8, 1 where a counted pixel of the template is more than its tolerance
    #: from the template's commonest colour: where a flat patch of that colour cannot match it
    #: (:func:`detail_pixels`).
    detail: np.ndarray
    #: [K] how many detail pixels each template has; 0 where too few to judge by
    #: (:data:`MIN_DETAIL_SHARE`).
    detail_count: np.ndarray
    #: [K, D] each template's commonest colour, in every pixel (the colour space of ``u8``).
    common: np.ndarray
    #: [K, D / 3] uint8, where a cell's ink shows the template's glyph, and [K] how many
    #: pixels the glyph has (0: too few to judge by) (:func:`~bot.reading.detail.glyph_pixels`).
    glyph_near: np.ndarray
    glyph_count: np.ndarray
    #: [K, D / 3] uint8, where ink in a cell is none of the template's
    #: (:func:`~bot.reading.detail.ink_free_pixels`); None: a cell's ink is not judged.
    ink_free: np.ndarray | None
    #: What counts as ink in each channel of ``u8``'s colour space
    #: (:data:`~bot.reading.detail.BGR_INK`, or YCrCb's).
    ink_levels: tuple[int, ...] = BGR_INK
    #: Whether a detail pixel counts as shown when the cell is nearer the template there than
    #: the template's commonest colour (a bank whose tolerance was widened at edges, where a
    #: flat patch would pass within it), rather than when it is within the tolerance.
    by_presence: bool = False
    #: The same classes from the skin's own images alone, where the cells drawn at other sizes
    #: add variants (None: this bank is that), for learning a screen's tone curve
    #: (:func:`tone_fit_banks`).
    own: TemplateBank | None = None


def template_bank(
    skin: Skin,
    sx: float = 1.0,
    sy: float = 1.0,
    step: int | None = None,
    repeated: bool = True,
    sharp: bool = False,
) -> TemplateBank:
    """The skin's templates as a :class:`TemplateBank`, as they look at scale ``(sx, sy)``.

    At scale 1 the templates are used as they are. At other scales each template is stretched
    the way a desktop scaler or a game drawing bigger cells would (smoothly) and then sampled at
    the same points as the cells, so the blur of the edges is in the templates too; with
    ``repeated`` also as a pixel-repeating scaler draws them (see :func:`nearest_phases`). Built
    once per skin and scale (memoised: the same skin value, scale and step give the same bank).
    With ``sharp``, only the pixel-repeated stretches, each with the skin's own tolerance (a
    cell drawn so matches one exactly; a smoothed one matches none); only at the scales of
    :func:`nearest_phases`.
    """
    step = sample_step(skin) if step is None else step
    sx, sy = round(sx, 3), round(sy, 3)
    # Where a scaler repeating pixels draws nothing else, both banks are one (memoised once).
    phased = bool(_repeat_phases(skin, sx, sy, sharp)) or (
        not sharp and any(_scaled_phases(skin, sx, sy).values())
    )
    repeated = (repeated or sharp) and phased
    return _template_bank(skin, sx, sy, step, repeated, sharp)


def _scaled_phases(
    skin: Skin, sx: float, sy: float
) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """For each size the game draws (height, width) that a desktop scaling stretches to the
    skin's pitch times ``(sx, sy)`` (``Skin.scaled_sizes``), the phases a pixel-repeating
    scaler draws its cells at (:func:`nearest_phases`)."""
    px, py = skin.pitch_x * sx, skin.pitch_y * sy
    return {
        (z.pitch_y, z.pitch_x): nearest_phases(px / z.pitch_x, py / z.pitch_y)
        for z in skin.scaled_sizes(px, py)
    }


def _repeat_phases(skin: Skin, sx: float, sy: float, sharp: bool) -> list[tuple[int, int]]:
    """:func:`nearest_phases` of the skin's images at scale ``(sx, sy)``: spread over a pixel
    at scales of no whole number of quarters only for a game that draws its cells at one size
    (no ``drawn_sizes``, not grown with its window), whose every other pitch is a desktop
    scaler's; never for the ``sharp`` bank, whose stretches must match exactly."""
    fixed = not skin.scales_with_window and not skin.sizes
    return nearest_phases(sx, sy, spread=fixed and not sharp)


#: How many (skin, scale, step) template banks are memoised (the locator tries a few scales of
#: each skin; the reader then uses one).
KEPT_BANKS = 64


@lru_cache(maxsize=KEPT_BANKS)
def _template_bank(
    skin: Skin, sx: float, sy: float, step: int, repeated: bool = True, sharp: bool = False
) -> TemplateBank:
    import cv2

    i = skin.inset
    h, w = len(range(0, skin.pitch_y - 2 * i, step)), len(range(0, skin.pitch_x - 2 * i, step))
    exact = abs(sx - 1) < 1e-3 and abs(sy - 1) < 1e-3
    by_class: dict[str, list[tuple[np.ndarray, np.ndarray, bool]]] = {}
    images = list(skin.variants)
    own = len(images)  # images[:own] are the skin's own (pixel-repeated stretches too)
    mine = own  # images[:mine] make the bank of the skin's own images (tone_fit_banks)
    if not exact and not sharp and skin.stretch_nearest:
        # Images cut from the user's own screen at each size it shows: the nearest size's
        # stand for the cells (no desktop scaler stretches the skin's own ones as well).
        images = list(skin.nearest_at(sx * skin.pitch_x, sy * skin.pitch_y))
        images.sort(key=lambda v: v[1].shape[:2] != (skin.pitch_y, skin.pitch_x))
        own = sum(1 for _, i in images if i.shape[:2] == (skin.pitch_y, skin.pitch_x))
        mine = len(images)
    elif not exact and not sharp:
        # A game that draws each cell size itself (skin.json ``drawn_sizes``, ``gap_px``): the
        # cells as it draws them at this size, as near as the skin's images tell, are variants
        # too (the skin's own images stretched stay: a desktop scaler stretches them so).
        images += skin.drawn_at(sx * skin.pitch_x, sy * skin.pitch_y)
    # A desktop scaler may repeat pixels instead of smoothing (edges kept sharp): the skin's
    # own images so stretched, at each phase a cell can have, are variants too; and those of
    # a size the game draws that a desktop scaling stretched to this pitch, at theirs.
    phases = _repeat_phases(skin, sx, sy, sharp) if repeated and not exact else []
    scaled = _scaled_phases(skin, sx, sy) if repeated and not exact and not sharp else {}
    for k, (cls, image) in enumerate(images):
        if exact:
            inner = image[i : skin.pitch_y - i : step, i : skin.pitch_x - i : step]
            tol = np.full(inner.shape, skin.tolerance_of(cls), np.uint8)
            by_class.setdefault(cls, []).append((inner.reshape(-1), tol.reshape(-1), True))
            continue
        stretches = [] if sharp else [None]
        # An image cut at this very size (a skin stretching only the nearest size's) is the
        # cell as drawn: compared as strictly as the skin's own at its own size.
        as_cut = skin.stretch_nearest and _cut_at(image, skin.pitch_x * sx, skin.pitch_y * sy)
        own_phases = phases if k < own else scaled.get(image.shape[:2], [])
        drawn = [_stretched_sample(image, skin, sx, sy, step, phase)
                 for phase in stretches + own_phases]  # fmt: skip
        if k < own and not sharp:
            drawn += [_shifted_stretch(image, skin, sx, sy, step, start)
                      for start in _smooth_shifts(skin, sx, sy)]  # fmt: skip
        for inner in drawn:
            if sharp or as_cut:
                tol = np.full(inner.shape, skin.tolerance_of(cls), np.uint8)
                by_class.setdefault(cls, []).append((inner.reshape(-1), tol.reshape(-1), True))
                continue
            # Smoothing moves edge pixels by up to the local contrast: tolerate that much
            # more there, and stay strict on flat areas (which keep their exact colour).
            kernel = np.ones((3, 3), np.uint8)
            grad = cv2.morphologyEx(inner, cv2.MORPH_GRADIENT, kernel)
            tol = np.clip(grad.astype(np.int16) // 4 + skin.tolerance_of(cls), 0, 255)
            tol = tol.astype(np.uint8)
            by_class.setdefault(cls, []).append((inner.reshape(-1), tol.reshape(-1), k < mine))
    mask = np.ones((h, w, 3), bool)
    if not exact and _ignores_ring(skin):
        # Cells whose edges depend on their neighbours: the blended outer ring is not counted.
        mask[0], mask[-1], mask[:, 0], mask[:, -1] = False, False, False, False
    bank = _assembled({c: [(t, tol) for t, tol, _ in r] for c, r in by_class.items()}, mask)
    if all(mine for rows in by_class.values() for _, _, mine in rows):
        return bank
    own_rows = {c: [(t, tol) for t, tol, mine in r if mine] for c, r in by_class.items()}
    return replace(bank, own=_assembled({c: r for c, r in own_rows.items() if r}, mask))


def tone_fit_banks(bank: TemplateBank) -> tuple[TemplateBank, ...]:
    """The banks a screen's tone curve is learnt against, in turn: every image, then the skin's
    own alone where cells drawn at other sizes add to them. The cells a game draws at the size
    found fit its cells best (sgt-mines' 14 px tiles); but where they fit other classes' cells
    closely too, a class told from another by a tint lies too near it for a cell the screen
    shifted to be sure of either (GNOME Mines' 0 and 1 tiles at 46 px, 20 levels brighter)."""
    return (bank,) if bank.own is None else (bank, bank.own)


def _assembled(
    by_class: dict[str, list[tuple[np.ndarray, np.ndarray]]], mask: np.ndarray
) -> TemplateBank:
    """A bank of each class's ``(samples, tolerance)`` rows, ``mask`` the cell's counted
    samples (``[h, w, 3]``)."""
    h, w = mask.shape[:2]
    classes = tuple(by_class)
    rows = [t for cls in classes for t in by_class[cls]]
    starts = np.cumsum([0] + [len(by_class[c]) for c in classes])
    u8 = np.stack([t for t, _ in rows]).astype(np.uint8)
    f32 = np.ascontiguousarray(u8[:, ::RANK_STEP], dtype=np.float32)
    # Samples outside the mask may differ by anything: a tolerance of 255.
    tol = np.stack([t for _, t in rows])
    tol[:, ~mask.reshape(-1)] = 255
    detail, common = detail_pixels(u8, tol)
    counted = mask.reshape(-1, 3)[:, 0]
    count = detail.sum(axis=1, dtype=np.int32)
    count[count < MIN_DETAIL_SHARE * counted.sum()] = 0
    glyph_near, glyph_count = glyph_pixels(u8, common, detail, counted, h, w)
    return TemplateBank(
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
        detail=detail,
        detail_count=count,
        common=common,
        glyph_near=glyph_near,
        glyph_count=glyph_count,
        ink_free=ink_free_pixels(detail, counted, h, w),
    )


def sample_step(skin: Skin) -> int:
    """skin.json ``match.sample_step``: compare every n-th pixel of a cell each way (big cells
    need not be compared pixel by pixel; default 1)."""
    return max(1, int(skin.meta.get("match", {}).get("sample_step", 1)))


def _ignores_ring(skin: Skin) -> bool:
    """skin.json ``match.scaled_edges``: ``"neighbour"`` when a cell's outer pixels depend on
    its neighbours (not counted once stretched), else ``"tiled"`` (default)."""
    return skin.meta.get("match", {}).get("scaled_edges", "tiled") == "neighbour"


def _cut_at(image: np.ndarray, px: float, py: float) -> bool:
    """Whether ``image`` was cut at pitch ``(px, py)`` (to a tenth of a pixel)."""
    h, w = image.shape[:2]
    return abs(w - px) < 0.1 and abs(h - py) < 0.1


#: Where a smoothly stretched cell may start within a pixel, each way (see
#: :func:`_smooth_shifts`): a quarter of a pixel apart.
SMOOTH_SHIFTS = (0.0, 0.25, 0.5, 0.75)


def _smooth_shifts(skin: Skin, sx: float, sy: float) -> list[tuple[float, float]]:
    """The starts within a pixel ``(fx, fy)`` at which a game that draws one cell size only is
    also stretched smoothly, at a scale of no whole number of quarters: a scaler's bilinear
    stretch blurs a one-pixel line into one dark pixel or two half-dark ones by where the cell
    starts within a pixel (xdemineur's lines at 115 %), and the stretch at one start matches
    the cells at the others by only part of their lines."""
    fixed = not skin.scales_with_window and not skin.sizes and not _ignores_ring(skin)
    # At whole quarters the stretch at one start has done (the pattern repeats every few cells).
    if not fixed or nearest_phases(sx, sy) or min(sx, sy) < 1:
        return []
    return [(fx, fy) for fy in SMOOTH_SHIFTS for fx in SMOOTH_SHIFTS]


def _stretched_sample(
    image: np.ndarray,
    skin: Skin,
    sx: float,
    sy: float,
    step: int,
    phase: tuple[int, int] | None = None,
) -> np.ndarray:
    """``image`` (one cell at the skin's pitch, or at a drawn size) stretched to the skin's pitch
    times ``(sx, sy)`` and sampled where :func:`~bot.reading.matching.sample_cells` samples:
    smoothly, or with a ``phase`` (see :func:`nearest_phases`) each pixel repeated, as a scaler
    that started ``phase`` source pixels before the cell's column and row draws it."""
    import cv2

    h0, w0 = image.shape[:2]
    if phase is not None:
        # Each source pixel repeated: the image's own stretch (a size the game draws, scaled).
        a, b = phase
        ax, ay = skin.pitch_x * sx / w0, skin.pitch_y * sy / h0
        x0, y0 = (w0 + a) * ax, (h0 + b) * ay  # where the middle copy starts
        # The middle copy and two pixels round it: all that its samples' interpolation reads.
        xs = (int(x0) - 2, int(np.ceil(x0 + w0 * ax)) + 2)
        ys = (int(y0) - 2, int(np.ceil(y0 + h0 * ay)) + 2)
        big = repeated_part(image, ax, ay, phase, xs, ys)
        return _sampled(big, skin, sx, sy, step, (x0, y0), (xs[0], ys[0]))
    shrink = min(skin.pitch_x * sx / w0, skin.pitch_y * sy / h0) < 1
    interp = cv2.INTER_AREA if shrink else cv2.INTER_LINEAR
    if _ignores_ring(skin):
        size = (max(2, round(skin.pitch_x * sx)), max(2, round(skin.pitch_y * sy)))
        return _sampled(cv2.resize(image, size, interpolation=interp), skin, sx, sy, step, (0, 0))
    # Stretch a 3x3 tiling, so the cell's edges blend with a neighbour as on the screen.
    px, py = skin.pitch_x * sx, skin.pitch_y * sy
    if not shrink and (3 * px != round(3 * px) or 3 * py != round(3 * py)):
        # Cells a fraction of a pixel wide: stretched by exactly that (a tiling stretched to
        # whole pixels is stretched a little less, and its cells sampled up to a pixel off).
        left, top = float(np.ceil(px)), float(np.ceil(py))
        size = (int(np.ceil(left + 2 * px)), int(np.ceil(top + 2 * py)))
        tiled = np.tile(image, (3, 3, 1))
        big = exact_stretch(tiled, px / w0, py / h0, (left, top), size)
        return _sampled(big, skin, sx, sy, step, (left, top))
    size = (max(6, round(3 * px)), max(6, round(3 * py)))
    big = cv2.resize(np.tile(image, (3, 3, 1)), size, interpolation=interp)
    # Sampled from where the middle copy starts.
    return _sampled(big, skin, sx, sy, step, (skin.pitch_x * sx, skin.pitch_y * sy))


def exact_stretch(
    tiled: np.ndarray, ax: float, ay: float, start: tuple[float, float], size: tuple[int, int]
) -> np.ndarray:
    """``tiled``, a 3x3 tiling of one cell, stretched by exactly ``(ax, ay)`` as a bilinear
    scaler draws it (picture edge ``e`` shows the source at edge ``e / a``), into an image of
    ``size`` (width, height) whose middle copy's first edge lies at ``start``: cells a fraction
    of a pixel wide, where a stretch to whole pixels is a little off.

    >>> row = np.tile(np.array([[0, 0, 90, 90]], np.uint8), (3, 3))
    >>> exact_stretch(row, 1.5, 1.0, (0.0, 0.0), (6, 1))[0].tolist()
    [15, 0, 15, 75, 90, 75]
    """
    import cv2

    h, w = tiled.shape[0] // 3, tiled.shape[1] // 3
    # Pixel centres: source centre c lands at a * (c + 0.5) - 0.5, moved so source edge w
    # (h) lands at ``start``.
    warp = np.array(
        [
            [ax, 0, start[0] - ax * w + 0.5 * ax - 0.5],
            [0, ay, start[1] - ay * h + 0.5 * ay - 0.5],
        ],
        np.float32,
    )
    return cv2.warpAffine(tiled, warp, size, flags=cv2.INTER_LINEAR)


def _shifted_stretch(
    image: np.ndarray, skin: Skin, sx: float, sy: float, step: int, start: tuple[float, float]
) -> np.ndarray:
    """``image`` stretched by ``(sx, sy)`` as a bilinear scaler stretches a whole picture
    (picture pixel ``x`` shows the source at ``(x + 0.5) / s - 0.5``), the cell starting
    ``start`` of a pixel past a whole pixel, and sampled where
    :func:`~bot.reading.matching.sample_cells` samples such a cell."""
    import cv2

    h0, w0 = image.shape[:2]
    tiled = np.tile(image, (3, 3, 1))
    axes = []
    for n0, s, f in ((w0, sx, start[0]), (h0, sy, start[1])):
        # The middle copy's left edge (source n0) lands at picture edge floor(n0 * s) + f: the
        # picture pixels round it show the source moved by ``delta``.
        delta = (n0 * s - np.floor(n0 * s) - f) / s
        left = float(np.floor(n0 * s) + f)
        pixels = np.arange(int(left) - 2, int(np.ceil(left + n0 * s)) + 3)
        axes.append((pixels, (pixels + 0.5) / s - 0.5 + delta, left))
    (px_x, src_x, left_x), (px_y, src_y, left_y) = axes
    map_x = np.broadcast_to(src_x[None, :], (px_y.size, px_x.size)).astype(np.float32)
    map_y = np.broadcast_to(src_y[:, None], (px_y.size, px_x.size)).astype(np.float32)
    drawn = cv2.remap(tiled, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return _sampled(drawn, skin, sx, sy, step, (left_x - px_x[0], left_y - px_y[0]))


def _sampled(
    big: np.ndarray,
    skin: Skin,
    sx: float,
    sy: float,
    step: int,
    origin: tuple[float, float],
    cut: tuple[int, int] = (0, 0),
) -> np.ndarray:
    """The cell of a stretched picture ``big`` whose top-left corner is at ``origin``, sampled
    where :func:`~bot.reading.matching.sample_cells` samples a cell at scale ``(sx, sy)``;
    ``cut``: where ``big`` starts in the picture ``origin`` is measured in (the points are
    placed in that picture's coordinates first, so a part samples as the whole picture does:
    cv2 rounds the points to 1/32 of a pixel from float32)."""
    import cv2

    cols = np.arange(0, skin.pitch_x - 2 * skin.inset, step)
    rows = np.arange(0, skin.pitch_y - 2 * skin.inset, step)
    w, h = cols.size, rows.size
    jx = origin[0] + (skin.inset + cols + 0.5) * sx - 0.5
    jy = origin[1] + (skin.inset + rows + 0.5) * sy - 0.5
    map_x = np.broadcast_to(jx[None, :], (h, w)).astype(np.float32) - np.float32(cut[0])
    map_y = np.broadcast_to(jy[:, None], (h, w)).astype(np.float32) - np.float32(cut[1])
    return cv2.remap(big, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
