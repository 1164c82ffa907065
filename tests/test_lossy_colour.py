"""Lossy pictures of screens whose colours moved: a JPEG brightened, a night light's tint
saved as a JPEG. The board is found through the screen's curve with the JPEG's edges widened,
and its cells read through that curve with the frame's noise allowed for; a picture whose
colour is gone is still refused."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from bot.errors import LowConfidenceError
from bot.reading.read import read_image
from solver.board import read_board
from tests.photometric import brightness, greyscale, jpeg, night_light

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _fixture(name: str):
    png = FIXTURES / f"{name}.png"
    return cv2.imread(str(png)), read_board(str(png.with_suffix(".txt")))


def test_a_brightened_jpeg_is_found_whole_and_read_exactly():
    """GNOME Mines' 16x16 board saved at quality 85, then 20 levels brighter: through the
    screen's curve the board's growth stopped two rows short (JPEG smears the edges), and
    no board was found."""
    picture, expected = _fixture("gnome-mines/medium-mid")
    assert read_image(brightness(jpeg(picture, 85), 20)).board == expected


def test_a_night_light_saved_as_a_jpeg_reads_exactly():
    """xdemineur's won expert board under a night light (blue x 0.85), saved at quality 90:
    found, but nine cells were unclear, read through the curve strictly or as drawn with
    the noise allowed for, and never both."""
    picture, expected = _fixture("xdemineur/expert-won")
    assert read_image(jpeg(night_light(picture, 0.85), 90)).board == expected


def test_a_greyscale_jpeg_is_still_refused():
    """No curve gives back a colour the picture lost: sgt-mines' numbers in a greyscale JPEG
    are refused by name, not read through a curve with the noise allowed for."""
    picture, _ = _fixture("sgt-mines/beginner-first")
    with pytest.raises(LowConfidenceError, match="no colour") as refused:
        read_image(jpeg(greyscale(picture), 85))
    assert refused.value.cells
