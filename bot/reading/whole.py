"""Is a board found in a picture the whole board? The evidence that each of its sides ends.

A lattice of readable cells can stop for several reasons: the game's own frame (the board
really ends there), the picture's edge (a screenshot or a window cut through the board),
another window over it, or cells that stop reading (noise, a theme drawn differently). Only
the first makes a whole board. Whatever the game, its frame has three properties the others
lack, and :func:`board_problem` checks them on a strip just beyond each side (a third of a
cell deep, skipping the first tenth of a cell, which an uneven lattice may place a pixel or two
off), and the board's own outer cells one more:

1. **Room.** The strip lies inside the picture: a frame that cannot be seen cannot be checked
   ("the board runs off the right edge of the picture").
2. **Not cells.** Along the side the frame does not repeat cell by cell: every line of the
   strip parallel to the side stays close to its own running mean over two cells (a smooth
   gradient passes; the bevels, digits and grid lines of more cells do not), else "the board
   goes on beyond its right side" (cells that do not read, or a translucent window over them).
   A strip of big cells can run past the frame (frames keep their width): lines that vary
   beyond :data:`MIN_FRAME_LINES` lines of frame lie outside the window and do not count.
   A fence with a post by every cell passes when it runs round all four sides and is no
   more cells (:mod:`bot.reading.fence`).
3. **One frame.** The frame runs round the board: at each corner, the outer half of one
   side's strip has the colour of the outer half of the other's (bevels differ from side to
   side only in their inner pixels), or the strips' first pixels match (a frame narrower than
   the strip). A window or a paste over one side breaks that at both of its corners
   ("something covers the board's right side"). A strip the picture leaves too thin to
   compare (a frame of a few pixels) is left out; the other corners are still judged. Bars
   above and below a board on a page of another colour break all four corners alike: the
   strips beyond opposite sides one colour each, that frame is whole.
4. **Cells to the edge.** The board's outer line of cells along each side shows the lines
   between its cells (:func:`~bot.reading.evident.line_unseen`): a margin or a side panel
   that reads as cells (a flat patch of the covered cells' face colour) shows none.

Skin-agnostic: it looks only at the picture and the grid, so the skin-specific locator and
the tune lattice finder refuse the same fragments with the same words.

>>> import numpy as np
>>> from bot.reading.grid import Grid
>>> tile = np.full((20, 20, 3), 200, np.uint8); tile[:2] = 255; tile[:, :2] = 255
>>> window = np.full((240, 300, 3), 120, np.uint8)
>>> window[40:200, 30:270] = np.tile(tile, (8, 12, 1))
>>> board = Grid(30, 40, 20, 20, 12, 8)
>>> board_problem(window, board) is None
True
>>> print(board_problem(window[:, :273], board))
the board runs off the right edge of the picture (3 px of picture beyond its right side, 7 ...
>>> board_problem(window, Grid(30, 40, 20, 20, 10, 8)).split(":")[0]
'the board goes on beyond its right side'
>>> window[:, 250:] = (0, 200, 0)  # a window over the right side
>>> board_problem(window, Grid(30, 40, 20, 20, 11, 8)).split(":")[0]
"something covers the board's right side at x 252..256, y 40..199"
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product

import numpy as np

from bot.errors import BoardCutError
from bot.reading.evident import line_unseen
from bot.reading.fence import fenced
from bot.reading.grey import GREY_WEIGHTS
from bot.reading.grid import Grid
from bot.reading.header import cells_unlike_above, repeats
from bot.reading.strips import (
    LINE_CONTRAST,
    LINE_SHARE,
    MIN_STRIP,
    SIDES,
    Strip,
    band,
    bounds,
    line_reach,
    lines_along,
    running_median,
    strip_beyond,
)

#: Fewest cells along a side that show whether the board's cells go on beyond it: two lines
#: between them (:func:`_lines_continue`). Along a shorter side a corner of a bigger board
#: read at a pitch a pixel off passes for a frame (the 2x2 corner of sgt-mines' 36 px tiles
#: read as 35 px cells at gamma 0.8).
MIN_SIDE_CELLS = 3
#: Fewest lines of frame that make a side end at a frame when the strip beyond it goes on
#: past the frame (frames do not grow with the cells: big cells' strips run past them).
MIN_FRAME_LINES = 8
#: Largest difference (0-255, largest channel) from the running mean along a side that still
#: counts as the same frame pixel (after averaging 3 pixels along the side: noise, JPEG).
FRAME_TOLERANCE = 16
#: Share of a strip line that must stay within that tolerance.
FRAME_SHARE = 0.85
#: Brightness from BGR (BT.601's weights): what a JPEG keeps at full resolution.
GREY = np.array(GREY_WEIGHTS[0], np.float32)
#: Largest difference (0-255, largest channel) between the outer frame colours meeting at a
#: corner.
CORNER_TOLERANCE = 12

#: Fewest sides along which the board's cells look unlike what lies beyond (a header of the
#: open cells' colour may hide one outline; a patch inside bigger cells shows none).
MIN_EDGED_SIDES = 2

#: How a side along which the board's cells seem to go on is named (the start of the problem).
GOES_ON = "the board goes on beyond its {} side"


#: How many lines of a strip are judged at once by :func:`_first_varying_line` (it stops at
#: the first batch holding a varying line: a running median over big cells costs much).
VARYING_BATCH = 4


def _first_varying_line(strip: Strip, pitch_along: float) -> int | None:
    """The first line of the strip parallel to the side (nearest the board first) that varies
    cell by cell (more cells, not a frame): pixels far from the line's running mean over two
    cells; None when none does."""
    import cv2

    # Sums of three neighbours (whole numbers, kept exact in 16 bits): three times the mean.
    sums = cv2.boxFilter(
        strip.pixels, -1, (3, 1), normalize=False, borderType=cv2.BORDER_REFLECT
    ).astype(np.uint16)
    # A line whose values all lie within the limit of each other has no pixel far from its
    # median: only the others are worth the median (most lines of a frame are flat).
    spread = (sums.max(axis=1).astype(np.int32) - sums.min(axis=1)).max(axis=1)
    uneven = np.flatnonzero(spread > 3 * FRAME_TOLERANCE)
    half = max(3, int(round(2 * pitch_along)) | 1) // 2
    for start in range(0, uneven.size, VARYING_BATCH):
        lines = uneven[start : start + VARYING_BATCH]
        batch = sums[lines]
        # A running median: a frame line with a few gaps (a header's buttons meeting it) stays
        # itself.
        middle = running_median(batch, half, axis=1)
        gap = np.abs(batch.astype(np.int32) - middle.astype(np.int32)).max(axis=2)
        varying = (gap > 3 * FRAME_TOLERANCE).mean(axis=1) > 1 - FRAME_SHARE
        if varying.any():
            return int(lines[varying.argmax()])
    return None


def _frame_part(
    strip: Strip, pitch_along: float, lines: np.ndarray, header: Callable[[], bool] | None
) -> Strip | None:
    """The part of ``strip`` that may be the board's frame: the whole strip when no line of
    it varies cell by cell; the lines before the first that does, when at least
    :data:`MIN_FRAME_LINES` lines of frame come first (a frame thinner than the strip, the
    desktop beyond it: GNOME Mines' margin of 20 px beside cells of 114 px), or when fewer
    come first but what varies beyond them is a header, not cells (:func:`_header_beyond`;
    ``header`` says whether the cells a next row would hold are unlike the board's; None: no
    header looked for), as a thin strip; else None (more cells, or a lattice placed a pixel
    into a thin frame)."""
    first = _first_varying_line(strip, pitch_along)
    if first is None:
        return strip
    if first < MIN_FRAME_LINES and not (
        header is not None and _header_beyond(strip, first, pitch_along, lines, header)
    ):
        return None
    x0, y0, x1, y1 = strip.box
    skip = {"left": x1, "top": y1, "right": x0, "bottom": y0}[strip.side]
    near = {"left": (skip - first, y0, x1, y1), "top": (x0, skip - first, x1, y1),
            "right": (x0, y0, skip + first, y1), "bottom": (x0, y0, x1, skip + first)}  # fmt: skip
    thin = strip.thin or first < MIN_FRAME_LINES
    return Strip(strip.side, strip.pixels[:first], near[strip.side], thin)


#: Fewest cells of a next row above the board that must look like none of the board's for the
#: strip beyond its top side to be a header (a counter and a button; one cell may be the only
#: mine that went off).
MIN_HEADER_CELLS = 2


def _header_beyond(
    strip: Strip, first: int, pitch_along: float, lines: np.ndarray, header: Callable[[], bool]
) -> bool:
    """Whether the lines of ``strip`` from its ``first`` varying one on are a header close to
    the board's top side (:mod:`bot.reading.header`), not more cells: a line or more of frame
    comes first, the lattice's lines do not run on into them, they do not repeat cell by cell,
    and ``header()`` (the cells a next row would hold are unlike the board's own). Headers are
    looked for above the board only: games draw their counters there."""
    if strip.side != "top" or first < 1:
        return False
    beyond = Strip(strip.side, strip.pixels[first:], strip.box, strip.thin)
    return (
        not _lines_continue(beyond, lines, pitch_along)
        and not repeats(beyond.pixels, pitch_along)
        and header()
    )


def _lines_continue(
    strip: Strip, lines: np.ndarray, pitch: float, alike: bool = False, straight: bool = False
) -> bool:
    """Whether the lattice's lines between cells (``pitch`` apart) run on into the strip: at
    most of them the strip differs from its own middle (grid lines of open cells as flat as the
    frame beside; :func:`~bot.reading.strips.line_reach`); with ``alike``, also in one colour
    at most of them (a game draws its lines or gaps alike all along; a busy desktop's marks fall
    anywhere, in any colour); with ``straight``, also in brightness across most of the strip's
    depth (a line between two cells crosses the next cell's width, all of which the strip lies
    in; a JPEG rings beside the board's edges a pixel here and there: 35 levels in one pixel of
    Wine's 5 px black frame beside a white bevel, at quality 75, and a board whose left side
    ends there was taken for part of one going on)."""
    n = strip.pixels.shape[1]
    reach = line_reach(pitch)
    lines = lines[(lines >= reach + 1) & (lines < n - reach - 1)]
    if lines.size < 2:
        return False
    mean = strip.pixels.mean(axis=0)  # along the side, averaged over the depth
    if not _marked_at(mean, lines, reach, pitch, alike):
        return False
    # Brightness alone: a JPEG keeps colour at half resolution, in blocks of 16 px, and the
    # board's edge bleeds its colour that far beyond.
    return not straight or _marked_at(
        np.median(strip.pixels @ GREY, axis=0)[:, None], lines, reach, pitch
    )


def _marked_at(
    profile: np.ndarray, lines: np.ndarray, reach: int, pitch: float, alike: bool = False
) -> bool:
    """Whether ``profile`` (``[along, channels]``) is marked at most of ``lines`` (within
    ``reach`` of each; with ``alike``, in one colour at most of them): see
    :func:`_lines_continue`. A mark stands out from the profile's running median over a cell
    round it, not from the median of the whole side: a desktop's gradient beyond a frame
    (KMines' wallpaper, 40 levels over the board's height at contrast 1.15) is no line.

    >>> ramp = np.linspace(100.0, 180.0, 120)[:, None]
    >>> lines = np.arange(20, 120, 20)
    >>> _marked_at(ramp, lines, 1, 20)
    False
    >>> ramp[lines] += 30
    >>> _marked_at(ramp, lines, 1, 20)
    True
    """
    half = max(reach + 1, int(round(pitch / 2)))
    middle = running_median(profile, half, axis=0)  # [along, channels]
    at = lines[None, :] + np.arange(-reach, reach + 1)[:, None]  # [near, lines]
    near = profile[at]  # [near, lines, channels]
    off = np.abs(near - middle[at]).max(axis=2)  # [near, lines]
    marked = off.max(axis=0) > LINE_CONTRAST
    if not alike or marked.mean() < LINE_SHARE:
        return bool(marked.mean() >= LINE_SHARE)
    # Each line's most marked pixel, against the colour most of them share.
    colours = near[off.argmax(axis=0), np.arange(lines.size)]  # [lines, channels]
    shared = np.median(colours, axis=0)
    return bool((np.abs(colours - shared).max(axis=1) <= FRAME_TOLERANCE).mean() >= LINE_SHARE)


def _cells_past(strip: Strip, framed: Strip, lines: np.ndarray, pitch: float) -> bool:
    """Whether past the flat lines taken for a frame (``framed``, the start of ``strip``) the
    lattice's lines run on, alike all along: the flat lines were the gap between two rows of
    cells (GNOME Mines' gap, blurred over 12 px at 300 %, on a lattice placed 7 px off), not
    a frame."""
    depth = framed.pixels.shape[0]
    if depth >= strip.pixels.shape[0]:
        return False
    past = Strip(strip.side, strip.pixels[depth:], strip.box, strip.thin)
    return _lines_continue(past, lines, pitch, alike=True)


def _end_colours(strip: Strip, pitch_along: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """Mean colour of the strip's outer half, its inner half and its first pixels (three, and
    two), near its start and near its end (a third of a cell along the side each): where it
    meets the neighbouring sides' strips. The outer half passes over bevels, which differ from
    side to side in their inner pixels; the first pixels stay on a frame narrower than the
    strip (GNOME Mines' window margin beside cells of 113 px, a title bar or the desktop
    beyond)."""
    depth = strip.pixels.shape[0]
    half = max(1, depth // 2)
    reach = max(2, int(round(pitch_along / 3)))
    bands = [strip.pixels[depth - half :], strip.pixels[: depth - half] if depth > half else None]
    bands.append(strip.pixels[:MIN_STRIP])  # the frame's first pixels, narrower still
    # A frame of a few pixels and a border (xbomb: 4 px of white, then a black one) leaves two
    # of them past the pixels skipped beside the cells: the border is the third.
    bands.append(strip.pixels[: MIN_STRIP - 1])
    return [
        (band[:, :reach].mean(axis=(0, 1)), band[:, -reach:].mean(axis=(0, 1)))
        for band in bands
        if band is not None
    ]


def side_problem(frame: np.ndarray, grid: Grid, side: str) -> str | None:
    """Why ``side`` of the board ``grid`` is not known to end at a frame (room, not cells; the
    corners need all four sides: :func:`board_problem`), or None."""
    strip = strip_beyond(frame, grid, side)
    if isinstance(strip, str):
        return strip
    framed = _framed(strip, grid, frame, headers=False)
    if isinstance(framed, str) and fenced(frame, grid) is None:
        return framed
    return None


def _framed(strip: Strip, grid: Grid, frame: np.ndarray, headers: bool) -> Strip | str:
    """The part of ``strip`` that is the board's frame (:func:`_frame_part`; with ``headers``,
    a header close to the top side is looked for in ``frame``), or the problem that the
    board's cells go on into it."""
    side = strip.side
    along = grid.pitch_y if side in ("left", "right") else grid.pitch_x
    cells = grid.rows if side in ("left", "right") else grid.cols
    if cells < MIN_SIDE_CELLS:
        return (
            f"the board's {side} side is {cells} cell{'s' * (cells > 1)} long: too short to "
            "tell a frame beyond it from more cells (part of a bigger board)"
        )
    lines = lines_along(grid, side)
    header = (lambda: cells_unlike_above(frame, grid) >= MIN_HEADER_CELLS) if headers else None
    framed = _frame_part(strip, along, lines, header)
    if (
        framed is None
        or _lines_continue(framed, lines, along, straight=True)
        or _cells_past(strip, framed, lines, along)
    ):
        x0, y0, x1, y1 = strip.box
        return (
            f"{GOES_ON.format(side)}: the picture at x {x0}..{x1 - 1}, "
            f"y {y0}..{y1 - 1} repeats cell by cell like the board (cells there do not "
            "read: covered by a translucent window, cut, or drawn unlike the skin)"
        )
    return framed


def board_problem(frame: np.ndarray, grid: Grid, headers: bool = True) -> str | None:
    """Why the board ``grid`` in ``frame`` is not known to be the whole board, or None when
    each of its four sides ends at a frame (see the module's description); without
    ``headers``, a side with a header a few pixels beyond it is not taken to end there (a
    lattice found without a skin is placed by the sides that end without one first)."""
    strips: dict[str, Strip] = {}
    for side in SIDES:
        strip = strip_beyond(frame, grid, side)
        if isinstance(strip, str):
            return strip
        strips[side] = strip
    problem = None
    for side, strip in strips.items():
        framed = _framed(strip, grid, frame, headers)
        if isinstance(framed, str):
            problem = framed
            break
        strips[side] = framed
    if problem is not None:
        fences = fenced(frame, grid)
        if fences is None:
            return problem
        strips = fences
    edged = [side for side in SIDES if _has_edge(frame, grid, strips[side])]
    if len(edged) < MIN_EDGED_SIDES:
        x0, y0, x1, y1 = bounds(grid)
        return (
            f"the cells at x {x0}..{x1 - 1}, y {y0}..{y1 - 1} do not end at a frame: on "
            f"{4 - len(edged)} sides the picture beyond looks like the cells beside it (part "
            "of a bigger lattice, or of larger cells)"
        )
    corner = _corner_problem(strips, grid)
    if corner is not None:
        return corner
    for side in SIDES:
        unseen = line_unseen(frame, grid, side)
        if unseen is not None:
            return f"{unseen}: a margin or panel beside the board, not its cells"
    return None


def whole_within(
    frame: np.ndarray,
    grid_of: Callable[[tuple[int, int, int, int]], Grid],
    box: tuple[int, int, int, int],
    depths: tuple[int, int, int, int],
) -> tuple[int, int, int, int] | None:
    """The smallest of ``box`` (x0, y0, x1, y1, inclusive cells; ``grid_of`` makes a box a
    grid) less up to ``depths`` outer lines on each side (left, top, right, bottom) that is a
    whole board (:func:`board_problem`), or None: a board grown over a margin that reads like cells
    ends where a frame shows beyond it.

    >>> tile = np.full((20, 20, 3), 200, np.uint8); tile[:2] = 255; tile[:, :2] = 255
    >>> window = np.full((240, 300, 3), 120, np.uint8)
    >>> window[40:200, 30:270] = np.tile(tile, (8, 12, 1))
    >>> def grid_of(b):
    ...     return Grid(30 + 20 * b[0], 40 + 20 * b[1], 20, 20, b[2] - b[0] + 1, b[3] - b[1] + 1)
    >>> whole_within(window, grid_of, (0, 0, 12, 7), (0, 0, 1, 0))
    (0, 0, 11, 7)
    >>> whole_within(window, grid_of, (1, 0, 11, 7), (1, 0, 0, 0)) is None  # cells beyond
    True
    """
    if not any(depths):
        return None
    x0, y0, x1, y1 = box
    boxes = [
        (x0 + left, y0 + top, x1 - right, y1 - bottom)
        for left, top, right, bottom in product(*(range(d + 1) for d in depths))
    ]
    # Innermost first: a margin read as cells on two sides, flat beyond, passes for a frame
    # as well as the frame does (a board ends at the first frame met going outwards).
    boxes.sort(key=lambda b: (b[2] - b[0] + 1) * (b[3] - b[1] + 1))
    for peeled in boxes:
        wide = min(peeled[2] - peeled[0], peeled[3] - peeled[1]) >= 1
        if wide and board_problem(frame, grid_of(peeled)) is None:
            return peeled
    return None


def _has_edge(frame: np.ndarray, grid: Grid, strip: Strip) -> bool:
    """Whether the board's cells along ``strip``'s side look unlike the strip (an outline
    where the board meets its frame), over most of the side."""
    inner = band(frame, grid, strip.side, -strip.pixels.shape[0], 0)
    if inner is None:  # a board running off the picture has no strip to compare with
        return False
    inside = inner.mean(axis=0)
    outside = strip.pixels.mean(axis=0)
    n = min(len(inside), len(outside))
    differs = np.abs(inside[:n] - outside[:n]).max(axis=1) > LINE_CONTRAST
    return bool(differs.mean() >= 0.5)


def _corner_problem(strips: dict[str, Strip], grid: Grid) -> str | None:
    """The side whose frame does not meet its neighbours' at either corner (a window or a
    paste over it), or None when the frame runs round the board."""
    ends = {}
    for side, strip in strips.items():
        along = grid.pitch_y if side in ("left", "right") else grid.pitch_x
        ends[side] = _end_colours(strip, along)
    # Strips run left to right (top, bottom) and top to bottom (left, right): the start of
    # the left strip meets the start of the top one, and so on.
    corners = {
        ("left", "top"): (0, 0),
        ("top", "right"): (1, 0),
        ("right", "bottom"): (1, 1),
        ("bottom", "left"): (0, 1),
    }
    # A frame of a few pixels (xbomb's), or a picture ending a few pixels beyond a side,
    # leaves a strip too thin to compare, and a fence drawn cell by cell may show what lies
    # behind it: their corners are not judged, the others are. A
    # corner is whole where the frame meets itself in any band of the strips (_end_colours).
    broken = {
        (a, b)
        for (a, b), (ea, eb) in corners.items()
        if not any(strips[s].thin or strips[s].fence for s in (a, b))
        and all(np.abs(ca[ea] - cb[eb]).max() > CORNER_TOLERANCE
                for ca, cb in zip(ends[a], ends[b], strict=False))
    }  # fmt: skip
    if not broken or (len(broken) == len(corners) and _two_tone(strips)):
        return None
    # Blame a side both of whose corners are broken; else the one of a broken corner whose
    # colour is further from the other two sides'.
    counts = {side: sum(side in pair for pair in broken) for side in SIDES}
    worst = max(SIDES, key=lambda s: counts[s])
    if counts[worst] < 2:
        a, b = next(iter(broken))
        colour = {s: strips[s].pixels.mean(axis=(0, 1)) for s in SIDES}

        def distance(side: str) -> float:
            others = [colour[s] for s in SIDES if s not in (a, b)]
            return float(min(np.abs(colour[side] - o).max() for o in others))

        worst = max((a, b), key=distance)
    x0, y0, x1, y1 = strips[worst].box
    cells = _cells_beyond(grid, worst)
    return (
        f"something covers the board's {worst} side at x {x0}..{x1 - 1}, y {y0}..{y1 - 1}: "
        f"the picture there is not the board's frame (its {cells} may lie under it)"
    )


def _two_tone(strips: dict[str, Strip]) -> bool:
    """Whether the frame is two bars across a page: the strips beyond opposite sides are one
    colour each (a web clone's header and footer bars above and below its board, the page
    left and right of it), so every corner joins two colours. A window over one side breaks
    only that side's two corners."""
    colour = {side: strip.pixels.mean(axis=(0, 1)) for side, strip in strips.items()}
    return all(
        np.abs(colour[a] - colour[b]).max() <= CORNER_TOLERANCE
        for a, b in (("left", "right"), ("top", "bottom"))
    )


def _cells_beyond(grid: Grid, side: str) -> str:
    """Which cells would come next beyond ``side`` (in the numbering of the part found)."""
    if side == "left":
        return "columns before column 0"
    if side == "right":
        return f"columns from {grid.cols} on"
    if side == "top":
        return "rows above row 0"
    return f"rows from {grid.rows} on"


def check_whole(frame: np.ndarray, grid: Grid, what: str = "board") -> None:
    """Raise :class:`~bot.errors.BoardCutError` unless ``grid`` is the whole board in
    ``frame`` (``what`` names it in the message, e.g. "sgt-mines board")."""
    problem = board_problem(frame, grid)
    if problem is not None:
        left, top, right, bottom = bounds(grid)
        raise BoardCutError(
            f"a {what} was found only in part ({grid.cols}x{grid.rows} cells at x {left}..{right}, "
            f"y {top}..{bottom}): {problem}"
        )
