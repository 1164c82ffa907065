"""Shared fixtures. Tests under ``tests/e2e/`` are marked ``e2e`` automatically: they start
Xvfb and real game programs (``pytest -m "not e2e"`` runs only the fast unit tests)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

E2E_DIR = Path(__file__).parent / "e2e"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if E2E_DIR in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def virtual_display():
    """One Xvfb screen (1280x1024, first free display from :100) for the whole session;
    ``DISPLAY`` points at it while the tests run."""
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb)")
    from bot.live.xvfb import VirtualDisplay

    with VirtualDisplay(size=(1280, 1024), first=100) as display:
        yield display
