"""``minebot tune`` from screenshots at several cell sizes: a game that draws each level's cells
at a size of its own (KMines: 29 px on easy, 18 px on medium, 16 px on hard, see-through over a
shaded background) learns each size from its own screenshots, written as the skin's
``drawn_sizes``. Real fixtures (tests/fixtures/kmines/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.errors import TuneError
from tests.tune_games import Recipe, read_fixtures, tune_game


def test_one_labelled_shot_per_size_reads_every_level(tmp_path: Path) -> None:
    """One mid-game shot per level and each level's lost board, labelled: every KMines board
    of every level reads exactly. Tuned from the hard level alone, the easy and medium boards
    were refused (14 fixtures: 5 exact, 9 refused): its 16 px cells stretched are not those
    KMines draws at 18 or 29 px."""
    also = ("medium-mid", "easy-mid", "hard-lost", "medium-lost", "easy-lost")
    skins = tune_game("kmines", tmp_path, Recipe("hard-mid", ()), also)
    meta = json.loads((skins / "t-kmines" / "skin.json").read_text(encoding="utf-8"))
    # The own size is the one nearest the others by ratio: 18 px between 16 and 29.
    assert meta["cell"]["pitch"] == [18, 18]
    assert meta["cell"]["stretch_from"] == "nearest"
    assert [d["pitch"] for d in meta["drawn_sizes"]] == [[16, 16], [29, 29]]
    for drawn in meta["drawn_sizes"]:
        assert {"covered", "0", "1", "flag", "mine"} <= set(drawn["templates"])
    outcome = read_fixtures("kmines", skins)
    assert outcome.names("misread") == []
    assert outcome.names("refused") == [], outcome.results
    assert len(outcome.names("exact")) == 14


def test_a_shot_at_another_size_needs_its_text_board(tmp_path: Path) -> None:
    """An unlabelled mid-game shot at another size cannot be learnt (its cells are named by
    nothing): refused, naming the file and what to do."""
    with pytest.raises(TuneError, match=r"easy-mid\.png: cells of 29x29 px .* write NAME\.txt"):
        tune_game("kmines", tmp_path, Recipe("medium-mid", ("easy-mid",)))


#: The multi-size recipe: one labelled mid-game shot per level and each level's lost board.
EVERY_LEVEL = ("medium-mid", "easy-mid", "hard-lost", "medium-lost", "easy-lost")


def test_a_size_not_taught_reads_exactly_or_refuses_and_more_shots_teach_it(
    tmp_path: Path,
) -> None:
    """KMines in resized windows (tests/fixtures/kmines-sizes: 31 px and 39 px cells). Taught at
    16, 18 and 29 px only, no board is misread: at 31 px the cells of the nearest size (29 px)
    read the boards but for classes never taught there (the 4s, stretched from 18 px, are
    refused), and at 39 px every board but the fresh one is refused. Its mid-game and lost
    boards labelled too, every 39 px board reads exactly but the won one (refused, never
    misread)."""
    skins = tune_game("kmines", tmp_path / "a", Recipe("hard-mid", ()), EVERY_LEVEL)
    outcome = read_fixtures("kmines", skins, folder="kmines-sizes")
    assert outcome.names("misread") == []
    assert {"resized1000x700-hard-fresh", "resized1000x700-hard-mid"} <= set(
        outcome.names("exact")
    ), outcome.results
    medium = [n for n in outcome.results if n.startswith("resized900x800-medium")]
    # A fresh board's covered cells, stretched from 29 px, read; the numbers do not.
    assert "resized900x800-medium-fresh" in outcome.names("exact"), outcome.results
    shown = set(medium) - {"resized900x800-medium-fresh"}
    assert shown <= set(outcome.names("refused")), outcome.results
    more = ("kmines-sizes/resized900x800-medium-mid", "kmines-sizes/resized900x800-medium-lost")
    skins = tune_game("kmines", tmp_path / "b", Recipe("hard-mid", ()), (*EVERY_LEVEL, *more))
    outcome = read_fixtures("kmines", skins, "resized900x800-medium", "kmines-sizes")
    assert outcome.names("misread") == []
    taught = {f"resized900x800-medium-{k}" for k in ("fresh", "first", "mid", "lost")}
    assert set(outcome.names("exact")) >= taught, outcome.results


def test_the_tune_command_names_each_size_and_replay_reads_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """``minebot tune`` with shots at three sizes says which size is the skin's own and which
    others it learnt; ``minebot replay`` with that skin reads a board of each level."""
    import shutil

    from bot.cli import main
    from tests.tune_games import FIXTURES

    for name in ("hard-mid", "medium-mid", "easy-mid"):
        for suffix in (".png", ".txt"):
            shutil.copy(FIXTURES / "kmines" / f"{name}{suffix}", tmp_path)
    out = tmp_path / "skins"
    shots = [str(tmp_path / f"{n}.png") for n in ("hard-mid", "medium-mid", "easy-mid")]
    assert main(["tune", *shots, "--name", "km", "--out", str(out), "--restart-key", "F2"]) == 0
    printed = capsys.readouterr().out
    assert "cell 18x18 px;" in printed
    assert "also cells of 16x16 px, as the game draws them there (1 screenshot)" in printed
    assert "also cells of 29x29 px" in printed
    monkeypatch.setenv("MINEBOT_SKINS", str(out))
    for name in ("hard-first", "medium-first", "easy-first"):
        expect = FIXTURES / "kmines" / f"{name}.txt"
        assert main(["replay", str(FIXTURES / "kmines" / f"{name}.png"), "--skin", "km",
                     "--expect", str(expect)]) == 0, name  # fmt: skip


def test_a_second_size_taught_leaves_the_first_as_read(tmp_path: Path) -> None:
    """xbomb at 20 px (intermediate, expert) and its easy level at 50 px
    (tests/fixtures/xbomb-sizes), taught together: the 20 px boards read as when taught alone
    (the lost ones show classes never labelled), and no 50 px board is misread. (They are
    refused today: the row of buttons a few pixels above the board falls in the strip the
    whole-board check looks at beyond a 50 px cell's side, and its text varies like cells.)"""
    skins = tune_game("xbomb", tmp_path, Recipe("expert-mid", ("expert-fresh",)),
                      ("xbomb-sizes/easy-mid",))  # fmt: skip
    alone = read_fixtures("xbomb", skins)
    assert len(alone.names("exact")) == 7 and alone.names("misread") == [], alone.results
    easy = read_fixtures("xbomb", skins, folder="xbomb-sizes")
    assert easy.names("misread") == [], easy.results
