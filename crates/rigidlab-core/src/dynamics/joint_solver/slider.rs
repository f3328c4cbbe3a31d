//! Sliders (prismatic joints): b keeps its orientation against a and its anchor on the line
//! through a's anchor along a's axis, so it only slides along that axis. The travel is how far
//! a's anchor has slid along the axis from b's (0 where the joint was made; with b the world,
//! how far a has moved along it): optional limits bound it (m) and an optional motor drives
//! its rate (a target speed and the most force it gives), as a hinge's angle is a's turn
//! against b.

use super::{
    angular_row, arms, perpendiculars, point_row, response, rotation_between, solve_and_keep,
    Drive, Row, Sides, VelocityRow, MAX_ROWS,
};
use crate::dynamics::joints::{beyond, Joint, JointKind};
use crate::math::DVec3;

/// Position phase: b turned back to its orientation against a, its anchor back onto the axis
/// and within the limits, as one system. Returns the largest error before.
///
/// The anchor is pushed across the axis (and along it past a limit) at b's anchor, and on a at
/// the point of a where b's anchor is: a's arm reaches across the travel, as in the velocity
/// rows. Pushed at a's own anchor instead, the two impulses would be a couple of the travel
/// times the push, and the joint would turn the pair it joins (an arm sliding out on a
/// swinging pendulum gained 0.8 J in 0.5 s, whatever the step, and flew apart). That arm also
/// turns the bodies, so the turn and the push are solved together: one after the other, each
/// undoes the other by the travel squared over the body's radius of gyration squared, and a
/// bead sliding out along a spinning rod soon had the sweeps diverge and the joint let go. As
/// RATTLE asks (see the module's comment), the pushes act along the directions and at the arms
/// of the step's start, unless `project`.
pub(super) fn position(joint: &Joint, row: &mut Row, s: &mut Sides, dt: f64, project: bool) -> f64 {
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
    let turned = rotation_between(qa * *relative, qb);
    let (ra, rb, d) = arms(joint, s);
    let axis = qa * *axis_a;
    let (p1, p2) = perpendiculars(axis);
    // d runs from a's anchor to b's: the travel is -d . axis.
    let over = beyond(-d.dot(axis), *limits);
    let (pushed, ia, ib) = if project || row.axis0 == DVec3::ZERO {
        ([p1, p2, axis], ra + d, rb)
    } else {
        let (q1, q2) = perpendiculars(row.axis0);
        ([q1, q2, row.axis0], row.ra0, row.rb0)
    };
    // Each equation as a velocity row, measured now and pushed as above; the turn's rows are
    // measured and pushed alike (a pure couple).
    let mut measured = [VelocityRow::default(); 6];
    let mut push = [VelocityRow::default(); 6];
    let mut err = [0.0; 6];
    let mut n = 0;
    let across = if over != 0.0 { 3 } else { 2 };
    for (i, u) in [p1, p2, axis].into_iter().enumerate().take(across) {
        measured[n] = point_row(u, ra + d, rb);
        push[n] = point_row(pushed[i], ia, ib);
        err[n] = if i < 2 { d.dot(u) } else { -over };
        n += 1;
    }
    let (ba, bb) = (s.bodies[s.a], s.body_b());
    let response = |m: &VelocityRow, p: &VelocityRow| response((&ba, &bb), m, p);
    // A turn that nothing can take out (about an axis neither body turns about: a 2D world's
    // tilts) is left out, or the system would be singular.
    for u in [DVec3::X, DVec3::Y, DVec3::Z] {
        let r = angular_row(u);
        if response(&r, &r) > 0.0 {
            (measured[n], push[n], err[n]) = (r, r, turned.dot(u));
            n += 1;
        }
    }
    let mut a = [[0.0; 7]; 6];
    for i in 0..n {
        for j in 0..n {
            a[i][j] = response(&measured[i], &push[j]);
        }
        a[i][n] = -err[i] / dt;
    }
    if let Some(x) = crate::dense::solve(&mut a, n) {
        for (r, &x) in push[..n].iter().zip(&x) {
            s.apply_row_reaching(r, x, dt);
            if r.lin == DVec3::ZERO {
                row.angular_impulse += r.ang_b * x;
            } else {
                row.impulse += r.lin * x;
            }
        }
    }
    turned
        .length()
        .max(d.dot(p1).hypot(d.dot(p2)))
        .max(over.abs())
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
    let along = |p: DVec3| point_row(p, ra + d, rb);
    let mut rows = [VelocityRow::default(); MAX_ROWS];
    rows[..5].copy_from_slice(&[
        along(p1),
        along(p2),
        angular_row(DVec3::X),
        angular_row(DVec3::Y),
        angular_row(DVec3::Z),
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
