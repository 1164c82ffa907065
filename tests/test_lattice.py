"""bot.reading.lattice finds the cell grid of real game screenshots without knowing the skin.

The screenshots are real captures under Xvfb (tests/fixtures_tune/). The expected grids were
measured independently: xbomb's first black grid line is at x=5, y=28 (2 px lines, 20 px
pitch); sgt-mines' board origin is (1.5T, 1.5T + 25) for its 20 px tiles (games.md);
xdemineur's 1 px grid lines are at 16 + 21k, 81 + 21k (games.md), and the lattice may put
the boundary on either side of that line; gnome-mines' tiles start at x=25, y=114 and are 33
px apart, then 32 (GTK spreads the leftover pixels).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot.errors import LatticeError
from bot.reading.lattice import Lattice, estimate_pitch, find_lattice, find_lattices, refine_pitch

FIX = Path(__file__).parent / "fixtures_tune"

# name -> (file, cols, rows, left, top, pitch, boundary tolerance in px)
GAMES = {
    "xbomb-fresh": ("xbomb/fresh.png", 30, 16, 5, 28, 20, 0),
    "xbomb-click1": ("xbomb/click1.png", 30, 16, 5, 28, 20, 0),
    "xbomb-mid": ("xbomb/mid.png", 30, 16, 5, 28, 20, 0),
    "sgt-mines": ("lattice/sgt-mines.png", 30, 16, 30, 55, 20, 0),
    "xdemineur": ("lattice/xdemineur.png", 30, 16, 16, 81, 21, 1),
}


def load(rel: str) -> np.ndarray:
    import cv2

    image = cv2.imread(str(FIX / rel), cv2.IMREAD_COLOR)
    assert image is not None, rel
    return image


@pytest.mark.parametrize("name", sorted(GAMES))
def test_real_screenshots(name: str) -> None:
    rel, cols, rows, left, top, pitch, tol = GAMES[name]
    lat = find_lattice(load(rel))
    assert (lat.cols, lat.rows) == (cols, rows)
    assert lat.pitch_x == pytest.approx(pitch, abs=0.01)
    assert lat.pitch_y == pytest.approx(pitch, abs=0.01)
    assert abs(lat.left - left) <= tol and abs(lat.top - top) <= tol
    # every line on the lattice, one pitch apart
    assert set(np.diff(lat.xs)) == {pitch} and set(np.diff(lat.ys)) == {pitch}


def test_gnome_mines_uneven_columns() -> None:
    lat = find_lattice(load("lattice/gnome-mines.png"))
    assert (lat.cols, lat.rows) == (30, 16)
    assert (lat.left, lat.top) == (25, 114)
    # GTK's layout: 33 px cells, then 32 px ones; every tile must start on its own line.
    assert set(np.diff(lat.xs)) == {32, 33} and set(np.diff(lat.ys)) == {32, 33}
    image = load("lattice/gnome-mines.png")
    for x in lat.xs[:-1]:  # the tile's left edge: background (light) -> tile (darker)
        assert int(image[lat.ys[0] + 15, x - 1, 1]) - int(image[lat.ys[0] + 15, x, 1]) > 30


def desktop_with(window: np.ndarray, at: tuple[int, int], seed: int = 0) -> np.ndarray:
    """A 1920x1080 desktop: a wallpaper colour, a noisy photo, some text, and the window."""
    import cv2

    rng = np.random.default_rng(seed)
    desk = np.full((1080, 1920, 3), (90, 60, 30), np.uint8)
    desk[20:220, 1500:1850] = rng.integers(0, 256, (200, 350, 3), dtype=np.uint8)
    cv2.putText(desk, "Terminal 0123456789 ABCDEFG", (60, 1040), cv2.FONT_HERSHEY_SIMPLEX, 1.2,
                (240, 240, 240), 2)  # fmt: skip
    cv2.rectangle(desk, (1400, 600), (1800, 900), (200, 200, 200), -1)
    ox, oy = at
    h, w = window.shape[:2]
    desk[oy : oy + h, ox : ox + w] = window
    return desk


@pytest.mark.sample(3)
@pytest.mark.parametrize("name", ["xbomb-click1", "sgt-mines", "xdemineur"])
@pytest.mark.parametrize("scale", [1.0, 1.25, 1.5, 2.0])
def test_scaled_board_anywhere_on_a_desktop(name: str, scale: float) -> None:
    import cv2

    rel, cols, rows, left, top, pitch, tol = GAMES[name]
    window = load(rel)
    if scale != 1.0:
        interp = cv2.INTER_NEAREST if scale == 2.0 else cv2.INTER_LINEAR
        window = cv2.resize(window, None, fx=scale, fy=scale, interpolation=interp)
    at = (137, 91)
    lat = find_lattice(desktop_with(window, at))
    assert (lat.cols, lat.rows) == (cols, rows)
    assert lat.pitch_x == pytest.approx(pitch * scale, abs=0.15)
    assert lat.pitch_y == pytest.approx(pitch * scale, abs=0.15)
    # every line within a couple of (scaled) pixels of where the game drew it
    slack = (tol + 2) * scale
    want_x = at[0] + (left + pitch * np.arange(cols + 1)) * scale
    want_y = at[1] + (top + pitch * np.arange(rows + 1)) * scale
    assert np.abs(np.array(lat.xs) - want_x).max() <= slack
    assert np.abs(np.array(lat.ys) - want_y).max() <= slack


def test_no_board_is_an_error() -> None:
    import cv2

    with pytest.raises(LatticeError, match="no board|no edges|blank"):
        find_lattice(np.full((600, 800, 3), 200, np.uint8))
    text = np.full((600, 800, 3), 255, np.uint8)
    cv2.putText(text, "Just a document, no game", (20, 300), cv2.FONT_HERSHEY_SIMPLEX, 1.0,
                (0, 0, 0), 2)  # fmt: skip
    with pytest.raises(LatticeError):
        find_lattice(text)


def test_synthetic_lattice_with_fractional_pitch() -> None:
    # A 12x9 board of bevelled tiles at 26.25 px (21 px at 125%): lines rounded one by one.
    tile_edges_x = np.floor(40 + 26.25 * np.arange(13) + 0.5).astype(int)
    tile_edges_y = np.floor(70 + 26.25 * np.arange(10) + 0.5).astype(int)
    img = np.full((400, 450, 3), 230, np.uint8)
    img[tile_edges_y[0] : tile_edges_y[-1], tile_edges_x[0] : tile_edges_x[-1]] = 180
    for x in tile_edges_x:
        img[tile_edges_y[0] : tile_edges_y[-1], x : x + 2] = 30
    for y in tile_edges_y:
        img[y : y + 2, tile_edges_x[0] : tile_edges_x[-1] + 2] = 30
    lat = find_lattice(img)
    assert (lat.cols, lat.rows) == (12, 9)
    assert lat.xs == tuple(tile_edges_x) and lat.ys == tuple(tile_edges_y)


def test_pitch_helpers() -> None:
    edges = np.zeros((5, 300), bool)
    edges[:, 10::16] = True
    edges[:, 12::16] = True  # a bevel two pixels in: the pitch is still 16, not 2 or 14
    assert estimate_pitch(edges, 8, 60) == 16
    profile = np.zeros(500)
    profile[np.floor(3 + 31.5 * np.arange(15) + 0.5).astype(int)] = 1.0
    assert refine_pitch(profile, 31) == pytest.approx(31.5, abs=0.02)


def test_large_cells_and_multiples_of_a_fractional_pitch() -> None:
    import cv2

    # gnome-mines scales its tiles to the window: an 8x8 board in 1200x1000 has ~113 px cells.
    png = Path(__file__).parent / "fixtures" / "gnome-mines-sizes" / "w1200x1000-small-mid.png"
    lat = find_lattice(cv2.imread(str(png)))
    assert (lat.cols, lat.rows) == (8, 8)
    assert lat.pitch_x == pytest.approx(113.5, abs=1.5)
    # With room for large cells the best lag may be several cells (6 x 22.5 = 135); the cell
    # is the fraction that scores as well, though no whole pixel is exactly 135 / 6.
    edges = np.zeros((5, 900), bool)
    edges[:, np.floor(3 + 22.5 * np.arange(40) + 0.5).astype(int)] = True
    assert estimate_pitch(edges, 8, 290) in (22, 23)


def test_lattice_cells_cut_every_cell_at_one_size() -> None:
    lat = Lattice(xs=(0, 33, 66, 98), ys=(0, 33, 66))
    image = np.arange(70 * 100 * 3, dtype=np.uint32).reshape(70, 100, 3).astype(np.uint8)
    cells = lat.cells(image)
    assert cells.shape == (2, 3, 33, 33, 3)
    assert (cells[0, 0] == image[0:33, 0:33]).all()


#: Fixtures of games minebot ships no skin for whose board find_lattice finds at the size of
#: their text board; the others it refuses (LatticeError), never a board of another size.
#: Their boards run past the part where the cell period is strong (KMines and winemine open
#: cells; KMines draws no lines between open cells), and sit under headers, counters and
#: button rows that line up with the lattice in places (winemine, xbomb). KMines' easy level
#: (29 px cells, mostly open, big digits centred in the cells) is found by how far the faint
#: lines between its open cells run; its won medium board, where the lines placed from one row
#: of digits are off by a fraction of a pixel a row, is found where its cells repeat one tile.
FOUND = {"ace-minesweeper": 21, "kmines": 14, "kmines-classic": 8, "winemine": 14, "xbomb": 10}


@pytest.mark.parametrize("game", sorted(FOUND))
def test_games_without_a_skin_are_found_whole_or_refused(game: str) -> None:
    import cv2

    found = 0
    for png in sorted((Path(__file__).parent / "fixtures" / game).glob("*.png")):
        rows = png.with_suffix(".txt").read_text(encoding="utf-8").split()
        try:
            lat = find_lattice(cv2.imread(str(png)))
        except LatticeError:
            continue
        assert (lat.cols, lat.rows) == (len(rows[0]), len(rows)), png.name
        assert abs(lat.pitch_x - round(lat.pitch_x)) < 0.05, png.name  # not "scaled"
        found += 1
    assert found == FOUND[game]


GREEN = Path(__file__).parent / "fixtures" / "kmines-green"


@pytest.mark.parametrize("name", sorted(p.stem for p in GREEN.glob("*.png")))
def test_a_board_of_one_tile_in_a_fence_is_found_whole(name: str) -> None:
    """KMines' "Gardens of Danger": one grass tile under every cell, no line between cells,
    a see-through fence with a post by every cell round the board. Of the lattices found,
    the whole ones are the board (the text board's size, placed where the grass stops
    repeating: the same place in every shot of a level); a row or column less, or the picture
    cut through the board, is no whole board (the fence is one only all round the board)."""
    import cv2

    from bot.reading.lattice_frame import lattice_problem

    image = cv2.imread(str(GREEN / f"{name}.png"))
    rows = (GREEN / f"{name}.txt").read_text(encoding="utf-8").split()
    whole = [lat for lat in find_lattices(image) if lattice_problem(image, lat) is None]
    assert [(lat.cols, lat.rows) for lat in whole] == [(len(rows[0]), len(rows))]
    board = whole[0]
    assert (board.xs[0], board.ys[0]) == ((126, 87) if name.startswith("easy") else (112, 73))
    for less in (
        Lattice(xs=board.xs[1:], ys=board.ys),
        Lattice(xs=board.xs[:-1], ys=board.ys),
        Lattice(xs=board.xs, ys=board.ys[1:]),
        Lattice(xs=board.xs, ys=board.ys[:-1]),
    ):
        assert "goes on beyond" in str(lattice_problem(image, less))
    cut = np.ascontiguousarray(image[:, : (board.xs[4] + board.xs[5]) // 2])
    try:
        found = find_lattices(cut)
    except LatticeError:
        found = []
    assert not [lat for lat in found if lattice_problem(cut, lat) is None]


def test_a_column_of_digits_does_not_halve_the_row_pitch() -> None:
    """GNOME Mines' 46 px cells 20 levels brighter: the digits' strokes down the columns
    repeat at 16 px, more strongly than the pale row gaps at 46; of two pitches far apart
    each axis is looked at again near the other's, and the larger board kept."""
    import cv2

    image = cv2.imread(str(Path(__file__).parent / "fixtures" / "gnome-mines" / "small-lost.png"))
    brighter = np.clip(image.astype(np.int16) + 20, 0, 255).astype(np.uint8)
    lat = find_lattice(brighter)
    assert lat.cols == 8
    assert round(lat.pitch_x) == round(lat.pitch_y) == 46


@pytest.mark.parametrize(
    "shape", [(40, 60, 3), (30, 50, 4), (25, 35), (2, 9, 3), (9, 2, 3), (1, 1, 3)]
)
def test_edge_maps_are_the_blurred_pictures_central_differences(shape):
    """OpenCV computes them; the values are those of the definition, in numpy."""
    import cv2

    from bot.reading.lattice_pitch import colour, edge_maps

    image = np.random.default_rng(sum(shape)).integers(0, 256, shape, dtype=np.uint8)
    img = cv2.blur(colour(image), (2, 2), borderType=cv2.BORDER_REPLICATE)
    img = img[:, :, None] if img.ndim == 2 else img
    vertical, horizontal = np.zeros(img.shape[:2], np.float32), np.zeros(img.shape[:2], np.float32)
    vertical[:, 1:-1] = np.abs(img[:, 2:] - img[:, :-2]).max(axis=2)
    horizontal[1:-1, :] = np.abs(img[2:] - img[:-2]).max(axis=2)
    got = edge_maps(image)
    assert np.array_equal(got[0], vertical) and np.array_equal(got[1], horizontal)


def _web_checkerboard() -> np.ndarray:
    """A web clone's board as its page draws it: 10x10 cells of 30 px, squares of two greens
    8 levels apart, a block of open squares of two tans and a stroke, between dark bars."""
    shade = np.indices((10, 10)).sum(axis=0) % 2
    board = np.where(shade[..., None] == 1, [73, 209, 162], [81, 215, 170]).astype(np.uint8)
    board[3:8, 2:6] = np.where(shade[3:8, 2:6, None] == 1, [153, 184, 215], [159, 194, 229])
    board[4, 3] = [60, 60, 200]
    picture = np.repeat(np.repeat(board, 30, 0), 30, 1)
    picture[100:110, 72:78] = [200, 100, 30]
    page = np.full((420, 420, 3), 255, np.uint8)
    page[40:340, 60:360] = picture
    page[20:40, 40:380] = page[340:360, 40:380] = [40, 110, 75]
    return page


def test_faint_edges_show_a_board_of_squares_a_few_levels_apart(tmp_path: Path) -> None:
    """Strong edges show only the coloured middle of such a board (too little for a board);
    faint ones show all of it, and tune takes the lattice of the labelled board's size."""
    import cv2

    from bot.reading.tune_cells import load_shot

    page = _web_checkerboard()
    assert [(lat.cols, lat.rows, lat.left, lat.top) for lat in find_lattices(page)] == [
        (10, 10, 60, 40)
    ]
    cv2.imwrite(str(tmp_path / "shot.png"), page)
    (tmp_path / "shot.txt").write_text(("." * 10 + "\n") * 10, encoding="utf-8")
    shot = load_shot(tmp_path / "shot.png")
    assert (shot.lattice.cols, shot.lattice.rows, shot.lattice.left) == (10, 10, 60)


def test_a_small_boards_whole_pixel_pitch_is_found_for_a_capture_at_100_percent() -> None:
    """A 9x9 board of 20 px cells inside a bevelled frame (a web clone's Windows 98 look), its
    covered and open cells' edges a pixel apart: the period found is 20.25 px across and 20.24
    down (the frame's edges pull the autocorrelation's far peaks off). Told the capture draws
    whole pixels (as ``tune`` is), the finder puts the lines 20 px apart, or within a pixel of
    that (which side of the pixel between the two kinds of cell)."""
    import cv2

    png = Path(__file__).parent / "fixtures" / "web-win98" / "beginner-mid.png"
    image = cv2.imread(str(png))
    assert abs(find_lattice(image).pitch_x - 20) > 0.05
    lat = find_lattice(image, whole_pixels=True)
    assert (lat.cols, lat.rows) == (9, 9)
    for lines in (lat.xs, lat.ys):
        offsets = [v - 20 * k for k, v in enumerate(lines)]
        assert max(offsets) - min(offsets) <= 1, lines


@pytest.mark.parametrize("name", ["8x8-first", "8x8-lost", "8x8-mid", "11x11-won"])
def test_lines_drawn_dotted_between_open_cells_run_on(name: str) -> None:
    """ace-minesweeper draws the lines between its open cells as dots 6 px apart: boards
    mostly open were found as a strip of 8x3 or 3x8 cells (covered cells, drawn whole) and
    refused, so tune could not learn the game from its 8x8 mid-game shot alone."""
    import cv2

    from bot.reading.lattice_frame import whole_lattice

    png = Path(__file__).parent / "fixtures" / "ace-minesweeper" / f"{name}.png"
    rows = png.with_suffix(".txt").read_text(encoding="utf-8").split()
    image = cv2.imread(str(png))
    lat = find_lattice(image)
    assert (lat.cols, lat.rows) == (len(rows[0]), len(rows))
    assert whole_lattice(image, lat)
