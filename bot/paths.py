"""Where minebot's files live: the skins and data it ships, and the user's own skins.

The one place that answers it. Shipped files are package resources found with
:mod:`importlib.resources`: an installed wheel carries the repository's top-level ``templates/``
as ``bot/templates/`` (pyproject's ``package-dir``) and ``bot/data/`` as it is. In a source
checkout (or an editable install) ``templates/`` sits next to the ``bot`` package instead, and
the same functions answer that folder.

The user's skins go in the platform's per-user data folder (:mod:`platformdirs`), so a skin
learnt by ``minebot tune`` is found again without any setting.

>>> (shipped_skins_dir() / "winmine" / "skin.json").is_file()
True
>>> data_file("super-board-of-death.txt").is_file()
True
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

#: The package whose resources hold the shipped files.
PACKAGE = "bot"
#: The shipped skins: a folder per skin, inside the package once installed.
SKINS_FOLDER = "templates"
#: Data files the commands and tests use (benchmark boards).
DATA_FOLDER = "data"
#: The application's name in the platform's per-user folders.
APP_NAME = "minebot"


def package_root() -> Path:
    """The ``bot`` package's folder, as :mod:`importlib.resources` finds it.

    minebot reads its images with OpenCV, which needs real files: a package imported from a
    zip archive is refused with a message.
    """
    root = resources.files(PACKAGE)
    if not isinstance(root, Path):
        raise RuntimeError(
            f"minebot must be installed as files, not inside an archive ({root}): "
            "pip install the wheel"
        )
    return root


def shipped_skins_dir() -> Path:
    """The folder of the skins minebot ships: ``bot/templates`` when installed from a wheel,
    else the checkout's top-level ``templates/`` beside the ``bot`` package."""
    root = package_root()
    installed = root / SKINS_FOLDER
    return installed if installed.is_dir() else root.parent / SKINS_FOLDER


def data_file(name: str) -> Path:
    """A file shipped in ``bot/data/``, e.g. ``data_file("super-board-of-death.txt")``."""
    return package_root() / DATA_FOLDER / name


def user_data_dir() -> Path:
    """minebot's folder in the platform's per-user data place, chosen by ``sys.platform`` at
    call time: ``$XDG_DATA_HOME/minebot`` (default ``~/.local/share/minebot``) on Linux and other
    Unix systems, ``~/Library/Application Support/minebot`` on macOS,
    ``%LOCALAPPDATA%\\minebot`` on Windows.

    >>> user_data_dir().name
    'minebot'
    """
    from platformdirs.macos import MacOS
    from platformdirs.unix import Unix
    from platformdirs.windows import Windows

    kind: type[MacOS | Unix | Windows]
    if sys.platform == "win32":
        kind = Windows
    elif sys.platform == "darwin":
        kind = MacOS
    else:
        kind = Unix
    return Path(kind(APP_NAME, appauthor=False).user_data_dir)


def user_skins_dir() -> Path:
    """Where ``minebot tune`` saves a skin and where the reader looks for the user's skins."""
    return user_data_dir() / "skins"
