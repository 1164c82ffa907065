"""Skins are data: folders of cell images plus skin.json, with clear errors for broken ones."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.errors import SkinFormatError, UnknownSkinError
from bot.paths import shipped_skins_dir
from bot.reading.skins import CLASS_CHARS, find_skin, load_skin, load_skins, skin_dirs

SHIPPED = shipped_skins_dir()
GAME_SKINS = ("sgt-mines", "xdemineur", "winmine")


def test_shipped_skins_load_with_their_cells():
    skins = {s.name: s for s in load_skins([SHIPPED])}
    for name in GAME_SKINS:
        skin = skins[name]
        assert "covered" in skin.templates and "0" in skin.templates
        for cls, image in skin.variants:
            assert cls in CLASS_CHARS
            assert image.shape == (skin.pitch_y, skin.pitch_x, 3)


def test_every_template_of_a_skin_is_a_different_picture():
    for skin in load_skins([SHIPPED]):
        seen: dict[bytes, str] = {}
        for cls, image in skin.variants:
            key = image.tobytes()
            assert seen.get(key, cls) == cls, f"{skin.name}: {cls} and {seen[key]} are the same"
            seen[key] = cls


def test_level_mines_only_when_one_level_fits():
    skin = find_skin("winmine")
    assert skin.level_mines(16, 16) == 40
    assert skin.level_mines(9, 9) == 10
    assert skin.level_mines(20, 20) is None


def test_unknown_skin_names_the_known_ones():
    with pytest.raises(UnknownSkinError) as err:
        find_skin("minesweeper-3000")
    assert "minesweeper-3000" in str(err.value) and "xdemineur" in str(err.value)


def _copy_skin(tmp_path: Path, name: str = "winmine", new: str = "my-skin") -> Path:
    folder = tmp_path / new
    shutil.copytree(SHIPPED / name, folder)
    meta = json.loads((folder / "skin.json").read_text())
    meta["name"] = new
    (folder / "skin.json").write_text(json.dumps(meta))
    return folder


def test_adding_a_skin_is_adding_a_folder(tmp_path, monkeypatch):
    _copy_skin(tmp_path)
    monkeypatch.setenv("MINEBOT_SKINS", str(tmp_path))
    assert tmp_path in skin_dirs()
    skin = find_skin("my-skin")
    assert skin.folder == tmp_path / "my-skin"
    assert {s.name for s in load_skins()} >= {"my-skin", *GAME_SKINS}


def test_a_later_folder_overrides_a_skin_of_the_same_name(tmp_path):
    folder = _copy_skin(tmp_path, new="xdemineur")
    skins = {s.name: s for s in load_skins([SHIPPED, tmp_path])}
    assert skins["xdemineur"].folder == folder


def test_folder_without_skin_json_is_not_a_skin(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "program.json").write_text("{}")
    assert load_skins([tmp_path]) == []


@pytest.mark.parametrize(
    ("damage", "named"),
    [
        (lambda f: (f / "skin.json").write_text("{ not json"), "skin.json"),
        (lambda f: (f / "skin.json").write_text("[1, 2]"), "skin.json"),
        (lambda f: (f / "3.png").unlink(), "3.png"),
        (lambda f: (f / "3.png").write_bytes(b"not a png"), "3.png"),
        (lambda f: cv2.imwrite(str(f / "flag.png"), np.zeros((5, 7, 3), np.uint8)), "flag.png"),
        (lambda f: _edit(f, lambda m: m.pop("cell")), "skin.json"),
        (lambda f: _edit(f, lambda m: m["templates"].update(smiley="0.png")), "skin.json"),
        (lambda f: _edit(f, lambda m: m["templates"].pop("covered")), "skin.json"),
        (lambda f: _edit(f, lambda m: m["cell"].update(pitch=[2, 2])), "skin.json"),
    ],
)
def test_a_malformed_skin_names_the_file(tmp_path, damage, named):
    folder = _copy_skin(tmp_path)
    damage(folder)
    with pytest.raises(SkinFormatError) as err:
        load_skin(folder)
    assert str(folder / named) in str(err.value)


def _edit(folder: Path, change) -> None:
    meta = json.loads((folder / "skin.json").read_text())
    change(meta)
    (folder / "skin.json").write_text(json.dumps(meta))


def test_a_malformed_skin_stops_load_skins_with_its_name(tmp_path):
    folder = _copy_skin(tmp_path)
    (folder / "skin.json").write_text("{")
    with pytest.raises(SkinFormatError, match="my-skin"):
        load_skins([tmp_path])


@pytest.mark.parametrize(
    ("damage", "named"),
    [
        (lambda f: (f / "counter-7.png").unlink(), "counter-7.png"),
        (lambda f: _edit(f, lambda m: m["counter"].update(reads="(?P<mines>")), "skin.json"),
        (lambda f: _edit(f, lambda m: m["counter"].update(reads="\\d+")), "skin.json"),
        (lambda f: _edit(f, lambda m: m["counter"].update(box=[1, 2])), "skin.json"),
    ],
)
def test_a_malformed_counter_names_the_file(tmp_path, damage, named):
    folder = _copy_skin(tmp_path, name="gnome-mines")
    damage(folder)
    with pytest.raises(SkinFormatError) as err:
        load_skin(folder)
    assert str(folder / named) in str(err.value)


@pytest.mark.parametrize(
    ("change", "names"),
    [
        (lambda m: m.update(colour="grey"), ["top level", "'colour'"]),
        (lambda m: m["match"].update(tolerence=9), ["match", "'tolerence'", "tolerance"]),
        (lambda m: m["match"].update(tolerance="high"), ["match.tolerance", "'high'"]),
        (lambda m: m["match"].update(min_confidence=1.5), ["match.min_confidence", "1.5"]),
        (lambda m: m["cell"].update(pitch=[16]), ["cell.pitch"]),
        (lambda m: m["templates"].update(smiley="smiley.png"), ["templates", "'smiley'"]),
        (lambda m: m["levels"][0].update(mines=-1), ["levels.0.mines", "-1"]),
        (lambda m: m["restart"]["click"].update(y_ofset=-26), ["restart.click", "'y_ofset'"]),
        (lambda m: m.pop("cell"), ["top level", "'cell'"]),
        (
            lambda m: m["match"].update(class_tolerance={"mines": 30}),
            ["class_tolerance", "'mines'"],
        ),
        (lambda m: m["match"].update(class_tolerance={"mine": 300}), ["class_tolerance", "300"]),
        (lambda m: m["cell"].update(stretch_from="nearer"), ["cell.stretch_from", "'nearer'"]),
    ],
)
def test_skin_json_is_checked_against_the_schema_naming_file_and_key(tmp_path, change, names):
    """An unknown key or a bad value is a SkinFormatError naming skin.json and the key."""
    folder = _copy_skin(tmp_path)
    meta = json.loads((folder / "skin.json").read_text())
    change(meta)
    (folder / "skin.json").write_text(json.dumps(meta))
    with pytest.raises(SkinFormatError) as err:
        load_skin(folder)
    message = str(err.value)
    assert message.startswith(str(folder / "skin.json") + ": "), message
    for name in names:
        assert name in message, message


def test_every_shipped_skin_json_follows_the_schema():
    from bot.reading.skin_schema import check_skin_meta
    from bot.reading.skins import SKIN_FILE

    folders = [p.parent for p in SHIPPED.glob(f"*/{SKIN_FILE}")]
    assert len(folders) >= 4
    for folder in folders:
        check_skin_meta(json.loads((folder / SKIN_FILE).read_text()), folder / SKIN_FILE)


def test_a_class_with_a_tolerance_of_its_own_is_matched_with_it(tmp_path):
    """``match.class_tolerance``: that class's images take its tolerance in the reader's
    bank; every other class keeps the skin's."""
    from bot.reading.banks import template_bank

    folder = _copy_skin(tmp_path)
    meta = json.loads((folder / "skin.json").read_text())
    meta["match"]["class_tolerance"] = {"mine": meta["match"]["tolerance"] + 9}
    (folder / "skin.json").write_text(json.dumps(meta))
    skin = load_skin(folder)
    bank = template_bank(skin, 1.0, 1.0, 1)
    shown = bank.mask
    assert "mine" in bank.classes
    for k, cls in enumerate(bank.classes):
        tol = bank.tol[bank.starts[k] : bank.starts[k + 1]][:, shown]
        want = skin.tolerance + 9 if cls == "mine" else skin.tolerance
        assert (tol == want).all(), cls
