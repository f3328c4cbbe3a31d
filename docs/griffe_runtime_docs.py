"""A griffe extension for the API reference: the compiled module's signatures and types come from
its stubs (rigidlab/_core.pyi), its docstrings from the module itself (pyo3 keeps them on the
objects at run time, where help() reads them), so neither is written twice. The stubs' own
docstrings are one-line summaries for editors; the module's are the whole text."""

import importlib
import inspect
from pathlib import Path
from typing import Any

import griffe


class RuntimeDocstrings(griffe.Extension):
    """Gives every object of a compiled module the docstring of the live object."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        for module in _modules(pkg):
            if Path(str(module.filepath)).suffix in (".pyi", ".so", ".pyd"):
                _fill(module, importlib.import_module(module.path))


def _modules(module: griffe.Module):
    yield module
    for member in module.modules.values():
        if not member.is_alias:
            yield from _modules(member)


def _fill(obj: griffe.Object, live: Any) -> None:
    for name, member in obj.members.items():
        if member.is_alias or not hasattr(live, name):
            continue
        value = inspect.getattr_static(live, name)
        doc = getattr(value, "__doc__", None)
        if (
            isinstance(doc, str)
            and doc.strip()
            and not (isinstance(value, type) and doc == type.__doc__)
        ):
            member.docstring = griffe.Docstring(inspect.cleandoc(doc), parent=member)
        if member.is_class:
            _construct_by_init(member)
            _fill(member, getattr(live, name))


def _construct_by_init(cls: griffe.Object) -> None:
    """pyo3 classes are made by __new__, which the stubs declare; the reference shows a class's
    signature and its Parameters from __init__, so give it one with __new__'s parameters."""
    new = cls.members.get("__new__")
    if "__init__" in cls.members or new is None or new.is_alias:
        return
    init = griffe.Function(
        "__init__",
        lineno=new.lineno,
        endlineno=new.endlineno,
        parameters=griffe.Parameters(*list(new.parameters)),
        returns="None",
    )
    cls.set_member("__init__", init)
