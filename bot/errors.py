"""Errors raised on the screen side (capture, reading, mouse, windows, live play).

Every class derives from :class:`solver.errors.MinebotError`, so the CLI prints its message and
exits with status 2. Helpers add their classes here; nobody rewrites another's.
"""

from __future__ import annotations

from solver.errors import MinebotError

# --- live play: displays, programs, windows, mouse (bot/live/xvfb.py, programs.py, window.py,
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


# --- screen reading: skins, locating the board, classifying cells (bot/reading/skins.py, locate.py,
# classify.py, read.py) ---


class SkinFormatError(MinebotError):
    """A skin folder is malformed: the message names the file (skin.json or an image)."""


class UnknownSkinError(MinebotError):
    """No skin of that name in any skin folder."""


class BoardNotFoundError(MinebotError):
    """No board of any known skin was found in the picture."""


class BoardCutError(BoardNotFoundError):
    """Cells were found, but not a whole board: a side of it runs off the picture, is covered,
    or the lattice goes on beyond it (bot/reading/whole.py). The message says which side."""


class TwoBoardsError(BoardNotFoundError):
    """More than one whole board in the picture: the message says where each one is."""


class LowConfidenceError(MinebotError):
    """Some cells do not match any template well enough: the reader refuses to guess.

    ``cells`` lists their ``(x, y)`` positions.
    """

    def __init__(self, message: str, cells: tuple[tuple[int, int], ...] = ()) -> None:
        super().__init__(message)
        self.cells = cells


# --- tuning a new skin (bot/reading/lattice.py, bot/reading/tune*.py) ---


class LatticeError(MinebotError):
    """No board-like lattice of equal cells in a screenshot (or not a clear one)."""


class TuneError(MinebotError):
    """A skin cannot be learnt from the screenshots and labels given; says what to capture."""


# --- files and folders the user names on the command line (bot/userfiles.py) ---


class UserFileError(MinebotError):
    """A file or folder the user named cannot be read or written; the message names it."""
