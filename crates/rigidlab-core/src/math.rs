//! Vector types (glam, f64) and the few helpers glam lacks.

pub use glam::{DMat3, DQuat, DVec2, DVec3};

/// The quaternion (w, 0) with w a vector: the angular velocity in quaternion form.
#[inline]
pub fn pure_quat(w: DVec3) -> DQuat {
    DQuat::from_xyzw(w.x, w.y, w.z, 0.0)
}

/// dq/dt = 1/2 (w, 0) q for a world-frame angular velocity w (not normalised).
#[inline]
pub fn quat_derivative(q: DQuat, w: DVec3) -> DQuat {
    (pure_quat(w) * q) * 0.5
}

/// First-order orientation update q + dt dq/dt, renormalised (the textbook Euler update).
#[inline]
pub fn integrate_orientation_linear(q: DQuat, w: DVec3, dt: f64) -> DQuat {
    (q + quat_derivative(q, w) * dt).normalize()
}

/// Orientation after turning at constant angular velocity w for dt: exp(w dt / 2) q.
/// Exact for constant w, so torque-free spin about a principal axis keeps its rate.
#[inline]
pub fn integrate_orientation_exact(q: DQuat, w: DVec3, dt: f64) -> DQuat {
    // Not turning (a body at rest): q as it is.
    if w == DVec3::ZERO {
        return q;
    }
    let angle = w.length() * dt;
    if angle < 1e-12 {
        return integrate_orientation_linear(q, w, dt);
    }
    (DQuat::from_axis_angle(w / w.length(), angle) * q).normalize()
}

/// World-frame inertia R I R^T from a body-frame tensor.
#[inline]
pub fn rotate_tensor(q: DQuat, body: DMat3) -> DMat3 {
    let r = DMat3::from_quat(q);
    r * body * r.transpose()
}

/// The matrix of the cross product with r: skew(r) * v = r x v.
pub fn skew(r: DVec3) -> DMat3 {
    DMat3::from_cols(
        DVec3::new(0.0, r.z, -r.y),
        DVec3::new(-r.z, 0.0, r.x),
        DVec3::new(r.y, -r.x, 0.0),
    )
}

/// Two unit tangents t1, t2 with (t1, t2, n) a right-handed orthonormal frame, for a unit
/// normal n. A normal in the x-y plane (every contact of a 2D world) gets t2 = +z exactly, so
/// friction along t1 stays in the plane and t2 carries nothing.
#[inline]
pub fn tangents(n: DVec3) -> (DVec3, DVec3) {
    if n.z == 0.0 {
        (DVec3::new(-n.y, n.x, 0.0), DVec3::Z)
    } else {
        n.any_orthonormal_pair()
    }
}
