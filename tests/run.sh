#!/usr/bin/env bash
# The test command: sets everything up (apt and pip), then runs the whole suite, the
# end-to-end games included. Extra arguments go to pytest, e.g. `-m "not e2e"` for units only.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/bot/setup.sh"
cd "$root"
exec "${PYTHON:-python3}" -m pytest "$@"
