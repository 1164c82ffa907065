"""Pictures with no colour (greyscale): read in grey, the skins' images greyed as the picture
was (by the conversion whose greys its cells lie nearest), as drawn, with no colour search
unless no conversion shows a board as drawn; a refusal says the colour is gone; a refusal of
a picture in colour does not blame colour."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from bot.errors import BoardCutError, LowConfidenceError
from bot.reading.read import locate_board, read_image
from solver.board import read_board
from tests.photometric import greyscale

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _fixture(name: str):
    png = FIXTURES / f"{name}.png"
    return cv2.imread(str(png)), read_board(str(png.with_suffix(".txt")))


@pytest.mark.parametrize(
    "name",
    ["sgt-mines/beginner-first", "winmine/expert-first", "xdemineur/expert-won",
     "gnome-mines/custom400-dense8"],
)  # fmt: skip
def test_a_greyscale_picture_reads_exactly(name):
    """Numbers told apart by colour are told apart in grey by their shapes. Each of these was
    refused ("the picture has no colour") before the skins were greyed."""
    picture, expected = _fixture(name)
    assert read_image(greyscale(picture)).board == expected


@pytest.mark.parametrize(
    ("name", "conversion"),
    [("sgt-mines/intermediate-mid", "bt709"), ("sgt-mines/intermediate-mid", "mean"),
     ("sgt-mines/intermediate-mid", "lightness"), ("winmine/expert-first", "lightness"),
     ("gnome-mines/medium-mid", "bt709"), ("gnome-mines/medium-mid", "mean")],
)  # fmt: skip
def test_each_common_grey_conversion_reads_exactly(name, conversion):
    """Pictures greyed otherwise than by BT.601 luma. In BT.601's greys sgt-mines' numbers
    greyed as the mean of their channels were refused; GNOME Mines' board greyed so read a 2
    as a 3 clearly (caught only as no board a game shows)."""
    picture, expected = _fixture(name)
    assert read_image(greyscale(picture, conversion)).board == expected


def test_a_grey_picture_is_not_searched_through_the_screens_colours(monkeypatch):
    """A tone curve fitted to greys makes another conversion's numbers pass for the skin's:
    a grey picture whose board shows as drawn is not searched through a curve."""
    import bot.reading.locate as locate

    def no_search(*args, **kwargs):
        raise AssertionError("a colour search for a picture with no colour")

    monkeypatch.setattr(locate, "locate_recoloured", no_search)
    picture, _ = _fixture("sgt-mines/beginner-first")
    found = locate_board(greyscale(picture, "mean"))
    assert (found.skin.name, found.grid.cols, found.grid.rows) == ("sgt-mines", 9, 9)


def test_a_greyscale_picture_refused_says_its_colour_is_gone():
    """GNOME Mines' 30x16 board in grey: its 2s read 0.01 ahead of the runner-up, below the
    margin asked for; they are refused by name, and the message says the colour is gone."""
    picture, _ = _fixture("gnome-mines/big-mid")
    with pytest.raises(LowConfidenceError, match="no colour") as refused:
        read_image(greyscale(picture))
    assert refused.value.cells  # still named
    assert "do not read clearly" in str(refused.value)


def test_a_refusal_in_colour_does_not_blame_colour():
    """A picture in colour cut through its board is refused for that alone."""
    picture = cv2.imread(str(FIXTURES / "sgt-mines" / "beginner-first.png"))
    with pytest.raises(BoardCutError) as refused:
        read_image(picture[:, : picture.shape[1] // 2])
    assert "colour" not in str(refused.value)


def test_a_fresh_board_in_greyscale_still_reads():
    """Covered cells need no colour: sgt-mines' fresh expert board reads in greyscale."""
    png = FIXTURES / "sgt-mines" / "expert-fresh.png"
    assert read_image(greyscale(cv2.imread(str(png)))).board == read_board(
        str(png.with_suffix(".txt"))
    )


@pytest.mark.parametrize("delta", [20, -20])
def test_a_grey_board_on_a_brighter_or_darker_screen_reads(delta):
    """A fresh winmine board is all grey (its covered tiles and margin): a picture with no
    colour, whose greys a screen 20 levels brighter or darker also moved. No conversion's
    greys showed a board as drawn ("no board found"); the screen's greys are then searched."""
    from tests.photometric import brightness

    picture, expected = _fixture("winmine/beginner-fresh")
    assert read_image(brightness(picture, delta)).board == expected
