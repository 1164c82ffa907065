"""The game's memo of component counts gives exactly the counts of counting afresh."""

from __future__ import annotations

import random

from solver import frontier
from solver.board import Board
from solver.constraints import board_constraints, covered_neighbours
from solver.countmemo import CountMemo, count_components
from solver.game import Game
from solver.lookahead import Lookahead
from solver.policy import plan
from solver.probability import count_component
from tests.test_lookahead import expert_positions


def test_memo_counts_are_fresh_counts_on_expert_positions():
    memo = CountMemo()
    for cells in expert_positions(8, seed=170):
        cons = board_constraints(Board.from_cells(cells, 30, 16), 99)
        kept = count_components(cons, memo)
        fresh = [count_component(cons, comp) for comp in cons.components]
        assert kept == fresh
    assert memo.hits > 0


def test_memo_gives_the_lookahead_the_same_trials():
    memo = CountMemo()
    rng = random.Random(4)
    for cells in expert_positions(4, seed=171):
        outlook, counted = frontier.survey(cells, 30, 16, 99, memo=memo)
        plain = Lookahead(cells, 30, 16, counted.constraints, counted.counts, outlook.mines)
        kept = Lookahead(cells, 30, 16, counted.constraints, counted.counts, outlook.mines, memo)
        covered = [j for j, ch in enumerate(cells) if ch == "."]
        for j in rng.sample(covered, 10):
            for v in range(9):
                assert kept.reveal(j, v, probabilities=True) == plain.reveal(
                    j, v, probabilities=True
                )
    assert memo.hits > 0


def test_a_game_played_with_a_memo_is_the_same_game():
    for seed in range(3):
        played = []
        for memo in (None, CountMemo()):
            game = Game(16, 16, 40, seed=seed)
            game.open(0, 0)
            rng = random.Random(seed)
            moves = []
            while game.state == "playing":
                for move in plan(game.cells, 16, 16, 40, "best", rng, memo):
                    moves.append(move)
                    if move.action == "flag":
                        game.flag(move.x, move.y)
                    elif game.state == "playing":
                        game.open(move.x, move.y)
            played.append((game.state, moves))
        assert played[0] == played[1]


def test_memo_starts_afresh_past_its_limit():
    memo = CountMemo(limit=2)
    cons = board_constraints(Board("1...1...2\n.........\n........."), 10)
    assert len(cons.components) == 3  # three shapes: a corner 1, an edge 1, a corner 2
    for _ in range(2):
        assert count_components(cons, memo) == count_components(cons)
    assert len(memo._counts) <= 2 and memo.misses >= 4


def test_covered_around_counts_each_cells_covered_neighbours():
    from solver.board import neighbour_table

    rng = random.Random(2)
    cells = [rng.choice("..?F12") for _ in range(7 * 5)]
    table = neighbour_table(7, 5)
    want = [sum(cells[k] in ".?" for k in table[i]) for i in range(35)]
    assert covered_neighbours(cells, 7, 5) == want


def test_a_count_seeded_from_a_trial_is_the_count_of_the_board_after_it():
    """:meth:`Lookahead.seed` gives the memo the component a reveal makes; the analysis of the
    board after the reveal (settled mines flagged, as the look-ahead and the game leave it)
    finds it there, and analyses that board exactly as counting afresh does."""
    from solver.board import neighbour_table
    from solver.errors import ContradictionError
    from solver.probability import combine

    found = 0
    for cells in expert_positions(6, seed=172):
        outlook, counted = frontier.survey(cells, 30, 16, 99)
        if outlook.safe:
            continue
        for j in sorted(outlook.probability, key=lambda k: outlook.probability[k])[:6]:
            for v in range(len(neighbour_table(30, 16)[j]) + 1):
                memo = CountMemo()  # only the seeded count can be found in it
                ahead = Lookahead(
                    cells, 30, 16, counted.constraints, counted.counts, outlook.mines, memo
                )
                ahead.seed(j, v)
                board = list(cells)
                for k in outlook.mines:
                    board[k] = "F"
                board[j] = str(v)
                try:
                    cons = board_constraints(Board.from_cells(board, 30, 16), 99)
                    fresh = combine(cons, 99, [count_component(cons, c) for c in cons.components])
                except ContradictionError:
                    continue
                seeded = combine(cons, 99, count_components(cons, memo))
                assert (seeded.solutions, seeded.pools) == (fresh.solutions, fresh.pools)
                found += memo.hits
    assert found > 30
