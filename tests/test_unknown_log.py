"""The frame logged with cells of a class the skin lacks is one ``minebot tune`` accepts: the
teach command printed with it must work. Tune's lattice finder measured some mid-game frames
of boards drawn at a whole number of pixels as scaled by a fraction (16.07 px for Wine's 16,
17.93 for KMines' 18: 5 of 47 and 3 of 12 frames logged), and refused them."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import cv2

from bot.live.unclear import FRAMES_PASSED, UnknownCellLog, tune_measures_alike
from bot.reading.grid import Grid
from bot.reading.lattice import find_lattice

HERE = Path(__file__).resolve().parent
EDGE_OFF = HERE / "fixtures_live" / "winemine-expert-edge-off.png"
GOOD = HERE / "fixtures" / "winemine" / "expert-mid.png"
LOCATED = SimpleNamespace(
    grid=Grid(left=5, top=52, pitch_x=16, pitch_y=16, cols=30, rows=16),
    skin=SimpleNamespace(name="t-winemine", meta={}, folder=None),
)


def frame(path: Path) -> SimpleNamespace:
    return SimpleNamespace(image=cv2.imread(str(path)))


def test_tune_would_refuse_the_frame_its_finder_measures_off():
    assert round(find_lattice(frame(EDGE_OFF).image).pitch_x, 2) == 16.07
    assert not tune_measures_alike(frame(EDGE_OFF), LOCATED)
    assert tune_measures_alike(frame(GOOD), LOCATED)


def test_a_frame_tune_would_refuse_is_passed_over_for_a_later_one(tmp_path):
    said: list[str] = []
    log = UnknownCellLog(tmp_path, said.append)
    log.note(frame(EDGE_OFF), LOCATED, [(19, 1)])
    assert not said and not list(tmp_path.iterdir())
    log.note(frame(GOOD), LOCATED, [(19, 1)])
    assert len(said) == 1 and "(19, 1)" in said[0]
    logged = cv2.imread(str(tmp_path / "unknown-01.png"))
    assert round(find_lattice(logged).pitch_x, 2) == 16.0


def test_cells_are_logged_anyway_when_no_later_frame_would_do(tmp_path):
    said: list[str] = []
    log = UnknownCellLog(tmp_path, said.append)
    for _ in range(FRAMES_PASSED + 1):
        log.note(frame(EDGE_OFF), LOCATED, [(19, 1)])
    assert len(said) == 1 and (tmp_path / "unknown-01.png").is_file()


def test_each_look_is_logged_once_and_known_at_sight_after():
    """Every 4 of Wine's Minesweeper, its 4s untaught, was logged (a frame, a lattice check, a
    line on stderr) at each new place: one frame per look teaches the class."""
    said: list[str] = []
    log = UnknownCellLog(None, said.append)
    good = frame(GOOD)  # (2, 0), (0, 1) and (1, 1) show a 1, (2, 1) a 2
    log.note(good, LOCATED, [(2, 0), (0, 1)])
    log.note(good, LOCATED, [(1, 1)])
    assert len(said) == 1 and "(2, 0), (0, 1)" in said[0]
    assert log.looks_met(good, LOCATED, [(1, 1)]) and not log.looks_met(good, LOCATED, [(2, 1)])
    log.note(good, LOCATED, [(1, 1), (2, 1)])
    assert len(said) == 2 and "cells (2, 1) of" in said[1]


def test_a_frame_whose_board_tune_takes_from_the_window_s_screenshots_is_logged_at_once(tmp_path):
    """Most late frames of KMines' default theme show no lattice to the finder alone; tune
    takes their board from a screenshot of the same window (bot.reading.tune_shots), so the
    frame is logged as it is, not passed over for a later one that would show no more."""
    import pytest

    from bot.errors import LatticeError

    late = frame(HERE / "fixtures_tune" / "kmines-live" / "hard-late.png")
    with pytest.raises(LatticeError):
        find_lattice(late.image)
    located = SimpleNamespace(
        grid=Grid(left=17, top=90, pitch_x=16, pitch_y=16, cols=30, rows=16), skin=LOCATED.skin
    )
    assert tune_measures_alike(late, located)
    said: list[str] = []
    UnknownCellLog(tmp_path, said.append).note(late, located, [(9, 0)])
    assert len(said) == 1 and (tmp_path / "unknown-01.png").is_file()
