//! Fixed joints (welds): the anchors coincide and the relative orientation q_a^-1 q_b stays
//! what it was when the joint was made.

use super::{
    angular_row, hold_point, hold_rotation, rotation_between, solve_with_point, Row, Sides,
};
use crate::dynamics::joints::Joint;
use crate::math::{DQuat, DVec3};

/// Position phase: b turned back to `relative` against a, and the anchors together. Returns
/// the larger error before.
pub(super) fn position(
    joint: &Joint,
    row: &mut Row,
    s: &mut Sides,
    dt: f64,
    relative: DQuat,
    project: bool,
) -> f64 {
    let ((_, qa), (_, qb)) = (s.pose_a(), s.pose_b());
    let e = rotation_between(qa * relative, qb);
    hold_rotation(row, s, dt, e, None).max(hold_point(joint, row, s, dt, project))
}

/// Velocity phase: no relative velocity of the anchors and no relative spin, together.
pub(super) fn velocity(joint: &Joint, row: &mut Row, s: &mut Sides) {
    solve_with_point(
        joint,
        row,
        s,
        &[DVec3::X, DVec3::Y, DVec3::Z].map(angular_row),
    );
}
