"""Headless Chromium (Debian's chromium and chromium-driver, which scripts/setup.sh --test
installs) driven by selenium, for the tests of the views in the browser: WebGL runs on
SwiftShader, Chromium's software renderer, so no GPU or display is needed."""

from __future__ import annotations

import base64
import io
import shutil
import time
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
