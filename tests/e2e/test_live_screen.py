"""Real windows, real mouse events, no cell recognition: the mapping, the click guard, the
window watch and settling, checked on the real games under Xvfb.

The grids here come from the games' documented geometry (../shared/games.md), not from the
reader, so these tests pin down the screen side alone.
"""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass

import numpy as np
import pytest

from bot.errors import WindowError
from bot.live.capture import Region
from bot.live.looking import Timing
from bot.live.mouse import BoardMouse, measure_mapping
from bot.live.play import Player
from bot.live.window import WindowWatch, X11Windows
from bot.reading.grid import Grid


@dataclass(frozen=True)
class Located:
    grid: Grid


SGT_GRID = Grid(30, 55, 20, 20, 16, 16)  # tile 20: origin (1.5 T, 1.5 T + 25)


def changed_cells(before: np.ndarray, after: np.ndarray, grid: Grid) -> set[tuple[int, int]]:
    cells = set()
    for y in range(grid.rows):
        for x in range(grid.cols):
            left, top, w, h = (int(v) for v in grid.cell_rect(x, y))
            a = before[top : top + h, left : left + w]
            b = after[top : top + h, left : left + w]
            if not np.array_equal(a, b):
                cells.add((x, y))
    return cells


#: How long a test waits for the X server to show a change (an upper bound: a loaded machine
#: running the whole suite on two cores once took over 3 s to redraw after a click).
REDRAW_TIMEOUT = 10.0


def wait_for_change(capture, region, before, timeout=REDRAW_TIMEOUT, area=None):
    """The next frame whose ``area`` (slices; default: all) differs from ``before``'s."""
    area = area or (slice(None), slice(None))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        frame = capture.grab(region)
        if not np.array_equal(frame.image[area], before[area]):
            time.sleep(0.2)  # let the redraw finish
            return capture.grab(region)
        time.sleep(0.01)
    raise AssertionError(f"the screen did not change in {timeout} s; {_screen_state()}")


def _screen_state() -> str:
    """The pointer and the window stack, for a failure's message: this wait timed out in rare
    full-suite runs and never alone, and what the screen held then is the evidence."""
    from Xlib import X
    from Xlib.display import Display

    windows = X11Windows()
    try:
        stack = ", ".join(f"{w.name or w.wm_class} at {w.region}" for w in windows.windows())
    finally:
        windows.close()
    display = Display()
    try:
        # a button left held by an earlier test would make the click a chord the game ignores
        pointer = display.screen().root.query_pointer()
    finally:
        display.close()
    masks = ((X.Button1Mask, "1"), (X.Button2Mask, "2"), (X.Button3Mask, "3"))
    held = ", ".join(name for mask, name in masks if pointer.mask & mask) or "none"
    return (
        f"pointer at {(pointer.root_x, pointer.root_y)}, buttons held: {held}, "
        f"windows bottom to top: {stack}"
    )


def test_mapping_is_measured_one_to_one_on_xvfb(capture, mouse):
    mapping = measure_mapping(capture.monitors, mouse.size())
    assert (mapping.factor_x, mapping.factor_y) == (1.0, 1.0)


def test_flag_lands_on_exactly_the_cell_asked_for(launch, capture, mouse):
    with launch("sgt-mines", 16, 16, 40) as game:
        region = game.window.region
        mapping = measure_mapping(capture.monitors, mouse.size())
        for x, y in [(0, 0), (15, 0), (7, 9), (15, 15)]:
            mouse.move(region.left + 5, region.bottom - 5)  # park on the status bar
            time.sleep(0.1)
            before = capture.grab(region)
            BoardMouse(mouse, mapping, before, SGT_GRID).click_cell(x, y, button="right")
            board = (slice(55, 55 + 320), slice(30, 30 + 320))  # not the status bar
            after = wait_for_change(capture, region, before.image, area=board)
            assert changed_cells(before.image, after.image, SGT_GRID) == {(x, y)}


def _settled(windows, capture, moved, shown, timeout=REDRAW_TIMEOUT):
    """The window ``moved`` once it has left its place and shows there what it showed before
    (``shown``, its image at the old place): two equal grabs of the new place were not enough
    under the whole suite's load, where both could show the place before the game had redrawn
    itself, and the click then went to a window still drawing."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(0.1)
        window = next(w for w in windows.windows() if w.id == moved.id)
        if window.region == moved.region:
            continue
        image = capture.grab(window.region).image
        if image.shape == shown.shape and np.array_equal(image, shown):
            return window
    raise AssertionError("the moved window was not drawn at its new place")


def test_clicks_on_a_window_away_from_the_origin(launch, capture, mouse):
    # xdemineur moved to (300, 200): the frame region carries the offset to the mouse.
    with launch("xdemineur", 30, 16, 99) as game:
        windows = X11Windows()
        shown = capture.grab(game.window.region).image
        windows.move(game.window.id, 300, 200)
        window = _settled(windows, capture, game.window, shown)
        assert (window.region.left, window.region.top) != (game.window.region.left, 0)
        grid = Grid(16, 81, 21, 21, 30, 16)
        mapping = measure_mapping(capture.monitors, mouse.size())
        before = capture.grab(window.region)
        covered = before.image[81 + 5, 16 + 21 * 29 + 5].copy()
        BoardMouse(mouse, mapping, before, grid).click_cell(29, 15, button="right")
        board = (slice(81, 81 + 16 * 21), slice(16, 16 + 30 * 21))  # not the timer
        after = wait_for_change(capture, window.region, before.image, area=board)
        assert (29, 15) in changed_cells(before.image, after.image, grid)
        assert np.array_equal(after.image[81 + 5, 16 + 21 * 29 + 5], covered)  # (29, 0) untouched


def test_window_watch_sees_move_resize_cover_and_close(launch, virtual_display):
    windows = X11Windows()
    with launch("sgt-mines", 9, 9, 10) as game:
        watch = WindowWatch(windows, game.window)
        assert watch.check().id == game.window.id
        windows.move(game.window.id, 50, 60)
        time.sleep(0.3)
        with pytest.raises(WindowError, match="moved"):
            watch.check()
        windows.move(game.window.id, game.window.region.left, game.window.region.top)
        time.sleep(0.3)
        watch.check()
        # xdemineur maps on top, at the same place
        with launch("xdemineur", 12, 8, 10), pytest.raises(WindowError, match="covered by"):
            watch.check()
        time.sleep(0.3)
        watch.check()
        r = game.window.region
        windows.resize(game.window.id, r.width + 40, r.height + 40)
        time.sleep(0.3)
        with pytest.raises(WindowError, match="changed size"):
            watch.check()
    time.sleep(0.3)
    with pytest.raises(WindowError, match="closed"):
        watch.check()


def test_settling_waits_for_the_click_to_show(launch, capture, mouse):
    with launch("sgt-mines", 16, 16, 40) as game:
        region = game.window.region
        player = Player(capture, region, mouse, measure_mapping(capture.monitors, mouse.size()),
                        located=Located(SGT_GRID),
                        timing=Timing(quiet=0.05, change_timeout=1.0))  # fmt: skip
        mouse.move(region.left + 5, region.bottom - 5)
        frame, _ = player.settle()
        before = frame.image[55 : 55 + 320, 30 : 30 + 320].copy()
        t0 = time.monotonic()
        _, changed = player.settle(before)
        assert not changed and time.monotonic() - t0 >= 1.0  # nothing clicked: no change
        BoardMouse(mouse, player.mapping, frame, SGT_GRID).click_cell(8, 8)
        mouse.move(region.left + 5, region.bottom - 5)
        settled, changed = player.settle(before)
        assert changed
        again = capture.grab(region)
        assert np.array_equal(settled.image[55:375, 30:350], again.image[55:375, 30:350])


def test_demo_display_is_isolated(virtual_display):
    # The session display is the one DISPLAY points at; the game tools see it.
    out = subprocess.run(["xdpyinfo"], capture_output=True, text=True, env=virtual_display.env)
    assert f"name of display:    {virtual_display.name}" in out.stdout
    assert Region(0, 0, 1280, 1024) == Region(0, 0, *virtual_display.size)
