"""Shared fixtures. Tests under ``tests/e2e/`` are marked ``e2e`` automatically: they start
Xvfb and real game programs (``pytest -m "not e2e"`` runs only the fast unit tests).

Hypothesis profiles: ``ci`` (the full count, chosen when ``CI=true``) and ``dev`` (fewer
examples, so the quick local run stays short); ``HYPOTHESIS_PROFILE=ci`` picks one by hand.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# As the minebot command runs (bot/cli.py): BLAS on one thread. Here also because each
# pytest-xdist worker has a core of its own; numpy reads these when it is first imported (no
# import above brings it in).
for _variable in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

E2E_DIR = Path(__file__).parent / "e2e"

# The exact engine against brute force: small boards are cheap but thousands of them take
# seconds, and no example may time out on a loaded machine.
_PROPERTY_SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", max_examples=3000, **_PROPERTY_SETTINGS)
settings.register_profile("dev", max_examples=300, **_PROPERTY_SETTINGS)
_in_ci = os.environ.get("CI", "").lower() in ("true", "1", "yes")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if _in_ci else "dev"))


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if E2E_DIR in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)
            # One worker runs every end-to-end test (pytest-xdist's loadgroup), so one Xvfb
            # screen serves them all while the other workers run the unit tests.
            item.add_marker(pytest.mark.xdist_group("e2e"))


@pytest.fixture(scope="session")
def virtual_display():
    """One Xvfb screen (1280x1024, first free display from :100) for the whole session;
    ``DISPLAY`` points at it while the tests run."""
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb)")
    from bot.live.xvfb import VirtualDisplay

    with VirtualDisplay(size=(1280, 1024), first=100) as display:
        yield display
