//! Free rotation: Euler's equations with the gyroscopic term.

mod common;
use common::*;
use glam::{DQuat, DVec3};
use rigidlab::{BodyDesc, IntegratorKind, MassSpec, Shape, World};

fn spinning_box(kind: IntegratorKind, w0: DVec3) -> (World, rigidlab::BodyHandle) {
    let mut w = world(DVec3::ZERO, 1.0 / 240.0, kind);
    let mut d = BodyDesc::new(Shape::cuboid(DVec3::new(0.3, 0.2, 0.1)).unwrap());
    d.mass = MassSpec::Mass(1.5);
    d.orientation = DQuat::from_rotation_y(0.4) * DQuat::from_rotation_x(0.3);
    d.angular_velocity = w0;
    let b = w.add_body(d).unwrap();
    (w, b)
}

#[test]
fn spinning_box_keeps_angular_momentum_with_rk4() {
    let (mut w, b) = spinning_box(IntegratorKind::Rk4, DVec3::new(1.0, 3.0, -2.0));
    let l0 = w.angular_momentum(DVec3::ZERO);
    let e0 = w.energy().rotational;
    let mut worst: f64 = 0.0;
    for _ in 0..2400 {
        w.step().unwrap();
        let l = w.angular_momentum(DVec3::ZERO);
        worst = worst.max(rel(l.length(), l0.length()));
    }
    assert!(worst < 1e-6, "|L| drifted by {worst:e}");
    let l1 = w.angular_momentum(DVec3::ZERO);
    assert!(
        (l1 - l0).length() / l0.length() < 1e-5,
        "L direction drifted: {l0} -> {l1}"
    );
    assert!(rel(w.energy().rotational, e0) < 1e-6);
    // Not a trivial spin: the angular velocity direction changed (precession).
    let w1 = w.body(b).unwrap().angular_velocity;
    assert!(w1.normalize().dot(DVec3::new(1.0, 3.0, -2.0).normalize()) < 0.999);
}

#[test]
fn every_integrator_keeps_spin_about_a_principal_axis() {
    for kind in [
        IntegratorKind::Euler,
        IntegratorKind::SymplecticEuler,
        IntegratorKind::Verlet,
        IntegratorKind::Rk4,
    ] {
        let mut w = World::new(rigidlab::Settings {
            gravity: DVec3::ZERO,
            integrator: kind,
            ..Default::default()
        });
        let mut d = BodyDesc::new(Shape::cuboid(DVec3::new(0.3, 0.2, 0.1)).unwrap());
        d.angular_velocity = DVec3::new(0.0, 0.0, 2.0);
        let b = w.add_body(d).unwrap();
        w.step_n(240).unwrap();
        let body = w.body(b).unwrap();
        assert!(
            (body.angular_velocity - DVec3::new(0.0, 0.0, 2.0)).length() < 1e-12,
            "{kind:?}"
        );
        let angle = 2.0 * body.orientation.z.atan2(body.orientation.w);
        assert!(
            (angle - 2.0).abs() < 1e-3,
            "{kind:?}: turned {angle} rad in 1 s at 2 rad/s"
        );
    }
}

#[test]
fn verlet_conserves_rotational_energy_to_second_order() {
    let (mut w, _) = spinning_box(IntegratorKind::Verlet, DVec3::new(1.0, 3.0, -2.0));
    let e0 = w.energy().rotational;
    let l0 = w.angular_momentum(DVec3::ZERO).length();
    w.step_n(2400).unwrap();
    assert!(
        rel(w.energy().rotational, e0) < 1e-3,
        "energy {} -> {}",
        e0,
        w.energy().rotational
    );
    assert!(rel(w.angular_momentum(DVec3::ZERO).length(), l0) < 1e-3);
}
