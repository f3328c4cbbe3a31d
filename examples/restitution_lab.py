"""Restitution lab: balls with e = 0.2 ... 1.0 dropped from 1 m onto a floor.

Theory: each bounce reaches e^2 times the previous height. Prints the measured ratios beside
e^2 and writes a plot of the heights over time and of the ratios against e.
"""

import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from rigidlab.experiments import restitution_lab  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--restitutions", type=float, nargs="+", default=[0.2, 0.4, 0.6, 0.8, 1.0])
    parser.add_argument("--height", type=float, default=1.0, help="drop height in m (default 1)")
    parser.add_argument("--dt", type=float, default=1 / 240, help="time step in s (default 1/240)")
    parser.add_argument(
        "--integrator", default="verlet", choices=["euler", "symplectic_euler", "verlet", "rk4"]
    )
    parser.add_argument(
        "--out", type=Path, default=Path("out/restitution.png"), help="where to write the plot"
    )
    args = parser.parse_args()

    r = restitution_lab(
        args.restitutions, drop_height=args.height, dt=args.dt, integrator=args.integrator
    )
    print(
        f"Restitution lab: balls dropped from {args.height} m, dt = {args.dt:.6g} s, integrator {args.integrator}"
    )
    print("bounce height / previous height, against e^2:\n")
    print(r.table())

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    for j, e in enumerate(r.restitutions):
        ax1.plot(r.time, r.heights[:, j], label=f"e = {e:g}")
    ax1.set(xlabel="time (s)", ylabel="height of lowest point (m)", title="Bouncing balls")
    ax1.legend()
    e_line = np.linspace(0, 1, 101)
    ax2.plot(e_line, e_line**2, "k-", label="theory: $e^2$")
    for k, marker in zip(range(max(len(x) for x in r.ratios)), "os^vD"):
        es = [e for e, x in zip(r.restitutions, r.ratios) if len(x) > k]
        ratios = [x[k] for x in r.ratios if len(x) > k]
        ax2.plot(es, ratios, marker, mfc="none", ms=12 - 3 * k, label=f"measured, bounce {k + 1}")
    ax2.set(
        xlabel="coefficient of restitution e",
        ylabel="apex / previous apex",
        title="Bounce-height ratio",
    )
    ax2.legend()
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=120)
    print(f"\nplot written to {args.out}")


if __name__ == "__main__":
    main()
