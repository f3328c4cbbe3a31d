"""The documentation's examples: every ```python block of each page of docs/ runs, the page's
blocks in order in one namespace (as a reader would paste them), and the site covers what it must:
each public name in the API reference, each concept a page."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
import rigidlab

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted(
    p for p in (ROOT / "docs").rglob("*.md") if re.search(r"^```python$", p.read_text(), re.M)
)


def test_the_pages_have_examples():
    assert len(PAGES) >= 10


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT / "docs")))
def test_page_examples_run(page, tmp_path):
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "readme_example.py"), str(page)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={"MPLBACKEND": "Agg", "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_reference_documents_every_public_name():
    gen = (ROOT / "docs" / "gen_pages.py").read_text()
    documented = set(re.findall(r'"rigidlab\.(\w+)"', gen))
    public = {n for n in rigidlab.__all__ if not n.startswith("_")}
    assert public <= documented, sorted(public - documented)


def test_the_concepts_the_site_explains_have_their_pages():
    nav = (ROOT / "mkdocs.yml").read_text()
    for page in re.findall(r"concepts/[\w-]+\.md", nav):
        assert (ROOT / "docs" / page).exists(), page
    for concept in (
        "Install",
        "Quick start",
        "Conventions",
        "Integrators",
        "Contacts and materials",
        "Sleeping",
        "2D worlds",
        "Collision control",
        "Time control",
        "Recording",
        "The viewer",
        "Sweeps",
        "Labs",
        "Gallery",
        "API reference",
        "Physics model and validation",
        "Benchmarks",
        "Changelog",
    ):
        assert concept.lower() in nav.lower(), concept
