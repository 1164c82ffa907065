"""pyautogui follows a virtual display started after it was imported: the real pyautogui, two
real Xvfb screens of different sizes, real pointer moves (``bot.live.mouse.follow_display``)."""

from __future__ import annotations

import shutil

import pytest

from bot.live.mouse import Mouse, load_pyautogui
from bot.live.xvfb import VirtualDisplay


def test_pyautogui_follows_a_display_started_later():
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb)")
    with VirtualDisplay(size=(640, 480), first=310) as first:
        pyautogui = load_pyautogui()
        assert tuple(pyautogui.size()) == (640, 480), first.name
        with VirtualDisplay(size=(800, 600), first=310) as second:
            mouse = Mouse(load_pyautogui())
            assert mouse.size() == (800, 600), second.name
            mouse.move(700, 550)  # off a 640x480 screen: only the second display has it
            assert mouse.position() == (700, 550)
        mouse = Mouse(load_pyautogui())  # back on the first one
        assert mouse.size() == (640, 480)
