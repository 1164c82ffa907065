#!/usr/bin/env bash
# The test command: sets everything up (apt packages and the project's .venv, see bot/setup.sh;
# the packages of tests/apt-packages.txt too, the games only the tests play), then runs the whole
# suite with the venv's python, the end-to-end games included. Extra arguments go to pytest,
# e.g. `-m "not e2e"` for units only.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="$(bash "$root/bot/setup.sh" "$root/tests/apt-packages.txt")"
cd "$root"
exec "$python" -m pytest "$@"
