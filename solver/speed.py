"""How fast the exact engine is: the figures behind ``minebot speed``.

Positions come from simulated expert games played by the engine itself (open every safe cell,
else the least likely mine), sampled at every decision, so they are the positions a bot meets.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from solver.board import Board
from solver.game import Game
from solver.probability import mine_probabilities


@dataclass(frozen=True)
class Timing:
    """Seconds per call over a set of positions."""

    positions: int
    median: float
    p99: float
    max: float
    exact: int


def time_call(fn: Callable[[], object], repeat: int = 5) -> float:
    """Best of ``repeat`` wall times of ``fn()``, in seconds (the usual way to time a call)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def game_positions(
    count: int, seed: int, width: int = 30, height: int = 16, mines: int = 99
) -> list[tuple[Board, int]]:
    """``count`` positions sampled from simulated games (classic rules, first click in a corner)."""
    rng = random.Random(seed)
    positions: list[tuple[Board, int]] = []
    game_seed = seed
    while len(positions) < count * 3:
        game = Game(width, height, mines, rules="classic", seed=game_seed)
        game_seed += 1
        game.open(0, 0)
        while game.state == "playing":
            board = game.board
            positions.append((board, mines))
            analysis = mine_probabilities(board, mines)
            if analysis.safe:
                for x, y in analysis.safe:
                    game.open(x, y)
                continue
            probabilities = analysis.probabilities  # every covered cell has one
            x, y = min(analysis.covered, key=probabilities.__getitem__)
            game.open(x, y)
    return rng.sample(positions, count)


def time_positions(positions: list[tuple[Board, int]]) -> Timing:
    times = []
    exact = 0
    for board, mines in positions:
        start = time.perf_counter()
        analysis = mine_probabilities(board, mines)
        times.append(time.perf_counter() - start)
        exact += analysis.exact
    times.sort()
    return Timing(
        positions=len(times),
        median=statistics.median(times),
        p99=times[min(len(times) - 1, round(0.99 * (len(times) - 1)))],
        max=times[-1],
        exact=exact,
    )


def super_board_time(path: Path, mines: int = 51) -> float:
    board = Board(path.read_text())
    return time_call(lambda: mine_probabilities(board, mines))


def move_time(path: Path, mines: int = 51, repeat: int = 20) -> tuple[float, float]:
    """Best-of-``repeat`` seconds of the probabilities and of the ``best`` move of a board.

    The move includes its own analysis: what it costs over the probabilities is the difference
    (the look-ahead of a guess, or nothing when a cell is certainly safe).
    """
    from solver.policy import plan_moves

    board = Board(path.read_text())
    probabilities = time_call(lambda: mine_probabilities(board, mines), repeat)
    move = time_call(lambda: plan_moves(board, mines, "best", random.Random(0)), repeat)
    return probabilities, move
