"""Whole boards only: real fixtures cut through a side, covered over a side, pasted twice, and
drawn at other desktop scalings (bot/reading/whole.py, bot/reading/locate.py)."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.errors import BoardCutError, BoardNotFoundError, TwoBoardsError
from bot.reading.grid import Grid
from bot.reading.lattice import find_lattice
from bot.reading.read import locate_board, read_frame, read_image
from bot.reading.skins import load_skins
from bot.reading.whole import board_problem
from solver.board import read_board
from tests.fixture_cases import reader_params

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MIDS = [FIXTURES / s / n for s, n in [("sgt-mines", "expert-mid.png"),
        ("xdemineur", "intermediate-mid.png"), ("winmine", "expert-mid.png"),
        ("gnome-mines", "medium-mid.png")]]  # fmt: skip
IDS = [p.parent.name for p in MIDS]
#: Each game's smallest board, whose colours' period a big board beside it can drown.
SMALLS = [FIXTURES / s / n for s, n in [("sgt-mines", "beginner-mid.png"),
          ("xdemineur", "intermediate-mid.png"), ("winmine", "beginner-mid.png"),
          ("gnome-mines", "small-mid.png")]]  # fmt: skip


@pytest.fixture(scope="module")
def skins():
    return load_skins()


def _found(png: Path, skins):
    frame = cv2.imread(str(png))
    return frame, locate_board(frame, skins).grid


@pytest.mark.sample(2)
@pytest.mark.parametrize("png", reader_params())
def test_every_fixture_is_whole_and_one_cell_less_is_not(png, skins):
    frame, grid = _found(png, skins)
    assert board_problem(frame, grid) is None
    fragments = [
        replace(grid, left=grid.col_left(1), cols=grid.cols - 1, col_offsets=grid.col_offsets[1:]),
        replace(grid, cols=grid.cols - 1, col_offsets=grid.col_offsets[:-1]),
        replace(grid, top=grid.row_top(1), rows=grid.rows - 1, row_offsets=grid.row_offsets[1:]),
        replace(grid, rows=grid.rows - 1, row_offsets=grid.row_offsets[:-1]),
    ]
    for fragment in fragments:
        assert board_problem(frame, fragment) is not None


@pytest.mark.sample(4)
@pytest.mark.parametrize("png", MIDS, ids=IDS)
@pytest.mark.parametrize("side", ["left", "right", "top", "bottom"])
@pytest.mark.parametrize("share", [0.3, 0.55])
def test_a_picture_cut_through_the_board_is_refused(png, side, share, skins):
    frame, grid = _found(png, skins)
    left, top, right, bottom = (round(v) for v in grid.bounds)
    w, h = right - left, bottom - top
    cut = {
        "left": frame[:, left + int(share * w) :],
        "right": frame[:, : right - int(share * w)],
        "top": frame[top + int(share * h) :],
        "bottom": frame[: bottom - int(share * h)],
    }[side]
    with pytest.raises(BoardNotFoundError):
        locate_board(np.ascontiguousarray(cut), skins)


@pytest.mark.sample(4)
@pytest.mark.parametrize("png", MIDS, ids=IDS)
@pytest.mark.parametrize("side", ["left", "right", "top", "bottom"])
@pytest.mark.parametrize("alpha", [1.0, 0.7])
def test_a_window_over_a_side_is_refused(png, side, alpha, skins):
    frame, grid = _found(png, skins)
    left, top, right, bottom = (round(v) for v in grid.bounds)
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = {
        "left": (0, 0, left + (right - left) // 3, h),
        "right": (right - (right - left) // 3, 0, w, h),
        "top": (0, 0, w, top + (bottom - top) // 3),
        "bottom": (0, bottom - (bottom - top) // 3, w, h),
    }[side]
    covered = frame.astype(np.float32)
    window = np.array([200, 180, 160], np.float32)
    covered[y0:y1, x0:x1] = alpha * window + (1 - alpha) * covered[y0:y1, x0:x1]
    with pytest.raises(BoardNotFoundError):
        locate_board(covered.astype(np.uint8), skins)


@pytest.mark.sample(2)
@pytest.mark.parametrize("png", MIDS, ids=IDS)
@pytest.mark.parametrize("drop", [0, 40])
def test_two_boards_side_by_side_are_refused(png, drop, skins):
    """Never one of them read silently; side by side at one height both are named."""
    frame = cv2.imread(str(png))
    h, w = frame.shape[:2]
    desk = np.full((h + drop, 2 * w + 40, 3), (90, 60, 30), np.uint8)
    desk[:h, :w] = frame
    desk[drop:, w + 40 :] = frame
    with pytest.raises(BoardNotFoundError) as refused:
        locate_board(desk, skins)
    if drop == 0:
        assert refused.type is TwoBoardsError
        assert "boards in the picture: a " in str(refused.value)


def _side_by_side(a: np.ndarray, b: np.ndarray, margin: int, gap: int) -> np.ndarray:
    """Pictures ``a`` and ``b`` side by side, ``gap`` px apart, on a flat blue desktop."""
    h, w = max(a.shape[0], b.shape[0]) + 2 * margin, a.shape[1] + b.shape[1] + 2 * margin + gap
    desk = np.full((h, w, 3), (122, 88, 48), np.uint8)
    desk[margin : margin + a.shape[0], margin : margin + a.shape[1]] = a
    x = margin + a.shape[1] + gap
    desk[margin : margin + b.shape[0], x : x + b.shape[1]] = b
    return desk


@pytest.mark.parametrize(
    ("left", "right"),
    list(itertools.permutations(range(len(MIDS)), 2)),
    ids=[f"{IDS[a]}-{IDS[b]}" for a, b in itertools.permutations(range(len(MIDS)), 2)],
)
def test_two_boards_of_other_games_are_both_named(left, right, skins):
    """A small board of another game beside a big one is seen even where one grey spreads over
    both (the big board's period then rules the area): refused, both named."""
    desk = _side_by_side(cv2.imread(str(MIDS[left])), cv2.imread(str(SMALLS[right])), 20, 40)
    with pytest.raises(TwoBoardsError) as refused:
        locate_board(desk, skins)
    for i in (left, right):
        assert f" {IDS[i]} board at x " in str(refused.value)


DENSE_LOST = FIXTURES / "gnome-mines-sizes" / "w1200x1000-dense45-lost.png"


@pytest.mark.parametrize("beside", ["itself", "sgt-mines"])
def test_a_lost_board_nearly_all_mines_beside_another_board_is_named(beside, skins):
    """GNOME Mines' lost 8x8 board of 45 mines has 8 covered cells: no anchor places it, and
    the lattice found without a skin seeds it when it is alone. Beside a copy of itself, or
    beside another game's board, the other board was read and this one not named."""
    lost = cv2.imread(str(DENSE_LOST))
    other = lost if beside == "itself" else cv2.imread(str(SMALLS[0]))
    with pytest.raises(TwoBoardsError) as refused:
        locate_board(_side_by_side(other, lost, 20, 300), skins)
    assert str(refused.value).count("gnome-mines board at x ") == (2 if beside == "itself" else 1)
    assert str(refused.value).startswith("2 boards in the picture")


def test_a_cut_board_says_which_edge(skins):
    frame, grid = _found(MIDS[0], skins)
    right = round(grid.col_left(grid.cols - 1)) + 4  # a sliver of the last column shows
    with pytest.raises(BoardCutError, match="right"):
        locate_board(np.ascontiguousarray(frame[:, :right]), skins)


@pytest.mark.sample(3)
@pytest.mark.parametrize("png", MIDS[:3], ids=IDS[:3])
@pytest.mark.parametrize("scale", [1.1, 2.5, 3.0])
def test_scalings_no_skin_lists_read_exactly_or_refuse(png, scale, skins):
    """The pitch comes from the picture (the key colours' period), not a list of scalings."""
    frame = cv2.imread(str(png))
    want = read_board(str(png.with_suffix(".txt")))
    for interp in (cv2.INTER_NEAREST, cv2.INTER_LINEAR):
        size = (round(frame.shape[1] * scale), round(frame.shape[0] * scale))
        big = cv2.resize(frame, size, interpolation=interp)
        try:
            located = locate_board(big, skins)
            board = read_frame(big, located).board
        except BoardNotFoundError:
            continue  # refused, never misread
        except Exception as exc:  # noqa: BLE001 - a low-confidence refusal is fine too
            assert type(exc).__name__ == "LowConfidenceError"
            continue
        assert str(board) == str(want)


def test_columns_of_a_margin_that_read_as_cells_make_no_whole_board(skins):
    """A margin of the covered cells' face colour reads as covered cells where their bevel
    is lost (sgt-mines' 28 px tiles): the board grown over it ends at no cells of its own."""
    png = FIXTURES / "sgt-mines-sizes" / "resized900x600-intermediate-won.png"
    frame, grid = _found(png, skins)
    assert board_problem(frame, grid) is None
    offsets = (0.0, 0.0) + grid.col_offsets if grid.col_offsets else ()
    wider = replace(
        grid, left=grid.left - 2 * grid.pitch_x, cols=grid.cols + 2, col_offsets=offsets
    )
    problem = board_problem(frame, wider)
    assert problem is not None and "left column of cells" in problem
    assert "shows no lines between its cells" in problem


def test_a_board_in_a_wide_margin_of_its_face_colour_is_peeled_to_its_frame(skins):
    """sgt-mines' 24 px won board padded with 200 px of its window's grey, at JPEG quality
    85: the lossy look grows the board over the margin; the columns and rows that show no
    lines between cells are peeled, and the board reads (it was refused as not ending at a
    frame)."""
    from tests.photometric import MILD

    png = FIXTURES / "sgt-mines-sizes" / "t24-intermediate-won.png"
    padded = cv2.copyMakeBorder(cv2.imread(str(png)), 200, 200, 200, 200, cv2.BORDER_REPLICATE)
    frame = MILD["jpeg85"](padded)
    board = read_frame(frame, locate_board(frame, skins)).board
    assert board == read_board(str(png.with_suffix(".txt")))


def test_a_margin_the_colour_of_covered_cells_is_not_read_as_a_ring_of_them(skins):
    """sgt-mines beginner-lost at 225 % nearest neighbour: the window's grey margin is the
    covered tile's colour without its bevel. Read with a JPEG's widened edge tolerance, the
    margin passed for a ring of covered cells and a 10x10 board was read for the 9x9 one."""
    png = FIXTURES / "sgt-mines" / "beginner-lost.png"
    frame = cv2.imread(str(png))
    big = cv2.resize(frame, (round(frame.shape[1] * 2.25), round(frame.shape[0] * 2.25)),
                     interpolation=cv2.INTER_NEAREST)  # fmt: skip
    board = read_frame(big, locate_board(big, skins)).board
    assert str(board) == str(read_board(str(png.with_suffix(".txt"))))


@pytest.mark.parametrize("name", ["expert-mid", "intermediate-won"])
def test_a_scaling_of_no_whole_number_of_quarters_repeating_pixels_reads_exactly(name, skins):
    """xdemineur at 135 % nearest neighbour (a scaling KDE offers): compared only with its
    images stretched smoothly, the board's cells stopped reading part of the way across and a
    part of it was refused as cut. Its images are now also drawn pixel-repeated at four
    phases each way (nearest_scaling.nearest_phases' spread)."""
    png = FIXTURES / "xdemineur" / f"{name}.png"
    frame = cv2.imread(str(png))
    big = cv2.resize(frame, (round(frame.shape[1] * 1.35), round(frame.shape[0] * 1.35)),
                     interpolation=cv2.INTER_NEAREST)  # fmt: skip
    board = read_frame(big, locate_board(big, skins)).board
    assert str(board) == str(read_board(str(png.with_suffix(".txt"))))


def test_an_unlisted_scaling_reads_exactly(skins):
    """sgt-mines expert at 250 % (the skin lists 100-200 %), nearest neighbour."""
    png = FIXTURES / "sgt-mines" / "expert-mid.png"
    frame = cv2.imread(str(png))
    big = cv2.resize(frame, None, fx=2.5, fy=2.5, interpolation=cv2.INTER_NEAREST)
    located = locate_board(big, skins)
    assert located.scale == pytest.approx(2.5, abs=0.01)
    assert str(read_frame(big, located).board) == str(read_board(str(png.with_suffix(".txt"))))


def test_a_fresh_board_beside_another_games_board_is_named_too(skins):
    """A fresh GNOME Mines board (all covered: its pitch is found only on a second try) right
    of a small sgt-mines board: the sgt-mines board alone was read, the other not named."""
    a = cv2.imread(str(FIXTURES / "gnome-mines" / "medium-fresh.png"))
    b = cv2.imread(str(FIXTURES / "sgt-mines" / "beginner-first.png"))
    with pytest.raises(TwoBoardsError) as refused:
        locate_board(_side_by_side(a, b, 40, 48), skins)
    assert " gnome-mines board at x " in str(refused.value)
    assert " sgt-mines board at x " in str(refused.value)


@pytest.mark.parametrize("quality", [85, 95])
def test_a_jpeg_board_is_found_whole_past_its_smeared_numbers(quality, skins):
    """JPEG smears the edges of the numbers' strokes: the board's growth stopped at them and a
    part of the board was refused as cut. Grown again with edges allowed what JPEG does to
    them (flat areas keep their tolerance: a window over a side is still refused)."""
    png = FIXTURES / "winmine" / "intermediate-mid.png"
    clean = cv2.imread(str(png))
    _, data = cv2.imencode(".jpg", clean, [cv2.IMWRITE_JPEG_QUALITY, quality])
    frame = cv2.imdecode(data, cv2.IMREAD_COLOR)
    located = locate_board(frame, skins)
    assert located.grid.bounds == pytest.approx(locate_board(clean, skins).grid.bounds, abs=1)
    assert read_frame(frame, located).board == read_board(str(png.with_suffix(".txt")))


#: GNOME Mines' window at 1200x1000: cells of 113 px, its margin above and below the board
#: (22 px, then the title bar or the window's edge) narrower than the third of a cell a side's
#: strip looks at.
BIG_CELLS = FIXTURES / "gnome-mines-sizes" / "w1200x1000-small-fresh"


def test_a_board_cut_with_little_picture_below_is_refused(skins):
    frame = cv2.imread(f"{BIG_CELLS}.png")
    grid = locate_board(frame, skins).grid
    # Cut through the second column, and 10 px below the board: too little to see a frame
    # there, but the other corners still show the cut, and the gaps of the half column left
    # show more cells.
    cut = frame[: round(grid.bounds[3]) + 10, round(grid.col_left(1) + 0.5 * grid.pitch_x) :]
    with pytest.raises(BoardCutError, match="goes on beyond its left side"):
        locate_board(np.ascontiguousarray(cut), skins)


def test_big_cells_in_a_window_on_a_desktop_read_exactly(skins):
    frame = cv2.imread(f"{BIG_CELLS}.png")
    desktop = np.zeros((frame.shape[0] + 200, frame.shape[1] + 300, 3), np.uint8)
    desktop[:] = (120, 80, 40)
    desktop[120 : 120 + frame.shape[0], 150 : 150 + frame.shape[1]] = frame
    located = locate_board(desktop, skins)
    board = read_frame(desktop, located).board
    assert board == read_board(f"{BIG_CELLS}.txt")


def test_big_cells_in_a_window_on_a_busy_desktop_read_exactly(skins):
    """The strip a side's frame is checked on is a third of a cell deep: beside 114 px cells
    it runs past GNOME Mines' 20 px margin into the desktop. Stripes there, varying along the
    side, were taken for more cells ("the board goes on beyond its bottom side")."""
    frame = cv2.imread(f"{BIG_CELLS}.png")
    desktop = np.zeros((frame.shape[0] + 200, frame.shape[1] + 300, 3), np.uint8)
    desktop[:, :, 1] = (np.arange(desktop.shape[1]) * 7 % 256)[None, :]  # stripes across
    desktop[:, :, 2] = 90
    desktop[120 : 120 + frame.shape[0], 150 : 150 + frame.shape[1]] = frame
    located = locate_board(desktop, skins)
    assert read_frame(desktop, located).board == read_board(f"{BIG_CELLS}.txt")


#: ace-minesweeper's boards by level: cells, pitch (px) and top-left corner in its fixtures.
ACE_BOARDS = {"8x8": (8, 48, (50, 76)), "11x11": (11, 36, (44, 70)), "16x16": (16, 24, (49, 75))}


@pytest.mark.parametrize(
    "name",
    sorted(
        p.stem
        for p in (FIXTURES / "ace-minesweeper").glob("*.png")
        if p.stem.split("-")[0] in ACE_BOARDS and p.stem != "16x16-screen"
    ),
)
def test_a_header_a_few_pixels_above_the_board_is_no_more_cells(name):
    """ace-minesweeper (a game no skin ships for) draws its mine counter and its button 5 px
    above the board at 11x11: the strip beyond the top side varied in its first lines, taken
    for more cells (its boards at 8x8 and 11x11 refused as going on beyond their top side).
    Beyond a line or more of frame, lines that do not repeat cell by cell and that the lattice's
    lines do not run into, over cells unlike the board's, are a header; one or two rows less,
    the cells beyond are cells (the header rule alone had read 11x11-more a row short)."""
    from bot.reading.grid import Grid

    frame = cv2.imread(str(FIXTURES / "ace-minesweeper" / f"{name}.png"))
    n, pitch, (x, y) = ACE_BOARDS[name.split("-")[0]]
    assert board_problem(frame, Grid(x, y, pitch, pitch, n, n)) is None
    for fewer in (1, 2):
        part = Grid(x, y + fewer * pitch, pitch, pitch, n, n - fewer)
        assert "goes on beyond its top side" in str(board_problem(frame, part))


def test_big_cells_that_stop_reading_beyond_a_block_are_no_frame(skins):
    """A screen darker towards its edges (a vignette: 15 % at the corners) leaves GNOME Mines'
    113 px covered tiles reading as drawn only in the middle of the window: the 4x4 block there
    had passed for the whole 8x8 board, the tiles beyond it flat but for 4 px gaps 2 px off the
    lattice's lines, darker than the block (an edge). The gaps mark the lines: more cells."""
    frame = cv2.imread(str(FIXTURES / "gnome-mines-sizes" / "w1200x1000-small-fresh.png"))
    height, width = frame.shape[:2]
    y, x = np.mgrid[0:height, 0:width]
    reach = ((x - width / 2) / (width / 2)) ** 2 + ((y - height / 2) / (height / 2)) ** 2
    dark = np.clip(np.rint(frame.astype(np.float32) * (1 - 0.15 * reach)[..., None]), 0, 255)
    dark = dark.astype(np.uint8)
    try:
        located = locate_board(dark, skins)
    except BoardNotFoundError:
        return
    assert (located.grid.cols, located.grid.rows) == (8, 8)


@pytest.fixture(scope="module")
def winemine_skin(tmp_path_factory):
    from bot.reading.skins import find_skin
    from tests.tune_games import tune_game

    folder = tune_game("winemine", tmp_path_factory.mktemp("winemine"), skin="winemine")
    return find_skin("winemine", dirs=[folder])


@pytest.mark.parametrize("name", ["beginner-first", "intermediate-fresh", "expert-first"])
def test_a_jpegs_ringing_beside_a_thin_dark_frame_is_no_board_running_on(name, winemine_skin):
    """Wine's Minesweeper draws a 5 px black frame beside the board's white bevel, then the
    desktop; a JPEG at quality 75 rings in that frame a pixel here and there, at the lines
    between cells among others: the frame is still the board's side (it was taken for the
    board going on beyond its left side, so no board was found in any such shot)."""
    from bot.reading.read import read_image
    from tests.photometric import jpeg

    png = FIXTURES / "winemine" / f"{name}.png"
    clean = cv2.imread(str(png))
    grid = read_image(clean, [winemine_skin]).grid
    lossy = jpeg(clean, 75)
    assert board_problem(lossy, grid) is None
    want = png.with_suffix(".txt").read_text(encoding="utf-8").strip("\n")
    assert str(read_image(lossy, [winemine_skin]).board) == want


def test_a_board_beside_one_found_is_named_though_the_strict_look_finds_a_fragment(tmp_path):
    """KMines draws its easy board's cells at 29 px, its skin learnt from 18 px ones: beside a
    whole board of another game only a 1x4 fragment of it read strictly, and the board found
    was given alone; the fragment's board is grown as in a picture of its own, and both named."""
    import shutil

    from bot.reading.read import read_image
    from bot.reading.skins import find_skin
    from tests.fixtures.perturb import SIDE_BY_SIDE_GAP, desktop, paste
    from tests.tune_games import tune_game

    for game in ("kmines-classic", "kmines-green"):
        shutil.copytree(tune_game(game, tmp_path / game, skin=game) / game, tmp_path / "s" / game)
    skins = [find_skin(game, dirs=[tmp_path / "s"]) for game in ("kmines-classic", "kmines-green")]
    left = cv2.imread(str(FIXTURES / "kmines-classic" / "easy-first.png"))
    right = cv2.imread(str(FIXTURES / "kmines-green" / "easy-first.png"))
    (ha, wa), (hb, wb) = left.shape[:2], right.shape[:2]
    back = desktop("flat", wa + wb + SIDE_BY_SIDE_GAP + 80, max(ha, hb) + 80)
    both = paste(paste(back, left, (40, 40)), right, (40 + wa + SIDE_BY_SIDE_GAP, 40))
    alone = read_image(right, skins).grid  # where it is read in a picture of its own
    with pytest.raises(TwoBoardsError) as refused:
        read_image(both, skins)
    x = round(alone.left) + 40 + wa + SIDE_BY_SIDE_GAP
    assert "a 9x9 kmines-classic board at x 166..427" in str(refused.value)
    assert f"a 9x9 kmines-green board at x {x}.." in str(refused.value)


def test_a_desktop_gradient_beyond_the_frame_is_no_lines_going_on():
    # KMines' wallpaper beyond its 4 px frame, at contrast 1.15: 40 levels over the board's
    # height, 20 px of it looked at beyond each side. Whole, and still not one cell less.
    tile = np.full((20, 20, 3), 200, np.uint8)
    tile[:2] = 255
    tile[:, :2] = 255
    ramp = np.linspace(90, 230, 240)[:, None, None]
    window = np.broadcast_to(ramp, (240, 300, 3)).round().astype(np.uint8).copy()
    window[37:203, 27:273] = 60  # the frame
    window[40:200, 30:270] = np.tile(tile, (8, 12, 1))
    assert board_problem(window, Grid(30, 40, 20, 20, 12, 8)) is None
    for fragment in (Grid(50, 40, 20, 20, 11, 8), Grid(30, 60, 20, 20, 12, 7)):
        assert "goes on" in (board_problem(window, fragment) or "")


@pytest.mark.sample(4)
@pytest.mark.parametrize(
    ("left", "right"),
    list(itertools.permutations(range(len(MIDS)), 2)),
    ids=[f"{IDS[a]}-{IDS[b]}" for a, b in itertools.permutations(range(len(MIDS)), 2)],
)
def test_another_games_board_no_skin_reads_is_named(left, right, skins):
    """Read with its own skin only (a user's one tuned skin), a board beside another game's is
    not read silently: the other is seen by what every board is, a whole lattice of cells."""
    own = [s for s in skins if s.name == IDS[left]]
    desk = _side_by_side(cv2.imread(str(MIDS[left])), cv2.imread(str(SMALLS[right])), 20, 40)
    with pytest.raises(TwoBoardsError) as refused:
        read_image(desk, own)
    assert f" {IDS[left]} board at x " in str(refused.value)
    assert " cells no skin reads at x " in str(refused.value)


@pytest.mark.parametrize("name", ["expert-mid", "intermediate-mid"])
@pytest.mark.parametrize("desktop", [(122, 88, 48), (40, 40, 40), (230, 230, 230)])
def test_a_thin_frame_and_its_border_on_a_desktop_is_whole(name, desktop):
    """xbomb draws 4 px of white and a black border round its board: past the pixels skipped
    beside the cells, the strip beyond the left side is two white lines, the border and the
    desktop, while the bottom's runs on into the window. The frame still meets itself at the
    corners; a column less is still cut."""
    shot = cv2.imread(str(FIXTURES / "xbomb" / f"{name}.png"))
    found = find_lattice(shot)
    h, w = shot.shape[:2]
    desk = np.full((h + 80, w + 80, 3), desktop, np.uint8)
    desk[40 : 40 + h, 40 : 40 + w] = shot
    grid = Grid.from_lines(tuple(x + 40 for x in found.xs), tuple(y + 40 for y in found.ys))
    assert board_problem(desk, grid) is None
    less = replace(grid, left=grid.col_left(1), cols=grid.cols - 1)
    assert board_problem(desk, less) is not None
