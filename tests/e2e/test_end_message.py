"""A game that writes its end over the board, played unattended: KMines (Classic theme) writes
"You have lost." / "Congratulations! You have won!" across the board, then opens "Reset?" after a
loss (and "High Scores" after a win). The skin is tuned at test time from the repository's
KMines fixtures, the way the README teaches a new game (three screenshots, two of them labelled,
the "New" button cut from one of them), and the game is started by hand: `minebot play` must
count every game, wait each message out and start the next game by itself."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "kmines-classic"
SKIN = "t-kmines-classic"


def kmines_or_skip() -> str:
    found = shutil.which("kmines", path="/usr/games:/usr/bin")
    if found is None or shutil.which("dbus-run-session") is None:
        # tests/apt-packages.txt (tests/run.sh installs it; bot/demo.sh does not): KMines and
        # the KDE and Qt libraries it needs are 155 packages, 161 MB on disk.
        pytest.skip("kmines or dbus-run-session is not installed (bash tests/run.sh installs them)")
    return found


def tune_kmines(
    work: Path, fixtures: Path, level: str, skin: str, size: str, frames: tuple[Path, ...] = ()
) -> Path:
    """``minebot tune`` as the README's "Teach minebot a new game" says, on KMines' fresh, mid
    and lost screenshots of ``level`` in ``fixtures`` (the last two labelled) and the labelled
    ``frames`` (paths without their suffix), ``size`` as ``--level``; the skins folder."""
    import cv2

    shots = work / "shots"
    shots.mkdir()
    for moment in ("fresh", "mid", "lost"):
        shutil.copy(fixtures / f"{level}-{moment}.png", shots / f"{moment}.png")
    for moment in ("mid", "lost"):
        shutil.copy(fixtures / f"{level}-{moment}.txt", shots / f"{moment}.txt")
    for frame in frames:
        for suffix in (".png", ".txt"):
            shutil.copy(frame.with_suffix(suffix), shots)
    # The toolbar's "New" button (a key does not reach KMines once its "Reset?" dialog closed).
    fresh = cv2.imread(str(shots / "fresh.png"))
    cv2.imwrite(str(shots / "new.png"), fresh[28:48, 6:48])
    skins = work / "skins"
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "tune", "fresh.png", "mid.png", "lost.png",
         *(f"{f.name}.png" for f in frames), "--name", skin, "--out", str(skins),
         "--level", size, "--restart-button", "new.png", "--first-click", "opening",
         "--dialog", "Reset=Escape"],
        cwd=shots, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return skins


def play_kmines(
    display, tmp_path: Path, skins: Path, skin: str, level: str, theme: str, games: int
) -> subprocess.CompletedProcess[str]:
    """Start KMines at ``level`` in ``theme`` by hand (as a user would, from a shell) on the
    session's display and run ``minebot play --skin SKIN --games N --json --log`` on it."""
    kmines = kmines_or_skip()
    config, runtime = tmp_path / "config", tmp_path / "runtime"
    config.mkdir()
    runtime.mkdir(mode=0o700)
    (config / "kminesrc").write_text(
        f"[KgDifficulty]\nLevel={level}\n\n[KgTheme]\nTheme=themes/{theme}.desktop\n"
    )
    from bot.live.programs import game_environment

    env = dict(display.env, MINEBOT_SKINS=str(skins))
    # As from a user's shell: without the Qt settings opencv-python made in this process.
    game_env = game_environment(
        dict(env, XDG_CONFIG_HOME=str(config), XDG_RUNTIME_DIR=str(runtime))
    )
    game = subprocess.Popen(
        ["dbus-run-session", "--", kmines], env=game_env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        from bot.live.window import X11Windows, find_window

        find_window(X11Windows(env["DISPLAY"]), wm_class="kmines", timeout=30)
        return subprocess.run(
            [sys.executable, "-m", "bot.cli", "play", "--skin", skin, "--games", str(games),
             "--json", "--log", str(tmp_path / "logs")],
            capture_output=True, text=True, timeout=130 * games, env=env,
        )  # fmt: skip
    finally:
        os.killpg(game.pid, 15)  # dbus-run-session and the game it started
        game.wait(timeout=10)


def test_kmines_end_messages_are_waited_out_and_every_game_counted(virtual_display, tmp_path):
    kmines_or_skip()
    skins = tune_kmines(tmp_path, FIXTURES, "medium", SKIN, "16x16n40")
    done = play_kmines(virtual_display, tmp_path, skins, SKIN, "Medium", "classic", 3)
    logs = tmp_path / "logs"
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 3 and summary["stopped_because"] == "done", done.stderr
    assert summary["wins"] + summary["losses"] + summary["abandoned"] == 3
    assert summary["misreads"] == 0 and summary["misclicks"] == 0
    assert summary["restarts"] >= 2
    results = summary["results"]
    # The message over the board at each end: a loss counted from the cells around it (its
    # exploded mine showed), or frames refused while it covered the board.
    ends = [r for r in results if r["outcome"] in ("won", "lost")]
    assert ends and any(r["end_seen"] or r["rejected_frames"] > 0 for r in ends), results
    for r in results:
        if r["outcome"] == "lost":
            assert r["lost_p_mine"] is not None and r["lost_p_mine"] > 0, r
    # What KMines opened by itself was closed and said (Escape: "Reset?" answered no).
    said = (logs / "dialogs.txt").read_text().splitlines() if summary["dialogs"] else []
    assert all(line.startswith("closed the game's window") for line in said)
