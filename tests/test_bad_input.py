"""Bad input to ``minebot replay``, ``demo``, ``speed``, ``tune`` and the CLI itself: every case
runs the real command (``bot.cli.main``) and must end in exit 2 with one line on stderr that
names the input, never a traceback; nothing is played, timed or learnt for an output that
cannot be written."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

import bot.live.capture
import bot.live.xvfb
from bot.cli import main
from bot.reading.tune import shipped_skins

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
GOOD = FIXTURES / "sgt-mines" / "beginner-first.png"
XBOMB = ROOT / "tests" / "fixtures_tune" / "xbomb"
#: A path whose folder cannot be made: /proc takes no new files.
UNWRITABLE = "/proc/minebot-test/x.png"
NOT_UTF8 = b"\xff\xfe1.\n..\n"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``minebot ARGV`` (argparse exits with SystemExit)."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *argv: str, names: str) -> str:
    """Run, and check exit 2 with one stderr line naming ``names``; the line."""
    code, _, err = run(capsys, *argv)
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert names in lines[0], lines[0]
    return lines[0]


def picture(path: Path, width: int, height: int) -> Path:
    cv2.imwrite(str(path), np.full((height, width, 3), 190, np.uint8))
    return path


@pytest.fixture
def no_game(monkeypatch):
    """Fail the test if demo starts a virtual display: bad input must be refused before."""

    def started(*args, **kwargs):
        raise AssertionError("a game was started for input that should have been refused")

    monkeypatch.setattr(bot.live.xvfb, "VirtualDisplay", started)


# --- replay ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("width", "height"), [(1, 50), (50, 1), (1, 1)])
def test_replay_of_a_picture_one_pixel_wide_or_tall(tmp_path, capsys, width, height):
    thin = picture(tmp_path / "thin.png", width, height)
    line = refused(capsys, "replay", thin, names=str(thin))
    assert "no board" in line


def test_one_bad_picture_does_not_stop_a_folder(tmp_path, capsys):
    folder = tmp_path / "shots"
    folder.mkdir()
    shutil.copy(GOOD, folder / "b-good.png")
    thin = picture(folder / "a-thin.png", 1, 40)
    (folder / "c-not-a-picture.png").write_text("hello")
    code, out, err = run(capsys, "replay", folder)
    assert code == 2 and "Traceback" not in err
    assert "skin: sgt-mines" in out and "move:" in out  # the good one is read and reported
    lines = err.strip().splitlines()
    assert len(lines) == 2
    assert str(thin) in lines[0] and "c-not-a-picture.png" in lines[1]


def test_one_bad_picture_in_a_folder_with_json(tmp_path, capsys):
    folder = tmp_path / "shots"
    folder.mkdir()
    shutil.copy(GOOD, folder / "good.png")
    picture(folder / "thin.png", 40, 1)
    code, out, _ = run(capsys, "replay", folder, "--json")
    import json

    reports = [json.loads(line) for line in out.splitlines()]
    assert code == 2
    assert [("error" in r, r.get("skin")) for r in reports] == [(False, "sgt-mines"), (True, None)]


@pytest.mark.parametrize("name", ["out", "out.xyz", "out.txt"])
def test_replay_overlay_without_a_picture_extension(tmp_path, capsys, name):
    overlay = tmp_path / name
    refused(capsys, "replay", GOOD, "--overlay", overlay, names=str(overlay))
    assert not overlay.exists()


def test_replay_overlay_that_is_a_folder(tmp_path, capsys):
    refused(capsys, "replay", GOOD, "--overlay", tmp_path, names=str(tmp_path))


def test_replay_overlay_that_cannot_be_written(capsys):
    refused(capsys, "replay", GOOD, "--overlay", UNWRITABLE, names=UNWRITABLE)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_replay_overlay_written_nowhere_is_not_success(tmp_path, capsys):
    # OpenCV says it wrote the picture to /dev/full; the file check says it did not.
    full = tmp_path / "full.png"
    full.symlink_to("/dev/full")
    line = refused(capsys, "replay", GOOD, "--overlay", full, names=str(full))
    assert "nothing was written" in line


def test_replay_of_a_folder_with_an_overlay_path_that_is_a_file(tmp_path, capsys):
    folder = tmp_path / "shots"
    folder.mkdir()
    shutil.copy(GOOD, folder / "good.png")
    taken = tmp_path / "taken.png"
    taken.write_text("x")
    refused(capsys, "replay", folder, "--overlay", taken, names=str(taken))


def test_replay_negative_mines(capsys):
    refused(capsys, "replay", GOOD, "--mines", "-1", names="--mines")


def test_replay_expect_not_utf8_or_a_folder(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(NOT_UTF8)
    assert "UTF-8" in refused(capsys, "replay", GOOD, "--expect", bad, names=str(bad))
    refused(capsys, "replay", GOOD, "--expect", tmp_path, names=str(tmp_path))


def test_replay_of_an_empty_folder_a_missing_path_and_an_empty_file(tmp_path, capsys):
    refused(capsys, "replay", tmp_path, names=str(tmp_path))
    refused(capsys, "replay", tmp_path / "none.png", names="none.png")
    empty = tmp_path / "empty.png"
    empty.touch()
    assert refused(capsys, "replay", empty, names=str(empty)).count(str(empty)) == 1


# --- demo: refused before any game is played -------------------------------------------------


def test_demo_screenshot_that_is_a_folder(tmp_path, capsys, no_game):
    refused(capsys, "demo", "--screenshot", tmp_path, names=str(tmp_path))


@pytest.mark.parametrize("name", ["shot.txt", "shot"])
def test_demo_screenshot_without_a_picture_extension(tmp_path, capsys, no_game, name):
    refused(capsys, "demo", "--screenshot", tmp_path / name, names=name)


def test_demo_screenshot_that_cannot_be_written(capsys, no_game):
    refused(capsys, "demo", "--screenshot", UNWRITABLE, names=UNWRITABLE)


def test_demo_log_that_is_an_existing_file(tmp_path, capsys, no_game):
    log = tmp_path / "games.log"
    log.write_text("kept")
    refused(capsys, "demo", "--log", log, names=str(log))
    assert log.read_text() == "kept"


def test_demo_log_that_cannot_be_made(capsys, no_game):
    refused(capsys, "demo", "--log", "/proc/minebot-test/logs", names="/proc/minebot-test/logs")


@pytest.mark.parametrize(
    ("option", "value"),
    [("--games", "0"), ("--games", "-2"), ("--display", "-1"), ("--size", "3x3n9"),
     ("--size", "huge")],
)  # fmt: skip
def test_demo_bad_numbers(capsys, no_game, option, value):
    refused(capsys, "demo", option, value, names=option)


def test_demo_unknown_game(capsys, no_game):
    refused(capsys, "demo", "--skin", "no-such-game", names="no-such-game")


# --- play: refused before the screen is captured ---------------------------------------------


@pytest.fixture
def no_screen(monkeypatch):
    def captured(*args, **kwargs):
        raise AssertionError("the screen was captured for input that should have been refused")

    monkeypatch.setattr(bot.live.capture, "ScreenCapture", captured)


@pytest.mark.parametrize(("option", "value"), [("--games", "0"), ("--mines", "-5")])
def test_play_bad_numbers(capsys, no_screen, option, value):
    refused(capsys, "play", option, value, names=option)


def test_play_hint_overlay_and_log_that_cannot_be_written(tmp_path, capsys, no_screen):
    text = tmp_path / "hint.txt"
    refused(capsys, "play", "--hint", "--overlay", text, names=str(text))
    refused(capsys, "play", "--hint", "--overlay", UNWRITABLE, names=UNWRITABLE)
    log = tmp_path / "log"
    log.write_text("kept")
    refused(capsys, "play", "--log", log, names=str(log))


# --- speed ----------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["0", "-1", "many", "20001", "10000000"])
def test_speed_positions_must_be_positive_and_bounded(capsys, value):
    line = refused(capsys, "speed", "--positions", value, names="--positions")
    assert repr(value) in line


def test_speed_board_missing_folder_not_utf8_or_malformed(tmp_path, capsys):
    refused(capsys, "speed", "--board", tmp_path / "none.txt", names="none.txt")
    refused(capsys, "speed", "--board", tmp_path, names=str(tmp_path))
    bad = tmp_path / "bad.txt"
    bad.write_bytes(NOT_UTF8)
    assert "UTF-8" in refused(capsys, "speed", "--board", bad, names=str(bad))
    junk = tmp_path / "junk.txt"
    junk.write_text("abc\n")
    refused(capsys, "speed", "--board", junk, names=str(junk))
    small = tmp_path / "small.txt"
    small.write_text("1.\n..\n")  # cannot hold the 51 mines it is timed with
    refused(capsys, "speed", "--board", small, names=str(small))


# --- tune -----------------------------------------------------------------------------------


@pytest.mark.parametrize("shipped", shipped_skins())
def test_tune_name_of_a_shipped_skin_in_another_case(tmp_path, capsys, shipped):
    for name in {shipped.upper(), shipped.title()} - {shipped}:
        line = refused(
            capsys, "tune", XBOMB / "fresh.png", "--name", name, "--out", tmp_path, names=name
        )
        assert repr(shipped) in line
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("level", ["3x3n9", "30x16", "0x5n1"])
def test_tune_bad_level(tmp_path, capsys, level):
    refused(capsys, "tune", XBOMB / "fresh.png", "--name", "xb", "--level", level, names=level)


def test_tune_out_that_is_a_file_or_cannot_be_made(tmp_path, capsys):
    taken = tmp_path / "taken"
    taken.write_text("x")
    shot = XBOMB / "fresh.png"
    refused(capsys, "tune", shot, "--name", "xb", "--out", taken, names=str(taken))
    refused(capsys, "tune", shot, "--name", "xb", "--out", "/proc/minebot-skins", names="/proc")


def test_tune_groups_file_folder_not_utf8_or_unwritable(tmp_path, capsys):
    shot = XBOMB / "fresh.png"
    refused(capsys, "tune", shot, "--name", "xb", "--groups", tmp_path, names=str(tmp_path))
    bad = tmp_path / "bad.groups.txt"
    bad.write_bytes(NOT_UTF8)
    refused(capsys, "tune", shot, "--name", "xb", "--out", tmp_path, "--groups", bad,
            names=str(bad))  # fmt: skip
    refused(capsys, "tune", shot, "--name", "xb", "--groups", "/proc/g.txt", names="/proc/g.txt")


def test_tune_program_description_not_utf8_not_json_or_a_folder(tmp_path, capsys):
    shot = XBOMB / "fresh.png"
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff{}")
    notjson = tmp_path / "program.json"
    notjson.write_text("{nope")
    for program in (bad, notjson, tmp_path):
        refused(capsys, "tune", shot, "--name", "xb", "--out", tmp_path / "skins",
                "--program", program, names=str(program))  # fmt: skip


def test_tune_screenshot_missing_a_folder_or_with_a_non_utf8_board(tmp_path, capsys):
    refused(capsys, "tune", tmp_path / "none.png", "--name", "xb", names="none.png")
    refused(capsys, "tune", tmp_path, "--name", "xb", names=str(tmp_path))
    shutil.copy(XBOMB / "click1.png", tmp_path / "click1.png")
    (tmp_path / "click1.txt").write_bytes(NOT_UTF8)
    refused(capsys, "tune", tmp_path / "click1.png", "--name", "xb", "--out", tmp_path / "s",
            names="click1.txt")  # fmt: skip


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """The xbomb screenshots, mid.txt and the groups file a person filled in for mid, lost and
    seven (as in tests/test_tune.py)."""
    folder = tmp_path / "shots"
    shutil.copytree(XBOMB, folder, ignore=shutil.ignore_patterns("*.txt"))
    shutil.copy(XBOMB / "xbomb.groups.txt", folder)
    shutil.copy(XBOMB / "mid.txt", folder)
    return folder


def test_tune_template_that_cannot_be_written_is_an_error(shots, tmp_path, capsys):
    images = [shots / "mid.png", shots / "lost.png", shots / "seven.png"]
    out = tmp_path / "skins"
    (out / "xbomb" / "covered.png").mkdir(parents=True)  # where the covered cell would go
    refused(capsys, "tune", *images, "--name", "xbomb", "--out", out, names="covered.png")
    assert not (out / "xbomb" / "skin.json").exists()  # a folder without it is no skin


def test_tune_contact_sheet_that_cannot_be_written_is_an_error(shots, tmp_path, capsys):
    images = [shots / "mid.png", shots / "lost.png"]  # lost.png's cells are not named
    (shots / "new.groups.png").mkdir()  # where the contact sheet of skin "new" would go
    refused(capsys, "tune", *images, "--name", "new", "--out", tmp_path / "skins",
            names="new.groups.png")  # fmt: skip


# --- the CLI itself -------------------------------------------------------------------------


def test_unknown_command_and_unknown_option(capsys):
    refused(capsys, "nonsense", names="nonsense")
    refused(capsys, "speed", "--fast", names="--fast")


def test_a_bad_file_from_the_installed_command_has_no_traceback(tmp_path):
    # The whole process, as a user runs it: nothing but the one line on stderr.
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "speed", "--board", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"minebot speed: {tmp_path}: is a folder; the board must be a file"
    ]


def test_version_from_the_installed_package_else_the_source_tree(capsys, monkeypatch):
    import importlib.metadata as metadata

    tomllib = pytest.importorskip("tomllib")
    monkeypatch.setattr(metadata, "version", lambda name: "9.8.7")
    code, out, _ = run(capsys, "--version")
    assert (code, out.strip()) == (0, "minebot 9.8.7")

    def not_installed(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", not_installed)
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    code, out, _ = run(capsys, "--version")
    assert (code, out.strip()) == (0, f"minebot {declared} (source tree)")


def test_an_os_error_not_caught_nearer_is_still_one_line(capsys, monkeypatch):
    import bot.commands.speed

    def refused_by_the_system(args):
        raise PermissionError(13, "Permission denied", "/srv/minebot/out.txt")

    monkeypatch.setattr(bot.commands.speed, "run", refused_by_the_system)
    line = refused(capsys, "speed", names="/srv/minebot/out.txt")
    assert line == "minebot speed: /srv/minebot/out.txt: Permission denied"
