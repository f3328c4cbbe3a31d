//! Hinges: the anchors coincide and the bodies turn only about a common axis, within optional
//! angle limits and driven by an optional motor. The limit's position pass and its velocity row
//! are here together, so that they agree on when it acts.

use super::{
    along, angular_row, hold_point, hold_rotation, perpendiculars, solve_with_point, Drive, Row,
    Sides, VelocityRow,
};
use crate::dynamics::joints::{beyond, hinge_angle, Joint, JointKind};

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
        let over = beyond(angle, Some((*lo, *hi)));
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
    let angle = || hinge_angle(qa, qb, *axis_a, *reference_a, *reference_b);
    // The three point rows come first.
    let drive = Drive::rows(
        angle, *limits, *motor, spin, row, dt, &mut extra, &mut len, 3,
    );
    let rows = solve_with_point(joint, row, s, &extra[..len]);
    drive.keep(row, &rows);
}
