"""Find the game window and notice when it closes, moves, changes size or gets covered.

On X11 (Linux, Xvfb) :class:`X11Windows` asks the X server directly (python-xlib, which
pyautogui already depends on): window titles and classes, geometry in root coordinates, and the
stacking order for "is anything on top of it". On other systems there is no window backend;
there the bot relies on the board itself (:class:`bot.live.play` re-locates it and stops when it is
gone or elsewhere), which covers the same cases with less precise messages.

:class:`WindowWatch` holds what the window looked like when play started and turns any change
into a :class:`bot.errors.WindowError` with a clear message.

>>> from bot.live.capture import Region
>>> info = WindowInfo(7, "Mines", ("sgt-mines", "Sgt-mines"), Region(0, 0, 380, 442))
>>> info.matches(name="^Mines$", wm_class="sgt-mines")
True
>>> info.matches(name="^Mines$", wm_class="gnome-mines")
False
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.errors import WindowError
from bot.live.capture import Region
from bot.live.interrupts import signals_held


@dataclass(frozen=True)
class WindowInfo:
    """A mapped top-level window: id, title, WM_CLASS parts (res_name, res_class), region
    (root coordinates of its inside)."""

    id: int
    name: str
    wm_class: tuple[str, ...]
    region: Region

    def matches(self, name: str | None = None, wm_class: str | None = None) -> bool:
        """True if the title matches the regex ``name`` and the class equals ``wm_class``
        (case-insensitive; either may be None: not checked)."""
        if name is not None and not re.search(name, self.name):
            return False
        # res_name is often argv[0] ("/usr/games/xdemineur"): compare its base name
        parts = {os.path.basename(part).lower() for part in self.wm_class}
        return wm_class is None or wm_class.lower() in parts


class WindowCoveredError(WindowError):
    """The board is covered; ``windows`` are the windows on top of it."""

    def __init__(self, message: str, windows: Sequence[WindowInfo] = ()) -> None:
        super().__init__(message)
        self.windows = tuple(windows)


class WindowBackend(Protocol):
    """What the watch needs from a window system (tests pass a fake)."""

    def windows(self) -> list[WindowInfo]:
        """Mapped top-level windows, bottom of the stack first."""
        ...


class X11Windows:
    """Top-level windows of the X display ``display`` (default: ``$DISPLAY``)."""

    def __init__(self, display: str | None = None) -> None:
        try:
            from Xlib import X
            from Xlib.display import Display
        except ImportError as exc:  # pragma: no cover - python-xlib comes with pyautogui
            raise WindowError("python-xlib is needed to watch windows on X11") from exc
        name = display or os.environ.get("DISPLAY")
        if not name:
            raise WindowError("no DISPLAY: cannot look for windows")
        try:
            self._display = Display(name)
        except Exception as exc:
            raise WindowError(f"cannot connect to X display {name}: {exc}") from exc
        self._viewable = X.IsViewable
        self._root = self._display.screen().root

    def close(self) -> None:
        self._display.close()

    def _info(self, window: Any) -> WindowInfo | None:
        from Xlib.error import XError

        try:
            if window.get_attributes().map_state != self._viewable:
                return None
            geometry = window.get_geometry()
            origin = window.translate_coords(self._root, 0, 0)
            name = _text_property(window, "_NET_WM_NAME") or _text_property(window, "WM_NAME")
            wm_class = _text_property(window, "WM_CLASS").split("\0")
        except XError:
            return None  # the window went away while we looked at it
        # translate_coords gives the root's origin in window coordinates: negate it.
        region = Region(-origin.x, -origin.y, geometry.width, geometry.height)
        return WindowInfo(window.id, name, tuple(part for part in wm_class if part), region)

    def windows(self) -> list[WindowInfo]:
        from Xlib.error import XError

        # python-xlib: a Ctrl-C between a request and its reply would hang the next call
        with signals_held():
            try:
                children = self._root.query_tree().children  # bottom of the stack first
            except XError as exc:
                raise WindowError(f"cannot list windows: {exc}") from exc
            return [info for w in children if (info := self._info(w)) is not None]

    def resize(self, window_id: int, width: int, height: int) -> None:
        with signals_held():
            window = self._display.create_resource_object("window", window_id)
            window.configure(width=width, height=height)
            self._display.sync()

    def move(self, window_id: int, left: int, top: int) -> None:
        with signals_held():
            window = self._display.create_resource_object("window", window_id)
            window.configure(x=left, y=top)
            self._display.sync()


def _text_property(window: Any, atom_name: str) -> str:
    """A text property of ``window`` ("" if unset), decoded by hand: python-xlib's own
    ``get_wm_class`` fails on Latin-1 class names such as xdemineur's."""
    from Xlib import X

    display = window.display
    prop = window.get_full_property(display.get_atom(atom_name), X.AnyPropertyType)
    if prop is None:
        return ""
    value = prop.value
    if isinstance(value, str):
        return value
    raw = bytes(value)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def find_window(
    backend: WindowBackend,
    name: str | None = None,
    wm_class: str | None = None,
    exclude: Sequence[int] = (),
    timeout: float = 0.0,
) -> WindowInfo:
    """The top-most mapped window matching ``name``/``wm_class`` (not in ``exclude``), waiting
    up to ``timeout`` seconds for it to appear."""
    deadline = time.monotonic() + timeout
    while True:
        found = [w for w in backend.windows() if w.matches(name, wm_class) and w.id not in exclude]
        if found:
            return found[-1]
        if time.monotonic() >= deadline:
            what = " and ".join(
                part
                for part in (name and f"title /{name}/", wm_class and f"class {wm_class!r}")
                if part
            )
            raise WindowError(f"no window with {what or 'any title'} is open")
        time.sleep(0.05)


def covering_windows(stack: Sequence[WindowInfo], window_id: int, area: Region) -> list[WindowInfo]:
    """Windows above ``window_id`` in ``stack`` (bottom first) that overlap ``area``.

    >>> game = WindowInfo(1, "Mines", ("m",), Region(0, 0, 300, 300))
    >>> dialog = WindowInfo(2, "Really?", ("m",), Region(100, 100, 50, 50))
    >>> [w.name for w in covering_windows([game, dialog], 1, Region(0, 0, 300, 300))]
    ['Really?']
    >>> covering_windows([dialog, game], 1, Region(0, 0, 300, 300))
    []
    """
    ids = [w.id for w in stack]
    if window_id not in ids:
        return []
    above = stack[ids.index(window_id) + 1 :]
    return [w for w in above if w.region.intersects(area)]


class WindowWatch:
    """Raises :class:`WindowError` when the watched window is no longer as it was.

    ``area`` is the part that must stay visible (the board), in root coordinates; by default
    the whole window.
    """

    def __init__(
        self, backend: WindowBackend, window: WindowInfo, area: Region | None = None
    ) -> None:
        self.backend = backend
        self.window = window
        self.area = area or window.region
        #: Windows open when the watch began (a window opened later may be the game's dialog).
        self.initial = frozenset(w.id for w in backend.windows())

    def opened_beside(self) -> list[WindowInfo]:
        """Windows of the game's own class opened since the watch began, above the game
        window and beside the board (a dialog over the board is :class:`WindowCoveredError`).

        >>> game = WindowInfo(1, "Mines", ("mines",), Region(0, 0, 300, 300))
        >>> class Stack:
        ...     windows = lambda self: self.now
        >>> stack = Stack(); stack.now = [game]
        >>> watch = WindowWatch(stack, game, Region(10, 10, 100, 100))
        >>> stack.now = [game, WindowInfo(2, "Scores", ("mines",), Region(200, 200, 90, 90)),
        ...              WindowInfo(3, "Other", ("xterm",), Region(200, 0, 90, 90))]
        >>> [w.name for w in watch.opened_beside()]
        ['Scores']
        """
        stack = self.backend.windows()
        ids = [w.id for w in stack]
        if self.window.id not in ids:
            return []
        classes = {c.lower() for c in self.window.wm_class}
        return [
            w
            for w in stack[ids.index(self.window.id) + 1 :]
            if w.id not in self.initial
            and classes & {c.lower() for c in w.wm_class}
            and not w.region.intersects(self.area)
        ]

    def check(self) -> WindowInfo:
        stack = self.backend.windows()
        now = next((w for w in stack if w.id == self.window.id), None)
        title = self.window.name or f"window {self.window.id:#x}"
        if now is None:
            raise WindowError(f"the game window {title!r} was closed or hidden: stopping")
        was, is_ = self.window.region, now.region
        if (was.width, was.height) != (is_.width, is_.height):
            raise WindowError(
                f"the game window {title!r} changed size from {was.width}x{was.height} to "
                f"{is_.width}x{is_.height}: stopping (start again to re-locate the board)"
            )
        if (was.left, was.top) != (is_.left, is_.top):
            raise WindowError(
                f"the game window {title!r} moved from ({was.left}, {was.top}) to "
                f"({is_.left}, {is_.top}): stopping (start again to re-locate the board)"
            )
        covers = covering_windows(stack, self.window.id, self.area)
        if covers:
            names = ", ".join(repr(w.name or f"{w.id:#x}") for w in covers)
            raise WindowCoveredError(
                f"the board of {title!r} is covered by {names}: stopping", covers
            )
        return now
