"""Type-checks what users write against rigidlab's types, with pyright (basedpyright, from
PyPI): every ```python block of the README and of each page of docs/ (a page's blocks in order,
as one script), the gallery's examples, the code cells of every lab notebook, and tests/typing/. Errors only; each file must have none: no cast or ignore
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
    pages = [root / "README.md", *sorted((root / "docs").rglob("*.md"))]
    for page in pages:
        blocks = re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.S)
        if blocks:
            name = "_".join(page.relative_to(root).with_suffix("").parts).replace("-", "_")
            (out / f"page_{name}.py").write_text("\n".join(blocks))
    for example in sorted((root / "examples" / "gallery").glob("*.py")):
        (out / f"gallery_{example.name}").write_text(example.read_text())
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
        "types: the README, the docs' pages, the gallery, "
        f"{len(list((root / 'notebooks').glob('*.ipynb')))} notebooks and tests/typing check"
    )
