"""Headless Chromium (Debian's chromium and chromium-driver, which scripts/setup.sh --test
installs) driven by selenium, for the tests of the views in the browser: WebGL runs on
SwiftShader, Chromium's software renderer, so no GPU or display is needed."""

from __future__ import annotations

import base64
import contextlib
import io
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np


def chromium(width: int = 1000, height: int = 800) -> Any:
    """A headless Chromium under selenium (quit it when done)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary = shutil.which("chromium")
    driver = shutil.which("chromedriver")
    if binary is None or driver is None:
        raise RuntimeError(
            "the browser tests need Debian's chromium and chromium-driver "
            "(scripts/setup.sh --test installs them)"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--enable-unsafe-swiftshader",
        "--use-angle=swiftshader",
        f"--window-size={width},{height}",
        "--force-device-scale-factor=1",
    ):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service(driver), options=options)


# The element a view mounted in (it carries the view's state as `rigidlab`), found anywhere in
# the page.
VIEW = "return [...document.querySelectorAll('div')].find(d => d.rigidlab) || null;"


def wait_for(browser: Any, script: str, timeout: float = 60.0) -> Any:
    """Runs `script` until it returns something truthy, and returns that."""
    end = time.monotonic() + timeout
    while True:
        value = browser.execute_script(script)
        if value:
            return value
        if time.monotonic() > end:
            raise TimeoutError(f"waited {timeout} s for: {script}")
        time.sleep(0.1)


def canvas_pixels(browser: Any) -> np.ndarray:
    """The view's canvas drawn from the state it has now: (H, W, 3) uint8."""
    from PIL import Image

    url = browser.execute_script(
        "const v = [...document.querySelectorAll('div')].find(d => d.rigidlab);"
        "v.rigidlab.draw(); return v.querySelector('canvas').toDataURL('image/png');"
    )
    png = base64.b64decode(url.split(",", 1)[1])
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def ortho_pixel(limits: Any, size: tuple[int, int], x: float, y: float) -> tuple[float, float]:
    """Where a 2D view that fits `limits` ((x0, x1), (y0, y1)) into a canvas of `size` (width,
    height) pixels draws the point (x, y): the limits fill the canvas one way, centred, the
    other way grows with the canvas's aspect; y up."""
    (x0, x1), (y0, y1) = limits
    w, h = size
    hx, hy = (x1 - x0) / 2, (y1 - y0) / 2
    if hx / hy < w / h:
        hx = hy * w / h
    else:
        hy = hx * h / w
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return (w / 2 + (x - cx) / hx * w / 2, h / 2 - (y - cy) / hy * h / 2)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def lab_notebook(folder: Path, cells: list[str]) -> Iterator[Any]:
    """A notebook of `cells` in `folder`, opened in JupyterLab (a server of its own on a free
    port of this machine, its app exposed to scripts) in headless Chromium, its kernel ready:
    yields the browser; `run_all(browser)` runs the cells."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(nb, folder / "lab.ipynb")
    port = _free_port()
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(folder / "config"))
    log = open(folder / "server.log", "w")
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}",
         "--ServerApp.ip=127.0.0.1", "--ServerApp.token=rigidlab", "--ServerApp.allow_root=True",
         f"--ServerApp.root_dir={folder}", "--LabApp.expose_app_in_browser=True"],
        stdout=log, stderr=log, env=env,
    )  # fmt: skip
    browser = chromium(1200, 900)
    try:
        end = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.5).close()
                break
            except OSError:
                if time.monotonic() > end:
                    raise TimeoutError((folder / "server.log").read_text()) from None
                time.sleep(0.2)
        browser.get(f"http://127.0.0.1:{port}/lab/tree/lab.ipynb?token=rigidlab")
        kernel = "window.jupyterapp?.shell.currentWidget?.sessionContext?.session?.kernel"
        wait_for(browser, f"return {kernel}?.status === 'idle'", timeout=120)
        yield browser
    finally:
        browser.quit()
        server.terminate()
        server.wait(timeout=30)
        log.close()


def run_all(browser: Any) -> None:
    """Runs every cell of the notebook open in JupyterLab."""
    browser.execute_script("window.jupyterapp.commands.execute('notebook:run-all-cells')")


def view_state(browser: Any, what: str) -> Any:
    """An expression on the state of the view in the page (`frames`, `model.get('time')`, ...)."""
    return browser.execute_script(
        "const v = [...document.querySelectorAll('div')].find(d => d.rigidlab);"
        f"return v.rigidlab.{what};"
    )
