"""What the live bot keeps of each game, and the check of it after the fact.

``minebot play --log DIR`` writes one folder per game (:class:`GameLog`): every frame the bot
acted on with the board it read, the moves, the last frame and the result. The folder replays
with ``minebot replay``. :func:`audit_boards` checks the boards the bot acted on against the
mines a lost game shows at its end: every number must equal the mines around it, so a misread
cannot hide behind a loss.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.live.capture import Frame
from bot.userfiles import check_output_folder, write_image, write_text
from solver.board import NUMBERS, Board


class GameLog:
    """Per game: the frames acted on (``NNN.png`` + the board read, ``NNN.txt``), the moves
    (``moves.jsonl``), the last frame (``final.png``) and ``result.json``. The folder replays with
    ``minebot replay DIR``."""

    def __init__(self, folder: Path) -> None:
        self.folder = check_output_folder(folder, "game log")
        self._index = 0
        self._moves = (folder / "moves.jsonl").open("a", encoding="utf-8")

    def frame(self, frame: Frame, board: Board) -> int:
        import cv2

        self._index += 1
        name = f"{self._index:03d}"
        fast = [cv2.IMWRITE_PNG_COMPRESSION, 1]
        write_image(self.folder / f"{name}.png", frame.image, "logged frame", fast)
        write_text(self.folder / f"{name}.txt", str(board) + "\n", "logged board")
        return self._index

    def moves(self, frame_index: int, clicks: Sequence[Any]) -> None:
        """Append the cells opened from frame ``frame_index`` (objects with ``x``, ``y``,
        ``p_mine``)."""
        for c in clicks:
            self._moves.write(
                json.dumps({"frame": frame_index, "action": "open", "x": c.x, "y": c.y,
                            "p_mine": c.p_mine}) + "\n"
            )  # fmt: skip
        self._moves.flush()

    def finish(self, frame: Frame | None, board: Board | None, result: dict[str, Any]) -> None:
        if frame is not None:
            write_image(self.folder / "final.png", frame.image, "final frame")
        if board is not None:
            write_text(self.folder / "final.txt", str(board) + "\n", "final board")
        write_text(self.folder / "result.json", json.dumps(result, indent=1) + "\n", "result")

    def close(self) -> None:
        self._moves.close()


def audit_game_log(folder: Path, mines: int) -> list[str]:
    """Check a logged game after the fact: when the final frame shows every mine (a loss in
    most games), each number of each frame the bot acted on must equal the mines around it.
    Returns the problems found (empty: every reading the bot acted on was right).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "001.txt").write_text("1.\\n..")
    ...     _ = (Path(d) / "final.txt").write_text("1X\\n..")
    ...     audit_game_log(Path(d), 1)
    ...     _ = (Path(d) / "002.txt").write_text("2.\\n..")
    ...     audit_game_log(Path(d), 1)
    []
    ['002.txt: (0, 0) read 2, 1 mines around']
    """
    final_path = folder / "final.txt"
    if not final_path.is_file():
        return [f"{folder}: no final.txt"]
    frames = sorted(folder.glob("[0-9][0-9][0-9].txt"))
    boards = [Board(path.read_text()) for path in frames]
    final = Board(final_path.read_text())
    return [f"{frames[i].name}: {problem}" for i, problem in audit_boards(boards, final, mines)]


def audit_boards(boards: Sequence[Board], final: Board, mines: int) -> list[tuple[int, str]]:
    """``(index, problem)`` for each cell of ``boards`` that contradicts the mines ``final``
    shows, when it shows all ``mines`` of them (else nothing can be checked: ``[]``)."""
    layout = {pos for pos, ch in final.items() if ch in "*XF"}
    if len(layout) != mines:
        return []
    problems = []
    for i, board in enumerate(boards):
        for (x, y), ch in board.items():
            if ch in NUMBERS:
                around = sum(n in layout for n in board.neighbours(x, y))
                if around != int(ch):
                    problems.append((i, f"({x}, {y}) read {ch}, {around} mines around"))
            elif ch in "*X" and (x, y) not in layout:
                problems.append((i, f"({x}, {y}) read as a mine, is none"))
    return problems
