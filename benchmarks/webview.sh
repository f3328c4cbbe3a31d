#!/usr/bin/env bash
# The notebook view's benchmark: sets up (with headless Chromium), then writes
# benchmarks/WEBVIEW.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
.venv/bin/python benchmarks/webview_frames.py "$@"
