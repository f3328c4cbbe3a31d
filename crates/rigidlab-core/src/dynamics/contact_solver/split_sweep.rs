//! The resting solve's sweep split over threads (split.rs), for a world whose blocks are
//! coloured.

use super::{Block, ContactSolver, Coupling, SolverPoint};
use crate::dynamics::solver_body::{Pair, SolverBody};
use crate::dynamics::split;

/// The solver's arrays as the threads share them. Each thread changes only the blocks it
/// updates, their points and couplings, the bodies that can move among their bodies (no other
/// block of the colour has them) and their marks in `stirred`.
struct Shared {
    bodies: *mut SolverBody,
    blocks: *mut Block,
    couplings: *mut Coupling,
    couplings_len: usize,
    points: *mut SolverPoint,
    stirred: *mut bool,
}

// SAFETY: the threads change disjoint elements (see `Shared`), and a colour's chunks start
// only once every chunk before them is done (split.rs).
unsafe impl Sync for Shared {}

impl ContactSolver {
    /// Whether a sweep of this step's blocks is split over `threads` threads.
    pub fn splits(&self, threads: usize) -> bool {
        split::splits(threads, self.colours.coloured(), self.blocks.len())
    }

    /// One sweep over every block in the colours' order on `threads` threads (cut into chunks
    /// once a step, by `prepare`), marking in `stirred` (if given: one flag per body) the
    /// movable bodies of the blocks it changes by more than `tolerance`. Returns the largest
    /// change and how many blocks changed by more than `tolerance`.
    pub(super) fn split_sweep(
        &mut self,
        threads: usize,
        tolerance: f64,
        stirred: Option<&mut [bool]>,
    ) -> (f64, usize) {
        let noting = stirred.is_some();
        let shared = Shared {
            bodies: self.bodies.as_mut_ptr(),
            blocks: self.blocks.as_mut_ptr(),
            couplings: self.couplings.as_mut_ptr(),
            couplings_len: self.couplings.len(),
            points: self.points.as_mut_ptr(),
            stirred: stirred.map_or(std::ptr::null_mut(), |s| s.as_mut_ptr()),
        };
        // SAFETY: see `Shared`.
        let update = |bi| unsafe { shared.update(bi, tolerance, noting) };
        self.split.sweep(threads, tolerance, update)
    }
}

impl Shared {
    /// Updates block `bi` (`ContactSolver::update`), noting its movable bodies if it changed
    /// by more than `tolerance`. A body that cannot move is read from a copy: its changes are
    /// zeros, and other threads read it too.
    ///
    /// # Safety
    /// No other thread may touch block `bi`, its points and coupling, or its bodies that can
    /// move, until this returns.
    unsafe fn update(&self, bi: usize, tolerance: f64, noting: bool) -> f64 {
        let block = &mut *self.blocks.add(bi);
        let points = std::slice::from_raw_parts_mut(self.points.add(block.start), block.len);
        let coupling =
            (block.coupling < self.couplings_len).then(|| &mut *self.couplings.add(block.coupling));
        let (a, b) = (block.a, block.b);
        let (pa, pb) = (self.bodies.add(a), self.bodies.add(b));
        let (mut copy_a, mut copy_b);
        let body_a = if (*pa).inv_mass > 0.0 {
            &mut *pa
        } else {
            copy_a = *pa;
            &mut copy_a
        };
        let body_b = if (*pb).inv_mass > 0.0 {
            &mut *pb
        } else {
            copy_b = *pb;
            &mut copy_b
        };
        let (moves_a, moves_b) = (body_a.inv_mass > 0.0, body_b.inv_mass > 0.0);
        let mut pair = Pair { a, body_a, body_b };
        let change = ContactSolver::update(&mut pair, block, coupling, points);
        if noting && change > tolerance {
            if moves_a {
                *self.stirred.add(a) = true;
            }
            if moves_b {
                *self.stirred.add(b) = true;
            }
        }
        change
    }
}
