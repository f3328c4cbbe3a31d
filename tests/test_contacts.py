"""Contacts against the textbook: bounces, inclines, stacks, Newton's cradle, impacts with
friction and spin, tunnelling, events and the new shapes. Each test states the theory and its
tolerance. (dt = 1/240 s unless a test varies it.)
"""

import math

import numpy as np
import pytest
import rigidlab as rl
from helpers import quat, rel

G = 9.81


def drop_ball(e, dt, floor, threshold=0.1, radius=0.1, height=1.0):
    """A ball of radius `radius` whose lowest point is `height` above a floor (a plane, or the
    top of a static box)."""
    w = rl.World(dt=dt, restitution_threshold=threshold)
    if floor == "plane":
        w.add_plane()
    else:
        w.add_box((5.0, 0.5, 5.0), position=(0.0, -0.5, 0.0), kind="static")
    ball = w.add_sphere(radius, mass=1.0, position=(0.0, height + radius, 0.0), restitution=e)
    return w, ball


def sampled_apexes(w, ball, seconds, radius=0.1):
    """Apexes from the state sampled once a step: from the last upward sample (y, v), free
    flight reaches y + v^2 / 2g (exact under uniform gravity)."""
    n = int(round(seconds / w.dt))
    y = np.empty(n + 1)
    v = np.empty(n + 1)
    y[0], v[0] = ball.position[1] - radius, ball.velocity[1]
    for k in range(1, n + 1):
        w.step()
        y[k], v[k] = ball.position[1] - radius, ball.velocity[1]
    i = np.nonzero((v[:-1] > 0) & (v[1:] <= 0))[0]
    return y[i] + v[i] ** 2 / (2 * G)


def event_apexes(w):
    """Apexes from the times between successive impact events: a flight of duration T under
    gravity rises g T^2 / 8. Independent of sampling, so hops shorter than a step count."""
    ev = w.contact_events()
    t = ev["time"][np.array(ev["kind"]) == "impact"]
    return G * np.diff(t) ** 2 / 8.0


@pytest.mark.parametrize("floor", ["plane", "box"])
@pytest.mark.parametrize("dt,tol", [(1 / 240, 0.01), (1 / 120, 0.02), (1 / 60, 0.02)])
@pytest.mark.parametrize("e", [0.3, 0.5, 0.8, 0.9])
def test_first_five_bounces_return_e_squared_of_the_height(e, dt, tol, floor):
    # Theory: h_{k+1} / h_k = e^2. The fifth impact of e = 0.3 from 1 m comes at 0.036 m/s, so
    # the threshold is lowered below it.
    w, ball = drop_ball(e, dt, floor, threshold=0.01)
    seconds = 2 * math.sqrt(2 / G) * (1 + 2 * sum(e**k for k in range(1, 6))) / 2 + 0.05
    sampled = sampled_apexes(w, ball, seconds)
    timed = event_apexes(w)
    assert len(timed) >= 5
    heights = np.r_[1.0, timed[:5]]
    np.testing.assert_allclose(heights[1:] / heights[:-1], e**2, rtol=tol)
    # Every apex long enough to be seen between samples agrees.
    seen = sampled[2 * np.sqrt(2 * np.maximum(sampled, 0) / G) >= 2 * dt][:5]
    np.testing.assert_allclose(seen, heights[1 : len(seen) + 1], rtol=tol)
    assert len(seen) >= 2


@pytest.mark.parametrize("floor", ["plane", "box"])
@pytest.mark.parametrize("dt", [1 / 240, 1 / 60])
def test_perfectly_elastic_ball_neither_gains_nor_loses_height(floor, dt):
    # e = 1: the 20th apex equals the first within 1%.
    w, ball = drop_ball(1.0, dt, floor)
    apexes = sampled_apexes(w, ball, 20.5 * 2 * math.sqrt(2 / G))
    assert len(apexes) >= 20
    assert rel(apexes[19], apexes[0]) < 0.01
    assert rel(apexes[0], 1.0) < 0.01


def ramp(w, angle, kind):
    """A static ramp whose slope passes through the origin, falling towards +x. Returns the
    slope's normal and its down-slope direction."""
    th = math.radians(angle)
    n = np.array([math.sin(th), math.cos(th), 0.0])
    if kind == "box":
        w.add_box(
            (20.0, 0.5, 2.0),
            position=tuple(-0.5 * n),
            orientation=quat((0, 0, 1), -th),
            kind="static",
        )
    else:
        length = 40.0
        height = length * math.tan(th)
        w.add_wedge(length, height, 4.0, position=(-length / 2, -height / 2, 0.0), kind="static")
    return n, np.array([math.cos(th), -math.sin(th), 0.0])


@pytest.mark.parametrize("kind", ["box", "wedge"])
def test_block_sticks_below_the_friction_angle_and_slides_above(kind):
    # mu_s = 0.5 (friction angle 26.6 deg), mu_k = 0.4.
    for angle, slides in [(20.0, False), (30.0, True)]:
        w = rl.World()
        n, down = ramp(w, angle, kind)
        th = math.radians(angle)
        block = w.add_box(
            (0.1, 0.1, 0.1),
            position=tuple(0.1 * n),
            orientation=quat((0, 0, 1), -th),
            mass=1.0,
            friction=0.4,
            static_friction=0.5,
        )
        start = block.position.copy()
        w.run(2.0)
        s = float(np.dot(block.position - start, down))
        if slides:
            a = 2 * s / 2.0**2
            assert rel(a, G * (math.sin(th) - 0.4 * math.cos(th))) < 0.02
        else:
            assert abs(s) < 1e-3


@pytest.mark.parametrize("mu", [0.3, 0.6])
@pytest.mark.parametrize("margin_deg", [-0.3, 0.3])
def test_friction_angle_holds_to_a_fraction_of_a_degree(mu, margin_deg):
    # Gravity tilted by theta over a flat floor is a ramp. Just below atan(mu) the block does
    # not move at all; just above it slides with a = g (sin theta - mu cos theta) from the start.
    th = math.atan(mu) + math.radians(margin_deg)
    w = rl.World(gravity=(G * math.sin(th), -G * math.cos(th), 0.0))
    w.add_plane(friction=mu)
    block = w.add_box((0.15, 0.05, 0.1), mass=2.0, position=(0, 0.05, 0), friction=mu)
    w.run(1.0)
    if margin_deg < 0:
        assert abs(block.position[0]) < 1e-9 and np.linalg.norm(block.velocity) < 1e-9
    else:
        a = G * (math.sin(th) - mu * math.cos(th))
        assert rel(block.velocity[0], a * w.time) < 0.01
        assert rel(block.position[0], 0.5 * a * w.time**2) < 0.01
        # The friction reported at the corners adds up to mu_k N, against the slip.
        c = w.contacts()
        assert rel(-c["tangent_impulse"].sum(axis=0)[0], mu * c["normal_impulse"].sum()) < 1e-6


@pytest.mark.parametrize("half", [(0.1, 0.05, 0.1), (0.2, 0.05, 0.06)])
@pytest.mark.parametrize("mu", [0.2, 0.5])
def test_a_box_spinning_flat_on_the_floor_stops_as_its_corners_friction_says(half, mu):
    # A box rests on its four corners, each carrying a quarter of the weight at distance
    # r = sqrt(a^2 + c^2) from the axis: friction's torque mu m g r against I = m (a^2 + c^2) / 3
    # slows the spin uniformly at 3 mu g / r, and the box does not wander.
    a, hy, c = half
    r = math.hypot(a, c)
    w0 = 4.0
    w = rl.World()
    w.add_plane(friction=mu)
    w.add_box(half, mass=1.5, position=(0, hy, 0), angular_velocity=(0, w0, 0), friction=mu)
    alpha = 3 * mu * G / r
    t_stop = w0 / alpha
    rec = w.record(every=1, quantities=["angular_velocities", "positions"])
    w.run(t_stop * 1.5)
    spin = rec.angular_velocities[:, 1, 1]
    half_time = np.searchsorted(rec.time, t_stop / 2)
    assert rel(spin[half_time], w0 - alpha * rec.time[half_time]) < 0.01
    stopped = rec.time[np.argmax(np.abs(spin) < 1e-9)]
    assert abs(stopped - t_stop) < 2 * w.dt
    assert np.abs(rec.positions[:, 1, [0, 2]]).max() < 1e-6


@pytest.mark.parametrize("kind", ["box", "wedge"])
@pytest.mark.parametrize("angle", [10.0, 20.0, 30.0])
def test_ball_rolls_down_a_ramp_at_five_sevenths_g_sin(kind, angle):
    # A solid ball rolling without slipping: a = (5/7) g sin(theta), within 2%.
    w = rl.World()
    n, down = ramp(w, angle, kind)
    ball = w.add_sphere(0.1, position=tuple(0.1 * n - 8 * down), mass=1.0, friction=0.5)
    start = ball.position.copy()
    w.run(2.0)
    a = 2 * float(np.dot(ball.position - start, down)) / 4.0
    assert rel(a, 5 / 7 * G * math.sin(math.radians(angle))) < 0.02
    # Rolling: the contact point does not slip (v = omega x r).
    r_contact = -0.1 * n
    slip = ball.velocity + np.cross(ball.angular_velocity, r_contact)
    assert np.linalg.norm(slip) < 1e-3


def test_column_of_ten_boxes_stands():
    w, boxes = rl.presets.box_column(10)
    top = boxes[-1].position.copy()
    w.run(10.0)
    assert np.linalg.norm(boxes[-1].position - top) < 0.01


@pytest.mark.parametrize("half, depth", [((0.05, 0.0375, 0.025), 0.003), ((0.5, 0.2, 0.3), 0.02)])
def test_a_box_sunk_flat_into_the_floor_is_lifted_out_without_tilting(half, depth):
    # Without gravity nothing moves the box but position correction: the overlap beyond the
    # slop is removed by a pure translation (the face's corners together, not one by one),
    # and no velocity is added.
    w = rl.World(gravity=(0, 0, 0))
    w.add_plane()
    box = w.add_box(half, mass=1.0, position=(0, half[1] - depth, 0))
    w.run(0.25)
    assert np.abs(box.orientation - [0, 0, 0, 1]).max() < 1e-12
    assert np.abs(box.position[[0, 2]]).max() < 1e-12
    slop = 1e-4  # the world's default linear slop
    assert slop - 1e-9 <= half[1] - box.position[1] < 1.05 * slop
    assert np.abs(box.velocity).max() == 0.0 and np.abs(box.angular_velocity).max() == 0.0


@pytest.mark.parametrize("speed, ball_mass", [(2.0, 1.0), (4.0, 1.0), (1.0, 3.0)])
def test_an_inelastic_impact_on_a_resting_stack_stops_against_the_floor(speed, ball_mass):
    # A ball hits a settled stack of two boxes on the floor with e = 0: the floor stops it
    # all within the step. The impulse passes through the resting contacts; those must still
    # hold the stack up, not let it sink on at the speed gravity gives it in a step. (Enough
    # iterations that Gauss-Seidel's own leftover is far below that.)
    w = rl.World(sleeping=False)
    w.solver_iterations = 30
    w.add_plane(restitution=0.0)
    boxes = [
        w.add_box((0.1, 0.1, 0.1), mass=1.0, position=(0, 0.1 + 0.2 * k, 0), restitution=0.0)
        for k in range(2)
    ]
    w.run(1.0)
    ball = w.add_sphere(
        0.05, mass=ball_mass, position=(0, 0.454, 0), velocity=(0, -speed, 0), restitution=0.0
    )
    w.step(1)
    assert max(np.linalg.norm(b.velocity) for b in boxes + [ball]) < 0.01 * speed
    slop = 1e-4  # the world's default linear slop
    assert boxes[0].position[1] > 0.1 - slop


def test_pyramid_with_a_base_of_ten_stands():
    w, boxes = rl.presets.pyramid(10)
    start = w.positions.copy()
    w.run(10.0)
    moved = np.linalg.norm(w.positions - start, axis=1)
    assert moved.max() < 0.01


@pytest.mark.parametrize(
    "count, half, mass_ratio",
    [(10, (0.1, 0.1, 0.1), 1.0), (20, (0.2, 0.05, 0.1), 1.0), (20, (0.1, 0.1, 0.1), 1.2)],
)
def test_a_column_placed_at_rest_stays_at_rest_from_the_first_step(count, half, mass_ratio):
    # Resting boxes need contact forces that hold up everything above them at once: a column
    # whose contacts are all new must not sink in its first steps (Gauss-Seidel from zero would
    # leave the top boxes falling freely, 4 cm/s after one step, and the column shaking).
    # Boxes heavier towards the top load the bottom the most.
    w = rl.World(sleeping=False)
    w.add_plane()
    boxes = [
        w.add_box(half, mass=mass_ratio**k, position=(0, half[1] * (2 * k + 1), 0))
        for k in range(count)
    ]
    start = w.positions.copy()
    w.step()
    g_dt = 9.81 * w.dt
    assert np.linalg.norm(w.velocities, axis=1).max() < 1e-6 * g_dt
    w.run(1.0)
    assert np.abs(w.positions - start).max() < 1e-7
    assert boxes[-1].position[1] > start[-1, 1] - 1e-7


def pyramid_layout(base, gap):
    """Centres of a pyramid of unit cubes, `gap` apart in each row (0: touching)."""
    return [
        ((1 + gap) * (k - (base - row - 1) / 2), 0.5 + row)
        for row in range(base)
        for k in range(base - row)
    ]


def staircase_layout(count, step):
    """Centres of a column of unit cubes, each `step` to the right of the one below."""
    return [(step * k, 0.5 + k) for k in range(count)]


@pytest.mark.parametrize(
    "layout, friction",
    [
        (pyramid_layout(10, 0.0), None),
        (pyramid_layout(20, 0.0), None),
        (pyramid_layout(20, 0.002), None),
        (pyramid_layout(20, 0.0), 0.0),
        (pyramid_layout(15, 0.01), 0.0),
        (staircase_layout(6, 0.15), None),
        (staircase_layout(3, 0.3), 0.0),
    ],
)
def test_a_pile_of_boxes_placed_at_rest_stands_still_from_the_first_step(layout, friction):
    # Statics: every box of a pyramid or a staircase rests on contacts whose loads balance its
    # weight and whatever rests on it, forces and moments (a box at the end of a row carries
    # one box on one half; each box of a staircase carries everything above off its centre).
    # Those loads hold every box still: after the first step, whose contacts are all new, no
    # box moves, with friction or without, touching its neighbours or not, whatever the
    # boxes' masses (heavier rows higher up).
    w = rl.World(sleeping=False)
    options = {} if friction is None else {"friction": friction, "static_friction": friction}
    w.add_plane(**options)
    for x, y in layout:
        w.add_box((0.5, 0.5, 0.5), mass=1.0 + 0.1 * y, position=(x, y, 0), **options)
    start = w.positions.copy()
    w.step()
    g_dt = 9.81 * w.dt
    assert np.linalg.norm(w.velocities, axis=1).max() < 1e-6 * g_dt
    assert np.linalg.norm(w.angular_velocities, axis=1).max() < 1e-6 * g_dt
    w.run(1.0)
    assert np.abs(w.positions - start).max() < 1e-7


@pytest.mark.parametrize("layout", [staircase_layout(40, 0.0), pyramid_layout(20, 0.0)])
@pytest.mark.parametrize("dims", [2, 3])
def test_boxes_placed_at_rest_do_not_creep(dims, layout):
    # A column of forty boxes and a pyramid stand in equilibrium: nothing moves, however long
    # they stand. A solver that stops before its contacts have converged leaves small
    # velocities that pass from box to box and step to step, and sets them creeping.
    world = rl.World2D if dims == 2 else rl.World
    w = world(sleeping=False)
    if dims == 2:
        w.add_ground()
    else:
        w.add_plane()
    for x, y in layout:
        w.add_box((0.5,) * dims, mass=1.0 + 0.1 * y, position=(x, y, 0.0)[:dims])
    start = w.positions.copy()
    fastest = 0.0
    for _ in range(8):
        w.run(0.25)
        fastest = max(fastest, np.linalg.norm(w.velocities, axis=1).max())
    # A hundredth of the solver's tolerance (1e-5 m/s), at which the creep ran.
    assert fastest < 1e-7
    assert np.abs(w.positions - start).max() < 1e-7


def test_row_of_twenty_dominoes_falls_to_the_last():
    w, row = rl.presets.dominoes(20)
    w.run(6.0)
    # A domino's long axis is its body y axis; fallen means tipped more than 60 degrees.
    tilt = []
    for d in row:
        x, y, z, s = d.orientation
        up_y = 1 - 2 * (x * x + z * z)
        tilt.append(math.degrees(math.acos(np.clip(up_y, -1, 1))))
    assert min(tilt) > 60.0, np.round(tilt, 1)


@pytest.mark.parametrize("gravity", [True, False])
@pytest.mark.parametrize("dt", [1 / 240, 1 / 60, 1 / 1000])
def test_newtons_cradle_sends_out_one_ball(gravity, dt):
    # Five equal balls touching in a row (e = 1); the first hits the next at 1 m/s. Theory: the
    # last leaves at 1 m/s, the others stay.
    w = rl.World(gravity=(0, -9.81, 0) if gravity else (0, 0, 0), dt=dt)
    if gravity:
        w.add_plane(friction=0.0)
    r = 0.1
    balls = [
        w.add_sphere(r, mass=1.0, position=(2 * r * i, r, 0), restitution=1.0, friction=0.0)
        for i in range(5)
    ]
    balls[0].position = (-0.3, r, 0)
    balls[0].velocity = (1.0, 0, 0)
    w.run(1.0)
    vx = np.array([b.velocity[0] for b in balls])
    assert abs(vx[-1] - 1.0) < 0.02
    assert np.all(np.abs(vx[:-1]) < 0.02)
    assert abs(w.energy()["kinetic"] - 0.5) < 0.02 * 0.5


def test_seed_b_experiment_1_oblique_impact_with_spin():
    # Two 1 kg discs (spheres here) of radius 2 m, no gravity, e = 1, mu = 0.5; A at rest, B at
    # (-1, 0) m/s spinning at +2 rad/s. The 2D sandbox simulator: v'_A = (-1, -0.5), v'_B = (0, 0.5).
    w = rl.World(gravity=(0, 0, 0))
    a = w.add_sphere(2.0, mass=1.0, restitution=1.0, friction=0.5)
    b = w.add_sphere(
        2.0,
        mass=1.0,
        position=(4.2, 0, 0),
        velocity=(-1, 0, 0),
        angular_velocity=(0, 0, 2),
        restitution=1.0,
        friction=0.5,
    )
    w.run(1.0)
    np.testing.assert_allclose(a.velocity, [-1.0, -0.5, 0.0], atol=1e-6)
    np.testing.assert_allclose(b.velocity, [0.0, 0.5, 0.0], atol=1e-6)


def test_seed_b_experiment_2_tilted_cube_keeps_its_energy():
    # A tilted cube bounces on a frictionless floor with e = 1: over 10 bounces the total energy
    # stays within 0.5% while it moves between translation and rotation.
    w = rl.World()
    w.add_plane(friction=0.0, restitution=1.0)
    w.add_box(
        (0.1, 0.1, 0.1),
        position=(0, 1, 0),
        orientation=quat((0.3, 0, 1), 0.3),
        mass=1.0,
        restitution=1.0,
        friction=0.0,
    )
    e0 = w.energy()["total"]
    worst, rot_max = 0.0, 0.0
    bounces = 0
    while bounces < 10 and w.time < 30:
        w.step()
        e = w.energy()
        worst = max(worst, abs(e["total"] - e0) / e0)
        rot_max = max(rot_max, e["rotational"] / e0)
        bounces += w.contact_events(clear=False)["kind"].count("begin") - bounces
    assert bounces >= 10
    assert worst < 0.005
    assert rot_max > 0.1


def test_resting_box_gains_no_energy_in_a_minute():
    w = rl.World()
    w.add_plane()
    w.add_box((0.2, 0.1, 0.3), position=(0, 0.1, 0), mass=2.0)
    e0 = w.energy()["total"]
    highest = -math.inf
    for _ in range(60):
        w.run(1.0)
        highest = max(highest, w.energy()["total"] - e0)
    assert highest < 1e-6


@pytest.mark.parametrize("radius", [0.005, 0.01])
@pytest.mark.parametrize("dt", [1 / 240, 1 / 60])
def test_fast_small_sphere_does_not_tunnel_through_a_thin_wall(radius, dt):
    # 100 m/s covers 0.42 m per step at 1/240 s; the wall is 1 cm thick. The ball bounces off
    # the wall's near face with e = 0.5 at the time of impact.
    w = rl.World(gravity=(0, 0, 0), dt=dt)
    w.add_box((0.005, 0.5, 0.5), position=(1.0, 0, 0), kind="static")
    ball = w.add_sphere(radius, mass=0.01, velocity=(100, 0, 0), restitution=0.5)
    w.run(0.1)
    t_hit = (0.995 - radius) / 100
    np.testing.assert_allclose(ball.velocity, [-50, 0, 0], atol=1e-9)
    assert abs(ball.position[0] - (0.995 - radius - 50 * (0.1 - t_hit))) < 1e-6


def test_contact_events_report_impacts_at_their_time():
    w, ball = drop_ball(0.5, 1 / 240, "plane", threshold=0.01)
    w.run(2.0)
    ev = w.contact_events()
    kinds = ev["kind"]
    assert kinds[:6] == ["begin", "impact", "end", "begin", "impact", "end"]
    begins = np.array(kinds) == "begin"
    impacts = np.array(kinds) == "impact"
    np.testing.assert_array_equal(ev["time"][begins][:3], ev["time"][impacts][:3])
    t1 = math.sqrt(2 / G)
    expected = [t1, t1 + 2 * 0.5 * t1, t1 + 2 * 0.5 * t1 + 2 * 0.25 * t1]
    np.testing.assert_allclose(ev["time"][begins][:3], expected, atol=1e-12)
    np.testing.assert_allclose(
        ev["speed"][begins][:3], [math.sqrt(2 * G) * 0.5**k for k in range(3)], rtol=1e-12
    )
    ends = np.array(kinds) == "end"
    assert np.all(ev["time"][ends][:2] > ev["time"][begins][:2])
    assert np.all(np.isnan(ev["speed"][ends]))
    assert set(ev["body_a"]) | set(ev["body_b"]) == {0, 1}
    assert w.contact_events()["kind"] == []


@pytest.mark.parametrize("dt", [1 / 60, 1 / 240])
def test_a_contact_begins_where_and_as_its_impact_happens(dt):
    # Two balls meeting off centre in one step: by the time of impact the line of centres has
    # turned from where it lay at the step's start. The begin event reports the contact at that
    # moment, as the impact does, on the line of centres then.
    w = rl.World(gravity=(0, 0, 0), dt=dt)
    a = w.add_sphere(0.1, position=(0, 0, 0))
    b = w.add_sphere(0.1, position=(0.4, 0.1, 0), velocity=(-6, 0, 0))
    w.run(0.1)
    ev = w.contact_events()
    kinds = list(ev["kind"])
    begin, impact = kinds.index("begin"), kinds.index("impact")
    t = ev["time"][impact]
    assert ev["time"][begin] == t
    np.testing.assert_array_equal(ev["point"][begin], ev["point"][impact])
    np.testing.assert_array_equal(ev["normal"][begin], ev["normal"][impact])
    # At the time of impact b's centre is at (0.4 - 6 t, 0.1): the normal is along the centres.
    centre = np.array([0.4 - 6 * t, 0.1, 0.0])
    np.testing.assert_allclose(ev["normal"][begin], centre / np.linalg.norm(centre), atol=1e-9)
    np.testing.assert_allclose(ev["point"][begin], 0.1 * centre / np.linalg.norm(centre), atol=1e-9)
    assert (ev["body_a"][begin], ev["body_b"][begin]) == (a.id, b.id)


def test_capsule_lies_still_on_two_points_and_rolls_across_a_ramp():
    w = rl.World()
    w.add_plane()
    lying = quat((0, 0, 1), math.pi / 2)
    c = w.add_capsule(0.1, 0.3, position=(0, 0.1, 0), orientation=lying, mass=1.0)
    w.run(1.0)
    assert np.linalg.norm(c.velocity) < 1e-9 and np.linalg.norm(c.angular_velocity) < 1e-9
    assert len(w.contacts()["depth"]) == 2
    # A capsule lying across a rough ramp rolls like a solid of its inertia about its axis:
    # a = g sin / (1 + I / (m r^2)).
    w = rl.World()
    th = math.radians(15)
    n = np.array([math.sin(th), math.cos(th), 0.0])
    w.add_plane(normal=n)
    across = quat((1, 0, 0), math.pi / 2)
    c = w.add_capsule(0.1, 0.3, position=tuple(0.1 * n), orientation=across, mass=1.0, friction=0.8)
    start = c.position.copy()
    w.run(1.0)
    i_axis = c.inertia_body[1, 1]
    expected = G * math.sin(th) / (1 + i_axis / (1.0 * 0.1**2))
    down = np.array([math.cos(th), -math.sin(th), 0.0])
    assert rel(2 * np.dot(c.position - start, down), expected) < 0.01


def test_convex_hull_mass_properties_and_placement():
    # A box given as 8 points plus inner ones: the closed-form box.
    h = np.array([0.2, 0.1, 0.3])
    corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * h
    points = np.vstack([corners + [1, 2, 3], [[1, 2, 3], [1.1, 2, 3.1]]])
    w = rl.World()
    b = w.add_convex(points, density=500.0)
    np.testing.assert_allclose(b.position, [1, 2, 3], atol=1e-12)
    assert rel(b.mass, 500 * 8 * h.prod()) < 1e-12
    np.testing.assert_allclose(
        b.inertia_body,
        np.diag([h[1] ** 2 + h[2] ** 2, h[0] ** 2 + h[2] ** 2, h[0] ** 2 + h[1] ** 2]) * b.mass / 3,
        rtol=1e-12,
    )
    assert b.shape == "convex" and b.dimensions["vertices"].shape == (8, 3)
    # A wedge's centroid lies a third of the way along each leg from the right angle.
    wedge = w.add_wedge(3.0, 1.5, 1.0, position=(10, 0, 0))
    np.testing.assert_allclose(wedge.position, [11.0, 0.5, 0.0], atol=1e-12)
    prism = w.add_prism([(0, 0), (1, 0), (0.5, 1)], 2.0, position=(0, 5, 0))
    np.testing.assert_allclose(prism.position, [0.5, 5 + 1 / 3, 0.0], atol=1e-12)
    assert rel(prism.mass, 1000 * 0.5 * 2.0) < 1e-12
    # A hull dropped on the floor comes to rest on a face.
    w = rl.World()
    w.add_plane()
    rock = w.add_convex(
        np.random.default_rng(1).normal(size=(30, 3)) * 0.2 + [0, 1, 0],
        orientation=quat((1, 1, 0), 0.7),
    )
    w.run(5.0)
    assert np.linalg.norm(rock.velocity) < 1e-6
    assert rock.position[1] > 0


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda w: w.add_convex([[0, 0, 0], [1, 0, 0], [0, 1, 0]]), "points"),
        (lambda w: w.add_convex([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]), "coplanar"),
        (lambda w: w.add_convex([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, float("nan")]]), "points"),
        (lambda w: w.add_convex([1, 2, 3]), "points"),
        (lambda w: w.add_capsule(0.1, -1.0), "half_height"),
        (lambda w: w.add_capsule(float("nan"), 0.2), "radius"),
        (lambda w: w.add_wedge(1.0, 0.0, 1.0), "height"),
        (lambda w: w.add_prism([[0, 0], [1, 0]], 1.0), "polygon"),
        (lambda w: w.add_prism([[0, 0], [1, 0], [0, 1]], -1.0), "depth"),
    ],
)
def test_bad_shapes_are_refused_by_name(call, message):
    w = rl.World()
    with pytest.raises(ValueError, match=message):
        call(w)
    assert len(w) == 0


@pytest.mark.parametrize("name", list(rl.presets.PRESETS))
def test_presets_build_and_run(name):
    w, bodies = rl.presets.PRESETS[name]()
    assert bodies and all(b.alive for b in bodies)
    w.run(0.5)
    assert np.all(np.isfinite(w.positions))


@pytest.mark.parametrize("kind", rl.presets.FEATURE_PAIRS)
def test_feature_pair_scenes_first_touch_by_their_features(kind):
    # The first begin event's contact normal: vertical for anything meeting a face-up box
    # (vertex-face, edge-face, face-face) and for crossed edges.
    w, (lower, upper) = rl.presets.feature_pair(kind)
    first = None
    while first is None and w.time < 2.0:
        w.step()
        ev = w.contact_events()
        for i, (k, a, b) in enumerate(zip(ev["kind"], ev["body_a"], ev["body_b"])):
            if k == "begin" and {a, b} == {lower.id, upper.id}:
                first = (ev["normal"][i], ev["point"][i])
                break
    assert first is not None
    normal, point = first
    if kind in ("vertex-face", "edge-face", "face-face", "edge-edge"):
        assert abs(abs(normal[1]) - 1.0) < 0.01
    assert point[1] > 0.9


# ---------------------------------------------------------------------------------------------
# Stopping the iterations once they have converged


def offset_stack(tolerance, masses=(1.0, 2.0, 3.0, 4.0, 5.0)):
    w = rl.World(sleeping=False, solver_tolerance=tolerance)
    w.add_plane()
    boxes = [
        w.add_box((0.2, 0.1, 0.15), mass=m, position=(0.01 * k, 0.1 + 0.2 * k, 0))
        for k, m in enumerate(masses)
    ]
    return w, boxes


@pytest.mark.parametrize("masses", [(1.0, 2.0, 3.0, 4.0, 5.0), (5.0, 1.0, 0.5), (2.0,) * 4])
def test_stopping_once_converged_changes_nothing_a_lab_measures(masses):
    # An offset stack run for 2 s with the default tolerance and with every iteration: the
    # early stop stays within a tenth of the slop and a tenth of the sleeping speed of the
    # full solve (tall stacks sway a little in both); over the last second the contacts carry,
    # on average, the weight above each of them (the bodies' momenta hardly change); and it
    # saves iterations.
    early, boxes = offset_stack(1e-5, masses)
    full, _ = offset_stack(0.0, masses)
    done = {"early": 0, "full": 0}
    carried = []
    for step in range(480):
        early.step()
        full.step()
        done["early"] += early.solver_iterations_done
        done["full"] += full.solver_iterations_done
        if step >= 240:
            carried.append(early.contacts()["normal_impulse"].sum() / early.dt)
    assert np.abs(early.positions - full.positions).max() < 1e-5
    assert np.abs(early.velocities - full.velocities).max() < 1e-4
    weight_above = sum(sum(masses[k:]) for k in range(len(masses))) * G
    assert rel(np.mean(carried), weight_above) < 1e-5
    assert done["early"] < 0.9 * done["full"]


def test_new_contacts_and_impacts_run_every_iteration():
    # The first step of a resting contact starts from a guessed load and a bounce from no
    # load: neither stops early. A box at rest on the floor then converges in the fewest
    # iterations the solver stops after: two (one sweep cannot show that nothing changes).
    w = rl.World(sleeping=False)
    w.add_plane(restitution=0.5)
    w.add_box((0.1, 0.1, 0.1), mass=1.0, position=(0, 0.1, 0))
    ball = w.add_sphere(0.1, mass=1.0, position=(1.0, 0.3, 0), restitution=0.5)
    w.step()
    assert w.solver_iterations_done == w.solver_iterations
    w.step(5)
    assert w.solver_iterations_done == 2
    while ball.velocity[1] <= 0.0:
        w.step()
    assert w.solver_iterations_done == w.solver_iterations
    w.solver_tolerance = 0.0
    w.step()
    assert w.solver_iterations_done >= 2


def test_worlds_with_joints_run_every_iteration():
    w = rl.World(sleeping=False)
    w.add_plane()
    w.add_box((0.1, 0.1, 0.1), mass=1.0, position=(0, 0.1, 0))
    bob = w.add_sphere(0.05, mass=1.0, position=(1.0, 1.0, 0))
    w.add_distance_joint(bob, None, anchor_b=(1.5, 1.0, 0))
    w.step(10)
    assert w.solver_iterations_done == w.solver_iterations


@pytest.mark.parametrize("speed", [2.0, 8.0])
@pytest.mark.parametrize("dims", [2, 3])
def test_an_impact_passes_on_across_a_gap_within_the_step(dims, speed):
    """Three equal elastic boxes in a row, without gravity or friction: A and B at rest 1 mm
    apart, C striking B a quarter of the way into the step. B leaves at C's speed and crosses
    the gap within the same step, so A must be struck in that step too (momentum passes down
    the row as in a cradle: A leaves at the striker's speed, B and C stop) and A and B never
    overlap. A box found only by its own speed would reach A a step late, millimetres deep."""
    if dims == 2:
        w = rl.World2D(gravity=(0, 0))

        def add(x, v=0.0):
            return w.add_box(
                (0.05, 0.05), position=(x, 0), velocity=(v, 0), restitution=1.0, friction=0.0
            )
    else:
        w = rl.World(gravity=(0, 0, 0))

        def add(x, v=0.0):
            return w.add_box(
                (0.05, 0.05, 0.05),
                position=(x, 0, 0),
                velocity=(v, 0, 0),
                restitution=1.0,
                friction=0.0,
            )

    gap = 1e-3
    a, b = add(0.0), add(0.1 + gap)
    c = add(0.2 + gap + speed * w.dt / 4, -speed)
    w.step()
    assert b.position[0] - a.position[0] >= 0.1 - 1e-9
    assert a.velocity[0] == pytest.approx(-speed, rel=1e-9)
    assert abs(b.velocity[0]) < 1e-9 * speed and abs(c.velocity[0]) < 1e-9 * speed
