"""rl.step_many: many independent worlds stepped in parallel, each exactly as if alone."""

import os

import numpy as np
import pytest
import rigidlab as rl


def bouncing_ball(height: float, e: float) -> rl.World:
    w = rl.World()
    w.add_plane()
    w.add_sphere(0.1, mass=1.0, position=(0, height, 0), restitution=e)
    return w


def pendulum(angle: float) -> rl.World:
    """A 1 m pendulum on a distance joint, let go at `angle` (rad) from the vertical."""
    w = rl.World()
    bob = w.add_sphere(0.05, mass=1.0, position=(np.sin(angle), 1 - np.cos(angle), 0))
    w.add_distance_joint(bob, None, anchor_b=(0, 1, 0))
    return w


def state(w: rl.World) -> np.ndarray:
    return np.hstack([w.positions, w.orientations, w.velocities, w.angular_velocities])


def worlds(n: int) -> list:
    """Bouncing balls and pendulums, each a little different."""
    return [
        bouncing_ball(0.5 + 0.01 * k, 0.3 + 0.6 * k / n) if k % 2 else pendulum(0.2 + 0.02 * k)
        for k in range(n)
    ]


@pytest.mark.parametrize("threads", [None, 1, 2, 3])
def test_each_world_steps_exactly_as_alone(threads):
    alone = worlds(40)
    for w in alone:
        w.step(300)
    batch = worlds(40)
    rl.step_many(batch, 300, threads=threads)
    for a, b in zip(alone, batch):
        assert np.array_equal(state(a), state(b))
        assert a.time == b.time


def test_bounce_heights_in_a_batch_follow_e_squared():
    # Each ball dropped from 1 m with its own restitution reaches e^2 m after the first bounce.
    es = np.linspace(0.3, 0.9, 16)
    batch = [bouncing_ball(1.0 + 0.1, e) for e in es]  # centre 1 m above contact height
    rec = [w.record(every=1, quantities=["positions"]) for w in batch]
    rl.step_many(batch, 480)
    for e, r in zip(es, rec):
        y = r.positions[:, 1, 1] - 0.1
        bounce = int(np.argmax(np.diff(y) > 0))  # first sample moving up
        after = y[bounce:]
        apex = after[: int(np.argmax(np.diff(after) < 0)) + 1].max()  # up to the first turn down
        assert abs(apex - e**2) < 2e-3 * e**2 + 1e-4


def test_small_pendulums_in_a_batch_swing_with_the_textbook_period():
    # Released at rest from 0.05 rad: the bob first passes the far turning point (x minimal)
    # half a period later; T = 2 pi sqrt(L / g) (1 + theta^2 / 16).
    batch = [pendulum(0.05) for _ in range(16)]
    rec = [w.record(every=1, quantities=["positions"]) for w in batch]
    rl.step_many(batch, 360)
    expected = 2 * np.pi * np.sqrt(1.0 / 9.81) * (1 + 0.05**2 / 16)
    for r in rec:
        x = r.positions[:, 0, 0]
        k = int(np.argmin(x))
        # The turning point from a parabola through the three samples around the minimum.
        y0, y1, y2 = x[k - 1 : k + 2]
        shift = 0.5 * (y0 - y2) / (y0 - 2 * y1 + y2)
        half = r.time[k] + shift * (r.time[1] - r.time[0])
        assert abs(2 * half - expected) < 1e-3 * expected


def test_zero_steps_and_empty_lists_do_nothing():
    w = bouncing_ball(1.0, 0.5)
    before = state(w)
    rl.step_many([w], 0)
    rl.step_many([], 10)
    assert np.array_equal(state(w), before) and w.time == 0.0


@pytest.mark.parametrize(
    "args, kwargs, error, words",
    [
        ((None, 1), {}, TypeError, "worlds"),
        (([1], 1), {}, TypeError, "worlds[0]"),
        (("dup", 1), {}, ValueError, "worlds[1]"),
        (("ok", -1), {}, ValueError, "steps"),
        (("ok", 1.5), {}, TypeError, "steps"),
        (("ok", 1), {"threads": 0}, ValueError, "threads"),
        (("ok", 1), {"threads": "two"}, TypeError, "threads"),
    ],
)
def test_bad_input_names_the_parameter_and_leaves_worlds_unchanged(args, kwargs, error, words):
    a, b = bouncing_ball(1.0, 0.5), bouncing_ball(2.0, 0.5)
    before = (state(a), state(b))
    first = (
        {"dup": [a, a], "ok": [a, b]}.get(args[0], args[0]) if isinstance(args[0], str) else args[0]
    )
    with pytest.raises(error, match=words.replace("[", r"\[").replace("]", r"\]")):
        rl.step_many(first, *args[1:], **kwargs)
    assert np.array_equal(state(a), before[0]) and np.array_equal(state(b), before[1])
    assert a.time == 0.0 and b.time == 0.0


def test_step_many_reuses_its_threads_across_calls():
    # A pool per call would start (and leak) threads on every call of a sweep's loop.
    worlds = [rl.World() for _ in range(6)]
    for w in worlds:
        w.add_sphere(0.1)
    tasks = lambda: len(os.listdir("/proc/self/task"))  # noqa: E731
    rl.step_many(worlds, 2, threads=3)
    before = tasks()
    for _ in range(20):
        rl.step_many(worlds, 2, threads=3)
    assert tasks() == before
