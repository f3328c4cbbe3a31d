//! What keeps a 2D world in its plane. A 2D world is the 3D engine with every body in the x-y
//! plane: its position and velocity have no z part, it turns about z only, its gravity and
//! every force lie in the plane, and its contacts (collision/planar.rs) have their points in the
//! plane and their normals along it. Every impulse the solvers make from these is then in the
//! plane exactly (products with zeros are zeros), and a body's mass is that of the lamina its
//! shape cuts from the plane (`Shape::planar_mass`).
//!
//! The checks here turn away anything that would leave the plane (a z coordinate, a tilt),
//! naming the parameter; `settle` ends each step by putting every body back exactly in the
//! plane, so that no rounding can ever build up into motion out of it, and counts its turns.

use crate::body::Body;
use crate::error::{Error, Result};
use crate::math::{DQuat, DVec3};

/// The orientation of a body turned by `angle` (rad) about z.
pub fn turn(angle: f64) -> DQuat {
    let (s, c) = (0.5 * angle).sin_cos();
    DQuat::from_xyzw(0.0, 0.0, s, c)
}

/// The angle (rad, in (-pi, pi]) by which orientation q turns the x axis about z.
pub fn angle_of(q: DQuat) -> f64 {
    let x = q * DVec3::X;
    x.y.atan2(x.x)
}

fn off_plane(param: &str, value: impl std::fmt::Debug, why: &str) -> Error {
    Error::invalid(param, format!("{value:?}"), why)
}

/// A point or a vector of a 2D world: no z part.
pub fn check_vector(param: &str, v: DVec3) -> Result<DVec3> {
    if v.z != 0.0 {
        return Err(off_plane(
            param,
            v.to_array(),
            "a 2D world lies in the x-y plane: the z component must be 0",
        ));
    }
    Ok(v)
}

/// An angular velocity or a torque of a 2D world: about z only.
pub fn check_spin(param: &str, w: DVec3) -> Result<DVec3> {
    if w.x != 0.0 || w.y != 0.0 {
        return Err(off_plane(
            param,
            w.to_array(),
            "a 2D world turns about z only: the x and y components must be 0",
        ));
    }
    Ok(w)
}

/// An orientation of a 2D world: a turn about z.
pub fn check_turn(param: &str, q: DQuat) -> Result<DQuat> {
    if q.x != 0.0 || q.y != 0.0 {
        return Err(off_plane(
            param,
            q.to_array(),
            "a body of a 2D world turns about z only: the quaternion's x and y must be 0",
        ));
    }
    Ok(q)
}

/// Checks a body's state for a 2D world.
pub fn check_body(position: DVec3, q: DQuat, velocity: DVec3, w: DVec3) -> Result<()> {
    check_vector("position", position)?;
    check_turn("orientation", q)?;
    check_vector("velocity", velocity)?;
    check_spin("angular_velocity", w)?;
    Ok(())
}

/// Puts a body of a 2D world back exactly in the plane after a step of length dt, and carries
/// its turn on from its previous angle, so that a wheel's angle counts whole turns (the
/// orientation alone knows it only modulo a turn). Of the turns the orientation allows, the one
/// taken is nearest the mean of the angular velocities at the step's start (`spin_before`) and
/// end times dt, which the step's turn differs from by far less than half a turn.
pub fn settle(body: &mut Body, spin_before: f64, dt: f64) {
    body.position.z = 0.0;
    body.velocity.z = 0.0;
    body.angular_velocity.x = 0.0;
    body.angular_velocity.y = 0.0;
    let q = body.orientation;
    if q.x != 0.0 || q.y != 0.0 {
        body.orientation = DQuat::from_xyzw(0.0, 0.0, q.z, q.w).normalize();
    }
    let change = angle_of(body.orientation) - body.angle;
    let expected = 0.5 * (spin_before + body.angular_velocity.z) * dt;
    let whole = ((change - expected) / std::f64::consts::TAU).round() * std::f64::consts::TAU;
    body.angle += change - whole;
}
