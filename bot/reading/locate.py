"""Find a board in a picture: which skin, where the cell lattice is, how many rows and columns.

For each skin (all known skins unless told):

1. **Where to look** (:mod:`bot.reading.regions`): the areas dense in the skin's key colours,
   and the pitches their period suggests.
2. **Anchors** (:mod:`bot.reading.anchors`): anchor templates matched at those pitches vote
   for the lattice's phase; the largest cluster on the winning phase seeds the board. Where
   they place no whole board that reads, the lattice found without a skin
   (:func:`~bot.reading.lattice.find_lattice`, tune's finder) seeds it with its cells that
   read clearly as the skin's.
3. **Extent** (:mod:`bot.reading.extent`): the cells around the seeds are classified, the
   board grown to its frame; a board that stops short of its cells is marked cut.
4. **Phase** (:mod:`bot.reading.phase`): on a desktop scaled by a pixel-repeating scaler,
   the board found is moved by a fraction of a pixel to where its sharp cells match.

The candidate with the most confidently read cells wins, if it is whole (its four sides end at
the game's frame, :mod:`bot.reading.whole`) and alone: any other clear reading, also one seen
only once the board found is blanked out, makes it one of two boards (refused, both named).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import lru_cache

import numpy as np

from bot.errors import BoardNotFoundError, LatticeError, TwoBoardsError
from bot.reading.anchors import FLAT_VARIANCE
from bot.reading.classify import CellScores
from bot.reading.extent import MIN_BOARD_CELLS, Candidate, Located, board_extent, placed_lines
from bot.reading.grid import Grid
from bot.reading.lattice import find_lattice
from bot.reading.phase import refined_phase
from bot.reading.recolour import (
    aligned_seeds,
    learn_curve,
    looks_recoloured,
    loose_drawn,
    nearer_recoloured,
    rough_curves,
    seed_grids,
    toned_skin,
)
from bot.reading.regions import (
    FrameLook,
    Pitches,
    key_colours,
    padded_box,
)
from bot.reading.search import locate_skin, overlap, search_area
from bot.reading.skins import Skin, load_skins
from bot.reading.whole import board_problem, check_whole, shown_nowhere

__all__ = ["Located", "locate_board"]

#: Where no board reads clean, another reading whose share of clear cells is within this of the
#: board chosen makes it "two boards".
OTHER_PASSING = 0.1


#: Where seed cells come from, in turn, for every skin and rough shift: the anchors at the
#: pitches the skin's colours suggest, at the others, then the lattice found without a skin
#: (through a shift as rough as the screen's the anchors may match nowhere: GNOME Mines'
#: cells drawn at 46 px, 20 levels brighter).
SEED_STAGES = ("first", "later", "lattice")
#: Most blocks of seed cells a screen's tone curve is sought from, per rough shift ...
MAX_SEEDS = 3
#: ... and the fewest cells a block must have.
MIN_SEED_CELLS = 4


def locate_board(frame_bgr: np.ndarray, skins: Sequence[Skin] | None = None) -> Located:
    """Find the board in ``frame_bgr`` (BGR or BGRA, a window or a whole desktop).

    Raises :class:`~bot.errors.BoardNotFoundError` when no skin's board is there.
    """
    if frame_bgr is None or frame_bgr.ndim != 3 or frame_bgr.shape[2] not in (3, 4):
        raise BoardNotFoundError("not a colour picture (expected an H x W x 3 or 4 array)")
    frame = np.ascontiguousarray(frame_bgr[:, :, :3])
    skins = load_skins() if skins is None else list(skins)
    if not skins:
        raise BoardNotFoundError("no skins to look for (no skin folders found)")
    if min(frame.shape[:2]) < 2:  # halving it below leaves no pixel: there is no board anyway
        raise BoardNotFoundError(
            f"no board found in the {frame.shape[1]}x{frame.shape[0]} picture (too small)"
        )
    return refined_phase(frame, _locate_any(frame, skins))


def _other_game(
    frame: np.ndarray, located: Located, skins: Sequence[Skin], loose: CellScores | None
) -> str | None:
    """Why the board found as drawn is not ``located.skin``'s: its cells (``loose``: read as
    drawn when they fit loosely, :func:`~bot.reading.recolour.loose_drawn`) look far more like
    another game's in other colours (:func:`~bot.reading.recolour.nearer_recoloured`); or
    None."""
    others = [s for s in skins if s.name != located.skin.name]
    nearer = nearer_recoloured(frame, located.grid, located.skin, others, loose)
    if nearer is None:
        return None
    return (
        f"{_where(located)} reads as drawn, but its cells look far more like {nearer.name} "
        "cells in other colours: which game this is cannot be told"
    )


def _reads(frame: np.ndarray, located: Located, shown: bool = False) -> bool:
    """Whether every cell of the board found reads clearly as the reader reads it (through
    the frame's tone curve, or with its noise allowed for); with ``shown``, also as a board a
    game can show (:func:`~bot.reading.whole.shown_nowhere`: a part of a board, cut, may
    not be)."""
    from bot.reading.classify import classify_cells

    skin = located.skin
    scores = classify_cells(frame, located.grid, skin, adapt_tone=True)
    clear = bool(scores.clear(skin).all())
    return clear and (not shown or shown_nowhere(scores.chars) is None)


def _as_drawn(
    frame: np.ndarray, located: Located, skins: Sequence[Skin], loose: CellScores | None
) -> Located:
    """``located`` (found as drawn; ``loose``: see :func:`_other_game`), unless its cells look
    far more like another game's (refused)."""
    why = _other_game(frame, located, skins, loose)
    if why is not None:
        raise BoardNotFoundError(why)
    return located


def _locate_any(frame: np.ndarray, skins: Sequence[Skin]) -> Located:
    """The board in ``frame``: in the skins' own colours, else with a lossy picture's edges
    widened, else through the screen's colours (see :func:`locate_board`)."""
    look = FrameLook.of(frame)
    anchored = boards = _distinct(_candidates(look, skins))
    lattice: list[list[Grid]] = []  # the lattice found without a skin, once, when asked for
    whole = [c for c in boards if c.clean and _whole(frame, c)]
    if not whole:
        # No anchor placed a whole board that reads (a won board has no covered cell to
        # anchor on, its open cells are flat, and its edge columns may hold no anchor): the
        # lattice found without a skin seeds one.
        seeded = _lattice_boards(frame, skins, lattice)
        boards = _distinct(boards + [c for c in seeded if _sure_below_own_size(frame, c)])
        whole = [c for c in boards if c.clean and _whole(frame, c)]
    # No skin's cells read clearly where an anchor placed them, and the lattice gave no whole
    # board: perhaps the picture is lossy or the screen's colours are not the skins', and the
    # board is not chosen from these first (a row of a recoloured board that happens to read,
    # seeded by the lattice, is not a reason to stop). A cut or covered board, read clearly in
    # part, is refused as it is.
    recoloured_first = not whole and not any(c.clean for c in anchored)
    first: BoardNotFoundError | None = None
    if not recoloured_first:
        try:
            chosen = _choose(look, boards, skins, whole=whole)
            loose = loose_drawn(frame, chosen.grid, chosen.skin)
            # Cells that fit loosely and make no board a game shows: perhaps the skin's
            # board in other colours (before another game's is thought of), taken only where
            # a curve of the frame's own reads it as a board shown (else a JPEG's fragment of
            # a won board, all 0s, went there and not to the lossy look that finds it whole).
            if loose is not None and shown_nowhere(loose.chars) is not None:
                recoloured = _locate_recoloured(frame, skins, lattice)
                if recoloured is not None and _reads(frame, recoloured, shown=True):
                    return recoloured
            return _as_drawn(frame, chosen, skins, loose)
        except TwoBoardsError:
            raise
        except BoardNotFoundError as refused:
            first = refused
    # Cells a lossy picture (JPEG) smeared at their edges stop the board's growth there: the
    # board is grown again with those edges' tolerance widened (flat areas keep theirs). Before
    # the colour search, which costs seconds where nothing reads.
    unread: Located | None = None  # a board the widened look found whose cells do not read
    try:
        located = _locate(frame, skins, noisy=True)
    except TwoBoardsError:
        raise
    except BoardNotFoundError:
        pass
    else:
        # The widened look also passes another game's cells in other colours (sgt-mines' 20 px
        # tiles 20 levels darker, for winmine's at 125 %; xdemineur's at gamma 0.8): a board
        # whose cells look far more like another game's, or do not all read as the reader
        # reads them, is looked for in the screen's colours next.
        why = _other_game(frame, located, skins, loose_drawn(frame, located.grid, located.skin))
        if why is not None:
            first = first or BoardNotFoundError(why)
        elif _reads(frame, located):
            return located
        else:
            unread = located
    # Only a few cells read clearly, and they make no whole board (another skin's look-alikes
    # on a recoloured screen): the screen's colours.
    if recoloured_first or not any(
        _board_sized(c) or (c.clean and _whole(frame, c)) for c in anchored
    ):
        found = _locate_recoloured(frame, skins, lattice)
        if found is not None:
            return found
    if unread is not None:
        return unread  # the reader names the cells it cannot read
    if first is None:
        chosen = _choose(look, boards, skins, whole=whole)
        return _as_drawn(frame, chosen, skins, loose_drawn(frame, chosen.grid, chosen.skin))
    raise first


def _locate_recoloured(
    frame: np.ndarray, skins: Sequence[Skin], lattice: list[list[Grid]]
) -> Located | None:
    """The board on a screen whose colours are not the skin's (see
    :mod:`bot.reading.recolour`), or None; ``lattice``: the lattice found without a skin, once
    (see :func:`_found_lattice`). Refusals of the picture recoloured (a cut board, two boards)
    are the picture's: they are raised."""
    shifts = [(skin, rough, toned_skin(skin, rough)) for skin in skins
              for rough in rough_curves(frame, skin)]  # fmt: skip
    fallback: Located | None = None  # the first board found that only its curve reads
    for stage, (skin, rough, shifted) in itertools.product(SEED_STAGES, shifts):
        for seeds in _seed_blocks(frame, shifted, stage, lattice):
            if seeds.cols * seeds.rows < MIN_SEED_CELLS:
                continue  # a cell or two: too few colours to learn a screen's curve from
            curve = learn_curve(frame, seeds, skin, rough)
            if curve is None:
                # Not this skin's cells recoloured (with the rough shift alone, a JPEG
                # sgt-mines board passed for winmine's within its distance limit).
                continue
            # The curve learnt, else the rough shift that found the seeds: a curve learnt
            # from few colours (a fresh board's covered cells) can miss what the screen clips.
            curves = (curve,) if curve is rough else (curve, rough)
            for tone in curves:
                toned = toned_skin(skin, tone)
                try:
                    located = _locate(frame, [toned])
                except TwoBoardsError:
                    raise
                except BoardNotFoundError:
                    continue
                others = [s for s in skins if s.name != skin.name]
                if looks_recoloured(frame, located.grid, toned, others):
                    found = replace(located, skin=skin, tone=tone)
                    # A curve learnt from seeds a pixel off can take one colour-only class
                    # for another (GNOME Mines' 0s for covered) and place the board a pixel
                    # off through it, where only that curve reads the cells; another game's
                    # flat cells can read as no board a game shows (sgt-mines' fresh board
                    # brightened, as winmine's 0s): a board that a curve of the frame's own
                    # reads, as a board shown, is looked for first.
                    if _reads(frame, found, shown=True):
                        return found
                    fallback = fallback or found
                # else another game's cells, only like the skin's through the curve, or
                # nearer another skin's as drawn
    return fallback


def _seed_blocks(
    frame: np.ndarray, shifted: Skin, stage: str, lattice: list[list[Grid]]
) -> Iterator[Grid]:
    """Blocks of cells to learn the screen's tone curve from, for the skin under a rough shift
    ``shifted``, at one of :data:`SEED_STAGES`: the anchor matches'
    (:func:`~bot.reading.recolour.seed_grids`) at the pitches the skin's colours suggest, at
    the others, and last the lattice found without a skin (kept in ``lattice``), as found and
    then where the skin's cells read most surely."""
    if stage != "lattice":
        yield from seed_grids(frame, shifted, stage == "later")[:MAX_SEEDS]
        return
    for grid in _found_lattice(frame, lattice):
        yield grid
        # A game sharing out spare pixels: the lines placed one by one (an even lattice reads
        # its cells, but cells a pixel off teach no curve), as found and once moved as a whole.
        placed = placed_lines(frame, grid, shifted)
        if placed != grid:
            yield placed
        aligned = placed_lines(frame, aligned_seeds(frame, grid, shifted), shifted)
        if aligned not in (grid, placed):  # a grid tried already teaches nothing new
            yield aligned


def _found_lattice(frame: np.ndarray, lattice: list[list[Grid]]) -> list[Grid]:
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


def _lattice_boards(
    frame: np.ndarray, skins: Sequence[Skin], lattice: list[list[Grid]]
) -> list[Candidate]:
    """Each skin's board grown (:func:`~bot.reading.extent.board_extent`) from the cells of
    the lattice found without a skin that read clearly as the skin's, once the lattice is
    moved to where they read most surely (:func:`~bot.reading.recolour.aligned_seeds`)."""
    from bot.reading.classify import classify_cells

    boards = []
    h, w = frame.shape[:2]
    for found, skin in itertools.product(_found_lattice(frame, lattice), skins):
        grid = aligned_seeds(frame, found, skin)
        scores = classify_cells(frame, grid, skin)
        # Seeds of drawn classes only: a flat cell of the skin's also reads clearly on any
        # flat tile of its colour (GNOME's covered cells, contrast lowered, as xdemineur's 0s).
        seeds = scores.clear(skin) & np.isin(scores.classes, _drawn_classes(skin, grid))
        rows, cols = np.nonzero(seeds)
        if cols.size < MIN_SEED_CELLS:
            continue
        px, py = grid.pitch_x, grid.pitch_y
        # A game that shares out spare pixels draws uneven lines: the lattice's own offsets.
        shifts = None
        if skin.uneven_px:
            shifts = (_offsets(grid.col_offsets, cols), _offsets(grid.row_offsets, rows))
        board = board_extent(frame, skin, grid.left, grid.top, px, py, (cols, rows),
                             (0, 0, w, h), shifts, reach=skin.uneven_at(px, py))  # fmt: skip
        if board is not None:
            boards.append(board)
    return boards


def _drawn_classes(skin: Skin, grid: Grid) -> np.ndarray:
    """The classes (indices into the skin's template bank at ``grid``'s scale) whose image is
    not one flat tone: its grey variance at least the anchors' :data:`FLAT_VARIANCE`."""
    from bot.reading.banks import sample_step, template_bank
    from bot.reading.matching import cell_scale

    bank = template_bank(skin, *cell_scale(grid, skin), sample_step(skin))
    shown = bank.mask.reshape(-1, 3)[:, 0]
    drawn = []
    for k, start in enumerate(bank.starts[:-1]):
        grey = bank.u8[start].reshape(-1, 3)[shown].mean(axis=1)
        if grey.var() >= FLAT_VARIANCE:
            drawn.append(k)
    return np.array(drawn, np.intp)


def _offsets(offsets: tuple[float, ...], lines: np.ndarray) -> np.ndarray:
    """Each of ``lines``' offset from the even lattice (0 where the lattice has none)."""
    return np.asarray(offsets)[lines] if offsets else np.zeros(len(lines))


def _candidates(
    look: FrameLook,
    skins: Sequence[Skin],
    retry: Sequence[Skin] | None = None,
    away_from: tuple[float, float, float, float] | None = None,
    noisy: bool = False,
) -> list[Candidate]:
    """Every skin's boards in the frame ``look`` shows, by the pitches its colours' period
    suggests, then by the others if no board reads clearly (when given: only for the skins
    ``retry``); with ``away_from`` (a board blanked out), only beside that box (see
    :func:`_beside`)."""
    found: list[Candidate] = []
    later: list[tuple[Skin, tuple[int, int, int, int], Callable[[], Pitches]]] = []
    for skin in skins:
        taken = [c.located.grid.bounds for c in found if _board_sized(c)]
        found += locate_skin(look, skin, later, taken, noisy, away_from)
    if not any(_board_sized(c) for c in found):
        # The key colours' period ruled these pitches out; but a board amid other things of
        # its colours (a grey desktop round a grey game) can hide its period: try them too
        # before giving up.
        for skin, core, pitches in later:
            if retry is None or skin in retry:
                found += search_area(look.frame, look.gray, skin, core, pitches(), noisy)
    return [c for c in found if _sure_below_own_size(look.frame, c)]


def _sure_below_own_size(frame: np.ndarray, candidate: Candidate) -> bool:
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
    return _reads(frame, located)  # the reader refuses any cell that is not


def _board_sized(candidate: Candidate) -> bool:
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


def _locate(frame: np.ndarray, skins: Sequence[Skin], noisy: bool = False) -> Located:
    """The one whole board in ``frame`` (BGR) in the skins' own colours; raises
    :class:`~bot.errors.BoardNotFoundError` (or a subclass) saying why there is none."""
    look = FrameLook.of(frame)
    return _choose(look, _distinct(_candidates(look, skins, noisy=noisy)), skins, noisy)


def _choose(
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
        whole = [c for c in boards if c.clean and _whole(frame, c)]
    if whole:
        # Any other clear reading of the skin's cells beside a whole board is another board,
        # or part of one: which board the user means cannot be told (refused, both named).
        others = [c for c in boards if c is not whole[0] and _board_sized(c)]
        others = others or _boards_beside(look, whole[0].located, skins, noisy)
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
              and c.passing >= best.passing - OTHER_PASSING]  # fmt: skip
    if others:
        raise _two_boards(frame, best, others)
    return best.located


def _two_boards(frame: np.ndarray, chosen: Candidate, others: list[Candidate]) -> TwoBoardsError:
    """The refusal naming ``chosen`` and ``others`` (each whole or in part)."""
    return TwoBoardsError(
        f"{1 + len(others)} boards in the picture: "
        + " and ".join(
            _where(c.located, c is chosen or board_problem(frame, c.located.grid) is None)
            for c in [chosen, *others]
        )
        + "; show one at a time (or capture one window)"
    )


def _whole(frame: np.ndarray, candidate: Candidate) -> bool:
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
    rest = look.blanked((x0, y0, x1, y1), _blank_colour(tuple(skins)))
    # As a picture of its own, beside the board found: for the other skins also the pitches
    # tried only when nothing reads clearly (a second board of the same skin shares the first
    # one's pitch, and its anchors were matched beside it, see search_area).
    others = [s for s in skins if s != board.skin]
    blanked = (float(x0), float(y0), float(x1), float(y1))
    return [c for c in _distinct(_candidates(rest, skins, others, blanked, noisy))
            if _board_sized(c)]  # fmt: skip


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


def _where(located: Located, whole: bool = True) -> str:
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


def _distinct(candidates: list[Candidate]) -> list[Candidate]:
    """The best candidate of each place: readings that overlap (one board read by several
    skins or pitches) give way to the better one."""
    kept: list[Candidate] = []
    for candidate in candidates:
        box = candidate.located.grid.bounds
        rivals = [k for k in kept if overlap(box, k.located.grid.bounds)]
        if all(candidate.better_than(k) for k in rivals):
            kept = [k for k in kept if k not in rivals] + [candidate]
    return kept
