"""Every public callable has a signature that inspect (and so Jupyter's help, IDEs and
pyright) can read, and help() on each add_* method lists every keyword it takes."""

import inspect
import subprocess
import sys

import pytest
import rigidlab as rl

MODULES = [rl, rl.presets, rl.presets2d, rl.experiments, rl.plot]


def constructible(cls):
    try:
        cls()
    except TypeError as e:
        return "cannot create" not in str(e) and "No constructor defined" not in str(e)
    except Exception:
        return True
    return True


def public_callables():
    seen = {}
    for module in MODULES:
        for name in getattr(module, "__all__", [n for n in dir(module) if not n.startswith("_")]):
            obj = getattr(module, name)
            if isinstance(obj, type):
                if issubclass(obj, BaseException) or obj.__module__.startswith("numpy"):
                    continue
                # Classes made only by the world (Body, Joint, ...) have no constructor to show.
                if constructible(obj):
                    seen[f"{module.__name__}.{name}"] = obj
                for member, value in vars(obj).items():
                    if member.startswith("_") or isinstance(value, property):
                        continue
                    attr = getattr(obj, member)
                    if callable(attr) and not isinstance(attr, type):
                        seen[f"{obj.__name__}.{member}"] = attr
            elif callable(obj):
                seen[f"{module.__name__}.{name}"] = obj
    return seen


CALLABLES = public_callables()


def test_there_are_callables_to_check():
    assert len(CALLABLES) > 150


@pytest.mark.parametrize("name", sorted(CALLABLES))
def test_signature_is_readable(name):
    inspect.signature(CALLABLES[name])


@pytest.mark.parametrize(
    "method, extra",
    [
        (rl.World.add_sphere, []),
        (rl.World.add_box, []),
        (rl.World.add_capsule, []),
        (rl.World.add_convex, ["anchor"]),
        (rl.World.add_wedge, ["anchor"]),
        (rl.World.add_prism, ["anchor"]),
    ],
)
def test_add_methods_show_every_keyword(method, extra):
    from rigidlab._core import World

    params = inspect.signature(method).parameters
    keywords = {p.name for p in params.values() if p.kind is inspect.Parameter.KEYWORD_ONLY}
    # Exactly what the method accepts: each keyword works, an unknown one is refused.
    w = World(gravity=(0, 0, 0))
    shape_args = {
        "add_sphere": (0.1,),
        "add_box": ((0.1, 0.1, 0.1),),
        "add_capsule": (0.1, 0.2),
        "add_convex": ([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)],),
        "add_wedge": (1.0, 0.5, 0.5),
        "add_prism": ([(0, 0), (1, 0), (0, 1)], 0.5),
    }[method.__name__]
    for key in keywords:
        default = params[key].default
        getattr(w, method.__name__)(*shape_args, **{key: default})
    with pytest.raises(TypeError, match="unexpected keyword argument 'masss'"):
        getattr(w, method.__name__)(*shape_args, masss=1.0)
    assert {"mass", "density", "position", "orientation", "kind", "name", "sensor"} <= keywords
    assert set(extra) <= keywords
    text = method.__doc__
    for key in ("mass", "density", "orientation", "restitution", "friction", "gravity_scale"):
        assert key in text.split("Keywords", 1)[1], (method.__name__, key)


@pytest.mark.parametrize(
    "name, args",
    [
        ("add_circle", (0.1,)),
        ("add_box", ((0.1, 0.2),)),
        ("add_capsule", (0.1, 0.2)),
        ("add_polygon", ([(0, 0), (1, 0), (0, 1)],)),
    ],
)
def test_2d_add_methods_show_every_keyword(name, args):
    method = getattr(rl.World2D, name)
    params = inspect.signature(method).parameters
    keywords = {p.name for p in params.values() if p.kind is inspect.Parameter.KEYWORD_ONLY}
    assert {"mass", "density", "position", "angle", "kind", "name", "sensor"} <= keywords
    assert ("anchor" in keywords) == (name == "add_polygon")
    w = rl.World2D(gravity=(0, 0))
    for key in keywords - {"mass"}:  # mass and density exclude each other
        getattr(w, name)(*args, **{key: params[key].default})
    assert "angle (rad" in method.__doc__.split("Keywords", 1)[1]


def test_importing_rigidlab_warns_of_nothing():
    # A SyntaxWarning or DeprecationWarning at import would show in every notebook.
    out = subprocess.run(
        [sys.executable, "-W", "error", "-c", "import rigidlab, rigidlab.presets, rigidlab.plot"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    # Nor the viewer run as a module, as World.view() runs it.
    out = subprocess.run(
        [sys.executable, "-W", "error", "-m", "rigidlab.view", "--list-presets"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0 and not out.stderr, out.stderr
