"""Tuning: a frame the game draws over the outer pixels of the board's outer cells (KMines'
default theme: the dark border runs over the last pixel column of the right-hand cells and
the last pixel row of the bottom ones). Every class is then drawn one way inside the board
and another way along that side, and a class met along a side only later (a 4 in the last
column) read as a class the skin lacks: :func:`frame_variants` gives every class the side's
look too (see :mod:`bot.reading.tune`)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from bot.reading.tune_cells import SAME_SHARE, TOLERANCE, Group, Shot, agreement
from bot.reading.tune_names import class_templates

#: Sides of a board: (name, axis of the cell array the side runs along the end of, end).
SIDES = (("left", 1, 0), ("right", 1, -1), ("top", 0, 0), ("bottom", 0, -1))

#: Share of a side's interior counterparts that must differ from its frame line for it to be
#: a frame, not a line every cell has.
INTERIOR_APART = 0.5


def frame_lines(shots: Sequence[Shot], size: tuple[int, int]) -> dict[str, np.ndarray]:
    """Per side of the board drawn over by a frame: its pixel lines from the cell's edge inwards
    (``[depth, length, 3]``, the median look), for the sides where every outer cell of every
    screenshot, whatever its class, shows the same lines while most cells inside the board do
    not.

    >>> from pathlib import Path
    >>> from bot.reading.lattice import Lattice
    >>> rng = np.random.default_rng(1)
    >>> image = rng.integers(0, 255, (40, 40, 3)).astype(np.uint8)
    >>> image[:, 39] = 70                                  # the frame over the right column
    >>> shot = Shot(Path("x.png"), image, Lattice.regular(0, 0, 10, 10, 4, 4), None)
    >>> {side: lines.shape for side, lines in frame_lines([shot], (10, 10)).items()}
    {'right': (1, 10, 3)}
    """
    cut = [shot.lattice.cells(shot.image, size)[..., :3].astype(np.int16) for shot in shots]
    w, h = size
    out: dict[str, np.ndarray] = {}
    for side, axis, end in SIDES:
        depth_lines = []
        for k in range(min(w, h) // 4):
            # The k-th pixel line in from this side of each cell: [cells, length, 3].
            edge = []
            inside = []
            for cells in cut:
                line = _line(cells, side, k)  # [rows, cols, length, 3]
                outer = line[:, end] if axis == 1 else line[end]
                rest = np.delete(line, end % line.shape[axis], axis=axis)
                edge.append(outer.reshape(-1, *line.shape[2:]))
                inside.append(rest.reshape(-1, *line.shape[2:]))
            edges, others = np.concatenate(edge), np.concatenate(inside)
            median = np.median(edges, axis=0)
            if not all(_alike(e, median) for e in edges):
                break
            if not others.size or np.mean([_alike(o, median) for o in others]) > INTERIOR_APART:
                break
            depth_lines.append(median.astype(np.uint8))
        if depth_lines:
            out[side] = np.stack(depth_lines)
    return out


def frame_variants(
    groups: Sequence[Group], shots: Sequence[Shot], size: tuple[int, int]
) -> list[Group]:
    """New variants of each named class as drawn along each side (and in each corner) of the
    board that a frame draws over (:func:`frame_lines`): the class's own pixels but for the
    frame's lines. A variant alike (as grouping compares) to one the class has is not made."""
    lines = frame_lines(shots, size)
    if not lines:
        return []
    looks = [[side] for side in lines]
    corners = [[a, b] for a in ("left", "right") for b in ("top", "bottom")]
    looks += [c for c in corners if all(side in lines for side in c)]
    added: list[Group] = []
    for name, variants in class_templates(groups).items():
        known = [g.image for g in variants]
        for base in list(variants):
            for sides in looks:
                image = base.image.copy()
                for side in sides:
                    _draw(image, side, lines[side])
                if any(agreement(image, k, 0) >= SAME_SHARE for k in known):
                    continue
                key = hashlib.sha1(image.tobytes()).hexdigest()[:8]
                what = f"{name} along the board's {' and '.join(sides)} frame"
                added.append(Group(key, image, [], name, what))
                known.append(image)
    return added


def _line(cells: np.ndarray, side: str, k: int) -> np.ndarray:
    """Pixel line ``k`` in from ``side`` of every cell: ``[rows, cols, length, 3]``."""
    if side == "left":
        return cells[:, :, :, k]
    if side == "right":
        return cells[:, :, :, -1 - k]
    if side == "top":
        return cells[:, :, k, :]
    return cells[:, :, -1 - k, :]


def _draw(image: np.ndarray, side: str, lines: np.ndarray) -> None:
    """Paint a side's frame ``lines`` (``[depth, length, 3]``) over ``image`` (in place)."""
    for k, line in enumerate(lines):
        if side == "left":
            image[:, k, :3] = line
        elif side == "right":
            image[:, -1 - k, :3] = line
        elif side == "top":
            image[k, :, :3] = line
        else:
            image[-1 - k, :, :3] = line


def _alike(a: np.ndarray, b: np.ndarray) -> bool:
    """Two pixel lines the same (every channel within ``TOLERANCE`` on ``SAME_SHARE`` of them)."""
    return bool((np.abs(a - b).max(axis=-1) <= TOLERANCE).mean() >= SAME_SHARE)
