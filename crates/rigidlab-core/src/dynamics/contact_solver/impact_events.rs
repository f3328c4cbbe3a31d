//! Stage 2 of the contact solver: impacts, one at a time in the order they happen within the
//! step.
//!
//! Each body moves through the step on its free path (the integrator's: from its start
//! velocity to where the integrator put it, see `SolverBody::motion`), changed by every impact
//! from that impact's time on. Every contact point's gap is followed along those paths: along
//! its normal at fixed lever arms (exact for a sphere on a plane and for faces that do not
//! turn much in a step), or, for two spheres, between their centres, so that a glancing hit
//! takes the line of centres at the moment of contact. Where a rounded side meets another
//! body at one point (a ball against an edge or a corner, a capsule's end), the normal turns
//! with where they meet; between polyhedra, one of which turns, it turns with the face (or
//! the edges) it belongs to. At the time such a gap closes, the narrow phase finds the contact
//! again at the bodies' poses then, and if they are still apart the gap is followed on from
//! there along the new normal (Newton's method on the true distance, which the gap along a
//! fixed normal never overestimates). The earliest closing gap in the step is
//! the next impact: its pair's touching points are solved together at that time (impact.rs:
//! restitution and Coulomb friction together, never adding energy), and the gaps of every
//! contact of the two bodies are found again from then on. An impact that sets a body moving
//! towards a neighbour across a small gap is so found and resolved in time order; one that
//! pushes two touching bodies together is an impact at once. Sequences of collisions are those
//! of exact binary collisions (event-driven simulation, as molecular dynamics of hard spheres
//! does it: Alder and Wainwright 1959).
//!
//! A bouncing contact under a steady acceleration towards the surface (a ball on the floor)
//! bounces again within the step if it lands again within it. Its bounces, each e times the
//! last, end in finite time (they last 2 e u / (a (1 - e)) from an impact at speed u, in
//! infinitely many ever shorter hops); when they would end within this step, the impact stops
//! the approach instead: the contact has come to rest within the step. (With a restitution
//! threshold the hops end once slower than it, and are followed one by one.)

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::{
    ContactSolver, Coupling, Impact, SolverPoint, LEAST_IMPACT_SPEED, NO_COUPLING, STICK_SPEED,
};
use crate::body::Body;
use crate::collision::manifold::Manifold;
use crate::collision::narrow_phase::{NarrowPhase, Posed};
use crate::dynamics::block_lcp::{self, Row};
use crate::dynamics::by_row::ByRow;
use crate::dynamics::friction_patch::Patch;
use crate::dynamics::impact::{self, ImpactBody, ImpactPoint, PointImpulse};
use crate::dynamics::solver_body::{Motion, SolverBody};
use crate::dynamics::state::State;
use crate::math::{rotate_tensor, DMat3, DQuat, DVec3};
use crate::shape::Shape;

/// Points closer than this fraction of the touching gap (the linear slop) at an impact's time
/// take part in it: a face landing flat meets the surface at all its corners at once, to
/// round-off.
const SAME_IMPACT: f64 = 1e-6;

/// Most impacts one step resolves, per contact point (a touching row of balls with e < 1
/// passes ever smaller impacts back and forth; they die out well before this). Beyond it, what
/// is left goes to the resting solve.
const IMPACTS_PER_POINT: usize = 64;

/// Most sweeps over a struck cluster (see `settle_plastic`), per iteration of the resting
/// solve: they stop sooner once one changes no relative velocity by more than the solver's
/// tolerance. A short stack converges in a few; in a large pile, where a blow would need of the
/// order of the pile's height squared, the shock sweep (`shock`) passes on what they leave.
/// Measured on 1 000 mixed bodies raining into a bin, where nearly every step's cluster is the
/// whole heap: 4 per iteration cost 1.5 ms a step more than 1 for the same heap.
const PLASTIC_SWEEPS: u32 = 1;

/// The struck cluster's sweeps also stop once one changes no relative velocity by more than
/// this fraction of what the first changed: the blow has been passed on and stopped where it
/// ends, to a thousandth.
const PLASTIC_SETTLED: f64 = 1e-3;

/// Sweeps over one body's contacts with the level below in the shock sweep (see `shock`): a
/// body resting on two or more below shares the stop among them.
const SHOCK_PASSES: u32 = 4;

/// The least rise of a contact's normal (its cosine with up, against gravity) at which what
/// cannot move holds a body up in the shock sweep (`shock`): a floor, a ramp up to 60 degrees
/// steep, not a wall. Measured on 4 000 discs dropped into a bin of zero-thickness segments
/// (1 000 steps): with the walls as supports too, the blows ran sideways from them, the pile
/// pressed itself 98 mm deep into itself (of 100 mm diameters) and lost a disc through a wall,
/// at 85 ms a step; with the floor alone, 1.5 mm, none lost, 36 ms a step.
const SUPPORT_SLOPE: f64 = 0.5;

/// Whether a contact whose normal points into a body along `into` holds it up (`up`: against
/// gravity; without gravity, whatever it touches does).
pub(crate) fn holds_up(up: DVec3, into: DVec3) -> bool {
    up == DVec3::ZERO || into.dot(up) >= SUPPORT_SLOPE
}

/// Roots of a gap this close before the time searched from (as a fraction of the step) are
/// taken as closing then: the gap is zero there to round-off.
const ROOT_ROUND_OFF: f64 = 1e-9;

/// How much (rad) a contact's normal at the step's start may differ from its features' at the
/// step's start, beyond what the bodies turned since: a contact refreshed rather than found
/// again keeps its normal while the bodies turn by up to about the linear slop over their size
/// (collision/refresh.rs).
const SAME_FEATURES: f64 = 1e-3;

/// Most times a point's contact is found again at its predicted time of impact in one step
/// (see `meet_again`). Each is a step of Newton's method on the distance from the true
/// geometry, so a ball meeting an edge is within round-off after two or three. A gap that
/// only touches zero (a graze: its rate is zero there) is approached ever more slowly and
/// never closes: past the limit it is let go.
const MEETINGS_PER_POINT: u8 = 8;

/// A point's next impact as scheduled: when, and the versions of its bodies then (an entry is
/// stale once either body was struck since).
#[derive(Clone, Copy, Debug)]
struct Entry {
    time: f64,
    point: u32,
    versions: (u32, u32),
    /// Whether the point touched when it was scheduled (it closes at once).
    touching: bool,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    /// Earliest first (the heap is a max-heap), then by point, so the order is deterministic.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .time
            .total_cmp(&self.time)
            .then(other.point.cmp(&self.point))
    }
}

/// The impact stage's buffers, reused from step to step.
#[derive(Default)]
pub struct Schedule {
    heap: BinaryHeap<Entry>,
    /// The points of each body (by row).
    by_row: ByRow,
    versions: Vec<u32>,
    /// The points taking part in the current impact, and what they get.
    taking_part: Vec<usize>,
    impulses: Vec<PointImpulse>,
    /// How often each point's contact was found again this step, and the narrow phase that
    /// finds it.
    meetings: Vec<u8>,
    narrow: NarrowPhase,
    /// Plastic contacts pushed together while touching (and when), left to `settle_plastic`,
    /// and its buffers: the points of the cluster, their impulses, the offsets of their
    /// rates and the approach each is left with until the blow reaches it (see
    /// `sweep_cluster`), the bodies reached and those still to visit.
    plastic: Vec<(usize, f64)>,
    in_cluster: Vec<bool>,
    cluster: Vec<usize>,
    pushed: Vec<f64>,
    offset: Vec<f64>,
    kept: Vec<f64>,
    seen: Vec<bool>,
    queue: Vec<usize>,
    /// Each point's place in the cluster (`usize::MAX`: not in it), and each body's distance
    /// in contacts from what holds the cluster up (see `shock`).
    slot: Vec<usize>,
    level: Vec<u32>,
    /// The blocks of the cluster's points, each once, as the sweeps solve them.
    listed: Vec<bool>,
    cluster_blocks: Vec<PlasticBlock>,
    /// What the cluster's impulses did to each body they reached (by row, `Blow::default()`
    /// for the others), and those bodies' rows.
    blows: Vec<Blow>,
    struck: Vec<usize>,
    /// Per body row: the last of the cluster's sweeps (counted from 1) in which a block of it
    /// changed by more than the sweeps' tolerance (0: none), and the changes of the first
    /// sweep's blocks (see `sweep_cluster`).
    stirred: Vec<u32>,
    first_changes: Vec<f64>,
    /// The blocks a body of `shock` rests on.
    below: Vec<PlasticBlock>,
}

/// The points of a block that a plastic impact of the cluster stops together (`plastic_block`):
/// which they are, their rows (one side's alone when only one body moves, see `shock`) and
/// their K. Fixed for a cluster's sweeps, which change velocities only: worked out once.
#[derive(Clone, Copy, Debug)]
struct PlasticBlock {
    members: [usize; block_lcp::MAX],
    rows: [Row; block_lcp::MAX],
    m: usize,
    k: [[f64; block_lcp::MAX]; block_lcp::MAX],
    /// The rows whose marks the cluster's sweeps read and set (see `sweep_cluster`): the two
    /// bodies, or the one that can move twice (a body that cannot move is never stirred).
    stirs: (usize, usize),
}

/// A body's share of a struck cluster's impulses, all at one time (see `settle_plastic`): its
/// velocities before them and the angular impulse they add up to.
#[derive(Clone, Copy, Debug, Default)]
struct Blow {
    v0: DVec3,
    w0: DVec3,
    l: DVec3,
    struck: bool,
}

impl Schedule {
    /// Changes body `row`'s velocities by dv and dw, from an angular impulse dl, noting the
    /// rest for `settle_plastic` to add up.
    fn blow(&mut self, bodies: &mut [SolverBody], row: usize, dv: DVec3, dw: DVec3, dl: DVec3) {
        let body = &mut bodies[row];
        let blow = &mut self.blows[row];
        if !blow.struck {
            *blow = Blow {
                v0: body.v,
                w0: body.w,
                l: DVec3::ZERO,
                struck: true,
            };
            self.struck.push(row);
        }
        body.v += dv;
        body.w += dw;
        blow.l += dl;
    }
}

/// The first time in [t0, dt] at which g(t) = c0 + c1 t + c2 t^2 reaches zero while falling, or
/// t0 if it is already closed and closing there; with the rate g'(t) then.
fn quadratic_closes(c0: f64, c1: f64, c2: f64, t0: f64, dt: f64) -> Option<(f64, f64)> {
    let g = |t: f64| c0 + (c1 + c2 * t) * t;
    let rate = |t: f64| c1 + 2.0 * c2 * t;
    if g(t0) <= 0.0 && rate(t0) < 0.0 {
        return Some((t0, rate(t0)));
    }
    let roots = if c2 == 0.0 {
        if c1 == 0.0 {
            return None;
        }
        [-c0 / c1, f64::INFINITY]
    } else {
        let disc = c1 * c1 - 4.0 * c2 * c0;
        if disc < 0.0 {
            return None;
        }
        // The stable pair of roots (no cancellation).
        let q = -0.5 * (c1 + c1.signum() * disc.sqrt());
        [q / c2, if q != 0.0 { c0 / q } else { f64::INFINITY }]
    };
    // A root a hair before t0 is one that round-off moved: the gap closes at t0.
    let early = ROOT_ROUND_OFF * dt;
    roots
        .into_iter()
        .filter(|&t| t >= t0 - early && t <= dt && rate(t) < 0.0)
        .min_by(f64::total_cmp)
        .map(|t| (t.max(t0), rate(t.max(t0))))
}

/// When two spheres whose centres are `d0` apart at the step's start (B's minus A's) and move
/// as `ma` and `mb` come within `reach` (the sum of their radii) of each other, in [t0, dt]:
/// the time and the rate at which their distance then shrinks (negative). Exact when their
/// accelerations are the same (uniform gravity, no other force), where the distance squared
/// is a quadratic in t; otherwise the distance is followed by conservative advancement and the
/// root polished by Newton's method.
pub fn spheres_meet(
    d0: DVec3,
    ma: &Motion,
    mb: &Motion,
    reach: f64,
    t0: f64,
    dt: f64,
) -> Option<(f64, f64)> {
    let (p, q, r) = (d0 + mb.c0 - ma.c0, mb.c1 - ma.c1, mb.c2 - ma.c2);
    let at = |t: f64| p + (q + r * t) * t;
    let rate = |t: f64| {
        let d = at(t);
        let len = d.length();
        if len > 0.0 {
            d.dot(q + r * (2.0 * t)) / len
        } else {
            -(q + r * (2.0 * t)).length()
        }
    };
    // What the relative acceleration moves them by in the step, against their size and speed.
    if r.length() * dt * dt <= 1e-13 * (reach + q.length() * dt) {
        // |p + q t|^2 = reach^2.
        let (a, b, c) = (
            q.length_squared(),
            2.0 * p.dot(q),
            p.length_squared() - reach * reach,
        );
        return quadratic_closes(c, b, a, t0, dt).map(|(t, _)| (t, rate(t)));
    }
    let mut t = t0;
    let bound = q.length() + 2.0 * r.length() * dt;
    if bound == 0.0 {
        return None;
    }
    for _ in 0..200 {
        let gap = at(t).length() - reach;
        if gap <= 1e-12 * reach {
            break;
        }
        t += gap / bound;
        if t > dt {
            return None;
        }
    }
    if at(t).length() - reach <= 0.0 && t == t0 && rate(t) >= 0.0 {
        return None;
    }
    // Newton on |d(t)| - reach, which conservative advancement left just outside the root.
    for _ in 0..3 {
        let (gap, v) = (at(t).length() - reach, rate(t));
        if v >= 0.0 || gap.abs() <= 1e-15 * reach {
            break;
        }
        t = (t - gap / v).clamp(t0, dt);
    }
    let v = rate(t);
    (v < 0.0 && at(t).length() - reach <= 1e-9 * reach).then_some((t, v))
}

/// The relative normal motion at a point: B's motion minus A's along n at fixed lever arms
/// (the point's row).
fn along(
    row: &Row,
    n: DVec3,
    (la, aa): (Motion, Motion),
    (lb, ab): (Motion, Motion),
) -> (f64, f64, f64) {
    let f =
        |a: DVec3, b: DVec3, wa: DVec3, wb: DVec3| (b - a).dot(n) + wb.dot(row.cb) - wa.dot(row.ca);
    (
        f(la.c0, lb.c0, aa.c0, ab.c0),
        f(la.c1, lb.c1, aa.c1, ab.c1),
        f(la.c2, lb.c2, aa.c2, ab.c2),
    )
}

/// What the impacts alone do to a body (for resting contacts, whose free approach the resting
/// solve holds).
fn impacts_only(b: &SolverBody, dt: f64) -> (Motion, Motion) {
    (
        Motion {
            c0: b.x_impact - b.v_impact * dt,
            c1: b.v_impact,
            c2: DVec3::ZERO,
        },
        Motion {
            c0: b.theta_impact - b.w_impact * dt,
            c1: b.w_impact,
            c2: DVec3::ZERO,
        },
    )
}

impl ContactSolver {
    /// The gap of point p at time t (m) as a quadratic from the latest impact on (see `along`);
    /// for two spheres, the distance of their surfaces at t.
    fn gap_at(&self, p: &SolverPoint, start: &State, dt: f64, weight: f64, t: f64) -> f64 {
        if let Some((r_a, r_b)) = p.spheres {
            let (ma, mb) = self.centres(p, dt, weight);
            return (start.x[p.b] - start.x[p.a] + mb.at(t) - ma.at(t)).length() - (r_a + r_b);
        }
        let (c0, c1, c2) = self.gap_polynomial(p, dt, weight);
        c0 + (c1 + c2 * t) * t
    }

    /// How the centres of a sphere pair's bodies move: as they do, or for a resting pair (whose
    /// free approach the resting solve holds) as the impacts alone move them.
    fn centres(&self, p: &SolverPoint, dt: f64, weight: f64) -> (Motion, Motion) {
        let (ba, bb) = (&self.bodies[p.a], &self.bodies[p.b]);
        if p.resting {
            (impacts_only(ba, dt).0, impacts_only(bb, dt).0)
        } else {
            (ba.motion(dt, weight).0, bb.motion(dt, weight).0)
        }
    }

    /// The coefficients of a (non-sphere) point's gap as a quadratic in t.
    fn gap_polynomial(&self, p: &SolverPoint, dt: f64, weight: f64) -> (f64, f64, f64) {
        let (ba, bb) = (&self.bodies[p.a], &self.bodies[p.b]);
        if p.resting {
            // Resting within the slop: what gap there is still has to close.
            let (c0, c1, c2) = along(&p.row, p.n, impacts_only(ba, dt), impacts_only(bb, dt));
            return (p.gap.max(0.0) + c0, c1, c2);
        }
        let (c0, c1, c2) = along(&p.row, p.n, ba.motion(dt, weight), bb.motion(dt, weight));
        (p.gap + c0, c1, c2)
    }

    /// How fast point p's gap changes at time t (m/s, negative when closing).
    fn closing_rate(&self, p: &SolverPoint, start: &State, dt: f64, weight: f64, t: f64) -> f64 {
        if p.spheres.is_some() {
            let (ma, mb) = self.centres(p, dt, weight);
            let d = (start.x[p.b] - start.x[p.a] + mb.at(t) - ma.at(t)).normalize_or_zero();
            return d.dot(mb.rate(t) - ma.rate(t));
        }
        let (_, c1, c2) = self.gap_polynomial(p, dt, weight);
        c1 + 2.0 * c2 * t
    }

    /// When point p next closes at or after t0 within the step, and the rate then.
    fn next_closing(
        &self,
        p: &SolverPoint,
        start: &State,
        dt: f64,
        weight: f64,
        t0: f64,
    ) -> Option<(f64, f64)> {
        if let Some((r_a, r_b)) = p.spheres {
            let (ma, mb) = self.centres(p, dt, weight);
            return spheres_meet(start.x[p.b] - start.x[p.a], &ma, &mb, r_a + r_b, t0, dt);
        }
        let (c0, c1, c2) = self.gap_polynomial(p, dt, weight);
        quadratic_closes(c0, c1, c2, t0, dt)
    }

    /// Stage 2: resolves this step's impacts in the order they happen (see the module's
    /// comment), records them in `impacts`, and sets the resting solve's targets of the
    /// contacts they moved.
    pub fn impacts(
        &mut self,
        start: &State,
        bodies: &[Body],
        manifolds: &[Manifold],
        set: &super::SolverSettings,
    ) {
        if !self.points.iter().any(|p| p.predicted) {
            return;
        }
        let (dt, weight) = (set.dt, set.position_weight);
        let mut sched = std::mem::take(&mut self.schedule);
        sched.index(&self.points, self.bodies.len());
        sched.heap.clear();
        sched.plastic.clear();
        sched.meetings.clear();
        sched.meetings.resize(self.points.len(), 0);
        // Until an impact moves their bodies, only the points the free motion brings to an
        // impact can have one (the others are scheduled once an impact moves them).
        for (i, p) in self.points.iter().enumerate().filter(|(_, p)| p.predicted) {
            if let Some((t, _)) = self.next_closing(p, start, dt, weight, 0.0) {
                sched.heap.push(Entry {
                    time: t,
                    point: i as u32,
                    versions: (0, 0),
                    touching: t <= ROOT_ROUND_OFF * dt,
                });
            }
        }
        let threshold = set.restitution_threshold.max(LEAST_IMPACT_SPEED);
        let mut left = IMPACTS_PER_POINT * self.points.len();
        while let Some(entry) = sched.heap.pop() {
            let pi = entry.point as usize;
            let (a, b) = (self.points[pi].a, self.points[pi].b);
            if entry.versions != (sched.versions[a], sched.versions[b]) {
                continue;
            }
            let t = entry.time;
            // The gap was followed along the normal and lever arms of the geometry it was
            // last found with; where the normal turns with the place the bodies meet (a ball
            // against an edge or a corner), the contact is found again at t. Still apart, it
            // closes later along the new normal: scheduled again.
            if !entry.touching && self.turns_where_it_meets(pi, bodies, set.touching) {
                // Still apart after as many meetings as converge on a true impact: a graze (a
                // ball rolling over the seam between two flush blocks comes ever closer to the
                // next one's edge, never faster than its gap shrinks), not an impact.
                if sched.meetings[pi] == MEETINGS_PER_POINT {
                    continue;
                }
                sched.meetings[pi] += 1;
                let gap = self.meet_again(pi, t, start, bodies, manifolds, set, &mut sched.narrow);
                if gap.is_some_and(|g| g > SAME_IMPACT * set.touching) {
                    // Every point of the block has its new geometry: whichever closes first.
                    for q in self.blocks[self.block_of(pi)].points() {
                        let p = &self.points[q];
                        if let Some((tq, _)) = self.next_closing(p, start, dt, weight, t) {
                            sched.heap.push(Entry {
                                time: tq,
                                point: q as u32,
                                versions: entry.versions,
                                touching: false,
                            });
                        }
                    }
                    continue;
                }
            }
            let p = &self.points[pi];
            let rate = self.closing_rate(p, start, dt, weight, t);
            if -rate <= LEAST_IMPACT_SPEED {
                continue;
            }
            // A touching contact pushed together slower than the smooth forces speed its
            // bodies up in a couple of steps (in a pile under gravity) is the resting solve's,
            // as a resting contact approaching that slowly is (see `prepare`): its bounce would
            // come back within a step or two, to be bounced again, ever smaller, and stopping
            // it as an impact would only do earlier in the step what the resting solve does at
            // its end. (Measured on 1 000 discs dropped into a 2D bin: as impacts, such pushes
            // were stopped with all the pile's touching contacts at every step, 25% of its
            // time.)
            if entry.touching && -rate <= Self::settling_speed(&self.bodies, p) {
                continue;
            }
            // A perfectly plastic contact that an impact pushes together while it touches is
            // stopped with the touching contacts around it all at once (`settle_plastic`):
            // binary plastic impacts would pass ever smaller impacts back and forth along a
            // touching row without end (inelastic collapse), converging to what that gives.
            if entry.touching && p.restitution == 0.0 {
                sched.plastic.push((pi, t));
                continue;
            }
            if left == 0 {
                break;
            }
            left -= 1;
            self.impact(pi, t, -rate >= threshold, start, set, &mut sched);
            // A body that impacts cannot move (static, kinematic) keeps its schedule.
            for row in [a, b]
                .into_iter()
                .filter(|&r| self.bodies[r].inv_mass > 0.0)
            {
                sched.versions[row] += 1;
            }
            for row in [a, b]
                .into_iter()
                .filter(|&r| self.bodies[r].inv_mass > 0.0)
            {
                for k in sched.by_row.offsets[row]..sched.by_row.offsets[row + 1] {
                    let q = sched.by_row.items[k] as usize;
                    let p = &self.points[q];
                    if let Some((tq, _)) = self.next_closing(p, start, dt, weight, t) {
                        sched.heap.push(Entry {
                            time: tq,
                            point: q as u32,
                            versions: (sched.versions[p.a], sched.versions[p.b]),
                            touching: tq - t <= ROOT_ROUND_OFF * dt,
                        });
                    }
                }
            }
        }
        self.settle_plastic(&mut sched, start, set);
        self.retarget(start, dt, weight);
        self.schedule = sched;
    }

    /// Stops together the plastic contacts that impacts pushed together while they touched,
    /// with every touching contact linked to them through movable bodies (a stack struck from
    /// above, down to the floor): a plastic impact of that cluster at the time the first of
    /// them was pushed, its normal impulses found by Gauss-Seidel sweeps over the cluster alone
    /// until no contact approaches. Binary impacts would pass ever smaller impacts back and
    /// forth (inelastic collapse); this is their limit.
    fn settle_plastic(&mut self, sched: &mut Schedule, start: &State, set: &super::SolverSettings) {
        let Some(t) = sched.plastic.iter().map(|&(_, t)| t).min_by(f64::total_cmp) else {
            return;
        };
        // The sweeps change the bodies' velocities only; what else an impact notes of a body
        // (`SolverBody::impact_moves`) is added up once at the end: a landing pile's sweeps
        // pass the blow through every contact up to ten times.
        sched.blows.clear();
        sched.blows.resize(self.bodies.len(), Blow::default());
        sched.struck.clear();
        self.sweep_cluster(sched, start, set, t);
        for &row in &sched.struck {
            let (body, blow) = (&mut self.bodies[row], &sched.blows[row]);
            let (dv, dw) = (body.v - blow.v0, body.w - blow.w0);
            body.impact_moves(dv, dw, blow.l, t, set.dt);
        }
    }

    /// `settle_plastic`'s sweeps of the cluster struck at time t.
    fn sweep_cluster(
        &mut self,
        sched: &mut Schedule,
        start: &State,
        set: &super::SolverSettings,
        t: f64,
    ) {
        let (dt, weight) = (set.dt, set.position_weight);
        sched.in_cluster.clear();
        sched.in_cluster.resize(self.points.len(), false);
        sched.seen.clear();
        sched.seen.resize(self.bodies.len(), false);
        sched.queue.clear();
        for &(pi, _) in &sched.plastic {
            let p = &self.points[pi];
            for row in [p.a, p.b] {
                if self.bodies[row].inv_mass > 0.0 && !sched.seen[row] {
                    sched.seen[row] = true;
                    sched.queue.push(row);
                }
            }
        }
        // Breadth first from the struck bodies, so that each sweep meets the contacts in the
        // order the blow travels through them (down a stack from its top), and passes it on
        // in one sweep, as shock propagation does (Guendelman, Bridson and Fedkiw 2003).
        sched.cluster.clear();
        let mut next = 0;
        while let Some(&row) = sched.queue.get(next) {
            next += 1;
            for k in sched.by_row.offsets[row]..sched.by_row.offsets[row + 1] {
                let q = sched.by_row.items[k] as usize;
                let p = &self.points[q];
                if sched.in_cluster[q] || (p.gap > set.touching && !p.bounced) {
                    continue;
                }
                sched.in_cluster[q] = true;
                sched.cluster.push(q);
                let other = if p.a == row { p.b } else { p.a };
                if self.bodies[other].inv_mass > 0.0 && !sched.seen[other] {
                    sched.seen[other] = true;
                    sched.queue.push(other);
                }
            }
        }
        sched.pushed.clear();
        sched.pushed.resize(sched.cluster.len(), 0.0);
        // A point's rate at t differs from its relative normal velocity at the step's end by
        // what the free motion and the resting solve's impulses change from t to the end, which
        // impacts at t do not: worked out once, the sweeps read the end velocities.
        sched.offset.clear();
        sched.kept.clear();
        for &q in &sched.cluster {
            let p = &self.points[q];
            let rate = self.closing_rate(p, start, dt, weight, t);
            sched
                .offset
                .push(rate - Self::normal_velocity(&self.bodies, p));
            // A touching contact that the smooth forces alone push together slower than they
            // speed its bodies up in a couple of steps is the resting solve's, as `impacts`
            // leaves it (see there), until the blow pushes it together faster: stopped here,
            // gravity's approach at every contact of a landing pile's cluster was carried
            // through the pile by sweep after sweep (4 000 discs dropped into a 2D bin took 22
            // ms a step against 17, and rested 0.31 mm deep against 0.11).
            let slow = rate < 0.0 && -rate <= Self::settling_speed(&self.bodies, p);
            sched.kept.push(if slow { rate } else { 0.0 });
        }
        sched.slot.clear();
        sched.slot.resize(self.points.len(), usize::MAX);
        for (i, &q) in sched.cluster.iter().enumerate() {
            sched.slot[q] = i;
        }
        // A block's points are solved together: the blocks in the order their points came.
        sched.listed.clear();
        sched.listed.resize(self.blocks.len(), false);
        sched.cluster_blocks.clear();
        for &q in &sched.cluster {
            let bi = self.block_of(q);
            if !sched.listed[bi] {
                sched.listed[bi] = true;
                let block = self.plastic_of(bi, None, &sched.slot);
                sched.cluster_blocks.push(block);
            }
        }
        let blocks = std::mem::take(&mut sched.cluster_blocks);
        // The first sweep goes over every block; the blow it passes on is what the sweeps'
        // tolerance is measured against. Each sweep after it goes over the blocks of bodies
        // that a block changed by more than that tolerance in the last sweep or this one: the
        // others' bodies have not moved by more since they were last solved, and solving them
        // again would change them by no more (Gauss-Seidel's usual active set). In a landing
        // 2D column of 2 000 discs some 6% of the cluster's blocks change by more in a sweep
        // after the first; in a heap of 1 000 dropped cubes, half.
        let mut first_changes = std::mem::take(&mut sched.first_changes);
        first_changes.clear();
        for block in &blocks {
            first_changes.push(self.plastic_block(block, None, sched));
        }
        let blow = first_changes.iter().copied().fold(0.0, f64::max);
        let tolerance = set.tolerance.max(PLASTIC_SETTLED * blow);
        let mut settled = blow <= tolerance;
        sched.stirred.clear();
        sched.stirred.resize(self.bodies.len(), 0);
        for (block, &change) in blocks.iter().zip(&first_changes) {
            if change > tolerance {
                let (a, b) = block.stirs;
                sched.stirred[a] = 1;
                sched.stirred[b] = 1;
            }
        }
        sched.first_changes = first_changes;
        for sweep in 2..=PLASTIC_SWEEPS * set.iterations {
            if settled {
                break;
            }
            let mut change = 0.0f64;
            for block in &blocks {
                let (a, b) = block.stirs;
                if sched.stirred[a].max(sched.stirred[b]) + 1 < sweep {
                    continue;
                }
                let c = self.plastic_block(block, None, sched);
                if c > tolerance {
                    sched.stirred[a] = sweep;
                    sched.stirred[b] = sweep;
                }
                change = change.max(c);
            }
            // Converged, or to a thousandth of the blow: the resting solve goes on from there.
            settled = change <= tolerance;
        }
        sched.cluster_blocks = blocks;
        if !settled {
            self.shock(sched, -set.down, set.tolerance);
        }
    }

    /// The cluster's points of block `bi` as `plastic_block` solves them (`slot`: each point's
    /// place in the cluster). With `only`, the impulses move that body alone, as if the other
    /// could not move (see `shock`).
    fn plastic_of(&self, bi: usize, only: Option<usize>, slot: &[usize]) -> PlasticBlock {
        let (block, row_a, row_b) = {
            let block = &self.blocks[bi];
            (block.points(), block.a, block.b)
        };
        let mut members = [0usize; block_lcp::MAX];
        let mut rows = [Row::default(); block_lcp::MAX];
        let mut m = 0;
        for q in block {
            if slot[q] == usize::MAX || m == block_lcp::MAX {
                continue;
            }
            rows[m] = self.points[q].row;
            members[m] = q;
            m += 1;
        }
        // Body A is pushed along -n and B along n: either way a push raises the rate.
        let mass = |row: usize| self.bodies[row].inv_mass;
        let (ma, mb) = match only {
            Some(row) if row == row_b => (0.0, mass(row_b)),
            Some(_) => (mass(row_a), 0.0),
            None => (mass(row_a), mass(row_b)),
        };
        let stirs = match (mass(row_a) > 0.0, mass(row_b) > 0.0) {
            (true, false) => (row_a, row_a),
            (false, true) => (row_b, row_b),
            _ => (row_a, row_b),
        };
        PlasticBlock {
            members,
            rows,
            m,
            k: block_lcp::coupling_of_sides(ma, mb, m, |i| &rows[i]),
            stirs,
        }
    }

    /// One plastic impact of a block's points in the cluster at time t (`block`, see
    /// `plastic_of`): their normal impulses together (a face landing flat on a face, pushed one
    /// corner at a time, would be turned), kept >= 0 in total, so that none of them
    /// approaches; a block no blow has reached yet keeps the approach the smooth forces gave
    /// it (see `sweep_cluster`). With `only` (the body `plastic_of` was given), the impulses
    /// move that body alone and only push (see `shock`). Returns the largest change of a
    /// point's relative normal velocity (m/s).
    fn plastic_block(
        &mut self,
        block: &PlasticBlock,
        only: Option<usize>,
        sched: &mut Schedule,
    ) -> f64 {
        let PlasticBlock {
            members,
            rows,
            m,
            ref k,
            ..
        } = *block;
        let mut rate = [0.0; block_lcp::MAX];
        let mut held = [0.0; block_lcp::MAX];
        let mut kept = [0.0; block_lcp::MAX];
        for (j, &q) in members[..m].iter().enumerate() {
            let i = sched.slot[q];
            rate[j] = Self::normal_velocity(&self.bodies, &self.points[q]) + sched.offset[i];
            held[j] = if only.is_some() { 0.0 } else { sched.pushed[i] };
            // `shock` stops every approach: it is the sweeps' last resort for a column whose
            // blow they could not pass down.
            kept[j] = if only.is_some() { 0.0 } else { sched.kept[i] };
        }
        // Once the blow reaches a block, all its approach is stopped: stopping only what the
        // blow added left contacts approaching after it, and a 2D pile of 1 600 discs never
        // came to rest.
        if (0..m).all(|i| rate[i] >= kept[i] && held[i] == 0.0) {
            return 0.0;
        }
        // Impulses x >= 0 in all, leaving no approach.
        let x = if m == 1 {
            [(held[0] - rate[0] / k[0][0]).max(0.0), 0.0, 0.0, 0.0]
        } else {
            let b: [f64; block_lcp::MAX] =
                std::array::from_fn(|i| rate[i] - block_lcp::row_times(k, i, &held, m));
            let pushing = (0..m).fold(0, |mask, i| {
                mask | (u32::from(held[i] > 0.0 || rate[i] < 0.0) << i)
            });
            match block_lcp::solve(k, &b, m, pushing, None, None) {
                Some(x) => x,
                None => return 0.0,
            }
        };
        let d: [f64; block_lcp::MAX] = std::array::from_fn(|j| x[j] - held[j]);
        let change = block_lcp::largest_change(k, &d, m);
        for (j, &q) in members[..m].iter().enumerate() {
            let d = d[j];
            if d == 0.0 {
                continue;
            }
            let p = &self.points[q];
            let (n, row, a, b) = (p.n, rows[j], p.a, p.b);
            if only != Some(b) {
                let dv = n * (-d * self.bodies[a].inv_mass);
                sched.blow(&mut self.bodies, a, dv, row.spin_a * -d, row.ca * -d);
            }
            if only != Some(a) {
                let dv = n * (d * self.bodies[b].inv_mass);
                sched.blow(&mut self.bodies, b, dv, row.spin_b * d, row.cb * d);
            }
            sched.pushed[sched.slot[q]] += d;
            self.points[q].impact_impulse += d;
        }
        change
    }

    /// The last sweep over a struck cluster whose sweeps did not pass the blow on to what holds
    /// it up (a tall column landing: Gauss-Seidel needs of the order of its height squared
    /// sweeps for that), as shock propagation does (Guendelman, Bridson and Fedkiw 2003): from
    /// the bodies that something which cannot move holds up (`up`: against gravity; without
    /// gravity, anything that cannot move), level by level, each body's
    /// contacts with the level below stop its approach as if that level could not move. What
    /// is left approaching would otherwise be the next steps' to stop, again and again, while
    /// the column's momentum crosses every contact at a tilt and throws the bodies sideways.
    /// Bodies the cluster does not link to a support keep the sweeps' result.
    fn shock(&mut self, sched: &mut Schedule, up: DVec3, tolerance: f64) {
        let movable = |bodies: &[SolverBody], row: usize| bodies[row].inv_mass > 0.0;
        sched.level.clear();
        sched.level.resize(self.bodies.len(), u32::MAX);
        sched.queue.clear();
        for (i, &q) in sched.cluster.iter().enumerate() {
            let p = &self.points[q];
            // Only a body pressed onto what cannot move is held up by it: one leaving it (the
            // bottom of a stack kicked upward) would carry every body above along at its own
            // speed, making momentum.
            let pressed = sched.pushed[i] > 0.0
                || Self::normal_velocity(&self.bodies, p) + sched.offset[i] <= tolerance;
            for (row, other, n) in [(p.a, p.b, -p.n), (p.b, p.a, p.n)] {
                // Under gravity only what holds a body up supports it: a wall beside a column
                // would make every body along it a support, from which the levels would run
                // sideways and nothing would stop the column's fall.
                if pressed
                    && movable(&self.bodies, row)
                    && !movable(&self.bodies, other)
                    && holds_up(up, n)
                    && sched.level[row] == u32::MAX
                {
                    sched.level[row] = 0;
                    sched.queue.push(row);
                }
            }
        }
        let mut next = 0;
        while let Some(&row) = sched.queue.get(next) {
            next += 1;
            for k in sched.by_row.offsets[row]..sched.by_row.offsets[row + 1] {
                let q = sched.by_row.items[k] as usize;
                if sched.slot[q] == usize::MAX {
                    continue;
                }
                let p = &self.points[q];
                let other = if p.a == row { p.b } else { p.a };
                if movable(&self.bodies, other) && sched.level[other] == u32::MAX {
                    sched.level[other] = sched.level[row] + 1;
                    sched.queue.push(other);
                }
            }
        }
        // The queue holds the bodies level by level.
        let mut below = std::mem::take(&mut sched.below);
        for qi in 0..sched.queue.len() {
            let row = sched.queue[qi];
            // The body's blocks with the level below, worked out once for all its passes.
            below.clear();
            let mut last_block = usize::MAX;
            for k in sched.by_row.offsets[row]..sched.by_row.offsets[row + 1] {
                let q = sched.by_row.items[k] as usize;
                let p = &self.points[q];
                let lower = if p.b == row { p.a } else { p.b };
                if sched.slot[q] == usize::MAX
                    || (movable(&self.bodies, lower) && sched.level[lower] >= sched.level[row])
                {
                    continue;
                }
                let bi = self.block_of(q);
                if bi != last_block {
                    last_block = bi;
                    below.push(self.plastic_of(bi, Some(row), &sched.slot));
                }
            }
            for _ in 0..SHOCK_PASSES {
                for block in &below {
                    self.plastic_block(block, Some(row), sched);
                }
            }
        }
        sched.below = below;
    }

    /// The impact of the block of point `pi` at time t: its points that touch then, solved
    /// together. Without `bounce` (slower than the restitution threshold) it only stops the
    /// approach.
    fn impact(
        &mut self,
        pi: usize,
        t: f64,
        bounce: bool,
        start: &State,
        set: &super::SolverSettings,
        sched: &mut Schedule,
    ) {
        let (dt, weight) = (set.dt, set.position_weight);
        let (span, a, b, law) = {
            let block = &self.blocks[self.block_of(pi)];
            (block.points(), block.a, block.b, block.patch.law)
        };
        // Two spheres: the normal and lever arms of the line of centres at t.
        if let Some((r_a, r_b)) = self.points[pi].spheres {
            let (ma, mb) = self.centres(&self.points[pi], dt, weight);
            let n = (start.x[b] - start.x[a] + mb.at(t) - ma.at(t)).normalize_or_zero();
            // They touch at one point: A's surface point towards B is B's towards A.
            if n != DVec3::ZERO {
                self.set_point_geometry(pi, n, n * r_a, -n * r_b);
                self.forget_block_geometry(self.block_of(pi));
            }
        }
        let touch = SAME_IMPACT * set.touching;
        sched.taking_part.clear();
        for k in span.take(impact::MAX) {
            if k == pi || self.gap_at(&self.points[k], start, dt, weight, t) <= touch {
                sched.taking_part.push(k);
            }
        }
        // A resting contact's approach is what the impacts give it: the smooth forces' since the
        // step's start is the resting solve's to hold, not to bounce.
        let resting = self.points[pi].resting;
        // Each body with its inertia as it is turned at t (a tumbling box's inertia at the
        // step's start would make an elastic bounce gain or lose energy in proportion to how
        // far it turns before the impact). The lever arms stay those the gaps are followed
        // along: an impact at arms turned without them would leave the points it meant to stop
        // approaching, to be struck again and again.
        let motion = |sb: &SolverBody| {
            let (l, r) = sb.motion(dt, weight);
            let (v, w) = if resting {
                (l.c1, r.c1)
            } else {
                (l.rate(t), r.rate(t))
            };
            let turn = r.at(t);
            let inv_inertia = if sb.inv_inertia == DMat3::ZERO || turn == DVec3::ZERO {
                sb.inv_inertia
            } else {
                rotate_tensor(DQuat::from_scaled_axis(turn), sb.inv_inertia)
            };
            ImpactBody {
                inv_mass: sb.inv_mass,
                inv_inertia,
                v,
                w,
            }
        };
        let (ia, ib) = (motion(&self.bodies[a]), motion(&self.bodies[b]));
        let mut points = [ImpactPoint::default(); impact::MAX];
        for (q, &k) in points.iter_mut().zip(&sched.taking_part) {
            let p = &self.points[k];
            *q = ImpactPoint {
                ra: p.ra,
                rb: p.rb,
                n: p.n,
            };
        }
        let points = &points[..sched.taking_part.len()];
        let trigger = &self.points[pi];
        let slip = {
            let vel = (ib.v + ib.w.cross(trigger.rb)) - (ia.v + ia.w.cross(trigger.ra));
            (vel - trigger.n * vel.dot(trigger.n)).length()
        };
        let mu = if slip < STICK_SPEED {
            law.mu_s
        } else {
            law.mu_k
        };
        let (mut e, mut beta) = if bounce {
            (trigger.restitution, trigger.tangential_restitution)
        } else {
            (0.0, 0.0)
        };
        // Bounces under a steady pull towards the surface that would all be over within the
        // step (see the module's comment): the contact comes to rest now. A restitution
        // threshold ends the bounces itself, after finitely many: they are followed one by one.
        let (rate, pull) = {
            let (_, c1, c2) = self.gap_polynomial(trigger, dt, weight);
            (c1 + 2.0 * c2 * t, 2.0 * c2)
        };
        if set.restitution_threshold == 0.0
            && e < 1.0
            && pull < 0.0
            && t + 2.0 * e * (-rate) / (-pull * (1.0 - e)) <= dt
        {
            (e, beta) = (0.0, 0.0);
        }
        sched.impulses.clear();
        sched.impulses.resize(points.len(), PointImpulse::default());
        let k = impact::Coefficients {
            restitution: e,
            friction: mu,
            tangential: beta,
        };
        let speed = impact::solve(&ia, &ib, points, k, &mut sched.impulses);
        let (mut total, mut weighted, mut dv_a, mut dw_a, mut dv_b, mut dw_b) = (
            0.0,
            DVec3::ZERO,
            DVec3::ZERO,
            DVec3::ZERO,
            DVec3::ZERO,
            DVec3::ZERO,
        );
        // Where the two surfaces meet at t: A's point and B's, each carried by its body.
        let (xa, xb) = (
            start.x[a] + self.bodies[a].motion(dt, weight).0.at(t),
            start.x[b] + self.bodies[b].motion(dt, weight).0.at(t),
        );
        for ((&k, imp), q) in sched.taking_part.iter().zip(&sched.impulses).zip(points) {
            let p = &mut self.points[k];
            let j = q.n * imp.normal + imp.tangent;
            dv_a -= j;
            dw_a -= q.ra.cross(j);
            dv_b += j;
            dw_b += q.rb.cross(j);
            total += imp.normal;
            let at = if p.spheres.is_some() {
                xa + p.ra
            } else {
                0.5 * (xa + p.ra + xb + p.rb)
            };
            weighted += at * imp.normal;
            p.impact_impulse += imp.normal;
            p.impact_tangent += imp.tangent;
            if !p.bounced {
                p.approach_speed = speed;
                p.touched_at = Some(t);
                p.stopped = true;
            }
            p.bounced = true;
            p.stopped &= e == 0.0;
        }
        for (row, dv, dw, ib) in [(a, dv_a, dw_a, &ia), (b, dv_b, dw_b, &ib)] {
            let body = &mut self.bodies[row];
            body.impact_change(dv * body.inv_mass, ib.inv_inertia * dw, dw, t, dt);
        }
        if bounce && total > 0.0 {
            let p = &self.points[pi];
            self.impacts.push(Impact {
                manifold: p.manifold,
                time: t,
                speed,
                point: weighted / total,
                normal: p.n,
                impulse: total,
            });
        }
    }

    /// The block that holds point `pi`.
    fn block_of(&self, pi: usize) -> usize {
        self.points[pi].block
    }

    /// Whether point p's normal turns through the step, so that its contact is found again at
    /// its predicted time of impact (`meet_again`):
    /// - the one point of a rounded side (a sphere's, or a capsule's) against a body that is
    ///   not a plane, other than two spheres (followed exactly between their centres): the
    ///   normal turns with where they meet;
    /// - a contact between two polyhedra of which one turns, apart (beyond `touching`) at the
    ///   step's start or closing faster than the smooth forces could make a resting contact
    ///   close: the normal is a face's or that of two crossing edges, and turns with the
    ///   bodies. (The others are a heap's resting contacts and their leftovers: found again at
    ///   every slow turn, they would be stirred for a change of normal far below what their
    ///   slop allows.)
    ///
    /// A plane's normal never turns.
    fn turns_where_it_meets(&self, pi: usize, bodies: &[Body], touching: f64) -> bool {
        let p = &self.points[pi];
        let shape = |row: usize| &bodies[row].shape;
        let rounded =
            |row: usize| matches!(shape(row), Shape::Sphere { .. } | Shape::Capsule { .. });
        let polyhedron = |row: usize| {
            matches!(
                shape(row),
                Shape::Box { .. } | Shape::Convex { .. } | Shape::Polygon { .. }
            )
        };
        let plane = |row: usize| matches!(shape(row), Shape::Plane);
        let turning = |row: usize| {
            let b = &self.bodies[row];
            b.w_start != DVec3::ZERO || b.w != DVec3::ZERO
        };
        if p.spheres.is_some() || p.resting || plane(p.a) || plane(p.b) {
            return false;
        }
        if polyhedron(p.a) && polyhedron(p.b) {
            let landing =
                p.gap > touching || p.approach_speed > Self::settling_speed(&self.bodies, p);
            return landing && (turning(p.a) || turning(p.b));
        }
        self.blocks[self.block_of(pi)].len == 1 && (rounded(p.a) || rounded(p.b))
    }

    /// Finds point p's contact again with the narrow phase, at the bodies' poses at time t of
    /// their motions (each turned by its rotation vector since the step's start), and makes it
    /// the geometry of p's block (its points' normal, lever arms and gaps) from t on. A rounded
    /// side's one point is where the narrow phase finds them closest (it slides over the
    /// rounded surface). Between polyhedra only the normal is taken from it: the block's
    /// points, the features that touch (a corner, or a point of an edge, of one body on a face
    /// of the other, or two crossing edges), are carried by their bodies to t and measured
    /// along it, which is exact for the same features however the bodies turn. Returns p's gap
    /// at t, or None (the block left as it was) when the pair then meets at other features.
    #[allow(clippy::too_many_arguments)]
    fn meet_again(
        &mut self,
        pi: usize,
        t: f64,
        start: &State,
        bodies: &[Body],
        manifolds: &[Manifold],
        set: &super::SolverSettings,
        narrow: &mut NarrowPhase,
    ) -> Option<f64> {
        let (dt, weight) = (set.dt, set.position_weight);
        let p = &self.points[pi];
        let (a, b) = (p.a, p.b);
        let (ma, mb) = (
            self.bodies[a].motion(dt, weight),
            self.bodies[b].motion(dt, weight),
        );
        let turn = |row: usize, r: &Motion| {
            let turn = r.at(t);
            if turn == DVec3::ZERO {
                start.q[row]
            } else {
                DQuat::from_scaled_axis(turn) * start.q[row]
            }
        };
        let pose = |row: usize, (l, r): (Motion, Motion)| Posed {
            shape: &bodies[row].shape,
            position: start.x[row] + l.at(t),
            orientation: turn(row, &r),
            planar: bodies[row].planar,
        };
        let (pa, pb) = (pose(a, ma), pose(b, mb));
        if pa.shape.kind() > pb.shape.kind() {
            return None;
        }
        // Farther apart at t than the gap followed along the old normal says (which is no
        // more than the true distance for convex bodies) by at most how far the bodies moved
        // since the step's start.
        let moved = |row: usize, (l, r): (Motion, Motion)| {
            (l.at(t) - l.at(0.0)).length()
                + (r.at(t) - r.at(0.0)).length() * bodies[row].shape.bounding_radius()
        };
        let margin = set.touching + p.gap.abs() + moved(a, ma) + moved(b, mb);
        let n = narrow.collide(pa, pb, margin)?;
        let block = self.blocks[self.block_of(pi)].points();
        let old = &self.points[block.clone()];
        // A resting point's gap is followed apart from the free motion (`gap_polynomial`).
        if block.len() > impact::MAX || old.iter().any(|p| p.resting) {
            return None;
        }
        let rounded = pa.rounded_core().is_some() || pb.rounded_core().is_some();
        let mut trigger_gap = None;
        if rounded {
            let &[c] = narrow.points.as_slice() else {
                return None;
            };
            if block.len() != 1 {
                return None;
            }
            self.set_point_geometry(pi, n, c.on_a - pa.position, c.on_b - pb.position);
            self.follow_from(pi, c.separation, t, (ma, mb), start, set);
            trigger_gap = Some(c.separation);
        } else {
            // The same features: the normal has turned by no more than the bodies have (and
            // what refreshing a contact may have left it stale by).
            let turned = ma.1.at(t).length() + mb.1.at(t).length() + SAME_FEATURES;
            if turned < std::f64::consts::PI && n.dot(p.n) < turned.cos() {
                return None;
            }
            // Where the narrow phase finds the features closest now (the search's margin
            // reaches others too: those as close as the nearest, to within how far apart the
            // block's points are, are the block's).
            let gaps = old.iter().map(|q| self.gap_at(q, start, dt, weight, t));
            let spread =
                gaps.clone().fold(f64::NEG_INFINITY, f64::max) - gaps.fold(f64::INFINITY, f64::min);
            let nearest = narrow
                .points
                .iter()
                .map(|c| c.separation)
                .fold(f64::INFINITY, f64::min);
            narrow
                .points
                .retain(|c| c.separation <= nearest + spread + set.touching);
            // The block's points carried to t, each taking the point the narrow phase finds
            // that is nearer it than any other of the block's (one each).
            let mut carried = [(DVec3::ZERO, DVec3::ZERO); impact::MAX];
            for (k, q) in block.clone().enumerate() {
                let cp = &manifolds[self.points[q].manifold].points[self.points[q].index];
                carried[k] = (
                    pa.position + pa.orientation * cp.local_a,
                    pb.position + pb.orientation * cp.local_b,
                );
            }
            let mut found = [None; impact::MAX];
            for (j, c) in narrow.points.iter().enumerate() {
                let owner = (0..block.len()).min_by(|&k, &l| {
                    let d = |k: usize| (carried[k].1 - c.on_b).length_squared();
                    d(k).total_cmp(&d(l))
                });
                if let Some(k) = owner {
                    // Two found nearest the same point: neither is sure to be its.
                    found[k] = if found[k].is_none() {
                        Some(j)
                    } else {
                        Some(usize::MAX)
                    };
                }
            }
            for q in block.clone() {
                let k = q - block.start;
                let (on_a, on_b) = carried[k];
                // Its own measure along the normal, exact for the same features; where they
                // meet, the narrow phase's (a point of the face below a corner slides over it).
                let gap = (on_b - on_a).dot(n);
                let (ra, rb) = match found[k].and_then(|j| narrow.points.get(j)) {
                    Some(c) => (c.on_a - pa.position, c.on_b - pb.position),
                    None => super::lever_arms(on_a, on_b, n, pa.position, pb.position),
                };
                self.set_point_geometry(q, n, ra, rb);
                self.follow_from(q, gap, t, (ma, mb), start, set);
                if q == pi {
                    trigger_gap = Some(gap);
                }
            }
        }
        self.forget_block_geometry(self.block_of(pi));
        trigger_gap
    }

    /// Point q's gap followed from its gap `gap` at time t on (along its normal at its lever
    /// arms), and its resting-solve target: the one `prepare` gave it held the old geometry's
    /// end gap (for an impact that may now come only in a later step).
    fn follow_from(
        &mut self,
        q: usize,
        gap: f64,
        t: f64,
        (ma, mb): ((Motion, Motion), (Motion, Motion)),
        start: &State,
        set: &super::SolverSettings,
    ) {
        let p = &self.points[q];
        let (c0, c1, c2) = along(&p.row, p.n, ma, mb);
        self.points[q].gap = gap - (c0 + (c1 + c2 * t) * t);
        self.hold_end_gap(q, start, set.dt, set.position_weight);
    }

    /// Gives point `pi` normal n (from A towards B) and lever arms ra, rb (of the surface
    /// points where the bodies meet), with what the solver derives from them (its block's
    /// too, once all its points have theirs: `forget_block_geometry`).
    fn set_point_geometry(&mut self, pi: usize, n: DVec3, ra: DVec3, rb: DVec3) {
        let p = &mut self.points[pi];
        let (ba, bb) = (&self.bodies[p.a], &self.bodies[p.b]);
        p.ra = ra;
        p.rb = rb;
        let (ca, cb) = (p.ra.cross(n), p.rb.cross(n));
        p.row = Row {
            ca,
            cb,
            spin_a: ba.inv_inertia * ca,
            spin_b: bb.inv_inertia * cb,
        };
        let k = ba.inv_mass + bb.inv_mass + ca.dot(p.row.spin_a) + cb.dot(p.row.spin_b);
        p.normal_mass = if k > 0.0 { 1.0 / k } else { 0.0 };
        p.n = n;
    }

    /// Forgets the friction patch and the coupling of the normal impulses of block `bi`: they
    /// are worked out again from its points' new geometry when first needed, the patch without
    /// warm start (a struck block is not warm started).
    fn forget_block_geometry(&mut self, bi: usize) {
        let bl = &mut self.blocks[bi];
        bl.patch = Patch::unloaded(bl.patch.law, self.planar);
        bl.built = false;
        if bl.coupling != NO_COUPLING {
            self.couplings[bl.coupling] = Coupling::default();
        }
    }

    /// The resting solve's targets of the contacts whose bodies an impact moved (and of the
    /// impacts predicted that did not come): the
    /// end-of-step gap as the impact stage followed it must not close (non-penetration, as in
    /// `prepare`). A bounce needs no more: the resting solve's impulses start from zero apart
    /// from the impacts' and only push, so they cannot take back what a bounce gave (and holding
    /// its end velocity instead would hold the free motion's change since the impact as well:
    /// a ball resting on a heavier one that the floor stopped would be pushed on as the floor
    /// holds the heavy one up for the rest of the step). Their impulses act
    /// from the bodies' latest impact on, as a force through the rest of the step: a contact
    /// that an impact stopped is held from then on, and ends the step at rest, not approaching
    /// at what gravity gave it since.
    fn retarget(&mut self, start: &State, dt: f64, weight: f64) {
        let moved = |b: &SolverBody| b.v_impact != DVec3::ZERO || b.w_impact != DVec3::ZERO;
        for i in 0..self.points.len() {
            let p = &self.points[i];
            let (ba, bb) = (&self.bodies[p.a], &self.bodies[p.b]);
            // An impact `prepare` predicted from the free motion that did not come (the
            // gap, followed as the bodies' supports let them move, never closed) holds its
            // end gap as followed, like any other.
            let missed = p.predicted && !p.bounced && p.impact_impulse == 0.0;
            if !(moved(ba) || moved(bb) || missed) {
                continue;
            }
            if p.resting {
                // The resting solve still holds its free approach, through the whole step;
                // the impacts change the end gap and the velocity it starts from.
                let (c0, c1, _) = along(&p.row, p.n, impacts_only(ba, dt), impacts_only(bb, dt));
                self.points[i].target = if p.reach > 0.0 {
                    p.target + c1 - (c0 + c1 * dt) / p.reach
                } else {
                    p.target
                };
                continue;
            }
            self.hold_end_gap(i, start, dt, weight);
        }
    }

    /// Point i's resting-solve target: its end-of-step gap as the impact stage follows it
    /// must not close, by impulses acting from its bodies' latest impact on.
    fn hold_end_gap(&mut self, i: usize, start: &State, dt: f64, weight: f64) {
        let p = &self.points[i];
        let (ba, bb) = (&self.bodies[p.a], &self.bodies[p.b]);
        let reach = weight * (dt - ba.t_impact.max(bb.t_impact));
        let end_gap = self.gap_at(p, start, dt, weight, dt);
        let vn = Self::normal_velocity(&self.bodies, p);
        let target = if reach > 0.0 {
            (vn - end_gap / reach).min(0.0)
        } else {
            vn.min(0.0)
        };
        let p = &mut self.points[i];
        p.reach = reach;
        p.target = target;
    }
}

impl Schedule {
    /// Lists the points of each body.
    fn index(&mut self, points: &[SolverPoint], bodies: usize) {
        self.versions.clear();
        self.versions.resize(bodies, 0);
        self.by_row.group(bodies, || {
            points
                .iter()
                .enumerate()
                .map(|(i, p)| (i as u32, [Some(p.a), Some(p.b)]))
        });
    }
}
