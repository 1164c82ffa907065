"""Boards whose colours changed on the way to the screen, found from the picture alone: through
a tone curve where the skin's colours moved, and as the game that draws them, never as another
game they pass for (tests/test_colour.py: the sample boards of each skin under each change)."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from bot.errors import BoardNotFoundError
from bot.reading.read import ReaderState, locate_board, read_frame
from solver.board import read_board
from tests.fixtures.perturb import noise
from tests.photometric import MILD, STRONG

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.mark.parametrize("case", ["contrast0.85", "gamma0.8"])
def test_a_board_found_through_a_curve_is_read_through_it(case):
    """A lost GNOME board (mines, flags, few 0s) found through the tone curve learnt from its
    first cells: the curve comes with the board found, and reads every cell (learnt again
    from the whole frame, the fit misses the 0s)."""
    name = "gnome-mines/medium-lost"
    frame = MILD[case](cv2.imread(str(FIXTURES / f"{name}.png")))
    located = locate_board(frame)
    assert located.tone is not None
    assert read_frame(frame, located, ReaderState()).board == read_board(
        str(FIXTURES / f"{name}.txt")
    )


@pytest.mark.parametrize("case", ["contrast0.85", "gamma1.25"])
def test_a_fresh_board_recoloured_is_not_read_as_another_games_flat_cells(case):
    """A fresh GNOME board is one flat tile repeated: recoloured, its covered cells matched
    xdemineur's flat 0 within that skin's tolerance, and the lattice found without a skin
    seeded an all-0 xdemineur board. Only drawn classes seed a board found that way."""
    name = "gnome-mines/small-fresh"
    frame = MILD[case](cv2.imread(str(FIXTURES / f"{name}.png")))
    located = locate_board(frame)
    assert located.skin.name == "gnome-mines"
    assert read_frame(frame, located, ReaderState()).board == read_board(
        str(FIXTURES / f"{name}.txt")
    )


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("name", ["sgt-mines/expert-fresh", "sgt-mines/custom135-fresh"])
def test_a_noisy_board_is_not_found_as_another_games_recoloured(name, seed):
    """A fresh sgt-mines board under noise of sigma 8 reads clearly as no skin; through a tone
    curve its raised tiles passed for winmine's, and the board was found as winmine's (its text,
    all covered, was even right). Nearer sgt-mines' own images than winmine's through the curve,
    it is sgt-mines' board or none."""
    frame = noise(cv2.imread(str(FIXTURES / f"{name}.png")), 8, seed)
    try:
        located = locate_board(frame)
    except BoardNotFoundError:
        return
    assert located.skin.name == "sgt-mines"


@pytest.mark.parametrize("delta", [-25, -30])
def test_another_game_darkened_is_not_read_as_a_game_it_passes_for(delta):
    """sgt-mines' won beginner board 25-30 levels darker passed, as drawn, for a winmine board
    (grey tiles, digits in the same colours): read so, a 4 came out as a 1. Through a curve,
    sgt-mines' own images are far nearer its cells: refused, or read as sgt-mines."""
    name = "sgt-mines/beginner-won"
    frame = cv2.convertScaleAbs(cv2.imread(str(FIXTURES / f"{name}.png")), alpha=1, beta=delta)
    try:
        located = locate_board(frame)
    except BoardNotFoundError as refused:
        assert "sgt-mines" in str(refused)
        return
    assert located.skin.name == "sgt-mines"
    assert read_frame(frame, located, ReaderState()).board == read_board(
        str(FIXTURES / f"{name}.txt")
    )


def test_a_redrawn_games_board_read_as_drawn_is_not_compared_with_other_games(monkeypatch):
    """GNOME Mines draws its cells anew at each size, so its images fit even its own clean cells
    loosely (mean distance 6-14): the comparison with every other skin through a curve told
    nothing there and cost each first read of its boards about 0.4 s. A clean GNOME board is
    located without classifying it as any other skin."""
    import bot.reading.classify as classify

    frame = cv2.imread(str(FIXTURES / "gnome-mines/big-mid.png"))
    seen: list[str] = []
    original = classify.classify_cells

    def counting(frame_bgr, grid, skin, *args, **kwargs):
        seen.append(skin.name)
        return original(frame_bgr, grid, skin, *args, **kwargs)

    monkeypatch.setattr(classify, "classify_cells", counting)
    located = locate_board(frame)
    assert located.skin.name == "gnome-mines" and located.tone is None
    board = read_frame(frame, located, ReaderState()).board
    assert board == read_board(str(FIXTURES / "gnome-mines/big-mid.txt"))
    assert set(seen) <= {"gnome-mines"}, seen


@pytest.mark.parametrize(
    ("name", "case"),
    [
        ("gnome-mines/big-fresh", "gamma0.8"),
        ("gnome-mines/big-won", "brightness-20"),
        ("gnome-mines-sizes/w1000x600-big-won", "contrast0.85"),
        ("sgt-mines-sizes/t18-intermediate-fresh", "night-light"),
        ("sgt-mines-sizes/t18-intermediate-fresh", "brightness+20"),
        ("sgt-mines-sizes/t18-intermediate-fresh", "contrast0.85"),
        ("sgt-mines-sizes/t28-expert-fresh", "contrast0.85"),
    ],
)
def test_boards_of_few_colours_are_found_recoloured(name, case):
    """Recoloured, these were "no board found". A fresh GNOME board: the curve was learnt
    from the lighter covered cell drawn under the pointer, which fits a fresh board as well
    as the covered image through another curve (now each class's first image alone). A won
    board: the commonest colour is the window's background, whose shifts onto the skin's key
    colours took every rough shift tried (now the smallest shifts first). sgt-mines' fresh
    18 px board under night light: from starts that move every channel alike, the tone fit
    settled on bevel variants a pixel off (now it starts from a warm tint too); 20 levels
    brighter it was found as an all-0 winmine board, no board a game shows (now the
    recoloured search goes on past it). Its covered tiles at contrast 0.85 read as drawn as its
    own 0s, loosely (18 and 28 px tiles: refused as no board a game shows, or as looking more
    like xdemineur's cells): such a board is looked for in the screen's colours first."""
    frame = MILD[case](cv2.imread(str(FIXTURES / f"{name}.png")))
    board = read_frame(frame, locate_board(frame), ReaderState()).board
    assert board == read_board(str(FIXTURES / f"{name}.txt"))


@pytest.mark.parametrize("case", ["brightness+20", "gamma1.25", "night-light"])
def test_a_lost_board_nearly_all_mines_is_found_recoloured(case):
    """GNOME Mines' 8x8 board with 45 mines, lost, at 114 px a cell: 8 covered cells and one 0
    to anchor on, so as drawn it is grown from the lattice found without a skin; recoloured it
    was "no board found" (the curve learnt from that lattice, the board then searched for by
    anchors alone). Through the curve it is grown from the lattice too."""
    name = "gnome-mines-sizes/w1200x1000-dense45-lost"
    frame = MILD[case](cv2.imread(str(FIXTURES / f"{name}.png")))
    board = read_frame(frame, locate_board(frame), ReaderState()).board
    assert board == read_board(str(FIXTURES / f"{name}.txt"))


def test_another_games_flat_cells_through_a_curve_do_not_outbid_a_fresh_board():
    """GNOME Mines' fresh board of 113 px cells, 20 levels brighter: a board found through a
    curve is checked against the other games' images, which may get a curve of their own (a
    curve learnt for one game takes up some of a noisy picture's noise). Through one, any
    game's open cells fit the covered cells' one grey: xdemineur's matched at 0.0, a board of
    0s no game shows, and the board was refused. Such a reading does not count."""
    from tests.photometric import brightness

    png = FIXTURES / "gnome-mines-sizes" / "w1200x1000-small-fresh.png"
    frame = brightness(cv2.imread(str(png)), 20)
    located = locate_board(frame)
    assert located.skin.name == "gnome-mines"
    assert read_frame(frame, located).board == read_board(str(png.with_suffix(".txt")))


def test_a_board_the_widened_look_finds_is_read_with_its_lines_placed(monkeypatch):
    """GNOME Mines' 30x16 won board at a desktop's 125 % (nearest): the anchors place only a
    piece, the widened look finds the whole board on an even lattice, whose cells read clearly
    once each line is placed where the picture draws it. That is the board: the screen's colours
    are the skin's, and no colour search is made (it cost 16 s and found nothing)."""
    import bot.reading.locate as locate
    from tests.fixtures.perturb import scale

    def no_search(*args, **kwargs):
        raise AssertionError("a colour search for a picture in the skin's own colours")

    monkeypatch.setattr(locate, "locate_recoloured", no_search)
    png = FIXTURES / "gnome-mines-sizes" / "w1000x600-big-won.png"
    frame = scale(cv2.imread(str(png)), 1.25, "nearest")
    board = read_frame(frame, locate_board(frame)).board
    assert board == read_board(str(png.with_suffix(".txt")))


@pytest.mark.parametrize(
    ("name", "case"),
    [
        # Desaturated, GNOME Mines' 3 tile lay nearer its 2 tile's colour: read as a 2 clearly,
        # its glyph a 3.
        ("gnome-mines/big-first", "saturation0.6"),
        # 40 levels up, a 0 clips to white, as does the covered tile under the pointer: its
        # detail (a gap round the tile) gone, the covered tile had scored 1.0 against 0.
        ("gnome-mines/custom400-dense8", "brightness+40"),
        # Gamma 0.6 puts sgt-mines' 0 tile (at 32 px) where its covered tile is drawn, and
        # the frame's real covered tiles 10 levels up: a shift taken for noise.
        ("sgt-mines-sizes/t32-expert-first", "gamma0.6"),
    ],
)
def test_colour_changes_that_bring_one_tile_onto_another_misread_no_cell(name, case):
    """Stronger changes than the mild ones can move a tile's colour onto another class's: the
    picture reads exactly or is refused, never read with a cell of another class."""
    from bot.reading.read import read_image
    from solver.errors import MinebotError

    frame = STRONG[case](cv2.imread(str(FIXTURES / f"{name}.png")))
    try:
        board = read_image(frame).board
    except MinebotError:
        return
    assert board == read_board(str(FIXTURES / f"{name}.txt"))


def test_a_board_two_games_curves_fit_about_as_well_is_not_told_as_the_farther_one():
    """sgt-mines' 20 px tiles at contrast 0.7 passed, with a lossy picture's tolerance widened,
    for winmine's at 125 %; through a curve each game's images read every cell, sgt-mines' a
    little nearer. The game cannot be told there: that reading is refused, and the board is
    found in the screen's colours as the game that draws it (or refused), never as winmine."""
    from bot.reading.read import read_image
    from solver.errors import MinebotError

    name = "sgt-mines/beginner-misflag"
    frame = STRONG["contrast0.7"](cv2.imread(str(FIXTURES / f"{name}.png")))
    try:
        reading = read_image(frame)
    except MinebotError:
        return
    assert reading.skin.name == "sgt-mines"
    assert reading.board == read_board(str(FIXTURES / f"{name}.txt"))


def test_a_board_whose_covered_and_open_greys_moved_apart_is_found_recoloured():
    """GNOME Mines' lost 30x16 board 20 levels darker, then at contrast 0.85: its covered
    grey moved 27 levels and its open grey 32, and the four smallest shifts of the picture's
    commonest colours onto the skin's greys (the window's background, the board's reds and
    greens) were the only ones tried: no board found. A shift that both greys agree on is
    tried too."""
    from tests.photometric import brightness, contrast

    picture = cv2.imread(str(FIXTURES / "gnome-mines/big-lost.png"))
    expected = read_board(str(FIXTURES / "gnome-mines/big-lost.txt"))
    changed = contrast(brightness(picture, -20), 0.85)
    assert read_frame(changed, locate_board(changed), ReaderState()).board == expected


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("t18-intermediate-fresh", "darker-gamma"),
        ("t18-intermediate-mid", "contrast-darker-gamma"),
    ],
)
def test_covered_tiles_shown_in_the_open_cells_face_are_read_through_the_screens_curve(
    name: str, change: str
):
    """sgt-mines' 18 px tiles 20 levels darker at gamma 0.8 (after contrast 0.9): the covered
    tiles' face comes out at the open cells' face, and as drawn every covered tile read clearly
    as a 0 (only their edges differ, which a tile's neighbours change), far from its image.
    The fresh board was refused as no board a game shows (55 s), the mid-game one as read a
    pixel off; both are read through the screen's curve."""
    from tests.photometric import brightness, contrast, gamma

    picture = cv2.imread(str(FIXTURES / f"sgt-mines-sizes/{name}.png"))
    if change.startswith("contrast"):
        picture = contrast(picture, 0.9)
    changed = gamma(brightness(picture, -20), 0.8)
    expected = read_board(str(FIXTURES / f"sgt-mines-sizes/{name}.txt"))
    assert read_frame(changed, locate_board(changed), ReaderState()).board == expected
