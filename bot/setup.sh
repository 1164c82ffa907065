#!/usr/bin/env bash
# Installs everything minebot needs on a Debian/Ubuntu machine with only the system Python:
#  1. the apt packages listed in bot/apt-packages.txt, and in each package list given as an
#     argument (tests/run.sh adds tests/apt-packages.txt), only those missing; sudo unless root;
#  2. a project virtual environment, $MINEBOT_VENV (default .venv at the repository root), made
#     from the system Python (/usr/bin/python3, or $MINEBOT_PYTHON), remade if it is broken;
#  3. `pip install -e .[test]` into it, only when something is missing or pyproject.toml changed.
# Safe to run again; used by tests/run.sh, bot/demo.sh and CI. Prints the venv's python path on
# stdout (all messages go to stderr), so callers can run `"$(bash bot/setup.sh)" -m ...`.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${MINEBOT_VENV:-$root/.venv}"
if [ -n "${MINEBOT_PYTHON:-}" ]; then
    base="$MINEBOT_PYTHON"
elif [ -x /usr/bin/python3 ]; then
    base=/usr/bin/python3   # Debian's, whose python3-venv and python3-tk apt installs below
else
    base=python3
fi
say() { echo "minebot setup: $*" >&2; }

for list in "$@"; do
    [ -f "$list" ] || { say "no package list $list"; exit 2; }
done
mapfile -t wanted < <(cat "$root/bot/apt-packages.txt" "$@" | grep -v '^\s*#' | sed 's/\s*#.*//' \
    | grep -v '^\s*$')
# Every name an installed package answers to, its own and those it provides (Ubuntu 24.04's
# libglib2.0-0t64 provides libglib2.0-0).
have="$(dpkg-query -W -f='${Status}|${Package}, ${Provides}\n' 2>/dev/null \
    | sed -n 's/^install ok installed|//p' | sed 's/([^)]*)//g' | tr ',' '\n' | tr -d ' ')"
missing=()
for pkg in "${wanted[@]}"; do
    grep -Fxq "$pkg" <<<"$have" || missing+=("$pkg")
done
if ((${#missing[@]})); then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    say "apt-get install ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
fi

py="$venv/bin/python"
if ! "$py" -c "import pip" >/dev/null 2>&1; then
    if [ -f "$venv/pyvenv.cfg" ]; then
        say "$venv is broken (its python or pip does not run): making it again"
        rm -rf "$venv"
    elif [ -e "$venv" ]; then  # never delete a folder that is not a virtual environment
        say "$venv exists and is not a virtual environment: remove it or set MINEBOT_VENV"
        exit 2
    fi
    say "making the virtual environment $venv from $base"
    "$base" -m venv "$venv"
fi

# Installed means: pyproject.toml unchanged since the last install (the stamp holds its hash and
# the checkout it was installed from), every requirement minebot declares (the test extra too)
# present, and the `minebot` command running.
stamp="$venv/.minebot-installed"
want_stamp="$(sha256sum "$root/pyproject.toml" | cut -d' ' -f1) $root"
installed() {
    [ "$(cat "$stamp" 2>/dev/null)" = "$want_stamp" ] || return 1
    "$py" - <<'PY' >/dev/null 2>&1 || return 1
import re
from importlib.metadata import distribution, requires

for requirement in requires("minebot") or []:
    name, _, marker = requirement.partition(";")
    if "extra" in marker and '"test"' not in marker:
        continue
    distribution(re.split(r"[\s\[<>=!~(]", name.strip())[0])  # PackageNotFoundError if absent
PY
    "$venv/bin/minebot" --help >/dev/null 2>&1
}
if [ "${MINEBOT_REINSTALL:-0}" = 1 ] || ! installed; then
    say "pip install -e .[test] into $venv"
    "$py" -m pip install -q --disable-pip-version-check -e "$root[test]"
    echo "$want_stamp" >"$stamp"
    installed || { say "minebot is still not usable in $venv after pip install"; exit 1; }
fi
echo "$py"
