"""Each cell's nearest template by squared difference, and whether it is sure of it: what a
tone curve is learnt from (:func:`~bot.reading.tone.fit_tone`) and where a noisy frame's noise
is measured (:mod:`bot.reading.noisy_read`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from bot.reading.banks import RANK_STEP, TemplateBank
from bot.reading.matching import cross_products, reads_clearly, score_cells
from bot.reading.skins import Skin
from bot.reading.state import ReaderState
from bot.reading.tone import Assigner

#: A cell is sure of its class, for learning a tone curve, when the squared difference to its
#: nearest class is below this share of the next class's.
TONE_SURE_RATIO = 0.5


#: Every how many sampled values the tone fit's nearest-template search looks at (4: every
#: channel in turn; the search only has to be right for cells that are clearly one class).
NEAREST_STEP = 4


def assigner(cells: np.ndarray, bank: TemplateBank, skin: Skin, state: ReaderState) -> Assigner:
    """:func:`assign` for ``cells`` against ``bank``, as :func:`fit_tone` asks it."""
    return lambda toned, strict: assign(cells, toned, bank, skin, state, strict)


def assign(
    cells: np.ndarray,
    toned: np.ndarray,
    bank: TemplateBank,
    skin: Skin,
    state: ReaderState,
    strict: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's nearest template among ``toned`` (``bank``'s templates as a tone curve shows
    them) and whether the cell is sure of it (:data:`bot.reading.tone.Assigner`): its nearest
    class clearly nearer than any other by squared difference; with ``strict``, also read
    clearly by the skin's rules as that class."""
    best, d2, next_d2 = nearest(cells, toned, bank, state)
    sure = d2 < TONE_SURE_RATIO * next_d2
    if strict:
        f32 = np.ascontiguousarray(toned[:, ::RANK_STEP], dtype=np.float32)
        seen = replace(bank, u8=toned, f32=np.ascontiguousarray(f32.T), sq=(f32 * f32).sum(axis=1))
        win, conf, margin, _ = score_cells(cells, seen, state)
        class_of = np.repeat(np.arange(len(bank.classes)), np.diff(bank.starts))
        clear = reads_clearly(conf, margin, skin)
        sure = clear & (class_of[best] == win)
    return best, sure


def nearest(
    cells: np.ndarray, templates: np.ndarray, bank: TemplateBank, state: ReaderState
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each cell's nearest of ``templates`` (``bank``'s, as a tone curve shows them) by squared
    difference, that difference, and the nearest template of another class's (for
    :func:`bot.reading.tone.fit_tone`; inf for a skin of one class)."""
    k = NEAREST_STEP
    columns = np.ascontiguousarray(templates[:, ::k].T, dtype=np.float32)
    cross, norms = cross_products(cells[:, ::k], columns, state, "nearest")
    d2 = np.maximum(norms[:, None] + (columns * columns).sum(axis=0)[None, :] - 2 * cross, 0)
    best = d2.argmin(axis=1)
    class_of = np.repeat(np.arange(len(bank.classes)), np.diff(bank.starts))
    class_d2 = np.minimum.reduceat(d2, bank.starts[:-1], axis=1)
    rows = np.arange(len(cells))
    class_d2[rows, class_of[best]] = np.inf
    return best, d2[rows, best], class_d2.min(axis=1)
