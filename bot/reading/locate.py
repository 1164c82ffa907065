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

5. **Choice** (:mod:`bot.reading.choose`): the one whole board among the readings, or a
   refusal saying why there is none.

Where no skin's board reads in its own colours, steps 2-5 are taken again through the screen's
colours (:mod:`bot.reading.screen_colours`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from bot.errors import BoardCutError, BoardNotFoundError, TwoBoardsError
from bot.reading.choose import (
    board_sized,
    choose_board,
    describe_board,
    is_whole,
    locate_drawn,
    reads_clearly,
    whole_boards,
)
from bot.reading.classify import CellScores, classify_cells
from bot.reading.evident import flat_classes, unseen_lattice
from bot.reading.extent import Located
from bot.reading.grey import (
    CONVERSIONS,
    draws_in_colour,
    grey_skin_sets,
    greyed_skin,
    has_no_colour,
)
from bot.reading.grid import Grid
from bot.reading.phase import refined_phase
from bot.reading.placed import read_lines
from bot.reading.recolour import (
    loose_drawn,
    nearer_recoloured,
)
from bot.reading.regions import FrameLook
from bot.reading.screen_colours import drawn_boards, locate_recoloured, with_seeded
from bot.reading.seeded import lattice_boards
from bot.reading.shown import shown_nowhere
from bot.reading.skins import Skin, load_skins

__all__ = ["Located", "locate_board"]


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
    lattice: list[list[Grid]] = []  # the lattice found without a skin, once, when asked for
    if has_no_colour(frame) and any(draws_in_colour(skin) for skin in skins):
        return _locate_grey(frame, skins, lattice)
    return _located(frame, skins, lattice)


def _located(
    frame: np.ndarray, skins: Sequence[Skin], lattice: list[list[Grid]], colours: bool = True
) -> Located:
    """The board in ``frame`` (see :func:`locate_board`), its lines placed; with ``colours``
    also through the screen's colours (:func:`~bot.reading.screen_colours.locate_recoloured`)."""
    located = _lines_placed(frame, _locate_any(frame, skins, lattice, colours))
    why = _flat_board(frame, located)
    if why is not None:
        seen = _lattice_seen(frame, located.skin, lattice)
        if seen is None:
            raise BoardNotFoundError(why)
        located = seen
    return located


def _locate_grey(frame: np.ndarray, skins: Sequence[Skin], lattice: list[list[Grid]]) -> Located:
    """The board in a picture with no colour: looked for with the skins greyed by each common
    conversion in turn (:func:`~bot.reading.grey.grey_skin_sets`), as drawn, and read in the
    greys its cells lie nearest. Another conversion's greys can read clearly and wrongly (a
    GNOME Mines 2 greyed as the mean of its channels read as a 3 in BT.601's greys): only the
    conversion that made the picture draws every cell's shades. Where no conversion's greys
    show a board as drawn, the screen's greys are searched with the first conversion's (a
    fresh winmine board is all grey: 20 levels brighter, it showed none); only a picture
    refused otherwise pays for that search (seconds, where most greyscale pictures read in
    a fraction of one). A board shown in part (cut or covered) is shown: its picture is not
    searched again."""
    first: BoardNotFoundError | None = None
    shown_in_part = False
    # The sets are greyed one at a time (greying every skin every way up front cost 0.29 s,
    # as long as a whole read): only the board's own skin is then greyed every way.
    looks = itertools.chain(
        ((shown, False) for shown in grey_skin_sets(skins)),
        ((shown, True) for shown in itertools.islice(grey_skin_sets(skins), 1)),
    )
    for shown, colours in looks:
        if colours and shown_in_part:
            break
        try:
            located = _located(frame, shown, lattice, colours=colours)
        except TwoBoardsError:
            raise
        except BoardNotFoundError as refused:
            first = first or refused
            shown_in_part = shown_in_part or isinstance(refused, BoardCutError)
            continue
        own = next(s for s, g in zip(skins, shown, strict=True) if g.name == located.skin.name)
        if not draws_in_colour(own):
            return located
        ways = [greyed_skin(own, conversion) for conversion in range(CONVERSIONS)]
        grid = located.grid
        distances = [float(classify_cells(frame, grid, way).distance.mean()) for way in ways]
        return replace(located, skin=ways[int(np.argmin(distances))])
    assert first is not None  # (every conversion was tried and each raised)
    raise first


def _lines_placed(frame: np.ndarray, located: Located) -> Located:
    """``located`` with its lattice's phase refined and each line placed where the picture
    draws it (an uneven lattice: a desktop's scaling shares out spare pixels)."""
    located = refined_phase(frame, located)
    if located.repeat is None:  # (read at its own size when a pixel-repeating scaler drew it)
        grid = read_lines(frame, located.grid, located.skin, located.tone)
        located = located if grid == located.grid else replace(located, grid=grid)
    return located


def _in_own_colours(frame: np.ndarray, located: Located) -> bool:
    """Whether the cells of the board found show its skin's own colours as drawn
    (:func:`~bot.reading.classify.in_skin_colours`)."""
    from bot.reading.classify import classify_cells, in_skin_colours

    if located.repeat is not None:
        return False  # its cells are read at the size the picture was before its enlargement
    return in_skin_colours(classify_cells(frame, located.grid, located.skin).distance, located.skin)


def _lattice_seen(frame: np.ndarray, skin: Skin, lattice: list[list[Grid]]) -> Located | None:
    """The skin's one whole board on the lattice found without a skin, where the board found
    first was all flat cells on no lattice the picture shows (a web clone's fresh board of
    smaller cells read as blocks of four): that lattice is the picture's own; else None."""
    boards = whole_boards(frame, lattice_boards(frame, [skin], lattice))
    if len(boards) != 1 or _flat_board(frame, boards[0].located) is not None:
        return None
    return boards[0].located


def _flat_board(frame: np.ndarray, located: Located) -> str | None:
    """Why the board found cannot be told from a board of other cells: its skin has flat
    classes, every cell reads as one, and the picture shows no lattice there
    (:func:`~bot.reading.evident.unseen_lattice`); else None."""
    from bot.reading.classify import classify_cells

    skin, grid = located.skin, located.grid
    if located.repeat is not None:
        return None  # read as the picture was before a pixel-repeating enlargement
    flat = flat_classes(skin, grid)
    if not flat.size:
        return None  # every class draws detail: the cells show the lattice
    scores = classify_cells(frame, grid, skin, through=located.tone)
    return unseen_lattice(frame, skin, grid, scores.classes, flat)


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
    other, far = nearer
    return (
        f"{describe_board(located)} reads as drawn, but its cells look "
        f"{'far more' if far else 'as much'} like {other.name} cells in other colours: "
        "which game this is cannot be told"
    )


def _as_drawn(
    frame: np.ndarray, located: Located, skins: Sequence[Skin], loose: CellScores | None
) -> Located:
    """``located`` (found as drawn; ``loose``: see :func:`_other_game`), unless its cells look
    far more like another game's (refused)."""
    why = _other_game(frame, located, skins, loose)
    if why is not None:
        raise BoardNotFoundError(why)
    return located


def _locate_any(
    frame: np.ndarray, skins: Sequence[Skin], lattice: list[list[Grid]], colours: bool = True
) -> Located:
    """The board in ``frame``: in the skins' own colours, else with a lossy picture's edges
    widened, else (with ``colours``) through the screen's colours (see :func:`locate_board`);
    ``lattice``: the lattice found without a skin, once (see
    :func:`~bot.reading.seeded.found_lattice`)."""
    look = FrameLook.of(frame)
    anchored, boards, whole = drawn_boards(look, skins, lattice)
    # No skin's cells read clearly where an anchor placed them, and the lattice gave no whole
    # board: perhaps the picture is lossy or the screen's colours are not the skins', and the
    # board is not chosen from these first (a row of a recoloured board that happens to read,
    # seeded by the lattice, is not a reason to stop). A cut or covered board, read clearly in
    # part, is refused as it is.
    recoloured_first = not whole and not any(c.clean for c in anchored)
    first: BoardNotFoundError | None = None
    if not recoloured_first:
        try:
            chosen = choose_board(look, boards, skins, whole=whole)
            loose = loose_drawn(frame, chosen.grid, chosen.skin)
            # Cells that fit loosely and make no board a game shows: perhaps the skin's
            # board in other colours (before another game's is thought of), taken only where
            # a curve of the frame's own reads it as a board shown (else a JPEG's fragment of
            # a won board, all 0s, went there and not to the lossy look that finds it whole).
            # Not where the reader reads it (through the frame's curve, or with its noise
            # allowed for) as a board a game shows: sgt-mines' resized window at JPEG 85 was
            # searched for 46 s, finding nothing, then read as found.
            if (
                colours
                and loose is not None
                and shown_nowhere(loose.chars) is not None
                and not reads_clearly(frame, chosen, shown=True)
            ):
                recoloured = locate_recoloured(frame, skins, lattice)
                if recoloured is not None and reads_clearly(frame, recoloured, shown=True):
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
        located = locate_drawn(frame, skins, noisy=True)
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
        elif reads_clearly(frame, located, shown=True):
            return located
        else:
            # Read with its lines where the picture draws them (a desktop's nearest scaling
            # of GNOME Mines' 30x16 board to 125 % read clearly only so), before the colour
            # search, which costs seconds on a picture in the skin's own colours.
            unread = _lines_placed(frame, located)
            if unread.repeat is None and reads_clearly(frame, unread, shown=True):
                return unread
    # Only a few cells read clearly, and they make no whole board (another skin's look-alikes
    # on a recoloured screen): the screen's colours. Not where the widened look found the
    # board in the skin's own colours: noise, JPEG or a picture's lost colour leave most cells
    # on their images, where no curve is to be found (a greyscale sgt-mines board searched
    # for 36 s).
    few_clear = recoloured_first or not any(
        board_sized(c) or (c.clean and is_whole(frame, c)) for c in anchored
    )
    if colours and few_clear and (unread is None or not _in_own_colours(frame, unread)):
        found = locate_recoloured(frame, skins, lattice)
        if found is not None:
            return found
    if unread is not None:
        return unread  # the reader names the cells it cannot read
    found = _lossy_seeded(look, skins, lattice)
    if found is not None:
        return found
    if first is None:
        chosen = choose_board(look, boards, skins, whole=whole)
        return _as_drawn(frame, chosen, skins, loose_drawn(frame, chosen.grid, chosen.skin))
    raise first


def _lossy_seeded(
    look: FrameLook, skins: Sequence[Skin], lattice: list[list[Grid]]
) -> Located | None:
    """The board the lattice found without a skin seeds with a lossy picture's edges widened
    (:func:`~bot.reading.seeded.lattice_boards`), if it is whole, reads clearly as the reader
    reads it and looks like no other game's cells; else None. A won board in a JPEG has no
    covered cell for an anchor, and its numbers' edges are smeared past the skin's tolerance
    (sgt-mines' 28 px tiles at quality 75). Looked at last: on a screen in other colours the
    widened look also passes another game's cells, or a board a pixel off its lines, that
    the screen's colours place right."""
    frame = look.frame
    boards, whole = with_seeded(frame, [], lattice_boards(frame, skins, lattice, noisy=True))
    if not whole:
        return None
    try:
        located = choose_board(look, boards, skins, noisy=True, whole=whole)
    except TwoBoardsError:
        raise
    except BoardNotFoundError:
        return None
    loose = loose_drawn(frame, located.grid, located.skin)
    if _other_game(frame, located, skins, loose) is not None or not reads_clearly(frame, located):
        return None
    return located
