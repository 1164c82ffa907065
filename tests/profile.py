"""The test profile, as Hypothesis names them: ``ci`` (when ``CI=true``) runs every example and
every case; ``dev`` (otherwise) a sample, so the quick local run stays short.
``MINEBOT_TESTS=ci`` or ``dev`` picks one by hand."""

from __future__ import annotations

import os

_in_ci = os.environ.get("CI", "").lower() in ("true", "1", "yes")
PROFILE = os.environ.get("MINEBOT_TESTS", "ci" if _in_ci else "dev")
if PROFILE not in ("ci", "dev"):
    raise SystemExit(f"MINEBOT_TESTS={PROFILE!r}: use ci or dev")
EVERY_CASE = PROFILE == "ci"
