//! Sweeps on where the iterations left a few contacts unsettled in a pile that has otherwise
//! converged. Gauss-Seidel settles a heap's contacts at very different rates: most of a pile
//! at rest is solved in a few iterations, while a body wedged between two others (normals
//! nearly opposed) passes its load back and forth for dozens. Left unconverged, such a spot
//! never comes to rest: last step's impulses, warm started, kick it, the iterations run out
//! before they undo the kick, and it rocks on for good. A cube wedged at the top of a settled
//! pile of 1 000 rocked at up to a centimetre a second that way, gaining up to 2.6e-5 J in a step,
//! and kept the whole pile awake; with 50 iterations instead of 10 it came to rest at once.
//! Sweeping on over the few blocks near what still changes costs little and settles them.

use super::{Block, ContactSolver, Coupling, SolverPoint};
use crate::dynamics::solver_body::SolverBody;

/// Block updates the sweeps may spend per block the iterations left unsettled: a wedged body's
/// few blocks need dozens of sweeps.
const UPDATES_PER_UNSETTLED: usize = 64;

/// The sweeps may spend as many block updates as one more iteration would (or this many in a
/// small world). A pile with more blocks unsettled than that allows is still landing, not at
/// rest with a few stubborn spots: all its contacts change, and it is left to the next steps.
const LEAST_BUDGET: usize = 1024;

/// Sweeps over what has not settled, at most, for each iteration the solve allows.
const SWEEPS_PER_ITERATION: u32 = 10;

/// The bodies that the last sweep changed, and those the sweep under way changes.
#[derive(Default)]
pub struct Settling {
    unsettled: Vec<bool>,
    stirred: Vec<bool>,
    /// The blocks the last sweep changed by more than the tolerance.
    changed: usize,
}

impl ContactSolver {
    /// `solve_iteration` that also notes the bodies of the blocks it changes by more than
    /// `tolerance` (for `settle`).
    pub fn solve_iteration_noting(&mut self, tolerance: f64) -> f64 {
        let rows = self.bodies.len();
        let mut unsettled = std::mem::take(&mut self.settling.unsettled);
        unsettled.clear();
        unsettled.resize(rows, false);
        let (change, count) = if self.splits(self.threads) {
            self.split_sweep(self.threads, tolerance, Some(&mut unsettled))
        } else {
            let (change, count, _) = Self::sweep(
                (&mut self.bodies, &mut self.blocks),
                (&mut self.couplings, &mut self.points),
                tolerance,
                None,
                &mut unsettled,
            );
            (change, count)
        };
        self.settling.unsettled = unsettled;
        self.settling.changed = count;
        change
    }

    /// Whether the last `solve_iteration_noting` left few enough blocks unsettled for `settle`
    /// to take them on.
    pub fn few_unsettled(&self) -> bool {
        UPDATES_PER_UNSETTLED * self.settling.changed <= self.blocks.len().max(LEAST_BUDGET)
    }

    /// After `solve_iteration_noting`: when it left few blocks unsettled, sweeps again over the
    /// blocks of the bodies the sweep before changed, until none changes by more than
    /// `tolerance`, for up to `SWEEPS_PER_ITERATION` sweeps per iteration of `iterations` and
    /// `UPDATES_PER_UNSETTLED` block updates per block left unsettled. Returns whether every
    /// block settled.
    pub fn settle(&mut self, tolerance: f64, iterations: u32) -> bool {
        if !self.few_unsettled() {
            return false;
        }
        let Settling {
            unsettled,
            stirred,
            changed,
        } = &mut self.settling;
        let budget = UPDATES_PER_UNSETTLED * *changed;
        stirred.clear();
        stirred.resize(self.bodies.len(), false);
        let mut spent = 0;
        for _ in 0..SWEEPS_PER_ITERATION * iterations {
            let (_, count, updates) = Self::sweep(
                (&mut self.bodies, &mut self.blocks),
                (&mut self.couplings, &mut self.points),
                tolerance,
                Some(unsettled),
                stirred,
            );
            if count == 0 {
                return true;
            }
            spent += updates;
            if spent >= budget {
                return false;
            }
            std::mem::swap(unsettled, stirred);
            stirred.iter_mut().for_each(|s| *s = false);
        }
        false
    }

    /// One Gauss-Seidel sweep over the blocks (those with a body marked in `only`, if given),
    /// marking in `stirred` the movable bodies of the blocks it changes by more than
    /// `tolerance`. Returns the largest change, how many blocks changed by more than
    /// `tolerance` and how many it updated.
    fn sweep(
        (bodies, blocks): (&mut [SolverBody], &mut [Block]),
        (couplings, points): (&mut [Coupling], &mut [SolverPoint]),
        tolerance: f64,
        only: Option<&[bool]>,
        stirred: &mut [bool],
    ) -> (f64, usize, usize) {
        let (mut change, mut changed, mut updated) = (0.0f64, 0, 0);
        for block in blocks.iter_mut() {
            if only.is_some_and(|only| !(only[block.a] || only[block.b])) {
                continue;
            }
            updated += 1;
            let c = Self::solve_one(bodies, block, couplings, points);
            if c > tolerance {
                changed += 1;
                stirred[block.a] |= bodies[block.a].inv_mass > 0.0;
                stirred[block.b] |= bodies[block.b].inv_mass > 0.0;
            }
            change = change.max(c);
        }
        (change, changed, updated)
    }
}
