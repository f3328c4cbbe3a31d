#!/usr/bin/env bash
# Builds the abi3 wheel (CPython >= 3.9) into dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/maturin ] || scripts/setup.sh
.venv/bin/maturin build --release --quiet --out dist
ls dist/*.whl
