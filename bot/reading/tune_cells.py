"""Tuning, step 1: each screenshot's cell lattice and text board, and its cells grouped by look
(see :mod:`bot.reading.tune`)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bot.errors import LatticeError, TuneError
from bot.reading.lattice import Lattice, find_lattice, find_lattices, whole_lattice
from bot.reading.lattice_lines import whole_pixel_lines
from bot.userfiles import read_board_file, read_image

#: Pixels of a cell that must agree (within the tolerance) for two cells to look the same.
SAME_SHARE = 0.97

#: Per-channel difference that still counts as the same pixel when grouping cells.
TOLERANCE = 24
#: Most a cell pitch (px) may lie off a whole pixel in a capture at 100 % (or 200 %).
FRACTION = 0.05


@dataclass(frozen=True)
class Shot:
    """One screenshot: its pixels, the lattice found in it, and its text board if given."""

    path: Path
    image: np.ndarray
    lattice: Lattice
    labels: tuple[str, ...] | None  # board rows, when NAME.txt is beside the picture


def load_shot(path: str | Path) -> Shot:
    """Read a screenshot, find its board lattice and its labels (``NAME.txt`` beside it)."""
    path = Path(path)
    image = read_image(path, "screenshot")
    text = path.with_suffix(".txt")
    board = read_board_file(text) if text.is_file() else None
    try:
        lattice = _shot_lattice(image, board)
    except LatticeError as exc:
        raise TuneError(
            f"{path}: no board found ({exc}); capture the game window with the whole board "
            "showing, at least 4x4 cells"
        ) from exc
    if not _whole(lattice):
        # A capture at 100 % draws whole-pixel cells: a small board's frame, or its two kinds
        # of cell with edges a pixel apart, can pull the period a fraction off.
        try:
            whole = _shot_lattice(image, board, whole_pixels=True)
        except LatticeError:
            whole = lattice
        if (whole.cols, whole.rows) == (lattice.cols, lattice.rows):
            lattice = whole
    return shot_at(path, image, lattice, board)


def _shot_lattice(image: np.ndarray, board: Any, whole_pixels: bool = False) -> Lattice:
    """The lattice of a screenshot: of the labelled ``board``'s size when there is one."""
    if board is None:
        return find_lattice(image, whole_pixels=whole_pixels)
    return _labelled_lattice(image, board, whole_pixels)


def _whole(lattice: Lattice) -> bool:
    """Whether ``lattice``'s cells are a whole number of pixels apart both ways."""
    return not any(map(fractional, (lattice.pitch_x, lattice.pitch_y)))


def fractional(pitch: float) -> bool:
    """Whether a cell ``pitch`` (px) lies more than :data:`FRACTION` off a whole pixel."""
    return abs(pitch - round(pitch)) > FRACTION


def _labelled_lattice(image: np.ndarray, board: Any, whole_pixels: bool = False) -> Lattice:
    """The lattice of the labelled ``board``'s size among those found with strong and with
    faint edges (:func:`~bot.reading.lattice.find_lattices`: a web clone's squares of two
    greens show only their coloured cells at the first), one that ends at the board's frame
    first (strong edges may set the pitch from the coloured cells alone: 37.6 px for 37.2);
    else the first found (its size is then refused)."""
    lattices = find_lattices(image, whole_pixels=whole_pixels)
    sized = [lat for lat in lattices if (lat.cols, lat.rows) == (board.width, board.height)]
    return min(sized, key=lambda lat: not whole_lattice(image, lat), default=lattices[0])


def shot_at(path: Path, image: np.ndarray, lattice: Lattice, board: Any = None) -> Shot:
    """The screenshot ``image`` (read from ``path``) with its board at ``lattice`` and its
    labels (``board``, else ``NAME.txt`` beside it, checked against the lattice's size)."""
    labels = None
    text = path.with_suffix(".txt")
    lattice = on_whole_pixels(lattice)
    if board is None and text.is_file():
        board = read_board_file(text)
    if board is not None:
        if (board.width, board.height) != (lattice.cols, lattice.rows):
            raise TuneError(
                f"{text} is a {board.width}x{board.height} board but {path} shows "
                f"{lattice.cols}x{lattice.rows} cells ({lattice.describe()}): "
                + size_difference((board.width, board.height), (lattice.cols, lattice.rows))
            )
        labels = tuple(board.rows)
    return Shot(path=path, image=image, lattice=lattice, labels=labels)


def on_whole_pixels(lattice: Lattice) -> Lattice:
    """``lattice`` moved onto whole-pixel cells where its lines are a fraction of a pixel
    apart on average but all lie within a pixel of whole-pixel ones (a web clone's covered
    and open cells draw their edges a pixel apart: 19.89 px found for 20); else as found,
    and a fraction is refused (:func:`~bot.reading.tune_uneven.check_unscaled`)."""
    if _whole(lattice):
        return lattice
    xs, ys = whole_pixel_lines(lattice.xs), whole_pixel_lines(lattice.ys)
    return Lattice(xs=xs or _outer_as_inner(lattice.xs), ys=ys or _outer_as_inner(lattice.ys))


def _outer_as_inner(lines: tuple[int, ...]) -> tuple[int, ...]:
    """Lines a fraction of a pixel apart on average with the outer cells as wide as their
    neighbours: the finder places the outer lines one mean pitch out (GNOME Mines' last
    column, 35 px like those before it, was cut 36 px wide, its frame's pixel in every cell).

    >>> _outer_as_inner((30, 66, 102, 137, 172, 208))
    (30, 66, 102, 137, 172, 207)
    """
    if len(lines) < 4:
        return lines
    first, last = lines[1] - (lines[2] - lines[1]), lines[-2] + (lines[-2] - lines[-3])
    return (first, *lines[1:-1], last)


def size_difference(labelled: tuple[int, int], found: tuple[int, int]) -> str:
    """Which side of a board found differs from its text board (columns, rows), in words.

    >>> size_difference((30, 16), (30, 18))
    'the columns agree; 2 more rows found (a header or margin taken for cells?)'
    >>> size_difference((9, 9), (8, 9))
    '1 fewer column found (the picture cuts the board?); the rows agree'
    """

    def side(name: str, want: int, got: int) -> str:
        if want == got:
            return f"the {name}s agree"
        n = abs(got - want)
        what = f"{n} {'more' if got > want else 'fewer'} {name}{'s' if n > 1 else ''} found"
        if got > want:
            return f"{what} (a header or margin taken for cells?)"
        return f"{what} (the picture cuts the board?)"

    return "; ".join([side("column", labelled[0], found[0]), side("row", labelled[1], found[1])])


@dataclass(frozen=True)
class Sample:
    """Where one cell was cut: screenshot index and cell position."""

    shot: int
    x: int
    y: int


@dataclass
class Group:
    """Identical-looking cells: the first one's pixels stand for all of them."""

    key: str  # stable id from the pixels, so a groups file still applies on a rerun
    image: np.ndarray  # [h, w, 3] uint8, the representative (first) cell
    samples: list[Sample] = field(default_factory=list)
    name: str | None = None
    named_by: str = ""


def cell_size(shots: Sequence[Shot]) -> tuple[int, int]:
    """The most common cell width and height over all screenshots; where cells lie a fraction
    of a pixel apart (whole-pixel cells, spare pixels shared out), the wider of the two sizes:
    it is the one the game draws, the narrower cells lose a pixel of their edge."""
    size = []
    for lines, pitch in (("xs", "pitch_x"), ("ys", "pitch_y")):
        steps = np.concatenate([np.diff(getattr(s.lattice, lines)) for s in shots])
        common = int(np.bincount(steps).argmax())
        spread = any(fractional(getattr(s.lattice, pitch)) for s in shots)
        size.append(common + 1 if spread and (steps == common + 1).any() else common)
    return size[0], size[1]


def align_shots(shots: Sequence[Shot], size: tuple[int, int]) -> list[Shot]:
    """Every screenshot's lattice moved (a few pixels at most) to the first one's phase.

    The lattice of one screenshot may put the cell boundary on one side of a thin grid line,
    another screenshot's on the other side; cells must be cut alike in all of them. Each
    screenshot after the first is moved by the shift that makes the most of its cells equal,
    pixel for pixel, to cells already seen (ties: the smallest shift). Where no cell is equal
    at any shift (cells drawn semi-transparent over a shaded background never are), by the
    shift at which its cells agree best with cells seen (:func:`_near_shift`).
    """
    reach = max(2, min(size) // 5)
    shifts = sorted(
        ((dx, dy) for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)),
        key=lambda d: (abs(d[0]) + abs(d[1]), d),
    )
    placed: list[Shot] = []
    seen: set[bytes] = set()
    looks: list[np.ndarray] = []  # one cell of each look seen (within the tolerance)
    for shot in shots:
        best, best_count = (0, 0), 0
        if seen:
            for dx, dy in shifts:
                if not _inside(shot, dx, dy):
                    continue
                count = sum(cell in seen for cell in _cell_bytes(shot, size, dx, dy))
                if count > best_count:
                    best, best_count = (dx, dy), count
            if not best_count:
                best = _near_shift(shot, size, looks, shifts)
        moved = Shot(shot.path, shot.image, shot.lattice.shifted(*best), shot.labels)
        placed.append(moved)
        seen.update(_cell_bytes(moved, size, 0, 0))
        cut = moved.lattice.cells(moved.image, size)[..., :3]
        flat = cut.reshape(-1, *cut.shape[2:])
        looks += [flat[i] for i in _looks(flat, inset_for(size), looks)]
    return _majority_phase(shots, placed)


#: Most cells of one look kept, and compared, when aligning by agreement.
MAX_LOOKS = 48


def _looks(cells: np.ndarray, inset: int, known: Sequence[np.ndarray] = ()) -> list[int]:
    """Where among ``cells`` ([n, h, w, 3]) is one cell of each look not in ``known`` (looks
    agree on :data:`SAME_SHARE` of their pixels), at most :data:`MAX_LOOKS` in all."""
    out: list[int] = []
    for i, cell in enumerate(cells):
        if len(known) + len(out) >= MAX_LOOKS:
            break
        others = [*known, *(cells[j] for j in out)]
        if not others or agreements(cell, others, inset).max() < SAME_SHARE:
            out.append(i)
    return out


def _near_shift(
    shot: Shot,
    size: tuple[int, int],
    looks: Sequence[np.ndarray],
    shifts: Sequence[tuple[int, int]],
) -> tuple[int, int]:
    """The shift (of ``shifts``, the smallest on a tie) at which ``shot``'s cells of each look
    agree best with the cells ``looks`` seen before (the mean of each one's best agreement)."""
    inset = inset_for(size)
    cells = shot.lattice.cells(shot.image, size)[..., :3]
    flat = cells.reshape(-1, *cells.shape[2:])
    # Where the shot's looks are, as found at its own phase: compared at every shift.
    where = _looks(flat, inset)
    best, best_score = (0, 0), -1.0
    for dx, dy in shifts:
        if not looks or not _inside(shot, dx, dy):
            continue
        moved = shot.lattice.shifted(dx, dy).cells(shot.image, size)[..., :3]
        sample = moved.reshape(-1, *moved.shape[2:])[where]
        score = float(agreements(sample, looks, inset).max(axis=-1).mean())
        if score > best_score:
            best, best_score = (dx, dy), score
    return best


def _majority_phase(found: Sequence[Shot], placed: Sequence[Shot]) -> list[Shot]:
    """``placed`` all moved together so that most screenshots keep the lattice found in them.

    Aligning moves every screenshot to the first one's phase. When the first one's lattice
    was found a pixel off (a won board, all numbers and flags, can be) while the others agree
    among themselves, every cell would be cut with its neighbour's edge and one class would
    look different beside each kind of neighbour; the phase most of them were found at wins.
    A tie (two screenshots, one each way) keeps the first one's.

    >>> from bot.reading.lattice import Lattice
    >>> blank = np.zeros((1, 1, 3), np.uint8)
    >>> def shot(x): return Shot(Path("s.png"), blank, Lattice((x, x + 9), (0, 9)), None)
    >>> [s.lattice.left for s in _majority_phase([shot(4), shot(5), shot(5)], [shot(4)] * 3)]
    [5, 5, 5]
    >>> [s.lattice.left for s in _majority_phase([shot(4), shot(5)], [shot(4)] * 2)]
    [4, 4]
    """
    moves = [
        (f.lattice.left - p.lattice.left, f.lattice.top - p.lattice.top)
        for f, p in zip(found, placed, strict=True)
    ]
    best = max(set(moves), key=lambda m: (moves.count(m), m == (0, 0)))
    if best == (0, 0) or moves.count(best) <= moves.count((0, 0)):
        return list(placed)
    return [Shot(s.path, s.image, s.lattice.shifted(*best), s.labels) for s in placed]


def _cell_bytes(shot: Shot, size: tuple[int, int], dx: int, dy: int) -> list[bytes]:
    cells = shot.lattice.shifted(dx, dy).cells(shot.image, size)[..., :3]
    return [cell.tobytes() for cell in cells.reshape(-1, *cells.shape[2:])]


def _inside(shot: Shot, dx: int, dy: int) -> bool:
    x0, y0, x1, y1 = shot.lattice.shifted(dx, dy).box
    h, w = shot.image.shape[:2]
    return x0 >= 0 and y0 >= 0 and x1 <= w and y1 <= h


def agreement(a: np.ndarray, b: np.ndarray, inset: int, tolerance: int = TOLERANCE) -> float:
    """Share of pixels (inside ``inset``) whose every channel differs by at most ``tolerance``.

    >>> a = np.zeros((10, 10, 3), np.uint8); b = a.copy(); b[5, 5] = 200
    >>> agreement(a, b, 1)
    0.984375
    """
    return float(agreements(a, [b], inset, tolerance)[0])


def agreements(
    cells: np.ndarray, images: Sequence[np.ndarray], inset: int, tolerance: int = TOLERANCE
) -> np.ndarray:
    """:func:`agreement` of each of ``cells`` (``[..., h, w, 3]``) with each of ``images``:
    ``[..., len(images)]``.

    >>> a = np.zeros((1, 2, 10, 10, 3), np.uint8); b = np.zeros((10, 10, 3), np.uint8)
    >>> a[0, 1, 5, 5] = 200
    >>> agreements(a, [b], 1).tolist()
    [[[1.0], [0.984375]]]
    """
    h, w = cells.shape[-3:-1]
    inner = cells[..., inset : h - inset, inset : w - inset, :].astype(np.int16)
    out = np.empty((*cells.shape[:-3], len(images)))
    for k, image in enumerate(images):
        ref = image[inset : h - inset, inset : w - inset].astype(np.int16)
        out[..., k] = (np.abs(inner - ref).max(axis=-1) <= tolerance).mean(axis=(-2, -1))
    return out


def group_cells(
    shots: Sequence[Shot], size: tuple[int, int], inset: int, same: float = SAME_SHARE
) -> list[Group]:
    """Group every cell of every screenshot with the cells that look the same."""
    groups: list[Group] = []
    reps = np.zeros((0,), np.int16)
    h_in, w_in = size[1] - 2 * inset, size[0] - 2 * inset
    for s, shot in enumerate(shots):
        cells = shot.lattice.cells(shot.image, size)[..., :3]
        for y in range(shot.lattice.rows):
            for x in range(shot.lattice.cols):
                cell = cells[y, x]
                inner = cell[inset : inset + h_in, inset : inset + w_in].astype(np.int16)
                found = -1
                if len(groups):
                    ok = (np.abs(reps - inner[None]).max(axis=3) <= TOLERANCE).mean(axis=(1, 2))
                    best = int(np.argmax(ok))
                    if ok[best] >= same:
                        found = best
                if found < 0:
                    key = hashlib.sha1(np.ascontiguousarray(cell).tobytes()).hexdigest()[:8]
                    groups.append(Group(key=key, image=cell.copy()))
                    reps = inner[None] if len(groups) == 1 else np.concatenate([reps, inner[None]])
                    found = len(groups) - 1
                groups[found].samples.append(Sample(s, x, y))
    return groups


def surroundings_read_as_cells(
    shots: Sequence[Shot],
    groups: Sequence[Group],
    size: tuple[int, int],
    inset: int,
    tolerance: int = TOLERANCE,
) -> int:
    """How many lattice cells just outside the boards (a header, a frame, the window around)
    look the same as a group of board cells when compared inside ``inset`` (every channel
    within ``tolerance``, the skin's own, on :data:`SAME_SHARE` of the pixels).

    A cell drawn as a flat tone inside a one-pixel outline (an open cell of Wine's
    Minesweeper: black inside a dotted edge) looks, without its outline, like any flat area
    of that tone: the black header above the board then reads as empty cells.
    """
    return int(sum(same.any(axis=1).sum() for same in _ring_alike(shots, groups, size, inset,
                                                                   tolerance)))  # fmt: skip


#: How far beside the board (cells) a flat patch of a cell's tone counts as what another
#: window of the game may put in the ring of cells round the board (a status bar below it,
#: further, is not looked at).
BESIDE = 1


def flat_tone_outside(
    shots: Sequence[Shot],
    groups: Sequence[Group],
    size: tuple[int, int],
    inset: int,
    tolerance: int = TOLERANCE,
) -> bool:
    """Whether a group's cell is, inside ``inset``, one flat tone that a patch of a cell's size
    beside the board has too (within :data:`BESIDE` cells of it), at any place, not only on
    the lattice.

    The ring of cells round the board (:func:`surroundings_read_as_cells`) shows what this
    window puts there; a wider window of the game may put the same things at other places
    along the board (Wine's Minesweeper: at nine columns the header over the board is full
    of counters and the face, at thirty it is black between them, and its empty cells are
    black inside a one-pixel outline). A menu bar far from the board is not looked at.
    """
    import cv2

    h, w = size[1] - 2 * inset, size[0] - 2 * inset
    tones = []
    for group in groups:
        inner = group.image[inset : size[1] - inset, inset : size[0] - inset, :3].astype(np.int16)
        if int((inner.max(axis=(0, 1)) - inner.min(axis=(0, 1))).max()) <= tolerance:
            tones.append(np.median(inner.reshape(-1, 3), axis=0))
    for shot, tone in ((shot, tone) for shot in shots for tone in tones):
        image = shot.image[..., :3].astype(np.int16)
        alike = (np.abs(image - tone).max(axis=2) <= tolerance).astype(np.float32)
        x0, y0, x1, y1 = shot.lattice.box
        alike[max(y0, 0) : max(y1, 0), max(x0, 0) : max(x1, 0)] = 0.0
        near = np.zeros_like(alike)
        bx, by = BESIDE * size[0], BESIDE * size[1]
        near[max(y0 - by, 0) : max(y1 + by, 0), max(x0 - bx, 0) : max(x1 + bx, 0)] = 1.0
        alike *= near
        share = cv2.boxFilter(alike, -1, (w, h), borderType=cv2.BORDER_CONSTANT)
        if float(share.max()) >= SAME_SHARE:
            return True
    return False


def groups_like_surroundings(
    shots: Sequence[Shot],
    groups: Sequence[Group],
    size: tuple[int, int],
    inset: int,
    tolerance: int,
) -> list[bool]:
    """For each group, whether a lattice cell just outside a board looks the same (as
    :func:`surroundings_read_as_cells` compares): a variant made for a class (another line
    colour) that the window around the board passes for would let the board grow into it."""
    alike = np.zeros(len(groups), bool)
    for same in _ring_alike(shots, groups, size, inset, tolerance):
        alike |= same.any(axis=0)
    return [bool(a) for a in alike]


def _ring_alike(
    shots: Sequence[Shot],
    groups: Sequence[Group],
    size: tuple[int, int],
    inset: int,
    tolerance: int,
) -> list[np.ndarray]:
    """Per screenshot, ``[ring cells, groups]``: which ring cell looks the same as which group."""
    if not groups:
        return []
    reps = np.stack([g.image[..., :3] for g in groups]).astype(np.int16)
    out = []
    for shot in shots:
        ring = _ring_cells(shot, size)
        if not len(ring):
            continue
        h, w = size[1], size[0]
        a = ring[:, None, inset : h - inset, inset : w - inset].astype(np.int16)
        b = reps[None, :, inset : h - inset, inset : w - inset]
        out.append((np.abs(a - b).max(axis=4) <= tolerance).mean(axis=(2, 3)) >= SAME_SHARE)
    return out


def _ring_cells(shot: Shot, size: tuple[int, int]) -> np.ndarray:
    """The cells of the lattice ring just outside the board, those inside the picture."""
    lat = shot.lattice
    pw, ph = size
    height, width = shot.image.shape[:2]
    xs = (lat.xs[0] - pw, *lat.xs, lat.xs[-1] + pw)
    ys = (lat.ys[0] - ph, *lat.ys, lat.ys[-1] + ph)
    cells = []
    for j in range(len(ys) - 1):
        for i in range(len(xs) - 1):
            if 0 < i < len(xs) - 2 and 0 < j < len(ys) - 2:
                continue  # a cell of the board
            if xs[i] < 0 or ys[j] < 0 or xs[i + 1] > width or ys[j + 1] > height:
                continue
            cell = Lattice((xs[i], xs[i + 1]), (ys[j], ys[j + 1])).cells(shot.image, size)
            cells.append(cell[0, 0, ..., :3])
    return np.array(cells)


def inset_for(size: tuple[int, int]) -> int:
    """Pixels left out around each cell when comparing: one, the outermost ring, which is
    where grid lines meet and antialiasing lands. A grid line wider than that stays in the
    template, pins the lattice phase (a dithered cell without it matches at several phases)
    and keeps a plain window background from reading as an empty cell.

    >>> inset_for((20, 20)), inset_for((8, 8))
    (1, 0)
    """
    return 1 if min(size) >= 10 else 0
