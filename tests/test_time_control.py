"""Time under the script's control: runs that keep time exactly, the game loop's clock with a
time scale, and speed caps."""

import math

import numpy as np
import pytest
import rigidlab as rl
from hypothesis import given, settings
from hypothesis import strategies as st

# ---------------------------------------------------------------------------------------------
# run(seconds) carries what it could not step


def test_a_hundred_runs_of_10_ms_at_4_ms_steps_end_at_one_second():
    w = rl.World(dt=0.004)
    steps = sum(w.run(0.01) for _ in range(100))
    assert steps == 250
    assert w.time == pytest.approx(1.0, abs=1e-12)


def test_runs_shorter_than_a_step_step_once_the_carried_time_reaches_half_a_step():
    w = rl.World(dt=0.004)
    assert [w.run(0.001) for _ in range(6)] == [0, 1, 0, 0, 0, 1]
    assert w.carried_time == pytest.approx(0.006 - 0.008, abs=1e-15)


@settings(max_examples=60, deadline=None)
@given(
    dt=st.sampled_from([1 / 60, 1 / 240, 0.004, 1e-3]),
    lengths=st.lists(st.floats(0.0, 0.05, allow_nan=False), min_size=1, max_size=60),
)
def test_any_sequence_of_runs_ends_within_half_a_step_of_its_total(dt, lengths):
    w = rl.World(dt=dt)
    asked = 0.0
    for s in lengths:
        w.run(s)
        asked += s
        assert abs(w.time - asked) <= dt / 2 + 1e-12
        assert w.time == pytest.approx(round(w.time / dt) * dt, abs=1e-12)


def test_the_carried_time_is_kept_by_snapshots_and_scene_files(tmp_path):
    w = rl.World(dt=0.01)
    w.add_sphere(0.1, position=(0, 1, 0))
    w.run(0.013)
    w.time_scale = 0.25
    snap = w.snapshot()
    carried = w.carried_time
    w.run(0.004)
    w.restore(snap)
    assert w.carried_time == carried
    w.save(tmp_path / "w.json")
    back = rl.World.load(tmp_path / "w.json")
    assert (back.carried_time, back.time_scale) == (carried, 0.25)
    # The next runs step alike.
    assert [back.run(0.004) for _ in range(5)] == [w.run(0.004) for _ in range(5)]


def test_step_leaves_the_carried_time_alone():
    w = rl.World(dt=0.01)
    w.run(0.004)
    w.step(3)
    assert w.carried_time == pytest.approx(0.004)
    assert w.time == pytest.approx(0.03)


# ---------------------------------------------------------------------------------------------
# advance(real_seconds): the game loop's accumulator at a time scale


@pytest.mark.parametrize("scale", [1 / 64, 0.5, 1.0, 3.0, 64.0])
def test_advance_follows_a_fake_clock_in_whole_steps_never_ahead_of_it(scale):
    """Frames of irregular length (a fake wall clock): after each, the world's time is the
    scaled clock rounded down to a step, and the fraction returned is the part of a step the
    clock is past it."""
    dt = 1 / 240
    w = rl.World(dt=dt)
    w.time_scale = scale
    rng = np.random.default_rng(7)
    clock = 0.0
    for frame in rng.uniform(0.0, 1 / 30, 300):
        fraction = w.advance(frame)
        clock += frame * scale
        assert 0.0 <= fraction < 1.0
        assert w.time <= clock + 1e-9
        assert clock - w.time == pytest.approx(fraction * dt, abs=1e-9)


def test_slow_motion_moves_a_falling_ball_as_far_as_its_scaled_time_says():
    """At time scale 1/4, two real seconds of frames are half a second of fall: g t^2 / 2."""
    w = rl.World(dt=1 / 240, gravity=(0, -9.81, 0))
    ball = w.add_sphere(0.1, position=(0, 10, 0))
    w.time_scale = 0.25
    for _ in range(120):
        w.advance(1 / 60)
    assert w.time == pytest.approx(0.5, abs=1e-9)
    assert ball.position[1] == pytest.approx(10 - 9.81 * 0.5**2 / 2, rel=1e-12)


def test_a_frame_too_long_takes_at_most_most_steps_and_drops_the_backlog():
    w = rl.World(dt=0.01)
    assert w.advance(1.0, most_steps=8) == 0.0
    assert w.time == pytest.approx(0.08)
    assert w.carried_time == 0.0


def test_a_2d_world_keeps_the_same_clock():
    w = rl.World2D(dt=0.004)
    assert sum(w.run(0.01) for _ in range(100)) == 250
    w.time_scale = 2.0
    assert w.advance(0.003) == pytest.approx(0.5)
    assert w.time == pytest.approx(1.004)


# ---------------------------------------------------------------------------------------------
# Speed caps


def test_a_capped_ball_falls_at_g_until_its_cap_then_at_the_cap():
    """Free fall from rest with max_speed = 2 m/s: y = y0 - g t^2 / 2 until t1 = v/g, then
    y0 - v^2/(2 g) - v (t - t1). The step in which the cap takes hold moves the ball by its
    uncapped velocity, so the bound is g dt^2."""
    g, cap, dt = 9.81, 2.0, 1 / 240
    w = rl.World(dt=dt)
    ball = w.add_sphere(0.1, position=(0, 100, 0), max_speed=cap)
    w.run(3.0)
    t1 = cap / g
    expected = 100 - cap**2 / (2 * g) - cap * (3.0 - t1)
    assert abs(ball.position[1] - expected) <= g * dt * dt
    assert np.linalg.norm(ball.velocity) == pytest.approx(cap, rel=1e-12)


def test_a_body_pushed_hard_never_exceeds_its_caps():
    w = rl.World(gravity=(0, 0, 0))
    box = w.add_box((0.1, 0.2, 0.3), max_speed=3.0, max_angular_speed=5.0)
    box.apply_force((400.0, 100.0, 0.0), point=(0.05, 0.2, 0.1), duration=10.0)
    box.apply_torque((0.0, 3.0, 2.0))
    for _ in range(300):
        w.step()
        assert np.linalg.norm(box.velocity) <= 3.0 * (1 + 1e-12)
        assert np.linalg.norm(box.angular_velocity) <= 5.0 * (1 + 1e-12)
    assert np.linalg.norm(box.velocity) == pytest.approx(3.0, rel=1e-9)


def test_a_cap_takes_energy_away_and_never_adds_it():
    """Two identical pendulum bobs on springs, one capped below the speed it would reach: the
    capped one's total energy only falls, and ends below the other's."""
    energies = []
    for cap in (None, 1.0):
        w = rl.World()
        bob = w.add_sphere(0.1, mass=1.0, position=(1.0, 0.0, 0.0), max_speed=cap)
        w.add_spring(bob, None, stiffness=50.0, rest_length=0.0)
        e = []
        for _ in range(480):
            w.step()
            e.append(w.energy()["total"])
        energies.append(np.array(e))
    free, capped = energies
    # Velocity Verlet's energy wobbles by about (omega dt)^2 / 8 of itself over a period and
    # comes back; the cap's losses never do.
    wobble = np.ptp(free)
    assert wobble < 0.5 * (math.sqrt(50.0) / 240) ** 2 * free[0]
    assert (capped <= np.maximum.accumulate(capped) + wobble).all()
    assert (np.diff(capped) <= wobble).all()
    assert capped[-1] < free[-1] - 1.0


def test_a_capped_body_at_rest_on_the_floor_is_unaffected():
    runs = []
    for cap in (None, 0.5):
        w = rl.World()
        w.add_plane()
        b = w.add_box((0.2, 0.1, 0.2), position=(0, 0.1, 0), max_speed=cap, max_angular_speed=cap)
        w.run(1.0)
        runs.append((b.position.tobytes(), b.orientation.tobytes(), b.velocity.tobytes()))
    assert runs[0] == runs[1]


def test_caps_are_kept_by_scene_files_and_can_be_lifted():
    w = rl.World()
    b = w.add_sphere(0.1, max_speed=2.5)
    b.max_angular_speed = 7.0
    back = rl.World.from_json(w.to_json())
    c = back.bodies[0]
    assert (c.max_speed, c.max_angular_speed) == (2.5, 7.0)
    c.max_speed = None
    assert back.bodies[0].max_speed is None
    assert "max_speed" not in rl.World.from_json(back.to_json()).to_json()


def test_a_2d_body_takes_caps_too():
    w = rl.World2D(gravity=(0, 0))
    disc = w.add_circle(0.1, max_angular_speed=2.0)
    disc.apply_torque(10.0)
    w.run(1.0)
    assert abs(disc.angular_velocity) == pytest.approx(2.0, rel=1e-12)


# ---------------------------------------------------------------------------------------------
# Bad input


@pytest.mark.parametrize("seconds", [-1.0, math.nan, math.inf, 1e12])
def test_bad_durations_are_refused_and_change_nothing(seconds):
    w = rl.World(dt=0.01)
    w.run(0.004)
    before = (w.time, w.carried_time)
    with pytest.raises(ValueError, match="seconds"):
        w.run(seconds)
    with pytest.raises(ValueError, match="real_seconds"):
        w.advance(seconds)
    assert (w.time, w.carried_time) == before


@pytest.mark.parametrize("scale", [0.0, -1.0, 1 / 65, 65.0, math.nan, math.inf])
def test_time_scales_outside_1_64th_to_64_are_refused(scale):
    w = rl.World()
    with pytest.raises(ValueError, match="time_scale"):
        w.time_scale = scale
    assert w.time_scale == 1.0


@pytest.mark.parametrize("name", ["max_speed", "max_angular_speed"])
@pytest.mark.parametrize("value", [-1.0, math.nan, "fast"])
def test_bad_caps_are_refused_and_change_nothing(name, value):
    w = rl.World()
    b = w.add_sphere(0.1, max_speed=1.0, max_angular_speed=2.0)
    error = TypeError if isinstance(value, str) else ValueError
    with pytest.raises(error, match=name):
        setattr(b, name, value)
    with pytest.raises(error, match=name):
        w.add_sphere(0.1, **{name: value})
    assert (b.max_speed, b.max_angular_speed, len(w)) == (1.0, 2.0, 1)


def test_most_steps_must_be_a_positive_whole_number():
    w = rl.World()
    with pytest.raises(ValueError, match="most_steps"):
        w.advance(0.1, most_steps=0)
    with pytest.raises(TypeError, match="most_steps"):
        w.advance(0.1, most_steps=2.5)
    assert w.time == 0.0
