"""A board on a screen whose colours are not the skin's: brightness, contrast, gamma, a
night-light tint or a colour profile (see :mod:`bot.reading.tone`).

The locator looks for the skin's own colours, so such a screen shows it no board. Three steps
find one anyway (driven by :func:`bot.reading.locate.locate_board`):

1. :func:`rough_curves`: every channel shifted so that one of the picture's commonest colours
   becomes one of the skin's key colours (a covered cell's grey is most of a board). With the
   skin's images so shifted (:func:`toned_skin`) its anchor cells match (their match allows
   for some contrast), and :func:`seed_grids` takes the blocks of cells they span.
2. :func:`learn_curve`: the tone curve learnt from those cells, as the reader learns it.
3. The skin's images through that curve: the locator then finds the whole board, or
   refuses, by its usual rules.

Only where the board is comes from the recoloured skin: the board's cells are then read with
the skin itself, through the tone curve the reader learns for itself (the same way round:
templates through the curve, which keeps what the screen clips as it is).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from bot.reading.anchors import line_offsets, matches_at_pitch, place_lattice
from bot.reading.classify import CellScores
from bot.reading.colour_keys import key_colours
from bot.reading.grid import Grid
from bot.reading.pitches import candidate_pitches
from bot.reading.regions import find_regions, padded_box, search_padding
from bot.reading.skins import Skin, first_images
from bot.reading.state import ReaderState, ToneCurve

#: Farthest (levels, in any channel) a key colour is looked for from its own value: the
#: strongest change the reader undoes (see :data:`bot.reading.tone.OFFSET_LIMIT`) with room.
MAX_SHIFT = 60
#: The picture's commonest colours looked at (in bins of :data:`COLOUR_BIN` levels).
COMMONEST = 12
COLOUR_BIN = 4
#: Most rough shifts tried per skin, the smallest first.
MAX_CURVES = 4
#: ... and after them, at most this many shifts that two key colours agree on
#: (:func:`_agreed_shifts`), however large.
MAX_AGREED = 2
#: How near (levels, in any channel) another key colour under a shift must come to one of the
#: picture's commonest colours for the two to agree: contrast 0.85 or gamma 0.8 move GNOME
#: Mines' covered and open greys (38 levels apart) about 6 levels differently, and colours are
#: binned by :data:`COLOUR_BIN`.
AGREEMENT = 12
#: A step of more than this many grey levels between neighbouring pixels is an edge; an area
#: with fewer than :data:`MIN_EDGES` of its pixels on one holds no cells (cells draw an edge
#: at least once a cell, at most 64 px apart).
EDGE_STEP = 8
MIN_EDGES = 1 / 128
#: Largest mean root-mean-square difference (levels) between a recoloured board's cells and
#: the skin's images through the curve. Measured on the shipped games' fixtures under
#: brightness +-20, contrast 0.85-1.15, gamma 0.8-1.25 and night light: at most 6.7 (GNOME
#: Mines' uneven cells); sgt-mines boards taken for winmine through a curve: 20 and more.
MAX_RECOLOURED_DISTANCE = 12.0
#: The same for a skin whose game draws its cells anew at each size (``scales_with_window``):
#: its images stand in for cells drawn at other sizes, on a lattice of two cell widths (GNOME
#: Mines), so even its own cells differ more. Measured on GNOME Mines' fixtures (cells of 26 to
#: 114 px) under the colour table's changes: up to 23.3 (the won board of 60 px cells at
#: contrast 1.15; 19.3 as drawn), where the other skins' images lie 40 and more from its cells;
#: no other game's board was found through a curve as a skin of this kind.
MAX_REDRAWN_DISTANCE = 26.0


def rough_curves(frame: np.ndarray, skin: Skin) -> list[ToneCurve]:
    """Per-channel shifts that turn one of ``frame``'s commonest colours into one of the
    skin's key colours, commonest first (none closer than a few levels to no shift at all:
    the locator has looked at the picture as it is).

    >>> from bot.reading.skins import find_skin
    >>> skin = find_skin("winmine")
    >>> grey = np.full((40, 40, 3), 210, np.uint8)  # winmine's covered grey (192) lighter
    >>> [int(v) for v in rough_curves(grey, skin)[0].lut[192]]
    [210, 210, 210]
    """
    pixels = frame[::2, ::2].reshape(-1, 3).astype(np.int32) // COLOUR_BIN
    packed = (pixels[:, 0] << 16) | (pixels[:, 1] << 8) | pixels[:, 2]
    values, counts = np.unique(packed, return_counts=True)
    top = values[np.argsort(-counts, kind="stable")[:COMMONEST]]
    colours = np.stack([top >> 16, (top >> 8) & 255, top & 255], axis=1)
    colours = colours * COLOUR_BIN + COLOUR_BIN // 2
    keys = [key.astype(np.int32) for key in key_colours(skin)]
    shifts: list[np.ndarray] = []
    for colour in colours:
        for key in keys:
            shift = colour - key
            if np.abs(shift).max() > MAX_SHIFT or np.abs(shift).max() <= COLOUR_BIN:
                continue
            if not any(np.abs(shift - s).max() <= COLOUR_BIN for s in shifts):
                shifts.append(shift)
    # The smallest shifts first (of the commonest colours first among equals): a mild change
    # moves every colour a little, and the commonest colour of a won board's picture is often
    # the window's background, whose shifts onto the key colours are large and wrong. Then
    # the ones two key colours agree on: brightness -20 with contrast 0.85 moved GNOME Mines'
    # covered grey 27 levels, and four smaller shifts (the window's background and the board's
    # reds and greens onto its greys) came first.
    shifts.sort(key=lambda s: int(np.abs(s).max()))
    kept = shifts[:MAX_CURVES]
    kept += _agreed_shifts(shifts[MAX_CURVES:], keys, colours)[:MAX_AGREED]
    levels = np.arange(256)[:, None]
    return [ToneCurve(np.clip(levels + shift[None, :], 0, 255).astype(np.uint8)) for shift in kept]


def _agreed_shifts(
    shifts: list[np.ndarray], keys: list[np.ndarray], colours: np.ndarray
) -> list[np.ndarray]:
    """Those of ``shifts`` under which two of the skin's ``keys`` (colours well apart) both
    come within :data:`AGREEMENT` of the picture's commonest ``colours``: a board's covered
    and open cells, both on the screen.

    >>> keys = [np.array([180, 190, 185]), np.array([220, 222, 222])]
    >>> colours = np.array([[210, 210, 210], [156, 163, 161], [190, 190, 190]])
    >>> [s.tolist() for s in _agreed_shifts([np.array([-24, -27, -24]), np.array([30, 20, 25])],
    ...                                     keys, colours)]
    [[-24, -27, -24]]
    """
    agreed = []
    for shift in shifts:
        near = [
            bool((np.abs(colours - (key + shift)).max(axis=1) <= AGREEMENT).any()) for key in keys
        ]
        apart = any(
            near[i] and near[j] and np.abs(keys[i] - keys[j]).max() > 2 * AGREEMENT
            for i in range(len(keys))
            for j in range(i + 1, len(keys))
        )
        if apart:
            agreed.append(shift)
    return agreed


def toned_skin(skin: Skin, curve: ToneCurve) -> Skin:
    """``skin`` as a screen with tone curve ``curve`` shows it: every image through the curve,
    those drawn at other sizes included (a new skin value; what it is compared and memoised by
    changes with its images).

    >>> from bot.reading.skins import find_skin
    >>> skin = find_skin("winmine")
    >>> lut = np.clip(np.arange(256)[:, None] + [20, 20, 20], 0, 255).astype(np.uint8)
    >>> int(toned_skin(skin, ToneCurve(lut)).templates["covered"][8, 8, 0])
    212
    """

    def tone(image: np.ndarray) -> np.ndarray:
        return curve.apply(image.reshape(1, -1)).reshape(image.shape)

    return skin.redrawn(tone)


def learn_curve(frame: np.ndarray, grid: Grid, skin: Skin, rough: ToneCurve) -> ToneCurve | None:
    """The tone curve of ``frame``'s screen learnt from the cells of ``grid`` (cells of a
    board, found under the shift ``rough``), or None when no curve reads all of them clearly.
    Cells that read clearly in the skin's own colours (its tolerance allows for the change)
    need no curve: ``rough``, which put the skin's key colours where the screen shows them,
    is kept. The cells at the grid's edge, where the rough shift may have taken in what is not
    a cell, are left out when the whole grid gives no curve."""
    from bot.reading.classify import classify_cells, in_skin_colours
    from bot.reading.tone_search import learn_tone

    grids = [grid]
    if grid.cols >= 4 and grid.rows >= 4:
        grids.append(grid.part(1, 1, grid.cols - 2, grid.rows - 2))
    # The most detailed block holds the colours a curve is learnt from (a whole board's every
    # cell, read again through each curve tried, costs seconds); the whole grid's and the
    # inner one's are one block where the most detail lies away from the edge: read once.
    firsts = first_images(skin)
    for part in dict.fromkeys(detailed_block(frame, g, CURVE_BLOCK) for g in grids):
        drawn = classify_cells(frame, part, skin)
        # Read clearly and near their images: the tolerance allows for the change. Not where
        # they read clearly far from them: sgt-mines' covered tiles 20 levels darker at gamma
        # 0.8 show the face of its open cells, and read clearly as 0s.
        if drawn.clear(skin).all() and in_skin_colours(drawn.distance, skin):
            return rough
        # Then fitted to each class's first image only (the cells still read against every
        # image): a variant drawn for one cell at a time (GNOME Mines' covered cell under the
        # pointer, lighter) fits a fresh board's cells as well as the image itself does
        # through another curve, one the board is not found through.
        curve = learn_tone(frame, part, skin, fit_with=firsts)
        if curve is not None:
            return curve
        state = ReaderState()
        scores = classify_cells(frame, part, skin, state=state, adapt_tone=True)
        curve = state.tones.get(skin.name)
        if curve is not None:
            return curve
        if scores.clear(skin).all():
            return rough
    return None


def aligned_seeds(frame: np.ndarray, lattice: Grid, skin: Skin) -> Grid:
    """``lattice`` (cells found without a skin, :func:`~bot.reading.lattice.find_lattice`)
    moved by whole pixels, up to half a cell each way, to where ``skin``'s cells (the skin
    under a rough shift) read most surely: a finder that knows no skin may put the cells'
    boundary on the other side of the gap between tiles, and a curve is learnt only from
    cells cut where the skin cuts them. Coarse steps, then the pixels beside the best. Only
    the block of the lattice that shows the most detail is read at each move (a move of a
    flat cell changes little; the whole lattice would be read some 40 times)."""
    from bot.reading.classify import classify_cells

    seen: dict[tuple[int, int], float] = {}  # each move is classified once
    probe = detailed_block(frame, lattice, ALIGN_BLOCK)

    def sureness(dx: int, dy: int) -> float:
        if (dx, dy) not in seen:
            moved = replace(probe, left=probe.left + dx, top=probe.top + dy)
            scores = classify_cells(frame, moved, skin, detail=False)
            seen[dx, dy] = float(scores.confidence.mean())
        return seen[dx, dy]

    at = (0, 0)
    for axis, pitch in ((0, lattice.pitch_x), (1, lattice.pitch_y)):
        half = int(pitch // 2)
        # Steps of about a sixteenth of a cell, then halved down to a pixel: big cells (GNOME
        # Mines' 113 px) took some 60 reads an axis at steps of 2 px, 14 ms each.
        step = max(2, int(pitch // ALIGN_STEPS))
        stages: list[range | tuple[int, ...]] = [range(-half, half + 1, step)]
        while step > 1:
            step //= 2
            stages.append((-step, step))
        for moves in stages:
            base = at
            trials = [(base[0] + m, base[1]) if axis == 0 else (base[0], base[1] + m)
                      for m in moves]  # fmt: skip
            at = max([base, *trials], key=lambda t: sureness(*t))
    return replace(lattice, left=lattice.left + at[0], top=lattice.top + at[1])


#: Coarse moves per cell :func:`aligned_seeds` tries along each axis (at least 2 px apart).
ALIGN_STEPS = 16


#: Most cells (columns, rows) of the block :func:`aligned_seeds` reads at each move.
ALIGN_BLOCK = (8, 8)
#: Most cells (columns, rows) of the block :func:`learn_curve` learns a curve from.
CURVE_BLOCK = (12, 12)


def detailed_block(frame: np.ndarray, grid: Grid, most: tuple[int, int]) -> Grid:
    """The block of at most ``most`` (columns, rows) of ``grid``'s cells whose pixels vary the
    most (summed over its cells: grey standard deviation inside each cell), as a grid.

    >>> frame = np.zeros((40, 40, 3), np.uint8)
    >>> frame[25:35:2, 25:35] = 255  # stripes in the last cell
    >>> block = detailed_block(frame, Grid(0, 0, 10, 10, 4, 4), (2, 2))
    >>> block.left, block.top, block.cols, block.rows
    (20.0, 20.0, 2, 2)
    """
    import cv2

    bw, bh = min(most[0], grid.cols), min(most[1], grid.rows)
    if (bw, bh) == (grid.cols, grid.rows):
        return grid
    gray = cv2.cvtColor(frame[..., :3], cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    spread = np.zeros((grid.rows, grid.cols))
    for y in range(grid.rows):
        for x in range(grid.cols):
            left, top, cw, ch = grid.cell_rect(x, y)
            cell = gray[max(top, 0) : min(top + ch, h), max(left, 0) : min(left + cw, w)]
            spread[y, x] = cell.std() if cell.size else 0.0
    # Sums of every bw x bh block at once, from the running sums both ways.
    sums = np.pad(spread.cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    blocks = sums[bh:, bw:] - sums[:-bh, bw:] - sums[bh:, :-bw] + sums[:-bh, :-bw]
    y0, x0 = np.unravel_index(int(blocks.argmax()), blocks.shape)
    return grid.part(int(x0), int(y0), bw, bh)


def seed_grids(frame: np.ndarray, skin: Skin, later: bool = False) -> list[Grid]:
    """Blocks of cells of a board in ``frame`` (the skin's colours, or nearly), to learn its
    screen's tone curve from: those spanned by all the anchor matches on one lattice, then by
    their largest connected group (stray matches elsewhere left out); the most cells of any
    area first. Only anchors are matched, no cell is read: under a rough shift most cells
    would not read clearly. The pitches tried are those the skin's colours suggest first, or
    with ``later`` the others (see :func:`~bot.reading.pitches.candidate_pitches`)."""
    import cv2

    h, w = frame.shape[:2]
    small = cv2.resize(frame, (w // 2, h // 2), interpolation=cv2.INTER_NEAREST)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    # Where neighbouring pixels differ: a board's cells have an edge every cell; a flat or
    # gradient desktop of a key colour's shade has none (and is not worth a template match).
    edges = np.abs(np.diff(gray.astype(np.int16), axis=1)) > EDGE_STEP
    found: list[list[Grid]] = []
    for core in find_regions(frame, small, skin):
        x0, y0, x1, y1 = core
        if edges[y0:y1, x0:x1].mean() < MIN_EDGES:
            continue
        first, rest = candidate_pitches(skin, frame, padded_box(core, search_padding(skin), frame))
        for px, py in rest() if later else first:
            x0, y0, x1, y1 = padded_box(core, search_padding(skin, max(px, py)), frame)
            matched = matches_at_pitch(gray[y0:y1, x0:x1], skin, px, py)
            lattice = None if matched is None else place_lattice(*matched, skin.uneven_px)
            if matched is None or lattice is None:
                continue
            px, py = matched[2:]
            fx, fy, kx, ky, dx, dy = lattice
            grids = []
            for keep in (np.ones(kx.size, bool), _largest_group(kx, ky)):
                k_x, k_y, d_x, d_y = kx[keep], ky[keep], dx[keep], dy[keep]
                kx0, kx1, ky0, ky1 = k_x.min(), k_x.max(), k_y.min(), k_y.max()
                uneven = skin.uneven_px > 0
                grids.append(Grid(
                    float(x0 + fx + kx0 * px), float(y0 + fy + ky0 * py), float(px), float(py),
                    int(kx1 - kx0 + 1), int(ky1 - ky0 + 1),
                    line_offsets(k_x, d_x, kx0, kx1) if uneven else (),
                    line_offsets(k_y, d_y, ky0, ky1) if uneven else (),
                ))  # fmt: skip
            found.append(grids if grids[0] != grids[1] else grids[:1])
            break  # the first pitch whose anchors lie on a lattice
    found.sort(key=lambda grids: -grids[0].cols * grids[0].rows)
    return [grid for grids in found for grid in grids]


def _largest_group(kx: np.ndarray, ky: np.ndarray) -> np.ndarray:
    """Which of the lattice cells ``(kx, ky)`` belong to the largest group of cells no more
    than one cell apart (a board's anchors; stray matches elsewhere stay out).

    >>> _largest_group(np.array([0, 1, 2, 9]), np.array([0, 0, 1, 9])).tolist()
    [True, True, True, False]
    """
    import cv2

    x, y = kx - kx.min(), ky - ky.min()
    occupied = np.zeros((y.max() + 1, x.max() + 1), np.uint8)
    occupied[y, x] = 1
    grown = cv2.dilate(occupied, np.ones((3, 3), np.uint8))
    _, labels = cv2.connectedComponents(grown, connectivity=8)
    votes = np.bincount(labels[y, x])
    votes[0] = 0
    return np.asarray(labels[y, x] == votes.argmax())


def looks_recoloured(
    frame: np.ndarray, grid: Grid, toned: Skin, others: Sequence[Skin] = ()
) -> bool:
    """Whether the cells of ``grid`` look like the skin ``toned`` (its images through a
    screen's curve) pixel for pixel, as a screen's colour change leaves them, and not merely
    within the skin's tolerance: a curve can make another game's cells pass for a skin's
    (other fonts, other bevels), never make them equal (:data:`MAX_RECOLOURED_DISTANCE`,
    :data:`MAX_REDRAWN_DISTANCE`). Nor when one of the ``others`` skins' own images, as drawn
    or through the curve learnt for them, are nearer: that game's board, in colours that do
    not read clearly (a fresh sgt-mines board under noise passed for winmine's raised tiles
    through a curve; a curve learnt for the skin takes up some of the noise, so the other
    game's images get one too)."""
    from bot.reading.classify import classify_cells

    distance = float(classify_cells(frame, grid, toned).distance.mean())
    limit = MAX_REDRAWN_DISTANCE if toned.scales_with_window else MAX_RECOLOURED_DISTANCE
    if distance > limit:
        return False
    return all(_nearest_distance(frame, grid, other) >= distance for other in others)


def _nearest_distance(frame: np.ndarray, grid: Grid, skin: Skin) -> float:
    """The mean distance of ``grid``'s cells from ``skin``'s images as drawn or, where that is
    nearer and reads as a board a game shows, through the tone curve the reader learns from
    them (any game's flat cells fit a fresh board's one grey through a curve: xdemineur's
    open cells matched GNOME Mines' covered ones at 113 px to 0.0, a board of 0s)."""
    from bot.reading.classify import classify_cells
    from bot.reading.shown import shown_nowhere

    drawn = classify_cells(frame, grid, skin)
    as_drawn = float(drawn.distance.mean())
    if drawn.clear(skin).all():
        return as_drawn
    through = classify_cells(frame, grid, skin, state=ReaderState(), adapt_tone=True)
    if shown_nowhere(through.chars) is not None:
        return as_drawn
    return min(as_drawn, float(through.distance.mean()))


#: How many times nearer another game's images through a curve must be than the found
#: skin's for the board to be taken as that game's, recoloured: a board read as drawn whose
#: cells are loose (mean distance over half the skin's tolerance) is compared so.
NEARER_FACTOR = 2.0
#: Share of the cells another game's images must read clearly (through its curve) to be
#: compared: a grid placed for the skin found may sit a fraction of a pixel off the other
#: game's cells, and a few of them (bevel corners at the edge) then miss (sgt-mines' expert
#: board 20 levels darker, on winmine's lattice: 95.6 % clear, mean distance 3.6 to 12.2).
NEARER_CLEAR_SHARE = 0.9
#: Another game whose images, through a curve learnt for them, read every cell of a loose board
#: clearly, as a board a game shows, and fit its cells within this factor of the found skin's
#: (through its own curve, where its cells do not all read clearly as drawn) makes the game
#: untold: two games' curves fit about as well. sgt-mines' 9x9 board at contrast 0.7 read as
#: winmine's at 125 % through a curve (mean distance 7.85, sgt-mines' own 7.72); where a game's
#: board fits its own curve, other games' fit theirs at 1.8 times the distance and more
#: (winmine's 9x9 board at contrast 0.7: 0.54 against sgt-mines' 9.5 and xdemineur's 10.6;
#: sgt-mines' at 125 % and contrast 0.7: 3.5 against winmine's 6.5).
UNTOLD_FACTOR = 1.3


def loose_drawn(frame: np.ndarray, grid: Grid, skin: Skin) -> CellScores | None:
    """The cells of ``grid`` read as drawn, when they fit ``skin`` loosely (mean distance over
    half its tolerance); None when they fit closely, or for a skin whose game draws its cells
    anew at each size (``scales_with_window``): its images stand in for cells drawn at other
    sizes and fit even its own cells loosely (see :data:`MAX_REDRAWN_DISTANCE`), so looseness
    tells nothing there. Loose cells may be another game's (:func:`nearer_recoloured`), or the
    skin's own in other colours: sgt-mines' covered tiles and its 0s differ at 18 px only in
    their edge lines and by 12 levels inside, and at contrast 0.85 a fresh board's covered
    cells read as 0s within the tolerance, a board no game shows."""
    from bot.reading.classify import classify_cells

    if skin.scales_with_window:
        return None
    drawn = classify_cells(frame, grid, skin)
    return drawn if float(drawn.distance.mean()) > skin.tolerance / 2 else None


def nearer_recoloured(
    frame: np.ndarray, grid: Grid, skin: Skin, others: Sequence[Skin], loose: CellScores | None
) -> tuple[Skin, bool] | None:
    """The one of ``others`` whose images, through the tone curve learnt from the cells of
    ``grid``, are :data:`NEARER_FACTOR` times nearer those cells than ``skin``'s (read through
    its own curve, or as drawn), with True; or, with False, one whose images so read every cell
    clearly as a board a game shows and are about as near (:data:`UNTOLD_FACTOR`); None when
    none is. ``loose``: the cells read as drawn when they fit ``skin`` loosely
    (:func:`loose_drawn`); None, and nothing is compared, when they fit closely (or ``skin``
    draws its cells anew at each size: comparing would cost every first read of such a board
    several other skins' curves).

    A game's board in other colours can pass for another game's as drawn, each cell within the
    tolerance: sgt-mines' won board 25-30 levels darker read as a winmine board (grey tiles,
    digits in the same colours), a 4 taken for winmine's 1. Through a curve, sgt-mines' own
    images are far nearer its cells, even where a few of them (:data:`NEARER_CLEAR_SHARE`) do
    not read clearly on a grid placed for ``skin``."""
    from bot.reading.classify import classify_cells
    from bot.reading.shown import shown_nowhere

    if loose is None:
        return None

    def distance(of: Skin) -> tuple[float, float, bool]:
        """Mean distance, share of clear cells, and whether they read as a board shown."""
        scores = classify_cells(frame, grid, of, state=ReaderState(), adapt_tone=True)
        clear = float(scores.clear(of).mean())
        shown = clear == 1.0 and shown_nowhere(scores.chars) is None
        return float(scores.distance.mean()), clear, shown

    own = float(loose.distance.mean())
    drawn = bool(loose.clear(skin).all())
    if not drawn:  # else no curve is sought: the same reading again
        through, clear, _ = distance(skin)
        own = own if clear < 1.0 else min(own, through)
    for other in others:
        theirs, clear, shown = distance(other)
        if clear >= NEARER_CLEAR_SHARE and theirs * NEARER_FACTOR < own:
            return other, True
        # Only where the skin's own cells need a curve too: cells that all read clearly as
        # drawn tell their game by its own colours (sgt-mines' fresh board at 125 %, bilinear:
        # 7.5 as drawn, winmine's images at 156 % through a curve 4.4).
        if not drawn and shown and theirs < own * UNTOLD_FACTOR:
            return other, False
    return None
