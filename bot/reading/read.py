"""Read a board from a picture: the public face of the screen-reading side.

>>> import cv2
>>> from bot.reading.read import locate_board, read_frame
>>> frame = cv2.imread("tests/fixtures/xdemineur/expert-mid.png")
>>> located = locate_board(frame)
>>> located.skin.name, located.grid.cols, located.grid.rows
('xdemineur', 30, 16)
>>> reading = read_frame(frame, located)
>>> reading.state, reading.mines, reading.min_confidence > 0.9
('playing', 99, True)

:func:`locate_board` finds the skin and grid once; :func:`read_frame` then reads each new frame of
the same window in a few milliseconds (given the window's
:class:`~bot.reading.state.ReaderState`, which keeps what the reader reuses between frames).
A cell that matches no template well enough raises :class:`~bot.errors.LowConfidenceError`
naming it: the reader never guesses.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from bot.errors import BoardCutError, BoardNotFoundError, LowConfidenceError, TwoBoardsError
from bot.reading.classify import CellScores, classify_cells
from bot.reading.grey import draws_in_colour, has_no_colour
from bot.reading.grid import Grid
from bot.reading.locate import Located, locate_board
from bot.reading.repeat import find_repeat
from bot.reading.shown import shown_nowhere, zeros_beside_covered
from bot.reading.skins import Skin, find_skin, load_skins
from bot.reading.state import ReaderState
from bot.reading.unread import check_alone
from solver.board import COVERED_CHARS, Board
from solver.errors import MinebotError

__all__ = [
    "Grid",
    "Located",
    "ReaderState",
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

    ``confidence`` and ``margin`` are ``[rows, cols]`` arrays (see :mod:`bot.reading.classify`);
    ``min_confidence`` is the lowest cell confidence; ``state`` is ``'playing'``, ``'won'`` or
    ``'lost'``; ``mines`` the total mine count when known, else None, with ``mines_source``
    saying where it came from: ``'screen'`` (the game's counter or status line, see
    :func:`read_counter`) or ``'level'`` (the skin's only level of this size).
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


def read_frame(
    frame_bgr: np.ndarray, located: Located, state: ReaderState | None = None
) -> Reading:
    """Read every cell of ``located``'s grid in ``frame_bgr``; ``state``: the window's reader
    state (a fresh one when None: the same reading, slower).

    Raises :class:`LowConfidenceError` naming the cells (x, y) that are below the skin's
    confidence or margin threshold (a pointer over a cell, an animation, a wrong grid), or
    that read as 0 beside a covered cell in a game that opens round its 0s.
    """
    if located.repeat is not None:
        inside = located.repeat
        inner = replace(located, grid=inside.grid, scale=inside.scale, repeat=None)
        small = inside.enlargement.unscaled(frame_bgr)
        return replace(read_frame(small, inner, state), located=located)
    skin, grid = located.skin, located.grid
    state = ReaderState() if state is None else state
    # The curve the board was found through, where none learnt from the frame's cells alone
    # reads them all (the fit may miss: a lost GNOME board at contrast 0.85, its 0s).
    scores = classify_cells(
        frame_bgr, grid, skin, state=state, adapt_tone=True, found_through=located.tone, tell=True
    )
    doubtful = ~scores.clear(skin)
    if doubtful.any():
        raise _low_confidence(scores, doubtful, skin)
    board = Board("\n".join("".join(row) for row in scores.chars))
    impossible = shown_nowhere(scores.chars)
    if impossible is not None:
        where = f"{grid.cols}x{grid.rows} cells at x {grid.left:.0f}, y {grid.top:.0f}"
        raise BoardCutError(
            f"the {skin.name} cells read ({where}) are no whole board a game can show: "
            f"{impossible} (part of a bigger board, or cells of another size)"
        )
    zeros = zeros_beside_covered(scores.chars) if skin.opens_round_zeros else []
    if zeros:
        listed = ", ".join(f"({x}, {y})" for x, y in zeros[:LIST_CELLS])
        more = f" and {len(zeros) - LIST_CELLS} more" if len(zeros) > LIST_CELLS else ""
        raise LowConfidenceError(
            f"{len(zeros)} cell(s) read as 0 beside a covered cell, which {skin.name} opens "
            f"round a 0 at once (a cell held down, or a misread): {listed}{more}",
            tuple(zeros),
        )
    mines, source = None, None
    shown = read_counter(frame_bgr, located, state)
    if shown is not None:
        kind, number = shown
        text = str(board)
        # A mines-left counter shows mines minus flags (a wrong flag still counts as a flag).
        extra = text.count("F") + text.count("W") if kind == "left" else 0
        mines, source = number + extra, "screen"
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


#: Largest masked squared difference, as a share of a glyph's own contrast, that still reads as
#: that glyph (text drawn by the game is pixel-identical from frame to frame: a true match is
#: near 0, another glyph far above).
GLYPH_MAX_SCORE = 0.06
#: How much worse than the winner another glyph at the same place may be before the place is
#: ambiguous (then the counter is not read at all).
GLYPH_MIN_MARGIN = 0.04
#: Per-channel difference from the box's background colour that counts as ink.
INK_LEVEL = 48


@dataclass(frozen=True)
class Glyph:
    """One character image of a game's counter or status line: grey ``image``, ``mask`` (1 where
    the pixel belongs to the glyph: its ink and a fringe of background, from the PNG's alpha) and
    ``energy``, its masked contrast against its background (what a score is a share of); with a
    mask, ``masked`` (mask times image) and ``masked_square`` (the sum of mask times image
    squared), the parts of the masked difference that do not depend on the screen."""

    char: str
    image: np.ndarray
    mask: np.ndarray | None  # None: every pixel of the rectangle counts
    energy: float
    masked: np.ndarray | None = None  # mask * image, when there is a mask
    masked_square: float = 0.0  # the sum of mask * image ** 2


def read_counter(
    frame_bgr: np.ndarray, located: Located, state: ReaderState | None = None
) -> tuple[str, int] | None:
    """The mine count the game shows where the skin describes it (``skin.json`` "counter"):
    ``("total", M)`` for a status line such as "Marked: 3 / 17", ``("left", n)`` for a
    mines-left counter. None when the skin has no counter, or when the text does not read
    cleanly and match the skin's ``reads`` pattern: then the caller falls back, never guesses.

    The text is read from glyph images cut from the real game (``glyphs``), matched with
    OpenCV inside ``box``; ink no glyph explains reads as ``?``, a blank run of ``space_px`` or
    more as a space. See templates/README.md for the keys.
    """
    import re

    spec = located.skin.meta.get("counter") or {}
    if not spec.get("box") or not spec.get("glyphs") or not spec.get("reads"):
        return None
    text = counter_text(frame_bgr, located, state)
    if text is None:
        return None
    found = re.search(spec["reads"], text)
    if found is None:
        return None
    groups = {k: v for k, v in found.groupdict().items() if v is not None}
    for kind in ("total", "left"):
        if kind in groups:
            return kind, int(groups[kind])
    return None


def counter_box(located: Located, shape: tuple[int, ...]) -> tuple[int, int, int, int] | None:
    """``(x0, y0, x1, y1)`` frame pixels of the skin's counter box, None unless it lies wholly
    inside the frame: each
    corner ``box`` px (at 100 %, times the scale unless ``follows_cells`` is false) from the
    point ``from`` (fractions of the board: [0, 0, 0, 0] is its top-left corner for both)."""
    spec = located.skin.meta.get("counter") or {}
    if not spec.get("box"):
        return None
    scale = _counter_scale(located)
    left, top, right, bottom = located.grid.bounds
    fx0, fy0, fx1, fy1 = spec.get("from", (0, 0, 0, 0))
    bx0, by0, bx1, by1 = spec["box"]
    x0 = round(left + fx0 * (right - left) + bx0 * scale)
    y0 = round(top + fy0 * (bottom - top) + by0 * scale)
    x1 = round(left + fx1 * (right - left) + bx1 * scale)
    y1 = round(top + fy1 * (bottom - top) + by1 * scale)
    if x0 < 0 or y0 < 0 or x1 > shape[1] or y1 > shape[0] or x1 <= x0 or y1 <= y0:
        return None  # part of the counter is off the picture: a cut-off digit would misread
    return x0, y0, x1, y1


def counter_text(
    frame_bgr: np.ndarray, located: Located, state: ReaderState | None = None
) -> str | None:
    """The text in the skin's counter box as its glyphs read it (``?`` for ink no glyph
    explains), or None when no glyph matches or two glyphs claim the same place. ``state``
    remembers the last box read: the same pixels read the same."""
    bounds = counter_box(located, frame_bgr.shape)
    glyphs = _counter_glyphs(located.skin, _counter_scale(located))
    if bounds is None or not glyphs:
        return None
    x0, y0, x1, y1 = bounds
    box = np.ascontiguousarray(frame_bgr[y0:y1, x0:x1, :3])
    # The same pixels as last time read the same (a game's counter rarely changes).
    key = (located.skin.name, bounds, box.tobytes())
    if state is not None and state.counter_key == key:
        return state.counter_text
    text = _read_box(box, located, glyphs)
    if state is not None:
        state.counter_key, state.counter_text = key, text
    return text


def _read_box(box: np.ndarray, located: Located, glyphs: tuple[Glyph, ...]) -> str | None:
    """:func:`counter_text` of the counter's pixels ``box`` (BGR)."""
    import cv2

    spec = located.skin.meta["counter"]
    scale = _counter_scale(located)
    grey = cv2.cvtColor(box, cv2.COLOR_BGR2GRAY)  # glyphs are told by shape, not colour
    inked = np.flatnonzero(
        (np.abs(grey.astype(np.int16) - np.bincount(grey.ravel()).argmax()) > INK_LEVEL).any(0)
    )
    if inked.size == 0:
        return None
    # Only the columns around the ink are searched: most of a status bar is empty.
    left, right = max(0, int(inked[0]) - 2), min(box.shape[1], int(inked[-1]) + 3)
    box, box_f = box[:, left:right], grey[:, left:right].astype(np.float32)
    box_square = box_f * box_f
    found: list[tuple[float, int, int, Glyph]] = []  # (score, x, y, glyph)
    for glyph in glyphs:
        h, w = glyph.image.shape[:2]
        if box.shape[0] < h or box.shape[1] < w:
            continue
        scores: np.ndarray
        if glyph.mask is None:  # a whole-rectangle glyph: OpenCV's fast unmasked path
            scores = cv2.matchTemplate(box_f, glyph.image, cv2.TM_SQDIFF)
        else:
            # The masked squared difference, sum(m * (I - T)^2), as two plain correlations:
            # sum(m * I^2) - 2 sum(m * T * I) + sum(m * T^2). OpenCV's masked path takes
            # half as long again (a counter is read every frame).
            assert glyph.masked is not None
            ink = cv2.matchTemplate(box_f, glyph.masked, cv2.TM_CCORR)
            square = cv2.matchTemplate(box_square, glyph.mask, cv2.TM_CCORR)
            scores = square - 2 * ink + glyph.masked_square
        scores = scores / glyph.energy
        ys, xs = np.nonzero(scores < GLYPH_MAX_SCORE + GLYPH_MIN_MARGIN)
        found += [(float(scores[y, x]), int(x), int(y), glyph) for y, x in zip(ys, xs, strict=True)]
    overlap = float(spec.get("overlap_px", 0)) * scale
    chosen: list[tuple[float, int, int, Glyph]] = []
    for score, x, y, glyph in sorted(found, key=lambda f: f[0]):
        w = glyph.image.shape[1]
        rival = next(
            (c for c in chosen if min(x + w, c[1] + c[3].image.shape[1]) - max(x, c[1]) > overlap),
            None,
        )
        if rival is None:
            if score < GLYPH_MAX_SCORE:
                chosen.append((score, x, y, glyph))
        elif rival[3].char != glyph.char and score < rival[0] + GLYPH_MIN_MARGIN:
            return None  # two glyphs fit the same place about as well: do not read it
    return _glyph_line(box, chosen, float(spec.get("space_px", 0)) * scale) if chosen else None


def _glyph_line(box: np.ndarray, chosen: list, space: float) -> str:
    """The chosen glyphs' characters left to right, ``?`` for each run of ink columns no glyph
    covers, a space where ``space`` px or more lie between two of them. Unexplained ink that
    runs into the box's left or right edge is the frame or the next thing over, not text."""
    top = min(y for _, _, y, _ in chosen)
    bottom = max(y + g.image.shape[0] for _, _, y, g in chosen)
    band = box[top:bottom].astype(np.int16)
    ink = (np.abs(band - _commonest_colour(band)).max(axis=2) > INK_LEVEL).any(axis=0)
    covered = np.zeros(box.shape[1], bool)
    tokens: list[tuple[str, int, int]] = []  # (character, first column, end column)
    for _, x, _, glyph in chosen:
        end = x + glyph.image.shape[1]
        covered[x:end] = True
        inked = np.flatnonzero(ink[x:end])  # spacing is measured between ink, not boxes
        first, last = (x + inked[0], x + inked[-1] + 1) if inked.size else (x, end)
        tokens.append((glyph.char, int(first), int(last)))
    loose = np.flatnonzero(ink & ~covered)
    for run in np.split(loose, np.flatnonzero(np.diff(loose) > 1) + 1) if loose.size else []:
        tokens.append(("?", int(run[0]), int(run[-1]) + 1))
    tokens.sort(key=lambda t: t[1])
    if tokens and tokens[0][0] == "?" and tokens[0][1] == 0:
        tokens.pop(0)
    if tokens and tokens[-1][0] == "?" and tokens[-1][2] == len(ink):
        tokens.pop()
    text = ""
    for i, (char, first, _end) in enumerate(tokens):
        if i and space and first - tokens[i - 1][2] >= space:
            text += " "
        text += char
    return text


def _commonest_colour(pixels: np.ndarray) -> np.ndarray:
    """The most common BGR colour of an image (its background, for text).

    >>> _commonest_colour(np.array([[[1, 2, 3], [9, 9, 9], [1, 2, 3]]], np.uint8)).tolist()
    [1, 2, 3]
    """
    flat = pixels.reshape(-1, 3).astype(np.int32)
    packed = (flat[:, 0] << 16) | (flat[:, 1] << 8) | flat[:, 2]
    values, counts = np.unique(packed, return_counts=True)
    top = int(values[counts.argmax()])
    return np.array([top >> 16, (top >> 8) & 255, top & 255], np.int16)


def _counter_scale(located: Located) -> float:
    """The counter's scale: the board's, unless the game draws its text at a fixed size while
    its cells grow with the window (``follows_cells``: false)."""
    spec = located.skin.meta.get("counter") or {}
    return located.scale if spec.get("follows_cells", True) else 1.0


def _counter_glyphs(skin: Skin, scale: float) -> tuple[Glyph, ...]:
    """The skin's counter glyphs at ``scale`` (memoised per skin value and scale)."""
    return _scaled_glyphs(skin, round(scale, 3))


@lru_cache(maxsize=32)
def _scaled_glyphs(skin: Skin, scale: float) -> tuple[Glyph, ...]:
    import cv2

    glyphs: list[Glyph] = []
    for char, file in (skin.meta.get("counter") or {}).get("glyphs", {}).items():
        image = cv2.imread(str(skin.folder / file), cv2.IMREAD_UNCHANGED)
        if image is None or image.ndim != 3:
            from bot.errors import SkinFormatError

            raise SkinFormatError(f"{skin.folder / file}: missing or not a colour image")
        alpha = image[:, :, 3] if image.shape[2] == 4 else np.full(image.shape[:2], 255)
        bgr = image[:, :, :3]
        if abs(scale - 1) > 1e-3:
            size = (round(bgr.shape[1] * scale), round(bgr.shape[0] * scale))
            bgr = cv2.resize(bgr, size, interpolation=cv2.INTER_LINEAR)
            alpha = cv2.resize(alpha.astype(np.uint8), size, interpolation=cv2.INTER_NEAREST)
        mask = (alpha > 127).astype(np.float32)
        grey_u8 = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
        background = float(np.bincount(grey_u8.ravel()).argmax())
        grey = grey_u8.astype(np.float32)
        energy = float((((grey - background) ** 2) * mask).sum())
        whole = bool(mask.all())
        masked = None if whole else grey * mask
        square = 0.0 if masked is None else float((masked * grey).sum())
        glyphs.append(
            Glyph(str(char), grey, None if whole else mask, max(energy, 1.0), masked, square)
        )
    return tuple(glyphs)


def read_image(frame_bgr: np.ndarray, skins: list[Skin] | None = None) -> Reading:
    """Locate and read in one go (a screenshot on its own). A picture that does not read as
    it is, but that a pixel-repeating scaler enlarged, is read as it was before the
    enlargement (:mod:`bot.reading.repeat`); if that does not read either, the first refusal
    stands. A whole board beside it that no skin reads makes two boards, refused
    (:func:`~bot.reading.unread.check_alone`)."""
    try:
        reading = read_frame(frame_bgr, locate_board(frame_bgr, skins), ReaderState())
    except (BoardNotFoundError, LowConfidenceError) as error:
        if isinstance(error, TwoBoardsError):
            raise
        unscaled = _read_unscaled(frame_bgr, skins)
        if unscaled is None:
            lost = _colour_lost(frame_bgr, load_skins() if skins is None else skins)
            if not lost:
                raise
            message = f"{error}; {lost}"
            if isinstance(error, LowConfidenceError):
                raise LowConfidenceError(message, error.cells) from error
            raise type(error)(message) from error
        reading = unscaled
    check_alone(frame_bgr, reading.located)
    return reading


def _colour_lost(frame_bgr: np.ndarray, skins: list[Skin]) -> str:
    """Why a refused picture may have been refused when it has no colour and some of the
    ``skins`` draw in colour (their cells told apart by it: a greyscale picture loses that),
    else "".

    >>> from bot.reading.skins import find_skin
    >>> grey = np.full((4, 4, 3), 120, np.uint8)
    >>> _colour_lost(grey, [find_skin("winmine")]).split(", and ")[1]
    'winmine tells cells apart by colour (read in grey, by their shapes alone)'
    >>> grey[0, 0] = (0, 0, 255)
    >>> _colour_lost(grey, [find_skin("winmine")])
    ''
    """
    if frame_bgr is None or frame_bgr.ndim != 3 or frame_bgr.shape[2] < 3:
        return ""
    if not has_no_colour(frame_bgr):
        return ""
    names = [s.name for s in skins if draws_in_colour(s)]
    if not names:
        return ""
    games = f"{', '.join(names)} {'tells' if len(names) == 1 else 'tell'}"
    return (
        f"the picture has no colour (greyscale), and {games} cells apart by colour "
        "(read in grey, by their shapes alone)"
    )


def _read_unscaled(frame_bgr: np.ndarray, skins: list[Skin] | None) -> Reading | None:
    """The board in the picture before the enlargement ``frame_bgr`` shows, located in
    ``frame_bgr``; None when it is no such enlargement or the picture before it does not read."""
    if frame_bgr is None or frame_bgr.ndim != 3:
        return None
    repeat = find_repeat(frame_bgr[:, :, :3])
    if repeat is None:
        return None
    small = repeat.unscaled(frame_bgr)
    try:
        reading = read_frame(small, locate_board(small, skins), ReaderState())
    except MinebotError:
        return None
    return replace(reading, located=repeat.located(reading.located))


def game_state(board: Board, skin: Skin, mines: int | None) -> str:
    """``'lost'`` when a cell shows one of the skin's loss characters (the exploded mine);
    ``'won'`` when every cell that is not a mine is open (no covered cell left, or exactly
    ``mines`` cells not open); else ``'playing'``.

    >>> from bot.reading.skins import find_skin
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
