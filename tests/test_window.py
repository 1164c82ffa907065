"""Window finding and watching: closed, moved, resized, covered -> a clear stop."""

from __future__ import annotations

import json

import pytest

from bot.errors import ProgramError, WindowError
from bot.live.capture import Region
from bot.live.programs import Program, load_program, size_key
from bot.live.window import WindowInfo, WindowWatch, covering_windows, find_window

GAME = WindowInfo(10, "Mines", ("gnome-mines", "Gnome-mines"), Region(0, 0, 1200, 700))
BOARD = Region(20, 110, 940, 500)


class FakeWindows:
    def __init__(self, *stack: WindowInfo) -> None:
        self.stack = list(stack)

    def windows(self):
        return list(self.stack)


def moved(info: WindowInfo, **changes) -> WindowInfo:
    r = info.region
    fields = {"left": r.left, "top": r.top, "width": r.width, "height": r.height} | changes
    return WindowInfo(info.id, info.name, info.wm_class, Region(**fields))


def test_unchanged_window_passes():
    assert WindowWatch(FakeWindows(GAME), GAME, BOARD).check() == GAME


def test_closed_window_stops():
    watch = WindowWatch(FakeWindows(), GAME, BOARD)
    with pytest.raises(WindowError, match="'Mines' was closed"):
        watch.check()


def test_moved_window_stops():
    watch = WindowWatch(FakeWindows(moved(GAME, left=40)), GAME, BOARD)
    with pytest.raises(WindowError, match=r"moved from \(0, 0\) to \(40, 0\)"):
        watch.check()


def test_resized_window_stops():
    watch = WindowWatch(FakeWindows(moved(GAME, width=800)), GAME, BOARD)
    with pytest.raises(WindowError, match="changed size from 1200x700 to 800x700"):
        watch.check()


def test_window_on_top_of_the_board_stops():
    dialog = WindowInfo(11, "Start Over?", ("gnome-mines",), Region(300, 300, 200, 100))
    watch = WindowWatch(FakeWindows(GAME, dialog), GAME, BOARD)
    with pytest.raises(WindowError, match="covered by 'Start Over\\?'"):
        watch.check()


def test_window_above_but_beside_the_board_is_fine():
    tooltip = WindowInfo(11, "tip", ("x",), Region(1000, 10, 100, 50))
    assert WindowWatch(FakeWindows(GAME, tooltip), GAME, BOARD).check() == GAME


def test_window_below_is_fine():
    other = WindowInfo(5, "xterm", ("xterm",), Region(0, 0, 1280, 1024))
    assert WindowWatch(FakeWindows(other, GAME), GAME, BOARD).check() == GAME


def test_covering_needs_overlap_and_order():
    a = WindowInfo(1, "a", (), Region(0, 0, 10, 10))
    b = WindowInfo(2, "b", (), Region(9, 9, 10, 10))
    assert covering_windows([a, b], 1, a.region) == [b]
    assert covering_windows([b, a], 1, a.region) == []
    assert covering_windows([a, b], 3, a.region) == []


def test_find_window_by_class_and_title_takes_the_top_one():
    sgt = WindowInfo(1, "Mines", ("sgt-mines", "Sgt-mines"), Region(0, 0, 380, 442))
    xd = WindowInfo(2, "xdémineur", ("/usr/games/xdemineur", "XDémineur"), Region(1, 1, 661, 432))
    backend = FakeWindows(sgt, GAME, xd)
    assert find_window(backend, wm_class="xdemineur") == xd
    assert find_window(backend, name="^Mines$") == GAME
    assert find_window(backend, name="^Mines$", wm_class="sgt-mines") == sgt
    assert find_window(backend, name="^Mines$", exclude=[GAME.id]) == sgt


def test_missing_window_names_what_was_searched():
    with pytest.raises(WindowError, match="title /\\^Mines\\$/ and class 'kmines'"):
        find_window(FakeWindows(GAME), name="^Mines$", wm_class="kmines")


# --- program descriptions -----------------------------------------------------------------


@pytest.mark.parametrize("skin", ["sgt-mines", "xdemineur", "gnome-mines"])
def test_shipped_programs_load(skin):
    program = load_program(skin)
    assert program.skin == skin
    assert program.window_name or program.window_class
    assert all(0 <= v <= 1 for v in program.park)


def test_command_is_filled_with_the_size():
    program = Program.from_dict(
        "x", {"command": ["sh", "-geometry", "{cols}x{rows}", "-m", "{mines}"], "window": {}}
    )
    assert program.argv(30, 16, 99)[1:] == ["-geometry", "30x16", "-m", "99"]


def test_preset_only_program_refuses_other_sizes():
    program = load_program("gnome-mines")
    assert program.argv(30, 16, 99)[1:] == ["--big"]
    with pytest.raises(ProgramError, match="cannot start a 9x9 board with 10 mines"):
        program.argv(9, 9, 10)


def test_missing_executable_is_named():
    program = Program.from_dict("x", {"command": ["no-such-game-xyz"], "window": {}})
    with pytest.raises(ProgramError, match="no-such-game-xyz is not installed"):
        program.argv(9, 9, 10)


def test_malformed_program_file_names_the_file(tmp_path, monkeypatch):
    folder = tmp_path / "broken"
    folder.mkdir()
    monkeypatch.setattr("bot.live.programs.template_dirs", lambda: [tmp_path])
    cases = [  # (program.json, what the message says after the file name)
        ({"command": []}, "key 'command': [] should be non-empty"),
        ({"first_clik": "opening"}, "unknown key 'first_clik' (known: about, command,"),
        ({"window": {"title": "Mines"}}, "unknown key 'window.title' (known: name, class)"),
        ({"restart": {"key": "n", "click": {}}}, "key 'restart': give exactly one of"),
        ({"restart": {"button": "../face.png"}}, "key 'restart.button': '../face.png' does"),
        ({"park": [0.5, 2]}, "key 'park.1': 2 is greater than the maximum of 1"),
        ({"dialogs": [{"title": "Scores"}]}, "key 'dialogs.0': 'key' is a required property"),
        ({"window_size": {"big": [1, 2]}}, "key 'window_size': 'big' does not match"),
        ({"pointer_inside": "yes"}, "key 'pointer_inside': 'yes' is not of type 'boolean'"),
    ]
    for data, said in cases:
        (folder / "program.json").write_text(json.dumps(data))
        with pytest.raises(ProgramError) as caught:
            load_program("broken")
        assert str(caught.value).startswith(f"{folder / 'program.json'}: {said}"), caught.value
    (folder / "program.json").write_text("{not json")
    with pytest.raises(ProgramError, match=r"broken/program.json: cannot read"):
        load_program("broken")
    with pytest.raises(ProgramError, match="no program.json for skin 'nope'"):
        load_program("nope")


def test_park_point_is_inside_the_window():
    program = load_program("gnome-mines")
    x, y = program.park_point(GAME)
    assert GAME.region.left <= x < GAME.region.right and GAME.region.top <= y < GAME.region.bottom
    assert size_key(30, 16, 99) in program.window_size


def test_a_game_started_by_hand_needs_neither_command_nor_window(tmp_path, monkeypatch):
    folder = tmp_path / "byhand"
    folder.mkdir()
    (folder / "program.json").write_text(json.dumps({"restart": {"key": "F2"}}))
    monkeypatch.setattr("bot.live.programs.template_dirs", lambda: [tmp_path])
    program = load_program("byhand")
    assert program.restart == {"key": "F2"} and program.command == ()
    with pytest.raises(ProgramError, match='no "command": minebot cannot start this game'):
        program.argv(9, 9, 10)
