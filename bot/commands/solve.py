"""``minebot solve``: exact mine probabilities and the recommended move for a board in text form."""

from __future__ import annotations

import argparse
import json
import sys

#: Solution counts above this are printed in JSON as strings (JSON readers lose larger ints).
JSON_SAFE_INT = 2**53


def register(subparsers: argparse._SubParsersAction) -> None:
    from solver.policy import STRATEGIES

    parser = subparsers.add_parser(
        "solve",
        help="exact mine probabilities and the best move for a board in text form",
        description="Read a board in minebot's text form (. covered, 0-8, F flag, ? question "
        "mark, * mine, X exploded, W wrong flag) and print the exact probability that each "
        "covered cell is a mine, and the move to make. Flags that contradict the numbers are "
        "named, and the board is then solved without the player's flags.",
    )
    parser.add_argument("board", help="board text file ('-' for standard input)")
    parser.add_argument("--mines", type=int, required=True, help="total mines in the game")
    parser.add_argument(
        "--strategy", choices=STRATEGIES, default="best", help="move choice (default: best)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from solver.moves import choose_move
    from solver.position import analyse_position

    position = analyse_position(load_board(args.board), args.mines)
    board, analysis = position.board, position.analysis
    move = (
        None
        if position.won
        else choose_move(board, args.mines, strategy=args.strategy, analysis=analysis)
    )
    if args.json:
        report = solve_report(board, analysis, move)
        report["state"] = "won" if position.won else "playing"
        report["flags"] = position.as_dict()
        print(json.dumps(report))
    else:
        print(format_probabilities(board, analysis))
        print()
        if position.note:
            print(f"FLAGS: {position.note}")
        print(
            describe(analysis, move)
            + ("" if move is None else position.on_dropped_flag(move.x, move.y))
        )
    return 0


def load_board(name: str):
    """The board in file ``name`` ('-': standard input); a one-line error naming it when it
    cannot be read or is not a board."""
    from bot.userfiles import read_board_file
    from solver.board import Board
    from solver.errors import BoardFormatError

    if name != "-":
        return read_board_file(name)
    data = sys.stdin.buffer.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BoardFormatError(
            f"standard input: the board is not UTF-8 text (byte {exc.start} is "
            f"{data[exc.start]:#04x})"
        ) from None
    try:
        return Board(text)
    except BoardFormatError as exc:
        raise BoardFormatError(f"standard input: {exc}") from None


def solve_report(board, analysis, move) -> dict:
    """The JSON object of ``minebot solve --json`` (before its ``state`` and ``flags``)."""
    rows = [
        [
            None if (p := analysis.probability(x, y)) is None else float(p)
            for x in range(board.width)
        ]
        for y in range(board.height)
    ]
    return {
        "width": board.width,
        "height": board.height,
        "mines": analysis.mines,
        "exact": analysis.exact,
        "probabilities": rows,
        "safe": [list(c) for c in analysis.safe],
        "mines_certain": [list(c) for c in analysis.mines_certain],
        "solutions": analysis.solutions
        if analysis.solutions < JSON_SAFE_INT
        else str(analysis.solutions),
        "move": None
        if move is None
        else {"action": move.action, "x": move.x, "y": move.y, "p_mine": move.p_mine},
    }


def format_probabilities(board, analysis) -> str:
    """The board with each covered cell replaced by its mine probability in percent.

    >>> from solver.board import Board
    >>> from solver.probability import mine_probabilities
    >>> b = Board("1.")
    >>> print(format_probabilities(b, mine_probabilities(b, 1)))
            0    1
       0    1 100%
    """
    header = "    " + "".join(f"{x:5d}" for x in range(board.width))
    lines = [header]
    for y in range(board.height):
        cells = []
        for x in range(board.width):
            p = analysis.probability(x, y)
            cells.append(f"{board[x, y]:>5}" if p is None else f"{_percent(p):>5}")
        lines.append(f"{y:4d}" + "".join(cells))
    return "\n".join(lines)


def _percent(p) -> str:
    value = float(p) * 100
    if 0 < value < 1:
        return "<1%"
    if 99 < value < 100:
        return ">99%"
    return f"{value:.0f}%"


def describe(analysis, move) -> str:
    lines = [
        f"solutions: {analysis.solutions}",
        f"certainly safe: {len(analysis.safe)}, certainly mines: {len(analysis.mines_certain)}",
    ]
    if not analysis.exact:
        lines.append(
            f"APPROXIMATE: {len(analysis.approximate)} cells lie in a component too large to "
            "count exactly"
        )
    if move is None and analysis.covered:
        lines.append(
            f"game won: the {len(analysis.covered)} covered cell(s) left are all mines "
            "(only flags are left to place)"
        )
    elif move is None:
        lines.append("game won: no covered cell is left (only flags)")
    else:
        lines.append(f"move: {move.action} x={move.x} y={move.y} (P(mine) = {move.p_mine:.4f})")
    return "\n".join(lines)
