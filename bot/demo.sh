#!/usr/bin/env bash
# The main job on a fresh machine: sets everything up (apt and pip), then runs `minebot demo`,
# which starts a real game on a virtual display and plays it. Extra arguments go to the demo.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/bot/setup.sh"
cd "$root"
exec "${PYTHON:-python3}" -m bot.cli demo "$@"
