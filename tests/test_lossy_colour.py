"""Lossy pictures of screens whose colours moved: a JPEG brightened, a night light's tint
saved as a JPEG. The board is found through the screen's curve with the JPEG's edges widened,
and its cells read through that curve with the frame's noise allowed for; a picture whose
colour is gone is read in grey."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from bot.reading.read import read_image
from solver.board import read_board
from tests.photometric import brightness, greyscale, jpeg, night_light

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _fixture(name: str):
    png = FIXTURES / f"{name}.png"
    return cv2.imread(str(png)), read_board(str(png.with_suffix(".txt")))


@pytest.mark.parametrize(
    ("name", "delta"),
    [("gnome-mines/medium-mid", 20), ("gnome-mines-sizes/w700x600-small-won", -20)],
)
def test_a_jpeg_brightened_or_darkened_is_found_whole_and_read_exactly(name, delta):
    """GNOME Mines' boards saved at quality 85, then 20 levels brighter or darker: through
    the screen's curve the 16x16 board's growth stopped two rows short (JPEG smears the
    edges), the 8x8 board of 60 px cells was found as 6x8, in part unclear; no board was
    found."""
    picture, expected = _fixture(name)
    assert read_image(brightness(jpeg(picture, 85), delta)).board == expected


def test_a_night_light_saved_as_a_jpeg_reads_exactly():
    """xdemineur's won expert board under a night light (blue x 0.85), saved at quality 90:
    found, but nine cells were unclear, read through the curve strictly or as drawn with
    the noise allowed for, and never both."""
    picture, expected = _fixture("xdemineur/expert-won")
    assert read_image(jpeg(night_light(picture, 0.85), 90)).board == expected


def test_a_greyscale_jpeg_reads_in_grey():
    """No curve gives back a colour the picture lost; in grey the numbers' shapes tell them
    apart: sgt-mines' board in a greyscale JPEG reads exactly (it was refused by name)."""
    picture, expected = _fixture("sgt-mines/beginner-first")
    assert read_image(jpeg(greyscale(picture), 85)).board == expected


def test_a_jpeg_in_the_skins_own_colours_is_not_searched_through_other_colours(monkeypatch):
    """sgt-mines' resized window (28 px tiles) at quality 85: found as drawn, its cells fit
    loosely and read as drawn as no board a game shows, so the screen's colours were searched
    (46 s, finding nothing) before the board found was read. The reader reads it, with the
    noise allowed for, as a board a game shows: no search is made."""
    import bot.reading.locate as locate

    def no_search(*args, **kwargs):
        raise AssertionError("a colour search for a JPEG in the skin's own colours")

    monkeypatch.setattr(locate, "locate_recoloured", no_search)
    picture, expected = _fixture("sgt-mines-sizes/resized900x600-intermediate-won")
    assert read_image(jpeg(picture, 85)).board == expected


def test_a_night_light_at_high_quality_is_read_where_its_cells_read_clean():
    """sgt-mines' 9x9 mid-game board under a night light (blue x 0.85), saved at quality 95:
    through the screen's curve the board was taken where the lattice seeded it, 0.02 px a
    cell too narrow, where its 1s read as 8s, and no board was found (57 s). The board the
    widened look finds clean and whole through the curve is taken first."""
    picture, expected = _fixture("sgt-mines/beginner-mid")
    assert read_image(jpeg(night_light(picture, 0.85), 95)).board == expected
