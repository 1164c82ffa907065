"""Classic-look clones: boards drawn like Windows Minesweeper but with other greys or another
digit font. The `winmine` skin reads them exactly or refuses them, never misreads. Boards are
made from the real tiles in ../shared/real-screens (Minesweeper Clone, minesweeperonline.com),
with their greys changed or their digits redrawn with OpenCV's font on the real open tile."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.errors import LowConfidenceError
from bot.reading.grid import Grid
from bot.reading.read import Located, ReaderState, read_frame
from bot.reading.skins import find_skin

#: ../shared/real-screens beside the repository (where CI and fresh-machine put shared/).
REAL = Path(__file__).resolve().parents[2] / "shared" / "real-screens"
pytestmark = pytest.mark.skipif(not REAL.is_dir(), reason="needs ../shared/real-screens")

#: Board text and the real tile of each character (dexter-*-9 is the covered tile): every
#: number among covered cells, the 0 among numbers, as a game could show it (the reader refuses
#: a number with fewer cells round it that could hold a mine than it says, and a 0 beside a
#: covered cell).
TEXT = ["99999999999", "98979695949", "99999999999", "93929199921", "99999999910"]
BOARD = "\n".join(row.replace("9", ".") for row in TEXT)


def _tiles(folder: str, prefix: str) -> dict[str, np.ndarray]:
    return {c: cv2.imread(str(REAL / folder / f"{prefix}-{c}.png")) for c in "0123456789"}


def _board(tiles: dict[str, np.ndarray]) -> np.ndarray:
    rows = [np.hstack([tiles[c] for c in row]) for row in TEXT]
    frame = np.full((len(TEXT) * 16 + 40, len(TEXT[0]) * 16 + 40, 3), 192, np.uint8)
    frame[20:-20, 20:-20] = np.vstack(rows)
    return frame


def _located() -> Located:
    grid = Grid(left=20.0, top=20.0, pitch_x=16.0, pitch_y=16.0, cols=len(TEXT[0]), rows=len(TEXT))
    return Located(skin=find_skin("winmine"), grid=grid, scale=1.0)


def _regrey(tiles: dict[str, np.ndarray], grey: int) -> dict[str, np.ndarray]:
    """Tiles with their face grey (192) drawn as ``grey`` instead."""
    out = {}
    for c, tile in tiles.items():
        t = tile.copy()
        t[(tile == 192).all(axis=2)] = grey
        out[c] = t
    return out


def _other_font(tiles: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Digits redrawn with OpenCV's Hershey font, in the classic colours, on the real open tile."""
    colours = {"1": (255, 0, 0), "2": (0, 128, 0), "3": (0, 0, 255), "4": (128, 0, 0),
               "5": (0, 0, 128), "6": (128, 128, 0), "7": (0, 0, 0),
               "8": (128, 128, 128)}  # fmt: skip
    out = dict(tiles)
    for c, colour in colours.items():
        t = tiles["0"].copy()
        cv2.putText(t, c, (4, 13), cv2.FONT_HERSHEY_PLAIN, 0.9, colour, 1, cv2.LINE_AA)
        out[c] = t
    return out


def _read_or_refuse(frame: np.ndarray) -> str | None:
    try:
        return str(read_frame(frame, _located(), ReaderState()).board)
    except LowConfidenceError:
        return None


@pytest.mark.parametrize(
    ("folder", "prefix"),
    [("minesweeper-clone", "dexter-clone"), ("minesweeperonline-com", "dexter-online")],
)
def test_real_clone_tiles_read_exactly(folder, prefix):
    assert _read_or_refuse(_board(_tiles(folder, prefix))) == BOARD


@pytest.mark.parametrize("grey", [170, 180, 189, 200, 210])
@pytest.mark.parametrize("font", [False, True])
def test_clones_in_other_greys_and_fonts_read_exactly_or_are_refused(grey, font):
    tiles = _tiles("minesweeper-clone", "dexter-clone")
    tiles = _regrey(_other_font(tiles) if font else tiles, grey)
    assert _read_or_refuse(_board(tiles)) in (BOARD, None)


@pytest.mark.parametrize("grey", [180, 189, 200, 210])
def test_clones_in_other_greys_read_exactly(grey):
    """Another face grey is a tone change the board's own cells show: read through it."""
    tiles = _regrey(_tiles("minesweeper-clone", "dexter-clone"), grey)
    assert _read_or_refuse(_board(tiles)) == BOARD
