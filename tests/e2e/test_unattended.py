"""Unattended play with real processes: ``minebot play --json`` prints exactly one JSON object
on stdout however the run ends (done, Ctrl-C, the window gone), even when python-xlib warns
about an empty Xauthority file."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest

from tests.processes import interruptible


def skin_or_skip(name: str):
    from bot.errors import UnknownSkinError
    from bot.reading.skins import find_skin

    try:
        return find_skin(name)
    except UnknownSkinError:
        pytest.skip(f"skin {name} is not shipped yet")


def start_play(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "play", "--json", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        preexec_fn=interruptible,
    )  # fmt: skip


def wait_for_games(proc: subprocess.Popen[str], games: int, timeout: float = 90) -> list[str]:
    """stderr lines until ``games`` games were reported (the progress goes to stderr)."""
    assert proc.stderr is not None
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and sum(x.startswith("game ") for x in lines) < games:
        line = proc.stderr.readline()
        if not line:
            break
        lines.append(line)
    assert sum(x.startswith("game ") for x in lines) >= games, "".join(lines)
    return lines


def one_json_object(stdout: str) -> dict:
    """The summary, checking that stdout holds that object and nothing else."""
    summary = json.loads(stdout)  # raises on anything before or after the object
    assert isinstance(summary, dict) and stdout.strip().count("\n") == 0
    return summary


@pytest.fixture(scope="module")
def bare_display(tmp_path_factory) -> Iterator[dict[str, str]]:
    """A bare X server (no access control, black root window, no window manager) and an
    environment for it with an empty Xauthority file: python-xlib then prints a warning on
    stdout each time it connects."""
    from bot.live.xvfb import free_display

    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        pytest.skip("Xvfb is not installed")
    number = free_display(first=262, last=299)
    server = subprocess.Popen(
        [xvfb, f":{number}", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{number}").exists():
            assert time.monotonic() < deadline, "Xvfb did not start"
            time.sleep(0.05)
        empty = tmp_path_factory.mktemp("xauth") / "empty.Xauthority"
        empty.write_bytes(b"")
        yield dict(os.environ, DISPLAY=f":{number}", XAUTHORITY=str(empty))
    finally:
        server.terminate()
        server.wait(timeout=10)


@contextmanager
def game_on(env: dict[str, str], skin: str, cols: int, rows: int, mines: int):
    from bot.live.programs import RunningGame, load_program

    skin_or_skip(skin)
    # This process talks to that display too (the game's window): with the same empty file.
    with (
        mock.patch.dict(os.environ, {"XAUTHORITY": env["XAUTHORITY"]}),
        RunningGame(load_program(skin), cols, rows, mines, env) as game,
    ):
        yield game


def test_done_run_prints_only_the_summary_on_stdout(bare_display):
    with game_on(bare_display, "xdemineur", 30, 16, 99):
        proc = start_play(bare_display, "--games", "2")
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert "Xlib.xauth: warning" in err  # the library's print was there, and kept off stdout
    summary = one_json_object(out)
    assert summary["games"] == 2 and summary["stopped_because"] == "done"
    assert summary["wins"] + summary["losses"] + summary["abandoned"] == 2
    for key in ("misreads", "misclicks", "seconds_per_game", "restarts", "win_rate_interval"):
        assert key in summary


def test_ctrl_c_still_prints_the_games_played(bare_display):
    with game_on(bare_display, "xdemineur", 30, 16, 99):
        proc = start_play(bare_display, "--games", "500")
        wait_for_games(proc, 1)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    summary = one_json_object(out)
    assert summary["games"] >= 1 and summary["games_wanted"] == 500
    assert summary["stopped_because"] == "interrupted (Ctrl-C)"
    assert "Traceback" not in err


def test_window_closed_mid_run_is_an_error_with_the_summary(bare_display):
    with game_on(bare_display, "xdemineur", 30, 16, 99) as game:
        proc = start_play(bare_display, "--games", "500")
        wait_for_games(proc, 1)
        game.stop()  # the game goes away while the bot plays
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2, err
    summary = one_json_object(out)
    assert summary["games"] >= 1
    assert "closed" in summary["stopped_because"] or "board" in summary["stopped_because"]
    assert err.strip().splitlines()[-1].startswith("minebot play: ")
    assert "Traceback" not in err


def test_a_dialog_program_json_does_not_name_is_closed_with_the_usual_keys(tmp_path):
    """GNOME Mines opens "Congratulations!" (a score table) over the board after a win with a
    top-ten time (the first win of each launch, with a fresh data folder). With the shipped
    program.json minus its "dialogs", the bot tries Escape (then Return), records what worked,
    and plays on."""
    skin_or_skip("gnome-mines")
    if shutil.which("gnome-mines", path="/usr/games:/usr/bin") is None:
        pytest.skip("gnome-mines is not installed")
    root = Path(__file__).resolve().parents[2]
    skins = tmp_path / "skins"
    shutil.copytree(root / "templates" / "gnome-mines", skins / "gnome-mines")
    program = skins / "gnome-mines" / "program.json"
    data = json.loads(program.read_text())
    data.pop("dialogs")
    # Its best times live in XDG_DATA_HOME: a fresh one per launch makes every first win a
    # top-ten time, which is what opens the dialog.
    data["env"]["XDG_DATA_HOME"] = "{tmp}"
    program.write_text(json.dumps(data))
    logs = tmp_path / "logs"
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "demo", "--skin", "gnome-mines", "--size", "8x8n10",
         "--games", "8", "--json", "--log", str(logs), "--screenshot", str(tmp_path / "g.png")],
        capture_output=True, text=True, timeout=300, env=dict(os.environ, MINEBOT_SKINS=str(skins)),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = one_json_object(done.stdout)
    assert summary["games"] == 8 and summary["stopped_because"] == "done"
    assert summary["misreads"] == 0 and summary["misclicks"] == 0
    if summary["wins"] == 0:
        pytest.skip("no game won: no score dialog to close this time")
    assert summary["dialogs"] and all(d.startswith("Congratulations") for d in summary["dialogs"])
    assert all(d.endswith(": Escape") for d in summary["dialogs"])
    said = (logs / "dialogs.txt").read_text().splitlines()
    assert said[0] == "closed the game's window 'Congratulations!' with Escape"


def test_a_game_started_by_hand_near_the_screen_edge_is_played(bare_display, tmp_path):
    """xdemineur started by hand (its skin's program.json has no command nor window: only the
    restart), its window moved against the right and bottom edges of a black bare X screen:
    `minebot play` finds the board and its window, restarts by the face and plays on."""
    skin_or_skip("xdemineur")
    root = Path(__file__).resolve().parents[2]
    skins = tmp_path / "skins"
    shutil.copytree(root / "templates" / "xdemineur", skins / "xdemineur")
    program = json.loads((skins / "xdemineur" / "program.json").read_text())
    by_hand = {k: program[k] for k in ("restart", "first_click", "park")}
    (skins / "xdemineur" / "program.json").write_text(json.dumps(by_hand))
    env = dict(bare_display, MINEBOT_SKINS=str(skins))
    game = subprocess.Popen(
        ["/usr/games/xdemineur", "-geometry", "30x16", "-m", "99"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        from bot.live.window import X11Windows, find_window

        with mock.patch.dict(os.environ, {"XAUTHORITY": env["XAUTHORITY"]}):
            windows = X11Windows(env["DISPLAY"])
            window = find_window(windows, wm_class="xdemineur", timeout=15)
            r = window.region
            windows.move(window.id, 1280 - r.width, 1024 - r.height)
        time.sleep(0.5)
        done = subprocess.run(
            [sys.executable, "-m", "bot.cli", "play", "--games", "3", "--json"],
            capture_output=True, text=True, timeout=180, env=env,
        )  # fmt: skip
    finally:
        game.terminate()
        game.wait(timeout=10)
    assert done.returncode == 0, done.stderr
    summary = one_json_object(done.stdout)
    assert summary["games"] == 3 and summary["restarts"] >= 2
    assert summary["misreads"] == 0 and summary["misclicks"] == 0
    assert "playing xdemineur 30x16" in done.stderr
