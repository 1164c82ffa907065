"""A 0 beside a covered cell, in a game that opens every cell round a 0 at once, is refused.

Most games draw a covered cell held down by the mouse as an opened empty cell; a number read
as 0, or a 0 read as covered, looks the same to the solver. Each case takes a real capture of
a shipped game, draws an empty cell of the same picture over a covered cell among covered
cells (as a cell held down shows), and checks the reader refuses the picture naming that cell,
where the capture itself reads exactly.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.errors import LowConfidenceError
from bot.paths import shipped_skins_dir
from bot.reading.grid import Grid
from bot.reading.read import read_image
from bot.reading.shown import zeros_beside_covered
from bot.reading.skins import find_skin, load_skin
from bot.userfiles import read_image as read_picture
from solver.board import Board, read_board
from tests.fixture_cases import FIXTURES

#: Captures with an empty cell and a covered cell whose neighbours are all covered.
CASES = [
    "winmine/intermediate-mid",
    "xdemineur/intermediate-mid",
    "sgt-mines/expert-mid",
    "gnome-mines/big-mid",
]


def held_cell(board: Board) -> tuple[int, int]:
    """A covered cell every neighbour of which is covered (drawn open, it is beside only
    covered cells: no number loses a cell that could hold its mine)."""
    for (x, y), ch in board.items():
        if ch == "." and all(board[n] == "." for n in board.neighbours(x, y)):
            return x, y
    raise AssertionError("no covered cell among covered cells")


def _drawn_open(image: np.ndarray, grid: Grid, board: Board, cell: tuple[int, int]) -> np.ndarray:
    """``image`` with ``cell`` drawn as the first empty cell of ``board`` is drawn there."""
    zl, zt, zw, zh = grid.cell_rect(*next(pos for pos, ch in board.items() if ch == "0"))
    left, top, w, h = grid.cell_rect(*cell)
    held = image.copy()
    held[top : top + h, left : left + w] = cv2.resize(
        image[zt : zt + zh, zl : zl + zw], (w, h), interpolation=cv2.INTER_NEAREST
    )
    return held


@pytest.mark.parametrize("case", CASES)
def test_a_covered_cell_drawn_open_is_refused_by_name(case: str) -> None:
    picture = FIXTURES / f"{case}.png"
    board = read_board(str(picture.with_suffix(".txt")))
    image = read_picture(picture)
    reading = read_image(image)
    assert str(reading.board) == str(board)
    x, y = held_cell(board)
    held = _drawn_open(image, reading.located.grid, board, (x, y))
    with pytest.raises(LowConfidenceError, match="read as 0 beside a covered cell") as refused:
        read_image(held)
    assert (x, y) in refused.value.cells


def test_a_game_that_leaves_cells_round_a_0_covered_reads_them(tmp_path: Path) -> None:
    """``opens_round_zeros: false`` (what tune writes for such a game) reads the same picture,
    the cell drawn open as a 0."""
    case = CASES[0]
    picture = FIXTURES / f"{case}.png"
    board = read_board(str(picture.with_suffix(".txt")))
    image = read_picture(picture)
    folder = tmp_path / "winmine"
    shutil.copytree(shipped_skins_dir() / "winmine", folder)
    meta = json.loads((folder / "skin.json").read_text())
    (folder / "skin.json").write_text(json.dumps(meta | {"opens_round_zeros": False}))
    skin = load_skin(folder)
    assert not skin.opens_round_zeros and find_skin("winmine").opens_round_zeros
    reading = read_image(image, [skin])
    grid = reading.located.grid
    x, y = held_cell(board)
    held = _drawn_open(image, grid, board, (x, y))
    seen = read_image(held, [skin]).board
    assert seen[x, y] == "0" and seen.differences(board) == [((x, y), "0", ".")]
    assert zeros_beside_covered(np.array([list(row) for row in seen.rows])) == [(x, y)]
