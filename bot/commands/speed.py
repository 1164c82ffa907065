"""``minebot speed``: how fast the exact probability engine is."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bot.commands.args import int_from
from bot.paths import data_file

DEFAULT_SUPER_BOARD = data_file("super-board-of-death.txt")
#: Mines on the super board of death.
SUPER_BOARD_MINES = 51
#: Most positions timed in one run: the sample is drawn from three times as many games'
#: positions, all kept in memory. Measured: 15.5 kB and 2.1 ms of CPU per position asked for
#: (6,000: 123 MB), so 20,000 take some 340 MB and 45 s before the timing starts.
MAX_POSITIONS = 20_000


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "speed",
        help="time the exact engine on the super board of death and on simulated expert games",
        description="Time the exact engine: the super board of death (51 mines), then median, "
        "99th percentile and max over positions sampled from simulated expert games.",
    )
    parser.add_argument(
        "--positions",
        type=int_from(1, MAX_POSITIONS),
        default=1000,
        help=f"positions to time (1 to {MAX_POSITIONS})",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the simulated games")
    parser.add_argument(
        "--board", type=Path, default=DEFAULT_SUPER_BOARD, help="the super board text file"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bot.userfiles import read_board_file
    from solver.errors import ContradictionError
    from solver.probability import mine_probabilities
    from solver.speed import game_positions, time_call, time_positions

    board = read_board_file(args.board)
    try:
        mine_probabilities(board, SUPER_BOARD_MINES)  # a board that cannot be timed is said now
    except ContradictionError as exc:
        raise ContradictionError(
            f"{args.board}: {exc} (the board is timed with {SUPER_BOARD_MINES} mines)"
        ) from exc
    super_seconds = time_call(lambda: mine_probabilities(board, SUPER_BOARD_MINES))
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
        print(f"super board of death ({SUPER_BOARD_MINES} mines): {super_seconds * ms:.2f} ms")
        print(
            f"{timing.positions} expert positions ({timing.exact} exact): "
            f"median {timing.median * ms:.3f} ms, p99 {timing.p99 * ms:.3f} ms, "
            f"max {timing.max * ms:.3f} ms"
        )
    return 0
