"""KMines in its default theme (Oxygen: open cells semi-transparent over a shaded background,
a dark frame drawn over the board's last pixel column and row), hard 30x16/99, played
unattended. The skin is tuned at test time as the README teaches: the repository's hard
screenshots (fresh, mid-game and lost, the last two labelled) and two frames an earlier
`minebot play --log` saved with cells the skin lacked (labelled), the "New" button cut from a
screenshot; the game is started by hand. Every game must be counted, none misread or
misclicked, and the run must end by itself."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.test_end_message import kmines_or_skip, play_kmines, tune_kmines

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "kmines"
LIVE = ROOT / "tests" / "fixtures_tune" / "kmines-live"
SKIN = "t-kmines-default"
GAMES = 3


def test_kmines_default_theme_is_played_unattended(virtual_display, tmp_path):
    kmines_or_skip()
    frames = (LIVE / "hard-late", LIVE / "hard-edge")
    skins = tune_kmines(tmp_path, FIXTURES, "hard", SKIN, "30x16n99", frames)
    done = play_kmines(virtual_display, tmp_path, skins, SKIN, "Hard", "default", GAMES)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == GAMES and summary["stopped_because"] == "done", done.stderr
    assert summary["wins"] + summary["losses"] + summary["abandoned"] == GAMES
    assert summary["misreads"] == 0 and summary["misclicks"] == 0
    assert summary["restarts"] >= GAMES - 1
    for r in summary["results"]:
        assert r["clicks"] > 0, r  # each game was played, not only restarted
