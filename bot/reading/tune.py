"""Learn a skin minebot has never seen from a few screenshots: ``minebot tune``.

1. :func:`load_shot` finds each screenshot's cell lattice with
   :func:`bot.reading.lattice.find_lattice`
   (no skin needed) and reads ``NAME.txt`` beside ``NAME.png`` when there is one: the board in
   the text form, which names every cell of that screenshot.
2. :func:`group_cells` cuts every cell at the most common pitch and groups identical-looking
   cells (every pixel within ``tolerance`` on at least ``same`` of the cell): one group per
   class, or several for one class drawn in several ways (a hover highlight).
3. :func:`name_groups` names the groups: from the text boards; automatically where certain (a
   group filling 90% of an unlabelled board is the covered cell: no other class can fill a
   board at any real mine density); from a groups file the user filled in. Groups still
   unnamed go on a contact sheet (``NAME.groups.png``) and into ``NAME.groups.txt``, one line
   per group (``g3 = ?``) for the user to fill in before running again.
4. :func:`write_skin` writes the skin folder in the reader's format (``skin.json`` plus one PNG
   per class variant, see :mod:`bot.reading.skins`), and :func:`skin_report` measures every class:
   samples, the worst margin of its samples to the nearest other class with the reader's own
   robust score, and classes that look too alike.

>>> check_skin_name("xbomb")
'xbomb'
>>> check_skin_name("../evil")
Traceback (most recent call last):
...
bot.errors.TuneError: skin name '../evil' is not a plain name: use letters, digits, '-' and '_'
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bot.errors import LatticeError, TuneError
from bot.paths import shipped_skins_dir, user_skins_dir
from bot.reading.lattice import Lattice, find_lattice
from bot.userfiles import (
    check_file_output,
    check_output_folder,
    read_board_file,
    read_image,
    read_text,
    write_image,
    write_text,
)

#: Board character -> class name (the inverse of the reader's ``CLASS_CHARS``).
CHAR_CLASSES: dict[str, str] = {
    ".": "covered",
    "?": "question",
    "F": "flag",
    "*": "mine",
    "X": "exploded",
    "W": "wrong_flag",
    **{str(n): str(n) for n in range(9)},
}
#: Every class name, in the order skins list them.
CLASS_ORDER = ("covered", *(str(n) for n in range(9)), "flag", "question", "mine", "exploded",
               "wrong_flag")  # fmt: skip
#: Classes a skin cannot be played without: what to capture to get each.
REQUIRED = {
    "covered": "a fresh board (every cell covered)",
    "0": "a board after a click that opened an empty area",
    "1": "a board with some numbers showing",
}
#: A group filling this share of an unlabelled board is the covered cell.
FRESH_SHARE = 0.9
#: Pixels of a cell that must agree (within the tolerance) for two cells to look the same.
SAME_SHARE = 0.97
#: Per-channel difference that still counts as the same pixel when grouping cells.
TOLERANCE = 24
#: Confidence the reader must have in a cell of a tuned skin (skin.json ``match``).
MIN_CONFIDENCE = 0.96
#: Classes whose templates agree on more than this share of pixels "look too alike".
TOO_ALIKE = 0.97
#: How ``skin.json`` of a tuned skin starts its ``source`` (a rerun may overwrite only these).
SOURCE_PREFIX = "Cells cut by minebot tune from: "
NAME_RE = re.compile(r"^[A-Za-z0-9_-]+$")
IGNORE = "ignore"


def check_skin_name(name: str, shipped: Sequence[str] = ()) -> str:
    """``name`` if it is a plain skin name that does not shadow a shipped skin. Names compare
    ignoring case: ``WINMINE`` and ``winmine`` would be one folder on Windows and macOS.

    >>> check_skin_name("WinMine", ["winmine"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bot.errors.TuneError: 'WinMine' is the skin 'winmine' minebot ships (names compare ...
    """
    if not NAME_RE.match(name):
        raise TuneError(f"skin name {name!r} is not a plain name: use letters, digits, '-' and '_'")
    for taken in shipped:
        if name.casefold() == taken.casefold():
            raise TuneError(
                f"{name!r} is the skin {taken!r} minebot ships (names compare ignoring case): "
                "choose another name"
            )
    return name


def shipped_skins() -> list[str]:
    """Names of the skin folders minebot ships (:func:`bot.paths.shipped_skins_dir`)."""
    base = shipped_skins_dir()
    return sorted(p.name for p in base.iterdir() if p.is_dir()) if base.is_dir() else []


def default_out() -> Path:
    """The user's skin folder (:func:`bot.paths.user_skins_dir`), searched by
    :func:`bot.reading.skins.skin_dirs`."""
    return user_skins_dir()


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
    try:
        lattice = find_lattice(image)
    except LatticeError as exc:
        raise TuneError(
            f"{path}: no board found ({exc}); capture the game window with the whole board "
            "showing, at least 4x4 cells"
        ) from exc
    labels = None
    text = path.with_suffix(".txt")
    if text.is_file():
        board = read_board_file(text)
        if (board.width, board.height) != (lattice.cols, lattice.rows):
            raise TuneError(
                f"{text} is a {board.width}x{board.height} board but {path} shows "
                f"{lattice.cols}x{lattice.rows} cells ({lattice.describe()})"
            )
        labels = tuple(board.rows)
    return Shot(path=path, image=image, lattice=lattice, labels=labels)


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
    """The most common cell width and height over all screenshots."""
    widths = np.concatenate([np.diff(s.lattice.xs) for s in shots])
    heights = np.concatenate([np.diff(s.lattice.ys) for s in shots])
    return int(np.bincount(widths).argmax()), int(np.bincount(heights).argmax())


def align_shots(shots: Sequence[Shot], size: tuple[int, int]) -> list[Shot]:
    """Every screenshot's lattice moved (a few pixels at most) to the first one's phase.

    The lattice of one screenshot may put the cell boundary on one side of a thin grid line,
    another screenshot's on the other side; cells must be cut alike in all of them. Each
    screenshot after the first is moved by the shift that makes the most of its cells equal,
    pixel for pixel, to cells already seen (ties and no match at all: the smallest shift).
    """
    reach = max(2, min(size) // 5)
    shifts = sorted(
        ((dx, dy) for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)),
        key=lambda d: (abs(d[0]) + abs(d[1]), d),
    )
    placed: list[Shot] = []
    seen: set[bytes] = set()
    for shot in shots:
        best, best_count = (0, 0), 0
        if seen:
            for dx, dy in shifts:
                if not _inside(shot, dx, dy):
                    continue
                cells = _cell_bytes(shot, size, dx, dy)
                count = sum(cell in seen for cell in cells)
                if count > best_count:
                    best, best_count = (dx, dy), count
        moved = Shot(shot.path, shot.image, shot.lattice.shifted(*best), shot.labels)
        placed.append(moved)
        seen.update(_cell_bytes(moved, size, 0, 0))
    return placed


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
    h, w = a.shape[:2]
    da = a[inset : h - inset, inset : w - inset].astype(np.int16)
    db = b[inset : h - inset, inset : w - inset].astype(np.int16)
    return float((np.abs(da - db).max(axis=2) <= tolerance).mean())


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


def parse_class(word: str) -> str:
    """A class name from what a user may write: ``covered``, ``3``, ``flag``, ``F``, ``.`` ...

    >>> parse_class("F"), parse_class("wrong_flag"), parse_class(" 3 ")
    ('flag', 'wrong_flag', '3')
    """
    word = word.strip()
    if word in CLASS_ORDER or word == IGNORE:
        return word
    if word in CHAR_CLASSES:
        return CHAR_CLASSES[word]
    raise TuneError(
        f"{word!r} is not a cell class (use one of {', '.join(CLASS_ORDER)}, a board "
        f"character . 0-8 F ? * X W, or {IGNORE})"
    )


def read_groups_file(path: Path) -> dict[str, str]:
    """``key -> class`` from a filled-in groups file (lines ``g3 a1b2c3d4 = flag``)."""
    names: dict[str, str] = {}
    for n, line in enumerate(read_text(path, "groups file").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if "=" not in line:
            raise TuneError(f"{path}:{n}: expected 'gN KEY = class', got {line!r}")
        left, right = (part.strip() for part in line.split("=", 1))
        parts = left.split()
        if len(parts) != 2:
            raise TuneError(f"{path}:{n}: expected 'gN KEY = class', got {line!r}")
        if right in ("", "?"):
            continue
        try:
            names[parts[1]] = parse_class(right)
        except TuneError as exc:
            raise TuneError(f"{path}:{n}: {exc}") from exc
    return names


def name_groups(
    groups: list[Group], shots: Sequence[Shot], names: dict[str, str] | None = None
) -> list[Group]:
    """Name groups from labels, a groups file, and the fresh-board rule; split mixed groups.

    Returns the groups again (a group whose cells carry two labels is split in one group per
    label: the labels know better than the pixels, and the report shows them as too alike).
    """
    out: list[Group] = []
    for group in groups:
        by_label: dict[str, list[Sample]] = {}
        unlabelled: list[Sample] = []
        for sample in group.samples:
            rows = shots[sample.shot].labels
            if rows is None:
                unlabelled.append(sample)
            else:
                ch = rows[sample.y][sample.x]
                if ch not in CHAR_CLASSES:
                    raise TuneError(f"{shots[sample.shot].path.with_suffix('.txt')}: {ch!r}")
                by_label.setdefault(CHAR_CLASSES[ch], []).append(sample)
        if len(by_label) <= 1:
            if by_label:
                group.name, group.named_by = next(iter(by_label)), "labels"
            out.append(group)
            continue
        # Cells that look alike but are labelled differently: one group per label; the
        # unlabelled ones cannot be placed and stay out.
        for cls, samples in by_label.items():
            first = samples[0]
            image = shots[first.shot].lattice.cells(
                shots[first.shot].image, group.image.shape[1::-1]
            )
            out.append(
                Group(
                    key=f"{group.key}-{cls}",
                    image=image[first.y, first.x][..., :3].copy(),
                    samples=samples,
                    name=cls,
                    named_by="labels (split: looks like another class)",
                )
            )
    names = names or {}
    for group in out:
        if group.name is None and group.key in names:
            group.name, group.named_by = names[group.key], "groups file"
    # Fresh board: one group fills (almost) a whole unlabelled board.
    for s, shot in enumerate(shots):
        if shot.labels is not None:
            continue
        total = shot.lattice.cols * shot.lattice.rows
        for group in out:
            share = sum(1 for smp in group.samples if smp.shot == s) / total
            if share >= FRESH_SHARE and group.name is None:
                group.name, group.named_by = "covered", f"fills {shot.path.name}"
    return out


def contact_sheet(
    groups: Sequence[Group], shots: Sequence[Shot], zoom: int = 4, first: int = 1
) -> np.ndarray:
    """A picture of the given groups: each cell enlarged, with its id and where it was seen."""
    import cv2

    if not groups:
        return np.full((40, 400, 3), 255, np.uint8)
    h, w = groups[0].image.shape[:2]
    tile_w, tile_h = max(w * zoom, 150) + 20, h * zoom + 46
    per_row = max(1, min(len(groups), 1200 // tile_w))
    rows = (len(groups) + per_row - 1) // per_row
    sheet = np.full((rows * tile_h + 10, per_row * tile_w + 10, 3), 255, np.uint8)
    for i, group in enumerate(groups):
        r, c = divmod(i, per_row)
        x0, y0 = 10 + c * tile_w, 10 + r * tile_h
        big = cv2.resize(group.image, (w * zoom, h * zoom), interpolation=cv2.INTER_NEAREST)
        sheet[y0 : y0 + h * zoom, x0 : x0 + w * zoom] = big
        seen = group.samples[0]
        label = f"g{first + i} {group.key} x{len(group.samples)}"
        where = f"{shots[seen.shot].path.name} ({seen.x},{seen.y})"
        for line, text in enumerate((label, where)):
            cv2.putText(sheet, text, (x0, y0 + h * zoom + 14 + 14 * line),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 1, cv2.LINE_AA)  # fmt: skip
    return sheet


def write_groups_file(path: Path, groups: Sequence[Group], shots: Sequence[Shot]) -> int:
    """The file the user fills in: one ``gN KEY = ?`` line per unnamed group (the contact
    sheet shows the same gN). Groups named in an earlier version of the file keep their lines,
    so a rerun with one more screenshot only asks about what is new. Returns how many lines
    were kept (the first new group is g<kept + 1>)."""
    kept: list[str] = []
    if path.is_file():
        names = read_groups_file(path)
        for line in read_text(path, "groups file").splitlines():
            parts = line.split("#", 1)[0].split()
            if len(parts) >= 4 and parts[2] == "=" and parts[1] in names:
                kept.append("# named before: " + line.strip())
    lines = [
        "# minebot tune: name each group shown on the contact sheet (same name, .png).",
        "# Replace ? by a class: covered, 0-8, flag, question, mine, exploded, wrong_flag",
        f"# (or a board character . 0-8 F ? * X W), or '{IGNORE}' for a cell that is no class.",
        "# Then run the same minebot tune command again.",
    ]
    lines += [line.replace("# named before: ", "", 1) for line in kept]
    start = len(kept)
    for i, group in enumerate(groups):
        first = group.samples[0]
        lines.append(
            f"g{start + i + 1} {group.key} = ?    # {len(group.samples)} cells, first at "
            f"{shots[first.shot].path.name} x={first.x} y={first.y}"
        )
    write_text(path, "\n".join(lines) + "\n", "groups file")
    return start


@dataclass(frozen=True)
class ClassReport:
    """How well one class is learnt."""

    name: str
    samples: int
    variants: int
    worst_margin: float  # min over samples of own score minus best other class's score
    nearest: str  # the class that comes closest
    alike: float  # agreement of this class's template with the nearest class's


def class_templates(groups: Sequence[Group]) -> dict[str, list[Group]]:
    """Named groups by class, largest first (ignored groups left out)."""
    out: dict[str, list[Group]] = {}
    for group in groups:
        if group.name and group.name != IGNORE:
            out.setdefault(group.name, []).append(group)
    for variants in out.values():
        variants.sort(key=lambda g: -len(g.samples))
    return {name: out[name] for name in CLASS_ORDER if name in out}


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
    cut = {s: shot.lattice.cells(shot.image, size)[..., :3] for s, shot in enumerate(shots)}
    reports = []
    for name, variants in classes.items():
        worst, nearest, alike = 1.0, "-", 0.0
        for group in variants:
            for smp in group.samples:
                cell = cut[smp.shot][smp.y, smp.x]
                own = max(agreement(cell, g.image, inset, tolerance) for g in variants)
                for other, others in classes.items():
                    if other == name:
                        continue
                    score = max(agreement(cell, g.image, inset, tolerance) for g in others)
                    if own - score < worst:
                        worst, nearest = own - score, other
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


@dataclass
class TuneResult:
    """What a tuning run produced."""

    folder: Path | None
    reports: list[ClassReport]
    unnamed: list[Group]
    missing: list[str]
    size: tuple[int, int]
    shots: list[Shot]
    groups: list[Group]
    sheet: Path | None = None
    groups_file: Path | None = None
    derived: list[Group] = field(default_factory=list)  # variants made, not seen
    tolerance: int = TOLERANCE  # the skin's per-channel match tolerance


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
) -> Path:
    """Write ``folder/name``: one PNG per class variant and ``skin.json`` (reader's format)."""
    classes = class_templates(groups)
    target = folder / name
    if check_replaceable(target):
        for stale in target.glob("*.png"):  # images of the last tuning run
            stale.unlink()
    check_output_folder(target, "skin")
    templates: dict[str, list[str]] = {}
    for cls, variants in classes.items():
        files = []
        for i, group in enumerate(variants):
            file = f"{cls}.png" if i == 0 else f"{cls}-{i + 1}.png"
            write_image(target / file, group.image, "skin's template")
            files.append(file)
        templates[cls] = files
    anchors = [a for a in ("covered", "0") if a in templates]
    meta = {
        "format": 1,
        "name": name,
        "game": game or f"{name} (learnt by minebot tune)",
        "source": SOURCE_PREFIX + ", ".join(shot.path.name for shot in shots),
        "cell": {
            "pitch": [size[0], size[1]],
            "inset": inset,
            "scales_with_window": False,
            "about": "Learnt from screenshots at this pitch; other scalings are not learnt.",
        },
        "scales": [1.0],
        # Learnt cells agree with their template on >= SAME_SHARE of pixels; asking nearly as
        # much of a cell at play time keeps the reader from growing the board into the
        # window around it (a blank strip under a grid line looks 94% like an empty cell).
        "match": {"tolerance": tolerance, "min_confidence": MIN_CONFIDENCE, "min_margin": 0.04},
        "anchors": anchors,
        "templates": {k: (v[0] if len(v) == 1 else v) for k, v in templates.items()},
        "levels": [{"name": f"{c}x{r}", "cols": c, "rows": r, "mines": m} for c, r, m in levels],
        "lost": {"chars": "X" if "exploded" in templates else "*"},
        "won": {"about": "Won when every cell that is not a mine is open."},
    }
    if restart:
        meta["restart"] = restart
    write_text(target / "skin.json", json.dumps(meta, indent=2) + "\n", "skin description")
    return target


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


def check_unscaled(shots: Sequence[Shot]) -> None:
    """Refuse captures from a scaled desktop (a fractional cell pitch): their cells are
    resampled differently from one column to the next and do not group."""
    for shot in shots:
        for pitch in (shot.lattice.pitch_x, shot.lattice.pitch_y):
            if abs(pitch - round(pitch)) > 0.05:
                raise TuneError(
                    f"{shot.path}: the cells are {pitch:.2f} px apart, a desktop scaled by a "
                    "fraction; capture the game at 100% (or 200%) display scaling and tune "
                    "from that"
                )


def inset_for(size: tuple[int, int]) -> int:
    """Pixels left out around each cell when comparing: one, the outermost ring, which is
    where grid lines meet and antialiasing lands. A grid line wider than that stays in the
    template, pins the lattice phase (a dithered cell without it matches at several phases)
    and keeps a plain window background from reading as an empty cell.

    >>> inset_for((20, 20)), inset_for((8, 8))
    (1, 0)
    """
    return 1 if min(size) >= 10 else 0


def match_tolerance(groups: Sequence[Group], shots: Sequence[Shot], size: tuple[int, int]) -> int:
    """The reader's per-channel tolerance for this skin: what the captures themselves vary by
    (90th percentile of each cell's difference from its group's first cell: noise spread over
    the cell, not a few odd pixels, which the reader's share-of-pixels score absorbs) plus 8,
    between 8 and 48. Exact captures get 8, so a window background a shade off an empty
    cell's colour does not pass for one."""
    cut = {s: shot.lattice.cells(shot.image, size)[..., :3] for s, shot in enumerate(shots)}
    worst = 0.0
    for group in groups:
        ref = group.image.astype(np.int16)
        for smp in group.samples[:200]:
            cell = cut[smp.shot][smp.y, smp.x].astype(np.int16)
            diff = np.abs(cell - ref).max(axis=2)
            worst = max(worst, float(np.percentile(diff, 90)))
    return int(min(48, max(8, worst + 8)))


def read_program(path: Path, name: str) -> str:
    """The text of a ``program.json`` for skin ``name``, checked (a clear error otherwise)."""
    from bot.live.programs import Program

    text = read_text(path, "program description")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TuneError(f"{path}: the program description is not JSON: {exc}") from exc
    Program.from_dict(name, data, str(path))  # validates, raises a clear error
    return text


def tune(
    images: Sequence[str | Path],
    name: str,
    out: Path | None = None,
    groups_file: Path | None = None,
    levels: Sequence[tuple[int, int, int]] = (),
    restart: dict | None = None,
    program: Path | None = None,
    game: str = "",
) -> TuneResult:
    """Learn skin ``name`` from ``images`` and write it to ``out`` (see the module doc).

    When groups are left unnamed nothing is written but the contact sheet and the groups
    file (beside the first screenshot unless ``groups_file`` says where): the result's
    ``folder`` is then None.
    """
    check_skin_name(name, shipped_skins())
    if not images:
        raise TuneError("no screenshots given")
    # The inputs read and checked before the work: the program description, then the pictures.
    program_text = None if program is None else read_program(program, name)
    if groups_file is not None:
        check_file_output(groups_file, "groups file")
    check_output_folder(out or default_out(), "skins")
    check_replaceable((out or default_out()) / name)
    shots = [load_shot(p) for p in images]
    check_unscaled(shots)
    size = cell_size(shots)
    inset = inset_for(size)
    shots = align_shots(shots, size)
    groups = group_cells(shots, size, inset)
    # Where the grid lines are in a cell (None if the skin has none): a game that recolours
    # them (xbomb outlines the opened area in green after a loss) gets every class in every
    # line colour seen.
    mask = line_bands([g.image for g in groups], [len(g.samples) for g in groups])
    if groups_file is None:
        groups_file = Path(images[0]).parent / f"{name}.groups.txt"
    names = read_groups_file(groups_file) if groups_file.is_file() else {}
    groups = name_groups(groups, shots, names)
    unnamed = [g for g in groups if g.name is None]
    classes = class_templates(groups)
    missing = [c for c in CLASS_ORDER if c not in classes]
    result = TuneResult(None, [], unnamed, missing, size, list(shots), groups)
    if unnamed:
        sheet = groups_file.with_suffix(".png")
        kept = write_groups_file(groups_file, unnamed, shots)
        write_image(sheet, contact_sheet(unnamed, shots, first=kept + 1), "contact sheet")
        result.sheet, result.groups_file = sheet, groups_file
        return result
    lacking = [c for c in REQUIRED if c not in classes]
    if lacking:
        what = "; ".join(f"'{c}': capture {REQUIRED[c]}" for c in lacking)
        raise TuneError(f"too few cells to learn every class the bot needs: {what}")
    if mask is not None:
        derived = line_variants(groups, mask)
        groups = groups + derived
        result.groups = groups
        result.derived = derived
    tolerance = match_tolerance(groups, shots, size)
    result.tolerance = tolerance
    result.reports = skin_report(groups, shots, size, inset, tolerance)
    folder = write_skin(
        out or default_out(), name, groups, size, inset, shots, levels, restart, game, tolerance
    )
    if program_text is not None:
        write_text(folder / "program.json", program_text, "program description")
    result.folder = folder
    return result
