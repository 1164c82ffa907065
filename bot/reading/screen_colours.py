"""Finding a board on a screen whose colours are not the skin's (step 2 of
:mod:`bot.reading.locate` once the skins' own colours show no board): a tone curve is learnt
from blocks of seed cells (:mod:`bot.reading.recolour`), and the board is found through it.

Two skins can each read one board through a curve of its own: two themes of one game that
share their tiles and differ in the colour of their digits (GNOME Mines' classic and default
themes), where a curve can turn one theme's coloured digits into the other's dark ones. The
skins that read a board at the stage of seeds where the first one does are compared
(:func:`one_game`): the game is the one whose images fit the cells clearly nearest, else it
cannot be told (refused, both named).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

import numpy as np

from bot.errors import BoardNotFoundError, TwoBoardsError
from bot.reading.choose import (
    choose_board,
    describe_board,
    distinct_places,
    find_candidates,
    reads_clearly,
    sure_below_own_size,
    two_boards_error,
    whole_boards,
)
from bot.reading.extent import Candidate, Located
from bot.reading.grid import Grid
from bot.reading.pitches import PERIOD_SLACK, comes_in
from bot.reading.placed import placed_lines
from bot.reading.recolour import (
    UNTOLD_FACTOR,
    aligned_seeds,
    learn_curve,
    looks_recoloured,
    rough_curves,
    seed_grids,
    toned_skin,
)
from bot.reading.regions import FrameLook
from bot.reading.search import overlap
from bot.reading.seeded import MIN_SEED_CELLS, lattice_boards, lattice_of
from bot.reading.skins import Skin
from bot.reading.state import ReaderState
from bot.reading.tone import ToneCurve

__all__ = ["SEED_STAGES", "drawn_boards", "locate_recoloured", "one_game", "with_seeded"]

#: Where seed cells come from, in turn, for every skin and rough shift: the anchors at the
#: pitches the skin's colours suggest, the lattice found without a skin (through a shift as
#: rough as the screen's the anchors may match nowhere: GNOME Mines' cells drawn at 46 px, 20
#: levels brighter), then the anchors at the other pitches (slow where nothing reads).
SEED_STAGES = ("first", "lattice", "later")
#: Most blocks of seed cells a screen's tone curve is sought from, per rough shift (each of
#: at least :data:`~bot.reading.seeded.MIN_SEED_CELLS` cells).
MAX_SEEDS = 3


def drawn_boards(
    look: FrameLook, skins: Sequence[Skin], lattice: list[list[Grid]]
) -> tuple[list[Candidate], list[Candidate], list[Candidate]]:
    """The boards of the skins' cells as drawn in the frame ``look`` shows: those the anchors
    placed, those and the ones the lattice found without a skin seeded (one a place), and of
    these the ones that read clean and are whole."""
    frame = look.frame
    anchored = boards = distinct_places(find_candidates(look, skins))
    whole = whole_boards(frame, boards)
    if not whole:
        # No anchor placed a whole board that reads (a won board has no covered cell to
        # anchor on, its open cells are flat, its edge columns may hold no anchor, and a lost
        # board may be nearly all mines): the lattice found without a skin seeds one.
        boards, whole = with_seeded(frame, boards, lattice_boards(frame, skins, lattice))
    return anchored, boards, whole


def with_seeded(
    frame: np.ndarray, boards: list[Candidate], seeded: list[Candidate]
) -> tuple[list[Candidate], list[Candidate]]:
    """``boards`` and the ``seeded`` ones sure below their skin's own size, one a place, and of
    these the ones that read clean and are whole."""
    boards = distinct_places(boards + [c for c in seeded if sure_below_own_size(frame, c)])
    return boards, whole_boards(frame, boards)


def locate_recoloured(
    frame: np.ndarray, skins: Sequence[Skin], lattice: list[list[Grid]]
) -> Located | None:
    """The board on a screen whose colours are not the skin's (see
    :mod:`bot.reading.recolour`), or None; ``lattice``: the lattice found without a skin,
    once (see :func:`~bot.reading.seeded.found_lattice`). Refusals of the picture recoloured
    (a cut board, two boards, two games that read it alike) are the picture's: they are
    raised."""
    shifts = [(skin, rough, toned_skin(skin, rough)) for skin in skins
              for rough in rough_curves(frame, skin)]  # fmt: skip
    fallback: Located | None = None  # the first board found that only its curve reads
    look = FrameLook.of(frame)
    widened: set[bytes] = set()  # the curves looked through with a lossy picture's edges widened
    for stage in SEED_STAGES:
        # Each skin's first board at this stage that a curve of the frame's own reads: the
        # stage is finished for the other skins before one is taken (see one_game).
        found: dict[str, Located] = {}
        for skin, rough, shifted in shifts:
            if skin.name in found or (found and not _comes_at(skin, next(iter(found.values())))):
                continue
            read, unread = _through_seeds(
                frame, look, skins, lattice, widened, skin, rough, shifted, stage
            )
            if read is not None:
                found[skin.name] = read
            fallback = fallback or unread
        if found:
            return one_game(frame, list(found.values()))
    return fallback


def _through_seeds(
    frame: np.ndarray,
    look: FrameLook,
    skins: Sequence[Skin],
    lattice: list[list[Grid]],
    widened: set[bytes],
    skin: Skin,
    rough: ToneCurve,
    shifted: Skin,
    stage: str,
) -> tuple[Located | None, Located | None]:
    """The board of ``skin`` found through a curve learnt from the seed blocks of ``stage``
    (the skin under the rough shift ``rough``: ``shifted``) that a curve of the frame's own
    reads as a board shown, else None; and the first board found that only its curve reads,
    else None (see :func:`locate_recoloured`)."""
    unread: Located | None = None
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
                # Seeded by the lattice too: a lost board nearly all mines has too few
                # covered cells for the anchors (GNOME Mines' 8x8 with 45 mines).
                _, boards, whole = drawn_boards(look, [toned], lattice)
                located = _chosen_through(look, boards, whole, toned, tone, widened)
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
                if reads_clearly(frame, found, shown=True):
                    return found, unread
                unread = unread or found
            # else another game's cells, only like the skin's through the curve, or
            # nearer another skin's as drawn
    return None, unread


def _comes_at(skin: Skin, board: Located) -> bool:
    """Whether ``skin``'s cells come at the pitch of the cells of ``board`` (another skin's):
    only such a skin can read the same board (GNOME Mines' 114 px cells are no winmine cells,
    whose desktop scalings stop at 48 px)."""
    return comes_in(skin, (board.grid.pitch_x + board.grid.pitch_y) / 2, PERIOD_SLACK)


def one_game(frame: np.ndarray, boards: Sequence[Located]) -> Located:
    """The one of ``boards`` (one a skin, each read through a curve of the frame's own) whose
    skin's images fit its cells nearest, as the reader reads them, when the others fit
    :data:`~bot.reading.recolour.UNTOLD_FACTOR` times further off at least; else
    :class:`~bot.errors.BoardNotFoundError` naming the two nearest.

    Each skin's board is compared on its own grid: two skins cut from one game may place the
    gap between tiles on either side of a cell, and a grid placed for one of them sits a few
    pixels off the other's cells (GNOME Mines' themes, 5 px apart at 46 px cells). GNOME
    Mines' default theme at contrast 0.85 fits its own images at 2.2 levels, and its classic
    theme's images (blue, green and red digits) through a curve at 3.4.
    """
    if len(boards) == 1:
        return boards[0]
    apart = [b for b in boards[1:] if not overlap(b.grid.bounds, boards[0].grid.bounds)]
    if apart:
        # Not one board read by two skins: two boards (one of each game).
        raise two_boards_error([describe_board(b) for b in [boards[0], *apart]])
    fits = sorted((_fit(frame, b), i) for i, b in enumerate(boards))
    (best, first), (runner_up, second) = fits[:2]
    if runner_up < best * UNTOLD_FACTOR:
        raise BoardNotFoundError(
            f"{describe_board(boards[first])} and {describe_board(boards[second])} read alike "
            "through the screen's colours: which game this is cannot be told"
        )
    return boards[first]


def _fit(frame: np.ndarray, located: Located) -> float:
    """The mean distance of the board's cells from its skin's images as the reader reads them
    (through the curve it learns from the frame, or the one the board was found through)."""
    from bot.reading.classify import classify_cells

    scores = classify_cells(
        frame,
        located.grid,
        located.skin,
        state=ReaderState(),
        adapt_tone=True,
        found_through=located.tone,
    )
    return float(scores.distance.mean())


def _chosen_through(
    look: FrameLook,
    boards: list[Candidate],
    whole: list[Candidate],
    toned: Skin,
    tone: ToneCurve,
    widened: set[bytes],
) -> Located:
    """The one whole board of ``toned`` (a skin through the screen's curve ``tone``) among
    ``boards`` (``whole``: see :func:`drawn_boards`); where none reads clean and whole, the
    board grown again with a lossy picture's edges widened, once per curve (``widened``: the
    tables of the curves so looked through): a JPEG of a screen in other colours (GNOME Mines'
    16x16 board 20 levels brighter stopped two rows short, its 8x8 board of 60 px cells 20
    levels darker was found as 6x8 in part unclear). The widened look's board is taken where
    it reads clean and whole, before a board that does not: sgt-mines' 9x9 board under a night
    light at JPEG 95 was otherwise taken as the lattice seeded it, 0.02 px a cell too narrow,
    where its 1s read as 8s (refused as no board)."""
    key = tone.lut.tobytes()
    if whole or key in widened or not boards:
        return choose_board(look, boards, [toned], whole=whole)
    widened.add(key)
    noisy = distinct_places(find_candidates(look, [toned], noisy=True))
    noisy_whole = whole_boards(look.frame, noisy)
    if noisy_whole:
        return choose_board(look, noisy, [toned], noisy=True, whole=noisy_whole)
    try:
        return choose_board(look, boards, [toned], whole=whole)
    except TwoBoardsError:
        raise
    except BoardNotFoundError:
        return choose_board(look, noisy, [toned], noisy=True)


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
    for grid in lattice_of(frame, shifted, lattice):
        yield grid
        # A game sharing out spare pixels: the lines placed one by one (an even lattice reads
        # its cells, but cells a pixel off teach no curve), as found and once moved as a whole.
        placed = placed_lines(frame, grid, shifted)
        if placed != grid:
            yield placed
        aligned = placed_lines(frame, aligned_seeds(frame, grid, shifted), shifted)
        if aligned not in (grid, placed):  # a grid tried already teaches nothing new
            yield aligned
