"""``minebot speed``: how fast the exact probability engine is."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bot.paths import data_file

DEFAULT_SUPER_BOARD = data_file("super-board-of-death.txt")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "speed",
        help="time the exact engine on the super board of death and on simulated expert games",
        description="Time the exact engine: the super board of death (51 mines), then median, "
        "99th percentile and max over positions sampled from simulated expert games.",
    )
    parser.add_argument("--positions", type=int, default=1000, help="positions to time")
    parser.add_argument("--seed", type=int, default=1, help="seed of the simulated games")
    parser.add_argument(
        "--board", type=Path, default=DEFAULT_SUPER_BOARD, help="the super board text file"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from solver.speed import game_positions, super_board_time, time_positions

    super_seconds = super_board_time(args.board)
    timing = time_positions(game_positions(args.positions, args.seed))
    ms = 1000.0
    if args.json:
        print(
            json.dumps(
                {
                    "super_board_ms": super_seconds * ms,
                    "positions": timing.positions,
                    "exact": timing.exact,
                    "median_ms": timing.median * ms,
                    "p99_ms": timing.p99 * ms,
                    "max_ms": timing.max * ms,
                }
            )
        )
    else:
        print(f"super board of death (51 mines): {super_seconds * ms:.2f} ms")
        print(
            f"{timing.positions} expert positions ({timing.exact} exact): "
            f"median {timing.median * ms:.3f} ms, p99 {timing.p99 * ms:.3f} ms, "
            f"max {timing.max * ms:.3f} ms"
        )
    return 0
