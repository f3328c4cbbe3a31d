"""Every handle pickles, and a recording travels as data: pickles between processes and .npz
files that numpy reads, checked on the way back in."""

import concurrent.futures
import pickle
import zipfile

import numpy as np
import pytest
import rigidlab as rl


def scene():
    w = rl.World()
    w.add_plane(name="floor")
    ball = w.add_sphere(0.1, position=(0, 1, 0), restitution=0.8, name="ball")
    box = w.add_box((0.1, 0.1, 0.1), position=(1, 1, 0))
    spring = w.add_spring(ball, box, stiffness=50.0, damping=0.1)
    joint = w.add_distance_joint(ball, box)
    load = box.apply_force((0.5, 0, 0), duration=2.0)
    return w, ball, box, spring, joint, load


def test_handles_pickled_with_their_world_come_back_into_it():
    w, ball, box, spring, joint, load = scene()
    w.run(0.25)
    w2, ball2, box2, spring2, joint2, load2 = pickle.loads(
        pickle.dumps((w, ball, box, spring, joint, load))
    )
    assert ball2.world is w2 and spring2.body_a == ball2 and joint2.body_b == box2
    assert w2["ball"] == ball2
    assert spring2.length == spring.length and joint2.length == joint.length
    assert load2.active
    # The copies drive the unpickled world: it goes on bit for bit as the original does.
    w.run(0.5)
    w2.run(0.5)
    np.testing.assert_array_equal(w2.positions, w.positions)
    spring2.remove()
    assert not spring2.alive and spring.alive


def test_a_body_pickled_alone_brings_its_world():
    w, ball, *_ = scene()
    back = pickle.loads(pickle.dumps(ball))
    assert back.world is not w and len(back.world) == len(w)
    np.testing.assert_array_equal(back.position, ball.position)
    back.velocity = (1, 0, 0)
    np.testing.assert_array_equal(ball.velocity, [0, 0, 0])


def test_a_removed_body_pickles_as_removed():
    w, _, box, *_ = scene()
    w.remove(box)
    back = pickle.loads(pickle.dumps(box))
    with pytest.raises(rl.RemovedBodyError):
        back.position


def test_a_snapshot_restores_into_the_unpickled_world_bit_for_bit():
    w, *_ = scene()
    w.run(0.2)
    snap = w.snapshot()
    w.run(0.3)
    w2, snap2 = pickle.loads(pickle.dumps((w, snap)))
    assert snap2.time == snap.time
    w.restore(snap)
    w2.restore(snap2)
    w.run(0.4)
    w2.run(0.4)
    np.testing.assert_array_equal(w2.positions, w.positions)
    np.testing.assert_array_equal(w2.velocities, w.velocities)
    with pytest.raises(ValueError, match="another World"):
        w.restore(snap2)


def test_2d_handles_pickle_with_their_world():
    w = rl.World2D()
    w.add_ground()
    disc = w.add_circle(0.1, position=(0, 1), name="disc")
    rec = w.record()
    w.run(0.2)
    w2, disc2, rec2 = pickle.loads(pickle.dumps((w, disc, rec)))
    assert isinstance(w2, rl.World2D) and isinstance(disc2, rl.Body2D)
    assert w2["disc"] == disc2
    disc2.velocity = (3, 0)
    np.testing.assert_array_equal(w2.velocities[disc2.index], [3, 0])
    assert isinstance(rec2, rl.Recording2D)
    np.testing.assert_array_equal(rec2.positions, rec.positions)
    np.testing.assert_array_equal(rec2.angles, rec.angles)


def record_a_drop(height):
    w = rl.World()
    w.add_plane()
    w.add_sphere(0.1, position=(0, height, 0), restitution=0.5)
    rec = w.record(every=4)
    w.run(1.0)
    return rec


def test_a_recording_comes_back_from_a_process_pool():
    with concurrent.futures.ProcessPoolExecutor(max_workers=2) as pool:
        recs = list(pool.map(record_a_drop, [1.0, 2.0]))
    for height, rec in zip([1.0, 2.0], recs):
        here = record_a_drop(height)
        assert not rec.active and rec.every == 4
        np.testing.assert_array_equal(rec.time, here.time)
        np.testing.assert_array_equal(rec.positions, here.positions)
        np.testing.assert_array_equal(rec.energy["total"], here.energy["total"])


def test_npz_round_trip_is_exact_and_numpy_reads_it(tmp_path):
    w, *_ = scene()
    rec = w.record(every=2, quantities=["positions", "orientations", "energy", "contacts"])
    w.run(0.5)
    path = tmp_path / "drop.npz"
    rec.save_npz(path)
    back = rl.Recording.load(path)
    assert back.quantities == rec.quantities and back.every == 2 and len(back) == len(rec)
    np.testing.assert_array_equal(back.body_ids, rec.body_ids)
    for name in ("time", "positions", "orientations", "contacts"):
        np.testing.assert_array_equal(getattr(back, name), getattr(rec, name))
    for term, values in rec.energy.items():
        np.testing.assert_array_equal(back.energy[term], values)
    with pytest.raises(ValueError, match="velocities: not recorded"):
        back.velocities
    # A plain numpy user reads the same numbers without rigidlab.
    with np.load(path) as f:
        np.testing.assert_array_equal(f["positions"], rec.positions)
        assert f["energy"].shape == (len(rec), 6)
    # The loaded recording replays in the viewer as the original does.
    back.save(tmp_path / "replay.jsonl")
    rec.save(tmp_path / "original.jsonl")
    original = (tmp_path / "original.jsonl").read_text().splitlines()
    assert (tmp_path / "replay.jsonl").read_text().splitlines()[1:] == original[1:]


def test_2d_recordings_load_as_2d(tmp_path):
    w = rl.World2D()
    w.add_circle(0.1, position=(0, 1))
    rec = w.record()
    w.run(0.1)
    rec.save_npz(tmp_path / "r.npz")
    back = rl.Recording2D.load(tmp_path / "r.npz")
    np.testing.assert_array_equal(back.positions, rec.positions)
    record_a_drop(1.0).save_npz(tmp_path / "r3.npz")
    with pytest.raises(ValueError, match="3D world"):
        rl.Recording2D.load(tmp_path / "r3.npz")


def rewrite(src, dst, change):
    with np.load(src) as f:
        arrays = {k: f[k] for k in f.files}
    change(arrays)
    np.savez(dst, **arrays)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda a: a.pop("positions"), "positions: missing"),
        (lambda a: a.update(positions=a["positions"][:, :1]), r"positions: expected shape"),
        (lambda a: a.update(time=a["time"][:-1]), "expected shape"),
        (lambda a: a.update(header=np.array("{}")), "header: not a recording header"),
        (lambda a: a.update(header=np.array(3.0)), "header: expected JSON text"),
        (
            lambda a: a.update(header=np.array(str(a["header"]).replace('"every":2', '"every":0'))),
            "every must be at least 1",
        ),
        (
            lambda a: a.update(
                header=np.array(str(a["header"]).replace('"version":1', '"version":99'))
            ),
            "newer than this rigidlab reads",
        ),
        (lambda a: a.update(time=np.full_like(a["time"], np.nan)), "time: must be finite"),
        (lambda a: a.update(contacts=-a["contacts"].astype(float) - 1), "contacts: must be counts"),
        (
            lambda a: a.update(positions=np.full(a["positions"].shape, "x")),
            "positions: not an array",
        ),
    ],
)
def test_corrupt_recording_files_are_refused_clearly(tmp_path, change, message):
    w, *_ = scene()
    rec = w.record(every=2, quantities=["positions", "contacts"])
    w.run(0.1)
    rec.save_npz(tmp_path / "good.npz")
    rewrite(tmp_path / "good.npz", tmp_path / "bad.npz", change)
    with pytest.raises(ValueError, match=message):
        rl.Recording.load(tmp_path / "bad.npz")


def test_unreadable_recording_files(tmp_path):
    with pytest.raises(OSError, match="no such file"):
        rl.Recording.load(tmp_path / "missing.npz")
    (tmp_path / "text.npz").write_text("not a zip")
    with pytest.raises(ValueError, match="not a recording saved by save_npz"):
        rl.Recording.load(tmp_path / "text.npz")
    with zipfile.ZipFile(tmp_path / "empty.npz", "w"):
        pass
    with pytest.raises(ValueError, match="header: missing"):
        rl.Recording.load(tmp_path / "empty.npz")
    with pytest.raises(TypeError, match="path"):
        rl.Recording.load(3.5)
