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
# numpy's OpenBLAS keeps its threads spinning for a while after a call (4 to 6% of the perf
# samples of a process stepping rigidlab and measuring with numpy): on a 2-core machine
# they take a core from whichever engine runs on all of them (1 000 dropped cubes: 10.0 to 10.3
# ms a step on both cores without them, 10.4 to 10.6 with them). The benchmarks' arrays are
# small; one BLAS thread costs them nothing.
export OPENBLAS_NUM_THREADS=1
cd benchmarks && exec .venv/bin/python run.py "$@"
