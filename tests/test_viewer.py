"""The viewer: its command line, headless screenshots under Xvfb checked against an independent
pinhole projection, the live stream of World.view() (throttled, never blocking, surviving a
closed or crashed viewer), and replays saved by Recording.save."""

import gc
import json
import math
import os
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest
import rigidlab as rl
import rigidlab.view
from PIL import Image

VIEW = [sys.executable, "-m", "rigidlab.view"]


@pytest.fixture(scope="module")
def display():
    """A virtual X display with software OpenGL (Xvfb, installed by the test set-up)."""
    xvfb = shutil.which("Xvfb")
    assert xvfb, "Xvfb is missing: scripts/setup.sh --test installs it (Debian package xvfb)"
    read, write = os.pipe()
    proc = subprocess.Popen(
        [xvfb, "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    number = b""
    while not number.endswith(b"\n"):
        chunk = os.read(read, 16)
        assert chunk, "Xvfb did not start"
        number += chunk
    os.close(read)
    yield f":{int(number)}"
    proc.terminate()
    proc.wait(10)


def run_view(args, display, timeout=120):
    env = dict(os.environ, DISPLAY=display)
    return subprocess.run([*VIEW, *args], env=env, capture_output=True, text=True, timeout=timeout)


def project(p, eye, target, fov_deg, width, height):
    """Pixel (x right, y down) of world point p for a pinhole camera at `eye` looking at
    `target` with y up and a vertical field of view `fov_deg`."""
    p, eye, target = (np.asarray(v, float) for v in (p, eye, target))
    f = target - eye
    f /= np.linalg.norm(f)
    r = np.cross(f, [0.0, 1.0, 0.0])
    r /= np.linalg.norm(r)
    u = np.cross(r, f)
    d = p - eye
    depth = d @ f
    t = math.tan(math.radians(fov_deg) / 2)
    ndc_x = (d @ r) / (depth * t * width / height)
    ndc_y = (d @ u) / (depth * t)
    return (ndc_x + 1) / 2 * width, (1 - ndc_y) / 2 * height


def pixel(img, xy):
    """The median colour of the 5 x 5 pixels around xy."""
    x, y = (int(round(c)) for c in xy)
    assert 2 <= x < img.shape[1] - 2 and 2 <= y < img.shape[0] - 2, f"{xy} is off the picture"
    patch = img[y - 2 : y + 3, x - 2 : x + 3].reshape(-1, 3)
    return np.median(patch, axis=0)


def dominant(rgb):
    """Which channel clearly dominates ('r', 'g', 'b'), or None for a grey."""
    k = int(np.argmax(rgb))
    others = np.delete(rgb, k)
    return "rgb"[k] if rgb[k] > 1.6 * others.max() + 10 else None


EYE, TARGET, FOV, W, H = (0.0, 1.5, 4.0), (0.0, 0.5, 0.0), 45.0, 800, 450
CAMERA = [
    "--eye",
    ",".join(map(str, EYE)),
    "--target",
    ",".join(map(str, TARGET)),
    "--fov",
    str(FOV),
    "--size",
    f"{W}x{H}",
]
COLOURS = {"r": (0.9, 0.1, 0.1), "g": (0.1, 0.8, 0.1), "b": (0.1, 0.2, 0.95)}


def three_bodies(gravity=(0.0, 0.0, 0.0)):
    """A red sphere, a green box and a blue capsule in a row above a grey floor."""
    w = rl.World(gravity=gravity)
    w.add_plane(name="floor")
    bodies = {
        "r": w.add_sphere(0.3, position=(-1.2, 0.5, 0.0), color=COLOURS["r"]),
        "g": w.add_box(
            (0.3, 0.3, 0.3),
            position=(0.0, 0.5, 0.0),
            orientation=rl.presets.axis_angle((0, 1, 0), 0.4),
            color=COLOURS["g"],
        ),
        "b": w.add_capsule(0.2, 0.25, position=(1.2, 0.5, 0.0), color=COLOURS["b"]),
    }
    return w, bodies


def screenshot(source, frames, display, *options):
    """Runs the viewer headless on a file for `frames` frames and returns its last picture."""
    out = source.with_suffix(".png")
    res = run_view(
        [str(source), "--screenshot", str(out), "--frames", str(frames), *options], display
    )
    assert res.returncode == 0, res.stderr
    return read_png(out)


def read_png(path):
    img = np.asarray(Image.open(path).convert("RGB")).astype(float)
    assert img.shape == (H, W, 3)
    return img


# ---------------------------------------------------------------------------------------------
# The command line


def test_help_lists_the_options_and_presets_are_listed():
    out = subprocess.run([*VIEW, "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    for option in ("--screenshot", "--frames", "--stream", "--preset", "--eye", "--time-scale"):
        assert option in out.stdout
    out = subprocess.run([*VIEW, "--list-presets"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    names = [line.split("  (")[0] for line in out.stdout.splitlines()]
    assert sorted(names) == sorted(rl.presets.PRESETS)


def test_the_console_script_is_installed():
    exe = shutil.which("rigidlab-view", path=os.path.dirname(sys.executable))
    assert exe, "the wheel installs a rigidlab-view script next to python"
    assert subprocess.run(
        [exe, "--version"], capture_output=True, text=True, timeout=60
    ).stdout.startswith("rigidlab-view")


@pytest.mark.parametrize(
    "args, code, message",
    [
        (["--size", "12x10"], 2, "between 64 and 8192"),
        (["--size", "wide"], 2, "WIDTHxHEIGHT"),
        (["--eye", "1,2"], 2, "x,y,z"),
        (["--screenshot", "x.png"], 2, "--frames"),
        (["--preset", "no such scene"], 1, "unknown preset"),
        (["--preset", "pendulum", "--time-scale", "0"], 1, "--time-scale"),
        (["/nonexistent/scene.json"], 1, "/nonexistent/scene.json"),
    ],
)
def test_bad_arguments_are_named(args, code, message):
    out = subprocess.run([*VIEW, *args], capture_output=True, text=True, timeout=60)
    assert out.returncode == code
    assert message in out.stderr


def test_a_corrupt_file_is_refused_with_its_name_and_what_is_wrong(tmp_path):
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "rigidlab-scene", "version": 1, "bodies": [}')
    out = subprocess.run([*VIEW, str(bad)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "broken.json" in out.stderr and "JSON" in out.stderr
    replay = tmp_path / "broken.replay"
    w, _ = three_bodies()
    rec = w.record()
    w.step(3)
    rec.save(replay)
    lines = replay.read_text().splitlines()
    replay.write_text("\n".join(lines[:2] + ['{"type": "frame", "time": 1}']) + "\n")
    out = subprocess.run([*VIEW, str(replay)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "line 3" in out.stderr


def test_malformed_replays_are_refused_with_the_line_and_what_is_wrong(tmp_path):
    w, _ = three_bodies()
    rec = w.record()
    w.step(3)
    good = tmp_path / "good.replay"
    rec.save(good)
    lines = good.read_text().splitlines()
    cases = {
        "orientations[0] is not a unit quaternion": lambda f: f.update(
            orientations=[[0, 0, 0, 0]] * len(f["ids"])
        ),
        "positions[1] is not finite or beyond 1e9": lambda f: f["positions"].__setitem__(
            1, [1e308, 0, 0]
        ),
        "which its scene lacks": lambda f: f["ids"].__setitem__(0, 999),
    }
    for message, spoil in cases.items():
        frame = json.loads(lines[2])
        spoil(frame)
        bad = tmp_path / "bad.replay"
        bad.write_text("\n".join([lines[0], lines[1], json.dumps(frame)]) + "\n")
        out = subprocess.run([*VIEW, str(bad)], capture_output=True, text=True, timeout=60)
        assert out.returncode == 1 and message in out.stderr and "bad.replay" in out.stderr, (
            out.stderr
        )


def test_a_one_line_scene_file_is_told_from_a_replay(tmp_path, display):
    w = rl.World()
    w.add_sphere(0.1, name="scene", color=(0.9, 0.1, 0.1))
    path = tmp_path / "compact.json"
    path.write_text(json.dumps(json.loads(w.to_json())))
    res = run_view([str(path), "--screenshot", str(tmp_path / "x.png"), "--frames", "2"], display)
    assert res.returncode == 0, res.stderr


def test_the_viewer_opens_one_window_per_process(tmp_path, display):
    code = "import rigidlab.view as v; a = v.main(['--preset', 'pendulum', '--frames', '2']); b = v.main(['--preset', 'pendulum', '--frames', '2']); print(a, b)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=dict(os.environ, DISPLAY=display),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.stdout.split() == ["0", "1"] and "already opened" in out.stderr


def test_without_a_display_the_viewer_says_so():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    out = subprocess.run(
        [*VIEW, "--preset", "pendulum"], env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 1 and "no display" in out.stderr and "xvfb-run" in out.stderr


# ---------------------------------------------------------------------------------------------
# Headless screenshots


def check_bodies_drawn(img, positions):
    """Each body's colour where the camera projects its centre."""
    for key, p in positions.items():
        xy = project(p, EYE, TARGET, FOV, W, H)
        assert 0 <= xy[0] < W and 0 <= xy[1] < H
        assert dominant(pixel(img, xy)) == key, f"{key} body at {p} -> pixel {xy}: {pixel(img, xy)}"


def test_a_scene_file_renders_its_bodies_where_the_camera_projects_them(tmp_path, display):
    w, bodies = three_bodies()
    scene = tmp_path / "scene.json"
    w.save(scene)
    img = screenshot(scene, 10, display, "--no-hud", *CAMERA)
    assert img.std() > 20, "the picture is blank"
    check_bodies_drawn(img, {k: b.position for k, b in bodies.items()})
    # The floor in front of the bodies is grey, the sky above them the background colour.
    floor = pixel(img, project((0.6, 0.0, 1.0), EYE, TARGET, FOV, W, H))
    assert dominant(floor) is None and floor.min() > 80
    sky = pixel(img, (W / 2, 4))
    assert np.allclose(sky, [41, 46, 54], atol=3)


def test_the_hud_is_drawn_and_a_falling_scene_moves(tmp_path, display):
    """With gravity the bodies fall for 30 frames of 1/60 s: the sphere's colour leaves its
    starting point and appears where free fall puts it (0.5 g t^2 = 1.23 m lower, on the floor)."""
    w, bodies = three_bodies(gravity=(0.0, -9.81, 0.0))
    scene = tmp_path / "scene.json"
    w.save(scene)
    img = screenshot(scene, 30, display, *CAMERA)
    # The HUD panel: light text on a dark panel at the top left.
    hud = img[10:120, 10:400]
    assert (hud.max(axis=2) > 200).mean() > 0.01
    w.run(0.5)
    assert w.time == pytest.approx(0.5)
    resting = bodies["r"].position
    assert resting[1] == pytest.approx(0.3, abs=1e-3)
    assert dominant(pixel(img, project(resting, EYE, TARGET, FOV, W, H))) == "r"
    assert dominant(pixel(img, project((-1.2, 0.5 + 0.25, 0.0), EYE, TARGET, FOV, W, H))) != "r"


def test_a_planar_world_opens_in_the_2d_view(tmp_path, display):
    """A pendulum in the x-y plane: the orthographic view frames it; its bob is the only coloured
    thing, at the height its angle gives relative to the pivot."""
    w, (bob,) = rl.presets.pendulum(angle_deg=60.0)
    bob.color = (0.9, 0.1, 0.1)
    scene = tmp_path / "pendulum.json"
    w.save(scene)
    img = screenshot(scene, 2, display, "--paused", "--no-hud", "--size", f"{W}x{H}")
    red = np.argwhere(img[:, :, 0] > 1.6 * img[:, :, 1:].max(axis=2) + 10)
    assert len(red) > 50
    (cy, cx) = red.mean(axis=0)
    # Orthographic: the bob is a circle (equal spread in x and y) right of and below centre.
    spread = red.std(axis=0)
    assert spread[0] == pytest.approx(spread[1], rel=0.1)
    assert cx > W / 2 and cy > H / 2


def test_a_2d_world_is_drawn_to_scale_in_the_plane_with_its_grid(tmp_path, display):
    """A World2D: a red disc, a green box and a blue triangle in a row 1 m apart at the same
    height, no gravity. The orthographic view draws them on one pixel row, equally spaced,
    the disc as wide as its diameter at the view's scale (10%), in the centre of the view (the
    scene is symmetric about x = 0); the grid's lines are drawn over the background."""
    w = rl.World2D(gravity=(0, 0))
    w.add_circle(0.25, position=(-1.0, 0.5), color=COLOURS["r"])
    w.add_box((0.25, 0.25), position=(0.0, 0.5), color=COLOURS["g"])
    w.add_polygon([(0.75, 0.25), (1.25, 0.25), (1.0, 0.75)], color=COLOURS["b"])
    scene = tmp_path / "flat.json"
    w.save(scene)
    img = screenshot(scene, 2, display, "--paused", "--no-hud", "--size", f"{W}x{H}")
    centres, sizes = {}, {}
    for ch, k in (("r", 0), ("g", 1), ("b", 2)):
        others = np.delete(img, k, axis=2).max(axis=2)
        mask = np.argwhere(img[:, :, k] > 1.6 * others + 10)
        assert len(mask) > 100, ch
        centres[ch] = mask.mean(axis=0)
        sizes[ch] = mask[:, 1].max() - mask[:, 1].min() + 1
    (ry, rx), (gy, gx), (by, bx) = centres["r"], centres["g"], centres["b"]
    spacing = gx - rx
    assert rx < gx < bx
    assert abs((bx - gx) - spacing) < 0.03 * spacing
    assert abs(gx - W / 2) < 0.03 * spacing
    # The disc and the box's centres on one row (the triangle's centroid sits 1/12 m lower).
    assert abs(ry - gy) < 0.03 * spacing
    assert abs(by - (gy + spacing / 12)) < 0.03 * spacing
    assert sizes["r"] == pytest.approx(0.5 * spacing, rel=0.1)
    # The grid: faint lines a little lighter than the background, across the empty top rows.
    top = img[5:40, :, :].mean(axis=2)
    assert top.max() - np.median(top) > 3


# ---------------------------------------------------------------------------------------------
# Replays


def test_recording_save_writes_the_scene_and_a_frame_per_sample(tmp_path):
    w, bodies = three_bodies()
    bodies["r"].velocity = (1.0, 0.0, 0.0)
    rec = w.record(every=2)
    w.step(10)
    w.remove(bodies["g"])
    w.step(10)
    path = tmp_path / "run.replay"
    rec.save(path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["type"] == "scene" and lines[0]["scene"]["format"] == "rigidlab-scene"
    frames = lines[1:]
    assert len(frames) == len(rec.time) == 11
    for k, f in enumerate(frames):
        assert f["time"] == rec.time[k]
        present = ~np.isnan(rec.positions[k, :, 0])
        assert f["ids"] == [i for i, p in zip([0, 1, 2, 3], present) if p]
        np.testing.assert_array_equal(np.array(f["positions"]), rec.positions[k][present])
    assert len(frames[0]["ids"]) == 4 and len(frames[-1]["ids"]) == 3


def test_recording_save_refuses_what_it_cannot_replay(tmp_path):
    w, _ = three_bodies()
    rec = w.record(quantities=["energy"])
    w.step(2)
    with pytest.raises(ValueError, match="positions and orientations"):
        rec.save(tmp_path / "x.replay")
    rec = w.record()
    with pytest.raises(OSError, match="path"):
        rec.save(tmp_path / "missing" / "x.replay")
    with pytest.raises(TypeError, match="path"):
        rec.save(3)


def test_a_replay_plays_back_in_real_time(tmp_path, display):
    """A red ball crossing the view at 1 m/s, replayed for 30 frames of 1/60 s: it is drawn
    where it was at t = 0.5 s, and no longer where it started."""
    w, bodies = three_bodies()
    w.remove(bodies["g"])
    w.remove(bodies["b"])
    ball = bodies["r"]
    ball.velocity = (2.0, 0.0, 0.0)
    rec = w.record()
    w.run(1.0)
    path = tmp_path / "run.replay"
    rec.save(path)
    img = screenshot(path, 30, display, "--no-hud", *CAMERA)
    assert (
        dominant(pixel(img, project((-1.2 + 2.0 * 0.5, 0.5, 0.0), EYE, TARGET, FOV, W, H))) == "r"
    )
    assert dominant(pixel(img, project((-1.2, 0.5, 0.0), EYE, TARGET, FOV, W, H))) is None


# ---------------------------------------------------------------------------------------------
# The live stream


def dump_command(path):
    """A stand-in viewer that writes what it is sent to a file."""
    code = f"import shutil, sys; shutil.copyfileobj(sys.stdin.buffer, open({str(path)!r}, 'wb'), 1)"
    return [sys.executable, "-c", code]


def wait_for(predicate, timeout=20.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def messages(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_a_2d_recording_replays_in_the_2d_view(tmp_path, display):
    """A red disc crossing a World2D at 1 m/s, replayed for 30 frames of 1/60 s in the 2D
    view: half a second in, it has moved right by a quarter of the distance between its start
    and the green box 2 m away (2D views are orthographic, so screen distances scale)."""
    w = rl.World2D(gravity=(0, 0))
    disc = w.add_circle(0.2, position=(-1.0, 0.0), velocity=(1.0, 0.0), color=COLOURS["r"])
    w.add_box((0.2, 0.2), kind="static", position=(1.0, 0.0), color=COLOURS["g"])
    rec = w.record()
    w.run(1.0)
    path = tmp_path / "flat.replay"
    rec.save(path)
    first = screenshot(path, 1, display, "--no-hud", "--paused", "--size", f"{W}x{H}")
    later = screenshot(path, 30, display, "--no-hud", "--size", f"{W}x{H}")

    def centre(img, k):
        others = np.delete(img, k, axis=2).max(axis=2)
        return np.argwhere(img[:, :, k] > 1.6 * others + 10).mean(axis=0)[1]

    x0, box = centre(first, 0), centre(first, 1)
    x1 = centre(later, 0)
    assert disc.position[0] == pytest.approx(0.0, abs=1e-12)
    assert (x1 - x0) == pytest.approx(0.25 * (box - x0), rel=0.05)


def test_the_stream_sends_the_scene_then_throttled_frames_then_end(tmp_path):
    w, bodies = three_bodies(gravity=(0.0, -9.81, 0.0))
    path = tmp_path / "stream.jsonl"
    w.view(rate=20.0, command=dump_command(path))
    assert w.viewing
    start = time.monotonic()
    w.run(1.0)  # paced to real time: a viewer is attached
    elapsed = time.monotonic() - start
    assert elapsed >= 0.95
    extra = w.add_sphere(0.1, position=(0.0, 2.0, 0.0), name="late")
    w.run(0.3)  # paced: several frames reach the writer
    w.run(0.5, realtime=False)
    w.remove(bodies["g"])
    w.step(10)
    final = (w.time, w.positions.copy(), [b.id for b in w.bodies])
    del w, bodies, extra
    gc.collect()
    assert wait_for(lambda: path.exists() and path.read_text().rstrip().endswith('{"type":"end"}'))
    msgs = messages(path)
    assert msgs[0]["type"] == "scene" and msgs[-1]["type"] == "end"
    scenes = [m for m in msgs if m["type"] == "scene"]
    frames = [m for m in msgs if m["type"] == "frame"]
    # A scene waiting to be written is replaced by a newer one, so the scenes sent are the
    # first, the one with the late sphere (frames of it were sent while pacing), and the last.
    counts = [len(s["scene"]["bodies"]) for s in scenes]
    assert counts[0] == 4 and 5 in counts and counts[-1] == 4
    # At most `rate` frames a second while running in real time (plus the forced ones).
    first_second = [f for f in frames if f["time"] <= 1.0 + 1e-9]
    assert 10 <= len(first_second) <= 20 * elapsed + 3
    # Every frame belongs to the scene sent before it, and times only grow.
    revision = None
    for m in msgs[:-1]:
        if m["type"] == "scene":
            revision = m["revision"]
        else:
            assert m["revision"] == revision and len(m["ids"]) == len(m["positions"])
    assert all(a["time"] <= b["time"] for a, b in zip(frames, frames[1:]))
    last = frames[-1]
    assert last["time"] == final[0] and last["ids"] == final[2]
    np.testing.assert_array_equal(np.array(last["positions"]), final[1])
    assert len(last["energy"]) == 6 and last["energy"][5] == pytest.approx(sum(last["energy"][2:5]))


def test_a_crashed_viewer_leaves_the_script_running(tmp_path):
    w, _ = three_bodies(gravity=(0.0, -9.81, 0.0))
    crash = [sys.executable, "-c", "import sys; sys.stdin.readline(); sys.exit(3)"]
    w.view(command=crash)
    assert wait_for(lambda: (w.step(), not w.viewing)[1])
    t = w.time
    w.run(0.5)  # no viewer: not paced, no error
    assert w.time == pytest.approx(t + 0.5)
    # A viewer that cannot start is an error naming the command; the world is unchanged.
    with pytest.raises(OSError, match="command"):
        w.view(command=["/nonexistent/viewer"])
    for rate in (0, 1e-20, 1e6, math.nan):
        with pytest.raises(ValueError, match="rate"):
            w.view(rate=rate)
    assert not w.viewing and w.time == pytest.approx(t + 0.5)


def test_a_viewer_that_stops_reading_never_blocks_the_script():
    w = rl.World()
    w.add_plane()
    for i in range(200):
        w.add_sphere(0.05, position=(0.0, 0.1 + 0.11 * i, 0.0))
    asleep = [sys.executable, "-c", "import time; time.sleep(60)"]
    w.view(command=asleep, rate=1000.0)
    # Each frame is ~40 kB: the pipe fills after a couple of frames and the writer blocks, but
    # stepping goes on, dropping frames.
    w.run(2.0, realtime=False)
    assert w.time == pytest.approx(2.0)
    assert w.viewing
    w.close_view()
    assert not w.viewing
    w.step(10)


def test_the_real_viewer_shows_the_live_world_with_bodies_added_and_removed(
    tmp_path, display, monkeypatch
):
    """w.view() with the real viewer under Xvfb: bodies added and removed in Python after the
    viewer opened appear and vanish; when the viewer's window closes (here: after its frames),
    the script goes on."""
    monkeypatch.setenv("DISPLAY", display)
    w, bodies = three_bodies()
    out = tmp_path / "live.png"
    # The viewer draws at most 60 frames a second: 240 frames outlast the change made at 1.5 s.
    w.view(
        command=[
            *VIEW,
            "--stream",
            "--screenshot",
            str(out),
            "--frames",
            "240",
            "--no-hud",
            *CAMERA,
        ]
    )
    w.run(1.5)
    assert w.viewing
    w.remove(bodies["g"])
    late = w.add_sphere(0.25, position=(0.0, 1.3, 0.0), color=(0.1, 0.8, 0.1))
    assert wait_for(lambda: (w.run(0.1), out.exists() and not w.viewing)[1], timeout=60)
    img = read_png(out)
    check_bodies_drawn(
        img, {"r": bodies["r"].position, "b": bodies["b"].position, "g": late.position}
    )
    assert dominant(pixel(img, project((0.0, 0.5, 0.0), EYE, TARGET, FOV, W, H))) is None
    t = w.time
    w.run(0.2)
    assert w.time == pytest.approx(t + 0.2)


def test_stream_command_can_be_replaced_by_the_environment(monkeypatch):
    monkeypatch.setenv("RIGIDLAB_VIEWER", "my-viewer --fast")
    assert rl.view.stream_command() == ["my-viewer", "--fast", "--stream"]
    monkeypatch.delenv("RIGIDLAB_VIEWER")
    assert rl.view.stream_command()[1:] == ["-m", "rigidlab.view", "--stream"]


# ---------------------------------------------------------------------------------------------
# The viewer's presets are the Python presets


def _same_scene(a, b) -> bool:
    """Equal scene data, numbers to 1e-12 relative: the presets' poses come from numpy, whose
    last bit can differ between its versions and machines."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_scene(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_scene(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        return (
            isinstance(a, (int, float))
            and isinstance(b, (int, float))
            and math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)
        )
    return a == b


def test_the_viewers_preset_scenes_match_the_python_presets():
    here = os.path.join(os.path.dirname(__file__), "..", "src", "viewer", "presets")
    for name, build in rl.presets.PRESETS.items():
        path = os.path.join(here, rl.presets.slug(name) + ".json")
        assert os.path.exists(path), (
            f"{path} is missing; regenerate with rigidlab.presets.export_scenes"
        )
        world, _ = build()
        with open(path) as f:
            assert _same_scene(json.load(f), json.loads(world.to_json())), (
                f"{name}: regenerate with rigidlab.presets.export_scenes('src/viewer/presets')"
            )


@pytest.mark.parametrize("sensor", [True, False])
def test_a_sensor_is_drawn_see_through_and_a_solid_is_not(tmp_path, display, sensor):
    """A red ball inside a large blue box: drawn as a sensor, the box tints what lies behind it
    and the ball shows through it; the same box as a solid hides the ball."""
    w = rl.World(gravity=(0, 0, 0))
    ball = w.add_sphere(0.2, position=(0.0, 0.6, 0.0), color=COLOURS["r"])
    w.add_box(
        (0.6, 0.5, 0.5), position=(0.0, 0.6, 0.0), color=COLOURS["b"], kind="static", sensor=sensor
    )
    scene = tmp_path / "scene.json"
    w.save(scene)
    img = screenshot(scene, 5, display, "--no-hud", *CAMERA)
    centre = pixel(img, project(ball.position, EYE, TARGET, FOV, W, H))
    beside = pixel(img, project((0.45, 0.95, 0.5), EYE, TARGET, FOV, W, H))  # the box's front face
    sky = np.array([41, 46, 54])
    # The lit front face of the box drawn opaque is about 165 blue; see-through, half way.
    opaque = 130
    if sensor:
        assert dominant(centre) == "r", centre
        assert sky[2] + 15 < beside[2] < opaque, beside
    else:
        assert dominant(centre) == "b", centre
        assert dominant(beside) == "b" and beside[2] > opaque, beside
