"""`minebot solve` end to end through the CLI entry point."""

from __future__ import annotations

import json
from fractions import Fraction

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
