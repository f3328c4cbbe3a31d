//! Stage 4 of a step, the velocity solve, as a schedule of named passes over the contacts and
//! joints (Box2D v3's solver stages, RATTLE for the joints):
//! 1. prepare: solver bodies and points from the manifolds, rows of the joints;
//! 2. joint positions: the joints held at the step's end (RATTLE's position phase);
//! 3. impacts: one at a time in the order they happen within the step;
//! 4. warm start: contacts from last step's impulses (new resting ones from the weights above);
//! 5. iterate: resting contacts with Coulomb friction and joint velocities together;
//! 6. release: contacts that static friction cannot hold slide, and the iterations run again
//!    when that lowers a friction limit;
//!    then, if they ran out before converging, each body's approach to what holds it up is
//!    stopped from the supports up (hold_up.rs);
//! 7. store impulses for the next step's warm start;
//! 8. integrate positions: constrained bodies move by what the impulses did.

use crate::body::Body;
use crate::collision::manifold::Manifold;
use crate::dynamics::contact_solver::{ContactSolver, Impact, SolverSettings};
use crate::dynamics::joint_solver::JointSolver;
use crate::dynamics::joints::Joint;
use crate::dynamics::solver_body::BodyMass;
use crate::dynamics::state::State;
use crate::dynamics::tuning::{JOINT_POSITION_SWEEPS, LEAST_ITERATIONS};
use crate::math::DVec3;
use crate::profile::{SolveLaps, SolvePart, SolveTimes};

/// The constraints a step solves: the contact manifolds and the joints, whose impulses are
/// stored back for warm starting, and each joint's bodies as rows.
pub struct Constraints<'a> {
    pub manifolds: &'a mut [Manifold],
    pub joints: &'a mut [Joint],
    pub joint_rows: &'a [(usize, Option<usize>)],
}

/// The step's arrays: the bodies at its start, and at its end as the smooth forces took them
/// (the solve moves the constrained ones), their masses, and what the contact solver needs of
/// their shapes (see `ContactSolver::prepare`; the impacts find a pair's contact again where
/// they meet).
pub struct Step<'a> {
    pub start: &'a State,
    pub end: &'a mut State,
    pub masses: &'a [BodyMass],
    pub radii: &'a [f64],
    pub bodies: &'a [Body],
}

/// The contact and joint solvers with their buffers, reused from step to step.
#[derive(Default)]
pub struct VelocitySolver {
    contacts: ContactSolver,
    joints: JointSolver,
    /// Iterations run in the last step (both rounds when static friction let go).
    iterations_done: u32,
    /// Where the last solve's time went, part by part (none if it solved nothing).
    laps: Option<SolveLaps>,
}

impl VelocitySolver {
    /// The impacts of the last step, in the order they happened.
    pub fn impacts(&self) -> &[Impact] {
        &self.contacts.impacts
    }

    /// How far from its start each body was at the farthest of the last step's impacts on it
    /// (m; 0 if none struck it), by row; none if the step solved nothing.
    pub fn impact_reaches(&self) -> impl Iterator<Item = f64> + '_ {
        self.contacts.bodies.iter().map(|b| b.impact_reach)
    }

    /// Whether the last step's contacts were enough for the resting solve's sweeps to split
    /// over `threads` threads (split.rs).
    pub fn contacts_split(&self, threads: usize) -> bool {
        self.contacts.splits(threads)
    }

    pub fn iterations_done(&self) -> u32 {
        self.iterations_done
    }

    /// Where the last solve's time went, part by part (zeros if it solved nothing).
    pub fn times(&self) -> SolveTimes {
        self.laps
            .map_or_else(SolveTimes::default, |laps| laps.times())
    }

    /// Forgets the last step's impacts and counts (a step that solves nothing).
    pub fn clear(&mut self) {
        self.contacts.impacts.clear();
        self.contacts.bodies.clear();
        self.iterations_done = 0;
        self.laps = None;
    }

    /// Runs the schedule (see the module's comment) over `c`, moving the constrained bodies of
    /// `step.end`.
    pub fn solve(&mut self, c: Constraints, step: Step, set: &SolverSettings) {
        self.clear();
        if c.manifolds.is_empty() && c.joints.is_empty() {
            return;
        }
        let mut laps = SolveLaps::start();
        self.contacts.prepare(
            c.manifolds,
            step.start,
            step.end,
            step.masses,
            step.radii,
            set,
        );
        self.joints
            .prepare(c.joints, c.joint_rows.iter().copied(), step.start);
        for &(a, b) in c.joint_rows {
            for row in std::iter::once(a).chain(b) {
                self.contacts.bodies[row].touch(step.start.q[row], &step.masses[row]);
            }
        }
        laps.lap(SolvePart::Prepare);
        self.joints.solve_positions(
            c.joints,
            &mut self.contacts.bodies,
            step.end,
            set.dt,
            JOINT_POSITION_SWEEPS * set.iterations,
        );
        laps.lap(SolvePart::JointPositions);
        self.contacts
            .impacts(step.start, step.bodies, c.manifolds, set);
        for (i, sb) in self.contacts.bodies.iter_mut().enumerate() {
            let free = (step.end.q[i], step.end.w[i]);
            sb.carry_impacts_to_end(step.masses[i].inv_inertia_body, free);
        }
        laps.lap(SolvePart::Impacts);
        // Last step's loads start the resting solve once the impacts are done: the impacts
        // follow each body on its free path, and a warm start before them bends that path by
        // loads that need not balance (a body's support forgotten for an impact beside it, the
        // load from the column above kept), which the impacts then bounce back with
        // restitution, as motion. In a bouncy heap of 324 balls, boxes and hulls landing in a
        // bin (restitutions 0 to 1 in steps of 0.05, 3 s each), 20 steps gained more than 1 mJ,
        // 614 mJ in all and up to 329 mJ in one step (a hull pushed down 1.3 m/s by the column
        // above it, spun up to 54 rad/s, and thrown against its neighbours); after the
        // impacts, 7 steps, 28 mJ in all, nearly all while the heap lands as a lattice, where
        // position correction lifts its columns out of each other.
        self.contacts.warm_start();
        laps.lap(SolvePart::WarmStart);
        let tolerance = c.joints.is_empty().then_some(set.tolerance);
        // With no contact, and every joint held by the exact tree solve, a second iteration
        // would find nothing to change: the tree solve makes all the relative velocities zero
        // at once (a chain or a ragdoll in the air).
        let iterations = if c.manifolds.is_empty() && self.joints.tree_holds_all(c.joints) {
            1
        } else {
            set.iterations
        };
        let mut converged = self.iterate(c.joints, step.end, set, iterations, tolerance);
        // A contact that static friction cannot hold slides from this step on, with kinetic
        // friction: solve again with it let go (when kinetic friction is the weaker).
        if self.contacts.release_saturated() {
            converged = self.iterate(c.joints, step.end, set, iterations, tolerance);
        }
        laps.lap(SolvePart::Iterate);
        // Iterations that ran out leave a pile sinking into itself: what holds each body up
        // stops it (hold_up.rs). Not with joints, which the pass does not see, nor in a world
        // that asked for every iteration and no more (a tolerance of 0).
        if !converged && set.tolerance > 0.0 && c.joints.is_empty() && set.down != DVec3::ZERO {
            self.contacts
                .hold_up(-set.down, &step.start.x, set.tolerance);
        }
        laps.lap(SolvePart::HoldUp);
        self.contacts.store_impulses(c.manifolds);
        self.joints.store_impulses(c.joints);
        self.integrate_positions(step.end);
        laps.lap(SolvePart::Store);
        self.laps = Some(laps);
    }

    /// Gauss-Seidel iterations over contacts and joints together, until one changes no
    /// contact's relative velocity by more than `tolerance`: only when the contacts started
    /// from last step's impulses (from a guess, a small change may mean they are still far
    /// from converged) and there is no joint to solve.
    /// Once an iteration leaves only a few contacts unsettled, or when they run out, sweeps go
    /// on over those alone (settle.rs).
    /// Returns whether they converged: one changed no contact's relative velocity by more than
    /// the solver's tolerance.
    fn iterate(
        &mut self,
        joints: &[Joint],
        end: &State,
        set: &SolverSettings,
        iterations: u32,
        tolerance: Option<f64>,
    ) -> bool {
        let early = tolerance.filter(|_| self.contacts.warm);
        // Sweeping a few wedged contacts alone settles them as the whole pile's iterations
        // would, at a fraction of the cost (a settled pile of 1 000 cubes is left with one or
        // two after two or three iterations, which pass their load back and forth for dozens).
        // Tried once on the way: if those sweeps run out, the iterations go on, and the sweeps
        // try again after the last of them.
        let mut may_settle = early.is_some_and(|t| t > 0.0);
        let mut change = f64::INFINITY;
        for i in 0..iterations {
            self.iterations_done += 1;
            change = match tolerance {
                Some(t) => self.contacts.solve_iteration_noting(t),
                None => self.contacts.solve_iteration(),
            };
            self.joints
                .solve_velocities(joints, &mut self.contacts.bodies, end, set.dt);
            let Some(t) = early else { continue };
            if i + 1 < LEAST_ITERATIONS {
                continue;
            }
            if change <= t {
                return true;
            }
            if may_settle && self.contacts.few_unsettled() {
                if self.contacts.settle(t, iterations) {
                    return true;
                }
                may_settle = false;
            }
        }
        // A world that asked for every iteration and no more (a tolerance of 0) gets no sweeps.
        match tolerance {
            Some(t) if change > t => {
                t > 0.0 && iterations > 0 && self.contacts.settle(t, iterations)
            }
            Some(_) => true,
            None => false,
        }
    }

    /// Bodies in contact take the constrained velocities and move by the displacement the
    /// impulses add; all others keep the integrator's result untouched.
    fn integrate_positions(&self, end: &mut State) {
        for (i, sb) in self.contacts.bodies.iter().enumerate() {
            if !sb.touched || sb.inv_mass == 0.0 {
                continue;
            }
            end.v[i] = sb.v;
            end.w[i] = sb.w;
            (end.x[i], end.q[i]) = sb.end_pose(end, i);
        }
    }
}
