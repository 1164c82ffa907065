"""bot.reading.phase: a lattice found a fraction of a pixel off on a desktop a pixel-repeating
scaler stretched is moved back to where the sharp cells match (xdemineur at 125 %: 26.25 px
cells, every digit read at 0.83 half a pixel off, at 1.00 on the phase)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.reading.classify import classify_cells
from bot.reading.phase import refined_phase
from bot.reading.read import locate_board, read_frame
from bot.reading.skins import find_skin
from solver.board import read_board

FIXTURE = Path(__file__).parent / "fixtures" / "xdemineur" / "expert-mid"


@pytest.fixture(scope="module")
def scaled():
    """The fixture as a 125 % pixel-repeating desktop draws it, and its board there."""
    image = cv2.imread(str(FIXTURE.with_suffix(".png")))
    located = locate_board(image, [find_skin("xdemineur")])
    big = cv2.resize(image, None, fx=1.25, fy=1.25, interpolation=cv2.INTER_NEAREST)
    grid = located.grid
    truth = replace(
        located,
        grid=replace(
            grid,
            left=grid.left * 1.25,
            top=grid.top * 1.25,
            pitch_x=grid.pitch_x * 1.25,
            pitch_y=grid.pitch_y * 1.25,
        ),  # fmt: skip
        scale=1.25,
    )
    return big, truth


# (0.84, 0.52): a move of a quarter pixel at a time from there passes no phase that matches
# better than where it starts (xdemineur's custom board at 125 % was refused).
@pytest.mark.parametrize("off", [(0.5, -0.375), (-0.5, 0.25), (0.25, 0.5), (0.84, 0.52)])
def test_a_lattice_off_by_a_fraction_is_moved_back(scaled, off):
    big, truth = scaled
    dx, dy = off
    found = replace(truth, grid=replace(truth.grid, left=truth.grid.left + dx,
                                        top=truth.grid.top + dy))  # fmt: skip
    before = classify_cells(big, found.grid, found.skin).confidence
    assert before.min() < 0.9  # half a pixel off, the sharp digits do not match
    moved = refined_phase(big, found)
    assert abs(moved.grid.left - truth.grid.left) <= 0.125
    assert abs(moved.grid.top - truth.grid.top) <= 0.125
    assert classify_cells(big, moved.grid, moved.skin).confidence.min() == 1.0


def test_the_scaled_board_reads_exactly(scaled):
    big, _ = scaled
    located = locate_board(big)
    assert read_frame(big, located).board == read_board(str(FIXTURE.with_suffix(".txt")))


def test_at_the_skins_own_scale_nothing_moves():
    image = cv2.imread(str(FIXTURE.with_suffix(".png")))
    located = locate_board(image, [find_skin("xdemineur")])
    assert refined_phase(image, located) is located
    assert np.isclose(located.scale, 1.0)
