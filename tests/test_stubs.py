"""The type stubs (_core.pyi) describe exactly what the compiled module exports, and every
public name has a docstring. Private stub classes (keyword-option TypedDicts) and the
TypedDicts of results exist only for type checkers."""

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
        if not isinstance(node, ast.ClassDef) or node.name.startswith("_"):
            continue
        # TypedDicts name the dicts results come as, for type checkers only.
        if not any(isinstance(b, ast.Name) and b.id == "TypedDict" for b in node.bases):
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


@pytest.mark.parametrize(
    "name", ["World", "Body", "Spring", "Joint", "Load", "Recording", "Snapshot"]
)
def test_stub_members_match_runtime(name):
    stubbed = {n for n in stub_classes()[name] if not n.startswith("_")}
    runtime = public(getattr(_core, name))
    assert stubbed == runtime, (
        f"only in stub: {stubbed - runtime}, only at runtime: {runtime - stubbed}"
    )


def test_stub_lists_every_exported_class():
    exported = {
        n for n in dir(_core) if not n.startswith("_") and isinstance(getattr(_core, n), type)
    }
    assert exported == set(stub_classes())


@pytest.mark.parametrize(
    "name", ["World", "Body", "Spring", "Joint", "Load", "Recording", "Snapshot"]
)
def test_every_public_name_has_a_docstring(name):
    cls = getattr(_core, name)
    assert cls.__doc__
    missing = [n for n in public(cls) if not (getattr(cls, n).__doc__ or "").strip()]
    assert not missing, f"{name} members without a docstring: {missing}"


def test_stub_keyword_options_match_what_add_methods_accept():
    """Every keyword the stubs declare is accepted, and an undeclared one is refused."""
    tree = ast.parse(STUB.read_text())
    keys = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name.startswith("_"):
            base = [b.id for b in node.bases if isinstance(b, ast.Name) and b.id in keys]
            own = {i.target.id for i in node.body if isinstance(i, ast.AnnAssign)}
            keys[node.name] = own.union(*(keys[b] for b in base))
    w = rigidlab.World()
    plane = {k: None for k in keys["_PlaneOptions"] if k not in ("kind",)}
    w.add_plane(kind="static", **plane)
    solid = {k: None for k in keys["_SolidOptions"]}
    w.add_sphere(0.1, **solid)
    w.add_box((0.1, 0.1, 0.1), **solid)
    with pytest.raises(TypeError, match="mass"):
        w.add_plane(mass=1.0)
