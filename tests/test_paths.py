"""Where minebot's files are: shipped skins and data, and the user's skin folder per platform.

Windows and macOS cannot run here: their folders are checked with ``sys.platform`` switched, the
way platformdirs answers on each (on Windows the folder lookup needs the Windows API, so its
answer is given).
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from bot import paths
from bot.reading.skins import find_skin, skin_dirs
from bot.reading.tune import default_out, shipped_skins

WINDOWS_LOCAL_APPDATA = r"C:\Users\ann\AppData\Local"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh home folder, with no XDG setting and no extra skin folders."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.delenv("MINEBOT_SKINS", raising=False)
    return tmp_path


def test_linux_user_skins_default_to_local_share(home, monkeypatch):
    monkeypatch.setattr(sys, "platform", "linux")
    assert paths.user_skins_dir() == home / ".local" / "share" / "minebot" / "skins"


def test_linux_user_skins_honour_xdg_data_home(home, monkeypatch):
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    assert paths.user_skins_dir() == home / "data" / "minebot" / "skins"


def test_macos_user_skins_are_in_application_support(home, monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    expected = home / "Library" / "Application Support" / "minebot" / "skins"
    assert paths.user_skins_dir() == expected


def test_windows_user_skins_are_in_local_appdata(home, monkeypatch):
    import platformdirs.windows

    asked = []

    def known_folder(csidl_name: str) -> str:
        asked.append(csidl_name)
        return WINDOWS_LOCAL_APPDATA

    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(platformdirs.windows, "get_win_folder", known_folder)
    assert paths.user_skins_dir() == Path(WINDOWS_LOCAL_APPDATA) / "minebot" / "skins"
    assert set(asked) == {"CSIDL_LOCAL_APPDATA"}  # the local folder, not the roaming profile


@pytest.mark.parametrize("platform", ["linux", "darwin"])
def test_the_reader_and_tune_use_the_platform_folder(home, monkeypatch, platform):
    monkeypatch.setattr(sys, "platform", platform)
    user = paths.user_skins_dir()
    assert default_out() == user
    assert user not in skin_dirs()  # a folder that does not exist is left out
    folder = user / "my-skin"
    shutil.copytree(paths.shipped_skins_dir() / "winmine", folder)
    meta = json.loads((folder / "skin.json").read_text())
    (folder / "skin.json").write_text(json.dumps({**meta, "name": "my-skin"}))
    assert skin_dirs()[:2] == [paths.shipped_skins_dir(), user]
    assert find_skin("my-skin").folder == folder


def test_minebot_skins_still_adds_folders_after_the_user_folder(home, monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    paths.user_skins_dir().mkdir(parents=True)
    extra = tmp_path / "extra"
    extra.mkdir()
    monkeypatch.setenv("MINEBOT_SKINS", str(extra))
    assert skin_dirs() == [paths.shipped_skins_dir(), paths.user_skins_dir(), extra]


def test_shipped_skins_and_data_are_found():
    games = {"winmine", "xdemineur", "sgt-mines", "gnome-mines"}
    assert games <= set(shipped_skins())
    assert all((paths.shipped_skins_dir() / name / "skin.json").is_file() for name in games)
    assert paths.data_file("super-board-of-death.txt").read_text().count("\n") >= 16


def test_an_installed_package_carries_its_skins_inside(tmp_path, monkeypatch):
    # A wheel puts templates/ inside the package: that copy wins over anything beside it.
    package = tmp_path / "site-packages" / "bot"
    (package / "templates" / "winmine").mkdir(parents=True)
    (tmp_path / "site-packages" / "templates").mkdir()
    monkeypatch.setattr(paths, "package_root", lambda: package)
    assert paths.shipped_skins_dir() == package / "templates"
    assert paths.data_file("x.txt") == package / "data" / "x.txt"


def test_every_shipped_skin_file_is_in_the_packages_data():
    """A wheel carries exactly the files pyproject's package-data lists: a skin's subfolder
    (cells drawn at other sizes) left out made an installed minebot stop at that skin."""
    import fnmatch

    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    root = Path(__file__).resolve().parents[1]
    with (root / "pyproject.toml").open("rb") as fh:
        patterns = tomllib.load(fh)["tool"]["setuptools"]["package-data"]["bot.templates"]
    templates = root / "templates"
    missing = []
    for path in sorted(p for p in templates.rglob("*") if p.is_file()):
        parts = path.relative_to(templates).parts
        if not any(
            len(pattern.split("/")) == len(parts)
            and all(fnmatch.fnmatch(a, b) for a, b in zip(parts, pattern.split("/"), strict=True))
            for pattern in patterns
        ):
            missing.append("/".join(parts))
    assert missing == []
