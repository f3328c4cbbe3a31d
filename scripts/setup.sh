#!/usr/bin/env bash
# Sets up the project on a Debian machine with Rust and Python 3: a virtualenv (.venv) with the
# build and test tools, and rigidlab built in release mode and installed into it. With --test,
# also what the viewer's headless tests need (Xvfb and Mesa, from Debian); with --docs, what the
# docs build's screenshots need.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
VENV=${VENV:-.venv}

# Installs Debian packages, with sudo when not root, skipping those already present.
apt_install() {
    local missing=()
    for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "installing Debian packages: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
}

# The test suite runs the viewer headless (a virtual X server and software OpenGL, Mesa) and
# the notebook view in headless Chromium (and its driver for selenium); the docs build takes the
# viewer's screenshots under the same virtual X server.
case "${1:-}" in
    --test) apt_install xvfb xauth libgl1-mesa-dri libglx-mesa0 chromium chromium-driver ;;
    --docs) apt_install xvfb xauth libgl1-mesa-dri libglx-mesa0 ;;
esac

command -v cargo >/dev/null || { echo "cargo not found: install Rust first (https://rustup.rs)" >&2; exit 1; }
if ! "$PYTHON" -c "import venv, ensurepip" 2>/dev/null; then
    ver=$("$PYTHON" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
    apt_install "python${ver}-venv"
fi
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet -r requirements-dev.txt
echo "building rigidlab (release) into $VENV"
VIRTUAL_ENV="$PWD/$VENV" "$VENV/bin/maturin" develop --release --quiet
