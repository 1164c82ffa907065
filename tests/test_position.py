"""solver.position: the player's flags are checked against the numbers, and the culprits named
exactly (every smallest set of flags whose removal makes the position consistent), checked
against brute-force enumeration of the layouts on small boards."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from solver.board import FLAG, MINE_CHARS, NUMBERS, Board, Position
from solver.errors import ContradictionError
from solver.game import Game
from solver.position import analyse_position, without
from solver.probability import mine_probabilities


def brute_culprits(board: Board, mines: int) -> set[frozenset[Position]]:
    """Every smallest set of flags whose removal leaves a layout that fits: over every layout of
    the board with its flags covered, the flags on safe cells, those of least size."""
    flags = board.cells_of(FLAG)
    bare = without(board, flags)
    covered = bare.covered_cells()
    left = mines - bare.known_mines()
    numbers = [(int(ch), bare.neighbours(x, y)) for (x, y), ch in bare.items() if ch in NUMBERS]
    wrong_sets = set()
    if 0 <= left <= len(covered):
        for chosen in combinations(covered, left):
            mines_at = set(chosen)
            if all(
                value == sum(n in mines_at or bare[n] in MINE_CHARS for n in around)
                for value, around in numbers
            ):
                wrong_sets.add(frozenset(f for f in flags if f not in mines_at))
    if not wrong_sets:
        raise ContradictionError("no layout fits the numbers")
    least = min(len(s) for s in wrong_sets)
    return {s for s in wrong_sets if len(s) == least}


def random_position(rng: random.Random) -> tuple[Board, int]:
    """A position of a real small game, part opened, with flags on random covered cells (some
    on mines, some not)."""
    width, height = rng.randint(2, 5), rng.randint(2, 4)
    mines = rng.randint(1, width * height // 3 + 1)
    game = Game(width, height, mines, rules="unsafe", seed=rng.randrange(10**9))
    for _ in range(rng.randint(1, 4)):
        x, y = rng.randrange(width), rng.randrange(height)
        if game.state == "playing" and game.board[x, y] == "." and not game._mine[y * width + x]:
            game.open(x, y)
    board = game.board.copy()
    covered = board.covered_cells()
    for x, y in rng.sample(covered, min(len(covered), rng.randint(1, 4))):
        board[x, y] = FLAG
    return board, mines


def test_culprits_match_brute_force_on_small_boards():
    rng = random.Random(20261123)
    checked = dropped = several = 0
    while checked < 300:
        board, mines = random_position(rng)
        if len(board.covered_cells()) + len(board.cells_of(FLAG)) > 14:
            continue
        checked += 1
        expected = brute_culprits(board, mines)
        got = analyse_position(board, mines)
        if expected == {frozenset()}:  # the flags fit: kept, and the analysis is the usual one
            assert got.dropped == () and got.culprits == ()
            assert got.analysis.probabilities == mine_probabilities(board, mines).probabilities
            continue
        dropped += 1
        several += len(expected) > 1
        assert got.complete
        assert {frozenset(s) for s in got.culprits} == expected, str(board)
        assert set(got.dropped) == set(board.cells_of(FLAG))
        assert str(got.board) == str(without(board, board.cells_of(FLAG)))
        bare = mine_probabilities(got.board, mines)
        assert got.analysis.probabilities == bare.probabilities
        assert set(got.wrong_flags) == frozenset.intersection(*expected)
        assert got.note
    assert dropped >= 50 and several >= 10  # the sample holds both kinds of wrong flags


def test_a_flag_beside_a_zero_is_named_and_dropped():
    board = Board("F0..\n....")
    got = analyse_position(board, 1)
    assert got.wrong_flags == ((0, 0),) and got.proven_safe == ((0, 0),)
    assert got.note.startswith("the flag at (0, 0) contradicts the numbers")
    assert got.analysis.probability(0, 0) == 0


def test_two_flags_on_a_one_name_both_as_alternatives():
    got = analyse_position(Board("1..\nFF."), 1)
    assert sorted(got.culprits) == [((0, 1),), ((1, 1),)]
    assert got.wrong_flags == ()
    assert "one of (0, 1) or (1, 1)" in got.note


def test_more_flags_than_mines():
    got = analyse_position(Board("FF.\n..."), 1)
    assert sorted(got.culprits) == [((0, 0),), ((1, 0),)]
    assert got.dropped == ((0, 0), (1, 0))


def test_numbers_that_contradict_without_flags_still_raise():
    with pytest.raises(ContradictionError):
        analyse_position(Board("1F\n.3"), 3)


def test_a_search_too_large_says_so():
    # Twelve plausible flags, of which any three must go: 220 sets of three; allowed 10 trials.
    board = Board("FFFFFF\nFFFFFF\n......")
    got = analyse_position(board, 9, max_trials=10)
    assert not got.complete
    assert "too many flags to narrow it further" in got.note
    assert len(got.culprits) == 1 and len(got.culprits[0]) == 12
    full = analyse_position(board, 9)
    assert full.complete and len(full.culprits) == 220
