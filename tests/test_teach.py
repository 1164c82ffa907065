"""``minebot tune`` writes what play needs: program.json from its options (restart by key or by
a button picture, first-click rule, dialogs, pointer), checked against the schema; the game
tuned that way is then attached, restarted and its dialogs known from that file alone."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.cli import main

XBOMB = Path(__file__).parent / "fixtures_tune" / "xbomb"


def tune_xbomb(tmp_path: Path, *options: str) -> tuple[int, Path]:
    shots = tmp_path / "shots"
    if not shots.exists():
        shutil.copytree(XBOMB, shots)
    out = tmp_path / "skins"
    images = [str(shots / n) for n in ("mid.png", "lost.png", "seven.png")]
    code = main(["tune", *images, "--name", "xb", "--out", str(out), "--groups",
                 str(shots / "xbomb.groups.txt"), *options])  # fmt: skip
    return code, out / "xb"


def test_tune_writes_the_program_json_play_needs(tmp_path, monkeypatch, capsys):
    from bot.live.programs import load_program

    code, folder = tune_xbomb(
        tmp_path,
        "--program", str(XBOMB / "program.json"),
        "--restart-key", "s",
        "--restart-interval", "1.5",
        "--first-click", "unsafe",
        "--dialog", "High Scores=Return",
        "--dialog", "XBomb Scores=Escape",
        "--pointer-inside",
    )  # fmt: skip
    assert code == 0, capsys.readouterr().err
    data = json.loads((folder / "program.json").read_text())
    assert data["command"] == ["xbomb", "-square", "{preset}"]  # kept from --program
    assert data["restart"] == {"key": "s", "min_interval": 1.5}
    assert data["first_click"] == "unsafe"
    assert data["dialogs"] == [
        {"title": "^High\\ Scores", "key": "Return"},
        {"title": "^XBomb\\ Scores", "key": "Escape"},
    ]
    monkeypatch.setenv("MINEBOT_SKINS", str(folder.parent))
    program = load_program("xb")
    assert program.pointer_inside and program.first_click == "unsafe"
    assert [d["key"] for d in program.dialogs] == ["Return", "Escape"]
    assert "warning: no --restart-key" not in capsys.readouterr().out


def test_a_restart_interval_without_a_restart_is_one_line_and_exit_2(tmp_path, capsys):
    code, folder = tune_xbomb(tmp_path, "--restart-interval", "1")
    err = capsys.readouterr().err.strip()
    assert code == 2 and not folder.exists()
    assert err == (
        "minebot tune: --restart-interval needs a restart: give --restart-key or --restart-button"
    )


def test_tune_without_a_restart_says_play_cannot_restart(tmp_path, capsys):
    code, folder = tune_xbomb(tmp_path, "--first-click", "unsafe")
    assert code == 0
    assert "warning: no --restart-key or --restart-button" in capsys.readouterr().out
    assert json.loads((folder / "program.json").read_text()) == {"first_click": "unsafe"}


def test_restart_button_picture_is_kept_and_found_on_screen(tmp_path, capsys):
    from bot.live.restart import find_button

    screen = cv2.imread(str(XBOMB / "mid.png"))
    button = screen[5:25, 5:45].copy()  # a corner of the window stands in for a button
    picture = tmp_path / "face.png"
    cv2.imwrite(str(picture), button)
    code, folder = tune_xbomb(tmp_path, "--restart-button", str(picture))
    assert code == 0, capsys.readouterr().err
    data = json.loads((folder / "program.json").read_text())
    assert data["restart"] == {"button": "restart-button.png"}
    kept = cv2.imread(str(folder / "restart-button.png"))
    assert np.array_equal(kept, button)
    assert find_button(screen, kept) == (25.0, 15.0)
    # Tuned again (a class met later) without the option: the button and its use are kept.
    assert tune_xbomb(tmp_path)[0] == 0, capsys.readouterr().err
    assert json.loads((folder / "program.json").read_text())["restart"] == data["restart"]
    assert np.array_equal(cv2.imread(str(folder / "restart-button.png")), button)


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--dialog", "no key here"], "--dialog 'no key here': expected TITLE=KEY"),
        (["--first-click", "middle"], "--first-click: invalid choice: 'middle'"),
        (["--restart-key", "s", "--restart-button", "x.png"], "not allowed with argument"),
        (["--restart-key", "s", "--restart-interval", "soon"], "must be a number of seconds"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(tmp_path, capsys, options, said):
    with pytest.raises(SystemExit) as stopped:
        tune_xbomb(tmp_path, *options)
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip()
    assert said in err and len(err.splitlines()) == 1


def test_a_bad_program_file_or_button_names_the_file_and_key(tmp_path, capsys):
    bad = tmp_path / "program.json"
    bad.write_text(json.dumps({"restart": {"key": "s"}, "dialog": []}))
    assert tune_xbomb(tmp_path, "--program", str(bad))[0] == 2
    err = capsys.readouterr().err.strip()
    assert f"{bad}: unknown key 'dialog'" in err and len(err.splitlines()) == 1
    big = tmp_path / "shot.png"
    shutil.copy(XBOMB / "mid.png", big)
    assert tune_xbomb(tmp_path, "--restart-button", str(big))[0] == 2
    assert f"{big}: the restart button picture is" in capsys.readouterr().err
    assert not (tmp_path / "skins" / "xb").exists()  # refused before any work


def test_the_logged_tune_command_teaches_a_class_met_later_keeping_the_rest(
    tmp_path, monkeypatch, capsys
):
    """A skin tuned without any 7; play meets one (seven.png stands for the logged frame) and
    logs the command of bot.live.unclear.teach_command: run from the screenshots' folder it
    asks for the new group only, then learns the 7, keeping the other classes, the levels and
    the program.json."""
    import shlex

    from bot.live.unclear import teach_command
    from bot.reading.skins import find_skin

    shots = tmp_path / "shots"
    shots.mkdir()
    for name in ("mid.png", "mid.txt", "lost.png", "lost.txt", "seven.png"):
        shutil.copy(XBOMB / name, shots / name)
    groups = (XBOMB / "xbomb.groups.txt").read_text().splitlines()
    (shots / "xb.groups.txt").write_text("\n".join(g for g in groups if " = 7 " not in g))
    monkeypatch.chdir(shots)
    out = tmp_path / "skins"
    first = ["tune", "mid.png", "lost.png", "--name", "xb", "--out", str(out), "--level",
             "30x16n99", "--restart-key", "s", "--first-click", "unsafe"]  # fmt: skip
    assert main(first) == 0
    assert "7" not in json.loads((out / "xb" / "skin.json").read_text())["templates"]
    command = teach_command(find_skin("xb", dirs=[out]), shots / "seven.png")
    argv = shlex.split(command)
    assert argv[:2] == ["minebot", "tune"] and "--level" in argv
    capsys.readouterr()
    assert main(argv[1:]) == 1  # one group to name: the 7
    unnamed = [g for g in (shots / "xb.groups.txt").read_text().splitlines() if "= ?" in g]
    assert len(unnamed) == 1 and "seven.png" in unnamed[0]
    text = (shots / "xb.groups.txt").read_text().replace(unnamed[0], unnamed[0].replace("?", "7"))
    (shots / "xb.groups.txt").write_text(text)
    assert main(argv[1:]) == 0
    skin = json.loads((out / "xb" / "skin.json").read_text())
    assert {"7", "0", "1", "covered", "mine"} <= set(skin["templates"])
    assert skin["levels"][0]["mines"] == 99
    program = json.loads((out / "xb" / "program.json").read_text())
    assert program == {"restart": {"key": "s"}, "first_click": "unsafe"}
    monkeypatch.setenv("MINEBOT_SKINS", str(out))
    shutil.copy(XBOMB / "seven.txt", tmp_path / "seven-expected.txt")
    assert main(["replay", "seven.png", "--skin", "xb", "--expect",
                 str(tmp_path / "seven-expected.txt")]) == 0  # fmt: skip
