"""The viewer: watch, drive and replay rigidlab worlds in real time.

From a shell::

    rigidlab-view scene.json          # simulate a saved scene (World.save)
    rigidlab-view run.replay          # play back a recording (Recording.save)
    rigidlab-view --preset pendulum   # a preset scene; --list-presets lists them
    python -m rigidlab.view --help    # the same program

From a script or notebook, ``w.view()`` opens it on a running world without blocking. Press H in
the window for the keys.
"""

from __future__ import annotations

import sys

from . import _core
from ._launch import stream_command

__all__ = ["main", "stream_command"]


def main(argv: list[str] | None = None) -> int:
    """Runs the viewer with command-line arguments (default: sys.argv[1:]); returns the exit
    code (0 done, 1 failed, 2 bad arguments)."""
    args = sys.argv[1:] if argv is None else list(argv)
    return _core.view_main(["rigidlab-view", *args])


if __name__ == "__main__":
    sys.exit(main())
