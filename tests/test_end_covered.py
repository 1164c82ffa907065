"""The end of a game seen on real frames while a message covers part of the board (KMines
writes "You have lost." across its board for about 3 s): the frames are real fixtures with a
message box painted over some rows, served by a screen that takes the message away after a
while; the reader and the loop are the real ones."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.errors import LowConfidenceError, PlayError
from bot.live.capture import Frame, Region
from bot.live.looking import Reader, Timing
from bot.live.play import Player
from bot.live.unclear import PartialReading
from bot.reading.read import locate_board, read_frame
from bot.reading.skins import find_skin

FIXTURES = Path(__file__).parent / "fixtures" / "xdemineur"
TIMING = Timing(quiet=0.0, change_timeout=0.05, late_change_timeout=0.1, poll=0.001,
                reread_tries=2, cover_timeout=5.0, unknown_after=3.0, cover_poll=0.01)  # fmt: skip


def covered(image: np.ndarray, grid, rows: tuple[int, int], text: str) -> np.ndarray:
    """``image`` with a message box over board rows ``rows[0]`` to ``rows[1] - 1``."""
    out = image.copy()
    left, top, right, _ = (int(v) for v in grid.bounds)
    y0, y1 = int(grid.row_top(rows[0])), int(grid.row_top(rows[1]))
    cv2.rectangle(out, (left + 20, y0), (right - 20, y1), (235, 235, 235), -1)
    cv2.putText(out, text, (left + 60, (y0 + y1) // 2 + 8), cv2.FONT_HERSHEY_SIMPLEX, 0.9,
                (20, 20, 20), 2)  # fmt: skip
    return out


class MessageScreen:
    """Serves ``first`` for ``grabs`` grabs (the message showing), then ``then``."""

    def __init__(self, first: np.ndarray, then: np.ndarray, grabs: int) -> None:
        self.first, self.then, self.left = first, then, grabs
        self.region = Region(0, 0, first.shape[1], first.shape[0])

    def grab(self, region=None) -> Frame:
        self.left -= 1
        return Frame((self.first if self.left >= 0 else self.then).copy(), self.region)


def player_for(screen: MessageScreen, located, timing: Timing = TIMING) -> Player:
    reader = Reader.default()  # one reader state for the window, as play keeps
    return Player(screen, screen.region, None, None, reader=reader, located=located,
                  skins=[located.skin], timing=timing, out=lambda s: None)  # fmt: skip


@pytest.fixture(scope="module")
def skin():
    return find_skin("xdemineur")


def fixture(name: str, skin):
    image = cv2.imread(str(FIXTURES / f"{name}.png"))
    truth = (FIXTURES / f"{name}.txt").read_text().strip("\n")
    return image, locate_board(image, [skin]), truth


#: Grabs a passing message covers the board for: several times TIMING's quick re-reads.
MESSAGE_GRABS = 6 * TIMING.reread_tries


def test_a_loss_shows_beside_the_message_and_is_counted_at_once(skin):
    image, located, truth = fixture("expert-lost", skin)
    message = covered(image, located.grid, (2, 7), "You have lost.")
    with pytest.raises(LowConfidenceError):  # the covered frame is refused, never misread
        read_frame(message, located)
    screen = MessageScreen(message, image, grabs=10_000)  # the message never goes
    player = player_for(screen, located)
    frame, reading, plan = player.read(screen.grab())
    assert plan is None and reading.state == "lost" and isinstance(reading, PartialReading)
    rows = str(reading.board).splitlines()
    assert rows[13] == truth.splitlines()[13]  # the exploded mine's row, read where it shows


def test_a_message_over_the_exploded_mine_is_waited_out(skin):
    image, located, truth = fixture("expert-lost", skin)
    message = covered(image, located.grid, (11, 16), "You have lost.")
    screen = MessageScreen(message, image, grabs=MESSAGE_GRABS)
    # The message goes after some grabs, not after a time: the same cells doubtful for a while
    # must not be taken for an unknown class (nor the wait given up) however slow the machine
    # reads a refused frame.
    player = player_for(screen, located, replace(TIMING, unknown_after=600.0, cover_timeout=600.0))
    frame, reading, plan = player.read(screen.grab())
    assert plan is None and reading.state == "lost" and str(reading.board) == truth
    assert screen.left < 0  # it waited for the message to go


def test_a_win_under_a_message_is_read_when_the_message_goes(skin):
    image, located, truth = fixture("expert-won", skin)
    message = covered(image, located.grid, (5, 10), "Congratulations! You have won!")
    screen = MessageScreen(message, image, grabs=MESSAGE_GRABS)
    # The message goes after some grabs, not after a time: the same cells doubtful for a while
    # must not be taken for an unknown class (nor the wait given up) however slow the machine
    # reads a refused frame.
    player = player_for(screen, located, replace(TIMING, unknown_after=600.0, cover_timeout=600.0))
    frame, reading, plan = player.read(screen.grab())
    assert plan is None and reading.state == "won" and str(reading.board) == truth


def test_a_message_that_never_goes_stops_with_nothing_clicked(skin):
    image, located, _ = fixture("expert-won", skin)
    message = covered(image, located.grid, (5, 10), "Congratulations! You have won!")
    screen = MessageScreen(message, image, grabs=10_000)
    player = player_for(screen, located, replace(TIMING, cover_timeout=0.5, unknown_after=5.0))

    with pytest.raises(PlayError, match="after 0.5 s, nothing clicked"):
        player.read(screen.grab())
