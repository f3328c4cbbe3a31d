#!/usr/bin/env bash
# Builds the abi3 wheel (CPython >= 3.9) into dist/, for manylinux2014 (glibc 2.17: any Linux of
# the last decade, and hosted notebooks), linked with zig (ziglang, from PyPI) so that no
# manylinux container is needed.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/maturin ] || scripts/setup.sh
PATH="$PWD/.venv/bin:$PATH" .venv/bin/maturin build --release --quiet --zig \
    --compatibility manylinux2014 --out dist
ls dist/*.whl
