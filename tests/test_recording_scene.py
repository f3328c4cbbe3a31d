"""Recording inside the engine, snapshots, scene files and pickling: bit-exact round trips,
determinism, and clear errors for bad files. Also the 2D sandbox simulator's experiment 4 as a preset."""

import json
import math
import pickle

import numpy as np
import pytest
import rigidlab as rl
from rigidlab import presets


def busy_world():
    """Contacts, a spring, a hinge with limits and motor, a rope, a pair override and a load
    that lasts until removed: everything a step reads."""
    w = rl.World(integrator="verlet")
    w.add_plane(friction=0.6)
    boxes = [
        w.add_box(
            (0.2, 0.1, 0.15),
            position=(0.05 * i, 0.11 + 0.21 * i, 0),
            orientation=(0, 0.05 * i, 0, 1),
            restitution=0.3,
        )
        for i in range(5)
    ]
    hull = w.add_convex(
        [(0, 0, 0), (0.3, 0, 0), (0, 0.3, 0), (0, 0, 0.3), (0.2, 0.2, 0.2)], position=(1.5, 0.5, 0)
    )
    ball = w.add_sphere(0.1, position=(2, 3, 0))
    w.add_spring(ball, None, stiffness=50, damping=0.5, anchor_b=(2, 4, 0))
    door = w.add_box((0.1, 0.1, 0.1), position=(-2, 2, 0))
    w.add_hinge_joint(
        door, None, anchor=(-2, 2.5, 0), axis=(0, 0, 1), limits=(-1, 1), motor=(1, 0.5)
    )
    bob = w.add_capsule(0.05, 0.1, position=(-3, 1, 0))
    w.add_rope_joint(bob, None, anchor_b=(-3, 2, 0))
    w.set_pair(boxes[0], boxes[1], restitution=0.9)
    boxes[1].apply_force((3, 0, 0), duration=math.inf)
    hull.apply_torque((0, 0.1, 0), duration=2.0)
    return w


def state(w):
    return w.positions, w.orientations, w.velocities, w.angular_velocities


def same(a, b):
    return all(np.array_equal(x, y) for x, y in zip(a, b))


@pytest.fixture(scope="module")
def reference():
    w = busy_world()
    w.step(300)
    snap, text = w.snapshot(), w.to_json()
    w.step(500)
    return w, snap, text, state(w)


def test_same_script_twice_is_bit_identical(reference):
    w2 = busy_world()
    w2.step(800)
    assert same(state(w2), reference[3])


def test_snapshot_restore_repeats_bit_for_bit(reference):
    w, snap, _, after = reference
    w.restore(snap)
    assert w.time == pytest.approx(300 * w.dt)
    w.step(500)
    assert same(state(w), after)


def test_restore_brings_back_removed_and_drops_added_bodies():
    w = busy_world()
    w.step(10)
    snap = w.snapshot()
    gone = w.bodies[2]
    w.remove(gone)
    new = w.add_sphere(0.1, position=(5, 5, 5))
    w.restore(snap)
    assert gone.alive and not new.alive
    with pytest.raises(rl.RemovedBodyError):
        new.position
    # The slot the new body used may be reused; the stale handle still refuses.
    newer = w.add_sphere(0.1)
    assert newer.alive and not new.alive


def test_restore_refuses_other_worlds_snapshots():
    w1, w2 = rl.World(), rl.World()
    with pytest.raises(ValueError, match="snapshot"):
        w2.restore(w1.snapshot())
    with pytest.raises(TypeError, match="snapshot"):
        w2.restore("not a snapshot")


def test_json_round_trip_continues_exactly(reference, tmp_path):
    _, _, text, after = reference
    w = rl.World.from_json(text)
    w.step(500)
    assert same(state(w), after)
    path = tmp_path / "scene.json"
    rl.World.from_json(text).save(path)
    w3 = rl.World.load(str(path))
    assert w3.to_json() == text
    w3.step(500)
    assert same(state(w3), after)


def test_saved_file_is_versioned_and_readable(reference):
    doc = json.loads(reference[2])
    assert doc["format"] == "rigidlab-scene" and doc["version"] == 1
    kinds = [b["shape"]["type"] for b in doc["bodies"]]
    assert kinds[:2] == ["plane", "box"] and "convex" in kinds and "capsule" in kinds
    assert {j["kind"]["type"] for j in doc["joints"]} == {"hinge", "rope"}
    assert doc["springs"][0]["stiffness"] == 50
    assert doc["contacts"], "the contact cache is saved"


def test_pickle_continues_exactly():
    w = busy_world()
    w.step(300)
    w2 = pickle.loads(pickle.dumps(w))
    w.step(200)
    w2.step(200)
    assert same(state(w), state(w2))


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: d.update(version=2), "version 2, newer"),
        (lambda d: d.update(format="other"), "format"),
        (lambda d: d.pop("bodies"), "missing field `bodies`"),
        (
            lambda d: d["bodies"][1]["shape"].update(half_extents=[-1, 1, 1]),
            r"bodies\[1\].shape: half_extents",
        ),
        (lambda d: d["bodies"][1].update(mass=-2.0), r"bodies\[1\]: mass"),
        (lambda d: d["bodies"][1].update(kind="floating"), r"bodies\[1\]: kind"),
        (lambda d: d["springs"][0].update(a=999), r"springs\[0\]\.a: body id"),
        (lambda d: d["joints"][0].update(b=12345), r"joints\[0\]\.b: body id"),
        (lambda d: d["settings"].update(dt=0.0), "settings: dt"),
        (lambda d: d["settings"].update(integrator="leapfrog"), "integrator"),
        (lambda d: d["bodies"][1].update(position=[0, "x", 0]), "invalid type"),
        (
            lambda d: d["bodies"][6]["shape"]["hull"]["faces"][0]["vertices"].append(99),
            "vertex index",
        ),
        (lambda d: d["bodies"][1].update(id=0), r"bodies\[1\]: id"),
        (
            lambda d: d["bodies"][1].update(rest_speed=-1e-4),
            r"body 1: rest_speed: must not be negative \(got -0.0001\)",
        ),
        (lambda d: d["bodies"][1].update(rested=-0.5), r"body 1: rested: must not be negative"),
    ],
)
def test_corrupt_files_give_clear_errors(reference, edit, message):
    doc = json.loads(reference[2])
    edit(doc)
    with pytest.raises(ValueError, match=message):
        rl.World.from_json(json.dumps(doc))


def test_unreadable_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ValueError, match="bad.json.*not valid JSON"):
        rl.World.load(bad)
    with pytest.raises(OSError, match="path"):
        rl.World.load(tmp_path / "missing.json")


# ---------------------------------------------------------------------------------------------
# recording


def test_recording_shapes_and_values():
    w = rl.World()
    w.add_plane()
    for i in range(3):
        w.add_sphere(0.1, position=(i, 1.0 + i, 0))
    rec = w.record(every=4)
    w.step(40)
    assert len(rec) == 11
    assert rec.time == pytest.approx(np.arange(11) * 4 * w.dt)
    assert rec.positions.shape == (11, 4, 3) and rec.orientations.shape == (11, 4, 4)
    assert rec.velocities.shape == rec.angular_velocities.shape == (11, 4, 3)
    assert np.array_equal(rec.positions[-1], w.positions)
    assert np.array_equal(rec.velocities[-1], w.velocities)
    e = w.energy()
    assert {k: v[-1] for k, v in rec.energy.items()} == e
    assert rec.momentum.shape == rec.angular_momentum.shape == (11, 3)
    assert np.array_equal(rec.momentum[-1], w.momentum())
    assert rec.contacts.shape == (11,)
    assert list(rec.body_ids) == [b.id for b in w.bodies]
    # Free fall in the samples: y = y0 - g t^2 / 2 (Verlet is exact).
    assert rec.positions[:, 1, 1] == pytest.approx(1.0 - 0.5 * 9.81 * rec.time**2, abs=1e-12)


def test_recording_keeps_only_what_was_asked_and_stops():
    w = rl.World()
    w.add_sphere(0.1)
    rec = w.record(quantities=["positions", "energy"])
    w.step(10)
    assert rec.quantities == ["positions", "energy"]
    with pytest.raises(ValueError, match="velocities: not recorded"):
        rec.velocities
    rec.stop()
    w.step(10)
    assert len(rec) == 11 and not rec.active
    d = rec.to_dict()
    assert set(d) == {"time", "body_ids", "positions", "energy"}


def test_removed_body_reads_nan_in_recording():
    w = rl.World()
    a, _b = w.add_sphere(0.1), w.add_sphere(0.1, position=(1, 0, 0))
    rec = w.record()
    w.step(2)
    w.remove(a)
    w.step(2)
    assert np.isnan(rec.positions[-1, 0]).all() and not np.isnan(rec.positions[-1, 1]).any()


def test_recording_bad_arguments():
    w = rl.World()
    with pytest.raises(ValueError, match="every"):
        w.record(every=0)
    with pytest.raises(ValueError, match="quantities: unknown quantity 'speed'"):
        w.record(quantities=["speed"])
    with pytest.raises(TypeError, match="quantities"):
        w.record(quantities="positions")


def test_recording_to_dataframe():
    pd = pytest.importorskip("pandas")
    w = rl.World()
    b = w.add_sphere(0.1, name="ball")
    rec = w.record(every=2)
    w.step(10)
    df = rec.to_dataframe()
    assert isinstance(df, pd.DataFrame) and len(df) == 6
    assert np.array_equal(df[f"y[{b.id}]"].to_numpy(), rec.positions[:, 0, 1])
    assert np.array_equal(df["energy_total"].to_numpy(), rec.energy["total"])


def test_recording_to_long_dataframe_has_a_row_per_sample_and_body():
    pd = pytest.importorskip("pandas")
    w = rl.World()
    w.add_plane(name="floor")
    ball = w.add_sphere(0.1, position=(0, 1, 0), name="ball")
    box = w.add_box((0.1, 0.1, 0.1), position=(1, 1, 0))
    rec = w.record(every=3)
    w.step(30)
    w.remove(box)  # rows of the long frame are by id: a removal shifts nothing
    w.step(6)
    df = rec.to_dataframe(long=True)
    t = len(rec)
    assert len(df) == 3 * t
    assert list(df.columns[:3]) == ["time", "body_id", "body"]
    assert {"x", "y", "z", "qx", "qw", "vx", "wz"} <= set(df.columns)
    balls = df[df["body"] == "ball"]
    assert (balls["body_id"] == ball.id).all() and len(balls) == t
    np.testing.assert_array_equal(balls["time"].to_numpy(), rec.time)
    np.testing.assert_array_equal(balls["y"].to_numpy(), rec.positions[:, 1, 1])
    np.testing.assert_array_equal(balls["vy"].to_numpy(), rec.velocities[:, 1, 1])
    unnamed = df[df["body_id"] == box.id]
    assert (unnamed["body"] == f"body {box.id}").all()
    assert np.isnan(unnamed["x"].to_numpy()[-1])  # removed: NaN, as in the arrays
    # The tidy frame groups as pandas users expect.
    top = df.groupby("body", observed=True)["y"].max()
    assert top["ball"] == pytest.approx(1.0)
    assert isinstance(df, pd.DataFrame)


def test_2d_recording_frames_use_2d_columns():
    pytest.importorskip("pandas")
    w = rl.World2D()
    disc = w.add_circle(0.1, position=(0, 1), angular_velocity=2.0, name="disc")
    rec = w.record()
    w.step(5)
    long = rec.to_dataframe(long=True)
    assert list(long.columns) == ["time", "body_id", "body", "x", "y", "angle", "vx", "vy", "w"]
    np.testing.assert_array_equal(long["angle"].to_numpy(), rec.angles[:, 0])
    np.testing.assert_array_equal(long["w"].to_numpy(), rec.angular_velocities[:, 0])
    wide = rec.to_dataframe()
    assert {f"x[{disc.id}]", f"angle[{disc.id}]", "momentum_y", "angular_momentum"} <= set(
        wide.columns
    )
    assert "z[0]" not in wide.columns


def test_long_recording_runs_inside_the_engine():
    """10 000 steps of 100 bodies: one call, every sample kept."""
    w = rl.World(gravity=(0, 0, 0))
    for i in range(100):
        w.add_sphere(0.1, position=(i, 0, 0), velocity=(0, 1, 0))
    rec = w.record(every=1, quantities=["positions", "velocities", "energy"])
    w.step(10_000)
    assert rec.positions.shape == (10_001, 100, 3)
    assert rec.positions[-1, :, 1] == pytest.approx(10_000 * w.dt, rel=1e-12)


# ---------------------------------------------------------------------------------------------
# the 2D sandbox simulator, experiment 4


def test_spring_weights_damped_rest_undamped_keep_amplitude():
    w, bodies = presets.spring_weights()
    single, damped, shared, *carriers, plank = bodies
    assert all(b.mass == 3.0 for b in bodies[:-1])
    rec = w.record(every=1, quantities=["positions", "velocities", "energy"])
    w.run(30.0)
    y = rec.positions[:, :, 1]
    v = rec.velocities
    n = len(rec.time)
    last = slice(n - int(2.0 / w.dt), n)
    # Damped weights and the plank come to rest.
    for i in (1, 3, 4, 5, 6):
        assert np.max(np.abs(v[last, i])) < 1e-3, bodies[i].name
    # Undamped weights oscillate about their equilibrium with the amplitude they started with.
    for i, _eq_shift in ((0, 0.15), (2, 0.15)):
        swing = y[last, i].max() - y[last, i].min()
        assert swing == pytest.approx(2 * 0.15, rel=1e-2), bodies[i].name
    # The single undamped weight's period is 2 pi sqrt(m / k); the shared one's 2 pi sqrt(m / 2k).
    t = rec.time
    for i, k in ((0, 150.0), (2, 300.0)):
        x = y[:, i] - y[:, i].mean()
        up = np.where((x[:-1] < 0) & (x[1:] >= 0))[0]
        assert np.mean(np.diff(t[up])) == pytest.approx(2 * math.pi * math.sqrt(3.0 / k), rel=2e-3)
    # The carriers settle where the springs hold weight and a third of the plank each.
    sag = (3.0 + 1.0) * 9.81 / 150.0
    for c in carriers:
        assert c.position[1] + 0.1 == pytest.approx(2.0 - 1.0 - sag, abs=2e-3)


def test_pendulum_preset():
    w, (bob,) = presets.pendulum(10.0, 0.5)
    assert np.linalg.norm(bob.position) == pytest.approx(0.5)
    w.run(1.0)
    assert np.linalg.norm(bob.position) == pytest.approx(0.5, abs=1e-12)
