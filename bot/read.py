"""Read a board from a picture: the public face of the screen-reading side.

>>> import cv2
>>> from bot.read import locate_board, read_frame
>>> frame = cv2.imread("tests/fixtures/xdemineur/expert-mid.png")
>>> located = locate_board(frame)
>>> located.skin.name, located.grid.cols, located.grid.rows
('xdemineur', 30, 16)
>>> reading = read_frame(frame, located)
>>> reading.state, reading.mines, reading.min_confidence > 0.9
('playing', 99, True)

:func:`locate_board` finds the skin and grid once; :func:`read_frame` then reads each new frame of
the same window in a few milliseconds. A cell that matches no template well enough raises
:class:`~bot.errors.LowConfidenceError` naming it: the reader never guesses.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bot.classify import CellScores, classify_cells
from bot.errors import LowConfidenceError
from bot.locate import Grid, Located, locate_board
from bot.skins import Skin, find_skin, load_skins
from solver.board import COVERED_CHARS, Board

__all__ = [
    "Grid",
    "Located",
    "Reading",
    "Skin",
    "find_skin",
    "game_state",
    "load_skins",
    "locate_board",
    "read_frame",
    "read_image",
]

#: How many doubtful cells an error message lists before saying "and N more".
LIST_CELLS = 12


@dataclass(frozen=True)
class Reading:
    """What one frame shows.

    ``confidence`` and ``margin`` are ``[rows, cols]`` arrays (see :mod:`bot.classify`);
    ``min_confidence`` is the lowest cell confidence; ``state`` is ``'playing'``, ``'won'`` or
    ``'lost'``; ``mines`` the total mine count when known (from the skin's level of this size),
    else None, with ``mines_source`` saying where it came from.
    """

    located: Located
    board: Board
    confidence: np.ndarray
    margin: np.ndarray
    min_confidence: float
    state: str
    mines: int | None
    mines_source: str | None = None

    @property
    def skin(self) -> Skin:
        return self.located.skin

    @property
    def grid(self) -> Grid:
        return self.located.grid


def read_frame(frame_bgr: np.ndarray, located: Located) -> Reading:
    """Read every cell of ``located``'s grid in ``frame_bgr``.

    Raises :class:`LowConfidenceError` naming the cells (x, y) that are below the skin's
    confidence or margin threshold (a pointer over a cell, an animation, a wrong grid).
    """
    skin, grid = located.skin, located.grid
    scores = classify_cells(frame_bgr, grid, skin)
    doubtful = (scores.confidence < skin.min_confidence) | (scores.margin < skin.min_margin)
    if doubtful.any():
        raise _low_confidence(scores, doubtful, skin)
    board = Board("\n".join("".join(row) for row in scores.chars))
    mines, source = None, None
    left = read_counter(frame_bgr, located)
    if left is not None:
        # The counter shows mines minus flags (a wrong flag still counts as a flag).
        text = str(board)
        mines, source = left + text.count("F") + text.count("W"), "screen"
    else:
        mines = skin.level_mines(grid.cols, grid.rows)
        source = None if mines is None else "level"
    return Reading(
        located=located,
        board=board,
        confidence=scores.confidence,
        margin=scores.margin,
        min_confidence=float(scores.confidence.min()),
        state=game_state(board, skin, mines),
        mines=mines,
        mines_source=source,
    )


def read_counter(frame_bgr: np.ndarray, located: Located) -> int | None:
    """The game's mines-left counter, where the skin describes one (``skin.json`` "counter":
    ``box`` [x0, y0, x1, y1] px at 100 % from the board's top-left corner, ``digits`` images);
    None when there is none or it does not read cleanly (then the caller falls back)."""
    import cv2

    skin, grid = located.skin, located.grid
    spec = skin.meta.get("counter") or {}
    digits = _counter_digits(skin, located.scale)
    if not spec.get("box") or not digits:
        return None
    x0, y0, x1, y1 = (v * located.scale for v in spec["box"])
    left, top = grid.col_left(0), grid.row_top(0)
    box = frame_bgr[
        max(0, round(top + y0)) : max(0, round(top + y1)),
        max(0, round(left + x0)) : max(0, round(left + x1)),
        :3,
    ]
    found: list[tuple[int, float, str]] = []
    for digit, image in digits.items():
        h, w = image.shape[:2]
        if box.shape[0] < h or box.shape[1] < w:
            return None
        result = cv2.matchTemplate(np.ascontiguousarray(box), image, cv2.TM_SQDIFF_NORMED)
        for x in np.nonzero(result.min(axis=0) < 0.05)[0]:
            found.append((int(x), float(result[:, x].min()), digit))
    if not found:
        return None
    width = next(iter(digits.values())).shape[1]
    chosen: list[tuple[int, float, str]] = []
    for x, score, digit in sorted(found, key=lambda f: f[1]):
        if all(abs(x - cx) >= width * 0.6 for cx, _, _ in chosen):
            chosen.append((x, score, digit))
    text = "".join(d for _, _, d in sorted(chosen))
    return int(text) if text.isdigit() else None


def _counter_digits(skin: Skin, scale: float) -> dict[str, np.ndarray]:
    import cv2

    key = ("counter", round(scale, 3))
    digits = skin.cache.get(key)
    if digits is None:
        digits = {}
        for digit, file in (skin.meta.get("counter") or {}).get("digits", {}).items():
            image = cv2.imread(str(skin.folder / file), cv2.IMREAD_COLOR)
            if image is None:
                from bot.errors import SkinFormatError

                raise SkinFormatError(f"{skin.folder / file}: missing or not an image")
            if abs(scale - 1) > 1e-3:
                size = (round(image.shape[1] * scale), round(image.shape[0] * scale))
                image = cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)
            digits[str(digit)] = image
        skin.cache[key] = digits
    return digits


def read_image(frame_bgr: np.ndarray, skins: list[Skin] | None = None) -> Reading:
    """Locate and read in one go (a screenshot on its own)."""
    return read_frame(frame_bgr, locate_board(frame_bgr, skins))


def game_state(board: Board, skin: Skin, mines: int | None) -> str:
    """``'lost'`` when a cell shows one of the skin's loss characters (the exploded mine);
    ``'won'`` when every cell that is not a mine is open (no covered cell left, or exactly
    ``mines`` cells not open); else ``'playing'``.

    >>> from bot.skins import find_skin
    >>> skin = find_skin("winmine")
    >>> game_state(Board("1X\\n11"), skin, 1), game_state(Board("1F\\n11"), skin, 1)
    ('lost', 'won')
    >>> game_state(Board("1.\\n11"), skin, 1), game_state(Board("..\\n11"), skin, 1)
    ('won', 'playing')
    """
    text = str(board)
    if any(ch in text for ch in skin.lost_chars):
        return "lost"
    unopened = sum(text.count(ch) for ch in COVERED_CHARS) + text.count("F")
    covered = sum(text.count(ch) for ch in COVERED_CHARS)
    if covered == 0 or (mines is not None and unopened == mines):
        return "won"
    return "playing"


def _low_confidence(scores: CellScores, doubtful: np.ndarray, skin: Skin) -> LowConfidenceError:
    ys, xs = np.nonzero(doubtful)
    cells = tuple((int(x), int(y)) for x, y in zip(xs, ys, strict=True))
    shown = ", ".join(
        f"({x}, {y}) looks like {str(scores.chars[y, x])!r} at {scores.confidence[y, x]:.2f}"
        f" (margin {scores.margin[y, x]:.2f})"
        for x, y in cells[:LIST_CELLS]
    )
    more = f" and {len(cells) - LIST_CELLS} more" if len(cells) > LIST_CELLS else ""
    return LowConfidenceError(
        f"{len(cells)} cell(s) do not read clearly as any {skin.name} cell "
        f"(need confidence >= {skin.min_confidence}, margin >= {skin.min_margin}): "
        f"{shown}{more}",
        cells,
    )
