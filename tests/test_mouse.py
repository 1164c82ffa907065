"""Coordinate mapping (frame -> desktop -> mouse) and the click guards, without a screen.

Windows and macOS cannot run here: every test runs three times, with ``sys.platform`` switched
to linux, win32 and darwin, so nothing in the mapping or the guards depends on the platform it
was written on; loading pyautogui is checked per platform with a stand-in module.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
import threading
import time
import types
from dataclasses import dataclass

import numpy as np
import pytest

from bot.errors import MouseError
from bot.live.capture import Frame, Region
from bot.live.mouse import (
    BoardMouse,
    FailSafeError,
    Mouse,
    MouseMapping,
    follow_display,
    frame_to_mouse,
    load_pyautogui,
    measure_mapping,
)

PLATFORMS = ("linux", "win32", "darwin")


@pytest.fixture(autouse=True, params=PLATFORMS)
def platform(request, monkeypatch) -> str:
    """Every test in this file, once per platform."""
    monkeypatch.setattr(sys, "platform", request.param)
    return request.param


class FakeFailSafe(Exception):
    pass


class FakePointer:
    """A pyautogui stand-in that records presses and can clamp or refuse moves."""

    FailSafeException = FakeFailSafe

    def __init__(self, size=(1920, 1080), clamp=None):
        self.FAILSAFE = True
        self._size = size
        self.pos = (size[0] // 2, size[1] // 2)
        self.clamp = clamp  # (min_x, min_y, max_x, max_y) the pointer cannot leave
        self.events: list[tuple] = []

    def position(self):
        return self.pos

    def size(self):
        return self._size

    def moveTo(self, x, y):  # noqa: N802
        if self.FAILSAFE and self.pos in ((0, 0),):
            raise FakeFailSafe("corner")
        if self.clamp:
            x = min(max(x, self.clamp[0]), self.clamp[2])
            y = min(max(y, self.clamp[1]), self.clamp[3])
        self.pos = (x, y)
        self.events.append(("move", x, y))

    def mouseDown(self, button="left"):  # noqa: N802
        self.events.append(("down", button, self.pos))

    def mouseUp(self, button="left"):  # noqa: N802
        self.events.append(("up", button, self.pos))

    def press(self, key):
        self.events.append(("key", key))


@dataclass(frozen=True)
class FakeGrid:
    left: float
    top: float
    pitch_x: float
    pitch_y: float
    cols: int
    rows: int

    def cell_rect(self, x, y):
        return (
            self.left + x * self.pitch_x,
            self.top + y * self.pitch_y,
            self.pitch_x,
            self.pitch_y,
        )

    def cell_center(self, x, y):
        return (self.left + (x + 0.5) * self.pitch_x, self.top + (y + 0.5) * self.pitch_y)


def blank(width, height):
    return np.zeros((height, width, 3), np.uint8)


# --- measure_mapping: the scenarios the issue names --------------------------------------


def test_linux_single_screen_is_one_to_one():
    m = measure_mapping([Region(0, 0, 1280, 1024), Region(0, 0, 1280, 1024)], (1280, 1024))
    assert m == MouseMapping(1.0, 1.0)


def test_retina_frames_have_two_pixels_per_mouse_unit():
    # macOS: mss' monitors are in points, its grabs in pixels; pyautogui works in points.
    m = measure_mapping([Region(0, 0, 1440, 900), Region(0, 0, 1440, 900)], (1440, 900))
    frame = Frame(blank(2880, 1800), Region(0, 0, 1440, 900))
    assert frame.scale == (2.0, 2.0)
    assert frame_to_mouse(frame, m, 2880 - 1, 1800 - 1) == (1439, 899)
    assert frame_to_mouse(frame, m, 101.0, 51.0) == (50, 25)


def test_windows_125_percent_without_dpi_awareness():
    # mss sees physical pixels, the mouse logical ones: factor 0.8 measured, not assumed.
    monitors = [Region(0, 0, 4320, 1350), Region(0, 0, 2400, 1350), Region(2400, 0, 1920, 1080)]
    m = measure_mapping(monitors, (1920, 1080))
    assert m.factor_x == pytest.approx(0.8) and m.factor_y == pytest.approx(0.8)
    assert m.to_mouse(1200, 675) == (960, 540)
    assert m.to_desktop(960, 540) == pytest.approx((1200, 675))


def test_windows_150_percent():
    m = measure_mapping([Region(0, 0, 2880, 1620)], (1920, 1080))
    assert m.to_mouse(2880 - 1.5, 1620 - 1.5) == (1919, 1079)


def test_monitor_left_of_primary_has_negative_coordinates():
    monitors = [
        Region(-1920, 0, 3840, 1080),
        Region(0, 0, 1920, 1080),
        Region(-1920, 0, 1920, 1080),
    ]
    m = measure_mapping(monitors, (1920, 1080))
    frame = Frame(blank(3840, 1080), monitors[0])  # a grab of the whole desktop
    assert frame_to_mouse(frame, m, 100, 500) == (-1820, 500)
    assert frame_to_mouse(frame, m, 1920 + 5, 7) == (5, 7)


def test_monitor_above_primary():
    monitors = [
        Region(0, -1200, 1920, 2280),
        Region(0, 0, 1920, 1080),
        Region(0, -1200, 1600, 1200),
    ]
    m = measure_mapping(monitors, (1920, 1080))
    frame = Frame(blank(1920, 2280), monitors[0])
    assert frame_to_mouse(frame, m, 10, 20) == (10, -1180)


def test_window_grab_offsets_by_its_region():
    frame = Frame(blank(300, 200), Region(400, 300, 300, 200))
    assert frame_to_mouse(frame, MouseMapping(), 16.5, 81.5) == (416, 381)


def test_x_screen_and_first_monitor_both_at_origin_prefers_the_matching_one():
    # Linux with two monitors side by side: the X screen is what pyautogui reports.
    monitors = [Region(0, 0, 3840, 1080), Region(0, 0, 1920, 1080), Region(1920, 0, 1920, 1080)]
    assert measure_mapping(monitors, (3840, 1080)) == MouseMapping(1.0, 1.0)


def test_no_matching_monitor_is_a_clear_error():
    with pytest.raises(MouseError, match="no monitor at"):
        measure_mapping([Region(0, 0, 1920, 1080)], (1280, 1024))
    with pytest.raises(MouseError, match="empty screen"):
        measure_mapping([Region(0, 0, 1920, 1080)], (0, 0))


@pytest.mark.parametrize(
    ("monitors", "mouse", "frame_region", "frame_px"),
    [
        ([Region(0, 0, 1440, 900)], (1440, 900), Region(100, 50, 400, 300), (800, 600)),
        ([Region(0, 0, 2400, 1350)], (1920, 1080), Region(-2400, 0, 4800, 1350), (4800, 1350)),
        ([Region(0, 0, 1920, 1080)], (1920, 1080), Region(-500, -300, 700, 400), (700, 400)),
    ],
)
def test_round_trip_lands_in_the_same_pixel_cell(monitors, mouse, frame_region, frame_px):
    m = measure_mapping(monitors, mouse)
    frame = Frame(blank(*frame_px), frame_region)
    sx, sy = frame.scale
    rng = np.random.default_rng(1)
    for fx, fy in rng.uniform(0, 1, (50, 2)) * frame_px:
        mx, my = frame_to_mouse(frame, m, fx, fy)
        bx, by = frame.to_frame(*m.to_desktop(mx, my))
        # one mouse unit covers sx/factor frame pixels: the point comes back within that
        assert abs(bx - fx) < sx / m.factor_x + 1e-9
        assert abs(by - fy) < sy / m.factor_y + 1e-9


# --- Mouse: checked moves, failsafe, take-over --------------------------------------------


def test_click_moves_then_presses_and_releases():
    pointer = FakePointer()
    mouse = Mouse(pointer)
    mouse.click(100, 200)
    assert pointer.events == [
        ("move", 100, 200),
        ("down", "left", (100, 200)),
        ("up", "left", (100, 200)),
    ]


def test_failsafe_is_forced_on_and_cannot_be_bypassed():
    pointer = FakePointer()
    pointer.FAILSAFE = False
    mouse = Mouse(pointer)
    assert pointer.FAILSAFE is True
    pointer.FAILSAFE = False  # someone switches it off later
    with pytest.raises(MouseError, match="failsafe"):
        mouse.click(10, 10)
    assert not any(e[0] == "down" for e in pointer.events)


def test_failsafe_in_corner_becomes_a_clear_error():
    pointer = FakePointer()
    mouse = Mouse(pointer)
    pointer.pos = (0, 0)  # the user throws the pointer into the corner ...
    mouse._left_at = None  # ... before the bot has moved at all
    with pytest.raises(FailSafeError, match="failsafe"):
        mouse.click(50, 50)
    assert pointer.events == []


def test_pointer_that_does_not_land_is_not_clicked():
    pointer = FakePointer(clamp=(0, 0, 1919, 1079))  # cannot reach a monitor left of primary
    mouse = Mouse(pointer)
    with pytest.raises(MouseError, match="landed at"):
        mouse.click(-100, 50)
    assert not any(e[0] == "down" for e in pointer.events)


def test_user_moving_the_mouse_stops_the_bot():
    pointer = FakePointer()
    mouse = Mouse(pointer)
    mouse.click(10, 10)
    pointer.pos = (500, 500)  # the person grabs the mouse
    with pytest.raises(MouseError, match="someone is using the mouse"):
        mouse.click(20, 20)
    assert [e for e in pointer.events if e[0] == "down"] == [("down", "left", (10, 10))]


def test_button_is_released_even_if_interrupted():
    class Interrupting(FakePointer):
        def mouseDown(self, button="left"):  # noqa: N802
            super().mouseDown(button)
            raise KeyboardInterrupt

    pointer = Interrupting()
    with pytest.raises(KeyboardInterrupt):
        Mouse(pointer).click(5, 5)
    assert pointer.events[-1] == ("up", "left", (5, 5))


class CtrlCDuringRequests(FakePointer):
    """Ctrl-C arrives (a real SIGINT to this process) in the middle of the X requests named in
    ``cut``: such a request records only that it began unless it runs to its end."""

    def __init__(self, cut):
        super().__init__()
        self.cut = cut

    def _request(self, name):
        self.events.append((name, "begun"))
        if name in self.cut:
            os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # the reply on its way: where python-xlib must not be cut off
        self.events.append((name, "answered"))

    def position(self):
        self._request("position")
        return self.pos

    def mouseDown(self, button="left"):  # noqa: N802
        self._request("down")

    def mouseUp(self, button="left"):  # noqa: N802
        self._request("up")


@pytest.fixture
def ctrl_c_raises():
    """SIGINT raises KeyboardInterrupt here, as in a terminal (a test worker may ignore it),
    and another thread is running, as OpenCV's workers are in play: the kernel may hand it
    the signal."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach only the main thread")
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    done = threading.Event()
    worker = threading.Thread(target=done.wait)
    worker.start()
    yield
    done.set()
    worker.join()
    signal.signal(signal.SIGINT, before)


def test_ctrl_c_waits_for_the_x_request_under_way(ctrl_c_raises):
    pointer = CtrlCDuringRequests(cut={"position"})
    with pytest.raises(KeyboardInterrupt):
        Mouse(pointer).position()
    assert pointer.events == [("position", "begun"), ("position", "answered")]
    pointer = CtrlCDuringRequests(cut={"down"})
    mouse = Mouse(pointer)
    with pytest.raises(KeyboardInterrupt):
        mouse.click(*pointer.pos)
    # the press and the release each ran to its end, and the interrupt came after the click
    assert [e for e in pointer.events if e[0] in ("down", "up")] == [
        ("down", "begun"), ("down", "answered"), ("up", "begun"), ("up", "answered"),
    ]  # fmt: skip


# --- BoardMouse: clicks only inside the located board -------------------------------------


WINDOW = Region(0, 0, 661, 432)


def board_mouse(pointer=None, region=WINDOW, scale=1, factor=1.0):
    frame = Frame(blank(region.width * scale, region.height * scale), region)
    grid = FakeGrid(16 * scale, 81 * scale, 20 * scale, 20 * scale, 30, 16)
    return BoardMouse(Mouse(pointer or FakePointer()), MouseMapping(factor, factor), frame, grid)


def test_cell_click_lands_at_the_cell_centre():
    pointer = FakePointer()
    board_mouse(pointer).click_cell(0, 0)
    assert pointer.events[0] == ("move", 26, 91)
    board_mouse(pointer, region=Region(400, 300, 661, 432)).click_cell(29, 15)
    assert pointer.events[-1][2] == (400 + 16 + 29 * 20 + 10, 300 + 81 + 15 * 20 + 10)


def test_cell_click_on_retina_frame_halves_coordinates():
    pointer = FakePointer(size=(1440, 900))
    board_mouse(pointer, scale=2).click_cell(3, 2)
    assert pointer.events[0] == ("move", 16 + 3 * 20 + 10, 81 + 2 * 20 + 10)


@pytest.mark.parametrize(("x", "y"), [(-1, 0), (30, 0), (0, 16), (5, -3)])
def test_cells_outside_the_board_are_refused(x, y):
    pointer = FakePointer()
    with pytest.raises(MouseError, match="outside the 30x16 board"):
        board_mouse(pointer).click_cell(x, y)
    assert pointer.events == []


def test_mapping_that_leaves_the_cell_is_refused():
    # A factor that does not match the frame: the round trip leaves the cell, nothing pressed.
    pointer = FakePointer()
    bm = board_mouse(pointer)
    bm.mapping = MouseMapping(1.0, 1.0)
    bm.frame = Frame(blank(661, 432), Region(0, 0, 661, 432))
    bm.grid = FakeGrid(16, 81, 0.5, 0.5, 30, 16)  # cells smaller than one mouse unit
    with pytest.raises(MouseError, match="outside the cell"):
        bm.click_cell(1, 0)
    assert pointer.events == []


def test_frame_point_outside_the_window_is_refused():
    pointer = FakePointer()
    with pytest.raises(MouseError, match="outside the captured window"):
        board_mouse(pointer).click_frame_point(700, 10)
    assert pointer.events == []


class CorneredRelease(FakePointer):
    """pyautogui's mouseUp when the failsafe fires: it checks before releasing, unless the
    failsafe is off."""

    def mouseUp(self, button="left"):  # noqa: N802
        if self.FAILSAFE:
            raise FakeFailSafe("corner")
        super().mouseUp(button)


def test_failsafe_between_move_and_press_is_a_clear_error():
    class Cornered(CorneredRelease):
        def mouseDown(self, button="left"):  # noqa: N802
            raise FakeFailSafe("corner")  # pyautogui checks before pressing

    pointer = Cornered()
    with pytest.raises(FailSafeError):
        Mouse(pointer).click(5, 5)
    assert pointer.events[-1] == ("up", "left", (5, 5))  # released anyway
    assert pointer.FAILSAFE is True  # and the failsafe is on again


def test_failsafe_after_press_still_releases_the_button():
    pointer = CorneredRelease()
    Mouse(pointer).click(5, 6)
    assert pointer.events[-2:] == [("down", "left", (5, 6)), ("up", "left", (5, 6))]
    assert pointer.FAILSAFE is True


def test_pointer_moved_during_the_click_stops():
    class Grabbed(FakePointer):
        def mouseUp(self, button="left"):  # noqa: N802
            super().mouseUp(button)
            self.pos = (300, 300)

    with pytest.raises(MouseError, match="moved during a click"):
        Mouse(Grabbed()).click(5, 6)


# --- loading pyautogui on each platform, and following a new X display ------------------------


class FakeConnection:
    """An Xlib display connection: only its name matters here."""

    def __init__(self, name: str) -> None:
        self.name = name

    def get_display_name(self) -> str:
        return self.name


def fake_pyautogui(platform_module: object) -> types.ModuleType:
    module = types.ModuleType("pyautogui")
    module.FAILSAFE = False
    module.PAUSE = 0.1
    module.platformModule = platform_module
    return module


def test_load_pyautogui_on_each_platform(platform, monkeypatch):
    x11 = types.SimpleNamespace(_display=FakeConnection(":1"))
    fake = fake_pyautogui(x11)
    monkeypatch.setitem(sys.modules, "pyautogui", fake)
    monkeypatch.delenv("DISPLAY", raising=False)
    if platform == "linux":
        with pytest.raises(MouseError, match="no DISPLAY"):
            load_pyautogui()
        monkeypatch.setenv("DISPLAY", ":1")  # the display pyautogui is connected to
    assert load_pyautogui() is fake
    assert fake.FAILSAFE is True and fake.PAUSE == 0.0
    assert x11._display.name == ":1"  # no platform touches a connection it does not need to


def test_a_connection_to_another_display_is_replaced():
    x11 = types.SimpleNamespace(_display=FakeConnection(":1"))
    opened = []

    def connect(name):
        opened.append(name)
        return FakeConnection(name)

    follow_display(fake_pyautogui(x11), ":1", connect=connect)
    assert opened == [] and x11._display.name == ":1"
    follow_display(fake_pyautogui(x11), ":2", connect=connect)
    assert opened == [":2"] and x11._display.name == ":2"


def test_a_connection_that_fails_is_a_mouse_error():
    def refuse(name):
        raise ConnectionRefusedError(f"no X server at {name}")

    x11 = types.SimpleNamespace(_display=FakeConnection(":1"))
    with pytest.raises(MouseError, match="cannot connect to display :9"):
        follow_display(fake_pyautogui(x11), ":9", connect=refuse)


def platform_module(tmp_path, monkeypatch, body: str) -> types.ModuleType:
    """A real module, imported from a file, standing in for a pyautogui platform layer that
    keeps its connection under some other name."""
    (tmp_path / "other_x11.py").write_text(body)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "other_x11", raising=False)
    module = importlib.import_module("other_x11")
    monkeypatch.setitem(sys.modules, "other_x11", module)  # gone again after the test
    return module


def test_without_the_private_connection_the_platform_module_is_reimported(tmp_path, monkeypatch):
    monkeypatch.setenv("DISPLAY", ":1")
    module = platform_module(
        tmp_path, monkeypatch, "import os\nconnected_to = os.environ['DISPLAY']\n"
    )
    assert module.connected_to == ":1"
    monkeypatch.setenv("DISPLAY", ":2")  # a virtual display started later
    follow_display(fake_pyautogui(module), ":2")  # the real importlib.reload
    assert module.connected_to == ":2"


def test_a_reimport_that_fails_is_a_mouse_error(tmp_path, monkeypatch):
    monkeypatch.setenv("DISPLAY", ":1")
    body = "import os\nif os.environ['DISPLAY'] != ':1':\n    raise OSError('no X server')\n"
    module = platform_module(tmp_path, monkeypatch, body)
    monkeypatch.setenv("DISPLAY", ":3")
    with pytest.raises(MouseError, match="cannot connect to display :3: no X server"):
        follow_display(fake_pyautogui(module), ":3")


def test_a_pyautogui_without_a_platform_module_is_a_mouse_error():
    with pytest.raises(MouseError, match="no platform module"):
        follow_display(types.ModuleType("pyautogui"), ":1")
