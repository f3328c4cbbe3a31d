//! Distance joints and ropes: the anchors kept `length` apart (a rigid rod), or at most
//! `max_length` apart (a rope, which pulls only when taut and never pushes).

use super::{along, arms, Row, Sides};
use crate::dynamics::joints::Joint;
use crate::math::DVec3;

/// Position phase: the anchors' distance to `length` (both ways, or only down to it when
/// `rope`), by an impulse along the start-of-step direction. Returns the error before.
pub(super) fn position(
    joint: &Joint,
    row: &mut Row,
    s: &mut Sides,
    dt: f64,
    length: f64,
    rope: bool,
    project: bool,
) -> f64 {
    let (ra, rb, d) = arms(joint, s);
    let dist = d.length();
    let err = dist - length;
    if dist < 1e-12 || (rope && err <= 0.0) {
        return 0.0;
    }
    let (n0, ia, ib) = if project || row.n0 == DVec3::ZERO {
        (d / dist, ra, rb)
    } else {
        (row.n0, row.ra0, row.rb0)
    };
    let k = (d / dist).dot(s.coupling(ra, rb, ia, ib) * n0);
    if k > 0.0 {
        let p = n0 * (-err / (k * dt));
        s.push(p, ia, ib, dt);
        row.impulse += p;
    }
    err.abs()
}

/// Velocity phase: no relative speed along the anchors' line; a rope (`max_length` given)
/// only while taut, and only pulling.
pub(super) fn velocity(joint: &Joint, row: &mut Row, s: &mut Sides, max_length: Option<f64>) {
    let (ra, rb, d) = arms(joint, s);
    let dist = d.length();
    if dist < 1e-12 {
        return;
    }
    let n = d / dist;
    let k = along(&s.point_mass(ra, rb), n);
    if k <= 0.0 {
        return;
    }
    let vn = s.relative_velocity(ra, rb).dot(n);
    let lambda = -vn / k;
    let lambda = match max_length {
        Some(max_length) => {
            // Only a taut rope pulls, and never pushes.
            if dist < max_length * (1.0 - 1e-9) {
                return;
            }
            let new = (row.rope + lambda).min(0.0);
            let d = new - row.rope;
            row.rope = new;
            d
        }
        None => lambda,
    };
    s.push(n * lambda, ra, rb, 0.0);
    row.impulse += n * lambda;
}
