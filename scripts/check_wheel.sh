#!/usr/bin/env bash
# Builds the wheel, installs it (with the notebook and sweep extras) into a fresh virtualenv and
# runs the Python examples of the README and of the documentation's pages.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf dist
scripts/wheel.sh >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Its tag is what auditwheel (the manylinux checker) says it may be, and it carries the licence
# and the type marker.
.venv/bin/auditwheel show dist/*.whl > "$tmp/audit.txt"
grep -q 'consistent with the following platform tag:' "$tmp/audit.txt"
grep -q '"manylinux_2_17_x86_64"' "$tmp/audit.txt" || { cat "$tmp/audit.txt"; exit 1; }
.venv/bin/python - dist/*.whl <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
for wanted in ("/licenses/LICENSE", "rigidlab/py.typed", "rigidlab/_core.pyi", "rigidlab/webview.js"):
    assert any(n.endswith(wanted) for n in names), f"the wheel lacks {wanted}"
PY
"${PYTHON:-python3}" -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install --quiet "$(ls dist/*.whl)[notebook,sweep]"
# Run from elsewhere so the source tree's python/ cannot shadow the installed package.
for page in README.md $(grep -rl --include='*.md' '^```python$' docs); do
    (cd "$tmp" && "$tmp/venv/bin/python" "$OLDPWD/scripts/readme_example.py" "$OLDPWD/$page")
done
# The installed package's public types are complete for pyright (as an editor sees them).
if ! (cd "$tmp" && PATH="$tmp/venv/bin:$PATH" "$OLDPWD/.venv/bin/basedpyright" \
    --verifytypes rigidlab --ignoreexternal > "$tmp/verifytypes.txt"); then
    cat "$tmp/verifytypes.txt"
    exit 1
fi
grep "Type completeness score" "$tmp/verifytypes.txt"
# The viewer ships in the wheel: its console script runs the Rust viewer's command line.
# (Read whole: grep -q would stop reading at its match and leave the viewer writing to a
# closed pipe.)
"$tmp/venv/bin/rigidlab-view" --list-presets > "$tmp/presets.txt"
grep -q "Newton's cradle" "$tmp/presets.txt"
echo "wheel $(basename dist/*.whl) installs, runs the documentation's examples and has rigidlab-view"
