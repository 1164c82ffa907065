"""The fixtures' expected boards are sound: each ``tests/fixtures/<game>/NAME.txt`` parses, has
its picture, has the size and mine total its manifest entry records, and fits some mine layout.

Not a reader test: no picture is read here. It guards the answers the reader tests grade against
(a hand-edited board with a typo, a board saved at the wrong size, a picture without its board).
The manifest, ``tests/fixtures/manifest.json``, gives per fixture ``cols``, ``rows``, ``mines``
and ``all_mines_shown`` (a lost board of a game that uncovers every mine when lost).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver.board import Board, read_board
from solver.errors import ContradictionError
from solver.probability import mine_probabilities

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MANIFEST = json.loads((FIXTURES / "manifest.json").read_text())
BOARDS = sorted(FIXTURES.glob("*/*.txt"))
IDS = [f"{p.parent.name}/{p.stem}" for p in BOARDS]


def counts_agree(board: Board, mine_chars: str) -> list[tuple[int, int]]:
    """Numbers that differ from their count of neighbouring cells shown in ``mine_chars``.

    >>> counts_agree(Board("1*\\n11"), "*")
    []
    >>> counts_agree(Board("2*\\n11"), "*")
    [(0, 0)]
    """
    return [
        (x, y)
        for (x, y), ch in board.items()
        if ch.isdigit() and int(ch) != sum(board[n] in mine_chars for n in board.neighbours(x, y))
    ]


def as_position(board: Board, lost: bool) -> Board:
    """The board as the solver takes it: shown mines as flags, wrong flags as unknown; after a
    loss flags are only the player's guesses (sgt-mines and xbomb draw a wrong one as a flag)."""
    text = str(board).translate(str.maketrans({"*": "F", "X": "F", "W": "."}))
    if lost:
        text = str(board).translate(str.maketrans({"*": "F", "X": "F", "W": ".", "F": "."}))
    return Board(text)


def test_every_fixture_picture_has_a_board_and_a_manifest_entry() -> None:
    pictures = {f"{p.parent.name}/{p.stem}" for p in FIXTURES.glob("*/*.png")}
    boards = set(IDS)
    assert pictures == boards, (sorted(pictures - boards), sorted(boards - pictures))
    assert boards == set(MANIFEST), (sorted(boards - set(MANIFEST)), sorted(set(MANIFEST) - boards))


@pytest.mark.parametrize("txt", BOARDS, ids=IDS)
def test_fixture_board_is_well_formed_and_consistent(txt: Path) -> None:
    entry = MANIFEST[f"{txt.parent.name}/{txt.stem}"]
    board = read_board(str(txt))  # raises on a bad character, ragged rows, an impossible number
    assert (board.width, board.height) == (entry["cols"], entry["rows"])
    assert txt.with_suffix(".png").is_file()
    moment = txt.stem.split("-")[-1]
    shown = sum(ch in "*XF" for _, ch in board.items())
    assert shown <= entry["mines"]
    if moment == "won":
        # Every safe cell is open: each number counts the cells still closed or flagged.
        assert sum(ch in ".?F*" for _, ch in board.items()) == entry["mines"]
        assert counts_agree(board, ".?F*") == []
    elif entry["all_mines_shown"]:
        assert "X" in str(board) or "*" in str(board)
        assert counts_agree(board, "*XF") == []
    else:
        try:
            # A player's flags may be wrong (misflag fixtures): then, as after a loss, not trusted.
            unsure = moment == "lost" or entry.get("flags_may_be_wrong", False)
            mine_probabilities(as_position(board, unsure), entry["mines"])
        except ContradictionError as exc:
            pytest.fail(f"{txt}: no mine layout fits: {exc}")


def test_a_board_that_contradicts_itself_is_caught() -> None:
    """The check above can fail: a 1 beside two shown mines on a lost board."""
    assert counts_agree(Board("1*\n*2"), "*XF") == [(0, 0)]
    with pytest.raises(ContradictionError):
        mine_probabilities(as_position(Board("1.\n..\n.."), lost=False), 0)
