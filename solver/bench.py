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
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

from solver.countmemo import CountMemo
from solver.errors import MinebotError
from solver.game import Game, first_click_position
from solver.moves import Move
from solver.policy import STRATEGIES, plan

#: The largest board bench plays, in cells. Measured: one 1000x1000 game (100,000 mines,
#: min-risk) peaked at 665 MB in its process and took 14 s of CPU; a 100000x100000 board
#: grew past 22 GB before anything was played.
MAX_CELLS = 1_000_000


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
    resumed: int = 0  # games taken from a checkpoint file, not played by this run

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
            "resumed": self.resumed,
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
            + (f" ({self.resumed} games from the checkpoint)" if self.resumed else "")
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


def play_game(
    config: BenchConfig, index: int, watch: Callable[[Sequence[str], Move], None] | None = None
) -> GameResult:
    """Play game ``index`` of the series to the end; ``watch`` sees each guess and the cells
    it was made on."""
    start = time.process_time()
    seed = config.game_seed(index)
    game = Game(config.width, config.height, config.mines, rules=config.rules, seed=seed)
    rng = random.Random(seed ^ 0x5DEECE66D)
    x, y = first_click_position(config.first_click, config.width, config.height, rng)
    guesses = 1 if config.rules == "unsafe" and config.mines else 0
    game.open(x, y)
    first_safe = game.state != "lost"
    width, height, mines = config.width, config.height, config.mines
    memo = CountMemo()  # the game's component counts, found again by shape
    while game.state == "playing":
        moves = plan(game.cells, width, height, mines, config.strategy, rng, memo)
        for move in moves:
            if move.action == "flag":
                game.flag(move.x, move.y)
                continue
            if move.p_mine > 0.0:
                guesses += 1
                if watch is not None:
                    watch(game.cells, move)
            game.open(move.x, move.y)
            if game.state != "playing":
                break
    return GameResult(index, game.state == "won", guesses, time.process_time() - start, first_safe)


@dataclass(frozen=True)
class ChunkTally:
    """The summed outcome of games ``start`` to ``stop - 1``: what a worker sends back, and one
    line of a checkpoint file."""

    start: int
    stop: int
    wins: int
    guesses: int
    first_safe: int
    seconds: float

    @property
    def games(self) -> int:
        return self.stop - self.start


def play_chunk(job: tuple[BenchConfig, int, int]) -> ChunkTally:
    """Play games ``start`` to ``stop - 1`` of the series (``job = (config, start, stop)``)."""
    config, start, stop = job
    results = [play_game(config, i) for i in range(start, stop)]
    return ChunkTally(
        start,
        stop,
        sum(r.won for r in results),
        sum(r.guesses for r in results),
        sum(r.first_safe for r in results),
        sum(r.seconds for r in results),
    )


def check_config(config: BenchConfig) -> None:
    """Refuse a series that cannot be played, with a message naming the value."""
    if config.strategy not in STRATEGIES:
        raise MinebotError(
            f"unknown strategy {config.strategy!r}: expected one of {', '.join(STRATEGIES)}"
        )
    if config.width * config.height > MAX_CELLS:
        raise MinebotError(
            f"a {config.width}x{config.height} board has {config.width * config.height:,} cells: "
            f"bench plays at most {MAX_CELLS:,} (each worker keeps about 0.7 KB a cell)"
        )
    # The game checks the size, the mine count and the rules; the first click its place.
    Game(config.width, config.height, config.mines, rules=config.rules)
    first_click_position(config.first_click, config.width, config.height, random.Random(0))


def chunk_size(games: int, workers: int) -> int:
    """Games per chunk: about 20 chunks a worker (so a slow chunk does not hold up the end),
    at most 1000 games (a chunk's progress and checkpoint line come often enough).

    >>> chunk_size(1000, 2), chunk_size(1_000_000, 100), chunk_size(10, 4)
    (25, 500, 1)
    """
    return max(1, min(1000, games // (workers * 20)))


def run_bench(
    config: BenchConfig,
    games: int,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    *,
    cluster: str | None = None,
    start_method: str | None = None,
    chunk: int | None = None,
    checkpoint: str | None = None,
) -> BenchReport:
    """Play ``games`` games and summarise them.

    They run in this process, over ``workers`` local processes (``start_method`` as
    :class:`~solver.executors.LocalPool`), or on the Dask ``cluster`` (``tcp://host:port``, or
    ``local`` for ``workers`` local Dask workers); the summary is the same whatever runs them.
    ``chunk`` games go to a worker at a time (default :func:`chunk_size` of the workers there
    are). With ``checkpoint``,
    each finished chunk is appended to that file and a run of the same series given the same
    file plays only the chunks it lacks. ``progress(done, wins)`` is called as chunks finish.
    """
    from solver.checkpoint import Checkpoint
    from solver.executors import executor

    check_config(config)
    if games < 1:
        raise MinebotError(f"--games must be at least 1, got {games}")
    if workers < 1:
        raise MinebotError(f"--workers must be at least 1, got {workers}")
    if chunk is not None and chunk < 1:
        raise MinebotError(f"--chunk must be at least 1, got {chunk}")
    wall = time.perf_counter()
    # The executor first: a remote cluster's size sets the chunks (a checkpoint's own size wins).
    with executor(workers, cluster, start_method) as run:
        size = chunk or chunk_size(games, run.workers)
        with Checkpoint.open(checkpoint, config, games, size) as book:
            done = book.done
            resumed = sum(t.games for t in done)
            jobs = [
                (config, s, min(games, s + book.chunk))
                for s in range(0, games, book.chunk)
                if s not in book.started
            ]
            total = _Tally()
            for tally in done:
                total.add(tally)
            if progress and done:
                progress(total.games, total.wins)
            for tally in run.map_unordered(play_chunk, jobs):
                book.record(tally)
                total.add(tally)
                if progress:
                    progress(total.games, total.wins)
    return BenchReport(
        config,
        total.games,
        total.wins,
        total.guesses,
        total.seconds,
        time.perf_counter() - wall,
        total.first_safe,
        resumed,
    )


class _Tally:
    """Running sums over chunks (the state of :func:`run_bench`'s loop)."""

    def __init__(self) -> None:
        self.games = self.wins = self.guesses = self.first_safe = 0
        self.seconds = 0.0

    def add(self, t: ChunkTally) -> None:
        self.games += t.games
        self.wins += t.wins
        self.guesses += t.guesses
        self.first_safe += t.first_safe
        self.seconds += t.seconds
