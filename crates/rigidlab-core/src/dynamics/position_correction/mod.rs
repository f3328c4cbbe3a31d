//! Removes the penetration left after a step by moving bodies apart along the contact normals
//! (non-linear Gauss-Seidel on positions, as Box2D v2 does). Velocities are not touched, so no
//! energy enters the motion.
//!
//! The points of a manifold are corrected together (the same small complementarity problem as
//! the velocity solver's blocks, on displacements): one point at a time, the first corner of a
//! box's face would be pushed out alone and tilt the box, the next would tilt it back, and a
//! tall stack would wander sideways and tremble. Each pass removes most of every overlap
//! beyond the slop (`factor`): an overshoot only leaves a gap that gravity closes, while a small
//! factor leaves a deep pile compressed for seconds (the bottom of a column carries the
//! corrections of everything above). Passes stop once no contact overlaps the slop by more
//! than a tenth of it, so a settled scene pays for one. A world of many contacts corrects them
//! in colours (colours.rs), so that a pass may be split over threads with the same result
//! (split.rs).

mod lift;

use crate::body::Body;
use crate::collision::closest::segment_segment;
use crate::collision::manifold::Manifold;
use crate::collision::narrow_phase::{NarrowPhase, Posed};
use crate::dynamics::block_lcp;
use crate::dynamics::colours::{self, Colours};
use crate::dynamics::solver_body::BodyMass;
use crate::dynamics::split::{self, Split};
use crate::dynamics::state::State;
use crate::dynamics::tuning::{MAX_CORRECTION_TURN, MAX_STEP_TURN};
use crate::math::{integrate_orientation_linear, rotate_tensor, DMat3, DQuat, DVec3};
use crate::shape::Shape;
use std::ops::Range;

#[derive(Clone, Copy, Debug)]
pub struct CorrectionSettings {
    pub iterations: u32,
    /// Penetration allowed without correction (m).
    pub slop: f64,
    /// Fraction of the remaining penetration removed per iteration.
    pub factor: f64,
    /// Largest correction per point and iteration (m).
    pub max_correction: f64,
    /// Against gravity, for the lift (lift.rs) when the passes run out; zero: no lift (no
    /// gravity, or joints, which the stage does not see).
    pub up: DVec3,
    /// Threads the passes may split over (split.rs); the results are the same on any number.
    pub threads: usize,
}

/// The bodies' poses as the corrections read and move them, by row, with when each last
/// moved (a job's place in the passes' sequence, `Job::idle_at`): the state's arrays on one
/// thread (`Stamped`), or read and written one element at a time by the threads of a split pass
/// (`PosesAt`). The state alone (the lift's) keeps no such record: every body counts as just
/// moved.
pub(crate) trait Poses {
    fn x(&self, row: usize) -> DVec3;
    fn q(&self, row: usize) -> DQuat;
    fn set(&mut self, row: usize, x: DVec3, q: DQuat);

    fn moved(&self, _row: usize) -> u64 {
        u64::MAX
    }

    fn stamp(&mut self, _row: usize, _at: u64) {}
}

impl Poses for State {
    #[inline(always)]
    fn x(&self, row: usize) -> DVec3 {
        self.x[row]
    }

    #[inline(always)]
    fn q(&self, row: usize) -> DQuat {
        self.q[row]
    }

    #[inline(always)]
    fn set(&mut self, row: usize, x: DVec3, q: DQuat) {
        self.x[row] = x;
        self.q[row] = q;
    }
}

/// The state and when each body last moved, as one thread's pass sees them.
struct Stamped<'a> {
    state: &'a mut State,
    moved: &'a mut [u64],
}

impl Poses for Stamped<'_> {
    #[inline(always)]
    fn x(&self, row: usize) -> DVec3 {
        self.state.x[row]
    }

    #[inline(always)]
    fn q(&self, row: usize) -> DQuat {
        self.state.q[row]
    }

    #[inline(always)]
    fn set(&mut self, row: usize, x: DVec3, q: DQuat) {
        self.state.x[row] = x;
        self.state.q[row] = q;
    }

    #[inline(always)]
    fn moved(&self, row: usize) -> u64 {
        self.moved[row]
    }

    #[inline(always)]
    fn stamp(&mut self, row: usize, at: u64) {
        self.moved[row] = at;
    }
}

/// Overlap beyond the slop, as a fraction of the slop, that does not call for another pass.
const SETTLED: f64 = 0.1;

/// What the stage works out once at its start, kept from step to step: the bodies' world
/// inverse inertias (the corrections turn bodies by far less than a degree, so working them
/// out again at every pass would change nothing that matters), where each body was and how
/// far the passes may move it (`Movers`), and each manifold's rounded contact
/// (`RoundedPoint`), if it has one.
#[derive(Default)]
pub struct CorrectionBuffers {
    inv_inertia: Vec<DMat3>,
    tethers: Vec<Tether>,
    /// When each body last moved in this stage's passes (0: not yet).
    moved: Vec<u64>,
    /// The points of the jobs that are not two spheres, in the jobs' order.
    anchors: Vec<Anchors>,
    rounded: Vec<Option<RoundedPoint>>,
    order: Vec<Job>,
    /// The jobs' colours: the contacts between bodies that can move, then those with one that
    /// cannot (see `correct_positions`).
    colours: [Colours; 2],
    /// The manifolds of the group being coloured.
    members: Vec<u32>,
    split: Split,
    narrow: NarrowPhase,
    lift: lift::Lift,
}

/// A manifold the passes correct, in their order (see `correct_positions`), with its bodies'
/// rows and whether they are two spheres: the passes read this list rather than scanning every
/// manifold twice.
#[derive(Clone, Copy, Debug)]
struct Job {
    manifold: u32,
    /// The rows of its bodies.
    a: u32,
    b: u32,
    /// Two spheres: measured between their centres (`correct_spheres`).
    spheres: bool,
    /// Its points in `CorrectionBuffers::anchors` (the first, `Anchors::ROUNDED`, for a rounded
    /// contact; none for two spheres).
    anchors: u32,
    /// The points that pushed in the last pass that solved them (a bit mask; 0 before any).
    pushed: u8,
    /// Where in the passes' sequence (pass by job, from 1) the job last found nothing to
    /// correct, 0 if it did correct: while neither body has moved since, it would find the
    /// same again, and is skipped.
    idle_at: u64,
}

/// A manifold's normal and its points in its bodies' frames, as the passes read them: copied at
/// the stage's start in the jobs' order, so that the passes read them one after another
/// instead of reaching into the manifolds (which hold much else) all over memory.
#[derive(Clone, Copy, Debug)]
pub(super) struct Anchors {
    normal: DVec3,
    /// Each point on A and on B, in A's and B's frames.
    local: [[DVec3; 2]; block_lcp::MAX],
    len: u8,
}

impl Anchors {
    /// What a rounded contact's job reads: its one point is measured from the bodies' shapes
    /// (`RoundedPoint`), along the normal found with it.
    const ROUNDED: Anchors = Anchors {
        normal: DVec3::ZERO,
        local: [[DVec3::ZERO; 2]; block_lcp::MAX],
        len: 1,
    };

    fn of(m: &Manifold) -> Anchors {
        let mut local = [[DVec3::ZERO; 2]; block_lcp::MAX];
        let len = m.points.len().min(block_lcp::MAX);
        for (l, p) in local.iter_mut().zip(m.points.iter()) {
            *l = [p.local_a, p.local_b];
        }
        Anchors {
            normal: m.normal,
            local,
            len: len as u8,
        }
    }
}

/// The bodies as the stage sees them, by row: their masses, their radii if they are spheres (0
/// otherwise), their shapes, and how far from its pose at the step's start each one may go
/// (its leash, see `Movers`).
pub struct CorrectedBodies<'a> {
    pub masses: &'a [BodyMass],
    pub radii: &'a [f64],
    pub bodies: &'a [Body],
    pub leash: &'a [f64],
}

/// What the passes move the bodies with: their masses and world inverse inertias, and how far
/// each may go from where the stage found it. Beyond its reach the stage is blind: no contact
/// was searched there, and in a heap whose passes do not converge (one that landed at speed,
/// pressed centimetres deep) the passes could squeeze a body between its neighbours and on
/// through a zero-thickness wall it had no contact with. A body deeper in another than its
/// reach may still move by that depth, so that one placed deep inside another is parted, but
/// not into a wall its contacts were not searched against (`World::leashes`). Nor does a body
/// turn by more than `MAX_STEP_TURN` from where the stage found it.
struct Movers<'a> {
    masses: &'a [BodyMass],
    inv_inertia: &'a [DMat3],
    tethers: &'a [Tether],
}

/// Where a body was when the stage began and how far from there it may go: side by side, so
/// that checking a move reads one cache line (the passes visit bodies in contact order, all
/// over memory: two arrays here doubled the stage's time on a pile of 1 000 discs).
#[derive(Clone, Copy, Debug)]
struct Tether {
    origin: DVec3,
    leash: f64,
    /// Its orientation when the stage began.
    turned_from: DQuat,
}

/// Corrects the positions in `state`. Two spheres overlap by what their centres say, along
/// the line between them (the contact points found at the step's start say nothing true of two
/// balls that passed each other since). Other rounded contacts are measured at the end poses
/// too (`rounded_overlap`), from the bodies' shapes.
pub fn correct_positions(
    manifolds: &[Manifold],
    view: CorrectedBodies,
    state: &mut State,
    set: &CorrectionSettings,
    buffers: &mut CorrectionBuffers,
) {
    let CorrectedBodies {
        masses,
        radii,
        bodies,
        leash,
    } = view;
    let CorrectionBuffers {
        inv_inertia,
        tethers,
        moved,
        anchors,
        rounded,
        order,
        colours,
        members,
        split,
        narrow,
        lift,
    } = buffers;
    inv_inertia.clear();
    inv_inertia.extend(masses.iter().zip(&state.q).map(|(m, &q)| {
        if m.inv_mass > 0.0 {
            rotate_tensor(q, m.inv_inertia_body)
        } else {
            DMat3::ZERO
        }
    }));
    tethers.clear();
    tethers.extend(
        state
            .x
            .iter()
            .zip(&state.q)
            .zip(leash.iter().chain(std::iter::repeat(&f64::INFINITY)))
            .map(|((&origin, &turned_from), &leash)| Tether {
                origin,
                leash,
                turned_from,
            }),
    );
    let movers = Movers {
        masses,
        inv_inertia,
        tethers,
    };
    rounded.clear();
    rounded.extend(manifolds.iter().map(|m| {
        let spheres = radii[m.row_a] > 0.0 && radii[m.row_b] > 0.0;
        (m.points.len() == 1 && !spheres)
            .then(|| rounded_overlap(m, &bodies[m.row_a], &bodies[m.row_b], state, narrow))
            .flatten()
            .map(|r| RoundedPoint::fix(r, m.row_a, m.row_b, state))
    }));
    // Each pass corrects the contacts with what cannot move (walls, floors, sleeping bodies)
    // last, so that they have the last word: in a heap whose passes do not converge, a body
    // pressed against a zero-thickness wall is left least inside it, not pushed back in by its
    // neighbours after the wall's correction. Measured on the benchmark's 2D heap (1 000
    // bodies falling up to 24 m into a bin of segments, seven runs): the deepest press into
    // a wall 2.9 to 4.8 cm instead of 3.8 to 5.9 cm, and no body lost through a wall instead
    // of one in two of the runs; on lighter heaps (500 bodies from 10 m) it changes little.
    let fixed = |m: &Manifold| masses[m.row_a].inv_mass == 0.0 || masses[m.row_b].inv_mass == 0.0;
    // Pairs of which neither can move, and empty manifolds, have nothing to correct.
    let moves = |m: &Manifold| {
        (masses[m.row_a].inv_mass > 0.0 || masses[m.row_b].inv_mass > 0.0) && !m.points.is_empty()
    };
    // Each group in the colours' order (colours.rs), so that a pass may be split over
    // threads with the same result.
    order.clear();
    anchors.clear();
    anchors.push(Anchors::ROUNDED);
    let coloured = colours::worth_colouring(manifolds.iter().filter(|m| moves(m)).count());
    for (last, colours) in [false, true].into_iter().zip(colours.iter_mut()) {
        let group = manifolds
            .iter()
            .enumerate()
            .filter(|(_, m)| fixed(m) == last && moves(m));
        colours.colour(
            state.len(),
            group.clone().map(|(_, m)| (m.row_a, m.row_b)),
            |row| masses[row].inv_mass > 0.0,
            coloured,
        );
        members.clear();
        members.extend(group.map(|(i, _)| i as u32));
        for at in 0..colours.order.len() {
            let k = colours.order[at] as usize;
            colours.place(k);
            let i = members[k] as usize;
            let m = &manifolds[i];
            let spheres = radii[m.row_a] > 0.0 && radii[m.row_b] > 0.0;
            let own = !spheres && rounded[i].is_none();
            order.push(Job {
                manifold: i as u32,
                a: m.row_a as u32,
                b: m.row_b as u32,
                spheres,
                anchors: if own { anchors.len() as u32 } else { 0 },
                pushed: 0,
                idle_at: 0,
            });
            if own {
                anchors.push(Anchors::of(m));
            }
        }
    }
    let [first, last] = &*colours;
    let threads = if split::splits(set.threads, coloured, order.len()) {
        let behind = |(run, overflow): (Range<usize>, bool)| {
            (
                run.start + first.placed()..run.end + first.placed(),
                overflow,
            )
        };
        split.plan(first.runs().chain(last.runs().map(behind)));
        set.threads
    } else {
        1
    };
    let pass = Pass {
        anchors,
        rounded,
        radii,
        movers: &movers,
        set,
    };
    moved.clear();
    moved.resize(state.x.len(), 0);
    let mut settled = false;
    for iteration in 0..set.iterations {
        // The sequence number of the pass's first job.
        let start = u64::from(iteration) * order.len() as u64 + 1;
        let deepest = if threads > 1 {
            let shared = SharedPoses {
                poses: PosesAt {
                    x: state.x.as_mut_ptr(),
                    q: state.q.as_mut_ptr(),
                    moved: moved.as_mut_ptr(),
                },
                jobs: order.as_mut_ptr(),
            };
            // SAFETY: see `SharedPoses`.
            let update = |k| unsafe { shared.correct(k, start + k as u64, &pass) };
            split.sweep(threads, f64::INFINITY, update).0
        } else {
            let mut poses = Stamped { state, moved };
            order
                .iter_mut()
                .zip(start..)
                .map(|(job, at)| pass.correct(job, at, &mut poses))
                .fold(0.0, f64::max)
        };
        if deepest <= SETTLED * set.slop {
            settled = true;
            break;
        }
    }
    if !settled && set.up != DVec3::ZERO {
        let pile = lift::Pile {
            manifolds,
            anchors,
            order,
            rounded,
            radii,
            bodies,
        };
        lift.lift(pile, &movers, state, set, set.up);
    }
}

/// What a pass reads besides the poses it moves.
struct Pass<'a> {
    anchors: &'a [Anchors],
    rounded: &'a [Option<RoundedPoint>],
    radii: &'a [f64],
    movers: &'a Movers<'a>,
    set: &'a CorrectionSettings,
}

impl Pass<'_> {
    /// The correction of one job, `at` its place in the passes' sequence. Returns its deepest
    /// overlap beyond the slop before it (m).
    #[inline(always)]
    fn correct<P: Poses + ?Sized>(&self, job: &mut Job, at: u64, state: &mut P) -> f64 {
        let (i, a, b) = (job.manifold as usize, job.a as usize, job.b as usize);
        if job.idle_at != 0 && state.moved(a) < job.idle_at && state.moved(b) < job.idle_at {
            return 0.0;
        }
        let corrected = if job.spheres {
            correct_spheres((a, b), self.movers, self.radii, state, self.set)
        } else {
            let m = (
                &self.anchors[job.anchors as usize],
                self.rounded[i].as_ref(),
            );
            correct_manifold((a, b), m, &mut job.pushed, self.movers, state, self.set)
        };
        match corrected {
            None => {
                job.idle_at = at;
                0.0
            }
            Some(deepest) => {
                job.idle_at = 0;
                // Only bodies that can move: those that cannot are shared by the jobs of a
                // colour, and never move.
                for row in [a, b] {
                    if self.movers.masses[row].inv_mass > 0.0 {
                        state.stamp(row, at);
                    }
                }
                deepest
            }
        }
    }
}

/// The poses and jobs as the threads of a split pass share them (split.rs). A job reads the
/// poses of its two bodies and moves those that can move; no other job of its colour has
/// those, and none moves a body that cannot move.
struct SharedPoses {
    poses: PosesAt,
    jobs: *mut Job,
}

// SAFETY: the threads change disjoint elements (see `SharedPoses`), and a colour's chunks start
// only once every chunk before them is done (split.rs).
unsafe impl Sync for SharedPoses {}

impl SharedPoses {
    /// `Pass::correct` of job `k`.
    ///
    /// # Safety
    /// No other thread may touch job `k` or move its bodies until this returns.
    unsafe fn correct(&self, k: usize, at: u64, pass: &Pass) -> f64 {
        let job = &mut *self.jobs.add(k);
        pass.correct(job, at, &mut { self.poses })
    }
}

/// The poses behind `SharedPoses`, read and written one element at a time: never a reference
/// to the arrays, which other threads change elsewhere at the same time.
#[derive(Clone, Copy)]
struct PosesAt {
    x: *mut DVec3,
    q: *mut DQuat,
    moved: *mut u64,
}

impl Poses for PosesAt {
    #[inline(always)]
    fn x(&self, row: usize) -> DVec3 {
        // SAFETY: `SharedPoses::correct`'s job reads its own bodies' poses.
        unsafe { self.x.add(row).read() }
    }

    #[inline(always)]
    fn q(&self, row: usize) -> DQuat {
        // SAFETY: as for `x`.
        unsafe { self.q.add(row).read() }
    }

    #[inline(always)]
    fn set(&mut self, row: usize, x: DVec3, q: DQuat) {
        // SAFETY: `SharedPoses::correct`'s job moves its own bodies that can move.
        unsafe {
            self.x.add(row).write(x);
            self.q.add(row).write(q);
        }
    }

    #[inline(always)]
    fn moved(&self, row: usize) -> u64 {
        // SAFETY: as for `x`.
        unsafe { self.moved.add(row).read() }
    }

    #[inline(always)]
    fn stamp(&mut self, row: usize, at: u64) {
        // SAFETY: as for `set`.
        unsafe { self.moved.add(row).write(at) }
    }
}

/// The correction of two spheres (rows a and b), along the line of their centres. Returns
/// their overlap beyond the slop before it (m).
fn correct_spheres<P: Poses + ?Sized>(
    (a, b): (usize, usize),
    movers: &Movers,
    radii: &[f64],
    state: &mut P,
    set: &CorrectionSettings,
) -> Option<f64> {
    let (ma, mb) = (movers.masses[a], movers.masses[b]);
    let d = state.x(b) - state.x(a);
    // Most of a pile's pairs are apart by more than the slop: compared squared, they pay no
    // root.
    let reach = radii[a] + radii[b] - set.slop;
    if reach <= 0.0 || d.length_squared() >= reach * reach {
        return None;
    }
    // `normalize_or_zero` of d, from the one root.
    let len = d.length();
    let rcp = 1.0 / len;
    let n = if rcp.is_finite() && rcp > 0.0 {
        d * rcp
    } else {
        DVec3::ZERO
    };
    let beyond = len - (radii[a] + radii[b]) + set.slop;
    if beyond >= 0.0 || n == DVec3::ZERO {
        return None;
    }
    // Through both centres: no turn.
    let push = -(set.factor * beyond).max(-set.max_correction) / (ma.inv_mass + mb.inv_mass);
    let shifts = [-n * push * ma.inv_mass, n * push * mb.inv_mass];
    movers.move_pair(state, (a, b), shifts, [DVec3::ZERO; 2]);
    Some(-beyond)
}

/// One manifold's correction (`rounded`: its rounded contact), other than two spheres'.
/// Returns its deepest overlap beyond the slop before it (m), None if no point overlaps beyond
/// it.
fn correct_manifold<P: Poses + ?Sized>(
    (a, b): (usize, usize),
    (m, rounded): (&Anchors, Option<&RoundedPoint>),
    pushed: &mut u8,
    movers: &Movers,
    state: &mut P,
    set: &CorrectionSettings,
) -> Option<f64> {
    let (ma, mb) = (movers.masses[a], movers.masses[b]);
    let n = usize::from(m.len);
    // Per point: lever arms and the separation change allowed (negative: required).
    let mut ra = [DVec3::ZERO; block_lcp::MAX];
    let mut rb = [DVec3::ZERO; block_lcp::MAX];
    let mut c = [0.0; block_lcp::MAX];
    let mut deepest: f64 = 0.0;
    let mut normal = m.normal;
    for (i, &[local_a, local_b]) in m.local[..n].iter().enumerate() {
        let (pa, pb, gap) = match rounded {
            Some(r) => {
                let now = r.now(a, b, state);
                normal = now.normal;
                (now.on_a, now.on_b, now.gap)
            }
            None => {
                let pa = state.x(a) + state.q(a) * local_a;
                let pb = state.x(b) + state.q(b) * local_b;
                (pa, pb, (pb - pa).dot(m.normal))
            }
        };
        let beyond = gap + set.slop;
        deepest = deepest.max(-beyond);
        c[i] = if beyond < 0.0 {
            (set.factor * beyond).max(-set.max_correction)
        } else {
            beyond
        };
        let mid = 0.5 * (pa + pb);
        (ra[i], rb[i]) = (mid - state.x(a), mid - state.x(b));
    }
    if c[..n].iter().all(|&ci| ci >= 0.0) {
        return None;
    }
    let (ia, ib) = (movers.inv_inertia[a], movers.inv_inertia[b]);
    let push = if n == 1 {
        // One point (a ball's contact): the push that removes its overlap, in closed form.
        let (ca, cb) = (ra[0].cross(normal), rb[0].cross(normal));
        let k = ma.inv_mass + mb.inv_mass + ca.dot(ia * ca) + cb.dot(ib * cb);
        if k <= 0.0 {
            return Some(deepest);
        }
        let mut push = [0.0; block_lcp::MAX];
        push[0] = -c[0] / k;
        push
    } else {
        let k = block_lcp::coupling(
            normal,
            ma.inv_mass + mb.inv_mass,
            ia,
            ib,
            &ra[..n],
            &rb[..n],
        );
        // The points that pushed in the last pass are the likeliest to push again (the
        // overlaps shrink, their pattern stays); before any pass, those overlapping beyond the
        // slop. Measured on 1 000 dropped cubes, the solve tries 1.4 active sets per call from
        // these, against 2.7 from the overlapping points alone.
        let overlapping = (0..n).fold(0u32, |m, i| m | (u32::from(c[i] < 0.0) << i));
        let hint = if *pushed != 0 {
            u32::from(*pushed)
        } else {
            overlapping
        };
        let Some(push) = block_lcp::solve(&k, &c, n, hint, None, None) else {
            return Some(deepest);
        };
        *pushed = (0..n).fold(0u8, |m, i| m | (u8::from(push[i] > 0.0) << i));
        push
    };
    let (mut impulse, mut arm_a, mut arm_b) = (0.0, DVec3::ZERO, DVec3::ZERO);
    for i in 0..n {
        impulse += push[i];
        arm_a += ra[i].cross(normal) * push[i];
        arm_b += rb[i].cross(normal) * push[i];
    }
    if impulse > 0.0 {
        let shifts = [
            -normal * impulse * ma.inv_mass,
            normal * impulse * mb.inv_mass,
        ];
        movers.move_pair(state, (a, b), shifts, [ia * -arm_a, ib * arm_b]);
    }
    Some(deepest)
}

/// A rounded contact measured at the bodies' poses now: the points of A and B that are
/// closest, the normal from A to B and the gap (negative: overlap).
#[derive(Clone, Copy, Debug)]
struct RoundedOverlap {
    on_a: DVec3,
    on_b: DVec3,
    normal: DVec3,
    gap: f64,
    /// The radii of A and B (0 for a polyhedron).
    radius_a: f64,
    radius_b: f64,
}

/// A rounded contact as the passes of one stage follow it: measured once at the stage's start
/// (`rounded_overlap`), then carried by the bodies, each core point fixed in its body and the
/// normal fixed in A, as Box2D's position solver carries its manifolds. Measured afresh at every
/// pass instead, the normal of a corner resting on a round would follow the corner as the
/// correction turns the body, lengthening the lever arm of the next pass: the passes of one
/// step would roll a squeezed polygon off a capsule's end by a tenth of a radian and more,
/// with no velocity to show for it.
#[derive(Clone, Copy, Debug)]
struct RoundedPoint {
    /// The cores' points in their bodies' frames, and the normal in A's.
    core_a: DVec3,
    core_b: DVec3,
    normal: DVec3,
    radius_a: f64,
    radius_b: f64,
}

impl RoundedPoint {
    fn fix(r: RoundedOverlap, a: usize, b: usize, state: &State) -> RoundedPoint {
        let (qa, qb) = (state.q[a].inverse(), state.q[b].inverse());
        RoundedPoint {
            core_a: qa * (r.on_a - r.normal * r.radius_a - state.x[a]),
            core_b: qb * (r.on_b + r.normal * r.radius_b - state.x[b]),
            normal: qa * r.normal,
            radius_a: r.radius_a,
            radius_b: r.radius_b,
        }
    }

    /// The contact at the bodies' poses now.
    fn now<P: Poses + ?Sized>(&self, a: usize, b: usize, state: &P) -> RoundedOverlap {
        let (qa, qb) = (state.q(a), state.q(b));
        let normal = qa * self.normal;
        let core_a = state.x(a) + qa * self.core_a;
        let core_b = state.x(b) + qb * self.core_b;
        RoundedOverlap {
            on_a: core_a + normal * self.radius_a,
            on_b: core_b - normal * self.radius_b,
            normal,
            gap: (core_b - core_a).dot(normal) - self.radius_a - self.radius_b,
            radius_a: self.radius_a,
            radius_b: self.radius_b,
        }
    }
}

/// The one point of a rounded side (a sphere's or a capsule's) against a body that is not a
/// plane, measured at the poses now rather than along the normal found at the step's start:
/// that normal turns with where the bodies meet, so a ball that has since moved past an edge or
/// a corner would seem to overlap it along the old normal and be pushed off it, and its impact
/// would come late with the wrong normal. Two rounded cores are measured between their closest
/// points (exact); a rounded core against a polyhedron (or a polygon) is found again by the
/// narrow phase, which knows whether they meet at a corner (the normal points from it to the
/// core) or on a face (the face's normal): a point of the face fixed from the step's start
/// would tilt the normal of a ball sliding down a wall towards where it was, and push it along
/// the wall instead of out of it. None keeps the manifold's own measure: a plane's normal never
/// turns, and a core that has sunk to the far side of where it touched (the centre of a ball
/// pushed through a zero-thickness segment) is pushed back the way it came, not on through.
fn rounded_overlap(
    m: &Manifold,
    a: &Body,
    b: &Body,
    state: &State,
    narrow: &mut NarrowPhase,
) -> Option<RoundedOverlap> {
    if matches!(a.shape, Shape::Plane) || matches!(b.shape, Shape::Plane) {
        return None;
    }
    fn posed<'s>(body: &'s Body, row: usize, state: &State) -> Posed<'s> {
        Posed {
            shape: &body.shape,
            position: state.x[row],
            orientation: state.q[row],
            planar: body.planar,
        }
    }
    let (pa, pb) = (posed(a, m.row_a, state), posed(b, m.row_b, state));
    let found = match (pa.rounded_core(), pb.rounded_core()) {
        (Some(([a0, a1], r_a)), Some(([b0, b1], r_b))) => {
            let (ca, cb, _, _) = segment_segment(a0, a1, b0, b1);
            let d = cb - ca;
            let len = d.length();
            if len == 0.0 {
                return None;
            }
            let normal = d / len;
            RoundedOverlap {
                on_a: ca + normal * r_a,
                on_b: cb - normal * r_b,
                normal,
                gap: len - r_a - r_b,
                radius_a: r_a,
                radius_b: r_b,
            }
        }
        (None, None) => return None,
        (core_a, core_b) => {
            // Within reach of each other wherever they touch: the narrow phase then always
            // reports their nearest points.
            let reach = a.shape.bounding_radius() + b.shape.bounding_radius();
            let normal = narrow.collide(pa, pb, reach)?;
            // The manifold had one point; the search's reach may find more (a capsule's far
            // end): the deepest is the one that touched.
            let c = narrow
                .points
                .iter()
                .min_by(|p, q| p.separation.total_cmp(&q.separation))?;
            // The polyhedron's point is on its surface and stays fixed in it (radius 0).
            RoundedOverlap {
                on_a: c.on_a,
                on_b: c.on_b,
                normal,
                gap: c.separation,
                radius_a: core_a.map_or(0.0, |c| c.1),
                radius_b: core_b.map_or(0.0, |c| c.1),
            }
        }
    };
    (found.normal.dot(m.normal) > 0.0).then_some(found)
}

/// The largest fraction (0 to 1) of `step` that keeps `d + step` within `bound` of zero.
fn within(d: DVec3, step: DVec3, bound: f64) -> f64 {
    let (uu, du) = (step.length_squared(), d.dot(step));
    // Compared squared: a body nearly always stays well within its bounds, and pays no root.
    if (d + step).length_squared() <= bound * bound || uu == 0.0 {
        return 1.0;
    }
    // Where |d + s step| reaches the bound.
    let disc = (du * du - uu * (d.length_squared() - bound * bound)).max(0.0);
    ((disc.sqrt() - du) / uu).clamp(0.0, 1.0)
}

impl Movers<'_> {
    /// The largest fractions (0 to 1) of `shift` and of `turn` (a rotation vector) that keep
    /// body `row` within its leash and within `MAX_STEP_TURN` of the orientation it started
    /// the stage with.
    fn allowed<P: Poses + ?Sized>(
        &self,
        state: &P,
        row: usize,
        shift: DVec3,
        turn: DVec3,
    ) -> (f64, f64) {
        let Tether {
            origin,
            leash,
            turned_from,
        } = self.tethers[row];
        let moved = within(state.x(row) - origin, shift, leash);
        // Two spheres' corrections turn nothing.
        if turn == DVec3::ZERO {
            return (moved, 1.0);
        }
        // The turn so far as a rotation vector (2 sin(angle / 2) along the axis: the angle to
        // well within a percent at the angles the bound allows).
        let dq = state.q(row) * turned_from.conjugate();
        let sign = if dq.w < 0.0 { -2.0 } else { 2.0 };
        let turned = DVec3::new(dq.x, dq.y, dq.z) * sign;
        (moved, within(turned, turn, MAX_STEP_TURN))
    }

    /// Moves the two bodies of a contact by their shifts and rotations (rotation vectors),
    /// both scaled alike so that neither leaves its leash: the pair's centre of mass stays
    /// where it was, as with any correction between two bodies that can move. The rotations
    /// are scaled down further where a body would turn too far (`allowed`): the shifts alone
    /// still part the bodies.
    fn move_pair<P: Poses + ?Sized>(
        &self,
        state: &mut P,
        (a, b): (usize, usize),
        shifts: [DVec3; 2],
        turns: [DVec3; 2],
    ) {
        let movable = |row: usize| self.masses[row].inv_mass > 0.0;
        let turns = turns.map(|turn| {
            // Compared squared: almost every correction turns far less, and pays no root.
            if turn.length_squared() > MAX_CORRECTION_TURN * MAX_CORRECTION_TURN {
                turn * (MAX_CORRECTION_TURN / turn.length())
            } else {
                turn
            }
        });
        let (mut s, mut st): (f64, f64) = (1.0, 1.0);
        for (row, shift, turn) in [(a, shifts[0], turns[0]), (b, shifts[1], turns[1])] {
            if movable(row) {
                let (moved, turned) = self.allowed(state, row, shift, turn);
                s = s.min(moved);
                st = st.min(turned);
            }
        }
        for (row, shift, turn) in [(a, shifts[0], turns[0]), (b, shifts[1], turns[1])] {
            if movable(row) {
                Self::move_body(state, row, shift * s, turn * s.min(st));
            }
        }
    }

    /// Moves a body by a small shift and rotation (a rotation vector: a correction turns a
    /// body by a few degrees at most, `MAX_CORRECTION_TURN`, so the first-order update is as
    /// good as the exact one and cheaper).
    fn move_body<P: Poses + ?Sized>(state: &mut P, row: usize, shift: DVec3, rotation: DVec3) {
        let x = state.x(row) + shift;
        let q = state.q(row);
        let q = if rotation != DVec3::ZERO {
            integrate_orientation_linear(q, rotation, 1.0)
        } else {
            q
        };
        state.set(row, x, q);
    }
}
