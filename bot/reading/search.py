"""Searching one area of a picture for a skin's boards (steps 1-3 of
:mod:`bot.reading.locate` for one skin): the pitches to try, the anchors at each, the lattice
they place and the boards grown from it (:mod:`bot.reading.extent`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from bot.reading.anchors import (
    anchor_matches,
    fit_pitch,
    fitted_matches,
    lattice_step,
    place_lattice,
)
from bot.reading.extent import MIN_BOARD_CELLS, Candidate, board_extent
from bot.reading.pitches import Pitches, smallest_pitch
from bot.reading.regions import FrameLook, padded_box, search_padding
from bot.reading.skins import Skin

#: Most boards looked for in one area (more than one is refused: see
#: :func:`bot.reading.locate.locate_board`).
MAX_BOARDS = 3
#: Fewest anchor matches beyond a board found that are looked at as another board.
MIN_ANCHORS = 3
#: Fewest cells each way an area beside a board found must hold to be searched for another
#: board by its lattice (no board of a game is smaller; a header bar holds two or three rows).
LATTICE_SIDE = 6


def locate_skin(
    look: FrameLook,
    skin: Skin,
    later: list[tuple[Skin, tuple[int, int, int, int], Callable[[], Pitches]]],
    taken: list[tuple[float, float, float, float]],
    noisy: bool = False,
    away_from: tuple[float, float, float, float] | None = None,
) -> list[Candidate]:
    """The skin's boards in the frame ``look`` shows, trying each dense area's first pitches;
    the pitches to try later are added to ``later``. ``taken``: boxes where other skins read a
    board clearly. ``away_from``: a board blanked out; of an area round it only the widest part
    beside it that can hold a board is searched."""
    found: list[Candidate] = []
    frame, gray = look.frame, look.gray
    for core in areas_beside(look, skin, away_from):
        first, rest = look.pitches_in(skin, padded_box(core, search_padding(skin), frame))
        if away_from is not None:
            # Beside a board found, only cells small enough for a board there are worth a match;
            # and none at all where the skin's colours repeat with no period its cells have (a
            # window's header bar beside the board).
            first, rest = _fitting(first, core), functools.partial(_fitting_later, rest, core)
            if not first:
                continue
        listed = {(skin.pitch_x * k, skin.pitch_y * k) for k in skin.scales}
        if taken and not set(first) & listed and any(overlap(core, box) for box in taken):
            # Only a scaling the skin does not list fits here, and another skin read a board
            # clearly here: tried only if no board is found (saves a match per frame).
            later.append((skin, core, functools.partial(_then, first, rest)))
            continue
        found += search_area(frame, gray, skin, core, first, noisy, beside=away_from is not None)
        later.append((skin, core, rest))
    return found


def areas_beside(
    look: FrameLook, skin: Skin, away_from: tuple[float, float, float, float] | None = None
) -> list[tuple[int, int, int, int]]:
    """The areas of the frame ``look`` shows dense in the skin's key colours; with
    ``away_from`` (a board blanked out), of each the widest part beside that box that can hold
    a board (see :func:`_beside`), where the skin's colours are dense over room for one."""
    cores = look.regions_of(skin)
    if away_from is None:
        return cores
    side = _board_room(skin)
    areas = []
    for core in cores:
        part = _beside(core, away_from, skin)
        if part is None:
            continue
        # The closing of gaps between cells grows each dense area two blocks a side, and an
        # area round a board spans its window: a title bar beside the board (28 px of a grey
        # GNOME Mines' open cells share) made room for three 26 px cells, matched at every
        # first read; for sgt-mines, whose grey it is too, the part of the window above the
        # board made room for more.
        dense = look.dense_within(skin, part)
        if dense is not None and min(dense[2] - dense[0], dense[3] - dense[1]) >= side:
            areas.append(part)
    return areas


def lattice_areas_beside(
    look: FrameLook, skin: Skin, away_from: tuple[float, float, float, float]
) -> list[tuple[int, int, int, int]]:
    """The areas beside the board ``away_from`` (blanked out in the frame ``look`` shows)
    where the skin's key colours repeat at a pitch of its cells that fits a board of
    :data:`LATTICE_SIDE` cells each way, padded to search: where a board that no anchor
    places (a lost board nearly all mines) may lie, for the lattice found without a skin to
    seed it; or, where they repeat at no pitch of the skin's cells (sgt-mines' 62 px tiles),
    that holds as many of the skin's own cells. A window's header bar beside the board holds
    too few rows."""
    areas = []
    own = [(float(skin.pitch_x), float(skin.pitch_y))]
    for core in areas_beside(look, skin, away_from):
        box = padded_box(core, search_padding(skin), look.frame)
        first, _ = look.pitches_in(skin, box)
        if _fitting(first or own, core, LATTICE_SIDE):
            areas.append(box)
    return areas


def _beside(
    core: tuple[int, int, int, int], box: tuple[float, float, float, float], skin: Skin
) -> tuple[int, int, int, int] | None:
    """``core`` where it does not overlap ``box``; else the widest of its parts left, right,
    above or below ``box``, or None when none can hold :data:`MIN_BOARD_CELLS` of the skin's
    smallest cells (the board's own window round it holds no second board).

    >>> skin = type("S", (), {"pitch_x": 16, "pitch_y": 16, "scales": (1.0,),
    ...                       "scales_with_window": False})()
    >>> _beside((0, 0, 400, 100), (0, 0, 300, 100), skin)
    (300, 0, 400, 100)
    >>> _beside((0, 0, 320, 100), (0, 0, 300, 100), skin) is None
    True
    """
    if not overlap(core, box):
        return core
    x0, y0, x1, y1 = core
    bx0, by0, bx1, by1 = (int(round(v)) for v in box)
    parts = [(x0, y0, bx0, y1), (bx1, y0, x1, y1), (x0, y0, x1, by0), (x0, by1, x1, y1)]
    side = _board_room(skin)
    roomy = [p for p in parts if p[2] - p[0] >= side and p[3] - p[1] >= side]
    return max(roomy, key=lambda p: (p[2] - p[0]) * (p[3] - p[1]), default=None)


def _board_room(skin: Skin) -> float:
    """The side (px) of the smallest square that holds a board of :data:`MIN_BOARD_CELLS` of the
    skin's smallest cells."""
    return float(smallest_pitch(skin) * np.sqrt(MIN_BOARD_CELLS))


def _fitting(
    pitches: Pitches, core: tuple[int, int, int, int], side: float = np.sqrt(MIN_BOARD_CELLS)
) -> Pitches:
    """The pitches at which ``core`` holds ``side`` cells each way (a board of
    :data:`MIN_BOARD_CELLS` cells).

    >>> _fitting([(20.0, 20.0), (40.0, 40.0)], (0, 0, 1200, 81))
    [(20.0, 20.0)]
    """
    width, height = core[2] - core[0], core[3] - core[1]
    return [(px, py) for px, py in pitches if side * px <= width and side * py <= height]


def _fitting_later(rest: Callable[[], Pitches], core: tuple[int, int, int, int]) -> Pitches:
    """:func:`_fitting` of the pitches ``rest`` gives (worked out only when asked for)."""
    return _fitting(rest(), core)


def _then(first: Pitches, rest: Callable[[], Pitches]) -> Pitches:
    """``first`` and then the pitches ``rest`` gives (worked out only when asked for)."""
    return first + rest()


def search_area(
    frame: np.ndarray,
    gray: np.ndarray,
    skin: Skin,
    core: tuple[int, int, int, int],
    pitches: Pitches,
    noisy: bool = False,
    beside: bool = False,
) -> list[Candidate]:
    """The best board of the skin around the dense area ``core`` at one of ``pitches``, and
    other boards found at that pitch beside it (their anchors on another phase); ``beside``:
    the area lies beside a board found (its header bar, mostly)."""
    best: list[Candidate] = []
    queue = list(pitches)
    tried = {(float(round(px)), float(round(py))) for px, py in pitches}
    taken: set[tuple[float, float]] = set()  # the pitches matched already
    while queue:
        px, py = queue.pop(0)
        taken.add((px, py))
        # Matched in the dense area and two cells of this pitch around it.
        x0, y0, x1, y1 = padded_box(core, search_padding(skin, max(px, py)), frame)
        roi = gray[y0:y1, x0:x1]
        xs, ys = anchor_matches(roi, skin, px, py)
        nearest = (float(round(px)), float(round(py)))
        draws_sizes = skin.scales_with_window or bool(skin.sizes)
        if xs.size < 2:
            # (Not beside a board found: a header bar there repeats the colours at no pitch
            # of cells, and the whole pitch's images cost a first read 5 ms more.)
            if draws_sizes and not beside and nearest not in queue and nearest not in taken:
                # No anchor at a period measured to a fraction (sgt-mines' 14 px tiles amid
                # text windows: 13.9): the whole pitch of a game drawing its own cells.
                queue.append(nearest)
            continue
        if not skin.uneven_px:
            bigger = _bigger_cells(xs, ys, px, py)
            if bigger is not None and bigger not in tried:
                # Every match a whole number of cells apart: the cells may be that many times
                # as big (anchors of a smaller size found in part of each big cell).
                tried.add(bigger)
                queue.insert(0, bigger)
        area = (x0, y0, x1, y1)
        boards = _fitted_boards(frame, roi, skin, (xs, ys), (px, py), area, skin.uneven_px, noisy)
        wider = skin.uneven_at(px, py)
        if boards and boards[0].cut and wider > skin.uneven_px:
            # Stretched by a desktop scaler, the game's uneven lines lie further off an even
            # lattice: fitted and placed again with that reach (only then: a wider reach costs
            # time, and lets a lost board's few anchors pull lines astray).
            again = _fitted_boards(frame, roi, skin, (xs, ys), (px, py), area, wider, noisy)
            if again and again[0].better_than(boards[0]):
                boards = again
        exact = bool(boards) and boards[0].clean and boards[0].distance < 1.0
        if draws_sizes and not exact and nearest not in queue and nearest not in taken:
            # A game drawing its cells itself draws them whole pixels wide; the period they
            # were tried at is measured to a fraction, and other things round a board pull it
            # off (sgt-mines' 13 px tiles on a busy desktop: 12.89, where anchors matched two
            # cells and a 30x7 board was grown, drifting off its rows): unless a board read
            # exactly, the whole pitch is tried next.
            queue.append(nearest)
        if not boards:
            continue
        if not best or boards[0].better_than(best[0]):
            best = boards
        if exact:
            break  # pixel-exact at this pitch: no other pitch can fit better
    return best


def _fitted_boards(
    frame: np.ndarray,
    roi: np.ndarray,
    skin: Skin,
    matches: tuple[np.ndarray, np.ndarray],
    pitch: tuple[float, float],
    area: tuple[int, int, int, int],
    reach: float,
    noisy: bool = False,
) -> list[Candidate]:
    """:func:`_boards_on` the anchor ``matches`` once their pitch is fitted (see
    :func:`~bot.reading.anchors.fitted_matches`); ``roi``: the grey search ``area``."""
    matched = fitted_matches(roi, skin, *matches, *pitch, reach)
    if matched is None:
        return []
    xs, ys, px, py = matched
    return _boards_on(frame, skin, (xs, ys), (px, py), area, reach, noisy)


def _boards_on(
    frame: np.ndarray,
    skin: Skin,
    matches: tuple[np.ndarray, np.ndarray],
    pitch: tuple[float, float],
    roi_box: tuple[int, int, int, int],
    reach: float,
    noisy: bool = False,
) -> list[Candidate]:
    """The boards the anchor ``matches`` (in the search area ``roi_box``) seed at ``pitch``, the
    best first; ``reach``: how far (px) an uneven lattice's lines may lie off an even one."""
    (xs, ys), (px, py) = matches, pitch
    x0, y0 = roi_box[:2]
    boards: list[Candidate] = []
    for _ in range(MAX_BOARDS):
        lat = place_lattice(xs, ys, px, py, reach)
        if lat is None:
            break
        fx, fy, kx, ky, dx, dy = lat
        shifts = (dx, dy) if skin.uneven_px else None
        found = board_extent(
            frame, skin, fx + x0, fy + y0, px, py, (kx, ky), roi_box, shifts, noisy, reach=reach
        )
        if found is None or found.score <= 0:
            break
        boards.append(found)
        # Anchors well outside this board (beyond its frame) may be another board's.
        left, top, right, bottom = found.located.grid.bounds
        away = (
            (xs + x0 < left - 2 * px) | (xs + x0 > right + px)
            | (ys + y0 < top - 2 * py) | (ys + y0 > bottom + py)
        )  # fmt: skip
        if away.sum() < MIN_ANCHORS:
            break
        xs, ys = xs[away], ys[away]
    return boards


def _bigger_cells(
    xs: np.ndarray, ys: np.ndarray, px: float, py: float
) -> tuple[float, float] | None:
    """The pitch of cells several times ``(px, py)`` when the anchor matches ``xs, ys`` lie a
    common multiple of cells apart both ways (on the lattice fitted to them), else None."""
    fit_x, fit_y = fit_pitch(xs, ys, px, py)
    step = lattice_step(xs, ys, fit_x, fit_y)
    if step < 2:
        return None
    return float(round(step * fit_x)), float(round(step * fit_y))


def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Whether boxes ``(x0, y0, x1, y1)`` share any area.

    >>> overlap((0, 0, 10, 10), (5, 5, 20, 20)), overlap((0, 0, 10, 10), (10, 0, 20, 10))
    (True, False)
    """
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
