#!/usr/bin/env bash
# Sets everything up and runs the whole test suite: Rust tests, Python tests, the built wheel
# installed into a clean virtualenv running the documentation's examples, and the documentation
# site built strictly.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
scripts/setup.sh --test
echo "== gates: rustfmt, clippy, ruff, stubtest"
scripts/lint.sh
echo "== cargo test"
cargo test --quiet --workspace --features viewer
echo "== pytest"
.venv/bin/python -m pytest -q
echo "== wheel in a clean virtualenv"
scripts/check_wheel.sh
echo "== docs site (strict)"
SKIP_SETUP=1 scripts/docs.sh
echo "all tests passed in $(( $(date +%s) - start )) s"
