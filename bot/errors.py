"""Errors raised on the screen side (capture, reading, mouse, windows, live play).

Every class derives from :class:`solver.errors.MinebotError`, so the CLI prints its message and
exits with status 2. Helpers add their classes here; nobody rewrites another's.
"""

from __future__ import annotations

from solver.errors import MinebotError

# --- live play: displays, programs, windows, mouse (bot/xvfb.py, programs.py, window.py,
# mouse.py, play.py) ---


class DisplayError(MinebotError):
    """No usable display: Xvfb missing or not starting, or no screen to capture."""


class ProgramError(MinebotError):
    """A game program could not be started, or its window did not appear."""


class WindowError(MinebotError):
    """The game window closed, moved, changed size or was covered while playing."""


class MouseError(MinebotError):
    """A click was refused: outside the board, the pointer did not land, or the user took over."""


class PlayError(MinebotError):
    """Live play stopped on purpose: the screen stopped matching a board the bot can trust."""
