"""The one whole board among the readings of a picture (step 5 of :mod:`bot.reading.locate`).

Every skin's readings of the frame (:func:`find_candidates`) are cut to one a place
(:func:`distinct_places`); the one with the most confidently read cells wins if it is whole (its
four sides end at the game's frame, :mod:`bot.reading.whole`) and alone: any other clear
reading, also one seen only once the board found is blanked out, makes it one of two boards
(refused, both named).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np

from bot.errors import BoardNotFoundError, TwoBoardsError
from bot.reading.colour_keys import key_colours
from bot.reading.evident import line_unseen
from bot.reading.extent import MIN_BOARD_CELLS, Candidate, Located
from bot.reading.pitches import Pitches
from bot.reading.regions import FrameLook, padded_box
from bot.reading.search import (
    areas_beside,
    lattice_areas_beside,
    locate_skin,
    overlap,
    search_area,
)
from bot.reading.seeded import lattice_boards_within
from bot.reading.shown import shown_nowhere
from bot.reading.skins import Skin
from bot.reading.whole import SIDES, board_problem, check_whole

__all__ = [
    "board_sized",
    "choose_board",
    "describe_board",
    "distinct_places",
    "find_candidates",
    "is_whole",
    "locate_drawn",
    "reads_clearly",
    "sure_below_own_size",
    "two_boards_error",
]

#: Where no board reads clean, another reading whose share of clear cells is within this of the
#: board chosen makes it "two boards".
OTHER_PASSING = 0.1


def reads_clearly(frame: np.ndarray, located: Located, shown: bool = False) -> bool:
    """Whether every cell of the board found reads clearly as the reader reads it (through
    the frame's tone curve, or with its noise allowed for); with ``shown``, also as a board a
    game can show (:func:`~bot.reading.shown.shown_nowhere`: a part of a board, cut, may
    not be)."""
    from bot.reading.classify import classify_cells

    skin = located.skin
    scores = classify_cells(frame, located.grid, skin, adapt_tone=True)
    clear = bool(scores.clear(skin).all())
    return clear and (not shown or shown_nowhere(scores.chars) is None)


def find_candidates(
    look: FrameLook,
    skins: Sequence[Skin],
    retry: Sequence[Skin] | None = None,
    away_from: tuple[float, float, float, float] | None = None,
    noisy: bool = False,
) -> list[Candidate]:
    """Every skin's boards in the frame ``look`` shows, by the pitches its colours' period
    suggests, then by the others if no board reads clearly (when given: only for the skins
    ``retry``); with ``away_from`` (a board blanked out), only beside that box (see
    :func:`_boards_beside`)."""
    found: list[Candidate] = []
    later: list[tuple[Skin, tuple[int, int, int, int], Callable[[], Pitches]]] = []
    for skin in skins:
        taken = [c.located.grid.bounds for c in found if board_sized(c)]
        found += locate_skin(look, skin, later, taken, noisy, away_from)
    if not any(board_sized(c) for c in found):
        # The key colours' period ruled these pitches out; but a board amid other things of
        # its colours (a grey desktop round a grey game) can hide its period: try them too
        # before giving up.
        for skin, core, pitches in later:
            if retry is None or skin in retry:
                found += search_area(look.frame, look.gray, skin, core, pitches(), noisy)
    return [c for c in found if sure_below_own_size(look.frame, c)]


def sure_below_own_size(frame: np.ndarray, candidate: Candidate) -> bool:
    """Whether a board found below its skin's own size (a size the game draws itself) reads
    clearly as the reader reads it (its strictness, the frame's tone curve); True for every
    other candidate. There another game's cells at their own size can pass a sparse look: a
    winmine board 20 levels brighter passed for sgt-mines' 16 px tiles, and kept the screen's
    colours from being looked at. Cells a pixel short of the skin's own are at its own size:
    a game sharing out a window's spare pixels draws some cells a pixel narrower (GNOME Mines'
    33 px cells at 32.7 px apart), and such a board needs no second look."""
    located = candidate.located
    skin = located.skin
    if located.scale >= 1 - 1 / max(skin.pitch_x, skin.pitch_y):
        return True
    return reads_clearly(frame, located)  # the reader refuses any cell that is not


def shows_cells(frame: np.ndarray, candidate: Candidate) -> bool:
    """Whether the picture shows lines between ``candidate``'s cells along some side
    (:func:`~bot.reading.evident.line_unseen`): a flat patch that reads as cells through a
    tone curve (a side panel as GNOME Mines' open cells) is no second board."""
    grid = candidate.located.grid
    return any(line_unseen(frame, grid, side) is None for side in SIDES)


def board_sized(candidate: Candidate) -> bool:
    """Whether ``candidate`` reads clearly on enough cells (:data:`MIN_BOARD_CELLS`, in two
    rows and two columns at least) to be a board, another one beside a board found included: a
    few cells read clearly (a JPEG's winmine look-alikes inside an xdemineur board), or a single
    row of them (a brightened winmine board's row read as sgt-mines' 16 px tiles), are none,
    and keep no other skin from its pitches there nor the screen's colours from being looked
    at."""
    grid = candidate.located.grid
    return (
        candidate.clean
        and min(grid.cols, grid.rows) >= 2
        and grid.cols * grid.rows >= MIN_BOARD_CELLS
    )


def locate_drawn(frame: np.ndarray, skins: Sequence[Skin], noisy: bool = False) -> Located:
    """The one whole board in ``frame`` (BGR) in the skins' own colours; raises
    :class:`~bot.errors.BoardNotFoundError` (or a subclass) saying why there is none."""
    look = FrameLook.of(frame)
    return choose_board(
        look, distinct_places(find_candidates(look, skins, noisy=noisy)), skins, noisy
    )


def whole_boards(frame: np.ndarray, boards: Sequence[Candidate]) -> list[Candidate]:
    """Those of ``boards`` that read clean and are whole in ``frame``."""
    return [c for c in boards if c.clean and is_whole(frame, c)]


def choose_board(
    look: FrameLook,
    boards: list[Candidate],
    skins: Sequence[Skin],
    noisy: bool = False,
    whole: list[Candidate] | None = None,
) -> Located:
    """The one whole board among ``boards`` (one candidate a place; ``whole``: those that
    read clean and are whole, when known) in the frame ``look`` shows, or
    :class:`~bot.errors.BoardNotFoundError` (or a subclass) saying why there is none."""
    frame = look.frame
    if whole is None:
        whole = whole_boards(frame, boards)
    if whole:
        # Any other clear reading of the skin's cells beside a whole board is another board,
        # or part of one: which board the user means cannot be told (refused, both named).
        others = [c for c in boards if c is not whole[0] and board_sized(c)]
        others = others or _boards_beside(look, whole[0].located, skins, noisy)
        others = [c for c in others if shows_cells(frame, c)]
        if others:
            raise _two_boards(frame, whole[0], others)
        return whole[0].located
    best = None
    for candidate in boards:
        if candidate.better_than(best):
            best = candidate
    if best is None:
        names = ", ".join(s.name for s in skins)
        raise BoardNotFoundError(
            f"no board found in the {frame.shape[1]}x{frame.shape[0]} picture "
            f"(skins tried: {names})"
        )
    if best.cut:
        grid = best.located.grid
        raise BoardNotFoundError(
            f"a {best.located.skin.name} board was found only in part: its cells read clearly "
            f"in a {grid.cols}x{grid.rows} part at ({grid.left:.0f}, {grid.top:.0f}), but cells "
            "of the board lie beyond it"
        )
    check_whole(frame, best.located.grid, f"{best.located.skin.name} board")
    # A reading about as clear elsewhere (a lossy picture of two boards: neither reads clean)
    # is another board: which one the user means cannot be told.
    others = [c for c in boards if c is not best and not c.cut
              and c.located.grid.cols * c.located.grid.rows >= MIN_BOARD_CELLS
              and c.passing >= best.passing - OTHER_PASSING and shows_cells(frame, c)]  # fmt: skip
    if others:
        raise _two_boards(frame, best, others)
    return best.located


def _two_boards(frame: np.ndarray, chosen: Candidate, others: list[Candidate]) -> TwoBoardsError:
    """The refusal naming ``chosen`` and ``others`` (each whole or in part)."""
    return two_boards_error(
        [
            describe_board(c.located, c is chosen or board_problem(frame, c.located.grid) is None)
            for c in [chosen, *others]
        ]
    )


def two_boards_error(boards: Sequence[str]) -> TwoBoardsError:
    """The refusal of a picture showing ``boards`` (each described, :func:`describe_board`)."""
    return TwoBoardsError(
        f"{len(boards)} boards in the picture: "
        + " and ".join(boards)
        + "; show one at a time (or capture one window)"
    )


def is_whole(frame: np.ndarray, candidate: Candidate) -> bool:
    """Whether ``candidate`` is a whole board (not cut, each side at a frame)."""
    return not candidate.cut and board_problem(frame, candidate.located.grid) is None


def _boards_beside(
    look: FrameLook, board: Located, skins: Sequence[Skin], noisy: bool = False
) -> list[Candidate]:
    """Clear readings of any skin's cells elsewhere in the frame ``look`` shows once ``board``
    is blanked out.

    The first look can miss a second board of another skin: its key colours may share an
    area with the board found (one grey spread over both), whose period then decides the
    pitches tried there, or the area is only tried when no board was found. Without the board
    found, the rest of the picture is looked at on its own.
    """
    grid = board.grid
    pad = max(grid.pitch_x, grid.pitch_y)
    x0, y0, x1, y1 = (int(round(v)) for v in grid.bounds)
    x0, y0, x1, y1 = padded_box((x0, y0, x1, y1), int(np.ceil(pad)), look.frame)
    blanked = (float(x0), float(y0), float(x1), float(y1))
    colour = _blank_colour(tuple(skins))
    masked = look.masks_blanked((x0, y0, x1, y1), colour, skins)
    if not any(areas_beside(masked, skin, blanked) for skin in skins):
        return []  # no skin's colours dense beside the board: no area to look at, anchors or not
    rest = look.blanked((x0, y0, x1, y1), colour, masked)
    # As a picture of its own, beside the board found: for the other skins also the pitches
    # tried only when nothing reads clearly (a second board of the same skin shares the first
    # one's pitch, and its anchors were matched beside it, see search_area).
    others = [s for s in skins if s != board.skin]
    found = distinct_places(find_candidates(rest, skins, others, blanked, noisy))
    if not any(board_sized(c) for c in found):
        # An area of a skin's colours beside the board where no anchor placed a board (a
        # lost board nearly all mines has few covered cells): the lattice found there
        # without a skin seeds one, as it does for a picture of one board.
        areas = [(skin, box) for skin in skins for box in lattice_areas_beside(rest, skin, blanked)]
        found = distinct_places(found + lattice_boards_within(rest.frame, areas))
    if not noisy and not any(board_sized(c) for c in found) and any(c.clean for c in found):
        # A few of a skin's cells read clearly there, too few for a board: a board whose cells
        # the strict look stops at (KMines' 18 px cells drawn anew at 29 px grew to a 1x4
        # fragment beside a whole board) grows whole with the edges' tolerance widened, as it
        # does in a picture of its own.
        found = distinct_places(find_candidates(rest, skins, others, blanked, noisy=True))
    return [c for c in found if board_sized(c) and sure_below_own_size(rest.frame, c)]


@lru_cache(maxsize=8)
def _blank_colour(skins: tuple[Skin, ...]) -> tuple[int, int, int]:
    """A colour (BGR) far from every skin's key colours, to blank a board out with: no skin
    looks for cells in it."""
    keys = [c for skin in skins for c in key_colours(skin)]
    choices = [(b, g, r) for b in (0, 128, 255) for g in (0, 128, 255) for r in (0, 128, 255)]
    if not keys:
        return choices[0]
    keyed = np.array(keys, np.int32)
    return max(choices, key=lambda c: int(np.abs(keyed - np.array(c)).max(axis=1).min()))


def describe_board(located: Located, whole: bool = True) -> str:
    """``a 30x16 sgt-mines board at x 30..630, y 55..375`` (for messages); a board not known to
    be whole is ``part of a sgt-mines board (12x16 cells) at ...``."""
    grid = located.grid
    left, top, right, bottom = (round(v) for v in grid.bounds)
    what = (
        f"a {grid.cols}x{grid.rows} {located.skin.name} board"
        if whole
        else f"part of a {located.skin.name} board ({grid.cols}x{grid.rows} cells)"
    )
    return f"{what} at x {left}..{right}, y {top}..{bottom}"


def distinct_places(candidates: list[Candidate]) -> list[Candidate]:
    """The best candidate of each place: readings that overlap (one board read by several
    skins or pitches) give way to the better one."""
    kept: list[Candidate] = []
    for candidate in candidates:
        box = candidate.located.grid.bounds
        rivals = [k for k in kept if overlap(box, k.located.grid.bounds)]
        if all(candidate.better_than(k) for k in rivals):
            kept = [k for k in kept if k not in rivals] + [candidate]
    return kept
