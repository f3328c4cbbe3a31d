"""The ready-made labs measure what theory predicts, at several time steps and integrators."""

import numpy as np
import pytest
import rigidlab as rl
from rigidlab.experiments import restitution_lab


@pytest.mark.parametrize("dt", [1 / 60, 1 / 120, 1 / 240, 1 / 1000])
def test_restitution_lab_ratios_are_e_squared(dt):
    h, g = 0.8, 9.81
    r = restitution_lab(restitutions=(0.2, 0.5, 0.7, 0.9, 1.0), drop_height=h, dt=dt)
    for e, ratios in zip(r.restitutions, r.ratios):
        # Bounce k rises to e^(2k) h; it is measurable when its flight 2 sqrt(2 h_k / g) lasts
        # two steps or more (the lab's rule; one at the border may go either way).
        resolvable = sum(1 for k in range(1, 4) if 2 * np.sqrt(2 * e ** (2 * k) * h / g) >= 2 * dt)
        assert len(ratios) >= max(resolvable - 1, 1), (
            f"e={e}: only {len(ratios)} of {resolvable} bounces measured"
        )
        np.testing.assert_allclose(ratios, e**2, rtol=0.01, err_msg=f"e={e}, dt={dt}")


def test_restitution_lab_with_rk4_and_a_table():
    r = restitution_lab(restitutions=(0.6,), integrator="rk4", seconds=3.0)
    np.testing.assert_allclose(r.ratios[0], 0.36, rtol=0.01)
    assert "0.3600" in r.table()
    assert r.heights.shape == (len(r.time), 1)


def test_lab_set_ups_refuse_what_they_cannot_build():
    with pytest.raises(ValueError, match="body"):
        rl.experiments.incline(20.0, body="cone")
    # Below about 25 rad/s this top has no steady precession to start on.
    with pytest.raises(ValueError, match="spin"):
        rl.experiments.spinning_top(spin=10.0)
    w, top, theory = rl.experiments.spinning_top(spin=100.0)
    # The slow root of I1' W^2 cos - I3 w3 W + m g l = 0 with w3 = spin + W cos.
    i1, i3, th, omega = theory["i1"], theory["i3"], theory["tilt"], theory["precession"]
    assert i1 * omega**2 * np.cos(th) - i3 * (
        100.0 + omega * np.cos(th)
    ) * omega + 9.81 * 0.05 == pytest.approx(0.0, abs=1e-12)
    assert (
        np.linalg.norm(
            top.angular_velocity
            - (100.0 * np.array([np.sin(th), np.cos(th), 0.0]) + [0.0, omega, 0.0])
        )
        < 1e-12
    )


def test_zero_crossings_interpolate_between_samples():
    t = np.linspace(0.0, 10.0, 1001)
    up = rl.experiments.zero_crossings(t, np.sin(2 * np.pi * 0.7 * t))
    np.testing.assert_allclose(np.diff(up), 1 / 0.7, rtol=1e-4)
