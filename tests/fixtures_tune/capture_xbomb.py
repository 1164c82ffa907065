"""Recapture the xbomb screenshots in this folder from the real game under Xvfb (display :88).

    python tests/fixtures_tune/capture_xbomb.py OUT_DIR SKIN_DIR

Takes ``fresh.png`` (new 30x16 game), ``click1.png`` (after the first click in the middle),
``mid.png`` (after flagging every certain mine and opening every safe cell of click1, read with
the skin ``xbomb`` found in SKIN_DIR, tuned from the first two) and ``end.png`` (after clicking
far-away covered cells until the game is lost, at most 20 clicks; committed as lost.png).
Text boards (``NAME.txt``) are checked by eye (and on lost boards by mine counts), not made
by this script. lost-green.png and seven.png come from play_xbomb.py runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np


def main(out: Path, skin_dir: Path) -> None:
    import cv2
    import mss

    from bot.live.xvfb import VirtualDisplay

    out.mkdir(parents=True, exist_ok=True)
    with VirtualDisplay(display=88) as vd:
        game = subprocess.Popen(["/usr/games/xbomb", "-square", "-3"], env=vd.env)
        try:
            time.sleep(2.0)

            def shot(name: str) -> np.ndarray:
                time.sleep(0.6)
                with mss.MSS() as s:
                    img = np.array(s.grab({"left": 0, "top": 0, "width": 610, "height": 376}))
                img = img[:, :, :3]
                cv2.imwrite(str(out / name), img)
                return img

            def click(x: int, y: int, button: int = 1) -> None:
                px, py = 5 + 20 * x + 10, 28 + 20 * y + 10
                subprocess.run(["xdotool", "mousemove", str(px), str(py), "click", str(button)],
                               env=vd.env, check=True)  # fmt: skip
                subprocess.run(["xdotool", "mousemove", "600", "370"], env=vd.env, check=True)

            shot("fresh.png")
            click(15, 8)
            img = shot("click1.png")
            if skin_dir is None:
                return
            os.environ["MINEBOT_SKINS"] = str(skin_dir)
            from bot.reading.read import read_image
            from bot.reading.skins import find_skin
            from solver.probability import mine_probabilities

            board = read_image(img, [find_skin("xbomb")]).board
            analysis = mine_probabilities(board, 99)
            for x, y in analysis.mines_certain:
                click(x, y, 3)
            for x, y in analysis.safe:
                click(x, y, 1)
            shot("mid.png")
            rng = np.random.default_rng(6)
            before = None
            for _ in range(20):
                x, y = int(rng.integers(0, 30)), int(rng.integers(0, 16))
                if abs(x - 15) + abs(y - 8) < 8 or board[x, y] != ".":
                    continue
                click(x, y, 1)
                img = shot("end.png")
                if before is not None and np.abs(img.astype(int) - before).sum() > 2_000_000:
                    break  # the whole board changed: mines shown after a loss
                before = img.astype(int)
        finally:
            game.terminate()
            game.wait()


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else None)
