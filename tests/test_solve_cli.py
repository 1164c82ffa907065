"""`minebot solve` end to end through the CLI entry point."""

from __future__ import annotations

import io
import json
import sys
from fractions import Fraction

import pytest

from bot.cli import main
from solver.board import Board
from solver.probability import mine_probabilities


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_report_matches_the_engine(tmp_path, capsys):
    text = "1..\n...\n..."
    path = tmp_path / "b.txt"
    path.write_text(text)
    code, out, _ = run_cli(capsys, "solve", str(path), "--mines", "2", "--json")
    assert code == 0
    report = json.loads(out)
    analysis = mine_probabilities(Board(text), 2)
    assert (report["width"], report["height"], report["mines"]) == (3, 3, 2)
    assert report["probabilities"][0][0] is None
    assert report["probabilities"][0][1] == float(analysis.probability(1, 0))
    assert int(report["solutions"]) == analysis.solutions
    move = report["move"]
    assert move["action"] == "open"
    assert Fraction(move["p_mine"]).limit_denominator(1000) == analysis.probability(
        move["x"], move["y"]
    )


def test_certain_cells_are_listed(tmp_path, capsys):
    path = tmp_path / "b.txt"
    path.write_text("01.\n01.\n01.")
    code, out, _ = run_cli(capsys, "solve", str(path), "--mines", "1", "--json")
    report = json.loads(out)
    assert code == 0
    assert report["mines_certain"] == [[2, 1]]
    assert sorted(report["safe"]) == [[2, 0], [2, 2]]
    assert report["move"]["p_mine"] == 0.0


def test_human_output_shows_grid_and_move(tmp_path, capsys):
    path = tmp_path / "b.txt"
    path.write_text("1.\n..")
    code, out, _ = run_cli(capsys, "solve", str(path), "--mines", "1")
    assert code == 0
    assert "33%" in out and "move: open" in out


def test_huge_solution_counts_are_strings(tmp_path, capsys):
    path = tmp_path / "b.txt"
    path.write_text("\n".join(["." * 30] * 16))
    _, out, _ = run_cli(capsys, "solve", str(path), "--mines", "99", "--json")
    assert isinstance(json.loads(out)["solutions"], str)


def test_contradiction_exits_2_with_the_cells(tmp_path, capsys):
    path = tmp_path / "b.txt"
    path.write_text("1.\n.3")
    code, out, err = run_cli(capsys, "solve", str(path), "--mines", "3")
    assert code == 2 and out == ""
    assert err.startswith("minebot solve:") and "x=1, y=1" in err


def test_bad_text_exits_2_naming_the_file(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("1.\n.")
    code, _, err = run_cli(capsys, "solve", str(path), "--mines", "1")
    assert code == 2 and "bad.txt: ragged rows" in err


def test_missing_file_exits_2(tmp_path, capsys):
    code, _, err = run_cli(capsys, "solve", str(tmp_path / "none.txt"), "--mines", "1")
    assert code == 2 and "cannot read" in err


def solve_file(tmp_path, capsys, text: str, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "board.txt"
    path.write_text(text)
    return run_cli(capsys, "solve", str(path), *args)


def test_every_covered_cell_a_mine_is_a_won_game(tmp_path, capsys):
    code, out, err = solve_file(tmp_path, capsys, "1.\n11\n", "--mines", "1")
    assert code == 0 and err == ""
    assert "100%" in out  # the probabilities are printed
    assert "game won: the 1 covered cell(s) left are all mines (only flags are left" in out
    code, out, _ = solve_file(tmp_path, capsys, "1.\n11\n", "--mines", "1", "--json")
    report = json.loads(out)
    assert report["state"] == "won" and report["move"] is None
    assert report["probabilities"] == [[None, 1.0], [None, None]]


def test_only_flags_left_is_a_won_game(tmp_path, capsys):
    code, out, _ = solve_file(tmp_path, capsys, "11\n1F\n", "--mines", "1")
    assert code == 0 and "game won: no covered cell is left (only flags)" in out
    code, out, _ = solve_file(tmp_path, capsys, "11\n1F\n", "--mines", "1", "--json")
    assert json.loads(out)["state"] == "won"


def test_a_game_still_on_says_playing(tmp_path, capsys):
    _, out, _ = solve_file(tmp_path, capsys, "1.\n..\n", "--mines", "1", "--json")
    report = json.loads(out)
    assert report["state"] == "playing" and report["flags"]["dropped"] == []


def test_a_flag_that_contradicts_the_numbers_is_named_and_dropped(tmp_path, capsys):
    # (0, 1) is flagged, but the 1 at (0, 0) already has its mine at (1, 0) and (0, 2) is a 0.
    text = "1F.\nF..\n0..\n"
    code, out, err = solve_file(tmp_path, capsys, text, "--mines", "2")
    assert code == 0, err
    assert "FLAGS: the flag at (0, 1) contradicts the numbers" in out
    assert "solved without the player's 2 flags" in out
    code, out, _ = solve_file(tmp_path, capsys, text, "--mines", "2", "--json")
    flags = json.loads(out)["flags"]
    assert flags["wrong"] == [[0, 1]] and flags["dropped"] == [[1, 0], [0, 1]]
    assert json.loads(out)["probabilities"][1][0] == 0.0  # solved without the flags


def test_flags_of_which_one_is_wrong_are_named_as_alternatives(tmp_path, capsys):
    code, out, _ = solve_file(tmp_path, capsys, "1..\nFF.\n", "--mines", "1")
    assert code == 0
    assert "FLAGS: the flags cannot all be right: one of (0, 1) or (1, 1)" in out


def test_unknown_strategy_is_refused(tmp_path, capsys):
    path = tmp_path / "b.txt"
    path.write_text("1.\n..")
    with pytest.raises(SystemExit) as stop:
        main(["solve", str(path), "--mines", "1", "--strategy", "nonsense"])
    assert stop.value.code == 2
    assert "invalid choice: 'nonsense'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: d, ": is a folder; the board must be a file"),
        (lambda d: d / "none.txt", "none.txt: cannot read the board: No such file or directory"),
        (
            lambda d: _bytes(d / "latin1.txt", b"1.\n.\xe9\n"),
            "latin1.txt: the board is not UTF-8 text (byte 4 is 0xe9)",
        ),
        (lambda d: _bytes(d / "empty.txt", b""), "empty.txt: empty board"),
    ],
    ids=["folder", "missing", "not-utf8", "empty"],
)
def test_unreadable_input_is_one_line_naming_it(tmp_path, capsys, make, message):
    code, out, err = run_cli(capsys, "solve", str(make(tmp_path)), "--mines", "1")
    assert code == 2 and out == ""
    assert err.startswith("minebot solve: ") and err.count("\n") == 1
    assert message in err and "Traceback" not in err


def test_non_utf8_standard_input_is_one_line(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"1\xff\n..\n")))
    code, _, err = run_cli(capsys, "solve", "-", "--mines", "1")
    assert code == 2
    assert err == "minebot solve: standard input: the board is not UTF-8 text (byte 1 is 0xff)\n"


def _bytes(path, data: bytes):
    path.write_bytes(data)
    return path
