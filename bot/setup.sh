#!/usr/bin/env bash
# Installs everything minebot needs on a Debian/Ubuntu machine: the apt packages listed in
# bot/apt-packages.txt (only those missing) and the Python package with its test extras.
# Safe to run again; used by tests/run.sh, bot/demo.sh and CI.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${PYTHON:-python3}"

mapfile -t wanted < <(grep -v '^\s*#' "$root/bot/apt-packages.txt" | grep -v '^\s*$')
missing=()
for pkg in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
        || missing+=("$pkg")
done
if ((${#missing[@]})); then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "minebot setup: apt-get install ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
fi

if ! "$python" -c "import bot, solver, cv2, mss, hypothesis, pytest" 2>/dev/null \
    || [ "${MINEBOT_REINSTALL:-0}" = 1 ]; then
    echo "minebot setup: pip install -e .[test]" >&2
    "$python" -m pip install -q --disable-pip-version-check -e "$root[test]"
fi
