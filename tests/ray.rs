//! Ray casts against each shape, checked against the analytic entry points.

mod common;

use glam::{DQuat, DVec3};
use rigidlab::{BodyDesc, BodyKind, IntegratorKind, Shape, World};

fn world() -> World {
    common::world(DVec3::ZERO, 1.0 / 240.0, IntegratorKind::Verlet)
}

fn add(w: &mut World, shape: Shape, position: DVec3, orientation: DQuat) -> rigidlab::BodyHandle {
    w.add_body(BodyDesc {
        position,
        orientation,
        ..BodyDesc::new(shape)
    })
    .unwrap()
}

#[test]
fn rays_enter_each_shape_where_geometry_says() {
    let mut w = world();
    let s = add(
        &mut w,
        Shape::sphere(0.5).unwrap(),
        DVec3::new(0.0, 0.0, -5.0),
        DQuat::IDENTITY,
    );
    // Straight at the centre: the near pole.
    let hit = w
        .ray_cast(DVec3::ZERO, DVec3::new(0.0, 0.0, -2.0), f64::INFINITY, true)
        .unwrap();
    assert_eq!(hit.body, s);
    assert!((hit.t - 4.5).abs() < 1e-12 && (hit.normal - DVec3::Z).length() < 1e-12);
    // Off centre by b: t = sqrt(d^2 - b^2) - sqrt(r^2 - b^2) along the ray.
    let b = 0.3;
    let hit = w
        .ray_cast(DVec3::new(b, 0.0, 0.0), -DVec3::Z, f64::INFINITY, true)
        .unwrap();
    assert!((hit.t - (5.0 - (0.25f64 - b * b).sqrt())).abs() < 1e-12);
    assert!(w
        .ray_cast(DVec3::new(0.6, 0.0, 0.0), -DVec3::Z, f64::INFINITY, true)
        .is_none());
    assert!(
        w.ray_cast(DVec3::ZERO, -DVec3::Z, 4.0, true).is_none(),
        "beyond max_distance"
    );

    // A box turned 45 degrees about y: its edge faces the ray at half-diagonal distance.
    let mut w = world();
    let q = DQuat::from_rotation_y(std::f64::consts::FRAC_PI_4);
    add(
        &mut w,
        Shape::cuboid(DVec3::splat(0.5)).unwrap(),
        DVec3::new(0.0, 0.0, -3.0),
        q,
    );
    let hit = w
        .ray_cast(DVec3::new(0.0, 0.2, 0.0), -DVec3::Z, f64::INFINITY, true)
        .unwrap();
    assert!((hit.t - (3.0 - 0.5 * 2f64.sqrt())).abs() < 1e-12);

    // A capsule along y: its side at x = r, its cap from above at y = h + r.
    let mut w = world();
    add(
        &mut w,
        Shape::capsule(0.2, 0.5).unwrap(),
        DVec3::ZERO,
        DQuat::IDENTITY,
    );
    let side = w
        .ray_cast(DVec3::new(3.0, 0.3, 0.0), -DVec3::X, f64::INFINITY, true)
        .unwrap();
    assert!((side.t - 2.8).abs() < 1e-12 && (side.normal - DVec3::X).length() < 1e-12);
    let cap = w
        .ray_cast(DVec3::new(0.0, 3.0, 0.0), -DVec3::Y, f64::INFINITY, true)
        .unwrap();
    assert!((cap.t - 2.3).abs() < 1e-12 && (cap.normal - DVec3::Y).length() < 1e-12);

    // A hull (a tetrahedron's face x + y + z = 1 seen along the diagonal).
    let mut w = world();
    let points = [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z];
    let (hull, centroid) = Shape::convex(&points).unwrap();
    add(&mut w, hull, centroid, DQuat::IDENTITY);
    let d = -DVec3::ONE.normalize();
    let hit = w
        .ray_cast(DVec3::splat(2.0), d, f64::INFINITY, true)
        .unwrap();
    let expected = DVec3::splat(1.0 / 3.0);
    assert!((hit.point - expected).length() < 1e-12);
    assert!((hit.normal + d).length() < 1e-12);
}

#[test]
fn planes_are_hit_unless_solids_only_and_the_nearest_body_wins() {
    let mut w = world();
    w.add_body(BodyDesc {
        kind: BodyKind::Static,
        position: DVec3::new(0.0, -1.0, 0.0),
        ..BodyDesc::new(Shape::Plane)
    })
    .unwrap();
    let near = add(
        &mut w,
        Shape::sphere(0.1).unwrap(),
        DVec3::new(0.0, 1.0, 0.0),
        DQuat::IDENTITY,
    );
    add(
        &mut w,
        Shape::sphere(0.1).unwrap(),
        DVec3::new(0.0, 0.0, 0.0),
        DQuat::IDENTITY,
    );
    let down = -DVec3::Y;
    assert_eq!(
        w.ray_cast(DVec3::new(0.0, 3.0, 0.0), down, f64::INFINITY, true)
            .unwrap()
            .body,
        near
    );
    let floor = w
        .ray_cast(DVec3::new(2.0, 3.0, 0.0), down * 7.0, f64::INFINITY, false)
        .unwrap();
    assert!((floor.t - 4.0).abs() < 1e-12 && (floor.point.y + 1.0).abs() < 1e-12);
    assert!(w
        .ray_cast(DVec3::new(2.0, 3.0, 0.0), down, f64::INFINITY, true)
        .is_none());
    // From inside a body: t = 0.
    assert_eq!(
        w.ray_cast(DVec3::new(0.0, 1.02, 0.0), DVec3::X, f64::INFINITY, true)
            .unwrap()
            .t,
        0.0
    );
}
