"""A player's wrong flag on a real screenshot (sgt-mines, flag placed with a right click on a
cell the numbers prove safe): ``replay`` names it and solves the board without the flags, where it
used to stop at a contradiction."""

from __future__ import annotations

import json
from pathlib import Path

from bot.cli import main
from solver.board import read_board
from solver.position import without
from solver.probability import mine_probabilities

PNG = Path(__file__).resolve().parent / "fixtures" / "sgt-mines" / "beginner-misflag.png"


def test_replay_names_the_wrong_flag_and_moves(capsys):
    assert main(["replay", str(PNG), "--expect", str(PNG.with_suffix(".txt"))]) == 0
    out = capsys.readouterr().out
    assert "same board" in out
    assert "FLAGS: the flag at (0, 1) contradicts the numbers (they prove its cell safe); " in out
    assert "solved without the player's 2 flags" in out
    assert "move: open (0, 1), safe (the cell is flagged: take the flag off first)" in out


def test_replay_json_reports_the_flags_and_the_bare_analysis(capsys, tmp_path):
    overlay = tmp_path / "o.png"
    assert main(["replay", str(PNG), "--json", "--overlay", str(overlay)]) == 0
    report = json.loads(capsys.readouterr().out)
    flags = report["flags"]
    assert flags["wrong"] == [[0, 1]] and flags["proven_safe"] == [[0, 1]]
    assert flags["dropped"] == [[0, 0], [0, 1]] and flags["complete"]
    assert report["move"]["p_mine"] == 0.0 and "contradiction" not in report
    assert report["safe_cells"] > 0 and overlay.is_file()


def test_the_fixture_board_fits_once_the_flags_are_gone():
    board = read_board(str(PNG.with_suffix(".txt")))
    bare = mine_probabilities(without(board, board.cells_of("F")), 10)
    assert bare.probability(0, 1) == 0 and bare.probability(0, 0) == 1
