//! Helpers shared by the Rust integration tests.
#![allow(dead_code)]

use glam::{DQuat, DVec3};
use rigidlab::{
    BodyDesc, BodyHandle, BodyKind, IntegratorKind, MassSpec, Material, Settings, Shape, World,
};

pub fn world(gravity: DVec3, dt: f64, integrator: IntegratorKind) -> World {
    World::new(Settings {
        gravity,
        dt,
        integrator,
        ..Settings::default()
    })
}

pub fn sphere(
    w: &mut World,
    r: f64,
    mass: f64,
    position: DVec3,
    velocity: DVec3,
    restitution: Option<f64>,
) -> BodyHandle {
    let mut d = BodyDesc::new(Shape::sphere(r).unwrap());
    d.mass = MassSpec::Mass(mass);
    d.position = position;
    d.velocity = velocity;
    d.material = Material::new(restitution, None, None).unwrap();
    w.add_body(d).unwrap()
}

pub fn floor(w: &mut World) -> BodyHandle {
    let mut d = BodyDesc::new(Shape::Plane);
    d.kind = BodyKind::Static;
    w.add_body(d).unwrap()
}

pub fn plane(w: &mut World, normal: DVec3, offset: f64) -> BodyHandle {
    let mut d = BodyDesc::new(Shape::Plane);
    d.kind = BodyKind::Static;
    let n = normal.normalize();
    d.position = n * offset;
    d.orientation = DQuat::from_rotation_arc(DVec3::Y, n);
    w.add_body(d).unwrap()
}

pub fn rel(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs()
}
