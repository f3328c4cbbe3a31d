#!/usr/bin/env bash
# Builds the documentation site into site/ (open site/index.html): MkDocs Material, the API
# reference from the docstrings and stubs, the lab notebooks executed, the gallery's examples run
# for their pictures and the viewer's screenshots taken headless. Strict: a broken link, a missing
# reference, a failing example or notebook fails it. `scripts/docs.sh serve` previews it live.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
if [ "${SKIP_SETUP:-}" != 1 ]; then
    scripts/setup.sh --docs
fi
"$VENV/bin/python" -m pip install --quiet -r requirements-docs.txt
# requirements-docs.txt keeps MkDocs below 2.0, which the Material theme warns of at each build.
export NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true
start=$(date +%s)
if [ "${1:-}" = "serve" ]; then
    exec "$VENV/bin/mkdocs" serve
fi
"$VENV/bin/mkdocs" build --strict --clean --site-dir site
pages=$(find site -name index.html | wc -l)
echo "docs: $pages pages in site/, built in $(( $(date +%s) - start )) s"
