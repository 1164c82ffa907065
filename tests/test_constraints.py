"""The constraints' two stages (settle, then constrain) against the board and brute force."""

from __future__ import annotations

import random

import numpy as np
import pytest

from solver import frontier
from solver.board import Board, neighbour_table
from solver.constraints import board_constraints, constrain, neighbour_counts, settle
from solver.errors import ContradictionError
from tests.bruteforce import enumerate_probabilities
from tests.test_policy import game_positions


def test_neighbour_counts_match_the_neighbour_table():
    rng = random.Random(1)
    for _ in range(50):
        h, w = rng.randint(1, 6), rng.randint(1, 7)
        mask = np.array([[rng.random() < 0.4 for _x in range(w)] for _y in range(h)])
        table = neighbour_table(w, h)
        want = [sum(bool(mask.flat[k]) for k in table[i]) for i in range(w * h)]
        assert neighbour_counts(mask).ravel().tolist() == want


def test_settled_cells_are_what_every_layout_says():
    checked = 0
    for game, mines in game_positions(120, seed=71):
        board = game.board
        settled = settle(board, mines)
        _layouts, p = enumerate_probabilities(board, mines)
        width = board.width
        for j in settled.forced_safe:
            assert p[(j % width, j // width)] == 0
        for j in settled.forced_mines:
            assert p[(j % width, j // width)] == 1
        checked += len(settled.forced_safe) + len(settled.forced_mines)
    assert checked > 50


def test_constrain_completes_settle_into_board_constraints():
    for game, mines in game_positions(40, seed=72):
        board = game.board
        settled = settle(board, mines)
        cons = constrain(settled)
        assert cons == board_constraints(board, mines)
        width = board.width
        assert cons.forced_safe == tuple((j % width, j // width) for j in settled.forced_safe)
        assert cons.forced_mines == tuple((j % width, j // width) for j in settled.forced_mines)


def test_a_quick_survey_stops_at_the_settled_safe_cells():
    cells = list("1.....")  # no safe cell from single numbers: a full analysis
    out, counted = frontier.survey(cells, 3, 2, 1, quick=True)
    assert counted is not None and out.probability
    cells = list("0.....")  # the 0 clears (1, 0), (0, 1), (1, 1)
    out, counted = frontier.survey(cells, 3, 2, 1, quick=True)
    assert counted is None and not out.probability
    assert sorted(out.safe) == [1, 3, 4]


def test_settle_raises_for_twin_numbers_even_with_a_safe_cell():
    # The 0 settles (0, 0) and (1, 0) safe, but the 1 and the 2 of column 3 ask 1 and 2 mines
    # of the same four cells: a quick survey must not hand out the safe cells of such a board.
    with pytest.raises(ContradictionError, match="ask 1 and 2 mines of the same cells"):
        settle(Board("...1.\n01.2."), 3)
    with pytest.raises(ContradictionError):
        frontier.survey(list("...1.01.2."), 5, 2, 3, quick=True)
