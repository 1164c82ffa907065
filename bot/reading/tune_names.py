"""Tuning, step 2: naming the groups of look-alike cells, from text boards, from what only the
covered cell can be, and from a groups file the user fills in (see :mod:`bot.reading.tune`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bot.errors import TuneError
from bot.reading.skins import CLASS_CHARS
from bot.reading.tune_cells import Group, Sample, Shot
from bot.userfiles import read_text, write_text

#: Board character -> class name (the inverse of the reader's ``CLASS_CHARS``).
CHAR_CLASSES: dict[str, str] = {char: name for name, char in CLASS_CHARS.items()}

#: Every class name, in the order skins list them.
CLASS_ORDER = ("covered", *(str(n) for n in range(9)), "flag", "question", "mine", "exploded",
               "wrong_flag")  # fmt: skip

#: A group filling this share of an unlabelled board is the covered cell.
FRESH_SHARE = 0.9

#: What a groups file calls a group that is no cell (left out of the skin).
IGNORE = "ignore"


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


def class_templates(groups: Sequence[Group]) -> dict[str, list[Group]]:
    """Named groups by class, largest first (ignored groups left out)."""
    out: dict[str, list[Group]] = {}
    for group in groups:
        if group.name and group.name != IGNORE:
            out.setdefault(group.name, []).append(group)
    for variants in out.values():
        variants.sort(key=lambda g: -len(g.samples))
    return {name: out[name] for name in CLASS_ORDER if name in out}
