"""Tuning, step 1 for a set of screenshots: each one's lattice (:func:`load_shot`), and for a
screenshot of the same window as another whose board the lattice finder misses, that one's
board (see :func:`load_shots`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bot.errors import TuneError
from bot.reading.lattice import Lattice
from bot.reading.lattice_frame import whole_lattice
from bot.reading.tune_cells import SAME_SHARE, TOLERANCE, Shot, load_shot, shot_at
from bot.userfiles import read_image

#: Width of the frame around a board compared between two screenshots, in cells.
FRAME_CELLS = 0.5


def load_shots(paths: Sequence[str | Path]) -> list[Shot]:
    """Every screenshot with its board lattice and labels, in order.

    The lattice finder looks for a board without knowing the game, and misses some boards
    mid-game (KMines' default theme draws open cells without lines, semi-transparent over a
    shaded background: a board of numbers shows its period faintly) or finds a part of them.
    A screenshot of the same window as another one whose board was found whole (the same
    picture size, and the frame around that board the same in both: the window has not
    moved) takes that board. That is how a frame ``minebot play`` logged, with a cell it could
    not read, teaches the class along with the screenshots the skin was tuned from.
    """
    found: list[Shot | None] = []
    missed: dict[int, TuneError] = {}
    for i, path in enumerate(paths):
        try:
            found.append(load_shot(path))
        except TuneError as exc:
            found.append(None)
            missed[i] = exc
    # Boards found whole (ending at their frame) give theirs first, the larger first.
    ends = {id(s): whole_lattice(s.image, s.lattice) for s in found if s is not None}
    donors = sorted(
        (s for s in found if s is not None),
        key=lambda s: (ends[id(s)], s.lattice.cols * s.lattice.rows),
        reverse=True,
    )
    shots = []
    for i, (path, shot) in enumerate(zip(paths, found, strict=True)):
        image = read_image(Path(path), "screenshot") if shot is None else shot.image
        own = None if shot is None else ends[id(shot)]
        donor = next(
            (d for d in donors if d is not shot and _takes_board(image, shot, own, d, ends[id(d)])),
            None,
        )
        if donor is not None:
            shot = shot_at(Path(path), image, donor.lattice)
        if shot is None:
            raise missed[i]
        shots.append(shot)
    return shots


def _takes_board(
    image: np.ndarray, shot: Shot | None, own_whole: bool | None, donor: Shot, whole: bool
) -> bool:
    """True when ``image`` (found as ``shot``, or not at all; ``own_whole``: whether that
    board ends at its frame) should take ``donor``'s board (``whole``: it ends at its frame)
    with the same frame around it: a board found whole is not given one that is not; a board
    not found whole takes one that is, whatever its size (a status bar below the board taken
    for a row of cells), and one of more cells of the same size with its own inside it (a game
    drawing each level's cells at a size of its own may fill the same window with fewer,
    bigger cells)."""
    lattice = donor.lattice
    if shot is not None:
        own = shot.lattice
        if max(abs(own.pitch_x - lattice.pitch_x), abs(own.pitch_y - lattice.pitch_y)) > 1:
            return False
        if own_whole and not whole:
            return False
        larger = own.cols * own.rows < lattice.cols * lattice.rows and _within(own, lattice)
        if not larger and (own_whole or not whole or own == lattice):
            return False
    return image.shape == donor.image.shape and same_frame(image, donor.image, lattice)


def _within(part: Lattice, board: Lattice) -> bool:
    """True when ``part``'s box lies inside ``board``'s, give or take a cell's quarter."""
    slack = min(board.pitch_x, board.pitch_y) / 4
    (a0, b0, a1, b1), (c0, d0, c1, d1) = part.box, board.box
    return a0 >= c0 - slack and b0 >= d0 - slack and a1 <= c1 + slack and b1 <= d1 + slack


def same_frame(a: np.ndarray, b: np.ndarray, lattice: Lattice) -> bool:
    """True when the band around ``lattice``'s board (:data:`FRAME_CELLS` of a cell wide, an
    eighth of a cell out, as far as the pictures go) looks the same in ``a`` and ``b``: at
    least ``SAME_SHARE`` of its pixels within ``TOLERANCE``.

    >>> a = np.full((60, 60, 3), 90, np.uint8); a[10:50, 10:50] = 200
    >>> b = a.copy(); b[20:40, 20:40] = 30                # the board changed, not its frame
    >>> lat = Lattice.regular(10, 10, 10, 10, 4, 4)
    >>> same_frame(a, b, lat), same_frame(a, b + 60, lat)
    (True, False)
    """
    x0, y0, x1, y1 = lattice.box
    pitch = min(lattice.pitch_x, lattice.pitch_y)
    # The pixels right beside the cells are drawn with them (KMines' frame lightens beside an
    # open cell): the band starts a little way out.
    gap, w = max(1, round(pitch / 8)), max(2, round(FRAME_CELLS * pitch))
    band = np.zeros(a.shape[:2], bool)
    band[max(y0 - gap - w, 0) : y1 + gap + w, max(x0 - gap - w, 0) : x1 + gap + w] = True
    band[max(y0 - gap, 0) : y1 + gap, max(x0 - gap, 0) : x1 + gap] = False
    if not band.any():
        return False
    diff = np.abs(a[..., :3].astype(np.int16) - b[..., :3].astype(np.int16)).max(axis=2)
    return float((diff[band] <= TOLERANCE).mean()) >= SAME_SHARE
