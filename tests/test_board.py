"""The board's text form: round trips and clear errors."""

from __future__ import annotations

import pytest

from solver.board import Board, read_board
from solver.errors import BoardFormatError

ALL_CHARS = "012\n.?F\n*XW"


def test_text_round_trips_exactly():
    assert str(Board(ALL_CHARS)) == ALL_CHARS
    assert Board(str(Board(ALL_CHARS))) == Board(ALL_CHARS)


def test_surrounding_blank_lines_and_trailing_spaces_are_ignored():
    assert str(Board("\n  1.\n..  \n\n")) == "1.\n.."


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("12\n1", "ragged rows: row 1 has 1 cells, row 0 has 2"),
        ("1a\n..", "unknown character 'a' at x=1, y=0"),
        ("4.\n..", "number 4 at x=0, y=0 is larger than its 3 neighbours"),
        ("", "empty board"),
    ],
)
def test_bad_text_is_refused_with_a_specific_error(text, message):
    with pytest.raises(BoardFormatError, match=message):
        Board(text)


def test_read_board_names_the_file(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("1.\n.")
    with pytest.raises(BoardFormatError, match="bad.txt: ragged rows"):
        read_board(str(path))


def test_cells_can_be_read_and_written():
    board = Board.covered(3, 2)
    board[2, 1] = "F"
    assert board[2, 1] == "F" and board.known_mines() == 1
    assert board.covered_cells() == [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1)]
    with pytest.raises(IndexError):
        board[3, 0]
    with pytest.raises(BoardFormatError):
        board[0, 0] = "9"


def test_differences_list_changed_cells():
    assert Board("1.\n..").differences(Board("1F\n..")) == [((1, 0), ".", "F")]
