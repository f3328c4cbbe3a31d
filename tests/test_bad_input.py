"""Rejected input: every bad call raises the right exception, names the parameter at fault, and
leaves the world exactly as it was."""

import math
import re

import numpy as np
import pytest
import rigidlab as rl

NAN, INF = math.nan, math.inf
BAD_POSITIVE = [0.0, -1.0, NAN, INF, -INF]
BAD_VECTORS = [(NAN, 0, 0), (0, INF, 0), (0, 0, -INF), (NAN, NAN, NAN)]


# ---------------------------------------------------------------------------------------------
# helpers


def populated():
    """A world with a floor, a ball, a spinning box and a static box, run for a few steps so
    that time, positions and velocities are all non-trivial."""
    w = rl.World()
    floor = w.add_plane(name="floor")
    ball = w.add_sphere(
        0.1, mass=1.0, position=(0, 2, 0), velocity=(1, 0, 0), restitution=0.5, name="ball"
    )
    box = w.add_box(
        (0.1, 0.2, 0.3),
        mass=2.0,
        position=(3, 1, 0),
        angular_velocity=(0, 1, 0.5),
        friction=0.3,
        name="box",
    )
    wall = w.add_box((0.5, 0.5, 0.5), kind="static", position=(-3, 0.5, 0), name="wall")
    w.step(5)
    return w, floor, ball, box, wall


def snapshot(w):
    return {
        "len": len(w),
        "time": w.time,
        "dt": w.dt,
        "gravity": w.gravity,
        "integrator": w.integrator,
        "solver_iterations": w.solver_iterations,
        "solver_tolerance": w.solver_tolerance,
        "restitution_threshold": w.restitution_threshold,
        "positions": w.positions,
        "orientations": w.orientations,
        "velocities": w.velocities,
        "angular_velocities": w.angular_velocities,
        "springs": len(w.springs),
        "joints": len(w.joints),
        "json": w.to_json(),
        "bodies": [
            (
                b.id,
                b.kind,
                b.name,
                b.mass,
                b.restitution,
                b.friction,
                b.static_friction,
                b.linear_damping,
                b.angular_damping,
            )
            for b in w.bodies
        ],
    }


def assert_same(after, before):
    assert after.keys() == before.keys()
    for k in before:
        if isinstance(before[k], np.ndarray):
            np.testing.assert_array_equal(after[k], before[k], err_msg=k)
        else:
            assert after[k] == before[k], k


def names(exc, param):
    """Whether the message of exc names `param` as a word of its own (so "n" is not found in
    "cannot", nor "velocity" in "angular_velocity")."""
    return re.search(rf"(?<![A-Za-z_]){re.escape(param)}(?![A-Za-z_])", str(exc)) is not None


def rejects(w, exc, param, fn, *args, **kwargs):
    """Calls fn(*args, **kwargs), expects exc whose message names `param`, and checks that the
    world did not change. Returns the exception."""
    before = snapshot(w)
    with pytest.raises(exc) as info:
        fn(*args, **kwargs)
    if param is not None:
        assert names(info.value, param), f"{param!r} not named in: {info.value}"
    assert_same(snapshot(w), before)
    return info.value


def setter(obj, name):
    return lambda value: setattr(obj, name, value)


def rejects_setting(exc, param, value):
    """A world setting is refused both by World(...) and by its setter on a populated world."""
    with pytest.raises(exc) as info:
        rl.World(**{param: value})
    assert names(info.value, param), str(info.value)
    w, *_ = populated()
    rejects(w, exc, param, setter(w, param), value)


# ---------------------------------------------------------------------------------------------
# sizes and masses


@pytest.mark.parametrize("radius", BAD_POSITIVE)
def test_bad_radius(radius):
    w, *_ = populated()
    rejects(w, ValueError, "radius", w.add_sphere, radius)


@pytest.mark.parametrize("value", BAD_POSITIVE)
@pytest.mark.parametrize("param", ["mass", "density"])
@pytest.mark.parametrize("shape", ["sphere", "box"])
def test_bad_mass_or_density(value, param, shape):
    w, *_ = populated()
    add, size = (w.add_sphere, 0.1) if shape == "sphere" else (w.add_box, (0.1, 0.1, 0.1))
    rejects(w, ValueError, param, add, size, **{param: value})


def test_mass_of_wrong_type():
    w, *_ = populated()
    rejects(w, TypeError, "mass", w.add_sphere, 0.1, mass="heavy")
    rejects(w, TypeError, "density", w.add_box, (0.1, 0.1, 0.1), density="light")


# Arguments of the wrong type: a TypeError whose message names the parameter, as the design's
# error rule asks of every rejected call ("the engine ... naming the parameter").
WRONG_TYPE_CASES = {
    "add_sphere radius": ("radius", lambda w, b: w.add_sphere("big")),
    "add_plane offset": ("offset", lambda w, b: w.add_plane((0, 1, 0), "high")),
    "step n": ("n", lambda w, b: w.step("many")),
    "run seconds": ("seconds", lambda w, b: w.run("long")),
    "set dt": ("dt", lambda w, b: setattr(w, "dt", "small")),
    "set integrator": ("integrator", lambda w, b: setattr(w, "integrator", 4)),
    "set restitution": ("restitution", lambda w, b: setattr(b, "restitution", "bouncy")),
    "set linear_damping": ("linear_damping", lambda w, b: setattr(b, "linear_damping", "some")),
    "set kind": ("kind", lambda w, b: setattr(b, "kind", 1)),
    "set name": ("name", lambda w, b: setattr(b, "name", 1)),
    "apply_force duration": ("duration", lambda w, b: b.apply_force((1, 0, 0), duration="long")),
    "set_pair restitution": (
        "restitution",
        lambda w, b: w.set_pair(w.bodies[0], b, restitution="bouncy"),
    ),
    "remove body": ("body", lambda w, b: w.remove("ball")),
}


@pytest.mark.parametrize("case", list(WRONG_TYPE_CASES))
def test_wrong_type_names_parameter(case):
    param, call = WRONG_TYPE_CASES[case]
    w, _, ball, _, _ = populated()
    rejects(w, TypeError, param, call, w, ball)


@pytest.mark.parametrize(
    "param,kwargs",
    [
        ("dt", {"dt": "small"}),
        ("solver_iterations", {"solver_iterations": "many"}),
        ("integrator", {"integrator": 4}),
    ],
)
def test_world_constructor_wrong_type_names_parameter(param, kwargs):
    with pytest.raises(TypeError) as info:
        rl.World(**kwargs)
    assert names(info.value, param), str(info.value)


def test_mass_and_density_together():
    w, *_ = populated()
    e = rejects(w, ValueError, "mass", w.add_sphere, 0.1, mass=1.0, density=1000.0)
    assert names(e, "density")
    e = rejects(w, ValueError, "mass", w.add_box, (0.1, 0.1, 0.1), mass=1.0, density=1000.0)
    assert names(e, "density")


@pytest.mark.parametrize("component", [0, 1, 2])
@pytest.mark.parametrize("value", BAD_POSITIVE)
def test_bad_half_extent_component(component, value):
    w, *_ = populated()
    h = [0.1, 0.2, 0.3]
    h[component] = value
    rejects(w, ValueError, "half_extents", w.add_box, h)
    rejects(w, ValueError, "half_extents", w.add_box, np.array(h), mass=1.0)


@pytest.mark.parametrize("h", [(0.1, 0.2), (0.1, 0.2, 0.3, 0.4), 0.1, [[0.1, 0.2, 0.3]]])
def test_half_extents_of_wrong_shape(h):
    w, *_ = populated()
    rejects(w, ValueError, "half_extents", w.add_box, h)


def test_half_extents_of_wrong_type():
    w, *_ = populated()
    rejects(w, TypeError, "half_extents", w.add_box, "cube")


# ---------------------------------------------------------------------------------------------
# vectors and quaternions


@pytest.mark.parametrize("param", ["position", "velocity", "angular_velocity"])
@pytest.mark.parametrize("value", BAD_VECTORS)
def test_non_finite_vector_on_add(param, value):
    w, *_ = populated()
    rejects(w, ValueError, param, w.add_sphere, 0.1, **{param: value})
    rejects(
        w, ValueError, param, w.add_box, (0.1, 0.1, 0.1), **{param: np.array(value, dtype=float)}
    )


@pytest.mark.parametrize("param", ["position", "velocity", "angular_velocity"])
@pytest.mark.parametrize("value", BAD_VECTORS)
def test_non_finite_vector_on_set(param, value):
    w, _, ball, box, _ = populated()
    rejects(w, ValueError, param, setter(ball, param), value)
    rejects(w, ValueError, param, setter(box, param), np.array(value, dtype=float))


@pytest.mark.parametrize(
    "q", [(NAN, 0, 0, 1), (0, 0, 0, INF), (0, 0, 0, 0), (0.0, 0.0, 0.0, 1e-12)]
)
def test_bad_orientation(q):
    w, _, ball, box, _ = populated()
    rejects(w, ValueError, "orientation", w.add_sphere, 0.1, orientation=q)
    rejects(w, ValueError, "orientation", w.add_box, (0.1, 0.1, 0.1), orientation=q)
    rejects(w, ValueError, "orientation", setter(ball, "orientation"), q)
    rejects(w, ValueError, "orientation", setter(box, "orientation"), np.array(q))


@pytest.mark.parametrize("q", [(0, 0, 1), (0, 0, 0, 1, 0), [[0, 0, 0, 1]]])
def test_orientation_of_wrong_shape(q):
    w, _, ball, _, _ = populated()
    rejects(w, ValueError, "orientation", w.add_sphere, 0.1, orientation=q)
    rejects(w, ValueError, "orientation", setter(ball, "orientation"), q)


@pytest.mark.parametrize("param", ["position", "velocity", "angular_velocity"])
@pytest.mark.parametrize(
    "value", [(1.0, 2.0), (1.0, 2.0, 3.0, 4.0), [[1.0, 2.0, 3.0]], np.zeros((3, 1)), 5.0]
)
def test_vector_of_wrong_shape(param, value):
    w, _, ball, _, _ = populated()
    rejects(w, ValueError, param, w.add_sphere, 0.1, **{param: value})
    rejects(w, ValueError, param, setter(ball, param), value)


@pytest.mark.parametrize("param", ["position", "velocity", "angular_velocity"])
@pytest.mark.parametrize("value", ["abc", {"x": 1}, object()])
def test_vector_of_wrong_type(param, value):
    w, _, ball, _, _ = populated()
    rejects(w, TypeError, param, w.add_sphere, 0.1, **{param: value})
    rejects(w, TypeError, param, setter(ball, param), value)


def test_about_must_be_finite():
    w, _, ball, _, _ = populated()
    rejects(w, ValueError, "about", w.angular_momentum, about=(NAN, 0, 0))
    rejects(w, ValueError, "about", ball.angular_momentum, (0, INF, 0))
    rejects(w, ValueError, "about", w.angular_momentum, about=(0, 0))


# ---------------------------------------------------------------------------------------------
# set_state


@pytest.mark.parametrize("name", ["positions", "orientations", "velocities", "angular_velocities"])
def test_set_state_wrong_columns(name):
    w, *_ = populated()
    n = len(w)
    rejects(w, ValueError, name, w.set_state, **{name: np.zeros((n, 2))})
    wrong_k = 3 if name == "orientations" else 4
    rejects(w, ValueError, name, w.set_state, **{name: np.zeros((n, wrong_k))})


@pytest.mark.parametrize("name", ["positions", "orientations", "velocities", "angular_velocities"])
@pytest.mark.parametrize("rows", [0, 3, 5])
def test_set_state_wrong_row_count(name, rows):
    w, *_ = populated()
    assert len(w) == 4
    k = 4 if name == "orientations" else 3
    value = np.zeros((rows, k))
    if name == "orientations":
        value[:, 3] = 1.0
    rejects(w, ValueError, name, w.set_state, **{name: value})
    rejects(w, ValueError, name, w.set_state, **{name: value.tolist()})


@pytest.mark.parametrize("name", ["positions", "velocities"])
def test_set_state_flat_or_3d_array(name):
    w, *_ = populated()
    rejects(w, ValueError, name, w.set_state, **{name: np.zeros(12)})
    rejects(w, ValueError, name, w.set_state, **{name: np.zeros((4, 3, 1))})


def test_set_state_wrong_type():
    w, *_ = populated()
    rejects(w, TypeError, "positions", w.set_state, positions="everything at the origin")


@pytest.mark.parametrize("name", ["positions", "velocities", "angular_velocities"])
@pytest.mark.parametrize("bad", [NAN, INF])
def test_set_state_non_finite_changes_nothing(name, bad):
    """A bad entry in one array rejects the whole call, also the valid arrays given with it."""
    w, *_ = populated()
    n = len(w)
    valid = {
        "positions": w.positions + 1.0,
        "orientations": np.tile([0.0, math.sin(0.2), 0.0, math.cos(0.2)], (n, 1)),
        "velocities": np.zeros((n, 3)),
        "angular_velocities": np.zeros((n, 3)),
    }
    bad_array = valid[name].copy()
    bad_array[n - 1, 1] = bad  # last row, after valid rows
    args = dict(valid)
    args[name] = bad_array
    rejects(w, ValueError, name, w.set_state, **args)


@pytest.mark.parametrize("q", [(0, 0, 0, 0), (NAN, 0, 0, 1)])
def test_set_state_bad_quaternion_changes_nothing(q):
    w, *_ = populated()
    n = len(w)
    orientations = np.tile([0.0, 0.0, 0.0, 1.0], (n, 1))
    orientations[2] = q
    rejects(
        w,
        ValueError,
        "orientations",
        w.set_state,
        positions=np.zeros((n, 3)),
        orientations=orientations,
    )


def test_set_state_velocity_on_static_row_changes_nothing():
    w, floor, ball, box, wall = populated()
    v = np.zeros((len(w), 3))
    v[ball.index] = (5, 5, 5)
    v[wall.index] = (1, 0, 0)
    rejects(w, ValueError, "velocities", w.set_state, velocities=v, positions=np.ones((len(w), 3)))
    omega = np.zeros((len(w), 3))
    omega[floor.index] = (0, 1, 0)
    rejects(w, ValueError, "angular_velocities", w.set_state, angular_velocities=omega)


def test_set_state_unknown_keyword():
    w, *_ = populated()
    rejects(w, TypeError, "pos", w.set_state, pos=np.zeros((4, 3)))


# ---------------------------------------------------------------------------------------------
# names: integrators, kinds, rules


@pytest.mark.parametrize("name", ["leapfrog", "Verlet", "RK4", ""])
def test_unknown_integrator(name):
    rejects_setting(ValueError, "integrator", name)


@pytest.mark.parametrize("param", ["restitution_rule", "friction_rule"])
def test_unknown_combine_rule(param):
    with pytest.raises(ValueError) as info:
        rl.World(**{param: "median"})
    assert names(info.value, param)


@pytest.mark.parametrize("kind", ["floating", "Dynamic", ""])
def test_unknown_kind(kind):
    w, floor, ball, _, _ = populated()
    rejects(w, ValueError, "kind", w.add_sphere, 0.1, kind=kind)
    rejects(w, ValueError, "kind", w.add_box, (0.1, 0.1, 0.1), kind=kind)
    rejects(w, ValueError, "kind", w.add_plane, kind=kind)
    rejects(w, ValueError, "kind", setter(ball, "kind"), kind)
    rejects(w, ValueError, "kind", setter(floor, "kind"), kind)


def test_kind_of_wrong_type():
    w, *_ = populated()
    rejects(w, TypeError, "kind", w.add_sphere, 0.1, kind=1)


def test_dynamic_plane():
    w, floor, *_ = populated()
    rejects(w, ValueError, "kind", w.add_plane, kind="dynamic")
    rejects(w, ValueError, "kind", w.add_plane, (0, 1, 0), 1.0, kind="dynamic")
    rejects(w, ValueError, "kind", setter(floor, "kind"), "dynamic")
    assert floor.kind == "static"
    floor.kind = "kinematic"
    rejects(w, ValueError, "kind", setter(floor, "kind"), "dynamic")
    assert floor.kind == "kinematic"


@pytest.mark.parametrize("normal", [(0, 0, 0), (NAN, 1, 0), (0, INF, 0), (1e-300, 0, 0)])
def test_bad_plane_normal(normal):
    w, *_ = populated()
    rejects(w, ValueError, "normal", w.add_plane, normal)
    rejects(w, ValueError, "normal", w.add_plane, normal=normal)


@pytest.mark.parametrize("normal", [(0, 1), (0, 1, 0, 0)])
def test_plane_normal_of_wrong_shape(normal):
    w, *_ = populated()
    rejects(w, ValueError, "normal", w.add_plane, normal)


@pytest.mark.parametrize("offset", [NAN, INF, -INF, 1e300, -2e11])
def test_bad_plane_offset(offset):
    w, *_ = populated()
    rejects(w, ValueError, "offset", w.add_plane, (0, 1, 0), offset)


def test_a_long_normal_or_ray_direction_is_only_a_direction():
    # Components near f64's largest are scaled before normalising, so no square overflows.
    w = rl.World(gravity=(0, 0, 0))
    plane = w.add_plane((0, 1e300, 1e300), offset=2.0)
    s = math.sqrt(0.5)
    np.testing.assert_allclose(plane.position, [0, 2 * s, 2 * s], rtol=1e-15)
    ball = w.add_sphere(0.1, position=(0, 5, 0))
    hit = w.ray_cast((0, 8, 0), (0, -1e300, 0))
    assert hit["body"].id == ball.id and hit["distance"] == pytest.approx(2.9)


def test_animate_refuses_frame_rates_no_screen_shows():
    w, *_ = populated()
    rejects(w, ValueError, "fps", w.animate, 0.1, fps=1e6)


# ---------------------------------------------------------------------------------------------
# unknown keywords


@pytest.mark.parametrize("kw", ["colour", "radius", "mas", "half_extents", "gravity"])
def test_unknown_keyword_add_sphere(kw):
    w, *_ = populated()
    rejects(w, TypeError, kw, w.add_sphere, 0.1, **{kw: 1.0})


@pytest.mark.parametrize("kw", ["colour", "radius", "size"])
def test_unknown_keyword_add_box(kw):
    w, *_ = populated()
    rejects(w, TypeError, kw, w.add_box, (0.1, 0.1, 0.1), **{kw: 1.0})


@pytest.mark.parametrize(
    "kw", ["mass", "density", "position", "orientation", "linear_damping", "colour"]
)
def test_unknown_keyword_add_plane(kw):
    """Planes take no mass, density, position, orientation or damping."""
    w, *_ = populated()
    rejects(w, TypeError, kw, w.add_plane, **{kw: 1.0})


def test_unknown_keyword_elsewhere():
    with pytest.raises(TypeError) as info:
        rl.World(gravity=(0, -9.81, 0), timestep=0.01)
    assert names(info.value, "timestep")
    w, floor, ball, *_ = populated()
    rejects(w, TypeError, "count", w.step, count=3)
    rejects(w, TypeError, "secs", w.run, secs=1.0)
    rejects(w, TypeError, "when", ball.apply_force, (1, 0, 0), when=1.0)
    rejects(w, TypeError, "at", ball.apply_impulse, (1, 0, 0), at=(0, 0, 0))
    rejects(w, TypeError, "bounce", w.set_pair, floor, ball, bounce=0.5)


# ---------------------------------------------------------------------------------------------
# world settings


@pytest.mark.parametrize("dt", [0.0, -0.01, NAN, INF])
def test_bad_dt(dt):
    rejects_setting(ValueError, "dt", dt)


@pytest.mark.parametrize("g", BAD_VECTORS)
def test_bad_gravity(g):
    rejects_setting(ValueError, "gravity", g)


@pytest.mark.parametrize("g", [(0, -9.81), (0, -9.81, 0, 0)])
def test_gravity_of_wrong_shape(g):
    rejects_setting(ValueError, "gravity", g)


@pytest.mark.parametrize("t", [NAN, INF])
def test_bad_time(t):
    w, *_ = populated()
    rejects(w, ValueError, "time", setter(w, "time"), t)


@pytest.mark.parametrize(
    "param, value",
    [
        ("solver_iterations", 0),
        ("solver_iterations", -3),
        ("restitution_threshold", -0.1),
        ("restitution_threshold", NAN),
        ("solver_tolerance", -1e-6),
        ("solver_tolerance", NAN),
        ("solver_tolerance", INF),
    ],
)
def test_bad_solver_settings(param, value):
    rejects_setting(ValueError, param, value)


@pytest.mark.parametrize("n", [-6, -1000])
def test_negative_steps_past_the_start(n):
    """The populated world has taken 5 steps: it may step back 5 (time runs backwards), not
    more."""
    w, *_ = populated()
    rejects(w, ValueError, "n", w.step, n)


def test_negative_steps_where_contacts_acted():
    w, *_ = populated()
    w.run(1.0)  # the ball has landed
    rejects(w, ValueError, "n", w.step, -1)


@pytest.mark.parametrize("seconds", [-1.0, -1e-9, NAN, INF])
def test_bad_run_seconds(seconds):
    w, *_ = populated()
    rejects(w, ValueError, "seconds", w.run, seconds)


# ---------------------------------------------------------------------------------------------
# materials and damping


@pytest.mark.parametrize("e", [1.0001, 2.0, -0.1, NAN, INF])
def test_bad_restitution(e):
    w, floor, ball, _, _ = populated()
    rejects(w, ValueError, "restitution", w.add_sphere, 0.1, restitution=e)
    rejects(w, ValueError, "restitution", w.add_plane, restitution=e)
    rejects(w, ValueError, "restitution", setter(ball, "restitution"), e)
    rejects(w, ValueError, "restitution", w.set_pair, floor, ball, restitution=e)


@pytest.mark.parametrize("param", ["friction", "static_friction"])
@pytest.mark.parametrize("mu", [-0.1, NAN, INF])
def test_bad_friction(param, mu):
    w, floor, ball, box, _ = populated()
    rejects(w, ValueError, param, w.add_sphere, 0.1, **{param: mu})
    rejects(w, ValueError, param, w.add_box, (0.1, 0.1, 0.1), **{param: mu})
    rejects(w, ValueError, param, w.add_plane, **{param: mu})
    rejects(w, ValueError, param, setter(box, param), mu)
    rejects(w, ValueError, param, w.set_pair, floor, ball, **{param: mu})


@pytest.mark.parametrize("param", ["linear_damping", "angular_damping"])
@pytest.mark.parametrize("c", [-0.5, NAN, INF])
def test_bad_damping(param, c):
    w, _, ball, _, _ = populated()
    rejects(w, ValueError, param, w.add_sphere, 0.1, **{param: c})
    rejects(w, ValueError, param, w.add_box, (0.1, 0.1, 0.1), **{param: c})
    rejects(w, ValueError, param, setter(ball, param), c)


# ---------------------------------------------------------------------------------------------
# static bodies cannot move


@pytest.mark.parametrize("param", ["velocity", "angular_velocity"])
def test_velocity_on_new_static_body(param):
    w, *_ = populated()
    # the message names the parameter actually given, not its neighbour
    rejects(w, ValueError, param, w.add_sphere, 0.1, kind="static", **{param: (0, 1, 0)})
    rejects(w, ValueError, param, w.add_plane, **{param: (0, 1, 0)})


@pytest.mark.parametrize("param", ["velocity", "angular_velocity"])
def test_velocity_on_existing_static_body(param):
    w, floor, _, _, wall = populated()
    rejects(w, ValueError, param, setter(wall, param), (1, 0, 0))
    rejects(w, ValueError, param, setter(floor, param), np.array([0, 1.0, 0]))
    setattr(wall, param, (0, 0, 0))  # zero is fine
    np.testing.assert_array_equal(getattr(wall, param), 0.0)


# ---------------------------------------------------------------------------------------------
# loads


@pytest.mark.parametrize("duration", [0.0, -1.0, NAN, -INF])
def test_bad_load_duration(duration):
    w, _, ball, _, _ = populated()
    rejects(w, ValueError, "duration", ball.apply_force, (1, 0, 0), duration=duration)
    rejects(w, ValueError, "duration", ball.apply_torque, (1, 0, 0), duration=duration)


@pytest.mark.parametrize("value", BAD_VECTORS + [(1, 2)])
def test_bad_load_vectors(value):
    w, _, ball, _, _ = populated()
    rejects(w, ValueError, "force", ball.apply_force, value)
    rejects(w, ValueError, "point", ball.apply_force, (1, 0, 0), point=value)
    rejects(w, ValueError, "torque", ball.apply_torque, value)
    rejects(w, ValueError, "impulse", ball.apply_impulse, value)
    rejects(w, ValueError, "point", ball.apply_impulse, (1, 0, 0), point=value)


def test_rejected_loads_leave_nothing_behind():
    """A rejected apply_force / apply_torque must not leave a pending load: the body then moves
    exactly as a twin that was never pushed."""
    w = rl.World(gravity=(0, 0, 0))
    a = w.add_sphere(0.1, mass=1.0)
    twin = w.add_sphere(0.1, mass=1.0, position=(5, 0, 0))
    for call in [
        lambda: a.apply_force((1, 0, 0), duration=-1.0),
        lambda: a.apply_force((1, 0, 0), point=(NAN, 0, 0), duration=1.0),
        lambda: a.apply_torque((1, 0, 0), duration=NAN),
        lambda: a.apply_impulse((1, 0, 0), point=(0, INF, 0)),
    ]:
        with pytest.raises(ValueError):
            call()
    w.run(1.0)
    np.testing.assert_array_equal(a.velocity, twin.velocity)
    np.testing.assert_array_equal(a.angular_velocity, twin.angular_velocity)
    np.testing.assert_array_equal(a.velocity, 0.0)


# ---------------------------------------------------------------------------------------------
# removed bodies


def test_removed_body_error_is_an_index_error():
    assert issubclass(rl.RemovedBodyError, IndexError)


GETTERS = [
    "position", "orientation", "velocity", "angular_velocity", "mass", "inertia", "inertia_body",
    "kind", "name", "shape", "dimensions", "restitution", "friction", "static_friction",
    "linear_damping", "angular_damping", "kinetic_energy", "momentum", "index",
]  # fmt: skip

SETTERS = [
    ("position", (0, 1, 0)),
    ("orientation", (0, 0, 0, 1)),
    ("velocity", (0, 1, 0)),
    ("angular_velocity", (0, 1, 0)),
    ("kind", "kinematic"),
    ("name", "ghost"),
    ("restitution", 0.5),
    ("restitution", None),
    ("friction", 0.5),
    ("static_friction", 0.5),
    ("linear_damping", 0.1),
    ("angular_damping", 0.1),
]


def removed_ball():
    w, floor, ball, box, wall = populated()
    w.remove(ball)
    return w, floor, ball, box


@pytest.mark.parametrize("prop", GETTERS)
def test_removed_body_getters(prop):
    w, _, ball, _ = removed_ball()
    e = rejects(w, rl.RemovedBodyError, "removed", getattr, ball, prop)
    assert isinstance(e, IndexError)


@pytest.mark.parametrize("prop,value", SETTERS)
def test_removed_body_setters(prop, value):
    w, _, ball, _ = removed_ball()
    rejects(w, rl.RemovedBodyError, "removed", setattr, ball, prop, value)


def test_removed_body_methods():
    w, floor, ball, box = removed_ball()
    rejects(w, rl.RemovedBodyError, "removed", ball.angular_momentum)
    rejects(w, rl.RemovedBodyError, "removed", ball.angular_momentum, about=(1, 2, 3))
    rejects(w, rl.RemovedBodyError, "removed", ball.apply_force, (1, 0, 0))
    rejects(
        w,
        rl.RemovedBodyError,
        "removed",
        ball.apply_force,
        (1, 0, 0),
        point=(0, 0, 0),
        duration=1.0,
    )
    rejects(w, rl.RemovedBodyError, "removed", ball.apply_torque, (1, 0, 0))
    rejects(w, rl.RemovedBodyError, "removed", ball.apply_torque, (1, 0, 0), duration=1.0)
    rejects(w, rl.RemovedBodyError, "removed", ball.apply_impulse, (1, 0, 0))
    rejects(w, rl.RemovedBodyError, "removed", ball.apply_impulse, (1, 0, 0), point=(0, 0, 0))
    rejects(w, rl.RemovedBodyError, "removed", w.remove, ball)
    rejects(w, rl.RemovedBodyError, "removed", w.set_pair, ball, floor, restitution=0.5)
    rejects(w, rl.RemovedBodyError, "removed", w.set_pair, box, ball, friction=0.5)


def test_removed_body_still_answers_identity():
    w, _, ball, _ = removed_ball()
    assert ball.alive is False
    assert isinstance(ball.id, int)
    assert ball.world is w
    assert ball not in w.bodies
    assert "removed" in repr(ball)


def test_removed_handle_does_not_alias_slot_reuse():
    w = rl.World()
    a = w.add_sphere(0.1, mass=1.0, position=(1, 1, 1), name="a")
    b = w.add_sphere(0.2, mass=2.0, position=(2, 2, 2), name="b")
    w.remove(a)
    c = w.add_box((0.1, 0.1, 0.1), mass=3.0, position=(3, 3, 3), name="c")  # may reuse a's slot
    with pytest.raises(rl.RemovedBodyError):
        a.position
    with pytest.raises(rl.RemovedBodyError):
        a.position = (9, 9, 9)
    with pytest.raises(rl.RemovedBodyError):
        w.remove(a)
    assert not a.alive and c.alive and b.alive
    assert a != c and a.id != c.id
    np.testing.assert_array_equal(c.position, [3, 3, 3])
    assert (c.name, c.shape, c.mass, c.index) == ("c", "box", 3.0, 1)
    assert w.bodies == [b, c]
    np.testing.assert_array_equal(w.positions, [[2, 2, 2], [3, 3, 3]])


# ---------------------------------------------------------------------------------------------
# set_pair and handles from another world


def test_set_pair_same_body_twice():
    w, _, ball, _, _ = populated()
    rejects(w, ValueError, "b", w.set_pair, ball, ball, restitution=0.5)


def test_set_pair_with_a_non_body():
    w, floor, *_ = populated()
    rejects(w, TypeError, None, w.set_pair, floor, "ball", restitution=0.5)


def test_remove_body_of_another_world():
    """World.remove with another world's body must be refused and leave both worlds as they
    were; it must not remove whichever body of this world shares the handle's slot."""
    w1 = rl.World()
    mine = w1.add_sphere(0.1, name="mine")
    w2 = rl.World()
    theirs = w2.add_sphere(0.1, name="theirs")
    before = snapshot(w1)
    with pytest.raises(ValueError) as info:
        w1.remove(theirs)
    assert names(info.value, "body")
    assert_same(snapshot(w1), before)
    assert mine.alive and theirs.alive and len(w2) == 1


def test_set_pair_with_body_of_another_world():
    """set_pair must refuse a body of another world rather than set the coefficients of
    whichever body of this world shares its slot."""
    w1 = rl.World()
    floor1 = w1.add_plane()
    ball1 = w1.add_sphere(0.05, mass=0.2, position=(0, 0.55, 0))
    w2 = rl.World()
    w2.add_plane()
    ball2 = w2.add_sphere(0.05)
    with pytest.raises(ValueError):
        w1.set_pair(floor1, ball2, restitution=1.0)
    # and in any case ball1 must still bounce with the default restitution 0
    w1.run(1.0)
    assert abs(ball1.velocity[1]) < 1e-3 and ball1.position[1] == pytest.approx(0.05, abs=1e-3)


# ---------------------------------------------------------------------------------------------
# springs, joints, recording, drag


@pytest.mark.parametrize("value", [-1.0, NAN, INF])
@pytest.mark.parametrize("param", ["stiffness", "damping", "rest_length"])
def test_bad_spring_numbers(param, value):
    w, _, ball, box, _ = populated()
    kwargs = {"stiffness": 10.0, param: value}
    rejects(w, ValueError, param, w.add_spring, ball, box, **kwargs)


@pytest.mark.parametrize("value", BAD_VECTORS + [(1, 2)])
def test_bad_spring_anchor(value):
    w, _, ball, box, _ = populated()
    rejects(
        w,
        (ValueError, TypeError),
        "anchor_a",
        w.add_spring,
        ball,
        box,
        stiffness=1.0,
        anchor_a=value,
    )
    rejects(
        w, (ValueError, TypeError), "anchor_b", w.add_distance_joint, ball, None, anchor_b=value
    )


def test_links_refuse_bad_bodies():
    w, _, ball, box, _ = populated()
    other = rl.World().add_sphere(0.1)
    rejects(w, ValueError, "b", w.add_spring, ball, other, stiffness=1.0)
    rejects(w, ValueError, "b", w.add_ball_joint, ball, ball, anchor=(0, 0, 0))
    rejects(w, TypeError, "a", w.add_hinge_joint, "ball", None, anchor=(0, 0, 0))
    rejects(w, TypeError, "anchor", w.add_ball_joint, ball)
    w.remove(box)
    rejects(w, rl.RemovedBodyError, "b", w.add_fixed_joint, ball, box)


@pytest.mark.parametrize(
    "kwargs, param",
    [
        (dict(axis=(0, 0, 0)), "axis"),
        (dict(axis=(NAN, 0, 1)), "axis"),
        (dict(limits=(1.0, -1.0)), "limits"),
        (dict(limits=(-4.0, 0.0)), "limits"),
        (dict(limits=(0.0,)), "limits"),
        (dict(motor=(1.0, -5.0)), "motor max_torque"),
        (dict(motor={"speed": 1.0}), "motor"),
        (dict(motor=(NAN, 1.0)), "motor speed"),
    ],
)
def test_bad_hinge(kwargs, param):
    w, _, ball, box, _ = populated()
    rejects(
        w, (ValueError, TypeError), param, w.add_hinge_joint, ball, box, anchor=(0, 1, 0), **kwargs
    )


@pytest.mark.parametrize(
    "kwargs, param",
    [
        (dict(target=(NAN, 0, 0)), "target"),
        (dict(target=(1e300, 0, 0)), "target"),
        (dict(target=(0, 1)), "target"),
        (dict(point=(0, INF, 0)), "point"),
        (dict(frequency=0.0), "frequency"),
        (dict(frequency=-2.0), "frequency"),
        (dict(frequency=NAN), "frequency"),
        (dict(damping_ratio=-0.1), "damping_ratio"),
        (dict(max_force=-1.0), "max_force"),
        (dict(max_force="strong"), "max_force"),
    ],
)
def test_bad_mouse_joint(kwargs, param):
    w, _, ball, box, _ = populated()
    args = dict(target=(0, 2, 0)) | kwargs
    rejects(w, (ValueError, TypeError), param, w.add_mouse_joint, ball, **args)


def test_a_mouse_target_is_checked_and_only_a_mouse_joint_has_one():
    w, _, ball, box, _ = populated()
    mouse = w.add_mouse_joint(ball, (0, 2, 0))
    rejects(w, ValueError, "target", setter(mouse, "target"), (0, NAN, 0))
    hinge = w.add_hinge_joint(ball, box, anchor=(0, 1, 0))
    assert hinge.target is None
    rejects(w, ValueError, "target", setter(hinge, "target"), (0, 2, 0))
    mouse.remove()
    with pytest.raises(IndexError):
        mouse.target = (0, 1, 0)


@pytest.mark.parametrize("value", [0.0, -1.0, NAN])
def test_bad_joint_lengths(value):
    w, _, ball, box, _ = populated()
    rejects(w, ValueError, "length", w.add_distance_joint, ball, box, length=value)
    rejects(w, ValueError, "max_length", w.add_rope_joint, ball, box, max_length=value)


def test_removed_links_raise():
    w, _, ball, box, _ = populated()
    s = w.add_spring(ball, box, stiffness=1.0)
    j = w.add_distance_joint(ball, box)
    w.remove(box)
    assert not s.alive and not j.alive and w.springs == [] and w.joints == []
    with pytest.raises(IndexError, match="spring"):
        s.stiffness
    with pytest.raises(IndexError, match="joint"):
        j.impulse


@pytest.mark.parametrize(
    "param, value",
    [
        ("quadratic_drag", -1.0),
        ("quadratic_drag", NAN),
        ("gravity_scale", NAN),
        ("gravity_scale", INF),
    ],
)
def test_bad_drag_and_gravity_scale(param, value):
    w, _, ball, _, _ = populated()
    rejects(w, ValueError, param, setattr, ball, param, value)
    rejects(w, ValueError, param, w.add_sphere, 0.1, **{param: value})


def test_bad_force_points():
    w, _, ball, _, _ = populated()
    rejects(w, ValueError, "local_point", ball.apply_force, (1, 0, 0), local_point=(NAN, 0, 0))
    rejects(
        w,
        ValueError,
        "point, local_point",
        ball.apply_force,
        (1, 0, 0),
        point=(0, 0, 0),
        local_point=(0, 0, 0),
    )


@pytest.mark.parametrize("color", [(1.5, 0, 0), (0, -0.1, 0), (0, 0, float("nan")), (1, 1)])
def test_a_bad_colour_names_color_and_changes_nothing(color):
    w = rl.World()
    b = w.add_sphere(0.1, color=(0.2, 0.2, 0.2))
    with pytest.raises(ValueError, match="color"):
        w.add_sphere(0.1, color=color)
    with pytest.raises(ValueError, match="color"):
        b.color = color
    assert len(w) == 1 and b.color == (0.2, 0.2, 0.2)
