"""Attaching to a game already on the real screen: find the board, the window holding it, the
mouse mapping and where to park the pointer, and hand back a ready :class:`bot.live.play.Player`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from bot.errors import ProgramError, WindowError
from bot.live.capture import Frame, Region
from bot.live.looking import STOP_ERRORS, Reader, Timing
from bot.live.mouse import Mouse, MouseMapping
from bot.live.play import Player
from solver.errors import MinebotError


@dataclass
class Attached:
    """A board found on the real screen, ready to play: the player, the skin and the window."""

    player: Player
    skin: Any
    window: Any  # WindowInfo or None when no window system is available
    frame: Frame


def find_game_window(board_desktop: Region, program: Any = None) -> tuple[Any, Any]:
    """The top-most X11 window holding the board (of those the skin's ``program`` names by
    title or class, when it names any and one holds the board) and the window backend, or
    (None, None) where there is no X11 window system to ask (a game started by hand)."""
    import os
    import sys

    if not sys.platform.startswith("linux") or not os.environ.get("DISPLAY"):
        return None, None
    from bot.live.window import X11Windows

    try:
        backend = X11Windows()
    except WindowError:
        return None, None
    holders = [w for w in backend.windows() if w.region.contains(board_desktop)]
    if not holders:
        return None, backend
    if program is not None and (program.window_name or program.window_class):
        named = [w for w in holders if w.matches(program.window_name, program.window_class)]
        holders = named or holders
    return holders[-1], backend


def locate_when_drawn(
    capture: Any, region: Region | None, reader: Reader, skins: Any, timeout: float
) -> tuple[Frame, Any]:
    """Wait until ``region`` stops changing (a window just opened or resized draws in steps),
    then find the board; keep trying until ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    previous: np.ndarray | None = None
    while True:
        frame = capture.grab(region)
        drawn = previous is not None and np.array_equal(previous, frame.image)
        if drawn or time.monotonic() >= deadline:
            try:
                return frame, reader.locate(frame.image, skins)
            except STOP_ERRORS:
                raise
            except MinebotError:
                if time.monotonic() >= deadline:
                    raise
        previous = frame.image
        time.sleep(0.05)


def board_on_desktop(frame: Frame, grid: Any) -> Region:
    """The desktop rectangle the board ``grid`` of ``frame`` covers (at least a pixel wide)."""
    left, top, right, bottom = grid.bounds
    (dl, dt), (dr, db) = frame.to_desktop(left, top), frame.to_desktop(right, bottom)
    return Region(int(dl), int(dt), max(1, int(dr - dl)), max(1, int(db - dt)))


def attach(
    capture: Any,
    mouse: Mouse | None,
    *,
    skins: Sequence[Any] | None = None,
    window: Any = None,
    program: Any = None,
    reader: Reader | None = None,
    timeout: float = 5.0,
    **player_options: Any,
) -> Attached:
    """Find a board on the screen (any monitor, or inside ``window`` when given), the window
    holding it, the mouse mapping and where to park the pointer; return a ready :class:`Player`.

    ``program`` (a :class:`bot.live.programs.Program`, when the caller launched the game) parks the
    pointer before the first look; without it the skin's program.json is used when there is
    one. ``timeout`` is how long a window just opened may take to draw a board.
    """
    from bot.live.mouse import measure_mapping

    reader = reader or Reader.default()
    if window is not None and program is not None and mouse is not None:
        # Before the first look: the pointer off the board (hover highlight, pause quirks).
        mapping = measure_mapping(capture.monitors, mouse.size())
        mouse.move(*mapping.to_mouse(*program.park_point(window)))
    window, backend = _game_window(capture, window, reader, skins, timeout)
    region = window.region if window is not None else capture.monitors[0]
    frame, located = locate_when_drawn(capture, region, reader, skins, timeout)
    watch = _watch_board(backend, window, board_on_desktop(frame, located.grid))
    if program is None:
        program = _program_of(located.skin.name)
    park = None
    if program is not None:
        player_options.setdefault("first_click", program.first_click)
        player_options.setdefault("fallback_restart", program.restart)
        player_options.setdefault("dialogs", program.dialogs)
        if program.settle_quiet is not None:
            timing = player_options.get("timing", Timing())
            player_options["timing"] = replace(timing, quiet=program.settle_quiet)
        park = program.park_point(window) if window is not None else None
        if program.pointer_inside and park is None:
            raise ProgramError(
                f'the program.json of {program.skin} says "pointer_inside": the game needs '
                "the pointer kept in its window, and no window holding the board was found"
            )
    mapping = measure_mapping(capture.monitors, mouse.size()) if mouse else MouseMapping()
    player = Player(
        capture,
        region,
        mouse,
        mapping,
        reader=reader,
        located=located,
        skins=[located.skin],
        watch=watch,
        park=park,
        **player_options,
    )
    return Attached(player, located.skin, window, frame)


def _game_window(
    capture: Any, window: Any, reader: Reader, skins: Any, timeout: float
) -> tuple[Any, Any]:
    """The game's window (the one given, else the one holding the board found on the
    desktop) and the window backend; (None, None) without a window system."""
    if window is not None:
        from bot.live.window import X11Windows

        return window, X11Windows()
    desktop, located = locate_when_drawn(capture, None, reader, skins, timeout)
    program = _program_of(located.skin.name)
    return find_game_window(board_on_desktop(desktop, located.grid), program)


def _watch_board(backend: Any, window: Any, board: Region) -> Any:
    """A watch on ``window`` and the ``board`` area in it (checked once now: a window covered
    already by another program is said before anything else; one of the game's own, a dialog
    left open, is the player's to dismiss), or None without a window system."""
    if window is None or backend is None:
        return None
    from bot.live.window import WindowCoveredError, WindowWatch

    watch = WindowWatch(backend, window, board)
    try:
        watch.check()
    except WindowCoveredError as exc:
        ours = {c.lower() for c in window.wm_class}
        if not exc.windows or any(not ours & {c.lower() for c in w.wm_class} for w in exc.windows):
            raise
    return watch


def _program_of(skin: str) -> Any:
    """The skin's program description (:class:`bot.live.programs.Program`), None without one (then
    the pointer stays where the clicks put it and the skin alone says how to restart)."""
    from bot.live.programs import load_program

    try:
        return load_program(skin)
    except ProgramError:
        return None
