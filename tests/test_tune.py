"""minebot tune learns xbomb (a game minebot does not ship) from three screenshots and the
text board of one, and the skin it writes reads the xbomb fixtures exactly.

Fixtures (tests/fixtures_tune/xbomb/, captured by capture_xbomb.py from the real game):
fresh.png (new 30x16 game), click1.png (after the first click), mid.png (flags and more
numbers), lost.png (a loss: every mine shown, the opened area outlined in green),
lost-green.png and seven.png (from live play: a loss inside the green outline; the board
where the bot met its first 7 and stopped), each with its text board NAME.txt.
xbomb.groups.txt is the groups file a person filled in from the contact sheets when tuning
from mid.png (labelled), lost.png and seven.png.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from bot.errors import TuneError
from bot.reading.tune import check_skin_name, tune
from bot.reading.tune_cells import group_cells, inset_for, load_shot
from bot.reading.tune_names import name_groups, parse_class, read_groups_file

XBOMB = Path(__file__).parent / "fixtures_tune" / "xbomb"


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A copy of the xbomb screenshots, groups file and program.json, without text boards
    (tune writes its groups file beside the screenshots; tests give labels with label())."""
    folder = tmp_path / "shots"
    shutil.copytree(XBOMB, folder, ignore=shutil.ignore_patterns("*.txt"))
    shutil.copy(XBOMB / "xbomb.groups.txt", folder)
    return folder


def label(work: Path, *names: str) -> None:
    """Give these screenshots their text boards (the fixtures' NAME.txt) for tuning."""
    for name in names:
        shutil.copy(XBOMB / f"{name}.txt", work / f"{name}.txt")


def read_with(skin_dir: Path, name: str, image: Path) -> str:
    import cv2

    from bot.reading.read import read_image
    from bot.reading.skins import find_skin

    skin = find_skin(name, dirs=[skin_dir])
    return str(read_image(cv2.imread(str(image)), [skin]).board)


def expected(path: Path) -> str:
    return path.read_text(encoding="utf-8").strip("\n")


def test_xbomb_from_three_screenshots_and_one_text_board(work: Path, tmp_path: Path) -> None:
    label(work, "click1")
    out = tmp_path / "skins"
    shots = [work / "fresh.png", work / "click1.png", work / "mid.png"]
    groups_file = work / "xbomb-test.groups.txt"  # first run: nobody has named the flag yet

    first = tune(shots, "xbomb-test", out=out, levels=[(30, 16, 99)])
    assert first.folder is None and not (out / "xbomb-test").exists()
    assert [len(g.samples) for g in first.unnamed] == [6]  # the six flags of mid.png
    assert first.sheet is not None and first.sheet.is_file()
    lines = [ln for ln in groups_file.read_text().splitlines() if ln.startswith("g")]
    assert len(lines) == 1 and lines[0].split()[2:4] == ["=", "?"]

    # The user writes the class after '=' and runs the same command again.
    groups_file.write_text(groups_file.read_text().replace("= ?", "= flag"))
    second = tune(shots, "xbomb-test", out=out, levels=[(30, 16, 99)], restart={"key": "s"})
    assert second.folder == out / "xbomb-test"
    assert (second.folder / "skin.json").is_file()
    report = {r.name: r for r in second.reports}
    assert set(report) == {"covered", "0", "1", "2", "3", "flag"}
    covered = (
        480 + expected(XBOMB / "click1.txt").count(".") + expected(XBOMB / "mid.txt").count(".")
    )
    assert report["covered"].samples == covered
    assert report["flag"].samples == 6
    assert all(r.worst_margin > 0.05 for r in second.reports)
    assert "4" in second.missing and "mine" in second.missing

    # The skin reads every xbomb fixture exactly, including the one it was not told about.
    for name in ("click1", "mid"):
        want = expected(XBOMB / f"{name}.txt")
        assert read_with(out, "xbomb-test", work / f"{name}.png") == want
    assert read_with(out, "xbomb-test", work / "fresh.png") == "\n".join(["." * 30] * 16)


def test_full_xbomb_skin_reads_every_fixture_and_lost_boards(work: Path, tmp_path: Path) -> None:
    """mid.png with its text board; lost.png and seven.png (a live game that stopped at its
    first 7) with the groups file a person filled in from the contact sheets: 3 screenshots,
    1 text board. lost.txt and lost-green.txt (a loss in live play, nearly every cell inside
    xbomb's green outline) were checked without the reader: 99 mines shown, every number
    equal to its count of neighbouring mines."""
    from solver.board import Board

    label(work, "mid")
    out = tmp_path / "skins"
    shots = [work / "mid.png", work / "lost.png", work / "seven.png"]
    result = tune(shots, "xbomb-full", out=out, groups_file=work / "xbomb.groups.txt",
                  program=work / "program.json")  # fmt: skip
    assert result.folder is not None and (result.folder / "program.json").is_file()
    assert result.missing == ["8", "question", "exploded", "wrong_flag"]
    for name in ("click1", "mid", "lost", "lost-green", "seven"):
        assert read_with(out, "xbomb-full", work / f"{name}.png") == expected(XBOMB / f"{name}.txt")
    assert read_with(out, "xbomb-full", work / "fresh.png") == "\n".join(["." * 30] * 16)
    for name in ("lost", "lost-green"):
        lost = Board(expected(XBOMB / f"{name}.txt"))
        assert lost.known_mines() == 99
        for (x, y), ch in lost.items():
            if ch.isdigit():
                assert int(ch) == sum(lost[p] == "*" for p in lost.neighbours(x, y))
    # xbomb outlines the opened area in green after a loss: every class also gets the
    # grid-line looks seen on the lost board, '7' included although no green '7' was seen.
    derived = {g.name for g in result.derived}
    assert {"4", "5", "6", "7"} <= derived


def test_line_colours_are_given_to_every_class(work: Path, tmp_path: Path) -> None:
    import cv2

    label(work, "mid")
    out = tmp_path / "skins"
    shots = [work / "fresh.png", work / "mid.png", work / "lost.png"]
    tune(shots, "xb", out=out, groups_file=work / "xbomb.groups.txt")
    # Paint a green outline (as xbomb draws it after a loss) around a '4' of lost.png.
    image = cv2.imread(str(work / "lost.png"))
    board = expected(XBOMB / "lost.txt").splitlines()
    x, y = next((x, y) for y, row in enumerate(board) for x, ch in enumerate(row) if ch == "4")
    gx, gy = 5 + 20 * 13, 28 + 20 * 4  # cell (13, 4): a '1' inside the green outline
    assert (image[gy + 1, gx + 5] == (0, 255, 0)).all()
    x0, y0 = 5 + 20 * x, 28 + 20 * y
    image[y0 : y0 + 2, x0 : x0 + 20] = image[gy : gy + 2, gx : gx + 20]
    image[y0 : y0 + 20, x0 : x0 + 2] = image[gy : gy + 20, gx : gx + 2]
    painted = work / "painted.png"
    cv2.imwrite(str(painted), image)
    assert read_with(out, "xb", painted) == expected(XBOMB / "lost.txt")


def test_replay_command_uses_the_tuned_skin(
    work: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    from bot.cli import main

    out = tmp_path / "skins"
    label(work, "mid")
    shots = [str(work / n) for n in ("fresh.png", "mid.png", "lost.png")]
    args = ["tune", *shots, "--name", "xb", "--out", str(out), "--level", "30x16n99",
            "--groups", str(work / "xbomb.groups.txt"), "--restart-key", "s"]  # fmt: skip
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "labels from mid.txt" in printed and "worst margin" in printed
    monkeypatch.setenv("MINEBOT_SKINS", str(out))
    for name in ("click1", "mid", "lost"):
        assert main(["replay", str(work / f"{name}.png"), "--skin", "xb", "--expect",
                     str(XBOMB / f"{name}.txt")]) == 0  # fmt: skip


def test_fresh_board_alone_is_not_enough(tmp_path: Path) -> None:
    shutil.copy(XBOMB / "fresh.png", tmp_path / "fresh.png")
    with pytest.raises(TuneError, match="'0': capture a board after a click"):
        tune([tmp_path / "fresh.png"], "xb", out=tmp_path / "skins")


def test_screenshot_without_a_board(tmp_path: Path) -> None:
    import cv2

    blank = tmp_path / "desktop.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), (90, 60, 30), np.uint8))
    with pytest.raises(TuneError, match="no board found.*capture the game window"):
        tune([blank], "xb", out=tmp_path / "skins")


def test_text_board_of_the_wrong_size(tmp_path: Path) -> None:
    shutil.copy(XBOMB / "click1.png", tmp_path / "click1.png")
    (tmp_path / "click1.txt").write_text("\n".join(["." * 9] * 9) + "\n")
    with pytest.raises(TuneError, match="9x9 board but .* shows 30x16 cells") as err:
        load_shot(tmp_path / "click1.png")
    assert "21 more columns found" in str(err.value) and "7 more rows found" in str(err.value)
    (tmp_path / "click1.txt").write_text("\n".join(["." * 30] * 17) + "\n")
    with pytest.raises(TuneError, match="the columns agree; 1 fewer row found"):
        load_shot(tmp_path / "click1.png")


def test_mislabelled_cells_split_and_show_as_too_alike(work: Path, tmp_path: Path) -> None:
    # A covered cell labelled '1' in the text board: the labels win, and the report shows
    # that class '1' now has a variant looking like a covered cell.
    rows = expected(XBOMB / "mid.txt").splitlines()
    rows[0] = "1" + rows[0][1:]
    (work / "mid.txt").write_text("\n".join(rows) + "\n")
    shots = [work / "fresh.png", work / "mid.png", work / "lost.png"]
    result = tune(shots, "xb", out=tmp_path, groups_file=work / "xbomb.groups.txt")
    report = {r.name: r for r in result.reports}
    assert report["1"].variants >= 2
    assert report["covered"].worst_margin <= 0  # a covered cell reads as well as a '1'
    assert report["covered"].alike > 0.97


def test_grouping_is_by_look_and_names_come_from_labels() -> None:
    shots = [load_shot(XBOMB / "click1.png")]
    size = (20, 20)
    groups = name_groups(group_cells(shots, size, inset_for(size)), shots)
    names = sorted((g.name, len(g.samples)) for g in groups)
    text = expected(XBOMB / "click1.txt")
    counts = {ch: text.count(ch) for ch in set(text) - {"\n"}}
    want = sorted(({".": "covered"}.get(ch, ch), n) for ch, n in counts.items())
    assert names == want


@pytest.mark.parametrize("bad", ["", "a b", "../x", "x/y", "skin.json", "é"])
def test_skin_names_must_be_plain(bad: str) -> None:
    with pytest.raises(TuneError, match="not a plain name"):
        check_skin_name(bad)


def test_shipped_skin_names_are_refused(tmp_path: Path) -> None:
    assert check_skin_name("my-xbomb_2") == "my-xbomb_2"
    with pytest.raises(TuneError, match="ships"):
        tune([XBOMB / "fresh.png"], "xdemineur", out=tmp_path)


def test_groups_file_parsing(tmp_path: Path) -> None:
    path = tmp_path / "g.txt"
    path.write_text("# comment\ng1 abc = F   # six cells\ng2 def = ?\ng3 012 = 3\ng4 x = ignore\n")
    assert read_groups_file(path) == {"abc": "flag", "012": "3", "x": "ignore"}
    path.write_text("g1 abc = banana\n")
    with pytest.raises(TuneError, match="g.txt:1: 'banana' is not a cell class"):
        read_groups_file(path)
    assert parse_class(".") == "covered"


def test_hover_highlight_is_a_group_of_its_own() -> None:
    # gnome-mines draws the covered cell under the pointer lighter: on this fresh board the
    # pointer rests on cell (18, 12). The fresh-board rule names the covered cells, but not
    # that one: it goes to the contact sheet (or a text board names it as a covered variant).
    shots = [load_shot(XBOMB.parent / "lattice" / "gnome-mines-hover.png")]
    groups = name_groups(group_cells(shots, (33, 33), 0), shots)
    covered = next(g for g in groups if g.name == "covered")
    hover = next(g for g in groups if any((s.x, s.y) == (18, 12) for s in g.samples))
    assert hover is not covered and hover.name is None and len(hover.samples) == 1
    assert len(covered.samples) >= 470


FIXTURES = Path(__file__).parent / "fixtures"
# game -> (levels, screenshots to tune from, the ones whose text board is given)
SHIPPED = {
    "xdemineur": (
        [(16, 16, 40), (30, 16, 99)],
        ["expert-fresh", "intermediate-lost", "expert-won"],
        ["intermediate-lost"],
    ),
    "sgt-mines": (
        [(9, 9, 10), (16, 16, 40), (30, 16, 99)],
        # custom17-eight is the only picture with an 8, so the skin must learn from it too.
        ["expert-fresh", "expert-lost", "expert-won", "custom17-eight"],
        ["expert-lost", "expert-won", "custom17-eight"],
    ),
}


@pytest.mark.parametrize("game", sorted(SHIPPED))
def test_shipped_game_tuned_from_scratch_reads_all_its_fixtures(game: str, tmp_path: Path) -> None:
    """A shipped game learnt again from three of the reader's fixtures (no shipped skin
    involved) must read every fixture of that game exactly as the shipped skin does."""
    import cv2

    from bot.reading.read import read_image
    from bot.reading.skins import find_skin

    folder = FIXTURES / game
    levels, names, labelled = SHIPPED[game]
    if not all((folder / f"{n}.png").is_file() for n in names):
        pytest.skip(f"the reader's fixtures for {game} are not here")
    for name in names:
        shutil.copy(folder / f"{name}.png", tmp_path / f"{name}.png")
        if name in labelled:
            shutil.copy(folder / f"{name}.txt", tmp_path / f"{name}.txt")
    result = tune([tmp_path / f"{n}.png" for n in names], f"{game}-again",
                  out=tmp_path / "skins", levels=levels)  # fmt: skip
    assert result.folder is not None, [g.samples[0] for g in result.unnamed]
    skin = find_skin(f"{game}-again", dirs=[tmp_path / "skins"])
    fixtures = sorted(folder.glob("*.png"))
    assert len(fixtures) >= 10
    for picture in fixtures:
        board = read_image(cv2.imread(str(picture)), [skin]).board
        assert str(board) == expected(picture.with_suffix(".txt")), picture.name


def test_rerun_replaces_a_tuned_skin_but_not_another(work: Path, tmp_path: Path) -> None:
    label(work, "mid")
    out = tmp_path / "skins"
    shots = [work / "fresh.png", work / "mid.png", work / "lost.png"]
    groups = work / "xbomb.groups.txt"
    first = tune(shots, "xb", out=out, groups_file=groups)
    assert first.folder is not None
    # A class image an earlier run wrote (a variant this run does not make) goes; another
    # picture in the folder (a restart button's) stays.
    (first.folder / "flag-5.png").write_bytes(b"old")
    (first.folder / "button.png").write_bytes(b"mine")
    tune(shots, "xb", out=out, groups_file=groups)
    assert not (first.folder / "flag-5.png").exists()
    assert (first.folder / "button.png").read_bytes() == b"mine"
    other = out / "handmade"
    other.mkdir()
    (other / "skin.json").write_text('{"name": "handmade", "source": "drawn by hand"}')
    with pytest.raises(TuneError, match="did not make"):
        tune(shots, "handmade", out=out, groups_file=groups)


@pytest.mark.e2e
def test_tuned_xbomb_plays_live_without_misreads(tmp_path: Path) -> None:
    """The skin learnt from the fixtures plays the real xbomb under Xvfb (the first free
    display from :100)."""
    import importlib.util

    if not Path("/usr/games/xbomb").exists():
        pytest.skip("xbomb is not installed (apt-get install xbomb)")
    # The fixtures show xbomb's digits in the core X fonts: without them it draws a fallback font.
    if not Path("/usr/share/fonts/X11/misc/fonts.dir").exists():
        pytest.fail("xfonts-base is not installed (bash bot/setup.sh installs it)")
    spec = importlib.util.spec_from_file_location(
        "play_xbomb", Path(__file__).parent / "fixtures_tune" / "play_xbomb.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    summary = module.play_tuned_xbomb(3, tmp_path, display=None, out=lambda line: None)
    assert summary.games == 3
    assert summary.as_dict()["misreads"] == 0 and summary.as_dict()["misclicks"] == 0


def test_scaled_desktop_captures(tmp_path: Path) -> None:
    import cv2

    from bot.reading.read import read_image
    from bot.reading.skins import find_skin

    fresh, mid = cv2.imread(str(XBOMB / "fresh.png")), cv2.imread(str(XBOMB / "mid.png"))
    # 133%: a fractional pitch (26.6 px) cannot be learnt; the error says what to capture.
    cv2.imwrite(str(tmp_path / "f133.png"), cv2.resize(fresh, None, fx=1.33, fy=1.33))
    with pytest.raises(TuneError, match=r"26\.\d+ px apart.*capture the game at 100%"):
        tune([tmp_path / "f133.png"], "xb", out=tmp_path / "skins")
    # 200%: every pixel doubled; learnt like any other skin, at 40 px.
    for name, image in (("f200", fresh), ("m200", mid)):
        big = cv2.resize(image, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)
        cv2.imwrite(str(tmp_path / f"{name}.png"), big)
    shutil.copy(XBOMB / "mid.txt", tmp_path / "m200.txt")
    result = tune([tmp_path / "f200.png", tmp_path / "m200.png"], "xb2", out=tmp_path / "skins")
    assert result.size == (40, 40)
    skin = find_skin("xb2", dirs=[tmp_path / "skins"])
    board = read_image(cv2.imread(str(tmp_path / "m200.png")), [skin]).board
    assert str(board) == expected(XBOMB / "mid.txt")


def test_rerun_keeps_the_names_already_given(work: Path, tmp_path: Path) -> None:
    # A screenshot with a class not seen before: only the new group is asked about.
    groups = work / "xbomb.groups.txt"
    lines = [ln for ln in groups.read_text().splitlines() if "seven.png" not in ln]
    groups.write_text("\n".join(lines) + "\n")
    label(work, "mid")
    shots = [work / "mid.png", work / "lost.png", work / "seven.png"]
    result = tune(shots, "xb", out=tmp_path / "skins", groups_file=groups)
    assert result.folder is None and len(result.unnamed) == 1
    text = groups.read_text()
    assert "= mine" in text and "= 6" in text  # the names given before are still there
    assert text.count("= ?") == 1 and "seven.png x=14 y=2" in text


def test_labelled_shots_are_read_back_as_replay_reads_them(tmp_path: Path) -> None:
    """Tune cuts cells from its own lattice; the skin must also read each labelled screenshot
    when the reader finds the board itself, as replay and play do. xbomb's, KMines' medium
    board (see-through empty cells over a grey window) and Wine's Minesweeper at beginner
    (its black header four pixels above the board) read back; xbomb's screenshot cut two
    pixels past the board's right side is tuned (the lattice is all there) but not read back:
    tune says so, naming the screenshot."""
    import cv2

    fixtures = Path(__file__).parent / "fixtures"
    cases = (("xbomb", "expert-mid", 0), ("kmines", "medium-mid", 0),
             ("winemine", "beginner-mid", 0), ("xbomb", "expert-mid", 2))  # fmt: skip
    for game, name, cut in cases:
        shots = tmp_path / f"{game}-{cut}"
        shots.mkdir()
        shutil.copy(fixtures / game / f"{name}.txt", shots)
        image = cv2.imread(str(fixtures / game / f"{name}.png"))
        if cut:
            from bot.reading.lattice import find_lattice

            image = image[:, : find_lattice(image).box[2] + cut]
        cv2.imwrite(str(shots / f"{name}.png"), image)
        result = tune([shots / f"{name}.png"], f"t-{game}", out=tmp_path / f"skins-{cut}")
        assert [file for file, _ in result.unread] == ([f"{name}.png"] if cut else [])
        if cut:
            assert "runs off the right edge" in result.unread[0][1]
