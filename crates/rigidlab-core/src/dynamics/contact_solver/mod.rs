//! Sequential-impulse contact solver, in stages: prepare, impacts, warm start, solve, store
//! impulses.
//!
//! The solver starts from the velocities the integrator reached without contacts (v*, w*) and
//! changes them by impulses. Every impulse also records how far it moves its bodies by the end of
//! the step (its `reach` times the velocity change), so positions are integrated with the
//! constrained velocities without undoing the integrator's exact free flight:
//! - a contact that holds a body up acts all through the step, like the smooth forces, and its
//!   reach is the integrator's position weight times dt (dt for Euler, dt/2 for Verlet and RK4);
//! - an impact happens at its time of impact t_c inside the step; its impulse changes the
//!   velocity for the rest of the step, so its reach is dt - t_c, and the bounce is taken
//!   against the approach speed at t_c. Under uniform gravity this makes a ball's bounce exact.
//!   A ball whose bounce is shorter than what is left of the step lands and bounces again
//!   within it. Impacts keep their impulses apart from the resting contacts' (which alone bound
//!   friction in the iterations: an impact's friction is its own, impact.rs).
//!
//! Impacts are resolved before the resting contacts, one at a time in the order they happen
//! within the step, each at its own time of impact (see impact_events.rs): an impact that sets a
//! body moving changes when its other contacts close, and those are found again. So momentum
//! runs down a Newton's cradle from ball to ball, and a sequence of collisions is that of exact
//! binary collisions.
//!
//! Penetration is never removed through velocities (that would add energy); the position
//! correction stage does it.

mod hold_up;
mod impact_events;
mod making;
mod settle;
mod split_sweep;

pub(crate) use impact_events::holds_up;

use crate::collision::manifold::Manifold;
use crate::dynamics::block_lcp::{self, Row};
use crate::dynamics::colours;
use crate::dynamics::friction_patch::{Coulomb, Patch};
use crate::dynamics::load_estimate::{self, LoadEstimate, Support};
use crate::dynamics::solver_body::{Bodies, BodyMass, SolverBody};
use crate::dynamics::split;
use crate::dynamics::state::State;
use crate::math::DVec3;
use rayon::prelude::*;

/// Solver settings taken from the world.
#[derive(Clone, Copy, Debug)]
pub struct SolverSettings {
    pub dt: f64,
    pub iterations: u32,
    /// Approach speeds below this (m/s) do not bounce.
    pub restitution_threshold: f64,
    /// Iterations stop once one changes no relative velocity by more than this (m/s).
    pub tolerance: f64,
    /// The integrator's position weight (see `IntegratorKind::position_weight`).
    pub position_weight: f64,
    /// Gap (m) below which a contact point counts as touching.
    pub touching: f64,
    /// The unit direction of gravity (zero without gravity).
    pub down: DVec3,
    /// Whether the world is 2D (see `Patch::new`).
    pub planar: bool,
    /// Threads the resting solve's sweeps may split over (split_sweep.rs); the results are
    /// the same on any number.
    pub threads: usize,
}

/// How many steps of the smooth forces' speed-up an approach of a resting contact may reach
/// and still count as the solver's leftover rather than an impact.
const RESTING_STEPS: f64 = 2.0;

/// A touching contact whose bodies move along its normal slower than this fraction of what
/// the smooth forces add in a step is at rest (see `prepare`).
const AT_REST: f64 = 1e-6;

/// The smooth forces carry two bodies together when they change the bodies' relative normal
/// velocity by at most this fraction of what they add to the bodies' own speeds along the
/// normal: balls side by side in a heap fall alike, and only the contacts below hold them, while
/// a ball hopping on the floor lands under the full pull of gravity.
const TOGETHER: f64 = 0.1;

/// Below this slip speed (m/s) when it begins, a new contact counts as sticking.
const STICK_SPEED: f64 = 1e-3;

/// Approach speeds (m/s) below this are not impacts, whatever the restitution threshold: a
/// contact closing this slowly is left to the resting solve. Far below any speed a lab
/// measures, and above the round-off of a contact that an impact has just stopped, which
/// would otherwise be found approaching again at once.
const LEAST_IMPACT_SPEED: f64 = 1e-9;

/// A contact point as the solver sees it. The fields each iteration reads come first, together
/// (`repr(C)` keeps them in this order): an iteration then reads about half of each point's
/// cache lines.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct SolverPoint {
    normal_impulse: f64,
    /// Lowest relative normal velocity the main solve allows at step end.
    target: f64,
    /// How far the bodies move per unit velocity change by the end of the step (s).
    reach: f64,
    normal_mass: f64,
    a: usize,
    b: usize,
    n: DVec3,
    /// The normal row's angular parts, fixed for the step.
    row: Row,
    manifold: usize,
    index: usize,
    /// The block (manifold of the solve) the point belongs to.
    block: usize,
    ra: DVec3,
    rb: DVec3,
    /// The relative normal velocity at step end without contact impulses.
    vn_free: f64,
    /// The gap at the step's start (m).
    gap: f64,
    /// When the gap closes within the step under the free motion: the time of impact and the
    /// approach velocity then (negative); touching points have t_c = 0.
    toi: Option<(f64, f64)>,
    /// Whether the free motion alone makes this point an impact.
    predicted: bool,
    /// Whether the contact rests: only impacts elsewhere make it an impact (see `prepare`).
    resting: bool,
    /// The radii of A and B when both are spheres: the impact stage then follows their
    /// centres exactly, and the normal is the line of centres at the time of impact.
    spheres: Option<(f64, f64)>,
    restitution: f64,
    tangential_restitution: f64,
    /// Whether the impact stage bounced this point, and whether each of its impacts only
    /// stopped the approach (perfectly inelastic).
    bounced: bool,
    stopped: bool,
    /// Normal impulse of this step's impacts (N s), apart from `normal_impulse` (that of the
    /// resting solve, which alone bounds its friction).
    impact_impulse: f64,
    /// Friction impulse of this step's impacts (N s, on B), apart from the resting patch's.
    impact_tangent: DVec3,
    /// Speed of approach when it touched (m/s): at its first bounce, or from the free motion.
    approach_speed: f64,
    /// When within the step it touched (s).
    touched_at: Option<f64>,
}

/// The points of one manifold, whose normal impulses are solved together, and its friction.
#[derive(Clone, Copy, Debug)]
struct Block {
    start: usize,
    len: usize,
    /// The rows of bodies A and B.
    a: usize,
    b: usize,
    /// Index of the points' `Coupling` (blocks of one point have none: `NO_COUPLING`).
    coupling: usize,
    patch: Patch,
    /// Whether the patch has its geometry: a block that starts the step without friction
    /// impulse gets it once it carries load (`Patch::unloaded`).
    built: bool,
}

const NO_COUPLING: usize = usize::MAX;

impl Block {
    /// Where its points are in the solver's list (read instead of copying the block, whose
    /// patch makes it hundreds of bytes).
    fn points(&self) -> std::ops::Range<usize> {
        self.start..self.start + self.len
    }

    /// Gives the patch its geometry if it has none yet and the block carries `normal` (`pts`:
    /// its points).
    fn load<B: Bodies + ?Sized>(&mut self, bodies: &B, pts: &[SolverPoint], normal: f64) {
        if !self.built && normal > 0.0 {
            let zero = [DVec3::ZERO; block_lcp::MAX];
            self.patch = patch_of(bodies, pts, &zero, self.patch.law, self.patch.in_plane());
            self.built = true;
        }
    }
}

/// The friction patch of a block's points `pts` (see `Patch::new`), warm started from their
/// friction impulses `tangent`.
fn patch_of<B: Bodies + ?Sized>(
    bodies: &B,
    pts: &[SolverPoint],
    tangent: &[DVec3],
    law: Coulomb,
    planar: bool,
) -> Patch {
    let len = pts.len().min(block_lcp::MAX);
    let (a, b, n) = pts.first().map_or((0, 0, DVec3::Y), |p| (p.a, p.b, p.n));
    let (ra, rb) = (per_point(pts, |p| p.ra), per_point(pts, |p| p.rb));
    Patch::new(
        &bodies[a],
        &bodies[b],
        n,
        &ra[..len],
        &rb[..len],
        &tangent[..len],
        law,
        planar,
    )
}

/// How the normal impulses of a block of two or more points act on one another (kept apart
/// from the blocks, which are mostly single points: a ball's contact).
#[derive(Clone, Copy, Debug, Default)]
struct Coupling {
    /// K[i][j]: the change of point i's relative normal velocity per unit normal impulse at
    /// point j; worked out when first needed (most of a pile's faces are its bodies'
    /// neighbours within the search's margin, and never push).
    k: Option<[[f64; block_lcp::MAX]; block_lcp::MAX]>,
    /// K + eps I of all the points factored, when they are 2 to MAX; worked out when first
    /// needed (a touching side face that never pushes does without).
    factor: Option<Option<block_lcp::Factor>>,
}

/// An impact resolved by the impact stage: one per impact of a pair, its points together.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    /// The manifold of the pair.
    pub manifold: usize,
    /// When, from the step's start (s).
    pub time: f64,
    /// Approach speed (m/s): the fastest point's.
    pub speed: f64,
    /// Where (the points weighted by their impulses) and the normal (from A to B), at the time
    /// of impact.
    pub point: DVec3,
    pub normal: DVec3,
    /// The normal impulse on B (N s), the points' summed.
    pub impulse: f64,
}

/// The contact solver with its buffers (reused from step to step).
#[derive(Default)]
pub struct ContactSolver {
    pub bodies: Vec<SolverBody>,
    points: Vec<SolverPoint>,
    blocks: Vec<Block>,
    couplings: Vec<Coupling>,
    /// This step's impacts, in the order they happened.
    pub impacts: Vec<Impact>,
    /// The impact stage's buffers.
    schedule: impact_events::Schedule,
    /// The last pass's buffers (hold_up.rs).
    levels: hold_up::Levels,
    /// Bodies about to be struck this step, by row.
    struck: Vec<bool>,
    /// Bodies that a contact pushed in the last step (held in a pile or on a surface), by row.
    supported: Vec<bool>,
    /// Blocks of contacts that touch without an impact (resting ones and new ones), and the
    /// guess of the new ones' loads.
    holding: Vec<usize>,
    loads: LoadEstimate,
    /// Whether every contact starts this step from last step's impulses: none is new with a
    /// load to guess, none is struck. Only then does a small change per iteration mean the
    /// iterations have converged (from a guess, it may mean they are still far from it).
    pub warm: bool,
    /// Whether the world is 2D: its friction patches have one unknown (see `Patch::new`).
    planar: bool,
    /// The sweeps after the iterations' buffers (settle.rs).
    settling: settle::Settling,
    /// The order the blocks are made and swept in (colours.rs).
    colours: colours::Colours,
    /// A split sweep's chunks (split_sweep.rs).
    split: split::Split,
    /// Threads the sweeps may split over (`SolverSettings::threads`).
    threads: usize,
    /// The buffers of making the points and blocks (making.rs).
    making: making::MakingBuffers,
}

/// A quantity of each of a block's first `block_lcp::MAX` points, padded with defaults.
fn per_point<T: Copy + Default>(
    pts: &[SolverPoint],
    of: impl Fn(&SolverPoint) -> T,
) -> [T; block_lcp::MAX] {
    std::array::from_fn(|i| pts.get(i).map_or(T::default(), &of))
}

/// The lever arms from centres xa and xb at which bodies push at a contact whose points on A
/// and B are pa and pb, along normal n. Touching or overlapping, they push at the point midway.
/// Apart, each at its own surface point: those are the points that meet when the gap closes,
/// so an impact turns each body about its point of contact (the midway point would give a ball
/// landing on a floor a lever arm half a gap too long).
fn lever_arms(pa: DVec3, pb: DVec3, n: DVec3, xa: DVec3, xb: DVec3) -> (DVec3, DVec3) {
    let c = 0.5 * (pa + pb);
    let half_gap = 0.5 * (pb - pa).dot(n).max(0.0) * n;
    (c - half_gap - xa, c + half_gap - xb)
}

/// Earliest time in [0, dt] at which a gap s closing as s + v t + a t^2 / 2 reaches zero.
fn time_of_impact(s: f64, v: f64, a: f64, dt: f64) -> Option<f64> {
    if s <= 0.0 {
        return Some(0.0);
    }
    let (qa, qb, qc) = (0.5 * a, v, s);
    let t = if qa.abs() < 1e-300 {
        if qb < 0.0 {
            -qc / qb
        } else {
            return None;
        }
    } else {
        let disc = qb * qb - 4.0 * qa * qc;
        if disc < 0.0 {
            return None;
        }
        let q = -0.5 * (qb + qb.signum() * disc.sqrt());
        let roots = [q / qa, if q != 0.0 { qc / q } else { f64::INFINITY }];
        roots
            .into_iter()
            .filter(|t| *t >= 0.0)
            .fold(f64::INFINITY, f64::min)
    };
    (t <= dt).then_some(t)
}

impl ContactSolver {
    /// Stage 1: builds solver bodies from the free state and solver points from the manifolds.
    /// `radii` holds each body's radius if it is a sphere (0 otherwise).
    pub fn prepare(
        &mut self,
        manifolds: &[Manifold],
        start: &State,
        free: &State,
        masses: &[BodyMass],
        radii: &[f64],
        set: &SolverSettings,
    ) {
        let n = start.len();
        self.planar = set.planar;
        self.threads = set.threads;
        self.bodies.clear();
        // Resting contacts' reach (see `prepare`'s points), the one most impulses have.
        let resting_reach = set.position_weight * set.dt;
        self.bodies.extend((0..n).map(|i| {
            SolverBody::free(
                (start.v[i], start.w[i]),
                free.v[i],
                free.w[i],
                resting_reach,
            )
        }));
        // Contacts between bodies that cannot move (static, kinematic, sleeping) are left as
        // they are.
        let movable =
            |m: &&Manifold| masses[m.row_a].inv_mass > 0.0 || masses[m.row_b].inv_mass > 0.0;
        self.supported.clear();
        self.supported.resize(n, false);
        for m in manifolds.iter().filter(movable) {
            let pushed = m.points.iter().any(|p| p.pushed);
            for row in [m.row_a, m.row_b] {
                self.bodies[row].touch(start.q[row], &masses[row]);
                self.supported[row] |= pushed;
            }
        }
        self.impacts.clear();
        // The blocks in the colours' order (colours.rs), so that a sweep reads them one after
        // the other.
        let mut colours = std::mem::take(&mut self.colours);
        let moving = manifolds.iter().filter(movable).count();
        colours.colour(
            n,
            manifolds.iter().map(|m| (m.row_a, m.row_b)),
            |row| masses[row].inv_mass > 0.0,
            colours::worth_colouring(moving),
        );
        let order = std::mem::take(&mut colours.order);
        self.make(
            manifolds,
            &order,
            |m| movable(&m),
            &mut |mi| colours.place(mi),
            (start, free),
            (masses, radii),
            set,
        );
        colours.order = order;
        if colours.coloured() {
            // The step's sweeps share one cut into chunks (split_sweep.rs).
            self.split.plan(colours.runs());
        }
        self.colours = colours;
        self.warm = true;
        self.guess_new_loads(start, free, masses, set.down);
        self.forget_impulses_near_impacts();
    }

    /// New contacts that touch without an impact have no impulse from the last step to start
    /// from: they start from the loads the bodies' weights put on them, shared by their
    /// touching points so that each body is in balance (see load_estimate.rs).
    fn guess_new_loads(&mut self, start: &State, free: &State, masses: &[BodyMass], down: DVec3) {
        let is_new = |block: &Block, points: &[SolverPoint]| {
            points[block.points()]
                .iter()
                .all(|p| p.normal_impulse == 0.0)
        };
        // Nothing to guess unless a new contact can hold something up (not a touching side
        // face).
        let bearing = |block: &Block| {
            self.points[block.start].n.dot(down).abs() >= load_estimate::LEAST_FACING
        };
        if down == DVec3::ZERO
            || !self
                .holding
                .iter()
                .any(|&bi| bearing(&self.blocks[bi]) && is_new(&self.blocks[bi], &self.points))
        {
            return;
        }
        let touching = |p: &SolverPoint| p.toi.is_some_and(|(t, _)| t == 0.0);
        let e = &mut self.loads;
        e.clear();
        e.down = down;
        e.weight.extend(
            (0..start.len())
                .map(|i| load_estimate::weight(start.v[i], free.v[i], masses[i].inv_mass, down)),
        );
        e.centre.extend_from_slice(&start.x);
        for &bi in &self.holding {
            let block = &self.blocks[bi];
            let pts = &self.points[block.points()];
            let (up, new, first) = (
                -pts[0].n.dot(down),
                is_new(block, &self.points),
                e.points.len(),
            );
            e.points.extend(
                pts.iter()
                    .filter(|p| touching(p))
                    .map(|p| start.x[p.a] + p.ra),
            );
            let count = e.points.len() - first;
            // The normal points from body A to body B.
            let (upper, lower) = if up >= 0.0 {
                (block.b, block.a)
            } else {
                (block.a, block.b)
            };
            e.supports.push(Support {
                upper,
                lower,
                facing: up.abs(),
                new,
                first,
                count,
            });
        }
        e.estimate();
        for (&bi, support) in self.holding.iter().zip(&e.supports) {
            let pts = &mut self.points[self.blocks[bi].points()];
            for (p, &normal) in pts
                .iter_mut()
                .filter(|p| touching(p))
                .zip(&e.normal[support.first..support.first + support.count])
            {
                if normal > 0.0 {
                    p.normal_impulse = normal;
                    self.warm = false;
                }
            }
        }
    }

    /// Last step's impulses are a guess for contacts that persist unchanged. A body about to be
    /// struck is not such a case: the blow changes what its contacts carry, and they start
    /// from zero. (Warm started after the impacts all the same, they left 2 of 21 restitutions
    /// of the bouncy heap of balls, boxes and hulls in tests/test_sleeping.py moving at 20 s,
    /// against none.)
    fn forget_impulses_near_impacts(&mut self) {
        let struck = |p: &SolverPoint| p.predicted;
        if !self.points.iter().any(struck) {
            return;
        }
        self.warm = false;
        self.struck.clear();
        self.struck.resize(self.bodies.len(), false);
        // Only bodies that move: a floor struck by one ball keeps the warm start of the stack
        // standing on it elsewhere.
        for p in self.points.iter().filter(|p| struck(p)) {
            for row in [p.a, p.b] {
                self.struck[row] |= self.bodies[row].inv_mass > 0.0;
            }
        }
        for block in self
            .blocks
            .iter_mut()
            .filter(|bl| self.struck[bl.a] || self.struck[bl.b])
        {
            block.patch.impulse = DVec3::ZERO;
            self.points[block.points()]
                .iter_mut()
                .for_each(|p| p.normal_impulse = 0.0);
        }
    }

    /// The approach speed at point p that the smooth forces give its bodies in a couple of
    /// steps (`RESTING_STEPS`): a touching contact pushed together slower than that would
    /// bounce back only for the smooth forces to bring it back within a step or two.
    fn settling_speed(bodies: &[SolverBody], p: &SolverPoint) -> f64 {
        let smooth = |row: usize| (bodies[row].v_free - bodies[row].v_start).length();
        RESTING_STEPS * (smooth(p.a) + smooth(p.b))
    }

    /// How long the patch's friction acts within the step: its points' reach, weighted by their
    /// loads (evenly without load), so a corner that struck carries its friction from the
    /// impact on.
    fn patch_reach(pts: &[SolverPoint]) -> f64 {
        if let Some(p) = pts
            .first()
            .filter(|p| pts.iter().all(|q| q.reach == p.reach))
        {
            return p.reach;
        }
        let total: f64 = pts.iter().map(|p| p.normal_impulse).sum();
        if total > 0.0 {
            pts.iter().map(|p| p.reach * p.normal_impulse).sum::<f64>() / total
        } else {
            pts.iter().map(|p| p.reach).sum::<f64>() / pts.len().max(1) as f64
        }
    }

    /// `solve_normal` of a point of a 2D world: its normal and lever arms lie in the plane, so
    /// only velocities along x and y and spins about z enter (the same operations as the 3D
    /// ones on those components, whose other terms are zeros).
    fn solve_normal_in_plane<B: Bodies + ?Sized>(
        bodies: &mut B,
        p: &mut SolverPoint,
        target: f64,
    ) -> f64 {
        let (ba, bb) = (&bodies[p.a], &bodies[p.b]);
        let n = p.n;
        let vn = (((bb.v.x - ba.v.x) * n.x + (bb.v.y - ba.v.y) * n.y) + bb.w.z * p.row.cb.z)
            - ba.w.z * p.row.ca.z;
        let new = (p.normal_impulse - p.normal_mass * (vn - target)).max(0.0);
        let d = new - p.normal_impulse;
        p.normal_impulse = new;
        if d == 0.0 {
            return 0.0;
        }
        let ba = &mut bodies[p.a];
        let push = -d * ba.inv_mass;
        ba.change_in_plane((n.x * push, n.y * push), p.row.spin_a.z * -d, p.reach);
        let bb = &mut bodies[p.b];
        let push = d * bb.inv_mass;
        bb.change_in_plane((n.x * push, n.y * push), p.row.spin_b.z * d, p.reach);
        (d / p.normal_mass).abs()
    }

    /// Applies a normal impulse d at point p, from the row's parts worked out in `prepare`.
    fn apply_normal<B: Bodies + ?Sized>(bodies: &mut B, p: &SolverPoint, d: f64) {
        let (ma, mb) = (bodies[p.a].inv_mass, bodies[p.b].inv_mass);
        bodies[p.a].change(p.n * (-d * ma), p.row.spin_a * -d, p.reach);
        bodies[p.b].change(p.n * (d * mb), p.row.spin_b * d, p.reach);
    }

    /// Stage 3: applies last step's impulses of the points that persisted, once the impacts
    /// are done (see `VelocitySolver::solve`).
    pub fn warm_start(&mut self) {
        for block in &self.blocks {
            let pts = &self.points[block.points()];
            for p in pts.iter().filter(|p| p.normal_impulse != 0.0) {
                Self::apply_normal(&mut self.bodies, p, p.normal_impulse);
            }
            if block.patch.impulse != DVec3::ZERO {
                block.patch.apply(
                    &mut self.bodies,
                    block.a,
                    block.b,
                    block.patch.impulse,
                    Self::patch_reach(pts),
                );
            }
        }
    }

    /// The relative normal velocity at step end at point p.
    fn normal_velocity<B: Bodies + ?Sized>(bodies: &B, p: &SolverPoint) -> f64 {
        let (ba, bb) = (&bodies[p.a], &bodies[p.b]);
        (bb.v - ba.v).dot(p.n) + bb.w.dot(p.row.cb) - ba.w.dot(p.row.ca)
    }

    /// Pushes the relative normal velocity up to `target`, keeping the total impulse >= 0.
    /// Returns the change it made to the relative normal velocity (m/s): |vn - target|, or less
    /// when the impulse reached zero first.
    fn solve_normal<B: Bodies + ?Sized>(bodies: &mut B, p: &mut SolverPoint, target: f64) -> f64 {
        let vn = Self::normal_velocity(bodies, p);
        let new = (p.normal_impulse - p.normal_mass * (vn - target)).max(0.0);
        let d = new - p.normal_impulse;
        p.normal_impulse = new;
        if d == 0.0 {
            return 0.0;
        }
        Self::apply_normal(bodies, p, d);
        (d / p.normal_mass).abs()
    }

    /// Solves the normal impulses of a block's points together (those `target` gives a target
    /// for), falling back to one point at a time when the block is too large or has no
    /// solution. Returns the largest change of a point's relative normal velocity by its own
    /// impulse (m/s).
    fn solve_block<B: Bodies + ?Sized>(
        bodies: &mut B,
        block: &Block,
        coupling: Option<&mut Coupling>,
        pts: &mut [SolverPoint],
        target: impl Fn(&SolverPoint) -> Option<f64>,
    ) -> f64 {
        // The points with a target: where they are in the block, their targets and their
        // impulses so far.
        let (mut active, mut goal, mut x0) = (
            [0usize; block_lcp::MAX],
            [0.0; block_lcp::MAX],
            [0.0; block_lcp::MAX],
        );
        let mut n = 0;
        if block.len <= block_lcp::MAX {
            for (i, p) in pts.iter().enumerate() {
                if let Some(t) = target(p) {
                    (active[n], goal[n], x0[n]) = (i, t, p.normal_impulse);
                    n += 1;
                }
            }
        }
        Self::solve_active(
            bodies,
            block,
            coupling,
            pts,
            (&active, &goal, &x0, n),
            target,
        )
    }

    /// `solve_block` of the `n` points `active` of the block, with targets `goal` and impulses
    /// so far `x0`. Inlined, so that a face of four points (the common case, see
    /// `solve_iteration`) is solved with its count known.
    #[inline(always)]
    fn solve_active<B: Bodies + ?Sized>(
        bodies: &mut B,
        block: &Block,
        coupling: Option<&mut Coupling>,
        pts: &mut [SolverPoint],
        (active, goal, x0, n): (
            &[usize; block_lcp::MAX],
            &[f64; block_lcp::MAX],
            &[f64; block_lcp::MAX],
            usize,
        ),
        target: impl Fn(&SolverPoint) -> Option<f64>,
    ) -> f64 {
        if let Some(coupling) = coupling.filter(|_| n >= 2) {
            // The points share their bodies and normal.
            let (ba, bb) = (&bodies[block.a], &bodies[block.b]);
            let linear = (bb.v - ba.v).dot(pts[0].n);
            let mut b = [0.0; block_lcp::MAX];
            for r in 0..n {
                let row = &pts[active[r]].row;
                b[r] = linear + bb.w.dot(row.cb) - ba.w.dot(row.ca) - goal[r];
            }
            // Nothing pushes and nothing approaches (a touching side face): nothing to do.
            if b[..n].iter().all(|&bi| bi >= 0.0) && x0[..n].iter().all(|&xi| xi == 0.0) {
                return 0.0;
            }
            // K of the active points: all of the block's (the common case, which also takes
            // its factor) or some.
            let Coupling { k, factor } = coupling;
            let full = &*k.get_or_insert_with(|| {
                let linear = pts[0].n.dot(pts[0].n) * (ba.inv_mass + bb.inv_mass);
                block_lcp::coupling_of_rows(linear, block.len.min(block_lcp::MAX), |i| &pts[i].row)
            });
            let all = n == block.len;
            if all && factor.is_none() {
                *factor = Some(block_lcp::factor(full, n));
            }
            let factor = if all {
                factor.as_ref().and_then(Option::as_ref)
            } else {
                None
            };
            let mut sub = [[0.0; block_lcp::MAX]; block_lcp::MAX];
            if !all {
                for (r, &i) in active[..n].iter().enumerate() {
                    for (c, &j) in active[..n].iter().enumerate() {
                        sub[r][c] = full[i][j];
                    }
                }
            }
            let k = if all { full } else { &sub };
            let errors = b;
            for r in 0..n {
                b[r] -= block_lcp::row_times(k, r, x0, n);
            }
            let pushing = (0..n)
                .filter(|&r| x0[r] > 0.0)
                .fold(0u32, |m, r| m | 1 << r);
            let x = block_lcp::solve(k, &b, n, pushing, factor, Some((x0, &errors)));
            if let Some(x) = x {
                // The points' changes summed, then applied to each body once.
                // What moves the bodies beyond the common reach: only impacts' points have
                // another (see `SolverBody`).
                let common = bodies[block.a].reach;
                let (mut sum, mut sum_extra) = (0.0, 0.0);
                let (mut spin_a, mut spin_a_extra, mut spin_b, mut spin_b_extra) =
                    (DVec3::ZERO, DVec3::ZERO, DVec3::ZERO, DVec3::ZERO);
                let mut changes = [0.0; block_lcp::MAX];
                for (r, &i) in active[..n].iter().enumerate() {
                    let p = &mut pts[i];
                    let d = x[r] - p.normal_impulse;
                    p.normal_impulse = x[r];
                    changes[r] = d;
                    sum += d;
                    spin_a += p.row.spin_a * d;
                    spin_b += p.row.spin_b * d;
                    let extra = p.reach - common;
                    if extra != 0.0 {
                        sum_extra += d * extra;
                        spin_a_extra += p.row.spin_a * (d * extra);
                        spin_b_extra += p.row.spin_b * (d * extra);
                    }
                }
                // What the points' relative velocities changed by (K d): the load of a face's
                // four points is indeterminate, and moving it among them is no change.
                let change = block_lcp::largest_change(k, &changes, n);
                let n_ = pts[0].n;
                let ba = &mut bodies[block.a];
                ba.shift(
                    n_ * (-sum * ba.inv_mass),
                    -spin_a,
                    n_ * (-sum_extra * ba.inv_mass),
                    -spin_a_extra,
                );
                let bb = &mut bodies[block.b];
                bb.shift(
                    n_ * (sum * bb.inv_mass),
                    spin_b,
                    n_ * (sum_extra * bb.inv_mass),
                    spin_b_extra,
                );
                return change;
            }
        }
        let mut change = 0.0f64;
        for p in pts.iter_mut() {
            if let Some(t) = target(p) {
                change = change.max(Self::solve_normal(bodies, p, t));
            }
        }
        change
    }

    /// Stage 4, one iteration: Gauss-Seidel over the manifolds: friction of the manifold as a
    /// whole (see friction_patch.rs: static up to mu_s N while it sticks, kinetic mu_k N while
    /// it slides), then non-penetration for the manifold's points together. Returns the
    /// largest change the iteration made to a relative velocity it solved for (m/s): near zero
    /// once the iterations have converged.
    pub fn solve_iteration(&mut self) -> f64 {
        if self.splits(self.threads) {
            return self.split_sweep(self.threads, f64::INFINITY, None).0;
        }
        let mut change = 0.0f64;
        for block in &mut self.blocks {
            change = change.max(Self::solve_one(
                &mut self.bodies,
                block,
                &mut self.couplings,
                &mut self.points,
            ));
        }
        change
    }

    /// One Gauss-Seidel update of one block (see `solve_iteration`).
    fn solve_one(
        bodies: &mut [SolverBody],
        block: &mut Block,
        couplings: &mut [Coupling],
        points: &mut [SolverPoint],
    ) -> f64 {
        let coupling = couplings.get_mut(block.coupling);
        Self::update(bodies, block, coupling, &mut points[block.points()])
    }

    /// `solve_one` of a block with its coupling (if it has one) and its points `pts`, on
    /// `bodies`, which hold its two.
    #[inline(always)]
    fn update<B: Bodies + ?Sized>(
        bodies: &mut B,
        block: &mut Block,
        coupling: Option<&mut Coupling>,
        pts: &mut [SolverPoint],
    ) -> f64 {
        if block.len == 1 {
            // One point (a ball's contact, the commonest in a pile), without the block's
            // machinery: what it comes to for one point.
            block.load(bodies, pts, pts[0].normal_impulse);
            let p = &mut pts[0];
            let change = block
                .patch
                .solve(bodies, block.a, block.b, p.normal_impulse, p.reach);
            let normal = if block.patch.in_plane() {
                Self::solve_normal_in_plane(bodies, p, p.target)
            } else {
                Self::solve_normal(bodies, p, p.target)
            };
            return change.max(normal);
        }
        let normal: f64 = pts.iter().map(|p| p.normal_impulse).sum();
        block.load(bodies, pts, normal);
        let change = block
            .patch
            .solve(bodies, block.a, block.b, normal, Self::patch_reach(pts));
        let target = |p: &SolverPoint| Some(p.target);
        change.max(
            if let Some(face) = pts
                .first_chunk::<{ block_lcp::MAX }>()
                .filter(|_| block.len == block_lcp::MAX)
            {
                // A face's four points, all with their targets.
                let (goal, x0) = (
                    face.each_ref().map(|p| p.target),
                    face.each_ref().map(|p| p.normal_impulse),
                );
                Self::solve_active(
                    bodies,
                    block,
                    coupling,
                    pts,
                    (&std::array::from_fn(|i| i), &goal, &x0, block_lcp::MAX),
                    target,
                )
            } else {
                Self::solve_block(bodies, block, coupling, pts, target)
            },
        )
    }

    /// Whether friction can hold the contact of block `bi` (see `block_holds`).
    fn holds(&mut self, bi: usize) -> Option<bool> {
        block_holds(&mut self.blocks[bi], &self.points, &self.bodies)
    }

    /// Lets go of the sticking contacts that static friction cannot hold: they slide, so
    /// kinetic friction acts from this step on. Returns whether that lowers any friction limit,
    /// so the step must be solved again; with equal static and kinetic coefficients it does
    /// not (the contact is only marked sliding for the steps after).
    pub fn release_saturated(&mut self) -> bool {
        // Where kinetic friction is as strong as static, letting go changes nothing this step
        // (and `store_impulses` finds what slides on its own).
        if self
            .blocks
            .iter()
            .all(|b| b.patch.law.mu_k >= b.patch.law.mu_s)
        {
            return false;
        }
        let mut any = false;
        for b in 0..self.blocks.len() {
            if self.blocks[b].patch.law.sticking && self.holds(b) == Some(false) {
                let law = &mut self.blocks[b].patch.law;
                any |= law.mu_k < law.mu_s;
                law.sticking = false;
            }
        }
        any
    }

    /// Stage 5: keeps the accumulated impulses in the manifolds, for next step's warm start
    /// and for `World::contacts`, and whether each contact slides into the next step: a
    /// contact held this step sticks; a sliding one that kinetic friction stopped sticks; the
    /// others slide.
    pub fn store_impulses(&mut self, manifolds: &mut [Manifold]) {
        let split = self.splits(self.threads) && rayon::current_thread_index().is_some();
        let Self {
            bodies,
            points,
            blocks,
            ..
        } = self;
        let (bodies, points) = (&bodies[..], &points[..]);
        let at = ManifoldsAt(manifolds.as_mut_ptr(), manifolds.len());
        // SAFETY: a block is one manifold's points, and no two blocks are one manifold's.
        let store = |block: &mut Block| unsafe { store_block(block, points, bodies, &at) };
        if split {
            blocks
                .par_chunks_mut(STORE_CHUNK)
                .for_each(|chunk| chunk.iter_mut().for_each(store));
        } else {
            blocks.iter_mut().for_each(store);
        }
    }
}

/// Blocks per task of a split `store_impulses`: storing one takes some 80 ns.
const STORE_CHUNK: usize = 256;

/// The manifolds as the threads of a split `store_impulses` share them: each block writes its
/// own manifold's points (and its length, for checking).
struct ManifoldsAt(*mut Manifold, usize);

// SAFETY: the threads write disjoint manifolds (see `store_block`).
unsafe impl Sync for ManifoldsAt {}

/// Whether friction can hold the contact of `block`: within mu_s N while it sticks, or (for a
/// sliding one) when kinetic friction stopped it. None without load. A patch that carries load
/// gets its geometry first (`Block::load`).
fn block_holds(block: &mut Block, points: &[SolverPoint], bodies: &[SolverBody]) -> Option<bool> {
    let pts = &points[block.points()];
    let normal: f64 = pts.iter().map(|p| p.normal_impulse).sum();
    block.load(bodies, pts, normal);
    (normal > 0.0).then(|| {
        block
            .patch
            .holds(&bodies[block.a], &bodies[block.b], normal)
    })
}

/// Stores `block`'s impulses into its manifold's points, and whether it slides.
///
/// # Safety
/// No other thread may touch the block's manifold until this returns.
unsafe fn store_block(
    block: &mut Block,
    points: &[SolverPoint],
    bodies: &[SolverBody],
    manifolds: &ManifoldsAt,
) {
    let sliding = block_holds(block, points, bodies).map(|held| !held);
    let pts = &points[block.points()];
    let Some(first) = pts.first() else { return };
    let len = pts.len().min(block_lcp::MAX);
    let (ra, normal) = (
        per_point(pts, |p| p.ra),
        per_point(pts, |p| p.normal_impulse),
    );
    let mut tangent = [DVec3::ZERO; block_lcp::MAX];
    if block.built {
        block
            .patch
            .at_points(&ra[..len], &normal[..len], &mut tangent[..len]);
    }
    assert!(
        first.manifold < manifolds.1,
        "a block of a manifold that is not there"
    );
    let m = &mut *manifolds.0.add(first.manifold);
    for (i, p) in pts.iter().enumerate() {
        let cp = &mut m.points[p.index];
        if let Some(&t) = tangent.get(i) {
            cp.tangent_impulse = t + p.impact_tangent;
        }
        cp.normal_impulse = p.normal_impulse + p.impact_impulse;
        cp.impact_impulse = p.impact_impulse;
        cp.bounced = p.bounced;
        cp.stopped = p.stopped;
        cp.touch_time = p.touched_at;
        cp.approach_speed = p.approach_speed;
    }
    m.sliding = sliding;
}

#[cfg(test)]
mod tests {
    use super::{
        block_lcp, patch_of, time_of_impact, Block, ContactSolver, Coupling, Row, SolverPoint,
        NO_COUPLING,
    };
    use crate::dynamics::friction_patch::{Coulomb, Patch};
    use crate::dynamics::solver_body::SolverBody;
    use crate::math::{DMat3, DVec3};

    /// A resting point between bodies a and b of `bodies` (normal n, lever arms ra and rb),
    /// with its normal impulse so far and its target.
    fn point(
        bodies: &[SolverBody],
        (a, b): (usize, usize),
        n: DVec3,
        (ra, rb): (DVec3, DVec3),
        (load, target): (f64, f64),
    ) -> SolverPoint {
        let (ca, cb) = (ra.cross(n), rb.cross(n));
        let row = Row {
            ca,
            cb,
            spin_a: bodies[a].inv_inertia * ca,
            spin_b: bodies[b].inv_inertia * cb,
        };
        let k = bodies[a].inv_mass + bodies[b].inv_mass + ca.dot(row.spin_a) + cb.dot(row.spin_b);
        SolverPoint {
            normal_impulse: load,
            target,
            reach: 1.0 / 240.0,
            normal_mass: 1.0 / k,
            a,
            b,
            n,
            row,
            manifold: 0,
            index: 0,
            block: 0,
            ra,
            rb,
            vn_free: 0.0,
            gap: 0.0,
            toi: None,
            predicted: false,
            resting: true,
            spheres: None,
            restitution: 0.0,
            tangential_restitution: 0.0,
            bounced: false,
            stopped: false,
            impact_impulse: 0.0,
            impact_tangent: DVec3::ZERO,
            approach_speed: 0.0,
            touched_at: None,
        }
    }

    #[test]
    fn a_point_let_go_reports_the_velocity_it_changed() {
        // A ball of 1 kg carrying 0.2 N s on the floor that now leaves it at 3 m/s: the
        // impulse goes to zero, which slows it by 0.2 m/s. That is the change, not the 3 m/s
        // it separates at, which no impulse could undo.
        for planar in [false, true] {
            let floor = SolverBody::default();
            let ball = SolverBody {
                inv_mass: 1.0,
                inv_inertia: DMat3::IDENTITY,
                v: DVec3::new(0.0, 3.0, 0.0),
                reach: 1.0 / 240.0,
                touched: true,
                ..Default::default()
            };
            let mut bodies = [floor, ball];
            let arms = (DVec3::ZERO, DVec3::new(0.0, -0.1, 0.0));
            let mut p = point(&bodies, (0, 1), DVec3::Y, arms, (0.2, 0.0));
            let change = if planar {
                ContactSolver::solve_normal_in_plane(&mut bodies, &mut p, 0.0)
            } else {
                ContactSolver::solve_normal(&mut bodies, &mut p, 0.0)
            };
            assert_eq!(p.normal_impulse, 0.0);
            assert!((change - 0.2).abs() < 1e-12, "{change}");
            assert!((bodies[1].v.y - 2.8).abs() < 1e-12);
        }
    }

    #[test]
    fn a_patch_worked_out_when_first_loaded_solves_as_one_worked_out_at_once() {
        // A box sliding onto a heavier one, starting without impulses: a corner (one point)
        // and a face (two points), in 3D and in the plane; approaching, so the first
        // iteration loads them, or separating faster than the targets ask, so nothing does.
        let body = |inv_mass: f64, inv_inertia: DVec3, v: DVec3, w: DVec3| SolverBody {
            inv_mass,
            inv_inertia: DMat3::from_diagonal(inv_inertia),
            v,
            w,
            reach: 1.0 / 240.0,
            touched: true,
            ..Default::default()
        };
        let n = DVec3::new(0.3, 0.9, 0.0).normalize();
        let law = Coulomb {
            mu_s: 0.6,
            mu_k: 0.4,
            sticking: false,
        };
        let arms = [
            (DVec3::new(0.1, 0.05, 0.0), DVec3::new(-0.02, -0.1, 0.0)),
            (DVec3::new(-0.1, 0.05, 0.0), DVec3::new(-0.22, -0.1, 0.0)),
        ];
        for planar in [false, true] {
            for count in [1, 2] {
                for approach in [-0.8, 0.5] {
                    let w = if planar {
                        DVec3::new(0.0, 0.0, 0.7)
                    } else {
                        DVec3::new(0.2, -0.1, 0.7)
                    };
                    let bodies = [
                        body(0.2, DVec3::new(1.5, 1.2, 1.0), DVec3::ZERO, DVec3::ZERO),
                        body(
                            1.0,
                            DVec3::new(9.0, 7.0, 6.0),
                            n * approach + DVec3::new(-n.y, n.x, 0.0),
                            w,
                        ),
                    ];
                    let points: Vec<SolverPoint> = arms[..count]
                        .iter()
                        .map(|&r| point(&bodies, (0, 1), n, r, (0.0, 0.0)))
                        .collect();
                    let zero = [DVec3::ZERO; block_lcp::MAX];
                    let block = |patch: Patch, built: bool| Block {
                        start: 0,
                        len: count,
                        a: 0,
                        b: 1,
                        coupling: if count > 1 { 0 } else { NO_COUPLING },
                        patch,
                        built,
                    };
                    let at_once = block(patch_of(&bodies, &points, &zero, law, planar), true);
                    let later = block(Patch::unloaded(law, planar), false);
                    let mut runs = [at_once, later].map(|b| {
                        (
                            b,
                            bodies,
                            points.clone(),
                            vec![Coupling::default()],
                            [0.0; 6],
                        )
                    });
                    for (block, bodies, points, couplings, changes) in &mut runs {
                        for c in changes.iter_mut() {
                            *c = ContactSolver::solve_one(bodies, block, couplings, points);
                        }
                    }
                    let [(b1, bodies1, p1, _, c1), (b2, bodies2, p2, _, c2)] = &runs;
                    assert_eq!(c1, c2);
                    assert_eq!(b1.patch.impulse, b2.patch.impulse);
                    for (x, y) in bodies1.iter().zip(bodies2) {
                        assert_eq!((x.v, x.w, x.dx, x.dtheta), (y.v, y.w, y.dx, y.dtheta));
                    }
                    for (x, y) in p1.iter().zip(p2) {
                        assert_eq!(x.normal_impulse, y.normal_impulse);
                    }
                    // Approaching, the contact takes load and friction at once and the patch
                    // gets its geometry; separating, nothing changes and it never does.
                    let loaded = approach < 0.0;
                    assert_eq!(b2.built, loaded);
                    assert_eq!(b2.patch.impulse != DVec3::ZERO, loaded);
                    assert_eq!(bodies2[1].v == bodies[1].v, !loaded);
                }
            }
        }
    }

    #[test]
    fn a_planar_point_is_solved_as_the_3d_solve_does_to_the_bit() {
        // Two laminae turning about z, a normal and lever arms in the plane, a reach other
        // than the bodies' (so the end-of-step pose moves too): approaching, separating with a
        // load to give back, and held apart by a target.
        let lamina = |inv_mass: f64, izz: f64, v: DVec3, w: f64| SolverBody {
            inv_mass,
            inv_inertia: DMat3::from_diagonal(DVec3::new(2.0 * izz, 2.0 * izz, izz)),
            v,
            w: DVec3::new(0.0, 0.0, w),
            reach: 1.0 / 480.0,
            touched: true,
            ..Default::default()
        };
        let angle: f64 = 2.2;
        let n = DVec3::new(angle.cos(), angle.sin(), 0.0);
        let (ra, rb) = (DVec3::new(0.07, -0.11, 0.0), DVec3::new(-0.13, 0.05, 0.0));
        for (va, vb, load, target) in [
            (
                DVec3::new(-0.6, 0.4, 0.0),
                DVec3::new(0.3, -0.2, 0.0),
                0.0,
                0.0,
            ),
            (
                DVec3::new(0.5, -0.3, 0.0),
                DVec3::new(-0.4, 0.1, 0.0),
                0.05,
                0.0,
            ),
            (
                DVec3::new(0.1, 0.2, 0.0),
                DVec3::new(0.1, 0.25, 0.0),
                0.3,
                -0.02,
            ),
        ] {
            let mut bodies = [lamina(0.5, 3.0, va, 1.5), lamina(0.8, 5.0, vb, -0.7)];
            let point = point(&bodies, (0, 1), n, (ra, rb), (load, target));
            let (mut p2, mut p3, mut b3) = (point, point, bodies);
            let c2 = ContactSolver::solve_normal_in_plane(&mut bodies, &mut p2, target);
            let c3 = ContactSolver::solve_normal(&mut b3, &mut p3, target);
            assert_eq!((c2, p2.normal_impulse), (c3, p3.normal_impulse));
            assert!(c3 > 0.0, "each case changes the impulse");
            for (x, y) in bodies.iter().zip(&b3) {
                assert_eq!((x.v, x.w, x.dx, x.dtheta), (y.v, y.w, y.dx, y.dtheta));
            }
        }
    }

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
