#!/usr/bin/env bash
# The code's gates, each failing the test command: Rust formatted (rustfmt.toml) and without
# clippy warnings in any target or feature; Python linted and formatted by ruff (pyproject.toml);
# the type stubs checked against the compiled module by mypy's stubtest, and the README, the
# docs' pages, the gallery, the notebooks and tests/typing type-checked by pyright against them. Needs the virtualenv that
# scripts/setup.sh makes.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
cargo fmt --all --check
cargo clippy --quiet --workspace --all-targets --features python,viewer -- -D warnings
"$VENV/bin/ruff" check --quiet .
"$VENV/bin/ruff" format --check --quiet .
# Classes are final (pyo3 classes cannot be subclassed), which makes PEP 800's disjoint-base
# marks moot.
"$VENV/bin/python" -m mypy.stubtest rigidlab._core --ignore-disjoint-bases \
    --allowlist python/stubtest-allowlist.txt
"$VENV/bin/python" scripts/check_types.py "$VENV"
