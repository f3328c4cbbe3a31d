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
//! Iterations that run out also leave loads too large: last step's impulses, warm started, push
//! up a pile that has settled lower, and the iterations do not take them back in time. In a
//! bouncy heap of 324 balls, boxes and hulls, a column of four boxes was left rising at 1 to 7
//! mm/s, faster up the column, and the heap gained up to 0.4 mJ in a step; from the same state
//! with 200 iterations, no step gained any. So where a body rests on something firm (that cannot
//! move, or rests itself on something firm) and the iterations leave it lifting off as a whole,
//! the pass takes back the load until it stops there, on that body alone as it stops approaches:
//! the load it no longer carries is one the pile beneath need not carry to the ground either.
//! The heap then came to rest at 20 of 21 restitutions from 0 to 1, against 14 before. Not a
//! body rocking on its support (taking back a rising corner's load alone tilted a 2D column's
//! squares, and the column swayed for seconds), nor a contact beside it, whose load does not go
//! to the ground.
//!
//! The pass never pulls: each approach is stopped against its own target (a gap that may close
//! within the step still may), a lift is stopped where it is (or at the separation its target
//! asks), and no load falls below zero. It
//! leaves friction and bodies side by side to the iterations: it takes nothing from a motion
//! along a support, and a body that is not linked to a floor or ramp through bodies resting on
//! each other keeps what the iterations gave it.

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
    /// Per body row: whether the pass left it resting on what holds it up (see `hold_up`).
    rests: Vec<bool>,
}

/// The body a pass holds up (`row`), whether what holds it is firm (cannot move, or rests
/// itself), and the solver's tolerance (m/s), under which a lift off it is left alone.
#[derive(Clone, Copy)]
struct Held {
    row: usize,
    firm: bool,
    tolerance: f64,
}

impl ContactSolver {
    /// Stops every body's approach to what holds it up, for the bodies linked through contacts
    /// to something that cannot move beneath them (`up` is against gravity), from the lowest
    /// up (`x`: the bodies' positions); and where it rests on what rests itself, takes back
    /// the load that lifts it off faster than `tolerance` (m/s).
    pub fn hold_up(&mut self, up: DVec3, x: &[DVec3], tolerance: f64) {
        let rows = self.bodies.len();
        let bodies = &mut self.bodies;
        let movable = |bodies: &[SolverBody], row: usize| bodies[row].inv_mass > 0.0;
        let Levels {
            support,
            blocks,
            rests,
        } = &mut self.levels;
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
        // Bottom up: by height, not by level (a column beside a tall box sank into itself while
        // it landed, 4 mm deep at 0.5 s, 20 squares at 1/60 s, when taken by levels).
        support.rank_by_height(x, up);
        let SupportLevels { level, queue } = support;
        // Whether body `other` holds `row` up in the pass (`into`: the contact's normal into
        // `row`): what cannot move, or a body lower down and beneath it at the contact. One
        // beside it at about its height is no support: stopping a body against every lower
        // neighbour, sideways too, kept a ball of a bouncy heap (restitution 0.8) knocking
        // about its boxes, faster and faster, for good.
        let holds = |bodies: &[SolverBody], row: usize, other: usize, into: DVec3| {
            !movable(bodies, other) || (level[other] < level[row] && into.dot(up) > 0.0)
        };
        // A body rests once it is pressed, through a contact that holds it up, on something
        // that cannot move beneath it or on a body that rests: a load on it then reaches the
        // ground. A load is taken back only where the contact also faces up (`holds_up`): one
        // beside the body does not go to the ground. (Counting a body as resting only through
        // contacts that face up brought the heap of the module's comment to rest at 19 of 21
        // restitutions, against 20.)
        rests.clear();
        rests.resize(rows, false);
        let rests_on = |bodies: &[SolverBody], rests: &[bool], other: usize, into: DVec3| {
            if movable(bodies, other) {
                rests[other]
            } else {
                holds_up(up, into)
            }
        };
        for &row in queue.iter() {
            let contact = |points: &[SolverPoint], bi: u32| {
                let block = &self.blocks[bi as usize];
                let other = if block.a == row { block.b } else { block.a };
                let n = points[block.start].n;
                (other, if block.a == row { -n } else { n })
            };
            for _ in 0..HOLD_PASSES {
                let mut stopped = 0.0;
                for &bi in blocks.of(row) {
                    let (other, into) = contact(&self.points, bi);
                    if !holds(bodies, row, other, into) {
                        continue;
                    }
                    let on = Held {
                        row,
                        firm: holds_up(up, into) && rests_on(bodies, rests, other, into),
                        tolerance,
                    };
                    let pts = &mut self.points[self.blocks[bi as usize].points()];
                    stopped += Self::stop_approach(bodies, pts, on);
                }
                if stopped == 0.0 {
                    break;
                }
            }
            rests[row] = blocks.of(row).iter().any(|&bi| {
                let (other, into) = contact(&self.points, bi);
                let pts = &self.points[self.blocks[bi as usize].points()];
                holds(bodies, row, other, into)
                    && rests_on(bodies, rests, other, into)
                    && pts.iter().any(|p| p.normal_impulse > 0.0)
            });
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
    fn stop_approach(bodies: &mut [SolverBody], pts: &mut [SolverPoint], on: Held) -> f64 {
        let row = on.row;
        let other = if row == pts[0].b { pts[0].a } else { pts[0].b };
        let rises = bodies[other].inv_mass > 0.0;
        let mut pushed = Self::push_apart(bodies, pts, Some(on), rises);
        if rises {
            pushed += Self::push_apart(bodies, pts, None, false);
        }
        pushed
    }

    /// Pushes apart the approaching points of a block to their targets: body `alone.row` only
    /// (the other held where it is; `still_other`: counting its motion into that body as none),
    /// or both (None). Where what holds the body is firm (`Held::firm`), it also takes back the
    /// load of points that lift the body off it faster than the tolerance, down to a standstill
    /// there (or to the separation a target asks): never below no load, and never into an
    /// approach that a gap would allow. The size of the impulses it gave or took back.
    fn push_apart(
        bodies: &mut [SolverBody],
        pts: &mut [SolverPoint],
        alone: Option<Held>,
        still_other: bool,
    ) -> f64 {
        let n = pts.len().min(block_lcp::MAX);
        let (a, b) = (pts[0].a, pts[0].b);
        let (ma, mb) = (bodies[a].inv_mass, bodies[b].inv_mass);
        let only = alone.map(|on| on.row);
        let settle = alone.filter(|on| on.firm).map(|on| on.tolerance);
        let mut c = [0.0; block_lcp::MAX];
        let mut vn = [0.0; block_lcp::MAX];
        // Where a lift stops: at a standstill, or where the target asks the two apart (an
        // impact pushed them together after the step's start, and the end gap must open
        // again). A lift measured from a standstill there was taken back on the upper body,
        // pushed apart again on both, and taken back again, every pass sending both down
        // faster: two balls of a bouncy heap (restitution 0.6) went down at 0.3 and 0.2 m/s, and
        // the heap gained 15 mJ in a step.
        let stop = |p: &SolverPoint| p.target.max(0.0);
        let (mut approaching, mut lifting) = (0u32, 0u32);
        for (i, p) in pts[..n].iter().enumerate() {
            let along_a = bodies[a].v.dot(p.n) + bodies[a].w.dot(p.row.ca);
            let along_b = bodies[b].v.dot(p.n) + bodies[b].w.dot(p.row.cb);
            vn[i] = match (still_other, only == Some(b)) {
                (false, _) => along_b - along_a,
                (true, true) => along_b - along_a.min(0.0),
                (true, false) => along_b.max(0.0) - along_a,
            };
            c[i] = vn[i] - p.target;
            approaching |= u32::from(c[i] < 0.0) << i;
            let lifts = settle.is_some_and(|t| vn[i] > stop(p) + t) && p.normal_impulse > 0.0;
            lifting |= u32::from(lifts) << i;
        }
        // Only a body lifting off as a whole (every loaded point, none approaching): one
        // rocking on its support, a corner rising as another presses, is the iterations' to
        // settle.
        let loaded = if lifting != 0 {
            (0..n).fold(0, |m, i| m | u32::from(pts[i].normal_impulse > 0.0) << i)
        } else {
            0
        };
        if lifting != loaded || approaching != 0 {
            lifting = 0;
        }
        if approaching == 0 && lifting == 0 {
            return 0.0;
        }
        // A lifting point is stopped, not taken down to its target (which may allow an
        // approach, to close a gap); an unloaded one stays as it is unless the others' change
        // would make it approach.
        if lifting != 0 {
            c = std::array::from_fn(|i| {
                if lifting & (1 << i) != 0 {
                    vn[i] - stop(&pts[i])
                } else {
                    0.0
                }
            });
        }
        // The impulse pushes A along -n and B along +n; either way it raises vn.
        let (ma, mb) = match only {
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
            [(-c[0] / k).max(-pts[0].normal_impulse), 0.0, 0.0, 0.0]
        } else {
            let k = block_lcp::coupling_of_sides(ma, mb, n, |i| &pts[i].row);
            if lifting == 0 {
                match block_lcp::solve(&k, &c, n, approaching, None, None) {
                    Some(push) => push,
                    None => return 0.0,
                }
            } else {
                // Taking load back is bounded by the load there is: solved for the points'
                // whole loads x >= 0, which leave the errors c + K (x - x0).
                let x0: [f64; block_lcp::MAX] =
                    std::array::from_fn(|i| if i < n { pts[i].normal_impulse } else { 0.0 });
                let b: [f64; block_lcp::MAX] =
                    std::array::from_fn(|i| c[i] - (0..n).map(|j| k[i][j] * x0[j]).sum::<f64>());
                match block_lcp::solve(&k, &b, n, loaded, None, None) {
                    Some(x) => std::array::from_fn(|i| x[i] - x0[i]),
                    None => return 0.0,
                }
            }
        };
        let mut pushed = 0.0;
        for (p, &d) in pts[..n].iter_mut().zip(&push) {
            if d != 0.0 {
                // Never below zero load, to round-off.
                p.normal_impulse = (p.normal_impulse + d).max(0.0);
                let r = &p.row;
                if ma > 0.0 {
                    bodies[a].change(p.n * (-d * ma), r.spin_a * -d, p.reach);
                }
                if mb > 0.0 {
                    bodies[b].change(p.n * (d * mb), r.spin_b * d, p.reach);
                }
                pushed += d.abs();
            }
        }
        pushed
    }
}
