"""``minebot replay`` on every fixture, and its options and failures."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.cli import main
from solver.board import read_board
from tests.fixture_cases import READER_CASES, reader_params

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CASES = READER_CASES


@pytest.mark.sample(2)
@pytest.mark.parametrize("png", reader_params())
def test_replay_matches_every_fixture(png, capsys):
    code = main(["replay", str(png), "--expect", str(png.with_suffix(".txt"))])
    out = capsys.readouterr().out
    assert code == 0, out
    assert f"skin: {png.parent.name}" in out
    assert str(read_board(str(png.with_suffix(".txt")))) in out
    assert "same board" in out
    assert "lowest confidence:" in out and "move:" in out


def _mid(skin: str = "xdemineur") -> Path:
    return sorted((FIXTURES / skin).glob("*-mid.png"))[-1]


def test_expect_lists_the_differing_cells_and_exits_1(tmp_path, capsys):
    png = _mid()
    board = read_board(str(png.with_suffix(".txt")))
    covered = board.covered_cells()[0]
    board[covered] = "F"
    wrong = tmp_path / "wrong.txt"
    wrong.write_text(str(board))
    assert main(["replay", str(png), "--expect", str(wrong)]) == 1
    out = capsys.readouterr().out
    x, y = covered
    assert f"({x}, {y}) read '.' expected 'F'" in out


def test_expect_of_another_size_exits_1(tmp_path, capsys):
    small = tmp_path / "small.txt"
    small.write_text("..\n..\n")
    assert main(["replay", str(_mid()), "--expect", str(small)]) == 1
    assert "DIFFERENT SIZE" in capsys.readouterr().out


def test_json_has_the_documented_fields(capsys):
    png = _mid("sgt-mines")
    assert main(["replay", str(png), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    board = read_board(str(png.with_suffix(".txt")))
    assert report["skin"] == "sgt-mines"
    assert report["board"] == str(board)
    assert (report["rows"], report["cols"]) == (board.height, board.width)
    assert 0.8 <= report["min_confidence"] <= 1
    assert report["state"] == "playing"
    move = report["move"]
    assert board[move["x"], move["y"]] in ".?"
    assert move["action"] in ("open", "flag")


def test_the_move_is_safe_when_the_solver_knows_a_safe_cell(capsys):
    png = _mid("sgt-mines")  # sgt-mines boards never need a guess
    assert main(["replay", str(png), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    if report["safe_cells"]:
        assert report["move"]["p_mine"] == 0


def test_overlay_tints_covered_cells_and_marks_the_move(tmp_path, capsys):
    png = _mid()
    out_png = tmp_path / "overlay.png"
    assert main(["replay", str(png), "--overlay", str(out_png), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    original, overlay = cv2.imread(str(png)), cv2.imread(str(out_png))
    assert overlay.shape == original.shape
    grid = report["grid"]
    board = read_board(str(png.with_suffix(".txt")))
    mx, my = report["move"]["x"], report["move"]["y"]
    for (x, y), ch in board.items():
        if my - 1 <= y <= my + 1 and mx - 1 <= x <= mx + 8:
            continue  # the move's frame and its label, written above it to the right
        cx = int(grid["left"] + (x + 0.5) * grid["pitch_x"])
        cy = int(grid["top"] + (y + 0.5) * grid["pitch_y"])
        changed = not np.array_equal(original[cy - 1, cx - 1], overlay[cy - 1, cx - 1])
        assert changed == (ch in ".?"), (x, y, ch)


def test_a_folder_replays_every_picture(tmp_path, capsys):
    folder = tmp_path / "game"
    folder.mkdir()
    expect = tmp_path / "expect"
    expect.mkdir()
    for png in sorted((FIXTURES / "sgt-mines").glob("beginner-*.png")):
        (folder / png.name).write_bytes(png.read_bytes())
        (expect / png.with_suffix(".txt").name).write_bytes(png.with_suffix(".txt").read_bytes())
    assert main(["replay", str(folder), "--expect", str(expect), "--json"]) == 0
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(reports) == len(list(folder.iterdir()))
    assert all(r["differences"] == [] for r in reports)


def test_no_board_exits_2_with_a_message(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((300, 400, 3), 90, np.uint8))
    assert main(["replay", str(blank)]) == 2
    assert "no board found" in capsys.readouterr().err


def test_unknown_skin_exits_2(capsys):
    assert main(["replay", str(_mid()), "--skin", "no-such-skin"]) == 2
    assert "unknown skin 'no-such-skin'" in capsys.readouterr().err


def test_missing_file_and_non_picture_exit_2(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nothing.png")]) == 2
    text = tmp_path / "board.png"
    text.write_text("not a picture")
    assert main(["replay", str(text)]) == 2
    assert "not a picture" in capsys.readouterr().err


def test_mine_count_from_option_level_or_estimate(tmp_path, capsys):
    png = _mid("sgt-mines")
    assert main(["replay", str(png), "--mines", "50", "--json"]) == 0  # beats the status line
    assert json.loads(capsys.readouterr().out)["mines"] == 50
    # A board size no level has, no status line: the count is estimated, and the output says so.
    # (A fresh board: columns of a played one taken out leave numbers whose mines are gone.)
    frame = cv2.imread(str(png.with_name("expert-fresh.png")))
    from bot.reading.read import locate_board

    grid = locate_board(frame).grid
    # Columns 14.. taken out (the window's right frame follows column 13: a whole 14-wide
    # board; painting over them would be a covered board, refused), the status line painted
    # out below the board's frame.
    right, end = int(round(grid.col_left(14))), int(round(grid.col_left(grid.cols)))
    cut = np.ascontiguousarray(np.concatenate([frame[:, :right], frame[:, end:]], axis=1))
    cut[int(round(grid.bounds[3] + grid.pitch_y / 2)) :, :] = cut[-1, -1]
    odd = tmp_path / "odd.png"
    cv2.imwrite(str(odd), cut)
    assert main(["replay", str(odd)]) in (0, 2)
    out = capsys.readouterr().out
    assert "ESTIMATED" in out and "14x" in out


def test_mine_count_from_the_screen_counter_beats_the_level(capsys):
    """xdemineur started with 13 mines on a 16x16 board: its counter says so (the level of
    that size would say 40)."""
    png = FIXTURES / "xdemineur" / "custom13-fresh.png"
    assert main(["replay", str(png), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["mines"] == 13 and "screen" in report["mines_source"]


def test_counter_plus_flags_gives_the_total(capsys):
    png = FIXTURES / "xdemineur" / "expert-mid.png"
    board = read_board(str(png.with_suffix(".txt")))
    assert board.known_mines() > 0  # the counter alone shows fewer than 99
    assert main(["replay", str(png), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["mines"] == 99 and "screen" in report["mines_source"]


def _custom_total(png: Path) -> int | None:
    """The mine total a fixture was captured with, when its name says (``custom<M>-...``)."""
    name = png.stem.split("-")[0]
    return int(name[len("custom") :]) if name.startswith("custom") else None


STATUS_LINES = [
    p
    for skin in ("sgt-mines", "gnome-mines")
    for p in sorted((FIXTURES / skin).glob("custom*.png"))
]


@pytest.mark.sample(2)
@pytest.mark.parametrize(
    "png", STATUS_LINES, ids=[f"{p.parent.name}/{p.stem}" for p in STATUS_LINES]
)
def test_the_total_comes_from_the_status_line(png):
    """Games started with totals no level has: the reading's count is the one on the screen
    (sgt-mines' "Marked: F / M", GNOME Mines' "F/M"), or None-then-fallback where the status
    shows none (sgt-mines' "DEAD!")."""
    from bot.reading.read import read_counter, read_image

    frame = cv2.imread(str(png))
    reading = read_image(frame)
    shown = read_counter(frame, reading.located)
    if "lost" in png.stem and reading.skin.name == "sgt-mines":
        assert shown is None and reading.mines_source != "screen"
    else:
        assert shown == ("total", _custom_total(png))
        assert (reading.mines, reading.mines_source) == (_custom_total(png), "screen")


def test_the_level_fixtures_status_lines_give_their_level_totals():
    from bot.reading.read import read_counter, read_image

    for skin in ("sgt-mines", "gnome-mines"):
        for png in sorted((FIXTURES / skin).glob("*-*.png")):
            if png.stem.startswith("custom"):
                continue
            frame = cv2.imread(str(png))
            reading = read_image(frame)
            shown = read_counter(frame, reading.located)
            level = reading.skin.level_mines(reading.grid.cols, reading.grid.rows)
            assert shown in (None, ("total", level)), png
            if shown is None:  # only where the status line shows no count
                assert png.stem.endswith(("lost", "won")) and reading.skin.name == "sgt-mines"


def _total_digits(png: Path):
    """The frame, its located board and the boxes (x, y, w, h in frame pixels) of the total's
    digits on its status line, found by matching the skin's own glyph images."""
    from bot.reading.read import counter_box, locate_board

    frame = cv2.imread(str(png))
    located = locate_board(frame)
    x0, y0, x1, y1 = counter_box(located, frame.shape)
    total = str(_custom_total(png))
    boxes = []
    box = frame[y0:y1, x0:x1]
    glyphs = located.skin.meta["counter"]["glyphs"]
    for digit in total:
        image = cv2.imread(str(located.skin.folder / glyphs[digit]))
        result = cv2.matchTemplate(box, image, cv2.TM_SQDIFF)
        for y, x in zip(*np.nonzero(result <= result.min() + 1), strict=True):
            boxes.append((x0 + int(x), y0 + int(y), image.shape[1], image.shape[0], digit))
    return frame, located, sorted(set(boxes))


@pytest.mark.parametrize("skin", ["sgt-mines", "gnome-mines"])
def test_a_digit_no_glyph_explains_gives_no_count_not_a_wrong_one(skin):
    """A smudge over one digit of the total (a glyph the skin lacks, a pointer, a tooltip)
    must make the count unreadable, never a shorter or other number."""
    from bot.reading.read import read_counter

    png = FIXTURES / skin / "custom135-fresh.png"
    frame, located, digits = _total_digits(png)
    assert read_counter(frame, located) == ("total", 135)
    for x, y, w, h, _digit in digits:
        smudged = frame.copy()
        smudged[y + h // 3 : y + 2 * h // 3, x + 1 : x + w - 1] = (60, 60, 60)
        assert read_counter(smudged, located) is None, (x, _digit)


@pytest.mark.parametrize("scale", [1.25, 1.5, 2.0])
def test_a_scaled_screen_reads_its_count_or_none_never_another(scale):
    """Desktop scaling blurs the glyphs: the count is read right or not at all."""
    from bot.reading.read import locate_board, read_counter

    for png in [
        FIXTURES / "sgt-mines" / "custom135-fresh.png",
        FIXTURES / "sgt-mines" / "custom17-eight.png",
        FIXTURES / "xdemineur" / "custom13-fresh.png",
    ]:
        frame = cv2.imread(str(png))
        big = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
        shown = read_counter(big, locate_board(big))
        kind = "left" if png.parent.name == "xdemineur" else "total"
        assert shown in (None, (kind, _custom_total(png))), (png.name, shown)


def test_a_patch_of_empty_cells_is_no_whole_board():
    """Part of a board read as a whole one gives itself away by what it shows: a patch of
    empty cells has no cell that could hold a mine, and every game has one; a patch cut through
    numbers leaves them fewer cells that could hold their mines than they say. Either is refused
    by name, never read (sgt-mines at a tile size its skin lacked had a 2x2 patch of a won
    board's empty cells read as a whole 'won' board)."""
    from bot.errors import BoardCutError
    from bot.reading.grid import Grid
    from bot.reading.read import ReaderState, locate_board, read_frame

    png = FIXTURES / "sgt-mines" / "expert-won.png"
    frame = cv2.imread(str(png))
    located = locate_board(frame)
    rows = png.with_suffix(".txt").read_text(encoding="utf-8").split()
    grid = located.grid
    zeros = next((x, y) for y in range(grid.rows - 1) for x in range(grid.cols - 1)
                 if rows[y][x : x + 2] == "00" == rows[y + 1][x : x + 2])  # fmt: skip
    numbers = next((x, y) for y in range(grid.rows - 1) for x in range(grid.cols - 1)
                   if rows[y][x] in "123"
                   and (rows[y][x + 1] + rows[y + 1][x : x + 2]).isdigit())  # fmt: skip
    for x, y in (zeros, numbers):
        left, top, _, _ = grid.cell_rect(x, y)
        part = Grid(left, top, grid.pitch_x, grid.pitch_y, 2, 2)
        with pytest.raises(BoardCutError, match="no whole board a game can show"):
            read_frame(frame, replace(located, grid=part), ReaderState())


def test_an_estimated_mine_count_stays_within_what_the_numbers_allow():
    """A board with no count shown is given its usual level's count (or 18 % of its cells),
    unless its numbers allow fewer (or need more): ace-minesweeper's 8x8 of 6 mines after its
    first click was given 12 where at most 10 fit, and replay stopped at the contradiction of
    its own estimate."""
    from types import SimpleNamespace

    from bot.commands.replay import mine_count
    from solver.board import Board
    from solver.probability import mine_probabilities

    board = Board("\n".join(["00000000"] * 6 + ["00000011", "0000001."]))
    mines, source = mine_count(SimpleNamespace(board=board, mines=None), None)
    assert (mines, source.split(" ")[0]) == (1, "ESTIMATED")
    assert mine_probabilities(board, mines).probability(7, 7) == 1
