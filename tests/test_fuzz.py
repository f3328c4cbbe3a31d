"""Bounded fuzzing of the whole Python API and of scene files.

Every public call is fed values drawn by hypothesis from hostile sets (NaN, infinities, signed
zeros, huge and tiny numbers, huge ints, bools, None, strings, arrays of the wrong length, shape
or dtype, handles of the wrong kind, of another world or of removed bodies) mixed with ordinary
values, and each outcome is held to these oracles:

- the call succeeds, or raises ValueError / TypeError / IndexError whose message names the
  parameter given the hostile value (SimulationError, a RuntimeError, only from step, run and
  step_many); a pyo3 PanicException is always a failure;
- a refused call leaves every world exactly as it was (scene JSON, state arrays, settings);
- after an accepted call, five single steps leave the state finite, or one of them raises
  SimulationError and leaves the bodies, the time and the settings as they were before that
  step.

A SimulationError whose message reports NaN counts as NaN after an accepted call: the value
accepted was one the step cannot carry at all. Handles are also read after edits that retire
or reuse them (remove, restore, reload): a live one reads finite numbers, a dead one raises
IndexError, a read-only property refuses with AttributeError.

Scene files are fuzzed by mutating one field of a saved world at a time; a mutated file must
load and step finitely (and save again to a file that loads), or raise ValueError naming the
field. What the API refuses (a joint of a body to itself, reversed hinge limits, a hull with no
volume) the loader must refuse too.

The fuzzing runs in child processes: a crash (segfault, abort) or a hang (a per-call watchdog)
ends the child, which the parent reports as a failure and then reruns, skipping that call, so
the rest of the batch is still explored. `pytest -s` prints the counts.
"""

import faulthandler
import json
import math
import os
import pathlib
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

HERE = pathlib.Path(__file__).resolve()
CALL_TIMEOUT = 5.0  # s; any call here takes milliseconds (animate a second), so more is a hang
BATCH_TIMEOUT = 240.0  # s per child; a backstop should the per-call watchdog itself not fire
MAX_RERUNS = 8  # reruns of a batch after crashes or hangs, each skipping the call at fault
# After this many hangs or crashes of one parameter of one call, its hostile values are skipped
# (one cause tends to hang with every large value, and each hang costs a rerun).
MAX_PER_PARAM = 2
WORKERS = 2

NAN, INF = math.nan, math.inf

# ---------------------------------------------------------------------------------------------
# hostile values

# Finite counts the engine accepts are run, so the counts drawn for n, steps and the like stay
# within what finishes or what no 64-bit integer holds; BIG_INTS adds the rest where nothing is
# run that many times.
INT_JUNK = [
    -1,
    -(2**63),
    2**63,
    2**64,
    10**30,
    -(10**30),
    1.0,
    2.5,
    NAN,
    INF,
    True,
    False,
    None,
    "3",
    b"3",
    [3],
    (3,),
    3 + 0j,
    np.int64(-5),
    np.uint64(2**64 - 1),
    np.float64(3.0),
    np.array([3]),
    Decimal(3),
]
BIG_INTS = [2**31, 2**32 - 1, 2**32, 2**63 - 1, 10**6]

SCALAR_JUNK = [
    NAN,
    INF,
    -INF,
    0.0,
    -0.0,
    -1.0,
    -1e-300,
    1e-300,
    5e-324,
    1e300,
    -1e300,
    1e308,
    -1e308,
    2**63,
    2**64,
    -(2**64),
    10**400,
    True,
    False,
    None,
    "1.0",
    "nan",
    "",
    b"1",
    [1.0],
    (),
    {},
    1j,
    np.float32("nan"),
    np.float64(INF),
    np.int64(-1),
    np.uint64(2**64 - 1),
    np.array(1.0),
    np.array([1.0, 2.0]),
    np.array(["1"]),
    Decimal("NaN"),
    Decimal("1e400"),
    Fraction(1, 3),
]


def _readonly(values):
    a = np.array(values, dtype=float)
    a.setflags(write=False)
    return a


VEC_JUNK = [
    (NAN, 0, 0),
    (0, INF, 0),
    (0, 0, -INF),
    (1e300, 0, 0),
    (0, -1e308, 0),
    (1e308, 1e308, 1e308),
    (1e-300, 1e-300, 1e-300),
    (0, 0, 0),
    (-0.0, -0.0, -0.0),
    (1e12, 0, 0),
    (0, 2e8, 0),
    (0, 0),
    (0, 0, 0, 0),
    (),
    [[0, 1, 0]],
    [[0], [1], [0]],
    [0, [1], 0],
    (0, "1", 0),
    (0, None, 0),
    "xyz",
    "0,1,0",
    None,
    True,
    1.0,
    {"x": 0, "y": 1, "z": 0},
    {0, 1, 2},
    (True, False, True),
    (2**64, 0, 0),
    (10**400, 0, 0),
    (1j, 0, 0),
    np.zeros(3, dtype=np.int8),
    np.array([1, 2, 3], dtype=np.uint64),
    np.ones(3, dtype=complex),
    np.zeros((3, 1)),
    np.zeros((1, 3)),
    np.zeros(0),
    np.zeros((3, 3)),
    np.array(["0", "1", "0"]),
    np.array([0, 1, 0], dtype=object),
    np.full(3, NAN, dtype=np.float32),
    np.arange(6.0)[::2],
    _readonly([0, 1, 0]),
    np.array([0, 1, 0], dtype=">f8"),
    np.array([1e300, 0, 0], dtype=np.float64),
]

QUAT_JUNK = [
    (0, 0, 0, 0),
    (1e-10, 0, 0, 0),
    (NAN, 0, 0, 1),
    (0, INF, 0, 1),
    (1e308, 1e308, 1e308, 1e308),
    (1e300, 0, 0, 1e-300),
    (5e-324, 0, 0, 0),
    (-0.0, -0.0, -0.0, -0.0),
    (0, 0, 1),
    (0, 0, 0, 1, 0),
    [[0, 0, 0, 1]],
    "wxyz",
    None,
    1.0,
    np.zeros(4, dtype=complex),
    np.array([0, 0, 0, 1], dtype=object),
    np.zeros((4, 1)),
    (0, 0, 0, "1"),
]

STR_JUNK = [
    "",
    "Verlet",
    "verlet ",
    "euler\0",
    "nope",
    "\ud800",
    "x" * 10000,
    b"verlet",
    1,
    None,
    True,
    ["verlet"],
    NAN,
    "static\n",
]
BOOL_JUNK = [0, 1, None, "True", "False", 1.0, NAN, [], np.bool_(True), "", [True], 2]

JSON_JUNK = [
    "",
    " ",
    "{}",
    "null",
    "[]",
    "0",
    '"scene"',
    "[" * 100000,
    "{" * 1000,
    '{"format": "rigidlab-scene", "version": 99}',
    '{"format": "rigidlab-scene", "version": 1}',
    "\x00",
    "\ud800",
    b"{}",
    None,
    1,
    {"format": "rigidlab-scene"},
    "NaN",
    "1e999",
]

QUANTITIES = [
    "positions",
    "orientations",
    "velocities",
    "angular_velocities",
    "energy",
    "momentum",
    "angular_momentum",
    "contacts",
]
DRAIN = "import sys\nwhile sys.stdin.buffer.read(65536):\n    pass\n"

TETRA = [(0, 0, 0), (0.3, 0, 0), (0, 0.3, 0), (0, 0, 0.3)]
CUBE = [(x, y, z) for x in (-0.1, 0.1) for y in (-0.1, 0.1) for z in (-0.1, 0.1)]
TRIANGLE = [(0, 0), (0.3, 0), (0, 0.3)]
SQUARE = [(0, 0), (0.2, 0), (0.2, 0.2), (0, 0.2)]

HULL_JUNK = [
    [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)],  # coplanar
    [(0, 0, 0), (1, 1, 1), (2, 2, 2), (3, 3, 3)],  # collinear
    [(0, 0, 0)] * 8,  # one point
    [(0, 0, 0), (1, 0, 0), (0, 1, 0)],  # too few
    [(0, 0, 0), (1e-12, 0, 0), (0, 1e-12, 0), (0, 0, 1e-12)],  # below the smallest size
    [(0, 0, 0), (1e12, 0, 0), (0, 1e12, 0), (0, 0, 1e12)],  # beyond the largest
    [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, NAN)],
    [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, INF)],
    [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0.5, 0.5, 1e-15)],  # a sliver
    [],
    [[]],
    [(0, 0), (1, 0), (0, 1), (1, 1)],
    [(0, 0, 0, 0)] * 4,
    np.zeros((4, 3), dtype=complex),
    np.array(TETRA, dtype=object),
    "points",
    None,
    1.0,
    [
        (1e8 * math.cos(a), 1e8 * math.sin(a), z)
        for a in np.linspace(0, 6, 12)
        for z in (-1e-9, 1e-9)
    ],
    np.random.default_rng(0).normal(size=(2000, 3)),  # many points: valid, and slow if the hull is
]
POLYGON_JUNK = [
    [(0, 0), (1, 1), (2, 2)],
    [(0, 0), (1, 0)],
    [(0, 0)] * 4,
    [(0, 0), (1, 0), (0, 1), (1, 1)],  # self-crossing
    [(0, 0), (1, 0), (NAN, 1)],
    [(0, 0, 0), (1, 0, 0), (0, 1, 0)],
    [],
    "abc",
    None,
    np.zeros((3, 2), dtype=complex),
    [(0, 0), (1e12, 0), (0, 1e12)],
    [(0, 0), (1e-12, 0), (0, 1e-12)],
    [(0, 0), (0, 1), (1, 0)],  # clockwise
]


class Alias:
    """A hostile value with further parameter names that may fairly be blamed for it (b given
    the same body as a: either may be named)."""

    def __init__(self, value, names):
        self.value, self.names = value, names


OMIT = object()  # a required argument left out


# ---------------------------------------------------------------------------------------------
# the world every example starts from


class Ctx:
    """A world with one body of every shape and kind, a spring, one joint of each kind (the
    hinge with limits and a motor), a pair material, loads, handles of a removed body, spring
    and joint, a snapshot, and a second world with a body of its own."""

    def __init__(self):
        import rigidlab as rl

        self.rl = rl
        w = self.w = rl.World()
        b = self.B = {}
        b["plane"] = w.add_plane(name="floor")
        # The ball and the box touch the floor, so the contact cache holds manifolds.
        b["sphere"] = w.add_sphere(
            0.1, mass=1.0, position=(0, 0.1, 0), velocity=(0.5, 0, 0), restitution=0.5, name="ball"
        )
        b["box"] = w.add_box(
            (0.1, 0.2, 0.3),
            mass=2.0,
            position=(1, 0.2, 0),
            angular_velocity=(0, 1, 0),
            friction=0.3,
        )
        b["capsule"] = w.add_capsule(
            0.1, 0.2, position=(2, 0.5, 0), friction=0.4, static_friction=0.6
        )
        b["convex"] = w.add_convex(TETRA, position=(3, 0.5, 0), tangential_restitution=0.5)
        b["wedge"] = w.add_wedge(0.5, 0.2, 0.3, position=(4, 0.1, 0), kind="static")
        b["prism"] = w.add_prism(
            TRIANGLE, 0.2, position=(5, 0.5, 0), color=(0.2, 0.4, 0.6), linear_damping=0.1
        )
        b["kinematic"] = w.add_box(
            (0.2, 0.05, 0.2), kind="kinematic", position=(6, 0.5, 0), velocity=(0, 0, 0.1)
        )
        b["bob"] = w.add_sphere(0.05, position=(7, 1.0, 0), gravity_scale=0.5, quadratic_drag=0.1)
        b["link"] = w.add_box((0.05, 0.05, 0.05), position=(8, 1.0, 0), angular_damping=0.2)
        self.spring = w.add_spring(b["sphere"], b["box"], stiffness=50.0, damping=0.5)
        self.joints = {
            "distance": w.add_distance_joint(b["capsule"], b["convex"]),
            "rope": w.add_rope_joint(b["bob"], None, anchor_b=(7, 1.5, 0), max_length=0.6),
            "ball": w.add_ball_joint(b["link"], None, anchor=(8, 1.3, 0)),
            "hinge": w.add_hinge_joint(
                b["bob"],
                b["link"],
                anchor=(7.5, 1.0, 0),
                axis=(0, 0, 1),
                limits=(-1, 1),
                motor=(2.0, 5.0),
            ),
            "fixed": w.add_fixed_joint(b["prism"], b["capsule"]),
            "mouse": w.add_mouse_joint(b["link"], (8, 1.5, 0), point=(8, 1.05, 0), max_force=50.0),
        }
        w.set_pair(b["sphere"], b["plane"], restitution=0.9, friction=0.2)
        self.load = b["sphere"].apply_force((1, 0, 0), duration=INF)
        self.load_once = b["box"].apply_torque((0, 1, 0))
        self.gone = w.add_sphere(0.1, position=(9, 1, 0))
        w.remove(self.gone)
        self.dead_spring = w.add_spring(b["box"], None, stiffness=1.0)
        self.dead_spring.remove()
        self.dead_joint = w.add_ball_joint(b["box"], None, anchor=(1, 1, 0))
        w.remove(self.dead_joint)
        self.snap = w.snapshot()
        self.recording = w.record(every=2)
        w.step(2)
        self.other = rl.World()
        self.foreign = self.other.add_sphere(0.1, position=(0, 1, 0))
        self.other_snap = self.other.snapshot()
        self.names = {id(v): f"B[{k!r}]" for k, v in b.items()}
        self.names.update({id(j): f"J[{k!r}]" for k, j in self.joints.items()})
        self.names.update(
            {
                id(w): "w",
                id(self.other): "other",
                id(self.gone): "gone",
                id(self.foreign): "foreign",
                id(self.spring): "spring",
                id(self.dead_spring): "dead_spring",
                id(self.dead_joint): "dead_joint",
                id(self.load): "load",
                id(self.load_once): "load_once",
                id(self.snap): "snap",
                id(self.other_snap): "other_snap",
                id(self.recording): "recording",
            }
        )
        self.handles = [
            self.gone,
            self.foreign,
            self.spring,
            self.dead_spring,
            self.joints["hinge"],
            self.dead_joint,
            self.load,
            w,
            self.other,
            self.snap,
        ]
        self.bodies = list(b.values())
        self.dynamic = [v for v in self.bodies if v.kind == "dynamic"]
        self.worlds = [w, self.other]


def fmt(v, ctx, depth=0):
    """A Python expression for v, with the context's handles by name (B['box'], gone, ...)."""
    if id(v) in ctx.names:
        return ctx.names[id(v)]
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v == INF else "-inf" if v == -INF else repr(v))
    if isinstance(v, np.ndarray):
        body = fmt(v.tolist(), ctx, depth + 1)
        return f"np.array({body}, dtype={v.dtype.str!r})"
    if isinstance(v, (list, tuple)) and depth < 3:
        inner = ", ".join(fmt(x, ctx, depth + 1) for x in v[:12]) + (
            f", ...{len(v)} items" if len(v) > 12 else ""
        )
        return f"[{inner}]" if isinstance(v, list) else f"({inner}{',' if len(v) == 1 else ''})"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k!r}: {fmt(x, ctx, depth + 1)}" for k, x in v.items()) + "}"
    if isinstance(v, str) and len(v) > 60:
        return f"{v[:1]!r} * {len(v)}" if v == v[0] * len(v) else repr(v[:60]) + "..."
    r = repr(v)
    return r if len(r) <= 200 else r[:200] + "..."


# ---------------------------------------------------------------------------------------------
# oracles


def named(exc, params):
    """Whether the message names one of `params` the way the API does: `param: ...`,
    `param[i]`, `param=`, `param.field` (a scene file's path), `'param'`, or `param word: ...`
    (motor speed: ...)."""
    msg = str(exc)
    for p in params:
        q = re.escape(p)
        if re.search(rf"(?<!\w){q}(\s*[:=\[]|\.\w|\s+\w+:)|['\"`]{q}['\"`]", msg):
            return True
    return False


def fingerprint(w):
    parts = []
    for read in (
        w.to_json,
        lambda: len(w),
        lambda: w.time,
        lambda: w.threads,
        lambda: w.sleeping,
        lambda: w.positions.tobytes(),
        lambda: w.orientations.tobytes(),
        lambda: w.velocities.tobytes(),
        lambda: w.angular_velocities.tobytes(),
    ):
        try:
            parts.append(read())
        except BaseException as e:  # noqa: BLE001 - a read that fails is part of the state seen
            parts.append(f"<{type(e).__name__}>")
    return parts


def body_fingerprint(w):
    """The fingerprint with the scene JSON cut to what a refused step promises to keep: the
    bodies, the time and the settings (not the caches of contacts and joint impulses that the
    refused step had begun to update)."""
    parts = fingerprint(w)
    if isinstance(parts[0], str) and parts[0].startswith("{"):
        doc = json.loads(parts[0])
        parts[0] = json.dumps(
            {k: doc.get(k) for k in ("bodies", "time", "settings")}, sort_keys=True
        )
    return parts


FINGERPRINT_PARTS = [
    "json",
    "len",
    "time",
    "threads",
    "sleeping",
    "positions",
    "orientations",
    "velocities",
    "angular_velocities",
]


def changes(before, after):
    """What differs between two fingerprints: parts, and the scene JSON's top-level keys."""
    out = []
    for name, b, a in zip(FINGERPRINT_PARTS, before, after):
        if b == a:
            continue
        if name == "json" and b.startswith("{") and a.startswith("{"):
            jb, ja = json.loads(b), json.loads(a)
            out.append("json " + "/".join(k for k in jb if jb.get(k) != ja.get(k)))
        else:
            out.append(name)
    return ", ".join(out)


def finite(value):
    """Whether every number in value (arrays, dicts, tuples of them) is finite."""
    if value is None or isinstance(value, (str, bool)):
        return True
    if isinstance(value, dict):
        return all(finite(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return all(finite(v) for v in value)
    try:
        a = np.asarray(value)
    except Exception:  # noqa: BLE001 - not numeric: nothing to check
        return True
    return a.dtype.kind not in "fc" or bool(np.isfinite(a).all())


class NotFinite(Exception):
    """A value read or returned holds NaN or an infinity."""


def state_finite(w):
    return all(
        np.isfinite(a).all()
        for a in (w.positions, w.velocities, w.orientations, w.angular_velocities)
    )


class watchdog:
    """Ends the process (exit 1, "Timeout" on stderr) should the block not finish in time; a C
    thread does it, so it fires even while the engine holds the GIL or runs without it."""

    def __enter__(self):
        faulthandler.dump_traceback_later(CALL_TIMEOUT, exit=True)

    def __exit__(self, *exc):
        faulthandler.cancel_dump_traceback_later()


class Recorder:
    """Counts outcomes and streams calls and failures to the parent's log, one JSON per line."""

    def __init__(self, log, skip, skip_focus):
        self.log, self.skip = log, set(skip)
        self.skip_focus = {tuple(x) for x in skip_focus}
        self.counts = Counter()

    def event(self, **e):
        self.log.write(json.dumps(e) + "\n")
        self.log.flush()

    def fail(self, kind, spec, call, detail=""):
        self.counts["failures"] += 1
        if kind == "panic":
            self.counts["panics"] += 1
        if kind.startswith("nan"):
            self.counts["nan_after_accept"] += 1
        self.event(t="fail", kind=kind, spec=spec, call=call, detail=str(detail)[:400])

    def check(
        self,
        spec,
        call,
        fn,
        *,
        worlds,
        hostile=(),
        names=(),
        simulates=False,
        oserror=False,
        dead_target=False,
        post=None,
        settle=True,
    ):
        """Runs fn() under the oracles. Returns (accepted, result); post(result) runs before the
        follow-up steps and returns further worlds to step, or None."""
        focus = hostile[-1] if hostile else ""
        if call in self.skip or (focus and (spec, focus) in self.skip_focus):
            self.counts["skipped"] += 1
            return False, None
        self.counts["tried"] += 1
        self.event(t="call", spec=spec, call=call, focus=focus)
        before = [fingerprint(w) for w in worlds]
        error = None
        with watchdog():
            try:
                result = fn()
            except BaseException as e:  # noqa: BLE001 - PanicException is a BaseException
                error = e
        if error is not None:
            self.judge(
                spec, call, error, worlds, before, hostile, names, simulates, oserror, dead_target
            )
            return False, None
        self.counts["accepted"] += 1
        if simulates and not all(state_finite(w) for w in worlds):
            self.fail("nan after accept", spec, call, "state not finite right after the call")
        extra = []
        if post is not None:
            self.event(t="settle", spec=spec, call=call, focus=focus)
            with watchdog():
                try:
                    extra = post(result) or []
                except BaseException as e:  # noqa: BLE001
                    kind = {"PanicException": "panic", "NotFinite": "non-finite result"}.get(
                        type(e).__name__, "check after accept raised"
                    )
                    self.fail(kind, spec, call, f"{type(e).__name__}: {e}")
        for w in (list(worlds) if settle else []) + list(extra):
            self.settle(spec, call, w, focus)
        return True, result

    def judge(self, spec, call, e, worlds, before, hostile, names, simulates, oserror, dead_target):
        rl = sys.modules["rigidlab"]
        what = f"{type(e).__name__}: {e}"
        if type(e).__name__ == "PanicException":
            return self.fail("panic", spec, call, what)
        if isinstance(e, rl.SimulationError):
            if not simulates:
                return self.fail("SimulationError from a call that does not step", spec, call, what)
            if not all(state_finite(w) for w in worlds):
                return self.fail("nan after SimulationError", spec, call, what)
            self.counts["clean_errors"] += 1
            return None
        if isinstance(e, NotFinite):
            return self.fail("non-finite value read", spec, call, what)
        allowed = (ValueError, TypeError, IndexError) + ((OSError,) if oserror else ())
        if isinstance(e, OSError) and oserror and e.filename is not None:
            pass  # the file system's error names the file, which is what the path parameter was
        elif not isinstance(e, allowed):
            return self.fail("wrong exception type", spec, call, what)
        if not (dead_target and isinstance(e, IndexError)) and not (
            oserror and isinstance(e, OSError) and e.filename
        ):
            if not hostile:  # every argument was an ordinary one
                return self.fail("valid call rejected", spec, call, what)
            if not named(e, hostile):
                kind = "wrong parameter named" if named(e, names) else "parameter not named"
                return self.fail(kind, spec, call, f"expected {list(hostile)}; {what}")
        after = [fingerprint(w) for w in worlds]
        for b, a in zip(before, after):
            if a != b:
                return self.fail(
                    "world changed after rejection", spec, call, f"{what}; changed: {changes(b, a)}"
                )
        self.counts["clean_errors"] += 1
        return None

    def settle(self, spec, call, w, focus):
        """Five single steps after an accepted call: finite, or SimulationError with the world as
        before that step."""
        rl = sys.modules["rigidlab"]
        self.event(t="settle", spec=spec, call=call, focus=focus)
        for _ in range(5):
            before = body_fingerprint(w)
            with watchdog():
                try:
                    w.step()
                except rl.SimulationError as e:
                    after = body_fingerprint(w)
                    if after != before:
                        self.fail(
                            "SimulationError changed the world",
                            spec,
                            call,
                            f"changed: {changes(before, after)}; {e}",
                        )
                    if "NaN" in str(e):  # an accepted value the step cannot carry at all
                        self.fail("nan after accept (stopped by SimulationError)", spec, call, e)
                    self.counts["simulation_errors"] += 1
                    return
                except BaseException as e:  # noqa: BLE001
                    kind = (
                        "panic"
                        if type(e).__name__ == "PanicException"
                        else "step after accept raised"
                    )
                    return self.fail(kind, spec, call, f"{type(e).__name__}: {e}")
        try:
            ok = state_finite(w) and finite(w.energy()) and finite(w.momentum())
        except BaseException as e:  # noqa: BLE001
            return self.fail(
                "reading the state after accept raised", spec, call, f"{type(e).__name__}: {e}"
            )
        if not ok:
            self.fail(
                "nan after accept", spec, call, "state, energy or momentum not finite after 5 steps"
            )


# ---------------------------------------------------------------------------------------------
# strategies


def _st():
    from hypothesis import strategies as st

    return st


def fl(lo, hi):
    return _st().floats(lo, hi, allow_nan=False, allow_infinity=False)


def vec(lo, hi, n=3):
    st = _st()
    parts = st.tuples(*[fl(lo, hi)] * n)
    return st.builds(lambda v, f: f(v), parts, st.sampled_from([tuple, list, np.asarray]))


def direction():
    st = _st()
    return st.sampled_from([(0, 1, 0), (1, 0, 0), (0, 0, -1), (1, 1, 0), (-0.3, 0.9, 0.1)]) | vec(
        -1, 1
    ).filter(lambda v: max(abs(x) for x in v) > 0.1)


def quats():
    st = _st()
    q = st.tuples(*[fl(-1, 1)] * 4).filter(lambda q: max(abs(x) for x in q) > 0.1)
    return (
        st.sampled_from(
            [(0, 0, 0, 1), (0, 0, 0.7071067811865476, 0.7071067811865476), (1, 0, 0, 0)]
        )
        | q
    )


def junk(ctx, values, generated=None):
    st = _st()
    s = st.sampled_from(values + ctx.handles)
    return s if generated is None else st.one_of(s, generated)


def h_float(ctx, kw=None):
    st = _st()
    return junk(ctx, SCALAR_JUNK, st.floats() | st.integers(-(2**70), 2**70))


def h_duration(ctx, kw=None):
    """Hostile lengths of simulated time: junk, and numbers that are refused or short. A valid
    long run (150 s of a world with joints takes seconds) is slow, not hostile, and would only
    trip the hang watchdog."""
    st = _st()
    return junk(
        ctx,
        SCALAR_JUNK,
        st.floats(max_value=0.05) | st.floats(min_value=1e12) | st.integers(-(2**70), 0),
    )


def h_vec(ctx, kw=None, n=3):
    st = _st()
    gen = st.tuples(*[st.floats()] * n) | st.lists(
        st.floats() | st.integers(-(2**70), 2**70), max_size=5
    )
    return junk(ctx, QUAT_JUNK if n == 4 else VEC_JUNK, gen)


def h_quat(ctx, kw=None):
    return h_vec(ctx, kw, 4)


def h_count(ctx, kw=None):
    """Counts of things that are run: huge ones only beyond 64 bits."""
    st = _st()
    return junk(ctx, INT_JUNK, st.integers(-(2**70), -1) | st.integers(2**64, 2**70))


def h_int(ctx, kw=None):
    st = _st()
    return junk(ctx, INT_JUNK + BIG_INTS, st.integers(-(2**70), 2**70))


def h_str(ctx, kw=None):
    st = _st()
    return junk(ctx, STR_JUNK, st.text(max_size=8))


def h_bool(ctx, kw=None):
    return junk(ctx, BOOL_JUNK)


def h_body(other=None):
    """Handles that are not a live body of this world, and the body named `other` (a joint of
    a body to itself), for which either parameter may be blamed."""

    def strategy(ctx, kw):
        st = _st()
        values = [0, 1, -1, "ball", 1.5, NAN, True, [ctx.B["sphere"]], (ctx.B["box"],), {"body": 0}]
        if other in kw and kw[other] is not None:
            values.append(Alias(kw[other], (other,)))
        return junk(ctx, values) | st.sampled_from(ctx.bodies)

    return strategy


def v(strategy_fn):
    return lambda ctx, kw=None: strategy_fn()


def v_just(*values):
    return lambda ctx, kw=None: _st().sampled_from(list(values))


def optional(strategy_fn):
    return lambda ctx, kw=None: _st().none() | strategy_fn()


class P:
    """A parameter: how to draw an ordinary value and a hostile one (each given the context and
    the arguments drawn so far)."""

    def __init__(self, name, valid, hostile, required=False):
        self.name, self.valid, self.hostile, self.required = name, valid, hostile, required


def moving(strategy_fn, default_kind="dynamic"):
    """A velocity, for bodies that may move: a static one is refused any. (An ordinary value of
    None leaves the parameter out: the pair would be refused for the other's sake.)"""
    return lambda ctx, kw=None: None if kw.get("kind", default_kind) == "static" else strategy_fn()


def solid_options():
    return [
        P("kind", v_just("dynamic", "static", "kinematic"), h_str),
        P("mass", v(lambda: fl(0.1, 10)), h_float),
        P(
            "density", lambda ctx, kw=None: None if "mass" in kw else fl(100, 5000), h_float
        ),  # one or the other
        P("position", v(lambda: vec(-5, 5)), h_vec),
        P("orientation", v(quats), h_quat),
        P("velocity", moving(lambda: vec(-5, 5)), h_vec),
        P("angular_velocity", moving(lambda: vec(-5, 5)), h_vec),
        P("restitution", optional(lambda: fl(0, 1)), h_float),
        P("friction", optional(lambda: fl(0, 2)), h_float),
        P("static_friction", optional(lambda: fl(0, 2)), h_float),
        P("tangential_restitution", optional(lambda: fl(-1, 1)), h_float),
        P("name", lambda ctx, kw=None: _st().none() | _st().text(max_size=10), h_str),
        P("color", optional(lambda: vec(0, 1)), h_vec),
        P("linear_damping", v(lambda: fl(0, 10)), h_float),
        P("angular_damping", v(lambda: fl(0, 10)), h_float),
        P("quadratic_drag", v(lambda: fl(0, 1)), h_float),
        P("gravity_scale", v(lambda: fl(-2, 2)), h_float),
    ]


def plane_options():
    keep = {"restitution", "friction", "static_friction", "tangential_restitution", "name", "color"}
    return (
        [P("kind", v_just("static", "kinematic"), h_str)]
        + [p for p in solid_options() if p.name in keep]
        + [
            P("velocity", moving(lambda: vec(-5, 5), "static"), h_vec),
            P("angular_velocity", moving(lambda: vec(-5, 5), "static"), h_vec),
        ]
    )


def h_points(ctx, kw=None):
    st = _st()
    return junk(
        ctx, HULL_JUNK, st.lists(st.tuples(st.floats(), st.floats(), st.floats()), max_size=6)
    )


def v_points(ctx, kw=None):
    st = _st()
    scaled = st.builds(
        lambda s, pts: [tuple(s * np.asarray(p)) for p in pts],
        fl(0.2, 3),
        st.sampled_from([TETRA, CUBE]),
    )
    return st.sampled_from([TETRA, CUBE, np.array(CUBE)]) | scaled


def h_polygon(ctx, kw=None):
    st = _st()
    return junk(ctx, POLYGON_JUNK, st.lists(st.tuples(st.floats(), st.floats()), max_size=5))


def v_motor(ctx, kw=None):
    st = _st()
    pair = st.tuples(fl(-10, 10), fl(0, 100))
    return st.none() | pair | pair.map(lambda m: {"speed": m[0], "max_torque": m[1]})


def h_motor(ctx, kw=None):
    st = _st()
    values = [
        (NAN, 1),
        (1, NAN),
        (1, -1),
        (1, INF),
        (INF, 1),
        (1,),
        (1, 2, 3),
        "fast",
        1.0,
        {"speed": 1},
        {"max_torque": 1},
        {"speed": "x", "max_torque": 1},
        {"speed": 1, "max_torque": 1, "x": 2},
        [1e300, 1e300],
        (True, 1),
    ]
    return junk(ctx, values, st.tuples(st.floats(), st.floats()))


def v_limits(ctx, kw=None):
    st = _st()
    return st.none() | st.tuples(fl(-3, 0), fl(0, 3))


def h_limits(ctx, kw=None):
    st = _st()
    values = [
        (1, -1),
        (NAN, 1),
        (-INF, INF),
        (-1, NAN),
        (0, 0),
        (-10, 10),
        (1,),
        (1, 2, 3),
        "open",
        1.0,
        {"lo": 1},
    ]
    return junk(ctx, values, st.tuples(st.floats(), st.floats()))


def v_dynamic(ctx, kw=None):
    return _st().sampled_from(ctx.dynamic)


def v_other_body(name):
    def strategy(ctx, kw):
        return _st().sampled_from([None] + [b for b in ctx.bodies if b is not kw.get(name)])

    return strategy


def v_body_pair(name):
    def strategy(ctx, kw):
        return _st().sampled_from([b for b in ctx.bodies if b is not kw.get(name)])

    return strategy


def joint_params(extra):
    return [
        P("a", v_dynamic, h_body("b"), required=True),
        P("b", v_other_body("a"), h_body("a")),
    ] + extra


def v_state(field, k):
    """An ordinary value for set_state: the world's own array, nudged (orientations kept unit)."""

    def strategy(ctx, kw):
        st = _st()
        current = getattr(ctx.w, field)
        still = np.array([b.kind == "static" for b in ctx.w.bodies])

        def nudge(eps):
            a = current + eps
            if k == 4:
                a = a / np.linalg.norm(a, axis=1, keepdims=True)
            elif field in ("velocities", "angular_velocities"):
                a[still] = 0.0  # a static body is refused any motion
            return a

        return st.builds(nudge, fl(-1e-3, 1e-3)) | st.builds(lambda: current.tolist())

    return strategy


def h_state(field, k):
    def strategy(ctx, kw):
        st = _st()
        n = len(ctx.w)
        current = getattr(ctx.w, field)

        def poke(i, value):
            a = current.copy()
            a.flat[i % a.size] = value
            return a

        shaped = [
            np.zeros((n + 1, k)),
            np.zeros((n, k + 1)),
            np.zeros((n - 1, k)),
            np.zeros(k),
            np.zeros((n, k, 1)),
            np.zeros((0, k)),
            current.astype(np.float32),
            current.astype(complex),
            current.astype(object),
            current.astype(int),
            current.T,
            current.tolist()[:-1],
            [list(r) + [0] for r in current.tolist()],
            "positions",
            None,
            0.0,
            np.full((n, k), NAN),
            np.full((n, k), 1e300),
            np.zeros((n, k)),
        ]
        return junk(
            ctx,
            shaped,
            st.builds(
                poke, st.integers(0, 10**6), st.sampled_from([NAN, INF, -INF, 1e300, 1e12, 2e8])
            ),
        )

    return strategy


PATH_JUNK = [
    "",
    "/nonexistent/dir/scene.json",
    ".",
    "/",
    "bad\0name",
    b"scene.json",
    1,
    None,
    1.5,
    ["scene.json"],
    "x" * 5000,
    "garbage.json",
    "deep.json",
    "empty.json",
    "binary.json",
    "newer.json",
    "/dev/null",
]


def h_path(ctx, kw=None):
    return junk(ctx, PATH_JUNK + ["/dev/full"])  # /dev/full: writes fail (reads never end)


def h_load_path(ctx, kw=None):
    return junk(ctx, PATH_JUNK)


def v_save_path(ctx, kw=None):
    st = _st()
    return st.sampled_from(
        ["saved.json", pathlib.Path("saved2.json"), os.path.abspath("saved3.json")]
    )


def v_load_path(ctx, kw=None):
    return _st().sampled_from(["good.json", pathlib.Path("good.json")])


def prepare_files():
    """Fixture files in the child's working directory (a temporary directory)."""
    ctx = Ctx()
    ctx.w.save("good.json")
    pathlib.Path("garbage.json").write_text("{not json")
    pathlib.Path("deep.json").write_text("[" * 200000)
    pathlib.Path("empty.json").write_text("")
    pathlib.Path("binary.json").write_bytes(bytes(range(256)) * 10)
    doc = json.loads(ctx.w.to_json())
    doc["version"] = 2
    pathlib.Path("newer.json").write_text(json.dumps(doc))


# ---------------------------------------------------------------------------------------------
# the calls


class Spec:
    """One public call: `kind` is "method" (getattr(target, attr)(**kw)), "setter"
    (setattr(target, attr, value)) or "func" (fn(**kw))."""

    def __init__(
        self,
        name,
        kind,
        attr=None,
        params=(),
        targets=None,
        fn=None,
        simulates=False,
        oserror=False,
        post=None,
        examples=60,
        hostile_if=None,
        aliases=None,
    ):
        self.name, self.kind, self.attr, self.params = name, kind, attr, list(params)
        self.targets, self.fn, self.simulates, self.oserror = targets, fn, simulates, oserror
        self.post, self.examples, self.hostile_if = post, examples, hostile_if
        self.aliases = aliases or {}  # other names a message may give a parameter by


def world_target(ctx):
    return [ctx.w]


def body_targets(ctx):
    return ctx.bodies + [ctx.gone, ctx.foreign]


def dynamic_targets(ctx):
    """The bodies forces may be applied to (a static or kinematic body refuses them), with the
    removed and foreign ones whose errors are checked."""

    def dynamic(b):
        try:
            return b.kind == "dynamic"
        except IndexError:
            return True

    return [b for b in ctx.bodies if dynamic(b)] + [ctx.gone, ctx.foreign]


def spring_targets(ctx):
    return [ctx.spring, ctx.dead_spring]


def joint_targets(ctx):
    return list(ctx.joints.values()) + [ctx.dead_joint]


def load_targets(ctx):
    return [ctx.load, ctx.load_once]


def alive(handle):
    try:
        return bool(handle.alive)
    except Exception:  # noqa: BLE001
        return False


def usable(ctx):
    """After a new world is accepted: bodies added to it, stepped by the caller."""

    def post(world):
        world.add_plane()
        world.add_sphere(0.1, position=(0, 0.5, 0), velocity=(1, 0, 0))
        world.add_box((0.1, 0.1, 0.1), position=(1, 0.5, 0), angular_velocity=(0, 2, 0))
        return [world]

    return post


def loaded(ctx):
    def post(world):
        return [world]

    return post


def check_result(ctx):
    """Numbers a query returns are finite."""

    def post(result):
        if not finite(result):
            raise NotFinite(f"{result!r}")

    return post


def recording_post(ctx):
    def post(rec):
        ctx.w.step(3)
        for name in ["time", "body_ids", "every", "quantities", "active"] + QUANTITIES:
            try:
                value = getattr(rec, name)
            except ValueError as e:  # a quantity not recorded says so, by name
                if name not in QUANTITIES or not named(e, [name]):
                    raise
                continue
            if not finite(value):
                raise NotFinite(f"recording.{name}")
        rec.to_dict()
        rec.to_dataframe()
        len(rec)
        try:
            rec.save("recording.replay")
        except ValueError:  # a replay needs positions and orientations, and says so
            if {"positions", "orientations"} <= set(rec.quantities):
                raise
        rec.stop()

    return post


def view_post(ctx):
    def post(_):
        ctx.w.step(2)
        if not isinstance(ctx.w.viewing, bool):
            raise TypeError("viewing: not a bool")
        ctx.w.close_view()

    return post


def specs():
    import rigidlab as rl

    world_settings = [
        P("gravity", lambda ctx, kw=None: _st().none() | vec(-20, 20), h_vec),
        P("dt", v(lambda: fl(1e-4, 0.02)), h_float),
        P("integrator", v_just("euler", "symplectic_euler", "verlet", "rk4"), h_str),
        P("solver_iterations", v(lambda: _st().integers(1, 50)), h_int),
        P("solver_tolerance", v(lambda: fl(0, 1e-2)), h_float),
        P("restitution_threshold", v(lambda: fl(0, 1)), h_float),
        P("restitution_rule", v_just("average", "min", "max", "multiply"), h_str),
        P("friction_rule", v_just("average", "min", "max", "multiply"), h_str),
        P("sleeping", v_just(True, False), h_bool),
    ]
    out = [
        Spec(
            "rl.World()",
            "func",
            fn=lambda ctx: rl.World,
            params=world_settings,
            post=usable,
            examples=120,
        )
    ]
    setters = {
        p.name: p for p in world_settings if p.name not in ("restitution_rule", "friction_rule")
    }
    setters["gravity"] = P(
        "gravity", v(lambda: vec(-20, 20)), h_vec
    )  # None only in World(): the default
    setters["time"] = P("time", v(lambda: fl(0, 100)), h_float)
    setters["threads"] = P("threads", lambda ctx, kw=None: _st().sampled_from([None, 1, 2]), h_int)
    for name, p in setters.items():
        out.append(Spec(f"w.{name} =", "setter", attr=name, params=[p], targets=world_target))

    shapes = {
        "add_sphere": [P("radius", v(lambda: fl(0.01, 1)), h_float, True)],
        "add_box": [P("half_extents", v(lambda: vec(0.01, 1)), h_vec, True)],
        "add_capsule": [
            P("radius", v(lambda: fl(0.01, 0.5)), h_float, True),
            P("half_height", v(lambda: fl(0.01, 1)), h_float, True),
        ],
        "add_convex": [P("points", v_points, h_points, True)],
        "add_wedge": [
            P(n, v(lambda: fl(0.05, 1)), h_float, True) for n in ("length", "height", "width")
        ],
        "add_prism": [
            P("polygon", v_just(TRIANGLE, SQUARE, np.array(SQUARE)), h_polygon, True),
            P("depth", v(lambda: fl(0.05, 1)), h_float, True),
        ],
    }
    for name, ps in shapes.items():
        out.append(
            Spec(
                f"w.{name}",
                "method",
                attr=name,
                params=ps + solid_options(),
                targets=world_target,
                examples=100,
            )
        )
    out.append(
        Spec(
            "w.add_plane",
            "method",
            attr="add_plane",
            targets=world_target,
            examples=80,
            params=[
                P("normal", lambda ctx, kw=None: _st().none() | direction(), h_vec),
                P("offset", v(lambda: fl(-1, 1)), h_float),
            ]
            + plane_options(),
        )
    )

    anchor = v(lambda: vec(-0.2, 0.2))
    out += [
        Spec(
            "w.add_spring",
            "method",
            attr="add_spring",
            targets=world_target,
            params=joint_params(
                [
                    P("stiffness", v(lambda: fl(0, 1000)), h_float, True),
                    P("damping", v(lambda: fl(0, 10)), h_float),
                    P("rest_length", optional(lambda: fl(0, 5)), h_float),
                    P("anchor_a", anchor, h_vec),
                    P("anchor_b", anchor, h_vec),
                ]
            ),
        ),
        Spec(
            "w.add_distance_joint",
            "method",
            attr="add_distance_joint",
            targets=world_target,
            params=joint_params(
                [
                    P("anchor_a", anchor, h_vec),
                    P("anchor_b", anchor, h_vec),
                    P("length", optional(lambda: fl(0.1, 5)), h_float),
                ]
            ),
        ),
        Spec(
            "w.add_rope_joint",
            "method",
            attr="add_rope_joint",
            targets=world_target,
            params=joint_params(
                [
                    P("anchor_a", anchor, h_vec),
                    P("anchor_b", anchor, h_vec),
                    P("max_length", optional(lambda: fl(0.1, 15)), h_float),
                ]
            ),
        ),
        Spec(
            "w.add_ball_joint",
            "method",
            attr="add_ball_joint",
            targets=world_target,
            params=joint_params([P("anchor", v(lambda: vec(-5, 5)), h_vec, True)]),
        ),
        Spec(
            "w.add_hinge_joint",
            "method",
            attr="add_hinge_joint",
            targets=world_target,
            examples=100,
            params=joint_params(
                [
                    P("anchor", v(lambda: vec(-5, 5)), h_vec, True),
                    P("axis", v(direction), h_vec),
                    P("limits", v_limits, h_limits),
                    P("motor", v_motor, h_motor),
                ]
            ),
        ),
        Spec(
            "w.add_fixed_joint",
            "method",
            attr="add_fixed_joint",
            targets=world_target,
            params=joint_params([]),
        ),
        Spec(
            "w.add_mouse_joint",
            "method",
            attr="add_mouse_joint",
            targets=world_target,
            params=[
                P("a", v_dynamic, h_body(), required=True),
                P("target", v(lambda: vec(-5, 5)), h_vec, True),
                P("point", optional(lambda: vec(-5, 5)), h_vec),
                P("frequency", v(lambda: fl(0.1, 50)), h_float),
                P("damping_ratio", v(lambda: fl(0, 5)), h_float),
                P("max_force", optional(lambda: fl(0, 1000)), h_float),
            ],
        ),
        Spec(
            "w.set_pair",
            "method",
            attr="set_pair",
            targets=world_target,
            params=[
                P("a", lambda ctx, kw=None: _st().sampled_from(ctx.bodies), h_body("b"), True),
                P("b", v_body_pair("a"), h_body("a"), True),
                P("restitution", optional(lambda: fl(0, 1)), h_float),
                P("friction", optional(lambda: fl(0, 2)), h_float),
                P("static_friction", optional(lambda: fl(0, 2)), h_float),
                P("tangential_restitution", optional(lambda: fl(-1, 1)), h_float),
            ],
        ),
        Spec(
            "w.remove",
            "method",
            attr="remove",
            targets=world_target,
            params=[
                P(
                    "body",
                    lambda ctx, kw=None: _st().sampled_from(
                        ctx.bodies + [ctx.spring] + list(ctx.joints.values())
                    ),
                    lambda ctx, kw=None: junk(
                        ctx, [ctx.dead_spring, ctx.dead_joint, 0, None, "ball", 1.5]
                    ),
                    True,
                )
            ],
        ),
        Spec(
            "w.step",
            "method",
            attr="step",
            targets=world_target,
            simulates=True,
            params=[P("n", v(lambda: _st().integers(0, 10)), h_count)],
        ),
        Spec(
            "w.run",
            "method",
            attr="run",
            targets=world_target,
            simulates=True,
            params=[
                P("seconds", v(lambda: fl(0, 0.05)), h_duration, True),
                P("progress", v_just(False, True), h_bool),
                P("realtime", v_just(None, False), h_bool),
            ],
        ),
        Spec(
            "rl.step_many",
            "func",
            fn=lambda ctx: rl.step_many,
            simulates=True,
            params=[
                P(
                    "worlds",
                    lambda ctx, kw=None: _st().sampled_from(
                        [[ctx.w], [ctx.w, ctx.other], (ctx.other,), []]
                    ),
                    lambda ctx, kw=None: junk(
                        ctx,
                        [
                            [ctx.w, ctx.w],
                            [ctx.w, None],
                            [ctx.w, ctx.B["box"]],
                            [[ctx.w]],
                            "ww",
                            None,
                            3,
                            [ctx.w, 1],
                            {ctx.w: 1},
                        ],
                    ),
                    True,
                ),
                P("steps", v(lambda: _st().integers(0, 5)), h_count),
                P("threads", lambda ctx, kw=None: _st().sampled_from([None, 1, 2]), h_int),
            ],
        ),
        Spec(
            "w.ray_cast",
            "method",
            attr="ray_cast",
            targets=world_target,
            post=check_result,
            params=[
                P("origin", v(lambda: vec(-5, 5)), h_vec, True),
                P("direction", v(direction), h_vec, True),
                P("max_distance", v(lambda: fl(0, 100)), h_float),
                P("planes", v_just(True, False), h_bool),
            ],
        ),
        Spec(
            "w.set_state",
            "method",
            attr="set_state",
            targets=world_target,
            examples=100,
            params=[
                P(f, v_state(f, k), h_state(f, k))
                for f, k in (
                    ("positions", 3),
                    ("orientations", 4),
                    ("velocities", 3),
                    ("angular_velocities", 3),
                )
            ],
        ),
        Spec(
            "w.angular_momentum",
            "method",
            attr="angular_momentum",
            targets=world_target,
            post=check_result,
            params=[P("about", lambda ctx, kw=None: _st().none() | vec(-10, 10), h_vec)],
        ),
        Spec(
            "w.contact_events",
            "method",
            attr="contact_events",
            targets=world_target,
            post=check_result,
            params=[P("clear", v_just(True, False), h_bool)],
        ),
        Spec(
            "w.record",
            "method",
            attr="record",
            targets=world_target,
            post=recording_post,
            params=[
                P("every", v(lambda: _st().integers(1, 5)), h_int),
                P(
                    "quantities",
                    lambda ctx, kw=None: (
                        _st().none()
                        | _st().lists(_st().sampled_from(QUANTITIES), min_size=1, unique=True)
                    ),
                    lambda ctx, kw=None: junk(
                        ctx,
                        [
                            ["nope"],
                            "positions",
                            [1],
                            [None],
                            [],
                            ["positions", "positions"],
                            {"energy"},
                            ["Positions"],
                            [b"energy"],
                        ],
                    ),
                ),
            ],
        ),
        Spec(
            "w.restore",
            "method",
            attr="restore",
            targets=world_target,
            params=[
                P(
                    "snapshot",
                    lambda ctx, kw=None: _st().sampled_from([ctx.snap]),
                    lambda ctx, kw=None: junk(ctx, [ctx.other_snap, "snap", 1, {}]),
                    True,
                )
            ],
        ),
        Spec(
            "World.from_json",
            "func",
            fn=lambda ctx: rl.World.from_json,
            post=loaded,
            aliases={"text": ["scene file"]},
            params=[
                P(
                    "text",
                    lambda ctx, kw=None: _st().just(ctx.w.to_json()),
                    lambda ctx, kw=None: junk(ctx, JSON_JUNK, _st().text(max_size=20)),
                    True,
                )
            ],
        ),
        Spec(
            "w.save",
            "method",
            attr="save",
            targets=world_target,
            oserror=True,
            params=[P("path", v_save_path, h_path, True)],
        ),
        Spec(
            "World.load",
            "func",
            fn=lambda ctx: rl.World.load,
            oserror=True,
            post=loaded,
            aliases={"path": ["scene file"]},
            params=[P("path", v_load_path, h_load_path, True)],
        ),
        # A viewer program that cannot start is the system's error (OSError), naming `command`.
        Spec(
            "w.view",
            "method",
            attr="view",
            targets=world_target,
            post=view_post,
            examples=25,
            oserror=True,
            params=[
                P("rate", v(lambda: fl(1, 120)), h_float),
                P(
                    "command",
                    lambda ctx, kw=None: _st().just([sys.executable, "-c", DRAIN]),
                    lambda ctx, kw=None: junk(
                        ctx,
                        [
                            [],
                            "python",
                            ["/nonexistent/viewer"],
                            [1, 2],
                            [sys.executable, 1],
                            [b"x"],
                        ],
                    ),
                ),
            ],
        ),
        Spec(
            "w.animate",
            "method",
            attr="animate",
            targets=world_target,
            examples=12,
            params=[
                P("seconds", v(lambda: fl(0, 0.1)), h_duration, True),
                P("fps", v(lambda: fl(5, 20)), h_float),
                P("plane", v_just("xy", "xz", "zy"), h_str),
                P("size", v(lambda: vec(1, 4, 2)), h_vec),
                P(
                    "limits",
                    v_just(None),
                    lambda ctx, kw=None: junk(ctx, [(0, 1), "tight", NAN, ((NAN, 1), (0, 1))]),
                ),
                P("save", v_just(None), h_path),
            ],
        ),
    ]
    for name in ("energy", "momentum", "contacts", "snapshot", "to_json", "close_view"):
        out.append(
            Spec(
                f"w.{name}",
                "method",
                attr=name,
                targets=world_target,
                post=check_result,
                examples=5,
            )
        )

    body_setters = [p for p in solid_options() if p.name not in ("mass", "density")]
    for p in body_setters:
        if p.name == "kind":  # a plane has no mass to be dynamic with
            p = P(
                "kind",
                lambda ctx, kw=None: _st().sampled_from(
                    ["static", "kinematic"]
                    + (
                        []
                        if alive(kw["_target"]) and kw["_target"].shape == "plane"
                        else ["dynamic"]
                    )
                ),
                h_str,
            )
        if p.name in ("velocity", "angular_velocity"):  # a static body is refused any motion
            p = P(
                p.name,
                lambda ctx, kw=None: (
                    vec(-5, 5)
                    if not alive(kw["_target"]) or kw["_target"].kind != "static"
                    else _st().just((0, 0, 0))
                ),
                h_vec,
            )
        out.append(
            Spec(
                f"body.{p.name} =",
                "setter",
                attr=p.name,
                params=[p],
                targets=body_targets,
                examples=70,
            )
        )
    out += [
        Spec(
            "body.angular_momentum",
            "method",
            attr="angular_momentum",
            targets=body_targets,
            post=check_result,
            params=[P("about", lambda ctx, kw=None: _st().none() | vec(-10, 10), h_vec)],
        ),
        Spec(
            "body.apply_force",
            "method",
            attr="apply_force",
            targets=dynamic_targets,
            examples=100,
            params=[
                P("force", v(lambda: vec(-100, 100)), h_vec, True),
                P("point", lambda ctx, kw=None: _st().none() | vec(-10, 10), h_vec),
                P(
                    "duration",
                    lambda ctx, kw=None: _st().none() | fl(1e-3, 1) | _st().just(INF),
                    h_float,
                ),
                P(
                    "local_point",
                    lambda ctx, kw=None: (
                        _st().none()
                        if kw.get("point") is not None
                        else _st().none() | vec(-0.2, 0.2)
                    ),
                    h_vec,
                ),
            ],
        ),
        Spec(
            "body.apply_torque",
            "method",
            attr="apply_torque",
            targets=dynamic_targets,
            params=[
                P("torque", v(lambda: vec(-100, 100)), h_vec, True),
                P(
                    "duration",
                    lambda ctx, kw=None: _st().none() | fl(1e-3, 1) | _st().just(INF),
                    h_float,
                ),
            ],
        ),
        Spec(
            "body.apply_impulse",
            "method",
            attr="apply_impulse",
            targets=dynamic_targets,
            params=[
                P("impulse", v(lambda: vec(-10, 10)), h_vec, True),
                P("point", lambda ctx, kw=None: _st().none() | vec(-10, 10), h_vec),
            ],
        ),
        Spec("load.remove", "method", attr="remove", targets=load_targets, examples=5),
        Spec(
            "recording.save",
            "method",
            attr="save",
            targets=lambda ctx: [ctx.recording],
            oserror=True,
            params=[P("path", v_save_path, h_path, True)],
        ),
        Spec("spring.remove", "method", attr="remove", targets=spring_targets, examples=5),
        Spec("joint.remove", "method", attr="remove", targets=joint_targets, examples=10),
        Spec(
            "joint.motor =",
            "setter",
            attr="motor",
            targets=joint_targets,
            params=[P("motor", v_motor, h_motor)],
            hostile_if=lambda t: alive(t) and t.kind != "hinge",
        ),
        Spec(
            "joint.target =",
            "setter",
            attr="target",
            targets=joint_targets,
            params=[P("target", v(lambda: vec(-5, 5)), h_vec)],
            hostile_if=lambda t: alive(t) and t.kind != "mouse",
        ),
    ]
    for name, valid in (
        ("stiffness", fl(0, 1000)),
        ("damping", fl(0, 10)),
        ("rest_length", fl(0, 5)),
    ):
        out.append(
            Spec(
                f"spring.{name} =",
                "setter",
                attr=name,
                targets=spring_targets,
                params=[P(name, lambda ctx, kw=None, s=valid: s, h_float)],
            )
        )
    return {s.name: s for s in out}


def run_call(data, rec, ctx, spec):
    """Draws one call of `spec` (every argument ordinary but one hostile, or all ordinary) and
    checks it."""
    st = _st()
    target = data.draw(st.sampled_from(spec.targets(ctx))) if spec.targets else None
    params = list(spec.params)
    if spec.kind != "setter" and params:  # an unknown keyword must be named too
        params.append(P("bogus_keyword", None, lambda ctx, kw=None: _st().just(1)))
    forced = spec.hostile_if is not None and spec.hostile_if(target)
    focus = None
    if params and (forced or data.draw(st.integers(0, 3)) > 0):
        focus = data.draw(st.sampled_from([p.name for p in params]))
    kw, hostile = {"_target": target}, []
    for p in params:
        if p.name == focus:
            # A call refused whatever the value (a motor on a ball joint) gets ordinary ones too.
            extra = p.valid(ctx, kw) if forced else st.just(OMIT) if p.required else st.nothing()
            value = data.draw(p.hostile(ctx, kw) | extra)
            if isinstance(value, Alias):
                value, also = value.value, value.names
                hostile.extend(also)
            hostile.append(p.name)
            hostile[:-1] = hostile[:-1] + spec.aliases.get(p.name, [])
            if value is OMIT:
                continue
            kw[p.name] = value
        elif p.valid is not None and (
            p.required or spec.kind == "setter" or data.draw(st.booleans())
        ):
            strategy = p.valid(ctx, kw)
            if strategy is not None:
                kw[p.name] = data.draw(strategy)
    del kw["_target"]
    if forced:
        hostile = [spec.params[0].name]
    args = ", ".join(f"{k}={fmt(x, ctx)}" for k, x in kw.items())
    if spec.kind == "setter":
        owner = fmt(target, ctx)
        call = f"{owner}.{spec.attr} = {fmt(kw[spec.attr], ctx)}"

        def fn():
            return setattr(target, spec.attr, kw[spec.attr])
    elif spec.kind == "method":
        call = f"{fmt(target, ctx)}.{spec.attr}({args})"

        def fn():
            return getattr(target, spec.attr)(**kw)
    else:
        call = f"{spec.name.removesuffix('()')}({args})"

        def fn():
            return spec.fn(ctx)(**kw)

    dead = target is not None and not isinstance(target, type(ctx.w)) and not alive(target)
    rec.check(
        spec.name,
        call,
        fn,
        worlds=ctx.worlds,
        hostile=hostile,
        names=[p.name for p in params],
        simulates=spec.simulates,
        oserror=spec.oserror,
        dead_target=dead,
        post=spec.post(ctx) if spec.post else None,
    )


READ_ONLY = {
    "body": [
        "id",
        "world",
        "alive",
        "index",
        "sleeping",
        "mass",
        "inertia",
        "inertia_body",
        "shape",
        "dimensions",
        "kinetic_energy",
        "momentum",
    ],
    "spring": ["body_a", "body_b", "anchor_a", "anchor_b", "length", "elastic_energy", "alive"],
    "joint": [
        "kind",
        "body_a",
        "body_b",
        "anchor_a",
        "anchor_b",
        "length",
        "target_length",
        "angle",
        "limits",
        "impulse",
        "angular_impulse",
        "reaction_force",
        "reaction_torque",
        "alive",
    ],
    "world": [
        "solver_iterations_done",
        "step_times",
        "springs",
        "joints",
        "bodies",
        "viewing",
    ],
}
SETTABLE = {
    "body": [
        "position",
        "orientation",
        "velocity",
        "angular_velocity",
        "kind",
        "name",
        "color",
        "restitution",
        "friction",
        "static_friction",
        "tangential_restitution",
        "linear_damping",
        "angular_damping",
        "quadratic_drag",
        "gravity_scale",
    ],
    "spring": ["stiffness", "damping", "rest_length"],
    "joint": ["motor"],
    "world": [
        "time",
        "dt",
        "gravity",
        "integrator",
        "solver_iterations",
        "solver_tolerance",
        "restitution_threshold",
        "sleeping",
        "threads",
        "positions",
        "orientations",
        "velocities",
        "angular_velocities",
    ],
}


def run_handles(data, rec, ctx, reads=True):
    """A few edits that retire or reuse handles (remove, restore an older snapshot, make a body
    static, add bodies), then every property of every handle read, and every read-only one set:
    a live handle reads finite numbers, a dead one raises IndexError, a read-only property
    AttributeError."""
    st = _st()
    w = ctx.w
    # Adds and removes weigh double: handles are retired and slots reused by the two together.
    menu = ["step", "remove", "remove", "add", "add", "restore", "kind", "snapshot"]
    ops = data.draw(st.lists(st.sampled_from(menu), max_size=12))
    for op in ops:
        # Each edit is an ordinary call, checked like any other (and logged, to replay a hang).
        if op == "step":
            n = data.draw(st.integers(1, 5))
            rec.check(
                "handles: edit",
                f"w.step({n})",
                lambda n=n: w.step(n),
                worlds=ctx.worlds,
                names=["n"],
                simulates=True,
                settle=False,
            )
        elif op == "remove":
            live = [h for h in ctx.bodies + [ctx.spring] + list(ctx.joints.values()) if alive(h)]
            if live:
                h = data.draw(st.sampled_from(live))
                rec.check(
                    "handles: edit",
                    f"w.remove({fmt(h, ctx)})",
                    lambda h=h: w.remove(h),
                    worlds=ctx.worlds,
                    names=["body"],
                    settle=False,
                )
        elif op == "restore":
            rec.check(
                "handles: edit",
                "w.restore(snap)",
                lambda snap=ctx.snap: w.restore(snap),
                worlds=ctx.worlds,
                names=["snapshot"],
                settle=False,
            )
        elif op == "add":
            _, body = rec.check(
                "handles: edit",
                "w.add_sphere(0.05, position=(0, 2, 0))",
                lambda: w.add_sphere(0.05, position=(0, 2, 0)),
                worlds=ctx.worlds,
                names=["radius"],
                settle=False,
            )
            if body is not None:
                ctx.bodies.append(body)
        elif op == "kind":
            body = data.draw(st.sampled_from([b for b in ctx.dynamic if alive(b)] or [None]))
            if body is not None:
                rec.check(
                    "handles: edit",
                    f"{fmt(body, ctx)}.kind = 'static'",
                    lambda b=body: setattr(b, "kind", "static"),
                    worlds=ctx.worlds,
                    names=["kind"],
                    settle=False,
                )
        else:
            ctx.snap = w.snapshot()
            rec.event(t="note", call="snap = w.snapshot()")
    rec.check(
        "handles: edit",
        "w.step(5)",
        lambda: w.step(5),
        worlds=ctx.worlds,
        names=["n"],
        simulates=True,
        settle=False,
    )
    if not reads:
        return
    handles = [("body", b) for b in ctx.bodies + [ctx.gone, ctx.foreign]] + [
        ("spring", ctx.spring),
        ("spring", ctx.dead_spring),
    ]
    handles += [("joint", j) for j in list(ctx.joints.values()) + [ctx.dead_joint]] + [("world", w)]
    kinds = {b.id: b.kind for b in w.bodies}
    for group, h in handles:
        live = group == "world" or alive(h)
        owner = ctx.names.get(id(h), f"<{group}>")
        for attr in READ_ONLY[group] + SETTABLE[group]:

            def read(h=h, attr=attr, group=group):
                value = getattr(h, attr)
                static = group == "body" and kinds.get(h.id) != "dynamic"
                if not (static and attr in ("mass", "inertia", "inertia_body")) and not finite(
                    value
                ):
                    raise NotFinite(f"{value!r}")

            _read(rec, "read", f"{owner}.{attr}", read, ctx, live)
        for attr in READ_ONLY[group]:

            def write(h=h, attr=attr):
                setattr(h, attr, 1.0)

            rec.check(
                "read-only =",
                f"{owner}.{attr} = 1.0",
                _expect_attribute_error(write, attr),
                worlds=ctx.worlds,
                hostile=[attr],
                names=[attr],
            )

    def snap_time():
        if not finite(ctx.snap.time):
            raise NotFinite(ctx.snap.time)

    _read(rec, "read", "snap.time", snap_time, ctx, True)
    for load in (ctx.load, ctx.load_once):
        _read(
            rec, "read", f"{ctx.names[id(load)]}.active", lambda load=load: load.active, ctx, True
        )
    listed = w.bodies
    for group, h in handles:
        if group == "body":

            def member(h=h):
                # A handle hashes, and equals a handle of the same live body (a dead one: none).
                hash(h)
                if (h in listed) != (alive(h) and h.world is w):
                    raise RuntimeError("a handle's == disagrees with World.bodies")

            _read(rec, "read", f"{ctx.names.get(id(h), '<body>')} in w.bodies", member, ctx, True)

    def pickled():
        import pickle

        again = pickle.loads(pickle.dumps(w))
        if again.to_json() != w.to_json():
            raise RuntimeError("pickle: the world read back differs")

    _read(rec, "read", "pickle.loads(pickle.dumps(w))", pickled, ctx, True)


def _read(rec, spec, call, fn, ctx, live):
    # No parameter can be at fault in a read: any error but a dead handle's IndexError fails.
    rec.check(
        spec, call, fn, worlds=ctx.worlds, names=["<read>"], dead_target=not live, settle=False
    )


def _expect_attribute_error(fn, attr):
    """Setting a read-only property must raise AttributeError naming it; that counts as a
    clean refusal (a ValueError naming attr), anything else as the wrong exception."""

    def call():
        try:
            fn()
        except AttributeError as e:
            if attr in str(e):
                raise ValueError(f"{attr}: read-only ({e})") from e
            raise RuntimeError(f"AttributeError not naming {attr}: {e}") from e
        except Exception as e:  # only AttributeError is right here
            raise RuntimeError(f"{type(e).__name__} instead of AttributeError: {e}") from e
        raise RuntimeError(f"{attr}: setting a read-only property was accepted")

    return call


# ---------------------------------------------------------------------------------------------
# scene files


class Raw:
    """A JSON token written as is (NaN, 1e999), which json.dumps cannot produce."""

    def __init__(self, token):
        self.token = token


DELETE = object()
SCENE_MUTATIONS = [
    Raw("NaN"),
    Raw("1e999"),
    "nan",
    1e308,
    -1e308,
    -1,
    0,
    -0.0,
    1e-300,
    2**32 - 1,
    2**64,
    True,
    None,
    "x",
    [],
    {},
    [0.0, 0.0],
    DELETE,
]


def paths(node, prefix=()):
    """Every field path; in a hull's lists and the contact cache only the first two entries,
    which stand for the rest."""
    yield prefix
    if isinstance(node, dict):
        for k, x in node.items():
            yield from paths(x, prefix + (k,))
    elif isinstance(node, list):
        alike = any(k in prefix for k in ("hull", "mass_properties", "contacts", "points"))
        for i, x in enumerate(node[:2] if alike else node):
            yield from paths(x, prefix + (i,))


def mutate(doc, path, value):
    """The scene text with the field at `path` replaced by value (or deleted)."""
    doc = json.loads(json.dumps(doc))
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    raw = None
    if value is DELETE:
        del parent[path[-1]]
    elif isinstance(value, Raw):
        raw, parent[path[-1]] = value.token, "\u0000RAW\u0000"
    else:
        parent[path[-1]] = value
    text = json.dumps(doc)
    return text.replace(json.dumps("\u0000RAW\u0000"), raw) if raw else text


def show_path(path):
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path).lstrip(".")


def field_names(path, deleted=False, value=None):
    """Names a fair message about the field at `path` may give: its key (or its list's), and
    for an internally tagged enum's `type` the enum itself. Fields that only point at others
    (ids, handles), and whole entries deleted from a list, surface where a reference dangles,
    so there any field a scene-file message names is fair."""
    keys = [k for k in path if isinstance(k, str)]
    whole_list = len(path) == 1 and isinstance(value, list)
    if (
        set(keys[-1:]) & REFERENCE_KEYS
        or whole_list
        or (deleted and len(path) == 2 and isinstance(path[-1], int))
    ):
        return ["scene file"]
    names = keys[-1:]
    if keys and keys[-1] == "type" and len(keys) > 1:
        names.append(keys[-2])
    # The fields of a shape or a joint's kind (internally tagged enums) are read as one value:
    # a value of the wrong type there is reported at the enum (bodies[1].shape: invalid type).
    names += [k for k in ("shape", "kind") if k in keys[:-1]]
    # A hull's parts are checked as one hull: "hull: is not a valid convex hull (got ...)".
    return names + [k for k in ("hull", "mass_properties") if k in keys[:-1]]


# Fields that only point at others (ids, handles): changing one surfaces where the reference
# dangles, so any field named in a scene-file message is fair.
REFERENCE_KEYS = {"id", "next_id", "next_handle", "handle"}


def load_scene(rec, spec, label, text, names, *, via_file=False, must_refuse=False):
    rl = sys.modules["rigidlab"]

    def load():
        if via_file:
            path = pathlib.Path("mutated.json")
            path.write_text(text)
            return rl.World.load(path)
        return rl.World.from_json(text)

    def post(world):
        again = rl.World.from_json(world.to_json())  # a loaded world saves to a file that loads
        return [world, again]

    if "NaN" in text or "1e999" in text:  # not JSON at all: the message says so, with its place
        names = list(names) + ["not valid JSON"]
    call = f"World.from_json(mutated(doc, {label}))"
    accepted, _ = rec.check(spec, call, load, worlds=[], hostile=names, names=names, post=post)
    if accepted and must_refuse:
        rec.fail("scene loader accepted what the API refuses", spec, call)


def scene_doc():
    return json.loads(Ctx().w.to_json())


def targeted_mutations(doc):
    """Mutations that no single generic value makes: references that dangle or loop back, hinge
    limits reversed, hull faces with bad indices, coplanar hull vertices. Those whose label is
    in REFUSED make what the API refuses (a joint of a body to itself, limits outside
    [-pi, pi] or reversed, a negative motor torque, a hull without volume, a zero quaternion),
    so the loader must refuse them too."""
    out = []
    ids = [b["id"] for b in doc["bodies"]]
    for j, joint in enumerate(doc["joints"]):
        out.append(
            (f"joints[{j}] joining body {joint['a']} to itself", ("joints", j, "b"), joint["a"])
        )
        out.append((f"joints[{j}].a = 999", ("joints", j, "a"), 999))
        if joint["kind"]["type"] == "hinge":
            kp = ("joints", j, "kind")
            out += [
                (f"hinge limits [1, -1] ({j})", kp + ("limits",), [1.0, -1.0]),
                (f"hinge limits [0, 0] ({j})", kp + ("limits",), [0.0, 0.0]),
                (f"hinge limits [-10, 10] ({j})", kp + ("limits",), [-10.0, 10.0]),
                (f"hinge motor [1, -1] ({j})", kp + ("motor",), [1.0, -1.0]),
                (f"hinge axis_a zero ({j})", kp + ("axis_a",), [0.0, 0.0, 0.0]),
                (f"hinge reference_a along the axis ({j})", kp + ("reference_a",), [0.0, 0.0, 1.0]),
            ]
        if joint["kind"]["type"] == "fixed":
            out.append(
                (
                    f"fixed relative zero quaternion ({j})",
                    ("joints", j, "kind", "relative"),
                    [0.0, 0.0, 0.0, 0.0],
                )
            )
    for s, spring in enumerate(doc["springs"]):
        out.append(
            (f"springs[{s}] joining body {spring['a']} to itself", ("springs", s, "b"), spring["a"])
        )
    for i, body in enumerate(doc["bodies"]):
        if body["shape"]["type"] != "convex":
            continue
        hull = ("bodies", i, "shape", "hull")
        faces = body["shape"]["hull"]["faces"]
        verts = body["shape"]["hull"]["vertices"]
        out += [
            (f"hull {i} face index 99", hull + ("faces", 0, "vertices"), [0, 1, 99]),
            (f"hull {i} face index -1", hull + ("faces", 0, "vertices"), [0, 1, -1]),
            (f"hull {i} face repeated index", hull + ("faces", 0, "vertices"), [0, 0, 0]),
            (f"hull {i} face of two vertices", hull + ("faces", 0, "vertices"), [0, 1]),
            (f"hull {i} no faces", hull + ("faces",), []),
            (f"hull {i} one face", hull + ("faces",), faces[:1]),
            (
                f"hull {i} coplanar vertices",
                hull + ("vertices",),
                [[x, y, 0.0] for x, y, _ in verts],
            ),
            (f"hull {i} all vertices equal", hull + ("vertices",), [verts[0]] * len(verts)),
            (f"hull {i} no vertices", hull + ("vertices",), []),
            (f"hull {i} edge index 99", hull + ("edges", 0), [0, 99]),
            (f"hull {i} face normal zero", hull + ("faces", 0, "normal"), [0.0, 0.0, 0.0]),
            (
                f"hull {i} face normal reversed",
                hull + ("faces", 0, "normal"),
                [-x for x in faces[0]["normal"]],
            ),
            (f"hull {i} zero volume", ("bodies", i, "shape", "mass_properties", "volume"), 0.0),
            (
                f"hull {i} inertia all zero",
                ("bodies", i, "shape", "mass_properties", "unit_inertia"),
                [0.0] * 9,
            ),
        ]
    out += [
        ("duplicate body id", ("bodies", 2, "id"), ids[1]),
        ("next_id below the ids", ("next_id",), 0),
        ("plane made dynamic", ("bodies", 0, "kind"), "dynamic"),
        ("plane given a mass", ("bodies", 0, "mass"), 1.0),
        ("static body without mass made dynamic", ("bodies", 5, "kind"), "dynamic"),
        ("dynamic body without mass", ("bodies", 1, "mass"), None),
        (
            "pair material of a body with itself",
            ("pair_materials", 0, "b"),
            doc["pair_materials"][0]["a"],
        ),
        ("pair material of an unknown body", ("pair_materials", 0, "b"), 999),
        ("load on an unknown body", ("loads", 0, "body"), 999),
        ("contact of an unknown body", ("contacts", 0, "a"), 999) if doc["contacts"] else None,
        (
            "contact of five points",
            ("contacts", 0, "points"),
            (doc["contacts"][0]["points"] * 5)[:5],
        )
        if doc["contacts"]
        else None,
        ("version 2", ("version",), 2),
        ("another format", ("format",), "other-scene"),
        ("time steps 2**63", ("time", "steps"), 2**63),
        ("solver_iterations 2**32-1", ("settings", "solver_iterations"), 2**32 - 1),
        ("position_iterations 2**32-1", ("settings", "position_iterations"), 2**32 - 1),
        ("zero orientation", ("bodies", 1, "orientation"), [0.0, 0.0, 0.0, 0.0]),
    ]
    return [m + (any(r in m[0] for r in REFUSED),) for m in out if m is not None]


REFUSED = [
    "to itself",
    "limits [1, -1]",
    "limits [-10, 10]",
    "motor [1, -1]",
    "axis_a zero",
    "coplanar",
    "all vertices equal",
    "inertia all zero",
    "zero quaternion",
    "zero orientation",
    "five points",
]


def run_scene_sweep(rec):
    """Every field path of the scene, one generic mutation at a time, then the targeted ones."""
    doc = scene_doc()
    all_paths = [p for p in paths(doc) if p]
    n = 0
    for path in all_paths:
        for value in SCENE_MUTATIONS:
            n += 1
            label = f"{show_path(path)} = {'<deleted>' if value is DELETE else value.token if isinstance(value, Raw) else repr(value)}"
            load_scene(
                rec,
                "scene: one field",
                label,
                mutate(doc, path, value),
                field_names(path, value is DELETE, value),
                via_file=n % 50 == 0,
            )
    for label, path, value, refused in targeted_mutations(doc):
        load_scene(
            rec,
            "scene: targeted",
            label,
            mutate(doc, path, value),
            field_names(path),
            must_refuse=refused,
        )


def run_scene_random(data, rec, doc, all_paths):
    st = _st()
    path = data.draw(st.sampled_from(all_paths))
    value = data.draw(
        st.one_of(
            st.floats(),
            st.integers(-(2**70), 2**70),
            st.text(max_size=6),
            st.booleans(),
            st.none(),
            st.lists(st.floats() | st.integers(-5, 50), max_size=5),
            st.dictionaries(
                st.sampled_from(["type", "a", "b", "x", "radius"]), st.integers(-2, 10), max_size=2
            ),
        )
    )
    text = mutate(
        doc, path, Raw("NaN") if isinstance(value, float) and math.isnan(value) else value
    )
    text = (
        text.replace("Infinity", "1e999")
        if isinstance(value, float) and math.isinf(value)
        else text
    )
    load_scene(
        rec, "scene: random", f"{show_path(path)} = {value!r}", text, field_names(path, value=value)
    )


# ---------------------------------------------------------------------------------------------
# batches, and the child that runs one


def batches():
    names = list(specs())
    world = [n for n in names if n.startswith(("World", "w.", "rl."))]  # the rest: handles
    bodies = [n for n in names if n not in world]
    half = len(world) // 2
    return {
        "world_a": world[:half],
        "world_b": world[half:],
        "bodies": bodies + ["edits", "handles"],
        "scene": ["scene sweep", "scene random"],
    }


BATCH_NAMES = ["world_a", "world_b", "bodies", "scene"]


def fuzzer(name, table, rec, examples):
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st

    doc = scene_doc() if name == "scene random" else None
    doc_paths = [p for p in paths(doc) if p] if doc else None

    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        print_blob=False,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.generate],
    )
    @given(st.data())
    def fuzz(data):
        if name in ("edits", "handles"):  # edits alone are cheap, so many more sequences of them
            run_handles(data, rec, Ctx(), reads=name == "handles")
        elif name == "scene random":
            run_scene_random(data, rec, doc, doc_paths)
        else:
            run_call(data, rec, Ctx(), table[name])

    return fuzz


def child_main(batch, log_path, state_path):
    import rigidlab  # noqa: F401 - loaded for the oracles

    faulthandler.enable()
    state = json.loads(pathlib.Path(state_path).read_text())
    prepare_files()
    table = specs()
    with open(log_path, "a") as log:
        rec = Recorder(log, state["skip"], state["skip_focus"])
        for name in batches()[batch]:
            if name in state["done"]:
                continue
            rec.counts = Counter()
            examples = (
                table[name].examples
                if name in table
                else {"edits": 400, "handles": 80}.get(name, 150)
            )
            if name == "scene sweep":
                run_scene_sweep(rec)
            else:
                fuzzer(name, table, rec, examples)()
            rec.event(t="spec", name=name, counts=dict(rec.counts))
        rec.event(t="end")


# ---------------------------------------------------------------------------------------------
# the parent: pytest


COUNT_KEYS = [
    "tried",
    "clean_errors",
    "accepted",
    "simulation_errors",
    "nan_after_accept",
    "panics",
    "hangs",
    "crashes",
    "failures",
    "skipped",
]


def run_batch(batch, tmp):
    """Runs one batch in child processes until it ends, rerunning after each crash or hang with
    the call at fault skipped. Returns (counts, failures)."""
    skip, skip_focus, done, failures, counts = [], [], [], [], Counter()
    per_param = Counter()
    started = time.monotonic()
    for attempt in range(MAX_RERUNS + 1):
        log = tmp / f"{batch}-{attempt}.log"
        err = tmp / f"{batch}-{attempt}.err"
        state = tmp / f"{batch}.state.json"
        state.write_text(json.dumps({"skip": skip, "skip_focus": skip_focus, "done": done}))
        cwd = tmp / f"{batch}-cwd"
        cwd.mkdir(exist_ok=True)
        env = dict(os.environ, PYTHONHASHSEED="0", MPLBACKEND="Agg")
        env.pop("DISPLAY", None)
        with open(err, "w") as errf:
            proc = subprocess.Popen(
                [sys.executable, str(HERE), "--child", batch, str(log), str(state)],
                cwd=cwd,
                stdout=errf,
                stderr=errf,
                env=env,
                start_new_session=True,
            )
            try:
                rc = proc.wait(timeout=BATCH_TIMEOUT)
                timed_out = False
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                rc, timed_out = proc.wait(), True
        events = (
            [json.loads(line) for line in log.read_text().splitlines() if line.endswith("}")]
            if log.exists()
            else []
        )
        last, pending = None, []
        for e in events:
            if e["t"] == "fail":
                pending.append(e)
            elif e["t"] == "spec":
                done.append(e["name"])
                counts.update(e["counts"])
                failures += pending  # a call cut short is run again, and its failures found again
                last, pending = None, []
            elif e["t"] in ("call", "settle"):
                last = e
        if rc == 0 and events and events[-1]["t"] == "end":
            break
        text = err.read_text(errors="replace")
        hang = timed_out or "Timeout (" in text
        where = "" if last is None or last["t"] == "call" else " (in the steps or checks after it)"
        kind = ("hang" if hang else f"crash (exit {rc})") + where
        if not hang and rc == 1 and "Traceback (most recent call last)" in text:
            kind = "child raised (a fault of this file, or an exception escaping a check)"
        counts["hangs" if hang else "crashes"] += 1
        counts["tried"] += 1
        counts["failures"] += 1
        lines = text.strip().splitlines()
        frames = [x.strip() for x in lines if x.strip().startswith("File")]
        # A hang: the innermost frame of the dump; a crash or an escaped exception: the end.
        tail = frames[0] if hang and frames else "\n".join(lines[-6:])
        if last is None:
            failures.append(
                {"kind": kind, "spec": batch, "call": "<outside any call>", "detail": tail}
            )
            break
        failures.append({"kind": kind, "spec": last["spec"], "call": last["call"], "detail": tail})
        skip.append(last["call"])
        key = (last["spec"], last.get("focus", ""))
        per_param[key] += 1
        if per_param[key] >= MAX_PER_PARAM:
            skip_focus.append(list(key))
    else:
        failures.append(
            {
                "kind": "batch abandoned",
                "spec": batch,
                "call": "",
                "detail": f"after {MAX_RERUNS} reruns",
            }
        )
    counts["seconds"] = round(time.monotonic() - started)
    return counts, failures


def shape_of(detail):
    """A failure's detail with its particulars (numbers, quoted text, lists, the file, what was
    expected) taken out, so that failures of one cause group together."""
    d = re.sub(r"^expected \[.*?\]; ", "", detail)
    serde = re.search(
        r"scene file: (invalid type|invalid value|invalid length|missing field|unknown field|unknown variant"
        r"|not valid JSON|duplicate field)",
        d,
    )
    if d.startswith("changed: "):
        return d.split(";")[0]
    if serde:  # the JSON reader's own errors: a line and column, no field
        return f"{d[: d.index(':')]}: scene file: {serde.group(1)} ..., with no field named"
    d = re.sub(r"^(\w+\.json|/dev/\w+): ", "", d.replace("mutated.json: ", ""))
    d = re.sub(r"\bat line \d+ column \d+|\(got .*?\)$", "", d)
    d = re.sub(r"`[^`]*`|\"[^\"]*\"|'[^']*'|\[[^\]]*\]|-?\d[\d.e+-]*", "#", d)
    d = re.sub(r"would become.*", "would become #", d)
    return d[:70]


def distinct(failures):
    """Failures grouped by kind, call and the shape of their detail; the shortest call of each
    group is kept as its example."""
    groups = {}
    for f in failures:
        spec = "scene" if f["spec"].startswith("scene") else f["spec"]
        key = (
            f["kind"],
            spec,
            f["call"] if "loader accepted" in f["kind"] else shape_of(f["detail"]),
        )
        best, n = groups.get(key, (f, 0))
        groups[key] = (f if len(f["call"]) < len(best["call"]) else best, n + 1)
    return sorted(groups.values(), key=lambda g: (g[0]["spec"], g[0]["kind"]))


def summary(batch, counts, failures):
    lines = [
        f"[fuzz {batch}] "
        + ", ".join(f"{k} {counts.get(k, 0)}" for k in COUNT_KEYS)
        + f" ({counts.get('seconds', 0)} s)"
    ]
    for f, n in distinct(failures):
        lines.append(f"  {f['kind']} x{n} [{f['spec']}] {f['call']}\n      -> {f['detail']}")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def fuzz_runs(request, tmp_path_factory):
    wanted = [
        item.callspec.params["batch"]
        for item in request.session.items
        if getattr(item, "originalname", "") == "test_fuzz" and hasattr(item, "callspec")
    ]
    tmp = tmp_path_factory.mktemp("fuzz")
    started = time.monotonic()
    with ThreadPoolExecutor(WORKERS) as pool:
        futures = {b: pool.submit(run_batch, b, tmp) for b in BATCH_NAMES if b in wanted}
        yield futures
    total = Counter()
    for f in futures.values():
        total.update(f.result()[0])
    print(
        f"\n[fuzz total] {', '.join(f'{k} {total.get(k, 0)}' for k in COUNT_KEYS)}"
        f" ({time.monotonic() - started:.0f} s)"
    )


@pytest.mark.parametrize("batch", BATCH_NAMES)
def test_fuzz(batch, fuzz_runs):
    counts, failures = fuzz_runs[batch].result()
    print("\n" + summary(batch, counts, failures))
    assert counts.get("tried", 0) > 0
    assert not failures, summary(batch, counts, failures)


if __name__ == "__main__" and sys.argv[1:2] == ["--child"]:
    sys.setrecursionlimit(10000)
    tempfile.tempdir = os.getcwd()
    child_main(*sys.argv[2:5])
