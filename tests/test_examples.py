"""The gallery's examples (examples/gallery/*.py): each runs as a script, checks what it measured
against theory with its own assertions, and ends with its picture, which the docs show."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples" / "gallery").glob("*.py"))


def test_the_gallery_has_an_example_per_feature():
    assert len(EXAMPLES) >= 25


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda p: p.stem)
def test_example_runs_and_draws_its_picture(script, tmp_path):
    doc = ast.get_docstring(ast.parse(script.read_text()))
    assert doc and "\n\n" in doc, "an example starts with a title line, a blank line, a summary"
    assert "assert" in script.read_text(), "an example checks what it measured"
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "run_example.py"), str(script), "--out", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip(), "an example prints what it measured"
    pictures = list(tmp_path.glob("*.png"))
    assert [p.name for p in pictures] == [script.stem + ".png"], "one figure an example"
    assert pictures[0].stat().st_size > 10_000
