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


# ---------------------------------------------------------------------------------------------
# Running backwards: step(-n)


def _state(w):
    return np.concatenate(
        [w.positions.ravel(), w.orientations.ravel(), w.velocities.ravel()]
        + [w.angular_velocities.ravel()]
    )


def _reversible_scene(integrator):
    """A bob on a spring to a fixed point, a pendulum made of a spring swinging under gravity,
    and a box tumbling about an axis near its unstable middle one while it flies."""
    w = rl.World(integrator=integrator)
    bob = w.add_sphere(0.1, mass=1.0, position=(0.3, -1.0, 0.2), velocity=(0.5, 0, -0.2))
    w.add_spring(bob, None, stiffness=40.0, rest_length=0.5)
    swing = w.add_sphere(0.1, mass=0.5, position=(10.8, -1.0, 0.0))
    w.add_spring(swing, None, stiffness=200.0, rest_length=1.0, anchor_b=(10.0, 0.0, 0.0))
    w.add_box(
        (0.1, 0.2, 0.3), position=(20, 0, 0), velocity=(0, 2, 0), angular_velocity=(0.1, 4.0, 0.2)
    )
    return w


@pytest.mark.parametrize("integrator", ["verlet", "symplectic_euler"])
def test_ten_thousand_steps_back_undo_ten_thousand_forward(integrator):
    w = _reversible_scene(integrator)
    start = _state(w)
    w.step(10000)
    moved = _state(w)
    assert np.abs(moved - start).max() > 1.0
    w.step(-10000)
    assert w.time == 0.0
    scale = np.maximum(np.abs(start), 1.0)
    assert (np.abs(_state(w) - start) / scale).max() < 1e-9


def test_a_2d_world_steps_back_too():
    w = rl.World2D(integrator="verlet")
    disc = w.add_circle(0.1, position=(1.0, 0.0), angular_velocity=5.0)
    w.add_spring(disc, None, stiffness=30.0, rest_length=0.2)
    start = (disc.position.copy(), disc.angle, disc.velocity.copy())
    w.step(2000)
    w.step(-2000)
    assert np.abs(disc.position - start[0]).max() < 1e-9
    assert disc.angle == pytest.approx(start[1], abs=1e-9)


@pytest.mark.parametrize("integrator", ["euler", "rk4"])
def test_integrators_that_are_not_symmetric_in_time_refuse_to_step_back(integrator):
    w = rl.World(integrator=integrator)
    w.add_sphere(0.1)
    w.step(5)
    before = _state(w)
    with pytest.raises(ValueError, match="not symmetric in time.*verlet"):
        w.step(-1)
    assert (_state(w) == before).all() and w.time == pytest.approx(5 * w.dt)


def _irreversible_worlds():
    def contact():
        w = rl.World()
        w.add_plane()
        w.add_sphere(0.1, position=(0, 0.1, 0))
        return w, "contact"

    def joint():
        w = rl.World()
        w.add_distance_joint(w.add_sphere(0.1, position=(1, 0, 0)), None)
        return w, "joints"

    def damped_spring():
        w = rl.World()
        w.add_spring(w.add_sphere(0.1), None, stiffness=10.0, damping=0.1)
        return w, "damped"

    def drag():
        w = rl.World()
        w.add_sphere(0.1, quadratic_drag=0.1)
        return w, "damped"

    def load():
        w = rl.World()
        w.add_sphere(0.1).apply_force((1, 0, 0), duration=10.0)
        return w, "loads"

    def cap():
        w = rl.World()
        w.add_sphere(0.1, max_speed=1.0)
        return w, "speed cap"

    return [contact, joint, damped_spring, drag, load, cap]


@pytest.mark.parametrize("build", _irreversible_worlds(), ids=lambda f: f.__name__)
def test_worlds_where_something_irreversible_acts_refuse_and_say_why(build):
    w, why = build()
    w.step(10)
    before = _state(w)
    with pytest.raises(ValueError, match=f"{why}.*history"):
        w.step(-3)
    assert (_state(w) == before).all()


def test_a_world_cannot_step_back_past_its_start():
    w = rl.World()
    w.add_sphere(0.1)
    w.step(3)
    with pytest.raises(ValueError, match="3 steps"):
        w.step(-4)
    assert w.time == pytest.approx(3 * w.dt)


# ---------------------------------------------------------------------------------------------
# Rewinding through a history


def _busy_world(history=2.0):
    """Balls and a tumbling box bouncing on a floor with friction, the balls left rolling and
    the box falling asleep."""
    w = rl.World(history=history)
    w.add_plane(friction=0.6)
    for i in range(6):
        w.add_sphere(0.1, position=(0.07 * i, 0.3 + 0.22 * i, 0.01 * i), restitution=0.5)
    w.add_box((0.1, 0.05, 0.08), position=(0.2, 1.8, 0), angular_velocity=(1, 2, 3))
    return w


def test_rewind_lands_bit_for_bit_on_an_earlier_state_through_contacts_and_sleep():
    w = _busy_world(history=5.0)
    w.run(0.7)
    then = (_state(w), w.time, w.energy()["total"])
    w.run(3.3)  # bounces, friction, rolling, and the box falls asleep
    assert any(b.sleeping for b in w.bodies)
    w.rewind(3.3)
    assert w.time == then[1]
    assert (_state(w) == then[0]).all()
    # And it goes on as it did.
    again = rl.World(history=None)
    assert again.history is None
    w2 = _busy_world(history=None)
    w2.run(0.7)
    w.run(0.5)
    w2.run(0.5)
    assert (_state(w) == _state(w2)).all()


def test_rewind_replays_with_contact_callbacks_and_edits():
    w = _busy_world()
    seen = []

    def decide(a, b, contact):
        seen.append((a.id, b.id))
        return True

    w.on_contact(decide)
    w.run(0.3)
    w.bodies[2].apply_impulse((0.5, 0, 0))  # an edit between steps is kept in the history
    w.run(0.4)
    target = _state(w)
    w.run(0.6)
    calls = len(seen)
    w.rewind(0.6)
    assert (_state(w) == target).all()
    assert len(seen) >= calls  # the replayed steps asked again


def test_rewind_refuses_what_it_cannot_do_and_changes_nothing():
    w = _busy_world(history=0.5)
    w.run(1.0)
    before = (_state(w), w.time)
    with pytest.raises(ValueError, match="reaches back"):
        w.rewind(0.9)
    for bad in (-0.1, math.nan, math.inf):
        with pytest.raises(ValueError, match="seconds"):
            w.rewind(bad)
    assert (_state(w) == before[0]).all() and w.time == before[1]
    plain = rl.World()
    with pytest.raises(ValueError, match="no history"):
        plain.rewind(0.1)
    for bad in (0.0, -1.0, math.nan):
        with pytest.raises(ValueError, match="history"):
            rl.World(history=bad)
        with pytest.raises(ValueError, match="history"):
            w.history = bad
    assert w.history == 0.5


def test_the_history_memory_stays_bounded():
    """A history of 0.5 s keeps about 0.5 / 0.05 + 1 snapshots however long the world runs."""
    w = _busy_world(history=0.5)
    w.run(5.0)
    w.rewind(0.5)
    with pytest.raises(ValueError, match="reaches back"):
        w.rewind(0.2)


def test_an_infinite_cap_is_no_cap():
    """max_speed = inf caps nothing: the ball falls as an uncapped one, and the world can
    still step back."""
    runs = []
    for cap in (None, math.inf):
        w = rl.World()
        b = w.add_sphere(0.1, position=(0, 5, 0), max_speed=cap, max_angular_speed=cap)
        w.step(100)
        runs.append(b.position.tobytes())
        w.step(-100)
        assert b.position[1] == pytest.approx(5.0, abs=1e-12)
    assert runs[0] == runs[1]
