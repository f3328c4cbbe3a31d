//! Joint solver, in two phases that together make the RATTLE scheme of constrained dynamics
//! (Andersen 1983; Leimkuhler and Skeel 1994):
//!
//! 1. positions: impulses that act from the start of the step (so they move their bodies by
//!    the velocity change times dt) are iterated until the joints hold at the end of the step,
//!    measured on the predicted end poses (non-linear Gauss-Seidel). They act along the
//!    joint's directions at the start of the step, as in RATTLE: taken at the end, the
//!    pendulum loses energy at second order (the position impulse and the velocity projection
//!    would no longer cancel). This keeps joint drift at round-off level.
//! 2. velocities: impulses that only change velocities make the end-of-step relative motion
//!    agree with the joints; they run inside the contact solver's iterations, so joints and
//!    contacts are solved together.
//!
//! With velocity Verlet under uniform gravity a pendulum step is exactly RATTLE, which is
//! symplectic and second order: energy stays bounded and the rod length exact.

use crate::dense;
use crate::dynamics::joint_tree::{Arms, JointTree};
use crate::dynamics::joints::{Joint, JointKind, Motor};

mod ball;
mod distance;
mod fixed;
mod hinge;
mod mouse;
mod pulley;
mod slider;
use crate::dynamics::solver_body::SolverBody;
use crate::dynamics::state::State;
use crate::math::{skew, DMat3, DQuat, DVec3};

/// Largest joint error (m or rad) the position phase leaves.
pub(crate) const TOLERANCE: f64 = 1e-12;

/// The position sweeps take to projecting once a sweep's largest error is this many times the
/// smallest of the sweeps before it the same way (see `JointSolver::solve_positions`).
const DIVERGING: f64 = 2.0;

/// A joint as one step sees it.
#[derive(Clone, Copy, Debug, Default)]
struct Row {
    a: usize,
    b: Option<usize>,
    /// Lever arms, anchor direction (a to b) and hinge or slider axis at the start of the step
    /// (a slider's arm on a reaches b's anchor).
    ra0: DVec3,
    rb0: DVec3,
    n0: DVec3,
    axis0: DVec3,
    /// Accumulated impulses this step: linear and angular on b, and the velocity phase's
    /// one-sided and motor impulses, which are clamped.
    impulse: DVec3,
    angular_impulse: DVec3,
    rope: f64,
    limit: f64,
    motor: f64,
}

/// The joints' solver with its buffers (reused from step to step).
#[derive(Default)]
pub struct JointSolver {
    rows: Vec<Row>,
    arms: Vec<Arms>,
    tree: JointTree,
}

/// Two unit vectors perpendicular to unit n and to each other.
fn perpendiculars(n: DVec3) -> (DVec3, DVec3) {
    crate::math::tangents(n)
}

/// The bodies a joint acts on, with the world standing in for a missing b.
struct Sides<'a> {
    bodies: &'a mut [SolverBody],
    free: &'a State,
    a: usize,
    b: Option<usize>,
}

impl Sides<'_> {
    fn pose_a(&self) -> (DVec3, DQuat) {
        self.bodies[self.a].end_pose(self.free, self.a)
    }

    fn pose_b(&self) -> (DVec3, DQuat) {
        self.b.map_or((DVec3::ZERO, DQuat::IDENTITY), |b| {
            self.bodies[b].end_pose(self.free, b)
        })
    }

    fn body_b(&self) -> SolverBody {
        self.b.map_or(SolverBody::default(), |b| self.bodies[b])
    }

    /// Relative velocity of b's point at arm rb against a's at arm ra.
    fn relative_velocity(&self, ra: DVec3, rb: DVec3) -> DVec3 {
        let (ba, bb) = (&self.bodies[self.a], self.body_b());
        (bb.v + bb.w.cross(rb)) - (ba.v + ba.w.cross(ra))
    }

    /// Point coupling: the change of relative velocity of the points at arms (ra, rb) per unit
    /// impulse on b applied at arms (ia, ib).
    fn coupling(&self, ra: DVec3, rb: DVec3, ia: DVec3, ib: DVec3) -> DMat3 {
        let (ba, bb) = (&self.bodies[self.a], self.body_b());
        DMat3::from_diagonal(DVec3::splat(ba.inv_mass + bb.inv_mass))
            - skew(ra) * ba.inv_inertia * skew(ia)
            - skew(rb) * bb.inv_inertia * skew(ib)
    }

    /// The same with the impulse applied at the points themselves.
    fn point_mass(&self, ra: DVec3, rb: DVec3) -> DMat3 {
        self.coupling(ra, rb, ra, rb)
    }

    fn angular_mass(&self) -> DMat3 {
        self.bodies[self.a].inv_inertia + self.body_b().inv_inertia
    }

    /// Applies impulse p to b at rb and -p to a at ra.
    fn push(&mut self, p: DVec3, ra: DVec3, rb: DVec3, reach: f64) {
        self.bodies[self.a].apply(-p, ra, reach);
        if let Some(b) = self.b {
            self.bodies[b].apply(p, rb, reach);
        }
    }

    fn turn(&mut self, l: DVec3, reach: f64) {
        self.bodies[self.a].apply_angular(-l, reach);
        if let Some(b) = self.b {
            self.bodies[b].apply_angular(l, reach);
        }
    }
}

/// Scalar effective mass inverse along direction n of a point pair.
fn along(k: &DMat3, n: DVec3) -> f64 {
    n.dot(*k * n)
}

impl JointSolver {
    /// Builds the rows of this step's joints from the start state; `rows` gives each joint's
    /// body rows.
    pub fn prepare(
        &mut self,
        joints: &[Joint],
        rows: impl Iterator<Item = (usize, Option<usize>)>,
        start: &State,
    ) {
        self.rows.clear();
        self.arms.clear();
        for (joint, (a, b)) in joints.iter().zip(rows) {
            let (xa, qa) = (start.x[a], start.q[a]);
            let (xb, qb) = b.map_or((DVec3::ZERO, DQuat::IDENTITY), |b| (start.x[b], start.q[b]));
            let (mut ra0, rb0) = (qa * joint.anchor_a, qb * joint.anchor_b);
            let mut n0 = ((xb + rb0) - (xa + ra0)).normalize_or_zero();
            let mut axis0 = match &joint.kind {
                JointKind::Hinge { axis_a, .. } | JointKind::Slider { axis_a, .. } => qa * *axis_a,
                _ => DVec3::ZERO,
            };
            // A slider pushes a where b's anchor is (see `slider::position`).
            if let JointKind::Slider { .. } = &joint.kind {
                ra0 = (xb + rb0) - xa;
            }
            // A pulley's two directions, from each pulley to its anchor.
            if let JointKind::Pulley {
                ground_a, ground_b, ..
            } = &joint.kind
            {
                n0 = (xa + ra0 - *ground_a).normalize_or_zero();
                axis0 = (xb + rb0 - *ground_b).normalize_or_zero();
            }
            self.rows.push(Row {
                a,
                b,
                ra0,
                rb0,
                n0,
                axis0,
                ..Default::default()
            });
            self.arms.push(Arms {
                a,
                b,
                ra0,
                rb0,
                n0,
                axis0,
            });
        }
    }

    /// Phase 1: iterates position impulses until every joint holds at the end of the step (or
    /// `max_sweeps` sweeps have run). Sweeps alternate direction, so that a correction runs
    /// along a chain both ways (one direction only takes a sweep per link to reach the far
    /// end). RATTLE's impulses act along the start-of-step directions; when a body turns far in
    /// a step (a long chain at a large dt) the system they make can have no solution, and the
    /// iteration then grows instead of converging. Once the error has grown (`DIVERGING`), the
    /// remaining sweeps take the directions at the predicted end poses instead (a
    /// projection onto the joints, which always exists: the joints then hold at the price of
    /// RATTLE's second-order energy behaviour in that step).
    pub fn solve_positions(
        &mut self,
        joints: &[Joint],
        bodies: &mut [SolverBody],
        free: &State,
        dt: f64,
        max_sweeps: u32,
    ) {
        let rows = &mut self.rows;
        let left = self
            .tree
            .solve(joints, &self.arms, bodies, free, dt, &mut |j, lin, ang| {
                rows[j].impulse += lin;
                rows[j].angular_impulse += ang;
            });
        // Every joint held by the tree solve to the sweeps' tolerance: a sweep would only
        // find that (a chain or a ragdoll in the air).
        if left <= TOLERANCE && self.tree_holds_all(joints) {
            return;
        }
        let mut project = false;
        // The smallest of the sweeps' largest errors so far, for each direction: a sweep's
        // largest error is measured before each joint's push, in the sweep's order, so a sweep
        // one way and the next the other way find different ones even as both shrink (a slider
        // on a pendulum's arm: 3e-5, then 1e-4, then 1e-5, then 4e-5), and the first sweeps
        // may grow a little before they settle into shrinking (2.37e-4, then 2.43e-4, two
        // sweeps apart). Judged against the sweep before, every step of that pendulum was
        // projected, and its energy drifted at first order in dt; an iteration that has no
        // solution to reach doubles its error within a few sweeps.
        let mut least = [f64::INFINITY; 2];
        for sweep in 0..max_sweeps {
            let mut worst: f64 = 0.0;
            let mut pass = |row: &mut Row, joint: &Joint| {
                let mut s = Sides {
                    bodies: &mut *bodies,
                    free,
                    a: row.a,
                    b: row.b,
                };
                worst = worst.max(position_pass(joint, row, &mut s, dt, project));
            };
            if sweep % 2 == 0 {
                self.rows
                    .iter_mut()
                    .zip(joints)
                    .for_each(|(r, j)| pass(r, j));
            } else {
                self.rows
                    .iter_mut()
                    .zip(joints)
                    .rev()
                    .for_each(|(r, j)| pass(r, j));
            }
            if worst <= TOLERANCE {
                break;
            }
            let way = sweep as usize % 2;
            project |= worst > DIVERGING * least[way];
            least[way] = least[way].min(worst);
        }
    }

    /// Whether the tree solve of the last position phase took every joint, with no motor or
    /// limit left for the sweeps: its velocity solve is then exact by itself.
    pub fn tree_holds_all(&self, joints: &[Joint]) -> bool {
        joints
            .iter()
            .enumerate()
            .all(|(j, joint)| self.tree.takes(j) && !acts_beyond_tree(joint))
    }

    /// Phase 2: one sweep of velocity impulses.
    pub fn solve_velocities(
        &mut self,
        joints: &[Joint],
        bodies: &mut [SolverBody],
        free: &State,
        dt: f64,
    ) {
        let rows = &mut self.rows;
        self.tree
            .solve_velocities(joints, &self.arms, bodies, free, &mut |j, lin, ang| {
                rows[j].impulse += lin;
                rows[j].angular_impulse += ang;
            });
        for (j, (row, joint)) in self.rows.iter_mut().zip(joints).enumerate() {
            // A joint of the tree solve holds already, unless a motor or limit acts on it.
            if self.tree.takes(j) && !acts_beyond_tree(joint) {
                continue;
            }
            let mut s = Sides {
                bodies,
                free,
                a: row.a,
                b: row.b,
            };
            velocity_pass(joint, row, &mut s, dt);
        }
    }

    /// Keeps each joint's reaction impulses of this step.
    pub fn store_impulses(&self, joints: &mut [Joint]) {
        for (row, joint) in self.rows.iter().zip(joints) {
            joint.impulse = row.impulse;
            joint.angular_impulse = row.angular_impulse;
        }
    }
}

/// Whether a motor or limit acts on a joint of the tree solve, which leaves them to the sweeps.
fn acts_beyond_tree(joint: &Joint) -> bool {
    matches!(
        joint.kind,
        JointKind::Hinge { motor: Some(_), .. }
            | JointKind::Hinge {
                limits: Some(_),
                ..
            }
            | JointKind::Slider { motor: Some(_), .. }
            | JointKind::Slider {
                limits: Some(_),
                ..
            }
    )
}

/// Lever arms and anchor separation (b's anchor minus a's) at the predicted end poses.
fn arms(joint: &Joint, s: &Sides) -> (DVec3, DVec3, DVec3) {
    let ((xa, qa), (xb, qb)) = (s.pose_a(), s.pose_b());
    let (ra, rb) = (qa * joint.anchor_a, qb * joint.anchor_b);
    (ra, rb, (xb + rb) - (xa + ra))
}

/// The anchors together: an impulse at the start-of-step arms that moves them by -c within
/// the step.
fn hold_point(joint: &Joint, row: &mut Row, s: &mut Sides, dt: f64, project: bool) -> f64 {
    let (ra, rb, c) = arms(joint, s);
    let (ia, ib) = if project {
        (ra, rb)
    } else {
        (row.ra0, row.rb0)
    };
    if let Some(k_inv) = dense::inverse3(s.coupling(ra, rb, ia, ib)) {
        let p = k_inv * (-c / dt);
        s.push(p, ia, ib, dt);
        row.impulse += p;
    }
    c.length()
}

/// Turns b against a by -e (a rotation vector, restricted to the plane normal to `axis` when
/// given) within the step.
fn hold_rotation(row: &mut Row, s: &mut Sides, dt: f64, e: DVec3, axis: Option<DVec3>) -> f64 {
    let k = s.angular_mass();
    let l = match axis {
        None => dense::inverse3(k).map_or(DVec3::ZERO, |k_inv| k_inv * (-e / dt)),
        Some(axis) => {
            let (p1, p2) = perpendiculars(axis);
            let k12 = p1.dot(k * p2);
            let a = [[along(&k, p1), k12], [k12, along(&k, p2)]];
            match dense::solve2(a, [-e.dot(p1) / dt, -e.dot(p2) / dt]) {
                Some([l1, l2]) => p1 * l1 + p2 * l2,
                None => DVec3::ZERO,
            }
        }
    };
    s.turn(l, dt);
    row.angular_impulse += l;
    match axis {
        Some(axis) => (e - axis * e.dot(axis)).length(),
        None => e.length(),
    }
}

/// The rotation vector taking q_from to q_to (shortest way). Its angle comes from the
/// quaternion's vector part and scalar together (2 atan2(|v|, w)), which keeps its precision
/// down to round-off; from the scalar alone (2 acos w) an angle below some 3e-8 rad rounds to
/// zero or to a step of that size, and the joints' sweeps, which stop once every error is
/// below 1e-12, ran to their limit on such noise.
pub(super) fn rotation_between(q_from: DQuat, q_to: DQuat) -> DVec3 {
    let d = q_to * q_from.conjugate();
    let d = if d.w < 0.0 { -d } else { d };
    let v = DVec3::new(d.x, d.y, d.z);
    let sin = v.length();
    if sin == 0.0 {
        DVec3::ZERO
    } else {
        v * (2.0 * sin.atan2(d.w) / sin)
    }
}

/// One position pass over a joint; returns its error before the pass.
fn position_pass(joint: &Joint, row: &mut Row, s: &mut Sides, dt: f64, project: bool) -> f64 {
    match &joint.kind {
        JointKind::Distance { length } => {
            distance::position(joint, row, s, dt, *length, false, project)
        }
        JointKind::Rope { max_length } => {
            distance::position(joint, row, s, dt, *max_length, true, project)
        }
        JointKind::Ball => ball::position(joint, row, s, dt, project),
        JointKind::Hinge { .. } => hinge::position(joint, row, s, dt, project),
        JointKind::Fixed { relative } => fixed::position(joint, row, s, dt, *relative, project),
        // Soft: nothing to hold at the step's end.
        JointKind::Mouse { .. } => 0.0,
        JointKind::Pulley { .. } => pulley::position(joint, row, s, dt, project),
        JointKind::Slider { .. } => slider::position(joint, row, s, dt, project),
    }
}

/// One velocity row of a joint: its value is lin . (v_b - v_a) + ang_b . w_b - ang_a . w_a,
/// and a unit impulse gives b (lin, ang_b) and a (-lin, -ang_a).
#[derive(Clone, Copy, Debug, Default)]
struct VelocityRow {
    lin: DVec3,
    ang_a: DVec3,
    ang_b: DVec3,
    target: f64,
    /// Bounds of the accumulated impulse of a one-sided or limited row, and what it holds so far.
    bounds: Option<(f64, f64)>,
    accumulated: f64,
}

const MAX_ROWS: usize = 6;

impl Sides<'_> {
    fn row_value(&self, r: &VelocityRow) -> f64 {
        let (ba, bb) = (&self.bodies[self.a], self.body_b());
        r.lin.dot(bb.v - ba.v) + r.ang_b.dot(bb.w) - r.ang_a.dot(ba.w)
    }

    fn apply_row(&mut self, r: &VelocityRow, lambda: f64) {
        // Velocity rows do not move the bodies within the step: reach 0.
        self.apply_row_reaching(r, lambda, 0.0);
    }

    /// Applies row `r`'s impulse `lambda`, moving the bodies by the change times `reach` (s)
    /// by the end of the step.
    fn apply_row_reaching(&mut self, r: &VelocityRow, lambda: f64, reach: f64) {
        let a = &mut self.bodies[self.a];
        a.change(
            r.lin * -(lambda * a.inv_mass),
            -(a.inv_inertia * r.ang_a * lambda),
            reach,
        );
        if let Some(b) = self.b {
            let b = &mut self.bodies[b];
            b.change(
                r.lin * (lambda * b.inv_mass),
                b.inv_inertia * r.ang_b * lambda,
                reach,
            );
        }
    }
}

/// How row `measured` of a joint on bodies a and b changes per unit impulse of row `pushed`.
fn response(
    (ba, bb): (&SolverBody, &SolverBody),
    measured: &VelocityRow,
    pushed: &VelocityRow,
) -> f64 {
    (ba.inv_mass + bb.inv_mass) * measured.lin.dot(pushed.lin)
        + measured.ang_a.dot(ba.inv_inertia * pushed.ang_a)
        + measured.ang_b.dot(bb.inv_inertia * pushed.ang_b)
}

/// Solves a joint's velocity rows together (a small dense system, so a hinge's point, axis,
/// limit and motor rows do not fight each other as they would one at a time). Rows whose
/// accumulated impulse would leave its bounds are held at the bound and the rest re-solved.
fn solve_rows(s: &mut Sides, rows: &mut [VelocityRow]) -> [f64; MAX_ROWS] {
    let n = rows.len();
    let mut applied = [0.0; MAX_ROWS];
    let mut free = [true; MAX_ROWS];
    let (ba, bb) = (s.bodies[s.a], s.body_b());
    for _ in 0..=n {
        let mut all = [0usize; MAX_ROWS];
        let mut m = 0;
        for i in (0..n).filter(|&i| free[i]) {
            all[m] = i;
            m += 1;
        }
        let idx = &all[..m];
        let mut k = [[0.0; MAX_ROWS + 1]; MAX_ROWS];
        for (r, &i) in idx.iter().enumerate() {
            for (c, &j) in idx.iter().enumerate() {
                k[r][c] = response((&ba, &bb), &rows[i], &rows[j]);
            }
            k[r][m] = rows[i].target - s.row_value(&rows[i]);
        }
        let Some(x) = dense::solve(&mut k, m) else {
            return applied;
        };
        let mut clamped = false;
        for (r, &i) in idx.iter().enumerate() {
            if let Some((lo, hi)) = rows[i].bounds {
                let acc = rows[i].accumulated + x[r];
                if acc < lo || acc > hi {
                    // Hold this row at its bound and solve the others again.
                    let d = acc.clamp(lo, hi) - rows[i].accumulated;
                    rows[i].accumulated += d;
                    applied[i] += d;
                    s.apply_row(&rows[i], d);
                    free[i] = false;
                    clamped = true;
                    break;
                }
            }
        }
        if !clamped {
            for (r, &i) in idx.iter().enumerate() {
                rows[i].accumulated += x[r];
                applied[i] += x[r];
                s.apply_row(&rows[i], x[r]);
            }
            return applied;
        }
    }
    applied
}

/// The point rows: the anchors' relative velocity.
fn point_rows(ra: DVec3, rb: DVec3) -> [VelocityRow; 3] {
    [DVec3::X, DVec3::Y, DVec3::Z].map(|e| point_row(e, ra, rb))
}

/// A point row: the relative velocity along u of b's point at arm rb against a's at arm ra.
fn point_row(u: DVec3, ra: DVec3, rb: DVec3) -> VelocityRow {
    VelocityRow {
        lin: u,
        ang_a: ra.cross(u),
        ang_b: rb.cross(u),
        ..Default::default()
    }
}

/// An angular row: the relative angular velocity about p.
fn angular_row(p: DVec3) -> VelocityRow {
    VelocityRow {
        ang_a: p,
        ang_b: p,
        ..Default::default()
    }
}

/// One velocity pass over a joint.
fn velocity_pass(joint: &Joint, row: &mut Row, s: &mut Sides, dt: f64) {
    match &joint.kind {
        JointKind::Distance { .. } => distance::velocity(joint, row, s, None),
        JointKind::Rope { max_length } => distance::velocity(joint, row, s, Some(*max_length)),
        JointKind::Ball => ball::velocity(joint, row, s),
        JointKind::Hinge { .. } => hinge::velocity(joint, row, s, dt),
        JointKind::Fixed { .. } => fixed::velocity(joint, row, s),
        JointKind::Mouse {
            frequency,
            damping_ratio,
            max_force,
        } => {
            let soft = mouse::Soft {
                frequency: *frequency,
                damping_ratio: *damping_ratio,
                max_force: *max_force,
            };
            mouse::velocity(joint, row, s, dt, &soft)
        }
        JointKind::Pulley { .. } => pulley::velocity(joint, row, s),
        JointKind::Slider { .. } => slider::velocity(joint, row, s, dt),
    }
}

/// Solves a joint's point rows (its anchors held together) with the `extra` rows of its kind
/// (angular rows, a limit, a motor) as one system, and adds what they gave to the joint's
/// impulses; returns the rows with their accumulated impulses.
fn solve_with_point(
    joint: &Joint,
    row: &mut Row,
    s: &mut Sides,
    extra: &[VelocityRow],
) -> [VelocityRow; MAX_ROWS] {
    let (ra, rb, _) = arms(joint, s);
    let mut rows = [VelocityRow::default(); MAX_ROWS];
    rows[..3].copy_from_slice(&point_rows(ra, rb));
    let len = 3 + extra.len();
    rows[3..len].copy_from_slice(extra);
    solve_and_keep(row, s, &mut rows[..len]);
    rows
}

/// Solves a joint's velocity rows together and adds what they gave to the joint's impulses.
fn solve_and_keep(row: &mut Row, s: &mut Sides, rows: &mut [VelocityRow]) {
    let applied = solve_rows(s, rows);
    for (r, a) in rows.iter().zip(applied) {
        if r.lin == DVec3::ZERO {
            row.angular_impulse += r.ang_b * a;
        } else {
            row.impulse += r.lin * a;
        }
    }
}

/// Within this of a limit (rad for a hinge, m for a slider) the limit's velocity row acts.
const LIMIT_SLACK: f64 = 1e-9;

/// Where a joint's limit row and motor row sit among the rows solved together (counting any
/// rows solved before them), so that their clamped impulses are kept.
#[derive(Clone, Copy, Default)]
struct Drive {
    limit_at: Option<usize>,
    motor_at: Option<usize>,
}

impl Drive {
    /// The limit or motor row of one coordinate of a joint (a hinge's angle, a slider's
    /// travel; `value` measures it, only when there are limits), each a copy of `rate` (the row measuring the coordinate's rate),
    /// appended to `rows` at `*len`; `before` rows precede `rows` in the solve. The limit acts
    /// at or past a bound (within `LIMIT_SLACK`) unless the motor drives away from it; the
    /// motor drives the rate to its speed with at most `max_torque` (N m, or N) through the
    /// step.
    #[allow(clippy::too_many_arguments)]
    fn rows(
        value: impl FnOnce() -> f64,
        limits: Option<(f64, f64)>,
        motor: Option<Motor>,
        rate: VelocityRow,
        row: &Row,
        dt: f64,
        rows: &mut [VelocityRow],
        len: &mut usize,
        before: usize,
    ) -> Drive {
        let mut drive = Drive::default();
        if let Some((lo, hi)) = limits {
            let value = value();
            let bounds = if value <= lo + LIMIT_SLACK {
                Some((0.0, f64::INFINITY))
            } else if value >= hi - LIMIT_SLACK {
                Some((f64::NEG_INFINITY, 0.0))
            } else {
                None
            };
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
                drive.limit_at = Some(before + *len);
                rows[*len] = VelocityRow {
                    bounds: Some(b),
                    accumulated: row.limit,
                    ..rate
                };
                *len += 1;
            }
        }
        if let (Some(m), None) = (motor, drive.limit_at) {
            let most = m.max_torque * dt;
            drive.motor_at = Some(before + *len);
            rows[*len] = VelocityRow {
                target: m.speed,
                bounds: Some((-most, most)),
                accumulated: row.motor,
                ..rate
            };
            *len += 1;
        }
        drive
    }

    /// Keeps the limit's and the motor's accumulated impulses from the solved rows.
    fn keep(self, row: &mut Row, solved: &[VelocityRow]) {
        if let Some(i) = self.limit_at {
            row.limit = solved[i].accumulated;
        }
        if let Some(i) = self.motor_at {
            row.motor = solved[i].accumulated;
        }
    }
}
