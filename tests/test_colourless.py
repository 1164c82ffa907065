"""Pictures that lost their colour (greyscale): no colour search where the board is found in
its skin's own colours, and a refusal that says the colour is gone; a board that needs no
colour still reads."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from bot.errors import BoardCutError, LowConfidenceError
from bot.reading.read import locate_board, read_frame, read_image
from solver.board import read_board
from tests.photometric import greyscale

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_a_board_found_in_its_skins_own_colours_is_not_sought_in_others(monkeypatch):
    """sgt-mines' beginner board in greyscale: the widened look finds the whole board, most of
    its cells on their images as drawn (only the numbers lost their colours). No tone curve
    can give back what the picture lost: no colour search is made (36 s, finding nothing),
    and the numbers are refused by name."""
    import bot.reading.locate as locate

    def no_search(*args, **kwargs):
        raise AssertionError("a colour search for a picture in the skin's own colours")

    monkeypatch.setattr(locate, "_locate_recoloured", no_search)
    frame = greyscale(cv2.imread(str(FIXTURES / "sgt-mines" / "beginner-first.png")))
    found = locate_board(frame)
    assert (found.skin.name, found.grid.cols, found.grid.rows) == ("sgt-mines", 9, 9)
    with pytest.raises(LowConfidenceError, match="do not read clearly"):
        read_frame(frame, found)


def test_a_greyscale_picture_refused_says_its_colour_is_gone():
    """The numbers of sgt-mines' beginner board in greyscale are refused by name, and the
    message says why they cannot be told: the picture has no colour."""
    frame = greyscale(cv2.imread(str(FIXTURES / "sgt-mines" / "beginner-first.png")))
    with pytest.raises(LowConfidenceError, match="no colour") as refused:
        read_image(frame)
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
