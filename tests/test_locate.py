"""Finding the board: every fixture, on bigger and offset desktops, at desktop scalings."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.errors import BoardNotFoundError
from bot.reading.colour_keys import key_colours
from bot.reading.read import Grid, locate_board, read_frame
from bot.reading.regions import FrameLook
from bot.reading.skins import find_skin, load_skins
from solver.board import read_board
from tests.fixture_cases import READER_CASES, reader_params

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CASES = READER_CASES


def expected(png: Path):
    return read_board(str(png.with_suffix(".txt")))


@pytest.fixture(scope="module")
def skins():
    return load_skins()


def test_there_are_fixtures_for_every_game_skin():
    have = {p.parent.name for p in CASES}
    assert {"sgt-mines", "xdemineur", "winmine", "gnome-mines"} <= have
    for skin in have:
        stems = {p.stem.split("-")[-1] for p in CASES if p.parent.name == skin}
        assert {"mid", "lost", "won"} <= stems, skin


@pytest.mark.sample(2)
@pytest.mark.parametrize("png", reader_params())
def test_every_fixture_locates_to_its_skin_and_size(png, skins):
    frame = cv2.imread(str(png))
    located = locate_board(frame, skins)
    board = expected(png)
    assert located.skin.name == png.parent.name
    assert (located.grid.cols, located.grid.rows) == (board.width, board.height)
    if not located.skin.scales_with_window:
        assert located.scale == pytest.approx(1.0)


def _desktop(frame: np.ndarray, at: tuple[int, int], size=(1080, 3840)) -> np.ndarray:
    """A two-monitor desktop (left: a busy gradient, right: flat) with ``frame`` at ``at``."""
    h, w = size
    desk = np.zeros((h, w, 3), np.uint8)
    ramp = np.linspace(0, 255, w // 2, dtype=np.uint8)
    desk[:, : w // 2, 0] = ramp[None, :]
    desk[:, : w // 2, 1] = np.linspace(0, 255, h, dtype=np.uint8)[:, None]
    desk[:, w // 2 :] = (48, 36, 30)
    fh, fw = frame.shape[:2]
    x, y = min(at[0], w - fw), min(at[1], h - fh)
    desk[y : y + fh, x : x + fw] = frame
    return desk


@pytest.mark.sample(3)
@pytest.mark.parametrize("skin_dir", ["sgt-mines", "xdemineur", "winmine", "gnome-mines"])
@pytest.mark.parametrize("at", [(0, 0), (1913, 301), (3840, 1080)])
def test_boards_are_found_anywhere_on_a_multi_monitor_desktop(skin_dir, at, skins):
    png = sorted((FIXTURES / skin_dir).glob("*-mid.png"))[-1]
    frame = cv2.imread(str(png))
    desk = _desktop(frame, at)
    at = (min(at[0], desk.shape[1] - frame.shape[1]), min(at[1], desk.shape[0] - frame.shape[0]))
    alone = locate_board(frame, skins).grid
    located = locate_board(desk, skins)
    assert located.grid.cols == alone.cols and located.grid.rows == alone.rows
    for x, y in [(0, 0), (alone.cols - 1, alone.rows - 1), (alone.cols // 2, alone.rows // 2)]:
        cx, cy = alone.cell_center(x, y)
        # Exact for even lattices; an uneven lattice is fitted to its matches (within 1 px).
        assert located.grid.cell_center(x, y) == pytest.approx((cx + at[0], cy + at[1]), abs=1)
    assert read_frame(desk, located).board == read_frame(frame, locate_board(frame, skins)).board


SCALES = [1.25, 1.5, 2.0]


@pytest.mark.sample(3)
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("skin_dir", ["sgt-mines", "xdemineur", "winmine"])
def test_fixed_pixel_skins_are_found_at_desktop_scaling(skin_dir, scale, skins):
    """Windows-style scaling: the whole window stretched with smoothing (bilinear)."""
    for png in sorted((FIXTURES / skin_dir).glob("*.png")):
        frame = cv2.imread(str(png))
        big = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
        located = locate_board(big, skins)
        assert located.skin.name == skin_dir
        assert located.scale == pytest.approx(scale, abs=0.01)
        assert read_frame(big, located).board == expected(png), png.name


@pytest.mark.sample(2)
@pytest.mark.parametrize("skin_dir", ["sgt-mines", "xdemineur", "winmine"])
def test_fixed_pixel_skins_are_found_at_a_pixel_repeating_200_percent(skin_dir, skins):
    """A scaler that repeats each pixel (nearest) keeps edges sharp: every fixture reads."""
    for png in sorted((FIXTURES / skin_dir).glob("*.png")):
        frame = cv2.imread(str(png))
        big = cv2.resize(frame, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_NEAREST)
        located = locate_board(big, skins)
        assert located.skin.name == skin_dir
        assert located.scale == pytest.approx(2.0, abs=0.01)
        assert read_frame(big, located).board == expected(png), png.name


def test_grid_geometry_round_trips():
    grid = Grid(left=100.5, top=20.25, pitch_x=26.25, pitch_y=26.25, cols=30, rows=16)
    for x, y in [(0, 0), (29, 15), (7, 9)]:
        cx, cy = grid.cell_center(x, y)
        assert grid.cell_at(cx, cy) == (x, y)
        left, top, w, h = grid.cell_rect(x, y)
        assert left <= cx < left + w and top <= cy < top + h
    assert grid.cell_at(grid.bounds[2] + 1, cx) is None


def test_no_board_in_noise_or_a_blank_picture(skins):
    rng = np.random.default_rng(4)
    with pytest.raises(BoardNotFoundError, match="no board"):
        locate_board(rng.integers(0, 256, (600, 800, 3), dtype=np.uint8), skins)
    with pytest.raises(BoardNotFoundError):
        locate_board(np.full((600, 800, 3), 192, np.uint8), skins)
    with pytest.raises(BoardNotFoundError, match="colour picture"):
        locate_board(np.zeros((10, 10), np.uint8), skins)


def test_bgra_frames_from_mss_work(skins):
    png = sorted((FIXTURES / "xdemineur").glob("*-mid.png"))[0]
    frame = cv2.imread(str(png))
    bgra = cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA)
    located = locate_board(bgra, skins)
    assert read_frame(bgra, located).board == expected(png)


@pytest.mark.parametrize("stem", ["beginner-mid", "intermediate-mid", "intermediate-won"])
def test_narrowing_to_one_skin_finds_only_that_skin(stem):
    """Not even through a tone curve: a curve can make sgt-mines' cells pass winmine's
    tolerance (these three were read as winmine boards, wrongly), never make them equal."""
    frame = cv2.imread(str(FIXTURES / "sgt-mines" / f"{stem}.png"))
    assert locate_board(frame, [find_skin("sgt-mines")]).skin.name == "sgt-mines"
    with pytest.raises(BoardNotFoundError):
        locate_board(frame, [find_skin("winmine")])


REAL_125 = Path(__file__).resolve().parents[2] / "shared" / "real-screens" / "minesweeper-x"
#: Real Minesweeper X cells captured at 125% Windows scaling (15x15 crops, 2 px inside the cell).
REAL_125_CELLS = {
    "0": "0", "1": "1", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7",
    ".": "covered", "X": "explosion", "W": "false", "F": "flag", "*": "mine",
}  # fmt: skip


@pytest.mark.skipif(not REAL_125.is_dir(), reason="shared real screenshots not available")
def test_winmine_reads_real_125_percent_cells(skins):
    """A classic board at 125% whose cells carry the real pixels Windows drew at 125%."""
    sheet = cv2.imread(str(FIXTURES.parent.parent / "templates" / "winmine" / "source-sheet.png"))
    text = "01........\n12.1.2.3..\n..........\n.4.5.6.7..\nXWF*......"  # as a game shows
    pos = {**{str(i): (i, 0) for i in range(9)}, ".": (0, 1), "*": (2, 1), "F": (3, 1),
           "W": (4, 1), "X": (5, 1)}  # fmt: skip
    rows = text.split()
    small = np.full((16 * len(rows) + 32, 16 * len(rows[0]) + 32, 3), 192, np.uint8)
    small[14:16, 14 : 18 + 16 * len(rows[0])] = 128  # the sunken frame's dark top edge
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            sx, sy = pos[ch]
            tile = sheet[16 * sy : 16 * sy + 16, 16 * sx : 16 * sx + 16]
            small[16 + 16 * y : 32 + 16 * y, 16 + 16 * x : 32 + 16 * x] = tile
    big = cv2.resize(small, None, fx=1.25, fy=1.25, interpolation=cv2.INTER_LINEAR)
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            real = cv2.imread(str(REAL_125 / f"gcp-msx-125pct-{REAL_125_CELLS[ch]}.png"))
            top, left = 20 + 20 * y + 2, 20 + 20 * x + 2
            big[top : top + 15, left : left + 15] = real
    located = locate_board(big, skins)
    assert located.skin.name == "winmine" and located.scale == pytest.approx(1.25)
    assert str(read_frame(big, located).board) == text


@pytest.mark.sample(2)
@pytest.mark.parametrize("skin_dir", ["sgt-mines", "xdemineur", "winmine"])
def test_the_key_colours_period_picks_the_desktop_scaling(skin_dir, skins):
    """Fixed-pixel skins: of the scalings, the one drawn is matched first (the period of the key
    colours tells it), and another game's look-alike greys are not matched in the first pass."""
    from bot.reading.pitches import candidate_pitches
    from bot.reading.regions import find_regions, padded_box, search_padding

    skin = find_skin(skin_dir)
    frame = cv2.imread(str(FIXTURES / skin_dir / "expert-mid.png"))
    for scale in [1.0, *SCALES]:
        big = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
        small = cv2.resize(big, (big.shape[1] // 2, big.shape[0] // 2), cv2.INTER_NEAREST)
        (core,) = find_regions(big, small, skin)
        pitches, later = candidate_pitches(skin, big, padded_box(core, search_padding(skin), big))
        # The period may also be half a cell (two blobs a cell): then twice the scale is
        # tried, after the right one. The others only if no board is found.
        assert pitches[0] == (skin.pitch_x * scale, skin.pitch_y * scale), scale
        assert len(pitches) <= 2
        # The others only if no board is found: the listed scalings, then the period itself
        # (cells drawn at another size, then scaled: 14 px tiles at 125 %).
        tried = pitches + later()
        listed = {(skin.pitch_x * s, skin.pitch_y * s) for s in skin.scales}
        assert set(tried[: len(listed)]) == listed
        assert len(tried) <= len(listed) + 2
    other = cv2.imread(str(FIXTURES / "gnome-mines" / "big-mid.png"))
    small = cv2.resize(other, (other.shape[1] // 2, other.shape[0] // 2), cv2.INTER_NEAREST)
    for core in find_regions(other, small, skin):
        first = candidate_pitches(skin, other, padded_box(core, search_padding(skin), other))[0]
        # No listed scaling fits: only the period itself (any scaling 100-300 %) is tried.
        assert not set(first) & {(skin.pitch_x * s, skin.pitch_y * s) for s in skin.scales}
        assert len(first) <= 1
    with pytest.raises(BoardNotFoundError):
        locate_board(other, [skin])


@pytest.mark.parametrize(
    ("skin_dir", "lines"), [("xdemineur", True), ("sgt-mines", True), ("winmine", False)]
)
def test_a_board_amid_its_own_colour_is_still_found(skin_dir, lines, skins):
    """A grey desktop round a grey game (with lines of its own every 37 px) hides the board's
    period; the pitches the period ruled out are tried before giving up. (winmine amid its
    grey with such lines reads cells of the lines as cells and is refused, as before.)"""
    png = FIXTURES / skin_dir / "expert-mid.png"
    frame = cv2.imread(str(png))
    skin = find_skin(skin_dir)
    grey = key_colours(skin)[0]
    desk = np.full((1080, 1920, 3), grey.astype(np.uint8), np.uint8)
    if lines:
        desk[:, ::37] = 128
    desk[200 : 200 + frame.shape[0], 300 : 300 + frame.shape[1]] = frame
    located = locate_board(desk, skins)
    assert located.skin.name == skin_dir
    assert read_frame(desk, located).board == expected(png)


#: Lost 30x16 GNOME Mines games with 400 mines (found as 19x16, 15x7, 30x15 and 28x16 before
#: the lines of the uneven lattice were placed by how their cells read).
DENSE_LOST = ["custom400-lost", "custom400-b-lost", "custom400-c-lost", "custom400-d-lost"]


@pytest.mark.sample(2)
@pytest.mark.parametrize("stem", DENSE_LOST)
def test_a_lost_dense_board_is_found_whole(stem, skins):
    """A lost dense board is nearly all mines and has few anchors (covered or empty cells)
    to place the uneven lattice's lines: lines placed between or beyond them read worse, and
    are moved to where their cells read best, so the whole board is found."""
    png = FIXTURES / "gnome-mines" / f"{stem}.png"
    frame = cv2.imread(str(png))
    for at in [None, (300, 200), (2400, 301)]:  # alone, on a gradient, on a flat desktop
        picture = frame if at is None else _desktop(frame, at)
        located = locate_board(picture, skins)
        assert (located.grid.cols, located.grid.rows) == (30, 16), at
        assert read_frame(picture, located).board == expected(png), at


def test_a_board_cut_in_two_is_refused_not_given_in_part(skins):
    """A column of the board that reads as nothing (here painted over) leaves anchor cells on
    both sides: the reader refuses rather than give either side as the board."""
    png = FIXTURES / "gnome-mines" / "custom400-lost.png"
    frame = cv2.imread(str(png))
    grid = locate_board(frame, skins).grid
    left, top, width, _ = grid.cell_rect(12, 0)
    bottom = grid.cell_rect(12, grid.rows - 1)
    frame[top : bottom[1] + bottom[3], left : left + width] = (255, 0, 255)
    with pytest.raises(BoardNotFoundError, match="only in part"):
        locate_board(frame, skins)


@pytest.mark.parametrize(
    ("name", "factor", "anchored"),
    [
        ("winmine/beginner-won", 1.25, False),
        ("winmine/beginner-won", 2.5, True),
        ("winmine/expert-won", 1.25, True),
    ],
)
def test_a_board_no_anchor_places_is_seeded_by_the_lattice(name, factor, anchored, skins):
    """A won winmine board shows no covered cell and flat open cells: stretched by a pixel-
    repeating scaler, no anchor matches it (or only a few cells away from its edge columns).
    The lattice found without a skin seeds it, and it reads whole and exactly. (Anchors now
    place some: matched to a fraction of a pixel, the lattice moved to where its cells read
    closest, and at 250 %, a scaling winmine does not list, once the listed ones found none.)"""
    from bot.reading.choose import distinct_places, find_candidates, is_whole

    frame = cv2.imread(str(FIXTURES / f"{name}.png"))
    big = cv2.resize(frame, None, fx=factor, fy=factor, interpolation=cv2.INTER_NEAREST)
    boards = distinct_places(find_candidates(FrameLook.of(big), skins))
    placed = [c for c in boards if c.clean and is_whole(big, c)]
    assert bool(placed) == anchored
    located = locate_board(big, skins)
    assert located.scale == pytest.approx(factor, abs=0.01)
    assert read_frame(big, located).board == read_board(str(FIXTURES / f"{name}.txt"))


@pytest.mark.parametrize("interpolation", [cv2.INTER_LINEAR, cv2.INTER_NEAREST])
def test_a_wide_board_at_a_fractional_scaling_is_fitted_its_pitch(interpolation, skins):
    """GNOME's 30 columns stretched 125 %: matched at the whole pitch nearest (42 px for about
    40.8) and fitted from there, the far columns were numbered wrong and the board found in
    part; the spacing of the matched columns starts the fit."""
    name = "gnome-mines/big-mid"
    frame = cv2.imread(str(FIXTURES / f"{name}.png"))
    big = cv2.resize(frame, None, fx=1.25, fy=1.25, interpolation=interpolation)
    located = locate_board(big, skins)
    assert (located.grid.cols, located.grid.rows) == (30, 16)
    assert read_frame(big, located).board == read_board(str(FIXTURES / f"{name}.txt"))


@pytest.mark.parametrize("size", [(1080, 1920), (701, 333)])
def test_a_blanked_look_is_the_look_at_the_blanked_frame(size, skins):
    """The look beside a board found (its box blanked out) is made from the first look without
    working the frame out again: it must equal the look at the blanked frame, pixel for pixel,
    also where the frame's odd width or height makes the sampled pixels uneven."""
    frame = cv2.imread(str(FIXTURES / "gnome-mines/big-mid.png"))
    desk = np.full((*size, 3), (90, 60, 30), np.uint8)
    h, w = min(frame.shape[0], size[0] - 3), min(frame.shape[1], size[1] - 5)
    desk[3 : 3 + h, 5 : 5 + w] = frame[:h, :w]
    look = FrameLook.of(desk)
    for skin in skins:
        look.mask(skin)
    for box in [(101, 57, 380, 291), (0, 0, 7, 9), (size[1] - 13, size[0] - 11, size[1], size[0])]:
        for colour in [(0, 128, 255), (90, 60, 30)]:
            blanked = look.blanked(box, colour)
            rest = desk.copy()
            rest[box[1] : box[3], box[0] : box[2]] = colour
            fresh = FrameLook.of(rest)
            assert np.array_equal(blanked.frame, rest)
            assert np.array_equal(blanked.gray, fresh.gray)
            assert np.array_equal(blanked.small, fresh.small)
            masked = look.masks_blanked(box, colour, skins)
            lent = look.blanked(box, colour, masked)
            for skin in skins:
                assert np.array_equal(blanked.mask(skin), fresh.mask(skin)), skin.name
                masked.regions_of(skin)  # worked out on the masks, then lent
                assert lent.regions_of(skin) == fresh.regions_of(skin), skin.name


def test_a_board_whose_period_a_busy_desktop_pulls_off_is_found_at_the_whole_pitch():
    """sgt-mines' 13 px tiles pasted on a busy desktop: the key colours' period over the area
    measured 12.89 px, where the anchors matched two cells and a 30x7 board grew, its rows
    drifting off (refused as cut). A game drawing its cells itself draws whole pixels: the
    nearest whole pitch is tried too, and the whole board reads exactly."""
    from tests.fixtures import robustness as rb

    name = "sgt-mines-sizes/t13-expert-first"
    truth = read_board(str(FIXTURES / f"{name}.txt"))
    runner = rb.Runner()
    shot, _ = runner.shot(rb.Fixture(name, FIXTURES / f"{name}.png", str(truth)))
    case = rb.CASE_BY_NAME["desktop-busy"]
    picture = rb.build(case.kind, case.args, shot, shot, sum(map(ord, name + case.name)))
    located = locate_board(picture.image)
    assert (located.grid.cols, located.grid.rows) == (truth.width, truth.height)
    assert read_frame(picture.image, located).board == truth


def test_a_fresh_board_is_not_taken_by_another_games_flat_cells() -> None:
    """GNOME's fresh 16x16 board of 63 px cells at contrast 0.85: every tile also reads clearly
    as xdemineur's flat 0, on a lattice the picture shows. Flat cells seed a board only where
    they make one a game shows (all 0s is none): the board is GNOME's, read exactly."""
    from bot.reading.read import read_image
    from tests.fixtures.perturb import contrast

    png = FIXTURES / "gnome-mines-sizes" / "w1300x1100-medium-fresh.png"
    reading = read_image(contrast(cv2.imread(str(png)), 0.85), load_skins())
    assert reading.located.skin.name == "gnome-mines"
    assert reading.board == read_board(str(png.with_suffix(".txt")))
