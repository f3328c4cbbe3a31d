"""Runs every ```python block of a Markdown file in order, in one namespace."""

import re
import sys
from pathlib import Path

text = Path(sys.argv[1]).read_text()
blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
if not blocks:
    sys.exit(f"no python example found in {sys.argv[1]}")
namespace: dict = {}
for block in blocks:
    exec(compile(block, sys.argv[1], "exec"), namespace)
