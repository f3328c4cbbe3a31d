"""API behaviour of rigidlab.World and rigidlab.Body: defaults, shapes, mass properties, state
arrays, editing, measurements, loads and body kinds.

Every physics number is checked against its closed form with an explicit tolerance.
"""

import json
import math
import pickle
import time

import numpy as np
import pytest
import rigidlab as rl
from helpers import box_inertia, rotation_matrix

G = 9.81
DT = 1.0 / 240.0


# ---------------------------------------------------------------------------------------------
# helpers


def zero_g_world(**kw):
    return rl.World(gravity=(0, 0, 0), **kw)


def three_bodies(w):
    """A sphere, a box and a second sphere with distinct states, in that order."""
    a = w.add_sphere(0.1, mass=1.0, position=(1, 2, 3), velocity=(0.1, 0.2, 0.3), name="a")
    b = w.add_box(
        (0.1, 0.2, 0.3), mass=2.0, position=(4, 5, 6), angular_velocity=(1, 0, 0), name="b"
    )
    c = w.add_sphere(0.2, mass=3.0, position=(7, 8, 9), velocity=(-1, 0, 0), name="c")
    return a, b, c


def drop_apex(w, ball, seconds=1.2):
    """Steps the world and returns (highest apex after the first impact, largest upward speed
    after the first impact). The apex of a flight is y + v^2/2g taken at a step with v_y > 0,
    exact for free flight under velocity Verlet."""
    g = -w.gravity[1]
    impacted = False
    apex, vmax = -math.inf, 0.0
    prev_vy = ball.velocity[1]
    for _ in range(int(round(seconds / w.dt))):
        w.step()
        vy = ball.velocity[1]
        if prev_vy < -0.5 and vy > prev_vy + 0.5:
            impacted = True
        if impacted and vy > 0:
            apex = max(apex, ball.position[1] + vy * vy / (2 * g))
            vmax = max(vmax, vy)
        prev_vy = vy
    assert impacted, "the ball never hit the floor"
    return apex, vmax


# ---------------------------------------------------------------------------------------------
# World defaults and settings


def test_world_defaults():
    w = rl.World()
    assert isinstance(w.gravity, np.ndarray) and w.gravity.dtype == np.float64
    np.testing.assert_array_equal(w.gravity, [0.0, -9.81, 0.0])
    assert w.dt == 1.0 / 240.0
    assert w.integrator == "verlet"
    assert w.time == 0.0
    assert len(w) == 0
    assert w.bodies == []
    assert w.positions.shape == (0, 3) and w.orientations.shape == (0, 4)
    assert w.velocities.shape == (0, 3) and w.angular_velocities.shape == (0, 3)


def test_world_constructor_arguments():
    w = rl.World(gravity=[0, 0, -1.62], dt=0.01, integrator="rk4")
    np.testing.assert_array_equal(w.gravity, [0, 0, -1.62])
    assert w.dt == 0.01
    assert w.integrator == "rk4"
    w2 = rl.World((1.0, 2.0, 3.0), 0.002, "euler")  # positional as in the stubs
    np.testing.assert_array_equal(w2.gravity, [1, 2, 3])
    assert (w2.dt, w2.integrator) == (0.002, "euler")


def test_world_gravity_is_a_read_only_copy_and_settable():
    w = rl.World()
    g = w.gravity
    with pytest.raises(ValueError, match=r"w\.gravity = "):
        g[1] = 100.0
    np.testing.assert_array_equal(w.gravity, [0, -9.81, 0])
    w.gravity = (0, -1.0, 0)
    np.testing.assert_array_equal(w.gravity, [0, -1.0, 0])


@pytest.mark.parametrize("name", ["euler", "symplectic_euler", "verlet", "rk4"])
def test_integrator_settable(name):
    w = rl.World()
    w.integrator = name
    assert w.integrator == name
    assert rl.World(integrator=name).integrator == name


def test_dt_settable_and_time_counts_steps():
    w = rl.World()
    w.step(10)
    assert w.time == pytest.approx(10 * DT, rel=1e-15)
    w.dt = 0.01
    assert w.dt == 0.01
    w.step(3)
    assert w.time == pytest.approx(10 * DT + 0.03, rel=1e-14)


def test_step_advances_time_by_whole_steps():
    w = rl.World()
    w.add_sphere(0.1)
    w.step()
    assert w.time == pytest.approx(DT, rel=1e-15)
    w.step(0)
    assert w.time == pytest.approx(DT, rel=1e-15)
    w.step(99)
    assert w.time == pytest.approx(100 * DT, rel=1e-14)


def test_run_advances_by_whole_steps():
    w = rl.World()
    w.add_sphere(0.1)
    assert w.run(1.0) == 240
    assert w.time == pytest.approx(1.0, rel=1e-14)
    # 0.01 s is 2.4 steps: rounded to 2 whole steps
    assert w.run(0.01) == 2
    assert w.time == pytest.approx(1.0 + 2 * DT, rel=1e-14)
    assert w.run(0.0) == 0
    assert w.time == pytest.approx(1.0 + 2 * DT, rel=1e-14)


def test_time_settable():
    w = rl.World()
    w.time = 5.0
    w.step(24)
    assert w.time == pytest.approx(5.0 + 0.1, rel=1e-14)


def test_solver_settings_settable():
    w = rl.World(solver_iterations=4, restitution_threshold=0.3, solver_tolerance=1e-7)
    assert (w.solver_iterations, w.restitution_threshold, w.solver_tolerance) == (4, 0.3, 1e-7)
    w.solver_iterations = 20
    w.restitution_threshold = 0.05
    w.solver_tolerance = 0.0
    assert (w.solver_iterations, w.restitution_threshold, w.solver_tolerance) == (20, 0.05, 0.0)
    assert rl.World().solver_tolerance == 1e-5
    # Saved and loaded with the world; a file from before the setting iterates to the end.
    assert rl.World.from_json(w.to_json()).solver_tolerance == 0.0
    data = json.loads(rl.World().to_json())
    del data["settings"]["solver_tolerance"]
    assert rl.World.from_json(json.dumps(data)).solver_tolerance == 0.0


def test_step_times_say_where_the_last_step_went():
    w = rl.World()
    w.add_plane()
    for k in range(20):
        w.add_box((0.1, 0.1, 0.1), position=(0.3 * (k % 5), 0.1 + 0.2 * (k // 5), 0))
    w.step()
    times = w.step_times
    stages = ["broad_phase", "narrow_phase", "integrate", "solve", "correct", "finish", "sleep"]
    assert list(times) == stages + ["total"]
    assert all(times[s] >= 0 for s in stages) and times["solve"] > 0
    # The stages follow one another, so they add up to the whole step.
    assert sum(times[s] for s in stages) == pytest.approx(times["total"], rel=1e-6, abs=1e-9)
    # A world whose bodies all sleep runs no stage.
    w.run(3.0)
    assert all(b.sleeping for b in w.bodies if b.kind == "dynamic")
    assert all(v == 0 for v in w.step_times.values())


SOLVE_PARTS = ["prepare", "joint_positions", "impacts", "warm_start", "iterate", "hold_up", "store"]


@pytest.mark.parametrize("dims", [2, 3])
def test_solve_times_say_where_the_solve_stage_went(dims):
    # A column of boxes dropped on a floor beside a hanging pendulum: the step that lands them
    # solves impacts, resting contacts and a joint. Its parts follow one another inside the
    # solve stage, so they add up to no more than it, and to nearly all of it in a big step.
    w = rl.World() if dims == 3 else rl.World2D()
    if dims == 3:
        w.add_plane()
        boxes = [
            w.add_box((0.05,) * 3, position=(0.3 * (k % 20), 0.06, 0.3 * (k // 20)))
            for k in range(400)
        ]
        bob = w.add_sphere(0.05, position=(-1, 1, 0))
        w.add_ball_joint(bob, None, anchor=(-1, 1.5, 0))
    else:
        w.add_ground()
        boxes = [w.add_box((0.05, 0.05), position=(0.11 * k, 0.06)) for k in range(400)]
        bob = w.add_circle(0.05, position=(-1, 1))
        w.add_pin_joint(bob, None, anchor=(-1, 1.5))
    for b in boxes:
        b.velocity = (0, -1.0, 0)[:dims]
    w.step()
    parts = w.solve_times
    assert list(parts) == SOLVE_PARTS
    assert all(v >= 0 for v in parts.values())
    assert parts["impacts"] > 0 and parts["iterate"] > 0 and parts["joint_positions"] > 0
    solve = w.step_times["solve"]
    assert 0.5 * solve <= sum(parts.values()) <= solve * (1 + 1e-6)
    # A step with nothing to solve, and one in which every body slept, solve nothing.
    empty = rl.World() if dims == 3 else rl.World2D()
    empty.add_sphere(0.1) if dims == 3 else empty.add_circle(0.1)
    empty.step()
    assert list(empty.solve_times.values()) == [0.0] * len(SOLVE_PARTS)


def test_step_times_are_wall_clock_milliseconds():
    # The stages are timed by a faster clock than Python's; its total must still be the time
    # the step took by the wall clock, nearly all of a step of a big world.
    w = rl.World()
    w.add_plane()
    for k in range(2000):
        w.add_sphere(
            0.05, position=(0.11 * (k % 20), 0.05 + 0.11 * (k // 400), 0.11 * (k // 20 % 20))
        )
    for _ in range(3):
        start = time.perf_counter()
        w.step()
        wall_ms = (time.perf_counter() - start) * 1e3
        assert 0.5 * wall_ms < w.step_times["total"] <= wall_ms


# ---------------------------------------------------------------------------------------------
# adding bodies


def test_add_sphere_returns_body():
    w = rl.World()
    b = w.add_sphere(0.25, mass=2.0, position=(1, 2, 3), name="ball")
    assert isinstance(b, rl.Body)
    assert b.shape == "sphere"
    assert b.dimensions == {"radius": 0.25}
    assert b.kind == "dynamic"
    assert b.name == "ball"
    assert b.world is w
    assert b.alive and b.index == 0
    np.testing.assert_array_equal(b.position, [1, 2, 3])
    np.testing.assert_array_equal(b.orientation, [0, 0, 0, 1])
    np.testing.assert_array_equal(b.velocity, [0, 0, 0])
    np.testing.assert_array_equal(b.angular_velocity, [0, 0, 0])
    assert b.restitution is None and b.friction is None and b.static_friction is None
    assert b.linear_damping == 0.0 and b.angular_damping == 0.0
    assert len(w) == 1 and w.bodies == [b]


def test_add_box_returns_body():
    w = rl.World()
    b = w.add_box([0.1, 0.2, 0.3], mass=1.0, kind="kinematic", velocity=(1, 0, 0))
    assert b.shape == "box"
    assert set(b.dimensions) == {"half_extents"}
    he = b.dimensions["half_extents"]
    assert isinstance(he, np.ndarray) and he.dtype == np.float64
    np.testing.assert_array_equal(he, [0.1, 0.2, 0.3])
    assert b.kind == "kinematic"
    assert b.name is None
    np.testing.assert_array_equal(b.velocity, [1, 0, 0])


def test_add_plane_defaults():
    w = rl.World()
    p = w.add_plane()
    assert p.shape == "plane"
    assert p.kind == "static"
    assert p.mass == math.inf
    d = p.dimensions
    assert set(d) == {"normal", "offset"}
    np.testing.assert_allclose(d["normal"], [0, 1, 0], atol=1e-15)
    assert d["offset"] == 0.0


def test_add_plane_normal_is_normalised_and_offset_kept():
    w = rl.World()
    p = w.add_plane(normal=(3.0, 4.0, 0.0), offset=2.0, name="ramp")
    d = p.dimensions
    np.testing.assert_allclose(d["normal"], [0.6, 0.8, 0.0], atol=1e-15)
    assert d["offset"] == pytest.approx(2.0, abs=1e-14)
    assert p.name == "ramp"
    # the plane's reference point is normal * offset
    np.testing.assert_allclose(p.position, [1.2, 1.6, 0.0], atol=1e-14)


def test_add_plane_kinematic():
    w = rl.World()
    p = w.add_plane(kind="kinematic", velocity=(0, 0.5, 0))
    assert p.kind == "kinematic"
    w.step(240)
    assert p.dimensions["offset"] == pytest.approx(0.5, rel=1e-12)


# ---------------------------------------------------------------------------------------------
# mass and inertia


def test_sphere_mass_and_inertia_from_mass():
    w = rl.World()
    b = w.add_sphere(0.3, mass=2.5)
    assert b.mass == 2.5
    expected = np.eye(3) * 0.4 * 2.5 * 0.3**2
    np.testing.assert_allclose(b.inertia_body, expected, rtol=1e-14, atol=0)
    np.testing.assert_allclose(b.inertia, expected, rtol=1e-14, atol=0)


def test_sphere_mass_from_density():
    w = rl.World()
    b = w.add_sphere(0.2, density=500.0)
    m = 4.0 / 3.0 * math.pi * 0.2**3 * 500.0
    assert b.mass == pytest.approx(m, rel=1e-14)
    np.testing.assert_allclose(b.inertia_body, np.eye(3) * 0.4 * m * 0.04, rtol=1e-14)


def test_default_density_is_water():
    w = rl.World()
    b = w.add_sphere(0.1)
    assert b.mass == pytest.approx(4.0 / 3.0 * math.pi * 1e-3 * 1000.0, rel=1e-14)
    bx = w.add_box((0.1, 0.2, 0.3))
    assert bx.mass == pytest.approx(8 * 0.1 * 0.2 * 0.3 * 1000.0, rel=1e-14)


def test_box_mass_from_density_and_inertia():
    w = rl.World()
    h = (0.1, 0.2, 0.3)
    b = w.add_box(h, density=700.0)
    m = 8 * 0.1 * 0.2 * 0.3 * 700.0
    assert b.mass == pytest.approx(m, rel=1e-14)
    np.testing.assert_allclose(b.inertia_body, box_inertia(m, h), rtol=1e-14, atol=0)
    np.testing.assert_allclose(b.inertia, box_inertia(m, h), rtol=1e-14, atol=0)


def test_box_inertia_from_mass():
    w = rl.World()
    h = np.array([0.5, 0.25, 0.1])
    b = w.add_box(h, mass=3.0)
    assert b.mass == 3.0
    np.testing.assert_allclose(
        np.diag(b.inertia_body),
        [3 / 3 * (0.0625 + 0.01), 3 / 3 * (0.25 + 0.01), 3 / 3 * (0.25 + 0.0625)],
        rtol=1e-14,
    )


def test_rotated_box_world_inertia_is_R_I_RT():
    w = rl.World()
    h = (0.1, 0.2, 0.4)
    q = np.array([0.3, -0.5, 0.2, 0.8])  # not normalised on purpose
    b = w.add_box(h, mass=2.0, orientation=q)
    qn = q / np.linalg.norm(q)
    np.testing.assert_allclose(b.orientation, qn, rtol=0, atol=1e-15)
    R = rotation_matrix(qn)
    I_body = box_inertia(2.0, h)
    np.testing.assert_allclose(b.inertia_body, I_body, rtol=1e-14, atol=0)
    np.testing.assert_allclose(b.inertia, R @ I_body @ R.T, rtol=0, atol=1e-14)
    assert not np.allclose(b.inertia, I_body)  # the rotation really shows
    # after setting a new orientation the world tensor follows
    q2 = np.array([0.0, 0.0, math.sin(0.35), math.cos(0.35)])
    b.orientation = q2
    R2 = rotation_matrix(q2)
    np.testing.assert_allclose(b.inertia, R2 @ I_body @ R2.T, rtol=0, atol=1e-14)


@pytest.mark.parametrize("kind", ["static", "kinematic"])
def test_static_and_kinematic_mass_is_inf(kind):
    w = rl.World()
    b = w.add_box((0.1, 0.1, 0.1), mass=2.0, kind=kind)
    assert b.mass == math.inf
    assert np.all(np.isinf(np.diag(b.inertia)))


# ---------------------------------------------------------------------------------------------
# body properties


VECTOR_PROPS = [
    ("position", [1.5, -2.0, 3.25]),
    ("velocity", [0.5, 0.25, -4.0]),
    ("angular_velocity", [-1.0, 2.0, 0.125]),
]


@pytest.mark.parametrize("prop,value", VECTOR_PROPS)
def test_vector_property_set_and_read_back(prop, value):
    w = rl.World()
    b = w.add_box((0.1, 0.2, 0.3), mass=1.0)
    setattr(b, prop, value)
    got = getattr(b, prop)
    assert isinstance(got, np.ndarray) and got.dtype == np.float64 and got.shape == (3,)
    np.testing.assert_array_equal(got, value)
    # numpy input works too
    setattr(b, prop, np.array(value) * 2)
    np.testing.assert_array_equal(getattr(b, prop), np.array(value) * 2)


@pytest.mark.parametrize(
    "prop",
    [
        "position",
        "orientation",
        "velocity",
        "angular_velocity",
        "inertia",
        "inertia_body",
        "momentum",
    ],
)
def test_returned_arrays_are_read_only_copies(prop):
    w = rl.World()
    b = w.add_box((0.1, 0.2, 0.3), mass=1.0, position=(1, 2, 3), velocity=(1, 1, 1))
    first = getattr(b, prop)
    assert first.dtype == np.float64 and isinstance(first, np.ndarray)
    keep = np.array(first)
    # A write into a copy could never reach the body: it raises, naming the setter where
    # there is one, and nothing changes.
    settable = prop in ("position", "orientation", "velocity", "angular_velocity")
    with pytest.raises(ValueError, match=f"b\\.{prop} = " if settable else "read-only copies"):
        first[...] = 123.0
    with pytest.raises(ValueError):
        first[:2][0] = 123.0  # a view of the copy is read-only too
    np.testing.assert_array_equal(getattr(b, prop), keep)
    np.testing.assert_array_equal(first, keep)
    # Arithmetic and np.array give ordinary writable arrays.
    doubled = first * 2
    assert type(doubled) is np.ndarray and doubled.flags.writeable
    mine = np.array(first)
    mine[...] = 1.0
    np.testing.assert_array_equal(getattr(b, prop), keep)


@pytest.mark.parametrize("prop", ["position", "velocity", "angular_velocity"])
def test_augmented_assignment_sets_through_the_setter(prop):
    w = rl.World(gravity=(0, 0, 0))
    b = w.add_box((0.1, 0.2, 0.3), position=(1, 2, 3), velocity=(1, 1, 1))
    before = np.array(getattr(b, prop))
    value = getattr(b, prop)
    value += (0.5, -1.0, 2.0)
    # The name now holds the sum; the body is unchanged until it is assigned back...
    np.testing.assert_array_equal(value, before + (0.5, -1.0, 2.0))
    np.testing.assert_array_equal(getattr(b, prop), before)
    # ...which `b.velocity += ...` does.
    if prop == "position":
        b.position += (0.5, -1.0, 2.0)
    elif prop == "velocity":
        b.velocity += (0.5, -1.0, 2.0)
    else:
        b.angular_velocity += (0.5, -1.0, 2.0)
    np.testing.assert_array_equal(getattr(b, prop), before + (0.5, -1.0, 2.0))


def test_read_only_arrays_look_and_pickle_as_plain_arrays():
    w = rl.World()
    b = w.add_sphere(0.1, position=(0, 1, 0))
    assert repr(b.position) == "array([0., 1., 0.])"
    back = pickle.loads(pickle.dumps(b.position))
    assert type(back) is np.ndarray
    np.testing.assert_array_equal(back, [0, 1, 0])
    assert isinstance(b.position.sum(), float) and b.position.sum() == 1.0


def test_dimensions_half_extents_is_a_read_only_copy():
    w = rl.World()
    b = w.add_box((0.1, 0.2, 0.3))
    with pytest.raises(ValueError, match="read-only"):
        b.dimensions["half_extents"][0] = 9.0
    np.testing.assert_array_equal(b.dimensions["half_extents"], [0.1, 0.2, 0.3])


def test_orientation_set_is_normalised():
    w = rl.World()
    b = w.add_box((0.1, 0.2, 0.3))
    b.orientation = (0.0, 2.0, 0.0, 2.0)
    q = b.orientation
    assert q.dtype == np.float64 and q.shape == (4,)
    np.testing.assert_allclose(q, [0, math.sqrt(0.5), 0, math.sqrt(0.5)], rtol=0, atol=1e-15)
    assert np.linalg.norm(q) == pytest.approx(1.0, abs=1e-15)


def test_orientation_given_at_creation_is_normalised():
    w = rl.World()
    b = w.add_sphere(0.1, orientation=[0, 0, 0, 5])
    np.testing.assert_array_equal(b.orientation, [0, 0, 0, 1])


@pytest.mark.parametrize(
    "prop,value",
    [
        ("restitution", 0.7),
        ("friction", 0.3),
        ("static_friction", 0.6),
        ("linear_damping", 0.25),
        ("angular_damping", 0.125),
        ("name", "thing"),
    ],
)
def test_scalar_property_set_and_read_back(prop, value):
    w = rl.World()
    b = w.add_sphere(0.1)
    setattr(b, prop, value)
    assert getattr(b, prop) == value


@pytest.mark.parametrize("prop", ["restitution", "friction", "static_friction", "name"])
def test_optional_property_can_be_reset_to_none(prop):
    w = rl.World()
    b = w.add_sphere(0.1, restitution=0.5, friction=0.4, static_friction=0.8, name="x")
    assert getattr(b, prop) is not None
    setattr(b, prop, None)
    assert getattr(b, prop) is None


def test_material_setters_keep_the_other_coefficients():
    w = rl.World()
    b = w.add_sphere(0.1, restitution=0.5, friction=0.4, static_friction=0.8)
    b.friction = 0.1
    assert (b.restitution, b.friction, b.static_friction) == (0.5, 0.1, 0.8)
    b.restitution = 0.9
    assert (b.restitution, b.friction, b.static_friction) == (0.9, 0.1, 0.8)


def test_damping_setters_are_independent():
    w = rl.World()
    b = w.add_sphere(0.1, linear_damping=0.5, angular_damping=0.25)
    b.linear_damping = 2.0
    assert (b.linear_damping, b.angular_damping) == (2.0, 0.25)
    b.angular_damping = 3.0
    assert (b.linear_damping, b.angular_damping) == (2.0, 3.0)


@pytest.mark.parametrize(
    "prop",
    [
        "mass",
        "inertia",
        "inertia_body",
        "shape",
        "dimensions",
        "id",
        "alive",
        "index",
        "world",
        "kinetic_energy",
        "momentum",
    ],
)
def test_read_only_properties(prop):
    w = rl.World()
    b = w.add_sphere(0.1)
    with pytest.raises(AttributeError):
        setattr(b, prop, getattr(b, prop))


def test_body_kinetic_energy_and_momentum():
    w = rl.World()
    h = (0.1, 0.2, 0.3)
    b = w.add_box(h, mass=2.0, velocity=(1, 2, 3), angular_velocity=(0.5, -1, 2))
    I = box_inertia(2.0, h)
    wv = np.array([0.5, -1, 2])
    assert b.kinetic_energy == pytest.approx(0.5 * 2 * 14 + 0.5 * wv @ I @ wv, rel=1e-14)
    np.testing.assert_allclose(b.momentum, [2, 4, 6], rtol=1e-15)


# ---------------------------------------------------------------------------------------------
# whole-world arrays


def test_whole_world_arrays_in_insertion_order():
    w = rl.World()
    q = np.array([0, 0, math.sin(0.2), math.cos(0.2)])
    a = w.add_sphere(0.1, position=(1, 2, 3), velocity=(4, 5, 6), angular_velocity=(7, 8, 9))
    b = w.add_box((0.1, 0.1, 0.1), position=(-1, -2, -3), orientation=q, velocity=(-4, -5, -6))
    p = w.add_plane()
    for name, shape in [
        ("positions", (3, 3)),
        ("orientations", (3, 4)),
        ("velocities", (3, 3)),
        ("angular_velocities", (3, 3)),
    ]:
        arr = getattr(w, name)
        assert isinstance(arr, np.ndarray), name
        assert arr.dtype == np.float64, name
        assert arr.shape == shape, name
    np.testing.assert_array_equal(w.positions, [[1, 2, 3], [-1, -2, -3], [0, 0, 0]])
    np.testing.assert_allclose(w.orientations, [[0, 0, 0, 1], q, [0, 0, 0, 1]], atol=1e-15)
    np.testing.assert_array_equal(w.velocities, [[4, 5, 6], [-4, -5, -6], [0, 0, 0]])
    np.testing.assert_array_equal(w.angular_velocities, [[7, 8, 9], [0, 0, 0], [0, 0, 0]])
    for i, body in enumerate([a, b, p]):
        assert body.index == i
        np.testing.assert_array_equal(w.positions[i], body.position)


@pytest.mark.parametrize("name", ["positions", "orientations", "velocities", "angular_velocities"])
def test_whole_world_arrays_are_read_only_copies(name):
    w = zero_g_world()
    three_bodies(w)
    arr = getattr(w, name)
    keep = np.array(arr)
    with pytest.raises(ValueError, match=f"w\\.{name} = .*set_state"):
        arr[0] = 42.0
    np.testing.assert_array_equal(getattr(w, name), keep)
    w.step()  # a step does not write into an earlier copy either
    np.testing.assert_array_equal(arr, keep)


@pytest.mark.parametrize("name", ["positions", "orientations", "velocities", "angular_velocities"])
def test_whole_world_arrays_assign_as_set_state(name):
    w = zero_g_world()
    three_bodies(w)
    value = STATE_VALUES[name]
    setattr(w, name, value)
    np.testing.assert_allclose(getattr(w, name), value, rtol=0, atol=1e-15)
    with pytest.raises(ValueError, match=name):
        setattr(w, name, np.zeros((2, 3)))
    np.testing.assert_allclose(getattr(w, name), value, rtol=0, atol=1e-15)


STATE_VALUES = {
    "positions": np.array([[0.0, 1, 2], [3, 4, 5], [6, 7, 8]]),
    "orientations": np.array(
        [[0, 0, 0, 1.0], [0, math.sin(0.1), 0, math.cos(0.1)], [math.sin(0.3), 0, 0, math.cos(0.3)]]
    ),
    "velocities": np.array([[1.0, 0, 0], [0, 2, 0], [0, 0, 3]]),
    "angular_velocities": np.array([[0.5, 0, 0], [0, -0.5, 0], [0.1, 0.2, 0.3]]),
}


@pytest.mark.parametrize("name", list(STATE_VALUES))
@pytest.mark.parametrize("as_list", [False, True])
def test_set_state_each_array(name, as_list):
    w = zero_g_world()
    bodies = three_bodies(w)
    before = {k: getattr(w, k) for k in STATE_VALUES}
    value = STATE_VALUES[name]
    w.set_state(**{name: value.tolist() if as_list else value})
    np.testing.assert_allclose(getattr(w, name), value, rtol=0, atol=1e-15)
    for other in STATE_VALUES:
        if other != name:
            np.testing.assert_array_equal(getattr(w, other), before[other])
    # the per-body view agrees
    single = {
        "positions": "position",
        "orientations": "orientation",
        "velocities": "velocity",
        "angular_velocities": "angular_velocity",
    }[name]
    for i, b in enumerate(bodies):
        np.testing.assert_allclose(getattr(b, single), value[i], rtol=0, atol=1e-15)


def test_set_state_all_at_once_and_round_trip():
    w = zero_g_world()
    three_bodies(w)
    w.set_state(**STATE_VALUES)
    for k, v in STATE_VALUES.items():
        np.testing.assert_allclose(getattr(w, k), v, rtol=0, atol=1e-15)
    w.step(17)
    saved = {k: getattr(w, k) for k in STATE_VALUES}
    w.step(5)
    w.set_state(**saved)
    for k, v in saved.items():
        np.testing.assert_array_equal(getattr(w, k), v)


def test_set_state_normalises_orientations():
    w = zero_g_world()
    three_bodies(w)
    q = np.array([[0, 0, 0, 3.0], [0, 2.0, 0, 2.0], [1.0, 1.0, 1.0, 1.0]])
    w.set_state(orientations=q)
    np.testing.assert_allclose(
        w.orientations, q / np.linalg.norm(q, axis=1, keepdims=True), rtol=0, atol=1e-15
    )


def test_set_state_none_changes_nothing():
    w = zero_g_world()
    three_bodies(w)
    before = {k: getattr(w, k) for k in STATE_VALUES}
    w.set_state()
    w.set_state(positions=None, velocities=None)
    for k, v in before.items():
        np.testing.assert_array_equal(getattr(w, k), v)


# ---------------------------------------------------------------------------------------------
# removing bodies, handles, equality


def test_remove_shifts_rows():
    w = zero_g_world()
    a, b, c = three_bodies(w)
    pos, vel = w.positions, w.velocities
    w.remove(b)
    assert len(w) == 2
    assert w.bodies == [a, c]
    np.testing.assert_array_equal(w.positions, pos[[0, 2]])
    np.testing.assert_array_equal(w.velocities, vel[[0, 2]])
    assert w.orientations.shape == (2, 4)
    assert not b.alive
    assert a.alive and c.alive
    assert (a.index, c.index) == (0, 1)
    np.testing.assert_array_equal(c.position, [7, 8, 9])
    w.remove(a)
    assert len(w) == 1 and w.bodies == [c] and c.index == 0
    w.remove(c)
    assert len(w) == 0 and w.bodies == [] and w.positions.shape == (0, 3)


def test_added_after_remove_goes_last():
    w = zero_g_world()
    a, b, c = three_bodies(w)
    w.remove(a)
    d = w.add_sphere(0.1, position=(10, 10, 10))
    assert w.bodies == [b, c, d]
    assert d.index == 2
    np.testing.assert_array_equal(w.positions[2], [10, 10, 10])
    assert d.id not in (a.id, b.id, c.id)


def test_body_ids_unique_and_bodies_list():
    w = zero_g_world()
    bodies = three_bodies(w)
    ids = [b.id for b in bodies]
    assert len(set(ids)) == 3
    assert [b.id for b in w.bodies] == ids
    assert [b.name for b in w.bodies] == ["a", "b", "c"]


def test_body_equality_and_hash():
    w = zero_g_world()
    a, b, c = three_bodies(w)
    a2 = w.bodies[0]
    assert a2 is not a
    assert a2 == a and not (a2 != a)
    assert hash(a2) == hash(a)
    assert a != b and b != c
    assert len({a, a2, b, c, w.bodies[2]}) == 3
    assert a != "a" and a != 0 and a != None  # noqa: E711
    d = {a: 1, b: 2}
    assert d[w.bodies[1]] == 2


def test_bodies_of_different_worlds_are_not_equal():
    w1, w2 = zero_g_world(), zero_g_world()
    a1 = w1.add_sphere(0.1)
    a2 = w2.add_sphere(0.1)
    assert a1.id == a2.id  # same id, different worlds
    assert a1 != a2


def test_removed_body_stays_equal_to_its_own_handles():
    w = zero_g_world()
    a, _, _ = three_bodies(w)
    a_again = w.bodies[0]
    w.remove(a)
    assert a == a_again and hash(a) == hash(a_again)


# ---------------------------------------------------------------------------------------------
# measurements


def test_energy_for_a_known_state():
    w = rl.World()
    w.add_plane()
    h = (0.1, 0.2, 0.3)
    q = np.array([0.1, 0.2, 0.3, 0.9])
    m = 2.0
    v = np.array([1.0, -2.0, 0.5])
    om = np.array([0.3, -1.2, 2.0])
    w.add_box(h, mass=m, position=(0.5, 5.0, -1.0), orientation=q, velocity=v, angular_velocity=om)
    w.add_sphere(
        0.1, mass=10.0, kind="kinematic", velocity=(100, 0, 0), position=(0, 50, 0)
    )  # no energy
    R = rotation_matrix(q)
    I = R @ box_inertia(m, h) @ R.T
    e = w.energy()
    assert set(e) == {"translational", "rotational", "kinetic", "gravitational", "elastic", "total"}
    assert all(isinstance(x, float) for x in e.values())
    trans = 0.5 * m * v @ v
    rot = 0.5 * om @ I @ om
    grav = m * 9.81 * 5.0
    assert e["translational"] == pytest.approx(trans, rel=1e-14)
    assert e["rotational"] == pytest.approx(rot, rel=1e-12)
    assert e["kinetic"] == pytest.approx(trans + rot, rel=1e-12)
    assert e["gravitational"] == pytest.approx(grav, rel=1e-14)
    assert e["elastic"] == 0.0
    assert e["total"] == pytest.approx(trans + rot + grav, rel=1e-12)


def test_gravitational_energy_follows_gravity_vector():
    w = rl.World(gravity=(2.0, 0.0, -3.0))
    w.add_sphere(0.1, mass=1.5, position=(1.0, 7.0, 2.0))
    # -m g . x
    assert w.energy()["gravitational"] == pytest.approx(-1.5 * (2.0 * 1.0 - 3.0 * 2.0), rel=1e-14)


def test_momentum_of_dynamic_bodies():
    w = zero_g_world()
    w.add_sphere(0.1, mass=2.0, velocity=(1, 2, 3))
    w.add_box((0.1, 0.1, 0.1), mass=0.5, velocity=(-4, 0, 2))
    w.add_sphere(0.1, kind="kinematic", velocity=(5, 5, 5))
    w.add_plane()
    p = w.momentum()
    assert isinstance(p, np.ndarray) and p.dtype == np.float64
    np.testing.assert_allclose(p, [0.0, 4.0, 7.0], rtol=0, atol=1e-14)


def test_angular_momentum_about_a_point():
    w = zero_g_world()
    h = (0.1, 0.2, 0.3)
    q = np.array([0.2, -0.4, 0.1, 0.8])
    m, x, v, om = (
        3.0,
        np.array([1.0, 2.0, -1.0]),
        np.array([0.5, -1.0, 2.0]),
        np.array([1.0, 2.0, -0.5]),
    )
    b = w.add_box(h, mass=m, position=x, orientation=q, velocity=v, angular_velocity=om)
    s = w.add_sphere(
        0.2, mass=1.0, position=(0, 0, 3), velocity=(0, 1, 0), angular_velocity=(0, 0, 4)
    )
    R = rotation_matrix(q)
    I_box = R @ box_inertia(m, h) @ R.T
    about = np.array([0.5, -0.5, 1.0])
    L_box = np.cross(x - about, m * v) + I_box @ om
    L_sph = np.cross(np.array([0, 0, 3.0]) - about, [0, 1.0, 0]) + 0.4 * 0.04 * np.array(
        [0, 0, 4.0]
    )
    np.testing.assert_allclose(b.angular_momentum(about=about), L_box, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(s.angular_momentum(about), L_sph, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(
        w.angular_momentum(about=about), L_box + L_sph, rtol=1e-13, atol=1e-14
    )
    # default: about the origin
    L0 = (
        np.cross(x, m * v)
        + I_box @ om
        + np.cross([0, 0, 3.0], [0, 1.0, 0])
        + 0.4 * 0.04 * np.array([0, 0, 4.0])
    )
    np.testing.assert_allclose(w.angular_momentum(), L0, rtol=1e-13, atol=1e-14)


CONTACT_KEYS = {"body_a", "body_b", "point", "normal", "depth", "normal_impulse", "tangent_impulse"}


def check_contact_shapes(c, k):
    assert set(c) == CONTACT_KEYS
    for key in ("body_a", "body_b", "depth", "normal_impulse"):
        assert isinstance(c[key], np.ndarray) and c[key].shape == (k,), key
    for key in ("point", "normal", "tangent_impulse"):
        assert isinstance(c[key], np.ndarray) and c[key].shape == (k, 3), key
    for key in ("point", "normal", "depth", "normal_impulse", "tangent_impulse"):
        assert c[key].dtype == np.float64, key


def test_contacts_empty():
    w = rl.World()
    w.add_sphere(0.1, position=(0, 5, 0))
    w.add_plane()
    w.step()
    check_contact_shapes(w.contacts(), 0)


def test_sphere_resting_on_plane_contact():
    w = rl.World()
    floor = w.add_plane()
    m, r = 2.0, 0.1
    ball = w.add_sphere(r, mass=m, position=(0.3, r, -0.2))
    w.step(20)
    c = w.contacts()
    check_contact_shapes(c, 1)
    assert {int(c["body_a"][0]), int(c["body_b"][0])} == {floor.id, ball.id}
    # the normal points from body_a to body_b: up when the floor is body_a
    sign = 1.0 if int(c["body_a"][0]) == floor.id else -1.0
    np.testing.assert_allclose(c["normal"][0], [0, sign, 0], atol=1e-12)
    np.testing.assert_allclose(c["point"][0], [0.3, 0.0, -0.2], atol=1e-6)
    assert abs(c["depth"][0]) < 1e-6
    # the floor carries the weight: impulse m g dt per step
    assert c["normal_impulse"][0] == pytest.approx(m * G * DT, rel=1e-9)
    np.testing.assert_allclose(c["tangent_impulse"][0], 0.0, atol=1e-12)


def test_box_resting_on_plane_contact_impulses_sum_to_weight():
    w = rl.World()
    w.add_plane()
    m = 3.0
    w.add_box((0.2, 0.1, 0.3), mass=m, position=(0, 0.1, 0))
    w.step(30)
    c = w.contacts()
    k = len(c["depth"])
    check_contact_shapes(c, k)
    assert 3 <= k <= 4
    np.testing.assert_allclose(np.abs(c["normal"][:, 1]), 1.0, atol=1e-12)
    assert c["normal_impulse"].sum() == pytest.approx(m * G * DT, rel=1e-9)


# ---------------------------------------------------------------------------------------------
# materials


@pytest.mark.parametrize(
    "ball_e,floor_e,rule,expected",
    [
        (0.8, None, "average", 0.8),  # only the ball sets it
        (None, 0.6, "average", 0.6),  # only the floor sets it
        (None, None, "average", 0.0),  # neither: default 0
        (0.8, 0.4, "average", 0.6),
        (0.8, 0.4, "min", 0.4),
        (0.8, 0.4, "max", 0.8),
        (0.8, 0.5, "multiply", 0.4),
    ],
)
def test_restitution_material_rule(ball_e, floor_e, rule, expected):
    w = rl.World(restitution_rule=rule)
    w.add_plane(restitution=floor_e)
    r, h = 0.05, 0.5
    ball = w.add_sphere(r, mass=0.2, position=(0, r + h, 0), restitution=ball_e)
    apex, vmax = drop_apex(w, ball)
    if expected == 0.0:
        assert vmax < 1e-3, f"ball with e=0 bounced at {vmax} m/s"
    else:
        assert apex - r == pytest.approx(expected**2 * h, rel=0.01)


def test_set_pair_changes_bounce():
    w = rl.World()
    floor = w.add_plane()
    r, h = 0.05, 0.5
    dead = w.add_sphere(r, mass=0.2, position=(0, r + h, 0))
    live = w.add_sphere(r, mass=0.2, position=(1, r + h, 0))
    w.set_pair(floor, live, restitution=0.7)
    g = 9.81
    apex_live = -math.inf
    vmax_dead = 0.0
    for _ in range(int(1.2 / DT)):
        w.step()
        v_live, v_dead = live.velocity[1], dead.velocity[1]
        if v_live > 0:  # only after the bounce: both start at rest and fall
            apex_live = max(apex_live, live.position[1] + v_live**2 / (2 * g))
        if w.time > 0.4:  # after the impact (t = 0.32 s)
            vmax_dead = max(vmax_dead, v_dead)
    assert apex_live - r == pytest.approx(0.49 * h, rel=0.01)
    assert vmax_dead < 1e-3
    # set_pair order does not matter, and the pair value beats the bodies' own
    w2 = rl.World()
    floor2 = w2.add_plane(restitution=1.0)
    ball2 = w2.add_sphere(r, mass=0.2, position=(0, r + h, 0), restitution=1.0)
    w2.set_pair(ball2, floor2, restitution=0.5)
    apex, _ = drop_apex(w2, ball2)
    assert apex - r == pytest.approx(0.25 * h, rel=0.01)


# ---------------------------------------------------------------------------------------------
# loads


def test_apply_impulse_at_centre():
    w = zero_g_world()
    b = w.add_box((0.1, 0.2, 0.3), mass=2.0, velocity=(1, 0, 0), angular_velocity=(0, 0.5, 0))
    b.apply_impulse((4.0, -2.0, 1.0))
    np.testing.assert_allclose(b.velocity, [3.0, -1.0, 0.5], rtol=0, atol=1e-15)
    np.testing.assert_array_equal(b.angular_velocity, [0, 0.5, 0])


def test_apply_impulse_at_point():
    w = zero_g_world()
    q = np.array([0.3, 0.1, -0.2, 0.9])
    x = np.array([1.0, 2.0, 3.0])
    b = w.add_box(
        (0.1, 0.2, 0.3), mass=2.0, position=x, orientation=q, angular_velocity=(0.1, 0, 0)
    )
    I = b.inertia
    J = np.array([0.5, 1.0, -2.0])
    p = x + np.array([0.1, -0.2, 0.25])
    b.apply_impulse(J, point=p)
    np.testing.assert_allclose(b.velocity, J / 2.0, rtol=0, atol=1e-15)
    dw = np.linalg.solve(I, np.cross(p - x, J))
    np.testing.assert_allclose(
        b.angular_velocity, np.array([0.1, 0, 0]) + dw, rtol=1e-12, atol=1e-13
    )
    assert np.linalg.norm(dw) > 1.0  # the spin change is not negligible


@pytest.mark.parametrize("kind", ["static", "kinematic"])
def test_forces_on_a_body_that_cannot_answer_them_are_refused(kind):
    # A force on a static or kinematic body would do nothing: the caller hears so.
    w = zero_g_world()
    b = w.add_sphere(0.1, kind=kind, velocity=(1, 0, 0) if kind == "kinematic" else None)
    before = w.to_json()
    for call in (
        lambda: b.apply_impulse((1, 2, 3), point=(0.1, 0, 0)),
        lambda: b.apply_force((1, 2, 3)),
        lambda: b.apply_force((1, 2, 3), duration=1.0),
        lambda: b.apply_torque((1, 2, 3)),
    ):
        with pytest.raises(ValueError, match=f"body: only a dynamic body .*got {kind} body"):
            call()
    assert w.to_json() == before
    # Made dynamic, it takes them.
    b.kind = "dynamic"
    b.apply_impulse((1, 0, 0))
    assert b.velocity[0] > 0


def test_apply_force_for_duration():
    w = zero_g_world()
    m = 2.0
    b = w.add_sphere(0.1, mass=m)
    F = np.array([3.0, -1.0, 0.5])
    b.apply_force(F, duration=0.5)
    w.run(1.0)  # 120 steps with the force, 120 coasting
    a = F / m
    np.testing.assert_allclose(b.velocity, a * 0.5, rtol=1e-12)
    # exact for velocity Verlet: x = a t1^2/2 + a t1 (t - t1)
    np.testing.assert_allclose(b.position, a * 0.125 + a * 0.5 * 0.5, rtol=1e-12)
    np.testing.assert_array_equal(b.angular_velocity, 0.0)


def test_apply_force_half_duration_check_at_the_boundary():
    """After exactly 120 steps the force is gone: step 121 adds nothing."""
    w = zero_g_world()
    b = w.add_sphere(0.1, mass=1.0)
    b.apply_force((2.0, 0, 0), duration=0.5)
    w.step(119)
    assert b.velocity[0] == pytest.approx(2.0 * 119 * DT, rel=1e-12)
    w.step(1)
    assert b.velocity[0] == pytest.approx(1.0, rel=1e-12)
    w.step(1)
    assert b.velocity[0] == pytest.approx(1.0, rel=1e-12)


def test_apply_force_without_duration_lasts_one_step():
    w = zero_g_world()
    b = w.add_sphere(0.1, mass=4.0)
    b.apply_force((8.0, 0, 0))
    w.step(10)
    assert b.velocity[0] == pytest.approx(8.0 / 4.0 * DT, rel=1e-12)


def test_apply_force_with_gravity_adds_up():
    w = rl.World()
    b = w.add_sphere(0.1, mass=2.0)
    b.apply_force((0, 2.0 * 9.81, 0), duration=1.0)  # cancels the weight
    w.run(1.0)
    np.testing.assert_allclose(b.velocity, 0.0, atol=1e-12)
    np.testing.assert_allclose(b.position, 0.0, atol=1e-12)


def test_apply_force_at_point_spins():
    """A small force at an offset for one step: dv = F dt / m, dw = I^-1 (r x F) dt (to the
    rotation of the arm within the step, which is O(alpha dt^2) relative)."""
    w = zero_g_world()
    m, r = 1.0, 0.1
    b = w.add_sphere(r, mass=m)
    F = np.array([0.0, 1.0, 0.0])
    b.apply_force(F, point=(r, 0, 0))
    w.step()
    np.testing.assert_allclose(b.velocity, F * DT / m, rtol=1e-12, atol=1e-15)
    I = 0.4 * m * r * r
    np.testing.assert_allclose(
        b.angular_velocity, np.cross([r, 0, 0], F) * DT / I, rtol=1e-3, atol=1e-12
    )


def test_apply_torque_for_duration():
    w = zero_g_world()
    m, r = 2.0, 0.5
    b = w.add_sphere(r, mass=m)
    tau = np.array([0.2, -0.1, 0.3])
    b.apply_torque(tau, duration=0.5)
    w.run(1.0)
    I = 0.4 * m * r * r
    np.testing.assert_allclose(b.angular_velocity, tau * 0.5 / I, rtol=1e-12)
    np.testing.assert_array_equal(b.velocity, 0.0)
    np.testing.assert_array_equal(b.position, 0.0)


def test_apply_torque_without_duration_lasts_one_step():
    w = zero_g_world()
    b = w.add_sphere(0.5, mass=2.0)
    b.apply_torque((0, 0, 1.0))
    w.step(5)
    np.testing.assert_allclose(b.angular_velocity, [0, 0, DT / 0.2], rtol=1e-12)


def test_loads_are_dropped_with_their_body():
    w = zero_g_world()
    a = w.add_sphere(0.1, mass=1.0)
    b = w.add_sphere(0.1, mass=1.0, position=(1, 0, 0))
    a.apply_force((1, 0, 0), duration=1.0)
    w.remove(a)
    w.run(0.5)
    np.testing.assert_array_equal(b.velocity, 0.0)


# ---------------------------------------------------------------------------------------------
# kinds


def test_kinematic_body_moves_at_its_velocity_under_gravity():
    w = rl.World()
    w.add_plane()
    k = w.add_box(
        (0.5, 0.1, 0.5),
        kind="kinematic",
        position=(0, 2, 0),
        velocity=(1.0, -0.5, 0),
        angular_velocity=(0, 1.0, 0),
    )
    w.run(1.0)
    np.testing.assert_allclose(k.position, [1.0, 1.5, 0], rtol=1e-12)
    np.testing.assert_array_equal(k.velocity, [1.0, -0.5, 0])
    np.testing.assert_array_equal(k.angular_velocity, [0, 1.0, 0])
    # turned by 1 rad about y
    np.testing.assert_allclose(k.orientation, [0, math.sin(0.5), 0, math.cos(0.5)], atol=1e-12)


def test_kinematic_body_is_not_pushed_by_a_dynamic_one():
    w = rl.World(gravity=(0, 0, 0))
    k = w.add_box((0.5, 0.5, 0.5), kind="kinematic", velocity=(0.1, 0, 0))
    w.add_sphere(0.1, mass=1.0, position=(1.0, 0, 0), velocity=(-2.0, 0, 0), restitution=1.0)
    w.run(1.0)
    np.testing.assert_array_equal(k.velocity, [0.1, 0, 0])
    assert k.position[0] == pytest.approx(0.1, rel=1e-12)


def test_static_body_never_moves():
    w = rl.World()
    w.add_plane()
    s = w.add_box((0.2, 0.2, 0.2), kind="static", position=(0, 1, 0))
    ball = w.add_sphere(0.1, mass=5.0, position=(0, 1.5, 0))  # lands on the static box
    w.run(1.0)
    np.testing.assert_array_equal(s.position, [0, 1, 0])
    np.testing.assert_array_equal(s.orientation, [0, 0, 0, 1])
    np.testing.assert_array_equal(s.velocity, 0.0)
    assert ball.position[1] == pytest.approx(1.3, abs=1e-3)  # resting on top of it


def test_toggle_kind_at_runtime():
    w = rl.World()
    b = w.add_sphere(0.1, mass=2.0, position=(0, 10, 0))
    w.step(24)  # 0.1 s of free fall
    vy = b.velocity[1]
    assert vy == pytest.approx(-9.81 * 0.1, rel=1e-12)
    b.kind = "kinematic"
    assert b.kind == "kinematic" and b.mass == math.inf
    y = b.position[1]
    w.step(24)  # keeps its velocity, no gravity
    assert b.velocity[1] == pytest.approx(vy, rel=1e-15)
    assert b.position[1] == pytest.approx(y + vy * 0.1, rel=1e-12)
    b.kind = "dynamic"
    assert b.kind == "dynamic" and b.mass == 2.0
    w.step(24)  # falls again
    assert b.velocity[1] == pytest.approx(vy - 9.81 * 0.1, rel=1e-12)
    b.kind = "static"
    assert b.kind == "static" and b.mass == math.inf
    np.testing.assert_array_equal(b.velocity, 0.0)
    np.testing.assert_array_equal(b.angular_velocity, 0.0)


def test_making_a_body_static_stops_it():
    w = rl.World()
    b = w.add_box(
        (0.1, 0.1, 0.1),
        mass=1.0,
        position=(0, 5, 0),
        velocity=(3, 4, 5),
        angular_velocity=(1, 2, 3),
    )
    w.step(10)
    b.kind = "static"
    np.testing.assert_array_equal(b.velocity, 0.0)
    np.testing.assert_array_equal(b.angular_velocity, 0.0)
    p, q = b.position, b.orientation
    w.run(1.0)
    np.testing.assert_array_equal(b.position, p)
    np.testing.assert_array_equal(b.orientation, q)
    assert w.energy()["total"] == 0.0
    np.testing.assert_array_equal(w.momentum(), 0.0)


def test_plane_can_be_made_kinematic_and_back():
    w = rl.World()
    p = w.add_plane()
    p.kind = "kinematic"
    p.velocity = (0, 1.0, 0)
    w.run(0.5)
    assert p.dimensions["offset"] == pytest.approx(0.5, rel=1e-12)
    p.kind = "static"
    np.testing.assert_array_equal(p.velocity, 0.0)


def test_run_with_progress_bar_counts_every_step(capsys):
    w = rl.World()
    b = w.add_sphere(0.1, mass=1.0)
    assert w.run(0.5, progress=True) == 120
    assert w.time == pytest.approx(0.5, abs=1e-12)
    assert b.position[1] == pytest.approx(-0.5 * 9.81 * 0.25, rel=1e-12)
    assert "120/120" in capsys.readouterr().err


def test_run_with_progress_but_no_tqdm_says_so_and_steps_nothing(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # as if tqdm were not installed
    w = rl.World()
    w.add_sphere(0.1)
    with pytest.raises(ImportError, match="progress.*tqdm"):
        w.run(0.5, progress=True)
    assert w.time == 0.0
    assert w.carried_time == pytest.approx(0.0, abs=1e-15)


def test_body_colour_is_kept_edited_and_saved():
    w = rl.World()
    a = w.add_sphere(0.1, color=(1.0, 0.5, 0.0))
    b = w.add_box((0.1, 0.1, 0.1))
    assert a.color == (1.0, 0.5, 0.0) and b.color is None
    b.color = np.array([0.0, 0.0, 1.0])
    assert b.color == (0.0, 0.0, 1.0)
    a.color = None
    assert a.color is None
    again = rl.World.from_json(w.to_json())
    assert [x.color for x in again.bodies] == [None, (0.0, 0.0, 1.0)]


def test_ray_cast_finds_the_first_body_along_a_ray():
    w = rl.World()
    floor = w.add_plane()
    near = w.add_sphere(0.1, position=(0, 1, 0))
    w.add_box((0.2, 0.2, 0.2), position=(0, 0.5, 0))
    hit = w.ray_cast((0, 3, 0), (0, -2, 0))
    assert hit["body"].id == near.id and hit["distance"] == pytest.approx(1.9)
    np.testing.assert_allclose(hit["point"], [0, 1.1, 0])
    np.testing.assert_allclose(hit["normal"], [0, 1, 0])
    beside = w.ray_cast((1, 3, 0), (0, -1, 0))
    assert beside["body"].id == floor.id and beside["distance"] == pytest.approx(3.0)
    assert w.ray_cast((1, 3, 0), (0, -1, 0), planes=False) is None
    assert w.ray_cast((0, 3, 0), (0, -1, 0), max_distance=1.5) is None
    for bad, name in [
        (dict(direction=(0, 0, 0)), "direction"),
        (dict(max_distance=-1), "max_distance"),
        (dict(origin=(0, math.nan, 0)), "origin"),
    ]:
        args = dict(origin=(0, 3, 0), direction=(0, -1, 0)) | bad
        with pytest.raises(ValueError, match=name):
            w.ray_cast(**args)


def test_animate_draws_the_run_and_advances_the_world(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    w, _ = rl.presets.newtons_cradle()
    html = w.animate(0.5, fps=10, save=str(tmp_path / "cradle.gif"))
    assert w.time == pytest.approx(0.5)
    assert "<script" in html.data and (tmp_path / "cradle.gif").stat().st_size > 1000
    for bad, name in [(dict(plane="xx"), "plane"), (dict(fps=0), "fps")]:
        with pytest.raises(ValueError, match=name):
            w.animate(0.1, **bad)
    with pytest.raises(ValueError, match="seconds"):
        w.animate(-1)


def test_position_places_a_wedge_by_its_corner_or_its_centroid():
    length, height, width = 1.2, 0.6, 0.4
    w = rl.World(gravity=(0, 0, 0))
    tilt = rl.Rotation.from_axis_angle((0, 1, 0), 0.7)
    p = np.array([2.0, 1.0, -3.0])
    corner = w.add_wedge(length, height, width, position=p, orientation=tilt)
    # A right triangle's centroid is a third of the way along each leg.
    np.testing.assert_allclose(
        corner.position, p + tilt.apply((length / 3, height / 3, 0)), rtol=0, atol=1e-12
    )
    centred = w.add_wedge(length, height, width, position=p, orientation=tilt, anchor="centroid")
    np.testing.assert_allclose(centred.position, p, rtol=0, atol=1e-12)


@pytest.mark.parametrize("kind", ["convex", "prism", "polygon"])
def test_anchor_is_one_rule_for_bodies_made_from_points(kind):
    p = (0.5, 2.0, 0.0)
    outline = [(0, 0), (1, 0), (1, 0.5), (0, 1)]
    if kind == "polygon":
        w = rl.World2D(gravity=(0, 0))
        make = lambda **kw: w.add_polygon(outline, **kw)  # noqa: E731
        p = p[:2]
    else:
        w = rl.World(gravity=(0, 0, 0))
        if kind == "convex":
            pts = [(x, y, z) for x, y in outline for z in (0.0, 0.3)]
            make = lambda **kw: w.add_convex(pts, **kw)  # noqa: E731
        else:
            make = lambda **kw: w.add_prism(outline, 0.3, **kw)  # noqa: E731
    at_origin = make(position=p)
    default = make(position=p, anchor="origin")
    at_centroid = make(position=p, anchor="centroid")
    np.testing.assert_array_equal(default.position, at_origin.position)
    np.testing.assert_allclose(at_centroid.position, p, rtol=0, atol=1e-12)
    offset = np.asarray(at_origin.position) - np.asarray(p)
    assert np.linalg.norm(offset) > 0.1  # the two rules differ by the centroid's offset
    n = len(w)
    with pytest.raises(ValueError, match="anchor: expected 'origin' or 'centroid', got 'middle'"):
        make(position=p, anchor="middle")
    with pytest.raises(TypeError, match="anchor"):
        make(position=p, anchor=1)
    assert len(w) == n
