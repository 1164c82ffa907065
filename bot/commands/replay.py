"""``minebot replay``: read a recorded screenshot (or a folder of them) and say what the bot sees.

Prints the skin, the grid, the board in text form, the lowest cell confidence and the move the
solver would make. ``--expect`` compares with a text board (exit 1 on any difference, listing the
cells), ``--overlay`` writes the screenshot with covered cells tinted by mine probability and the
move marked, ``--json`` prints one JSON object per picture. Exit 2: no board, unknown skin, a cell
that does not read clearly, or a board the solver finds contradictory.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.commands.args import nonnegative_int

#: Picture suffixes a folder is searched for.
IMAGE_SUFFIXES = (".png", ".bmp", ".jpg", ".jpeg", ".webp", ".tif", ".tiff")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="read a recorded screenshot (or a folder of them) and show the board and the move",
        description="Find the board in a screenshot, read every cell, and print the skin, grid, "
        "board (text form), lowest cell confidence and the move the solver would make.",
    )
    parser.add_argument("image", metavar="IMAGE_OR_DIR", help="a screenshot, or a folder of them")
    parser.add_argument("--skin", help="only look for this skin (default: every known skin)")
    parser.add_argument(
        "--mines", type=nonnegative_int, help="total mines (default: screen, skin level)"
    )
    parser.add_argument(
        "--expect",
        metavar="BOARD.txt",
        help="expected board in text form (for a folder: a folder of NAME.txt); exit 1 on "
        "any difference",
    )
    parser.add_argument(
        "--overlay",
        metavar="OUT.png",
        help="write the screenshot with mine probabilities and the move drawn (for a folder: "
        "a folder)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per picture")
    parser.set_defaults(func=run)


@dataclass
class Replayed:
    """Everything one picture gave, for text or JSON output."""

    image: str
    report: dict[str, Any] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    status: int = 0


def run(args: argparse.Namespace) -> int:
    from bot.errors import MinebotError
    from bot.reading.skins import find_skin, load_skins
    from bot.userfiles import check_image_output, check_output_folder

    source = Path(args.image)
    if source.is_dir():
        images = sorted(p for p in source.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not images:
            raise MinebotError(f"{source}: no pictures in this folder")
    elif source.is_file():
        images = [source]
    else:
        raise MinebotError(f"{source}: no such file or folder")
    skins = [find_skin(args.skin)] if args.skin else load_skins()
    several = len(images) > 1 or source.is_dir()
    if args.overlay is not None:  # an output that cannot be written is said before any reading
        if several:
            check_output_folder(args.overlay, "overlays")
        else:
            check_image_output(args.overlay, "overlay")
    status = 0
    for image in images:
        expect = _paired(args.expect, image, several, ".txt")
        overlay = _paired(args.overlay, image, several, ".png", create=True)
        try:
            result = replay_image(image, skins, args.mines, expect, overlay)
        except MinebotError as exc:  # one bad picture does not stop a folder: exit 2 at the end
            message = str(exc) if str(exc).startswith(f"{image}:") else f"{image}: {exc}"
            result = Replayed(str(image), {"image": str(image), "error": str(exc)}, [], 2)
            print(f"minebot replay: {message}", file=sys.stderr)
        if args.json:
            print(json.dumps(result.report))
        else:
            print("\n".join(result.lines))
            if several:
                print()
        status = max(status, result.status)
    return status


def _paired(
    option: str | None, image: Path, several: bool, suffix: str, create: bool = False
) -> Path | None:
    """The file ``--expect``/``--overlay`` means for ``image`` (a folder of them for a folder)."""
    if option is None:
        return None
    path = Path(option)
    if not several:
        return path
    if not create and not path.is_dir():
        from bot.errors import MinebotError

        raise MinebotError(f"{path}: for a folder of pictures, give a folder of NAME.txt boards")
    candidate = path / (image.stem + suffix)
    return candidate if create or candidate.exists() else None


def mine_count(reading: Any, given: int | None) -> tuple[int, str]:
    """Total mines and where the number comes from: ``--mines``, the screen, the skin's level,
    or an estimate (said so in the output)."""
    if given is not None:
        return given, "given with --mines"
    if reading.mines is not None:
        source = {"level": "the skin's level of this size", "screen": "the screen"}
        return reading.mines, f"from {source.get(reading.mines_source, reading.mines_source)}"
    from solver.position import ESTIMATED_DENSITY, USUAL_MINES, estimated_mines

    board = reading.board
    basis = (
        f"the usual level of a {board.width}x{board.height} board"
        if (board.width, board.height) in USUAL_MINES
        else f"{ESTIMATED_DENSITY:.0%} of the cells"
    )
    return estimated_mines(board), f"ESTIMATED ({basis}): the move assumes it"


def choose(board: Any, mines: int) -> tuple[Any, Any]:
    """The solver's analysis and move for ``board`` (see :func:`checked_move`)."""
    position, move = checked_move(board, mines)
    return position.analysis, move


def checked_move(board: Any, mines: int) -> tuple[Any, Any]:
    """The checked position (:func:`solver.position.analyse_position`: the player's flags are
    left out, and named, when they contradict the numbers) and its move (None: every covered
    cell is a mine). Raises ContradictionError when the numbers do not fit anyway."""
    from solver.moves import choose_move
    from solver.position import analyse_position

    position = analyse_position(board, mines)
    if position.won:
        return position, None
    return position, choose_move(position.board, mines, analysis=position.analysis)


def replay_image(
    path: Path,
    skins: list[Any],
    mines: int | None = None,
    expect: Path | None = None,
    overlay: Path | None = None,
) -> Replayed:
    """Read one picture; the report, the text lines and the exit status (0, 1 or 2)."""
    from bot.reading.overlay import draw_overlay
    from bot.reading.read import read_image as read_picture
    from bot.userfiles import read_board_file, read_image, write_image
    from solver.errors import ContradictionError

    frame = read_image(path)
    reading = read_picture(frame, skins)
    located = reading.located
    grid, board = located.grid, reading.board
    low = divmod(int(reading.confidence.argmin()), grid.cols)
    out = Replayed(str(path))
    out.report = {
        "image": str(path),
        "skin": located.skin.name,
        "scale": round(located.scale, 4),
        "grid": {
            "left": grid.left,
            "top": grid.top,
            "pitch_x": grid.pitch_x,
            "pitch_y": grid.pitch_y,
        },
        "rows": grid.rows,
        "cols": grid.cols,
        "board": str(board),
        "min_confidence": round(reading.min_confidence, 4),
        "min_confidence_cell": [low[1], low[0]],
        "state": reading.state,
    }
    out.lines += [
        f"image: {path}",
        f"skin: {located.skin.name} (scale {located.scale:.3g})",
        f"grid: {grid.cols}x{grid.rows} cells, cell (0, 0) at ({grid.left:.1f}, {grid.top:.1f}), "
        f"pitch {grid.pitch_x:.2f} x {grid.pitch_y:.2f} px",
        f"lowest confidence: {reading.min_confidence:.3f} at ({low[1]}, {low[0]})",
        f"state: {reading.state}",
        "board:",
        str(board),
    ]
    if expect is not None:
        wanted = read_board_file(expect)
        if (wanted.width, wanted.height) != (board.width, board.height):
            diffs = None
            out.lines.append(
                f"expected {wanted.width}x{wanted.height} ({expect}), read "
                f"{board.width}x{board.height}: DIFFERENT SIZE"
            )
        else:
            diffs = board.differences(wanted)
            out.lines.append(
                f"expected ({expect}): "
                + (
                    "same board"
                    if not diffs
                    else f"{len(diffs)} cell(s) differ: "
                    + ", ".join(f"({x}, {y}) read {a!r} expected {b!r}" for (x, y), a, b in diffs)
                )
            )
        out.report["differences"] = (
            "size"
            if diffs is None
            else [{"x": x, "y": y, "read": a, "expected": b} for (x, y), a, b in diffs]
        )
        if diffs is None or diffs:
            out.status = 1
    total, source = mine_count(reading, mines)
    out.report["mines"] = total
    out.report["mines_source"] = source
    out.lines.append(f"mines: {total} ({source})")
    analysis = move = None
    if reading.state == "playing":
        try:
            position, move = checked_move(board, total)
            analysis = position.analysis
            out.report["flags"] = position.as_dict()
            if position.note:
                out.lines.append(f"FLAGS: {position.note}")
        except ContradictionError as exc:
            cells = ", ".join(f"({x}, {y})" for x, y in exc.cells)
            out.lines.append(f"CONTRADICTION: {exc}" + (f" (cells {cells})" if cells else ""))
            out.report["contradiction"] = {
                "message": str(exc),
                "cells": [list(c) for c in exc.cells],
            }
            out.status = 2
    if move is not None and analysis is not None:
        risk = "safe" if move.p_mine == 0 else f"P(mine) = {move.p_mine:.4f}"
        risk += position.on_dropped_flag(move.x, move.y)
        out.lines.append(f"move: {move.action} ({move.x}, {move.y}), {risk}")
        out.report["move"] = {
            "action": move.action,
            "x": move.x,
            "y": move.y,
            "p_mine": float(move.p_mine),
        }
        out.report["safe_cells"] = len(analysis.safe)
    else:
        why = "the game is over" if reading.state != "playing" else "no move"
        if analysis is not None:
            why = "the game is won: every covered cell is a mine, only flags are left"
        out.lines.append(f"move: none ({why})")
        out.report["move"] = None
    if overlay is not None:
        picture = draw_overlay(frame, grid, None if analysis is None else analysis.grid, move)
        write_image(overlay, picture, "overlay")
        out.lines.append(f"overlay: {overlay}")
        out.report["overlay"] = str(overlay)
    return out
