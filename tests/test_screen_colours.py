"""Which game a board found through the screen's colours belongs to, where two skins read it
(:func:`bot.reading.screen_colours.one_game`); the case of two tuned themes of one game is in
tests/test_tune_games.py."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import pytest

from bot.errors import BoardNotFoundError, TwoBoardsError
from bot.reading.extent import Located
from bot.reading.read import locate_board
from bot.reading.screen_colours import one_game
from tests.photometric import contrast

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="module")
def found() -> tuple:
    """GNOME Mines' 8x8 first-click board at contrast 0.85, found through a curve."""
    frame = contrast(cv2.imread(str(FIXTURES / "gnome-mines" / "small-first.png")), 0.85)
    located = locate_board(frame)
    assert located.skin.name == "gnome-mines" and located.tone is not None
    return frame, located


def _renamed(located: Located, name: str) -> Located:
    return replace(located, skin=replace(located.skin, name=name))


def test_one_board_is_taken_as_found(found: tuple) -> None:
    frame, located = found
    assert one_game(frame, [located]) is located


def test_two_skins_whose_images_fit_alike_are_refused_both_named(found: tuple) -> None:
    frame, located = found
    with pytest.raises(BoardNotFoundError, match="which game this is cannot be told") as refused:
        one_game(frame, [located, _renamed(located, "gnome-mines-copy")])
    assert "gnome-mines board" in str(refused.value)
    assert "gnome-mines-copy board" in str(refused.value)


def test_boards_of_two_skins_in_two_places_are_two_boards(found: tuple) -> None:
    frame, located = found
    grid = located.grid
    beside = replace(grid, left=grid.bounds[2] + grid.pitch_x)
    other = replace(_renamed(located, "other-game"), grid=beside)
    with pytest.raises(TwoBoardsError, match="2 boards in the picture"):
        one_game(frame, [located, other])
