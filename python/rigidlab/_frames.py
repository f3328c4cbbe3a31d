"""pandas export of recordings (pandas is optional)."""

from __future__ import annotations

from typing import Any

_AXES = {"positions": "x", "velocities": "v", "angular_velocities": "w"}


def recording_frame(rec: Any) -> Any:
    """One row per sample: time, energy terms, contacts, momenta, then per-body columns."""
    try:
        import pandas as pd
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("Recording.to_dataframe needs pandas: pip install pandas") from e
    columns: dict[str, Any] = {"time": rec.time}
    quantities = rec.quantities
    if "energy" in quantities:
        for term, values in rec.energy.items():
            columns[f"energy_{term}"] = values
    if "contacts" in quantities:
        columns["contacts"] = rec.contacts
    for name in ("momentum", "angular_momentum"):
        if name in quantities:
            values = getattr(rec, name)
            for k, axis in enumerate("xyz"):
                columns[f"{name}_{axis}"] = values[:, k]
    ids = rec.body_ids
    for name, prefix in _AXES.items():
        if name in quantities:
            values = getattr(rec, name)
            for i, body in enumerate(ids):
                for k, axis in enumerate("xyz"):
                    label = axis if prefix == "x" else prefix + axis
                    columns[f"{label}[{body}]"] = values[:, i, k]
    if "orientations" in quantities:
        values = rec.orientations
        for i, body in enumerate(ids):
            for k, axis in enumerate("xyzw"):
                columns[f"q{axis}[{body}]"] = values[:, i, k]
    return pd.DataFrame(columns)
