"""Reading the cells of a noisy frame (a JPEG, a noisy capture): each template's tolerance
widened to the noise the frame's clear cells show (:func:`~bot.reading.lossy.noisy_bank`),
and a winner then made to win on what tells it from the runner-up."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from bot.reading.banks import TemplateBank
from bot.reading.lossy import noisy_bank, ycrcb
from bot.reading.matching import reads_clearly, score_cells
from bot.reading.nearest import assign
from bot.reading.skins import Skin
from bot.reading.state import ReaderState
from bot.reading.telling import ink_margin, nearer_margin, stray_strokes, telling_margin


def read_noisy(
    samples: np.ndarray,
    bank: TemplateBank,
    skin: Skin,
    state: ReaderState,
    bleed: Callable[[], np.ndarray] | None = None,
    in_place: bool = False,
) -> tuple[np.ndarray, ...] | None:
    """The cells ``samples`` (BGR) read with the tolerance of ``bank`` widened to the frame's
    noise (as drawn: :func:`~bot.reading.lossy.noisy_bank`) and, with ``bleed``, to what
    neighbours lend each cell (:func:`~bot.reading.lossy.neighbour_bleed`), their margins made
    noisy ones (:func:`noisy_scores`; ``in_place`` as there); None when no cell is sure
    enough to measure the noise on."""
    best, sure = assign(samples, bank.u8, bank, skin, state, False)
    noisy = noisy_bank(samples, bank, skin, best, sure, centred=True, by_template=True)
    if noisy is None:
        return None
    widen = None if bleed is None else bleed()
    # A cell's nearest variant by SSD need not be the one it matches (a covered tile beside a
    # red mine lost its bevel's highlight to a JPEG's ringing on one side only): weak ones are
    # scored against every variant of their two classes, as the strict reading does.
    scored = score_cells(ycrcb(samples), noisy, state, skin.min_confidence, widen, runner_up=True)
    return noisy_scores(samples, bank, skin, scored, ink=True, in_place=in_place)


#: How much more than the skin's ``min_margin`` a winner needs when read with the widened
#: tolerance of a noisy frame ...
NOISY_MARGIN = 0.05
#: ... unless, on the pixels that tell it from the runner-up, it matches this much more of them
#: with the skin's own tolerance (:func:`~bot.reading.telling.telling_margin`: a flag and a
#: question mark on one tile differ in a few per cent of the cell, so the whole cell's margin
#: stays small, and a widened tolerance lets the runner-up's strokes pass too).
TELLING_LEVEL = 0.5
#: Largest share of a cell read with a widened tolerance that may be strokes its class's
#: image does not draw, or its strokes missing (:func:`~bot.reading.telling.stray_strokes`):
#: a tuned skin without a 5 read the Windows 98 look's 5s as its 3 at 0.074-0.085 through a
#: JPEG (quality 75-85) and on a 150 % desktop, its true 3s at 0; the classic skin's 1s
#: through a JPEG of quality 50 are at 0.021 (its ringing, three pixels of a cell).
STRAY_SHARE = 0.04
#: How far below 0 :func:`~bot.reading.telling.telling_margin` may be where the winner is the
#: nearer image on the telling pixels: a pixel of a hundred within the runner-up's tolerance
#: (JPEG's noise at quality 75 put a sgt-mines 3 so) is no evidence for it. Nor is one pixel
#: of fewer (:func:`_told`): a tuned KMines skin's 1 and 4 at 18 px differ on 44 pixels, and a
#: JPEG's 1 with one of them within the 4's tolerance (-0.023) was refused, though nearer its
#: own image in brightness on most of them.
TELLING_SLACK = 0.02


def measured_lossy(
    samples: np.ndarray,
    bank: TemplateBank,
    skin: Skin,
    state: ReaderState,
    results: tuple[np.ndarray, ...],
    bleed: Callable[[], np.ndarray] | None = None,
) -> tuple[np.ndarray, ...]:
    """The locator's lossy look again where cells stay unclear, with the tolerance the cells
    that do read clearly show (:func:`~bot.reading.lossy.noisy_bank`): a JPEG's colour bleeds
    and rings further than the fixed look allows (a sgt-mines 1 at quality 75-80). The noise is
    measured only on cells that read clearly as the class nearest them, so a window or margin
    beside the board (in the window classified, but drawn unlike any cell) adds none."""
    best, sure = assign(samples, bank.u8, bank, skin, state, False)
    class_of = np.repeat(np.arange(len(bank.classes)), np.diff(bank.starts))
    clear = reads_clearly(results[1], results[2], skin)
    sure &= clear & (class_of[best] == results[0])
    noisy = noisy_bank(samples, bank, skin, best, sure, own_colour=True)
    if noisy is None:
        return results
    widen = None if bleed is None else bleed()
    measured = score_cells(ycrcb(samples), noisy, state, skin.min_confidence, widen, runner_up=True)
    return widened_where_unsure(samples, bank, skin, measured, results)


def widened_where_unsure(
    samples: np.ndarray,
    bank: TemplateBank,
    skin: Skin,
    widened: tuple[np.ndarray, ...],
    results: tuple[np.ndarray, ...],
) -> tuple[np.ndarray, ...]:
    """``results`` with the ``widened`` reading (a lossy look's scores against ``bank``'s
    classes with the runner-up's, made noisy ones: :func:`noisy_scores`) where the cell is
    unclear, or where it reads the same class more surely (the locator grows a board only
    through cells that read surely)."""
    win, conf, margin, distance = widened = noisy_scores(samples, bank, skin, widened)
    doubtful = ~reads_clearly(results[1], results[2], skin)
    take = doubtful | ((win == results[0]) & (conf > results[1]))
    return tuple(np.where(take, w, r) for w, r in zip(widened, results, strict=True))


def noisy_scores(
    samples: np.ndarray,
    strict: TemplateBank,
    skin: Skin,
    scored: tuple[np.ndarray, ...],
    ink: bool = False,
    in_place: bool = False,
) -> tuple[np.ndarray, ...]:
    """The cells read with a noisy frame's widened tolerance (``scored``: the winner, its
    confidence, margin and distance, and the runner-up class, see
    :func:`~bot.reading.matching.score_cells`), their margins less :data:`NOISY_MARGIN`, except
    where a class wins on the pixels that tell the two apart, compared with the ``strict``
    bank (the same classes, the skin's own tolerance; BGR ``samples``): :func:`_told`.

    Where the two are close over the whole cell (margin under the skin's ``min_margin``
    and :data:`NOISY_MARGIN`: noise blurs what tells them apart), those pixels decide: the
    runner-up that wins there and the winner does not is read instead (GNOME Mines' flag at
    26 px in a JPEG had scored a hair below its question mark and been refused).

    With ``ink`` (for reading; the locator's looks need not pay for it), a winner must also
    draw the cell's strokes (:func:`ink_told`); with ``in_place`` too (cells drawn where the
    skin's images were taken: the same size, at whole pixels), no more than
    :data:`STRAY_SHARE` of the cell may be strokes it does not draw or strokes it draws
    missing (:func:`~bot.reading.telling.stray_strokes`): a glyph the skin has no image of
    passes a widened tolerance as the nearest one."""
    win, conf, margin, distance, second = scored
    win, conf = win.copy(), conf.copy()
    narrow = (conf >= skin.min_confidence) & (margin >= 0)
    narrow &= margin < skin.min_margin + NOISY_MARGIN
    adjusted = margin - NOISY_MARGIN
    runner_up = second
    if narrow.any():
        cells = samples[narrow]
        winner_told = _told(cells, strict, win[narrow], second[narrow])
        other_conf = conf[narrow] - margin[narrow]
        other_told = (
            ~winner_told
            & (other_conf >= skin.min_confidence)
            & _told(cells, strict, second[narrow], win[narrow])
        )
        told = np.maximum(margin[narrow], skin.min_margin)
        adjusted[narrow] = np.where(winner_told | other_told, told, adjusted[narrow])
        runner_up = second.copy()
        runner_up[narrow] = np.where(other_told, win[narrow], second[narrow])
        win[narrow] = np.where(other_told, second[narrow], win[narrow])
        conf[narrow] = np.where(other_told, other_conf, conf[narrow])
    if ink:
        adjusted = ink_told(samples, strict, win, runner_up, adjusted)
    if ink and in_place:
        adjusted = np.where(stray_strokes(samples, strict, win) > STRAY_SHARE, 0.0, adjusted)
    return win, conf, adjusted, distance


def ink_told(
    samples: np.ndarray,
    strict: TemplateBank,
    win: np.ndarray,
    other: np.ndarray,
    margin: np.ndarray,
) -> np.ndarray:
    """``margin`` with 0 (unclear) where a cell's strokes are nearer its runner-up's than its
    winner's (:func:`~bot.reading.telling.ink_margin` below 0): widened to a frame's noise, a
    tolerance lets a tile's colour moved by the screen pass for another class's tile, and
    the winner must then also be the glyph the cell draws."""
    judged = np.flatnonzero((margin > 0) & (other >= 0))  # (-1: a cell equal to an image)
    if judged.size == 0:
        return margin
    told = ink_margin(samples[judged], strict, win[judged], other[judged])
    out = margin.copy()
    out[judged] = np.where(told < 0, 0.0, margin[judged])
    return out


def _told(
    cells: np.ndarray, strict: TemplateBank, chosen: np.ndarray, rival: np.ndarray
) -> np.ndarray:
    """Whether each cell wins as class ``chosen[i]`` on the pixels that tell it from the
    runner-up ``rival[i]``: it matches :data:`TELLING_LEVEL` more of them within the skin's
    own tolerance (:func:`~bot.reading.telling.telling_margin`), or, with (next to) none
    telling against it, lies nearer its image there than any other class's, the runner-up
    included, in colour or in brightness (JPEG smears a thin stroke's colour past both
    images)."""
    sizes = np.zeros(cells.shape[0], np.int64)
    telling = telling_margin(cells, strict, chosen, sizes=sizes)
    told = telling >= TELLING_LEVEL
    # One pixel within the runner-up's tolerance is no evidence, however few tell them apart.
    slack = np.maximum(TELLING_SLACK, 1 / np.maximum(sizes, 1))
    # Nearer is asked only of the cells it decides, in colour first, then in brightness (each
    # compares every pixel with every image: most of a big cell's reading time).
    for brightness in (False, True):
        ask = np.flatnonzero(~told & (telling >= -slack - 1e-9))
        if ask.size:
            nearer = nearer_margin(cells[ask], strict, chosen[ask], brightness, rival[ask])
            told[ask] = nearer >= TELLING_LEVEL
    return told
