"""The look-ahead's incremental count against analysing the revealed board from scratch.

Every trial reveal must give exactly (as fractions) what the engine gives for the board with the
number written in, and the engine itself is checked against brute force in test_probability.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import policy
from solver.board import Board, neighbour_table
from solver.constraints import board_constraints
from solver.errors import ContradictionError
from solver.frontier import survey
from solver.game import Game
from solver.lookahead import Lookahead, NotExact
from solver.packing import Known
from solver.policy import TIE, best_guess, lookahead_candidates, next_move_safety
from solver.probability import count_component, count_components, mine_probabilities
from tests.bruteforce import enumerate_probabilities
from tests.profile import EVERY_CASE
from tests.test_probability import board_from_layout, consistent_positions


def from_scratch(cells: list[str], width: int, height: int, mines: int):
    """(solutions, probabilities by flat index) of a board analysed anew; (0, {}) if impossible."""
    try:
        analysis = mine_probabilities(Board.from_cells(cells, width, height), mines)
    except ContradictionError:
        return 0, {}
    return analysis.solutions, {y * width + x: p for (x, y), p in analysis.probabilities.items()}


def assert_reveals_match(cells: list[str], width: int, height: int, mines: int, only=None):
    """Every covered cell (or those in ``only``) and every number it may show."""
    cons = board_constraints(Board.from_cells(cells, width, height), mines)
    ahead = Lookahead(cells, width, height, cons, count_components(cons))
    nbrs = neighbour_table(width, height)
    checked = 0
    for j, ch in enumerate(cells):
        if ch not in ".?" or (only is not None and j not in only):
            continue
        for number in range(len(nbrs[j]) + 1):
            trial = ahead.reveal(j, number, probabilities=True)
            # Without the probabilities, a trial may stop at its first safe cell: same answer.
            quick = ahead.reveal(j, number)
            assert (quick.solutions, quick.has_safe, quick.lowest) == (
                trial.solutions,
                trial.has_safe,
                trial.lowest,
            )
            revealed = list(cells)
            revealed[j] = str(number)
            solutions, expected = from_scratch(revealed, width, height, mines)
            assert trial.solutions == solutions, (j, number)
            if solutions:
                assert trial.probabilities == expected, (j, number)
                assert trial.has_safe == any(p == 0 for p in expected.values())
                assert trial.lowest == min(expected.values(), default=None)
                checked += 1
    return checked


# Each example checks every candidate's every number against a fresh analysis: fewer examples
# than the profile's (tests/profile.py).
@settings(
    max_examples=400 if EVERY_CASE else 150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(consistent_positions())
def test_reveals_match_a_fresh_analysis_on_small_boards(position):
    board, mines = position
    if enumerate_probabilities(board, mines)[0] == 0:
        return  # question marks may hide the only layout; nothing to reveal from
    assert_reveals_match(board.flat(), board.width, board.height, mines)


def by_mines(total: list[int], weighted: dict[int, list[int]], stride: int):
    """A count's nonzero coefficients keyed by (mines, marked mines), whatever its stride."""

    def keyed(poly: list[int]) -> dict[tuple[int, int], int]:
        return {(i % stride, i // stride): n for i, n in enumerate(poly) if n}

    return keyed(total), {g: keyed(poly) for g, poly in weighted.items()}


@st.composite
def open_positions(draw):
    """A board from a real layout with many numbers still owing mines: wide components."""
    width, height = draw(st.integers(3, 10)), draw(st.integers(2, 8))
    cells = [(x, y) for y in range(height) for x in range(width)]
    rng = random.Random(draw(st.integers(0, 2**32)))
    mines = set(rng.sample(cells, draw(st.integers(1, len(cells) // 3))))
    safe = [c for c in cells if c not in mines]
    opened = set(rng.sample(safe, draw(st.integers(1, max(1, len(safe) // 3)))))
    return board_from_layout(width, height, mines, opened, set()), len(mines)


@settings(max_examples=300 if EVERY_CASE else 100, deadline=None)
@given(open_positions(), st.randoms(use_true_random=False))
def test_a_count_packed_to_what_is_known_is_the_same_count(position, rng):
    # The look-ahead tells count_component the window of mine counts and how many layouts
    # there are: the tight (cyclic) packing must give exactly the plain packing's numbers.
    board, mines = position
    cons = board_constraints(board, mines)
    for comp in cons.components:
        plain = count_component(cons, comp)
        used = [m for m, n in enumerate(plain.total) if n]
        known = Known(used[0], used[-1], sum(plain.total) + rng.randrange(3))
        marked = frozenset(g for g in comp.groups if rng.random() < 0.4)
        loose = count_component(cons, comp, marked)
        tight = count_component(cons, comp, marked, known)
        assert by_mines(tight.total, tight.weighted, tight.stride) == by_mines(
            loose.total, loose.weighted, loose.stride
        )


def expert_positions(count: int, seed: int):
    """Positions of simulated expert games where a guess is due (no safe cell)."""
    found = 0
    game_seed = seed
    while found < count:
        game = Game(30, 16, 99, seed=game_seed)
        game_seed += 1
        game.open(0, 0)
        while game.state == "playing" and found < count:
            analysis = mine_probabilities(game.board, 99)
            if analysis.safe:
                for x, y in analysis.safe:
                    game.open(x, y)
                continue
            found += 1
            yield list(game.cells)
            x, y = min(analysis.covered, key=lambda c: analysis.probability(*c))
            game.open(x, y)


def test_reveals_match_a_fresh_analysis_on_expert_positions():
    rng = random.Random(3)
    checked = 0
    for cells in expert_positions(12, seed=40):
        covered = [j for j, ch in enumerate(cells) if ch == "."]
        checked += assert_reveals_match(cells, 30, 16, 99, only=set(rng.sample(covered, 8)))
    assert checked > 100


def test_settled_mines_are_left_out_of_the_lowest_probability():
    # The 1 in the corner settles (1, 0) as a mine only with the 2 beside it; the lowest
    # probability after a reveal leaves out what the caller says is settled.
    cells = list("1...2.......")
    cons = board_constraints(Board.from_cells(cells, 4, 3), 3)
    plain = Lookahead(cells, 4, 3, cons, count_components(cons))
    everything = plain.reveal(10, 1, probabilities=True)
    assert everything.lowest == min(everything.probabilities.values())
    settled = {k for k, p in everything.probabilities.items() if p == 1} or {1}
    without = Lookahead(cells, 4, 3, cons, count_components(cons), settled=settled)
    trial = without.reveal(10, 1, probabilities=True)
    assert trial.lowest == min(p for k, p in trial.probabilities.items() if k not in settled), (
        "settled cells must not count"
    )


def test_a_revealed_mine_or_an_impossible_number_has_no_layout():
    cells = list("1...")
    cons = board_constraints(Board.from_cells(cells, 2, 2), 1)
    ahead = Lookahead(cells, 2, 2, cons, count_components(cons))
    assert ahead.reveal(1, 4).solutions == 0  # three covered neighbours at most... and a 4
    assert ahead.reveal(1, 0).solutions == 0  # the 1's mine must then be next to (1, 0)
    assert ahead.reveal(1, 1).solutions == 2


def test_an_approximated_position_is_refused(monkeypatch):
    import solver.probability as probability

    cells = list("1.......")
    cons = board_constraints(Board.from_cells(cells, 4, 2), 2)
    monkeypatch.setattr(probability, "MAX_WORK", 0)
    counts = count_components(cons)
    assert not counts[0].exact
    try:
        Lookahead(cells, 4, 2, cons, counts)
    except NotExact:
        return
    raise AssertionError("an approximate count must not be reused")


def test_best_guess_is_the_same_with_and_without_reuse():
    for cells in expert_positions(15, seed=90):
        outlook, counted = survey(cells, 30, 16, 99)
        reused = best_guess(cells, 30, 16, 99, outlook, random.Random(5), counted)
        fresh = best_guess(cells, 30, 16, 99, outlook, random.Random(5))
        assert reused == fresh


def test_cutting_candidates_never_changes_the_choice(monkeypatch):
    # Every candidate counted, in list order: the choice best_guess made before it cut any
    # (one move ahead: close calls decided two moves ahead are tested in test_policy).
    monkeypatch.setattr(policy, "TWO_STEP_MARGIN", -1.0)
    for cells in expert_positions(20, seed=130):
        outlook, counted = survey(cells, 30, 16, 99)
        chosen = best_guess(cells, 30, 16, 99, outlook, random.Random(5), counted)
        candidates = lookahead_candidates(cells, 30, 16, outlook, random.Random(5))
        best, best_score = candidates[0], -1.0
        for j in candidates:
            safety = next_move_safety(cells, 30, 16, 99, j, outlook)
            score = (1.0 - outlook.probability[j]) * safety
            if score > best_score + TIE:
                best, best_score = j, score
        assert chosen == best


def test_the_super_board_move_and_its_timing():
    # The super board of death is one component: every candidate's trial recounts all of it.
    from bot.paths import data_file
    from solver.moves import choose_move
    from solver.speed import move_time

    path = data_file("super-board-of-death.txt")
    board = Board(path.read_text())
    move = choose_move(board, 51, rng=random.Random(0))
    assert (move.x, move.y) == (15, 15)
    assert abs(move.p_mine - 0.08875309776195209) < 1e-12
    probabilities, whole = move_time(path, repeat=1)
    assert 0 < probabilities < whole


def test_layouts_with_a_cell_safe_are_its_trials_summed():
    for cells in expert_positions(4, seed=41):
        outlook, counted = survey(cells, 30, 16, 99)
        ahead = Lookahead(cells, 30, 16, counted.constraints, counted.counts, outlook.mines)
        for j in sorted(outlook.probability, key=lambda k: outlook.probability[k])[:8]:
            whole = ahead.layouts_safe(j)
            trials = sum(ahead.reveal(j, v).solutions for v in range(9))
            assert whole == trials
            # The analysis's own share of layouts with j safe, as a float.
            assert whole / outlook.solutions == pytest.approx(1 - outlook.probability[j])


def test_next_move_safety_cut_short_is_a_bound_below_the_floor():
    """With ``below``, the chance is exact, or an upper bound of it that is below ``below``."""
    checked = cut = 0
    for cells in expert_positions(4, seed=42):
        outlook, counted = survey(cells, 30, 16, 99)
        ahead = Lookahead(cells, 30, 16, counted.constraints, counted.counts, outlook.mines)
        for j in sorted(outlook.probability, key=lambda k: outlook.probability[k])[:6]:
            exact = next_move_safety(cells, 30, 16, 99, j, outlook, ahead)
            for below in (exact - 0.05, exact + 1e-6, exact + 0.02, exact + 0.1, 2.0):
                got = next_move_safety(cells, 30, 16, 99, j, outlook, ahead, below)
                if got != exact:
                    assert exact - 1e-12 <= got < below
                    cut += 1
                else:
                    assert exact >= below or got < below
                checked += 1
    assert checked >= 60 and cut >= 10
