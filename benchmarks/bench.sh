#!/usr/bin/env bash
# The benchmark suite: its own virtualenv (benchmarks/.venv) with the peers from PyPI and the
# rigidlab wheel built from this tree, then benchmarks/run.py (arguments are passed on).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
VENV=benchmarks/.venv
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet -r benchmarks/requirements.txt
scripts/wheel.sh >/dev/null
"$VENV/bin/python" -m pip install --quiet --force-reinstall --no-deps dist/rigidlab-*.whl
cd benchmarks && exec .venv/bin/python run.py "$@"
