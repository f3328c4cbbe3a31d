#!/usr/bin/env bash
# The sweep benchmark: sets up, then writes benchmarks/SWEEP.md (rl.sweep on a LocalCluster of
# one worker per core against step_many alone on the same machine).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/python benchmarks/sweep_throughput.py "$@"
