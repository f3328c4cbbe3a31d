"""Views in the browser: a world or a recording drawn with WebGL inside Jupyter, with no
window, no X server and no port beyond the notebook's own connection, and as standalone HTML
files that play offline.

- ``w.show()`` (``World.show``, ``World2D.show``): a widget that follows the world live while
  the notebook runs it (``w.run(...)`` in later cells moves it); each update sends the bodies'
  poses as one binary array (7 float32 a body), never JSON per body.
- ``rec.show()``: a player for a Recording: play/pause, a time slider, the speed.
- ``rec.to_html(path)`` and ``view.save(path)``: the same player or view in one HTML file, its
  data inside (base64 float32), for lab reports: a 10 s recording of 1 000 bodies at 30 samples
  a second is about 11 MB.

The widgets are anywidget widgets (the JavaScript ships inside the anywidget wheel and this
package: nothing is fetched from the network). The drawing is rigidlab's own small WebGL2
renderer (webview.js): the poses in a texture and a draw per 256 bodies of a shape, so 1 000
bodies are a few draw calls (balls and discs are squares, the sphere or circle found per
pixel). Why
anywidget and not k3d, pythreejs or viser: k3d draws one mesh object per body (1 000 objects) or
resends every vertex each frame, and its standalone export embeds its whole library; pythreejs
has had no release since 2023 and its static export loads its JavaScript from a CDN; viser
serves the scene from a web server of its own on another port, which hosted notebooks do not
forward. anywidget is maintained, carries binary arrays over the comm channel, and leaves the
drawing (and so the static export) to us.
"""

from __future__ import annotations

import base64
import html
import json
import math
import os
import time
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from .animation import _rotation

__all__ = [
    "LiveView",
    "Player",
    "color",
    "describe",
    "poses",
    "recording_contacts",
    "recording_frames",
    "recording_html",
    "show_recording",
    "show_world",
    "write_html",
]


class LiveView(Protocol):
    """What World.show returns: a widget (anywidget) that follows the world."""

    @property
    def updates(self) -> int:
        """How many states the view has been sent."""
        ...

    def save(self, path: str | os.PathLike[str], *, title: str = ...) -> Path:
        """Writes the view as it is now to a standalone HTML file."""
        ...

    def close(self) -> None:
        """Closes the widget; the world stops sending it its state."""
        ...


class Player(Protocol):
    """What Recording.show returns: a widget (anywidget) that plays the recording."""

    def close(self) -> None: ...


_JS = Path(__file__).with_name("webview.js")

# The viewer's colours (src/viewer/render.rs, body_color and palette): a body's own, else one
# stepped around the hue circle by its id by the golden angle; static bodies grey.
_PLANE_GREY = (0.62, 0.64, 0.66)
_STATIC_GREY = (0.55, 0.57, 0.6)

# How far a plane or ground is drawn from the scene's middle, in sizes of the scene.
_PLANE_REACH = 50.0


def color(body: Any) -> list[float]:
    """The colour the desktop viewer gives `body` (r, g, b in 0..1)."""
    own = body.color
    if own is not None:
        return [float(c) for c in own]
    if body.kind != "dynamic":
        return list(_PLANE_GREY if body.shape == "plane" else _STATIC_GREY)
    h = math.modf(body.id * 0.618_033_988_749_895 + 0.1)[0]
    s, v = 0.65, 0.92
    i = math.floor(h * 6.0)
    f = h * 6.0 - i
    p, q, t = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
    return list([(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i % 6])


def _extent(body: Any) -> float:
    """A radius about the body's centre that holds it (0 for planes)."""
    d = body.dimensions
    shape = body.shape
    if shape == "sphere":
        return float(d["radius"])
    if shape == "box":
        return float(np.linalg.norm(d["half_extents"]))
    if shape == "capsule":
        return float(d["radius"] + d["half_height"])
    if shape in ("convex", "polygon"):
        return float(np.max(np.linalg.norm(np.asarray(d["vertices"]), axis=1)))
    if shape == "segment":
        return float(np.max(np.linalg.norm(np.asarray(d["vertices"]), axis=1)) + d["radius"])
    return 0.0


def _normal(d: dict[str, Any]) -> np.ndarray:
    """A plane's (or a ground's) normal as a 3-vector."""
    n = np.zeros(3)
    n[: len(d["normal"])] = d["normal"]
    return n


def _mesh(body: Any, planar: bool, middle: np.ndarray, size: float) -> tuple[str, dict]:
    """A key shared by bodies drawn alike, and the mesh's description in the body's frame."""
    d = body.dimensions
    shape = body.shape
    if shape == "sphere":
        return f"sphere {d['radius']!r}", {"shape": "sphere", "radius": float(d["radius"])}
    if shape == "box":
        h = [float(x) for x in d["half_extents"]] + [0.0] * (3 - len(d["half_extents"]))
        return f"box {h!r}", {"shape": "box", "half_extents": h}
    if shape == "capsule":
        r, hh = float(d["radius"]), float(d["half_height"])
        return f"capsule {r!r} {hh!r}", {"shape": "capsule", "radius": r, "half_height": hh}
    if shape in ("convex", "polygon"):
        v = np.asarray(d["vertices"], dtype=float)
        spec: dict[str, Any] = {"shape": "convex", "vertices": v.tolist()}
        if "faces" in d:
            spec["faces"] = [list(map(int, f)) for f in d["faces"]]
        return f"body {body.id}", spec
    if shape == "segment":
        v = np.asarray(d["vertices"], dtype=float)
        return f"body {body.id}", {
            "shape": "segment",
            "vertices": v.tolist(),
            "radius": float(d["radius"]),
        }
    # A plane: a large patch of it around the scene's middle (a ground in 2D: the half-plane
    # below its line), in the body's frame.
    n = _normal(d)
    o = n * float(d["offset"])
    reach = _PLANE_REACH * size
    if planar:
        t = np.array([-n[1], n[0], 0.0])
        c = o + t * np.dot(middle - o, t)
        # Counter-clockwise seen from +z: along the line, then down into the ground.
        corners = [
            c - reach * t,
            c + reach * t,
            c + reach * t - reach * n,
            c - reach * t - reach * n,
        ]
    else:
        c = middle - n * np.dot(middle - o, n)
        a = np.cross(n, [1.0, 0.0, 0.0] if abs(n[0]) < 0.9 else [0.0, 0.0, 1.0])
        a /= np.linalg.norm(a)
        b = np.cross(n, a)
        # Counter-clockwise about n (a x b = n).
        corners = [c + reach * (sa * a + sb * b) for sa, sb in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    # Into the body's frame: x_local = R^T (x - position), as rows: (x - position) R.
    local = (np.asarray(corners) - np.asarray(body.position)) @ _rotation(body.orientation)
    return f"body {body.id}", {"shape": "fill", "points": local.tolist()}


def _links(world: Any, index: dict[int, int]) -> list[dict]:
    """Springs and joints: the bodies' places in the scene (-1: the world) and their anchors
    (in the body's frame, or a world point)."""
    out = []
    for kind, items in (("spring", world.springs), ("joint", world.joints)):
        for link in items:
            a, b = link.body_a, link.body_b
            out.append(
                {
                    "kind": kind if kind == "spring" else str(link.kind),
                    "a": index.get(a.id, -1),
                    "anchor_a": [float(x) for x in link.anchor_a],
                    "b": -1 if b is None else index.get(b.id, -1),
                    "anchor_b": [float(x) for x in link.anchor_b],
                }
            )
    return out


def _limits(
    centres: np.ndarray, extents: np.ndarray, planar: bool, limits: Any
) -> list[list[float]]:
    """The box the camera fits: `limits` if given, else the bodies' (planes left out)."""
    if limits is not None:
        box = _check_limits(limits, planar)
        return [[float(x) for x in box[0]], [float(x) for x in box[1]]]
    if len(centres) == 0:
        lo, hi = np.full(3, -1.0), np.full(3, 1.0)
    else:
        lo = np.min(centres - extents[:, None], axis=0)
        hi = np.max(centres + extents[:, None], axis=0)
    pad = 0.05 * max(float(np.max(hi - lo)), 1e-3)
    lo, hi = lo - pad, hi + pad
    if planar:
        lo[2], hi[2] = 0.0, 0.0
    return [lo.tolist(), hi.tolist()]


def _check_limits(limits: Any, planar: bool) -> np.ndarray:
    """((x0, x1), (y0, y1)[, (z0, z1)]) as [[x0, y0, z0], [x1, y1, z1]]."""
    what = "((x0, x1), (y0, y1))" + ("" if planar else " or ((x0, x1), (y0, y1), (z0, z1))")
    try:
        box = np.asarray(limits, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"limits: must be {what} (got {limits!r})") from None
    if box.ndim != 2 or box.shape[1] != 2 or box.shape[0] not in ((2,) if planar else (2, 3)):
        raise ValueError(f"limits: must be {what} (got {limits!r})")
    if not np.all(np.isfinite(box)) or np.any(box[:, 1] <= box[:, 0]):
        raise ValueError(f"limits: each pair must be finite and increasing (got {limits!r})")
    if box.shape[0] == 2:
        box = np.vstack([box, [0.0, 0.0]])
    return box.T.copy()


def describe(world: Any, limits: Any = None, centres: np.ndarray | None = None) -> dict[str, Any]:
    """The scene a view draws: every body's mesh and colour, springs and joints, the box the
    camera fits (`limits`, else the bodies', or `centres` (T, n, 3) over time), the floor."""
    core = getattr(world, "_world", world)
    planar = bool(core.planar)
    bodies = core.bodies
    positions = np.asarray(core.positions, dtype=float).reshape(-1, 3)
    solid = np.array([b.shape != "plane" for b in bodies], dtype=bool)
    extents = np.array([_extent(b) for b in bodies], dtype=float)
    if centres is None:
        centres = positions[None]
    flat = centres[:, solid].reshape(-1, 3)
    ext = np.broadcast_to(extents[solid], centres[:, solid].shape[:2]).reshape(-1)
    if limits is None and len(flat):
        # The floor under the bodies is in view too: each plane's point nearest their middle.
        middle = (np.min(flat, axis=0) + np.max(flat, axis=0)) / 2
        near = []
        for b in bodies:
            if b.shape == "plane":
                n = _normal(b.dimensions)
                near.append(middle - n * (np.dot(middle, n) - float(b.dimensions["offset"])))
        if near:
            flat = np.vstack([flat, near])
            ext = np.concatenate([ext, np.zeros(len(near))])
    box = _limits(flat, ext, planar, limits)
    middle = (np.asarray(box[0]) + np.asarray(box[1])) / 2
    size = max(float(np.max(np.asarray(box[1]) - np.asarray(box[0]))), 1e-3)
    meshes: dict[str, dict] = {}
    described = []
    for b in bodies:
        key, spec = _mesh(b, planar, middle, size)
        meshes.setdefault(key, spec)
        described.append(
            {"id": int(b.id), "name": b.name, "kind": b.kind, "color": color(b), "mesh": key}
        )
    floors = [
        float(b.dimensions["offset"])
        for b in bodies
        if b.shape == "plane" and abs(float(b.dimensions["normal"][1])) > 0.999
    ]
    index = {int(b.id): i for i, b in enumerate(bodies)}
    return {
        "planar": planar,
        "bodies": described,
        "meshes": meshes,
        "links": _links(core, index),
        "limits": box,
        "floor": max(floors) if floors else box[0][1],
    }


def poses(world: Any) -> np.ndarray:
    """Every body's pose as the view reads it: (n, 7) float32, position and quaternion."""
    core = getattr(world, "_world", world)
    x = np.asarray(core.positions, dtype=np.float32).reshape(-1, 3)
    q = np.asarray(core.orientations, dtype=np.float32).reshape(-1, 4)
    return np.ascontiguousarray(np.hstack([x, q]))


def _fps(fps: Any) -> float:
    if isinstance(fps, bool) or not isinstance(fps, (int, float, np.integer, np.floating)):
        raise TypeError(f"fps: must be a number of frames a second (got {fps!r})")
    fps = float(fps)
    if not (math.isfinite(fps) and 0.1 <= fps <= 1000.0):
        raise ValueError(f"fps: must be between 0.1 and 1000 (got {fps!r})")
    return fps


def _height(height: Any) -> int:
    if isinstance(height, bool) or not isinstance(height, (int, np.integer)):
        raise TypeError(f"height: must be a whole number of pixels (got {height!r})")
    if not 100 <= int(height) <= 4000:
        raise ValueError(f"height: must be between 100 and 4000 pixels (got {height!r})")
    return int(height)


def recording_frames(
    rec: Any, fps: float = 30.0, limits: Any = None
) -> tuple[dict[str, Any], np.ndarray, np.ndarray]:
    """A recording as a view plays it: the scene (from the world when it began; the camera
    fits `limits`, else the bodies over the whole recording), the poses (T, n, 7) float32 of
    the samples kept (about `fps` a second of simulated time, the first and last always) and
    their times (T,) float64."""
    core = getattr(rec, "_rec", rec)
    fps = _fps(fps)
    if len(core) == 0:
        raise ValueError("rec: the recording has no samples yet (step the world first)")
    if "positions" not in core.quantities:
        raise ValueError("rec: positions were not recorded (record them to show the recording)")
    times = np.asarray(core.time, dtype=float)
    grid = np.arange(times[0], times[-1], 1.0 / fps)
    keep = np.unique(np.concatenate([np.searchsorted(times, grid), [len(times) - 1]]))
    keep = keep[keep < len(times)]
    start = core.start_world()
    bodies = start.bodies
    ids = [int(i) for i in core.body_ids]
    column = {b: i for i, b in enumerate(ids)}
    n = len(bodies)
    out = np.empty((len(keep), n, 7), dtype=np.float32)
    still = poses(start)
    out[:] = still[None]
    x = np.asarray(core.positions)[keep]
    planar = bool(core.planar)
    if "orientations" in core.quantities:
        if planar:
            angle = np.asarray(core.angles)[keep]
            q = np.zeros(angle.shape + (4,))
            q[..., 2], q[..., 3] = np.sin(angle / 2), np.cos(angle / 2)
        else:
            q = np.asarray(core.orientations)[keep]
    else:
        q = None
    for row, b in enumerate(bodies):
        k = column.get(int(b.id))
        if k is None:
            continue
        out[:, row, : x.shape[2]] = x[:, k]
        if x.shape[2] == 2:
            out[:, row, 2] = 0.0
        if q is not None:
            out[:, row, 3:] = q[:, k]
    scene = describe(start, limits, centres=out[:, :, :3].astype(float))
    return scene, out, times[keep]


def recording_contacts(rec: Any, times: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The contact points of a recording's samples at `times` (those a view plays), if it
    recorded them: all their points (K, 3) float32, and how many each sample has (T,) uint32."""
    core = getattr(rec, "_rec", rec)
    if "contact_points" not in core.quantities:
        return None
    points = core.contact_points
    rows = np.searchsorted(np.asarray(core.time), times)
    kept = [points[i] for i in rows]
    counts = np.array([len(p) for p in kept], dtype=np.uint32)
    flat = np.concatenate(kept) if kept else np.zeros((0, 3))
    return np.ascontiguousarray(flat, dtype=np.float32).reshape(-1, 3), counts


def _b64(a: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(a).tobytes()).decode("ascii")


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
</head>
<body style="margin:16px;font-family:sans-serif">
{heading}
<div id="rigidlab"></div>
<script type="module">
{script}
standalone(document.getElementById("rigidlab"), {data});
</script>
</body>
</html>
"""


def page_html(data: dict[str, Any], title: str, heading: bool = True) -> str:
    """One HTML page holding the view's script and `data`: plays offline in any browser. With
    `heading`, the title is shown above the view too."""
    if not isinstance(title, str):
        raise TypeError(f"title: must be a string (got {title!r})")
    script = _JS.read_text(encoding="utf-8")
    # The data sits inside a script element: "</" would end it.
    text = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    title = html.escape(title)
    shown = f'<h3 style="font-weight:normal;margin:0 0 8px 0">{title}</h3>' if heading else ""
    return _PAGE.format(title=title, heading=shown, script=script, data=text)


def write_html(path: Any, data: dict[str, Any], title: str) -> Path:
    """Writes page_html(data, title) to `path`."""
    page = page_html(data, title)
    try:
        target = Path(os.fspath(path))
    except TypeError:
        raise TypeError(f"path: must be a file path (got {path!r})") from None
    try:
        target.write_text(page, encoding="utf-8")
    except OSError as e:
        raise OSError(f"path: cannot write {target}: {e}") from e
    return target


def recording_html(
    rec: Any,
    path: Any,
    *,
    fps: Any = 30.0,
    height: Any = 420,
    limits: Any = None,
    title: str = "rigidlab recording",
) -> Path:
    """Writes the recording as a standalone HTML player (see Recording.to_html)."""
    height = _height(height)
    scene, arrays = _played(rec, fps, limits)
    data: dict[str, Any] = {"mode": "recording", "scene": scene, "height": height}
    data.update({name: _b64(a) for name, a in arrays.items()})
    data.update(show_springs=True, show_joints=True, show_contacts=True)
    return write_html(path, data, title)


def _played(rec: Any, fps: Any, limits: Any) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """What a player of `rec` is given: the scene, and its arrays by name (the poses and times
    of the samples kept, and their contact points when the recording kept them)."""
    scene, frames, times = recording_frames(rec, fps, limits)
    arrays = {"frames": frames, "times": times}
    contacts = recording_contacts(rec, times)
    if contacts is not None:
        arrays.update(contact_points=contacts[0], contact_counts=contacts[1])
    return scene, arrays


def _anywidget() -> Any:
    try:
        import anywidget
    except ImportError as e:
        raise ImportError(
            "show() needs anywidget: pip install anywidget (or rigidlab[notebook])"
        ) from e
    return anywidget


_CLASSES: dict[str, type] = {}

#: Set to "1" in a kernel's environment, views also give their output a standalone copy of
#: themselves as HTML (text/html beside the widget), for renderers that run no widgets: a
#: notebook converted to HTML by nbconvert, a documentation site. Off by default: the copy holds
#: the whole scene (a recording's every frame) and would be saved in the notebook file.
EMBED_VARIABLE = "RIGIDLAB_EMBED_VIEWS"


def _embedded(page: str, height: int) -> str:
    """`page` in an iframe of its own (its script and styles kept apart from the host's)."""
    return (
        f'<iframe srcdoc="{html.escape(page, quote=True)}" title="rigidlab view" '
        f'style="width:100%;height:{height + 70}px;border:0" loading="lazy"></iframe>'
    )


def _widget_classes() -> tuple[type, type]:
    """The widget classes, made on first use (anywidget is optional)."""
    if not _CLASSES:
        anywidget = _anywidget()
        import traitlets as t

        class View(anywidget.AnyWidget):
            """What both views draw: the scene (webview.js), in a box `height` pixels high."""

            _esm = _JS
            scene = t.Dict().tag(sync=True)
            height = t.Int(420).tag(sync=True)
            show_springs = t.Bool(True).tag(sync=True)
            show_joints = t.Bool(True).tag(sync=True)

            def _data(self) -> dict[str, Any]:
                """What the standalone page is given: the traits it draws."""
                data: dict[str, Any] = {"scene": self.scene, "height": self.height}
                for name in self.traits(sync=True):
                    value = getattr(self, name)
                    if name.startswith("_") or name in data or name in ("layout", "tabbable"):
                        continue
                    if isinstance(value, bytes):
                        data[name] = base64.b64encode(value).decode("ascii")
                    elif isinstance(value, (bool, int, float, str)):
                        data[name] = value
                return data

            def _repr_mimebundle_(self, **kwargs: Any) -> Any:
                bundle = super()._repr_mimebundle_(**kwargs)
                if os.environ.get(EMBED_VARIABLE) == "1":
                    data = bundle[0] if isinstance(bundle, tuple) else bundle
                    page = page_html(self._data(), "rigidlab", heading=False)
                    data["text/html"] = _embedded(page, self.height)
                return bundle

        class WorldView(View):
            """A live view of a world (World.show): follows it as it runs."""

            mode = t.Unicode("live").tag(sync=True)
            poses = t.Bytes().tag(sync=True)
            contacts = t.Bytes().tag(sync=True)
            time = t.Float(0.0).tag(sync=True)
            show_contacts = t.Bool(False).tag(sync=True)

            def __init__(
                self, world: Any, *, fps: float, height: int, limits: Any, contacts: bool
            ) -> None:
                self._limits = limits
                self._interval = 1.0 / fps
                self._last = -math.inf
                self._revision = world._revision
                self._closed = False
                self.updates = 0
                super().__init__(
                    scene=describe(world, limits),
                    poses=poses(world).tobytes(),
                    contacts=self._contact_points(world, contacts),
                    time=float(world.time),
                    height=height,
                    show_contacts=contacts,
                )

            @staticmethod
            def _contact_points(world: Any, shown: bool) -> bytes:
                if not shown:
                    return b""
                points = np.asarray(world.contacts()["point"], dtype=np.float32)
                return np.ascontiguousarray(points.reshape(-1, 3)).tobytes()

            def _update(self, world: Any, last: bool) -> bool:
                """The world's new state, sent at most `fps` times a second (and the last one of
                each call). False once closed: the world forgets this view."""
                if self._closed:
                    return False
                now = time.monotonic()
                # The world calls at about 60 Hz of its time while it runs: a call a little
                # early still counts, or 30 fps would come out as 20.
                if not last and now - self._last < 0.75 * self._interval:
                    return True
                self._last = now
                with self.hold_sync():
                    if world._revision != self._revision:
                        self._revision = world._revision
                        self.scene = describe(world, self._limits)
                    self.poses = poses(world).tobytes()
                    self.contacts = self._contact_points(world, self.show_contacts)
                    self.time = float(world.time)
                self.updates += 1
                return True

            def close(self) -> None:
                """Closes the widget; the world stops sending it its state."""
                self._closed = True
                super().close()

            def save(self, path: Any, *, title: str = "rigidlab world") -> Path:
                """Writes the view as it is now to a standalone HTML file (orbit, pan and zoom
                work offline in any browser). Returns the path written."""
                return write_html(path, self._data(), title)

        class RecordingView(View):
            """A player of a recording (Recording.show)."""

            mode = t.Unicode("recording").tag(sync=True)
            frames = t.Bytes().tag(sync=True)
            times = t.Bytes().tag(sync=True)
            contact_points = t.Bytes().tag(sync=True)
            contact_counts = t.Bytes().tag(sync=True)
            show_contacts = t.Bool(True).tag(sync=True)

        _CLASSES["world"] = WorldView
        _CLASSES["recording"] = RecordingView
    return _CLASSES["world"], _CLASSES["recording"]


def show_world(
    world: Any,
    *,
    fps: Any = 30.0,
    height: Any = 420,
    limits: Any = None,
    contacts: Any = False,
    realtime: Any = True,
) -> LiveView:
    """A live view of `world` (see World.show)."""
    fps, height = _fps(fps), _height(height)
    for name, value in (("contacts", contacts), ("realtime", realtime)):
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{name}: must be True or False (got {value!r})")
    core = getattr(world, "_world", world)
    if limits is not None:
        _check_limits(limits, bool(core.planar))
    view_class, _ = _widget_classes()
    view = view_class(core, fps=fps, height=height, limits=limits, contacts=bool(contacts))
    core._watch(view._update, bool(realtime))
    return view


def show_recording(rec: Any, *, fps: Any = 30.0, height: Any = 420, limits: Any = None) -> Player:
    """A player of `rec` (see Recording.show)."""
    height = _height(height)
    _, player_class = _widget_classes()
    scene, arrays = _played(rec, fps, limits)
    bytes_ = {name: a.tobytes() for name, a in arrays.items()}
    return player_class(scene=scene, height=height, **bytes_)
