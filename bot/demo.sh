#!/usr/bin/env bash
# The main job on a fresh machine: sets everything up (apt packages and the project's .venv, see
# bot/setup.sh), then runs `minebot demo`, which starts a real game on a virtual display and
# plays it. Extra arguments go to the demo; the final screenshot lands in the current folder.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="$(bash "$root/bot/setup.sh")"
exec "$python" -m bot.cli demo "$@"
