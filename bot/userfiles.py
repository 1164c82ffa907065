"""Files and folders the user names: read, write, or a one-line error naming the path.

Every failure raises :class:`bot.errors.UserFileError` whose message starts with the path, so
the CLI prints one line and exits 2 instead of a traceback. Outputs are checked before the work
that produces them (:func:`check_image_output`, :func:`check_output_folder`): a game is not
played for a screenshot that cannot be saved.

>>> read_text("/no/such/board.txt", "board")
Traceback (most recent call last):
...
bot.errors.UserFileError: /no/such/board.txt: cannot read the board: No such file or directory
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from bot.errors import UserFileError

#: Picture formats offered in messages (OpenCV writes more; these are the ones worth naming).
IMAGE_FORMATS = ".png, .bmp or .jpg"


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def read_text(path: str | Path, what: str) -> str:
    """The UTF-8 text of ``path``; ``what`` names the file's role in the message.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     read_text(d, "board")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bot.errors.UserFileError: ...: is a folder; the board must be a file
    """
    path = Path(path)
    if path.is_dir():
        raise UserFileError(f"{path}: is a folder; the {what} must be a file")
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UserFileError(f"{path}: cannot read the {what}: {_reason(exc)}") from exc
    except UnicodeDecodeError as exc:
        byte = exc.object[exc.start]
        raise UserFileError(
            f"{path}: the {what} is not UTF-8 text (byte {exc.start} is {byte:#04x})"
        ) from exc


def read_board_file(path: str | Path) -> Any:
    """The :class:`solver.board.Board` in text file ``path``; every error names the file."""
    from solver.board import Board
    from solver.errors import BoardFormatError

    text = read_text(path, "board")
    try:
        return Board(text)
    except BoardFormatError as exc:
        raise BoardFormatError(f"{path}: {exc}") from exc


def read_image(path: str | Path, what: str = "picture") -> Any:
    """The picture at ``path`` as a BGR array."""
    import cv2

    path = Path(path)
    if path.is_dir():
        raise UserFileError(f"{path}: is a folder; the {what} must be a file")
    if not path.exists():
        raise UserFileError(f"{path}: no such {what}")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise UserFileError(f"{path}: not a {what} OpenCV can read")
    return image


def check_file_output(path: str | Path, what: str) -> Path:
    """``path`` if a file can be written there: not a folder, its folder made if missing, and
    writable (checked by opening it: an existing file is left as it is, a new one is removed)."""
    path = Path(path)
    if path.is_dir():
        raise UserFileError(f"{path}: is a folder; the {what} must be a file")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        existed = path.exists()
        with path.open("ab"):
            pass
        if not existed:
            path.unlink()
    except OSError as exc:
        raise UserFileError(f"{path}: cannot write the {what}: {_reason(exc)}") from exc
    return path


def check_image_output(path: str | Path, what: str = "picture") -> Path:
    """``path`` if a picture can be written there: a file name (not a folder) whose extension
    OpenCV writes, in a folder that exists or can be made and is writable.

    >>> check_image_output("board.txt", "overlay")
    Traceback (most recent call last):
    ...
    bot.errors.UserFileError: board.txt: cannot write the overlay as '.txt': use .png, .bmp or .jpg
    """
    import cv2

    path = Path(path)
    if path.is_dir():
        raise UserFileError(f"{path}: is a folder: give a file name for the {what}, e.g. out.png")
    if not path.suffix:
        raise UserFileError(
            f"{path}: no extension to choose the {what}'s format: use {IMAGE_FORMATS}"
        )
    if not cv2.haveImageWriter(str(path)):
        raise UserFileError(
            f"{path}: cannot write the {what} as {path.suffix!r}: use {IMAGE_FORMATS}"
        )
    return check_file_output(path, what)


def write_image(path: str | Path, image: Any, what: str = "picture", params: Any = ()) -> Path:
    """Write ``image`` to ``path``; an error if OpenCV wrote nothing."""
    import cv2

    path = check_image_output(path, what)
    try:
        written = cv2.imwrite(str(path), image, list(params))
    except cv2.error as exc:  # e.g. an image OpenCV cannot encode in that format
        raise UserFileError(f"{path}: cannot write the {what}: {exc.err}") from exc
    # OpenCV's result alone is not enough: it reports success when the bytes went nowhere
    # (a write error on a device such as /dev/full), so the file itself is checked.
    if not written or not path.is_file() or path.stat().st_size == 0:
        raise UserFileError(f"{path}: cannot write the {what}: nothing was written")
    return path


def write_text(path: str | Path, text: str, what: str) -> Path:
    """Write ``text`` (UTF-8) to ``path``."""
    path = Path(path)
    if path.is_dir():
        raise UserFileError(f"{path}: is a folder; the {what} must be a file")
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UserFileError(f"{path}: cannot write the {what}: {_reason(exc)}") from exc
    return path


def check_output_folder(path: str | Path, what: str) -> Path:
    """``path``, made if missing, if files can be written in it (an existing file is refused).

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile() as f:
    ...     check_output_folder(f.name, "game logs")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bot.errors.UserFileError: ...: is a file, not a folder for the game logs
    """
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise UserFileError(f"{path}: is a file, not a folder for the {what}")
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        raise UserFileError(f"{path}: cannot write the {what} there: {_reason(exc)}") from exc
    return path
