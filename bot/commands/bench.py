"""``minebot bench``: play many simulated games with a strategy and report the win rate.

Needs no display: the games are :class:`solver.game.Game` simulations.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    from solver.game import LEVELS, RULES
    from solver.policy import STRATEGIES

    parser = subparsers.add_parser(
        "bench",
        help="play simulated games and report the win rate",
        description=(
            "Play seeded simulated games with a strategy and report games, wins, win rate with "
            "its Wilson 95% interval, CPU seconds and guesses per game."
        ),
    )
    size = parser.add_argument_group("board (a level, or all three of width, height, mines)")
    size.add_argument("--level", choices=sorted(LEVELS), help="beginner, intermediate or expert")
    size.add_argument("--width", type=int)
    size.add_argument("--height", type=int)
    size.add_argument("--mines", type=int)
    parser.add_argument("--rules", choices=RULES, default="classic", help="default: classic")
    parser.add_argument(
        "--first-click",
        default="corner",
        metavar="F",
        help="corner, edge, center, random or x,y (default: corner)",
    )
    parser.add_argument("--games", type=int, default=1000, help="default: 1000")
    parser.add_argument("--seed", type=int, default=0, help="seed of the series (default: 0)")
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="local processes, or the workers of --cluster local (default: 1)",
    )
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play on a Dask cluster: its scheduler's tcp://host:8786, or 'local' to start "
        "--workers Dask workers on this machine (needs minebot[cluster])",
    )
    parser.add_argument(
        "--chunk", type=int, metavar="N", help="games sent to a worker at a time (default: auto)"
    )
    parser.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="append each finished chunk to FILE; run the same command again to resume",
    )
    parser.add_argument(
        "--start-method",
        choices=multiprocessing.get_all_start_methods(),
        help="how local worker processes start (default: the platform's)",
    )
    parser.add_argument("--strategy", choices=STRATEGIES, default="best", help="default: best")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    parser.set_defaults(func=run)


def _board_size(args: argparse.Namespace) -> tuple[int, int, int]:
    from solver.errors import MinebotError
    from solver.game import LEVELS

    custom = (args.width, args.height, args.mines)
    if args.level:
        if any(v is not None for v in custom):
            raise MinebotError("give either --level or --width/--height/--mines, not both")
        level = LEVELS[args.level]
        return level.width, level.height, level.mines
    if any(v is None for v in custom):
        if all(v is None for v in custom):
            level = LEVELS["expert"]
            return level.width, level.height, level.mines
        raise MinebotError("a custom board needs all of --width, --height and --mines")
    return args.width, args.height, args.mines


def run(args: argparse.Namespace) -> int:
    from solver.bench import BenchConfig, run_bench
    from solver.errors import MinebotError

    width, height, mines = _board_size(args)
    if args.games < 1:
        raise MinebotError(f"--games must be at least 1, got {args.games}")
    if args.workers < 1:
        raise MinebotError(f"--workers must be at least 1, got {args.workers}")
    config = BenchConfig(
        width, height, mines, args.rules, args.first_click, args.strategy, args.seed
    )
    progress = _ProgressBar(args.games) if sys.stderr.isatty() else None
    _stop_on_terminate()
    report = run_bench(
        config,
        args.games,
        args.workers,
        progress,
        cluster=args.cluster,
        start_method=args.start_method,
        chunk=args.chunk,
        checkpoint=args.checkpoint,
    )
    if progress:
        progress.close()
    if args.json:
        print(json.dumps(report.as_dict()))
    else:
        print(report.text())
    return 0


def _stop_on_terminate() -> None:
    """Stop on SIGTERM (a batch system ending the job) as on Ctrl-C: the workers are stopped and
    the checkpoint keeps every chunk finished, instead of orphaned workers failing on a closed
    pipe."""
    import signal

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, interrupt)


class _ProgressBar:
    """A one-line progress bar on stderr: games done, running win rate."""

    def __init__(self, total: int, width: int = 30) -> None:
        self.total, self.width = total, width

    def __call__(self, done: int, wins: int) -> None:
        filled = self.width * done // self.total
        bar = "#" * filled + "-" * (self.width - filled)
        sys.stderr.write(
            f"\r[{bar}] {done}/{self.total} games, {100 * wins / max(1, done):.1f}% won"
        )
        sys.stderr.flush()

    def close(self) -> None:
        sys.stderr.write("\n")
        sys.stderr.flush()
