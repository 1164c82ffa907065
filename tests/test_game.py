"""The seeded simulator: first-click rules, area reveal, win and loss, determinism."""

from __future__ import annotations

import random

import pytest

from solver.board import NUMBERS
from solver.game import LEVELS, Game, GameError, first_click_position


def mine_cells(game: Game) -> set[tuple[int, int]]:
    return {(x, y) for y in range(game.height) for x in range(game.width) if game.is_mine(x, y)}


@pytest.mark.parametrize("seed", range(200))
def test_classic_first_click_is_never_a_mine(seed):
    # 9x9 with 80 mines: the only free cell must be the clicked one.
    game = Game(9, 9, 80, rules="classic", seed=seed)
    x, y = first_click_position("random", 9, 9, random.Random(seed))
    game.open(x, y)
    assert not game.is_mine(x, y)
    assert game.state == "won"  # the one free cell was the first click
    assert len(mine_cells(game)) == 80


@pytest.mark.parametrize("seed", range(100))
def test_opening_first_click_opens_an_area(seed):
    game = Game(30, 16, 99, rules="opening", seed=seed)
    revealed = game.open(3, 3)
    assert game.board[3, 3] == "0"
    assert len(revealed) >= 9
    for nx in range(2, 5):
        for ny in range(2, 5):
            assert not game.is_mine(nx, ny)


def test_opening_needs_room_for_the_protected_area():
    with pytest.raises(GameError, match="do not fit"):
        Game(3, 3, 1, rules="opening")
    Game(4, 4, 7, rules="opening").open(0, 0)  # corner: only 4 cells kept free, fine


def test_unsafe_rules_place_mines_before_the_first_click():
    game = Game(9, 9, 10, rules="unsafe", seed=3)
    assert game.started
    assert len(mine_cells(game)) == 10
    x, y = next(iter(mine_cells(game)))
    assert game.open(x, y) == [(x, y)]
    assert game.state == "lost"
    assert game.board[x, y] == "X"


def test_classic_rules_place_mines_at_the_first_click():
    game = Game(9, 9, 10, rules="classic", seed=3)
    assert not game.started
    with pytest.raises(GameError):
        game.is_mine(0, 0)


def test_area_reveal_opens_zeros_and_their_border_only():
    game = Game.from_layout(
        """
        .....
        .....
        ...*.
        .....
        """
    )
    revealed = game.open(0, 0)
    # (4, 2), (3, 3), (4, 3) touch no zero: they stay covered.
    assert str(game.board) == "00000\n00111\n001..\n001.."
    assert len(revealed) == 16
    assert game.state == "playing"
    game.open(4, 3)
    assert game.state == "playing"
    game.open(3, 3)
    game.open(4, 2)
    assert game.state == "won"


def test_revealed_numbers_count_neighbouring_mines():
    for seed in range(20):
        game = Game(16, 16, 40, rules="classic", seed=seed)
        game.open(8, 8)
        board = game.board
        for (x, y), ch in board.items():
            if ch in NUMBERS:
                assert int(ch) == sum(game.is_mine(nx, ny) for nx, ny in board.neighbours(x, y))


def test_loss_shows_mines_wrong_flags_and_the_exploded_cell():
    game = Game.from_layout("*.*\n...\n...")
    game.open(1, 2)  # a zero: opens the two bottom rows
    assert game.state == "playing"
    game.flag(0, 0)  # right
    game.flag(1, 0)  # wrong: (1, 0) is a 2, but the player flags it anyway
    assert game.mines_left == 0
    game.open(2, 0)
    assert game.state == "lost"
    assert str(game.board) == "FWX\n121\n000"
    # Nothing moves once the game is over.
    assert game.open(1, 0) == []
    game.flag(0, 0)
    assert game.board[0, 0] == "F"


def test_win_flags_the_remaining_mines():
    game = Game.from_layout("*..\n...\n..*")
    for x, y in [(1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2)]:
        game.open(x, y)
    assert game.state == "won"
    assert str(game.board) == "F10\n121\n01F"
    assert game.mines_left == 0


def test_flags_toggle_and_protect_cells():
    game = Game.from_layout("*.\n..")
    game.flag(0, 0)
    assert game.board[0, 0] == "F" and game.mines_left == 0
    assert game.open(0, 0) == []  # a flagged cell cannot be opened
    assert game.state == "playing"
    game.flag(0, 0)
    assert game.board[0, 0] == "." and game.mines_left == 1
    game.open(1, 1)
    game.flag(1, 1)  # revealed: no flag
    assert game.board[1, 1] == "1"


def test_same_seed_same_games():
    def play(seed: int) -> tuple[str, str]:
        game = Game(30, 16, 99, rules="classic", seed=seed)
        rng = random.Random(seed)
        game.open(0, 0)
        while game.state == "playing":
            covered = game.board.covered_cells()
            game.open(*rng.choice(covered))
        return str(game.board), game.state

    assert play(7) == play(7)
    assert play(7) != play(8)


def test_board_is_a_copy():
    game = Game(9, 9, 10, seed=1)
    view = game.board
    view[0, 0] = "F"
    assert game.board[0, 0] == "."


def test_bad_set_up_and_clicks_are_errors():
    with pytest.raises(GameError, match="unknown rules"):
        Game(9, 9, 10, rules="easy")
    with pytest.raises(GameError, match="do not fit"):
        Game(9, 9, 81)
    with pytest.raises(GameError, match="outside"):
        Game(9, 9, 10).open(9, 0)
    with pytest.raises(GameError, match="unknown first click"):
        first_click_position("middle", 9, 9, random.Random(0))
    with pytest.raises(GameError, match="outside"):
        first_click_position("30,3", 9, 9, random.Random(0))


def test_levels():
    assert (LEVELS["expert"].width, LEVELS["expert"].height, LEVELS["expert"].mines) == (30, 16, 99)
    assert LEVELS["beginner"].mines == 10 and LEVELS["intermediate"].mines == 40


def test_mines_are_spread_uniformly():
    # Each cell except the protected first click should hold a mine 10/80 of the time.
    hits = [0] * 81
    n = 4000
    for seed in range(n):
        game = Game(9, 9, 10, rules="classic", seed=seed)
        game.open(0, 0)
        for i in range(81):
            hits[i] += game.is_mine(i % 9, i // 9)
    assert hits[0] == 0
    expected = n * 10 / 80
    assert all(abs(h - expected) < 5 * (expected**0.5) for h in hits[1:])


def test_cells_is_the_flat_view():
    game = Game.from_layout("*..\n...")
    game.open(2, 1)
    assert game.cells == tuple(".10.10")
    assert "".join(game.cells) == "".join(game.board.rows)
