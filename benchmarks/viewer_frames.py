"""Frame time of the viewer with 1 000 bodies, rendered by Mesa's software OpenGL under Xvfb.

Runs `rigidlab-view --frames N --timing` on three scenes at 1280 x 720 and writes
benchmarks/VIEWER.md. Each frame draws every body (batched into a few draw calls), the floor,
the HUD and the energy graph. Resident memory is read at frame 30 and at the end, to show that
the frame loop does not grow.

    benchmarks/viewer.sh            # sets up, then runs this
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile

import rigidlab as rl
from machine import cpu, start_xvfb

HERE = os.path.dirname(os.path.abspath(__file__))


def heap(n: int = 1000) -> rl.World:
    """Spheres and cubes alternating in a 10 x 10 x 10 lattice above the floor (they fall into a
    heap when running)."""
    w = rl.World()
    w.add_plane(name="floor")
    for i in range(n):
        x, z, y = (i % 10) * 0.12 - 0.54, ((i // 10) % 10) * 0.12 - 0.54, 0.06 + (i // 100) * 0.12
        if i % 2:
            w.add_sphere(0.05, position=(x, y, z))
        else:
            w.add_box((0.045, 0.045, 0.045), position=(x, y, z))
    return w


def orbiting(n: int = 1000) -> rl.World:
    """Spheres and cubes 0.32 m apart on a 40 x 25 grid in zero gravity, each spinning: every
    body moves, nothing touches, so stepping is cheap and the frame is mostly drawing."""
    w = rl.World(gravity=(0, 0, 0))
    for i in range(n):
        x, y = (i % 40) * 0.32 - 6.4, (i // 40) * 0.32 - 4.0
        kw = dict(position=(x, y, 0.0), angular_velocity=(1.0, 2.0, 0.5), velocity=(0.0, 0.0, 0.1))
        if i % 2:
            w.add_sphere(0.1, **kw)
        else:
            w.add_box((0.09, 0.09, 0.09), **kw)
    return w


def measure(scene: str, frames: int, display: str, extra: list[str]) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "timing.json")
        cmd = [
            sys.executable,
            "-m",
            "rigidlab.view",
            scene,
            "--frames",
            str(frames),
            "--timing",
            out,
            "--size",
            "1280x720",
            *extra,
        ]
        subprocess.run(cmd, env=dict(os.environ, DISPLAY=display), check=True, timeout=1800)
        with open(out) as f:
            return json.load(f)


def mesa_version() -> str:
    try:
        out = subprocess.run(
            ["dpkg-query", "-W", "-f", "${Version}", "libgl1-mesa-dri"],
            capture_output=True,
            text=True,
        )
        return (
            f"Mesa {out.stdout.strip()} (llvmpipe, software)" if out.returncode == 0 else "unknown"
        )
    except OSError:
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--output", default=os.path.join(HERE, "VIEWER.md"))
    args = parser.parse_args()
    proc, display = start_xvfb()
    rows = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            cases = [
                ("heap of 1 000, paused (drawing only)", heap(), ["--paused"]),
                ("heap of 1 000, falling and piling up", heap(), []),
                ("1 000 spinning in zero g", orbiting(), []),
            ]
            for name, world, extra in cases:
                path = os.path.join(tmp, "scene.json")
                world.save(path)
                t = measure(path, args.frames, display, extra)
                rows.append((name, t))
                print(
                    f"{name}: median frame {t['median_ms']:.1f} ms, p95 {t['p95_ms']:.1f} ms, simulation {t['simulation_median_ms']:.1f} ms",
                    flush=True,
                )
    finally:
        proc.terminate()
        proc.wait(10)
    lines = [
        "# Viewer frame time",
        "",
        f"`rigidlab-view --frames {args.frames} --timing` at 1280 x 720 under Xvfb with {mesa_version()},",
        f"on {cpu()} ({os.cpu_count()} cores), Python {platform.python_version()}, rigidlab {rl.__version__}.",
        "Frames are not synchronised to a display, so a frame's time is what it costs. Each running",
        "frame advances the world by 1/60 s (4 steps of 1/240 s); 'simulation' is that part.",
        "",
        "| scene | bodies | median frame (ms) | p95 (ms) | frames/s | simulation (ms) | draw calls | resident memory, frame 30 -> end (MB) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, t in rows:
        mem = (
            f"{t['rss_kb_at_frame_30'] / 1024:.0f} -> {t['rss_kb_at_end'] / 1024:.0f}"
            if t.get("rss_kb_at_frame_30")
            else "n/a"
        )
        lines.append(
            f"| {name} | {t['bodies']} | {t['median_ms']:.1f} | {t['p95_ms']:.1f} | {1000 / t['median_ms']:.0f} | {t['simulation_median_ms']:.1f} | {t['batches']} | {mem} |"
        )
    lines.append("")
    with open(args.output, "w") as f:
        f.write("\n".join(lines))
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
