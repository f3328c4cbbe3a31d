//! Direct solve of the joints' position phase where the joints join bodies in trees (chains,
//! ropes of links, ragdolls): Newton's method on all their equations at once, each linear
//! system solved exactly by block elimination in O(joints).
//!
//! Gauss-Seidel over joints, one at a time, passes a correction one link along a chain per
//! sweep: a chain of n links needs of the order of n^2 sweeps, and one of 200 links hung from
//! a support does not converge in hundreds, leaving errors that grow step after step until it
//! explodes (or a heavy weight at its end does the same to a short one). Solved together the
//! joints hold to round-off in a few Newton iterations whatever the chain's length or masses.
//!
//! The system K lambda = -c / dt couples two joints when they share a moving body (Baraff,
//! "Linear-time dynamics using Lagrange multipliers", SIGGRAPH 1996, solves the same systems).
//! Where the joints form a tree over the moving bodies, eliminating joints from the leaves
//! inwards (each body's own joints to the world before the joint to its parent) leaves the
//! remaining neighbours of every eliminated joint on one body, which are all coupled already:
//! the elimination makes no new couplings, so its cost is linear in the joints. A hinge's or
//! slider's limit that the predicted pose is past is one more equation of its joint here;
//! joints in a closed loop of moving bodies, ropes, and the limits' one-sided velocities stay
//! with the Gauss-Seidel sweeps, which run after this solve and find these joints already
//! holding.

use crate::dense;
use crate::dynamics::joints::{beyond, hinge_angle, Joint, JointKind};
use crate::dynamics::solver_body::SolverBody;
use crate::dynamics::state::State;
use crate::math::{DQuat, DVec3};

/// Most equations of one joint (a fixed joint's).
const M: usize = 6;

/// Newton iterations at most; each one's linear solve is exact, so a few reach round-off
/// unless the step turns bodies so far that the equations have no solution.
const NEWTON: usize = 40;

/// A hinge's or slider's limit held as an equation: the angle or travel it holds (rad or m)
/// and which side it is (+1 the upper, -1 the lower).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Stop {
    at: f64,
    side: f64,
}

impl Stop {
    /// The limit of `range` that `value` is past, if any.
    fn past(value: f64, range: Option<(f64, f64)>) -> Option<Stop> {
        let over = beyond(value, range);
        (over != 0.0).then(|| Stop {
            at: value - over,
            side: over.signum(),
        })
    }
}

/// Whether a joint's equations include its limit (the position phase: where the pose is past
/// it, or where the solve holds it already) or leave it out (the velocity phase).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Limits {
    Held(Option<Stop>),
    Without,
}

impl Limits {
    /// The stop a joint's equations include, its angle or travel being `value`.
    fn stop(self, value: f64, range: Option<(f64, f64)>) -> Option<Stop> {
        match self {
            Limits::Held(held) => Stop::past(value, range).or(held),
            Limits::Without => None,
        }
    }
}

/// A dense block of up to M x M.
#[derive(Clone, Copy, Debug)]
struct Block {
    rows: usize,
    cols: usize,
    a: [[f64; M]; M],
}

impl Block {
    fn zero(rows: usize, cols: usize) -> Block {
        Block {
            rows,
            cols,
            a: [[0.0; M]; M],
        }
    }

    fn mul(&self, o: &Block) -> Block {
        let mut r = Block::zero(self.rows, o.cols);
        for i in 0..self.rows {
            for k in 0..self.cols {
                let x = self.a[i][k];
                if x != 0.0 {
                    for j in 0..o.cols {
                        r.a[i][j] += x * o.a[k][j];
                    }
                }
            }
        }
        r
    }

    /// self -= f o, each product summed as `mul` sums it.
    fn sub_product(&mut self, f: &Block, o: &Block) {
        for i in 0..f.rows {
            let mut r = [0.0; M];
            for k in 0..f.cols {
                let x = f.a[i][k];
                if x != 0.0 {
                    for j in 0..o.cols {
                        r[j] += x * o.a[k][j];
                    }
                }
            }
            for j in 0..o.cols {
                self.a[i][j] -= r[j];
            }
        }
    }

    fn mul_vec(&self, x: &[f64; M]) -> [f64; M] {
        let mut r = [0.0; M];
        for (i, ri) in r.iter_mut().enumerate().take(self.rows) {
            *ri = (0..self.cols).map(|k| self.a[i][k] * x[k]).sum();
        }
        r
    }

    /// The inverse (see `dense::inverse`); None if singular.
    fn inverse(&self) -> Option<Block> {
        Some(Block {
            rows: self.rows,
            cols: self.rows,
            a: dense::inverse(&self.a, self.rows)?,
        })
    }
}

/// One equation of a joint, on one side: how a body's velocity change (dv, dw) moves the
/// residual (`measure`), and the generalised impulse a unit multiplier gives it (`push`).
#[derive(Clone, Copy, Debug, Default)]
struct Side {
    measure: (DVec3, DVec3),
    push: (DVec3, DVec3),
}

/// A joint's equations at the current predicted poses.
#[derive(Clone, Copy, Debug, Default)]
struct Equations {
    m: usize,
    residual: [f64; M],
    a: [Side; M],
    b: [Side; M],
    /// The limit its last row holds, if it holds one.
    stop: Option<Stop>,
}

/// The joints of one step's tree solve, with their buffers (reused from step to step).
#[derive(Default)]
pub struct JointTree {
    /// Joints solved here, in elimination order.
    order: Vec<usize>,
    eqs: Vec<Equations>,
    /// The equations at the poses of the latest residual (`residual`), taken up by the next
    /// Newton step.
    trial: Vec<Equations>,
    /// Per joint: couplings with the joints it shares a moving body with (joint, block).
    links: Vec<Vec<(usize, Block)>>,
    rhs: Vec<[f64; M]>,
    pivots: Vec<Option<Block>>,
    done: Vec<bool>,
    lambda: Vec<[f64; M]>,
    /// Per moving body: the tree joints on it.
    on_body: Vec<Vec<usize>>,
    parent: Vec<usize>,
    depth: Vec<usize>,
    /// Per joint of the step: whether this solve takes it.
    taken: Vec<bool>,
    /// Buffers of `order_joints` and `eliminate`.
    loops: Vec<bool>,
    picked: Vec<(usize, usize, Option<usize>)>,
    queue: std::collections::VecDeque<usize>,
    /// The rows of the solve's joints' bodies, each once, and their predicted end poses (by
    /// row), worked out once per evaluation of the equations: most bodies of a chain are on
    /// two joints, and a pose takes an exact rotation.
    rows: Vec<usize>,
    poses: Vec<(DVec3, DQuat)>,
    /// Per joint on the body `eliminate` is at: the spins its rows' angular pushes give it.
    spun: Vec<Option<[DVec3; M]>>,
    /// Per joint (in `order`): the limit this solve holds it at, and the impulse that limit
    /// gave so far, positive pushing back within the limits (see `solve`).
    held: Vec<Option<Stop>>,
    stop_impulse: Vec<f64>,
}

/// What the tree solve needs of each joint besides the joint itself: its body rows and its
/// directions at the start of the step.
#[derive(Clone, Copy, Debug, Default)]
pub struct Arms {
    pub a: usize,
    pub b: Option<usize>,
    /// Lever arms and hinge or slider axis at the start of the step (RATTLE's directions; a
    /// slider's arm on a reaches b's anchor).
    pub ra0: DVec3,
    pub rb0: DVec3,
    pub n0: DVec3,
    pub axis0: DVec3,
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

impl JointTree {
    /// Solves the equality joints that join moving bodies in trees; `impulse` receives each
    /// joint's linear and angular impulses. Returns the largest residual left among them (0
    /// when none was solved).
    pub fn solve(
        &mut self,
        kinds: &[Joint],
        joints: &[Arms],
        bodies: &mut [SolverBody],
        free: &State,
        dt: f64,
        impulse: &mut dyn FnMut(usize, DVec3, DVec3),
    ) -> f64 {
        self.taken.clear();
        self.taken.resize(joints.len(), false);
        if !self.order_joints(kinds, joints, bodies) {
            self.order.clear();
            return 0.0;
        }
        for &j in &self.order {
            self.taken[j] = true;
        }
        self.rows.clear();
        self.rows.extend(
            self.order
                .iter()
                .flat_map(|&j| std::iter::once(joints[j].a).chain(joints[j].b)),
        );
        self.rows.sort_unstable();
        self.rows.dedup();
        // Every pose read is worked out first (`pose`): the buffer is only sized.
        self.poses
            .resize(bodies.len(), (DVec3::ZERO, DQuat::IDENTITY));
        // Newton's method with a backtracking line search: a step that does not reduce the
        // largest residual is halved (the linearisation holds only for small turns). RATTLE's
        // equations push along the start-of-step directions; when bodies turn far in the step
        // they can have no solution, and halving then stops helping: from there on the joints
        // are projected instead (pushed along the directions at the end poses, a system that
        // always has one).
        //
        // A limit the pose is past joins its joint's equations, and stays in them while its
        // impulse pushes back: taken out as soon as a step lands the pose on the limit's inner
        // side by round-off, it would let the next step carry the pose past it again (a chain
        // of ten hinges folding onto its limits took 7.0 Newton steps a step that way, 3.9
        // kept; 2.6 without limits). Once its impulse would pull, it is let go.
        self.held.clear();
        self.held.resize(self.order.len(), None);
        self.stop_impulse.clear();
        self.stop_impulse.resize(self.order.len(), 0.0);
        let mut project = false;
        let mut worst = self.residual(kinds, joints, bodies, free, project);
        for _ in 0..NEWTON {
            if worst <= super::joint_solver::TOLERANCE {
                break;
            }
            // The equations at the bodies' poses now: the last residual's.
            std::mem::swap(&mut self.eqs, &mut self.trial);
            if !self.eliminate(joints, bodies, 1.0 / dt) {
                break;
            }
            let mut step = 1.0;
            self.apply(joints, bodies, dt, step, impulse);
            for (k, e) in self.eqs.iter().enumerate() {
                self.held[k] = e.stop.filter(|_| self.stop_impulse[k] > 0.0);
            }
            let mut now = self.residual(kinds, joints, bodies, free, project);
            while now >= worst && step > 1.0 / 64.0 {
                self.apply(joints, bodies, dt, -0.5 * step, impulse);
                step *= 0.5;
                now = self.residual(kinds, joints, bodies, free, project);
            }
            if now >= worst {
                // No step along these directions helps: undo it and project.
                self.apply(joints, bodies, dt, -step, impulse);
                if project {
                    break;
                }
                project = true;
                worst = self.residual(kinds, joints, bodies, free, project);
                continue;
            }
            worst = now;
        }
        worst
    }

    /// The predicted end poses of the solve's joints' bodies (into `poses`).
    fn pose(&mut self, bodies: &[SolverBody], free: &State) {
        for &row in &self.rows {
            self.poses[row] = bodies[row].end_pose(free, row);
        }
    }

    /// The largest residual of the solve's joints at the bodies' predicted end poses, and
    /// their equations there (into `trial`).
    fn residual(
        &mut self,
        kinds: &[Joint],
        joints: &[Arms],
        bodies: &[SolverBody],
        free: &State,
        project: bool,
    ) -> f64 {
        self.pose(bodies, free);
        let mut worst = 0.0;
        for (k, (&j, e)) in self.order.iter().zip(&mut self.trial).enumerate() {
            let with = Limits::Held(self.held[k]);
            if project {
                end_equations(&kinds[j], &joints[j], &self.poses, e, with);
            } else {
                equations(&kinds[j], &joints[j], &self.poses, e, with);
            }
            worst = f64::max(
                worst,
                e.residual[..e.m].iter().fold(0.0f64, |m, x| m.max(x.abs())),
            );
        }
        worst
    }

    /// Whether the last position solve took joint j (its velocity solve then does too).
    pub fn takes(&self, j: usize) -> bool {
        self.taken.get(j).copied().unwrap_or(false)
    }

    /// The velocity phase for the joints of the last position solve: the relative velocities
    /// along their equations at the end poses made zero, all at once.
    pub fn solve_velocities(
        &mut self,
        kinds: &[Joint],
        joints: &[Arms],
        bodies: &mut [SolverBody],
        free: &State,
        impulse: &mut dyn FnMut(usize, DVec3, DVec3),
    ) {
        if self.order.is_empty() {
            return;
        }
        self.pose(bodies, free);
        for (&j, e) in self.order.iter().zip(&mut self.eqs) {
            // A limit is one-sided: held as an equation here it could pull a body that is
            // leaving it; the sweeps' velocity rows keep it, bounded (`acts_beyond_tree`).
            end_equations(&kinds[j], &joints[j], &self.poses, e, Limits::Without);
            let (a, b) = (&bodies[joints[j].a], joints[j].b.map(|b| bodies[b]));
            for r in 0..e.m {
                let (ml, ma) = e.a[r].measure;
                e.residual[r] = ml.dot(a.v) + ma.dot(a.w);
                if let Some(b) = b {
                    let (ml, ma) = e.b[r].measure;
                    e.residual[r] += ml.dot(b.v) + ma.dot(b.w);
                }
            }
        }
        if self.eliminate(joints, bodies, 1.0) {
            self.apply(joints, bodies, 0.0, 1.0, impulse);
        }
    }

    /// Applies the multipliers of every joint of the solve, each change of velocity moving
    /// its body by itself times `reach` by the end of the step.
    fn apply(
        &mut self,
        joints: &[Arms],
        bodies: &mut [SolverBody],
        reach: f64,
        factor: f64,
        impulse: &mut dyn FnMut(usize, DVec3, DVec3),
    ) {
        {
            for (k, &j) in self.order.iter().enumerate() {
                let e = &self.eqs[k];
                let l = &self.lambda[k].map(|x| x * factor);
                // What the joint reports: the linear impulse on b, and the angular impulse of
                // its angular equations (those without a linear part).
                let (mut lin, mut ang) = (DVec3::ZERO, DVec3::ZERO);
                for (side, &x) in e.b[..e.m].iter().zip(l) {
                    if side.push.0 == DVec3::ZERO {
                        ang += side.push.1 * x;
                    } else {
                        lin += side.push.0 * x;
                    }
                }
                apply(bodies, &joints[j], e, l, reach);
                impulse(j, lin, ang);
                if let Some(stop) = e.stop {
                    self.stop_impulse[k] += l[e.m - 1] * stop.side;
                }
            }
        }
    }

    /// Picks the joints of the tree solve and orders them for elimination; false if none.
    fn order_joints(&mut self, kinds: &[Joint], joints: &[Arms], bodies: &[SolverBody]) -> bool {
        let n = bodies.len();
        let moving = |i: usize| bodies[i].inv_mass > 0.0;
        self.parent.clear();
        self.parent.extend(0..n);
        // Joints closing a loop of moving bodies, and so their whole group, are left out.
        let (loops, taken) = (&mut self.loops, &mut self.picked);
        loops.clear();
        loops.resize(n, false);
        taken.clear();
        for (j, t) in joints.iter().enumerate() {
            // One-sided and soft joints are no equalities to eliminate.
            if matches!(
                kinds[j].kind,
                JointKind::Rope { .. } | JointKind::Mouse { .. } | JointKind::Pulley { .. }
            ) {
                continue;
            }
            let b = t.b.filter(|&b| moving(b));
            match (moving(t.a), b) {
                (false, None) => {}
                (true, None) => taken.push((j, t.a, None)),
                (false, Some(b)) => taken.push((j, b, None)),
                (true, Some(y)) => {
                    let x = t.a;
                    let (rx, ry) = (find(&mut self.parent, x), find(&mut self.parent, y));
                    if rx == ry {
                        loops[rx] = true;
                    } else {
                        self.parent[rx] = ry;
                        loops[ry] |= loops[rx];
                    }
                    taken.push((j, x, Some(y)));
                }
            }
        }
        let parent = &mut self.parent;
        taken.retain(|&(_, x, _)| !loops[find(parent, x)]);
        // One joint alone is solved exactly by its own Gauss-Seidel pass, at less cost.
        if taken.len() < 2 {
            return false;
        }
        // Depth of each moving body in its tree, from the first body met as root.
        self.on_body.resize_with(n, Vec::new);
        self.on_body.iter_mut().for_each(Vec::clear);
        for (k, &(_, x, y)) in taken.iter().enumerate() {
            self.on_body[x].push(k);
            if let Some(y) = y {
                self.on_body[y].push(k);
            }
        }
        self.depth.clear();
        self.depth.resize(n, usize::MAX);
        let queue = &mut self.queue;
        for &(_, x, _) in taken.iter() {
            if self.depth[x] != usize::MAX {
                continue;
            }
            self.depth[x] = 0;
            queue.push_back(x);
            while let Some(body) = queue.pop_front() {
                for &k in &self.on_body[body] {
                    let (_, x, y) = taken[k];
                    for other in [Some(x), y].into_iter().flatten() {
                        if self.depth[other] == usize::MAX {
                            self.depth[other] = self.depth[body] + 1;
                            queue.push_back(other);
                        }
                    }
                }
            }
        }
        // Deepest first; at one depth a body's joints to the world before its joint to its
        // parent; then by index, for a deterministic order.
        let key = |&(j, x, y): &(usize, usize, Option<usize>)| {
            let child = y.map_or(self.depth[x], |y| self.depth[x].max(self.depth[y]));
            (std::cmp::Reverse(child), y.is_some(), j)
        };
        taken.sort_by_key(key);
        self.order.clear();
        self.order.extend(taken.iter().map(|t| t.0));
        let count = self.order.len();
        self.eqs.resize(count, Equations::default());
        self.trial.resize(count, Equations::default());
        self.lambda.resize(count, [0.0; M]);
        self.rhs.resize(count, [0.0; M]);
        self.pivots.resize(count, None);
        self.done.resize(count, false);
        self.links.resize_with(count, Vec::new);
        // Moving body -> positions (in `order`) of its joints.
        self.on_body.iter_mut().for_each(Vec::clear);
        for (k, &(_, x, y)) in taken.iter().enumerate() {
            self.on_body[x].push(k);
            if let Some(y) = y {
                self.on_body[y].push(k);
            }
        }
        true
    }

    /// Builds K and solves K lambda = -c / dt by elimination in `order`; false if a pivot
    /// block is singular.
    fn eliminate(&mut self, joints: &[Arms], bodies: &[SolverBody], scale: f64) -> bool {
        let count = self.order.len();
        for k in 0..count {
            self.links[k].clear();
            let e = &self.eqs[k];
            let mut r = [0.0; M];
            for (i, ri) in r.iter_mut().enumerate().take(e.m) {
                *ri = -e.residual[i] * scale;
            }
            self.rhs[k] = r;
            self.done[k] = false;
        }
        // Couplings through each moving body. A row of one of its joints spins it by its
        // inverse inertia times the row's angular push: worked out once per row here, not once
        // for every row it is coupled with.
        let (eqs, order, links, spun) = (&self.eqs, &self.order, &mut self.links, &mut self.spun);
        for (body, on) in self.on_body.iter().enumerate() {
            let sb = &bodies[body];
            spun.clear();
            spun.extend(on.iter().map(|&k| {
                let e = &eqs[k];
                side(e, &joints[order[k]], body).map(|s| {
                    std::array::from_fn(|r| {
                        if r < e.m {
                            sb.inv_inertia * s[r].push.1
                        } else {
                            DVec3::ZERO
                        }
                    })
                })
            }));
            for &i in on {
                let si = side(&eqs[i], &joints[order[i]], body);
                for (&k, turned) in on.iter().zip(spun.iter()) {
                    let sk = side(&eqs[k], &joints[order[k]], body);
                    let block = coupling((&eqs[i], si), (&eqs[k], sk, turned), sb.inv_mass);
                    match links[i].iter_mut().find(|(o, _)| *o == k) {
                        Some((_, b)) => {
                            for (row, add) in b.a.iter_mut().zip(&block.a) {
                                row.iter_mut().zip(add).for_each(|(x, y)| *x += y);
                            }
                        }
                        None => links[i].push((k, block)),
                    }
                }
            }
        }
        // Forward elimination.
        for j in 0..count {
            let Some(inv) = self.links[j]
                .iter()
                .find(|(o, _)| *o == j)
                .and_then(|(_, kjj)| kjj.inverse())
            else {
                return false;
            };
            self.pivots[j] = Some(inv);
            self.done[j] = true;
            // j's own list is only read while the others are updated: taken out meanwhile
            // rather than copied (a block is 300 bytes).
            let own = std::mem::take(&mut self.links[j]);
            let rest = || own.iter().filter(|(o, _)| !self.done[*o]);
            for &(i, _) in rest() {
                // K_ij, the coupling of i with j, is in i's list.
                let Some(f) = self.links[i]
                    .iter()
                    .find(|(o, _)| *o == j)
                    .map(|(_, kij)| kij.mul(&inv))
                else {
                    continue;
                };
                let d = f.mul_vec(&self.rhs[j]);
                for (x, dx) in self.rhs[i].iter_mut().zip(d) {
                    *x -= dx;
                }
                for (k, kjk) in rest() {
                    let list = &mut self.links[i];
                    let at = match list.iter().position(|(o, _)| o == k) {
                        Some(at) => at,
                        None => {
                            list.push((*k, Block::zero(f.rows, kjk.cols)));
                            list.len() - 1
                        }
                    };
                    list[at].1.sub_product(&f, kjk);
                }
            }
            self.links[j] = own;
        }
        // Back substitution, from the last eliminated.
        for j in (0..count).rev() {
            let mut r = self.rhs[j];
            for (k, kjk) in &self.links[j] {
                let k = *k;
                if k > j {
                    let d = kjk.mul_vec(&self.lambda[k]);
                    for (x, dx) in r.iter_mut().zip(d) {
                        *x -= dx;
                    }
                }
            }
            self.lambda[j] = self.pivots[j].expect("eliminated").mul_vec(&r);
        }
        true
    }
}

/// The rows of joint `t`'s equations `e` on `body`, if the joint is on it.
fn side<'e>(e: &'e Equations, t: &Arms, body: usize) -> Option<&'e [Side; M]> {
    if t.a == body {
        Some(&e.a)
    } else if t.b == Some(body) {
        Some(&e.b)
    } else {
        None
    }
}

/// K block of joints i and k through a body of inverse mass `inv_mass`: how k's multipliers
/// move i's residuals. Each joint comes with its rows on the body (`side`), and k with the
/// spins its rows' angular pushes give the body.
fn coupling(
    (ei, si): (&Equations, Option<&[Side; M]>),
    (ek, sk, turned): (&Equations, Option<&[Side; M]>, &Option<[DVec3; M]>),
    inv_mass: f64,
) -> Block {
    let mut block = Block::zero(ei.m, ek.m);
    let (Some(si), Some(sk), Some(turned)) = (si, sk, turned) else {
        return block;
    };
    for (row, measured) in block.a.iter_mut().zip(&si[..ei.m]) {
        let (ml, ma) = measured.measure;
        for ((x, pushed), spin) in row.iter_mut().zip(&sk[..ek.m]).zip(turned) {
            *x = ml.dot(pushed.push.0) * inv_mass + ma.dot(*spin);
        }
    }
    block
}

/// Applies joint `t`'s multipliers to its bodies (impulses from the step's start).
fn apply(bodies: &mut [SolverBody], t: &Arms, e: &Equations, l: &[f64; M], reach: f64) {
    let (mut la, mut aa, mut lb, mut ab) = (DVec3::ZERO, DVec3::ZERO, DVec3::ZERO, DVec3::ZERO);
    for ((sa, sb), &x) in e.a[..e.m].iter().zip(&e.b[..e.m]).zip(l) {
        la += sa.push.0 * x;
        aa += sa.push.1 * x;
        lb += sb.push.0 * x;
        ab += sb.push.1 * x;
    }
    let a = &mut bodies[t.a];
    a.change(la * a.inv_mass, a.inv_inertia * aa, reach);
    if let Some(b) = t.b {
        let b = &mut bodies[b];
        b.change(lb * b.inv_mass, b.inv_inertia * ab, reach);
    }
}

/// The end pose of row i (see `JointTree::pose`); the world's for None.
fn end_pose(poses: &[(DVec3, DQuat)], i: Option<usize>) -> (DVec3, DQuat) {
    i.map_or((DVec3::ZERO, DQuat::IDENTITY), |i| poses[i])
}

/// A point equation (the anchors together along `u`) of a joint at arms (ra, rb) now, pushed
/// at (ia, ib).
fn point_rows(
    e: &mut Equations,
    c: DVec3,
    ra: DVec3,
    rb: DVec3,
    ia: DVec3,
    ib: DVec3,
    dirs: &[DVec3],
) {
    for &u in dirs {
        let r = e.m;
        e.residual[r] = c.dot(u);
        e.a[r] = Side {
            measure: (-u, -ra.cross(u)),
            push: (-u, -ia.cross(u)),
        };
        e.b[r] = Side {
            measure: (u, rb.cross(u)),
            push: (u, ib.cross(u)),
        };
        e.m += 1;
    }
}

/// An angular equation: b turned against a about `u` by `residual`.
fn angular_row(e: &mut Equations, residual: f64, u: DVec3) {
    let r = e.m;
    e.residual[r] = residual;
    e.a[r] = Side {
        measure: (DVec3::ZERO, -u),
        push: (DVec3::ZERO, -u),
    };
    e.b[r] = Side {
        measure: (DVec3::ZERO, u),
        push: (DVec3::ZERO, u),
    };
    e.m += 1;
}

/// A joint's equations at the bodies' predicted end poses, into `e` (written in place and only
/// its first `e.m` rows: they are over a kilobyte, and solves of long chains rebuilt them
/// many times a step).
fn equations(joint: &Joint, t: &Arms, poses: &[(DVec3, DQuat)], e: &mut Equations, with: Limits) {
    let ((xa, qa), (xb, qb)) = (end_pose(poses, Some(t.a)), end_pose(poses, t.b));
    let (ra, rb) = (qa * joint.anchor_a, qb * joint.anchor_b);
    let d = (xb + rb) - (xa + ra);
    e.m = 0;
    e.stop = None;
    let axes = [DVec3::X, DVec3::Y, DVec3::Z];
    match &joint.kind {
        JointKind::Ball => point_rows(e, d, ra, rb, t.ra0, t.rb0, &axes),
        JointKind::Hinge {
            axis_a,
            axis_b,
            reference_a,
            reference_b,
            limits: range,
            ..
        } => {
            let (wa, wb) = (qa * *axis_a, qb * *axis_b);
            let (p1, p2) = t.axis0.any_orthonormal_pair();
            let err = wa.cross(wb);
            angular_row(e, err.dot(p1), p1);
            angular_row(e, err.dot(p2), p2);
            point_rows(e, d, ra, rb, t.ra0, t.rb0, &axes);
            // Past a limit, the angle back to it (the angle is a's turn against b: turning b
            // by +x about the axis takes it back by x), as the sweeps would.
            let angle = hinge_angle(qa, qb, *axis_a, *reference_a, *reference_b);
            if let Some(stop) = with.stop(angle, *range) {
                angular_row(e, stop.at - angle, t.axis0);
                e.stop = Some(stop);
            }
        }
        JointKind::Fixed { relative } => {
            let err = super::joint_solver::rotation_between(qa * *relative, qb);
            for u in axes {
                angular_row(e, err.dot(u), u);
            }
            point_rows(e, d, ra, rb, t.ra0, t.rb0, &axes);
        }
        JointKind::Distance { length } => {
            let dist = d.length();
            if dist > 1e-12 {
                let n = d / dist;
                let n0 = if t.n0 == DVec3::ZERO { n } else { t.n0 };
                e.residual[0] = dist - length;
                e.a[0] = Side {
                    measure: (-n, -ra.cross(n)),
                    push: (-n0, -t.ra0.cross(n0)),
                };
                e.b[0] = Side {
                    measure: (n, rb.cross(n)),
                    push: (n0, t.rb0.cross(n0)),
                };
                e.m = 1;
            }
        }
        JointKind::Slider {
            axis_a,
            relative,
            limits: range,
            ..
        } => {
            let err = super::joint_solver::rotation_between(qa * *relative, qb);
            for u in axes {
                angular_row(e, err.dot(u), u);
            }
            // b's anchor kept on a's axis: measured across the axis now, at the point of a
            // where b's anchor is, and pushed across the step's first axis there (`Arms`).
            // Past a limit, the travel (-d . axis) back to it, along the axis, as the sweeps
            // would.
            let axis = qa * *axis_a;
            let (p1, p2) = crate::math::tangents(axis);
            let (q1, q2) = crate::math::tangents(t.axis0);
            let travel = -d.dot(axis);
            e.stop = with.stop(travel, *range);
            let along = e.stop.map(|_| (axis, t.axis0));
            for (i, (u, q)) in [(p1, q1), (p2, q2)].into_iter().chain(along).enumerate() {
                let r = e.m;
                e.residual[r] = match (i, e.stop) {
                    (2, Some(stop)) => stop.at - travel,
                    _ => d.dot(u),
                };
                e.a[r] = Side {
                    measure: (-u, -(ra + d).cross(u)),
                    push: (-q, -t.ra0.cross(q)),
                };
                e.b[r] = Side {
                    measure: (u, rb.cross(u)),
                    push: (q, t.rb0.cross(q)),
                };
                e.m += 1;
            }
        }
        JointKind::Rope { .. } | JointKind::Mouse { .. } | JointKind::Pulley { .. } => {}
    }
}

/// A joint's equations for the velocity phase: along its directions at the end poses, each
/// measured and pushed there (the residuals are filled in by the caller), into `e`.
fn end_equations(
    joint: &Joint,
    t: &Arms,
    poses: &[(DVec3, DQuat)],
    e: &mut Equations,
    limits: Limits,
) {
    let ((xa, qa), (xb, qb)) = (end_pose(poses, Some(t.a)), end_pose(poses, t.b));
    let (ra, rb) = (qa * joint.anchor_a, qb * joint.anchor_b);
    let ends = Arms {
        // A slider's arm on a reaches b's anchor (see `equations`).
        ra0: match &joint.kind {
            JointKind::Slider { .. } => (xb + rb) - xa,
            _ => ra,
        },
        rb0: rb,
        n0: DVec3::ZERO,
        axis0: match &joint.kind {
            JointKind::Hinge { axis_a, .. } | JointKind::Slider { axis_a, .. } => qa * *axis_a,
            _ => DVec3::ZERO,
        },
        ..*t
    };
    equations(joint, &ends, poses, e, limits)
}
