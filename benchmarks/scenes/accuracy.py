"""Scene 7: accuracy beside speed. Three textbook experiments whose answers are known: a bounce
with restitution 0.5, a box on a 30 degree incline (sliding, and held by friction), and a Newton's
cradle of five balls."""

from __future__ import annotations

import math

import numpy as np
from engines.base import DT, G, downhill

DROP = 1.0  # m, of the ball's lowest point
BALL = 0.1  # m, radius of the bouncing ball
RESTITUTION = 0.5
ANGLE = math.radians(30.0)
HALF = 0.1  # m, half size of the box on the incline
SLIDES, HOLDS = 0.3, 0.7  # friction coefficients, either side of tan 30 = 0.577
CRADLE = 5
CRADLE_BALL = 0.1  # m
GAP = 0.05  # m between ball 0 and the row at the start
SPEED = 1.0  # m/s


def trajectory(e, steps: int, read) -> np.ndarray:
    """read(e) after each of `steps` steps."""
    out = []
    for _ in range(steps):
        e.step(1)
        out.append(read(e))
    return np.array(out)


def rebound_apex(e) -> float:
    """Height (m) of the ball's lowest point at the top of its first rebound."""
    e.bounce(DROP, BALL, RESTITUTION)
    y = trajectory(e, round(1.2 / DT), lambda e: e.positions()[0, 1]) - BALL
    rising = np.diff(y) > 0
    impact = int(np.argmax(rising))  # the first step after which the ball rises
    falling = np.flatnonzero(~rising[impact:])
    return float(y[impact + falling[0]] if falling.size else y[impact:].max())


def slide_acceleration(e, friction: float, seconds: float = 1.0) -> float:
    """Acceleration (m/s^2) of the box down the incline: the quadratic fitted to its distance
    travelled from 0.1 s on (the first steps settle the contact)."""
    e.incline(ANGLE, friction, HALF)
    start = e.positions()[0]
    s = trajectory(
        e, round(seconds / DT), lambda e: float((e.positions()[0] - start) @ downhill(ANGLE))
    )
    t = DT * np.arange(1, len(s) + 1)
    late = t >= 0.1
    return 2.0 * float(np.polyfit(t[late], s[late], 2)[0])


def slip(e, friction: float, seconds: float = 1.0) -> float:
    """Distance (m) the box moved down the incline in `seconds` from rest."""
    e.incline(ANGLE, friction, HALF)
    start = e.positions()[0]
    e.step(round(seconds / DT))
    return float((e.positions()[0] - start) @ downhill(ANGLE))


def cradle_velocities(e, seconds: float = 0.5) -> np.ndarray:
    """Velocities (n, 3) of the cradle's balls `seconds` after ball 0 set off."""
    e.cradle(CRADLE, CRADLE_BALL, GAP, SPEED)
    e.step(round(seconds / DT))
    return e.velocities()


def measure(engines) -> dict[str, dict]:
    """Each engine's answers: bounce apex (m), sliding acceleration (m/s^2), slip while held (m),
    and the cradle's velocities."""
    results = {}
    for name, cls in engines.items():
        answers = {}
        for key, test, *args in [
            ("apex", rebound_apex),
            ("slide", slide_acceleration, SLIDES),
            ("slip", slip, HOLDS),
            ("cradle", cradle_velocities),
        ]:
            e = cls()
            answers[key] = test(e, *args)
            e.close()
        results[name] = answers
        print(
            f"  accuracy: {name} apex {answers['apex']:.4f} m, a {answers['slide']:.4f} m/s^2, slip {answers['slip'] * 1e3:.3f} mm, "
            f"cradle {np.round(answers['cradle'][:, 0], 3)}",
            flush=True,
        )
    return results


def section(results, engines) -> list[str]:
    apex = RESTITUTION**2 * DROP
    accel = G * (math.sin(ANGLE) - SLIDES * math.cos(ANGLE))
    after = np.zeros(CRADLE)
    after[-1] = SPEED
    lines = [
        "## 7. Accuracy beside speed",
        "",
        f"dt = 1/{round(1 / DT)} s and each engine's defaults, except the coefficients each test names. How each engine was given a pair's coefficient:",
        "",
    ]
    lines += [f"- {name}: {cls.materials}." for name, cls in engines.items()]
    lines += [
        "",
        f"### (a) Bounce: a ball (radius {BALL} m) dropped from {DROP:g} m onto a floor, restitution {RESTITUTION}",
        "",
        f"The top of the first rebound (the ball's lowest point, sampled each step) against e^2 h = {apex:g} m.",
        "",
        "| engine | rebound (m) | theory (m) | error |",
        "|---|---|---|---|",
    ]
    for name, r in results.items():
        lines.append(f"| {name} | {r['apex']:.4f} | {apex:g} | {(r['apex'] - apex) / apex:+.2%} |")
    lines += [
        "",
        f"### (b) Incline: a cube (half size {HALF} m) from rest on a {math.degrees(ANGLE):g} degree slab",
        "",
        f"With friction {SLIDES} it slides: its acceleration (a quadratic fitted to its distance from 0.1 s to 1 s) against g (sin theta - mu cos theta) = {accel:.4f} m/s^2. "
        f"With friction {HOLDS} (over tan 30 = {math.tan(ANGLE):.3f}) it must stay: its slip in 1 s against 0.",
        "",
        f"| engine | acceleration (m/s^2) | theory | error | slip at mu = {HOLDS} (mm) | stays |",
        "|---|---|---|---|---|---|",
    ]
    for name, r in results.items():
        lines.append(
            f"| {name} | {r['slide']:.4f} | {accel:.4f} | {(r['slide'] - accel) / accel:+.2%} | {r['slip'] * 1e3:.3f} | {'yes' if abs(r['slip']) < 1e-3 else 'no'} |"
        )
    lines += [
        "",
        f"### (c) Newton's cradle: {CRADLE} equal touching balls (radius {CRADLE_BALL} m) in zero gravity, restitution 1, the first hitting at {SPEED:g} m/s",
        "",
        f"Velocities along the row 0.5 s after the start, against ({', '.join(f'{v:g}' for v in after)}) m/s; 'error' is the largest difference; "
        "kinetic energy kept is the total after over the total before.",
        "",
        "| engine | velocities (m/s) | theory | error (m/s) | kinetic energy kept |",
        "|---|---|---|---|---|",
    ]
    for name, r in results.items():
        v = r["cradle"]
        lines.append(
            f"| {name} | {', '.join(f'{x:.3f}' for x in v[:, 0])} | {', '.join(f'{x:g}' for x in after)} | {np.abs(v[:, 0] - after).max():.3f} | {(v**2).sum() / SPEED**2:.1%} |"
        )
    return lines
