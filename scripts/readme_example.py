"""Runs every ```python block of a Markdown file in order, in one namespace. (Under a main guard:
Dask's worker processes, which rl.sweep starts, import the main module.)"""

import re
import sys
from pathlib import Path


def main() -> None:
    text = Path(sys.argv[1]).read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    if not blocks:
        sys.exit(f"no python example found in {sys.argv[1]}")
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, sys.argv[1], "exec"), namespace)


if __name__ == "__main__":
    main()
