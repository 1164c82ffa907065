"""The recorded screenshots the shipped skins must read, shared by the reader's tests.

Every ``tests/fixtures/<skin>/NAME.png`` whose folder is named after a shipped skin is a case.
Other folders are material for other tests: games minebot ships no skin for (KMines, winemine,
xbomb: ``tune``), and shipped games at other cell sizes (``sgt-mines-sizes``,
``gnome-mines-sizes``: see their README; read by ``tests/test_sizes.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.paths import shipped_skins_dir

FIXTURES = Path(__file__).resolve().parent / "fixtures"
#: A shipped game's captures at other cell sizes live in ``<skin><SIZES>``.
SIZES = "-sizes"


def game_of_folder(folder: str) -> str:
    """The skin whose game drew a fixture folder's captures.

    >>> game_of_folder("sgt-mines-sizes"), game_of_folder("winmine")
    ('sgt-mines', 'winmine')
    """
    return folder.removesuffix(SIZES)


def shipped_skin_folders() -> set[str]:
    """Names of the shipped skins (folders of ``templates/`` with a ``skin.json``)."""
    return {p.parent.name for p in shipped_skins_dir().glob("*/skin.json")}


#: Every fixture of a shipped skin, sorted.
READER_CASES = sorted(
    p for p in FIXTURES.glob("*/*.png") if p.parent.name in shipped_skin_folders()
)


def reader_params() -> list:
    """:data:`READER_CASES` as pytest parameters named ``'<folder>/<stem>'``."""
    return [pytest.param(p, id=f"{p.parent.name}/{p.stem}") for p in READER_CASES]


#: Every capture of a shipped game at another cell size (``<skin>-sizes`` folders), sorted.
SIZES_CASES = sorted(
    p
    for p in FIXTURES.glob(f"*{SIZES}/*.png")
    if game_of_folder(p.parent.name) in shipped_skin_folders()
)
