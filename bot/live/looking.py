"""What the live loop needs to look at a game: its timing, the reader it uses, the errors that
stop it, and how two views of the board are compared (the board's crop, "did it move").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from bot.errors import MouseError, PlayError, ProgramError, WindowError
from bot.live.capture import Frame, Region

#: Errors that mean "stop now", as opposed to "this frame cannot be trusted" (re-read).
STOP_ERRORS = (MouseError, WindowError, ProgramError, PlayError)


class Unclear(Exception):
    """A reading that cannot be trusted yet (look again before acting)."""


class Screen(Protocol):
    def grab(self, region: Region | None = None) -> Frame: ...


@dataclass(frozen=True)
class Timing:
    """How the loop waits. ``quiet``: seconds the board must stay unchanged to count as settled;
    ``change_timeout``: seconds a click gets to show on screen; ``poll``: pause between grabs."""

    quiet: float = 0.03
    change_timeout: float = 1.5
    poll: float = 0.004
    reread_tries: int = 4
    settle_timeout: float = 5.0
    #: Seconds clicks get to show before they count as without effect (GNOME Mines on a
    #: loaded machine once took more than ``change_timeout`` to draw eleven opened cells).
    late_change_timeout: float = 8.0
    #: Seconds a message or animation over the board is waited out before the bot stops.
    cover_timeout: float = 12.0
    #: Seconds the same cells must stay unreadable (all else reading) to be taken for a class
    #: the skin lacks rather than something passing over the board (KMines' end message
    #: stays about 3 s).
    unknown_after: float = 4.0
    #: Pause between looks while waiting something out.
    cover_poll: float = 0.1
    #: Seconds something over the board may stay before the pointer passes over it and off the
    #: board again (and every as many seconds after): KMines keeps its end message for as long
    #: as it takes the pointer to be over it, which it can do with the pointer long gone.
    hover_after: float = 3.0


def grids_differ(a: Any, b: Any) -> bool:
    """True when two grids are not the same board in the same place: other dimensions, or an
    edge more than a quarter cell away (finding a board twice may differ by a pixel).

    >>> from types import SimpleNamespace as G
    >>> g = G(cols=30, rows=16, pitch_x=33.0, pitch_y=33.0, bounds=(25, 114, 1001, 631))
    >>> grids_differ(g, G(cols=30, rows=16, bounds=(26.2, 115, 1001.5, 631)))
    False
    >>> grids_differ(g, G(cols=29, rows=16, bounds=(25, 114, 968, 631)))
    True
    >>> grids_differ(g, G(cols=30, rows=16, bounds=(65, 114, 1041, 631)))
    True
    """
    if (a.cols, a.rows) != (b.cols, b.rows):
        return True
    tolerance = 0.25 * min(a.pitch_x, a.pitch_y)
    return any(abs(p - q) > tolerance for p, q in zip(a.bounds, b.bounds, strict=True))


def board_crop(image: np.ndarray, grid: Any) -> np.ndarray:
    """The part of ``image`` the board covers (what settling and change detection compare)."""
    left, top, right, bottom = (int(round(v)) for v in grid.bounds)
    h, w = image.shape[:2]
    return image[max(top, 0) : min(bottom, h), max(left, 0) : min(right, w)]


@dataclass(frozen=True)
class Reader:
    """The reading functions the loop uses (:mod:`bot.reading.read` by default): ``locate``
    finds the board, ``read`` reads it whole (or refuses), ``cells`` says what each cell looks
    like with the doubtful ones marked (:func:`bot.live.unclear.classify_view`), ``judge``
    tells a board's state (:func:`bot.reading.read.game_state`)."""

    locate: Callable[..., Any]
    read: Callable[..., Any]
    cells: Callable[..., Any] = field(default=None)  # type: ignore[assignment]
    judge: Callable[..., Any] = field(default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.cells is None:
            from bot.live.unclear import classify_view

            object.__setattr__(self, "cells", classify_view)
        if self.judge is None:
            from bot.reading.read import game_state

            object.__setattr__(self, "judge", game_state)

    @classmethod
    def default(cls) -> Reader:
        """:mod:`bot.reading.read`'s functions, reading with one
        :class:`~bot.reading.state.ReaderState` (a reader serves one window)."""
        from functools import partial

        from bot.reading.read import ReaderState, locate_board, read_frame

        return cls(locate_board, partial(read_frame, state=ReaderState()))


def settle(
    grab: Callable[[], Frame],
    grid: Any,
    before: np.ndarray | None,
    timing: Timing,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
) -> tuple[Frame, bool]:
    """Grab until the board area (``grid``'s, or the whole frame) stops changing for
    ``timing.quiet`` s; with ``before`` (the board area before a click), first wait up to
    ``timing.change_timeout`` s for it to differ. Returns the frame and whether it changed."""
    start = clock()
    changed = before is None
    last: np.ndarray | None = None
    quiet_since = start
    while True:
        frame = grab()
        crop = board_crop(frame.image, grid) if grid is not None else frame.image
        now = clock()
        if not changed:
            if before is None or crop.shape != before.shape or not np.array_equal(crop, before):
                changed = True
                last, quiet_since = crop, now
            elif now - start > timing.change_timeout:
                return frame, False
        elif last is None or crop.shape != last.shape or not np.array_equal(crop, last):
            last, quiet_since = crop, now
        if changed and now - quiet_since >= timing.quiet:
            return frame, True
        if now - start > timing.settle_timeout + timing.change_timeout:
            raise PlayError(
                f"the board did not stop changing for {timing.settle_timeout:.0f} s: stopping"
            )
        sleep(timing.poll)
