"""Boards grown from the cells of the lattice found without a skin
(:func:`~bot.reading.lattice.find_lattice`) that read clearly as a skin's: where anchors place
none (a won board has no covered cell, a lost one may be nearly all mines)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bot.errors import LatticeError
from bot.reading.evident import drawn_classes, lattice_shown
from bot.reading.extent import Candidate, board_extent
from bot.reading.grid import Grid
from bot.reading.lattice import find_lattice
from bot.reading.pitches import comes_in
from bot.reading.recolour import aligned_seeds
from bot.reading.shown import shown_nowhere
from bot.reading.skins import Skin

__all__ = [
    "MIN_SEED_CELLS",
    "found_lattice",
    "lattice_boards",
    "lattice_boards_within",
    "lattice_of",
    "seeded_board",
]

#: How far (relative) the lattice's pitch may lie beyond the largest the skin's cells come in.
PITCH_SLACK = 0.1
#: Fewest cells that read clearly as a skin's to grow a board from, or learn a curve from.
MIN_SEED_CELLS = 4


def lattice_of(frame: np.ndarray, skin: Skin, lattice: list[list[Grid]]) -> list[Grid]:
    """:func:`found_lattice`, if its cells are no bigger than the skin's come in (see
    :func:`~bot.reading.pitches.comes_in`: reading 114 px cells as each skin's cost
    seconds)."""
    return _sized(skin, found_lattice(frame, lattice))


def _sized(skin: Skin, grids: list[Grid]) -> list[Grid]:
    """Those of ``grids`` whose cells are no bigger than the skin's come in."""
    return [g for g in grids if comes_in(skin, min(g.pitch_x, g.pitch_y), PITCH_SLACK, True)]


def found_lattice(frame: np.ndarray, lattice: list[list[Grid]]) -> list[Grid]:
    """The cells of the lattice :func:`~bot.reading.lattice.find_lattice` finds in ``frame``
    (no skin needed; none if it finds none), looked for once: kept in ``lattice``."""
    if not lattice:
        try:
            found = find_lattice(frame)
        except LatticeError:
            lattice.append([])
        else:
            lattice.append([Grid.from_lines(found.xs, found.ys)])
    return lattice[0]


def lattice_boards(
    frame: np.ndarray, skins: Sequence[Skin], lattice: list[list[Grid]], noisy: bool = False
) -> list[Candidate]:
    """Each skin's board grown (:func:`~bot.reading.extent.board_extent`) from the cells of
    the lattice found without a skin that read clearly as the skin's, once the lattice is
    moved to where they read most surely (:func:`~bot.reading.recolour.aligned_seeds`);
    ``noisy``: with a lossy picture's edges widened (see :func:`seeded_board`)."""
    return [
        board
        for skin in skins
        for board in _grown(frame, skin, lattice_of(frame, skin, lattice), noisy)
    ]


def _grown(
    frame: np.ndarray, skin: Skin, grids: list[Grid], noisy: bool = False
) -> list[Candidate]:
    """The skin's boards grown from each of ``grids``, moved to where its cells read most
    surely (none where too few read)."""
    boards = []
    for grid in grids:
        board = seeded_board(frame, aligned_seeds(frame, grid, skin), skin, noisy)
        if board is None and lattice_shown(frame, grid):
            # No drawn cell to seed from (a web clone's fresh board: squares of two greens, no
            # lines): flat cells fit any pitch and any shift, but the picture's colour steps
            # fall on this lattice's lines, so its cells are taken where it puts them.
            board = seeded_board(frame, grid, skin, noisy, flat=True)
        if board is not None:
            boards.append(board)
    return boards


def lattice_boards_within(
    frame: np.ndarray, areas: Sequence[tuple[Skin, tuple[int, int, int, int]]]
) -> list[Candidate]:
    """Each skin's board grown from the cells of the lattice found without a skin in its area
    ``(x0, y0, x1, y1)`` of ``frame`` (as :func:`lattice_boards` does over the whole frame):
    a board beside another whose anchors place none (a lost board nearly all mines)."""
    boards = []
    for skin, (x0, y0, x1, y1) in areas:
        try:
            found = find_lattice(frame[y0:y1, x0:x1])
        except LatticeError:
            continue
        grid = Grid.from_lines(tuple(x + x0 for x in found.xs), tuple(y + y0 for y in found.ys))
        boards += _grown(frame, skin, _sized(skin, [grid]))
    return boards


def seeded_board(
    frame: np.ndarray, grid: Grid, skin: Skin, noisy: bool = False, flat: bool = False
) -> Candidate | None:
    """The skin's board grown from the cells of ``grid`` that read clearly as its drawn
    classes, or None (too few of them, or no board); ``noisy``: cells read and grown with a
    lossy picture's edges widened (a won board in a JPEG: no covered cell for an anchor, and
    its numbers' edges smeared past the skin's tolerance); ``flat``: from every cell of
    ``grid``, flat ones too, when each reads clearly and they make a board a game can show
    (:func:`~bot.reading.shown.shown_nowhere`; else None)."""
    from bot.reading.classify import classify_cells

    scores = classify_cells(frame, grid, skin, lossy=noisy)
    # Seeds of drawn classes only: a flat cell of the skin's also reads clearly on any flat
    # tile of its colour (GNOME's covered cells, contrast lowered, as xdemineur's 0s).
    clear = scores.clear(skin)
    seeds = clear if flat else clear & np.isin(scores.classes, drawn_classes(skin, grid))
    if flat and (not clear.all() or shown_nowhere(scores.chars) is not None):
        # Every cell, read clearly and as a board a game shows: a flat class of another
        # skin's reads on any game's flat tiles too (xdemineur's 0s on GNOME's fresh board).
        return None
    rows, cols = np.nonzero(seeds)
    if cols.size < MIN_SEED_CELLS:
        return None
    px, py = grid.pitch_x, grid.pitch_y
    # A game that shares out spare pixels draws uneven lines: the lattice's own offsets.
    shifts = None
    if skin.uneven_px:
        shifts = (_offsets(grid.col_offsets, cols), _offsets(grid.row_offsets, rows))
    h, w = frame.shape[:2]
    return board_extent(frame, skin, grid.left, grid.top, px, py, (cols, rows), (0, 0, w, h),
                        shifts, noisy, reach=skin.uneven_at(px, py))  # fmt: skip


def _offsets(offsets: tuple[float, ...], lines: np.ndarray) -> np.ndarray:
    """Each of ``lines``' offset from the even lattice (0 where the lattice has none)."""
    return np.asarray(offsets)[lines] if offsets else np.zeros(len(lines))
