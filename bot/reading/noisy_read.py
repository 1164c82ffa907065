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
from bot.reading.telling import nearer_margin, telling_margin


def read_noisy(
    samples: np.ndarray,
    bank: TemplateBank,
    skin: Skin,
    state: ReaderState,
    bleed: Callable[[], np.ndarray] | None = None,
) -> tuple[np.ndarray, ...] | None:
    """The cells ``samples`` (BGR) read with the tolerance of ``bank`` widened to the frame's
    noise (as drawn: :func:`~bot.reading.lossy.noisy_bank`) and, with ``bleed``, to what
    neighbours lend each cell (:func:`~bot.reading.lossy.neighbour_bleed`), their margins made
    noisy ones (:func:`noisy_margin`); None when no cell is sure enough to measure the noise
    on."""
    best, sure = assign(samples, bank.u8, bank, skin, state, False)
    noisy = noisy_bank(samples, bank, skin, best, sure)
    if noisy is None:
        return None
    widen = None if bleed is None else bleed()
    win, conf, margin, dist = score_cells(ycrcb(samples), noisy, state, widen=widen)
    return (win, conf, noisy_margin(samples, bank, skin, win, conf, margin), dist)


#: How much more than the skin's ``min_margin`` a winner needs when read with the widened
#: tolerance of a noisy frame ...
NOISY_MARGIN = 0.05
#: ... unless, on the pixels that tell it from the runner-up, it matches this much more of them
#: with the skin's own tolerance (:func:`~bot.reading.telling.telling_margin`: a flag and a
#: question mark on one tile differ in a few per cent of the cell, so the whole cell's margin
#: stays small, and a widened tolerance lets the runner-up's strokes pass too).
TELLING_LEVEL = 0.5
#: How far below 0 :func:`~bot.reading.telling.telling_margin` may be where the winner is the
#: nearer image on the telling pixels: a pixel of a hundred within the runner-up's tolerance
#: (JPEG's noise at quality 75 put a sgt-mines 3 so) is no evidence for it.
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
    measured = score_cells(ycrcb(samples), noisy, state, widen=None if bleed is None else bleed())
    return widened_where_unsure(samples, bank, skin, measured, results)


def widened_where_unsure(
    samples: np.ndarray,
    bank: TemplateBank,
    skin: Skin,
    widened: tuple[np.ndarray, ...],
    results: tuple[np.ndarray, ...],
) -> tuple[np.ndarray, ...]:
    """``results`` with the ``widened`` reading (a lossy look's scores against ``bank``'s
    classes, its margins made noisy ones: :func:`noisy_margin`) where the cell is unclear, or
    where it reads the same class more surely (the locator grows a board only through cells
    that read surely)."""
    win, conf, margin, distance = widened
    widened = (win, conf, noisy_margin(samples, bank, skin, win, conf, margin), distance)
    doubtful = ~reads_clearly(results[1], results[2], skin)
    take = doubtful | ((win == results[0]) & (conf > results[1]))
    return tuple(np.where(take, w, r) for w, r in zip(widened, results, strict=True))


def noisy_margin(
    samples: np.ndarray,
    strict: TemplateBank,
    skin: Skin,
    win: np.ndarray,
    conf: np.ndarray,
    margin: np.ndarray,
) -> np.ndarray:
    """The margins of cells read with a noisy frame's widened tolerance, less
    :data:`NOISY_MARGIN`, except where the winner (ahead, if by less than the skin's
    ``min_margin``: noise blurs what tells the classes apart) clearly wins on the pixels that
    tell it from the runner-up, compared with the ``strict`` bank (the same classes, the
    skin's own tolerance; BGR ``samples``): :data:`TELLING_LEVEL`."""
    narrow = (conf >= skin.min_confidence) & (margin > 0)
    narrow &= margin < skin.min_margin + NOISY_MARGIN
    adjusted = margin - NOISY_MARGIN
    if narrow.any():
        telling = telling_margin(samples[narrow], strict, win[narrow])
        # Or, with (next to) no pixel telling against it, nearer the winner on the telling
        # pixels than to any other class, in colour or in brightness: JPEG smears a thin
        # stroke's colour past both images.
        nearer = (telling >= -TELLING_SLACK) & (
            (nearer_margin(samples[narrow], strict, win[narrow]) >= TELLING_LEVEL)
            | (nearer_margin(samples[narrow], strict, win[narrow], True) >= TELLING_LEVEL)
        )
        told = np.maximum(margin[narrow], skin.min_margin)
        adjusted[narrow] = np.where((telling >= TELLING_LEVEL) | nearer, told, adjusted[narrow])
    return adjusted
