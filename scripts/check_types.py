"""Type-checks what users write against rigidlab's types, with pyright (basedpyright, from
PyPI): every ```python block of the README (in order, as one script), the code cells of every
lab notebook, and tests/typing/. Errors only; each file must have none: no cast or ignore
should be needed to use rigidlab as its documentation does."""

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

root = Path(__file__).resolve().parent.parent
venv = Path(sys.argv[1]).absolute() if len(sys.argv) > 1 else root / ".venv"
with tempfile.TemporaryDirectory() as tmp:
    out = Path(tmp)
    blocks = re.findall(r"```python\n(.*?)```", (root / "README.md").read_text(), flags=re.S)
    (out / "readme.py").write_text("\n".join(blocks))
    for notebook in sorted((root / "notebooks").glob("*.ipynb")):
        cells = json.loads(notebook.read_text())["cells"]
        code = "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        # Shell and magic lines (%pip install ...) are IPython's, not Python: a pass in their place.
        lines = [
            line[: len(line) - len(line.lstrip())] + "pass"
            if line.lstrip().startswith(("%", "!"))
            else line
            for line in code.splitlines()
        ]
        (out / f"{notebook.stem}.py").write_text("\n".join(lines) + "\n")
    for typed in sorted((root / "tests" / "typing").glob("*.py")):
        (out / typed.name).write_text(typed.read_text())
    result = subprocess.run(
        [
            str(venv / "bin" / "basedpyright"),
            "--pythonpath",
            str(venv / "bin" / "python"),
            "--level",
            "error",
            str(out),
        ],
        cwd=tmp,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        sys.exit(result.stdout + result.stderr)
    print(
        f"types: the README, {len(list((root / 'notebooks').glob('*.ipynb')))} notebooks and tests/typing check"
    )
