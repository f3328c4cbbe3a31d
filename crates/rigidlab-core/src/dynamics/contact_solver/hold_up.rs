//! The resting solve's last pass when its iterations run out before they converge: each body's
//! approach to what holds it up is stopped, from the supports up, as if what is below could not
//! move (shock propagation, Guendelman, Bridson and Fedkiw 2003).
//!
//! Gauss-Seidel passes a load one contact on per iteration, and a tall pile needs of the order
//! of its height squared iterations to carry its weight from a poor start. Warm starting gives
//! that start once contacts persist; but a pile the iterations leave sinking keeps sinking: each
//! step they stop only part of its fall, position correction lifts it back without touching its
//! velocity, and the pile goes on falling into itself and being lifted out, step after step (a
//! 2D column of 4 000 discs 41 m high moved up and down at 0.3 m/s for seconds, its lowest discs
//! 18 mm into each other, 0.7 mm with this pass). Stopped from the bottom up, every body ends at
//! rest on what holds it up, which is what a pile of rigid bodies does. The pass pushes on the
//! upper body alone, so its impulses are not a balance of the two: kept as the next step's warm
//! start, they push the lower body too, and the iterations pass that on (a tall pile keeps
//! running out of them, at rest). Carrying the upper bodies' weights down to the supports in
//! the kept impulses instead made the next step converge in one iteration on a column, but a
//! heap's contacts come and go, and a load set on one that is gone the next step flung the
//! body beneath it.
//!
//! The pass only stops approaches (it never pulls), each against its own target (a gap that may
//! close within the step still may), and leaves friction and bodies side by side to the
//! iterations: it takes nothing from a motion along a support, and a body that is not linked to
//! a floor or ramp through bodies resting on each other keeps what the iterations gave it.

use super::impact_events::holds_up;
use super::{ContactSolver, SolverPoint};
use crate::dynamics::block_lcp;
use crate::dynamics::by_row::ByRow;
use crate::dynamics::solver_body::SolverBody;
use crate::dynamics::support_levels::SupportLevels;
use crate::math::DVec3;

/// Passes over one body's contacts with what holds it up: a body resting on two or more shares
/// the stop among them.
const HOLD_PASSES: u32 = 4;

/// The pass's buffers, kept from step to step.
#[derive(Default)]
pub struct Levels {
    /// The bodies linked to a support, then ranked from the lowest up (`level` is the rank).
    support: SupportLevels,
    /// The blocks of each movable body.
    blocks: ByRow,
}

impl ContactSolver {
    /// Stops every body's approach to what holds it up, for the bodies linked through contacts
    /// to something that cannot move beneath them (`up` is against gravity), from the lowest
    /// up (`x`: the bodies' positions).
    pub fn hold_up(&mut self, up: DVec3, x: &[DVec3]) {
        let rows = self.bodies.len();
        let bodies = &mut self.bodies;
        let movable = |bodies: &[SolverBody], row: usize| bodies[row].inv_mass > 0.0;
        let Levels { support, blocks } = &mut self.levels;
        // A manifold kept without points makes a block of none.
        let live = || {
            self.blocks
                .iter()
                .enumerate()
                .filter(|(_, block)| block.len > 0)
        };
        blocks.group(rows, || {
            live().map(|(bi, block)| {
                let row = |r: usize| movable(bodies, r).then_some(r);
                (bi as u32, [row(block.a), row(block.b)])
            })
        });
        let touch = |bi: u32| {
            let block = &self.blocks[bi as usize];
            (block.a, block.b, self.points[block.start].n)
        };
        support.find(
            rows,
            live().map(|(bi, _)| bi as u32),
            touch,
            blocks,
            |row| movable(bodies, row),
            |row, other, into| {
                movable(bodies, row) && !movable(bodies, other) && holds_up(up, into)
            },
        );
        let SupportLevels { level, queue } = support;
        // Bottom up: by height, not by level. A level counts contacts from a support, which
        // is no order: every square of a column standing beside a tall box is one contact from
        // the floor through that box, so none held up the one above it, and the column sank
        // into itself while it landed (4 mm deep at 0.5 s, 20 squares at 1/60 s).
        queue.sort_by(|&r, &s| x[r].dot(up).total_cmp(&x[s].dot(up)).then(r.cmp(&s)));
        for (rank, &row) in queue.iter().enumerate() {
            level[row] = rank as u32;
        }
        // Whether body `other` holds `row` up in the pass (`into`: the contact's normal into
        // `row`): what cannot move, or a body lower down and beneath it at the contact. One
        // beside it at about its height is no support: stopping a body against every lower
        // neighbour, sideways too, kept a ball of a bouncy heap (restitution 0.8) knocking
        // about its boxes, faster and faster, for good.
        let holds = |bodies: &[SolverBody], row: usize, other: usize, into: DVec3| {
            !movable(bodies, other) || (level[other] < level[row] && into.dot(up) > 0.0)
        };
        for &row in queue.iter() {
            for _ in 0..HOLD_PASSES {
                let mut stopped = 0.0;
                for &bi in blocks.of(row) {
                    let block = &self.blocks[bi as usize];
                    let other = if block.a == row { block.b } else { block.a };
                    let n = self.points[block.start].n;
                    let into = if block.a == row { -n } else { n };
                    if !holds(bodies, row, other, into) {
                        continue;
                    }
                    stopped += Self::stop_approach(bodies, &mut self.points[block.points()], row);
                }
                if stopped == 0.0 {
                    break;
                }
            }
        }
    }

    /// Stops the approach of a block's points beyond their targets by impulses on body `row`
    /// alone, the other held where it is. The points of a face are solved together (one at a
    /// time, each would tilt the body, and the next tilt it back by a different amount).
    /// The impulse it gave (0 when nothing approached).
    ///
    /// A body below that moves up into this one is not followed: the pass stops the pile
    /// sinking, and pushing each body up to what rises beneath it, as if that could not be
    /// slowed, pumped energy in (a box the iterations left rising at 0.35 m/s and spinning at
    /// 10 rad/s at the bottom of a jumble of 150 boxes lifted everything above it to up to
    /// 1.4 m/s, 0.04 J in a step; a heap of 4 000 discs gained speeds of 3e9 m/s in 2.4 s).
    /// What that rise brings is then stopped between the two, as the iterations would: a
    /// perfectly inelastic contact, which keeps momentum and takes energy. A support that cannot
    /// move, a kinematic lift, is followed: nothing slows it.
    fn stop_approach(bodies: &mut [SolverBody], pts: &mut [SolverPoint], row: usize) -> f64 {
        let other = if row == pts[0].b { pts[0].a } else { pts[0].b };
        let rises = bodies[other].inv_mass > 0.0;
        let mut pushed = Self::push_apart(bodies, pts, Some(row), rises);
        if rises {
            pushed += Self::push_apart(bodies, pts, None, false);
        }
        pushed
    }

    /// Pushes apart the approaching points of a block to their targets: body `alone` only (the
    /// other held where it is; `still_other`: counting its motion into `alone` as none), or
    /// both (None). The impulse it gave.
    fn push_apart(
        bodies: &mut [SolverBody],
        pts: &mut [SolverPoint],
        alone: Option<usize>,
        still_other: bool,
    ) -> f64 {
        let n = pts.len().min(block_lcp::MAX);
        let (a, b) = (pts[0].a, pts[0].b);
        let (ma, mb) = (bodies[a].inv_mass, bodies[b].inv_mass);
        let mut c = [0.0; block_lcp::MAX];
        let mut approaching = 0u32;
        for (i, p) in pts[..n].iter().enumerate() {
            let along_a = bodies[a].v.dot(p.n) + bodies[a].w.dot(p.row.ca);
            let along_b = bodies[b].v.dot(p.n) + bodies[b].w.dot(p.row.cb);
            let vn = match (still_other, alone == Some(b)) {
                (false, _) => along_b - along_a,
                (true, true) => along_b - along_a.min(0.0),
                (true, false) => along_b.max(0.0) - along_a,
            };
            c[i] = vn - p.target;
            approaching |= u32::from(c[i] < 0.0) << i;
        }
        if approaching == 0 {
            return 0.0;
        }
        // The impulse pushes A along -n and B along +n; either way it raises vn.
        let (ma, mb) = match alone {
            Some(row) if row == b => (0.0, mb),
            Some(_) => (ma, 0.0),
            None => (ma, mb),
        };
        // A lone point (a ball's contact) in closed form, without the block's K.
        let push = if n == 1 {
            let r = &pts[0].row;
            let spin_a = if ma > 0.0 { r.ca.dot(r.spin_a) } else { 0.0 };
            let spin_b = if mb > 0.0 { r.cb.dot(r.spin_b) } else { 0.0 };
            let k = ma + mb + spin_a + spin_b;
            if k <= 0.0 {
                return 0.0;
            }
            [-c[0] / k, 0.0, 0.0, 0.0]
        } else {
            let row = |i: usize| {
                let r = &pts[i].row;
                block_lcp::Row {
                    spin_a: if ma > 0.0 { r.spin_a } else { DVec3::ZERO },
                    spin_b: if mb > 0.0 { r.spin_b } else { DVec3::ZERO },
                    ..*r
                }
            };
            let rows: [block_lcp::Row; block_lcp::MAX] = std::array::from_fn(|i| row(i.min(n - 1)));
            let k = block_lcp::coupling_of_rows(ma + mb, n, |i| &rows[i]);
            match block_lcp::solve(&k, &c, n, approaching, None, None) {
                Some(push) => push,
                None => return 0.0,
            }
        };
        let mut pushed = 0.0;
        for (p, &d) in pts[..n].iter_mut().zip(&push) {
            if d > 0.0 {
                p.normal_impulse += d;
                let r = &p.row;
                if ma > 0.0 {
                    bodies[a].change(p.n * (-d * ma), r.spin_a * -d, p.reach);
                }
                if mb > 0.0 {
                    bodies[b].change(p.n * (d * mb), r.spin_b * d, p.reach);
                }
                pushed += d;
            }
        }
        pushed
    }
}
