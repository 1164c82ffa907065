"""KMines in its default theme (Oxygen: open cells semi-transparent over a shaded background,
a dark frame drawn over the board's last pixel column and row), hard 30x16/99, played
unattended. The skin is tuned at test time as the README teaches: the repository's hard
screenshots (fresh, mid-game and lost, the last two labelled) and two frames an earlier
`minebot play --log` saved with cells the skin lacked (labelled), the "New" button cut from a
screenshot; the game is started by hand. Every game must be counted, none misread or
misclicked, and the run must end by itself."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.e2e.test_end_message import kmines_or_skip, play_kmines

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "kmines"
LIVE = ROOT / "tests" / "fixtures_tune" / "kmines-live"
SKIN = "t-kmines-default"
GAMES = 3


def tune_from_screenshots(work: Path) -> Path:
    """``minebot tune`` on the hard fixtures and the logged frames; the skins folder."""
    import cv2

    shots = work / "shots"
    shots.mkdir()
    for moment in ("fresh", "mid", "lost"):
        shutil.copy(FIXTURES / f"hard-{moment}.png", shots / f"{moment}.png")
    for moment in ("mid", "lost"):
        shutil.copy(FIXTURES / f"hard-{moment}.txt", shots / f"{moment}.txt")
    for frame in ("hard-late", "hard-edge"):
        shutil.copy(LIVE / f"{frame}.png", shots)
        shutil.copy(LIVE / f"{frame}.txt", shots)
    fresh = cv2.imread(str(shots / "fresh.png"))
    cv2.imwrite(str(shots / "new.png"), fresh[28:48, 6:48])  # the toolbar's "New"
    skins = work / "skins"
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "tune", "fresh.png", "mid.png", "lost.png",
         "hard-late.png", "hard-edge.png", "--name", SKIN, "--out", str(skins),
         "--level", "30x16n99", "--restart-button", "new.png", "--first-click", "opening",
         "--dialog", "Reset=Escape"],
        cwd=shots, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return skins


def test_kmines_default_theme_is_played_unattended(virtual_display, tmp_path):
    kmines_or_skip()
    skins = tune_from_screenshots(tmp_path)
    done = play_kmines(virtual_display, tmp_path, skins, SKIN, "Hard", "default", GAMES)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == GAMES and summary["stopped_because"] == "done", done.stderr
    assert summary["wins"] + summary["losses"] + summary["abandoned"] == GAMES
    assert summary["misreads"] == 0 and summary["misclicks"] == 0
    assert summary["restarts"] >= GAMES - 1
    for r in summary["results"]:
        assert r["clicks"] > 0, r  # each game was played, not only restarted
