"""The views in the browser (rigidlab.webview), on the Python side: what World.show and
Recording.show send, how they follow a world, the standalone HTML files, and bad input. The
drawing itself is checked in a real browser in test_browser_view.py."""

import base64
import html
import json
import math
import pickle
import re
import time

import numpy as np
import pytest
import rigidlab as rl
from helpers import rotation_matrix


def page_data(page):
    """The data a standalone HTML page (a file, or its text) holds: what its script is given."""
    text = page if isinstance(page, str) else page.read_text(encoding="utf-8")
    start = text.index('standalone(document.getElementById("rigidlab"), ') + len(
        'standalone(document.getElementById("rigidlab"), '
    )
    end = text.rindex(");\n</script>")
    return json.loads(text[start:end].replace("<\\/", "</"))


def floats(b64, dtype=np.float32):
    return np.frombuffer(base64.b64decode(b64), dtype=dtype)


def falling_world(n=3):
    w = rl.World()
    w.add_plane()
    for i in range(n):
        w.add_sphere(0.1, position=(i, 1.0 + i, 0), velocity=(0.5, 0, 0))
    return w


def test_a_view_sends_each_bodys_pose_as_one_binary_array():
    w = falling_world()
    view = w.show(realtime=False)
    w.run(0.5)
    poses = np.frombuffer(view.poses, dtype=np.float32).reshape(-1, 7)
    np.testing.assert_array_equal(poses[:, :3], w.positions.astype(np.float32))
    np.testing.assert_array_equal(poses[:, 3:], w.orientations.astype(np.float32))
    assert view.time == pytest.approx(w.time)
    assert view.updates >= 1


def test_a_view_follows_the_world_through_a_run_at_its_frame_rate():
    # Paced to real time, a 1 s run at 10 frames a second sends about 10 states (a call a
    # little early counts: at most one every 75 ms), and the last one.
    w = falling_world()
    view = w.show(fps=10)
    before = view.updates
    start = time.monotonic()
    w.run(1.0)
    took = time.monotonic() - start
    assert took >= 0.99
    sent = view.updates - before
    assert 6 <= sent <= 1 + math.ceil(took / 0.075), sent


def test_run_keeps_to_real_time_only_while_a_view_asks_for_it():
    w = falling_world()
    start = time.monotonic()
    w.run(0.4)
    assert time.monotonic() - start < 0.3
    view = w.show()
    start = time.monotonic()
    w.run(0.4)
    assert time.monotonic() - start >= 0.39
    start = time.monotonic()
    w.run(0.4, realtime=False)
    assert time.monotonic() - start < 0.3
    # A closed view is forgotten: runs are as fast as they can be, and it gets nothing more.
    view.close()
    w.step()
    sent = view.updates
    start = time.monotonic()
    w.run(0.4)
    assert time.monotonic() - start < 0.3
    assert view.updates == sent
    fast = falling_world()
    fast.show(realtime=False)
    start = time.monotonic()
    fast.run(0.4)
    assert time.monotonic() - start < 0.3


def test_step_advance_rewind_and_restore_update_the_view():
    w = rl.World(history=1.0)
    b = w.add_sphere(0.1, position=(0, 5, 0))
    view = w.show(realtime=False)

    def shown():
        return np.frombuffer(view.poses, dtype=np.float32).reshape(-1, 7)[0, :3]

    snap = w.snapshot()
    w.step(10)
    assert shown()[1] == np.float32(b.position[1])
    w.restore(snap)
    assert shown()[1] == np.float32(5.0)
    w.step(30)
    w.rewind(0.05)
    assert shown()[1] == np.float32(b.position[1])
    w.advance(0.5)
    assert shown()[1] == np.float32(b.position[1]) or view.updates > 0


def test_a_view_reloads_its_scene_when_bodies_come_and_go():
    w = falling_world(2)
    view = w.show(realtime=False)
    assert [b["id"] for b in view.scene["bodies"]] == [b.id for b in w.bodies]
    box = w.add_box((0.1, 0.2, 0.3), position=(0, 3, 0))
    w.step()
    assert [b["id"] for b in view.scene["bodies"]] == [b.id for b in w.bodies]
    assert len(np.frombuffer(view.poses, dtype=np.float32)) == 7 * len(w)
    w.remove(box)
    w.step()
    assert [b["id"] for b in view.scene["bodies"]] == [b.id for b in w.bodies]


def test_the_scene_describes_every_3d_shape_in_the_bodys_frame():
    w = rl.World()
    plane = w.add_plane(normal=(0, 1, 0), offset=-0.5)
    ball = w.add_sphere(0.2, position=(0, 1, 0), color=(0.1, 0.2, 0.3))
    box = w.add_box((0.1, 0.2, 0.3), position=(1, 1, 0), kind="static")
    cap = w.add_capsule(0.1, 0.4, position=(2, 1, 0))
    hull = w.add_convex([(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)])
    scene = rl.webview.describe(w)
    by_id = {b["id"]: b for b in scene["bodies"]}
    meshes = scene["meshes"]
    assert meshes[by_id[ball.id]["mesh"]] == {"shape": "sphere", "radius": 0.2}
    assert meshes[by_id[box.id]["mesh"]] == {"shape": "box", "half_extents": [0.1, 0.2, 0.3]}
    assert meshes[by_id[cap.id]["mesh"]] == {"shape": "capsule", "radius": 0.1, "half_height": 0.4}
    spec = meshes[by_id[hull.id]["mesh"]]
    np.testing.assert_allclose(spec["vertices"], hull.dimensions["vertices"])
    assert len(spec["faces"]) == 6
    # The plane's patch, in its body's frame, lies in it (y = -0.5 in the world).
    patch = np.asarray(meshes[by_id[plane.id]["mesh"]]["points"]) + plane.position
    np.testing.assert_allclose(patch[:, 1], -0.5, atol=1e-12)
    assert scene["floor"] == -0.5
    # Colours: a body's own, grey when it cannot move, else one of the viewer's palette.
    assert by_id[ball.id]["color"] == [0.1, 0.2, 0.3]
    assert by_id[box.id]["color"] == [0.55, 0.57, 0.6]
    assert by_id[plane.id]["color"] == [0.62, 0.64, 0.66]
    assert by_id[cap.id]["color"] != by_id[hull.id]["color"]
    # The camera's box holds every body (not the plane, but its point under them).
    lo, hi = np.asarray(scene["limits"])
    for b in (ball, box, cap, hull):
        assert np.all(b.position >= lo) and np.all(b.position <= hi)
    assert lo[1] <= -0.5


def test_springs_and_joints_are_drawn_between_their_anchors():
    # The view puts each end at the body's pose times its anchor: the ends of a spring are then
    # its length apart, and a ball joint's two ends meet.
    w = rl.World()
    a = w.add_box(
        (0.1, 0.1, 0.1),
        position=(0, 1, 0),
        orientation=rl.Rotation.from_euler("xyz", (0.3, 0.2, 0.1)).as_quat(),
    )
    b = w.add_sphere(0.1, position=(1, 2, 0.5))
    spring = w.add_spring(a, b, stiffness=20.0, anchor_a=(0.1, 0.05, 0), anchor_b=(0, 0.1, 0))
    w.add_ball_joint(a, None, anchor=(0.2, 1.3, 0.1))
    w.run(0.3)
    scene = rl.webview.describe(w)
    poses = rl.webview.poses(w).astype(float)

    def end(body, anchor):
        if body < 0:
            return np.asarray(anchor)
        x, q = poses[body, :3], poses[body, 3:]
        return x + rotation_matrix(q) @ np.asarray(anchor)

    s, j = scene["links"]
    assert s["kind"] == "spring" and j["kind"] == "ball"
    length = np.linalg.norm(end(s["a"], s["anchor_a"]) - end(s["b"], s["anchor_b"]))
    assert length == pytest.approx(spring.length, abs=1e-6)
    gap = np.linalg.norm(end(j["a"], j["anchor_a"]) - end(j["b"], j["anchor_b"]))
    assert gap < 1e-3


def test_a_2d_scene_is_flat_and_its_ground_lies_below_its_line():
    w = rl.World2D()
    ground = w.add_ground(normal=(0.6, 0.8), offset=-0.2)
    w.add_circle(0.1, position=(0, 1))
    w.add_polygon([(0, 0), (0.4, 0), (0.2, 0.3)], position=(1, 1))
    w.add_box((0.2, 0.1), position=(-1, 1))
    w.add_capsule(0.1, 0.2, position=(0, 2))
    w.add_segment((-1, 0), (1, 0.5), radius=0.05)
    scene = rl.webview.describe(w)
    assert scene["planar"]
    assert {scene["meshes"][b["mesh"]]["shape"] for b in scene["bodies"]} == {
        "fill", "sphere", "convex", "box", "capsule", "segment",
    }  # fmt: skip
    lo, hi = scene["limits"]
    assert lo[2] == hi[2] == 0.0
    core = next(b for b in w._world.bodies if b.id == ground.id)
    local = np.asarray(scene["meshes"][scene["bodies"][0]["mesh"]]["points"])
    patch = local @ rotation_matrix(core.orientation).T + core.position
    n = np.array([0.6, 0.8, 0.0])
    along = patch @ n
    np.testing.assert_allclose(along[:2], -0.2, atol=1e-9)
    assert np.all(along[2:] < -0.2)
    np.testing.assert_allclose(patch[:, 2], 0.0)


def test_a_recording_is_played_from_its_samples_about_fps_a_second():
    w = falling_world()
    rec = w.record()
    w.run(2.0)
    scene, frames, times = rl.webview.recording_frames(rec, fps=25)
    assert times[0] == rec.time[0] and times[-1] == rec.time[-1]
    steps = np.diff(times)
    assert np.all(steps <= 1 / 25 + w.dt + 1e-12) and np.all(steps >= 1 / 25 - w.dt - 1e-12)
    rows = np.searchsorted(rec.time, times)
    np.testing.assert_array_equal(frames[:, :, :3], rec.positions[rows].astype(np.float32))
    np.testing.assert_array_equal(frames[:, :, 3:], rec.orientations[rows].astype(np.float32))
    assert [b["id"] for b in scene["bodies"]] == [int(i) for i in rec.body_ids]
    # The camera's box holds the bodies over the whole recording.
    lo, hi = np.asarray(scene["limits"])
    assert np.all(frames[:, 1:, :3] >= lo - 1e-6) and np.all(frames[:, 1:, :3] <= hi + 1e-6)


def test_a_2d_recording_turns_each_angle_into_a_quaternion_about_z():
    w = rl.World2D(gravity=(0, 0))
    w.add_box((0.3, 0.1), angular_velocity=2.0)
    rec = w.record()
    w.run(2.0)
    _, frames, times = rl.webview.recording_frames(rec)
    angles = rec.angles[np.searchsorted(rec.time, times), 0]
    for q, a in zip(frames[:, 0, 3:], angles):
        np.testing.assert_allclose(
            rotation_matrix(q) @ [1, 0, 0], [math.cos(a), math.sin(a), 0], atol=1e-6
        )
    assert rec.start_world().bodies[0].angle == 0.0


def test_the_start_world_is_the_world_when_recording_began():
    w = falling_world()
    w.run(0.2)
    at_start = w.positions
    rec = w.record()
    w.run(0.5)
    start = rec.start_world()
    np.testing.assert_array_equal(start.positions, at_start)
    assert [b.id for b in start.bodies] == [b.id for b in w.bodies]
    assert start is not w


def test_a_standalone_file_plays_offline_and_holds_the_recording(tmp_path):
    w = falling_world()
    w.add_spring(w.bodies[1], w.bodies[2], stiffness=5.0)
    rec = w.record()
    w.run(1.0)
    path = rec.to_html(tmp_path / "fall.html", fps=20, title="Falling <balls>")
    assert path == tmp_path / "fall.html"
    text = path.read_text(encoding="utf-8")
    # Nothing is fetched: no address in any src or href, no import from elsewhere.
    assert not re.search(r"(src|href)\s*=\s*[\"']?https?:", text)
    assert not re.search(r"import\s*\(?\s*[\"']https?:", text)
    assert "<title>Falling &lt;balls&gt;</title>" in text
    data = page_data(path)
    scene, frames, times = rl.webview.recording_frames(rec, fps=20)
    assert data["scene"] == json.loads(json.dumps(scene))
    np.testing.assert_array_equal(floats(data["frames"]).reshape(frames.shape), frames)
    np.testing.assert_array_equal(floats(data["times"], np.float64), times)


def test_a_10_s_recording_of_1000_bodies_is_a_file_under_20_mb(tmp_path):
    # The size depends on the samples and bodies only: 1 000 balls apart, without gravity.
    w = rl.World(gravity=(0, 0, 0))
    for i in range(1000):
        w.add_sphere(0.05, position=(i % 10, (i // 10) % 10, i // 100), velocity=(0, 0.1, 0))
    rec = w.record()
    w.run(10.0)
    size = rec.to_html(tmp_path / "big.html").stat().st_size
    # 301 samples of 1 000 poses of 28 bytes, base64: 11.2 MB, and the page.
    assert 11e6 < size < 12e6


def test_a_view_saves_what_it_shows_as_a_standalone_file(tmp_path):
    w = falling_world()
    view = w.show(realtime=False, contacts=True)
    w.run(1.0)
    path = view.save(tmp_path / "now.html")
    data = page_data(path)
    np.testing.assert_array_equal(floats(data["poses"]).reshape(-1, 7), rl.webview.poses(w))
    points = floats(data["contacts"]).reshape(-1, 3)
    np.testing.assert_allclose(points, w.contacts()["point"], atol=1e-6)
    assert len(points) == 3
    assert data["time"] == pytest.approx(w.time)


def embedded_page(widget):
    """The standalone page a view's text/html output holds, in its iframe's srcdoc."""
    bundle = widget._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    if "text/html" not in data:
        return None
    assert "application/vnd.jupyter.widget-view+json" in data  # the widget stays first
    srcdoc = re.fullmatch(r'<iframe srcdoc="([^"]*)".*</iframe>', data["text/html"], re.S)
    return html.unescape(srcdoc.group(1))


def test_views_embed_a_standalone_copy_for_pages_without_widgets(monkeypatch, tmp_path):
    w = falling_world()
    view = w.show(realtime=False)
    rec = w.record()
    w.run(0.5)
    player = rec.show(fps=20)
    assert embedded_page(view) is None and embedded_page(player) is None  # off by default
    monkeypatch.setenv("RIGIDLAB_EMBED_VIEWS", "1")
    page = embedded_page(view)
    assert "<h3" not in page and 'import("http' not in page
    saved = view.save(tmp_path / "now.html", title="rigidlab")
    assert page_data(saved) == page_data(page)
    data = page_data(embedded_page(player))
    scene, frames, times = rl.webview.recording_frames(rec, fps=20)
    assert data["mode"] == "recording" and data["scene"] == json.loads(json.dumps(scene))
    np.testing.assert_array_equal(floats(data["frames"]).reshape(frames.shape), frames)
    np.testing.assert_array_equal(floats(data["times"], np.float64), times)


def test_a_2d_world_and_its_recording_show_in_2d(tmp_path):
    w = rl.World2D()
    w.add_ground()
    w.add_circle(0.1, position=(0, 1))
    view = w.show(realtime=False, limits=((-1, 1), (0, 2)))
    rec = w.record()
    w.run(0.5)
    assert view.scene["planar"] and view.scene["limits"] == [[-1, 0, 0], [1, 2, 0]]
    player = rec.show(limits=((-1, 1), (0, 2)))
    assert player.scene["planar"]
    assert rec.to_html(tmp_path / "r.html").exists()
    assert rec.start_world().bodies[1].position[1] == 1.0


def test_worlds_pickle_while_shown():
    w = falling_world()
    w.show(realtime=False)
    w.run(0.1)
    copy = pickle.loads(pickle.dumps(w))
    np.testing.assert_array_equal(copy.positions, w.positions)
    start = time.monotonic()
    copy.run(0.3)
    assert time.monotonic() - start < 0.25


@pytest.mark.parametrize(
    ("options", "error", "words"),
    [
        ({"fps": 0}, ValueError, "fps"),
        ({"fps": "fast"}, TypeError, "fps"),
        ({"fps": float("nan")}, ValueError, "fps"),
        ({"height": 20}, ValueError, "height"),
        ({"height": 300.5}, TypeError, "height"),
        ({"limits": ((0, 1),)}, ValueError, "limits"),
        ({"limits": ((0, 1), (2, 1), (0, 1))}, ValueError, "limits"),
        ({"limits": ((0, 1), (0, float("nan")), (0, 1))}, ValueError, "limits"),
        ({"limits": "everything"}, TypeError, "limits"),
        ({"contacts": "yes"}, TypeError, "contacts"),
        ({"realtime": 1}, TypeError, "realtime"),
        ({"colour": "red"}, TypeError, "colour"),
    ],
)
def test_bad_options_of_show_are_refused_and_the_world_left_alone(options, error, words):
    w = falling_world()
    with pytest.raises(error, match=words):
        w.show(**options)
    # No view was left following the world: runs are not paced.
    start = time.monotonic()
    w.run(0.3)
    assert time.monotonic() - start < 0.25


def test_bad_recordings_and_paths_are_refused(tmp_path):
    w = falling_world()
    # A recording holds the state it began with: one sample plays as a still.
    still = w.record()
    _, frames, times = rl.webview.recording_frames(still)
    assert frames.shape == (1, 4, 7) and len(times) == 1
    only_energy = w.record(quantities=["energy"])
    w.run(0.1)
    with pytest.raises(ValueError, match="positions"):
        only_energy.to_html(tmp_path / "x.html")
    rec = w.record()
    w.run(0.1)
    with pytest.raises(OSError, match="path"):
        rec.to_html(tmp_path / "no such folder" / "x.html")
    with pytest.raises(TypeError, match="path"):
        rec.to_html(3.5)
    with pytest.raises(TypeError, match="title"):
        rec.to_html(tmp_path / "x.html", title=3)
    with pytest.raises(ValueError, match="fps"):
        rec.to_html(tmp_path / "x.html", fps=-1)
    assert not (tmp_path / "x.html").exists()
    with pytest.raises(ValueError, match="limits"):
        rl.World2D().record().show(limits=((0, 1), (0, 1), (0, 1)))


def test_recorded_contact_points_go_with_the_samples_a_view_plays(tmp_path):
    w = rl.World()
    w.add_plane()
    w.add_box((0.1, 0.1, 0.1), position=(0, 0.5, 0))
    w.add_sphere(0.1, position=(1, 0.1, 0))
    rec = w.record(quantities=["positions", "orientations", "contact_points"])
    w.run(1.0)
    _, _, times = rl.webview.recording_frames(rec)
    points, counts = rl.webview.recording_contacts(rec, times)
    rows = np.searchsorted(rec.time, times)
    assert list(counts) == [len(rec.contact_points[i]) for i in rows]
    np.testing.assert_array_equal(
        points, np.concatenate([rec.contact_points[i] for i in rows]).astype(np.float32)
    )
    # At the end the box rests on its four corners and the ball on one point.
    assert counts[-1] == 5
    data = page_data(rec.to_html(tmp_path / "c.html"))
    np.testing.assert_array_equal(floats(data["contact_points"]).reshape(-1, 3), points)
    np.testing.assert_array_equal(floats(data["contact_counts"], np.uint32), counts)
    assert rl.webview.recording_contacts(w.record(), times) is None


def test_contact_points_are_recorded_where_the_world_says_and_survive_files(tmp_path):
    w = rl.World2D()
    w.add_ground()
    w.add_circle(0.1, position=(0.3, 0.1))
    w.add_box((0.2, 0.1), position=(-0.5, 0.1))
    rec = w.record(quantities=["contact_points", "contacts"], every=5)
    w.run(0.5)
    for i in range(len(rec)):
        assert len(rec.contact_points[i]) == rec.contacts[i]
    np.testing.assert_allclose(
        sorted(map(tuple, rec.contact_points[-1])), [(-0.7, 0.0), (-0.3, 0.0), (0.3, 0.0)],
        atol=1e-6,
    )  # fmt: skip
    assert rec.contact_points[-1].shape[1] == 2
    for copy in (pickle.loads(pickle.dumps(rec)), rl.Recording2D.load(_saved(rec, tmp_path))):
        assert len(copy) == len(rec)
        for a, b in zip(copy.contact_points, rec.contact_points):
            np.testing.assert_array_equal(a, b)


def _saved(rec, folder):
    path = folder / "rec.npz"
    rec.save_npz(path)
    return path


@pytest.mark.parametrize(
    "quantities",
    [["positions"], ["energy"], ["contacts"], ["momentum", "contact_points"], ["orientations"]],
)
def test_a_recording_of_any_quantities_pickles_and_loads(quantities, tmp_path):
    w = rl.World()
    w.add_plane()
    w.add_sphere(0.1, position=(0, 0.5, 0))
    rec = w.record(quantities=quantities)
    w.run(0.5)
    for copy in (pickle.loads(pickle.dumps(rec)), rl.Recording.load(_saved(rec, tmp_path))):
        assert copy.quantities == rec.quantities and len(copy) == len(rec)
        np.testing.assert_array_equal(copy.time, rec.time)
        for q in quantities:
            a, b = getattr(copy, q), getattr(rec, q)
            if q == "energy":
                for k in a:
                    np.testing.assert_array_equal(a[k], b[k])
            elif q == "contact_points":
                assert all(np.array_equal(x, y) for x, y in zip(a, b))
            else:
                np.testing.assert_array_equal(a, b)


def test_bad_contact_points_in_a_file_are_named(tmp_path):
    w = rl.World()
    w.add_plane()
    w.add_sphere(0.1, position=(0, 0.1, 0))
    rec = w.record(quantities=["contact_points"])
    w.run(0.1)
    arrays = dict(np.load(_saved(rec, tmp_path)))
    for name, value, words in (
        (
            "contact_point_counts",
            arrays["contact_point_counts"] + 1,
            "contact_points: expected shape",
        ),
        ("contact_point_counts", -arrays["contact_point_counts"].astype(float), "counts"),
        ("contact_points", np.full_like(arrays["contact_points"], np.nan), "finite"),
    ):
        bad = dict(arrays, **{name: value})
        np.savez(tmp_path / "bad.npz", **bad)
        with pytest.raises(ValueError, match=words):
            rl.Recording.load(tmp_path / "bad.npz")
    missing = {k: v for k, v in arrays.items() if k != "contact_points"}
    np.savez(tmp_path / "bad.npz", **missing)
    with pytest.raises(ValueError, match="contact_points: missing"):
        rl.Recording.load(tmp_path / "bad.npz")


def test_a_recordings_view_fits_the_limits_given_and_its_floor_lies_under_them():
    w = rl.World()
    w.add_plane()
    w.add_sphere(0.1, position=(0, 1, 0))
    rec = w.record()
    w.run(0.2)
    scene, _, _ = rl.webview.recording_frames(rec, limits=((10, 12), (0, 2), (-1, 1)))
    assert scene["limits"] == [[10, 0, -1], [12, 2, 1]]
    # The floor's patch is centred under the box the camera fits.
    patch = np.asarray(scene["meshes"][scene["bodies"][0]["mesh"]]["points"])
    np.testing.assert_allclose(patch.mean(axis=0), [11, 0, 0], atol=1e-9)


def test_only_a_function_can_watch_a_world():
    w = rl.World()
    with pytest.raises(TypeError, match="callback: must be callable"):
        w._watch(3)
    start = time.monotonic()
    w.run(0.3)
    assert time.monotonic() - start < 0.25


@pytest.mark.parametrize("seed", range(5))
def test_random_worlds_of_every_shape_are_described_whole(seed):
    # Every body gets a mesh and a colour, the camera's box holds every solid with its extent,
    # and the poses are the world's.
    rng = np.random.default_rng(seed)
    w = rl.World()
    w.add_plane(normal=tuple(rng.normal(size=3) + [0, 3, 0]), offset=rng.uniform(-1, 0))
    for _ in range(12):
        at = dict(position=tuple(rng.uniform(-3, 3, 3)),
                  orientation=rl.Rotation.from_euler("xyz", rng.uniform(-3, 3, 3)).as_quat())  # fmt: skip
        kind = rng.integers(4)
        if kind == 0:
            w.add_sphere(rng.uniform(0.05, 0.5), **at)
        elif kind == 1:
            w.add_box(tuple(rng.uniform(0.05, 0.5, 3)), **at)
        elif kind == 2:
            w.add_capsule(rng.uniform(0.05, 0.3), rng.uniform(0.05, 0.5), **at)
        else:
            w.add_convex(rng.uniform(-0.4, 0.4, (8, 3)), **at)
    w.run(0.1)
    scene = rl.webview.describe(w)
    assert [b["id"] for b in scene["bodies"]] == [b.id for b in w.bodies]
    assert all(b["mesh"] in scene["meshes"] and len(b["color"]) == 3 for b in scene["bodies"])
    lo, hi = np.asarray(scene["limits"])
    for b in w.bodies[1:]:
        d = b.dimensions
        reach = max(np.linalg.norm(np.asarray(d.get("half_extents", [0]))), d.get("radius", 0))
        assert np.all(b.position - reach >= lo - 1e-9) and np.all(b.position + reach <= hi + 1e-9)
    np.testing.assert_array_equal(rl.webview.poses(w)[:, :3], w.positions.astype(np.float32))
