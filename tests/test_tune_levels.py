"""``minebot tune`` from one level's screenshots alone, for games whose levels differ in what
lies round the board: KMines' easy board (mostly open, 29 px cells drawn see-through over a
shaded background, no covered cell left once won) and Wine's Minesweeper at beginner (its
header of counters four pixels above the board; at wider levels the header is black between
them, like its empty cells inside their outline). Real fixtures (tests/fixtures/<game>/).
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from bot.reading.tune_cells import Shot, align_shots, cell_size, load_shot
from tests.tune_games import FIXTURES, Recipe, read_fixtures, tune_game


def test_kmines_easy_from_its_mid_game_shot(tmp_path: Path) -> None:
    """Tuned from easy-mid (labelled) and easy-fresh: every easy board reads exactly but the
    lost one (its mines were never shown). The won board has no covered cell and its empty
    cells are flat but for a faint line: it is found by its numbers, which anchor a tuned
    skin too."""
    skins = tune_game("kmines", tmp_path, Recipe("easy-mid", ("easy-fresh",)))
    meta = json.loads((skins / "t-kmines" / "skin.json").read_text(encoding="utf-8"))
    assert meta["cell"]["pitch"] == [29, 29]
    assert meta["anchors"][:3] == ["covered", "0", "1"]
    outcome = read_fixtures("kmines", skins, "easy-")
    assert outcome.names("misread") == []
    assert outcome.names("exact") == ["easy-first", "easy-fresh", "easy-mid", "easy-won"]
    assert outcome.names("refused") == ["easy-lost"]


def test_a_lost_board_taught_keeps_the_other_boards_read(tmp_path: Path) -> None:
    """KMines' medium board taught from its mid-game shot, then its lost board labelled too (the
    README's way to teach the mines): its mines, drawn over the shaded background, vary more
    than any other cell. They get a tolerance of their own; the one the other classes share
    stays what those vary by, and every medium board reads exactly, the fresh one included (with
    one tolerance for all, a covered cell and an empty one differed on too few pixels: the
    fresh board was found as 16x14 and refused, the won one not found)."""
    skins = tune_game("kmines", tmp_path, Recipe("medium-mid", ("medium-fresh",)), ("medium-lost",))
    meta = json.loads((skins / "t-kmines" / "skin.json").read_text(encoding="utf-8"))
    assert meta["match"]["class_tolerance"]["mine"] > meta["match"]["tolerance"]
    outcome = read_fixtures("kmines", skins, "medium-")
    assert outcome.names("exact") == [
        "medium-first", "medium-fresh", "medium-lost", "medium-mid", "medium-won"
    ], outcome.results  # fmt: skip


def test_shots_whose_cells_never_equal_are_aligned_by_agreement(tmp_path: Path) -> None:
    """KMines' see-through cells over a shaded background: with the mid-game board's lattice
    put three pixels up and left of the fresh one's (the other side of the pale line between
    open cells, as found), no cell of the fresh board equals one of the mid-game board pixel
    for pixel at any shift, yet the same window puts both boards at the same place: the
    fresh board's lattice is moved to the mid-game one's."""
    fresh = load_shot(FIXTURES / "kmines" / "easy-fresh.png")
    mid_image = cv2.imread(str(FIXTURES / "kmines" / "easy-mid.png"))
    phase = fresh.lattice.shifted(-3, -3)
    mid = Shot(fresh.path.with_name("easy-mid.png"), mid_image, phase, None)
    placed = align_shots([mid, fresh], cell_size([mid, fresh]))
    assert placed[1].lattice == phase


def test_winemine_beginner_alone_reads_the_wider_levels(tmp_path: Path) -> None:
    """Tuned from the beginner board alone (mid-game labelled, fresh), the skin reads the
    beginner boards and the intermediate and expert ones: its empty cells keep their outline
    (black inside it, like the flat black that a wider window's header has between its
    counters, which would otherwise read as two more rows of empty cells)."""
    skins = tune_game("winemine", tmp_path, Recipe("beginner-mid", ("beginner-fresh",)))
    meta = json.loads((skins / "t-winemine" / "skin.json").read_text(encoding="utf-8"))
    assert meta["cell"]["inset"] == 0
    outcome = read_fixtures("winemine", skins)
    assert outcome.names("misread") == []
    for level in ("beginner", "intermediate", "expert"):
        for name in ("fresh", "first", "mid"):
            assert outcome.results[f"{level}-{name}"] == "exact", outcome.results


def test_the_lattice_found_ends_at_the_board_frame() -> None:
    """Wine's Minesweeper at beginner: of the lattice's possible phases (a cell starting on
    either side of its one-pixel lines) the one kept has the board end at its frame on every
    side, not two pixels up with the counters' bottom edge taken for a strip of cells."""
    from bot.reading.grid import Grid
    from bot.reading.lattice import find_lattice
    from bot.reading.whole import board_problem

    for png in sorted((FIXTURES / "winemine").glob("beginner-*.png")):
        image = cv2.imread(str(png))
        lat = find_lattice(image)
        assert (lat.cols, lat.rows) == (9, 9)
        assert board_problem(image, Grid.from_lines(lat.xs, lat.ys)) is None, png.name


def test_kmines_easy_lattice_is_even_at_a_whole_pixel_pitch() -> None:
    """KMines' easy boards, mostly open (bold digits centred in 29 px cells outweigh the faint
    lines between open cells), are found at 9x9 with every line 29 px from the next."""
    from bot.reading.lattice import find_lattice

    for png in sorted((FIXTURES / "kmines").glob("easy-*.png")):
        lat = find_lattice(cv2.imread(str(png)))
        assert (lat.cols, lat.rows) == (9, 9), png.name
        assert set(np.diff(lat.xs)) == set(np.diff(lat.ys)) == {29}, png.name
