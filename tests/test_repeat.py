"""Pictures a scaler enlarged by a fraction of no whole quarters: pixel-repeated ones found as
such, given back exactly and read at their own size; smoothed ones read whatever their cells'
start within a pixel. Real fixtures, enlarged in the test as a whole picture is (OpenCV)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.reading.read import _read_unscaled, read_image
from bot.reading.repeat import find_repeat
from solver.board import read_board

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _enlarged(image: np.ndarray, factor: float, how: int = cv2.INTER_NEAREST) -> np.ndarray:
    h, w = image.shape[:2]
    return cv2.resize(image, (round(w * factor), round(h * factor)), interpolation=how)


@pytest.mark.parametrize("factor", [1.1, 1.15, 1.3, 2.5])
@pytest.mark.parametrize("name", ["winmine/expert-won", "xdemineur/expert-lost"])
def test_an_enlargement_is_given_back_exactly(name, factor):
    image = cv2.imread(str(FIXTURES / f"{name}.png"))
    repeat = find_repeat(_enlarged(image, factor))
    assert repeat is not None
    assert np.array_equal(repeat.unscaled(_enlarged(image, factor)), image)
    assert repeat.x.scale == pytest.approx(factor, abs=0.01)


@pytest.mark.parametrize(
    "path", sorted(FIXTURES.glob("*/*.png"))[::5], ids=lambda p: f"{p.parent.name}/{p.stem}"
)
def test_no_enlargement_is_seen_where_there_is_none(path):
    """Every fifth fixture as it is, and smoothly enlarged (no line repeats another)."""
    image = cv2.imread(str(path))
    assert find_repeat(image) is None
    assert find_repeat(_enlarged(image, 1.3, cv2.INTER_LINEAR)) is None


@pytest.mark.parametrize(
    "name, factor",
    [
        ("sgt-mines/beginner-won", 1.3),
        ("winmine/expert-first", 1.15),
        ("xdemineur/custom13-fresh", 1.2),
    ],
)
def test_an_enlarged_board_is_read_at_its_own_size(name, factor):
    """Each was refused (found only in part, or cells unclear) before the picture was given
    back; the grid is where the board lies in the enlarged picture. (Each now also reads as
    it is, since anchors are placed to a fraction of a pixel: the picture given back is read
    here on its own.)"""
    image = cv2.imread(str(FIXTURES / f"{name}.png"))
    plain = read_image(image)
    big = _enlarged(image, factor)
    truth = read_board(str(FIXTURES / f"{name}.txt"))
    assert read_image(big).board == truth
    reading = _read_unscaled(big, None)
    assert reading is not None and reading.board == truth
    grid, base = reading.located.grid, plain.located.grid
    assert reading.located.repeat is not None
    assert grid.left == pytest.approx(base.left * factor, abs=1.5)
    assert grid.pitch_y == pytest.approx(base.pitch_y * factor, rel=0.01)


@pytest.mark.parametrize("name", ["xdemineur/expert-won", "xdemineur/intermediate-won"])
def test_a_smoothly_stretched_board_reads_whatever_its_cells_start_within_a_pixel(name):
    """At 115 % bilinear a one-pixel line is one dark pixel or two half-dark ones by where the
    cell starts within a pixel: the rows starting half a pixel in read '0' cells at 0.26-0.36
    (refused) against the template stretched at one start only."""
    image = cv2.imread(str(FIXTURES / f"{name}.png"))
    reading = read_image(_enlarged(image, 1.15, cv2.INTER_LINEAR))
    assert reading.located.repeat is None
    assert reading.board == read_board(str(FIXTURES / f"{name}.txt"))
