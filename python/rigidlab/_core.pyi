"""Type stubs for rigidlab._core, the compiled engine."""

import os
import pathlib
from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol, TypedDict, final

import numpy as np
import numpy.typing as npt
import pandas
from typing_extensions import TypeAlias, Unpack

from rigidlab.webview import LiveView, Player

__version__: str
__all__ = [
    "World",
    "Body",
    "Load",
    "Spring",
    "Joint",
    "Recording",
    "Snapshot",
    "RayHit",
    "Contact",
    "RayHits",
    "Distance",
    "step_many",
    "_lend",
    "RemovedBodyError",
    "SimulationError",
    "view_main",
    "__version__",
]

Vec3: TypeAlias = Sequence[float] | npt.NDArray[np.float64]

class _AsQuat(Protocol):
    """A rotation object: rigidlab.Rotation, scipy.spatial.transform.Rotation."""

    def as_quat(self) -> Any: ...

Quat: TypeAlias = Sequence[float] | npt.NDArray[np.float64] | _AsQuat | Sequence[Sequence[float]]
"""An orientation: 4 numbers (x, y, z, w), scalar last; a Rotation; or a 3x3 matrix."""
Array: TypeAlias = npt.NDArray[np.float64]
IntegratorName: TypeAlias = Literal["euler", "symplectic_euler", "verlet", "rk4"]
KindName: TypeAlias = Literal["dynamic", "static", "kinematic"]
CombineName: TypeAlias = Literal["average", "min", "max", "multiply"]
# Names given to rigidlab may be any str (a loop over names, a value read from a file): the
# engine checks them and names the choices in its error. The Literal types are what it returns.
AnyIntegratorName: TypeAlias = IntegratorName | str
AnyKindName: TypeAlias = KindName | str

class _Options(TypedDict, total=False):
    """Keywords every add_* method takes."""

    restitution: float | None
    friction: float | None
    static_friction: float | None
    tangential_restitution: float | None
    name: str | None
    color: Vec3 | None
    velocity: Vec3
    angular_velocity: Vec3
    category: int
    collides_with: int
    group: int
    sensor: bool

class _PlaneOptions(_Options, total=False):
    kind: Literal["static", "kinematic"]

class _SolidOptions(_Options, total=False):
    """Keywords of the add_* methods of solids: mass or density (kg/m^3, default 1000)."""

    kind: AnyKindName
    mass: float | None
    density: float | None
    position: Vec3
    orientation: Quat
    linear_damping: float
    angular_damping: float
    quadratic_drag: float
    gravity_scale: float
    max_speed: float | None
    max_angular_speed: float | None

class _HullOptions(_SolidOptions, total=False):
    anchor: Literal["origin", "centroid"]

class Dimensions(TypedDict):
    """A body's sizes. Which keys it holds depends on the shape: sphere radius; box
    half_extents; capsule radius, half_height; hull vertices, faces; plane normal, offset; 2D
    polygon vertices; 2D segment radius, vertices."""

    radius: float
    half_extents: Array
    half_height: float
    vertices: Array
    faces: list[list[int]]
    normal: Array
    offset: float

class Energy(TypedDict):
    """The world's energy (J) by term."""

    translational: float
    rotational: float
    kinetic: float
    gravitational: float
    elastic: float
    total: float

class EnergySeries(TypedDict):
    """A recording's energy terms (J), each of shape (T,)."""

    translational: Array
    rotational: Array
    kinetic: Array
    gravitational: Array
    elastic: Array
    total: Array

class RayCastHit(TypedDict):
    """The first body a ray meets (World.ray_cast)."""

    body: Body
    distance: float
    point: Array
    normal: Array

class Contacts(TypedDict):
    """The contact points after the last step, one entry per point (World.contacts)."""

    body_a: npt.NDArray[np.int64]
    body_b: npt.NDArray[np.int64]
    point: Array
    normal: Array
    depth: Array
    normal_impulse: Array
    tangent_impulse: Array

class ContactEvents(TypedDict):
    """Contacts and sensor overlaps that began or ended (World.contact_events): kind is
    "begin", "end", "sensor_begin" or "sensor_end"; dropped counts events lost to the cap."""

    kind: list[str]
    body_a: npt.NDArray[np.int64]
    body_b: npt.NDArray[np.int64]
    time: Array
    point: Array
    normal: Array
    speed: Array
    impulse: Array
    dropped: int

@final
class RayHit:
    """Where a ray meets a body."""

    def __new__(
        cls,
        body: Any,
        distance: float,
        point: Sequence[float] | Array,
        normal: Sequence[float] | Array,
    ) -> RayHit: ...
    @property
    def body(self) -> Body: ...
    @property
    def distance(self) -> float: ...
    @property
    def point(self) -> Array: ...
    @property
    def normal(self) -> Array: ...

@final
class RayHits:
    """The first hits of many rays, one row per ray (misses: hit False, distance inf, point
    and normal NaN, body_id -1, body None)."""

    def __new__(
        cls,
        hit: Any,
        distance: Any,
        point: Any,
        normal: Any,
        body_id: Any,
        bodies: Sequence[Any],
    ) -> RayHits: ...
    def __len__(self) -> int: ...
    @property
    def hit(self) -> npt.NDArray[np.bool_]: ...
    @property
    def distance(self) -> Array: ...
    @property
    def point(self) -> Array: ...
    @property
    def normal(self) -> Array: ...
    @property
    def body_id(self) -> npt.NDArray[np.int64]: ...
    @property
    def bodies(self) -> list[Body | None]: ...

@final
class Distance:
    """How far apart two bodies are (negative when they overlap, by the depth)."""

    def __new__(
        cls,
        distance: float,
        point_a: Sequence[float] | Array,
        point_b: Sequence[float] | Array,
        normal: Sequence[float] | Array,
    ) -> Distance: ...
    @property
    def distance(self) -> float: ...
    @property
    def point_a(self) -> Array: ...
    @property
    def point_b(self) -> Array: ...
    @property
    def normal(self) -> Array: ...

@final
class Contact:
    """The contact a pair of bodies begins (handed to `World.on_contact` callbacks)."""

    def __new__(
        cls,
        point: Sequence[float] | Array,
        normal: Sequence[float] | Array,
        depth: float,
        speed: float,
    ) -> Contact: ...
    @property
    def point(self) -> Array: ...
    @property
    def normal(self) -> Array: ...
    @property
    def depth(self) -> float: ...
    @property
    def speed(self) -> float: ...

class RemovedBodyError(IndexError):
    """Raised when a Body handle is used after its body was removed from the world."""

class SimulationError(RuntimeError):
    """Raised when a step would take a body outside the ranges the engine simulates (a
    position, speed or spin that is not finite or too large): the bodies and the time
    stay as they were before that step."""

@final
class Body:
    """A body in a World. Properties read and write the live world; arrays are copies."""

    @property
    def id(self) -> int: ...
    @property
    def world(self) -> World: ...
    @property
    def alive(self) -> bool: ...
    @property
    def index(self) -> int: ...
    @property
    def sleeping(self) -> bool: ...
    @property
    def position(self) -> Array: ...
    @position.setter
    def position(self, value: Vec3) -> None: ...
    @property
    def orientation(self) -> Array: ...
    @orientation.setter
    def orientation(self, value: Quat) -> None: ...
    @property
    def velocity(self) -> Array: ...
    @velocity.setter
    def velocity(self, value: Vec3) -> None: ...
    @property
    def angular_velocity(self) -> Array: ...
    @angular_velocity.setter
    def angular_velocity(self, value: Vec3) -> None: ...
    angle: float
    """For a body of a 2D world: its angle about z (rad), whole turns counted."""
    @property
    def mass(self) -> float: ...
    @property
    def inertia(self) -> Array: ...
    @property
    def inertia_body(self) -> Array: ...
    @property
    def kind(self) -> KindName: ...
    @kind.setter
    def kind(self, value: AnyKindName) -> None: ...
    name: str | None
    color: tuple[float, float, float] | None
    @property
    def shape(
        self,
    ) -> Literal["sphere", "box", "capsule", "convex", "plane", "polygon", "segment"]: ...
    @property
    def dimensions(self) -> Dimensions: ...
    restitution: float | None
    friction: float | None
    static_friction: float | None
    tangential_restitution: float | None
    linear_damping: float
    angular_damping: float
    quadratic_drag: float
    gravity_scale: float
    max_speed: float | None
    max_angular_speed: float | None
    category: int
    collides_with: int
    group: int
    sensor: bool
    @property
    def kinetic_energy(self) -> float: ...
    @property
    def contact_force(self) -> Array: ...
    @property
    def contact_torque(self) -> Array: ...
    @property
    def momentum(self) -> Array: ...
    def angular_momentum(self, about: Vec3 | None = None) -> Array: ...
    def apply_force(
        self,
        force: Vec3,
        point: Vec3 | None = None,
        duration: float | None = None,
        *,
        local_point: Vec3 | None = None,
    ) -> Load: ...
    def apply_torque(self, torque: Vec3, duration: float | None = None) -> Load: ...
    def apply_impulse(self, impulse: Vec3, point: Vec3 | None = None) -> None: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Load:
    """A force or torque applied to a body (from Body.apply_force / apply_torque)."""

    @property
    def active(self) -> bool: ...
    def remove(self) -> bool: ...

@final
class Spring:
    """A damped linear spring (from World.add_spring). Properties read the live world."""

    @property
    def body_a(self) -> Body: ...
    @property
    def body_b(self) -> Body | None: ...
    stiffness: float
    damping: float
    rest_length: float
    @property
    def anchor_a(self) -> Array: ...
    @property
    def anchor_b(self) -> Array: ...
    @property
    def length(self) -> float: ...
    @property
    def elastic_energy(self) -> float: ...
    @property
    def alive(self) -> bool: ...
    def remove(self) -> bool: ...

JointKind: TypeAlias = Literal[
    "distance", "rope", "ball", "hinge", "fixed", "mouse", "pulley", "slider"
]

@final
class Joint:
    """A joint (from the World.add_*_joint methods). Properties read the live world."""

    collide: bool
    @property
    def kind(self) -> JointKind: ...
    @property
    def body_a(self) -> Body: ...
    @property
    def body_b(self) -> Body | None: ...
    @property
    def anchor_a(self) -> Array: ...
    @property
    def anchor_b(self) -> Array: ...
    @property
    def length(self) -> float: ...
    @property
    def target_length(self) -> float | None: ...
    @property
    def angle(self) -> float | None: ...
    @property
    def translation(self) -> float | None: ...
    @property
    def limits(self) -> tuple[float, float] | None: ...
    motor: tuple[float, float] | None
    @property
    def target(self) -> Array | None: ...
    @target.setter
    def target(self, value: Vec3) -> None: ...
    @property
    def impulse(self) -> Array: ...
    @property
    def angular_impulse(self) -> Array: ...
    @property
    def reaction_force(self) -> Array: ...
    @property
    def reaction_torque(self) -> Array: ...
    @property
    def alive(self) -> bool: ...
    def remove(self) -> bool: ...

MotorSpec: TypeAlias = tuple[float, float] | dict[str, float]
QuantityName: TypeAlias = Literal[
    "positions",
    "orientations",
    "velocities",
    "angular_velocities",
    "energy",
    "momentum",
    "angular_momentum",
    "contacts",
    "contact_points",
]

@final
class Recording:
    """A recording of a run (from World.record), filled inside the engine while the world runs."""

    @property
    def time(self) -> Array: ...
    @property
    def body_ids(self) -> npt.NDArray[np.uint64]: ...
    @property
    def every(self) -> int: ...
    @property
    def quantities(self) -> list[QuantityName]: ...
    @property
    def active(self) -> bool: ...
    def stop(self) -> None: ...
    def save(self, path: str | os.PathLike[str]) -> None: ...
    @property
    def positions(self) -> Array: ...
    @property
    def orientations(self) -> Array: ...
    @property
    def angles(self) -> Array: ...
    @property
    def velocities(self) -> Array: ...
    @property
    def angular_velocities(self) -> Array: ...
    @property
    def energy(self) -> EnergySeries: ...
    @property
    def momentum(self) -> Array: ...
    @property
    def angular_momentum(self) -> Array: ...
    @property
    def contacts(self) -> npt.NDArray[np.uint64]: ...
    @property
    def contact_points(self) -> list[Array]: ...
    @property
    def body_names(self) -> list[str | None]: ...
    @property
    def planar(self) -> bool: ...
    def to_dict(self) -> dict[str, object]: ...
    def to_dataframe(self, *, long: bool = False) -> pandas.DataFrame: ...
    def save_npz(self, path: str | os.PathLike[str]) -> None: ...
    def start_world(self) -> World: ...
    def show(
        self,
        *,
        fps: float = 30.0,
        height: int = 420,
        limits: Sequence[Sequence[float]] | None = None,
    ) -> Player: ...
    def to_html(
        self,
        path: str | os.PathLike[str],
        *,
        fps: float = 30.0,
        height: int = 420,
        limits: Sequence[Sequence[float]] | None = None,
        title: str = "rigidlab recording",
    ) -> pathlib.Path: ...
    @staticmethod
    def load(path: str | os.PathLike[str]) -> Recording: ...
    def __len__(self) -> int: ...

@final
class Snapshot:
    """A saved world state (from World.snapshot), put back with World.restore."""

    @property
    def time(self) -> float: ...

@final
class World:
    """A world of rigid bodies: build it, run it, read it back as numpy arrays."""

    def __new__(
        cls,
        gravity: Vec3 = (0, -9.81, 0),
        dt: float = ...,  # 1/240 s
        integrator: AnyIntegratorName = "verlet",
        *,
        solver_iterations: int = 10,
        solver_tolerance: float = 1e-5,
        restitution_threshold: float = 0.0,
        restitution_rule: CombineName | str = "average",
        friction_rule: CombineName | str = "average",
        sleeping: bool = True,
        history: float | None = None,
    ) -> World: ...
    time: float
    dt: float
    @property
    def gravity(self) -> Array: ...
    @gravity.setter
    def gravity(self, value: Vec3) -> None: ...
    @property
    def integrator(self) -> IntegratorName: ...
    @integrator.setter
    def integrator(self, value: AnyIntegratorName) -> None: ...
    solver_iterations: int
    solver_tolerance: float
    @property
    def solver_iterations_done(self) -> int: ...
    @property
    def candidate_pairs(self) -> int: ...
    @property
    def step_times(self) -> dict[str, float]: ...
    @property
    def solve_times(self) -> dict[str, float]: ...
    restitution_threshold: float
    sleeping: bool
    threads: int | None
    def add_sphere(self, radius: float, **options: Unpack[_SolidOptions]) -> Body: ...
    def add_box(self, half_extents: Vec3, **options: Unpack[_SolidOptions]) -> Body: ...
    def add_capsule(
        self, radius: float, half_height: float, **options: Unpack[_SolidOptions]
    ) -> Body: ...
    def add_convex(self, points: npt.ArrayLike, **options: Unpack[_HullOptions]) -> Body: ...
    def add_wedge(
        self, length: float, height: float, width: float, **options: Unpack[_HullOptions]
    ) -> Body: ...
    def add_prism(
        self, polygon: npt.ArrayLike, depth: float, **options: Unpack[_HullOptions]
    ) -> Body: ...
    def add_plane(
        self, normal: Vec3 = (0, 1, 0), offset: float = 0.0, **options: Unpack[_PlaneOptions]
    ) -> Body: ...
    def remove(self, body: Body | Spring | Joint) -> None: ...
    def add_spring(
        self,
        a: Body,
        b: Body | None = None,
        *,
        stiffness: float,
        damping: float = 0.0,
        rest_length: float | None = None,
        anchor_a: Vec3 = (0, 0, 0),
        anchor_b: Vec3 = (0, 0, 0),
    ) -> Spring: ...
    def add_distance_joint(
        self,
        a: Body,
        b: Body | None = None,
        anchor_a: Vec3 = (0, 0, 0),
        anchor_b: Vec3 = (0, 0, 0),
        length: float | None = None,
        *,
        collide: bool = False,
    ) -> Joint: ...
    def add_rope_joint(
        self,
        a: Body,
        b: Body | None = None,
        anchor_a: Vec3 = (0, 0, 0),
        anchor_b: Vec3 = (0, 0, 0),
        max_length: float | None = None,
        *,
        collide: bool = False,
    ) -> Joint: ...
    def add_pulley_joint(
        self,
        a: Body,
        b: Body,
        ground_a: Vec3,
        ground_b: Vec3,
        anchor_a: Vec3 = (0, 0, 0),
        anchor_b: Vec3 = (0, 0, 0),
        ratio: float = 1.0,
        length: float | None = None,
        *,
        collide: bool = False,
    ) -> Joint: ...
    def add_ball_joint(
        self, a: Body, b: Body | None = None, anchor: Vec3 | None = None, *, collide: bool = False
    ) -> Joint: ...
    def add_hinge_joint(
        self,
        a: Body,
        b: Body | None = None,
        anchor: Vec3 | None = None,
        axis: Vec3 = (0, 0, 1),
        limits: tuple[float, float] | None = None,
        motor: MotorSpec | None = None,
        *,
        collide: bool = False,
    ) -> Joint: ...
    def add_slider_joint(
        self,
        a: Body,
        b: Body | None = None,
        anchor: Vec3 | None = None,
        axis: Vec3 = (1, 0, 0),
        limits: tuple[float, float] | None = None,
        motor: MotorSpec | None = None,
        *,
        collide: bool = False,
    ) -> Joint: ...
    def add_fixed_joint(
        self, a: Body, b: Body | None = None, *, collide: bool = False
    ) -> Joint: ...
    def add_mouse_joint(
        self,
        a: Body,
        target: Vec3,
        point: Vec3 | None = None,
        *,
        frequency: float = 5.0,
        damping_ratio: float = 0.7,
        max_force: float | None = None,
    ) -> Joint: ...
    @property
    def springs(self) -> list[Spring]: ...
    @property
    def joints(self) -> list[Joint]: ...
    def __len__(self) -> int: ...
    def body(self, key: str | int, /) -> Body: ...
    def __getitem__(self, key: str | int, /) -> Body: ...
    def __contains__(self, key: object, /) -> bool: ...
    @property
    def bodies(self) -> list[Body]: ...
    def step(self, n: int = 1) -> None: ...
    def run(self, seconds: float, progress: bool = False, realtime: bool | None = None) -> int: ...
    def advance(self, real_seconds: float, *, most_steps: int | None = None) -> float: ...
    history: float | None
    def rewind(self, seconds: float) -> None: ...
    time_scale: float
    @property
    def carried_time(self) -> float: ...
    def ray_cast(
        self, origin: Vec3, direction: Vec3, max_distance: float | None = None, planes: bool = True
    ) -> RayCastHit | None: ...
    def animate(
        self,
        seconds: float,
        *,
        fps: float = 30.0,
        plane: Literal["xy", "xz", "zy"] = "xy",
        size: tuple[float, float] = (6.0, 4.0),
        limits: object = None,
        save: str | None = None,
    ) -> object: ...
    def view(self, *, rate: float = 60.0, command: Sequence[str] | None = None) -> None: ...
    def show(
        self,
        *,
        fps: float = 30.0,
        height: int = 420,
        limits: Sequence[Sequence[float]] | None = None,
        contacts: bool = False,
        realtime: bool = True,
    ) -> LiveView: ...
    def _watch(self, callback: Callable[[World, bool], object], realtime: bool = False) -> None: ...
    @property
    def _revision(self) -> int: ...
    @property
    def viewing(self) -> bool: ...
    def close_view(self) -> None: ...
    @property
    def positions(self) -> Array: ...
    @positions.setter
    def positions(self, value: npt.ArrayLike) -> None: ...
    @property
    def orientations(self) -> Array: ...
    @orientations.setter
    def orientations(self, value: npt.ArrayLike) -> None: ...
    @property
    def velocities(self) -> Array: ...
    @velocities.setter
    def velocities(self, value: npt.ArrayLike) -> None: ...
    @property
    def angular_velocities(self) -> Array: ...
    @angular_velocities.setter
    def angular_velocities(self, value: npt.ArrayLike) -> None: ...
    @property
    def angles(self) -> Array: ...
    @angles.setter
    def angles(self, value: npt.ArrayLike) -> None: ...
    @property
    def planar(self) -> bool: ...
    def set_state(
        self,
        positions: npt.ArrayLike | None = None,
        orientations: npt.ArrayLike | None = None,
        velocities: npt.ArrayLike | None = None,
        angular_velocities: npt.ArrayLike | None = None,
        *,
        angles: npt.ArrayLike | None = None,
    ) -> None: ...
    def energy(self) -> Energy: ...
    def contact_forces(self) -> Array: ...
    def contact_torques(self) -> Array: ...
    def momentum(self) -> Array: ...
    def angular_momentum(self, about: Vec3 | None = None) -> Array: ...
    def contacts(self) -> Contacts: ...
    def record(
        self, every: int = 1, quantities: Sequence[QuantityName | str] | None = None
    ) -> Recording: ...
    def snapshot(self) -> Snapshot: ...
    def restore(self, snapshot: Snapshot) -> None: ...
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(text: str) -> World: ...
    def save(self, path: str | os.PathLike[str]) -> None: ...
    @staticmethod
    def load(path: str | os.PathLike[str]) -> World: ...
    def contact_events(self, clear: bool = True) -> ContactEvents: ...
    def set_pair(
        self,
        a: Body,
        b: Body,
        restitution: float | None = None,
        friction: float | None = None,
        static_friction: float | None = None,
        tangential_restitution: float | None = None,
        *,
        collide: bool | None = None,
    ) -> None: ...
    def pair_collides(self, a: Body, b: Body) -> bool: ...
    def overlaps(self, sensor: Body) -> list[Body]: ...
    def ray_cast_all(
        self,
        origin: Vec3,
        direction: Vec3,
        max_distance: float | None = None,
        planes: bool = True,
    ) -> list[RayHit]: ...
    def ray_cast_many(
        self,
        origins: Any,
        directions: Any,
        max_distance: float | Sequence[float] | Array | None = None,
        planes: bool = True,
    ) -> RayHits: ...
    def distance(self, a: Body, b: Body) -> Distance: ...
    def query_point(self, point: Vec3) -> list[Body]: ...
    def query_box(self, lo: Vec3, hi: Vec3) -> list[Body]: ...
    def on_contact(
        self,
        callback: Callable[[Body, Body, Contact], bool | None] | None,
        *,
        body: Body | None = None,
    ) -> None: ...

def step_many(worlds: Sequence[World], steps: int = 1, *, threads: int | None = None) -> None:
    """Advances every world in `worlds` by `steps` steps, in parallel on `threads` threads
    (default: one per core), with the GIL released, each exactly as `world.step(steps)` would."""

def _lend(name: str, function: Callable[..., Any]) -> None:
    """Lends the core a Python function by name (the rigidlab package does, on import)."""

def view_main(argv: list[str]) -> int:
    """Runs the viewer with command-line arguments (the first is the program name); returns
    its exit code."""
