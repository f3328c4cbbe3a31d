//! Making the solver's points and blocks from the manifolds (`ContactSolver::prepare`), one
//! manifold at a time and independently of the others, so that a large step splits the work
//! over threads with the very result of one thread.
//!
//! One thing links manifolds: a resting contact with a body that cannot move holds the other up
//! (`SolverBody::rest_on`), and the free motion of two spheres about to meet heeds what holds
//! them up (`SolverBody::motion`), as far as the manifolds before theirs in the colours' order
//! found it. On one thread the manifolds are made in that order, each one's supports noted
//! before the next. Split over threads they are made in three passes: all but those pairs of
//! spheres, then the supports in order, then the pairs of spheres, each seeing the supports of
//! the manifolds before it; the first and the last split over threads.

use std::mem::MaybeUninit;

use rayon::prelude::*;

use super::impact_events;
use super::{
    lever_arms, patch_of, time_of_impact, Block, ContactSolver, Coupling, SolverPoint,
    SolverSettings, AT_REST, LEAST_IMPACT_SPEED, NO_COUPLING, RESTING_STEPS, STICK_SPEED, TOGETHER,
};
use crate::collision::manifold::Manifold;
use crate::dynamics::block_lcp::{self, Row};
use crate::dynamics::friction_patch::{Coulomb, Patch};
use crate::dynamics::solver_body::{BodyMass, Motion, SolverBody, MAX_SUPPORTS};
use crate::dynamics::split;
use crate::dynamics::state::State;
use crate::math::DVec3;

/// Manifolds per task of a split making: enough that handing one out is small beside making
/// it (some 60 ns a point), few enough that two threads share a few hundred.
const CHUNK: usize = 64;

/// Where a manifold's points and block go, in the colours' order.
#[derive(Clone, Copy, Debug)]
pub(super) struct Slot {
    manifold: usize,
    /// Its first point's index.
    first: usize,
    /// Its points' `Coupling`, if it has two or more.
    coupling: usize,
}

/// What making a manifold reports besides its points and block.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Made {
    /// A pair of spheres whose motion needs the supports: made in the last pass.
    deferred: bool,
    /// The body a resting contact holds up with a body that cannot move, and the normal
    /// pointing into it.
    holds_up: Option<(usize, DVec3)>,
    /// Whether the block holds without an impact (`ContactSolver::holding`).
    holding: bool,
}

/// The buffers of the making, kept from step to step.
#[derive(Default)]
pub(super) struct MakingBuffers {
    slots: Vec<Slot>,
    made: Vec<Made>,
    /// Per body, the blocks whose resting contacts gave it its supports, in order.
    supported_by: Vec<[usize; MAX_SUPPORTS]>,
}

/// What making a manifold reads besides the solver's bodies.
struct Making<'a> {
    supported: &'a [bool],
    start: &'a State,
    free: &'a State,
    masses: &'a [BodyMass],
    radii: &'a [f64],
    set: &'a SolverSettings,
}

impl ContactSolver {
    /// The points and blocks of the `movable` manifolds taken in `order` (the colours'), with
    /// the supports their resting contacts give and the blocks that hold (see `prepare`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn make(
        &mut self,
        manifolds: &[Manifold],
        order: &[u32],
        movable: impl Fn(&Manifold) -> bool,
        place: &mut dyn FnMut(usize),
        (start, free): (&State, &State),
        (masses, radii): (&[BodyMass], &[f64]),
        set: &SolverSettings,
    ) {
        let mut buffers = std::mem::take(&mut self.making);
        let MakingBuffers {
            slots,
            made,
            supported_by,
        } = &mut buffers;
        slots.clear();
        let (mut points, mut couplings) = (0, 0);
        for &mi in order {
            let m = &manifolds[mi as usize];
            if !movable(m) {
                continue;
            }
            place(mi as usize);
            // One point is solved on its own (`solve_normal`): no coupling needed.
            let coupled = m.points.len() >= 2;
            slots.push(Slot {
                manifold: mi as usize,
                first: points,
                coupling: if coupled { couplings } else { NO_COUPLING },
            });
            points += m.points.len();
            couplings += usize::from(coupled);
        }
        self.couplings.clear();
        self.couplings.resize(couplings, Coupling::default());
        self.points.clear();
        self.points.reserve(points);
        self.blocks.clear();
        self.blocks.reserve(slots.len());
        made.clear();
        made.resize(slots.len(), Made::default());
        let making = Making {
            supported: &self.supported,
            start,
            free,
            masses,
            radii,
            set,
        };
        let point_space = &mut self.points.spare_capacity_mut()[..points];
        let block_space = &mut self.blocks.spare_capacity_mut()[..slots.len()];
        if !split::splits(set.threads, true, points) || rayon::current_thread_index().is_none() {
            // One pass in order: each manifold's supports are there for the ones after it.
            for (bi, slot) in slots.iter().enumerate() {
                let bodies = &self.bodies;
                let motion = |row: usize, _| bodies[row].motion(set.dt, set.position_weight).0;
                let m = &manifolds[slot.manifold];
                let pts = &mut point_space[slot.first..slot.first + m.points.len()];
                let space = &mut block_space[bi];
                made[bi] = making.contact((m, bodies), (bi, slot), Some(&motion), pts, space);
                if let Some((row, n)) = made[bi].holds_up {
                    self.bodies[row].rest_on(n);
                }
            }
        } else {
            making.split_run(
                (manifolds, &self.bodies),
                slots,
                (point_space, block_space),
                made,
                None,
            );
            // The supports, in the colours' order.
            supported_by.resize(self.bodies.len(), [0; MAX_SUPPORTS]);
            for (bi, made) in made.iter().enumerate() {
                if let Some((row, n)) = made.holds_up {
                    let body = &mut self.bodies[row];
                    if let Some(by) = supported_by[row].get_mut(body.support_count) {
                        *by = bi;
                    }
                    body.rest_on(n);
                }
            }
            // The pairs of spheres, each seeing the supports of the manifolds before it.
            let bodies = &self.bodies;
            let motion = |row: usize, bi: usize| {
                let body = &bodies[row];
                let seen = supported_by[row][..body.support_count]
                    .iter()
                    .take_while(|&&by| by < bi)
                    .count();
                body.motion_seeing(seen, set.dt, set.position_weight).0
            };
            let point_space = &mut self.points.spare_capacity_mut()[..points];
            let block_space = &mut self.blocks.spare_capacity_mut()[..slots.len()];
            making.split_run(
                (manifolds, bodies),
                slots,
                (point_space, block_space),
                made,
                Some(&motion),
            );
        }
        // SAFETY: every slot's points and block were written above: in the pass in order, or
        // by `run` unless deferred and then by the last pass; the slots' points cover
        // 0..points without gaps.
        unsafe {
            self.points.set_len(points);
            self.blocks.set_len(slots.len());
        }
        self.holding.clear();
        self.holding
            .extend((0..made.len()).filter(|&bi| made[bi].holding));
        self.making = buffers;
    }
}

/// A body's free linear motion (by row) as the supports found before a block (by index)
/// shape it.
type Motions<'m> = &'m (dyn Fn(usize, usize) -> Motion + Sync);

impl Making<'_> {
    /// Makes the manifolds of `slots` into their points and blocks on the pool's threads:
    /// without `motion`, all but the pairs of spheres that need the supports (marked deferred
    /// in `made`); with it, those alone.
    fn split_run(
        &self,
        (manifolds, bodies): (&[Manifold], &[SolverBody]),
        slots: &[Slot],
        (points, blocks): (&mut [MaybeUninit<SolverPoint>], &mut [MaybeUninit<Block>]),
        made: &mut [Made],
        motion: Option<Motions>,
    ) {
        // Each task takes its manifolds' run of points and blocks.
        let mut tasks = Vec::with_capacity(slots.len().div_ceil(CHUNK));
        let (mut points, mut blocks, mut made) = (points, blocks, made);
        for (k, chunk) in slots.chunks(CHUNK).enumerate() {
            let end = slots
                .get((k + 1) * CHUNK)
                .map_or(points.len() + chunk[0].first, |s| s.first);
            let (p, p_rest) = points.split_at_mut(end - chunk[0].first);
            let (b, b_rest) = blocks.split_at_mut(chunk.len());
            let (d, d_rest) = made.split_at_mut(chunk.len());
            (points, blocks, made) = (p_rest, b_rest, d_rest);
            tasks.push(((k * CHUNK, chunk), (p, b), d));
        }
        tasks
            .into_par_iter()
            .for_each(|(at, space, d)| self.run((manifolds, bodies), at, space, d, motion));
    }

    /// `split_run`'s work on the manifolds of `slots` (the first of them block `at`; `points`
    /// starts at the first slot's first point).
    fn run(
        &self,
        (manifolds, bodies): (&[Manifold], &[SolverBody]),
        (at, slots): (usize, &[Slot]),
        (points, blocks): (&mut [MaybeUninit<SolverPoint>], &mut [MaybeUninit<Block>]),
        made: &mut [Made],
        motion: Option<Motions>,
    ) {
        let base = slots.first().map_or(0, |s| s.first);
        for (k, slot) in slots.iter().enumerate() {
            if motion.is_some() && !made[k].deferred {
                continue;
            }
            let m = &manifolds[slot.manifold];
            let pts = &mut points[slot.first - base..slot.first - base + m.points.len()];
            made[k] = self.contact((m, bodies), (at + k, slot), motion, pts, &mut blocks[k]);
        }
    }

    /// One manifold's points (into `points`) and block (into `block`, block index `bi`).
    /// Without `motion`, a pair of spheres that needs it is left undone and reported deferred.
    fn contact(
        &self,
        (m, bodies): (&Manifold, &[SolverBody]),
        (bi, slot): (usize, &Slot),
        motion: Option<Motions>,
        points: &mut [MaybeUninit<SolverPoint>],
        block: &mut MaybeUninit<Block>,
    ) -> Made {
        let Making {
            supported,
            start,
            free,
            masses,
            radii,
            set,
        } = *self;
        let dt = set.dt;
        let (a, b) = (m.row_a, m.row_b);
        let n_ = m.normal;
        // The contact, not each point, rests: a face that pushed on three corners last step
        // rests on its fourth too (treating that one as an impact would ask the face for a
        // tilt).
        let rested = m.points.iter().any(|p| p.pushed);
        let plastic = m.coefficients.restitution == 0.0;
        // The approach the smooth forces alone give the bodies in a couple of steps (see
        // `resting` below).
        let leftover = set.restitution_threshold
            + RESTING_STEPS
                * ((free.v[a] - start.v[a]).length() + (free.v[b] - start.v[b]).length());
        // What the smooth forces add to the bodies' speeds along the normal in a step, when
        // something holds them (see `resting` below); zero otherwise.
        let along = if supported[a] || supported[b] {
            (free.v[a] - start.v[a]).dot(n_).abs() + (free.v[b] - start.v[b]).dot(n_).abs()
        } else {
            0.0
        };
        let mut sticking = true;
        let (mut holds, mut struck) = (false, false);
        let mut tangent = [DVec3::ZERO; block_lcp::MAX];
        // The two bodies, for all the points.
        let (xa, xb, qa, qb) = (start.x[a], start.x[b], start.q[a], start.q[b]);
        let (va, wa, vb, wb) = (start.v[a], start.w[a], start.v[b], start.w[b]);
        let (va_free, wa_free, vb_free, wb_free) = (free.v[a], free.w[a], free.v[b], free.w[b]);
        let (ba, bb) = (&bodies[a], &bodies[b]);
        let mut rests = false;
        for (pi, p) in m.points.iter().enumerate() {
            let pa = xa + qa * p.local_a;
            let pb = xb + qb * p.local_b;
            let s = (pb - pa).dot(n_);
            let (ra, rb) = lever_arms(pa, pb, n_, xa, xb);
            let vel0 = (vb + wb.cross(rb)) - (va + wa.cross(ra));
            let vel_free = (vb_free + wb_free.cross(rb)) - (va_free + wa_free.cross(ra));
            let (vn0, vn_free) = (vel0.dot(n_), vel_free.dot(n_));
            // How much the gap closes without contact forces, from the contact point's
            // velocities at fixed lever arms (a material point of a rolling ball would rise
            // off the floor and fake a separation). Exact for translation under uniform
            // gravity.
            let w_pos = set.position_weight;
            let d_free = ((1.0 - w_pos) * vn0 + w_pos * vn_free) * dt;
            let an = (vn_free - vn0) / dt;
            let (ca, cb) = (ra.cross(n_), rb.cross(n_));
            let row = Row {
                ca,
                cb,
                spin_a: ba.inv_inertia * ca,
                spin_b: bb.inv_inertia * cb,
            };
            let k = ba.inv_mass + bb.inv_mass + ca.dot(row.spin_a) + cb.dot(row.spin_b);
            // Points within the slop count as touching: an impact elsewhere can push them
            // together at once.
            let touching = s <= set.touching;
            // A contact that touched and pushed last step and approaches no faster than the
            // smooth forces speed its bodies up in a couple of steps is resting: that approach
            // is what last step's iterations left unsolved, not an impact. Bouncing it would
            // send energy into resting piles, and forgetting the warm start around it would
            // leave the next step as far from converged, so a tall column would sink further
            // step after step. Impacts from elsewhere still reach it (the impact stage). A new
            // contact that touches while its bodies are at rest on each other (a body set down
            // on a surface: its gap then closes at the round-off speed of falling through a
            // gap of round-off size) rests too, for the resting solve and its load guess to
            // hold it; so does one that separates at round-off speed. One that moves faster is
            // in flight and lands as an impact, however slowly, with two exceptions, both the
            // leftovers of a settling heap's iterations (taking those for impacts would keep
            // forgetting the warm starts around them, and the heap would tremble for good):
            // - a contact that cannot bounce (no restitution): its impact would only stop the
            //   approach, which is what the resting solve does;
            // - one whose bodies the smooth forces carry together (`TOGETHER`) while something
            //   holds one of them, approaching slower than those forces speed them up along
            //   the normal in a couple of steps: only the load of the pile brings it together,
            //   and a bounce would be pressed back within a step or two. (A ball's last hops,
            //   lower than the slop, on a body that rests on something end there.)
            // A resting contact separating as slowly as it may approach is what the iterations
            // left too (they stop at a tolerance).
            let landing = AT_REST * (-an).max(0.0) * dt;
            let together = an.abs() * dt <= TOGETHER * along;
            let resting = touching
                && vn0.abs()
                    <= if rested || plastic {
                        leftover
                    } else if together {
                        landing.max(RESTING_STEPS * along)
                    } else {
                        landing
                    };
            rests |= resting;
            let spheres = (radii[a] > 0.0 && radii[b] > 0.0).then_some((radii[a], radii[b]));
            // Two spheres: when and how fast their centres' free paths come within the sum of
            // the radii, and how far apart they end (what the gap along this step's normal
            // says of two balls passing each other is not).
            let (toi, gap) = if let Some((r_a, r_b)) = spheres.filter(|_| !resting) {
                let Some(motion) = motion else {
                    return Made {
                        deferred: true,
                        ..Made::default()
                    };
                };
                let toi = impact_events::spheres_meet(
                    xb - xa,
                    &motion(a, bi),
                    &motion(b, bi),
                    r_a + r_b,
                    0.0,
                    dt,
                );
                (toi, (free.x[b] - free.x[a]).length() - (r_a + r_b))
            } else if resting {
                (Some((0.0, vn0.max(0.0))), s.max(0.0) + d_free)
            } else {
                let toi = time_of_impact(s, vn0, an, dt)
                    .map(|tc| (tc, vn0 + an * tc))
                    .or(touching.then_some((0.0, vn0)));
                (toi, s.max(0.0) + d_free)
            };
            let impact =
                toi.filter(|&(_, vc)| vc < -set.restitution_threshold.max(LEAST_IMPACT_SPEED));
            let reach = match impact {
                Some((tc, _)) => dt - tc,
                None => w_pos * dt,
            };
            // The end-of-step gap if the relative normal velocity ends at v,
            // gap + reach (v - vn_free), must not be negative. When impulses cannot move bodies
            // within the step (explicit Euler), keep next step's motion v dt out of the surface
            // instead. Never ask for separation.
            let target = if reach > 0.0 {
                vn_free - gap / reach
            } else {
                -gap / dt
            };
            let warm = impact.is_none();
            holds |= touching && warm && vn0 <= 0.0;
            struck |= !warm;
            sticking = sticking
                && !m.sliding.unwrap_or_else(|| {
                    (vel0 - n_ * vn0).length_squared() >= STICK_SPEED * STICK_SPEED
                });
            if let Some(t) = tangent.get_mut(pi).filter(|_| warm) {
                *t = p.tangent_impulse;
            }
            points[pi].write(SolverPoint {
                manifold: slot.manifold,
                index: pi,
                block: bi,
                a,
                b,
                ra,
                rb,
                n: n_,
                row,
                normal_mass: if k > 0.0 { 1.0 / k } else { 0.0 },
                reach,
                target: target.min(0.0),
                vn_free,
                gap: s,
                toi,
                predicted: impact.is_some(),
                resting,
                spheres,
                restitution: m.coefficients.restitution,
                tangential_restitution: m.coefficients.tangential_restitution,
                bounced: false,
                stopped: false,
                impact_impulse: 0.0,
                impact_tangent: DVec3::ZERO,
                approach_speed: toi.map_or(0.0, |(_, vc)| (-vc).max(0.0)),
                touched_at: toi.map(|(tc, _)| tc),
                normal_impulse: if warm { p.normal_impulse } else { 0.0 },
            });
        }
        // SAFETY: the loop wrote every point of the manifold (`points` has one per point).
        let pts = unsafe {
            std::slice::from_raw_parts(points.as_ptr().cast::<SolverPoint>(), points.len())
        };
        let law = Coulomb {
            mu_s: m.coefficients.static_friction,
            mu_k: m.coefficients.friction,
            sticking,
        };
        block.write(block_of(
            bodies,
            pts,
            (slot.first, slot.coupling),
            &tangent,
            law,
            set.planar,
        ));
        // A resting contact with a body that cannot move holds the other up (see
        // `SolverBody::motion`).
        let holds_up = if rests && rested {
            match (masses[a].inv_mass > 0.0, masses[b].inv_mass > 0.0) {
                (false, true) => Some((b, n_)),
                (true, false) => Some((a, -n_)),
                _ => None,
            }
        } else {
            None
        };
        Made {
            deferred: false,
            holds_up,
            holding: (holds || rested) && !struck,
        }
    }
}

/// The block of one manifold's points `pts` (from `start`; one pair of bodies, one normal),
/// with its place for their coupling matrix (see `Coupling`) and its friction patch, warm
/// started from the points' last friction impulses `tangent` (without any, the patch gets its
/// geometry once it carries load: `Patch::unloaded`).
fn block_of(
    bodies: &[SolverBody],
    pts: &[SolverPoint],
    (start, coupling): (usize, usize),
    tangent: &[DVec3],
    law: Coulomb,
    planar: bool,
) -> Block {
    let len = pts.len().min(block_lcp::MAX);
    let (a, b) = pts.first().map_or((0, 0), |p| (p.a, p.b));
    let built = tangent[..len].iter().any(|&t| t != DVec3::ZERO);
    let patch = if built {
        patch_of(bodies, pts, tangent, law, planar)
    } else {
        Patch::unloaded(law, planar)
    };
    Block {
        start,
        len: pts.len(),
        a,
        b,
        coupling,
        patch,
        built,
    }
}
