#!/usr/bin/env bash
# The viewer's frame-time benchmark: sets up (with Xvfb and Mesa), then writes benchmarks/VIEWER.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
.venv/bin/python benchmarks/viewer_frames.py "$@"
