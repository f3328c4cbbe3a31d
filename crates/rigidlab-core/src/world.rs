//! The world and its step. `World::step` reads top to bottom as the list of stages.

use std::collections::{BTreeSet, HashMap};

use crate::body::{Body, BodyKind, BodySet};
use crate::clock::Clock;
use crate::collision::broad_phase::BroadPhase;
use crate::collision::manifold::{deepest_overlaps, ContactSet, Manifold};
use crate::collision::pair_contacts::{Found, PairContacts, PairInputs, Threads};
use crate::contact_decisions::{Decisions, Staged};
use crate::dynamics::contact_solver::SolverSettings;
use crate::dynamics::forces::{ForceParams, Load, SmoothForces};
use crate::dynamics::integrator::{Integrator, IntegratorKind};
use crate::dynamics::joints::Joint;
use crate::dynamics::loads::AppliedLoad;
use crate::dynamics::position_correction::{
    correct_positions, CorrectedBodies, CorrectionBuffers, CorrectionSettings,
};
use crate::dynamics::sleep::Islands;
use crate::dynamics::solver_body::BodyMass;
use crate::dynamics::springs::{Spring, SpringRow};
use crate::dynamics::state::State;
use crate::dynamics::tuning::{CORRECTION_FACTOR, MATCH_DISTANCE, MAX_CORRECTION};
use crate::dynamics::velocity_solve::{Constraints, Step, VelocitySolver};
use crate::error::{Error, Result};
use crate::events::ContactEvents;
use crate::filter::Filter;
use crate::history::History;
use crate::material::{Material, MaterialRules};
use crate::math::{integrate_orientation_exact, DMat3, DQuat, DVec3};
use crate::observer::SharedObserver;
use crate::profile::{Laps, SolveTimes, Stage, StepTimes};
use crate::sensors::{Path, SensorQuery};
use crate::shape::aabb::Aabb;
use crate::shape::{Shape, ShapeKind};

/// World-wide settings. Change them through the `World` setters, which check them.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Gravitational acceleration (m/s^2).
    pub gravity: DVec3,
    /// Time step (s).
    pub dt: f64,
    pub integrator: IntegratorKind,
    /// Most Gauss-Seidel iterations of the velocity solver.
    pub solver_iterations: u32,
    /// The contact solver stops iterating once an iteration changes no contact's relative
    /// velocity by more than this (m/s): it has converged. 0 runs every iteration. Worlds with
    /// joints run every iteration.
    pub solver_tolerance: f64,
    /// Most passes of the position-correction stage (it stops once nothing overlaps the slop by
    /// more than a tenth of it).
    pub position_iterations: u32,
    /// Impacts slower than this (m/s) do not bounce: they come to rest instead.
    pub restitution_threshold: f64,
    /// Penetration (m) tolerated without position correction.
    pub linear_slop: f64,
    pub materials: MaterialRules,
    /// Whether islands of bodies at rest fall asleep (see dynamics/sleep.rs).
    pub sleeping: bool,
    /// A 2D world: every body lies and moves in the x-y plane (see in_plane.rs). Fixed when
    /// the world is made.
    pub planar: bool,
}

impl Settings {
    /// The settings of a 2D world: the defaults, in the plane, with `PLANAR_SOLVER_ITERATIONS`.
    pub fn planar() -> Settings {
        Settings {
            planar: true,
            solver_iterations: PLANAR_SOLVER_ITERATIONS,
            ..Settings::default()
        }
    }
}

/// Most velocity-solver iterations of a 2D world. Gauss-Seidel carries a load about one
/// contact further down a pile per iteration, and a pile of the same bodies in a bin of the
/// same width stands far higher in 2D than in 3D (1 000 bodies of 5 cm in a 1 m bin: some 10
/// layers in 3D, over 100 in 2D). Measured on that 2D heap dropped from up to 24 m (600 steps):
/// with 10 iterations the unconverged solve lets the heap sink into itself at 3 m/s, overlaps
/// reach 8 cm and 275 bodies are squeezed out through the walls and floor; 20 leave 2.4 cm
/// and 1 body, 30 none. The solve stops early once converged, so resting and sleeping worlds
/// pay nothing for the higher cap (the same heap's step took 9.2 ms at 20 against 11.1 at 10,
/// the calmer heap having fewer contacts).
pub const PLANAR_SOLVER_ITERATIONS: u32 = 20;

/// A box that its strikers grow by less than this fraction of the linear slop takes its new
/// margin without another search: the pairs within a margin of the slop and more do not
/// change with a tenth of a nanometre (the default slop's millionth). In a resting pile every
/// body's speed is round-off, and some neighbour's is always the larger by 1e-15 m/s or so:
/// the search ran twice in every step of a standing pyramid (3% of the step with sleeping
/// off).
const SEARCHED_GROWTH: f64 = 1e-6;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            gravity: DVec3::new(0.0, -9.81, 0.0),
            dt: 1.0 / 240.0,
            integrator: IntegratorKind::Verlet,
            solver_iterations: 10,
            solver_tolerance: 1e-5,
            position_iterations: 10,
            restitution_threshold: 0.0,
            linear_slop: 1e-4,
            materials: MaterialRules::default(),
            sleeping: true,
            planar: false,
        }
    }
}

/// Buffers the step reuses, so a warm scene does not allocate.
#[derive(Default)]
struct Scratch {
    /// Each joint's bodies as rows.
    joint_rows: Vec<(usize, Option<usize>)>,
    start: State,
    end: State,
    params: Vec<ForceParams>,
    masses: Vec<BodyMass>,
    loads: Vec<Load>,
    springs: Vec<SpringRow>,
    boxes: Vec<Aabb>,
    margins: Vec<f64>,
    /// Per body row: its deepest overlap in last step's contacts (m).
    pressed: Vec<f64>,
    /// Per body row: how far position correction may move it (see `leashes`).
    leash: Vec<f64>,
    /// Per body row: how fast it moves (m/s, its spin at its bounding radius included), and
    /// the fastest of its neighbours that may strike it.
    speeds: Vec<f64>,
    struck: Vec<f64>,
    pairs: Vec<(u32, u32)>,
    /// Spheres the step took beyond their boxes: their rows, how far they went and their
    /// boxes (see `search_missed`); and the pairs the boxes grown to that make.
    escaped: Vec<(usize, f64, Aabb)>,
    missed: Vec<(u32, u32)>,
    /// Row pairs that never collide (joined by a joint that says so, or set apart), sorted.
    apart: Vec<(u32, u32)>,
    /// Each body's collision filter by row, when any differs from the default.
    filters: Vec<Filter>,
    /// Candidate pairs with a sensor (rows), kept apart from the contacts.
    sensor_pairs: Vec<(u32, u32)>,
    sensing: Vec<(u64, u64)>,
    crossings: Vec<(bool, f64)>,
    sensor_query: SensorQuery,
    pair_contacts: PairContacts,
    /// Bodies with an applied load this step, by row.
    loaded: Vec<bool>,
    /// Joints and springs as rows, for the islands.
    links: Vec<(usize, Option<usize>)>,
    correction: CorrectionBuffers,
    /// Each body's radius if it is a sphere, else 0.
    radii: Vec<f64>,
}

/// Everything a step reads that a script or a file sets: a snapshot is a copy of it and a
/// scene file is written from it and read into it, so a field added here is kept by both (their
/// code takes it apart field by field, and the compiler names the one they forget). A plain
/// record: a world is made of one only through `World::from_state`, which checks it whole.
#[derive(Clone)]
pub struct WorldState {
    pub settings: Settings,
    pub bodies: BodySet,
    /// Time is base_time + steps_since_base * dt, so it does not accumulate rounding.
    pub base_time: f64,
    pub steps_since_base: u64,
    /// Time asked for and not stepped yet, and the time scale (clock.rs).
    pub clock: Clock,
    /// Next body id (never reused).
    pub next_id: u64,
    /// Next handle number for loads, springs and joints (never reused).
    pub next_handle: u64,
    /// The contact manifolds with their warm-start impulses.
    pub contacts: ContactSet,
    /// Per-pair material overrides keyed by the two body ids (smaller first).
    pub pair_materials: HashMap<(u64, u64), Material>,
    /// Pairs of bodies that never collide, by their ids (smaller first).
    pub apart: BTreeSet<(u64, u64)>,
    /// Pairs whose contact was refused (contact_decisions.rs): they pass through each other
    /// while they stay in contact. By ids, smaller first.
    pub passing: BTreeSet<(u64, u64)>,
    pub loads: Vec<AppliedLoad>,
    pub springs: Vec<Spring>,
    pub joints: Vec<Joint>,
}

impl WorldState {
    /// Simulated time (s).
    pub fn time(&self) -> f64 {
        self.base_time + self.steps_since_base as f64 * self.settings.dt
    }

    /// An empty state: no bodies, time zero.
    pub fn new(settings: Settings) -> WorldState {
        WorldState {
            settings,
            bodies: BodySet::default(),
            base_time: 0.0,
            steps_since_base: 0,
            clock: Clock::default(),
            next_id: 0,
            next_handle: 0,
            contacts: ContactSet::default(),
            pair_materials: HashMap::new(),
            apart: BTreeSet::new(),
            passing: BTreeSet::new(),
            loads: Vec::new(),
            springs: Vec::new(),
            joints: Vec::new(),
        }
    }
}

/// A world of rigid bodies.
pub struct World {
    pub(crate) state: WorldState,
    /// Begin and end events not yet read.
    pub events: ContactEvents,
    /// Told after each step (recordings being filled).
    observers: Vec<SharedObserver>,
    /// Counts changes to what the world holds (bodies, their kinds and colours, springs and
    /// joints), so a viewer knows when to reload the scene rather than only the state.
    pub(crate) revision: u64,
    /// Whether the last step's state arrays still hold every body's state (no edit since).
    state_current: bool,
    broad_phase: BroadPhase,
    integrator: Integrator,
    constraints: VelocitySolver,
    islands: Islands,
    scratch: Scratch,
    /// When each stage of the last step ended (None after a step at rest).
    laps: Option<Laps>,
    /// The threads the narrow phase may use (results are the same on any number): by default
    /// the shared pool's, where it pays (see `Threads::splits`).
    pub(crate) threads: Threads,
    /// Whether the last step split its narrow phase over the threads: the next is taken on
    /// one of them (see `step`).
    split_narrow_phase: bool,
    /// Whether the last step's contacts were enough for the contact solver's sweeps to be
    /// split over the shared pool's threads: the next is taken on one of them too.
    split_solver: bool,
    /// Pairs the broad phase passed to the narrow phase in the last step.
    candidate_pairs: usize,
    /// Whether the contacts pairs begin wait for an answer (contact_decisions.rs).
    pub(crate) asks: bool,
    /// The coming step's first stages, run ahead to ask about the contacts they begin.
    pub(crate) staged: Option<Staged>,
    /// The broad phase's search of the step's contacts (see `Search`).
    pub(crate) searched: Search,
    /// Answers for the coming step.
    pub(crate) decided: Decisions,
    /// Snapshots of the recent past for `rewind` (history.rs), when asked for.
    pub(crate) history: Option<History>,
}

impl Default for World {
    fn default() -> Self {
        World::new(Settings::default())
    }
}

impl World {
    /// A world with the given settings, taken as they are: the `World` setters check values
    /// that come from users.
    pub fn new(settings: Settings) -> World {
        World {
            integrator: Integrator::new(settings.integrator),
            state: WorldState::new(settings),
            events: ContactEvents::default(),
            observers: Vec::new(),
            revision: 0,
            state_current: false,
            broad_phase: BroadPhase::default(),
            candidate_pairs: 0,
            constraints: VelocitySolver::default(),
            islands: Islands::default(),
            scratch: Scratch::default(),
            laps: None,
            threads: Threads::Shared,
            split_narrow_phase: false,
            split_solver: false,
            asks: false,
            staged: None,
            searched: Search::Near,
            decided: Decisions::default(),
            history: None,
        }
    }

    pub fn settings(&self) -> &Settings {
        &self.state.settings
    }

    /// The world's state (what a snapshot copies and a scene file holds).
    pub fn state(&self) -> &WorldState {
        &self.state
    }

    /// Simulated time (s).
    pub fn time(&self) -> f64 {
        self.state.time()
    }

    pub fn bodies(&self) -> &BodySet {
        &self.state.bodies
    }

    /// This step's contact manifolds.
    pub fn manifolds(&self) -> &[Manifold] {
        &self.state.contacts.manifolds
    }

    /// Tells `observer` after every step from now on, until it says it is done or nobody else
    /// holds it.
    pub fn observe(&mut self, observer: SharedObserver) {
        self.observers.push(observer);
    }

    /// Tells the observers of the step just taken; forgets finished or unread ones.
    pub(crate) fn notify_observers(&mut self) {
        if self.observers.is_empty() {
            return;
        }
        let mut observers = std::mem::take(&mut self.observers);
        observers.retain(|o| {
            std::sync::Arc::strong_count(o) > 1 && o.lock().is_ok_and(|mut o| o.after_step(self))
        });
        self.observers = observers;
    }

    /// How many candidate pairs the broad phase passed to the narrow phase in the last step.
    pub fn candidate_pair_count(&self) -> usize {
        self.scratch.pairs.len()
    }

    /// See the `revision` field.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Notes that what the world holds (not only its state) changed, so a viewer showing it
    /// reloads the scene.
    pub(crate) fn content_changed(&mut self) {
        self.revision += 1;
        self.edited();
    }

    /// Any edit of bodies or settings: wakes every body, and the state arrays no longer hold
    /// the bodies' state.
    pub(crate) fn edited(&mut self) {
        self.history_edited();
        self.unstage();
        self.wake_all();
        self.state_current = false;
    }

    /// Shows a moment of another world in this one (a frame of a replay, or of a script's
    /// stream): `place` puts the bodies where they were then, and the clock reads `time`.
    /// Nothing is checked or woken and the revision stays: a picture, not an edit.
    pub fn show_moment(&mut self, time: f64, place: impl FnOnce(&mut [crate::body::Body])) {
        self.unstage();
        place(self.state.bodies.bodies_mut());
        self.state.base_time = time;
        self.state.steps_since_base = 0;
        self.state_current = false;
    }

    /// The whole state as contiguous arrays in row order (positions, orientations, velocities,
    /// angular velocities), when the last step left them and nothing was edited since: a copy
    /// of them is the fastest export there is. None otherwise (read the bodies then).
    pub fn state_arrays(&self) -> Option<&State> {
        let s = &self.scratch.end;
        (self.state_current && s.len() == self.state.bodies.len()).then_some(s)
    }

    /// Wakes every sleeping body: any edit of the world does, so nothing a script changes is
    /// missed by a body that sleeps.
    pub fn wake_all(&mut self) {
        self.state.bodies.wake_all();
    }

    pub(crate) fn bodies_changed(&mut self) {
        self.content_changed();
        self.broad_phase.invalidate();
    }

    /// Advances the world by `n` steps.
    /// Steps n times, stopping at the first step that fails (see `step`).
    pub fn step_n(&mut self, n: u64) -> Result<()> {
        for _ in 0..n {
            self.step()?;
        }
        Ok(())
    }

    /// Advances the world by one step of length dt. A step whose result would take a body out
    /// of the ranges the engine simulates (limits.rs) is not taken: the error names the body,
    /// and the bodies and the time stay as they were.
    pub fn step(&mut self) -> Result<()> {
        // A world whose narrow phase runs on threads takes the whole step on one of them: the
        // parallel stage then splits its work from a thread of the pool, which works on it too,
        // instead of handing it over from outside and waiting (measured on 2 cores: one thread
        // did all of the narrow phase that way, slower than the caller alone). A step that
        // splits nothing stays on the calling thread: handing it over costs some 20 us.
        match &self.threads {
            Threads::Pool(pool) if pool.current_thread_index().is_none() => {
                let pool = pool.clone();
                pool.install(|| self.step_here())
            }
            Threads::Shared
                if (self.split_narrow_phase || self.split_solver)
                    && rayon::current_thread_index().is_none() =>
            {
                rayon::scope(|_| self.step_here())
            }
            _ => self.step_here(),
        }
    }

    /// One step on the calling thread (see `step`).
    fn step_here(&mut self) -> Result<()> {
        let mut laps = Laps::start();
        if self.staged.is_none() {
            self.check_start()?;
            if self.at_rest() {
                self.keep_history();
                self.rest_step();
                return Ok(());
            }
            self.stage(&mut laps);
        }
        // What the decisions change, kept in case the stages are run again (see below).
        let passing = (self.searched != Search::Wide).then(|| self.state.passing.clone());
        self.solve_staged(|stage| laps.lap(stage))?;
        // Impacts or the solve may take a sphere further than its box was grown by, to a body
        // it was not paired with: the step is taken again from its broad phase, searching twice
        // as far as that sphere went, and if that misses too, as far for every sphere as the
        // fastest body goes (counted in the solve's time). In a world that asks, a contact
        // only the wider search begins waits for its answer like any other: the step fails
        // until it has one, and then goes on from that search.
        if let Some(passing) = passing {
            for &search in self.searched.wider() {
                if !self.search_missed() {
                    break;
                }
                self.search_again(search, &passing)?;
            }
        }
        self.decided.clear();
        self.cap_speeds();
        laps.lap(Stage::Solve);
        self.correct_positions();
        laps.lap(Stage::Correct);
        let end = &self.scratch.end;
        let ended = (0..end.x.len()).map(|i| (end.x[i], end.q[i], end.v[i], end.w[i]));
        if let Err(e) = self.check_state(ended) {
            // The step's arrays hold the rejected state, not the bodies'.
            self.state_current = false;
            return Err(e);
        }
        self.finish_step();
        laps.lap(Stage::Finish);
        self.fall_asleep();
        laps.lap(Stage::Sleep);
        self.laps = Some(laps);
        Ok(())
    }

    /// The step's stages from the broad phase to the velocity solve, taken again with the
    /// broad phase's `search`, from last step's contacts and the pairs then `passing` through
    /// each other.
    fn search_again(&mut self, search: Search, passing: &BTreeSet<(u64, u64)>) -> Result<()> {
        self.state.contacts.undo_begin();
        self.state.passing.clone_from(passing);
        self.searched = search;
        self.find_candidate_pairs(search);
        self.stage_contacts();
        self.solve_staged(|_| {})
    }

    /// The staged contacts with their answers applied, and the step's velocities solved from
    /// the bodies' state (`lap` marks where the narrow phase and the integration end).
    fn solve_staged(&mut self, mut lap: impl FnMut(Stage)) -> Result<()> {
        self.apply_decisions()?;
        self.wake_touched();
        lap(Stage::NarrowPhase);
        self.gather_state();
        self.integrate_smooth_forces(false)?;
        lap(Stage::Integrate);
        self.solve_velocity_constraints();
        Ok(())
    }

    /// The search a step begins with (see `find_candidate_pairs`): the wide one in a world
    /// with joints, whose solve keeps what it found for the next step and so cannot be taken
    /// again. Elsewhere a sphere is searched for as any body is, and the step is taken again
    /// with a wider search when that missed (see `search_missed`): a landing pile's spheres
    /// would otherwise each search as far as the fastest body falls in a step (on 1 000
    /// spheres landing at up to 12 m/s, 25 000 candidate pairs instead of 6 000, and a step
    /// 1.8 times as long).
    pub(crate) fn first_search(&self) -> Search {
        if self.state.joints.is_empty() {
            Search::Near
        } else {
            Search::Wide
        }
    }

    /// Whether the step took a sphere further from where it started than its box was grown
    /// by for the broad phase, at one of its impacts or at the end, to where its box then
    /// overlaps a body's that it was not paired with, and (when that body is a ball) to
    /// within reach of it: it may have met that body unseen. Between those corners its path is
    /// straight but for what the smooth forces bend it, by no more than gravity's fall in a
    /// step. In a landing pile the resting solve and the impacts push some spheres past their
    /// boxes every few steps, mostly into bodies they are paired with: on 1 000 and 4 000
    /// spheres dropped into the bin, 3 and 4 of 500 steps are taken again (20 and 61 when
    /// the boxes alone decided).
    fn search_missed(&mut self) -> bool {
        let dt = self.state.settings.dt;
        let fall = 0.5 * self.state.settings.gravity.length() * dt * dt;
        let bodies = self.state.bodies.bodies();
        let sc = &mut self.scratch;
        sc.escaped.clear();
        for (i, reach) in self.constraints.impact_reaches().enumerate() {
            if !matches!(bodies[i].shape, Shape::Sphere { .. }) {
                continue;
            }
            let path = reach.max((sc.end.x[i] - sc.start.x[i]).length()) + fall;
            if path > sc.margins[i] {
                sc.escaped.push((i, path, sc.boxes[i]));
                sc.boxes[i] = sc.boxes[i].fattened(path - sc.margins[i]);
            }
        }
        if sc.escaped.is_empty() {
            return false;
        }
        let mut reached = std::mem::take(&mut sc.missed);
        overlapping_pairs(
            &mut self.broad_phase,
            (bodies, &sc.filters),
            (&sc.boxes, &sc.margins),
            self.threads.split_threads(),
            &mut reached,
        );
        drop_pressed_pairs(&mut reached, &sc.boxes, &sc.pressed, bodies);
        for &(i, _, b) in &sc.escaped {
            sc.boxes[i] = b;
        }
        // How far an escaped sphere went from where it started the step (rows ascending); any
        // other sphere went no further than its box was grown by.
        let went = |r: u32| match sc.escaped.binary_search_by_key(&(r as usize), |e| e.0) {
            Ok(k) => Some(sc.escaped[k].1),
            Err(_) => None,
        };
        // Two balls that stayed within their reach of where they started cannot have met if
        // their centres started further apart than their radii and reaches together: a
        // closer test than their boxes' (whose corners reach further).
        let out_of_reach =
            |a: u32, b: u32| match (&bodies[a as usize].shape, &bodies[b as usize].shape) {
                (Shape::Sphere { radius: ra }, Shape::Sphere { radius: rb }) => {
                    let reach = |r: u32| went(r).unwrap_or(sc.margins[r as usize]);
                    let d = (sc.start.x[a as usize] - sc.start.x[b as usize]).length();
                    d > ra + rb + reach(a) + reach(b)
                }
                _ => false,
            };
        let sensor = |r: u32| bodies[r as usize].sensor;
        let missed = reached.iter().any(|&p| {
            (went(p.0).is_some() || went(p.1).is_some())
                && !sensor(p.0)
                && !sensor(p.1)
                && sc.pairs.binary_search(&p).is_err()
                && sc.apart.binary_search(&p).is_err()
                && !out_of_reach(p.0, p.1)
        });
        sc.missed = reached;
        missed
    }

    /// Checks the bodies' state before a step.
    pub(crate) fn check_start(&self) -> Result<()> {
        self.check_state(
            self.state
                .bodies
                .bodies()
                .iter()
                .map(|b| (b.position, b.orientation, b.velocity, b.angular_velocity)),
        )
    }

    /// Checks each body's (position, orientation, velocity, angular velocity), in row order,
    /// against the ranges the engine simulates.
    fn check_state(
        &self,
        states: impl Iterator<Item = (DVec3, DQuat, DVec3, DVec3)>,
    ) -> Result<()> {
        use crate::limits::{ANGULAR_SPEED, COORDINATE, SPEED};
        for (body, (x, q, v, w)) in self.state.bodies.bodies().iter().zip(states) {
            let bad = if !(x.is_finite() && x.abs().max_element() <= COORDINATE) {
                Some(("position", format!("{:?}", x.to_array())))
            } else if !q.is_finite() {
                Some(("orientation", format!("{:?}", q.to_array())))
            } else if !(v.is_finite() && v.length() <= SPEED) {
                Some(("velocity", format!("{:?}", v.to_array())))
            } else if !(w.is_finite() && w.length() <= ANGULAR_SPEED) {
                Some(("angular velocity", format!("{:?}", w.to_array())))
            } else {
                None
            };
            if let Some((quantity, value)) = bad {
                return Err(Error::Diverged {
                    body: match &body.name {
                        Some(n) => format!("body {} '{n}'", body.id),
                        None => format!("body {}", body.id),
                    },
                    quantity,
                    value,
                    time: self.time(),
                });
            }
        }
        Ok(())
    }

    /// Velocity-solver iterations the last step ran (at most `solver_iterations`, twice that
    /// when static friction let go of a contact; fewer once converged, see `solver_tolerance`).
    pub fn solver_iterations_done(&self) -> u32 {
        self.constraints.iterations_done()
    }

    /// How many pairs of bodies the broad phase passed to the narrow phase in the last step
    /// (pairs whose boxes overlap, less those filtered out or set apart).
    pub fn candidate_pairs(&self) -> usize {
        self.candidate_pairs
    }

    /// Where the last step's time went, stage by stage.
    pub fn step_times(&self) -> StepTimes {
        self.laps
            .map_or_else(StepTimes::default, |laps| laps.times())
    }

    /// Where the last step's velocity solve (`Stage::Solve`) spent its time, part by part:
    /// zeros when the step solved nothing. A step taken again after a search that missed (see
    /// `step`) solves twice; these are the last solve's.
    pub fn solve_times(&self) -> SolveTimes {
        self.constraints.times()
    }

    /// Whether nothing can move this step: every dynamic body sleeps, no kinematic body moves
    /// and no load acts (a sleeping world, or one of static bodies only).
    pub(crate) fn at_rest(&self) -> bool {
        self.state.loads.is_empty() && !self.state.bodies.bodies().iter().any(Islands::stirs)
    }

    /// A step of a world at rest: all the stages would leave every body, contact and event as
    /// they are, so it only advances time and records.
    fn rest_step(&mut self) {
        self.laps = None;
        self.constraints.clear();
        self.state.steps_since_base += 1;
        self.notify_observers();
    }

    /// Copies the bodies' state, masses and this step's loads into the step's arrays.
    pub(crate) fn gather_state(&mut self) {
        let sc = &mut self.scratch;
        let bodies = self.state.bodies.bodies();
        let n = bodies.len();
        sc.start.resize(n);
        sc.params.clear();
        sc.masses.clear();
        sc.radii.clear();
        sc.radii.extend(bodies.iter().map(|b| {
            if let Shape::Sphere { radius } = b.shape {
                radius
            } else {
                0.0
            }
        }));
        for (i, b) in bodies.iter().enumerate() {
            sc.start.x[i] = b.position;
            sc.start.q[i] = b.orientation;
            sc.start.v[i] = b.velocity;
            sc.start.w[i] = b.angular_velocity;
            // A sleeping body is held where it is, like a static one.
            let (inv_mass, inv_inertia_body) = if b.sleep.asleep {
                (0.0, DMat3::ZERO)
            } else {
                (b.inv_mass(), b.inv_inertia_body())
            };
            sc.params.push(ForceParams {
                dynamic: b.is_awake(),
                inv_mass,
                inertia_body: b.shape_inertia,
                inv_inertia_body,
                linear_damping: b.linear_damping,
                quadratic_drag: b.quadratic_drag,
                angular_damping: b.angular_damping,
                gravity_scale: b.gravity_scale,
            });
            sc.masses.push(BodyMass {
                inv_mass,
                inv_inertia_body,
            });
        }
        let dt = self.state.settings.dt;
        sc.loads.clear();
        for l in &self.state.loads {
            if let Some(row) = self.state.bodies.dense_index(l.body) {
                let share = l.share_of_step(dt);
                sc.loads.push(Load {
                    row,
                    force: l.force * share,
                    local_point: l.local_point,
                    torque: l.torque * share,
                });
            }
        }
        sc.springs.clear();
        for sp in &self.state.springs {
            let (Some(a), b) = (
                self.state.bodies.dense_index(sp.a),
                sp.b.map(|b| self.state.bodies.dense_index(b)),
            ) else {
                continue;
            };
            let b = match b {
                Some(None) => continue,
                Some(Some(row)) => Some(row),
                None => None,
            };
            sc.springs.push(SpringRow {
                a,
                b,
                anchor_a: sp.anchor_a,
                anchor_b: sp.anchor_b,
                stiffness: sp.stiffness,
                damping: sp.damping,
                rest_length: sp.rest_length,
            });
        }
    }

    /// Broad phase: bounding boxes grown by how far each body can move this step, and the
    /// pairs whose boxes overlap (at least one body dynamic). A body can also be struck within
    /// the step and set moving, up to about as fast as its striker (an elastic ball struck by
    /// a much heavier one leaves at twice the striker's speed, which the two margins of a pair
    /// cover together), so its box grows by what its strikers move in a step when that is more
    /// than it moves itself: an impact that one impact sets up across a gap within the step
    /// then has its pair. A body's strikers are those whose boxes its own overlaps: the boxes
    /// are found twice, the second time grown by the neighbours the first found. (Without
    /// this, a box resting a millimetre below another that is struck from above meets it a
    /// step late, a step's fall deep.) A sphere's impacts are followed exactly through the
    /// step, along chains of any length (a cradle, a cannon): `search` says how far its
    /// strikers are looked for (see `Search`).
    pub(crate) fn find_candidate_pairs(&mut self, search: Search) {
        let dt = self.state.settings.dt;
        let g = self.state.settings.gravity.length();
        let slop = self.state.settings.linear_slop;
        let sc = &mut self.scratch;
        let bodies = self.state.bodies.bodies();
        sc.boxes.clear();
        sc.margins.clear();
        sc.speeds.clear();
        sc.speeds.extend(bodies.iter().map(|b| {
            if b.kind == BodyKind::Static {
                return 0.0;
            }
            let spin = if b.shape.bounding_radius().is_finite() {
                b.angular_velocity.length() * b.shape.bounding_radius()
            } else {
                0.0
            };
            b.velocity.length() + spin
        }));
        // Sensors strike nothing; sleeping bodies are still.
        let strikes = |b: &crate::body::Body| !b.sensor && b.is_awake();
        // Only the wide search reads it.
        let fastest = match search {
            Search::Wide => bodies
                .iter()
                .zip(&sc.speeds)
                .filter(|(b, _)| strikes(b))
                .map(|(_, &v)| v)
                .fold(0.0, f64::max),
            _ => 0.0,
        };
        // Position correction may move a body by as much as it overlaps its neighbours (its
        // leash, position_correction.rs): so far are its contacts with what cannot move
        // searched (`PairInputs::pressed`), or a body pressed deep into a heap could be pushed
        // blind through a wall beyond its margin. Between two bodies that can move, the next
        // step's search finds what the correction brought together, as ever.
        sc.pressed.clear();
        sc.pressed.resize(bodies.len(), 0.0);
        deepest_overlaps(&self.state.contacts.manifolds, &mut sc.pressed);
        let margin = |speed: f64| speed * dt + g * dt * dt + slop;
        if search == Search::Grown {
            // A sphere the last try took beyond its box is searched for as if it moved twice
            // as far as it went (the step taken again need not take it the same way), and its
            // neighbours' boxes grow by as much, as those of any fast body's do (below).
            for &(i, went, _) in &sc.escaped {
                sc.speeds[i] = sc.speeds[i].max(2.0 * went / dt);
            }
        }
        for (b, (&speed, &pressed)) in bodies.iter().zip(sc.speeds.iter().zip(&sc.pressed)) {
            let m = match (b.kind, &b.shape, search) {
                (BodyKind::Static, ..) => slop,
                (_, Shape::Sphere { .. }, Search::Wide) => margin(speed.max(fastest)),
                _ => margin(speed),
            };
            sc.margins.push(m);
            sc.boxes.push(
                b.shape
                    .aabb(b.position, b.orientation)
                    .fattened(m + pressed),
            );
        }
        // One look over the bodies for what most worlds have none of: filters and sensors.
        let (mut filtered, mut sensing) = (false, false);
        for b in bodies {
            filtered |= !b.filter.is_default();
            sensing |= b.sensor;
        }
        sc.filters.clear();
        if filtered {
            sc.filters.extend(bodies.iter().map(|b| b.filter));
        }
        let broad_phase = &mut self.broad_phase;
        let threads = self.threads.split_threads();
        let mut find = |boxes: &[Aabb], margins: &[f64], pairs: &mut Vec<(u32, u32)>| {
            let of = (bodies, &sc.filters[..]);
            overlapping_pairs(broad_phase, of, (boxes, margins), threads, pairs);
            drop_pressed_pairs(pairs, boxes, &sc.pressed, bodies);
        };
        find(&sc.boxes, &sc.margins, &mut sc.pairs);
        sc.struck.clear();
        sc.struck.resize(bodies.len(), 0.0);
        for &(i, j) in &sc.pairs {
            let (i, j) = (i as usize, j as usize);
            if strikes(&bodies[j]) {
                sc.struck[i] = sc.struck[i].max(sc.speeds[j]);
            }
            if strikes(&bodies[i]) {
                sc.struck[j] = sc.struck[j].max(sc.speeds[i]);
            }
        }
        let mut grown = false;
        for (i, b) in bodies.iter().enumerate() {
            let movable = b.kind != BodyKind::Static && !b.sensor;
            let followed = search == Search::Wide && matches!(b.shape, Shape::Sphere { .. });
            if movable && !followed && sc.struck[i] > sc.speeds[i] {
                let before = sc.margins[i];
                sc.margins[i] = margin(sc.struck[i]);
                sc.boxes[i] = b
                    .shape
                    .aabb(b.position, b.orientation)
                    .fattened(sc.margins[i] + sc.pressed[i]);
                grown |= sc.margins[i] - before > SEARCHED_GROWTH * slop;
            }
        }
        if grown {
            find(&sc.boxes, &sc.margins, &mut sc.pairs);
        }
        // Bodies joined by a joint do not collide unless the joint says so, nor do pairs set
        // apart.
        let rows = |a, b| {
            let (a, b) = (
                self.state.bodies.dense_index(a)?,
                self.state.bodies.dense_index(b)?,
            );
            Some((a.min(b) as u32, a.max(b) as u32))
        };
        sc.apart.clear();
        sc.apart.extend(
            self.state
                .joints
                .iter()
                .filter(|j| !j.collide)
                .filter_map(|j| rows(j.a, j.b?)),
        );
        if !self.state.apart.is_empty() {
            let row_of: HashMap<u64, u32> = bodies
                .iter()
                .enumerate()
                .map(|(i, b)| (b.id, i as u32))
                .collect();
            sc.apart
                .extend(self.state.apart.iter().filter_map(|(a, b)| {
                    let (a, b) = (*row_of.get(a)?, *row_of.get(b)?);
                    Some((a.min(b), a.max(b)))
                }));
        }
        if !sc.apart.is_empty() {
            sc.apart.sort_unstable();
            let apart = &sc.apart;
            sc.pairs.retain(|p| apart.binary_search(p).is_err());
        }
        // A sensor's pairs are sensed, not collided (two sensors do not sense each other).
        sc.sensor_pairs.clear();
        if sensing {
            let sensor = |r: u32| bodies[r as usize].sensor;
            sc.sensor_pairs.extend(
                sc.pairs
                    .iter()
                    .filter(|&&(a, b)| sensor(a) != sensor(b))
                    .copied(),
            );
            sc.pairs.retain(|&(a, b)| !sensor(a) && !sensor(b));
        }
        self.candidate_pairs = sc.pairs.len() + sc.sensor_pairs.len();
    }

    /// Which bodies overlap each sensor at the step's end, and when within the step each one
    /// entered or left (sensors.rs), as events.
    fn sense(&mut self, start_time: f64) {
        let sc = &mut self.scratch;
        let bodies = self.state.bodies.bodies();
        let events = &mut self.events;
        if sc.sensor_pairs.is_empty() && events.sensing.is_empty() {
            return;
        }
        let dt = self.state.settings.dt;
        let path = |row: usize| Path {
            x0: sc.start.x[row],
            q0: sc.start.q[row],
            v0: sc.start.v[row],
            x1: sc.end.x[row],
            q1: sc.end.q[row],
        };
        sc.sensing.clear();
        for &(i, j) in &sc.sensor_pairs {
            let (s, b) = if bodies[i as usize].sensor {
                (i as usize, j as usize)
            } else {
                (j as usize, i as usize)
            };
            let key = (bodies[s].id, bodies[b].id);
            let was = events.sensing.binary_search(&key).is_ok();
            let inside = sc.sensor_query.crossings(
                (&bodies[s], &path(s)),
                (&bodies[b], &path(b)),
                was,
                dt,
                &mut sc.crossings,
            );
            for &(begin, t) in &sc.crossings {
                events.sensed(key.0, key.1, begin, start_time + t);
            }
            if inside {
                sc.sensing.push(key);
            }
        }
        sc.sensing.sort_unstable();
        // A pair the broad phase did not pass on stays as it was while neither body moves (both
        // asleep or still); otherwise they are apart (moved away by a script), or a body is gone.
        let row_of = |id: u64| bodies.iter().position(|b| b.id == id);
        for k in 0..events.sensing.len() {
            let key = events.sensing[k];
            if sc.sensing.binary_search(&key).is_ok() {
                continue;
            }
            let (Some(s), Some(b)) = (row_of(key.0), row_of(key.1)) else {
                continue;
            };
            let examined = sc
                .sensor_pairs
                .iter()
                .any(|&(i, j)| (i as usize, j as usize) == (s.min(b), s.max(b)));
            if !examined && !bodies[s].is_awake() && !bodies[b].is_awake() {
                sc.sensing.push(key);
            } else if !examined {
                events.sensed(key.0, key.1, false, start_time);
            }
        }
        sc.sensing.sort_unstable();
        std::mem::swap(&mut events.sensing, &mut sc.sensing);
    }

    /// Narrow phase: the manifold of each candidate pair, matched to last step's. Notes in
    /// `staged` the pairs it begins (in a world that asks) and the refused pairs still in
    /// contact, whose manifolds it drops.
    pub(crate) fn update_manifolds(&mut self, staged: &mut Staged) {
        self.state.contacts.begin_step();
        let bodies = self.state.bodies.bodies();
        // A sleeping body's contacts with bodies that are not awake stay as they were.
        self.state.contacts.keep_previous(|m| {
            !bodies[m.row_a].is_awake()
                && !bodies[m.row_b].is_awake()
                && (bodies[m.row_a].sleep.asleep || bodies[m.row_b].sleep.asleep)
        });
        let contacts = &mut self.state.contacts;
        let sc = &mut self.scratch;
        let inputs = PairInputs {
            bodies,
            handles: self.state.bodies.handles(),
            margins: &sc.margins,
            pressed: &sc.pressed,
            last: &contacts.last,
            refresh_tolerance: 0.5 * self.state.settings.linear_slop,
            match_distance: MATCH_DISTANCE,
            materials: &self.state.settings.materials,
            pair_materials: &self.state.pair_materials,
            passing: &self.state.passing,
            asks: self.asks,
        };
        // The lists are lent to the narrow phase, which adds to them.
        let mut found = Found {
            manifolds: std::mem::take(&mut contacts.manifolds),
            new: std::mem::take(&mut staged.new),
            still_passing: std::mem::take(&mut staged.still_passing),
        };
        // Awake 3D polyhedra and capsules: their pairs are the costly ones to find.
        let costly = || {
            bodies
                .iter()
                .filter(|b| {
                    b.is_awake()
                        && !b.planar
                        && matches!(
                            b.shape.kind(),
                            ShapeKind::Box | ShapeKind::Convex | ShapeKind::Capsule
                        )
                })
                .count()
        };
        let split = self
            .threads
            .splits(sc.pairs.len(), contacts.last.count(), costly);
        self.split_narrow_phase = split;
        let threads = (&self.threads, split);
        sc.pair_contacts
            .find(&sc.pairs, inputs, threads, &mut found);
        contacts.manifolds = found.manifolds;
        staged.new = found.new;
        staged.still_passing = found.still_passing;
    }

    /// Sleeping islands that awake bodies touch wake up and take part in this step.
    fn wake_touched(&mut self) {
        self.islands.wake_touched(
            self.state.bodies.bodies_mut(),
            &self.state.contacts.manifolds,
        );
    }

    /// Islands that have rested long enough on something fall asleep.
    fn fall_asleep(&mut self) {
        if !self.state.settings.sleeping {
            return;
        }
        let sc = &mut self.scratch;
        sc.loaded.clear();
        sc.loaded.resize(self.state.bodies.len(), false);
        for l in &sc.loads {
            sc.loaded[l.row] = true;
        }
        let bodies = &self.state.bodies;
        // Joints keep their bodies awake (a pendulum swings however slowly); springs join
        // their bodies' islands.
        let row = |h| {
            bodies
                .dense_index(h)
                .expect("links of removed bodies are removed with them")
        };
        let joints = self.state.joints.iter().flat_map(|j| {
            [(row(j.a), None)]
                .into_iter()
                .chain(j.b.map(|b| (row(b), None)))
        });
        let springs = sc.springs.iter().map(|s| (s.a, s.b));
        sc.links.clear();
        sc.links.extend(joints.chain(springs));
        if self.islands.update(
            self.state.bodies.bodies_mut(),
            &self.state.contacts.manifolds,
            &sc.links,
            &sc.loaded,
            self.state.settings.dt,
            self.state.settings.linear_slop,
        ) {
            // Their velocities were zeroed: the state arrays no longer match.
            self.state_current = false;
        }
    }

    /// Stage 3: the smooth forces (gravity, springs, drag, loads) with the world's integrator,
    /// into the step's end arrays; `back` takes the step back instead (reversal.rs): the state
    /// whose step is the bodies'.
    pub(crate) fn integrate_smooth_forces(&mut self, back: bool) -> Result<()> {
        let t = self.time();
        let sc = &mut self.scratch;
        let forces = SmoothForces {
            gravity: self.state.settings.gravity,
            params: &sc.params,
            loads: &sc.loads,
            springs: &sc.springs,
        };
        self.integrator.kind = self.state.settings.integrator;
        let dt = self.state.settings.dt;
        if back {
            return self
                .integrator
                .step_back(&forces, t, dt, &sc.start, &mut sc.end);
        }
        self.integrator.step(&forces, t, dt, &sc.start, &mut sc.end);
        Ok(())
    }

    /// Contact and joint impulses (the schedule is dynamics/velocity_solve.rs's), then the
    /// constrained bodies moved by them.
    fn solve_velocity_constraints(&mut self) {
        let settings = &self.state.settings;
        let set = SolverSettings {
            dt: settings.dt,
            iterations: settings.solver_iterations,
            restitution_threshold: settings.restitution_threshold,
            tolerance: settings.solver_tolerance,
            position_weight: settings.integrator.position_weight(),
            touching: settings.linear_slop,
            down: settings.gravity.normalize_or_zero(),
            planar: settings.planar,
            threads: self.threads.split_threads(),
        };
        let sc = &mut self.scratch;
        let bodies = &self.state.bodies;
        let row = |h| {
            bodies
                .dense_index(h)
                .expect("joints of removed bodies are removed with them")
        };
        sc.joint_rows.clear();
        sc.joint_rows
            .extend(self.state.joints.iter().map(|j| (row(j.a), j.b.map(row))));
        self.constraints.solve(
            Constraints {
                manifolds: &mut self.state.contacts.manifolds,
                joints: &mut self.state.joints,
                joint_rows: &sc.joint_rows,
            },
            Step {
                start: &sc.start,
                end: &mut sc.end,
                masses: &sc.masses,
                radii: &sc.radii,
                bodies: bodies.bodies(),
            },
            &set,
        );
        self.split_solver = self
            .constraints
            .contacts_split(rayon::current_num_threads());
    }

    /// Slows the dynamic bodies that are faster than their speed caps to them (speed_caps.rs).
    /// The slowing acts like an impulse through the step: the body's end pose moves back by
    /// the velocity taken away times the integrator's reach (`position_weight` dt), so a body
    /// held at its cap moves by the cap times dt each step.
    fn cap_speeds(&mut self) {
        let reach = self.state.settings.integrator.position_weight() * self.state.settings.dt;
        let end = &mut self.scratch.end;
        for (i, b) in self.state.bodies.bodies().iter().enumerate() {
            if b.kind != BodyKind::Dynamic || b.caps.is_none() {
                continue;
            }
            let (v, w) = b.caps.apply(end.v[i], end.w[i]);
            end.x[i] -= (end.v[i] - v) * reach;
            let turn = (end.w[i] - w) * -reach;
            if turn != DVec3::ZERO {
                end.q[i] = integrate_orientation_exact(end.q[i], turn, 1.0);
            }
            (end.v[i], end.w[i]) = (v, w);
        }
    }

    /// Moves penetrating bodies apart without changing velocities.
    fn correct_positions(&mut self) {
        if self.state.contacts.manifolds.is_empty() {
            return;
        }
        let settings = &self.state.settings;
        // As for the solve's last pass (velocity_solve.rs): not with joints, which the stage
        // does not see, nor in a world that asked for every iteration and no more.
        let lifts = self.state.joints.is_empty() && settings.solver_tolerance > 0.0;
        let set = CorrectionSettings {
            iterations: settings.position_iterations,
            slop: settings.linear_slop,
            factor: CORRECTION_FACTOR,
            max_correction: MAX_CORRECTION,
            up: if lifts {
                -settings.gravity.normalize_or_zero()
            } else {
                DVec3::ZERO
            },
            threads: self.threads.split_threads(),
        };
        self.leashes();
        let sc = &mut self.scratch;
        let view = CorrectedBodies {
            masses: &sc.masses,
            radii: &sc.radii,
            bodies: self.state.bodies.bodies(),
            leash: &sc.leash,
        };
        correct_positions(
            &self.state.contacts.manifolds,
            view,
            &mut sc.end,
            &set,
            &mut sc.correction,
        );
    }

    /// How far position correction may move each body from where the step leaves it
    /// (`Scratch::leash`): as far as its contacts were searched (its margin), or as deep as it
    /// overlaps another now, so that one placed deep inside another is parted. Its contacts with
    /// what cannot move were searched only as far as its margin and last step's deepest overlap,
    /// though, and it may lie deeper now: placed there (a world started with bodies inside each
    /// other), or pushed there by a neighbour that last step's correction moved (between bodies
    /// that can move, what correction brings together is found by the next step's search). If a
    /// wall or floor it has no contact with is within that depth, it is held to what was
    /// searched, and parted over the next steps, whose search reaches as deep as it lies.
    /// Unheld, a disc placed 7 cm into its neighbour in a column of them was pushed in one step
    /// through a wall (a zero-thickness segment) 9 mm away, and in a column started with its
    /// discs overlapping by up to 5 cm, a disc pushed 7 cm into another went through a wall 8 mm
    /// away.
    fn leashes(&mut self) {
        let bodies = self.state.bodies.bodies();
        let manifolds = &self.state.contacts.manifolds;
        let sc = &mut self.scratch;
        sc.leash.clone_from(&sc.margins);
        deepest_overlaps(manifolds, &mut sc.leash);
        let fixed = |r: usize| bodies[r].kind != BodyKind::Dynamic && !bodies[r].sensor;
        // Bodies deeper than searched: none in most steps, a few while a pile lands at speed
        // (1 000 cubes dropped into the bin: 1 to 4 in a third of their first 300 steps), so
        // each is checked against every body that cannot move.
        let deeper: Vec<usize> = (0..bodies.len())
            .filter(|&i| sc.leash[i] > sc.margins[i] + sc.pressed[i] && !fixed(i))
            .collect();
        if deeper.is_empty() {
            return;
        }
        // What cannot move, and which of it each body deeper than searched touches (a wall in
        // contact is seen; one the search passed over as too far is not).
        let walls: Vec<usize> = (0..bodies.len()).filter(|&j| fixed(j)).collect();
        let mut touching: Vec<(usize, usize)> = manifolds
            .iter()
            .flat_map(|m| [(m.row_a, m.row_b), (m.row_b, m.row_a)])
            .filter(|&(i, j)| fixed(j) && deeper.binary_search(&i).is_ok())
            .collect();
        touching.sort_unstable();
        for i in deeper {
            let searched = sc.margins[i] + sc.pressed[i];
            let reach = sc.boxes[i].fattened(sc.leash[i] - sc.pressed[i]);
            let unseen = walls
                .iter()
                .any(|&j| reach.overlaps(&sc.boxes[j]) && touching.binary_search(&(i, j)).is_err());
            if unseen {
                sc.leash[i] = searched;
            }
        }
    }

    /// Writes the new state into the bodies, reports contacts that began or ended, advances
    /// time and expires finished loads.
    fn finish_step(&mut self) {
        self.events.update(
            &self.state.contacts.manifolds,
            self.constraints.impacts(),
            &self.state.bodies,
            self.time(),
        );
        self.sense(self.time());
        let dt = self.state.settings.dt;
        self.write_end_state(dt);
        self.state.steps_since_base += 1;
        self.state.loads.retain_mut(|l| l.advance(dt));
        self.notify_observers();
    }

    /// Writes the state a backward step reached into the bodies and takes the clock back a
    /// step (reversal.rs); recordings see it as any step.
    pub(crate) fn finish_step_back(&mut self) {
        self.write_end_state(-self.state.settings.dt);
        self.state.steps_since_base -= 1;
        self.notify_observers();
    }

    /// Writes the step's end state into the bodies that can move, for a step of `dt` (negative
    /// going back: a 2D body's whole turns are counted against it).
    fn write_end_state(&mut self, dt: f64) {
        let end = &self.scratch.end;
        for (i, b) in self.state.bodies.bodies_mut().iter_mut().enumerate() {
            if b.kind == BodyKind::Static {
                continue;
            }
            let spin_before = b.angular_velocity.z;
            b.position = end.x[i];
            b.orientation = end.q[i];
            b.velocity = end.v[i];
            b.angular_velocity = end.w[i];
            if b.planar {
                crate::in_plane::settle(b, spin_before, dt);
            }
        }
        self.state_current = true;
    }
}

/// How far the broad phase looks for a sphere's strikers (see `World::find_candidate_pairs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Search {
    /// As for any body: its own motion and that of the bodies its box overlaps.
    Near,
    /// As `Near`, with each sphere that the last try of the step took beyond its box
    /// (`World::search_missed`) moving twice as far as it went, and its neighbours' boxes
    /// grown by as much.
    Grown,
    /// Among all moving bodies: as far as the fastest goes in a step.
    Wide,
}

impl Search {
    /// The searches a step takes after this one, in turn, while they miss.
    fn wider(self) -> &'static [Search] {
        match self {
            Search::Near => &[Search::Grown, Search::Wide],
            Search::Grown => &[Search::Wide],
            Search::Wide => &[],
        }
    }
}

/// The pairs of rows whose `boxes` overlap, at least one awake, that their collision
/// `filters` (empty: none has one) let collide (`margins`: the planes' reach).
fn overlapping_pairs(
    broad_phase: &mut BroadPhase,
    (bodies, filters): (&[Body], &[Filter]),
    (boxes, margins): (&[Aabb], &[f64]),
    threads: usize,
    pairs: &mut Vec<(u32, u32)>,
) {
    let allow =
        |i: u32, j: u32| filters.is_empty() || filters[i as usize].allows(&filters[j as usize]);
    // Pairs with no awake body keep last step's contact (see `update_manifolds`).
    // A moving kinematic sensor senses sleeping bodies in its way as well.
    let awake = |i: usize| {
        let b = &bodies[i];
        b.is_awake()
            || (b.sensor
                && b.kind == BodyKind::Kinematic
                && (b.velocity != DVec3::ZERO || b.angular_velocity != DVec3::ZERO))
    };
    let reach = reach(bodies, margins);
    broad_phase.find_pairs_where(boxes, awake, allow, reach, threads, pairs);
}

/// How far an infinite body (row `p`) reaches (see `BroadPhase::find_pairs_where`): a plane,
/// its normal and the height along it of its surface plus its margin. Each box is fattened by
/// its body's margin, so a box wholly beyond the plane's cannot touch it within the pair's
/// (the sum of the two).
fn reach<'a>(bodies: &'a [Body], margins: &'a [f64]) -> impl Fn(u32) -> Option<(DVec3, f64)> + 'a {
    move |p| {
        let b = &bodies[p as usize];
        matches!(b.shape, Shape::Plane).then(|| {
            let n = b.orientation * DVec3::Y;
            (n, n.dot(b.position) + margins[p as usize])
        })
    }
}

/// Drops the candidate pairs of two dynamic bodies that only the longer search near walls
/// brought together: a body's box grows by its deepest overlap (`pressed`) to find what cannot
/// move within the reach position correction may carry it, but between two bodies that can
/// move the next step finds what the correction brought together. In a compressed pile the
/// grown boxes of side-by-side columns overlap: on 1 000 discs stacked in a bin they made 2 800
/// candidate pairs for 1 000 contacts.
fn drop_pressed_pairs(
    pairs: &mut Vec<(u32, u32)>,
    boxes: &[Aabb],
    pressed: &[f64],
    bodies: &[Body],
) {
    if pressed.iter().all(|&p| p == 0.0) {
        return;
    }
    pairs.retain(|&(i, j)| {
        let (i, j) = (i as usize, j as usize);
        let both_dynamic =
            bodies[i].kind == BodyKind::Dynamic && bodies[j].kind == BodyKind::Dynamic;
        !both_dynamic
            || boxes[i]
                .fattened(-pressed[i])
                .overlaps(&boxes[j].fattened(-pressed[j]))
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::BodyDesc;
    use crate::math::DVec2;
    use crate::shape::polygon::Polygon;

    /// A 30 x 30 grid of touching bodies of `shape` (0.1 m apart), without gravity: well over
    /// two tasks' worth of candidate pairs.
    fn grid(shape: Shape, planar: bool) -> World {
        let mut w = World::new(Settings {
            gravity: DVec3::ZERO,
            planar,
            ..Settings::default()
        });
        for k in 0..900 {
            let (i, j) = ((k % 30) as f64, (k / 30) as f64);
            w.add_body(BodyDesc {
                position: DVec3::new(0.1 * i, 0.1 * j, 0.0),
                ..BodyDesc::new(shape.clone())
            })
            .unwrap();
        }
        w
    }

    #[test]
    fn by_default_only_many_3d_polyhedra_split_the_narrow_phase() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let cases = [
            (Shape::cuboid(DVec3::splat(0.05)).unwrap(), false, true),
            (Shape::sphere(0.05).unwrap(), false, false),
            // A 2D world's boxes and capsules: planar pairs are cheap to find.
            (
                Shape::polygon(Polygon::rectangle(DVec2::splat(0.05)).unwrap()),
                true,
                false,
            ),
            (Shape::capsule(0.03, 0.02).unwrap(), true, false),
        ];
        for (shape, planar, splits) in cases {
            pool.install(|| {
                let mut w = grid(shape, planar);
                // The first step finds the contacts the second decides from.
                w.step().unwrap();
                assert!(!w.split_narrow_phase);
                w.step().unwrap();
                assert!(w.candidate_pairs > 2 * 256, "{}", w.candidate_pairs);
                assert_eq!(w.split_narrow_phase, splits);
            });
        }
    }
}
