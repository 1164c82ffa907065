"""How far a board reaches (step 3 of :mod:`bot.reading.locate`).

The cells around the seeds (anchor matches on one lattice) are classified
(:mod:`bot.reading.classify`; big cells at their own size every n-th pixel), the window growing
while the board reaches its edge, so a border row without any anchor (all numbers) is still
found, and the board frame stops the growth. On an uneven lattice (cells of two widths) the
lines between and beyond the anchors are only estimated: when the board found stops short
(anchors outside it, or a side line that reads like cells), each line is moved to where its
cells read best and the board grown again; one that still stops short is marked cut.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from bot.reading.anchors import line_offsets
from bot.reading.banks import sample_step
from bot.reading.classify import CellScores, as_screen_shows, classify_cells
from bot.reading.evident import line_unseen
from bot.reading.grid import Grid
from bot.reading.lines import margin_depths, middle_half, unlike_sides_off
from bot.reading.matching import cell_scale
from bot.reading.placed import SearchLattice, fit_offsets, lattice_grid
from bot.reading.skins import Skin
from bot.reading.state import ToneCurve
from bot.reading.whole import SIDES, board_problem, side_problem, whole_within

if TYPE_CHECKING:
    from bot.reading.repeat import Unscaled

#: On an uneven lattice, a line along a side of the board found whose median confidence is at
#: least this reads like cells, not like the board's surroundings: the board found may stop
#: short (GNOME Mines: cells off by a pixel or two read 0.6-0.85, its background 0.15-0.25).
SIDE_LEVEL = 0.5


@dataclass(frozen=True)
class Located:
    """A board found in a picture: its skin, its grid and the scale (grid pitch / skin pitch);
    ``tone``: the screen's tone curve the board was found through, when its colours are not
    the skin's (:mod:`bot.reading.recolour`), for the reader to read it through; ``repeat``:
    the enlargement the picture was read through."""

    skin: Skin
    grid: Grid
    scale: float
    tone: ToneCurve | None = field(default=None, compare=False)
    #: The picture is a pixel-repeating scaler's enlargement, read as it was before it (the
    #: board as found there kept inside): see :mod:`bot.reading.repeat`.
    repeat: Unscaled | None = None


#: Share of a board's cells that must read clearly for its reading to be clean (one under the
#: pointer may not).
CLEAN_SHARE = 0.98
#: Fewest cells of a clear reading that make a board: fewer (a JPEG's few look-alikes of another
#: skin, a fragment read at a pitch a little off the board's) are no board, beside a board or
#: in place of a bigger reading of one.
MIN_BOARD_CELLS = 9


@dataclass(frozen=True)
class Candidate:
    located: Located
    score: float
    mean_confidence: float
    distance: float  # mean distance of the cells to their templates (lower: a closer fit)

    passing: float = 1.0  # share of the board's cells that read clearly
    #: Anchor matches lie outside the board found: it stops short of the board (refused).
    cut: bool = False

    @property
    def clean(self) -> bool:
        """Nearly every cell reads clearly (one under the pointer may not)."""
        return self.passing >= CLEAN_SHARE

    @property
    def area(self) -> float:
        grid = self.located.grid
        return grid.cols * grid.rows * grid.pitch_x * grid.pitch_y

    def better_than(self, other: Candidate | None) -> bool:
        """Whole boards before cut ones (see below); clean readings first, unless the clean
        one has fewer than :data:`MIN_BOARD_CELLS` cells and the other is clearly bigger; then
        a clearly bigger board (a fragment of a board loses to the board); between readings of
        about the same area, the closest fit (the right pitch)."""
        if other is None:
            return True
        if self.cut != other.cut:
            # A whole board beats a cut one, unless the cut one is clearly bigger: a fragment
            # elsewhere must not stand in for a board that could not be read whole (refused).
            cut, whole = (self, other) if self.cut else (other, self)
            return (self is cut) == (cut.area > 1.5 * whole.area)
        ratio = self.area / other.area
        if self.clean != other.clean:
            # A few cells read clearly at a pitch a little off the board's (a JPEG's board,
            # not clean at its own pitch, holds 2x2 patches of 30 px cells in 32 px ones) are
            # part of the bigger reading, not a board in its place.
            clean = self if self.clean else other
            grid = clean.located.grid
            if grid.cols * grid.rows >= MIN_BOARD_CELLS or 1 / 1.5 <= ratio <= 1.5:
                return self.clean
        if ratio > 1.5 or ratio < 1 / 1.5:
            return ratio > 1
        if self.clean:
            return self.distance < other.distance
        return self.score > other.score


def board_extent(
    frame: np.ndarray,
    skin: Skin,
    fx: float,
    fy: float,
    px: float,
    py: float,
    seeds: tuple[np.ndarray, np.ndarray],
    roi: tuple[int, int, int, int],
    shifts: tuple[np.ndarray, np.ndarray] | None = None,
    noisy: bool = False,
    *,
    reach: float,
) -> Candidate | None:
    """The board around the seed cells: classify every lattice cell of the search area at
    once, keep the connected group of confidently read cells holding most seeds, and take its
    bounding box. The board's frame (never a cell) cuts the group off from look-alike areas.

    Seeds left outside the group mean the group stopped inside the board: on an uneven lattice
    the lines are then placed again by how well their cells read (:func:`fit_offsets`); if
    seeds still lie outside, the candidate is marked ``cut`` (a smaller board is never given).
    ``noisy``: cells that do not read clearly as drawn are read again with the tolerance a
    lossy picture's edges ask for (:func:`~bot.reading.classify.classify_cells`). ``reach``:
    how far (px) a line may move off the even lattice (the skin's ``uneven_px``, or more under
    a desktop's scaling: :meth:`~bot.reading.skins.Skin.uneven_at`)."""
    x0, y0, x1, y1 = roi
    kx0, kx1 = int(np.ceil((x0 - fx) / px)), int(np.floor((x1 - fx) / px)) - 1
    ky0, ky1 = int(np.ceil((y0 - fy) / py)), int(np.floor((y1 - fy) / py)) - 1
    if kx1 < kx0 or ky1 < ky0:
        return None
    kx, ky = seeds
    lattice = SearchLattice(fx, fy, px, py, (kx0, ky0, kx1, ky1))
    if shifts is not None:
        lattice = replace(
            lattice,
            col_offsets=line_offsets(kx, shifts[0], kx0, kx1),
            row_offsets=line_offsets(ky, shifts[1], ky0, ky1),
        )
    inside = (kx >= kx0) & (kx <= kx1) & (ky >= ky0) & (ky <= ky1)
    if not inside.any():
        return None
    kx, ky = kx[inside], ky[inside]
    # Finding the board needs no pixel-by-pixel look at big cells drawn at the skin's own
    # size: about 16 samples across each (the reader then compares every pixel). Stretched
    # cells keep every pixel: their blurred edges already cost some of each cell's score.
    own_size = cell_scale(lattice_grid(fx, fy, px, py, 0, 0, 0, 0), skin) == (1.0, 1.0)
    step = max(sample_step(skin), int(min(px, py) // 16)) if own_size else sample_step(skin)
    window = (
        max(kx0, kx.min() - 2),
        max(ky0, ky.min() - 2),
        min(kx1, kx.max() + 2),
        min(ky1, ky.max() + 2),
    )
    if shifts is None and not own_size:
        lattice = _refined_phase(frame, skin, lattice, (kx, ky), step)
    grown = _grow(frame, skin, lattice, window, (kx, ky), step, noisy)
    if grown is None:
        return None
    # Lines an uneven lattice's anchors did not place may be off by a few pixels; elsewhere
    # the lattice is exact, and a look-alike margin may read like cells.
    short = shifts is not None and _stops_short(frame, lattice, grown, (kx, ky))
    for _ in range(3):  # the window widens as lines are placed: place the new ones too
        if not short:
            break
        fitted = grown[0]
        lattice = fit_offsets(frame, skin, lattice, fitted, step, reach)
        grown = _grow(frame, skin, lattice, fitted, (kx, ky), step, noisy)
        if grown is None:
            return None
        short = _stops_short(frame, lattice, grown, (kx, ky))
        if grown[0] == fitted:
            break  # every line of the window placed: no better to be had
    if shifts is not None and not short and _clear_cells(grown, skin) < _box_cells(grown):
        # A board whole but for cells that do not read: lines no anchor placed (the last
        # columns of a won board, all flags and numbers) may be off by a few pixels there.
        refit = fit_offsets(frame, skin, lattice, grown[0], step, reach)
        regrown = _grow(frame, skin, refit, grown[0], (kx, ky), step, noisy)
        if regrown is not None and _clear_cells(regrown, skin) > _clear_cells(grown, skin):
            lattice, grown = refit, regrown
    grown = _side_by_side(frame, skin, lattice, grown, (kx, ky))
    grown = _without_unseen_lines(frame, lattice, grown, (kx, ky), _good(grown[1], skin))
    if shifts is None:
        # Not on an uneven lattice, whose outer lines, only estimated, may read farther for
        # being a pixel off. Distances by the strict look: a lossy look reads a flat margin
        # beside the board as well as the cells (see unlike_sides_off). Which cells read
        # clearly, by the look that found them: a JPEG's real edge lines (a won board's numbers
        # and flags) may not read clearly in the strict look, and would go whole.
        window, scores, box = grown
        strict = classify_cells(frame, lattice.grid(*window), skin, step) if noisy else scores
        strict = as_screen_shows(frame, lattice.grid(*window), skin, strict, middle_half(box), step)
        sides = unlike_sides_off(strict.classes, strict.distance, box, scores.clear(skin))
        if noisy:  # a lossy look grows over a won board's flat margin: peel to its frame
            depths = margin_depths(strict.classes, scores.clear(skin), sides)
            wx, wy = window[:2]
            grid_of = lambda b: lattice.grid(wx + b[0], wy + b[1], wx + b[2], wy + b[3])  # noqa: E731
            sides = whole_within(frame, grid_of, sides, depths) or sides
        grown = (window, scores, sides)
    (wx0, wy0, _, _), scores, (bx0, by0, bx1, by1) = grown
    if (bx1 - bx0 + 1) * (by1 - by0 + 1) < 4:
        return None
    conf = scores.confidence[by0 : by1 + 1, bx0 : bx1 + 1]
    theta = skin.min_confidence
    # Clean cells count +1, doubtful ones down to -1: a look-alike read at the wrong pitch
    # (many cells, all so-so) loses to the real board (cells that match exactly).
    score = float(np.clip((conf - theta) / (1 - theta), -1, 1).sum())
    board = lattice.grid(wx0 + bx0, wy0 + by0, wx0 + bx1, wy0 + by1)
    located = Located(skin, board, float(px / skin.pitch_x))
    distance = float(scores.distance[by0 : by1 + 1, bx0 : bx1 + 1].mean())
    passing = _clear_cells(grown, skin) / _box_cells(grown)
    return Candidate(located, score, float(conf.mean()), distance, passing, short)


#: How far (px) :func:`_refined_phase` moves a lattice each way, and in what steps.
PHASE_REACH, PHASE_STEP = 0.5, 0.25
#: Cells across and down :func:`_refined_phase` reads, round the seeds' middle.
PHASE_CELLS = 8
#: A lattice is moved only when its cells read this much closer (a share of their distance).
PHASE_GAIN = 0.9


def _refined_phase(
    frame: np.ndarray,
    skin: Skin,
    lattice: SearchLattice,
    seeds: tuple[np.ndarray, np.ndarray],
    step: int,
) -> SearchLattice:
    """The lattice moved by up to :data:`PHASE_REACH` px each way to where the seeds' cells read
    closest to their images, if clearly closer (:data:`PHASE_GAIN`). A scaled board's cells
    may start between pixels (a fraction of a pixel wide, or a board whose frame a scaler put
    half a pixel in), and anchors matched at whole pixels place the lattice a few tenths of a
    pixel off: enough for small smoothed cells not to read clearly (sgt-mines' 14 px tiles at
    125 %, 18 px ones at 150 %)."""
    kx, ky = seeds
    kx0, ky0, kx1, ky1 = lattice.limits
    mx, my = int(np.median(kx)), int(np.median(ky))
    half = PHASE_CELLS // 2
    window = (
        max(kx0, mx - half), max(ky0, my - half), min(kx1, mx + half - 1), min(ky1, my + half - 1)
    )  # fmt: skip

    def fit(moved: SearchLattice) -> tuple[float, float]:
        scores = classify_cells(frame, moved.grid(*window), skin, step)
        return float(scores.distance.mean()), float(scores.confidence.mean())

    moves = np.arange(-PHASE_REACH, PHASE_REACH + 1e-9, PHASE_STEP)
    initial, initial_sure = fit(lattice)
    best, least, sure = lattice, initial, initial_sure
    for axis in ("fx", "fy"):
        start = best
        for move in moves:
            if move == 0:
                continue
            moved = replace(start, **{axis: getattr(start, axis) + float(move)})
            d, c = fit(moved)
            if d < least:
                best, least, sure = moved, d, c
    # Only a clearly closer fit: another game's look-alike cells fit a little closer anywhere
    # (a darkened sgt-mines board 7 % closer as winmine's, then read as winmine's), a lattice
    # placed off a board's own cells reads 15-40 % closer in place. And no less surely: samples
    # taken between pixels blend them, which smooths a JPEG's noise too (sgt-mines' 28 px
    # board at quality 75 read 17 % closer half a pixel off its own lines, each cell less
    # surely, and its 3s there no longer told from its 2s).
    return best if least < PHASE_GAIN * initial and sure >= initial_sure else lattice


#: What :func:`_grow` finds: the window classified ``(x0, y0, x1, y1)`` (lattice indices), its
#: scores and the board's box in the window ``(bx0, by0, bx1, by1)`` (inclusive).
_Grown = tuple[tuple[int, int, int, int], CellScores, tuple[int, int, int, int]]


def _grow(
    frame: np.ndarray,
    skin: Skin,
    lattice: SearchLattice,
    window: tuple[int, int, int, int],
    seeds: tuple[np.ndarray, np.ndarray],
    step: int,
    noisy: bool = False,
) -> _Grown | None:
    """Classify ``window`` (lattice indices) and keep the connected group of confidently read
    cells holding most seeds, widening the window while the group reaches its edge (cheaper
    than the whole search area)."""

    kx0, ky0, kx1, ky1 = lattice.limits
    wx0, wy0, wx1, wy1 = window
    kx, ky = seeds
    for _ in range(50):
        grid = lattice.grid(wx0, wy0, wx1, wy1)
        scores = classify_cells(frame, grid, skin, step, lossy=noisy)
        box = _seeded_box(_good(scores, skin), (kx - wx0, ky - wy0), 8)
        if box is None:
            return None
        bx0, by0, bx1, by1 = box
        grow = (
            4 * (bx0 == 0 and wx0 > kx0),
            4 * (by0 == 0 and wy0 > ky0),
            4 * (bx1 == wx1 - wx0 and wx1 < kx1),
            4 * (by1 == wy1 - wy0 and wy1 < ky1),
        )
        if not any(grow):
            break
        wx0, wy0 = max(kx0, wx0 - grow[0]), max(ky0, wy0 - grow[1])
        wx1, wy1 = min(kx1, wx1 + grow[2]), min(ky1, wy1 + grow[3])
    return (wx0, wy0, wx1, wy1), scores, (int(bx0), int(by0), int(bx1), int(by1))


def _good(scores: CellScores, skin: Skin) -> np.ndarray:
    """The cells that extend a board: stricter than reading, a cell must match clearly, so
    look-alike areas next to it (a margin of the same grey) stay out; the reader judges every
    cell."""
    return (scores.confidence >= (1 + skin.min_confidence) / 2) & (scores.margin >= skin.min_margin)


def _seeded_box(
    good: np.ndarray, seeds: tuple[np.ndarray, np.ndarray], connectivity: int
) -> tuple[int, int, int, int] | None:
    """The box ``(x0, y0, x1, y1)`` (inclusive) of the connected group of ``good`` cells that
    holds most ``seeds`` (window indices), or None when no seed is good."""
    import cv2

    kx, ky = seeds
    count, labels = cv2.connectedComponents(good.astype(np.uint8), connectivity=connectivity)
    votes = np.bincount(labels[ky, kx], minlength=count)
    votes[0] = 0
    if votes.max() == 0:
        return None
    ys, xs = np.nonzero(labels == votes.argmax())
    return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())


def _side_by_side(
    frame: np.ndarray,
    skin: Skin,
    lattice: SearchLattice,
    grown: _Grown,
    seeds: tuple[np.ndarray, np.ndarray],
) -> _Grown:
    """``grown``, or the group of its cells that touch side by side when that one is a whole
    board: a window that looks like see-through empty cells (KMines' grey) may join the board
    at a corner past its frame, while a lost board's mines may leave the board's own cells
    joined only at corners (then the smaller group is not whole, and ``grown`` stays)."""
    window, scores, box = grown
    wx0, wy0 = window[:2]
    kx, ky = seeds
    inside = (kx >= wx0) & (kx <= window[2]) & (ky >= wy0) & (ky <= window[3])
    side = _seeded_box(_good(scores, skin), (kx[inside] - wx0, ky[inside] - wy0), 4)
    if side is None or side == box:  # the common case: no whole-board check to pay for
        return grown
    # The group is part of the grown one: if it ends at frames all round, the rest lies
    # beyond them.
    grid = lattice.grid(wx0 + side[0], wy0 + side[1], wx0 + side[2], wy0 + side[3])
    return (window, scores, side) if board_problem(frame, grid) is None else grown


#: Fewest cells of the seeds' span along a line for :func:`_without_unseen_lines` to look at
#: the line there alone (the lines between a few cells are too few to judge by).
SPAN_CELLS = 4


def _without_unseen_lines(
    frame: np.ndarray,
    lattice: SearchLattice,
    grown: _Grown,
    seeds: tuple[np.ndarray, np.ndarray],
    good: np.ndarray,
) -> _Grown:
    """``grown`` less the outer lines, on each side, that show no lines between their cells
    (:func:`~bot.reading.evident.line_unseen`): a margin of a cell's face colour that reads as
    cells (sgt-mines' covered cells at 28 px, whose bevel falls in the ring not judged, beside
    a won board in a JPEG: five such columns each side, too many to peel as a margin).

    A line holding ``seeds`` (cells anchors matched: on the board) is looked at across the
    seeds' span, where that holds :data:`SPAN_CELLS` or more: a desktop of that face colour all
    round the board (its 15 px tiles' bevels in that ring too) read as cells to the picture's
    edges, and a column down the whole picture crosses the board in a fifth of its cells, too
    few to show; peeled so, the board went column by column down to the last two.

    A line whose cells do not all extend the board (``good``: :func:`_good`, window indices)
    is also looked at across its longest run of cells that do, where that holds
    :data:`SPAN_CELLS` or more: a margin reads as cells only where it is plain, and what
    else lies along it (a status bar's text: KMines' window 20 levels brighter, its
    background then within the tolerance of the covered cells' clipped face) makes the line
    busy, where no cell is read."""
    window, scores, box = grown
    wx, wy = window[:2]
    kx, ky = seeds

    def spanned(lo: int, hi: int, seeded: np.ndarray) -> tuple[int, int]:
        """``lo..hi`` (lattice indices) cut to the seeds' span where that holds
        :data:`SPAN_CELLS`."""
        first, last = max(lo, int(seeded.min())), min(hi, int(seeded.max()))
        return (first, last) if last - first + 1 >= SPAN_CELLS else (lo, hi)

    peeled = box
    for side in SIDES:
        while peeled[2] - peeled[0] >= 2 and peeled[3] - peeled[1] >= 2:
            x0, y0, x1, y1 = peeled
            cx0, cy0, cx1, cy1 = wx + x0, wy + y0, wx + x1, wy + y1
            line = {"left": (kx, cx0), "right": (kx, cx1), "top": (ky, cy0), "bottom": (ky, cy1)}
            along, at = line[side]
            column = side in ("left", "right")
            if (along == at).any():
                if column:
                    cy0, cy1 = spanned(cy0, cy1, ky)
                else:
                    cx0, cx1 = spanned(cx0, cx1, kx)
            spans = [(cx0, cy0, cx1, cy1)]
            lo, hi = (cy0, cy1) if column else (cx0, cx1)
            run = _longest_run(good[lo - wy : hi - wy + 1, at - wx] if column
                               else good[at - wy, lo - wx : hi - wx + 1])  # fmt: skip
            if run is not None and run[1] - run[0] < hi - lo:
                first, last = lo + run[0], lo + run[1]
                spans.append((cx0, first, cx1, last) if column else (first, cy0, last, cy1))
            if all(line_unseen(frame, lattice.grid(*span), side) is None for span in spans):
                break
            peeled = (x0 + (side == "left"), y0 + (side == "top"),
                      x1 - (side == "right"), y1 - (side == "bottom"))  # fmt: skip
    return grown if peeled == box else (window, scores, peeled)


def _longest_run(good: np.ndarray) -> tuple[int, int] | None:
    """The first and last index of the longest run of True in ``good`` (1-D), where that holds
    :data:`SPAN_CELLS` or more; else None.

    >>> _longest_run(np.array([1, 1, 0, 1, 1, 1, 1, 0], bool))
    (3, 6)
    >>> _longest_run(np.array([1, 1, 1, 0], bool)) is None
    True
    """
    best: tuple[int, int] | None = None
    start = None
    for i, g in enumerate([*good.tolist(), False]):
        if g and start is None:
            start = i
        elif not g and start is not None:
            if i - start >= SPAN_CELLS and (best is None or i - start > best[1] - best[0] + 1):
                best = (start, i - 1)
            start = None
    return best


def _box_cells(grown: _Grown) -> int:
    bx0, by0, bx1, by1 = grown[2]
    return (bx1 - bx0 + 1) * (by1 - by0 + 1)


def _clear_cells(grown: _Grown, skin: Skin) -> int:
    """How many cells of the board's box read clearly (as the reader asks)."""
    _, scores, (bx0, by0, bx1, by1) = grown
    return int(scores.clear(skin)[by0 : by1 + 1, bx0 : bx1 + 1].sum())


def _stops_short(
    frame: np.ndarray, lattice: SearchLattice, grown: _Grown, seeds: tuple[np.ndarray, np.ndarray]
) -> bool:
    """Whether the board found stops inside the board: anchor matches on the lattice lie
    beyond a side that does not end at a frame (beyond a frame they are another board's), or
    a line along one of its sides reads like cells (median confidence at least
    :data:`SIDE_LEVEL`) where a board's surroundings read as nothing."""
    (wx0, wy0, _, _), scores, (bx0, by0, bx1, by1) = grown
    kx, ky = seeds[0] - wx0, seeds[1] - wy0
    beyond = {
        "left": (kx < bx0).any(),
        "right": (kx > bx1).any(),
        "top": (ky < by0).any(),
        "bottom": (ky > by1).any(),
    }
    grid = lattice.grid(wx0 + bx0, wy0 + by0, wx0 + bx1, wy0 + by1)
    if any(side_problem(frame, grid, side) for side, out in beyond.items() if out):
        return True
    conf = scores.confidence
    h, w = conf.shape
    lines = [  # left, right, top, bottom
        conf[by0 : by1 + 1, bx0 - 1] if bx0 > 0 else None,
        conf[by0 : by1 + 1, bx1 + 1] if bx1 + 1 < w else None,
        conf[by0 - 1, bx0 : bx1 + 1] if by0 > 0 else None,
        conf[by1 + 1, bx0 : bx1 + 1] if by1 + 1 < h else None,
    ]
    # A line beside the board that reads somewhat like cells stops it short unless frames end
    # the board all round (a flat header of the open cells' colour reads like them).
    return (
        any(line is not None and np.median(line) >= SIDE_LEVEL for line in lines)
        and board_problem(frame, grid) is not None
    )
