"""Animations for notebooks without the viewer: the world run for some seconds and drawn in a
coordinate plane with matplotlib, frame by frame, as an HTML animation (works headless, with
no video encoder) or a GIF. ``World.animate`` calls this.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

__all__ = ["animate"]

_PLANES = {"xy": (0, 1), "xz": (0, 2), "zy": (2, 1)}


def _rotation(q: np.ndarray) -> np.ndarray:
    x, y, z, w = q
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def _hull_2d(points: np.ndarray) -> np.ndarray:
    """The convex hull of 2D points, counter-clockwise (monotone chain)."""
    pts = np.unique(np.round(points, 12), axis=0)
    if len(pts) < 3:
        return pts

    def half(seq):
        out: list = []
        for p in seq:
            while len(out) >= 2 and np.cross(out[-1] - out[-2], p - out[-2]) <= 0:
                out.pop()
            out.append(p)
        return out

    lower, upper = half(pts), half(pts[::-1])
    return np.array(lower[:-1] + upper[:-1])


def _outline(body) -> np.ndarray | None:
    """Body-frame points whose projection's hull is the body's silhouette (None: a circle)."""
    dims = body.dimensions
    kind = body.shape
    if kind == "sphere":
        return None
    if kind == "box":
        h = np.asarray(dims["half_extents"])
        return np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * h
    if kind == "capsule":
        r, hh = dims["radius"], dims["half_height"]
        u = np.linspace(0, np.pi, 9)
        v = np.linspace(0, 2 * np.pi, 17)
        sphere = r * np.stack(
            [
                np.outer(np.sin(u), np.cos(v)),
                np.outer(np.cos(u), np.ones_like(v)),
                np.outer(np.sin(u), np.sin(v)),
            ],
            axis=-1,
        ).reshape(-1, 3)
        return np.concatenate([sphere + [0, hh, 0], sphere - [0, hh, 0]])
    return np.asarray(dims["vertices"])


def _pair(value, param, ok, what):
    """Two real numbers (not bools) passing `ok`, as floats; the error names `param`."""
    try:
        items = list(value)
    except TypeError:
        raise TypeError(f"{param}: must be {what}") from None
    if len(items) != 2 or any(
        isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating))
        for x in items
    ):
        raise TypeError(f"{param}: must be {what} (got {value!r})")
    pair = (float(items[0]), float(items[1]))
    if not all(ok(x) for x in pair):
        raise ValueError(f"{param}: must be {what} (got {value!r})")
    return pair


def animate(
    world: Any,
    seconds: float,
    fps: float = 30.0,
    plane: str = "xy",
    size: tuple[float, float] = (6.0, 4.0),
    limits: Any = None,
    save: str | None = None,
) -> Any:
    """Runs `world` for `seconds` (it advances), drawing it `fps` times a second (at most 1000) seen along the
    axis missing from `plane` ("xy": the side view with y up; "xz": from above; "zy"). Returns
    an IPython HTML animation when IPython is there (a notebook shows it), else the matplotlib
    FuncAnimation; with save="file.gif" it is also written as a GIF."""
    import matplotlib.pyplot as plt
    from matplotlib import animation, patches

    if plane not in _PLANES:
        raise ValueError(f"plane: expected one of {', '.join(_PLANES)}, got {plane!r}")
    seconds = float(seconds)
    fps = float(fps)
    if not (np.isfinite(seconds) and seconds >= 0):
        raise ValueError(f"seconds: must be a finite number >= 0 (got {seconds})")
    # Beyond 1000 frames a second no screen or GIF shows a difference.
    if not (np.isfinite(fps) and 0 < fps <= 1000):
        raise ValueError(f"fps: must be a number in (0, 1000] (got {fps})")
    if seconds * fps > 100_000:
        raise ValueError(
            f"seconds: {seconds} s at {fps} frames a second is more than 100 000 frames"
        )
    size = _pair(
        size, "size", lambda x: 0 < x <= 100, "two numbers in (0, 100] inches (width, height)"
    )
    if limits is not None:
        try:
            limits = tuple(
                _pair(
                    r, "limits", np.isfinite, "((x_min, x_max), (y_min, y_max)) of finite numbers"
                )
                for r in limits
            )
        except TypeError:
            raise TypeError("limits: must be ((x_min, x_max), (y_min, y_max))") from None
        if len(limits) != 2 or any(lo >= hi for lo, hi in limits):
            raise ValueError(
                f"limits: must be ((x_min, x_max), (y_min, y_max)) with min < max (got {limits})"
            )
    if save is not None and not isinstance(save, (str, os.PathLike)):
        raise TypeError(f"save: must be a file name (got {type(save).__name__})")
    i, j = _PLANES[plane]
    bodies = list(world.bodies)
    solids = [b for b in bodies if b.shape != "plane"]
    planes = [b for b in bodies if b.shape == "plane"]
    outlines = [_outline(b) for b in solids]
    steps_per_frame = max(1, int(round(1.0 / (fps * world.dt))))
    frames = int(round(seconds / (steps_per_frame * world.dt))) + 1
    rows = [b.index for b in solids]
    poses = []
    for k in range(frames):
        if k:
            world.step(steps_per_frame)
        poses.append((world.time, world.positions[rows], world.orientations[rows]))

    fig, ax = plt.subplots(figsize=size)
    ax.set_aspect("equal")
    ax.set(xlabel="xyz"[i] + " (m)", ylabel="xyz"[j] + " (m)")
    if limits is None:
        allp = np.concatenate([p for _, p, _ in poses]) if rows else np.zeros((1, 3))
        reach = (
            max(
                (b.dimensions["radius"] if o is None else float(np.linalg.norm(o, axis=1).max()))
                for b, o in zip(solids, outlines)
            )
            if solids
            else 1.0
        )
        lo, hi = allp.min(axis=0) - reach * 1.5, allp.max(axis=0) + reach * 1.5
        limits = ((lo[i], hi[i]), (lo[j], hi[j]))
    ax.set_xlim(*limits[0])
    ax.set_ylim(*limits[1])
    # A plane seen edge-on is the filled half-plane below its line.
    for p in planes:
        n = np.asarray(p.dimensions["normal"])
        d = p.dimensions["offset"]
        n2 = np.array([n[i], n[j]])
        if np.linalg.norm(n2) < 1e-9:
            continue
        t = np.array([-n2[1], n2[0]])
        c = n2 * d / (n2 @ n2)
        span = 1e3
        corners = [c - t * span, c + t * span, c + t * span - n2 * span, c - t * span - n2 * span]
        ax.add_patch(patches.Polygon(corners, closed=True, color="0.75", zorder=0))
    colours = [
        b.color or ("0.55" if b.kind != "dynamic" else plt.cm.tab10(k % 10)[:3])
        for k, b in enumerate(solids)
    ]
    artists = []
    for b, colour in zip(solids, colours):
        if b.shape == "sphere":
            artists.append(
                ax.add_patch(patches.Circle((0, 0), b.dimensions["radius"], color=colour))
            )
        else:
            artists.append(
                ax.add_patch(patches.Polygon(np.zeros((3, 2)), closed=True, color=colour))
            )
    clock = ax.text(0.02, 0.95, "", transform=ax.transAxes, va="top")

    def draw(k):
        t, pos, ori = poses[k]
        for a, outline, p, q in zip(artists, outlines, pos, ori):
            if outline is None:
                a.center = (p[i], p[j])
            else:
                world_pts = outline @ _rotation(q).T + p
                a.set_xy(_hull_2d(world_pts[:, [i, j]]))
        clock.set_text(f"t = {t:.2f} s")
        return [*artists, clock]

    anim = animation.FuncAnimation(fig, draw, frames=len(poses), interval=1000.0 / fps, blit=False)
    plt.close(fig)
    if save:
        anim.save(save, writer=animation.PillowWriter(fps=fps))
    try:
        from IPython.display import HTML
    except ImportError:
        return anim
    return HTML(anim.to_jshtml())
