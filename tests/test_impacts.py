"""Impacts in crowds: each at its own time of impact with the geometry of that moment,
sequences of collisions as exact binary collisions, and no impact that creates energy.

References are closed forms and an exact event-driven solution of balls on a line
(`binary_collisions`), written here independently of the engine."""

import math

import numpy as np
import pytest
import rigidlab as rl
from test_sleeping import mixed_heap

G = 9.81
STEPS = [1 / 60, 1 / 240, 1 / 1000]


def binary_collisions(x, v, m, r, e, t_end, g=0.0, floor_e=None):
    """Balls on a line (centres x, sorted, radii r, masses m) moving at v with acceleration -g,
    colliding pairwise with restitution e (and with a floor at 0 below the first ball with
    restitution floor_e, if given), exactly: each collision found in closed form at its time,
    the earliest first (ties: the floor, then the lowest pair). Returns positions, velocities
    at t_end and the collisions as (time, i, j), j = -1 for the floor."""
    x, v = np.array(x, float), np.array(v, float)
    t, hits = 0.0, []
    while True:
        best = (t_end - t, None)
        if floor_e is not None:
            # x0 - r0 + v0 s - g s^2 / 2 = 0, landing (velocity then negative).
            c, b, a = x[0] - r[0], v[0], -0.5 * g
            roots = (
                [-c / b]
                if a == 0 and b != 0
                else ([] if a == 0 else np.roots([a, b, c]).real.tolist())
            )
            for s in sorted(s for s in roots if s >= -1e-15):
                if v[0] - g * s < 0 and s < best[0]:
                    best = (max(s, 0.0), -1)
                    break
        for i in range(len(x) - 1):
            gap, rate = x[i + 1] - x[i] - r[i] - r[i + 1], v[i + 1] - v[i]
            if rate < 0:
                s = max(gap / -rate, 0.0)
                if s < best[0]:
                    best = (s, i)
        s, k = best
        x += v * s - 0.5 * g * s * s
        v -= g * s
        t += s
        if k is None:
            return x, v, hits
        if k == -1:
            v[0] = -floor_e * v[0]
            hits.append((t, -1, 0))
        else:
            i, j = k, k + 1
            u = v[j] - v[i]
            jn = -(1 + e) * u / (1 / m[i] + 1 / m[j])
            v[i] -= jn / m[i]
            v[j] += jn / m[j]
            hits.append((t, i, j))


def impacts(ev):
    kind = np.array(ev["kind"])
    return {
        k: np.asarray(ev[k])[kind == "impact"]
        for k in ("time", "body_a", "body_b", "speed", "normal", "point", "impulse")
    }


def kinetic(w):
    return w.energy()["kinetic"]


# ---------------------------------------------------------------------------------------------
# A gas of elastic spheres


def gas(n, dt, radius=0.1, half=1.0, seed=1, friction=0.0, roughness=0.0):
    """n spheres (e = 1) at random places and velocities in a closed box, no gravity."""
    w = rl.World(gravity=(0, 0, 0), dt=dt)
    for axis in range(3):
        for sign in (1, -1):
            normal = np.zeros(3)
            normal[axis] = sign
            w.add_plane(normal=normal, offset=-half, restitution=1.0, friction=friction)
    rng = np.random.default_rng(seed)
    placed = []
    while len(placed) < n:
        p = rng.uniform(-half + radius, half - radius, 3)
        if all(np.linalg.norm(p - q) > 2 * radius for q in placed):
            placed.append(p)
    balls = [
        w.add_sphere(
            radius,
            mass=1.0,
            position=p,
            velocity=rng.normal(0, 1, 3),
            restitution=1.0,
            friction=friction,
            tangential_restitution=roughness,
        )
        for p in placed
    ]
    return w, balls


@pytest.mark.parametrize("dt", STEPS)
def test_an_elastic_gas_keeps_its_kinetic_energy(dt):
    # 200 spheres filling a tenth of the box: about 400 collisions a second.
    w, _ = gas(200, dt)
    e0, p0 = kinetic(w), w.momentum()
    w.run(10.0)
    ev = impacts(w.contact_events())
    assert len(ev["time"]) > 2000
    assert abs(kinetic(w) / e0 - 1) < 1e-9
    # The walls take momentum; the spheres keep their speeds' sum of squares.
    assert np.isfinite(p0).all()


def test_rough_gas_spheres_keep_their_energy_less_what_friction_takes():
    # With friction the gas shares energy with the spheres' spins and never gains.
    w, _ = gas(100, 1 / 240, friction=0.5)
    e0 = kinetic(w)
    last = e0
    for _ in range(240):
        w.step(10)
        e = kinetic(w)
        assert e <= last * (1 + 1e-12)
        last = e
    assert w.energy()["rotational"] > 0.0


@pytest.mark.parametrize("dt", STEPS)
def test_a_gas_of_perfectly_rough_spheres_keeps_its_energy_and_spins_up(dt):
    # Tangential restitution 1 with friction that always holds: every impact reverses the
    # slip, which keeps the kinetic energy and moves it into rotation, towards equipartition.
    w, _ = gas(100, dt, friction=1e6, roughness=1.0)
    e0 = kinetic(w)
    assert w.energy()["rotational"] == 0.0
    w.run(5.0)
    assert abs(kinetic(w) / e0 - 1) < 1e-9
    share = w.energy()["rotational"] / w.energy()["translational"]
    assert 0.5 < share < 2.0


def slip(a, b, n):
    """Slip of b's surface over a's where two spheres touch along n (from a to b)."""
    ra, rb = a.dimensions["radius"] * n, -b.dimensions["radius"] * n
    u = (
        b.velocity
        + np.cross(b.angular_velocity, rb)
        - a.velocity
        - np.cross(a.angular_velocity, ra)
    )
    return u - n * np.dot(u, n)


@pytest.mark.parametrize("dt", STEPS)
@pytest.mark.parametrize("beta", [-1.0, -0.4, 0.0, 0.5, 1.0])
def test_tangential_restitution_turns_the_slip_by_minus_beta(dt, beta):
    # A spinning ball strikes another off-centre, friction high enough to hold: the slip after
    # the impact is -beta times the slip before it, the normal part is Newton's (e = 1) and
    # angular momentum about any point is kept; beta = +-1 keeps the energy too.
    w = rl.World(gravity=(0, 0, 0), dt=dt)
    k = dict(restitution=1.0, friction=1e6, tangential_restitution=beta)
    a = w.add_sphere(
        0.1,
        mass=1.0,
        position=(0, 0, 0),
        velocity=(2.0, 0, 0.3),
        angular_velocity=(5.0, -3.0, 30.0),
        **k,
    )
    s = w.add_sphere(0.15, mass=2.5, position=(0.6, 0.11, -0.02), angular_velocity=(0, 8.0, 0), **k)
    p = (0.3, -0.7, 0.2)
    l0, e0 = w.angular_momentum(about=p), kinetic(w)
    # Before: the relative slip where they will touch, along the line of centres then.
    v_rel = s.velocity - a.velocity
    w.run(0.5)
    ev = impacts(w.contact_events())
    assert len(ev["time"]) == 1
    n = ev["normal"][0]
    after = slip(a, s, n)
    w0 = rl.World(gravity=(0, 0, 0), dt=dt)
    a0 = w0.add_sphere(0.1, mass=1.0, velocity=(2.0, 0, 0.3), angular_velocity=(5.0, -3.0, 30.0))
    s0 = w0.add_sphere(0.15, mass=2.5, position=(0.6, 0.11, -0.02), angular_velocity=(0, 8.0, 0))
    before = slip(a0, s0, n)
    assert np.linalg.norm(before) > 1.0
    np.testing.assert_allclose(after, -beta * before, atol=1e-9 * np.linalg.norm(before))
    assert abs(np.dot(s.velocity - a.velocity, n) + np.dot(v_rel, n)) < 1e-9
    np.testing.assert_allclose(w.angular_momentum(about=p), l0, atol=1e-9 * np.linalg.norm(l0))
    if abs(beta) == 1.0:
        assert abs(kinetic(w) / e0 - 1) < 1e-12
    else:
        assert kinetic(w) < e0


@pytest.mark.parametrize("dt", STEPS)
def test_a_superball_bounces_back_and_forth(dt):
    # A perfectly rough, elastic ball thrown onto a floor without spin: the first bounce leaves
    # v_x' = 3/7 v_x and r w_z' = -10/7 v_x (Garwin, Am. J. Phys. 37, 88, 1969), the second
    # gives back v_x and no spin.
    r, vx = 0.05, 1.0
    w = rl.World(dt=dt)
    w.add_plane()
    ball = w.add_sphere(
        r,
        mass=0.1,
        position=(0, 0.5, 0),
        velocity=(vx, 0, 0),
        restitution=1.0,
        friction=1e6,
        tangential_restitution=1.0,
    )
    e0 = w.energy()["total"]
    bounce = math.sqrt(2 * 0.45 / 9.81)  # time of the first bounce
    w.run(2 * bounce)  # past the first, before the second (one flight takes 2 x bounce)
    np.testing.assert_allclose(ball.velocity[[0, 2]], [3 / 7 * vx, 0], atol=1e-9)
    np.testing.assert_allclose(ball.angular_velocity * r, [0, 0, -10 / 7 * vx], atol=1e-9)
    w.run(2 * bounce)
    np.testing.assert_allclose(ball.velocity[[0, 2]], [vx, 0], atol=1e-9)
    np.testing.assert_allclose(ball.angular_velocity, [0, 0, 0], atol=1e-9)
    assert abs(w.energy()["total"] / e0 - 1) < 1e-9
    assert len(impacts(w.contact_events())["time"]) == 2


def test_tangential_restitution_is_checked_combined_and_saved(tmp_path):
    w = rl.World()
    for bad in (1.5, -1.2, float("nan"), "rough"):
        with pytest.raises((ValueError, TypeError), match="tangential_restitution"):
            w.add_sphere(0.1, tangential_restitution=bad)
    assert len(w) == 0
    a = w.add_sphere(0.1, tangential_restitution=0.5)
    b = w.add_sphere(0.1, position=(1, 0, 0))
    assert a.tangential_restitution == 0.5 and b.tangential_restitution is None
    with pytest.raises(ValueError, match="tangential_restitution"):
        a.tangential_restitution = 2.0
    assert a.tangential_restitution == 0.5
    with pytest.raises(ValueError, match="tangential_restitution"):
        w.set_pair(a, b, tangential_restitution=-3.0)
    w.set_pair(a, b, tangential_restitution=1.0)
    path = tmp_path / "rough.json"
    w.save(path)
    w2 = rl.World.load(path)
    assert w2.bodies[0].tangential_restitution == 0.5
    assert w2.bodies[1].tangential_restitution is None
    assert w2.to_json() == w.to_json()


# ---------------------------------------------------------------------------------------------
# Balls in a column and in a row


def cannon(dt, gap, ratio, e=1.0, height=1.0):
    """A heavy ball (radius 0.1 m, `ratio` kg) with a light one (0.05 m, 1 kg) `gap` above it,
    dropped from `height` onto the floor."""
    w = rl.World(dt=dt)
    w.add_plane(restitution=e)
    r = [0.1, 0.05]
    y0 = height + r[0]
    y1 = y0 + r[0] + gap + r[1]
    low = w.add_sphere(r[0], mass=ratio, position=(0, y0, 0), restitution=e)
    top = w.add_sphere(r[1], mass=1.0, position=(0, y1, 0), restitution=e)
    return w, low, top, ([y0, y1], r, [ratio, 1.0])


@pytest.mark.parametrize("dt", STEPS)
@pytest.mark.parametrize("gap", [0.0, 1e-3, 1e-2])
@pytest.mark.parametrize("ratio", [3.0, 10.0])
def test_a_galilean_cannon_launches_at_the_binary_collision_speed(dt, gap, ratio):
    w, low, top, (y, r, m) = cannon(dt, gap, ratio)
    # Well after the launch, before the light ball comes down again.
    t_end = round(0.55 / dt) * dt
    w.run(t_end, progress=False)
    x_ref, v_ref, hits = binary_collisions(y, [0, 0], m, r, 1.0, t_end, g=G, floor_e=1.0)
    # Its launch: floor, then the ball above (the heavy one may land again after).
    assert hits[0][1:] == (-1, 0) and hits[1][1:] == (0, 1)
    assert abs(top.velocity[1] - v_ref[1]) < 1e-6 * abs(v_ref[1])
    assert abs(top.position[1] - x_ref[1]) < 1e-6
    assert abs(top.velocity[0]) + abs(top.velocity[2]) < 1e-12


@pytest.mark.parametrize("dt", STEPS)
def test_the_heavy_ball_of_a_three_to_one_cannon_stops_and_no_energy_appears(dt):
    # 3:1, touching: the floor reverses the heavy ball, which then meets the light one falling
    # as fast: it stops dead and the light ball leaves at twice its speed.
    w, low, top, _ = cannon(dt, 0.0, 3.0)
    e0 = w.energy()["total"]
    v = math.sqrt(2 * G * 1.0)
    w.run(round(0.5 / dt) * dt)
    assert abs(low.velocity[1]) < 1e-6 * v
    t_launch = math.sqrt(2 * 1.0 / G)
    assert abs(top.velocity[1] - (2 * v - G * (w.time - t_launch))) < 1e-6 * v
    assert w.energy()["total"] <= e0 * (1 + 1e-9)


def row(n, gap, e, dt, v=1.0, r=0.05):
    """n balls (1 kg, radius r) along x, `gap` apart, no gravity; the first moves at v."""
    w = rl.World(gravity=(0, 0, 0), dt=dt)
    xs = [k * (2 * r + gap) for k in range(n)]
    balls = [
        w.add_sphere(
            r,
            mass=1.0,
            position=(x, 0, 0),
            velocity=(v if k == 0 else 0, 0, 0),
            restitution=e,
            friction=0.0,
        )
        for k, x in enumerate(xs)
    ]
    return w, balls, xs


@pytest.mark.parametrize("dt", STEPS)
@pytest.mark.parametrize("e", [1.0, 0.9, 0.5])
@pytest.mark.parametrize("gap", [1e-3, 1e-2])
def test_a_cradle_with_gaps_is_exact_binary_collisions(dt, e, gap):
    n, r = 5, 0.05
    w, balls, xs = row(n, gap, e, dt, r=r)
    t_end = round(0.8 / dt) * dt
    w.run(t_end)
    x_ref, v_ref, hits = binary_collisions(
        xs, [1.0] + [0.0] * (n - 1), [1.0] * n, [r] * n, e, t_end
    )
    np.testing.assert_allclose(w.positions[:, 0], x_ref, atol=1e-6, rtol=0)
    np.testing.assert_allclose(w.velocities[:, 0], v_ref, atol=1e-9, rtol=0)
    assert np.abs(w.positions[:, 1:]).max() < 1e-12
    ev = impacts(w.contact_events())
    np.testing.assert_allclose(ev["time"], [h[0] for h in hits], atol=1e-9, rtol=0)
    assert [tuple(sorted(p)) for p in zip(ev["body_a"], ev["body_b"])] == [
        (h[1], h[2]) for h in hits
    ]


@pytest.mark.parametrize("dt", STEPS)
def test_a_touching_cradle_passes_one_ball_on(dt):
    w, balls, _ = row(5, 0.0, 1.0, dt)
    e0 = kinetic(w)
    w.run(0.5)
    np.testing.assert_allclose(w.velocities[:, 0], [0, 0, 0, 0, 1.0], atol=1e-12)
    assert abs(kinetic(w) / e0 - 1) < 1e-12


@pytest.mark.parametrize("restitution", [0.5, 0.9, 1.0])
def test_a_bouncy_heap_landing_in_a_bin_gains_no_energy_in_a_step(restitution):
    # 324 balls, boxes and hulls falling as a lattice into a bin, for two seconds once the
    # lattice has landed. A step can gain energy only where position correction lifts bodies
    # out of each other: at most 3.7 mJ in any step from 0.5 s to 3 s, over 21 restitutions
    # from 0 to 1. When last step's loads started the resting solve before the impacts, a
    # body whose support was forgotten for an impact next to it was pushed down by the load
    # from above, and the impacts bounced that push back as motion: one step gained 329 mJ
    # at restitution 0.5 (a hull pushed down at 1.3 m/s and spun up to 54 rad/s), 112 mJ at
    # 0.9 and 25 mJ at 1.
    w = mixed_heap(restitution)
    w.run(0.5)
    last, worst = w.energy()["total"], 0.0
    for _ in range(480):
        w.step()
        energy = w.energy()["total"]
        worst = max(worst, energy - last)
        last = energy
    assert worst < 0.01, f"a step gained {worst * 1e3:.1f} mJ"


@pytest.mark.parametrize("dims", [2, 3])
@pytest.mark.parametrize("dt, n", [(1 / 60, 5), (1 / 240, 5), (1 / 1000, 10), (1 / 1000, 20)])
def test_a_stack_kicked_from_below_takes_the_kick_and_gravity_and_no_more_momentum(dims, dt, n):
    # The bottom of a resting stack of 1 kg cubes is kicked upward at 1 m/s. Within the step
    # the blow runs up the stack; every cube ends it rising, so the floor pushed nothing and
    # the stack's momentum is the kick less gravity's impulse, to round-off.
    if dims == 3:
        w = rl.World(dt=dt)
        w.add_plane()
        cubes = [
            w.add_box((0.05, 0.05, 0.05), position=(0, 0.05 + 0.1 * k, 0), mass=1.0)
            for k in range(n)
        ]
    else:
        w = rl.World2D(dt=dt)
        w.add_ground()
        cubes = [w.add_box((0.05, 0.05), position=(0, 0.05 + 0.1 * k), mass=1.0) for k in range(n)]
    w.run(0.5)
    cubes[0].velocity = (0, 1.0, 0)[:dims]
    p0 = sum(c.momentum[1] for c in cubes)
    k0 = w.energy()["kinetic"]
    w.step()
    assert min(c.velocity[1] for c in cubes) > 0
    assert abs(sum(c.momentum[1] for c in cubes) - (p0 - n * G * dt)) < 1e-9
    assert w.energy()["kinetic"] < k0


@pytest.mark.parametrize("e", [0.5, 0.8])
def test_a_touching_cradle_with_e_below_one_comes_apart_as_binary_collisions(e):
    # Binary collisions along a touching row give every ball its own speed, increasing along
    # the row (none stuck to the next), with momentum kept and the energy lost that each
    # collision's (1 - e^2) takes.
    w, balls, _ = row(5, 0.0, e, 1 / 240)
    w.run(1.0)
    v = w.velocities[:, 0]
    assert np.all(np.diff(v) > 1e-6), v
    assert abs(v.sum() - 1.0) < 1e-12
    assert np.all(np.diff(w.positions[:, 0]) > 0.1)


# ---------------------------------------------------------------------------------------------
# Glancing hits and a break


def glancing(b, dt, friction=0.0, spin=(0, 0, 0), r=0.1, v=2.0):
    w = rl.World(gravity=(0, 0, 0), dt=dt)
    a = w.add_sphere(
        r,
        mass=1.0,
        position=(0, 0, 0),
        velocity=(v, 0, 0),
        angular_velocity=spin,
        restitution=1.0,
        friction=friction,
    )
    s = w.add_sphere(r, mass=1.0, position=(0.5, b, 0), restitution=1.0, friction=friction)
    return w, a, s


def angular_momentum_about(w, p):
    return w.angular_momentum(about=p)


@pytest.mark.parametrize("dt", STEPS)
@pytest.mark.parametrize("b", [0.0, 0.02, 0.1, 0.15, 0.199])
def test_a_glancing_hit_sends_the_struck_ball_along_the_line_of_centres(dt, b):
    r, v = 0.1, 2.0
    w, a, s = glancing(b, dt)
    p = (0.3, -0.7, 0.2)
    l0, e0 = angular_momentum_about(w, p), kinetic(w)
    w.run(0.5)
    phi = math.asin(b / (2 * r))
    assert abs(math.atan2(s.velocity[1], s.velocity[0]) - phi) < 1e-6
    # Equal masses, e = 1: they part at right angles (unless head-on).
    if b > 0:
        assert abs(np.dot(a.velocity, s.velocity)) < 1e-9
    np.testing.assert_allclose(
        angular_momentum_about(w, p), l0, atol=1e-9 * np.linalg.norm(l0) + 1e-12
    )
    assert abs(kinetic(w) / e0 - 1) < 1e-12
    ev = impacts(w.contact_events())
    assert len(ev["time"]) == 1
    # The event reports the normal and approach speed at the moment of impact.
    np.testing.assert_allclose(ev["normal"][0], [math.cos(phi), math.sin(phi), 0], atol=1e-9)
    assert abs(ev["speed"][0] - v * math.cos(phi)) < 1e-9
    t_hit = (0.5 - math.sqrt(4 * r * r - b * b)) / v
    assert abs(ev["time"][0] - t_hit) < 1e-12
    assert abs(ev["impulse"][0] - v * math.cos(phi) * 1.0) < 1e-9  # (1 + e) u / (2 / m)


@pytest.mark.parametrize("dt", STEPS)
def test_a_rough_glancing_hit_keeps_angular_momentum_with_the_spins(dt):
    w, a, s = glancing(0.12, dt, friction=0.4, spin=(0, 0, 30.0))
    p = (-0.4, 0.9, 0.1)
    l0, e0 = angular_momentum_about(w, p), kinetic(w)
    w.run(0.5)
    np.testing.assert_allclose(angular_momentum_about(w, p), l0, atol=1e-9 * np.linalg.norm(l0))
    np.testing.assert_allclose(w.momentum(), [2.0, 0, 0], atol=1e-12)
    assert kinetic(w) < e0
    assert np.abs(s.angular_velocity).max() > 0.1


def rack(dt, gap, r=0.0286, m=0.17, speed=5.0):
    """A 15-ball triangle (rows 1..5, `gap` between neighbours) and a cue ball, no gravity,
    frictionless, e = 1."""
    w = rl.World(gravity=(0, 0, 0), dt=dt)
    d = 2 * r + gap
    for row_ in range(5):
        for k in range(row_ + 1):
            w.add_sphere(
                r,
                mass=m,
                position=(row_ * d * math.sqrt(3) / 2, 0, (k - row_ / 2) * d),
                restitution=1.0,
                friction=0.0,
            )
    w.add_sphere(
        r, mass=m, position=(-0.8, 0, 0.003), velocity=(speed, 0, 0), restitution=1.0, friction=0.0
    )
    return w


@pytest.mark.parametrize("dt", STEPS)
@pytest.mark.parametrize("gap", [0.0, 1e-4])
def test_a_billiards_break_keeps_momentum_energy_and_angular_momentum(dt, gap):
    w = rack(dt, gap)
    p = (0.4, 0.0, -0.3)
    p0, e0, l0 = w.momentum(), kinetic(w), angular_momentum_about(w, p)
    w.run(1.0)
    assert len(impacts(w.contact_events())["time"]) >= 15
    np.testing.assert_allclose(w.momentum(), p0, atol=1e-9 * np.linalg.norm(p0))
    assert abs(kinetic(w) / e0 - 1) < 1e-9
    np.testing.assert_allclose(angular_momentum_about(w, p), l0, atol=1e-9 * np.linalg.norm(l0))
    # It stays in the table's plane and every ball is apart from the others.
    assert np.abs(w.positions[:, 1]).max() < 1e-12
    x = w.positions
    dist = np.linalg.norm(x[:, None] - x[None], axis=2) + np.eye(len(x))
    assert dist.min() > 2 * 0.0286 - 1e-9


# ---------------------------------------------------------------------------------------------
# A rounded side meeting an edge or a corner: the normal of the moment of contact


def reflected(u, n):
    return u - 2 * np.dot(u, n) * n


def ball_at_a_step(dt, corner, r=0.1, v=2.0):
    """A ball at the origin moving along +x at v towards a static block that fills x >= 0.5,
    y >= corner[1] (and z >= corner[2] if given: a corner; else an edge along z)."""
    w = rl.World(gravity=(0, 0, 0), dt=dt)
    ball = w.add_sphere(r, mass=1.0, velocity=(v, 0, 0), restitution=1.0, friction=0.0)
    h = 0.5
    if len(corner) == 2:
        centre, half = (0.5 + h, corner[1] + h, 0.0), (h, h, 1.0)
    else:
        centre, half = tuple(c + h for c in corner), (h, h, h)
    w.add_box(half, position=centre, kind="static", restitution=1.0, friction=0.0)
    return w, ball


@pytest.mark.parametrize("dt", STEPS)
@pytest.mark.parametrize(
    "corner", [(0.5, 0.02), (0.5, 0.05), (0.5, 0.099), (0.5, 0.03, 0.04), (0.5, 0.07, 0.06)]
)
def test_a_ball_glancing_off_an_edge_or_a_corner_reflects_about_the_normal_where_they_meet(
    dt, corner
):
    r, v = 0.1, 2.0
    w, ball = ball_at_a_step(dt, corner, r, v)
    w.run(0.5)
    # It meets the edge (or corner) when its centre is r from it, on the x axis.
    off = np.r_[corner[1:], [0.0] * (3 - len(corner))][:2]
    x_hit = 0.5 - math.sqrt(r * r - off @ off)
    n = np.array([x_hit - 0.5, -off[0], -off[1]]) / r  # from the block towards the ball
    np.testing.assert_allclose(ball.velocity, reflected(np.array([v, 0, 0]), n), atol=1e-7)
    ev = impacts(w.contact_events())
    assert len(ev["time"]) == 1
    assert abs(ev["time"][0] - x_hit / v) < 1e-9
    np.testing.assert_allclose(ev["normal"][0], n, atol=1e-7)
    assert abs(ev["speed"][0] - v * -n[0]) < 1e-7
    assert abs(kinetic(w) / (0.5 * v * v) - 1) < 1e-12


@pytest.mark.parametrize("dt", STEPS)
def test_a_ball_thrown_onto_the_edge_of_a_step_bounces_off_it_in_free_flight(dt):
    # Under gravity: the centre's parabola meets the circle of radius r about the edge (found
    # here by bisection), the velocity then is reflected about the line from the edge, and
    # free flight follows.
    r, y0, vx = 0.1, 0.6, 0.8
    x0 = np.array([0.2, y0, 0.0])
    w = rl.World(dt=dt)
    ball = w.add_sphere(
        r, mass=1.0, position=x0, velocity=(vx, 0, 0), restitution=1.0, friction=0.0
    )
    w.add_box(
        (0.5, 0.5, 1.0), position=(1.0, -0.5, 0), kind="static", restitution=1.0, friction=0.0
    )
    g = np.array([0, -G, 0])
    edge = np.array([0.5, 0.0, 0.0])
    u0 = np.array([vx, 0, 0])

    def at(t):
        return x0 + u0 * t + 0.5 * g * t * t

    lo, hi = 0.0, math.sqrt(2 * y0 / G)
    assert np.linalg.norm(at(hi) - edge) < r
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if np.linalg.norm(at(mid) - edge) > r else (lo, mid)
    t_hit = lo
    n = (at(t_hit) - edge) / r
    assert 0 < n[1] and n[0] < 0  # on the edge, not on the top face
    after = reflected(u0 + g * t_hit, n)
    w.run(t_hit + 0.15)
    tau = w.time - t_hit
    np.testing.assert_allclose(ball.velocity, after + g * tau, atol=1e-7)
    np.testing.assert_allclose(ball.position, at(t_hit) + after * tau + 0.5 * g * tau**2, atol=1e-8)
    ev = impacts(w.contact_events())
    assert len(ev["time"]) == 1 and abs(ev["time"][0] - t_hit) < 1e-9


@pytest.mark.parametrize("dt", STEPS)
@pytest.mark.parametrize("b", [0.03, 0.07])
def test_a_ball_striking_a_free_box_on_its_edge_gives_the_closed_form_impulse(dt, b):
    # A box at rest struck on an edge: the impulse J along the normal where they meet is
    # 2 u / (1/m + 1/M + (r x n) . I^-1 (r x n)) (e = 1, frictionless), J n its linear and
    # r x J n its angular impulse.
    r, v, m, big, half = 0.1, 2.0, 1.0, 3.0, np.array([0.2, 0.3, 0.25])
    w = rl.World(gravity=(0, 0, 0), dt=dt)
    ball = w.add_sphere(r, mass=m, velocity=(v, 0, 0), restitution=1.0, friction=0.0)
    centre = np.array([0.5 + half[0], b + half[1], 0.0])
    box = w.add_box(half, mass=big, position=centre, restitution=1.0, friction=0.0)
    p0, l0 = w.momentum(), w.angular_momentum(about=(0.3, -0.2, 0.1))
    w.run(0.3)
    n = np.array([math.sqrt(r * r - b * b), b, 0.0]) / r  # from the ball into the box
    arm = np.array([0.5, b, 0.0]) - centre
    inertia = big / 3 * np.diag([h @ h - x * x for x, h in zip(half, [half] * 3)])
    c = np.cross(arm, n)
    j = 2 * v * n[0] / (1 / m + 1 / big + c @ np.linalg.solve(inertia, c))
    np.testing.assert_allclose(ball.velocity, [v, 0, 0] - j * n / m, atol=1e-7)
    np.testing.assert_allclose(box.velocity, j * n / big, atol=1e-7)
    np.testing.assert_allclose(box.angular_velocity, np.linalg.solve(inertia, j * c), atol=1e-6)
    np.testing.assert_allclose(w.momentum(), p0, atol=1e-12)
    np.testing.assert_allclose(w.angular_momentum(about=(0.3, -0.2, 0.1)), l0, atol=1e-9)
    assert abs(kinetic(w) / (0.5 * m * v * v) - 1) < 1e-9


@pytest.mark.parametrize("dt", STEPS)
@pytest.mark.parametrize("b", [0.03, 0.1, 0.14])
def test_a_ball_glancing_off_a_capsules_end_reflects_about_the_line_from_its_core(dt, b):
    # A static capsule standing on its lower end at (0.5, b): its core's end is a point, the
    # capsule's end the sphere of its radius about it.
    r, rc, v = 0.1, 0.05, 2.0
    w = rl.World(gravity=(0, 0, 0), dt=dt)
    ball = w.add_sphere(r, mass=1.0, velocity=(v, 0, 0), restitution=1.0, friction=0.0)
    w.add_capsule(rc, 0.3, position=(0.5, b + 0.3, 0), kind="static", restitution=1.0, friction=0.0)
    w.run(0.5)
    reach = r + rc
    n = np.array([-math.sqrt(reach**2 - b * b), -b, 0.0]) / reach
    np.testing.assert_allclose(ball.velocity, reflected(np.array([v, 0, 0]), n), atol=1e-7)


def random_edge_hit(rng, dt):
    """A ball of random size and speed, started at a random phase of the step, moving along +x
    towards a static block's edge along z (height b) or corner (heights b, c) at random
    heights: the world, the ball, the time it meets the edge or corner, and the normal then
    (from the block towards the ball)."""
    r, v = rng.uniform(0.02, 0.3), rng.uniform(0.3, 15.0)
    x0 = -rng.uniform(0.0, 1.0)
    corner = rng.random() < 0.5
    if corner:
        off = np.abs(rng.uniform(-1, 1, 2)) * r
        while off @ off >= (0.98 * r) ** 2:
            off = np.abs(rng.uniform(-1, 1, 2)) * r
    else:
        off = np.array([rng.uniform(0.01, 0.98) * r, 0.0])
    w = rl.World(gravity=(0, 0, 0), dt=dt)
    ball = w.add_sphere(
        r, mass=1.0, position=(x0, 0, 0), velocity=(v, 0, 0), restitution=1.0, friction=0.0
    )
    h = 0.5
    if corner:
        centre, half = (0.5 + h, off[0] + h, off[1] + h), (h, h, h)
    else:
        centre, half = (0.5 + h, off[0] + h, 0.0), (h, h, 1.0)
    w.add_box(half, position=centre, kind="static", restitution=1.0, friction=0.0)
    x_hit = 0.5 - math.sqrt(r * r - off @ off)
    n = np.array([x_hit - 0.5, -off[0], -off[1]]) / r
    return w, ball, (x_hit - x0) / v, n


@pytest.mark.parametrize("dt", [1 / 30, *STEPS])
def test_fast_balls_meeting_edges_and_corners_at_random_reflect_about_the_normal_where_they_meet(
    dt,
):
    # Sizes, speeds (up to 15 m/s, several radii a step) and phases no one tuned for: the step
    # before the ball meets the edge it already lies within the contact margin, and what
    # position correction makes of the normal found then must not push it (the impact would
    # come late, about the wrong normal).
    rng = np.random.default_rng(round(1 / dt))
    for _ in range(40):
        w, ball, t_hit, n = random_edge_hit(rng, dt)
        u = ball.velocity
        w.run(t_hit + 2 * dt)
        np.testing.assert_allclose(ball.velocity, reflected(u, n), atol=1e-7 * u[0])
        ev = impacts(w.contact_events())
        assert len(ev["time"]) == 1 and abs(ev["time"][0] - t_hit) < 1e-9


def draws(make, seed, dt, count):
    """The first `count` scenes `make(rng, dt)` draws from a generator seeded by `seed` and the
    step (it returns None for a draw it cannot judge in closed form)."""
    rng = np.random.default_rng(seed + round(1 / dt))
    done = 0
    while done < count:
        hit = make(rng, dt)
        if hit is not None:
            done += 1
            yield hit


def capsule_end_hit(rng, dt):
    """A capsule of random size moving at random speed along its axis (x) into a static
    block's edge (along z, at a random height below its radius), with its end: the world, the
    capsule, the edge's point in the x-y plane, the time its end meets the edge and what the
    capsule then does (a frictionless elastic impulse through the edge point, in closed form),
    or None when the spin the blow gives it brings its side back onto the edge within two
    steps (a second, genuine impact)."""
    r, v = rng.uniform(0.02, 0.2), rng.uniform(0.3, 12.0)
    h, x0, b = rng.uniform(0.2, 2.0) * r, -rng.uniform(0.0, 1.0), rng.uniform(0.05, 0.95) * r
    w = rl.World(gravity=(0, 0, 0), dt=dt)
    along_x = (0.0, 0.0, -math.sqrt(0.5), math.sqrt(0.5))  # its axis (local y) along x
    capsule = w.add_capsule(
        r,
        h,
        mass=1.0,
        position=(x0, 0, 0),
        orientation=along_x,
        velocity=(v, 0, 0),
        restitution=1.0,
        friction=0.0,
    )
    w.add_box(
        (0.5, 0.5, 1.0), position=(1.0, b + 0.5, 0), kind="static", restitution=1.0, friction=0.0
    )
    edge = np.array([0.5, b, 0.0])
    t_hit = (0.5 - math.sqrt(r * r - b * b) - x0 - h) / v
    centre = np.array([x0 + v * t_hit, 0.0, 0.0])
    n = (centre + [h, 0, 0] - edge) / r
    arm = edge - centre
    inv_inertia = np.linalg.inv(capsule.inertia)
    c = np.cross(arm, n)
    j = -2 * v * n[0] / (1 / capsule.mass + c @ inv_inertia @ c)
    vel, spin = np.array([v, 0, 0]) + j * n / capsule.mass, inv_inertia @ (j * c)
    # Free motion after the blow (a turn about z): does its core come within r of the edge?
    for s in np.linspace(1e-3, 2, 2000) * dt:
        turn = spin[2] * s
        axis = np.array([math.cos(turn), math.sin(turn), 0.0])
        core = centre + vel * s
        t = np.clip((edge - core) @ axis, -h, h)
        if np.linalg.norm(edge - core - t * axis) < r:
            return None
    return w, capsule, edge, t_hit, (vel, spin)


@pytest.mark.parametrize("dt", [1 / 30, *STEPS])
def test_capsules_striking_an_edge_end_on_at_random_take_the_closed_form_impulse(dt):
    for w, capsule, edge, t_hit, (vel, spin) in draws(capsule_end_hit, 7, dt, 25):
        l0 = w.angular_momentum(about=edge)
        w.run(t_hit + 2 * dt)
        v = np.linalg.norm(vel)
        np.testing.assert_allclose(capsule.velocity, vel, atol=1e-6 * v)
        np.testing.assert_allclose(capsule.angular_velocity, spin, atol=1e-6 * v / 0.02)
        # The blow acts through the edge: angular momentum about it is kept.
        np.testing.assert_allclose(
            w.angular_momentum(about=edge), l0, atol=1e-9 * np.linalg.norm(l0) + 1e-12
        )


def spinning_cube_on_an_edge(rng, dt):
    """A cube (half size h) moving along +x and spinning about z at random rates, whose +x face
    strikes the edge (along z) of a static block turned 45 degrees about z, at a random
    height. The face's normal turns with the cube, so the contact's normal at the moment of
    impact is not that of the step's start. Returns the world, the cube, the time of impact,
    the face's normal then and what the cube then does (a frictionless elastic
    impulse through the edge, in closed form), or None when the edge would meet another face
    or meets the cube again within two steps."""
    h, v, om = 0.1, rng.uniform(0.5, 5.0), rng.choice([-1, 1]) * rng.uniform(0.5, 5.0)
    y_c = rng.uniform(-0.06, 0.06)
    corner = np.array([0.5, y_c, 0.0])

    def face(t):
        return np.array([math.cos(om * t), math.sin(om * t), 0.0])

    def gap(t):
        return face(t) @ (corner - [v * t, 0, 0]) - h

    lo, hi = 0.0, 0.5
    if gap(hi) > 0:
        return None
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if gap(mid) > 0 else (lo, mid)
    t = lo
    n, x = face(t), np.array([v * t, 0, 0])
    arm = corner - x
    tangent = np.array([-n[1], n[0], 0.0])
    if abs(arm @ tangent) > 0.9 * h:
        return None
    # Neither of the face's own edges may be inside the block by then (it would have struck
    # one of the block's sides first): the block is where both its sides face away.
    sides = np.array([[1.0, 1.0, 0.0], [1.0, -1.0, 0.0]]) / math.sqrt(2)
    for edge in (x + h * n + h * tangent, x + h * n - h * tangent):
        if (sides @ (edge - corner) >= 0).all():
            return None
    w = rl.World(gravity=(0, 0, 0), dt=dt)
    cube = w.add_box(
        (h, h, h),
        mass=1.0,
        velocity=(v, 0, 0),
        angular_velocity=(0, 0, om),
        restitution=1.0,
        friction=0.0,
    )
    half = 0.3
    turn = (0, 0, math.sin(math.pi / 8), math.cos(math.pi / 8))
    w.add_box(
        (half, half, 1.0),
        position=(0.5 + half * math.sqrt(2), y_c, 0.0),
        orientation=turn,
        kind="static",
        restitution=1.0,
        friction=0.0,
    )
    inv_inertia = np.linalg.inv(cube.inertia)
    spin = np.array([0, 0, om])
    c = np.cross(arm, n)
    j = (
        2
        * ((np.array([v, 0, 0]) + np.cross(spin, arm)) @ n)
        / (1 / cube.mass + c @ inv_inertia @ c)
    )
    vel, spin = np.array([v, 0, 0]) - j * n / cube.mass, spin - inv_inertia @ (j * c)
    # Free motion after the blow: does the cube's +x face pass the edge again within two steps?
    for s in np.linspace(1e-3, 2, 400) * dt:
        turned = om * t + spin[2] * s
        if np.array([math.cos(turned), math.sin(turned), 0]) @ (corner - x - vel * s) < h:
            return None
    return w, cube, t, n, (vel, spin)


@pytest.mark.parametrize("dt", [1 / 30, *STEPS])
def test_a_spinning_cube_striking_an_edge_takes_the_normal_of_its_face_at_the_moment_of_impact(
    dt,
):
    for w, cube, t, n, (vel, spin) in draws(spinning_cube_on_an_edge, 11, dt, 20):
        e0 = kinetic(w)
        w.run(t + 2 * dt)
        speed = np.linalg.norm(vel)
        np.testing.assert_allclose(cube.velocity, vel, atol=1e-7 * speed)
        np.testing.assert_allclose(cube.angular_velocity, spin, atol=1e-7 * speed / 0.1)
        ev = impacts(w.contact_events())
        assert len(ev["time"]) == 1 and abs(ev["time"][0] - t) < 1e-9
        assert abs(abs(ev["normal"][0] @ n) - 1) < 1e-12
        assert abs(kinetic(w) / e0 - 1) < 1e-9


@pytest.mark.parametrize("dt", STEPS)
def test_a_ball_bounces_off_a_block_resting_on_the_floor_to_e_squared_of_its_height(dt):
    # The block rests on the floor, which holds it: the ball meets it as it would meet the
    # floor. Followed on its free path instead, the block sank under the falling ball by
    # g t^2 / 2 within the step and met it slower by g t (a bounce to 0.630 of the height,
    # not 0.64, at e = 0.8).
    e, h, r = 0.8, 1.0, 0.05
    w = rl.World(dt=dt)
    w.add_plane(restitution=0.0)
    w.add_box((0.5, 0.25, 0.5), mass=1e6, position=(0, 0.25, 0), restitution=e)
    w.run(0.5)
    ball = w.add_sphere(r, mass=1.0, position=(0, 0.5 + r + h, 0), restitution=e)
    w.contact_events()
    while ball.velocity[1] <= 0:
        w.step()
    ev = impacts(w.contact_events())
    assert abs(ev["speed"][0] - math.sqrt(2 * G * h)) < 1e-9
    heights, speeds = [], []
    while ball.velocity[1] > 0:
        heights.append(ball.position[1] - 0.5 - r)
        speeds.append(ball.velocity[1])
        w.step()
    apex = heights[-1] + speeds[-1] ** 2 / (2 * G)
    # (The block's finite mass changes it by a few parts in a million.)
    assert abs(apex / h - e * e) < 1e-5


@pytest.mark.parametrize("dt, v", [(1 / 60, 0.5), (1 / 60, 3.0), (1 / 240, 3.0)])
def test_a_ball_rolling_over_the_seams_of_flush_blocks_rolls_on_as_on_one_floor(dt, v):
    # Ten blocks side by side make one flat floor: the ball passes each seam touching the next
    # block's edge with no speed towards it. It used to be kicked up there (it lost 13% of its
    # energy over 8 m at dt = 1/60 and 3 m/s): followed on its free path, it dipped below the
    # next block's edge within the step, and a graze was taken for an impact.
    w = rl.World(dt=dt)
    for i in range(-5, 5):
        w.add_box((0.5, 0.5, 1), position=(i + 0.5, -0.5, 0), kind="static", friction=0.5)
    r = 0.1
    ball = w.add_sphere(
        r,
        mass=1.0,
        position=(-4.5, r, 0),
        velocity=(v, 0, 0),
        angular_velocity=(0, 0, -v / r),
        friction=0.5,
    )
    e0 = w.energy()["total"]
    for _ in range(int(min(2.0, 8 / v) / dt)):
        w.step()
        assert abs(ball.velocity[1]) < 1e-9
    assert abs(w.energy()["total"] / e0 - 1) < 1e-9
    np.testing.assert_allclose(ball.velocity, [v, 0, 0], atol=1e-9)


def tumbling_capsule(dt, seed, ground):
    rng = np.random.default_rng(seed)
    w = rl.World(dt=dt, sleeping=False)
    if ground == "plane":
        w.add_plane(restitution=1.0, friction=0.0)
    else:
        w.add_box((3, 0.5, 3), position=(0, -0.5, 0), kind="static", restitution=1.0, friction=0.0)
    axis = rng.normal(size=3)
    axis /= np.linalg.norm(axis)
    angle = rng.uniform(0, math.pi)
    q = np.r_[axis * math.sin(angle / 2), math.cos(angle / 2)]
    w.add_capsule(
        0.1,
        0.3,
        mass=1.0,
        position=(0, 1.0, 0),
        orientation=q,
        angular_velocity=rng.normal(size=3) * 3,
        restitution=1.0,
        friction=0.0,
    )
    return w


@pytest.mark.parametrize("dt", [1 / 240, 1 / 1000])
def test_a_tumbling_elastic_capsule_keeps_its_energy_on_a_block_as_on_a_floor(dt):
    # Its end meets the block's face along the block's normal, found again where they meet (a
    # plane's normal is fixed): the bounces keep the energy as well as on a plane, whose
    # figure (about 1e-5 over 2 s at dt = 1/240) is the rotation's integration error.
    for seed in range(4):
        drift = {}
        for ground in ("plane", "block"):
            w = tumbling_capsule(dt, seed, ground)
            e0, worst = w.energy()["total"], 0.0
            for _ in range(int(2 / dt)):
                w.step()
                worst = max(worst, abs(w.energy()["total"] / e0 - 1))
            drift[ground] = worst
        assert drift["block"] <= max(2 * drift["plane"], 1e-6), (seed, drift)
        assert drift["block"] < 3e-5, (seed, drift)


# ---------------------------------------------------------------------------------------------
# Boxes: restitution and friction together


def dropped_box(e, mu, tilt_axis, tilt, spin, dt=1 / 240):
    w = rl.World(dt=dt)
    w.add_plane(restitution=e, friction=mu)
    half = (0.15, 0.05, 0.1)
    axis = np.asarray(tilt_axis, float) / np.linalg.norm(tilt_axis)
    q = np.r_[axis * math.sin(tilt / 2), math.cos(tilt / 2)]
    b = w.add_box(
        half,
        mass=1.0,
        position=(0, 0.6, 0),
        orientation=q,
        velocity=(0.7, 0, -0.3),
        angular_velocity=spin,
        restitution=e,
        friction=mu,
    )
    return w, b


# Corner down (tilted about two axes), edge down (about one), with and without spin.
LANDINGS = [
    ((1, 0, 1), 0.7, (0, 0, 0)),
    ((1, 0, 0), 0.6, (0, 0, 0)),
    ((0, 0, 1), 0.5, (2.0, 0, 3.0)),
    ((1, 0, 1.5), 0.9, (0, 5.0, -4.0)),
]


def impact_works(w, seconds, fine=1e-5):
    """Runs w for `seconds`; each step that holds an impact is taken again from its start in
    steps of `fine` seconds, and the change of the total energy across the short step with the
    impact is recorded: the impact's own work, with the integrator's drift over a free flight
    of a step (a tumbling box's rotational energy wobbles by 1e-5 of itself per step at
    dt = 1/240) shrunk out of it. Returns those changes."""
    coarse, works = w.dt, []
    end = w.time + seconds
    while w.time < end - 1e-12:
        snap = w.snapshot()
        w.step()
        if not len(impacts(w.contact_events())["time"]):
            continue
        w.restore(snap)
        w.dt = fine
        for _ in range(int(round(coarse / fine))):
            before = w.energy()["total"]
            w.step()
            if len(impacts(w.contact_events())["time"]):
                works.append(w.energy()["total"] - before)
        w.dt = coarse
    return works


# Frictionless and elastic together: test_a_frictionless_elastic_box_landing_keeps_its_energy.
@pytest.mark.parametrize(
    "e, mu",
    [(e, mu) for e in (0.5, 0.8, 0.9, 1.0) for mu in (0.0, 0.3, 0.5, 1.0) if (e, mu) != (1.0, 0.0)],
)
@pytest.mark.parametrize("landing", LANDINGS)
def test_a_bouncing_box_never_gains_energy_in_an_impact(e, mu, landing):
    w, b = dropped_box(e, mu, *landing)
    scale = abs(w.energy()["total"]) + 9.81 * 0.6
    works = impact_works(w, 1.5)
    assert len(works) >= 2
    assert max(works) <= 1e-9 * scale, works


@pytest.mark.parametrize("landing", [x for x in LANDINGS if not any(x[2])])
def test_a_frictionless_elastic_box_landing_keeps_its_energy(landing):
    # Its first impact, before it spins: none taken, none given.
    w, b = dropped_box(1.0, 0.0, *landing)
    scale = abs(w.energy()["total"]) + 9.81 * 0.6
    works = impact_works(w, 0.35)
    assert len(works) >= 1
    assert abs(works[0]) <= 1e-9 * scale, works


@pytest.mark.parametrize("landing", [x for x in LANDINGS if any(x[2])])
def test_a_tumbling_elastic_box_keeps_its_energy_to_second_order_in_the_step(landing):
    # A box that tumbles into an elastic, frictionless floor: the impact is solved with the
    # box's inertia turned to the moment of impact and adds its angular momentum, which free
    # motion keeps, so the energy an impact's step changes shrinks with the square of the step
    # (the composed rotations' error), not in proportion to it: ten times smaller steps, at
    # least thirty times less (a first-order error would give ten).
    scale = None
    worst = []
    for fine in (1e-4, 1e-5):
        w, b = dropped_box(1.0, 0.0, *landing)
        scale = abs(w.energy()["total"]) + 9.81 * 0.6
        works = impact_works(w, 1.5, fine=fine)
        assert len(works) >= 3
        worst.append(max(abs(x) for x in works))
    assert worst[1] <= worst[0] / 30, worst
    assert worst[1] <= 2e-8 * scale, worst


def test_a_box_landing_flat_is_one_impact_event():
    w = rl.World()
    w.add_plane(restitution=0.5)
    w.add_box((0.1, 0.1, 0.1), mass=2.0, position=(0, 0.6, 0), restitution=0.5)
    w.run(0.5)
    ev = impacts(w.contact_events())
    assert len(ev["time"]) == 1
    v = math.sqrt(2 * G * 0.5)
    assert abs(ev["speed"][0] - v) < 1e-9
    # All four corners' impulses in one: (1 + e) m v.
    assert abs(ev["impulse"][0] - 1.5 * 2.0 * v) < 1e-9
    np.testing.assert_allclose(ev["point"][0], [0, 0, 0], atol=1e-9)
    np.testing.assert_allclose(ev["normal"][0], [0, 1, 0], atol=1e-12)


# ---------------------------------------------------------------------------------------------
# The restitution threshold


def test_slow_bounces_bounce_by_default():
    # A ball dropped from 2 mm lands at 0.2 m/s: it bounces to e^2 of that, at dt = 1/60 too.
    for dt in (1 / 240, 1 / 60):
        w = rl.World(dt=dt)
        w.add_plane()
        w.add_sphere(0.1, mass=1.0, position=(0, 0.102, 0), restitution=0.8)
        ev = None
        w.run(0.2)
        ev = impacts(w.contact_events())
        assert len(ev["time"]) >= 2
        flight = ev["time"][1] - ev["time"][0]
        assert abs(G * flight**2 / 8 / (0.64 * 0.002) - 1) < 1e-6


def test_resting_bodies_still_rest_with_bouncy_materials():
    w = rl.World()
    w.add_plane(restitution=1.0)
    box = w.add_box((0.1, 0.1, 0.1), mass=1.0, position=(0, 0.1, 0), restitution=1.0)
    ball = w.add_sphere(0.1, mass=1.0, position=(1, 0.1, 0), restitution=1.0)
    w.run(2.0)
    assert np.abs(w.velocities).max() < 1e-9
    assert not len(impacts(w.contact_events())["time"])
    assert box.sleeping and ball.sleeping


def test_a_threshold_makes_slow_impacts_plastic():
    w = rl.World(restitution_threshold=0.5)
    w.add_plane()
    ball = w.add_sphere(0.1, mass=1.0, position=(0, 0.11, 0), restitution=0.9)
    w.run(0.5)
    assert np.abs(ball.velocity).max() < 1e-9
    assert not len(impacts(w.contact_events())["time"])


def landing_column(shape, n, speed, dt, walled=False):
    """A column of n touching bodies 0.1 m tall (discs, squares or hexagons in a 2D world,
    spheres or cubes in 3D), its lowest touching the floor, all moving down at `speed`:
    perfectly plastic, so the floor stops the whole column at once (Newton: every contact
    closes at the same rate, the only solution without approach is rest). `walled`: in a
    frictionless shaft as wide as the bodies, every body touching its walls (a hexagon at its
    side corners)."""
    h = 0.05
    if shape in ("disc", "square", "hexagon"):
        w = rl.World2D(dt=dt)
        w.add_ground()
        r = h / math.sin(math.pi / 3)  # the hexagon's corners, its flat faces h from its centre
        if walled:
            side = r if shape == "hexagon" else h
            for x in (-side, side):
                w.add_segment((x, 0.0), (x, 2 * h * (n + 1)), friction=0.0)
        hexagon = [(r * math.cos(k * math.pi / 3), r * math.sin(k * math.pi / 3)) for k in range(6)]
        add = {
            "disc": lambda **kw: w.add_circle(h, **kw),
            "square": lambda **kw: w.add_box((h, h), **kw),
            "hexagon": lambda **kw: w.add_polygon(hexagon, **kw),
        }[shape]
        bodies = [
            add(position=(0.0, h * (2 * i + 1)), velocity=(0.0, -speed), density=1000.0)
            for i in range(n)
        ]
    else:
        w = rl.World(dt=dt)
        w.add_plane()
        if walled:
            for normal in [(1, 0, 0), (-1, 0, 0), (0, 0, 1), (0, 0, -1)]:
                w.add_plane(normal=normal, offset=-h, friction=0.0)
        add = {
            "sphere": lambda **kw: w.add_sphere(h, **kw),
            "cube": lambda **kw: w.add_box((h, h, h), **kw),
        }[shape]
        bodies = [
            add(position=(0.0, h * (2 * i + 1), 0.0), velocity=(0.0, -speed, 0.0), density=1000.0)
            for i in range(n)
        ]
    w.sleeping = False
    return w, bodies


@pytest.mark.parametrize(
    "n, dt",
    [(5, 1 / 60), (5, 1 / 240), (5, 1 / 1000), (40, 1 / 60), (40, 1 / 240), (40, 1 / 1000)],
)
@pytest.mark.parametrize("shape", ["disc", "square", "hexagon", "sphere", "cube"])
@pytest.mark.parametrize("walled", [False, True])
def test_a_plastic_column_landing_on_the_floor_stops_at_once_and_never_leaps(shape, n, dt, walled):
    # Before the blow reached the floor in one step, a tall column went on landing for many
    # steps, every contact's tilt turning part of its momentum sideways; and the impulses that
    # stopped it, carried into the next step as a guess of the load, threw it up at up to
    # half its landing speed. In a shaft, frictionless walls push sideways only: the floor
    # alone stops the column. (The blow is passed down level by level from what holds the
    # column up; walls beside every body once counted as holding each of them up, and a
    # walled column went on landing for many steps: 2D piles of discs dropped into a bin
    # pressed discs 98 mm into each other, of 100 mm diameters.)
    w, bodies = landing_column(shape, n, 2.0, dt, walled)
    e0 = w.energy()["kinetic"]
    w.step()
    assert w.energy()["kinetic"] < 1e-3 * e0
    highest, rising, spin, sideways = 0.0, 0.0, 0.0, 0.0
    for _ in range(round(0.5 / dt)):
        w.step()
        v = w.velocities
        highest = max(highest, w.energy()["kinetic"])
        rising = max(rising, v[:, 1].max())
        sideways = max(sideways, np.abs(v[:, 0]).max())
        spin = max(spin, np.abs(w.angular_velocities).max())
    # At rest under its weight, a column moves by what the iterations leave of a step's pull.
    assert highest < (1e-3 if n == 5 else 5e-3) * e0
    assert rising < (0.05 if n == 5 else 2.0) * G * dt
    assert sideways < 1e-9 and spin < 1e-6
    # And it stands at its height: each contact within the slop (0.1 mm). When the iterations
    # ran out, the column of 40 fell into itself and was lifted out by position correction
    # again and again, 345 mm short of its height half a second after landing at dt = 1/60;
    # what holds each body up now stops it, from the floor up.
    top = bodies[-1].position[1]
    assert -1e-9 <= 0.05 * (2 * n - 1) - top <= 1e-4 * n
