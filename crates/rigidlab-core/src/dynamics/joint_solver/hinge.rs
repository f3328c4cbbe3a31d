//! Hinges: the anchors coincide and the bodies turn only about a common axis, within optional
//! angle limits and driven by an optional motor. The limit's position pass and its velocity row
//! are here together, so that they agree on when it acts.

use super::{
    along, angular_row, hold_point, hold_rotation, perpendiculars, solve_with_point, Row, Sides,
    VelocityRow,
};
use crate::dynamics::joints::{hinge_angle, Joint, JointKind};

/// Within this of a limit (rad) the limit's velocity row acts.
const LIMIT_SLACK: f64 = 1e-9;

/// Position phase: the axes aligned, the angle back within its limits, and the anchors
/// together. Returns the largest error before.
pub(super) fn position(joint: &Joint, row: &mut Row, s: &mut Sides, dt: f64, project: bool) -> f64 {
    let JointKind::Hinge {
        axis_a,
        axis_b,
        reference_a,
        reference_b,
        limits,
        ..
    } = &joint.kind
    else {
        unreachable!("hinge::position is called for hinges");
    };
    let ((_, qa), (_, qb)) = (s.pose_a(), s.pose_b());
    let (wa, wb) = (qa * *axis_a, qb * *axis_b);
    let axis = if project { wa } else { row.axis0 };
    let mut worst = hold_rotation(row, s, dt, wa.cross(wb), Some(axis));
    if let Some((lo, hi)) = limits {
        let ((_, qa), (_, qb)) = (s.pose_a(), s.pose_b());
        let angle = hinge_angle(qa, qb, *axis_a, *reference_a, *reference_b);
        let over = if angle < *lo {
            angle - lo
        } else if angle > *hi {
            angle - hi
        } else {
            0.0
        };
        if over != 0.0 {
            // Turning b by +l about the axis turns a against b by -l.
            let axis = qa * *axis_a;
            let k = along(&s.angular_mass(), axis);
            if k > 0.0 {
                let l = axis * (over / (k * dt));
                s.turn(l, dt);
                row.angular_impulse += l;
            }
            worst = worst.max(over.abs());
        }
    }
    worst.max(hold_point(joint, row, s, dt, project))
}

/// Velocity phase: the anchors' relative velocity, the relative spin off the axis, and a
/// limit the hinge is at or a motor, solved together (one at a time they would fight).
pub(super) fn velocity(joint: &Joint, row: &mut Row, s: &mut Sides, dt: f64) {
    let JointKind::Hinge {
        axis_a,
        reference_a,
        reference_b,
        limits,
        motor,
        ..
    } = &joint.kind
    else {
        unreachable!("hinge::velocity is called for hinges");
    };
    let ((_, qa), (_, qb)) = (s.pose_a(), s.pose_b());
    let axis = qa * *axis_a;
    let (p1, p2) = perpendiculars(axis);
    let mut extra = [
        angular_row(p1),
        angular_row(p2),
        VelocityRow::default(),
        VelocityRow::default(),
    ];
    let mut len = 2;
    // a's angular speed against b's about the axis.
    let spin = VelocityRow {
        ang_a: -axis,
        ang_b: -axis,
        ..Default::default()
    };
    // Which of the rows are the limit and the motor (counting the three point rows first), to
    // keep their impulses.
    let (mut limit_at, mut motor_at) = (None, None);
    if let Some((lo, hi)) = limits {
        let angle = hinge_angle(qa, qb, *axis_a, *reference_a, *reference_b);
        let bounds = if angle <= lo + LIMIT_SLACK {
            Some((0.0, f64::INFINITY))
        } else if angle >= hi - LIMIT_SLACK {
            Some((f64::NEG_INFINITY, 0.0))
        } else {
            None
        };
        // A motor driving away from the limit takes over from it.
        let leaving = motor.is_some_and(|m| {
            bounds.is_some_and(|(lo, _)| {
                if lo == 0.0 {
                    m.speed > 0.0
                } else {
                    m.speed < 0.0
                }
            })
        });
        if let (Some(b), false) = (bounds, leaving) {
            limit_at = Some(3 + len);
            extra[len] = VelocityRow {
                bounds: Some(b),
                accumulated: row.limit,
                ..spin
            };
            len += 1;
        }
    }
    if let (Some(m), None) = (motor, limit_at) {
        let most = m.max_torque * dt;
        motor_at = Some(3 + len);
        extra[len] = VelocityRow {
            target: m.speed,
            bounds: Some((-most, most)),
            accumulated: row.motor,
            ..spin
        };
        len += 1;
    }
    let rows = solve_with_point(joint, row, s, &extra[..len]);
    if let Some(i) = limit_at {
        row.limit = rows[i].accumulated;
    }
    if let Some(i) = motor_at {
        row.motor = rows[i].accumulated;
    }
}
