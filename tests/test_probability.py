"""The exact engine against brute-force enumeration and the known benchmark answers."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.paths import data_file
from solver.board import Board, read_board
from solver.errors import ContradictionError
from solver.probability import mine_probabilities
from tests.bruteforce import enumerate_probabilities


def board_from_layout(
    width: int, height: int, mines: set[tuple[int, int]], opened: set, flagged: set
) -> Board:
    """The player's view of a layout with ``opened`` cells revealed and ``flagged`` flagged."""
    board = Board.covered(width, height)
    for x, y in opened:
        if (x, y) not in mines:
            count = sum(n in mines for n in board.neighbours(x, y))
            board[x, y] = str(count)
    for cell in flagged:
        board[cell] = "F"
    return board


@st.composite
def consistent_positions(draw):
    """A small board that some real layout produced, with its total mine count."""
    width = draw(st.integers(1, 5))
    height = draw(st.integers(1, 5))
    cells = [(x, y) for y in range(height) for x in range(width)]
    n_mines = draw(st.integers(0, len(cells)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    mines = set(rng.sample(cells, n_mines))
    safe = [c for c in cells if c not in mines]
    opened = set(rng.sample(safe, draw(st.integers(0, len(safe)))))
    flagged = set(rng.sample(sorted(mines), draw(st.integers(0, len(mines)))))
    question = set(rng.sample(cells, draw(st.integers(0, min(2, len(cells)))))) - opened - flagged
    board = board_from_layout(width, height, mines, opened, flagged)
    for cell in question:
        board[cell] = "?"
    return board, n_mines


@st.composite
def arbitrary_positions(draw):
    """Random numbers and covered cells: often contradictory."""
    width = draw(st.integers(1, 4))
    height = draw(st.integers(1, 4))
    text = []
    for y in range(height):
        row = ""
        for x in range(width):
            limit = len(Board.covered(width, height).neighbours(x, y))
            row += draw(st.sampled_from([".", ".", "F"] + [str(n) for n in range(limit + 1)]))
        text.append(row)
    board = Board("\n".join(text))
    mines = draw(st.integers(board.known_mines(), board.known_mines() + width * height))
    return board, mines


def assert_matches_bruteforce(board: Board, mines: int) -> None:
    layouts, expected = enumerate_probabilities(board, mines)
    if layouts == 0:
        with pytest.raises(ContradictionError):
            mine_probabilities(board, mines)
        return
    analysis = mine_probabilities(board, mines)
    assert analysis.exact
    assert analysis.solutions == layouts
    assert analysis.probabilities == expected
    assert set(analysis.safe) == {c for c, p in expected.items() if p == 0}
    assert set(analysis.mines_certain) == {c for c, p in expected.items() if p == 1}


# Example counts come from the Hypothesis profile (tests/conftest.py): fewer locally, 3000 in CI.
@given(consistent_positions())
def test_consistent_positions_match_bruteforce(position):
    assert_matches_bruteforce(*position)


@given(arbitrary_positions())
def test_arbitrary_positions_match_bruteforce_or_contradict(position):
    assert_matches_bruteforce(*position)


def test_larger_random_positions_match_bruteforce():
    rng = random.Random(7)
    for _ in range(60):
        width, height = rng.randint(4, 7), rng.randint(3, 5)
        cells = [(x, y) for y in range(height) for x in range(width)]
        mines = set(rng.sample(cells, rng.randint(3, len(cells) // 3)))
        safe = [c for c in cells if c not in mines]
        opened = set(rng.sample(safe, max(0, len(safe) - rng.randint(6, 12))))
        board = board_from_layout(width, height, mines, opened, set())
        if len(board.covered_cells()) <= 18:
            assert_matches_bruteforce(board, len(mines))


def test_super_board_of_death_known_answers():
    board = read_board(str(data_file("super-board-of-death.txt")))
    analysis = mine_probabilities(board, 51)
    assert analysis.exact
    assert abs(float(analysis.probability(15, 15)) - 0.0887530977619) < 1e-12
    assert abs(float(analysis.probability(2, 3)) - 0.2707636258318) < 1e-12
    assert abs(float(analysis.probability(8, 0)) - 0.2683314802591) < 1e-12


def test_zomis_4x4_known_answer():
    board = read_board(str(data_file("zomis-4x4.txt")))
    analysis = mine_probabilities(board, 6)
    assert [analysis.probability(x, 3) for x in range(4)] == [Fraction(45, 66)] * 4


def test_no_numbers_at_all_is_uniform():
    analysis = mine_probabilities(Board.covered(4, 3), 5)
    assert set(analysis.probabilities.values()) == {Fraction(5, 12)}
    assert analysis.solutions == 792  # C(12, 5)


def test_zero_mines_makes_everything_safe():
    analysis = mine_probabilities(Board("0..\n..."), 0)
    assert len(analysis.safe) == 5 and not analysis.mines_certain


def test_all_covered_cells_are_mines():
    analysis = mine_probabilities(Board("...\n.8.\n..."), 8)
    assert len(analysis.mines_certain) == 8 and analysis.solutions == 1


def test_flag_count_above_mines_is_a_contradiction():
    with pytest.raises(ContradictionError, match="flags"):
        mine_probabilities(Board("FF.\n..."), 1)


def test_contradiction_names_the_numbers():
    # The 1 and the 3 share the same two covered cells: no layout fits both.
    with pytest.raises(ContradictionError) as info:
        mine_probabilities(Board("1.\n.3"), 3)
    assert info.value.cells


def test_number_with_too_many_flags_names_the_cell():
    with pytest.raises(ContradictionError) as info:
        mine_probabilities(Board("FF\n1."), 3)
    assert info.value.cells == ((0, 1),)


def test_mine_count_the_board_cannot_hold():
    with pytest.raises(ContradictionError, match="mines are left"):
        mine_probabilities(Board("1..\n..."), 7)


def test_component_over_the_work_budget_is_approximated_and_labelled(monkeypatch):
    import solver.probability as engine

    board = read_board(str(data_file("super-board-of-death.txt")))
    monkeypatch.setattr(engine, "MAX_WORK", 1000)
    analysis = engine.mine_probabilities(board, 51)
    assert not analysis.exact
    assert len(analysis.approximate) > 100
    # Still a probability for every covered cell, each within [0, 1].
    assert all(0 <= p <= 1 for p in analysis.probabilities.values())
    assert len(analysis.probabilities) == len(board.covered_cells())


@pytest.mark.parametrize("nbytes", range(1, 13))
def test_packing_unpacks_slots_of_every_width(nbytes: int) -> None:
    from solver.packing import Packing

    rng = random.Random(nbytes)
    for cyclic, slices, low in ((False, 1, 0), (False, 3, 0), (True, 2, 5)):
        pack = Packing(8 * nbytes, slices, 7, cyclic=cyclic, low=low)
        coefficients = [rng.getrandbits(8 * nbytes - 1) for _ in range(slices * 7)]
        packed = sum(c << (pack.bits * slot) for slot, c in enumerate(coefficients))
        # Slot t + slices * (m % width) holds (m, t); unpacked at m + stride * t, m from low.
        expected = [0] * (pack.stride * slices)
        for slot, c in enumerate(coefficients):
            t, m = slot % slices, slot // slices
            if cyclic:
                m = low + (m - low) % 7
            expected[m + pack.stride * t] = c
        assert pack.unpack(packed) == expected
        # Several at once, as a count unpacks its groups' sums (cyclic: the all-ones is 0).
        several = [packed, 0, packed >> pack.bits, (1 << pack.size) - 1]
        assert pack.unpack_many(several) == [pack.unpack(p) for p in several]
