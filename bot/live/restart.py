"""Starting the next game: the way the skin (or the launcher's program.json) says.

A restart is a key (``{"key": "n"}``), a click placed relative to the board
(``{"click": {"x_fraction": 0.5, "y_offset": -40}}``, see :func:`restart_point`) or a click on
a button found by its picture (``{"button": "restart.png"}``, see :func:`find_button`).
:func:`restart_from_skin` is what :class:`bot.live.play.Player` calls between games.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from bot.errors import PlayError
from bot.live.capture import Frame
from bot.live.looking import Timing, board_crop
from bot.live.mouse import BoardMouse, Mouse
from bot.live.unclear import GameAbandoned


class Player(Protocol):
    """What a restart needs of the player (:class:`bot.live.play.Player` is one): the board,
    the mouse, the window check, looking and reading."""

    located: Any
    mouse: Mouse | None
    fallback_restart: dict[str, Any] | None
    #: The game's dialogs (:class:`bot.live.dialogs.DialogKeeper`): ``worked`` lists those closed.
    dialog_keeper: Any
    timing: Timing
    last_restart: float | None
    clock: Callable[[], float]
    sleep: Callable[[float], None]
    out: Callable[[str], None]

    def check_window(self) -> None: ...

    def park_pointer(self) -> None: ...

    def board_mouse(self, frame: Frame) -> BoardMouse: ...

    def settle(self, before: np.ndarray | None = None) -> tuple[Frame, bool]: ...

    def read(
        self, frame: Frame, previous: Any = None, want_plan: bool = True
    ) -> tuple[Frame, Any, Any]: ...


def restart_point(spec: dict[str, Any], grid: Any, scale: float) -> tuple[float, float]:
    """The frame point of a restart click described relative to the board: fractions of the
    board's width/height plus offsets in skin pixels (times the located scale), or in screen
    pixels with ``"units": "pixels"``.

    >>> class G: bounds = (16, 81, 646, 417)
    >>> restart_point({"x_fraction": 0.5, "y_offset": -40}, G(), 1.0)
    (331.0, 41.0)
    >>> restart_point({"x_fraction": 1, "x_offset": 100, "units": "pixels"}, G(), 2.0)
    (746.0, 81.0)
    """
    left, top, right, bottom = grid.bounds
    x = left + float(spec.get("x_fraction", 0.0)) * (right - left)
    y = top + float(spec.get("y_fraction", 0.0)) * (bottom - top)
    dx, dy = float(spec.get("x_offset", 0.0)), float(spec.get("y_offset", 0.0))
    if spec.get("units") == "pixels":
        scale = 1.0  # a widget that does not grow with the cells (a toolkit button)
    return x + dx * scale, y + dy * scale


def find_button(
    image: np.ndarray, button: np.ndarray, threshold: float = 0.05
) -> tuple[float, float]:
    """Centre (frame pixels) of the best match of the picture ``button`` in ``image``.

    >>> img = np.zeros((40, 60, 3), np.uint8); img[10:20, 30:50] = (0, 0, 255)
    >>> img[12:14, 35:45] = 255
    >>> find_button(img, img[8:22, 28:52].copy())
    (40.0, 15.0)
    """
    import cv2

    bh, bw = button.shape[:2]
    if image.shape[0] < bh or image.shape[1] < bw:
        raise PlayError("the restart button's picture is larger than the window")
    scores = cv2.matchTemplate(image, button, cv2.TM_SQDIFF_NORMED)
    best, _, (x, y), _ = cv2.minMaxLoc(scores)
    if best > threshold:
        raise PlayError(f"the restart button is not on screen (best match {best:.3f})")
    return x + bw / 2, y + bh / 2


def restart_spec(player: Player) -> tuple[dict[str, Any], Path | None]:
    """How to restart: the skin's ``"restart"`` (skin.json), else the launcher's own
    (``"restart"`` in program.json); with the folder a ``"button"`` picture is in."""
    skin = player.located.skin
    spec = dict(skin.meta.get("restart", {}) or {})
    if any(k in spec for k in ("key", "click", "button")):
        return spec, getattr(skin, "folder", None)
    if player.fallback_restart:
        return dict(player.fallback_restart), getattr(skin, "folder", None)
    return spec, None


def restart_from_skin(player: Player, frame: Frame, reading: Any) -> None:
    """Start a new game the way the metadata says (see :func:`restart_spec`): a key or key
    combination (``{"key": "n"}``, ``{"key": "ctrl+n"}``), a click relative to the board
    (``{"click": {"x_fraction": 0.5, "y_offset": -40}}``) or a click on a button found by its
    picture (``{"button": "restart.png"}``); then wait until the board has changed and reads as
    a game in play. ``"min_interval"``: the fewest seconds between two restarts."""
    spec, folder = restart_spec(player)
    if player.mouse is None:
        raise PlayError("cannot restart the game without a mouse")
    before = board_crop(frame.image, player.located.grid)
    apart = float(spec.get("min_interval", 0.0))
    if apart and player.last_restart is not None:
        # Games that deal their layout from the clock's seconds deal the same board again
        # when restarted within the same second.
        wait = player.last_restart + apart - player.clock()
        if wait > 0:
            player.sleep(wait)
    player.last_restart = player.clock()
    for attempt in (1, 2):
        player.check_window()
        closed = len(player.dialog_keeper.worked)
        if "key" in spec:
            player.park_pointer()  # focus follows the pointer on a bare X server: keep it inside
            player.mouse.press(str(spec["key"]))
        elif "click" in spec or "button" in spec:
            fx, fy = restart_click_point(player, frame, spec, folder)
            player.board_mouse(frame).click_frame_point(fx, fy)
            player.park_pointer()
        else:
            raise PlayError(
                f"skin {player.located.skin.name!r} does not say how to restart a game "
                '(skin.json needs a "restart" with a "key", a "click" or a "button")'
            )
        try:
            wait_for_new_game(player, before, closed)
            return
        except PlayError as exc:
            # A click or key the game let pass (KMines opening its "High Scores" dialog just
            # after the win was read, or a message fading out, took the board's change for a
            # restart): once more.
            if attempt == 2:
                raise
            player.out(f"{exc}: restarting again")
            frame, _ = player.settle()
            before = board_crop(frame.image, player.located.grid)


def restart_click_point(
    player: Player, frame: Frame, spec: dict[str, Any], folder: Path | None
) -> tuple[float, float]:
    """The frame point to click for a ``"click"`` or ``"button"`` restart."""
    located = player.located
    if "click" in spec:
        return restart_point(spec["click"], located.grid, float(getattr(located, "scale", 1.0)))
    import cv2

    path = (folder or Path(".")) / str(spec["button"])
    picture = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if picture is None:
        raise PlayError(f"{path}: cannot read the restart button's picture")
    return find_button(frame.image, picture)


def wait_for_new_game(player: Player, before: np.ndarray, closed: int | None = None) -> None:
    """Wait until the board differs from ``before`` (its picture when the restart was asked
    for) and reads as a game in play; stop with :class:`PlayError` if it does not.

    ``closed``: how many of the game's windows had been closed (``dialog_keeper.worked``) when
    the restart was asked for. A window the game opened since then took the restart's key or
    click (KMines opens "High Scores" a moment after the winning click, and a click on "New"
    made before it shows is lost): it is closed and :class:`PlayError` raised at once, for
    the caller to restart again, instead of waiting for a game that is not coming."""
    name = player.located.skin.name
    new, changed = player.settle(before)
    if not changed:
        raise PlayError(f"the {name} game did not restart: the board did not change")
    if closed is not None:
        player.check_window()
        opened = player.dialog_keeper.worked[closed:]
        if opened:
            raise PlayError(
                f"the {name} game did not restart: its window {opened[0]!r} took the restart"
            )
    state = "not a game in play"
    for _ in range(player.timing.reread_tries):
        try:
            new, reading, plan = player.read(new, want_plan=False)
        except GameAbandoned as exc:
            # The old board again (a confirmation the game asked for was turned down): its
            # unknown cells are no reason to stop the run uncounted; the restart failed.
            state = f"the old board, {exc}"
        else:
            if plan is not None:
                return
            state = reading.state
        new, _ = player.settle(board_crop(new.image, player.located.grid))
    raise PlayError(f"the {name} game did not restart: still {state}")
