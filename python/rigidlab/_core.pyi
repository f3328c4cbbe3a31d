"""Type stubs for rigidlab._core, the compiled engine."""

from typing import Literal, Optional, Sequence, TypedDict, Union

from typing_extensions import Unpack

import numpy as np
import numpy.typing as npt

__version__: str

Vec3 = Union[Sequence[float], npt.NDArray[np.float64]]
Quat = Union[Sequence[float], npt.NDArray[np.float64]]
Array = npt.NDArray[np.float64]
IntegratorName = Literal["euler", "symplectic_euler", "verlet", "rk4"]
KindName = Literal["dynamic", "static", "kinematic"]
CombineName = Literal["average", "min", "max", "multiply"]

class _Options(TypedDict, total=False):
    """Keywords every add_* method takes."""

    restitution: Optional[float]
    friction: Optional[float]
    static_friction: Optional[float]
    name: Optional[str]
    velocity: Vec3
    angular_velocity: Vec3

class _PlaneOptions(_Options, total=False):
    kind: Literal["static", "kinematic"]

class _SolidOptions(_Options, total=False):
    """Keywords of the add_* methods of solids: mass or density (kg/m^3, default 1000)."""

    kind: KindName
    mass: float
    density: float
    position: Vec3
    orientation: Quat
    linear_damping: float
    angular_damping: float
    quadratic_drag: float
    gravity_scale: float

class RemovedBodyError(IndexError):
    """Raised when a Body handle is used after its body was removed from the world."""

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
    position: Array
    orientation: Array
    velocity: Array
    angular_velocity: Array
    @property
    def mass(self) -> float: ...
    @property
    def inertia(self) -> Array: ...
    @property
    def inertia_body(self) -> Array: ...
    kind: KindName
    name: Optional[str]
    @property
    def shape(self) -> Literal["sphere", "box", "plane"]: ...
    @property
    def dimensions(self) -> dict[str, Union[float, Array]]: ...
    restitution: Optional[float]
    friction: Optional[float]
    static_friction: Optional[float]
    linear_damping: float
    angular_damping: float
    quadratic_drag: float
    gravity_scale: float
    @property
    def kinetic_energy(self) -> float: ...
    @property
    def momentum(self) -> Array: ...
    def angular_momentum(self, about: Optional[Vec3] = None) -> Array: ...
    def apply_force(
        self, force: Vec3, point: Optional[Vec3] = None, duration: Optional[float] = None, *, local_point: Optional[Vec3] = None
    ) -> Load: ...
    def apply_torque(self, torque: Vec3, duration: Optional[float] = None) -> Load: ...
    def apply_impulse(self, impulse: Vec3, point: Optional[Vec3] = None) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Load:
    """A force or torque applied to a body (from Body.apply_force / apply_torque)."""

    @property
    def active(self) -> bool: ...
    def remove(self) -> bool: ...

class Spring:
    """A damped linear spring (from World.add_spring). Properties read the live world."""

    @property
    def body_a(self) -> Body: ...
    @property
    def body_b(self) -> Optional[Body]: ...
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

JointKind = Literal["distance", "rope", "ball", "hinge", "fixed"]

class Joint:
    """A joint (from the World.add_*_joint methods). Properties read the live world."""

    @property
    def kind(self) -> JointKind: ...
    @property
    def body_a(self) -> Body: ...
    @property
    def body_b(self) -> Optional[Body]: ...
    @property
    def anchor_a(self) -> Array: ...
    @property
    def anchor_b(self) -> Array: ...
    @property
    def length(self) -> float: ...
    @property
    def target_length(self) -> Optional[float]: ...
    @property
    def angle(self) -> Optional[float]: ...
    @property
    def limits(self) -> Optional[tuple[float, float]]: ...
    motor: Optional[tuple[float, float]]
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

MotorSpec = Union[tuple[float, float], dict[str, float]]

class World:
    """A world of rigid bodies: build it, run it, read it back as numpy arrays."""

    def __init__(
        self,
        gravity: Optional[Vec3] = None,
        dt: float = 1.0 / 240.0,
        integrator: IntegratorName = "verlet",
        *,
        solver_iterations: int = 10,
        restitution_threshold: float = 0.1,
        restitution_rule: CombineName = "average",
        friction_rule: CombineName = "average",
    ) -> None: ...
    time: float
    dt: float
    gravity: Array
    integrator: IntegratorName
    solver_iterations: int
    restitution_threshold: float
    def add_sphere(self, radius: float, **options: Unpack[_SolidOptions]) -> Body: ...
    def add_box(self, half_extents: Vec3, **options: Unpack[_SolidOptions]) -> Body: ...
    def add_capsule(self, radius: float, half_height: float, **options: Unpack[_SolidOptions]) -> Body: ...
    def add_convex(self, points: npt.ArrayLike, **options: Unpack[_SolidOptions]) -> Body: ...
    def add_wedge(self, length: float, height: float, width: float, **options: Unpack[_SolidOptions]) -> Body: ...
    def add_prism(self, polygon: npt.ArrayLike, depth: float, **options: Unpack[_SolidOptions]) -> Body: ...
    def add_plane(self, normal: Optional[Vec3] = None, offset: float = 0.0, **options: Unpack[_PlaneOptions]) -> Body: ...
    def remove(self, body: Union[Body, Spring, Joint]) -> None: ...
    def add_spring(
        self,
        a: Body,
        b: Optional[Body] = None,
        *,
        stiffness: float,
        damping: float = 0.0,
        rest_length: Optional[float] = None,
        anchor_a: Vec3 = (0, 0, 0),
        anchor_b: Vec3 = (0, 0, 0),
    ) -> Spring: ...
    def add_distance_joint(
        self, a: Body, b: Optional[Body] = None, anchor_a: Vec3 = (0, 0, 0), anchor_b: Vec3 = (0, 0, 0), length: Optional[float] = None
    ) -> Joint: ...
    def add_rope_joint(
        self, a: Body, b: Optional[Body] = None, anchor_a: Vec3 = (0, 0, 0), anchor_b: Vec3 = (0, 0, 0), max_length: Optional[float] = None
    ) -> Joint: ...
    def add_ball_joint(self, a: Body, b: Optional[Body] = None, anchor: Optional[Vec3] = None) -> Joint: ...
    def add_hinge_joint(
        self,
        a: Body,
        b: Optional[Body] = None,
        anchor: Optional[Vec3] = None,
        axis: Vec3 = (0, 0, 1),
        limits: Optional[tuple[float, float]] = None,
        motor: Optional[MotorSpec] = None,
    ) -> Joint: ...
    def add_fixed_joint(self, a: Body, b: Optional[Body] = None) -> Joint: ...
    @property
    def springs(self) -> list[Spring]: ...
    @property
    def joints(self) -> list[Joint]: ...
    def __len__(self) -> int: ...
    @property
    def bodies(self) -> list[Body]: ...
    def step(self, n: int = 1) -> None: ...
    def run(self, seconds: float, progress: bool = False) -> int: ...
    @property
    def positions(self) -> Array: ...
    @property
    def orientations(self) -> Array: ...
    @property
    def velocities(self) -> Array: ...
    @property
    def angular_velocities(self) -> Array: ...
    def set_state(
        self,
        positions: Optional[npt.ArrayLike] = None,
        orientations: Optional[npt.ArrayLike] = None,
        velocities: Optional[npt.ArrayLike] = None,
        angular_velocities: Optional[npt.ArrayLike] = None,
    ) -> None: ...
    def energy(self) -> dict[str, float]: ...
    def momentum(self) -> Array: ...
    def angular_momentum(self, about: Optional[Vec3] = None) -> Array: ...
    def contacts(self) -> dict[str, Array]: ...
    def contact_events(self, clear: bool = True) -> dict[str, Union[Array, list[str], int]]: ...
    def set_pair(
        self,
        a: Body,
        b: Body,
        restitution: Optional[float] = None,
        friction: Optional[float] = None,
        static_friction: Optional[float] = None,
    ) -> None: ...
