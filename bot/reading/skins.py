"""Skins: how one game draws its cells, as data (a folder of images plus ``skin.json``).

A skin folder holds one PNG per cell class (several for a class that has variants, such as a
hover highlight) and ``skin.json`` saying which image is which class, the cell pitch, whether
cells scale with the window, the level sizes, how a loss, a win and a restart look. The keys are
documented in ``templates/README.md``. Adding a game is adding a folder: no code names a skin.

Skins are looked for in :func:`skin_dirs` order; a later folder with the same skin name
overrides an earlier one, so a user can patch a shipped skin without touching the package.

>>> from bot.reading.skins import CLASS_CHARS
>>> CLASS_CHARS["covered"], CLASS_CHARS["flag"], CLASS_CHARS["3"]
('.', 'F', '3')
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from bot.errors import SkinFormatError, UnknownSkinError
from bot.paths import shipped_skins_dir, user_skins_dir
from bot.reading.skin_schema import check_counter, check_skin_meta
from solver.board import COVERED, EXPLODED, FLAG, MINE, NUMBERS, QUESTION, WRONG_FLAG

#: The cell classes a skin may draw, and the board character each one reads as.
CLASS_CHARS: dict[str, str] = {
    "covered": COVERED,
    "question": QUESTION,
    "flag": FLAG,
    "mine": MINE,
    "exploded": EXPLODED,
    "wrong_flag": WRONG_FLAG,
    **{n: n for n in NUMBERS},
}

#: File name of a skin's metadata inside its folder.
SKIN_FILE = "skin.json"

#: Desktop scalings a fixed-pixel skin is looked for at (Windows' 100%, 125%, 150%, 175%, 200%).
DEFAULT_SCALES = (1.0, 1.25, 1.5, 1.75, 2.0)

#: The desktop scalings fixed-pixel skins are looked for at: those the skin lists first, and
#: any other in this range when its key colours repeat at such a pitch.
DESKTOP_SCALING = (1.0, 3.0)
#: Desktop scalings come in steps of a quarter (Windows and GNOME offer 125 %, 150 %, 175 % ...):
#: a game that draws its own cell sizes may be drawn at one and stretched by such a scaling.
DESKTOP_SCALE_STEP = 0.25
#: How far (relative) a pitch may be from a drawn size times a desktop scaling and still be
#: taken for it (a lattice fitted to a few hundred cells is within 0.1 %).
SCALED_SIZE_SLACK = 0.005


@dataclass(frozen=True)
class Level:
    """One of the game's standard sizes: ``cols`` x ``rows`` with ``mines`` mines."""

    name: str
    cols: int
    rows: int
    mines: int


@dataclass(frozen=True, eq=False)
class DrawnSize:
    """The game's cells as it draws them at another cell size (skin.json ``drawn_sizes``): games
    that draw each size natively (lines stay one pixel wide, bevels and glyphs keep whole
    pixels) do not look like the skin's images stretched. ``variants``: ``(class name, image)``
    pairs, images ``pitch_y`` x ``pitch_x``; classes without an image here are only compared
    stretched from the skin's own images."""

    pitch_x: int
    pitch_y: int
    variants: tuple[tuple[str, np.ndarray], ...]


@dataclass(frozen=True, eq=False)
class Skin:
    """A game's look, loaded from its folder: a plain value (two skins loaded from the same
    files are equal; nothing is written into it while reading: what the reader keeps between
    frames lives in a :class:`~bot.reading.state.ReaderState` its caller owns).

    ``templates`` maps each class name (``"covered"``, ``"0"`` .. ``"8"``, ``"flag"`` ...) to its
    first image; ``variants`` lists every ``(class name, image)`` pair, variants included. Images
    are BGR ``uint8`` arrays of one cell pitch (``pitch_y`` x ``pitch_x``) at scale 1, cut with
    the cell's top-left lattice point at (0, 0).

    >>> find_skin("winmine") == find_skin("winmine"), find_skin("winmine") == find_skin("xdemineur")
    (True, False)
    """

    name: str
    folder: Path
    meta: Mapping[str, Any]
    templates: Mapping[str, np.ndarray]
    variants: tuple[tuple[str, np.ndarray], ...]
    pitch_x: int
    pitch_y: int
    inset: int
    scales_with_window: bool
    scales: tuple[float, ...]
    pitch_range: tuple[float, float]
    tolerance: int
    min_confidence: float
    min_margin: float
    anchors: tuple[str, ...]
    levels: tuple[Level, ...]
    lost_chars: str
    #: How far (px) columns and rows may sit off an even lattice (games sharing out spare pixels).
    uneven_px: float = 0.0
    #: The spare pixels go to the first columns and rows: on such an uneven lattice the wider
    #: cells come first, then the narrower (skin.json ``cell.spare_px_first``; GTK's grids).
    spare_first: bool = False
    #: The cells as drawn at other sizes (skin.json ``drawn_sizes``), smallest first.
    sizes: tuple[DrawnSize, ...] = ()
    #: Classes with a tolerance of their own (skin.json ``match.class_tolerance``).
    class_tolerance: tuple[tuple[str, int], ...] = ()
    #: The gap (px) a game growing its cells with the window keeps between its tiles, after
    #: each tile (right and below) and the same at every size (skin.json ``cell.gap_px``).
    gap_px: int = 0
    #: At a size no image was cut at, only the nearest size's images stand for the cells, not
    #: the skin's own stretched (skin.json ``cell.stretch_from: "nearest"``).
    stretch_nearest: bool = False
    #: The game opens every cell round a 0 at once (skin.json ``opens_round_zeros``, default
    #: true): a 0 beside a covered cell is then a cell held down or a misread.
    opens_round_zeros: bool = True

    def redrawn(self, draw: Callable[[np.ndarray], np.ndarray]) -> Skin:
        """This skin with every image (those drawn at other sizes too) passed through ``draw``
        (an image -> the image as a screen shows it): a new value, compared and memoised by
        its images.

        >>> skin = find_skin("winmine")
        >>> int(skin.redrawn(lambda image: image // 2).templates["covered"][8, 8, 0])
        96
        """
        return replace(
            self,
            templates={name: draw(image) for name, image in self.templates.items()},
            variants=tuple((name, draw(image)) for name, image in self.variants),
            sizes=tuple(
                replace(size, variants=tuple((name, draw(image)) for name, image in size.variants))
                for size in self.sizes
            ),
        )

    def tolerance_of(self, cls: str) -> int:
        """The per-channel tolerance the images of class ``cls`` are matched with."""
        return dict(self.class_tolerance).get(cls, self.tolerance)

    def uneven_at(self, px: float, py: float) -> float:
        """How far (px) lines may sit off an even lattice of pitch ``(px, py)``: ``uneven_px``,
        times the scale when a desktop scaler stretched the game's whole-pixel cells (the spare
        pixels it shared out grow with them), by no more than the highest desktop scaling."""
        scale = min(px / self.pitch_x, py / self.pitch_y, DESKTOP_SCALING[1])
        return self.uneven_px * max(1.0, scale)

    def drawn_at(self, px: float, py: float) -> tuple[tuple[str, np.ndarray], ...]:
        """``(class name, image)`` of each class as the game draws it at pitch ``(px, py)``, as
        near as its images tell: as drawn at the size nearest by ratio that has the class
        (skin.json ``drawn_sizes``; a class is left out where the skin's own size is as near).
        A game that keeps a fixed gap between its tiles (``gap_px``): each class's images
        nearest in size, the skin's own included, with the tile stretched to the pitch less
        the gap and the gap kept (:func:`regapped`); none at the skin's own size, where its
        images are as drawn."""
        if not self.gap_px:
            own = abs(np.log(px / self.pitch_x)) + abs(np.log(py / self.pitch_y))
            nearest = self._nearest_drawn(px, py, own)
            kept = {id(image) for _, image in nearest}
            scaled = [
                variant
                for size in self.scaled_sizes(px, py)
                for variant in size.variants
                if id(variant[1]) not in kept
            ]
            return (*nearest, *scaled)
        size = (max(self.gap_px + 2, round(px)), max(self.gap_px + 2, round(py)))
        if size == (self.pitch_x, self.pitch_y):
            return ()
        found = self._nearest_drawn(px, py, np.inf, own_too=True)
        return tuple((cls, regapped(image, size, self.gap_px)) for cls, image in found)

    def scaled_sizes(self, px: float, py: float) -> tuple[DrawnSize, ...]:
        """The drawn sizes (skin.json ``drawn_sizes``) a desktop scaling stretches to pitch
        ``(px, py)``: a game drawing 14 px tiles on a desktop at 250 % shows 35 px cells that
        look like neither its 35 px tiles nor its own size stretched.

        >>> from bot.reading.skins import find_skin
        >>> [z.pitch_x for z in find_skin("sgt-mines").scaled_sizes(35.0, 35.0)]
        [14, 28]
        """
        lo, hi = DESKTOP_SCALING
        found = []
        for size in self.sizes:
            sx, sy = px / size.pitch_x, py / size.pitch_y
            scale = round(sx / DESKTOP_SCALE_STEP) * DESKTOP_SCALE_STEP
            if lo < scale <= hi and all(abs(v / scale - 1) <= SCALED_SIZE_SLACK for v in (sx, sy)):
                found.append(size)
        return tuple(found)

    def nearest_at(self, px: float, py: float) -> tuple[tuple[str, np.ndarray], ...]:
        """``(class name, image)`` of each class at the size nearest pitch ``(px, py)`` by ratio
        that has the class, the skin's own size included: what stands for the cells at that
        pitch in a skin that stretches only the nearest (``stretch_nearest``)."""
        return self._nearest_drawn(px, py, np.inf, own_too=True)

    def _nearest_drawn(
        self, px: float, py: float, within: float, own_too: bool = False
    ) -> tuple[tuple[str, np.ndarray], ...]:
        """Each class's images at the size nearest ``(px, py)`` by ratio that has the class,
        among the drawn sizes (and the skin's own, with ``own_too``) nearer than ``within``."""
        sizes = [(z.pitch_x, z.pitch_y, z.variants) for z in self.sizes]
        if own_too:
            sizes.append((self.pitch_x, self.pitch_y, self.variants))
        by_distance = sorted(
            (abs(np.log(px / x)) + abs(np.log(py / y)), i) for i, (x, y, _) in enumerate(sizes)
        )
        found: dict[str, list[tuple[str, np.ndarray]]] = {}
        for distance, i in by_distance:
            if distance >= within:
                break
            variants = sizes[i][2]
            for cls in dict.fromkeys(name for name, _ in variants):
                if cls not in found:
                    found[cls] = [v for v in variants if v[0] == cls]
        return tuple(v for variants in found.values() for v in variants)

    def _key(self) -> tuple:
        """Everything but the images (compared apart: arrays have no ``==`` of their own)."""
        return (
            self.name, self.folder, self.pitch_x, self.pitch_y, self.inset,
            self.scales_with_window, self.scales, self.pitch_range, self.tolerance,
            self.min_confidence, self.min_margin, self.anchors, self.levels, self.lost_chars,
            self.uneven_px, self.class_tolerance, self.gap_px, self.stretch_nearest,
            self.spare_first, self.opens_round_zeros,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Skin):
            return NotImplemented
        if self is other:
            return True
        return (
            self._key() == other._key()
            and self.meta == other.meta
            and _same_images(self.variants, other.variants)
            and len(self.sizes) == len(other.sizes)
            and all(
                (a.pitch_x, a.pitch_y) == (b.pitch_x, b.pitch_y)
                and _same_images(a.variants, b.variants)
                for a, b in zip(self.sizes, other.sizes, strict=True)
            )
        )

    def __hash__(self) -> int:
        return hash((self.name, self.folder, self.pitch_x, self.pitch_y, len(self.variants)))

    def __repr__(self) -> str:
        return f"Skin({self.name!r}, {str(self.folder)!r})"

    def level_mines(self, cols: int, rows: int) -> int | None:
        """The mine count of the skin's standard level of this size, if exactly one matches.

        >>> from bot.reading.skins import find_skin
        >>> find_skin("winmine").level_mines(30, 16)
        99
        >>> find_skin("winmine").level_mines(31, 16) is None
        True
        """
        counts = {lv.mines for lv in self.levels if (lv.cols, lv.rows) == (cols, rows)}
        return counts.pop() if len(counts) == 1 else None

    @property
    def characters(self) -> str:
        """The board characters this skin can show, e.g. ``'.012345678F?*XW'``."""
        return "".join(dict.fromkeys(CLASS_CHARS[name] for name, _ in self.variants))


@lru_cache(maxsize=16)
def first_images(skin: Skin) -> Skin:
    """``skin`` with each class's first image alone, at its own size and at each size drawn: a
    tone curve is learnt against these too (a variant drawn for one cell at a time, or a
    number's tile beside the empty one, lets too few cells be sure of their class). Memoised,
    so that the template banks memoised per skin find it again by identity (comparing skins
    compares all their images: sgt-mines has a thousand)."""

    def firsts(variants: tuple[tuple[str, np.ndarray], ...]) -> tuple[tuple[str, np.ndarray], ...]:
        first: dict[str, np.ndarray] = {}
        for name, image in variants:
            first.setdefault(name, image)
        return tuple(first.items())

    return replace(
        skin,
        variants=firsts(skin.variants),
        sizes=tuple(replace(size, variants=firsts(size.variants)) for size in skin.sizes),
    )


def regapped(image: np.ndarray, size: tuple[int, int], gap: int) -> np.ndarray:
    """``image`` (one cell: a tile, then a gap of ``gap`` px right of it and below it) as a
    game keeping that gap draws the cell at ``size`` (w, h): the tile stretched to the size
    less the gap, the gap's strips stretched along their length only.

    >>> cell = np.full((6, 6, 3), 9, np.uint8); cell[4:] = cell[:, 4:] = 200
    >>> big = regapped(cell, (9, 9), 2)
    >>> big.shape, int(big[:7, :7].max()), int(big[7:, :].min()), int(big[:, 7:].min())
    ((9, 9, 3), 9, 200, 200)
    """
    import cv2

    h, w = image.shape[:2]
    tw, th = size[0] - gap, size[1] - gap
    interp = cv2.INTER_AREA if tw < w - gap or th < h - gap else cv2.INTER_LINEAR
    out = np.empty((size[1], size[0], image.shape[2]), image.dtype)
    out[:th, :tw] = cv2.resize(image[: h - gap, : w - gap], (tw, th), interpolation=interp)
    out[:th, tw:] = cv2.resize(image[: h - gap, w - gap :], (gap, th), interpolation=interp)
    out[th:, :tw] = cv2.resize(image[h - gap :, : w - gap], (tw, gap), interpolation=interp)
    out[th:, tw:] = image[h - gap :, w - gap :]
    return out


def _same_images(
    a: tuple[tuple[str, np.ndarray], ...], b: tuple[tuple[str, np.ndarray], ...]
) -> bool:
    """Whether two lists of ``(class name, image)`` pairs are the same."""
    return len(a) == len(b) and all(
        n == m and np.array_equal(x, y) for (n, x), (m, y) in zip(a, b, strict=True)
    )


def skin_dirs() -> list[Path]:
    """Folders searched for skins, in order: the shipped ones
    (:func:`bot.paths.shipped_skins_dir`), the user's (:func:`bot.paths.user_skins_dir`, e.g.
    ``~/.local/share/minebot/skins`` on Linux), then every folder in ``$MINEBOT_SKINS``
    (``os.pathsep`` separated). Folders that do not exist are left out."""
    dirs = [shipped_skins_dir(), user_skins_dir()]
    dirs += [Path(p) for p in os.environ.get("MINEBOT_SKINS", "").split(os.pathsep) if p]
    return [d for d in dirs if d.is_dir()]


def load_skins(dirs: Iterable[Path] | None = None) -> list[Skin]:
    """Every skin in ``dirs`` (default :func:`skin_dirs`), sorted by name.

    A sub-folder without ``skin.json`` is not a skin and is skipped; a malformed one raises
    :class:`~bot.errors.SkinFormatError` naming the file.
    """
    found: dict[str, Skin] = {}
    for base in skin_dirs() if dirs is None else dirs:
        for folder in sorted(Path(base).iterdir()):
            if (folder / SKIN_FILE).is_file():
                skin = load_skin(folder)
                found[skin.name] = skin  # later folders override earlier ones
    return [found[name] for name in sorted(found)]


def find_skin(name: str, dirs: Iterable[Path] | None = None) -> Skin:
    """The skin called ``name``.

    >>> find_skin("no-such-game")
    Traceback (most recent call last):
    ...
    bot.errors.UnknownSkinError: unknown skin 'no-such-game' (known: gnome-mines, sgt-mines, ...)
    """
    skins = load_skins(dirs)
    for skin in skins:
        if skin.name == name:
            return skin
    known = ", ".join(s.name for s in skins) or "none"
    raise UnknownSkinError(f"unknown skin {name!r} (known: {known})")


def load_skin(folder: Path) -> Skin:
    """Load one skin folder; every problem raises :class:`SkinFormatError` naming the file."""
    folder = Path(folder)
    path = folder / SKIN_FILE
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SkinFormatError(f"{path}: cannot read: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise SkinFormatError(f"{path}: not valid JSON: {exc}") from exc
    if not isinstance(meta, dict):
        raise SkinFormatError(f"{path}: expected a JSON object at the top level")
    check_skin_meta(meta, path)
    try:
        return _build_skin(folder, path, meta)
    except (KeyError, TypeError, ValueError) as exc:
        what = f"missing key {exc}" if isinstance(exc, KeyError) else str(exc)
        raise SkinFormatError(f"{path}: {what}") from exc


def _build_skin(folder: Path, path: Path, meta: dict[str, Any]) -> Skin:
    name = str(meta.get("name") or folder.name)
    cell = meta["cell"]
    pitch_x, pitch_y = (int(v) for v in cell["pitch"])
    if pitch_x < 4 or pitch_y < 4:
        raise ValueError(f"cell pitch {pitch_x}x{pitch_y} is too small")
    inset = int(cell.get("inset", 0))
    if not 0 <= inset < min(pitch_x, pitch_y) // 2 - 1:
        raise ValueError(f"cell inset {inset} leaves nothing of a {pitch_x}x{pitch_y} cell")
    spec = meta["templates"]
    if not isinstance(spec, dict) or not spec:
        raise ValueError("'templates' must be an object: class name -> image file(s)")
    variants = _load_images(folder, path, spec, (pitch_x, pitch_y))
    sizes = []
    for entry in meta.get("drawn_sizes", []):
        size_x, size_y = (int(v) for v in entry["pitch"])
        images = _load_images(folder, path, entry["templates"], (size_x, size_y))
        sizes.append(DrawnSize(size_x, size_y, tuple(images)))
    sizes.sort(key=lambda z: (z.pitch_x, z.pitch_y))
    if "covered" not in spec:
        raise ValueError("'templates' has no 'covered' image")
    templates: dict[str, np.ndarray] = {}
    for cls, image in variants:
        templates.setdefault(cls, image)
    match = meta.get("match", {})
    anchors = tuple(meta.get("anchors", ["covered", "0"]))
    for anchor in anchors:
        if anchor not in templates:
            raise ValueError(f"anchor {anchor!r} has no image in 'templates'")
    levels = tuple(
        Level(str(lv.get("name", "")), int(lv["cols"]), int(lv["rows"]), int(lv["mines"]))
        for lv in meta.get("levels", [])
    )
    check_counter(folder, path, meta.get("counter"))
    scales_with_window = bool(cell.get("scales_with_window", False))
    gap_px = int(cell.get("gap_px", 0))
    if gap_px and min(pitch_x, pitch_y) - gap_px < 2:
        raise ValueError(f"'cell.gap_px' {gap_px} leaves no tile of a {pitch_x}x{pitch_y} cell")
    pitch_range = tuple(float(v) for v in cell.get("pitch_range", [pitch_x, pitch_x]))
    if len(pitch_range) != 2 or pitch_range[0] > pitch_range[1]:
        raise ValueError("'cell.pitch_range' must be [smallest, largest] pitch in px")
    return Skin(
        name=name,
        folder=folder,
        meta=meta,
        templates=templates,
        variants=tuple(variants),
        pitch_x=pitch_x,
        pitch_y=pitch_y,
        inset=inset,
        scales_with_window=scales_with_window,
        scales=tuple(float(s) for s in meta.get("scales", DEFAULT_SCALES)),
        pitch_range=(pitch_range[0], pitch_range[1]),
        tolerance=int(match.get("tolerance", 40)),
        class_tolerance=tuple(
            (str(k), int(v)) for k, v in sorted(match.get("class_tolerance", {}).items())
        ),
        min_confidence=float(match.get("min_confidence", 0.85)),
        min_margin=float(match.get("min_margin", 0.04)),
        anchors=anchors,
        levels=levels,
        lost_chars=str(meta.get("lost", {}).get("chars", "X")),
        uneven_px=float(cell.get("uneven_px", 0)),
        spare_first=bool(cell.get("spare_px_first", False)),
        gap_px=gap_px,
        stretch_nearest=cell.get("stretch_from", "own") == "nearest",
        opens_round_zeros=bool(meta.get("opens_round_zeros", True)),
        sizes=tuple(sizes),
    )


def _load_images(
    folder: Path, path: Path, spec: Mapping[str, Any], pitch: tuple[int, int]
) -> list[tuple[str, np.ndarray]]:
    """``(class name, image)`` of a "templates" object (class -> file or files), each image
    checked to be one cell of ``pitch`` (x, y)."""
    import cv2

    variants: list[tuple[str, np.ndarray]] = []
    for cls, files in spec.items():
        if cls not in CLASS_CHARS:
            raise ValueError(
                f"unknown class {cls!r} in 'templates' (known: {', '.join(CLASS_CHARS)})"
            )
        for file in [files] if isinstance(files, str) else files:
            image_path = folder / file
            image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
            if image is None:
                raise SkinFormatError(f"{image_path}: missing or not an image (named in {path})")
            if image.shape[:2] != (pitch[1], pitch[0]):
                raise SkinFormatError(
                    f"{image_path}: is {image.shape[1]}x{image.shape[0]} px, the cell pitch in "
                    f"{path} is {pitch[0]}x{pitch[1]}"
                )
            variants.append((cls, image))
    return variants
