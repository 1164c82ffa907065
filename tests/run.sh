#!/usr/bin/env bash
# The test command: sets everything up (apt packages and the project's .venv, see bot/setup.sh),
# then runs the whole suite with the venv's python, the end-to-end games included. Extra
# arguments go to pytest, e.g. `-m "not e2e"` for units only.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="$(bash "$root/bot/setup.sh")"
cd "$root"
exec "$python" -m pytest "$@"
