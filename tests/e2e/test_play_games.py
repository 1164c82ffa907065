"""Real games played to the end with real mouse events on Xvfb, and the safety stops live.

Each loss is checked: it must come from a guess (the solver gave the cell a mine probability
above zero), never from a cell the solver proved safe (that would be a misread or a misclick).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.errors import WindowError
from bot.live.window import X11Windows
from tests.processes import interruptible


def skin_or_skip(name: str):
    from bot.errors import UnknownSkinError
    from bot.reading.skins import find_skin

    try:
        return find_skin(name)
    except UnknownSkinError:
        pytest.skip(f"skin {name} is not shipped yet")


def play(game, capture, mouse, skin, mines, games, **options):
    from bot.live.attach import attach

    lines: list[str] = []
    attached = attach(
        capture, mouse, skins=[skin], window=game.window, program=game.program, mines=mines,
        out=lines.append, **options,
    )  # fmt: skip
    summary = attached.player.run(games)
    return summary, lines


def assert_clean(summary, games):
    d = summary.as_dict()
    assert d["games"] == games
    assert d["wins"] + d["losses"] == games
    assert d["misreads"] == 0 and d["misclicks"] == 0
    for r in summary.results:
        if r.outcome == "lost":
            assert r.lost_on is not None, f"game {r.number}: lost, but not on a cell it clicked"
            assert r.lost_p_mine > 0, f"game {r.number}: lost on a cell proven safe"


def assert_opening_first_clicks(log_dir, games):
    """program.json says "first_click": "opening": each game began at (3, 3), not counted as a
    guess, and the game opened an area there."""
    from bot.live.planning import is_blank
    from solver.board import Board

    for n in range(1, games + 1):
        folder = log_dir / f"game-{n:03d}"
        first = json.loads((folder / "moves.jsonl").read_text().splitlines()[0])
        assert (first["x"], first["y"], first["p_mine"]) == (3, 3, 0.0)
        assert is_blank(Board((folder / "001.txt").read_text()))
        assert Board((folder / "002.txt").read_text())[3, 3] == "0"


def test_xdemineur_expert(launch, capture, mouse, tmp_path):
    from solver.board import Board

    skin = skin_or_skip("xdemineur")
    with launch("xdemineur", 30, 16, 99) as game:
        summary, lines = play(game, capture, mouse, skin, 99, 3, log_dir=tmp_path)
    assert_clean(summary, 3)
    assert len([line for line in lines if line.startswith("game ")]) == 3
    for n in (1, 2, 3):
        result = json.loads((tmp_path / f"game-{n:03d}" / "result.json").read_text())
        assert result["outcome"] in ("won", "lost")
        assert (tmp_path / f"game-{n:03d}" / "001.png").is_file()
        # "first_click": "pre-opened": every game starts with an area open, no blank board
        assert "0" in str(Board((tmp_path / f"game-{n:03d}" / "001.txt").read_text()))


def test_sgt_mines_never_needs_a_guess_and_always_wins(launch, capture, mouse, tmp_path):
    skin = skin_or_skip("sgt-mines")
    with launch("sgt-mines", 16, 16, 40) as game:
        summary, _ = play(game, capture, mouse, skin, 40, 3, log_dir=tmp_path)
    assert_clean(summary, 3)
    assert summary.wins == 3
    assert all(r.guesses == 0 for r in summary.results)  # the first click is not a guess
    assert_opening_first_clicks(tmp_path, 3)


def test_gnome_mines_expert(launch, capture, mouse, tmp_path):
    skin = skin_or_skip("gnome-mines")
    with launch("gnome-mines", 30, 16, 99) as game:
        summary, _ = play(game, capture, mouse, skin, 99, 2, log_dir=tmp_path)
    assert_clean(summary, 2)
    assert_opening_first_clicks(tmp_path, 2)


def test_window_moved_while_playing_stops_with_a_message(launch, capture, mouse):
    skin = skin_or_skip("xdemineur")
    with launch("xdemineur", 30, 16, 99) as game:
        windows = X11Windows()

        def move_soon():
            time.sleep(0.4)
            windows.move(game.window.id, 200, 150)

        mover = threading.Thread(target=move_soon)
        mover.start()
        try:
            with pytest.raises(WindowError, match="moved from"):
                play(game, capture, mouse, skin, 99, 50)
        finally:
            mover.join()


def test_window_covered_while_playing_stops_with_a_message(launch, capture, mouse):
    skin = skin_or_skip("xdemineur")
    with launch("xdemineur", 30, 16, 99) as game:
        opened = threading.Event()

        def cover_soon():
            time.sleep(0.4)
            with launch("sgt-mines", 9, 9, 10):
                opened.set()
                time.sleep(3)

        coverer = threading.Thread(target=cover_soon)
        coverer.start()
        try:
            with pytest.raises(WindowError, match="covered by 'Mines'"):
                play(game, capture, mouse, skin, 99, 50)
        finally:
            coverer.join()
        assert opened.is_set()


def test_demo_command_plays_and_saves_the_screenshot(tmp_path):
    skin_or_skip("sgt-mines")
    shot = tmp_path / "final.png"
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "demo", "--games", "2", "--screenshot", str(shot),
         "--json"],
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 2 and summary["wins"] == 2 and summary["misreads"] == 0
    assert shot.is_file() and shot.stat().st_size > 1000
    assert f"final screenshot: {shot.resolve()}" in done.stderr.splitlines()


def test_ctrl_c_stops_the_demo_cleanly(tmp_path):
    skin_or_skip("xdemineur")
    env = dict(os.environ)
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "demo", "--skin", "xdemineur", "--size", "30x16n99",
         "--games", "200", "--screenshot", str(tmp_path / "x.png")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        preexec_fn=interruptible,
    )  # fmt: skip
    # wait until it is playing (it prints a line per game), then interrupt it
    deadline = time.monotonic() + 60
    first = ""
    while time.monotonic() < deadline and not first.startswith("game "):
        first = proc.stdout.readline()
    assert first.startswith("game "), proc.stderr.read()
    display = _child_display(proc.pid)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert "interrupted" in err and "Traceback" not in err
    # the virtual display and the game went with it
    assert display is None or not Path(f"/tmp/.X11-unix/X{display}").exists()


def _child_display(pid: int) -> int | None:
    """The display number of the Xvfb the process ``pid`` started, if any."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return None
    for child in children:
        try:
            cmd = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if cmd and cmd[0].endswith(b"Xvfb") and len(cmd) > 1 and cmd[1].startswith(b":"):
            return int(cmd[1][1:])
    return None


def test_pointer_thrown_into_the_corner_stops_the_bot(launch, capture, mouse, virtual_display):
    from bot.errors import MouseError

    skin = skin_or_skip("xdemineur")
    with launch("xdemineur", 30, 16, 99) as game:
        stop = threading.Event()

        def grab_the_mouse():
            # A person throws the pointer into the corner, again and again until the bot stops.
            time.sleep(0.4)
            while not stop.is_set():
                subprocess.run(["xdotool", "mousemove", "0", "0"], env=virtual_display.env)
                time.sleep(0.1)

        person = threading.Thread(target=grab_the_mouse)
        person.start()
        try:
            with pytest.raises(MouseError, match="failsafe|someone is using the mouse"):
                play(game, capture, mouse, skin, 99, 50)
        finally:
            stop.set()
            person.join()
            # put the pointer back where the next test can start (a corner would stop it)
            subprocess.run(["xdotool", "mousemove", "640", "512"], env=virtual_display.env)
            mouse._left_at = None


def test_hint_clicks_nothing_and_writes_the_overlay(launch, capture, virtual_display, tmp_path):
    skin_or_skip("xdemineur")
    with launch("xdemineur", 30, 16, 99) as game:
        time.sleep(0.3)
        before = capture.grab(game.window.region)
        done = subprocess.run(
            [sys.executable, "-m", "bot.cli", "play", "--hint", "--json", "--overlay",
             str(tmp_path / "hint.png")],
            capture_output=True, text=True, timeout=60, env=virtual_display.env,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        hint = json.loads(done.stdout)
        assert hint["skin"] == "xdemineur" and hint["move"]["action"] == "open"
        assert (tmp_path / "hint.png").is_file()
        after = capture.grab(game.window.region)
        board = (slice(81, 81 + 16 * 21), slice(16, 16 + 30 * 21))
        assert (before.image[board] == after.image[board]).all()  # not a cell changed


def test_play_command_finds_the_window_and_logs_replayable_games(launch, virtual_display, tmp_path):
    from bot.live.gamelog import audit_game_log

    skin_or_skip("xdemineur")
    with launch("xdemineur", 30, 16, 99):
        done = subprocess.run(
            [sys.executable, "-m", "bot.cli", "play", "--games", "2", "--json", "--log",
             str(tmp_path)],
            capture_output=True, text=True, timeout=120, env=virtual_display.env,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 2 and summary["misreads"] == 0 and summary["misclicks"] == 0
    assert "playing xdemineur 30x16" in done.stderr
    for n in (1, 2):
        folder = tmp_path / f"game-{n:03d}"
        assert audit_game_log(folder, 99) == []
        replay = subprocess.run(
            [sys.executable, "-m", "bot.cli", "replay", str(folder / "001.png"), "--expect",
             str(folder / "001.txt")],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert replay.returncode == 0, replay.stdout + replay.stderr
