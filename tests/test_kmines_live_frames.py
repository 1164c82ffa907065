"""Frames of KMines' default theme from live play (tests/fixtures_tune/kmines-live/): open cells
drawn semi-transparent over a shaded background, so one number looks a little different in
each place. A skin taught from the repository's hard fixtures reads a live frame whose cells
match one of its variants, and cells along the frame drawn over the board's edge; ``minebot
tune`` takes a logged frame's board from a screenshot of the same window when its lattice
finder misses it."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from bot.errors import LatticeError, MinebotError, TuneError
from bot.reading.lattice import find_lattice
from tests.tune_games import FIXTURES, Recipe, tune_game

LIVE = Path(__file__).resolve().parent / "fixtures_tune" / "kmines-live"


@pytest.fixture(scope="module")
def hard_skin(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The skin tuned from the hard screenshots (fresh; mid and lost labelled)."""
    from bot.reading.skins import find_skin

    work = tmp_path_factory.mktemp("hard")
    skins = tune_game("kmines", work, Recipe("hard-mid", ("hard-fresh",)), ("hard-lost",))
    return find_skin("t-kmines", dirs=[skins])


def read_frame_text(name: str, skin: Any) -> str:
    """The board ``skin`` reads in the live frame ``name``."""
    from bot.reading.read import read_image

    return str(read_image(cv2.imread(str(LIVE / f"{name}.png")), [skin]).board)


def test_a_cell_reads_as_the_variant_that_matches_not_the_nearest(hard_skin: Any) -> None:
    assert read_frame_text("hard-mid2", hard_skin) == (LIVE / "hard-mid2.txt").read_text().strip()


def test_a_class_is_read_along_the_frame_drawn_over_the_board_s_outer_cells(
    hard_skin: Any,
) -> None:
    """KMines draws its dark border over the last pixel column of the right-hand cells and the
    last pixel row of the bottom ones: tune gives every class that look too, so a 4 in the
    bottom row reads though the screenshots showed none there (0.94 before)."""
    assert read_frame_text("hard-edge", hard_skin) == (LIVE / "hard-edge.txt").read_text().strip()


def test_a_logged_frame_takes_the_board_of_a_screenshot_of_the_same_window(
    tmp_path: Path,
) -> None:
    from bot.reading.tune_shots import load_shots

    late = cv2.imread(str(LIVE / "hard-late.png"))
    try:  # the case this is about: the finder alone misses the board or finds a part of it
        alone = find_lattice(late)
        assert alone.cols * alone.rows < 30 * 16
    except LatticeError:
        pass
    fresh = FIXTURES / "kmines" / "hard-fresh.png"
    shots = load_shots([fresh, LIVE / "hard-late.png"])
    assert shots[1].lattice == shots[0].lattice
    assert (shots[1].lattice.cols, shots[1].lattice.rows) == (30, 16)
    # The window moved (the frame around the board is elsewhere): not the same window.
    moved = tmp_path / "moved.png"
    cv2.imwrite(str(moved), np.roll(late, (7, 5), axis=(0, 1)))
    try:
        took = load_shots([fresh, moved])[1].lattice == shots[0].lattice
    except TuneError:  # no board found in it, and none taken
        took = False
    assert not took


def test_a_skin_taught_from_a_logged_frame_reads_it(tmp_path: Path) -> None:
    """The README's flow: the frame logged with cells the skin lacks, given to tune with the
    screenshots, its new groups named from the text board (here: the frame labelled)."""
    from bot.reading.read import read_image
    from bot.reading.skins import find_skin

    shots = tmp_path / "shots"
    shots.mkdir()
    shutil.copy(LIVE / "hard-late.png", shots)
    shutil.copy(LIVE / "hard-late.txt", shots)
    skins = tune_game("kmines", tmp_path, Recipe("hard-mid", ("hard-fresh",)))
    from bot.reading.tune import tune

    tune(sorted(shots.glob("hard-*.png")), "t-kmines", out=skins)
    skin = find_skin("t-kmines", dirs=[skins])
    try:
        board = str(read_image(cv2.imread(str(LIVE / "hard-late.png")), [skin]).board)
    except MinebotError as refused:
        pytest.fail(f"refused: {refused}")
    assert board == (LIVE / "hard-late.txt").read_text().strip("\n")
