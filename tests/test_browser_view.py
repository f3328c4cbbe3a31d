"""The views drawn in a real browser (headless Chromium, WebGL on its software renderer): a
standalone HTML file of a recording, and a live view in a JupyterLab notebook. Bodies must be
drawn where the world says, in their colours, and the slider and the running world must move
them."""

import math

import numpy as np
import pytest
import rigidlab as rl
from browser import (
    VIEW,
    canvas_pixels,
    chromium,
    lab_notebook,
    ortho_pixel,
    run_all,
    view_state,
    wait_for,
)

COLORS = [(1.0, 0.0, 0.0), (0.0, 0.8, 0.0), (0.0, 0.0, 1.0)]
LIMITS = ((-2.0, 2.0), (-1.0, 2.0))


@pytest.fixture(scope="module")
def browser():
    b = chromium()
    yield b
    b.quit()


def flat_color(c, shade=1.0):
    """A 2D body's fill as drawn: its colour (times the shade of its rim and spoke, 0.6),
    lifted by 0.04 (webview.js's fragment shaders)."""
    return np.round(np.minimum(np.asarray(c) * shade + 0.04, 1.0) * 255)


def assert_disc(img, x, y, c, angle=0.0, radius=0.2):
    """A disc of colour c turned to `angle`, drawn centred at (x, y): filled behind its centre,
    its spoke (along its x axis) ahead of it, and its rim on either side, darker."""
    u = np.array([math.cos(angle), math.sin(angle)])
    v = np.array([-u[1], u[0]])

    def pixel(d):
        return at(img, LIMITS, x + d[0], y + d[1])

    np.testing.assert_allclose(pixel(-radius / 2 * u), flat_color(c), atol=2)
    np.testing.assert_allclose(pixel(radius / 2 * u), flat_color(c, 0.6), atol=2)
    for side in (-1, 1):
        np.testing.assert_allclose(pixel(side * 0.95 * radius * v), flat_color(c, 0.6), atol=2)


def assert_not_drawn(pixel, c):
    """The pixel is the background or the grid (light grey), not a disc of colour c."""
    assert np.all(pixel > 150) and np.ptp(pixel) < 25, (pixel, c)


def at(img, limits, x, y):
    px, py = ortho_pixel(limits, (img.shape[1], img.shape[0]), x, y)
    return img[int(py), int(px)].astype(float)


# The discs of the 2D recording turn a quarter turn in its 2 s.
SPIN = math.pi / 4


def three_discs(w):
    return [
        w.add_circle(0.2, position=(i - 1.0, 0.0), velocity=(0.0, 0.5), angular_velocity=SPIN,
                     color=c)
        for i, c in enumerate(COLORS)
    ]  # fmt: skip


def test_a_2d_recording_file_draws_each_body_where_it_was_and_the_slider_moves_it(
    browser, tmp_path
):
    w = rl.World2D(gravity=(0, 0))
    discs = three_discs(w)
    rec = w.record()
    w.run(2.0)
    path = rec.to_html(tmp_path / "discs.html", limits=LIMITS)
    browser.get(path.as_uri())
    wait_for(browser, VIEW)

    def check(t):
        img = canvas_pixels(browser)
        for c, x in zip(COLORS, (-1.0, 0.0, 1.0)):
            assert_disc(img, x, 0.5 * t, c, SPIN * t)
            # Where it is not (a disc's diameter below or above): no disc.
            other = 0.5 * t + (0.6 if t < 1 else -0.6)
            assert_not_drawn(at(img, LIMITS, x, other), c)

    check(0.0)
    assert discs[0].position[1] == pytest.approx(1.0)
    # The slider's end: the last sample; its middle: half way (the motion is uniform).
    for value, t in ((1000, 2.0), (500, 1.0)):
        browser.execute_script(
            "const v = [...document.querySelectorAll('div')].find(d => d.rigidlab);"
            "const s = v.querySelector('input[type=range]');"
            f"s.value = {value}; s.dispatchEvent(new Event('input'));"
        )
        check(t)


def test_a_3d_recording_file_draws_each_ball_in_its_colour_and_plays(browser, tmp_path):
    w = rl.World(gravity=(0, 0, 0))
    w.add_plane(offset=-1.0)
    balls = [
        w.add_sphere(0.25, position=(1.2 * i - 1.2, 0.0, 0.0), velocity=(0, 0.4, 0), color=c)
        for i, c in enumerate(COLORS)
    ]
    rec = w.record()
    w.run(1.0)
    path = rec.to_html(tmp_path / "balls.html")
    browser.get(path.as_uri())
    wait_for(browser, VIEW)
    img = canvas_pixels(browser)
    for i, c in enumerate(COLORS):
        px, py = view_state(browser, f"project([{1.2 * i - 1.2}, 0, 0])")
        pixel = img[int(py), int(px)].astype(float)
        # Lit: the colour's own channel strong, the others only the ambient lift.
        k = int(np.argmax(c))
        assert pixel[k] > 100, pixel
        assert all(pixel[j] < 40 for j in range(3) if j != k), pixel
        # Its outline: drawn just inside its radius across the view, not just outside it.
        yaw = view_state(browser, "camera.yaw")
        across = 0.25 * np.array([math.cos(yaw), 0.0, -math.sin(yaw)])
        for side in (-1, 1):
            for reach, inside in ((0.9, True), (1.15, False)):
                p = np.array([1.2 * i - 1.2, 0.0, 0.0]) + side * reach * across
                px, py = view_state(browser, f"project({[float(v) for v in p]})")
                pixel = img[int(py), int(px)].astype(float)
                strong = pixel[k] - max(pixel[j] for j in range(3) if j != k) > 60
                assert strong == inside, (i, side, reach, pixel)
    # Playing moves them: after the player reaches the end, each is drawn 0.4 m higher.
    browser.execute_script(
        "[...document.querySelectorAll('div')].find(d => d.rigidlab).rigidlab.play()"
    )
    wait_for(browser, "return [...document.querySelectorAll('div')].find(d => d.rigidlab)"
             ".rigidlab.time >= 1.0", timeout=30)  # fmt: skip
    img = canvas_pixels(browser)
    for b, c in zip(balls, COLORS):
        px, py = view_state(browser, f"project({list(map(float, b.position))})")
        pixel = img[int(py), int(px)].astype(float)
        assert np.argmax(pixel) == np.argmax(c), pixel


LIVE_NOTEBOOK = [
    "import rigidlab as rl\n"
    "w = rl.World2D(gravity=(0, 0))\n"
    "discs = [w.add_circle(0.2, position=(i - 1.0, 0.0), velocity=(0.0, 0.5), color=c)\n"
    "         for i, c in enumerate([(1.0, 0.0, 0.0), (0.0, 0.8, 0.0), (0.0, 0.0, 1.0)])]\n"
    "view = w.show(limits=((-2.0, 2.0), (-1.0, 2.0)))\n"
    "view",
    "w.run(2.0)",
]


def test_a_live_view_in_jupyterlab_follows_the_world_as_the_notebook_runs_it(tmp_path):
    with lab_notebook(tmp_path, LIVE_NOTEBOOK) as browser:
        run_all(browser)
        wait_for(browser, VIEW, timeout=60)
        # The poses come as binary buffers, not JSON.
        assert view_state(browser, "model.get('poses') instanceof DataView")
        received = view_state(browser, "frames")
        wait_for(browser, "return [...document.querySelectorAll('div')].find(d => d.rigidlab)"
                 ".rigidlab.model.get('time') >= 2.0", timeout=60)  # fmt: skip
        # It followed the run (2 s of real time at up to 30 updates a second), not only its end.
        assert view_state(browser, "frames") - received >= 20
        img = canvas_pixels(browser)
        for c, x in zip(COLORS, (-1.0, 0.0, 1.0)):
            assert_disc(img, x, 1.0, c)
            assert_not_drawn(at(img, LIMITS, x, 0.0), c)


def red_near(img, limits, x, y, reach=4):
    """Whether a contact mark (red) is drawn within `reach` pixels of the point (x, y)."""
    px, py = ortho_pixel(limits, (img.shape[1], img.shape[0]), x, y)
    patch = img[int(py) - reach : int(py) + reach + 1, int(px) - reach : int(px) + reach + 1]
    patch = patch.astype(int)
    return bool(np.any((patch[..., 0] > 180) & (patch[..., 1] < 90) & (patch[..., 2] < 90)))


def test_recorded_contact_points_are_marked_where_they_were_and_can_be_hidden(browser, tmp_path):
    w = rl.World2D()
    w.add_ground()
    w.add_circle(0.3, position=(-1.0, 0.3), color=(0.0, 0.0, 1.0))
    w.add_circle(0.3, position=(1.0, 1.0), color=(0.0, 0.0, 1.0))
    w.step()  # the first sample has the contacts found in a step
    rec = w.record(quantities=["positions", "orientations", "contact_points"])
    w.run(1.0)
    limits = ((-2.0, 2.0), (-1.0, 2.0))
    path = rec.to_html(tmp_path / "contacts.html", limits=limits)
    browser.get(path.as_uri())
    wait_for(browser, VIEW)
    # At the start only the resting disc touches the ground.
    img = canvas_pixels(browser)
    assert red_near(img, limits, -1.0, 0.0)
    assert not red_near(img, limits, 1.0, 0.0)
    browser.execute_script(
        "const v = [...document.querySelectorAll('div')].find(d => d.rigidlab);"
        "const s = v.querySelector('input[type=range]');"
        "s.value = 1000; s.dispatchEvent(new Event('input'));"
    )
    img = canvas_pixels(browser)
    ends = [tuple(p) for p in rec.contact_points[-1]]
    assert len(ends) == 2
    assert all(red_near(img, limits, x, y) for x, y in ends)
    # The checkbox hides them.
    browser.execute_script(
        "const v = [...document.querySelectorAll('div')].find(d => d.rigidlab);"
        "const box = [...v.querySelectorAll('label')].find(l => l.textContent.includes('contacts'))"
        ".querySelector('input'); box.click();"
    )
    img = canvas_pixels(browser)
    assert not any(red_near(img, limits, x, y) for x, y in ends)
