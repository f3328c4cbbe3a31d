//! Free motion: each integrator against closed forms and the 2D sandbox simulator's Table 4.1.

mod common;
use common::*;
use glam::DVec3;
use rigidlab::IntegratorKind::{self, *};

const G0: f64 = 9.80665;

fn fall(kind: IntegratorKind, dt: f64, seconds: f64) -> f64 {
    let mut w = world(DVec3::new(0.0, -G0, 0.0), dt, kind);
    let b = sphere(&mut w, 0.1, 1.0, DVec3::ZERO, DVec3::ZERO, None);
    w.step_n((seconds / dt).round() as u64).unwrap();
    w.body(b).unwrap().position.y
}

#[test]
#[allow(clippy::excessive_precision)] // the table's digits, as published
fn free_fall_reproduces_seed_b_table_4_1() {
    let table = [
        (Rk4, 1.0, -490.33249999999998),
        (Rk4, 0.1, -490.33250000000027),
        (Euler, 0.1, -485.42917500000027),
        (Euler, 0.01, -489.84216750000547),
        (Euler, 0.001, -490.28346675005253),
    ];
    for (kind, dt, expected) in table {
        let y = fall(kind, dt, 10.0);
        assert!(
            rel(y, expected) < 1e-9,
            "{kind:?} dt={dt}: y={y:.14} expected {expected:.14}"
        );
    }
    // Velocity Verlet is exact under uniform gravity.
    let y = fall(Verlet, 1.0 / 240.0, 10.0);
    assert!(rel(y, -490.3325) < 1e-12, "verlet y={y}");
}

/// Error of x(T) for a body under gravity and linear drag, whose closed form is
/// v(t) = v_inf + (v0 - v_inf) e^{-kt}, x(t) = x0 + v_inf t + (v0 - v_inf)(1 - e^{-kt})/k.
fn drag_error(kind: IntegratorKind, dt: f64) -> f64 {
    let (m, c) = (2.0, 0.8);
    let k = c / m;
    let g = DVec3::new(0.0, -G0, 0.0);
    let v0 = DVec3::new(3.0, 4.0, 0.0);
    let mut w = world(g, dt, kind);
    let b = sphere(&mut w, 0.1, m, DVec3::ZERO, v0, None);
    w.set_damping(b, c, 0.0).unwrap();
    let t = 2.0;
    w.step_n((t / dt).round() as u64).unwrap();
    let v_inf = g / k;
    let exact = v_inf * t + (v0 - v_inf) * (1.0 - (-k * t).exp()) / k;
    (w.body(b).unwrap().position - exact).length()
}

#[test]
fn convergence_order_under_gravity_and_drag() {
    for (kind, order) in [
        (Euler, 1.0),
        (SymplecticEuler, 1.0),
        (Verlet, 2.0),
        (Rk4, 4.0),
    ] {
        let dt = if kind == Rk4 { 0.1 } else { 0.01 };
        let e1 = drag_error(kind, dt);
        let e2 = drag_error(kind, dt / 2.0);
        let measured = (e1 / e2).log2();
        assert!(
            (measured - order).abs() < 0.15,
            "{kind:?}: order {measured:.3}, expected {order}"
        );
    }
}

#[test]
fn projectile_range_and_apex_every_integrator() {
    let v0 = DVec3::new(3.0, 4.0, 0.0);
    let g = 9.81;
    let apex = v0.y * v0.y / (2.0 * g);
    let flight = 2.0 * v0.y / g;
    let range = v0.x * flight;
    for kind in [Euler, SymplecticEuler, Verlet, Rk4] {
        let mut range_errors = vec![];
        for dt in [1.0 / 120.0, 1.0 / 240.0] {
            let mut w = world(DVec3::new(0.0, -g, 0.0), dt, kind);
            let b = sphere(&mut w, 0.05, 1.0, DVec3::ZERO, v0, None);
            let mut max_y: f64 = 0.0;
            let (mut prev, mut landing_x) = (DVec3::ZERO, f64::NAN);
            for _ in 0..((flight * 1.5 / dt) as usize) {
                w.step().unwrap();
                let p = w.body(b).unwrap().position;
                max_y = max_y.max(p.y);
                if prev.y > 0.0 && p.y <= 0.0 {
                    landing_x = prev.x + (p.x - prev.x) * prev.y / (prev.y - p.y);
                }
                prev = p;
            }
            if matches!(kind, Euler | SymplecticEuler) {
                // First order: the apex is off by about v_y dt / 2 (up for explicit Euler, down
                // for symplectic Euler).
                let expected_shift = if kind == Euler { 0.5 } else { -0.5 } * v0.y * dt;
                assert!(
                    (max_y - apex - expected_shift).abs() < 0.1 * v0.y * dt,
                    "{kind:?} dt={dt}: apex {max_y} vs {apex}"
                );
            } else {
                // Exact trajectory; sampling the apex between steps loses at most g dt^2 / 8.
                assert!(
                    apex - max_y >= -1e-12 && apex - max_y <= g * dt * dt / 8.0,
                    "{kind:?} dt={dt}: apex {max_y} vs {apex}"
                );
            }
            range_errors.push((landing_x - range).abs());
        }
        if matches!(kind, Euler | SymplecticEuler) {
            let order = (range_errors[0] / range_errors[1]).log2();
            assert!(
                (order - 1.0).abs() < 0.1,
                "{kind:?}: range converges at order {order}"
            );
        } else {
            // Only the linear interpolation of the landing between two steps remains: g dt^2.
            assert!(
                range_errors[1] < g * (1.0 / 240.0f64).powi(2),
                "{kind:?}: range error {}",
                range_errors[1]
            );
        }
    }
}
