"""Parameter sweeps and ensembles on Dask: many worlds, one call, on this machine's cores or on
a cluster.

``rl.sweep(build, params, seconds=..., measure=...)`` builds a world for every parameter set
(``build(**p)``), runs each for ``seconds``, measures it, and returns an xarray Dataset over the
parameter axes. The worlds are sent out in batches: a Dask task builds a batch's worlds, steps
them together with ``rl.step_many`` (the GIL released) and measures them, so the cost of Dask is
paid per batch, not per world. The same call runs on an embedded
``dask.distributed.LocalCluster`` (the default) or on any Dask cluster (``client=``): what goes
out is ``build``, ``measure`` and the parameter sets (pickled), what comes back is numbers.

Every world is stepped exactly as ``world.run(seconds)`` would step it alone, whichever batch,
worker or machine it lands on: a sweep gives bit-identical results on one worker, on many, and
in ``step_many`` alone. A worker that dies mid-sweep has its batches run again elsewhere (Dask
keeps track of them), with the same results.
"""

from __future__ import annotations

import itertools
import math
import numbers
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from . import _core

__all__ = ["SweepError", "close_cluster", "run_batch", "sweep"]

# Worlds in one task at most: enough that Dask's cost per task (about a millisecond) is small
# beside stepping them, few enough that a lost worker costs little to redo and progress shows.
_MOST_PER_BATCH = 1000
# Tasks per worker when the batch size is left to sweep: some slack for uneven batches.
_TASKS_PER_WORKER = 4
# Sweeps of more worlds than this show a progress bar by default.
_PROGRESS_FROM = 2000


class SweepError(RuntimeError):
    """A parameter set's build, run or measure raised (with errors="raise"): the message names
    the set and the error."""


def _grid(params: Any) -> tuple[list[dict[str, Any]], dict[str, list[Any]] | None]:
    """The parameter sets, and the axes when `params` is a grid (a dict of lists)."""
    if isinstance(params, Mapping):
        if not params:
            raise ValueError("params: an empty grid (give a dict of lists of values)")
        axes: dict[str, list[Any]] = {}
        for name, values in params.items():
            if not isinstance(name, str) or not name.isidentifier():
                raise ValueError(f"params: {name!r} is not a keyword name for build")
            if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
                raise TypeError(
                    f"params: the values of {name!r} must be a list (got {values!r}); "
                    f"a fixed value is a list of one"
                )
            values = list(values)
            if not values:
                raise ValueError(f"params: {name!r} has no values (an empty grid)")
            axes[name] = values
        sets = [dict(zip(axes, combo)) for combo in itertools.product(*axes.values())]
        return sets, axes
    if hasattr(params, "to_dict") and hasattr(params, "columns"):  # a pandas DataFrame
        sets = [dict(row) for row in params.to_dict(orient="records")]
    elif isinstance(params, Sequence) and not isinstance(params, (str, bytes)):
        sets = list(params)
    else:
        raise TypeError(
            "params: must be a grid (a dict of lists), a list of dicts or a pandas DataFrame "
            f"(got {type(params).__name__})"
        )
    if not sets:
        raise ValueError("params: no parameter sets (an empty list or frame)")
    for i, p in enumerate(sets):
        if not isinstance(p, Mapping):
            raise TypeError(f"params: set {i} must be a dict of keyword arguments (got {p!r})")
        for name in p:
            if not isinstance(name, str) or not name.isidentifier():
                raise ValueError(f"params: set {i}: {name!r} is not a keyword name for build")
    return [dict(p) for p in sets], None


def _record_spec(record: Any) -> dict[str, Any] | None:
    if record is None:
        return None
    if isinstance(record, str):
        return {"quantities": [record], "every": 1}
    if isinstance(record, Mapping):
        unknown = set(record) - {"quantities", "every"}
        if unknown:
            raise ValueError(f"record: unknown keys {sorted(unknown)} (quantities, every)")
        spec = {"quantities": record.get("quantities"), "every": record.get("every", 1)}
    elif isinstance(record, Sequence):
        spec = {"quantities": list(record), "every": 1}
    else:
        raise TypeError(f"record: must be quantity names or a dict (got {record!r})")
    # Checked here, once, by the engine's own rules.
    probe = _core.World()
    probe.record(quantities=spec["quantities"], every=spec["every"])
    return spec


def _outputs(value: Any) -> dict[str, np.ndarray]:
    """A measure's result as named arrays of numbers; TypeError when it is not numbers."""
    items = value.items() if isinstance(value, Mapping) else [("value", value)]
    out = {}
    for name, v in items:
        if not isinstance(name, str):
            raise TypeError(f"measure: the names of its results must be strings (got {name!r})")
        if isinstance(v, Mapping):
            raise TypeError(f"measure: {name!r} is a dict; give numbers or arrays of numbers")
        try:
            a = np.asarray(v)
        except (TypeError, ValueError):
            a = np.asarray(None)
        if a.dtype == object or a.dtype.kind not in "biufc":
            raise TypeError(
                f"measure: must return numbers or arrays of numbers (or a dict of them); "
                f"{name!r} is {type(v).__name__}"
            )
        out[name] = a
    return out


def _steps(core: Any, seconds: float) -> int:
    """The steps `core.run(seconds)` takes: the nearest whole number to the time owed."""
    owed = core.carried_time + seconds
    return max(int(math.floor(owed / core.dt + 0.5)), 0)


def run_batch(
    build: Callable[..., Any],
    measure: Callable[..., Any] | None,
    record: dict[str, Any] | None,
    seconds: float,
    sets: list[dict[str, Any]],
) -> list[tuple[str, Any]]:
    """One task of a sweep: builds the worlds of `sets`, steps them together (step_many on one
    thread: a worker is one core) and measures each. Returns per set ("ok", outputs),
    ("error", text) for a set whose build, run or measure raised, or ("usage", text) for a
    build or measure that breaks the contract (no World, not numbers)."""
    results: list[tuple[str, Any] | None] = [None] * len(sets)
    worlds: list[Any] = [None] * len(sets)
    recordings: list[Any] = [None] * len(sets)
    for i, p in enumerate(sets):
        try:
            w = build(**p)
        except Exception as e:
            results[i] = _failure(e, "build", p)
            continue
        if not isinstance(getattr(w, "_world", w), _core.World):
            results[i] = (
                "usage",
                f"build: must return a rigidlab World or World2D (got {type(w).__name__} for {p})",
            )
            continue
        worlds[i] = w
        if record is not None:
            recordings[i] = w.record(quantities=record["quantities"], every=record["every"])
    # Worlds of the same number of steps go together: step_many takes each exactly as
    # world.step(steps) would, whichever others share the call.
    groups: dict[int, list[int]] = {}
    for i, w in enumerate(worlds):
        if w is not None:
            groups.setdefault(_steps(getattr(w, "_world", w), seconds), []).append(i)
    for steps, members in groups.items():
        cores = [getattr(worlds[i], "_world", worlds[i]) for i in members]
        before = [c.time for c in cores]
        try:
            _core.step_many(cores, steps, threads=1)
        except Exception as e:
            # Every world took its steps but those that failed: they are behind.
            for i, c, t0 in zip(members, cores, before):
                if round((c.time - t0) / c.dt) < steps:
                    results[i] = _failure(e, "run", sets[i])
                    worlds[i] = None
    for i, w in enumerate(worlds):
        if w is None:
            continue
        try:
            if measure is None:
                value = _default_measure(w, recordings[i])
            elif record is None:
                value = measure(w)
            else:
                value = measure(w, recordings[i])
        except Exception as e:
            results[i] = _failure(e, "measure", sets[i])
            continue
        try:
            results[i] = ("ok", _outputs(value))
        except TypeError as e:
            results[i] = ("usage", f"{e} (for {sets[i]})")
    return [r if r is not None else ("error", "not run") for r in results]


class _Task:
    """A batch's arguments in one object: Dask looks inside lists and dicts given to a task for
    other tasks' results (30 000 small objects for a batch of 1 000 parameter sets), but not
    inside an object of its own."""

    __slots__ = ("build", "measure", "record", "seconds", "sets")

    def __init__(self, build, measure, record, seconds, sets) -> None:
        self.build, self.measure, self.record = build, measure, record
        self.seconds, self.sets = seconds, sets


def _run_task(task: _Task) -> tuple[list[tuple[str, Any]], dict[str, np.ndarray]]:
    """A batch's results packed for the trip back: the sets' outputs stacked into one array per
    name (a few large buffers cross the network fast; a thousand small arrays do not), and the
    rest (failures, or outputs whose names or shapes differ) as they are."""
    results = run_batch(task.build, task.measure, task.record, task.seconds, task.sets)
    ok = [out for kind, out in results if kind == "ok"]
    if not ok:
        return results, {}
    names = list(ok[0])
    if any(list(out) != names or any(out[n].shape != ok[0][n].shape for n in names) for out in ok):
        return results, {}
    stacked = {n: np.stack([out[n] for out in ok]) for n in names}
    return [("ok", None) if kind == "ok" else (kind, out) for kind, out in results], stacked


def _unpack(packed: tuple[list[tuple[str, Any]], dict[str, np.ndarray]]) -> list[tuple[str, Any]]:
    results, stacked = packed
    if not stacked:
        return results
    rows = iter(range(len(results)))
    out = []
    for kind, detail in results:
        if kind == "ok":
            j = next(rows)
            out.append(("ok", {n: a[j] for n, a in stacked.items()}))
        else:
            out.append((kind, detail))
    return out


def _failure(e: Exception, stage: str, p: dict[str, Any]) -> tuple[str, str]:
    return ("error", f"{stage} failed for {p}: {type(e).__name__}: {e}")


def _default_measure(w: Any, rec: Any) -> dict[str, Any]:
    """Without a measure: what was recorded (with its times), else the final positions and
    velocities."""
    if rec is None:
        return {"positions": w.positions, "velocities": w.velocities}
    out: dict[str, Any] = {"time": rec.time}
    for q in rec.quantities:
        if q == "energy":
            out.update({f"energy_{k}": v for k, v in rec.energy.items()})
        else:
            out[q] = getattr(rec, q)
    return out


def _distributed() -> Any:
    try:
        import distributed
    except ImportError as e:
        raise ImportError(
            "rl.sweep needs Dask: pip install 'dask[distributed]' xarray (or rigidlab[sweep])"
        ) from e
    return distributed


# The embedded cluster's client: started by the first sweep without a client and kept for the
# next ones (starting worker processes costs about a second, as long as a small sweep takes),
# until Python exits or `close_cluster()`.
_embedded: Any = None


def _embedded_client() -> Any:
    """The embedded LocalCluster's client, started now if none is running."""
    global _embedded
    if _embedded is not None and _embedded.status == "running":
        return _embedded
    import atexit
    import logging

    distributed = _distributed()
    try:
        cluster = distributed.LocalCluster(
            n_workers=os.cpu_count() or 1,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.ERROR,
        )
    except Exception as e:
        # Dask's worker processes import the main module: a script that calls sweep at its top
        # level starts them over and over, and they fail.
        raise RuntimeError(
            f"client: the embedded LocalCluster did not start ({e}); in a script, call "
            "rl.sweep under `if __name__ == '__main__':`"
        ) from e
    if _embedded is None:
        # Before Dask's own handlers (they run in reverse order of registration), which would
        # otherwise find the cluster still open and warn.
        atexit.register(close_cluster)
    _embedded = distributed.Client(cluster)
    return _embedded


def close_cluster() -> None:
    """Stops the embedded LocalCluster that ``sweep`` started (if any), freeing its worker
    processes; the next sweep without a client starts a new one. It also stops when Python
    exits."""
    global _embedded
    client, _embedded = _embedded, None
    if client is not None:
        cluster = client.cluster
        client.close()
        if cluster is not None:
            cluster.close()


class _Connection:
    """The Dask client a sweep runs on: the one given, one to the address given, or the
    embedded LocalCluster on this machine's cores (one single-threaded worker process per core,
    kept for later sweeps). Only a client made for this sweep is closed at its end."""

    def __init__(self, client: Any) -> None:
        self.made: list[Any] = []
        distributed = _distributed()
        if client is None:
            self.client = _embedded_client()
        elif isinstance(client, str):
            try:
                self.client = distributed.Client(client, timeout="5s")
            except (OSError, TimeoutError) as e:
                raise OSError(f"client: cannot reach a Dask scheduler at {client!r}: {e}") from e
            self.made.append(self.client)
        elif isinstance(client, distributed.Client):
            self.client = client
        else:
            raise TypeError(
                "client: must be None (a LocalCluster here), a dask.distributed.Client or a "
                f"scheduler's address (got {type(client).__name__})"
            )

    def workers(self) -> int:
        return max(len(self.client.scheduler_info().get("workers", {})), 1)

    def close(self) -> None:
        for thing in self.made:
            thing.close()


def _check_number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: must be a number (got {value!r})")
    value = float(value)
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{name}: must be finite and at least 0 (got {value!r})")
    return value


def sweep(
    build: Callable[..., Any],
    params: Any,
    *,
    seconds: float,
    measure: Callable[..., Any] | None = None,
    record: Any = None,
    client: Any = None,
    batch: int | None = None,
    errors: str = "raise",
    progress: bool | None = None,
    output: str = "dataset",
) -> Any:
    """Runs a world for every parameter set on Dask and returns what `measure` says of each,
    as an xarray Dataset over the parameter axes.

    - ``build(**p)`` makes the world (a World or World2D) of parameter set p.
    - ``params``: a grid (a dict of lists: every combination, the last name varying fastest),
      a list of dicts, or a pandas DataFrame (a set per row).
    - ``seconds``: each world runs this long (as ``world.run(seconds)``: whole steps of its dt).
    - ``measure(world)`` returns a number, an array of numbers, or a dict of them (each a
      variable of the result); with ``record`` it is ``measure(world, recording)``. Without a
      measure: the recorded arrays (with ``time``), else the final positions and velocities.
    - ``record``: quantity names (as ``World.record``), or ``dict(quantities=..., every=k)``.
    - ``client``: None (an embedded ``dask.distributed.LocalCluster``, one worker process per
      core, started by the first such sweep and kept for the next ones until Python exits or
      ``rl.close_cluster()``), a ``dask.distributed.Client``, or a scheduler's address
      (``"tcp://host:8786"``).
    - ``batch``: worlds per Dask task (default: a few tasks per worker, at most 1 000 each).
    - ``errors``: "raise" (the first parameter set whose build, run or measure raises stops
      the sweep with a SweepError naming it) or "record" (the others complete; the failed sets'
      values are NaN and the variable ``error`` says what went wrong, "" where nothing did).
    - ``progress``: a progress bar (tqdm) over the worlds; by default for sweeps of more than
      2 000 worlds when tqdm is installed.
    - ``output``: "dataset" (xarray) or "frame" (a tidy pandas DataFrame: a row per parameter
      set, and per element of array results).

    A grid's Dataset has one dimension per parameter, its values the coordinates; a list or
    frame gives a dimension ``run`` with the parameters as coordinates along it. An array
    result adds dimensions ``<name>_dim_0``, ... . The results are bit-identical whichever
    cluster, worker count or batch size runs them, and to ``step_many`` alone.
    """
    if not callable(build):
        raise TypeError(f"build: must be a function returning a World (got {build!r})")
    if measure is not None and not callable(measure):
        raise TypeError(f"measure: must be a function of the world (got {measure!r})")
    seconds = _check_number(seconds, "seconds")
    if errors not in ("raise", "record"):
        raise ValueError(f"errors: must be 'raise' or 'record' (got {errors!r})")
    if output not in ("dataset", "frame"):
        raise ValueError(f"output: must be 'dataset' or 'frame' (got {output!r})")
    if batch is not None and (
        isinstance(batch, bool) or not isinstance(batch, numbers.Integral) or batch < 1
    ):
        raise ValueError(f"batch: must be a whole number of worlds, at least 1 (got {batch!r})")
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"progress: must be True, False or None (got {progress!r})")
    sets, axes = _grid(params)
    spec = _record_spec(record)
    # Missing packages fail here, before a cluster starts.
    _distributed()
    try:
        import xarray  # noqa: F401
    except ImportError as e:
        raise ImportError("rl.sweep needs xarray: pip install xarray (or rigidlab[sweep])") from e

    connection = _Connection(client)
    try:
        workers = connection.workers()
        size = (
            int(batch)
            if batch is not None
            else max(1, min(_MOST_PER_BATCH, math.ceil(len(sets) / (_TASKS_PER_WORKER * workers))))
        )
        results = _gather(connection.client, build, measure, spec, seconds, sets, size,
                          errors, progress)  # fmt: skip
    finally:
        connection.close()
    ds = _assemble(results, sets, axes, errors)
    ds.attrs.update(seconds=seconds, worlds=len(sets), batch=size, workers=workers)
    if output == "frame":
        return ds.to_dataframe().reset_index()
    return ds


def _gather(client, build, measure, spec, seconds, sets, size, errors, progress):
    """Runs the batches on the cluster; the results per set, in order."""
    distributed = _distributed()
    starts = list(range(0, len(sets), size))
    futures = {
        client.submit(_run_task, _Task(build, measure, spec, seconds, sets[s : s + size]),
                      pure=False): s
        for s in starts
    }  # fmt: skip
    show = progress if progress is not None else len(sets) > _PROGRESS_FROM
    bar = None
    if show:
        try:
            from tqdm.auto import tqdm
        except ImportError:
            if progress:
                raise ImportError(
                    "progress: the progress bar needs tqdm (pip install tqdm)"
                ) from None
        else:
            bar = tqdm(total=len(sets), unit="world")
    results: list[Any] = [None] * len(sets)
    try:
        for future in distributed.as_completed(futures):
            start = futures[future]
            part = _unpack(future.result())
            for k, r in enumerate(part):
                kind, detail = r
                if kind == "usage":
                    raise TypeError(detail)
                if kind == "error" and errors == "raise":
                    raise SweepError(detail)
                results[start + k] = r
            if bar is not None:
                bar.update(len(part))
    except BaseException:
        client.cancel(list(futures))
        raise
    finally:
        if bar is not None:
            bar.close()
    return results


def _coordinate(values: list[Any]) -> np.ndarray:
    """A parameter's values as a coordinate: numbers or strings as they are, anything else (a
    start position, a tuple of settings) as objects, one per parameter set."""
    a = np.asarray(values) if all(np.ndim(v) == 0 for v in values) else None
    if a is None or a.dtype == object:
        a = np.empty(len(values), dtype=object)
        a[:] = [v if np.ndim(v) == 0 else tuple(np.asarray(v).tolist()) for v in values]
    return a


def _assemble(results, sets, axes, errors):
    """The results as an xarray Dataset over the parameter axes (or `run`)."""
    import xarray as xr

    ok = [r[1] for r in results if r[0] == "ok"]
    names = list(ok[0]) if ok else []
    shapes = {n: ok[0][n].shape for n in names}
    for (kind, out), p in zip(results, sets):
        if kind == "ok" and (list(out) != names or any(out[n].shape != shapes[n] for n in names)):
            got = {n: a.shape for n, a in out.items()}
            raise ValueError(
                f"measure: returned {got} for {p}, but {shapes} for others: every parameter "
                f"set must give the same names and shapes"
            )
    failed = any(kind != "ok" for kind, _ in results)
    if axes is not None:
        lead_dims = list(axes)
        lead_shape = tuple(len(v) for v in axes.values())
        coords: dict[str, Any] = {k: _coordinate(v) for k, v in axes.items()}
    else:
        lead_dims = ["run"]
        lead_shape = (len(sets),)
        keys = list(dict.fromkeys(k for p in sets for k in p))
        coords = {"run": np.arange(len(sets))}
        coords.update({k: ("run", _coordinate([p.get(k) for p in sets])) for k in keys})
    data = {}
    for n in names:
        dtype = np.result_type(*[out[n] for kind, out in results if kind == "ok"])
        if failed and dtype.kind not in "fc":
            dtype = np.dtype(float)
        values = np.full((len(sets),) + shapes[n], np.nan if dtype.kind in "fc" else 0, dtype)
        for i, (kind, out) in enumerate(results):
            if kind == "ok":
                values[i] = out[n]
        dims = lead_dims + [f"{n}_dim_{k}" for k in range(len(shapes[n]))]
        data[n] = (dims, values.reshape(lead_shape + shapes[n]))
    if errors == "record":
        text = np.asarray([d if kind != "ok" else "" for kind, d in results], dtype=object)
        data["error"] = (lead_dims, text.reshape(lead_shape))
    return xr.Dataset(data, coords=coords)
