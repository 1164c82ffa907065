"""Draw what the bot thinks on top of a screenshot: the picture a person wants to see.

Each covered cell is tinted from green (surely safe) through yellow to red (surely a mine), with
its mine probability in percent where the cell is big enough for the text; the chosen move gets a
thick blue frame; the board gets a thin frame so a wrong grid is obvious at a glance.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bot.reading.grid import Grid

#: BGR colours.
SAFE = np.array([60, 180, 60], np.float32)
RISKY = np.array([40, 200, 240], np.float32)
MINE = np.array([40, 40, 220], np.float32)
MOVE = (255, 80, 0)
BOARD = (255, 0, 255)


def tint(p: float) -> tuple[int, int, int]:
    """BGR colour of mine probability ``p``: green at 0, yellow at 0.5, red at 1.

    >>> tint(0.0), tint(1.0)
    ((60, 180, 60), (40, 40, 220))
    """
    p = min(max(float(p), 0.0), 1.0)
    colour = SAFE + (RISKY - SAFE) * (p * 2) if p <= 0.5 else RISKY + (MINE - RISKY) * (p * 2 - 1)
    return tuple(int(round(c)) for c in colour)  # type: ignore[return-value]


def draw_overlay(
    frame_bgr: np.ndarray,
    grid: Grid,
    probabilities: np.ndarray | None,
    move: Any = None,
    alpha: float = 0.45,
) -> np.ndarray:
    """A copy of ``frame_bgr`` with ``probabilities`` (``[rows, cols]`` floats, NaN where the
    cell is not covered) tinted over the covered cells and ``move`` (anything with ``x``, ``y``
    and ``action``) framed."""
    import cv2

    out = np.ascontiguousarray(frame_bgr[:, :, :3]).copy()
    if probabilities is not None:
        layer = out.copy()
        for y in range(grid.rows):
            for x in range(grid.cols):
                p = probabilities[y, x]
                if np.isnan(p):
                    continue
                left, top, w, h = grid.cell_rect(x, y)
                cv2.rectangle(layer, (left, top), (left + w - 1, top + h - 1), tint(p), -1)
        out = cv2.addWeighted(layer, alpha, out, 1 - alpha, 0)
        _label_cells(out, grid, probabilities)
    left, top, right, bottom = (int(round(v)) for v in grid.bounds)
    cv2.rectangle(out, (left - 1, top - 1), (right, bottom), BOARD, 1)
    if move is not None:
        mx, my, mw, mh = grid.cell_rect(move.x, move.y)
        thick = max(2, int(min(mw, mh) / 8))
        cv2.rectangle(
            out, (mx - thick, my - thick), (mx + mw + thick - 1, my + mh + thick - 1), MOVE, thick
        )
        label = f"{move.action} ({move.x}, {move.y})"
        cv2.putText(
            out,
            label,
            (mx, max(12, my - 2 * thick - 2)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.45,
            MOVE,
            1,
            cv2.LINE_AA,
        )
    return out


def _label_cells(out: np.ndarray, grid: Grid, probabilities: np.ndarray) -> None:
    import cv2

    font = cv2.FONT_HERSHEY_PLAIN
    scale = min(grid.pitch_x, grid.pitch_y) / 26.0
    if scale < 0.55:
        return  # too small to be legible
    for y in range(grid.rows):
        for x in range(grid.cols):
            p = probabilities[y, x]
            if np.isnan(p):
                continue
            text = f"{int(round(p * 100))}"
            (tw, th), _ = cv2.getTextSize(text, font, scale, 1)
            if tw > grid.pitch_x - 2:
                continue
            cx, cy = grid.cell_center(x, y)
            org = (int(round(cx - tw / 2)), int(round(cy + th / 2)))
            cv2.putText(out, text, org, font, scale, (0, 0, 0), 1, cv2.LINE_AA)
