#!/usr/bin/env bash
# The test command: sets everything up (apt packages and the project's .venv, see bot/setup.sh),
# then runs the whole suite with the venv's python, the end-to-end games included. Extra
# arguments go to pytest, e.g. `-m "not e2e"` for units only. The packages of
# tests/apt-packages.txt (games only the end-to-end tests play) are installed only when the
# tests asked for include an end-to-end one, so a unit run installs no game.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="$(bash "$root/bot/setup.sh")"
cd "$root"
# Collected, not run (about 5 s): the selected tests (ids, or with -v a tree); every end-to-end
# test lives in tests/e2e/. Arguments pytest refuses select nothing here and fail below, as given.
# (Into a variable first: `grep -q` stops reading at its first match, and under pipefail the
# collection's broken pipe would then make the test false.)
selected="$("$python" -m pytest --collect-only -q -n 0 "$@" 2>/dev/null || true)"
if grep -qE '^tests/e2e/|<Package e2e>' <<<"$selected"; then
    python="$(bash "$root/bot/setup.sh" "$root/tests/apt-packages.txt")"
fi
exec "$python" -m pytest "$@"
