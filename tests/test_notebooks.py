"""Executes every lab notebook top to bottom, within a time limit; each ends with assertions on
its key numbers. The notebooks are kept without outputs."""

import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


#: Seconds a notebook may take, start to end.
LIMIT = 120


def test_there_are_the_twelve_labs():
    assert [p.name[:2] for p in NOTEBOOKS] == [f"{i:02d}" for i in range(1, 13)]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_kept_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(not c.outputs and c.execution_count is None for c in code), (
        "clear the notebook's outputs before committing it"
    )
    assert nb.cells[-1].cell_type == "code" and "assert" in nb.cells[-1].source, (
        "a lab ends with checks"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    start = time.monotonic()
    NotebookClient(
        nb, timeout=LIMIT, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    assert time.monotonic() - start < LIMIT, f"{path.name} took longer than {LIMIT} s"
