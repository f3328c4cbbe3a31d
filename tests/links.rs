//! Springs, joints and sleeping from Rust, against closed forms: an oscillator's period and
//! its damping, a rod pendulum's period at finite amplitude, a hinge motor spinning a wheel up,
//! a rope that only pulls, and a resting body that falls asleep and wakes when struck.

mod common;
use common::*;
use glam::DVec3;
use rigidlab::dynamics::joints::{JointHandle, Motor};
use rigidlab::dynamics::sleep::SLEEP_TIME;
use rigidlab::world_links::{Attachment, HingeOptions, MouseOptions};
use rigidlab::{BodyDesc, BodyHandle, IntegratorKind, MassSpec, Shape, World};
use std::f64::consts::TAU;

const G: f64 = 9.81;

/// Body a's centre tied to a world point.
fn to_world(a: BodyHandle, point: DVec3) -> Attachment {
    Attachment {
        a,
        b: None,
        anchor_a: DVec3::ZERO,
        anchor_b: point,
    }
}

/// Times at which x(t) crosses zero going up, by linear interpolation between steps.
fn upward_crossings(w: &mut World, seconds: f64, x: impl Fn(&World) -> f64) -> Vec<f64> {
    let mut out = Vec::new();
    let mut last = (w.time(), x(w));
    while w.time() < seconds {
        w.step().unwrap();
        let now = (w.time(), x(w));
        if last.1 < 0.0 && now.1 >= 0.0 {
            out.push(last.0 + (now.0 - last.0) * (-last.1) / (now.1 - last.1));
        }
        last = now;
    }
    out
}

#[test]
fn a_spring_oscillates_with_the_period_of_its_mass_and_stiffness() {
    let (m, k) = (2.0, 50.0);
    let mut w = world(DVec3::ZERO, 1e-3, IntegratorKind::Verlet);
    let b = sphere(
        &mut w,
        0.05,
        m,
        DVec3::new(0.1, 0.0, 0.0),
        DVec3::ZERO,
        None,
    );
    w.add_spring(to_world(b, DVec3::ZERO), k, 0.0, Some(0.0))
        .unwrap();
    let e0 = w.energy().total;
    let ups = upward_crossings(&mut w, 5.0, |w| w.body(b).unwrap().position.x);
    let periods: Vec<f64> = ups.windows(2).map(|p| p[1] - p[0]).collect();
    let exact = TAU * (m / k).sqrt();
    assert!(periods.len() >= 3);
    for p in periods {
        // Velocity Verlet's period is long by (w dt)^2 / 24 relative: 1e-6 here.
        assert!(rel(p, exact) < 1e-5, "period {p} against {exact}");
    }
    // Symplectic: energy in a band of relative width (w dt)^2.
    assert!(
        rel(w.energy().total, e0) < 1e-4,
        "energy {} against {e0}",
        w.energy().total
    );
}

#[test]
fn a_damped_spring_decays_by_the_logarithmic_decrement() {
    let (m, k, c) = (1.0, 40.0, 0.8);
    let mut w = world(DVec3::ZERO, 1e-3, IntegratorKind::Verlet);
    let b = sphere(
        &mut w,
        0.05,
        m,
        DVec3::new(0.2, 0.0, 0.0),
        DVec3::ZERO,
        None,
    );
    w.add_spring(to_world(b, DVec3::ZERO), k, c, Some(0.0))
        .unwrap();
    // Successive maxima of x: the ratio is exp(-c T_d / 2m), T_d = 2 pi / w_d.
    let mut peaks = Vec::new();
    let (mut x0, mut x1) = (f64::NAN, 0.2);
    while w.time() < 4.0 {
        w.step().unwrap();
        let x2 = w.body(b).unwrap().position.x;
        if x1 > x0 && x1 >= x2 && x1 > 0.0 {
            peaks.push(x1);
        }
        (x0, x1) = (x1, x2);
    }
    let wd = (k / m - (c / (2.0 * m)).powi(2)).sqrt();
    let ratio = (-c / (2.0 * m) * TAU / wd).exp();
    assert!(peaks.len() >= 3);
    for pair in peaks.windows(2) {
        // A peak is the largest sample, within (w dt)^2 / 2 of the true maximum.
        assert!(
            rel(pair[1] / pair[0], ratio) < 1e-4,
            "{} against {ratio}",
            pair[1] / pair[0]
        );
    }
}

#[test]
fn a_rod_pendulum_swings_with_the_finite_amplitude_period_and_keeps_its_length() {
    let (l, theta0) = (1.0, 0.2f64);
    let mut w = world(DVec3::new(0.0, -G, 0.0), 1e-3, IntegratorKind::Verlet);
    let start = DVec3::new(l * theta0.sin(), -l * theta0.cos(), 0.0);
    let bob = sphere(&mut w, 0.02, 1.0, start, DVec3::ZERO, None);
    let rod = Attachment::at_world_point(&w, bob, None, DVec3::ZERO).unwrap();
    let rod = Attachment {
        anchor_a: DVec3::ZERO,
        anchor_b: DVec3::ZERO,
        ..rod
    };
    w.add_distance_joint(rod, Some(l)).unwrap();
    let mut worst_length: f64 = 0.0;
    let mut ups = Vec::new();
    let mut last = (0.0, start.x);
    while w.time() < 6.0 {
        w.step().unwrap();
        let p = w.body(bob).unwrap().position;
        worst_length = worst_length.max((p.length() - l).abs());
        if last.1 < 0.0 && p.x >= 0.0 {
            ups.push(last.0 + (w.time() - last.0) * (-last.1) / (p.x - last.1));
        }
        last = (w.time(), p.x);
    }
    // T = 2 pi sqrt(L / g) (1 + theta0^2 / 16 + 11 theta0^4 / 3072 + ...).
    let t2 = theta0 * theta0;
    let exact = TAU * (l / G).sqrt() * (1.0 + t2 / 16.0 + 11.0 * t2 * t2 / 3072.0);
    assert!(ups.len() >= 2);
    for p in ups.windows(2).map(|u| u[1] - u[0]) {
        assert!(rel(p, exact) < 1e-5, "period {p} against {exact}");
    }
    assert!(
        worst_length < 1e-9,
        "the rod stretched by {worst_length:e} m"
    );
}

#[test]
fn a_hinge_motor_spins_a_wheel_up_at_its_torque_then_holds_its_speed() {
    let (m, half, torque, speed) = (4.0, 0.5, 1.0, 2.0);
    let mut w = world(DVec3::ZERO, 1.0 / 240.0, IntegratorKind::Verlet);
    let mut d = BodyDesc::new(Shape::cuboid(DVec3::new(half, half, 0.05)).unwrap());
    d.mass = MassSpec::Mass(m);
    let wheel = w.add_body(d).unwrap();
    let motor = HingeOptions {
        limits: None,
        motor: Some(Motor {
            speed,
            max_torque: torque,
        }),
    };
    w.add_hinge_joint(wheel, None, DVec3::ZERO, DVec3::Z, motor)
        .unwrap();
    // I about z of a box: m (a^2 + b^2) / 3 with half extents a, b.
    let inertia = m * (half * half + half * half) / 3.0;
    for _ in 0..240 {
        w.step().unwrap();
    }
    let spin = w.body(wheel).unwrap().angular_velocity;
    // The motor drives a's speed against the world's, the hinge's sense: |w| = torque t / I.
    assert!(rel(spin.z.abs(), torque * 1.0 / inertia) < 1e-9, "{spin:?}");
    assert!(spin.x.abs() < 1e-12 && spin.y.abs() < 1e-12);
    for _ in 0..480 {
        w.step().unwrap();
    }
    let spin = w.body(wheel).unwrap().angular_velocity;
    assert!(rel(spin.z.abs(), speed) < 1e-9, "held at {spin:?}");
}

#[test]
fn a_rope_pulls_only_when_taut() {
    let mut w = world(
        DVec3::new(0.0, -G, 0.0),
        1.0 / 240.0,
        IntegratorKind::Verlet,
    );
    // Thrown up from 0.5 m below the anchor on a 1 m rope: free flight until it is taut.
    let bob = sphere(
        &mut w,
        0.05,
        1.0,
        DVec3::new(0.0, -0.5, 0.0),
        DVec3::new(0.0, 2.0, 0.0),
        None,
    );
    let rope = Attachment {
        a: bob,
        b: None,
        anchor_a: DVec3::ZERO,
        anchor_b: DVec3::ZERO,
    };
    w.add_rope_joint(rope, Some(1.0)).unwrap();
    let mut worst: f64 = 0.0;
    for _ in 0..240 {
        w.step().unwrap();
        let b = w.body(bob).unwrap();
        let t = w.time();
        if b.position.length() < 1.0 - 1e-6 && t < 0.6 {
            // Slack: exactly free flight.
            let y = -0.5 + 2.0 * t - 0.5 * G * t * t;
            worst = worst.max((b.position.y - y).abs());
        }
        assert!(b.position.length() <= 1.0 + 1e-9, "the rope stretched");
    }
    assert!(worst < 1e-12, "a slack rope pulled: {worst:e} m");
}

#[test]
fn a_resting_box_falls_asleep_and_a_blow_wakes_it() {
    let mut w = world(
        DVec3::new(0.0, -G, 0.0),
        1.0 / 240.0,
        IntegratorKind::Verlet,
    );
    floor(&mut w);
    let mut d = BodyDesc::new(Shape::cuboid(DVec3::splat(0.1)).unwrap());
    d.mass = MassSpec::Mass(1.0);
    d.position = DVec3::new(0.0, 0.2, 0.0);
    let boxed = w.add_body(d).unwrap();
    let mut landed = None;
    let mut slept = None;
    while w.time() < 3.0 && slept.is_none() {
        w.step().unwrap();
        let b = w.body(boxed).unwrap();
        if landed.is_none() && b.velocity.length() < 1e-9 && b.position.y < 0.1 + 1e-3 {
            landed = Some(w.time());
        }
        if b.sleep.asleep {
            slept = Some(w.time());
        }
    }
    let (landed, slept) = (landed.expect("it lands"), slept.expect("it sleeps"));
    assert!(
        slept - landed >= SLEEP_TIME - 1e-9,
        "slept {slept} s after landing at {landed} s"
    );
    // Asleep, it does not move at all.
    let before = w.body(boxed).unwrap().position;
    for _ in 0..60 {
        w.step().unwrap();
    }
    assert_eq!(w.body(boxed).unwrap().position, before);
    // A ball dropped on it wakes it.
    let ball = sphere(
        &mut w,
        0.05,
        1.0,
        DVec3::new(0.02, 0.5, 0.0),
        DVec3::ZERO,
        Some(0.5),
    );
    while w.body(ball).unwrap().position.y > 0.26 && w.time() < 10.0 {
        w.step().unwrap();
    }
    for _ in 0..5 {
        w.step().unwrap();
    }
    assert!(!w.body(boxed).unwrap().sleep.asleep, "the blow woke it");
}

fn soft(frequency: f64, damping_ratio: f64, max_force: Option<f64>) -> MouseOptions {
    MouseOptions {
        frequency,
        damping_ratio,
        max_force,
    }
}

/// A sphere of mass 2 held at its centre by a mouse joint to a world target.
fn held(
    gravity: DVec3,
    dt: f64,
    integrator: IntegratorKind,
    options: MouseOptions,
) -> (World, BodyHandle, JointHandle) {
    let mut w = world(gravity, dt, integrator);
    let start = DVec3::new(0.3, 1.0, -0.2);
    let b = sphere(&mut w, 0.1, 2.0, start, DVec3::ZERO, None);
    let j = w
        .add_mouse_joint(b, start, DVec3::new(0.0, 1.2, 0.0), options)
        .unwrap();
    (w, b, j)
}

#[test]
fn a_body_on_a_mouse_joint_comes_to_rest_a_spring_length_below_its_target() {
    // The joint is a spring m w^2 with a damper: at rest it carries the weight m g, so the
    // centre hangs g / w^2 under the target, with every integrator (the pull acts through the
    // step as gravity does).
    let options = soft(3.0, 1.0, None);
    for integrator in [
        IntegratorKind::Euler,
        IntegratorKind::SymplecticEuler,
        IntegratorKind::Verlet,
        IntegratorKind::Rk4,
    ] {
        for dt in [1.0 / 60.0, 1.0 / 240.0, 1e-3] {
            let (mut w, b, _) = held(DVec3::new(0.0, -G, 0.0), dt, integrator, options);
            w.step_n((10.0 / dt) as u64).unwrap();
            let omega = TAU * options.frequency;
            let expected = DVec3::new(0.0, 1.2 - G / (omega * omega), 0.0);
            let body = w.body(b).unwrap();
            assert!(
                (body.position - expected).length() < 1e-9,
                "{integrator:?} dt {dt}: {:?} against {expected:?}",
                body.position
            );
            assert!(body.velocity.length() < 1e-9);
        }
    }
}

#[test]
fn a_mouse_joint_damps_a_body_swinging_round_its_target_as_one_pulled_straight() {
    // The damper acts on the whole relative velocity, not only along the line to the target
    // (a spring's dashpot would let it orbit for ever): thrown sideways, it settles on the
    // target at the rate z w of the continuous system.
    let options = soft(2.0, 0.7, None);
    let (mut w, b, j) = held(DVec3::ZERO, 1.0 / 240.0, IntegratorKind::Verlet, options);
    w.set_velocity(b, DVec3::new(0.0, 0.0, 3.0)).unwrap();
    let target = w.joint(j).unwrap().anchor_b;
    w.step_n(6 * 240).unwrap();
    let body = w.body(b).unwrap();
    // e^(-z w t) of a 0.5 m, 3 m/s start after 6 s: about 1e-22.
    assert!(
        (body.position - target).length() < 1e-12,
        "{:?}",
        body.position
    );
    assert!(body.velocity.length() < 1e-12);
}

#[test]
fn an_undamped_mouse_joint_oscillates_at_its_frequency() {
    let options = soft(1.5, 0.0, None);
    let (mut w, b, j) = held(DVec3::ZERO, 1e-4, IntegratorKind::Verlet, options);
    let target = w.joint(j).unwrap().anchor_b;
    let ups = upward_crossings(&mut w, 3.0, |w| w.body(b).unwrap().position.y - target.y);
    assert!(ups.len() >= 3);
    // The implicit step's own error, (h w)^2 of the period: about 1e-7 here.
    for p in ups.windows(2).map(|p| p[1] - p[0]) {
        assert!((p * options.frequency - 1.0).abs() < 1e-5, "period {p}");
    }
}

#[test]
fn a_mouse_joint_pulls_with_no_more_than_its_max_force() {
    // A target far above: the pull, capped at 5 N, lifts less than the 2 kg body's weight, so
    // it falls at g - F / m.
    let options = soft(5.0, 0.7, Some(5.0));
    let (mut w, b, j) = held(
        DVec3::new(0.0, -G, 0.0),
        1.0 / 240.0,
        IntegratorKind::Verlet,
        options,
    );
    w.set_mouse_target(j, DVec3::new(0.3, 1000.0, -0.2))
        .unwrap();
    w.step_n(120).unwrap();
    let v0 = w.body(b).unwrap().velocity;
    w.step_n(240).unwrap();
    let v1 = w.body(b).unwrap().velocity;
    let expected = -(G - 5.0 / 2.0);
    assert!(((v1 - v0).y - expected).abs() < 1e-9, "{:?}", v1 - v0);
    assert!((v1 - v0).x.abs() < 1e-12 && (v1 - v0).z.abs() < 1e-12);
    let reaction = w.joint(j).unwrap().impulse / w.settings().dt;
    assert!((reaction.length() - 5.0).abs() < 1e-9);
}
