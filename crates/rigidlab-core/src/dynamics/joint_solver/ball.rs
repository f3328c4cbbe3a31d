//! Ball-and-socket joints: the anchors coincide, any rotation is free.

use super::{hold_point, solve_with_point, Row, Sides};
use crate::dynamics::joints::Joint;

/// Position phase: the anchors together. Returns the error before.
pub(super) fn position(joint: &Joint, row: &mut Row, s: &mut Sides, dt: f64, project: bool) -> f64 {
    hold_point(joint, row, s, dt, project)
}

/// Velocity phase: no relative velocity of the anchors.
pub(super) fn velocity(joint: &Joint, row: &mut Row, s: &mut Sides) {
    solve_with_point(joint, row, s, &[]);
}
