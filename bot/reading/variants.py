"""Cells compared with every variant of a class at once (a skin of many variants, stretched at
many phases, has hundreds a class): the differences in as few cv2 calls as can be, and each
cell's best robust score against the variants.

>>> cells = np.array([[10, 10, 10]], np.uint8)
>>> [apart.tolist() for _, apart in cells_apart(cells, np.array([[0, 10, 30]], np.uint8))]
[[[10, 0, 20]]]
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from bot.reading.banks import TemplateBank
from bot.reading.detail import absent_pixels, detail_cap, far_pixel_map

__all__ = ["best_variant_scores", "cells_apart", "differences_in_place"]


def cells_apart(
    cells: np.ndarray, images: np.ndarray, out: np.ndarray | None = None
) -> Iterator[tuple[int, np.ndarray]]:
    """For each of ``cells`` (``[N, D]`` uint8) in turn: its index and its absolute difference
    from every one of ``images`` (``[K, D]`` uint8), ``[K, D]``, in one cv2 call; in ``out[i]``
    (``[N, K, D]``) when given, else in one buffer that the next cell overwrites. The
    difference is symmetric: with the two swapped, an image at a time against every cell."""
    import cv2

    images = np.ascontiguousarray(images)
    buffer = np.empty(images.shape, np.uint8) if out is None else None
    for i in range(len(cells)):
        each = out[i] if out is not None else buffer
        assert each is not None
        each[:] = cells[i]
        cv2.absdiff(images, each, dst=each)
        yield i, each


def best_variant_scores(
    cells: np.ndarray,
    bank: TemplateBank,
    lo: int,
    hi: int,
    widen: np.ndarray | None,
    pixels: float,
) -> np.ndarray:
    """``[N]``: each of ``cells``' (``[N, D]``) best robust score against the bank's variants
    ``lo:hi``, scored as :func:`score_cells` scores its candidates (of ``pixels`` counted);
    ``widen``: each cell's own least tolerance, as there."""
    import cv2

    images = bank.u8[lo:hi]
    (k, d), n = images.shape, len(cells)
    # The differences in as few cv2 calls as can be: a cell at a time against every variant
    # where there are fewer cells (a skin of many variants stretched at many phases has
    # hundreds a class), else a variant at a time.
    by_cell = n < k
    diff = _differences(cells, images, by_cell)
    variants = np.arange(lo, hi)
    if bank.tol_all is not None and widen is None:
        tol: np.ndarray | int = bank.tol_all
    elif by_cell:
        tol = np.tile(bank.tol[lo:hi], (n, 1))
        if widen is not None:
            tol = np.maximum(tol, np.repeat(widen, k, axis=0))
    else:
        tol = np.repeat(bank.tol[lo:hi], n, axis=0)
        if widen is not None:
            tol = np.maximum(tol, np.tile(widen, (k, 1)))
    rows = np.tile(variants, n) if by_cell else np.repeat(variants, n)
    capped = bool(bank.detail_count[lo:hi].any())  # (else the cap is 1 everywhere)
    absent = None
    if capped and bank.by_presence:  # (before far_pixel_map overwrites the differences)
        away = _differences(cells, bank.common[lo:hi], by_cell)
        absent = absent_pixels(diff.reshape(-1, d), away.reshape(-1, d))
    far = far_pixel_map(diff.reshape(-1, d), tol)
    off = cv2.reduce(far, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[:, 0]
    scores = 1.0 - off / pixels
    if capped:
        missed = far if absent is None else absent
        scores = np.minimum(scores, detail_cap(missed, bank.detail[rows], bank.detail_count[rows]))
    return scores.reshape(n, k).max(axis=1) if by_cell else scores.reshape(k, n).max(axis=0)


def _differences(cells: np.ndarray, images: np.ndarray, by_cell: bool) -> np.ndarray:
    """The absolute difference (uint8) of each of ``cells`` (``[N, D]``) from each of
    ``images`` (``[K, D]``): ``[N, K, D]`` with ``by_cell`` (a cv2 call a cell), else
    ``[K, N, D]`` (a call an image)."""
    rows, others = (cells, images) if by_cell else (images, cells)
    diff = np.empty((len(rows), len(others), images.shape[1]), np.uint8)
    for _ in cells_apart(rows, others, out=diff):
        pass  # (each row's differences are written into ``diff``)
    return diff


def differences_in_place(samples: np.ndarray, images: np.ndarray) -> None:
    """Replace each ``images[j]`` (``[N, D]`` uint8, one image per cell) by its absolute
    difference from ``samples`` (``[N, D]``), in uint8."""
    import cv2

    for j in range(len(images)):
        cv2.absdiff(samples, images[j], dst=images[j])
