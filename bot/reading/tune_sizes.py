"""Tuning from screenshots at several cell sizes (see :mod:`bot.reading.tune`).

Some games draw their cells anew at each size (KMines fills its window: 29 px cells on its
easy level, 16 px on its hard one). Their cells at one size are not those of another size
stretched: lines stay one pixel wide, glyphs are drawn at whole pixels. Screenshots at other
sizes are learnt apart, each size from its own screenshots: the size nearest the others is the
skin's own (:func:`shots_by_size`), the others are written as its ``drawn_sizes`` (see
``templates/README.md``), and the reader compares a board's cells with the images of the size
nearest theirs (``cell.stretch_from: "nearest"``).

>>> from pathlib import Path
>>> from bot.reading.lattice import Lattice
>>> def shot(pitch):
...     return Shot(Path("a.png"), np.zeros((1, 1, 3), np.uint8),
...                 Lattice.regular(0, 0, pitch, pitch, 9, 9), None)
>>> [size for size, _ in shots_by_size([shot(16), shot(29), shot(16), shot(18)])]
[(18, 18), (16, 16), (29, 29)]
>>> [size for size, _ in shots_by_size([shot(16), shot(17), shot(29)])]
[(16, 16), (29, 29)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from bot.errors import TuneError
from bot.reading.skins import CLASS_CHARS
from bot.reading.tune_cells import (
    Group,
    Shot,
    align_shots,
    cell_size,
    flat_tone_outside,
    group_cells,
    groups_like_surroundings,
    inset_for,
    surroundings_read_as_cells,
)
from bot.reading.tune_frame import frame_variants
from bot.reading.tune_skin import line_bands, line_variants, match_tolerance


@dataclass
class SizeLearnt:
    """What tuning learnt at one cell size: its screenshots (aligned), where in a cell they are
    compared (``inset``), the groups of cells, the grid-line mask (None: no lines), and the
    variants made rather than seen (``derived``, also in ``groups``)."""

    size: tuple[int, int]
    shots: list[Shot]
    inset: int
    groups: list[Group]
    mask: np.ndarray | None
    derived: list[Group] = field(default_factory=list)

    def add_variants(self, tolerance: int) -> None:
        """Each class also with every grid-line look seen (:func:`line_variants`) and as drawn
        along a side of the board a frame draws over (:func:`frame_variants`); none that the
        window around the board looks like (``tolerance``: the skin's), which would let the
        board grow into it (KMines' dark border line given to an empty cell let the grey
        window pass for a ring of empty cells)."""
        for make in (self._line_variants, self._frame_variants):
            made = make()
            alike = groups_like_surroundings(self.shots, made, self.size, self.inset, tolerance)
            made = [g for g, near in zip(made, alike, strict=True) if not near]
            self.groups = self.groups + made
            self.derived = self.derived + made

    def named_boards(self) -> list[np.ndarray]:
        """Each screenshot's cells as their groups are named (``[rows, cols]`` characters;
        ``" "`` where no group has a class name)."""
        boards = [np.full((s.lattice.rows, s.lattice.cols), " ") for s in self.shots]
        for group in self.groups:
            char = CLASS_CHARS.get(group.name or "")
            for sample in group.samples if char is not None else ():
                boards[sample.shot][sample.y, sample.x] = char
        return boards

    def _line_variants(self) -> list[Group]:
        return [] if self.mask is None else line_variants(self.groups, self.mask)

    def _frame_variants(self) -> list[Group]:
        return frame_variants(self.groups, self.shots, self.size)


def shots_by_size(shots: Sequence[Shot]) -> list[tuple[tuple[int, int], list[Shot]]]:
    """The screenshots by cell size, in the order met but for the skin's own size, first: the
    one nearest every other by ratio (its largest ratio to another the least; ties: the first
    met). The own size's inset and tolerance serve every size, scaled: the middle one of
    KMines' 16, 18 and 29 px cells serves all three, the 16 px one's (with its outer ring and
    a wide tolerance) told 18 px empty cells from covered ones by too few pixels.
    Sizes a pixel apart are one size: a lattice that shares out spare pixels has cells of two
    widths, and one screenshot may show more of the one, another more of the other."""
    out: list[tuple[tuple[int, int], list[Shot]]] = []
    for shot in shots:
        w, h = cell_size([shot])  # this screenshot's own
        for (sw, sh), same in out:
            if abs(sw - w) <= 1 and abs(sh - h) <= 1:
                same.append(shot)
                break
        else:
            out.append(((w, h), [shot]))
    # Each size as the most common cell size over its screenshots.
    sized = [(cell_size(same), same) for _, same in out]

    def farthest(size: tuple[int, int]) -> float:
        return max(abs(np.log(size[0] / w)) + abs(np.log(size[1] / h)) for (w, h), _ in sized)

    own = min(range(len(sized)), key=lambda i: (farthest(sized[i][0]), i))
    return [sized[own], *sized[:own], *sized[own + 1 :]]


def check_named(learnt: SizeLearnt, own: tuple[int, int]) -> None:
    """Refuse a size other than the skin's own (``own``) with cells no label names: only a
    text board (``NAME.txt``) or the fresh-board rule names cells at another size."""
    unnamed = [g for g in learnt.groups if g.name is None]
    if not unnamed:
        return
    files = sorted({learnt.shots[s.shot].path.name for g in unnamed for s in g.samples})
    w, h = learnt.size
    raise TuneError(
        f"{', '.join(files)}: cells of {w}x{h} px (the skin's own are {own[0]}x{own[1]}) "
        f"that no text board names ({len(unnamed)} looks): a screenshot at another cell size "
        "teaches that size from its text board; write NAME.txt beside it (or give a fresh "
        "board at that size, every cell covered)"
    )


def grouped_cells(shots: Sequence[Shot], size: tuple[int, int]) -> SizeLearnt:
    """The cells of ``shots`` (all of one cell ``size``) grouped by look, and where in a cell
    they are compared (the inset)."""
    inset = inset_for(size)
    shots = align_shots(shots, size)
    groups = group_cells(shots, size, inset)
    # Without its outer ring a cell may look like the board's surroundings (an open cell drawn
    # as a flat tone inside a one-pixel edge): then its ring is kept if that tells them apart.
    # (Compared as the reader will: within the skin's tolerance.) A cell flat inside its ring
    # whose tone a patch beside the board has, anywhere, is taken the same way.
    inner_tolerance = match_tolerance(groups, shots, size, inset) if inset else 0
    if inset and (
        surroundings_read_as_cells(shots, groups, size, inset, inner_tolerance)
        or flat_tone_outside(shots, groups, size, inset, inner_tolerance)
    ):
        whole = group_cells(shots, size, 0)
        whole_tolerance = match_tolerance(whole, shots, size, 0)
        if not surroundings_read_as_cells(
            shots, whole, size, 0, whole_tolerance
        ) and not flat_tone_outside(shots, whole, size, 0, whole_tolerance):
            inset, groups = 0, whole
    # Where the grid lines are in a cell (None if the skin has none): a game that recolours
    # them (xbomb outlines the opened area in green after a loss) gets every class in every
    # line colour seen.
    mask = line_bands([g.image for g in groups], [len(g.samples) for g in groups])
    return SizeLearnt(size, list(shots), inset, groups, mask)
