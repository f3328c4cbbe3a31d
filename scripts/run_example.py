"""Runs a gallery example as `python example.py` would, with matplotlib drawing off screen, and
saves the figures it made: `run_example.py examples/gallery/atwood_machine.py --out DIR` writes
DIR/atwood_machine.png (then -2, -3 ... for further figures) and prints what the example printed.
The docs build takes the pictures from here and the tests run every example through it."""

import argparse
import os
import runpy
import sys
from pathlib import Path


def run(script: Path, out: Path) -> list[Path]:
    """Runs `script` as __main__ and saves each figure it left open; returns their paths."""
    os.environ["MPLBACKEND"] = "Agg"
    import matplotlib.pyplot as plt

    plt.show = lambda *args, **kwargs: None  # an example ends with plt.show(); keep its figures
    sys.argv = [str(script)]
    runpy.run_path(str(script), run_name="__main__")
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, number in enumerate(plt.get_fignums()):
        path = out / (script.stem + ("" if i == 0 else f"-{i + 1}") + ".png")
        plt.figure(number).savefig(path, dpi=100, bbox_inches="tight")
        paths.append(path)
    plt.close("all")
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("script", type=Path)
    parser.add_argument("--out", type=Path, required=True, help="folder for the figures")
    args = parser.parse_args()
    if not run(args.script, args.out):
        sys.exit(f"{args.script} made no figure: a gallery example ends with its picture")


if __name__ == "__main__":
    main()
