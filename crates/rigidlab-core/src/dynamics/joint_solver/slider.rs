//! Sliders (prismatic joints): b keeps its orientation against a and its anchor on the line
//! through a's anchor along a's axis, so it only slides along that axis. The travel is how far
//! a's anchor has slid along the axis from b's (0 where the joint was made; with b the world,
//! how far a has moved along it): optional limits bound it (m) and an optional motor drives
//! its rate (a target speed and the most force it gives), as a hinge's angle is a's turn
//! against b.

use super::{
    arms, hold_rotation, perpendiculars, rotation_between, solve_and_keep, Drive, Row, Sides,
    VelocityRow, MAX_ROWS,
};
use crate::dynamics::joints::{Joint, JointKind};
use crate::math::DVec3;

/// How far the travel is beyond `limits` (0 within them).
fn beyond(travel: f64, limits: Option<(f64, f64)>) -> f64 {
    match limits {
        Some((lo, _)) if travel < lo => travel - lo,
        Some((_, hi)) if travel > hi => travel - hi,
        _ => 0.0,
    }
}

/// Position phase: b turned back to its orientation against a, its anchor back onto the axis
/// and within the limits. Returns the largest error before.
pub(super) fn position(joint: &Joint, row: &mut Row, s: &mut Sides, dt: f64) -> f64 {
    let JointKind::Slider {
        axis_a,
        relative,
        limits,
        ..
    } = &joint.kind
    else {
        unreachable!("slider::position is called for sliders");
    };
    let ((_, qa), (_, qb)) = (s.pose_a(), s.pose_b());
    let turned = hold_rotation(row, s, dt, rotation_between(qa * *relative, qb), None);
    let (ra, rb, d) = arms(joint, s);
    let axis = s.pose_a().1 * *axis_a;
    let (p1, p2) = perpendiculars(axis);
    // d runs from a's anchor to b's: the travel is -d . axis.
    let over = beyond(-d.dot(axis), *limits);
    // Off the axis (and past a limit, along it): an impulse at the anchors that takes the
    // error out within the step.
    let k = s.point_mass(ra, rb);
    let dirs = [p1, p2, axis];
    let err = [d.dot(p1), d.dot(p2), -over];
    let n = if over != 0.0 { 3 } else { 2 };
    let mut a = [[0.0; 4]; 3];
    for i in 0..n {
        for j in 0..n {
            a[i][j] = dirs[i].dot(k * dirs[j]);
        }
        a[i][n] = -err[i] / dt;
    }
    if let Some(x) = crate::dense::solve(&mut a, n) {
        let p: DVec3 = (0..n).map(|i| dirs[i] * x[i]).sum();
        s.push(p, ra, rb, dt);
        row.impulse += p;
    }
    turned.max(err[0].hypot(err[1])).max(over.abs())
}

/// Velocity phase: no relative spin, no relative velocity across the axis, and the limit the
/// slider is at or its motor, solved together.
pub(super) fn velocity(joint: &Joint, row: &mut Row, s: &mut Sides, dt: f64) {
    let JointKind::Slider {
        axis_a,
        limits,
        motor,
        ..
    } = &joint.kind
    else {
        unreachable!("slider::velocity is called for sliders");
    };
    let (ra, rb, d) = arms(joint, s);
    let axis = s.pose_a().1 * *axis_a;
    let (p1, p2) = perpendiculars(axis);
    // Across the axis: the axis turns with a, so a's arm reaches b's anchor.
    let along = |p: DVec3| VelocityRow {
        lin: p,
        ang_a: (ra + d).cross(p),
        ang_b: rb.cross(p),
        ..Default::default()
    };
    let spin = |u: DVec3| VelocityRow {
        ang_a: u,
        ang_b: u,
        ..Default::default()
    };
    let mut rows = [VelocityRow::default(); MAX_ROWS];
    rows[..5].copy_from_slice(&[
        along(p1),
        along(p2),
        spin(DVec3::X),
        spin(DVec3::Y),
        spin(DVec3::Z),
    ]);
    let mut len = 5;
    // The travel's rate: a's anchor along the axis against b's (the axis row, negated).
    let forward = along(axis);
    let travel_rate = VelocityRow {
        lin: -forward.lin,
        ang_a: -forward.ang_a,
        ang_b: -forward.ang_b,
        ..forward
    };
    let travel = || -d.dot(axis);
    let drive = Drive::rows(
        travel,
        *limits,
        *motor,
        travel_rate,
        row,
        dt,
        &mut rows,
        &mut len,
        0,
    );
    solve_and_keep(row, s, &mut rows[..len]);
    drive.keep(row, &rows);
}
