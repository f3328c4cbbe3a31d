"""The one rule for arrays rigidlab hands out: each is a read-only copy of what it describes at
the moment it was read.

Writing into such a copy could never reach the world, so a write raises a ValueError that names
the way to change the world instead (``b.position = (x, y, z)``, ``w.set_state(...)``). An
augmented assignment works through the setter: ``b.velocity += (0, 1, 0)`` reads the velocity,
adds, and assigns the sum back. Arithmetic on these arrays gives plain, writable numpy arrays, and
``np.array(a)`` is a writable copy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

_GENERIC = (
    "arrays from rigidlab are read-only copies: change the world by assigning a whole value "
    "(b.velocity = ..., w.set_state(...)); for numbers to edit, copy them with np.array(...)"
)


class ReadOnlyArray(np.ndarray):
    """A read-only numpy array: a copy of rigidlab state at the moment it was read.

    It behaves as any ndarray in arithmetic (results are plain ndarrays); a write into it raises
    ValueError naming the setter to use; ``+=`` and the other augmented assignments assign the
    result through that setter.
    """

    # Set by the core on the arrays of settable properties: how to change what it describes.
    # Views (slices, reshapes) find it on the array they look into (see _setter_of): no
    # __array_finalize__, which would cost a Python call on every array handed out.
    _setter: str | None = None

    def __array_wrap__(self, array: Any, context: Any = None, return_scalar: bool = False) -> Any:
        # Results of arithmetic are new data, not copies of state: plain, writable arrays, and
        # a number where a plain array gives one (a reduction: numpy 1 asks for no scalar).
        plain = np.asarray(array).view(np.ndarray)
        return plain[()] if return_scalar or plain.ndim == 0 else plain

    def __setitem__(self, key: Any, value: Any) -> None:
        if self.flags.writeable:
            super().__setitem__(key, value)
            return
        setter = _setter_of(self)
        if setter is None:
            raise ValueError(f"cannot write into this array: {_GENERIC}")
        raise ValueError(
            f"cannot write into this array: it is a read-only copy; set the value with "
            f"{setter} (or copy it with np.array(...) for numbers to edit)"
        )

    def __repr__(self) -> str:
        return repr(self.view(np.ndarray))

    def __reduce__(self) -> Any:
        # Pickled as the plain numbers it holds (a copy is what it always was).
        return np.array(self).__reduce__()


def settable(array: Any, setter: str) -> Any:
    """A view of the read-only `array` whose write error names `setter`."""
    view = array.view(ReadOnlyArray)
    view._setter = setter
    return view


def _setter_of(array: Any) -> str | None:
    while isinstance(array, ReadOnlyArray):
        if array._setter is not None:
            return array._setter
        array = array.base
    return None


def _augmented(name: str) -> Any:
    inplace = getattr(np.ndarray, f"__i{name}__")
    plain = getattr(np.ndarray, f"__{name}__")

    def operator(self: ReadOnlyArray, other: Any) -> Any:
        # A read-only copy cannot change in place: the result is a new array, which Python then
        # assigns back to the name or attribute (through its setter, for b.velocity += ...).
        if self.flags.writeable:
            return inplace(self, other)
        return plain(self.view(np.ndarray), other)

    operator.__name__ = f"__i{name}__"
    return operator


for _name in (
    "add",
    "sub",
    "mul",
    "truediv",
    "floordiv",
    "mod",
    "pow",
    "matmul",
    "and",
    "or",
    "xor",
    "lshift",
    "rshift",
):
    if hasattr(np.ndarray, f"__i{_name}__"):
        setattr(ReadOnlyArray, f"__i{_name}__", _augmented(_name))
