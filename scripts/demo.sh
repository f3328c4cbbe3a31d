#!/usr/bin/env bash
# Sets everything up and runs the main job: the restitution lab (table + out/restitution.png).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/python examples/restitution_lab.py --out out/restitution.png "$@"
