"""What the benchmark reports say about the machine, and the virtual display the viewer's runs use."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys


def cpu() -> str:
    """The processor's model name."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def start_xvfb() -> tuple[subprocess.Popen, str]:
    """A virtual X display (Xvfb, installed by scripts/setup.sh --test): the process and its name."""
    xvfb = shutil.which("Xvfb")
    if not xvfb:
        sys.exit("Xvfb is missing: scripts/setup.sh --test installs it")
    read, write = os.pipe()
    proc = subprocess.Popen(
        [xvfb, "-displayfd", str(write), "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    number = b""
    while not number.endswith(b"\n"):
        chunk = os.read(read, 16)
        if not chunk:
            sys.exit("Xvfb did not start")
        number += chunk
    os.close(read)
    return proc, f":{int(number)}"
