"""Classifying cells: exact on every fixture, refusing (never guessing) when a cell is unclear."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.errors import LowConfidenceError
from bot.reading.classify import classify_cells
from bot.reading.read import ReaderState, locate_board, read_frame
from bot.reading.skins import find_skin, load_skins
from solver.board import Board, read_board
from tests.fixture_cases import READER_CASES, reader_params

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CASES = READER_CASES


@pytest.fixture(scope="module")
def skins():
    return load_skins()


@pytest.mark.sample(2)
@pytest.mark.parametrize("png", reader_params())
def test_every_cell_of_every_fixture_reads_as_expected(png, skins):
    frame = cv2.imread(str(png))
    reading = read_frame(frame, locate_board(frame, skins))
    want = read_board(str(png.with_suffix(".txt")))
    assert reading.board.differences(want) == []
    assert reading.min_confidence >= reading.located.skin.min_confidence
    assert reading.margin.min() >= reading.located.skin.min_margin


@pytest.mark.sample(2)
@pytest.mark.parametrize("png", reader_params())
def test_state_matches_the_moment(png, skins):
    frame = cv2.imread(str(png))
    reading = read_frame(frame, locate_board(frame, skins))
    moment = png.stem.split("-")[-1]
    want = {"lost": "lost", "won": "won"}.get(moment, "playing")
    assert reading.state == want


def _tile_board(skin_name: str, text: str) -> np.ndarray:
    """A board drawn from a skin's own templates (any text, every class)."""
    skin = find_skin(skin_name)
    chars = {}
    for cls, image in skin.variants:
        chars.setdefault(
            {
                "covered": ".",
                "question": "?",
                "flag": "F",
                "mine": "*",
                "exploded": "X",
                "wrong_flag": "W",
            }.get(cls, cls),
            image,
        )
    rows = text.split()
    ph, pw = skin.pitch_y, skin.pitch_x
    out = np.full((len(rows) * ph + 40, len(rows[0]) * pw + 40, 3), 192, np.uint8)
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            out[20 + y * ph : 20 + (y + 1) * ph, 20 + x * pw : 20 + (x + 1) * pw] = chars[ch]
    return out


#: Every class once, as a game could show them (each number with as many cells round it that
#: could hold a mine as it says: the reader refuses a board no game shows).
ALL_CLASSES = """
01.................
12.1.2.3.4.5.6.7.8.
W.............F?*X.
"""


def test_all_classes_of_winmine_read_back():
    frame = _tile_board("winmine", ALL_CLASSES)
    skin = find_skin("winmine")
    reading = read_frame(frame, locate_board(frame, [skin]))
    assert reading.board == Board(ALL_CLASSES)
    assert reading.min_confidence == 1.0


def _pointer(frame: np.ndarray, tip: tuple[int, int], size: int = 19) -> np.ndarray:
    """Draw a standard arrow pointer (black outline, white fill) with its tip at ``tip``."""
    out = frame.copy()
    x, y = tip
    s = size / 19
    outline = np.array([(0, 0), (0, 16), (4, 12), (7, 18), (9, 17), (6, 11), (11, 11)], float)
    pts = (outline * s + (x, y)).round().astype(np.int32)
    cv2.fillPoly(out, [pts], (255, 255, 255))
    cv2.polylines(out, [pts], True, (0, 0, 0), 1)
    return out


@pytest.mark.sample(2)
@pytest.mark.parametrize("skin_dir", ["sgt-mines", "xdemineur", "winmine", "gnome-mines"])
def test_a_pointer_over_a_cell_never_causes_a_misread(skin_dir, skins):
    """Wherever the pointer rests, a cell reads as before or is refused by name: never wrong.
    Read as the play loop reads a window, frame after frame with one state (a single pointer
    in a picture read on its own is among the robustness command's cases)."""
    png = sorted((FIXTURES / skin_dir).glob("*-lost.png"))[-1]
    frame = cv2.imread(str(png))
    located = locate_board(frame, skins)
    want = read_board(str(png.with_suffix(".txt")))
    grid = located.grid
    state = ReaderState()
    assert read_frame(frame, located, state).board == want
    refused = 0
    for y in range(grid.rows):
        for x in range(grid.cols):
            left, top, w, h = grid.cell_rect(x, y)
            for dx, dy in [(w // 2, h // 2), (2, 2), (w - 4, h - 6)]:
                shot = _pointer(frame, (left + dx, top + dy))
                try:
                    board = read_frame(shot, located, state).board
                except LowConfidenceError as exc:
                    refused += 1
                    assert exc.cells, "a refusal names its cells"
                    near = {(x + i, y + j) for i in (-1, 0, 1) for j in (-1, 0, 1)}
                    assert set(exc.cells) <= near
                    continue
                assert board.differences(want) == [], (x, y, dx, dy)
    assert refused < grid.rows * grid.cols * 3  # most pointer positions still read


def test_low_confidence_names_the_cells():
    frame = _tile_board("winmine", ALL_CLASSES)
    skin = find_skin("winmine")
    located = locate_board(frame, [skin])
    left, top, w, h = located.grid.cell_rect(4, 2)
    frame[top : top + h, left : left + w] = (255, 0, 255)  # something no template looks like
    with pytest.raises(LowConfidenceError, match=r"\(4, 2\)") as err:
        read_frame(frame, located)
    assert err.value.cells == ((4, 2),)


def test_scores_have_the_grid_shape_and_range():
    png = sorted((FIXTURES / "xdemineur").glob("expert-*.png"))[0]
    frame = cv2.imread(str(png))
    located = locate_board(frame)
    scores = classify_cells(frame, located.grid, located.skin)
    assert scores.confidence.shape == (16, 30) == scores.margin.shape
    assert scores.margin.min() >= 0 and scores.confidence.max() <= 1


def test_a_changed_cell_is_read_again_the_others_as_before():
    """The reader reuses the last frame's reading of unchanged cells: a cell that changes is
    read afresh, and going back reads as before."""
    skin = find_skin("winmine")
    frame = _tile_board("winmine", ALL_CLASSES)
    located = locate_board(frame, [skin])
    state = ReaderState()
    before = read_frame(frame, located, state).board
    changed = frame.copy()
    left, top, w, h = located.grid.cell_rect(2, 0)
    flag_left, flag_top, _, _ = located.grid.cell_rect(14, 2)
    changed[top : top + h, left : left + w] = frame[
        flag_top : flag_top + h, flag_left : flag_left + w
    ]
    after = read_frame(changed, located, state).board
    assert before.differences(after) == [((2, 0), ".", "F")]
    assert read_frame(frame, located, state).board == before
    changed[top : top + h, left : left + w] = (255, 0, 255)  # like no template: refused
    with pytest.raises(LowConfidenceError, match=r"\(2, 0\)"):
        read_frame(changed, located, state)


def test_rows_that_share_their_sums_but_not_their_samples_stay_apart():
    """Cells are grouped by sums of their samples, then checked: two cells whose samples add
    up alike (every way the grouping adds them) are classified apart."""
    from bot.reading.reuse import SIGNATURE_STEP, distinct_rows

    rows = np.zeros((6, 2 * SIGNATURE_STEP), np.uint8)
    rows[0, 1], rows[1, 2] = 9, 9  # the same sums, not the same samples
    rows[2, 1], rows[3] = 9, rows[0]
    first, inverse = distinct_rows(rows)
    assert (rows[first][inverse] == rows).all()
    assert len(first) == 3  # [0, 9, 0, ...] (three times), [0, 0, 9, ...], zeros (twice)


@pytest.mark.parametrize("png", ["gnome-mines/big-mid.png", "sgt-mines/expert-mid.png"])
def test_cells_read_once_per_distinct_picture_read_as_each_read_alone(png, monkeypatch):
    """A board's repeated cells are classified once: every score is what classifying each
    cell on its own gives (on a desktop whose lattice is uneven, GNOME Mines)."""
    from bot.reading import reuse

    frame = cv2.imread(str(FIXTURES / png))
    located = locate_board(frame)
    grouped = classify_cells(frame, located.grid, located.skin, tell=True)
    monkeypatch.setattr(reuse, "MIN_CELLS_TO_GROUP", 10**9)
    alone = classify_cells(frame, located.grid, located.skin, tell=True)
    for field in ("classes", "confidence", "margin"):
        assert np.array_equal(getattr(grouped, field), getattr(alone, field)), field
    # The distance comes from float32 products of magnitude D * 255^2 whose rounding depends
    # on the rows multiplied together (a cell equal to its image is 0 to 0.45 off).
    np.testing.assert_allclose(grouped.distance, alone.distance, atol=1.0)


def test_reading_leaves_the_skin_a_plain_value():
    """A skin is a value: reading keeps nothing in it (the reader state holds what is kept),
    and a skin loaded again from the same folder is equal to it."""
    import copy

    png = FIXTURES / "xdemineur" / "expert-mid.png"
    frame = cv2.imread(str(png))
    skin = find_skin("xdemineur")
    before = copy.deepcopy(skin.__dict__)
    located = locate_board(frame, [skin])
    state = ReaderState()
    kept = read_frame(frame, located, state).board
    assert read_frame(frame, located).board == kept  # without a state: the same, fresh
    assert skin.__dict__.keys() == before.keys()
    assert skin == find_skin("xdemineur") and hash(skin) == hash(find_skin("xdemineur"))
    assert skin != find_skin("winmine")
    assert state.last is not None and state.buffers  # what is kept lives in the state


def test_sample_step_compares_every_other_pixel(tmp_path):
    """``match.sample_step`` (for big cells) still reads a board exactly."""
    import json
    import shutil

    from bot.reading.skins import load_skin

    folder = tmp_path / "stepped"
    shutil.copytree(FIXTURES.parent.parent / "templates" / "xdemineur", folder)
    meta = json.loads((folder / "skin.json").read_text())
    meta["name"] = "stepped"
    meta["match"]["sample_step"] = 2
    (folder / "skin.json").write_text(json.dumps(meta))
    skin = load_skin(folder)
    for png in sorted((FIXTURES / "xdemineur").glob("expert-*.png")):
        frame = cv2.imread(str(png))
        for scale in (1.0, 1.5):
            shot = cv2.resize(frame, None, fx=scale, fy=scale) if scale != 1 else frame
            reading = read_frame(shot, locate_board(shot, [skin]))
            assert reading.board == read_board(str(png.with_suffix(".txt"))), (png.name, scale)


@pytest.mark.parametrize(
    ("png", "scale"), [("gnome-mines/big-mid.png", 1.0), ("sgt-mines/expert-mid.png", 1.5)]
)
def test_bgra_frames_read_like_bgr(png, scale):
    """mss gives BGRA: the sampled cells (whole-pixel and interpolated alike) are the same."""
    frame = cv2.imread(str(FIXTURES / png))
    if scale != 1:
        frame = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    located = locate_board(frame)
    bgra = cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA)
    bgr_scores = classify_cells(frame, located.grid, located.skin)
    bgra_scores = classify_cells(bgra, located.grid, located.skin)
    assert (bgra_scores.chars == bgr_scores.chars).all()
    assert np.array_equal(bgra_scores.confidence, bgr_scores.confidence)
    assert read_frame(bgra, located).board == read_board(str((FIXTURES / png).with_suffix(".txt")))


def test_a_grid_of_more_cells_than_one_remap_takes_is_sampled_whole():
    """A seed grid of tiny cells over a big picture (GNOME at 300 %, 3600x3000) had more cells
    than OpenCV's remap takes rows (32767): it raised instead of sampling them."""
    from bot.reading.grid import Grid
    from bot.reading.matching import sample_cells

    skin = find_skin("winmine")
    rng = np.random.default_rng(3)
    frame = rng.integers(0, 256, (400, 400, 3), dtype=np.uint8)
    grid = Grid(left=0.3, top=0.2, pitch_x=1.7, pitch_y=1.7, cols=200, rows=170)
    cells = sample_cells(frame, grid, skin)
    assert cells.shape[0] == 200 * 170
    last = Grid(left=0.3 + 199 * 1.7, top=0.2 + 169 * 1.7, pitch_x=1.7, pitch_y=1.7, cols=1, rows=1)
    assert np.array_equal(cells[-1], sample_cells(frame, last, skin)[0])


#: Shots of a theme of a shipped game that no skin was made from, which the shipped skins read
#: wrong (GNOME Mines' "classic": flat grey tiles, glyphs on the open colour, every colour
#: from the palette of the default theme's cells).
OTHER_THEME = ("medium-first", "medium-lost", "small-lost")


@pytest.mark.parametrize("name", OTHER_THEME)
def test_a_theme_no_skin_was_made_from_is_read_exactly_or_refused(name, skins):
    """gnome-mines-classic draws its open cells in the colour of the default theme's covered
    tile, its numbers as glyphs on it, and after a loss its covered tiles in the colour round
    the default theme's mine: read with the shipped skins, a first click's board gave every
    number as 0 and lost boards gave every open cell as covered and every covered one as a
    mine (confidence 0.72-0.76, above gnome-mines' 0.7). A cell showing ink where its class
    draws none, or no ink near its class's glyph, is not sure of its class."""
    from bot.errors import BoardNotFoundError

    png = FIXTURES / "gnome-mines-classic" / f"{name}.png"
    frame = cv2.imread(str(png))
    try:
        board = read_frame(frame, locate_board(frame, skins)).board
    except (BoardNotFoundError, LowConfidenceError):
        return
    assert board == read_board(str(png.with_suffix(".txt")))
