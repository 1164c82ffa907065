"""Cells classified once however often their samples recur: from frame to frame in one window
(most cells stay as they were) and within a frame (a board repeats a few pictures: an expert
board's 480 cells are a few dozen distinct samples, a hundred or so on an uneven lattice).

Each cell's reading depends on its own samples alone, so reusing a reading changes nothing
but the time (and the distance, within the float32 rounding of the products it comes from,
which depends on the cells multiplied together).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from bot.reading.state import LastFrame, ReaderState

#: Fewest cells worth looking for repeats among (a few cells are classified faster than the
#: repeats are found).
MIN_CELLS_TO_GROUP = 32
#: Every how many samples the second signature of a cell adds up (see :func:`distinct_rows`).
SIGNATURE_STEP = 7

Classify = Callable[[np.ndarray], tuple[np.ndarray, ...]]


def classify_changed_cells(
    samples: np.ndarray, key: object, classify: Classify, state: ReaderState
) -> tuple[np.ndarray, ...]:
    """``classify(samples)``, reusing the results of the last call with the same ``key`` (skin,
    grid, sampling) for the cells whose samples have not changed since: a game's window is read
    frame after frame and between two frames most cells stay as they were. The cells that are
    classified are classified once per distinct sample (:func:`classify_distinct`)."""
    last = state.last
    if last is not None and last.key == key and last.samples.shape == samples.shape:
        changed = _rows_differ(samples, last.samples, state.scratch("delta", samples.shape))
        changed_cells: np.ndarray | None = changed
        if changed.all():
            # No copy of the cells to pick the changed ones.
            results = classify_distinct(samples, classify, state)
        else:
            results = tuple(r.copy() for r in last.results)
            if changed.any():
                new = classify_distinct(samples[changed], classify, state)
                for old, part in zip(results, new, strict=True):
                    old[changed] = part
        np.copyto(last.samples, samples)
        kept = last.samples
    else:
        results = classify_distinct(samples, classify, state)
        kept = samples.copy()
        changed_cells = None
    state.last = LastFrame(key, kept, tuple(r.copy() for r in results), changed_cells)
    return results


def classify_distinct(
    samples: np.ndarray, classify: Classify, state: ReaderState | None = None
) -> tuple[np.ndarray, ...]:
    """``classify(samples)`` (each result ``[N]``), each distinct row of ``samples`` classified
    once; ``state`` lends the work array (see :func:`distinct_rows`).

    >>> calls = []
    >>> def parity(rows):
    ...     calls.append(len(rows))
    ...     return (rows[:, 0] % 2,)
    >>> cells = np.repeat(np.array([[1, 2], [4, 0]], np.uint8), 20, axis=0)
    >>> classify_distinct(cells, parity)[0].tolist() == (cells[:, 0] % 2).tolist(), calls
    (True, [2])
    """
    if len(samples) < MIN_CELLS_TO_GROUP:
        return classify(samples)
    work = None if state is None else state.scratch("grouped", samples.shape)
    first, inverse = distinct_rows(samples, work)
    if len(first) == len(samples):
        return classify(samples)
    return tuple(result[inverse] for result in classify(samples[first]))


def distinct_rows(
    samples: np.ndarray, work: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``(first, inverse)``: the index of one row of each distinct kind in ``samples``
    (``[N, D]`` uint8) and, for each row, which of those it equals:
    ``samples[first][inverse]`` is ``samples``. ``work``: an array like ``samples`` to check
    the rows in (overwritten; a new one when None).

    Rows are grouped by two sums of their samples (all of them, and every
    :data:`SIGNATURE_STEP`-th), then checked against their group's row: a row that only
    shares its sums is a kind of its own. (Sorting whole rows costs hundreds of times more.)

    >>> rows = np.array([[1, 2], [3, 0], [1, 2], [0, 3]], np.uint8)
    >>> first, inverse = distinct_rows(rows)
    >>> len(first), bool((rows[first][inverse] == rows).all())
    (3, True)
    """
    import cv2

    def sums(values: np.ndarray) -> np.ndarray:
        return cv2.reduce(values, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[:, 0].astype(np.int64)

    samples = np.ascontiguousarray(samples)
    key = (sums(samples) << 32) + sums(np.ascontiguousarray(samples[:, ::SIGNATURE_STEP]))
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    # Each row's group's row, gathered into the work array (a fresh multi-megabyte array
    # every frame cost several times the check itself).
    work = np.empty_like(samples) if work is None else work
    np.take(samples, first[inverse], axis=0, out=work, mode="clip")
    differs = _rows_differ(samples, work, work)
    if differs.any():
        alone = np.flatnonzero(differs)
        inverse[alone] = len(first) + np.arange(len(alone))
        first = np.concatenate([first, alone])
    return first, inverse


def _rows_differ(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``[N]`` bool: which rows of ``a`` and ``b`` (``[N, D]`` uint8) differ; ``out``, an
    array like them, takes their difference (it may be ``b``)."""
    import cv2

    cv2.absdiff(a, b, dst=out)
    return cv2.reduce(out, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[:, 0] > 0
