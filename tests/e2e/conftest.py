"""Fixtures for the end-to-end tests: real games on the session's virtual display."""

from __future__ import annotations

import shutil
from contextlib import contextmanager

import pytest


def need(program: str) -> None:
    if shutil.which(program, path="/usr/games:/usr/bin:/usr/local/bin") is None:
        pytest.skip(f"{program} is not installed")


@pytest.fixture
def launch(virtual_display):
    """``with launch("xdemineur", 30, 16, 99) as game:`` runs a real game on the display."""
    from bot.live.programs import RunningGame, load_program

    @contextmanager
    def run(skin: str, cols: int, rows: int, mines: int):
        program = load_program(skin)
        need(program.command[0])
        with RunningGame(program, cols, rows, mines, virtual_display.env) as game:
            yield game

    return run


@pytest.fixture
def capture(virtual_display):
    from bot.live.capture import ScreenCapture

    with ScreenCapture() as cap:
        yield cap


@pytest.fixture
def mouse(virtual_display):
    from bot.live.mouse import Mouse

    return Mouse()
