"""rl.sweep: parameter sweeps and ensembles on Dask (a LocalCluster of worker processes here):
results against theory, bit-identical whatever runs them, a worker killed mid-sweep, failures
recorded or raised, and bad input."""

import os
import signal
import threading
import time

import numpy as np
import pandas as pd
import pytest
import rigidlab as rl
from distributed import Client, LocalCluster


@pytest.fixture(scope="module")
def client():
    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


def drop(e, h):
    """A ball of restitution e dropped from h (its lowest point) onto a floor."""
    w = rl.World()
    w.add_plane()
    w.add_sphere(0.05, position=(0, 0.05 + h, 0), restitution=e)
    return w


def first_apex(w, rec):
    """The height of the first bounce's apex: the highest point after the ball first rises."""
    v = rec.velocities[:, 1, 1]
    up = int(np.argmax(v > 0))
    return {"apex": rec.positions[up:, 1, 1].max() - 0.05, "impact": rec.time[up]}


def pendulum(nudge):
    w, _ = rl.experiments.double_pendulum(nudge=nudge)
    return w


def final_angle(w):
    x, y = w.positions[1, :2] - w.positions[0, :2]
    return np.arctan2(x, -y)


def test_a_grid_of_drops_bounces_to_e_squared(client):
    grid = {"e": [0.3, 0.6, 0.9], "h": [0.5, 1.0]}
    ds = rl.sweep(drop, grid, seconds=1.6, measure=first_apex, record=["positions", "velocities"],
                  client=client)  # fmt: skip
    assert ds.apex.dims == ("e", "h")
    np.testing.assert_array_equal(ds.e, [0.3, 0.6, 0.9])
    np.testing.assert_array_equal(ds.h, [0.5, 1.0])
    e, h = np.meshgrid(grid["e"], grid["h"], indexing="ij")
    # Apex h e^2, to the sampling of the recording (dt = 1/240 s at the top: g dt^2 / 8).
    np.testing.assert_allclose(ds.apex.values, h * e**2, atol=2e-4)
    # Free fall time sqrt(2 h / g), to one sample.
    np.testing.assert_allclose(ds.impact.values, np.sqrt(2 * h / 9.81), atol=1 / 240)
    assert ds.attrs["worlds"] == 6 and ds.attrs["seconds"] == 1.6


def test_a_list_or_a_frame_of_sets_gives_a_run_axis_with_the_parameters_along_it(client):
    sets = [{"e": 0.5, "h": 1.0}, {"e": 0.8, "h": 0.25}]
    for params in (sets, pd.DataFrame(sets)):
        ds = rl.sweep(drop, params, seconds=1.0, measure=lambda w: w.bodies[1].position[1],
                      client=client)  # fmt: skip
        assert ds.value.dims == ("run",)
        np.testing.assert_array_equal(ds.e, [0.5, 0.8])
        np.testing.assert_array_equal(ds.h, [1.0, 0.25])
        for i, p in enumerate(sets):
            w = drop(**p)
            w.run(1.0)
            assert ds.value.values[i] == w.bodies[1].position[1]


def test_results_are_bit_identical_on_one_worker_two_workers_and_step_many_alone(client):
    nudges = list(np.linspace(-1e-6, 1e-6, 24))
    two = rl.sweep(pendulum, {"nudge": nudges}, seconds=3.0, measure=final_angle, client=client)
    small = rl.sweep(pendulum, {"nudge": nudges}, seconds=3.0, measure=final_angle,
                     client=client, batch=5)  # fmt: skip
    with LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None) as cluster:
        with Client(cluster) as one_client:
            one = rl.sweep(pendulum, {"nudge": nudges}, seconds=3.0, measure=final_angle,
                           client=one_client)  # fmt: skip
    worlds = [pendulum(n) for n in nudges]
    rl.step_many(worlds, round(3.0 * 240))
    alone = np.array([final_angle(w) for w in worlds])
    np.testing.assert_array_equal(two.value.values, alone)
    np.testing.assert_array_equal(small.value.values, alone)
    np.testing.assert_array_equal(one.value.values, alone)
    # Chaos: in 3 s the ensemble spreads to many times its nudges.
    assert np.ptp(alone) > 10 * np.ptp(nudges)


def test_a_worker_killed_mid_sweep_loses_nothing(client):
    # 60 tasks of 8 pendulums 4 s each (a few seconds in all); one worker process is killed a
    # third of the way through (timed by the undisturbed run, so that it holds however fast
    # the machine and the engine are). Its tasks run again (on the other, or on the one its
    # nanny starts), and the result is that of an undisturbed run, bit for bit.
    nudges = list(np.linspace(0.0, 1e-3, 480))
    args = dict(seconds=4.0, measure=final_angle, client=client, batch=8)
    began = time.perf_counter()
    undisturbed = rl.sweep(pendulum, {"nudge": nudges}, **args)
    lasted = time.perf_counter() - began
    pids = client.run(os.getpid)
    outcome = {}

    def run():
        outcome["ds"] = rl.sweep(pendulum, {"nudge": nudges}, **args)

    thread = threading.Thread(target=run)
    thread.start()
    time.sleep(lasted / 3)
    assert thread.is_alive(), "the sweep ended before the worker was killed"
    victim = sorted(pids.values())[0]
    os.kill(victim, signal.SIGKILL)
    thread.join(timeout=300)
    assert not thread.is_alive()
    client.wait_for_workers(2, timeout=60)
    assert victim not in client.run(os.getpid).values()
    np.testing.assert_array_equal(outcome["ds"].value.values, undisturbed.value.values)


def test_a_failing_set_is_recorded_or_raised_and_names_the_set(client):
    def build(h):
        if h < 0:
            raise ValueError("no room below the floor")
        return drop(0.5, h)

    grid = {"h": [1.0, -1.0, 0.5]}
    ds = rl.sweep(build, grid, seconds=0.5, measure=lambda w: w.bodies[1].position[1],
                  client=client, errors="record")  # fmt: skip
    assert ds.error.values[0] == "" and ds.error.values[2] == ""
    assert "build failed for {'h': -1.0}" in ds.error.values[1]
    assert "no room below the floor" in ds.error.values[1]
    assert np.isnan(ds.value.values[1]) and np.all(np.isfinite(ds.value.values[[0, 2]]))
    with pytest.raises(rl.SweepError, match=r"build failed for \{'h': -1.0\}.*no room"):
        rl.sweep(build, grid, seconds=0.5, measure=lambda w: 0.0, client=client)

    def measure(w):
        if w.bodies[1].position[1] > 0.3:
            raise ZeroDivisionError("too high")
        return 1.0

    ds = rl.sweep(build, {"h": [0.2, 2.0]}, seconds=0.1, measure=measure, client=client,
                  errors="record")  # fmt: skip
    assert "measure failed for {'h': 2.0}: ZeroDivisionError: too high" == ds.error.values[1]


def test_without_a_measure_the_recording_or_the_final_state_comes_back(client):
    ds = rl.sweep(drop, {"e": [0.5], "h": [1.0, 2.0]}, seconds=0.5, client=client,
                  record={"quantities": ["positions"], "every": 12})  # fmt: skip
    assert ds.positions.dims == ("e", "h", "positions_dim_0", "positions_dim_1", "positions_dim_2")
    assert ds.positions.shape == (1, 2, 11, 2, 3)
    np.testing.assert_allclose(ds.time.values[0, 0], np.arange(11) * 12 / 240)
    final = rl.sweep(drop, {"e": [0.5], "h": [1.0]}, seconds=0.5, client=client)
    w = drop(0.5, 1.0)
    w.run(0.5)
    np.testing.assert_array_equal(final.positions.values[0, 0], w.positions)
    np.testing.assert_array_equal(final.velocities.values[0, 0], w.velocities)


def test_2d_worlds_and_a_tidy_frame(client):
    def build(v):
        w = rl.World2D(gravity=(0, 0))
        w.add_circle(0.1, velocity=(v, 0))
        return w

    frame = rl.sweep(build, {"v": [1.0, 2.0, 3.0]}, seconds=2.0, client=client, output="frame",
                     measure=lambda w: {"x": w.bodies[0].position[0]})  # fmt: skip
    assert list(frame.columns) == ["v", "x"]
    np.testing.assert_allclose(frame.x, 2.0 * frame.v, rtol=1e-12)


def test_the_embedded_cluster_starts_once_serves_later_sweeps_and_closes_on_demand():
    from rigidlab import sweeps

    def run():
        ds = rl.sweep(drop, {"e": [0.5], "h": [1.0]}, seconds=0.2,
                      measure=lambda w: w.bodies[1].position[1])  # fmt: skip
        assert ds.attrs["workers"] == (os.cpu_count() or 1)
        return sweeps._embedded.scheduler.address

    try:
        first = run()
        assert run() == first
        cluster = sweeps._embedded.cluster
        rl.close_cluster()
        assert sweeps._embedded is None and cluster.status.name == "closed"
        assert run() != first
    finally:
        rl.close_cluster()


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"params": {}}, ValueError, "params: an empty grid"),
        ({"params": {"e": []}}, ValueError, "params: 'e' has no values"),
        ({"params": []}, ValueError, "params: no parameter sets"),
        ({"params": {"e": 0.5}}, TypeError, "params: the values of 'e' must be a list"),
        ({"params": [0.5]}, TypeError, "params: set 0 must be a dict"),
        ({"params": "e=0.5"}, TypeError, "params"),
        ({"build": None}, TypeError, "build"),
        ({"measure": "apex"}, TypeError, "measure"),
        ({"seconds": -1.0}, ValueError, "seconds"),
        ({"seconds": float("nan")}, ValueError, "seconds"),
        ({"batch": 0}, ValueError, "batch"),
        ({"errors": "ignore"}, ValueError, "errors"),
        ({"output": "csv"}, ValueError, "output"),
        ({"record": ["pressure"]}, ValueError, "pressure"),
        ({"client": 8786}, TypeError, "client"),
    ],
)
def test_bad_input_is_refused_before_anything_runs(kwargs, error, words):
    args = {"build": drop, "params": {"e": [0.5], "h": [1.0]}, "seconds": 0.1}
    args.update(kwargs)
    build, params = args.pop("build"), args.pop("params")
    start = time.monotonic()
    with pytest.raises(error, match=words):
        rl.sweep(build, params, **args)
    # Refused before a cluster was started.
    assert time.monotonic() - start < 1.0


def test_a_build_without_a_world_or_a_measure_without_numbers_names_itself(client):
    with pytest.raises(TypeError, match=r"build: must return a rigidlab World .*got NoneType"):
        rl.sweep(lambda e: None, {"e": [1.0]}, seconds=0.1, client=client)
    with pytest.raises(TypeError, match=r"measure: must return numbers.*'value' is str"):
        rl.sweep(drop, {"e": [0.5], "h": [1.0]}, seconds=0.1, measure=lambda w: "high",
                 client=client)  # fmt: skip
    with pytest.raises(ValueError, match="measure: .* same names and shapes"):
        rl.sweep(drop, {"e": [0.5], "h": [1.0, 2.0]}, seconds=0.1, client=client, batch=1,
                 measure=lambda w: np.zeros(int(w.bodies[1].position[1] * 2)))  # fmt: skip


def test_an_unreachable_scheduler_is_named():
    with pytest.raises(
        OSError, match="client: cannot reach a Dask scheduler at 'tcp://127.0.0.1:9'"
    ):
        rl.sweep(drop, {"e": [0.5], "h": [1.0]}, seconds=0.1, client="tcp://127.0.0.1:9")


def springy(k):
    w = rl.World(gravity=(0, 0, 0))
    a = w.add_sphere(0.1)
    b = w.add_sphere(0.1, position=(1, 0, 0))
    w.add_spring(a, b, stiffness=k, rest_length=0.1)
    return w


def test_a_world_that_diverges_fails_alone_and_its_batch_mates_finish(client):
    # Too stiff a spring for the step: that world stops with a SimulationError; the others in
    # its batch end as they would alone.
    ds = rl.sweep(springy, {"k": [10.0, 1e9, 20.0]}, seconds=5.0, client=client, batch=3,
                  measure=lambda w: w.bodies[0].position[0], errors="record")  # fmt: skip
    assert ds.error.values[1].startswith("run failed for {'k': 1000000000.0}: SimulationError")
    assert np.isnan(ds.value.values[1])
    for i, k in ((0, 10.0), (2, 20.0)):
        w = springy(k)
        w.run(5.0)
        assert ds.error.values[i] == "" and ds.value.values[i] == w.bodies[0].position[0]


def test_parameters_that_are_vectors_become_coordinates_of_tuples(client):
    def build(start):
        w = rl.World(gravity=(0, 0, 0))
        w.add_sphere(0.1, position=start, velocity=(1, 0, 0))
        return w

    starts = [(0.0, 1.0, 0.0), np.array([0.0, 2.0, 0.5])]
    for params in ({"start": starts}, [{"start": s} for s in starts]):
        ds = rl.sweep(build, params, seconds=1.0, client=client,
                      measure=lambda w: w.bodies[0].position)  # fmt: skip
        assert list(ds.start.values) == [(0.0, 1.0, 0.0), (0.0, 2.0, 0.5)]
        np.testing.assert_allclose(ds.value.values, [[1.0, 1.0, 0.0], [1.0, 2.0, 0.5]])


def test_a_progress_bar_counts_the_worlds(client, capsys):
    rl.sweep(drop, {"e": [0.5, 0.6, 0.7], "h": [1.0]}, seconds=0.1, client=client, batch=1,
             measure=lambda w: 0.0, progress=True)  # fmt: skip
    assert "3/3" in capsys.readouterr().err
