"""2D worlds: circles, polygons, boxes, capsules and segments in the x-y plane.

A ``World2D`` is the same engine as ``World`` (same solver, materials, events, recording and
files) with every body a lamina in the x-y plane: positions and velocities are (x, y), a body's
orientation is one angle about z (counter-clockwise, radians, whole turns counted), its spin
one number, and its mass and moment of inertia those of its 2D shape (a disc turns with
1/2 m r^2). Nothing can leave the plane: every force, contact and joint lies in it, and the
engine puts each body back in it exactly after every step.

    import rigidlab as rl
    w = rl.World2D()                                  # gravity (0, -9.81), dt = 1/240 s
    w.add_ground()                                    # the half-plane y <= 0
    disc = w.add_circle(0.1, mass=1.0, position=(0, 1), restitution=0.8)
    w.run(2.0)
    print(disc.position, disc.angle, w.energy()["total"])
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from . import _core, webview
from ._frames import recording_frame
from ._readonly import settable

_STATE_SETTER = "w.{0} = ... (or w.set_state({0}=...))"
# Areal density (kg/m^2) of a body given neither mass nor density.
_DEFAULT_DENSITY = 1.0


def _vec2(value: Any, name: str) -> np.ndarray:
    """A point or vector of the plane: 2 finite numbers."""
    try:
        v = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected 2 numbers (x, y), got {value!r}") from None
    if v.shape != (2,):
        raise ValueError(
            f"{name}: expected 2 numbers (x, y) in a 2D world, got an array of shape {v.shape}"
        )
    return v


def _lift(value: Any, name: str) -> tuple[float, float, float]:
    """A 2-vector as the engine's 3-vector (z = 0)."""
    v = _vec2(value, name)
    return (float(v[0]), float(v[1]), 0.0)


def _lift_rows(value: Any, name: str) -> np.ndarray:
    """One 2-vector, or an (m, 2) array of them, as the engine's 3-vectors (z = 0)."""
    try:
        a = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected (x, y) or an array of shape (m, 2)") from None
    if a.shape == (2,):
        return np.array([a[0], a[1], 0.0])
    if a.ndim != 2 or a.shape[1] != 2:
        raise ValueError(
            f"{name}: expected (x, y) or an array of shape (m, 2), got shape {a.shape}"
        )
    return np.column_stack([a, np.zeros(len(a))])


def _spin(value: Any, name: str) -> tuple[float, float, float]:
    """A spin or torque of the plane (one number, counter-clockwise) as a 3-vector about z."""
    if isinstance(value, (bool, np.bool_)) or not np.ndim(value) == 0:
        raise TypeError(f"{name}: expected one number (counter-clockwise, about z), got {value!r}")
    try:
        w = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected one number, got {value!r}") from None
    return (0.0, 0.0, w)


def _rows2(value: Any, name: str) -> np.ndarray:
    """An (n, 2) array lifted to (n, 3) with z = 0."""
    a = np.asarray(value, dtype=float)
    if a.ndim != 2 or a.shape[1] != 2:
        raise ValueError(f"{name}: expected an array of shape (n, 2), got shape {a.shape}")
    return np.column_stack([a, np.zeros(len(a))])


# The keywords of the add_* methods of 2D solids, with their defaults, for signatures and help.
_SOLID_KEYWORDS: tuple[tuple[str, Any], ...] = (
    ("mass", None),
    ("density", _DEFAULT_DENSITY),
    ("position", (0.0, 0.0)),
    ("angle", 0.0),
    ("velocity", (0.0, 0.0)),
    ("angular_velocity", 0.0),
    ("kind", "dynamic"),
    ("restitution", None),
    ("friction", None),
    ("static_friction", None),
    ("tangential_restitution", None),
    ("name", None),
    ("color", None),
    ("linear_damping", 0.0),
    ("angular_damping", 0.0),
    ("quadratic_drag", 0.0),
    ("gravity_scale", 1.0),
    ("max_speed", None),
    ("max_angular_speed", None),
    ("category", 1),
    ("collides_with", 0xFFFFFFFF),
    ("group", 0),
    ("sensor", False),
)

_SOLID_KEYWORDS_DOC = """

Keywords (all optional):

- mass (kg) or density (kg/m^2, default 1): one or the other
- position (x, y) (m), angle (rad, counter-clockwise), velocity (x, y) (m/s), angular_velocity
  (rad/s)
- kind: "dynamic" (default), "static" (never moves) or "kinematic" (moves at its velocity,
  pushed by nothing)
- restitution, friction (kinetic), static_friction (default: friction), tangential_restitution;
  None uses the world's combine rule with the other body's
- name (find it again with w[name]), color ((r, g, b) in 0..1, for the viewer)
- linear_damping, angular_damping, quadratic_drag, gravity_scale (share of gravity, default 1)
- max_speed (m/s), max_angular_speed (rad/s): caps, None for none
- category, collides_with (32-bit masks), group (same non-zero group: never collide), sensor
"""


def _solid(anchor: bool = False) -> Callable[[Callable[..., Body2D]], Callable[..., Body2D]]:
    """Gives an add_* method of a 2D solid its full signature and the keywords in its help."""

    def mark(method: Callable[..., Body2D]) -> Callable[..., Body2D]:
        sig = inspect.signature(method)
        named = [p for p in sig.parameters.values() if p.kind is not p.VAR_KEYWORD]
        keywords = list(_SOLID_KEYWORDS) + ([("anchor", "origin")] if anchor else [])
        named += [
            inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=d) for k, d in keywords
        ]
        setattr(method, "__signature__", sig.replace(parameters=named))  # noqa: B010
        method.__doc__ = (method.__doc__ or "").rstrip() + _SOLID_KEYWORDS_DOC
        return method

    return mark


def _body_keywords(kwargs: dict[str, Any], solid: bool = True) -> dict[str, Any]:
    """The keywords of an add_* call of a 2D world as the engine takes them (`solid`: of a
    body with an area, which has a mass)."""
    if "orientation" in kwargs:
        raise TypeError(
            "orientation: a body of a 2D world has an angle (radians), not a quaternion"
        )
    out = dict(kwargs)
    for key in ("position", "velocity"):
        if out.get(key) is not None:
            out[key] = _lift(out[key], key)
    if out.get("angular_velocity") is not None:
        out["angular_velocity"] = _spin(out["angular_velocity"], "angular_velocity")
    if solid and out.get("mass") is None and out.get("density") is None:
        out["density"] = _DEFAULT_DENSITY
    return out


class Body2D:
    """A body of a 2D world: position (x, y), angle, velocity (x, y), angular velocity (one
    number, counter-clockwise), mass and moment of inertia about its centre (kg m^2).

    Any other attribute (restitution, friction, kind, name, color, gravity_scale, damping,
    asleep...) is the engine body's, as for a 3D ``rigidlab.Body``.
    """

    __slots__ = ("_body",)

    # The engine body's attributes a 2D body shares as they are.
    _SHARED = frozenset(
        {
            "id", "index", "name", "kind", "mass", "restitution", "friction",
            "static_friction", "tangential_restitution", "color", "linear_damping",
            "angular_damping", "quadratic_drag", "gravity_scale", "sleeping", "alive", "angle",
            "kinetic_energy", "category", "collides_with", "group", "sensor", "max_speed",
            "max_angular_speed",
        }
    )  # fmt: skip

    def __init__(self, body: _core.Body) -> None:
        object.__setattr__(self, "_body", body)

    def __getattr__(self, name: str) -> Any:
        if name in Body2D._SHARED:
            return getattr(self._body, name)
        raise AttributeError(f"'Body2D' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        if name in Body2D._SHARED:
            setattr(self._body, name, value)
        elif isinstance(getattr(type(self), name, None), property):
            object.__setattr__(self, name, value)
        else:
            raise AttributeError(f"'Body2D' object has no attribute '{name}'")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Body2D) and self._body == other._body

    def __reduce__(self) -> tuple[Any, tuple[_core.Body]]:
        return (Body2D, (self._body,))

    def __hash__(self) -> int:
        return hash(self._body)

    def __repr__(self) -> str:
        x, y = self.position
        return f"<Body2D {self.id} {self.shape} at ({x:g}, {y:g}), angle {self.angle:g}>"

    # The engine's shapes by their 2D names.
    _SHAPES = {"sphere": "circle", "plane": "ground"}

    @property
    def shape(self) -> str:
        """The shape: "circle", "box", "polygon", "capsule", "segment" or "ground"."""
        core = self._body.shape
        return Body2D._SHAPES.get(core, core)

    @property
    def position(self) -> np.ndarray:
        """Centre of mass (x, y), m."""
        return settable(self._body.position[:2], "b.position = (x, y)")

    @position.setter
    def position(self, value: Any) -> None:
        self._body.position = _lift(value, "position")

    @property
    def velocity(self) -> np.ndarray:
        """Velocity of the centre of mass (x, y), m/s."""
        return settable(self._body.velocity[:2], "b.velocity = (vx, vy)")

    @velocity.setter
    def velocity(self, value: Any) -> None:
        self._body.velocity = _lift(value, "velocity")

    @property
    def angular_velocity(self) -> float:
        """Spin about z (rad/s, counter-clockwise)."""
        return float(self._body.angular_velocity[2])

    @angular_velocity.setter
    def angular_velocity(self, value: Any) -> None:
        self._body.angular_velocity = _spin(value, "angular_velocity")

    @property
    def momentum(self) -> np.ndarray:
        """Linear momentum (x, y), kg m/s."""
        return self._body.momentum[:2]

    @property
    def contact_force(self) -> np.ndarray:
        """The force (x, y) contacts exerted on this body in the last step (N): their impulses
        over dt."""
        return self._body.contact_force[:2]

    @property
    def contact_torque(self) -> float:
        """The torque about z contacts exerted on this body about its centre in the last step
        (N m)."""
        return float(self._body.contact_torque[2])

    @property
    def inertia(self) -> float:
        """Moment of inertia about the centre of mass, about z (kg m^2); inf unless dynamic."""
        return float(self._body.inertia[2, 2])

    @property
    def dimensions(self) -> dict[str, Any]:
        """The shape's dimensions: {"radius"} for a circle, {"half_extents"} for a box,
        {"vertices"} ((m, 2), about the centroid) for a polygon, {"radius", "half_length"} for
        a capsule, {"vertices", "radius"} for a segment, {"normal", "offset"} for a ground."""
        d = dict(self._body.dimensions)
        if self.shape == "circle":
            return {"radius": d["radius"]}
        if self.shape == "capsule":
            return {"radius": d["radius"], "half_length": d["half_height"]}
        if self.shape == "ground":
            return {"normal": np.asarray(d["normal"])[:2], "offset": d["offset"]}
        return d

    def velocity_at(self, point: Any) -> np.ndarray:
        """Velocity (x, y) of the material point of the body at world point (x, y)."""
        p = _vec2(point, "point")
        w = self.angular_velocity
        r = p - self.position
        return self.velocity + w * np.array([-r[1], r[0]])

    def apply_force(self, force: Any, point: Any = None, duration: float | None = None) -> Any:
        """Applies a force (N) at the centre of mass or at a world point (x, y) for one step
        (duration None) or `duration` seconds; returns a Load."""
        at = None if point is None else _lift(point, "point")
        return self._body.apply_force(_lift(force, "force"), point=at, duration=duration)

    def apply_impulse(self, impulse: Any, point: Any = None) -> None:
        """Changes the momentum at once by `impulse` (N s), at the centre or a world point."""
        at = None if point is None else _lift(point, "point")
        self._body.apply_impulse(_lift(impulse, "impulse"), point=at)

    def apply_torque(self, torque: float, duration: float | None = None) -> Any:
        """Applies a torque about z (N m, counter-clockwise) for one step or `duration` s."""
        return self._body.apply_torque(_spin(torque, "torque"), duration=duration)


def _core_body(body: Any, name: str) -> _core.Body:
    """The engine body of a Body2D (a 3D body has no place in a 2D world)."""
    if not isinstance(body, Body2D):
        raise TypeError(f"{name}: expected a rigidlab.Body2D, got {type(body).__name__}")
    return body._body


def _core_body_or_world(body: Any, name: str) -> _core.Body | None:
    return None if body is None else _core_body(body, name)


def _flat_table(d: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    """The (k, 3) arrays of `keys` in a dict of arrays cut to their (x, y) columns."""
    out = dict(d)
    for key in keys:
        out[key] = np.asarray(d[key])[:, :2]
    return out


class Recording2D:
    """What a 2D world recorded: time (T,), positions and velocities (T, n, 2), angles and
    angular_velocities (T, n), energy (dict of (T,)), momentum (T, 2), angular_momentum (T,)
    (about the origin), contacts (T,), contact_points (a (k, 2) array a sample)."""

    __slots__ = ("_rec",)

    def __init__(self, rec: _core.Recording) -> None:
        self._rec = rec

    def __len__(self) -> int:
        return len(self._rec)

    def __reduce__(self) -> tuple[Any, tuple[_core.Recording]]:
        return (Recording2D, (self._rec,))

    def to_dataframe(self, *, long: bool = False) -> Any:
        """A pandas DataFrame: wide, one row per sample (time, energy terms, contacts,
        momentum_x/_y, angular_momentum, per body "x[3]", "y[3]", "angle[3]", "vx[3]", ...), or
        long (`long=True`), one row per sample and body (time, body_id, body, x, y, angle, vx,
        vy, w)."""
        return recording_frame(self, long=long, planar=True)

    def save_npz(self, path: Any) -> None:
        """Saves the recording's data as a numpy .npz file (see rigidlab.Recording.save_npz)."""
        self._rec.save_npz(path)

    def start_world(self) -> World2D:
        """The world as it was when recording began (a new World2D)."""
        return World2D._wrap(self._rec.start_world())

    def show(self, **options: Any) -> webview.Player:
        """Plays the recording in a notebook, seen from the front (orthographic, y up): play,
        pause, a time slider and the speed (as rigidlab.Recording.show; limits are
        ((x0, x1), (y0, y1)))."""
        return webview.show_recording(self._rec, **options)

    def to_html(self, path: Any, **options: Any) -> Path:
        """Writes the recording as a standalone HTML player that works offline (as
        rigidlab.Recording.to_html)."""
        return webview.recording_html(self._rec, path, **options)

    @classmethod
    def load(cls, path: Any) -> Recording2D:
        """A recording of a 2D world saved with save_npz."""
        rec = _core.Recording.load(path)
        if not rec.planar:
            raise ValueError(
                "path: a recording of a 3D world; read it with rigidlab.Recording.load"
            )
        return cls(rec)

    def __repr__(self) -> str:
        return repr(self._rec).replace("Recording", "Recording2D", 1)

    def __getattr__(self, name: str) -> Any:
        if name in {"time", "body_ids", "body_names", "planar", "every", "quantities", "active", "stop", "save",
                    "energy", "contacts"}:  # fmt: skip
            return getattr(self._rec, name)
        raise AttributeError(f"'Recording2D' object has no attribute '{name}'")

    @property
    def positions(self) -> np.ndarray:
        return self._rec.positions[..., :2]

    @property
    def velocities(self) -> np.ndarray:
        return self._rec.velocities[..., :2]

    @property
    def angles(self) -> np.ndarray:
        return self._rec.angles

    @property
    def angular_velocities(self) -> np.ndarray:
        return self._rec.angular_velocities[..., 2]

    @property
    def momentum(self) -> np.ndarray:
        return self._rec.momentum[..., :2]

    @property
    def angular_momentum(self) -> np.ndarray:
        return self._rec.angular_momentum[..., 2]

    @property
    def contact_points(self) -> list[np.ndarray]:
        """Where the contact points were at each sample: a list of (k, 2) arrays."""
        return [p[:, :2] for p in self._rec.contact_points]


class World2D:
    """A world of bodies in the x-y plane: circles, convex polygons, boxes, capsules, static
    segments and ground lines.

    Parameters
    ----------
    gravity : 2 numbers, default (0, -9.81)
        Gravitational acceleration in m/s^2 (y is up).
    dt : float, default 1/240
        Fixed time step in seconds.
    integrator : {"verlet", "rk4", "symplectic_euler", "euler"}, default "verlet"
        How forces are integrated, as for a 3D world.
    **settings
        The other keywords of ``rigidlab.World`` (solver_iterations, solver_tolerance,
        restitution_threshold, restitution_rule, friction_rule, sleeping), meaning what they
        mean there; the same guarantees hold. solver_iterations defaults to 20, not 10: a pile
        stands far more layers high in a 2D bin than the same bodies in a 3D one, and the
        solver carries a load about one layer down per iteration (it stops early once
        converged, so a world at rest pays nothing for it).

    Notes
    -----
    Bodies take mass (kg) or density (kg/m^2, per area; default 1), position (x, y), angle
    (rad, counter-clockwise), velocity (x, y), angular_velocity (rad/s), restitution,
    friction, static_friction, tangential_restitution, kind ("dynamic", "static",
    "kinematic"), name, color, linear_damping, angular_damping, quadratic_drag, gravity_scale,
    max_speed, max_angular_speed.
    """

    __slots__ = ("_world", "__weakref__")

    def __init__(
        self,
        gravity: Any = (0.0, -9.81),
        dt: float = 1 / 240,
        integrator: str = "verlet",
        **settings: Any,
    ) -> None:
        self._world = _core.World(
            _lift(gravity, "gravity"), dt, integrator, planar=True, **settings
        )

    @classmethod
    def _wrap(cls, world: _core.World) -> World2D:
        if not world.planar:
            raise ValueError("the scene is a 3D world; open it with rigidlab.World.load")
        w = cls.__new__(cls)
        w._world = world
        return w

    # Settings shared with the 3D world as they are.
    _SHARED = frozenset(
        {
            "time", "dt", "integrator", "sleeping", "threads", "step_times", "solve_times",
            "solver_iterations",
            "solver_tolerance", "solver_iterations_done", "restitution_threshold", "viewing",
            "candidate_pairs", "time_scale", "carried_time", "history", "rewind",
        }
    )  # fmt: skip

    def __getattr__(self, name: str) -> Any:
        if name in World2D._SHARED:
            return getattr(self._world, name)
        raise AttributeError(f"'World2D' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        if name in World2D._SHARED:
            setattr(self._world, name, value)
        else:
            object.__setattr__(self, name, value)

    def __len__(self) -> int:
        return len(self._world)

    def __repr__(self) -> str:
        gx, gy = (float(g) for g in self.gravity)
        return (
            f"World2D({len(self)} bodies, t={self.time:.6f} s, dt={self.dt} s, "
            f"integrator='{self.integrator}', gravity=({gx}, {gy}))"
        )

    def __reduce__(self) -> tuple[Any, tuple[_core.World]]:
        # As the engine world it wraps (which pickles as its scene): bodies, springs, joints and
        # snapshots pickled alongside refer to that same world and come back into it.
        return (World2D._wrap, (self._world,))

    @property
    def gravity(self) -> np.ndarray:
        """Gravitational acceleration (x, y), m/s^2."""
        return settable(self._world.gravity[:2], "w.gravity = (gx, gy)")

    @gravity.setter
    def gravity(self, value: Any) -> None:
        self._world.gravity = _lift(value, "gravity")

    # Bodies.

    @_solid()
    def add_circle(self, radius: float, **kwargs: Any) -> Body2D:
        """Adds a disc of `radius` (m); its moment of inertia is 1/2 m r^2."""
        return Body2D(self._world.add_sphere(radius, **_body_keywords(kwargs)))

    @_solid()
    def add_box(self, half_extents: Any, **kwargs: Any) -> Body2D:
        """Adds a rectangle of half extents (hx, hy) (m) along its body axes."""
        return Body2D(
            self._world._add_rectangle(
                _vec2(half_extents, "half_extents"), **_body_keywords(kwargs)
            )
        )

    @_solid(anchor=True)
    def add_polygon(self, points: Any, **kwargs: Any) -> Body2D:
        """Adds the convex polygon with corners `points` ((m, 2), in order round it, either way).

        `position` places the origin of the points' frame (``anchor="origin"``, the default:
        points given in world coordinates with no position stay where they are), or their
        centroid (``anchor="centroid"``); either way ``b.position`` reads the centroid. A
        corner on the line between its neighbours is dropped; an outline that is not convex,
        crosses itself or has no area is refused.
        """
        return Body2D(self._world._add_polygon(points, **_body_keywords(kwargs)))

    @_solid()
    def add_capsule(self, radius: float, half_length: float, **kwargs: Any) -> Body2D:
        """Adds a stadium: the points within `radius` of a segment of length 2 * half_length
        along the body's y axis (turn it with angle=pi/2 to lay it along x)."""
        return Body2D(self._world.add_capsule(radius, half_length, **_body_keywords(kwargs)))

    def add_segment(self, p0: Any, p1: Any, radius: float = 0.0, **kwargs: Any) -> Body2D:
        """Adds a static edge from p0 to p1 (world points), grown by `radius` (m) on every side:
        ground lines, walls, ramps and terrain (a chain is one segment per edge). Its position
        is its midpoint. Keywords: restitution, friction, static_friction,
        tangential_restitution, kind ("static" or "kinematic"), name, color."""
        return Body2D(
            self._world._add_segment(
                _vec2(p0, "p0"), _vec2(p1, "p1"), radius, **_body_keywords(kwargs, solid=False)
            )
        )

    def add_ground(self, normal: Any = (0.0, 1.0), offset: float = 0.0, **kwargs: Any) -> Body2D:
        """Adds the half-plane below the line {x : normal . x = offset}: solid on the side
        opposite the normal. Static (or kinematic); keywords as for add_segment."""
        kw = _body_keywords(kwargs, solid=False)
        return Body2D(self._world.add_plane(_lift(normal, "normal"), offset, **kw))

    def remove(self, item: Any) -> None:
        """Removes a body (with its springs, joints and loads), or a Spring or Joint."""
        self._world.remove(item._body if isinstance(item, Body2D) else item)

    @property
    def bodies(self) -> list[Body2D]:
        """The bodies, in row order (the order of the whole-world arrays)."""
        return [Body2D(b) for b in self._world.bodies]

    def body(self, key: str | int, /) -> Body2D:
        """The body named `key` (a str) or with the id `key` (an int); `w["ball"]` is the same.
        KeyError when no live body has it, ValueError when several share the name."""
        return Body2D(self._world.body(key))

    def __getitem__(self, key: str | int) -> Body2D:
        return self.body(key)

    def __contains__(self, key: object) -> bool:
        return (key._body if isinstance(key, Body2D) else key) in self._world

    # Whole-world arrays.

    @property
    def positions(self) -> np.ndarray:
        """Centres of mass, shape (n, 2)."""
        return settable(self._world.positions[:, :2], _STATE_SETTER.format("positions"))

    @positions.setter
    def positions(self, value: Any) -> None:
        self.set_state(positions=value)

    @property
    def angles(self) -> np.ndarray:
        """Angles about z (rad, counter-clockwise, whole turns counted), shape (n,)."""
        return settable(self._world.angles, _STATE_SETTER.format("angles"))

    @angles.setter
    def angles(self, value: Any) -> None:
        self.set_state(angles=value)

    @property
    def velocities(self) -> np.ndarray:
        """Velocities of the centres of mass, shape (n, 2)."""
        return settable(self._world.velocities[:, :2], _STATE_SETTER.format("velocities"))

    @velocities.setter
    def velocities(self, value: Any) -> None:
        self.set_state(velocities=value)

    @property
    def angular_velocities(self) -> np.ndarray:
        """Spins about z (rad/s), shape (n,)."""
        spins = self._world.angular_velocities[:, 2]
        return settable(spins, _STATE_SETTER.format("angular_velocities"))

    @angular_velocities.setter
    def angular_velocities(self, value: Any) -> None:
        self.set_state(angular_velocities=value)

    def set_state(
        self,
        positions: Any = None,
        angles: Any = None,
        velocities: Any = None,
        angular_velocities: Any = None,
    ) -> None:
        """Sets any of the whole-world arrays at once (one row per body); everything is
        checked first, and on error nothing changes."""
        spins = None
        if angular_velocities is not None:
            w = np.asarray(angular_velocities, dtype=float)
            if w.ndim != 1:
                raise ValueError(
                    f"angular_velocities: expected an array of shape (n,), got shape {w.shape}"
                )
            spins = np.column_stack([np.zeros((len(w), 2)), w])
        self._world.set_state(
            positions=None if positions is None else _rows2(positions, "positions"),
            velocities=None if velocities is None else _rows2(velocities, "velocities"),
            angular_velocities=spins,
            angles=angles,
        )

    # Running.

    def step(self, n: int = 1) -> None:
        """Advances the world by n steps of dt."""
        self._world.step(n)

    def run(self, seconds: float, progress: bool = False, realtime: Any = None) -> int:
        """Advances the world by `seconds` of simulated time in whole steps of dt, the
        remainder carried into the next call; returns the steps taken (as World.run)."""
        return self._world.run(seconds, progress=progress, realtime=realtime)

    def advance(self, real_seconds: float, *, most_steps: int | None = None) -> float:
        """The game loop's clock: whole steps of `real_seconds` times `time_scale`, the rest
        carried; returns the fraction of a step left (as World.advance)."""
        return self._world.advance(real_seconds, most_steps=most_steps)

    def view(self, **kwargs: Any) -> None:
        """Opens the viewer on this world without blocking the script (as World.view)."""
        self._world.view(**kwargs)

    def show(self, **options: Any) -> webview.LiveView:
        """Shows the world in a notebook, seen from the front (orthographic, y up; drag to pan,
        wheel to zoom), following it as it runs (as World.show; limits are
        ((x0, x1), (y0, y1)))."""
        return webview.show_world(self._world, **options)

    # Measuring.

    def energy(self) -> dict[str, float]:
        """Energy in joules: translational, rotational, kinetic, gravitational (-m g . x),
        elastic and total."""
        return self._world.energy()

    def momentum(self) -> np.ndarray:
        """Total linear momentum (x, y) of the dynamic bodies, kg m/s."""
        return self._world.momentum()[:2]

    def angular_momentum(self, about: Any = (0.0, 0.0)) -> float:
        """Total angular momentum about z through the world point `about` (kg m^2/s)."""
        return float(self._world.angular_momentum(_lift(about, "about"))[2])

    def contact_forces(self) -> np.ndarray:
        """The force (x, y) contacts exerted on each body in the last step, (n, 2) by row (N):
        every contact impulse of the step over dt."""
        return self._world.contact_forces()[:, :2]

    def contact_torques(self) -> np.ndarray:
        """The torque about z contacts exerted on each body about its centre in the last step,
        (n,) by row (N m)."""
        return self._world.contact_torques()[:, 2]

    def contacts(self) -> dict[str, np.ndarray]:
        """This step's contact points: body_a, body_b (ids), point (k, 2), normal (k, 2, from
        a to b), depth, normal_impulse, tangent_impulse (k, 2)."""
        return _flat_table(self._world.contacts(), ("point", "normal", "tangent_impulse"))

    def contact_events(self, clear: bool = True) -> dict[str, Any]:
        """Contacts that began or ended, and impacts, since last read (as World.contact_events),
        with point and normal of shape (k, 2)."""
        return _flat_table(self._world.contact_events(clear), ("point", "normal"))

    def overlaps(self, sensor: Body2D) -> list[Body2D]:
        """The bodies overlapping `sensor` (a body made with sensor=True) after the last step,
        in id order (as World.overlaps)."""
        return [Body2D(b) for b in self._world.overlaps(_core_body(sensor, "sensor"))]

    def ray_cast(
        self, origin: Any, direction: Any, max_distance: float | None = None, planes: bool = True
    ) -> dict[str, Any] | None:
        """The first body a ray in the plane meets (as World.ray_cast): None, or a dict with
        the body, the distance along the ray, the point (x, y) and the outward normal (x, y).
        planes=False ignores ground lines."""
        hit = self._world.ray_cast(
            _lift(origin, "origin"), _lift(direction, "direction"), max_distance, planes
        )
        if hit is None:
            return None
        hit = dict(hit)
        hit["body"] = Body2D(hit["body"])
        hit["point"] = np.asarray(hit["point"])[:2]
        hit["normal"] = np.asarray(hit["normal"])[:2]
        return hit

    def ray_cast_all(
        self, origin: Any, direction: Any, max_distance: float | None = None, planes: bool = True
    ) -> list[_core.RayHit]:
        """Every body a ray in the plane meets, nearest first (as World.ray_cast_all), each a
        RayHit with a Body2D and the point and normal as (x, y)."""
        hits = self._world.ray_cast_all(
            _lift(origin, "origin"), _lift(direction, "direction"), max_distance, planes
        )
        return [_core.RayHit(Body2D(h.body), h.distance, h.point[:2], h.normal[:2]) for h in hits]

    def ray_cast_many(
        self, origins: Any, directions: Any, max_distance: Any = None, planes: bool = True
    ) -> _core.RayHits:
        """The first hit of each of many rays in the plane (as World.ray_cast_many): origins
        and directions of shape (k, 2) (or one (x, y) shared by every ray); point and normal
        come back as (k, 2), bodies as Body2D."""
        hits = self._world.ray_cast_many(
            _lift_rows(origins, "origins"),
            _lift_rows(directions, "directions"),
            max_distance,
            planes,
        )
        return _core.RayHits(
            hits.hit,
            hits.distance,
            hits.point[:, :2],
            hits.normal[:, :2],
            hits.body_id,
            [None if b is None else Body2D(b) for b in hits.bodies],
        )

    def query_point(self, point: Any) -> list[Body2D]:
        """The bodies that hold the point (x, y), in the order of `bodies`."""
        return [Body2D(b) for b in self._world.query_point(_lift(point, "point"))]

    def query_box(self, lo: Any, hi: Any) -> list[Body2D]:
        """The bodies whose bounding boxes meet the rectangle from `lo` to `hi` (x, y), and
        the ground lines it reaches (as World.query_box)."""
        lo3, hi3 = _lift(lo, "lo"), _lift(hi, "hi")
        return [Body2D(b) for b in self._world.query_box(lo3, hi3)]

    def distance(self, a: Body2D, b: Body2D) -> _core.Distance:
        """How far apart a and b are (as World.distance), with the points and normal as
        (x, y): negative when they overlap, by the depth."""
        d = self._world.distance(_core_body(a, "a"), _core_body(b, "b"))
        return _core.Distance(d.distance, d.point_a[:2], d.point_b[:2], d.normal[:2])

    def record(self, every: int = 1, quantities: Any = None) -> Recording2D:
        """Starts recording every `every` steps (as World.record); returns a Recording2D."""
        return Recording2D(self._world.record(every, quantities))

    def set_pair(self, a: Body2D, b: Body2D, **coefficients: Any) -> None:
        """Overrides restitution, friction, static_friction or tangential_restitution between
        two bodies; `collide=False` sets them apart (they pass through each other), `True` lets
        their filters decide again."""
        self._world.set_pair(_core_body(a, "a"), _core_body(b, "b"), **coefficients)

    def on_contact(
        self,
        callback: Callable[[Body2D, Body2D, _core.Contact], bool | None] | None,
        *,
        body: Body2D | None = None,
    ) -> None:
        """Calls ``callback(a, b, contact)`` once when a pair of bodies first comes into contact,
        as World.on_contact does, with Body2D bodies and the contact's point and normal as
        (x, y). Answering False lets the pair pass through each other while they overlap;
        ``body`` asks only about that body's pairs; None removes the callback."""
        if callback is None:
            wrapped = None
        elif not callable(callback):
            raise TypeError(
                "callback: must be callable, as callback(a, b, contact) -> bool, or None "
                f"(got {type(callback).__name__})"
            )
        else:

            def wrapped(a: _core.Body, b: _core.Body, c: _core.Contact) -> bool | None:
                flat = _core.Contact(c.point[:2], c.normal[:2], c.depth, c.speed)
                return callback(Body2D(a), Body2D(b), flat)

        self._world.on_contact(wrapped, body=None if body is None else _core_body(body, "body"))

    def pair_collides(self, a: Body2D, b: Body2D) -> bool:
        """False once a and b were set apart with `set_pair(a, b, collide=False)`."""
        return self._world.pair_collides(_core_body(a, "a"), _core_body(b, "b"))

    # Springs and joints (anchors are world points or body-frame points (x, y)).

    def add_spring(
        self,
        a: Body2D,
        b: Body2D | None = None,
        *,
        stiffness: float,
        damping: float = 0.0,
        rest_length: float | None = None,
        anchor_a: Any = (0.0, 0.0),
        anchor_b: Any = (0.0, 0.0),
    ) -> Any:
        """A Hooke spring between body-frame anchors of a and b (or a world point when b is
        None); rest_length None takes the distance now."""
        return self._world.add_spring(
            _core_body(a, "a"),
            _core_body_or_world(b, "b"),
            stiffness=stiffness,
            damping=damping,
            rest_length=rest_length,
            anchor_a=_lift(anchor_a, "anchor_a"),
            anchor_b=_lift(anchor_b, "anchor_b"),
        )

    def add_distance_joint(
        self,
        a: Body2D,
        b: Body2D | None = None,
        anchor_a: Any = (0.0, 0.0),
        anchor_b: Any = (0.0, 0.0),
        length: float | None = None,
        *,
        collide: bool = False,
    ) -> Any:
        """A rigid rod between body-frame anchors (a world point when b is None)."""
        return self._world.add_distance_joint(
            _core_body(a, "a"),
            _core_body_or_world(b, "b"),
            _lift(anchor_a, "anchor_a"),
            _lift(anchor_b, "anchor_b"),
            length,
            collide=collide,
        )

    def add_rope_joint(
        self,
        a: Body2D,
        b: Body2D | None = None,
        anchor_a: Any = (0.0, 0.0),
        anchor_b: Any = (0.0, 0.0),
        max_length: float | None = None,
        *,
        collide: bool = False,
    ) -> Any:
        """A rope: the anchors at most max_length apart (default: their distance now)."""
        return self._world.add_rope_joint(
            _core_body(a, "a"),
            _core_body_or_world(b, "b"),
            _lift(anchor_a, "anchor_a"),
            _lift(anchor_b, "anchor_b"),
            max_length,
            collide=collide,
        )

    def add_pulley_joint(
        self,
        a: Body2D,
        b: Body2D,
        ground_a: Any,
        ground_b: Any,
        anchor_a: Any = (0.0, 0.0),
        anchor_b: Any = (0.0, 0.0),
        ratio: float = 1.0,
        length: float | None = None,
        *,
        collide: bool = False,
    ) -> Any:
        """A rope from a's anchor (body frame) over fixed pulleys at the world points
        ground_a and ground_b down to b's anchor: la + ratio * lb stays at most `length`
        (default: as now). Two weights on it are an Atwood machine."""
        return self._world.add_pulley_joint(
            _core_body(a, "a"),
            _core_body(b, "b"),
            _lift(ground_a, "ground_a"),
            _lift(ground_b, "ground_b"),
            _lift(anchor_a, "anchor_a"),
            _lift(anchor_b, "anchor_b"),
            ratio,
            length,
            collide=collide,
        )

    def add_pin_joint(
        self,
        a: Body2D,
        b: Body2D | None = None,
        anchor: Any = None,
        limits: Any = None,
        motor: Any = None,
        *,
        collide: bool = False,
    ) -> Any:
        """A pin (revolute joint) at the world point `anchor` (default: a's centre): the bodies
        turn about it relative to each other. limits: (lower, upper) angle (rad, within
        [-pi, pi]) of b relative to a from now; motor: (speed rad/s, max_torque N m)."""
        at = a.position if anchor is None else anchor
        return self._world.add_hinge_joint(
            _core_body(a, "a"),
            _core_body_or_world(b, "b"),
            _lift(at, "anchor"),
            (0.0, 0.0, 1.0),
            limits,
            motor,
            collide=collide,
        )

    def add_slider_joint(
        self,
        a: Body2D,
        b: Body2D | None = None,
        anchor: Any = None,
        axis: Any = (1.0, 0.0),
        limits: Any = None,
        motor: Any = None,
        *,
        collide: bool = False,
    ) -> Any:
        """A slider (prismatic joint) at the world point `anchor` (default: a's centre) along
        the direction `axis`: b (or the world) keeps its angle against a and slides only along
        the axis, which turns with a. limits: (lower, upper) travel in metres from now; motor:
        (speed m/s, max force N). joint.translation reads the travel."""
        at = a.position if anchor is None else anchor
        return self._world.add_slider_joint(
            _core_body(a, "a"),
            _core_body_or_world(b, "b"),
            _lift(at, "anchor"),
            _lift(axis, "axis"),
            limits,
            motor,
            collide=collide,
        )

    def add_weld_joint(self, a: Body2D, b: Body2D | None = None, *, collide: bool = False) -> Any:
        """Holds a and b (or a and the world) together as they are now."""
        return self._world.add_fixed_joint(
            _core_body(a, "a"), _core_body_or_world(b, "b"), collide=collide
        )

    def add_mouse_joint(
        self,
        a: Body2D,
        target: Any,
        point: Any = None,
        *,
        frequency: float | None = None,
        damping_ratio: float | None = None,
        max_force: float | None = None,
    ) -> Any:
        """A soft spring pulling the world point `point` of a (default: its centre) to
        `target`, as a mouse drags a body; move it with joint.target = (x, y, 0)."""
        return self._world.add_mouse_joint(
            _core_body(a, "a"),
            _lift(target, "target"),
            None if point is None else _lift(point, "point"),
            frequency=frequency,
            damping_ratio=damping_ratio,
            max_force=max_force,
        )

    @property
    def springs(self) -> list[Any]:
        return self._world.springs

    @property
    def joints(self) -> list[Any]:
        return self._world.joints

    # Saving and restoring.

    def snapshot(self) -> Any:
        """The whole state, to restore() later."""
        return self._world.snapshot()

    def restore(self, snapshot: Any) -> None:
        self._world.restore(snapshot)

    def to_json(self) -> str:
        """The world as a scene file's JSON text (a 2D world says so in its settings)."""
        return self._world.to_json()

    @classmethod
    def from_json(cls, text: str) -> World2D:
        return cls._wrap(_core.World.from_json(text))

    def save(self, path: Any) -> None:
        """Writes the world to a scene file."""
        self._world.save(path)

    @classmethod
    def load(cls, path: Any) -> World2D:
        """Reads a 2D world from a scene file."""
        return cls._wrap(_core.World.load(path))
