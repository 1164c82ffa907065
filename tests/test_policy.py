"""The fast engine against brute force, and the strategies' sanity on real game positions."""

from __future__ import annotations

import random

import pytest

from solver import frontier, twostep
from solver.board import Board, neighbour_table
from solver.errors import ContradictionError, MinebotError
from solver.frontier import analyse
from solver.game import Game
from solver.lookahead import Lookahead
from solver.moves import Move, choose_move
from solver.policy import STRATEGIES, forced_guess, plan, plan_moves
from tests.bruteforce import enumerate_probabilities


def game_positions(count: int, seed: int = 0):
    """Positions from real simulated games on small boards (a few random safe opens in)."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        w, h = rng.randint(3, 5), rng.randint(3, 5)
        m = rng.randint(1, min(6, w * h // 3))
        game = Game(w, h, m, rules="classic", seed=rng.randrange(10**9))
        game.open(rng.randrange(w), rng.randrange(h))
        for _ in range(rng.randint(0, 3)):
            if game.state != "playing":
                break
            free = [p for p in game.board.covered_cells() if not game.is_mine(*p)]
            game.open(*rng.choice(free))
        if rng.random() < 0.3 and game.state == "playing":
            mine = next((p for p in game.board.covered_cells() if game.is_mine(*p)), None)
            if mine:
                game.flag(*mine)
        if game.state == "playing":
            made += 1
            yield game, m


@pytest.mark.parametrize("chunk", range(4))
def test_engine_matches_brute_force(chunk):
    for game, mines in game_positions(60, seed=chunk):
        board = game.board
        layouts, expected = enumerate_probabilities(board, mines)
        assert layouts, "the generator made an impossible position"
        out = analyse(list(game.cells), board.width, board.height, mines)
        for (x, y), p in expected.items():
            assert out.probability[y * board.width + x] == pytest.approx(float(p), abs=1e-12)
        assert set(out.safe) == {y * board.width + x for (x, y), p in expected.items() if p == 0}
        assert set(out.mines) == {y * board.width + x for (x, y), p in expected.items() if p == 1}


def test_engine_counts_solutions_with_the_mines_left():
    out = analyse(list("1..."), 2, 2, mines=1)
    assert out.solutions == 3
    out = analyse(list("1....."), 3, 2, mines=2)
    # One mine among the 1's three neighbours and one among the other two cells: 3 * 2.
    assert out.solutions == 6
    assert out.probability[2] == pytest.approx(1 / 2)


def test_engine_reports_contradictions():
    with pytest.raises(ContradictionError):
        analyse(list("3..."), 2, 2, mines=2)
    with pytest.raises(ContradictionError):
        analyse(list("1..."), 2, 2, mines=3)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_strategies_open_safe_cells_first_and_never_a_certain_mine(strategy):
    rng = random.Random(1)
    for game, mines in game_positions(80, seed=10):
        board = game.board
        layouts, expected = enumerate_probabilities(board, mines)
        assert layouts, "the generator made an impossible position"
        safe = {cell for cell, p in expected.items() if p == 0}
        moves = plan(game.cells, board.width, board.height, mines, strategy, rng)
        opens = [(m.x, m.y) for m in moves if m.action == "open"]
        assert opens, "every plan opens something"
        for m in moves:
            if m.action == "flag":
                assert expected[(m.x, m.y)] == 1
            else:
                assert expected[(m.x, m.y)] < 1
        certain = [m for m in moves if m.action == "open" and m.p_mine == 0.0]
        assert all((m.x, m.y) in safe for m in certain)
        if safe and strategy != "pgms":
            # The exact strategies always see a safe cell when there is one, and open only those.
            assert certain and len(certain) == len(opens)
        if not certain:
            assert len(opens) == 1  # one guess at a time


def test_min_risk_guesses_the_lowest_probability():
    rng = random.Random(2)
    for game, mines in game_positions(60, seed=20):
        board = game.board
        layouts, expected = enumerate_probabilities(board, mines)
        assert layouts, "the generator made an impossible position"
        if any(p == 0 for p in expected.values()):
            continue
        (move,) = [m for m in plan_moves(board, mines, "min-risk", rng) if m.action == "open"]
        assert expected[(move.x, move.y)] == min(expected.values())
        assert move.p_mine == pytest.approx(float(min(expected.values())))


def test_best_prefers_a_safer_cell_to_a_riskier_one():
    # A lone 1 in the corner of a big, sparse board: its neighbours are 1/3 mines, the rest
    # about 3/47. The look-ahead must not pick a 1/3 cell.
    board = Board.covered(7, 7)
    board[0, 0] = "1"
    move = choose_move(board, mines=4, strategy="best", rng=random.Random(0))
    assert (move.x, move.y) not in {(1, 0), (0, 1), (1, 1)}
    assert move.p_mine < 0.1


def test_choose_move_takes_a_safe_cell_and_never_flags():
    board = Board("11..\n....")
    move = choose_move(board, mines=2)
    assert move == Move("open", 2, 0, 0.0) or move == Move("open", 2, 1, 0.0)
    # Only mines certain: still an open (a guess), not a flag.
    board = Board("3..\n...")
    move = choose_move(board, mines=4, strategy="min-risk", rng=random.Random(0))
    assert move.action == "open" and (move.x, move.y) in {(2, 0), (2, 1)}


def test_choose_move_reports_a_full_board_and_bad_input():
    with pytest.raises(MinebotError, match="no cell"):
        choose_move(Board("3F\nFF"), mines=3)
    with pytest.raises(MinebotError, match="unknown strategy"):
        choose_move(Board("1.\n.."), mines=1, strategy="bold")
    with pytest.raises(ContradictionError):
        choose_move(Board("3.\n.."), mines=2)


def test_move_is_a_frozen_value():
    move = Move("open", 1, 2, 0.5)
    assert move.is_guess and not Move("open", 1, 2, 0.0).is_guess
    with pytest.raises(ValueError):
        Move("chord", 0, 0, 0.0)
    with pytest.raises(AttributeError):
        move.x = 3  # type: ignore[misc]


def test_engine_agrees_with_the_reference_engine():
    probability = pytest.importorskip("solver.probability")
    for game, mines in game_positions(40, seed=30):
        board = game.board
        ref = probability.mine_probabilities(board, mines)
        out = analyse(list(game.cells), board.width, board.height, mines)
        for x, y in board.covered_cells():
            assert out.probability[y * board.width + x] == pytest.approx(
                float(ref.probability(x, y)), abs=1e-12
            )


def test_endgame_lists_every_layout():
    from solver.endgame import list_layouts

    # Cells 0-3; one mine among {0, 1}, one among {1, 2}; two mines in total.
    layouts = list_layouts([0, 1, 2, 3], [((0, 1), 1), ((1, 2), 1)], 2)
    assert sorted(sorted(x) for x in layouts) == [[0, 2], [1, 3]]
    assert list_layouts([0, 1, 2, 3], [], 2, limit=5) is None  # 6 layouts > 5


def test_endgame_search_finds_the_informative_guess():
    from solver.endgame import win_chance

    # Three layouts, equally likely: {0}, {1}, {2}. Cell 3 is next to 0 and 1 only, cell 4 next
    # to nothing. Opening 3 (safe in all) is free information, so the best chance is exactly
    # that of the remaining choice: after 3 shows 0 the mine is at 2 (win); after 1 it is a
    # 50/50 between 0 and 1. Total: 1/3 + 2/3 * 1/2 = 2/3.
    layouts = [frozenset({0}), frozenset({1}), frozenset({2})]
    around = {0: (1, 3), 1: (0, 3), 2: (), 3: (0, 1), 4: ()}
    chance, _cell = win_chance(layouts, [0, 1, 2, 3, 4], around)
    assert chance == pytest.approx(2 / 3)
    # Without the free cell: opening 2 survives 2/3 but shows 0 either way (a 50/50 follows:
    # 1/3 in all); opening 0 survives 2/3 and its number tells 1 from 2: 2/3.
    chance, cell = win_chance(layouts, [0, 1, 2], {0: (1,), 1: (0,), 2: ()})
    assert chance == pytest.approx(2 / 3)
    assert cell in (0, 1)


# A 50/50 at the left edge that no number can ever settle: (1, 0) needs one mine among (0, 0)
# and (0, 1), every other cell next to just one of them is a flag or off the board. The 18 cells
# on the right hold 3 mines (1 in 6 each, 1,632 layouts: too many for the endgame search).
FORCED_5050 = ".3F......\n.6F......\nFFF......"


def test_best_takes_an_unavoidable_5050_before_safer_guesses():
    board = Board(FORCED_5050)
    move = plan_moves(board, 9, "best", random.Random(0))[-1]
    assert (move.x, move.p_mine) == (0, 0.5)
    safest = plan_moves(board, 9, "min-risk", random.Random(0))[-1]
    assert safest.x >= 3 and safest.p_mine == pytest.approx(1 / 6)


def test_a_5050_that_a_number_may_settle_is_left_for_later():
    # The same pair, but (0, 2) and (1, 2) below it are covered and undecided: either one's
    # number would see (0, 1) and not (0, 0).
    board = Board(".3F......\n.4F......\n.........\n.........")
    out = analyse(list(board.flat()), 9, 4, 8)
    assert out.probability[0] == out.probability[9] == 0.5
    assert forced_guess(list(board.flat()), 9, 4, 8, out) is None
    assert plan_moves(board, 8, "best", random.Random(0))[-1].p_mine < 0.5


def brute_next_safety(cells: list[str], width: int, height: int, mines: int, j: int) -> float:
    """What opening ``j`` (given safe) is worth a move later, every layout listed: the number's
    chance times 1 + PROGRESS_BONUS if a cell is then safe, else 1 - the lowest probability."""
    from solver.policy import PROGRESS_BONUS

    weights = []
    for _trial, layouts, p in _numbers(cells, width, height, mines, j):
        if any(q == 0 for q in p.values()):
            safety = 1.0 + PROGRESS_BONUS
        else:
            safety = 1.0 - float(min(p.values())) if p else 1.0
        weights.append((layouts, safety))
    total = sum(w for w, _s in weights)
    return sum(w * s for w, s in weights) / total


def _numbers(cells: list[str], width: int, height: int, mines: int, j: int):
    """Each number ``j`` may show: the board with it written in, its count of layouts and each
    covered cell's probability (every layout listed)."""
    for v in range(len(neighbour_table(width, height)[j]) + 1):
        trial = list(cells)
        trial[j] = str(v)
        layouts, p = enumerate_probabilities(Board.from_cells(trial, width, height), mines)
        if layouts:
            yield trial, layouts, p


def brute_two_step(cells: list[str], width: int, height: int, mines: int, j: int) -> float:
    """:func:`solver.twostep.two_step_safety` by listing layouts: a number that leaves no safe
    cell is worth the best (1 - p(c)) * brute_next_safety(c) of the position after it, over the
    cells the look-ahead would try there."""
    from solver.policy import PROGRESS_BONUS, lookahead_candidates

    weights = []
    for trial, layouts, p in _numbers(cells, width, height, mines, j):
        for (x, y), q in p.items():
            if q == 1:
                trial[y * width + x] = "F"
        if any(q == 0 for q in p.values()):
            safety = 1.0 + PROGRESS_BONUS
        elif all(q == 1 for q in p.values()):
            safety = 1.0
        else:
            outlook = analyse(trial, width, height, mines)
            candidates = lookahead_candidates(trial, width, height, outlook, random.Random(0))
            safety = max(
                (1 - float(p[(c % width, c // width)]))
                * brute_next_safety(trial, width, height, mines, c)
                for c in candidates
            )
        weights.append((layouts, safety))
    total = sum(w for w, _s in weights)
    return sum(w * s for w, s in weights) / total


def test_two_step_safety_is_the_brute_force_expectation():
    checked = 0
    for game, mines in game_positions(80, seed=30):
        board = game.board
        cells = list(game.cells)
        outlook = analyse(cells, board.width, board.height, mines)
        if outlook.safe or len(outlook.probability) > 12:
            continue
        for j, p in outlook.probability.items():
            if p < 1.0:
                got = twostep.two_step_safety(cells, board.width, board.height, mines, j, outlook)
                want = brute_two_step(cells, board.width, board.height, mines, j)
                assert got == pytest.approx(want, abs=1e-9)
                checked += 1
    assert checked > 30


def test_two_step_at_margin_zero_only_breaks_ties(monkeypatch):
    import solver.policy as policy
    from tests.test_lookahead import expert_positions

    monkeypatch.setattr(policy, "TWO_STEP_SHARE", 1.0)
    for cells in expert_positions(6, seed=150):
        outlook, counted = frontier.survey(cells, 30, 16, 99)
        monkeypatch.setattr(policy, "TWO_STEP_MARGIN", -1.0)
        base = policy.best_guess(cells, 30, 16, 99, outlook, random.Random(5), counted)
        monkeypatch.setattr(policy, "TWO_STEP_MARGIN", 0.0)
        tied = policy.best_guess(cells, 30, 16, 99, outlook, random.Random(5), counted)
        monkeypatch.setattr(policy, "TWO_STEP_MARGIN", -1.0)
        # A margin of 0 re-scores only exact ties: the choice keeps the best one-step score.
        ahead = Lookahead(cells, 30, 16, counted.constraints, counted.counts, outlook.mines)

        scores = [
            (1 - outlook.probability[j])
            * policy.next_move_safety(cells, 30, 16, 99, j, outlook, ahead)
            for j in (base, tied)
        ]
        assert scores[1] == pytest.approx(scores[0], abs=1e-9)


def test_two_step_safety_with_trial_reveals_is_the_same():
    """The position's trial reveals (``ahead``) settle numbers that leave a safe cell without an
    analysis: the value is the one a fresh analysis of every number gives."""
    from tests.test_lookahead import expert_positions

    for cells in expert_positions(3, seed=160):
        outlook, counted = frontier.survey(cells, 30, 16, 99)
        ahead = Lookahead(cells, 30, 16, counted.constraints, counted.counts, outlook.mines)
        lowest = sorted(outlook.probability, key=lambda j: outlook.probability[j])[:3]
        for j in lowest:
            plain = twostep.two_step_safety(cells, 30, 16, 99, j, outlook)
            shared = twostep.two_step_safety(cells, 30, 16, 99, j, outlook, ahead)
            assert shared == pytest.approx(plain, abs=1e-12)


def test_two_step_safety_cut_short_is_a_bound_below_the_floor():
    """With ``at_least``, the value is exact, or an upper bound of it below ``at_least``."""
    checked = cut = 0
    for game, mines in game_positions(80, seed=31):
        board = game.board
        cells = list(game.cells)
        outlook = analyse(cells, board.width, board.height, mines)
        if outlook.safe or len(outlook.probability) > 14:
            continue
        for j, p in outlook.probability.items():
            if p < 1.0:
                exact = twostep.two_step_safety(cells, board.width, board.height, mines, j, outlook)
                for at_least in (exact - 0.05, exact + 1e-6, exact + 0.05, 2.0):
                    got = twostep.two_step_safety(
                        cells, board.width, board.height, mines, j, outlook, at_least=at_least
                    )
                    if exact >= at_least:
                        assert got == exact
                    elif got != exact:
                        assert exact - 1e-12 <= got < at_least
                        cut += 1
                    checked += 1
    assert checked > 100 and cut > 10


def test_two_step_cut_short_with_trial_reveals_is_a_bound_below_the_floor():
    """On expert positions, with the position's trial reveals and a memo (as in play): cut at
    any floor, the value is the exact one or an upper bound of it below the floor, and the
    exact one is what a fresh analysis of every number gives."""
    from solver.countmemo import CountMemo
    from tests.test_lookahead import expert_positions

    checked = cut = 0
    for cells in expert_positions(4, seed=161):
        outlook, counted = frontier.survey(cells, 30, 16, 99)
        memo = CountMemo()
        ahead = Lookahead(cells, 30, 16, counted.constraints, counted.counts, outlook.mines, memo)
        for j in sorted(outlook.probability, key=lambda j: outlook.probability[j])[:3]:
            plain = twostep.two_step_safety(cells, 30, 16, 99, j, outlook)
            exact = twostep.two_step_safety(cells, 30, 16, 99, j, outlook, ahead, None, memo)
            assert exact == pytest.approx(plain, abs=1e-12)
            for at_least in (exact - 0.05, exact - 1e-6, exact + 1e-6, exact + 0.02, 2.0):
                got = twostep.two_step_safety(cells, 30, 16, 99, j, outlook, ahead, at_least, memo)
                if exact >= at_least:
                    assert got == exact
                else:
                    assert exact - 1e-12 <= got < at_least
                    cut += got != exact
                checked += 1
    assert checked >= 40 and cut >= 10
