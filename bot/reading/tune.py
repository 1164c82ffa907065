"""Learn a skin minebot has never seen from a few screenshots: ``minebot tune``.

1. :func:`load_shot` finds each screenshot's cell lattice with
   :func:`bot.reading.lattice.find_lattice`
   (no skin needed) and reads ``NAME.txt`` beside ``NAME.png`` when there is one: the board in
   the text form, which names every cell of that screenshot.
2. :func:`~bot.reading.tune_sizes.grouped_cells` cuts every cell at its screenshot's pitch
   (screenshots at several cell sizes are learnt per size, :mod:`bot.reading.tune_sizes`) and
   groups identical-looking cells (every pixel within ``tolerance`` on at least ``same`` of
   the cell): one group per class, or several for one class drawn in several ways (a hover
   highlight).
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

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.errors import TuneError
from bot.paths import shipped_skins_dir, user_skins_dir
from bot.reading.shown import zeros_beside_covered
from bot.reading.tune_cells import TOLERANCE, Group, Shot
from bot.reading.tune_names import (
    CLASS_ORDER,
    class_templates,
    contact_sheet,
    name_groups,
    read_groups_file,
    write_groups_file,
)
from bot.reading.tune_shots import load_shots
from bot.reading.tune_sizes import SizeLearnt, check_named, grouped_cells, shots_by_size
from bot.reading.tune_skin import (
    ClassReport,
    check_replaceable,
    class_tolerances,
    skin_report,
    unread_cells,
    write_skin,
)
from bot.reading.tune_uneven import check_unscaled
from bot.userfiles import (
    check_file_output,
    check_output_folder,
    read_text,
    write_image,
    write_text,
)

#: Classes a skin cannot be played without: what to capture to get each.
REQUIRED = {
    "covered": "a fresh board (every cell covered)",
    "0": "a board after a click that opened an empty area",
    "1": "a board with some numbers showing",
}
NAME_RE = re.compile(r"^[A-Za-z0-9_-]+$")


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
    #: Labelled screenshots the skin written does not read back as the reader (finding the
    #: board itself) reads a screenshot: (file name, why), see :func:`read_back`.
    unread: list[tuple[str, str]] = field(default_factory=list)
    #: Other cell sizes learnt (from screenshots at those sizes): (size, screenshots).
    sizes: list[tuple[tuple[int, int], int]] = field(default_factory=list)


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
    shots = load_shots(images)
    check_unscaled(shots)
    # Screenshots at several cell sizes (a game that draws each level's cells at a size of its
    # own, a resized window) teach each size; the one nearest the others is the skin's own.
    sizes = shots_by_size(shots)
    size, own = sizes[0]
    learnt = [grouped_cells(own, size)]
    own = learnt[0].shots  # aligned to one phase
    if groups_file is None:
        groups_file = Path(images[0]).parent / f"{name}.groups.txt"
    names = read_groups_file(groups_file) if groups_file.is_file() else {}
    learnt[0].groups = name_groups(learnt[0].groups, own, names)
    for other_size, other in sizes[1:]:
        drawn = grouped_cells(other, other_size)
        drawn.groups = name_groups(drawn.groups, drawn.shots, names)
        check_named(drawn, size)
        learnt.append(drawn)
    groups = learnt[0].groups
    unnamed = [g for g in groups if g.name is None]
    classes = class_templates(groups)
    missing = [c for c in CLASS_ORDER if c not in classes]
    aligned = {id(a): b for z, part in zip(sizes, learnt, strict=True)
               for a, b in zip(z[1], part.shots, strict=True)}  # fmt: skip
    shots = [aligned.get(id(s), s) for s in shots]
    result = TuneResult(None, [], unnamed, missing, size, shots, groups)
    result.sizes = [(z.size, len(z.shots)) for z in learnt[1:]]
    if unnamed:
        sheet = groups_file.with_suffix(".png")
        kept = write_groups_file(groups_file, unnamed, own)
        write_image(sheet, contact_sheet(unnamed, own, first=kept + 1), "contact sheet")
        result.sheet, result.groups_file = sheet, groups_file
        return result
    lacking = [c for c in REQUIRED if c not in classes]
    if lacking:
        what = "; ".join(f"'{c}': capture {REQUIRED[c]}" for c in lacking)
        raise TuneError(f"too few cells to learn every class the bot needs: {what}")
    inset = learnt[0].inset
    tolerance, own_tolerance = class_tolerances(groups, own, size, inset)
    for part in learnt:
        part.add_variants(tolerance)
    groups = learnt[0].groups
    result.groups = groups
    result.derived = learnt[0].derived
    result.tolerance = tolerance
    result.reports = skin_report(groups, own, size, inset, tolerance)
    out = out or default_out()
    folder = _write(out, name, learnt, levels, restart, game, tolerance, own_tolerance)
    # The skin must read the boards it was shown: labelled cells it does not read clearly as
    # their label become variants of their class (twice at most: a variant added may take a
    # look-alike cell from another).
    for _ in range(2):
        extra = [unread_cells(out, name, z.groups, z.shots, z.size) for z in learnt]
        if not any(extra):
            break
        for part, added in zip(learnt, extra, strict=True):
            part.groups = part.groups + added
        result.groups = learnt[0].groups
        folder = _write(out, name, learnt, levels, restart, game, tolerance, own_tolerance)
    if program_text is not None:
        write_text(folder / "program.json", program_text, "program description")
    result.folder = folder
    result.unread = read_back(folder, shots)
    return result


def _write(
    out: Path,
    name: str,
    learnt: Sequence[SizeLearnt],
    levels: Sequence[tuple[int, int, int]],
    restart: dict | None,
    game: str,
    tolerance: int,
    own_tolerance: dict[str, int],
) -> Path:
    """:func:`write_skin` of the skin's own size and the other sizes learnt."""
    own = learnt[0]
    drawn = [(z.size, z.groups) for z in learnt[1:]]
    # A 0 shown beside a covered cell says the game does not open round its 0s at once.
    opens = not any(zeros_beside_covered(b) for z in learnt for b in z.named_boards())
    return write_skin(
        out, name, own.groups, own.size, own.inset, [s for z in learnt for s in z.shots], levels,
        restart, game, tolerance, own_tolerance, drawn, opens,
    )  # fmt: skip


def read_back(folder: Path, shots: Sequence[Shot]) -> list[tuple[str, str]]:
    """The labelled ``shots`` the skin in ``folder`` does not read as their labels when it
    finds the board itself, as ``replay`` and ``play`` will (tune cut the cells from its own
    lattice): each file name and why (the reader's refusal, or the board it read instead)."""
    from bot.reading.read import read_image
    from bot.reading.skins import load_skin
    from solver.errors import MinebotError

    skin = load_skin(folder)
    unread = []
    for shot in shots:
        if shot.labels is None:
            continue
        try:
            board = read_image(shot.image[..., :3], [skin]).board
        except MinebotError as refused:
            unread.append((shot.path.name, str(refused)))
            continue
        rows = str(board).splitlines()
        if rows != list(shot.labels):
            unread.append((shot.path.name, f"read as a {len(rows[0])}x{len(rows)} board unlike "
                                           "its labels"))  # fmt: skip
    return unread
