"""The PGMS Equation Strategy's rules on small crafted boards."""

from __future__ import annotations

import random

import pytest

from solver.bench import BenchConfig, run_bench
from solver.errors import ContradictionError
from solver.pgms import choose, deduce, equations, scan_first


def flat(text: str) -> tuple[list[str], int, int]:
    rows = text.split()
    return list("".join(rows)), len(rows[0]), len(rows)


def test_equations_subtract_flags_and_skip_numbers_without_covered_cells():
    cells, w, h = flat("F2. 1.. 000")
    eqs, board_eq = equations(cells, w, h, mines=3)
    # The 2 at (1, 0) owes 1 mine (one flag) among (2, 0), (1, 1), (2, 1).
    assert eqs[frozenset({2, 4, 5})] == 1
    # The 1 at (0, 1) touches the flag: 0 left among (1, 1).
    assert eqs[frozenset({4})] == 0
    assert board_eq == (frozenset({2, 4, 5}), 2)
    assert len(eqs) == 3  # the zeros touch covered (1, 1), (2, 1) too, with c = 0


def test_rule_1_zero_means_safe():
    # The 1 at (1, 0) has its flag: its other covered neighbours are safe.
    cells, w, h = flat("F1.. ....")
    assert deduce(cells, w, h, mines=2) == ((2, 4, 5, 6), ())


def test_rule_2_full_means_mines():
    cells, w, h = flat("3... ....")
    safe, mines = deduce(cells, w, h, mines=20 // 4)
    assert {1, 4, 5} <= set(mines)


def test_rule_3_subset_gives_a_new_equation():
    # 1 at (0,0) sees {4, 5}; 1 at (1,0) sees {2, 4, 5, 6}: so {2, 6} holds no mine.
    cells, w, h = flat("11.. .... ....")
    assert deduce(cells, w, h, mines=3) == ((2, 6), ())


def test_rule_4_overlap_settles_both_sides():
    from solver.pgms import _closure

    # 1 = {0, 1, 2} and 2 = {1, 2, 3}: 2 - 1 = |{3}|, so 3 is a mine and 0 is safe.
    safe, mines, eqs = _closure({frozenset({0, 1, 2}): 1, frozenset({1, 2, 3}): 2})
    assert (safe, mines) == ({0}, {3})
    assert eqs == {frozenset({1, 2}): 1}


def test_rules_settle_a_wall_of_numbers():
    # Mines at (1, 0) and (3, 0) under the row "1121".
    cells, w, h = flat(".... 1121 0000")
    assert deduce(cells, w, h, mines=2) == ((0, 2), (1, 3))
    # The numbers alone settle it, without the whole-board equation.
    from solver.pgms import _closure

    safe, mines, _ = _closure(equations(cells, w, h, mines=2)[0])
    assert (safe, mines) == ({0, 2}, {1, 3})


def test_rule_5_settles_cells():
    from solver.pgms import _closure

    # Mio's rule: S0 = {0, 1}, S1 = {2, 3}, S2 = {1, 2, 4}, c0 = c1 = 1, c2 = 3:
    # 3 - 1 - 1 = 1 = |S2 - (S0|S1)| = |{4}|: 4 is a mine; (S0|S1) - S2 = {0, 3} are safe.
    # (Then rules 1-2 finish: 1 and 2 are mines.)
    safe, mines, _ = _closure({frozenset({0, 1}): 1, frozenset({2, 3}): 1, frozenset({1, 2, 4}): 3})
    assert 4 in mines
    assert {0, 3} <= safe
    assert mines == {1, 2, 4}


def test_board_equation_joins_at_eight_covered_cells_not_eight_mines():
    # One mine in all: with 8 covered cells the board equation joins and settles the cells away
    # from the 1; with 9 it does not, however few mines are left.
    cells, w, h = flat("1.. ... ...")
    assert deduce(cells, w, h, mines=1) == ((2, 5, 6, 7, 8), ())
    cells, w, h = flat("1.... .....")
    assert deduce(cells, w, h, mines=1) == ((), ())


def test_board_equation_settles_small_endgames():
    cells, w, h = flat("1.. ...")
    assert deduce(cells, w, h, mines=1) == ((2, 5), ())  # 1 mine in total: it is the 1's
    assert deduce(cells, w, h, mines=2) == ((), ())  # {2, 5} = 1: nothing certain
    assert deduce(cells, w, h, mines=3) == ((), (2, 5))  # {2, 5} = 2


def test_guess_takes_the_lowest_largest_ratio():
    # The 1 at (0, 0): 1 mine among {1, 3, 4} (1/3); the board: 2 among 5 (2/5); rule 3 with
    # the board equation (2 <= 8 mines left): {2, 5} = 1 (1/2). P is the largest ratio: 2/5 next
    # to the 1, 1/2 for (2, 0) and (2, 1).
    cells, w, h = flat("1.. ...")
    safe, mines, guess = choose(cells, w, h, mines=2, rng=random.Random(0))
    assert (safe, mines) == ((), ())
    assert guess is not None
    cell, p = guess
    assert cell in (1, 3, 4)
    assert p == pytest.approx(2 / 5)


def test_guess_trusts_a_number_below_the_board_density():
    # A 1 in the middle of 24 covered cells holding 10 mines: its neighbours are 1/8 by its
    # equation, the other cells 10/24. The board's density does not raise the neighbours' P.
    cells, w, h = flat("..... ..... ..1.. ..... .....")
    around = {6, 7, 8, 11, 13, 16, 17, 18}
    for seed in range(20):
        safe, mines, guess = choose(cells, w, h, mines=10, rng=random.Random(seed))
        assert (safe, mines) == ((), ())
        assert guess is not None
        assert guess[0] in around
        assert guess[1] == pytest.approx(1 / 8)


def test_cells_in_no_equation_get_mines_left_over_covered_cells():
    # The 1 gives its 3 neighbours 1/3; the 10 other covered cells hold 4 - 1 flag = 3 mines
    # among 13 covered cells: 3/13 each, the smallest P.
    cells, w, h = flat("1.... ..... ....F")
    for seed in range(10):
        safe, mines, guess = choose(cells, w, h, mines=4, rng=random.Random(seed))
        assert guess is not None
        assert guess[0] not in (1, 5, 6, 14)
        assert guess[1] == pytest.approx(3 / 13)


def test_ties_go_to_the_first_candidate_after_a_random_start():
    # Each row is scanned from the start's column, wrapping: (1, 0) comes before (0, 0) exactly
    # when the scan starts in column 1.
    picks = [scan_first([0, 1], start, 3, 3) for start in range(9)]
    assert [start for start in range(9) if picks[start] == 1] == [1, 4, 7]
    # choose() takes its start from the rng among the covered cells: same seed, same cell.
    cells, w, h = flat("..... ..... .....")
    for seed in range(5):
        start = random.Random(seed).choice(range(15))
        assert choose(cells, w, h, mines=5, rng=random.Random(seed))[2][0] == start


def test_guess_ties_are_random_but_seeded():
    cells, w, h = flat("..... ..... .....")
    picks = {choose(cells, w, h, mines=5, rng=random.Random(s))[2][0] for s in range(30)}
    assert len(picks) > 5
    a = [choose(cells, w, h, mines=5, rng=random.Random(4))[2] for _ in range(3)]
    assert a[0] == a[1] == a[2]


def test_contradiction_is_reported():
    cells, w, h = flat("3.. ...")
    with pytest.raises(ContradictionError):
        deduce(cells, w, h, mines=2)


def test_pgms_beginner_win_rate_is_in_the_published_range():
    # Published: about 60% on beginner without first-click protection (8x8/10 here).
    report = run_bench(BenchConfig(8, 8, 10, "unsafe", "random", "pgms", seed=5), games=200)
    assert 0.45 < report.win_rate < 0.73


def test_pgms_intermediate_win_rate_matches_the_published_29_percent():
    # PGMS's intermediate board is 15x13 with 40 mines. 1000 games: the standard error is about
    # 1.4 points; taking the board density as a floor for every P gave about 23% here.
    report = run_bench(BenchConfig(15, 13, 40, "unsafe", "random", "pgms", seed=5), games=1000)
    assert 0.25 < report.win_rate < 0.33
