"""Shared fixtures. Tests under ``tests/e2e/`` are marked ``e2e`` automatically: they start
Xvfb and real game programs (``pytest -m "not e2e"`` runs only the fast unit tests).

Profiles (tests/profile.py): ``ci`` runs every example and case; ``dev`` fewer Hypothesis
examples, and of a picture test marked ``sample(k)`` about one case in ``k`` (the same ones
every run).
"""

from __future__ import annotations

import os
import shutil
import zlib
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.profile import PROFILE

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
settings.load_profile(PROFILE)


def pytest_report_header(config: pytest.Config) -> str:
    if PROFILE == "ci":
        return "minebot tests: profile ci (every case)"
    return "minebot tests: profile dev (a sample of the picture cases; MINEBOT_TESTS=ci: all)"


def _case_id(item: pytest.Item) -> str:
    """The parameters' part of a test's id: ``sgt-mines-1.25`` of ``test_x[sgt-mines-1.25]``."""
    return item.nodeid.split("[", 1)[1]


def _sampled_out(items: list[pytest.Item]) -> list[pytest.Item]:
    """The cases of ``sample(k)`` tests the dev profile leaves out: those whose parameters' id
    hashes to a non-zero remainder mod k (spread over every parameter, the same on every xdist
    worker, and the same cases for tests of one module that share parameters), keeping at least
    one case of each test."""
    cases: dict[str, list[pytest.Item]] = defaultdict(list)
    for item in items:
        if item.get_closest_marker("sample") is not None and "[" in item.nodeid:
            cases[item.nodeid.split("[")[0]].append(item)
    left_out = []
    for group in cases.values():
        marker = group[0].get_closest_marker("sample")
        assert marker is not None
        k = int(marker.args[0])
        kept = [i for i in group if zlib.crc32(_case_id(i).encode()) % k == 0] or group[:1]
        left_out += [i for i in group if i not in kept]
    return left_out


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if E2E_DIR in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)
            # One worker runs every end-to-end test (pytest-xdist's loadgroup), so one Xvfb
            # screen serves them all while the other workers run the unit tests.
            item.add_marker(pytest.mark.xdist_group("e2e"))
    if PROFILE == "dev":
        left_out = set(_sampled_out(items))
        if left_out:
            config.hook.pytest_deselected(items=list(left_out))
            items[:] = [i for i in items if i not in left_out]


@pytest.fixture(scope="session")
def virtual_display():
    """One Xvfb screen (1280x1024, first free display from :100) for the whole session;
    ``DISPLAY`` points at it while the tests run."""
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb)")
    from bot.live.xvfb import VirtualDisplay

    with VirtualDisplay(size=(1280, 1024), first=100) as display:
        yield display
