"""Tuning, step 3: the skin folder written in the reader's format, each class's templates in every
grid-line colour seen, the match tolerance, and a report of how well classes are told apart (see
:mod:`bot.reading.tune`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bot.errors import TuneError
from bot.reading.lattice_lines import Lattice
from bot.reading.skins import CLASS_CHARS
from bot.reading.tune_cells import SAME_SHARE, TOLERANCE, Group, Shot, agreement, agreements
from bot.reading.tune_names import IGNORE, class_templates
from bot.reading.tune_uneven import spare_first, uneven_reach
from bot.userfiles import (
    check_output_folder,
    write_image,
    write_text,
)
from solver.board import EXPLODED, MINE, WRONG_FLAG

#: Confidence the reader must have in a cell of a tuned skin (skin.json ``match``).
MIN_CONFIDENCE = 0.96

#: The classes a tuned skin's board is anchored by, in the order tried (the reader stops at
#: the first that matches a few cells): covered and empty cells as in the shipped skins, then
#: the numbers and the flag. A board with no covered cell left (lost with every mine shown,
#: won with every mine flagged) whose empty cells are flat but for a faint line (the reader
#: takes no flat anchor) is still found by its numbers.
ANCHOR_ORDER = ("covered", "0", "1", "2", "3", "4", "5", "6", "7", "8", "flag")

#: Classes whose templates agree on more than this share of pixels "look too alike".
TOO_ALIKE = 0.97

#: How ``skin.json`` of a tuned skin starts its ``source`` (a rerun may overwrite only these).
SOURCE_PREFIX = "Cells cut by minebot tune from: "
#: The sub-folder of a tuned skin holding its cells learnt at another size: ``cells-WxH``.
DRAWN_FOLDER = "cells-"


@dataclass(frozen=True)
class ClassReport:
    """How well one class is learnt."""

    name: str
    samples: int
    variants: int
    worst_margin: float  # min over samples of own score minus best other class's score
    nearest: str  # the class that comes closest
    alike: float  # agreement of this class's template with the nearest class's


def skin_report(
    groups: Sequence[Group],
    shots: Sequence[Shot],
    size: tuple[int, int],
    inset: int,
    tolerance: int = TOLERANCE,
) -> list[ClassReport]:
    """Per class: samples, the worst margin of its samples to the nearest other class (the
    reader's score: share of pixels within the tolerance), and how alike the nearest is."""
    classes = class_templates(groups)
    images = [g.image for variants in classes.values() for g in variants]
    columns: dict[str, list[int]] = {}  # each class's places in ``images``
    for name, variants in classes.items():
        start = sum(len(c) for c in columns.values())
        columns[name] = list(range(start, start + len(variants)))
    reports = []
    # Every sample cell against every class image at once: one row of agreements a cell.
    scores = {
        s: agreements(shot.lattice.cells(shot.image, size)[..., :3], images, inset, tolerance)
        for s, shot in enumerate(shots)
    }
    for name, variants in classes.items():
        worst, nearest, alike = 1.0, "-", 0.0
        for group in variants:
            for smp in group.samples:
                row = scores[smp.shot][smp.y, smp.x]
                own = row[columns[name]].max()
                for other, at in columns.items():
                    if other == name:
                        continue
                    score = row[at].max()
                    if own - score < worst:
                        worst, nearest = float(own - score), other
        for other, others in classes.items():
            if other != name:
                a = max(agreement(variants[0].image, g.image, inset, tolerance) for g in others)
                if a > alike:
                    alike = a
                    if nearest == "-":
                        nearest = other
        reports.append(
            ClassReport(
                name=name,
                samples=sum(len(g.samples) for g in variants),
                variants=len(variants),
                worst_margin=worst,
                nearest=nearest,
                alike=alike,
            )
        )
    return reports


def check_replaceable(target: Path) -> bool:
    """Whether ``target`` holds a skin ``minebot tune`` made (a run replaces it); False when
    it holds none. A skin made otherwise (by hand, shipped) is never replaced: TuneError."""
    meta_path = target / "skin.json"
    if not meta_path.is_file():
        return False
    try:
        old = json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        old = {}
    if not isinstance(old, dict) or not str(old.get("source", "")).startswith(SOURCE_PREFIX):
        raise TuneError(
            f"{target} holds a skin that minebot tune did not make: choose another name "
            "or another --out"
        )
    return True


def write_skin(
    folder: Path,
    name: str,
    groups: Sequence[Group],
    size: tuple[int, int],
    inset: int,
    shots: Sequence[Shot],
    levels: Sequence[tuple[int, int, int]] = (),
    restart: dict | None = None,
    game: str = "",
    tolerance: int = TOLERANCE,
    class_tolerance: Mapping[str, int] | None = None,
    drawn: Sequence[tuple[tuple[int, int], Sequence[Group]]] = (),
    opens_round_zeros: bool = True,
) -> Path:
    """Write ``folder/name``: one PNG per class variant and ``skin.json`` (reader's format);
    ``class_tolerance``: the classes matched with a tolerance of their own; ``drawn``: the
    cells learnt at other sizes (``drawn_sizes``, each size's images in a sub-folder);
    ``opens_round_zeros``: whether the game opens every cell round a 0 at once."""
    target = folder / name
    if check_replaceable(target):
        # The class images of the last tuning run (not what else the folder holds: the
        # restart button's picture that program.json names).
        for stale in [*target.glob("*.png"), *target.glob(f"{DRAWN_FOLDER}*/*.png")]:
            if stale.stem.rsplit("-", 1)[0] in CLASS_CHARS:  # covered.png, flag-2.png
                stale.unlink()
    check_output_folder(target, "skin")
    templates = _write_classes(target, "", groups)
    drawn_sizes = []
    for (w, h), drawn_groups in drawn:
        sub = f"{DRAWN_FOLDER}{w}x{h}/"
        check_output_folder(target / sub, "skin")
        drawn_sizes.append({
            "pitch": [w, h],
            "templates": _listed(_write_classes(target, sub, drawn_groups)),
            "source": f"{sub}: cells cut by minebot tune from screenshots at {w}x{h} px",
        })  # fmt: skip
    anchors = [a for a in ANCHOR_ORDER if a in templates]
    meta = {
        "format": 1,
        "name": name,
        "game": game or f"{name} (learnt by minebot tune)",
        "source": SOURCE_PREFIX + ", ".join(str(shot.path) for shot in shots),
        "cell": {
            "pitch": [size[0], size[1]],
            "inset": inset,
            "scales_with_window": False,
            **({"stretch_from": "nearest"} if drawn else {}),
            **_uneven([shot.lattice for shot in shots]),
            "about": "Learnt from screenshots at this pitch"
            + ("; drawn_sizes: as the game draws its cells at other sizes" if drawn else "")
            + ". Other sizes are these stretched.",
        },
        "scales": [1.0],
        # Learnt cells agree with their template on >= SAME_SHARE of pixels; asking nearly as
        # much of a cell at play time keeps the reader from growing the board into the
        # window around it (a blank strip under a grid line looks 94% like an empty cell).
        "match": {"tolerance": tolerance, "min_confidence": MIN_CONFIDENCE, "min_margin": 0.04}
        | ({"class_tolerance": dict(class_tolerance)} if class_tolerance else {}),
        "anchors": anchors,
        "templates": _listed(templates),
        "levels": [{"name": f"{c}x{r}", "cols": c, "rows": r, "mines": m} for c, r, m in levels],
        "lost": {"chars": "X" if "exploded" in templates else "*"},
        "won": {"about": "Won when every cell that is not a mine is open."},
        "opens_round_zeros": opens_round_zeros,
    }
    if drawn_sizes:
        meta["drawn_sizes"] = drawn_sizes
    if restart:
        meta["restart"] = restart
    write_text(target / "skin.json", json.dumps(meta, indent=2) + "\n", "skin description")
    return target


def _uneven(lattices: Sequence[Lattice]) -> dict[str, object]:
    """skin.json's ``cell.uneven_px`` and ``cell.spare_px_first`` where the screenshots' cells
    lie a fraction of a pixel apart (whole-pixel cells, spare pixels shared out); else none."""
    reach = uneven_reach(lattices)
    if not reach:
        return {}
    return {"uneven_px": reach, "spare_px_first": spare_first(lattices)}


def _write_classes(target: Path, sub: str, groups: Sequence[Group]) -> dict[str, list[str]]:
    """Write one PNG per class variant of ``groups`` into ``target/sub``; the files (relative to
    ``target``) per class."""
    templates: dict[str, list[str]] = {}
    for cls, variants in class_templates(groups).items():
        files = []
        for i, group in enumerate(variants):
            file = f"{sub}{cls}.png" if i == 0 else f"{sub}{cls}-{i + 1}.png"
            write_image(target / file, group.image, "skin's template")
            files.append(file)
        templates[cls] = files
    return templates


def _listed(templates: Mapping[str, list[str]]) -> dict[str, str | list[str]]:
    """skin.json's ``templates``: one file as it is, several as a list."""
    return {k: (v[0] if len(v) == 1 else v) for k, v in templates.items()}


def _band(constant: np.ndarray) -> tuple[int, int]:
    """Start and width of the run of constant positions that wraps around the cell edge."""
    n = len(constant)
    if not constant[0] and not constant[-1]:
        return 0, 0
    start = 0
    while constant[(start - 1) % n] and start > -n // 4:
        start -= 1
    end = 0
    while end < n // 4 and constant[end % n]:
        end += 1
    width = end - start
    return (start, width) if 0 < width <= n // 4 else (0, 0)


def line_bands(
    images: Sequence[np.ndarray], counts: Sequence[int] | None = None
) -> np.ndarray | None:
    """A mask ``[h, w]`` of the grid-line pixels of a cell, or None when there is no line.

    A column (row) near the cell's edge is part of a grid line when nearly every cell
    (``counts`` cells look like each image) has the same pixels there; a band wider than a
    quarter cell is no line (a board of mostly covered cells is the same everywhere).

    >>> cells = []
    >>> for v in (60, 120, 180, 240):
    ...     c = np.full((20, 20, 3), v, np.uint8); c[:2] = 0; c[:, :2] = 0; cells.append(c)
    >>> mask = line_bands(cells)
    >>> int(mask.sum()), bool(mask[0, 5]), bool(mask[1, 1]), bool(mask[2, 2])
    (76, True, True, False)
    """
    if len(images) < 3:
        return None
    stack = np.stack([im.astype(np.int16) for im in images])  # [G, h, w, 3]
    weights = np.asarray(counts if counts is not None else [1] * len(images), float)
    weights = weights / weights.sum()
    h, w = stack.shape[1:3]
    mask = np.zeros((h, w), bool)
    for axis in (2, 1):  # columns (x), then rows (y)
        lines = np.moveaxis(stack, axis, 1)  # [G, n, other, 3]
        # at each position, the share of cells agreeing with the most common pattern
        agree = np.stack(
            [
                (np.abs(lines - lines[g][None]).max(axis=(2, 3)) <= TOLERANCE).T @ weights
                for g in range(len(images))
            ]
        )
        start, width = _band(agree.max(axis=0) >= 0.8)
        band = [(start + i) % lines.shape[1] for i in range(width)]
        if axis == 2:
            mask[:, band] = True
        else:
            mask[band, :] = True
    return mask if mask.any() else None


def line_variants(groups: list[Group], mask: np.ndarray) -> list[Group]:
    """New variants of each named class with every grid-line look seen on the board.

    Some games recolour grid lines without changing the cells (xbomb outlines the opened
    area in green after a loss): every line look (the pixels under ``mask``) seen in any
    cell is given to every class, so a '4' inside the green outline reads although no such
    '4' was in the screenshots. The cell inside the lines stays the class's own, so a made
    variant looks no more like another class than the class did. Returns the added groups.
    """
    looks: list[tuple[np.ndarray, set[str]]] = []
    for group in groups:
        if not group.name or group.name == IGNORE:
            continue
        pixels = group.image[mask].astype(np.int16)
        for look, classes in looks:
            if (np.abs(look - pixels).max(axis=1) <= TOLERANCE).mean() >= SAME_SHARE:
                classes.add(group.name)
                break
        else:
            looks.append((pixels, {group.name}))
    shared = [look for look, _classes in looks]
    if len(shared) < 2:
        return []
    added: list[Group] = []
    for name, variants in class_templates(groups).items():
        known = [g.image for g in variants]
        for base in list(variants):
            for look in shared:
                image = base.image.copy()
                image[mask] = look.astype(np.uint8)
                if any(agreement(image, k, 0) >= 1.0 for k in known):
                    continue
                key = hashlib.sha1(image.tobytes()).hexdigest()[:8]
                added.append(Group(key, image, [], name, f"{name} with another line colour"))
                known.append(image)
    return added


#: Classes only the end of a lost game shows. Drawn over what lies beneath (a see-through
#: theme's mines over its shaded background) they can vary more than any cell play reads; the
#: cells play reads are not made looser for them (see :func:`class_tolerances`).
END_CLASSES = tuple(c for c, char in CLASS_CHARS.items() if char in (MINE, EXPLODED, WRONG_FLAG))


def class_tolerances(
    groups: Sequence[Group], shots: Sequence[Shot], size: tuple[int, int], inset: int = 0
) -> tuple[int, dict[str, int]]:
    """The skin's tolerance, :func:`match_tolerance` of the classes a game in play shows, and
    each of :data:`END_CLASSES` that needs more, with its own. KMines' mines over its shaded
    background vary by 22 levels where its other cells vary by 15: one tolerance for all made a
    covered cell and an empty one differ on too few pixels, and a fresh board no longer read.
    """
    playing = [g for g in groups if g.name not in END_CLASSES]
    tolerance = match_tolerance(playing or groups, shots, size, inset)
    own = {}
    for cls in END_CLASSES:
        looks = [g for g in groups if g.name == cls]
        need = match_tolerance(looks, shots, size, inset) if looks and playing else 0
        if need > tolerance:
            own[cls] = need
    return tolerance, own


def match_tolerance(
    groups: Sequence[Group], shots: Sequence[Shot], size: tuple[int, int], inset: int = 0
) -> int:
    """The reader's per-channel tolerance for this skin: what the captures themselves vary by
    (90th percentile of each cell's difference from its group's first cell: noise spread over
    the cell, not a few odd pixels, which the reader's share-of-pixels score absorbs) plus 8,
    between 8 and 48. Exact captures get 8, so a window background a shade off an empty
    cell's colour does not pass for one.

    Measured inside ``inset``, the pixels the reader compares (and the grouping compared): the
    ring left out may hold a neighbour's edge, which differs from cell to cell of one class
    (a lattice cut one pixel off, as a won board can give, puts each cell's neighbour's grid
    line in its ring). Measured over the whole cell, that ring raised the tolerance of every
    class to 48 once a lost board's mines were learnt, and the skin then found no board.

    >>> from bot.reading.lattice import Lattice
    >>> from bot.reading.tune_cells import Sample
    >>> image = np.zeros((20, 40, 3), np.uint8)
    >>> image[[0, -1], 20:] = 255; image[:, [20, -1]] = 255  # the second cell's ring differs
    >>> shot = Shot(Path("x.png"), image, Lattice((0, 20, 40), (0, 20)), None)
    >>> group = Group("k", image[:, :20].copy(), [Sample(0, 0, 0), Sample(0, 1, 0)], "0")
    >>> match_tolerance([group], [shot], (20, 20), inset=1)
    8
    >>> match_tolerance([group], [shot], (20, 20))  # what inset 0 would compare
    48
    """
    cut = {s: shot.lattice.cells(shot.image, size)[..., :3] for s, shot in enumerate(shots)}
    h, w = size[1], size[0]
    worst = 0.0
    for group in groups:
        ref = group.image[inset : h - inset, inset : w - inset].astype(np.int16)
        for smp in group.samples[:200]:
            cell = cut[smp.shot][smp.y, smp.x, inset : h - inset, inset : w - inset]
            diff = np.abs(cell.astype(np.int16) - ref).max(axis=2)
            worst = max(worst, float(np.percentile(diff, 90)))
    return int(min(48, max(8, worst + 8)))


def unread_cells(
    skins: Path, name: str, groups: Sequence[Group], shots: Sequence[Shot], size: tuple[int, int]
) -> list[Group]:
    """Cells of the labelled screenshots that the skin just written does not read clearly as
    their label, each as a new variant of its class (one per look).

    Grouping compares whole cells pixel by pixel; the reader scores them its own, robust way.
    A cell that grouped with a variant may still read just under the confidence asked for
    (KMines draws open cells see-through over a shaded background): tuning reads its labelled
    screenshots back, so the skin reads at least the board it was shown.
    """
    from bot.reading.classify import classify_cells
    from bot.reading.grid import Grid
    from bot.reading.skins import find_skin
    from bot.reading.tune_cells import Sample
    from bot.reading.tune_names import CHAR_CLASSES

    skin = find_skin(name, dirs=[skins])
    inset = skin.inset
    added: list[Group] = []
    for s, shot in enumerate(shots):
        if shot.labels is None:
            continue
        lat = shot.lattice
        grid = Grid.from_lines(lat.xs, lat.ys)
        scores = classify_cells(shot.image[..., :3], grid, skin)
        clear = scores.clear(skin)
        cells = lat.cells(shot.image, size)[..., :3]
        for y, row in enumerate(shot.labels):
            for x, char in enumerate(row):
                if (clear[y, x] and scores.chars[y, x] == char) or char not in CHAR_CLASSES:
                    continue
                cell = cells[y, x]
                if any(agreement(cell, g.image, inset, 0) >= 1.0 for g in [*groups, *added]):
                    continue  # a look already learnt: reading it better is not tune's to do
                key = hashlib.sha1(np.ascontiguousarray(cell).tobytes()).hexdigest()[:8]
                added.append(Group(key, cell.copy(), [Sample(s, x, y)], CHAR_CLASSES[char],
                                   "read back"))  # fmt: skip
    return added
