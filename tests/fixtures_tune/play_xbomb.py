"""Tune xbomb from the fixtures, then play it live under Xvfb with the real game.

    python tests/fixtures_tune/play_xbomb.py GAMES [LOG_DIR]

Tunes skin ``xbomb`` from mid.png (+ mid.txt), lost.png and seven.png (their groups named
in xbomb.groups.txt) into a temporary skin folder (with program.json), then runs ``minebot
play``'s loop on a 30x16/99 board for GAMES games and prints the summary (games, wins,
misreads).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent / "xbomb"


def play_tuned_xbomb(
    games: int, log_dir: Path | None = None, display: int | None = None, out=print
):
    """Tune xbomb from the fixtures, play ``games`` games live on Xvfb display ``display`` (else
    the first free one); the play summary."""
    from bot.reading.tune import tune

    skins = Path(tempfile.mkdtemp(prefix="minebot-tuned-"))
    start = time.perf_counter()
    tune(
        [HERE / "mid.png", HERE / "lost.png", HERE / "seven.png"],
        "xbomb",
        out=skins,
        groups_file=HERE / "xbomb.groups.txt",
        levels=[(30, 16, 99), (16, 16, 40), (8, 8, 10)],
        restart={"key": "s"},
        program=HERE / "program.json",
    )
    out(f"tuned xbomb into {skins} in {time.perf_counter() - start:.2f} s")
    saved = os.environ.get("MINEBOT_SKINS")
    os.environ["MINEBOT_SKINS"] = str(skins)
    try:
        return _play(games, log_dir, display, out)
    finally:
        if saved is None:
            os.environ.pop("MINEBOT_SKINS", None)
        else:
            os.environ["MINEBOT_SKINS"] = saved
        shutil.rmtree(skins, ignore_errors=True)


def _play(games: int, log_dir: Path | None, display: int | None, out):
    from bot.live.programs import RunningGame, load_program
    from bot.live.xvfb import VirtualDisplay

    program = load_program("xbomb")
    with (
        VirtualDisplay(display=display) as screen,
        RunningGame(program, 30, 16, 99, screen.env) as game,
    ):
        from bot.commands.play import skins_for
        from bot.live.attach import attach
        from bot.live.capture import ScreenCapture
        from bot.live.mouse import Mouse

        with ScreenCapture() as capture:
            attached = attach(
                capture,
                Mouse(),
                skins=skins_for("xbomb"),
                window=game.window,
                mines=99,
                log_dir=log_dir,
                out=out,
            )
            try:
                summary = attached.player.run(games)
            except Exception:
                if log_dir is not None:  # keep the picture that stopped the bot
                    import cv2

                    shot = capture.grab(game.window.region).image
                    cv2.imwrite(str(log_dir / "stopped.png"), shot)
                raise
    return summary


def main(games: int, log_dir: Path | None) -> int:
    from bot.commands.play import report

    report(play_tuned_xbomb(games, log_dir), False)
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else None))
