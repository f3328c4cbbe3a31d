//! The correction's last pass when its passes run out before a resting pile is pushed apart:
//! each body is lifted out of what holds it up, from the supports up, as if what is below could
//! not move (shock propagation for positions, as `hold_up` does it for velocities).
//!
//! A pass of non-linear Gauss-Seidel passes a correction one contact on, so a pile a hundred
//! bodies deep that a landing pressed into itself needs hundreds of passes to come apart: ten a
//! step take seconds, through which the bottom of the pile stays a millimetre or two deep and
//! the pile never falls asleep (the benchmark's 2D heap of 1 000 bodies was still at 2 mm after
//! 12 s, its correction lifting it 2.4 mm every 2 s and the heap slumping back in jolts).
//! Lifted level by level from its supports, such a pile comes apart within a few steps (no
//! body moves further in a step than its deepest overlap: see `Movers`).
//!
//! Only islands at rest are lifted. While a pile lands, what a body rests on changes from step
//! to step, and lifting each body clear of whatever is below it then loosens the packing the
//! landing is making: on the same 2D heap, the deepest overlap while it landed grew from 11 mm
//! to 28-45 mm, and 1 000 discs dropped into a bin ended 1% taller. A body slower than
//! `CALM_SPEED` moves a fifth of a millimetre a step at the benchmarks' 240 steps a second,
//! about the overlaps a lift removes; a landing body moves metres a second.

use super::{
    correct_manifold, correct_spheres, Anchors, CorrectionSettings, Job, Movers, RoundedPoint,
};
use crate::body::Body;
use crate::collision::manifold::Manifold;
use crate::dynamics::by_row::ByRow;
use crate::dynamics::contact_solver::holds_up;
use crate::dynamics::solver_body::BodyMass;
use crate::dynamics::state::State;
use crate::dynamics::support_levels::SupportLevels;
use crate::dynamics::union_find::UnionFind;
use crate::math::{DMat3, DVec3};

/// Speed (m/s) above which a body's island is not lifted: it is still landing (see the
/// module's comment). A body counts by the fastest point of its extent, as for sleeping.
const CALM_SPEED: f64 = 0.05;

/// Passes over one level's contacts with the levels below: a body resting on two or more
/// shares its lift among them.
const LIFT_PASSES: u32 = 3;

/// The lift's buffers, kept from step to step.
#[derive(Default)]
pub struct Lift {
    /// The islands of the movable bodies through their contacts, and per body row its
    /// island's root.
    sets: UnionFind,
    root: Vec<usize>,
    /// Per island root: whether every body in it is slower than `CALM_SPEED`.
    calm: Vec<bool>,
    /// The bodies lifted, level by level from the supports.
    support: SupportLevels,
    /// The jobs of each movable body.
    jobs: ByRow,
    /// The masses and inverse inertias of the pass, the levels already lifted held fixed.
    masses: Vec<BodyMass>,
    inv_inertia: Vec<DMat3>,
}

/// What the lift reads besides the state it moves.
pub(super) struct Pile<'a> {
    pub manifolds: &'a [Manifold],
    pub anchors: &'a [Anchors],
    pub order: &'a [Job],
    pub rounded: &'a [Option<RoundedPoint>],
    pub radii: &'a [f64],
    pub bodies: &'a [Body],
}

impl Lift {
    /// Lifts every body of an island at rest out of what holds it up, level by level from the
    /// bodies that rest on something that cannot move (`up`: against gravity, not zero).
    pub(super) fn lift(
        &mut self,
        pile: Pile,
        movers: &Movers,
        state: &mut State,
        set: &CorrectionSettings,
        up: DVec3,
    ) {
        let Pile {
            manifolds,
            anchors,
            order,
            rounded,
            radii,
            bodies,
        } = pile;
        let rows = movers.masses.len();
        let movable = |row: usize| movers.masses[row].inv_mass > 0.0;
        // While every island lands (most steps whose passes run out), nothing more to do.
        if !self.find_calm_islands(order, bodies, state, &movable) {
            return;
        }
        let Lift {
            root,
            calm,
            support,
            jobs,
            masses,
            inv_inertia,
            ..
        } = self;
        jobs.group(rows, || {
            order.iter().enumerate().map(|(ji, job)| {
                let row = |r: u32| movable(r as usize).then_some(r as usize);
                (ji as u32, [row(job.a), row(job.b)])
            })
        });
        let touch = |ji: u32| {
            let job = &order[ji as usize];
            let normal = manifolds[job.manifold as usize].normal;
            (job.a as usize, job.b as usize, normal)
        };
        // Every body linked to a support through movable bodies is in the support's island,
        // which is calm.
        support.find(
            rows,
            0..order.len() as u32,
            touch,
            jobs,
            movable,
            |row, other, into| {
                movable(row) && !movable(other) && calm[root[row]] && holds_up(up, into)
            },
        );
        // From the lowest up by height (see `rank_by_height`): taken by levels, the 20 squares
        // of a column landed beside a tall box at 1/60 s were all one level, and none was
        // lifted out of the one beneath; once the solve's last pass stopped the landed column
        // where it was (hold_up.rs), it stayed up to 4.6 mm deep in itself for seconds, a
        // tenth of a millimetre less each step.
        support.rank_by_height(&state.x, up);
        let SupportLevels { level, queue } = support;
        if queue.is_empty() {
            return;
        }
        masses.clear();
        masses.extend_from_slice(movers.masses);
        inv_inertia.clear();
        inv_inertia.extend_from_slice(movers.inv_inertia);
        let mut start = 0;
        while start < queue.len() {
            let at = level[queue[start]];
            let end = start + queue[start..].partition_point(|&r| level[r] == at);
            let held = Movers {
                masses,
                inv_inertia,
                tethers: movers.tethers,
            };
            for _ in 0..LIFT_PASSES {
                let mut deepest: f64 = 0.0;
                for &row in &queue[start..end] {
                    for &ji in jobs.of(row) {
                        let job = &order[ji as usize];
                        let other = other_row(job, row);
                        // Contacts with the bodies above are theirs, or the passes'; so are
                        // those with a body beside it, lower but not beneath it at the contact,
                        // which holds nothing up (as in the solve's `hold_up`).
                        let n = manifolds[job.manifold as usize].normal;
                        let into = if job.a as usize == row { -n } else { n };
                        if movable(other) && (level[other] >= at || into.dot(up) <= 0.0) {
                            continue;
                        }
                        let overlap = if job.spheres {
                            let pair = (job.a as usize, job.b as usize);
                            correct_spheres(pair, &held, radii, state, set)
                        } else {
                            let i = job.manifold as usize;
                            let mut pushed = job.pushed;
                            let m = (&anchors[job.anchors as usize], rounded[i].as_ref());
                            let rows = (job.a as usize, job.b as usize);
                            correct_manifold(rows, m, &mut pushed, &held, state, set)
                        };
                        deepest = deepest.max(overlap.unwrap_or(0.0));
                    }
                }
                if deepest <= super::SETTLED * set.slop {
                    break;
                }
            }
            // This level holds the next one up where it now is.
            for &row in &queue[start..end] {
                masses[row].inv_mass = 0.0;
                inv_inertia[row] = DMat3::ZERO;
            }
            start = end;
        }
    }

    /// Finds the islands of the movable bodies through their contacts, and which of them are
    /// at rest: every body slower than `CALM_SPEED`. Whether any is.
    fn find_calm_islands(
        &mut self,
        order: &[Job],
        bodies: &[Body],
        state: &State,
        movable: &impl Fn(usize) -> bool,
    ) -> bool {
        let rows = state.x.len();
        let sets = &mut self.sets;
        sets.reset(rows);
        for job in order {
            let (a, b) = (job.a as usize, job.b as usize);
            if movable(a) && movable(b) {
                sets.union(a, b);
            }
        }
        self.root.clear();
        self.root.extend((0..rows).map(|i| sets.find(i)));
        self.calm.clear();
        self.calm.resize(rows, true);
        for i in (0..rows).filter(|&i| movable(i)) {
            let spin = state.w[i].length() * bodies[i].shape.bounding_radius();
            if state.v[i].length().max(spin) >= CALM_SPEED {
                self.calm[self.root[i]] = false;
            }
        }
        (0..rows).any(|i| movable(i) && self.calm[self.root[i]])
    }
}

/// The row of the job's other body than `row`.
fn other_row(job: &Job, row: usize) -> usize {
    if job.a as usize == row {
        job.b as usize
    } else {
        job.a as usize
    }
}
