"""How World.view() starts the viewer. Apart from rigidlab.view so that importing rigidlab does
not import that module, which `python -m rigidlab.view` runs as a program."""

from __future__ import annotations

import os
import shlex
import sys


def stream_command() -> list[str]:
    """The command ``World.view()`` starts: this Python running the viewer on a stream from
    standard input. The environment variable RIGIDLAB_VIEWER replaces it (a shell-style command
    line, which gets ``--stream`` appended)."""
    custom = os.environ.get("RIGIDLAB_VIEWER")
    if custom:
        return [*shlex.split(custom), "--stream"]
    return [sys.executable, "-m", "rigidlab.view", "--stream"]
