"""pandas export of recordings (pandas is optional)."""

from __future__ import annotations

from typing import Any

import numpy as np

# Per-body quantities: their columns' labels, in 3D and in 2D ("x[3]" in a wide frame).
_LONG_3D = {
    "positions": ("x", "y", "z"),
    "orientations": ("qx", "qy", "qz", "qw"),
    "velocities": ("vx", "vy", "vz"),
    "angular_velocities": ("wx", "wy", "wz"),
}
_LONG_2D = {"positions": ("x", "y"), "angles": ("angle",), "velocities": ("vx", "vy")}


def _pandas() -> Any:
    try:
        import pandas as pd
    except ImportError as e:
        raise ImportError(
            "Recording.to_dataframe needs pandas: pip install pandas (or rigidlab[all])"
        ) from e
    return pd


def recording_frame(rec: Any, *, long: bool = False, planar: bool = False) -> Any:
    """The recording as a pandas DataFrame: wide (one row per sample) or long (one row per
    sample and body). `rec` is a Recording, or a Recording2D with planar=True."""
    pd = _pandas()
    if long:
        return _long_frame(pd, rec, planar)
    core = getattr(rec, "_rec", rec)
    columns: dict[str, Any] = {"time": core.time}
    quantities = core.quantities
    if "energy" in quantities:
        for term, values in core.energy.items():
            columns[f"energy_{term}"] = values
    if "contacts" in quantities:
        columns["contacts"] = core.contacts
    for name in ("momentum", "angular_momentum"):
        if name in quantities:
            values = np.asarray(getattr(rec, name))
            if values.ndim == 1:
                columns[name] = values
                continue
            for k, axis in enumerate("xyz"[: values.shape[1]]):
                columns[f"{name}_{axis}"] = values[:, k]
    for _, labels, values in _per_body(rec, planar):
        for i, body in enumerate(core.body_ids):
            for k, label in enumerate(labels):
                columns[f"{label}[{body}]"] = values[:, i, k]
    return pd.DataFrame(columns)


def _per_body(rec: Any, planar: bool) -> list[tuple[str, tuple[str, ...], Any]]:
    """The recorded per-body quantities: name, column labels, values (T, n, k)."""
    core = getattr(rec, "_rec", rec)
    recorded = set(core.quantities)
    if planar and "orientations" in recorded:
        recorded.add("angles")
    out = []
    for name, labels in (_LONG_2D if planar else _LONG_3D).items():
        if name in recorded:
            values = np.asarray(getattr(rec, name))
            out.append((name, labels, values.reshape(values.shape[0], values.shape[1], -1)))
    if planar and "angular_velocities" in recorded:
        spins = np.asarray(rec.angular_velocities)
        out.append(("angular_velocities", ("w",), spins.reshape(*spins.shape, 1)))
    return out


def _long_frame(pd: Any, rec: Any, planar: bool) -> Any:
    core = getattr(rec, "_rec", rec)
    ids = np.asarray(core.body_ids, dtype=np.int64)
    names = [n if n is not None else f"body {i}" for n, i in zip(core.body_names, ids)]
    t, n = len(core.time), len(ids)
    columns: dict[str, Any] = {
        "time": np.repeat(core.time, n),
        "body_id": np.tile(ids, t),
        "body": pd.Categorical.from_codes(np.tile(np.arange(n), t), categories=names)
        if len(set(names)) == n
        else np.tile(np.array(names, dtype=object), t),
    }
    for _, labels, values in _per_body(rec, planar):
        flat = values.reshape(t * n, -1)
        for k, label in enumerate(labels):
            columns[label] = flat[:, k]
    return pd.DataFrame(columns)
