"""rigidlab: a rigid-body physics lab.

Build a world of bodies, run it, and read every quantity back as numpy arrays::

    import rigidlab as rl
    w = rl.World()                       # gravity (0, -9.81, 0), dt = 1/240 s, velocity Verlet
    w.add_plane()                        # the floor y = 0
    ball = w.add_sphere(0.1, mass=1.0, position=(0, 1, 0), restitution=0.8)
    w.run(2.0)
    print(ball.position, w.energy()["total"])

SI units throughout, y up, quaternions (x, y, z, w), scalar last; rigidlab.Rotation makes
orientations from axis-angle, Euler angles, matrices or scalar-first quaternions.
"""

from . import _core, experiments, plot, presets, presets2d, webview
from ._core import (
    Body,
    Contact,
    Distance,
    Joint,
    Load,
    RayHit,
    RayHits,
    Recording,
    RemovedBodyError,
    SimulationError,
    Snapshot,
    Spring,
    World,
    __version__,
    step_many,
)
from ._frames import recording_frame
from ._launch import stream_command
from ._readonly import ReadOnlyArray
from .animation import animate
from .rotation import Rotation
from .sweeps import SweepError, close_cluster, sweep
from .world2d import Body2D, Recording2D, World2D

__all__ = [
    "World",
    "World2D",
    "Body",
    "Body2D",
    "Recording2D",
    "Spring",
    "Joint",
    "Load",
    "Recording",
    "Snapshot",
    "RayHit",
    "Contact",
    "Distance",
    "RayHits",
    "RemovedBodyError",
    "SimulationError",
    "ReadOnlyArray",
    "Rotation",
    "step_many",
    "sweep",
    "SweepError",
    "close_cluster",
    "__version__",
    "experiments",
    "plot",
    "presets",
    "presets2d",
    "webview",
]

# The compiled core hands some of its methods' work to Python (World.animate, World.view,
# Recording.to_dataframe) and its arrays out as ReadOnlyArray: lent to it here, so that it never
# imports this package.
_core._lend("ReadOnlyArray", ReadOnlyArray)
_core._lend("recording_frame", recording_frame)
_core._lend("animate", animate)
_core._lend("stream_command", stream_command)
_core._lend("show_world", webview.show_world)
_core._lend("show_recording", webview.show_recording)
_core._lend("recording_html", webview.recording_html)
