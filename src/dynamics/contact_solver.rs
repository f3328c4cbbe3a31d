//! Sequential-impulse contact solver, in stages: prepare, warm start, impacts, solve, store
//! impulses.
//!
//! The solver starts from the velocities the integrator reached without contacts (v*, w*) and
//! changes them by impulses. Every impulse also records how far it moves its bodies by the end of
//! the step (its `reach` times the velocity change), so positions are integrated with the
//! constrained velocities without undoing the integrator's exact free flight:
//! - a contact that holds a body up acts all through the step, like the smooth forces, and its
//!   reach is the integrator's position weight times dt (dt for Euler, dt/2 for Verlet and RK4);
//! - an impact (approach faster than the restitution threshold) happens at its time of impact
//!   t_c inside the step, found from the free motion; its impulse changes the velocity for the
//!   rest of the step, so its reach is dt - t_c, and the bounce is taken against the approach
//!   speed at t_c. Under uniform gravity this makes a ball's bounce exact. A ball whose bounce
//!   is shorter than what is left of the step lands and bounces again within it.
//!
//! Impacts are resolved before the resting contacts, one manifold at a time and in sweeps until
//! no contact approaches any more (Guendelman, Bridson and Fedkiw 2003): an impact that sets a
//! touching body moving makes that contact approach, and it bounces in turn. So momentum runs
//! down a Newton's cradle from ball to ball instead of spreading over the whole row.
//!
//! Penetration is never removed through velocities (that would add energy); the position
//! correction stage does it.

use crate::collision::manifold::Manifold;
use crate::dynamics::block_lcp;
use crate::dynamics::solver_body::{BodyMass, SolverBody};
use crate::dynamics::state::State;
use crate::math::{skew, DMat3, DVec3};

/// Solver settings taken from the world.
#[derive(Clone, Copy, Debug)]
pub struct SolverSettings {
    pub dt: f64,
    pub iterations: u32,
    /// Approach speeds below this (m/s) do not bounce.
    pub restitution_threshold: f64,
    /// The integrator's position weight (see `IntegratorKind::position_weight`).
    pub position_weight: f64,
    /// Gap (m) below which a contact point counts as touching.
    pub touching: f64,
}

/// How many steps of the smooth forces' speed-up an approach of a resting contact may reach
/// and still count as the solver's leftover rather than an impact.
const RESTING_STEPS: f64 = 2.0;

/// Below this slip speed (m/s) when it begins, a new contact counts as sticking.
const STICK_SPEED: f64 = 1e-3;

#[derive(Clone, Copy, Debug)]
struct SolverPoint {
    manifold: usize,
    index: usize,
    a: usize,
    b: usize,
    ra: DVec3,
    rb: DVec3,
    n: DVec3,
    /// The normal row's angular parts, fixed for the step: ra x n, rb x n, and the spins a unit
    /// normal impulse gives each body (Ia (ra x n), Ib (rb x n)).
    ca: DVec3,
    cb: DVec3,
    spin_a: DVec3,
    spin_b: DVec3,
    /// Change of the relative velocity per unit impulse at the point (any direction), for
    /// friction's effective mass along the slip.
    point_mass: DMat3,
    normal_mass: f64,
    mu_s: f64,
    mu_k: f64,
    /// Whether the surfaces were at rest on each other when the step began (see
    /// `store_impulses`): then friction holds up to mu_s N; a sliding contact gets mu_k N.
    sticking: bool,
    /// How far the bodies move per unit velocity change by the end of the step (s).
    reach: f64,
    /// Lowest relative normal velocity the main solve allows at step end.
    target: f64,
    /// The relative normal velocity at step end without contact impulses.
    vn_free: f64,
    /// Relative normal acceleration of the free motion.
    an: f64,
    /// When the gap closes within the step: the time of impact and the approach velocity then
    /// (negative); touching points have t_c = 0.
    toi: Option<(f64, f64)>,
    restitution: f64,
    /// Whether the impact stage bounced this point.
    bounced: bool,
    /// The impact stage's target for this point in the current sweep.
    impact_target: Option<f64>,
    /// Speed of approach when it touched (m/s): at its first bounce, or from the free motion.
    approach_speed: f64,
    /// When within the step it touched (s).
    touched_at: Option<f64>,
    normal_impulse: f64,
    /// Accumulated friction impulse, a world vector in the tangent plane.
    tangent_impulse: DVec3,
}

/// The points of one manifold, whose normal impulses are solved together.
#[derive(Clone, Copy, Debug)]
struct Block {
    start: usize,
    len: usize,
    /// Coupling of the points' normal impulses: K[i][j] is the change of point i's relative
    /// normal velocity per unit normal impulse at point j.
    k: [[f64; block_lcp::MAX]; block_lcp::MAX],
    /// (K + eps I)^-1 of all the points, when they are 2 to MAX.
    k_inv: Option<[[f64; block_lcp::MAX]; block_lcp::MAX]>,
}

/// A bounce resolved by the impact stage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    /// The manifold and point that bounced.
    pub manifold: usize,
    pub point: usize,
    /// When, from the step's start (s).
    pub time: f64,
    /// Approach speed (m/s).
    pub speed: f64,
}

/// The contact solver with its buffers (reused from step to step).
#[derive(Default)]
pub struct ContactSolver {
    pub bodies: Vec<SolverBody>,
    points: Vec<SolverPoint>,
    blocks: Vec<Block>,
    /// This step's bounces, in the order they were resolved.
    pub impacts: Vec<Impact>,
    /// Bodies about to be struck this step, by row.
    struck: Vec<bool>,
}

fn effective_mass(ba: &SolverBody, bb: &SolverBody, ra: DVec3, rb: DVec3, d: DVec3) -> f64 {
    let ca = ra.cross(d);
    let cb = rb.cross(d);
    let k = ba.inv_mass + bb.inv_mass + ca.dot(ba.inv_inertia * ca) + cb.dot(bb.inv_inertia * cb);
    if k > 0.0 { 1.0 / k } else { 0.0 }
}

fn relative_velocity(ba: &SolverBody, bb: &SolverBody, ra: DVec3, rb: DVec3) -> DVec3 {
    (bb.v + bb.w.cross(rb)) - (ba.v + ba.w.cross(ra))
}

/// K = (1/ma + 1/mb) I - [ra]x Ia [ra]x - [rb]x Ib [rb]x: the change of the relative velocity
/// at a point with lever arms ra, rb per unit impulse there.
fn point_mass(ba: &SolverBody, bb: &SolverBody, ra: DVec3, rb: DVec3) -> DMat3 {
    let (sa, sb) = (skew(ra), skew(rb));
    DMat3::from_diagonal(DVec3::splat(ba.inv_mass + bb.inv_mass)) - sa * ba.inv_inertia * sa - sb * bb.inv_inertia * sb
}

/// Earliest time in [0, dt] at which a gap s closing as s + v t + a t^2 / 2 reaches zero.
fn time_of_impact(s: f64, v: f64, a: f64, dt: f64) -> Option<f64> {
    if s <= 0.0 {
        return Some(0.0);
    }
    let (qa, qb, qc) = (0.5 * a, v, s);
    let t = if qa.abs() < 1e-300 {
        if qb < 0.0 { -qc / qb } else { return None }
    } else {
        let disc = qb * qb - 4.0 * qa * qc;
        if disc < 0.0 {
            return None;
        }
        let q = -0.5 * (qb + qb.signum() * disc.sqrt());
        let roots = [q / qa, if q != 0.0 { qc / q } else { f64::INFINITY }];
        roots.into_iter().filter(|t| *t >= 0.0).fold(f64::INFINITY, f64::min)
    };
    (t <= dt).then_some(t)
}

impl ContactSolver {
    /// Stage 1: builds solver bodies from the free state and solver points from the manifolds.
    pub fn prepare(&mut self, manifolds: &[Manifold], start: &State, free: &State, masses: &[BodyMass], set: &SolverSettings) {
        let n = start.len();
        self.bodies.clear();
        self.bodies.extend((0..n).map(|i| SolverBody { v: free.v[i], w: free.w[i], ..Default::default() }));
        // Contacts between bodies that cannot move (static, kinematic, sleeping) are left as
        // they are.
        let movable = |m: &&Manifold| masses[m.row_a].inv_mass > 0.0 || masses[m.row_b].inv_mass > 0.0;
        for m in manifolds.iter().filter(movable) {
            for row in [m.row_a, m.row_b] {
                self.bodies[row].touch(start.q[row], &masses[row]);
            }
        }
        self.points.clear();
        self.blocks.clear();
        self.impacts.clear();
        let dt = set.dt;
        for (mi, m) in manifolds.iter().enumerate().filter(|(_, m)| movable(m)) {
            let first = self.points.len();
            let (a, b) = (m.row_a, m.row_b);
            let n_ = m.normal;
            // The contact, not each point, rests: a face that pushed on three corners last step
            // rests on its fourth too (treating that one as an impact would ask the face for a
            // tilt).
            let rested = m.points.iter().any(|p| p.pushed);
            for (pi, p) in m.points.iter().enumerate() {
                let pa = start.x[a] + start.q[a] * p.local_a;
                let pb = start.x[b] + start.q[b] * p.local_b;
                let c = 0.5 * (pa + pb);
                let (ra, rb) = (c - start.x[a], c - start.x[b]);
                let s = (pb - pa).dot(n_);
                let vel0 = (start.v[b] + start.w[b].cross(rb)) - (start.v[a] + start.w[a].cross(ra));
                let vel_free = (free.v[b] + free.w[b].cross(rb)) - (free.v[a] + free.w[a].cross(ra));
                let (vn0, vn_free) = (vel0.dot(n_), vel_free.dot(n_));
                // How much the gap closes without contact forces, from the contact point's
                // velocities at fixed lever arms (a material point of a rolling ball would
                // rise off the floor and fake a separation). Exact for translation under
                // uniform gravity.
                let w_pos = set.position_weight;
                let d_free = ((1.0 - w_pos) * vn0 + w_pos * vn_free) * dt;
                let an = (vn_free - vn0) / dt;
                let (ba, bb) = (&self.bodies[a], &self.bodies[b]);
                // Points within the slop count as touching: an impact elsewhere can push them
                // together at once.
                let touching = s <= set.touching;
                // A contact that touched and pushed last step and approaches no faster than
                // the smooth forces speed its bodies up in a couple of steps is resting: that
                // approach is what last step's iterations left unsolved, not an impact.
                // Bouncing it would send energy into resting piles, and forgetting the warm
                // start around it would leave the next step as far from converged, so a tall
                // column would sink further step after step. Impacts from elsewhere still
                // reach it (the impact stage's sweeps). One that separates may land again
                // within the step (a short hop after a bounce): not resting.
                let leftover = set.restitution_threshold + RESTING_STEPS * ((free.v[a] - start.v[a]).length() + (free.v[b] - start.v[b]).length());
                let resting = touching && rested && vn0 <= 0.0 && -vn0 <= leftover;
                let toi = if resting {
                    Some((0.0, vn0.max(0.0)))
                } else {
                    time_of_impact(s, vn0, an, dt).map(|tc| (tc, vn0 + an * tc)).or(touching.then_some((0.0, vn0)))
                };
                let impact = toi.filter(|&(_, vc)| vc < -set.restitution_threshold);
                let reach = match impact {
                    Some((tc, _)) => dt - tc,
                    None => w_pos * dt,
                };
                let gap = s.max(0.0) + d_free;
                // The end-of-step gap if the relative normal velocity ends at v,
                // gap + reach (v - vn_free), must not be negative. When impulses cannot move
                // bodies within the step (explicit Euler), keep next step's motion v dt out of
                // the surface instead. Never ask for separation.
                let target = if reach > 0.0 { vn_free - gap / reach } else { -gap / dt };
                let warm = impact.is_none();
                self.points.push(SolverPoint {
                    manifold: mi,
                    index: pi,
                    a,
                    b,
                    ra,
                    rb,
                    n: n_,
                    ca: ra.cross(n_),
                    cb: rb.cross(n_),
                    spin_a: ba.inv_inertia * ra.cross(n_),
                    spin_b: bb.inv_inertia * rb.cross(n_),
                    point_mass: point_mass(ba, bb, ra, rb),
                    normal_mass: effective_mass(ba, bb, ra, rb, n_),
                    mu_s: m.coefficients.static_friction,
                    mu_k: m.coefficients.friction,
                    sticking: !m.sliding.unwrap_or((vel0 - n_ * vn0).length() >= STICK_SPEED),
                    reach,
                    target: target.min(0.0),
                    vn_free,
                    an,
                    toi,
                    restitution: m.coefficients.restitution,
                    bounced: false,
                    impact_target: None,
                    approach_speed: toi.map_or(0.0, |(_, vc)| (-vc).max(0.0)),
                    touched_at: toi.map(|(tc, _)| tc),
                    normal_impulse: if warm { p.normal_impulse } else { 0.0 },
                    tangent_impulse: if warm { p.tangent_impulse - n_ * p.tangent_impulse.dot(n_) } else { DVec3::ZERO },
                });
            }
            self.blocks.push(self.block(first));
        }
        self.forget_impulses_near_impacts(set.restitution_threshold);
    }

    /// Last step's impulses are a guess for contacts that persist unchanged. A body about to be
    /// struck is not such a case: warm starting its other contacts would push it with last
    /// step's load, the impact would then bounce that push back with restitution, and energy
    /// would appear (a sphere landing on a stack sent the one below away faster than anything
    /// had moved). Such contacts start from zero.
    fn forget_impulses_near_impacts(&mut self, threshold: f64) {
        let struck = |p: &SolverPoint| p.toi.is_some_and(|(_, vc)| vc < -threshold);
        if !self.points.iter().any(struck) {
            return;
        }
        self.struck.clear();
        self.struck.resize(self.bodies.len(), false);
        // Only bodies that move: a floor struck by one ball keeps the warm start of the stack
        // standing on it elsewhere.
        for p in self.points.iter().filter(|p| struck(p)) {
            for row in [p.a, p.b] {
                self.struck[row] |= self.bodies[row].inv_mass > 0.0;
            }
        }
        for p in &mut self.points {
            if self.struck[p.a] || self.struck[p.b] {
                p.normal_impulse = 0.0;
                p.tangent_impulse = DVec3::ZERO;
            }
        }
    }

    /// The block of the points from `start` to the end (one manifold's: one pair of bodies,
    /// one normal), with their coupling matrix.
    fn block(&self, start: usize) -> Block {
        let pts = &self.points[start..];
        let len = pts.len().min(block_lcp::MAX);
        // One point is solved on its own (`solve_normal`): no coupling needed.
        let k = match pts.first().filter(|_| pts.len() >= 2) {
            Some(first) => {
                let (ba, bb) = (&self.bodies[first.a], &self.bodies[first.b]);
                let ra: [DVec3; block_lcp::MAX] = std::array::from_fn(|i| pts.get(i).map_or(DVec3::ZERO, |p| p.ra));
                let rb: [DVec3; block_lcp::MAX] = std::array::from_fn(|i| pts.get(i).map_or(DVec3::ZERO, |p| p.rb));
                block_lcp::coupling(first.n, ba.inv_mass + bb.inv_mass, ba.inv_inertia, bb.inv_inertia, &ra[..len], &rb[..len])
            }
            None => [[0.0; block_lcp::MAX]; block_lcp::MAX],
        };
        let k_inv = if (2..=block_lcp::MAX).contains(&pts.len()) { block_lcp::inverse(&k, len) } else { None };
        Block { start, len: pts.len(), k, k_inv }
    }

    fn apply(bodies: &mut [SolverBody], p: &SolverPoint, impulse: DVec3) {
        bodies[p.a].apply(-impulse, p.ra, p.reach);
        bodies[p.b].apply(impulse, p.rb, p.reach);
    }

    /// Applies a normal impulse d at point p, from the row's parts worked out in `prepare`.
    fn apply_normal(bodies: &mut [SolverBody], p: &SolverPoint, d: f64) {
        let (ma, mb) = (bodies[p.a].inv_mass, bodies[p.b].inv_mass);
        bodies[p.a].change(p.n * (-d * ma), p.spin_a * -d, p.reach);
        bodies[p.b].change(p.n * (d * mb), p.spin_b * d, p.reach);
    }

    /// Stage 2: applies last step's impulses of the points that persisted.
    pub fn warm_start(&mut self) {
        for p in &self.points {
            let impulse = p.n * p.normal_impulse + p.tangent_impulse;
            if impulse != DVec3::ZERO {
                Self::apply(&mut self.bodies, p, impulse);
            }
        }
    }

    /// The relative normal velocity at step end at point p.
    fn normal_velocity(bodies: &[SolverBody], p: &SolverPoint) -> f64 {
        let (ba, bb) = (&bodies[p.a], &bodies[p.b]);
        (bb.v - ba.v).dot(p.n) + bb.w.dot(p.cb) - ba.w.dot(p.ca)
    }

    /// Stage 3: impacts. Sweeps over the manifolds; every contact point that approaches faster
    /// than `threshold` bounces: its relative normal velocity changes by -(1 + e) times its
    /// approach velocity. A point's approach velocity is its own at its time of impact, plus
    /// whatever the impulses so far have added. Stops when no point approaches.
    pub fn impacts(&mut self, threshold: f64, dt: f64, max_sweeps: u32) {
        if self.points.iter().all(|p| p.toi.is_none_or(|(_, vc)| vc >= -threshold)) {
            return;
        }
        for _ in 0..max_sweeps {
            let mut any = false;
            for block in self.blocks.iter() {
                any |= Self::impact_block(&mut self.bodies, block, &mut self.points, threshold, dt, &mut self.impacts);
            }
            if !any {
                break;
            }
        }
        // The resting solve keeps what the bounces gave, and still holds up what rests: a
        // resting contact that an impact passed through approaches again at its free speed,
        // which it must not keep.
        for p in self.points.iter_mut().filter(|p| p.bounced) {
            p.target = p.target.max(Self::normal_velocity(&self.bodies, p));
        }
    }

    /// Bounces the approaching points of one manifold together. Returns whether any bounced.
    fn impact_block(bodies: &mut [SolverBody], block: &Block, points: &mut [SolverPoint], threshold: f64, dt: f64, impacts: &mut Vec<Impact>) -> bool {
        let pts = &mut points[block.start..block.start + block.len];
        let mut any = false;
        let mut own_impact = false;
        for p in pts.iter_mut() {
            p.impact_target = None;
            let Some((tc, vc)) = p.toi else { continue };
            let vn = Self::normal_velocity(bodies, p);
            let approach = vn - p.vn_free + vc;
            if approach >= -threshold {
                continue;
            }
            any = true;
            p.impact_target = Some(vn - (1.0 + p.restitution) * approach);
            if !p.bounced {
                p.approach_speed = -approach;
                p.touched_at = Some(if vc < -threshold { tc } else { dt - bodies[p.a].impact_reach.max(bodies[p.b].impact_reach) });
            }
            if !p.bounced && vc < -threshold {
                // Its own impact: it acts from the time of impact on.
                p.reach = dt - tc;
                own_impact = true;
            } else {
                // Set moving by another impact: it acts from then on.
                let r = bodies[p.a].impact_reach.max(bodies[p.b].impact_reach);
                if r > 0.0 {
                    p.reach = r;
                }
            }
            p.bounced = true;
            impacts.push(Impact { manifold: p.manifold, point: p.index, time: dt - p.reach, speed: -approach });
        }
        if !any {
            return false;
        }
        Self::solve_block(bodies, block, points, |p| p.impact_target);
        let pts = &mut points[block.start..block.start + block.len];
        for p in pts.iter().filter(|p| p.impact_target.is_some()) {
            for row in [p.a, p.b] {
                bodies[row].impact_reach = bodies[row].impact_reach.max(p.reach);
            }
        }
        if pts.len() == 1 && own_impact {
            Self::rebounds(bodies, &mut pts[0], threshold, dt, impacts);
        }
        true
    }

    /// A single contact that bounced at its time of impact and lands again before the step
    /// ends (a short hop under the free acceleration): bounces again within the step, as many
    /// times as it lands, or comes to rest once it lands slower than `threshold`.
    fn rebounds(bodies: &mut [SolverBody], p: &mut SolverPoint, threshold: f64, dt: f64, impacts: &mut Vec<Impact>) {
        let Some((mut t, _)) = p.toi else { return };
        if p.an >= 0.0 {
            return;
        }
        for _ in 0..64 {
            // Relative normal velocity just after the impact at t.
            let added = Self::normal_velocity(bodies, p) - p.vn_free;
            let u = p.vn_free - p.an * (dt - t) + added;
            if u <= 0.0 {
                return;
            }
            t += -2.0 * u / p.an;
            if t >= dt {
                return;
            }
            let settles = u <= threshold;
            if !settles {
                impacts.push(Impact { manifold: p.manifold, point: p.index, time: t, speed: u });
            }
            let change = if settles { u } else { (1.0 + p.restitution) * u };
            let impulse = change * p.normal_mass;
            p.normal_impulse += impulse;
            p.reach = dt - t;
            Self::apply_normal(bodies, p, impulse);
            if settles {
                return;
            }
        }
    }

    /// Coulomb friction: a contact at rest when the step began holds with up to mu_s times its
    /// normal impulse; a sliding one is held back with up to mu_k times it (and stops when
    /// that is enough). The static limit is kept per point while the points share the load:
    /// dropping a point to mu_k as soon as it needs more than mu_s would shift its share to the
    /// others, which would then let go too, and a block would slide below its friction angle.
    /// Each correction is taken along the current slip velocity (with the effective mass in
    /// that direction), so a sliding contact's impulse ends up opposing its slip, not pushing
    /// it sideways.
    fn solve_friction(bodies: &mut [SolverBody], p: &mut SolverPoint) {
        // Without load there is no friction to add or take back (a touching side face).
        if p.normal_impulse == 0.0 && p.tangent_impulse == DVec3::ZERO {
            return;
        }
        let vel = relative_velocity(&bodies[p.a], &bodies[p.b], p.ra, p.rb);
        let slip = vel - p.n * vel.dot(p.n);
        let old = p.tangent_impulse;
        let mut new = old;
        // The impulse along the slip that stops it: slip / (d . K d) for the slip's direction
        // d, which is slip |slip|^2 / (slip . K slip).
        let k = slip.dot(p.point_mass * slip);
        if k > 0.0 {
            new -= slip * (slip.length_squared() / k);
        }
        let limit = if p.sticking { p.mu_s } else { p.mu_k } * p.normal_impulse;
        let len2 = new.length_squared();
        if len2 > limit * limit {
            let len = len2.sqrt();
            new *= if len > 0.0 { limit / len } else { 0.0 };
        }
        p.tangent_impulse = new;
        if new != old {
            Self::apply(bodies, p, new - old);
        }
    }

    /// Pushes the relative normal velocity up to `target`, keeping the total impulse >= 0.
    fn solve_normal(bodies: &mut [SolverBody], p: &mut SolverPoint, target: f64) {
        let vn = Self::normal_velocity(bodies, p);
        let new = (p.normal_impulse - p.normal_mass * (vn - target)).max(0.0);
        let d = new - p.normal_impulse;
        p.normal_impulse = new;
        if d != 0.0 {
            Self::apply_normal(bodies, p, d);
        }
    }

    /// Solves the normal impulses of a block's points together (those `target` gives a target
    /// for), falling back to one point at a time when the block is too large or has no
    /// solution.
    fn solve_block(bodies: &mut [SolverBody], block: &Block, points: &mut [SolverPoint], target: impl Fn(&SolverPoint) -> Option<f64>) {
        let pts = &mut points[block.start..block.start + block.len];
        let mut active = [0usize; block_lcp::MAX];
        let mut n = 0;
        for (i, p) in pts.iter().enumerate() {
            if target(p).is_some() && n < block_lcp::MAX && block.len <= block_lcp::MAX {
                active[n] = i;
                n += 1;
            }
        }
        if n >= 2 {
            let mut k = [[0.0; block_lcp::MAX]; block_lcp::MAX];
            let mut b = [0.0; block_lcp::MAX];
            for (r, &i) in active[..n].iter().enumerate() {
                let p = &pts[i];
                b[r] = Self::normal_velocity(bodies, p) - target(p).unwrap_or(0.0);
                for (c, &j) in active[..n].iter().enumerate() {
                    k[r][c] = block.k[i][j];
                    b[r] -= block.k[i][j] * pts[j].normal_impulse;
                }
            }
            let all = n == block.len;
            let pushing = active[..n].iter().enumerate().filter(|&(_, &i)| pts[i].normal_impulse > 0.0).fold(0u32, |m, (r, _)| m | 1 << r);
            let x = block_lcp::solve(&k, &b, n, pushing, block.k_inv.as_ref().filter(|_| all));
            if let Some(x) = x {
                for (r, &i) in active[..n].iter().enumerate() {
                    let p = &mut pts[i];
                    let d = x[r] - p.normal_impulse;
                    p.normal_impulse = x[r];
                    if d != 0.0 {
                        Self::apply_normal(bodies, p, d);
                    }
                }
                return;
            }
        }
        for p in pts.iter_mut() {
            if let Some(t) = target(p) {
                Self::solve_normal(bodies, p, t);
            }
        }
    }

    /// Stage 4, one iteration: Gauss-Seidel over the manifolds: friction point by point, then
    /// non-penetration for the manifold's points together.
    pub fn solve_iteration(&mut self) {
        for block in &self.blocks {
            for p in self.points[block.start..block.start + block.len].iter_mut() {
                Self::solve_friction(&mut self.bodies, p);
            }
            Self::solve_block(&mut self.bodies, block, &mut self.points, |p| Some(p.target));
        }
    }
    /// Stage 5: keeps the accumulated impulses in the manifolds for next step's warm start
    /// and for `World::contacts`.
    /// The friction impulse that would hold a block's contact as a whole: taken at the
    /// centroid of its points, from the velocities now (the impulse so far plus what stops the
    /// slip left), with its normal impulse and whether its points stick. Per point the answer
    /// would depend on how the iterations happened to share the load out between the points.
    fn holding(&self, block: &Block) -> Option<(f64, f64, bool)> {
        let pts = &self.points[block.start..block.start + block.len];
        let first = pts.first()?;
        let k = pts.len() as f64;
        let (ra, rb) = (pts.iter().map(|p| p.ra).sum::<DVec3>() / k, pts.iter().map(|p| p.rb).sum::<DVec3>() / k);
        let (ba, bb) = (&self.bodies[first.a], &self.bodies[first.b]);
        let vel = relative_velocity(ba, bb, ra, rb);
        let slip = vel - first.n * vel.dot(first.n);
        let mut needed: DVec3 = pts.iter().map(|p| p.tangent_impulse).sum();
        if let Some(dir) = slip.try_normalize() {
            needed -= dir * (effective_mass(ba, bb, ra, rb, dir) * slip.length());
        }
        let normal: f64 = pts.iter().map(|p| p.normal_impulse).sum();
        Some((needed.length(), normal, pts.iter().all(|p| p.sticking)))
    }

    /// Whether friction can hold a block's contact: within mu_s N while it sticks, or (for a
    /// sliding one) when kinetic friction stopped it.
    fn holds(&self, block: &Block) -> Option<bool> {
        let (needed, normal, sticking) = self.holding(block)?;
        let first = &self.points[block.start];
        let mu = if sticking { first.mu_s } else { first.mu_k };
        (normal > 0.0).then(|| needed <= mu * normal * (1.0 + 1e-9))
    }

    /// Lets go of the sticking contacts that static friction cannot hold: they slide, so
    /// kinetic friction acts from this step on. Returns whether that lowers any friction limit,
    /// so the step must be solved again; with equal static and kinetic coefficients it does
    /// not (the contact is only marked sliding for the steps after).
    pub fn release_saturated(&mut self) -> bool {
        // Where kinetic friction is as strong as static, letting go changes nothing this step
        // (and `store_impulses` finds what slides on its own).
        if self.points.iter().all(|p| p.mu_k >= p.mu_s) {
            return false;
        }
        let mut any = false;
        for b in 0..self.blocks.len() {
            let block = &self.blocks[b];
            let pts = &self.points[block.start..block.start + block.len];
            let sticking = pts.iter().all(|p| p.sticking);
            if sticking && self.holds(block) == Some(false) {
                any |= pts.iter().any(|p| p.mu_k < p.mu_s);
                let (start, len) = (block.start, block.len);
                self.points[start..start + len].iter_mut().for_each(|p| p.sticking = false);
            }
        }
        any
    }

    /// Keeps the impulses for warm starting, and whether each contact slides into the next
    /// step: a contact held this step sticks; a sliding one that kinetic friction stopped
    /// sticks; the others slide.
    pub fn store_impulses(&self, manifolds: &mut [Manifold]) {
        for p in &self.points {
            let cp = &mut manifolds[p.manifold].points[p.index];
            cp.normal_impulse = p.normal_impulse;
            cp.tangent_impulse = p.tangent_impulse;
            cp.bounced = p.bounced;
            cp.touch_time = p.touched_at;
            cp.approach_speed = p.approach_speed;
        }
        for block in &self.blocks {
            if let Some(first) = self.points.get(block.start).filter(|_| block.len > 0) {
                manifolds[first.manifold].sliding = self.holds(block).map(|held| !held);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::time_of_impact;

    #[test]
    fn time_of_impact_of_a_falling_gap() {
        // s = 0.01 m closing at 2 m/s under -9.81 m/s^2: s - 2t - 4.905 t^2 = 0.
        let (s, v, a, dt) = (0.01, -2.0, -9.81, 1.0 / 60.0);
        let t = time_of_impact(s, v, a, dt).unwrap();
        assert!((s + v * t + 0.5 * a * t * t).abs() < 1e-15);
        assert!(t > 0.0 && t < dt);
        // Touching or overlapping: at once.
        assert_eq!(time_of_impact(0.0, -1.0, 0.0, dt), Some(0.0));
        assert_eq!(time_of_impact(-0.001, 1.0, 0.0, dt), Some(0.0));
        // Separating, too far, or turning back before reaching the surface: no impact.
        assert_eq!(time_of_impact(0.01, 1.0, 0.0, dt), None);
        assert_eq!(time_of_impact(1.0, -1.0, 0.0, dt), None);
        assert_eq!(time_of_impact(0.01, -0.1, 20.0, dt), None);
        // Constant speed: s / v.
        assert!((time_of_impact(0.01, -1.0, 0.0, dt).unwrap() - 0.01).abs() < 1e-15);
    }
}
