"""A template's detail pixels and commonest colour (bot/reading/detail.py), worked out for all
templates at once, against the definition worked out one template at a time."""

from __future__ import annotations

import numpy as np
import pytest

from bot.reading.detail import detail_pixels


def _one_at_a_time(u8: np.ndarray, tol: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The definition: per template, the median colour of its counted pixels (tolerance under
    255), and the counted pixels a channel of which lies beyond its tolerance from it."""
    k, d = u8.shape
    pixels = u8.reshape(k, d // 3, 3).astype(float)
    tols = tol.reshape(k, d // 3, 3)
    detail = np.zeros((k, d // 3), np.uint8)
    common = np.zeros((k, d // 3, 3), np.uint8)
    for row in range(k):
        counted = tols[row, :, 0] < 255
        if counted.any():
            colour = np.median(pixels[row][counted], axis=0)
            far = (np.abs(pixels[row] - colour) > tols[row]).any(axis=1)
            detail[row] = far & counted
            common[row] = np.round(colour)
    return detail, common.reshape(k, d)


@pytest.mark.parametrize("seed", range(6))
def test_detail_pixels_are_the_median_definition_for_every_template(seed):
    """Random templates (odd and even counts of counted pixels, masks differing by template,
    a template with none counted, tolerances up to 254)."""
    rng = np.random.default_rng(seed)
    k, p = 7, 40 + seed
    u8 = rng.integers(0, 256, (k, p * 3), dtype=np.uint8)
    u8[1] = np.repeat(rng.integers(0, 256, 3, dtype=np.uint8)[None], p, 0).reshape(-1)
    tol = np.repeat(rng.integers(0, 255, (k, p, 1), dtype=np.uint8), 3, axis=2)
    tol[rng.random((k, p)) < 0.3] = 255  # not counted
    tol[2] = 255  # a template with no counted pixel
    tol = tol.reshape(k, -1)
    got = detail_pixels(u8, tol)
    want = _one_at_a_time(u8, tol)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
