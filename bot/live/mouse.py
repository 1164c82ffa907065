"""Clicks with pyautogui, at the right place, only inside the located board.

Three coordinate spaces meet here:

- frame pixels: where the reader found the cells (``grid.cell_center``);
- desktop coordinates: mss' monitor rectangles (:class:`bot.live.capture.Region`); a frame knows
  which region it shows and at what scale (2 frame pixels per point on a Retina Mac);
- mouse coordinates: what pyautogui moves to. They match desktop coordinates on Linux, on
  Windows (both mss and pyautogui make the process DPI-aware) and on macOS (both in points), but
  :func:`measure_mapping` measures the factor from the monitor list and ``pyautogui.size()``
  instead of assuming 1:1, so a DPI-unaware setup (125% scaling) is mapped right too.

Both desktop and mouse coordinates put (0, 0) at the primary monitor's top-left corner, so a
monitor left of or above the primary has negative coordinates in both.

>>> from bot.live.capture import Region
>>> mapping = measure_mapping([Region(0, 0, 2400, 1350)], mouse_size=(1920, 1080))
>>> mapping.to_mouse(1200, 675)
(960, 540)

pyautogui's failsafe (throw the pointer into a screen corner to stop) stays on.
"""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

from bot.errors import MouseError
from bot.live.capture import Frame, Region
from bot.live.interrupts import signals_held

#: Relative tolerance when comparing the mouse's and a monitor's aspect.
_ASPECT_TOLERANCE = 0.01


class FailSafeError(MouseError):
    """The user threw the pointer into a screen corner: pyautogui's failsafe stopped the bot."""


@dataclass(frozen=True)
class MouseMapping:
    """Desktop (mss) coordinates to mouse coordinates: ``mouse = desktop * factor``, per axis.

    >>> MouseMapping(0.5, 0.5).to_mouse(-300, 101)
    (-150, 50)
    >>> MouseMapping(0.5, 0.5).to_desktop(-150, 50)
    (-300.0, 100.0)
    """

    factor_x: float = 1.0
    factor_y: float = 1.0

    def to_mouse(self, dx: float, dy: float) -> tuple[int, int]:
        # floor, not round: a cell centre at .5 stays inside the cell on either side
        return int(dx * self.factor_x // 1), int(dy * self.factor_y // 1)

    def to_desktop(self, mx: float, my: float) -> tuple[float, float]:
        return mx / self.factor_x, my / self.factor_y


def measure_mapping(monitors: Sequence[Region], mouse_size: tuple[int, int]) -> MouseMapping:
    """The mapping, from mss' monitors and the screen size pyautogui reports.

    pyautogui's ``size()`` describes the rectangle at the mouse origin: the primary monitor on
    Windows and macOS, the whole X screen on Linux. mss lists that rectangle too, at (0, 0) in
    its own units; the ratio of the two sizes is the factor. A candidate must give the same
    factor on both axes; the one nearest 1:1 wins (an X screen and its first monitor both sit
    at (0, 0)).

    Retina Mac (mss and pyautogui both in points; frames are 2x, see ``Frame.scale``):

    >>> measure_mapping([Region(0, 0, 1440, 900), Region(0, 0, 1440, 900)], (1440, 900))
    MouseMapping(factor_x=1.0, factor_y=1.0)

    A monitor left of the primary one (Windows, 1:1):

    >>> m = measure_mapping(
    ...     [Region(-1920, 0, 3840, 1080), Region(0, 0, 1920, 1080), Region(-1920, 0, 1920, 1080)],
    ...     (1920, 1080))
    >>> m.to_mouse(-1900, 10)
    (-1900, 10)
    """
    mw, mh = mouse_size
    if mw <= 0 or mh <= 0:
        raise MouseError(f"the mouse reports an empty screen ({mw}x{mh})")
    best: MouseMapping | None = None
    for region in monitors:
        if region.left != 0 or region.top != 0 or region.width <= 0 or region.height <= 0:
            continue
        fx, fy = mw / region.width, mh / region.height
        if abs(fx - fy) > _ASPECT_TOLERANCE * max(fx, fy):
            continue
        candidate = MouseMapping(fx, fy)
        if best is None or abs(fx - 1.0) < abs(best.factor_x - 1.0):
            best = candidate
    if best is None:
        listed = ", ".join(f"{r.width}x{r.height}{r.left:+d}{r.top:+d}" for r in monitors)
        raise MouseError(
            f"cannot map screen pixels to the mouse: pyautogui reports a {mw}x{mh} screen but "
            f"no monitor at (0, 0) has that shape (monitors: {listed})"
        )
    return best


def frame_to_mouse(frame: Frame, mapping: MouseMapping, fx: float, fy: float) -> tuple[int, int]:
    """Mouse coordinates of frame pixel position ``(fx, fy)``.

    >>> import numpy as np
    >>> retina = Frame(np.zeros((1800, 2880, 3), np.uint8), Region(0, 0, 1440, 900))
    >>> frame_to_mouse(retina, MouseMapping(), 2000.0, 1000.0)
    (1000, 500)
    """
    return mapping.to_mouse(*frame.to_desktop(fx, fy))


class PointerBackend(Protocol):
    """What :class:`Mouse` needs from pyautogui (tests pass a fake)."""

    FAILSAFE: bool

    def position(self) -> Any: ...
    def size(self) -> Any: ...
    def moveTo(self, x: int, y: int) -> None: ...  # noqa: N802 (pyautogui's name)
    def mouseDown(self, button: str = ...) -> None: ...  # noqa: N802
    def mouseUp(self, button: str = ...) -> None: ...  # noqa: N802
    def press(self, key: str) -> None: ...


def no_xauthority_file(env: MutableMapping[str, str] | None = None) -> str | None:
    """Point ``XAUTHORITY`` at an empty file when there is no Xauthority file at all; the
    file's path then, else None.

    python-xlib refuses to connect when ``~/.Xauthority`` (or ``$XAUTHORITY``) does not exist,
    even to a server that asks for no cookie (an ``Xvfb -ac`` started by hand, a bare
    container): "pyautogui cannot start: ~/.Xauthority: No such file". An empty file lets it
    connect where no cookie is needed; a server that needs one still refuses, with its error.

    >>> import tempfile
    >>> home = tempfile.mkdtemp(); env = {"HOME": home}
    >>> path = no_xauthority_file(env)
    >>> env["XAUTHORITY"] == path and os.path.getsize(path) == 0
    True
    >>> no_xauthority_file(env) is None  # there is one now
    True
    """
    env = os.environ if env is None else env
    given = env.get("XAUTHORITY") or os.path.join(env.get("HOME", "~"), ".Xauthority")
    if os.path.exists(os.path.expanduser(given)):
        return None
    fd, path = tempfile.mkstemp(prefix="minebot-", suffix=".Xauthority")
    os.close(fd)
    env["XAUTHORITY"] = path
    return path


def load_pyautogui() -> Any:
    """pyautogui, connected to the current ``DISPLAY`` (X11), failsafe on, no built-in pauses.

    On Windows and macOS pyautogui needs no display and is used as imported.
    """
    if sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
        raise MouseError("no DISPLAY: there is no X screen for the mouse to act on")
    if sys.platform.startswith("linux"):
        no_xauthority_file()
    try:
        import pyautogui
    except Exception as exc:  # Xlib raises its own errors on a bad DISPLAY/XAUTHORITY
        raise MouseError(f"pyautogui cannot start: {exc}") from exc
    if sys.platform.startswith("linux"):
        follow_display(pyautogui, os.environ["DISPLAY"])
    pyautogui.FAILSAFE = True
    # The bot waits for the screen to settle after each click instead of a fixed pause.
    pyautogui.PAUSE = 0.0
    return pyautogui


def follow_display(
    pyautogui: Any,
    display: str,
    connect: Callable[[str], Any] | None = None,
    reload: Callable[[ModuleType], Any] = importlib.reload,
) -> None:
    """Make pyautogui's X11 layer act on X display ``display`` (the current ``DISPLAY``).

    pyautogui has no public way to change displays: its X11 module connects to ``DISPLAY``
    once, when imported, and a virtual display started later in the same process (the demo,
    the tests) would get no events. Where pyautogui keeps that connection as pyautogui 0.9
    does (``platformModule._display``, a private name: the only handle there is), a connection
    to another display is replaced with ``connect(display)``. A pyautogui laid out otherwise
    gets its platform module re-imported (``reload``), which connects to ``DISPLAY`` the way
    its first import did.
    """
    platform = getattr(pyautogui, "platformModule", None)
    if platform is None:
        raise MouseError("pyautogui has no platform module: cannot point it at the display")
    connection = getattr(platform, "_display", None)
    name = getattr(connection, "get_display_name", None)
    if callable(name):
        if name() != display:
            if connect is None:
                from Xlib.display import Display

                connect = Display
            try:
                platform._display = connect(display)
            except Exception as exc:  # Xlib's own errors (no server, bad cookie)
                raise MouseError(f"pyautogui cannot connect to display {display}: {exc}") from exc
        return
    try:  # the fallback: no connection where pyautogui 0.9 keeps it
        reload(platform)
    except Exception as exc:
        raise MouseError(f"pyautogui cannot connect to display {display}: {exc}") from exc


class Mouse:
    """Pointer moves and clicks in mouse coordinates, each one checked.

    - The failsafe is forced on; when it fires, :class:`FailSafeError` says so.
    - After a move the pointer must be where it was sent (a mapping or clamping error shows
      here, before anything is pressed).
    - If the pointer is not where the bot left it, a person is using the mouse: stop.
    """

    def __init__(self, backend: Any = None) -> None:
        self.backend = backend if backend is not None else load_pyautogui()
        self.backend.FAILSAFE = True
        self._failsafe_types: tuple[type[BaseException], ...] = tuple(
            t for t in (getattr(self.backend, "FailSafeException", None),) if isinstance(t, type)
        )
        self._left_at: tuple[int, int] | None = None

    def position(self) -> tuple[int, int]:
        with signals_held():
            x, y = self.backend.position()
        return int(x), int(y)

    def size(self) -> tuple[int, int]:
        with signals_held():
            w, h = self.backend.size()
        return int(w), int(h)

    def _check_not_taken_over(self) -> None:
        if self._left_at is not None and self.position() != self._left_at:
            raise MouseError(
                f"the pointer moved from {self._left_at} to {self.position()} by itself: "
                "someone is using the mouse, stopping"
            )

    def _failsafe(self, exc: BaseException) -> FailSafeError:
        return FailSafeError("stopped by pyautogui's failsafe (the pointer is in a screen corner)")

    def move(self, mx: int, my: int) -> None:
        """Move the pointer to ``(mx, my)`` and check that it got there."""
        if not self.backend.FAILSAFE:
            raise MouseError("pyautogui's failsafe was switched off: refusing to move the mouse")
        self._check_not_taken_over()
        try:
            with signals_held():
                self.backend.moveTo(mx, my)
        except self._failsafe_types as exc:
            raise self._failsafe(exc) from exc
        landed = self.position()
        if landed != (mx, my) and landed in getattr(self.backend, "FAILSAFE_POINTS", ()):
            raise self._failsafe(RuntimeError(f"pointer thrown to {landed}"))
        if landed != (mx, my):
            raise MouseError(
                f"the pointer landed at {landed}, not at {(mx, my)}: screen and mouse "
                "coordinates do not match, nothing clicked"
            )
        self._left_at = landed

    def click(self, mx: int, my: int, button: str = "left") -> None:
        """Move to ``(mx, my)`` and press and release ``button`` there."""
        self.move(mx, my)
        # A click is whole: a Ctrl-C that comes during it is raised after the release.
        with signals_held():
            try:
                self.backend.mouseDown(button=button)
            except self._failsafe_types as exc:  # checked before pressing: nothing is held
                raise self._failsafe(exc) from exc
            finally:
                # Even on the failsafe between the two, never leave a button held down.
                self._release(button)
        if self.position() != (mx, my):
            # The person moved the pointer during the click: it may have landed elsewhere.
            raise MouseError("the pointer moved during a click: someone is using the mouse")

    def _release(self, button: str) -> None:
        try:
            self.backend.mouseUp(button=button)
        except self._failsafe_types:
            # pyautogui checks the failsafe before releasing too. A release only lets go of
            # the button, and a button left held would drag whatever the user does next: so
            # release with the check off for this one call, and on again at once.
            self.backend.FAILSAFE = False
            try:
                self.backend.mouseUp(button=button)
            finally:
                self.backend.FAILSAFE = True

    def press(self, key: str) -> None:
        """Press a key, or a combination written with ``+`` (``"ctrl+n"``)."""
        keys = [k.strip() for k in key.split("+")] if len(key) > 1 else [key]
        try:
            with signals_held():
                if len(keys) > 1:
                    self.backend.hotkey(*keys)
                else:
                    self.backend.press(keys[0])
        except self._failsafe_types as exc:
            raise self._failsafe(exc) from exc


class BoardMouse:
    """Clicks on cells of one located board; refuses anything outside it.

    ``frame`` is the frame the grid was found in (it knows its desktop region and scale),
    ``grid`` is the reader's grid (``cell_center``, ``bounds``, ``cols``, ``rows``).
    """

    def __init__(self, mouse: Mouse, mapping: MouseMapping, frame: Frame, grid: Any) -> None:
        self.mouse = mouse
        self.mapping = mapping
        self.frame = frame
        self.grid = grid

    def cell_point(self, x: int, y: int) -> tuple[int, int]:
        """Mouse coordinates of cell ``(x, y)``'s centre, checked to lie inside the board."""
        if not (0 <= x < self.grid.cols and 0 <= y < self.grid.rows):
            raise MouseError(
                f"cell ({x}, {y}) is outside the {self.grid.cols}x{self.grid.rows} board: "
                "nothing clicked"
            )
        fx, fy = self.grid.cell_center(x, y)
        point = frame_to_mouse(self.frame, self.mapping, fx, fy)
        # Map the mouse point back: it must fall inside the cell's own rectangle of the frame.
        back = self.frame.to_frame(*self.mapping.to_desktop(*point))
        left, top, width, height = self.grid.cell_rect(x, y)
        if not (left <= back[0] < left + width and top <= back[1] < top + height):
            raise MouseError(
                f"cell ({x}, {y}) maps to mouse {point}, which lands outside the cell: "
                "nothing clicked"
            )
        return point

    def click_cell(self, x: int, y: int, button: str = "left") -> None:
        self.mouse.click(*self.cell_point(x, y), button=button)

    def click_frame_point(self, fx: float, fy: float, button: str = "left") -> None:
        """Click a point of the frame (a face or button from the skin's metadata)."""
        h, w = self.frame.image.shape[:2]
        if not (0 <= fx < w and 0 <= fy < h):
            raise MouseError(f"({fx}, {fy}) is outside the captured window: nothing clicked")
        self.mouse.click(*frame_to_mouse(self.frame, self.mapping, fx, fy), button=button)

    def hover_cell(self, x: int, y: int) -> None:
        """Move the pointer (no click) over cell ``(x, y)``."""
        self.mouse.move(*self.cell_point(x, y))

    def off_board(self) -> tuple[float, float] | None:
        """A frame point half a cell off the board (above, below, left or right of its middle,
        the first inside the frame), None when the board fills the frame."""
        left, top, right, bottom = self.grid.bounds
        h, w = self.frame.image.shape[:2]
        dx, dy = (right - left) / self.grid.cols / 2, (bottom - top) / self.grid.rows / 2
        cx, cy = (left + right) / 2, (top + bottom) / 2
        for fx, fy in ((cx, top - dy), (cx, bottom + dy), (left - dx, cy), (right + dx, cy)):
            if 0 <= fx < w and 0 <= fy < h:
                return fx, fy
        return None

    def park(self, fx: float, fy: float) -> None:
        """Move the pointer (no click) to a frame point, e.g. off the board."""
        self.mouse.move(*frame_to_mouse(self.frame, self.mapping, fx, fy))
