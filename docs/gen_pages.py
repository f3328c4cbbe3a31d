"""Generates the site's pages that come from elsewhere in the tree, at build time (run by the
mkdocs-gen-files plugin): the labs (the notebooks, executed here and rendered by mkdocs-jupyter),
the gallery (every examples/gallery/*.py run, its picture and output kept), the API reference
pages, the viewer's screenshots (made by rigidlab-view itself, headless), the benchmark reports
and the changelog. Anything that fails here fails the build."""

import ast
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import mkdocs_gen_files
import nbformat
from mkdocs.structure.files import InclusionLevel
from nbclient import NotebookClient
from rigidlab.webview import EMBED_VARIABLE

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def write(path: str, text: str) -> None:
    with mkdocs_gen_files.open(path, "w") as f:
        f.write(text)


def first_sentence(text: str) -> str:
    return " ".join(text.split()).split(". ")[0].rstrip(".") + "."


def copy(source: Path, path: str) -> None:
    with mkdocs_gen_files.open(path, "wb") as f:
        f.write(source.read_bytes())


def read_example(script: Path) -> tuple[str, str, str]:
    """An example's title (its docstring's first line), the text under it, and its code after
    the docstring."""
    source = script.read_text()
    tree = ast.parse(source)
    doc = ast.get_docstring(tree)
    if not doc:
        raise SystemExit(f"{script}: a gallery example starts with a docstring (title, summary)")
    title, _, text = doc.partition("\n")
    code = "\n".join(source.splitlines()[tree.body[0].end_lineno :]).strip("\n")
    return title.strip().rstrip("."), text.strip(), code


# --- labs ----------------------------------------------------------------------------------------

LABS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def execute(path: Path) -> str:
    """The notebook run top to bottom (as the tests run it), its plots inline and its views
    (w.show(), rec.show()) kept as standalone players, which a page can show without widgets."""
    nb = nbformat.read(path, as_version=4)
    NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET in data and "text/html" in data:
                del data[WIDGET]
    nb.metadata.pop("widgets", None)
    return nbformat.writes(nb)


WIDGET = "application/vnd.jupyter.widget-view+json"


def labs() -> None:
    lines = ["# Labs", "", LABS_INTRO, ""]
    nav = []
    if os.environ.get("RIGIDLAB_DOCS_EXECUTE", "true") == "false":
        executed = [nb.read_text() for nb in LABS]
    else:
        # The kernels inherit this process's environment: plots inline, views embedded.
        os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
        os.environ[EMBED_VARIABLE] = "1"
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            executed = list(pool.map(execute, LABS))
    for nb, text in zip(LABS, executed):
        write(f"labs/{nb.name}", text)
        name = nb.stem.split("_", 1)[1].replace("_", " ").capitalize()
        number = int(nb.stem[:2])
        lines.append(f"{number}. [{name}]({nb.name}): {LAB_SUMMARIES[number]}")
        nav.append(f"* [{number}. {name}]({nb.name})")
    write("labs/index.md", "\n".join(lines) + "\n")
    write("labs/SUMMARY.md", "* [All labs](index.md)\n" + "\n".join(nav) + "\n")


LABS_INTRO = """Twelve lab notebooks, each a write-up: the question, the theory, the set-up in a few
lines, the measurement as numpy arrays, a plot against theory, the discrepancy, "try this" cells,
and assertions on its key numbers. The pages here were executed when this site was built; the
notebooks themselves are in the repository's `notebooks/` folder, kept without outputs. Download
one (the button at the top of its page) and open it in Jupyter to change and re-run it.

The set-ups are functions in `rigidlab.experiments` (`incline`, `sliding_box`, `oscillator`,
`coupled_oscillators`, `head_on`, `pendulum_period`, `double_pendulum`, `spinning_top`, ...),
each documenting the theory it tests ([reference](../reference/experiments.md)).
`rigidlab.plot` draws energy splits, trajectories and measurements against theory with
residuals; `w.show()` and `rec.show()` draw the world in the notebook, and `w.animate(seconds)`
makes a run into an HTML animation or a GIF drawn with matplotlib, for a still picture."""

LAB_SUMMARIES = {
    1: "bounce heights against e², e fitted from a trajectory.",
    2: "stick or slip against atan(μs), sliding acceleration against μk, stopping distance,"
    " rolling against sliding, the 2D sandbox simulator's four squares.",
    3: "period against k and m, damping regimes against their closed forms, normal modes of"
    " coupled oscillators from an FFT, the 2D sandbox simulator's spring weights.",
    4: "free fall against the 2D sandbox simulator's Table 4.1, a spring with each integrator,"
    " error orders 1, 1, 2, 4 on log-log axes, the tilted cube.",
    5: "head-on impacts against the closed forms, the oblique impact with friction, Newton's"
    " cradle.",
    6: "the tennis-racket flip, angular momentum kept, a spinning top's precession against the"
    " gyroscope formula.",
    7: "period against amplitude (elliptic integral), the double pendulum's chaos and energy.",
    8: "the six feature-pair collisions, the stack, dominoes, the XNA library's room, and step"
    " time against body count.",
    9: "a gas of elastic spheres relaxing to Maxwell-Boltzmann with its energy kept to 1e-15,"
    " the pressure on the walls against the ideal gas and Carnahan-Starling, and a rough gas"
    " sharing energy with spin.",
    10: "2D worlds: collisions on an air table, a rolling disc against a sliding block, the"
    " Atwood machine.",
    11: "runs that add up, slow motion against the scaled clock, an elastic pendulum run forward"
    " and back with each integrator, energy error against dt, rewinding through impacts bit for"
    " bit.",
    12: "a restitution × drop-height grid against e², a double-pendulum ensemble of 1 000"
    " members and its Lyapunov time, on a LocalCluster of two workers.",
}


def mathjax() -> None:
    """MathJax 2, which typesets the notebooks' formulas, from the Jupyter project's wheel."""
    import jupyter_server_mathjax

    static = Path(jupyter_server_mathjax.__file__).parent / "static"
    for path in static.rglob("*"):
        # Messages in other languages are not needed.
        parts = path.relative_to(static).parts
        if path.is_file() and (parts[0] != "localization" or parts[1] == "en"):
            copy(path, f"assets/mathjax/{path.relative_to(static).as_posix()}")


# --- gallery -------------------------------------------------------------------------------------

EXAMPLES = sorted((ROOT / "examples" / "gallery").glob("*.py"))


def run_example(script: Path, out: Path) -> str:
    result = subprocess.run(
        [PYTHON, str(ROOT / "scripts" / "run_example.py"), str(script), "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=out,
        env={**os.environ, "MPLBACKEND": "Agg"},
        timeout=300,
    )
    if result.returncode != 0:
        raise SystemExit(f"gallery example {script.name} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def gallery() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            outputs = list(pool.map(lambda s: run_example(s, out), EXAMPLES))
        cards, nav = [], []
        for script, printed in zip(EXAMPLES, outputs):
            title, text, code = read_example(script)
            # run_example.py names an example's figures <stem>.png, <stem>-2.png ...
            pictures = [out / f"{script.stem}.png"]
            pictures += sorted(out.glob(f"{script.stem}-[0-9]*.png"))
            for picture in pictures:
                copy(picture, f"gallery/{picture.name}")
            page = [f"# {title}", "", text, ""]
            page += [f"![{title}]({p.name})" for p in pictures]
            page += ["", "```python", code, "```", ""]
            if printed.strip():
                page += ["Output:", "", "```text", printed.rstrip(), "```", ""]
            page.append(
                f"The script: [`examples/gallery/{script.name}`]"
                f"(https://github.com/rigidlab/rigidlab/blob/main/examples/gallery/{script.name})."
            )
            write(f"gallery/{script.stem}.md", "\n".join(page) + "\n")
            cards.append(
                f"-   [![{title}]({pictures[0].name})]({script.stem}.md)\n\n"
                f"    **[{title}]({script.stem}.md)**: {first_sentence(text)}"
            )
            nav.append(f"* [{title}]({script.stem}.md)")
    intro = (
        f"# Gallery\n\n{len(EXAMPLES)} short examples, one feature each. Each is a script in "
        "`examples/gallery/` that runs as it is (`python examples/gallery/atwood_machine.py`), "
        "prints what it measured beside the theory, checks it, and ends with its picture; the "
        "tests run every one, and this site shows what each printed and drew when it was built."
        '\n\n<div class="grid cards" markdown>\n\n'
    )
    write("gallery/index.md", intro + "\n\n".join(cards) + "\n\n</div>\n")
    write("gallery/SUMMARY.md", "* [All examples](index.md)\n" + "\n".join(nav) + "\n")


# --- API reference -------------------------------------------------------------------------------

REFERENCE = {
    "world": ("World", "A 3D world: bodies, settings, the step, queries.", ["rigidlab.World"]),
    "body": ("Body", "A body of a world, and the loads on it.", ["rigidlab.Body", "rigidlab.Load"]),
    "links": ("Springs and joints", "", ["rigidlab.Spring", "rigidlab.Joint"]),
    "world2d": (
        "2D worlds",
        "The same engine in the plane.",
        ["rigidlab.World2D", "rigidlab.Body2D", "rigidlab.Recording2D"],
    ),
    "recording": (
        "Recordings and snapshots",
        "",
        ["rigidlab.Recording", "rigidlab.Snapshot"],
    ),
    "queries": (
        "Contacts and queries",
        "What contacts, rays and distance queries return.",
        ["rigidlab.Contact", "rigidlab.RayHit", "rigidlab.RayHits", "rigidlab.Distance"],
    ),
    "rotation": ("Rotation", "", ["rigidlab.Rotation"]),
    "many": (
        "Many worlds",
        "",
        ["rigidlab.step_many", "rigidlab.sweep", "rigidlab.SweepError", "rigidlab.close_cluster"],
    ),
    "errors": (
        "Errors and arrays",
        "",
        ["rigidlab.SimulationError", "rigidlab.RemovedBodyError", "rigidlab.ReadOnlyArray"],
    ),
    "experiments": ("rigidlab.experiments", "", ["rigidlab.experiments"]),
    "presets": ("rigidlab.presets", "", ["rigidlab.presets", "rigidlab.presets2d"]),
    "plot": ("rigidlab.plot", "", ["rigidlab.plot", "rigidlab.animate"]),
    "webview": ("rigidlab.webview", "", ["rigidlab.webview"]),
}


def reference() -> None:
    index = ["# API reference", "", REFERENCE_INTRO, "", "| page | what it holds |", "|---|---|"]
    nav = ["* [Overview](index.md)"]
    for slug, (title, summary, names) in REFERENCE.items():
        blocks = [f"# {title}", "", summary, ""] + [f"::: {name}\n" for name in names]
        write(f"reference/{slug}.md", "\n".join(blocks))
        listed = ", ".join(f"`{n.removeprefix('rigidlab.')}`" for n in names)
        index.append(f"| [{title}]({slug}.md) | {listed} |")
        nav.append(f"* [{title}]({slug}.md)")
    write("reference/index.md", "\n".join(index) + "\n")
    write("reference/SUMMARY.md", "\n".join(nav) + "\n")


REFERENCE_INTRO = """Every public name of `rigidlab`, generated from the docstrings and the type
stubs the package ships (`rigidlab/_core.pyi` for the compiled engine), so it says what
`help()` and an editor say. SI units throughout, y up, quaternions (x, y, z, w) scalar last."""


# --- viewer screenshots --------------------------------------------------------------------------

SCREENSHOTS = {
    "viewer-pyramid": ["--preset", "pyramid", "--frames", "90", "--size", "1280x720"],
    "viewer-edge-edge": [
        *("--preset", "feature pair: edge-edge", "--frames", "40", "--size", "1280x720"),
        "--contacts",
    ],
    "viewer-2d": ["--preset", "spring weights", "--frames", "120", "--size", "1280x720"],
    "viewer-keys": ["--preset", "pendulum", "--frames", "30", "--size", "1280x800", "--show-keys"],
}


def screenshots() -> None:
    view = shutil.which("rigidlab-view", path=str(Path(PYTHON).parent))
    if view is None:
        raise SystemExit("rigidlab-view is not installed in the build's virtualenv")
    runner = [] if os.environ.get("DISPLAY") else [xvfb_run(), "-a", "-s", "-screen 0 1280x1024x24"]
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in SCREENSHOTS.items():
            png = Path(tmp) / f"{name}.png"
            cmd = runner + [view, *args, "--screenshot", str(png)]
            result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            if result.returncode != 0 or not png.exists():
                raise SystemExit(f"viewer screenshot {name} failed: {result.stderr}")
            copy(png, f"concepts/{name}.png")


def xvfb_run() -> str:
    found = shutil.which("xvfb-run")
    if found is None:
        raise SystemExit(
            "the viewer's screenshots need a display or xvfb-run (Debian package xvfb; "
            "scripts/docs.sh installs it)"
        )
    return found


# --- reports -------------------------------------------------------------------------------------


def reports() -> None:
    bench = ROOT / "benchmarks"
    for name in ("RESULTS", "VIEWER", "WEBVIEW", "SWEEP"):
        text = (bench / f"{name}.md").read_text()
        write(f"benchmarks/{name.lower()}.md", relink(text))
    write(
        "benchmarks/SUMMARY.md",
        "* [Overview](index.md)\n* [rigidlab beside its peers](results.md)\n* [The viewer's frame time](viewer.md)\n"
        "* [The notebook view](webview.md)\n* [Sweeps on Dask](sweep.md)\n",
    )
    for png in bench.glob("*.png"):
        copy(png, f"benchmarks/{png.name}")
    write("changelog.md", relink((ROOT / "CHANGELOG.md").read_text()))


def relink(text: str) -> str:
    """Points a report's links to the tree's files (benchmarks/run.py ...) at the repository."""

    def fix(match: re.Match) -> str:
        label, target = match.group(1), match.group(2)
        if re.match(r"[a-z]+://|#|[A-Za-z0-9_.-]+\.png$", target):
            return match.group(0)
        report = re.fullmatch(r"(?:benchmarks/)?(RESULTS|VIEWER|WEBVIEW|SWEEP)\.md", target)
        if report:
            return f"[{label}]({report.group(1).lower()}.md)"
        return f"[{label}](https://github.com/rigidlab/rigidlab/blob/main/{target})"

    return re.sub(r"(?<!!)\[([^\]]*)\]\(([^)\s]+)\)", fix, text)


def navigation_files_are_not_pages() -> None:
    """The SUMMARY.md files give literate-nav each section's order; they are not pages
    themselves (exclude_docs in mkdocs.yml does not reach generated files)."""
    for f in mkdocs_gen_files.FilesEditor.current().files:
        if f.src_uri.endswith("SUMMARY.md"):
            f.inclusion = InclusionLevel.EXCLUDED


labs()
mathjax()
gallery()
reference()
screenshots()
reports()
navigation_files_are_not_pages()
