"""The notebook view (World.show, Recording.show, Recording.to_html) with 1 000 bodies: the size
of a standalone file, how fast it plays in a browser, and how often a live view in JupyterLab is
updated and drawn while a notebook runs its world; beside World.animate (matplotlib) for the
same 3 s.

The browser is Debian's Chromium, headless, whose WebGL runs on SwiftShader (its software
renderer, on this machine's cores): a browser with a GPU draws faster. Writes
benchmarks/WEBVIEW.md.

    benchmarks/webview.sh            # sets up, then runs this
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import rigidlab as rl
from machine import cpu

HERE = Path(__file__).resolve().parent
# The tests' headless Chromium and JupyterLab helpers.
sys.path.insert(0, str(HERE.parent / "tests"))
from browser import VIEW, chromium, lab_notebook, run_all, view_state, wait_for  # noqa: E402

N = 1000


def lattice(world: rl.World, n: int) -> None:
    """n balls and cubes on a 10 x 10 lattice, moving up slowly (no gravity: nothing collides,
    so the measure is the view's, not the physics')."""
    for i in range(n):
        x, z, y = (i % 10) * 0.2, ((i // 10) % 10) * 0.2, (i // 100) * 0.2
        if i % 2:
            world.add_sphere(0.05, position=(x, y, z), velocity=(0, 0.1, 0))
        else:
            world.add_box((0.05, 0.05, 0.05), position=(x, y, z), angular_velocity=(1, 2, 0))


def lattice_2d(world: rl.World2D, n: int) -> None:
    """n discs and squares on a 40-wide lattice, discs moving up slowly, squares turning."""
    for i in range(n):
        x, y = (i % 40) * 0.12, (i // 40) * 0.12
        if i % 2:
            world.add_circle(0.05, position=(x, y), velocity=(0, 0.1))
        else:
            world.add_box((0.05, 0.05), position=(x, y), angular_velocity=1.0)


def export(folder: Path, planar: bool = False) -> dict:
    w = rl.World2D(gravity=(0, 0)) if planar else rl.World(gravity=(0, 0, 0))
    (lattice_2d if planar else lattice)(w, N)
    rec = w.record()
    w.run(10.0)
    start = time.perf_counter()
    path = rec.to_html(folder / f"recording{'_2d' if planar else ''}.html")
    took = time.perf_counter() - start
    return {"path": path, "seconds": took, "bytes": path.stat().st_size, "samples": len(rec)}


def playback(path: Path, seconds: float) -> dict:
    browser = chromium(1200, 800)
    try:
        start = time.perf_counter()
        browser.get(path.as_uri())
        wait_for(browser, VIEW)
        load = time.perf_counter() - start
        browser.execute_script(
            "[...document.querySelectorAll('div')].find(d => d.rigidlab).rigidlab.play()"
        )
        time.sleep(0.5)
        a = browser.execute_script("return performance.now()"), view_state(browser, "frames")
        time.sleep(seconds)
        b = browser.execute_script("return performance.now()"), view_state(browser, "frames")
        renderer = browser.execute_script(
            "const gl = document.createElement('canvas').getContext('webgl2');"
            "const i = gl.getExtension('WEBGL_debug_renderer_info');"
            "return i ? gl.getParameter(i.UNMASKED_RENDERER_WEBGL) : 'unknown';"
        )
        version = browser.capabilities.get("browserVersion", "?")
    finally:
        browser.quit()
    return {
        "load": load,
        "fps": (b[1] - a[1]) / ((b[0] - a[0]) / 1000),
        "renderer": renderer,
        "version": version,
    }


LIVE = [
    "import time\n"
    "import rigidlab as rl\n"
    "w = rl.World(gravity=(0, 0, 0))\n"
    "for i in range(1000):\n"
    "    x, z, y = (i % 10) * 0.2, ((i // 10) % 10) * 0.2, (i // 100) * 0.2\n"
    "    if i % 2:\n"
    "        w.add_sphere(0.05, position=(x, y, z), velocity=(0, 0.1, 0))\n"
    "    else:\n"
    "        w.add_box((0.05, 0.05, 0.05), position=(x, y, z), angular_velocity=(1, 2, 0))\n"
    "view = w.show(fps={fps})\n"
    "view",
    "start = time.perf_counter(); sent = view.updates; w.run({seconds}); "
    "rate = (view.updates - sent) / (time.perf_counter() - start)",
]


def live(folder: Path, seconds: float, fps: float = 30.0) -> dict:
    cells = [LIVE[0].format(fps=fps), LIVE[1].format(seconds=seconds)]
    with lab_notebook(folder, cells) as browser:
        run_all(browser)
        wait_for(browser, VIEW, timeout=120)
        wait_for(
            browser,
            "return [...document.querySelectorAll('div')].find(d => d.rigidlab)"
            ".rigidlab.model.get('time') > 0.5",
            timeout=60,
        )
        a = (
            browser.execute_script("return performance.now()"),
            view_state(browser, "frames"),
            view_state(browser, "drawn"),
        )
        time.sleep(seconds / 2)
        b = (
            browser.execute_script("return performance.now()"),
            view_state(browser, "frames"),
            view_state(browser, "drawn"),
        )
        size = view_state(browser, "model.get('poses').byteLength")
    span = (b[0] - a[0]) / 1000
    return {"received": (b[1] - a[1]) / span, "drawn": (b[2] - a[2]) / span, "bytes": size}


def animate_baseline(folder: Path) -> dict:
    """World.animate of the same world for 3 s (matplotlib, 30 frames a second) as HTML."""
    code = (
        "import time, rigidlab as rl, sys\n"
        f"sys.path.insert(0, {str(HERE)!r})\n"
        "from webview_frames import lattice\n"
        "w = rl.World(gravity=(0, 0, 0)); lattice(w, 1000)\n"
        "start = time.perf_counter(); a = w.animate(3.0, fps=30)\n"
        "html = a.to_jshtml() if hasattr(a, 'to_jshtml') else a.data\n"
        "print(time.perf_counter() - start, len(html))\n"
    )
    env = dict(os.environ, MPLBACKEND="Agg")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    if out.returncode != 0:
        return {"error": out.stderr.strip().splitlines()[-1]}
    seconds, size = out.stdout.split()
    return {"seconds": float(seconds), "bytes": int(size)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="playback and live run (s)")
    parser.add_argument("--output", default=str(HERE / "WEBVIEW.md"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ex = export(folder)
        play = playback(ex["path"], args.seconds)
        play_2d = playback(export(folder, planar=True)["path"], args.seconds)
        (folder / "lab").mkdir()
        lv = live(folder / "lab", args.seconds)
        (folder / "lab60").mkdir()
        lv60 = live(folder / "lab60", args.seconds, fps=60.0)
        base = animate_baseline(folder)
    lines = [
        "# The notebook view",
        "",
        f"{N} bodies (balls and cubes, turning, nothing colliding) on {cpu()} "
        f"({os.cpu_count()} cores), Python {platform.python_version()}, rigidlab {rl.__version__}, "
        f"Chromium {play['version']} headless, WebGL on {play['renderer']}: software rendering on "
        "the CPU, as on a machine without a GPU. `benchmarks/webview.sh` writes this file.",
        "",
        "| what | measured |",
        "|---|---|",
        f"| `rec.to_html` of 10 s ({ex['samples']} samples, 30 a second kept): file size | "
        f"{ex['bytes'] / 1e6:.1f} MB |",
        f"| `rec.to_html`: time to write it | {ex['seconds']:.2f} s |",
        f"| the file opened in Chromium: until the first frame is drawn | {play['load']:.2f} s |",
        f"| the file playing: frames drawn a second | {play['fps']:.1f} |",
        f"| the same for a 2D world ({N} discs and squares): frames drawn a second | "
        f"{play_2d['fps']:.1f} |",
        f"| `w.show()` in JupyterLab while `w.run` runs: updates sent a second by the kernel, "
        f"received by the browser | {lv['received']:.1f} |",
        f"| ... frames drawn a second | {lv['drawn']:.1f} |",
        f"| ... one update (the poses as float32, binary) | {lv['bytes'] / 1e3:.1f} kB |",
        f"| `w.show(fps=60)`: updates received a second | {lv60['received']:.1f} |",
        f"| ... frames drawn a second | {lv60['drawn']:.1f} |",
    ]
    if "error" in base:
        lines.append(f"| `w.animate(3.0)` (matplotlib) | failed: {base['error']} |")
    else:
        lines += [
            f"| `w.animate(3.0, fps=30)` (matplotlib), for comparison: time to make | "
            f"{base['seconds']:.1f} s |",
            f"| ... its HTML | {base['bytes'] / 1e6:.1f} MB |",
        ]
    lines += [
        "",
        "The view reads the bodies' poses from a texture and draws each shape's bodies in "
        "draws of 256 copies of its mesh (SwiftShader spends about 10 us on each instance of "
        "an instanced draw); balls and discs are squares, the sphere or circle found per pixel. "
        "A GPU draws 1 000 bodies far faster than SwiftShader does, so the frame rates here are "
        "the floor. Live, the view draws each update the kernel sends (30 a second).",
        "",
    ]
    Path(args.output).write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
