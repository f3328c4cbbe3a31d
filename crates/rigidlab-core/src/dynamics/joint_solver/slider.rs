//! Sliders (prismatic joints): b keeps its orientation against a and its anchor on the line
//! through a's anchor along a's axis, so it only slides along that axis. The travel is how far
//! a's anchor has slid along the axis from b's (0 where the joint was made; with b the world,
//! how far a has moved along it): optional limits bound it (m) and an optional motor drives
//! its rate (a target speed and the most force it gives), as a hinge's angle is a's turn
//! against b.

use super::{
    arms, hold_rotation, perpendiculars, rotation_between, solve_rows, Row, Sides, VelocityRow,
    MAX_ROWS,
};
use crate::dynamics::joints::{Joint, Motor};
use crate::math::{DQuat, DVec3};

/// Within this of a limit (m) the limit's velocity row acts.
const LIMIT_SLACK: f64 = 1e-9;

/// What a slider holds: its axis in a's frame, b's orientation against a's, its limits and
/// motor.
#[derive(Clone, Copy)]
pub(super) struct Slide {
    pub axis_a: DVec3,
    pub relative: DQuat,
    pub limits: Option<(f64, f64)>,
    pub motor: Option<Motor>,
}

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
pub(super) fn position(joint: &Joint, row: &mut Row, s: &mut Sides, dt: f64, slide: &Slide) -> f64 {
    let ((_, qa), (_, qb)) = (s.pose_a(), s.pose_b());
    let mut worst = hold_rotation(row, s, dt, rotation_between(qa * slide.relative, qb), None);
    let (ra, rb, d) = arms(joint, s);
    let axis = s.pose_a().1 * slide.axis_a;
    let (p1, p2) = perpendiculars(axis);
    // d runs from a's anchor to b's: the travel is -d . axis.
    let over = beyond(-d.dot(axis), slide.limits);
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
    worst = worst.max(err[0].hypot(err[1])).max(over.abs());
    worst
}

/// Velocity phase: no relative spin, no relative velocity across the axis, and the limit the
/// slider is at or its motor, solved together.
pub(super) fn velocity(joint: &Joint, row: &mut Row, s: &mut Sides, dt: f64, slide: &Slide) {
    let (ra, rb, d) = arms(joint, s);
    let axis = s.pose_a().1 * slide.axis_a;
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
    // The travel's rate: a's anchor along the axis against b's.
    let travel_rate = VelocityRow {
        lin: -axis,
        ang_a: -(ra + d).cross(axis),
        ang_b: -rb.cross(axis),
        ..Default::default()
    };
    let travel = -d.dot(axis);
    let (mut limit_at, mut motor_at) = (None, None);
    if let Some((lo, hi)) = slide.limits {
        let bounds = if travel <= lo + LIMIT_SLACK {
            Some((0.0, f64::INFINITY))
        } else if travel >= hi - LIMIT_SLACK {
            Some((f64::NEG_INFINITY, 0.0))
        } else {
            None
        };
        // A motor driving away from the limit takes over from it.
        let leaving = slide.motor.is_some_and(|m| {
            bounds.is_some_and(|(lo, _)| {
                if lo == 0.0 {
                    m.speed > 0.0
                } else {
                    m.speed < 0.0
                }
            })
        });
        if let (Some(b), false) = (bounds, leaving) {
            limit_at = Some(len);
            rows[len] = VelocityRow {
                bounds: Some(b),
                accumulated: row.limit,
                ..travel_rate
            };
            len += 1;
        }
    }
    if let (Some(m), None) = (slide.motor, limit_at) {
        let most = m.max_torque * dt;
        motor_at = Some(len);
        rows[len] = VelocityRow {
            target: m.speed,
            bounds: Some((-most, most)),
            accumulated: row.motor,
            ..travel_rate
        };
        len += 1;
    }
    let applied = solve_rows(s, &mut rows[..len]);
    for (i, r) in rows[..len].iter().enumerate() {
        if r.lin == DVec3::ZERO {
            row.angular_impulse += r.ang_b * applied[i];
        } else {
            row.impulse += r.lin * applied[i];
        }
    }
    if let Some(i) = limit_at {
        row.limit = rows[i].accumulated;
    }
    if let Some(i) = motor_at {
        row.motor = rows[i].accumulated;
    }
}
