"""``minebot play --hint`` on a real sgt-mines window where the player flagged a cell the numbers
prove safe: the hint names that flag and gives a move for the board without the flags."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import numpy as np

from tests.e2e.test_live_screen import REDRAW_TIMEOUT


def settled(capture, region, before=None, timeout=REDRAW_TIMEOUT):
    """The window once it changed from ``before`` (if given) and then stayed still 0.2 s."""
    deadline = time.monotonic() + timeout
    last = capture.grab(region)
    while before is not None and np.array_equal(last.image, before.image):
        if time.monotonic() > deadline:
            raise AssertionError("the window did not change")
        time.sleep(0.05)
        last = capture.grab(region)
    while time.monotonic() < deadline:
        time.sleep(0.2)
        now = capture.grab(region)
        if np.array_equal(now.image, last.image):
            return now
        last = now
    return last


def test_hint_names_a_wrong_flag_and_solves_without_it(
    launch, capture, mouse, virtual_display, tmp_path
):
    from bot.live.mouse import BoardMouse, measure_mapping
    from bot.reading.read import locate_board, read_frame
    from bot.reading.skins import find_skin
    from solver.position import analyse_position

    with launch("sgt-mines", 9, 9, 10) as game:
        region = game.window.region
        mapping = measure_mapping(capture.monitors, mouse.size())
        park = (region.left + 5, region.bottom - 5)  # the status bar
        frame = settled(capture, region)
        located = locate_board(frame.image, [find_skin("sgt-mines")])
        BoardMouse(mouse, mapping, frame, located.grid).click_cell(4, 4)  # opens an area
        mouse.move(*park)
        frame = settled(capture, region, frame)
        board = read_frame(frame.image, located).board
        safe = analyse_position(board, 10).analysis.safe
        # sgt-mines boards are solvable without guessing: a proven-safe cell is always there.
        wrong = next(c for c in safe if any(board[n] in "12345678" for n in board.neighbours(*c)))
        BoardMouse(mouse, mapping, frame, located.grid).click_cell(*wrong, button="right")
        mouse.move(*park)
        flagged = settled(capture, region, frame)
        assert read_frame(flagged.image, located).board[wrong] == "F"

        done = subprocess.run(
            [sys.executable, "-m", "bot.cli", "play", "--hint", "--json", "--overlay",
             str(tmp_path / "hint.png")],
            capture_output=True, text=True, timeout=60, env=virtual_display.env,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        hint = json.loads(done.stdout)
        assert hint["flags"]["wrong"] == [list(wrong)]
        assert hint["flags"]["dropped"] == [list(wrong)]
        assert hint["move"]["action"] == "open" and hint["move"]["p_mine"] == 0.0
        assert (tmp_path / "hint.png").is_file()
        text = subprocess.run(
            [sys.executable, "-m", "bot.cli", "play", "--hint", "--overlay",
             str(tmp_path / "hint2.png")],
            capture_output=True, text=True, timeout=60, env=virtual_display.env,
        )  # fmt: skip
        x, y = wrong
        assert f"FLAGS: the flag at ({x}, {y}) contradicts the numbers" in text.stdout
        g = located.grid  # the board only: the status bar's clock ticks
        cells = (
            slice(int(g.top), int(g.top + g.rows * g.pitch_y)),
            slice(int(g.left), int(g.left + g.cols * g.pitch_x)),
        )
        after = capture.grab(region)
        assert np.array_equal(after.image[cells], flagged.image[cells])  # nothing clicked
