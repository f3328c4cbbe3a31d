"""The type stubs (_core.pyi) describe exactly what the compiled module exports, and every
public name has a docstring."""

import ast
from pathlib import Path

import pytest

import rigidlab
from rigidlab import _core

STUB = Path(rigidlab.__file__).with_name("_core.pyi")


def stub_classes() -> dict[str, set[str]]:
    tree = ast.parse(STUB.read_text())
    classes = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names = set()
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    names.add(item.target.id)
            classes[node.name] = names
    return classes


def public(cls: type) -> set[str]:
    return {n for n in dir(cls) if not n.startswith("_")}


@pytest.mark.parametrize("name", ["World", "Body"])
def test_stub_members_match_runtime(name):
    stubbed = {n for n in stub_classes()[name] if not n.startswith("_")}
    runtime = public(getattr(_core, name))
    assert stubbed == runtime, f"only in stub: {stubbed - runtime}, only at runtime: {runtime - stubbed}"


def test_stub_lists_every_exported_class():
    exported = {n for n in dir(_core) if not n.startswith("_") and isinstance(getattr(_core, n), type)}
    assert exported == set(stub_classes())


@pytest.mark.parametrize("name", ["World", "Body"])
def test_every_public_name_has_a_docstring(name):
    cls = getattr(_core, name)
    assert cls.__doc__
    missing = [n for n in public(cls) if not (getattr(cls, n).__doc__ or "").strip()]
    assert not missing, f"{name} members without a docstring: {missing}"
