"""``minebot solve``: exact mine probabilities and the recommended move for a board in text form."""

from __future__ import annotations

import argparse
import json
import sys

#: Solution counts above this are printed in JSON as strings (JSON readers lose larger ints).
JSON_SAFE_INT = 2**53


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="exact mine probabilities and the best move for a board in text form",
        description="Read a board in minebot's text form (. covered, 0-8, F flag, ? question "
        "mark, * mine, X exploded, W wrong flag) and print the exact probability that each "
        "covered cell is a mine, and the move to make.",
    )
    parser.add_argument("board", help="board text file ('-' for standard input)")
    parser.add_argument("--mines", type=int, required=True, help="total mines in the game")
    parser.add_argument("--strategy", default="best", help="move choice: best, min-risk, pgms")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from solver.board import Board, read_board
    from solver.moves import choose_move
    from solver.probability import mine_probabilities

    board = Board(sys.stdin.read()) if args.board == "-" else read_board(args.board)
    analysis = mine_probabilities(board, args.mines)
    move = (
        choose_move(board, args.mines, strategy=args.strategy, analysis=analysis)
        if analysis.covered
        else None
    )
    if args.json:
        print(json.dumps(solve_report(board, analysis, move)))
    else:
        print(format_probabilities(board, analysis))
        print()
        print(describe(analysis, move))
    return 0


def solve_report(board, analysis, move) -> dict:
    """The JSON object of ``minebot solve --json``."""
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
    if move is None:
        lines.append("move: none (no covered cell left)")
    else:
        lines.append(f"move: {move.action} x={move.x} y={move.y} (P(mine) = {move.p_mine:.4f})")
    return "\n".join(lines)
