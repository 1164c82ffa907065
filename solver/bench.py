"""Benchmarks: play many seeded games with a strategy and report the win rate.

>>> config = BenchConfig(9, 9, 10, rules="classic", first_click="corner", strategy="min-risk")
>>> result = play_game(config, 0)
>>> result.won in (True, False), result.guesses >= 0
(True, True)
>>> play_game(config, 0) == play_game(config, 0) or "times differ, outcomes must not"
'times differ, outcomes must not'
>>> play_game(config, 0).won == result.won
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass

from solver.game import FIRST_CLICKS, RULES, Game, first_click_position
from solver.policy import STRATEGIES, plan


@dataclass(frozen=True)
class BenchConfig:
    """What to play: board, rules, first click, strategy, and the seed of the whole series."""

    width: int
    height: int
    mines: int
    rules: str = "classic"
    first_click: str = "corner"
    strategy: str = "best"
    seed: int = 0

    def game_seed(self, index: int) -> int:
        """The seed of game ``index``: games are independent of how work is split."""
        return self.seed * 1_000_003 + index


@dataclass(frozen=True)
class GameResult:
    """One game's outcome; ``seconds`` is CPU time of this process."""

    index: int
    won: bool
    guesses: int
    seconds: float
    first_safe: bool = True  # the first click did not hit a mine (PGMS's "standard try")


@dataclass(frozen=True)
class BenchReport:
    """The summary ``minebot bench`` prints (``--json`` gives :meth:`as_dict`)."""

    config: BenchConfig
    games: int
    wins: int
    guesses: int
    seconds: float  # CPU seconds summed over games
    wall_seconds: float
    first_safe: int = 0  # games whose first click did not hit a mine

    @property
    def win_rate_after_safe_first(self) -> float:
        """Wins among the games whose first click survived (PGMS publishes this rate too)."""
        return self.wins / self.first_safe if self.first_safe else 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def seconds_per_game(self) -> float:
        return self.seconds / self.games if self.games else 0.0

    @property
    def guesses_per_game(self) -> float:
        return self.guesses / self.games if self.games else 0.0

    def as_dict(self) -> dict:
        lo, hi = self.ci95
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci95": [lo, hi],
            "seconds_per_game": self.seconds_per_game,
            "guesses_per_game": self.guesses_per_game,
            "wall_seconds": self.wall_seconds,
            "first_safe": self.first_safe,
            "win_rate_after_safe_first": self.win_rate_after_safe_first,
            **asdict(self.config),
        }

    def text(self) -> str:
        c = self.config
        lo, hi = self.ci95
        after_safe_first = (
            f"  {100 * self.win_rate_after_safe_first:.2f}% of the {self.first_safe} games "
            "whose first click was safe"
            if c.rules == "unsafe"
            else ""
        )
        return (
            f"{c.width}x{c.height}/{c.mines} rules={c.rules} first-click={c.first_click} "
            f"strategy={c.strategy} seed={c.seed}\n"
            f"games {self.games}  wins {self.wins}  win rate {100 * self.win_rate:.2f}%  "
            f"(95% CI {100 * lo:.2f}-{100 * hi:.2f}%){after_safe_first}\n"
            f"{self.seconds_per_game:.4f} s per game (CPU, one core), "
            f"{self.guesses_per_game:.2f} guesses per game, {self.wall_seconds:.1f} s wall"
        )


def wilson_interval(
    successes: int, trials: int, z: float = 1.959963984540054
) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (95% by default).

    >>> [round(v, 4) for v in wilson_interval(50, 100)]
    [0.4038, 0.5962]
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_game(config: BenchConfig, index: int) -> GameResult:
    """Play game ``index`` of the series to the end."""
    start = time.process_time()
    seed = config.game_seed(index)
    game = Game(config.width, config.height, config.mines, rules=config.rules, seed=seed)
    rng = random.Random(seed ^ 0x5DEECE66D)
    x, y = first_click_position(config.first_click, config.width, config.height, rng)
    guesses = 1 if config.rules == "unsafe" and config.mines else 0
    game.open(x, y)
    first_safe = game.state != "lost"
    width, height, mines = config.width, config.height, config.mines
    while game.state == "playing":
        moves = plan(game.cells, width, height, mines, config.strategy, rng)
        for move in moves:
            if move.action == "flag":
                game.flag(move.x, move.y)
                continue
            if move.p_mine > 0.0:
                guesses += 1
            game.open(move.x, move.y)
            if game.state != "playing":
                break
    return GameResult(index, game.state == "won", guesses, time.process_time() - start, first_safe)


def _play_chunk(args: tuple[BenchConfig, range]) -> list[GameResult]:
    config, indices = args
    return [play_game(config, i) for i in indices]


def run_bench(
    config: BenchConfig,
    games: int,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> BenchReport:
    """Play ``games`` games (over ``workers`` processes) and summarise them.

    ``progress(done, wins)`` is called as results come in.
    """
    if config.strategy not in STRATEGIES:
        from solver.errors import MinebotError

        raise MinebotError(
            f"unknown strategy {config.strategy!r}: expected one of {', '.join(STRATEGIES)}"
        )
    if config.rules not in RULES:
        from solver.game import GameError

        raise GameError(f"unknown rules {config.rules!r}: expected one of {', '.join(RULES)}")
    if config.first_click not in FIRST_CLICKS:
        first_click_position(config.first_click, config.width, config.height, random.Random(0))
    Game(config.width, config.height, config.mines, rules=config.rules)  # validates the size
    wall = time.perf_counter()
    done = wins = guesses = first_safe = 0
    seconds = 0.0
    for chunk in _results(config, games, workers):
        for r in chunk:
            done += 1
            wins += r.won
            guesses += r.guesses
            first_safe += r.first_safe
            seconds += r.seconds
        if progress:
            progress(done, wins)
    return BenchReport(config, done, wins, guesses, seconds, time.perf_counter() - wall, first_safe)


def _results(config: BenchConfig, games: int, workers: int) -> Iterator[list[GameResult]]:
    size = max(1, min(50, games // (workers * 20) or 1))
    chunks = [(config, range(s, min(games, s + size))) for s in range(0, games, size)]
    if workers <= 1:
        for chunk in chunks:
            yield _play_chunk(chunk)
        return
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap_unordered(_play_chunk, chunks)
