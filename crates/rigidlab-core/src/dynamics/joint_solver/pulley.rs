//! Pulleys: a rope from a's anchor over a fixed pulley at `ground_a`, across to a second fixed
//! pulley at `ground_b` and down to b's anchor. Its length is la + ratio lb <= length (la, lb:
//! the anchors' distances from their pulleys; a ratio other than 1 is a block and tackle): it
//! pulls the anchors towards their pulleys when taut, with a tension `ratio` times stronger
//! on b, and never pushes. The pulleys themselves are fixed and massless.

use super::{Row, Sides};
use crate::dynamics::joints::{Joint, JointKind};
use crate::dynamics::solver_body::SolverBody;
use crate::math::{skew, DMat3, DVec3};

/// The rope: its pulleys, its ratio and its length.
#[derive(Clone, Copy)]
struct Rope {
    ground_a: DVec3,
    ground_b: DVec3,
    ratio: f64,
    length: f64,
}

impl Rope {
    fn of(joint: &Joint) -> Rope {
        let JointKind::Pulley {
            ground_a,
            ground_b,
            ratio,
            length,
        } = joint.kind
        else {
            unreachable!("the pulley solver is called for pulleys");
        };
        Rope {
            ground_a,
            ground_b,
            ratio,
            length,
        }
    }
}

/// The change of a body's point at arm r per unit impulse at arm i.
fn reach(body: &SolverBody, r: DVec3, i: DVec3) -> DMat3 {
    DMat3::from_diagonal(DVec3::splat(body.inv_mass)) - skew(r) * body.inv_inertia * skew(i)
}

/// The two sides at the end poses: arms, unit directions from the pulleys to the anchors, and
/// how much longer than `length` the rope would be (positive: over-stretched).
fn sides(joint: &Joint, s: &Sides, rope: Rope) -> Option<(DVec3, DVec3, DVec3, DVec3, f64)> {
    let ((xa, qa), (xb, qb)) = (s.pose_a(), s.pose_b());
    let (ra, rb) = (qa * joint.anchor_a, qb * joint.anchor_b);
    let (da, db) = (xa + ra - rope.ground_a, xb + rb - rope.ground_b);
    let (la, lb) = (da.length(), db.length());
    // An anchor at its pulley has no direction to be pulled in.
    if la < 1e-12 || lb < 1e-12 {
        return None;
    }
    Some((ra, rb, da / la, db / lb, la + rope.ratio * lb - rope.length))
}

/// Position phase: an over-stretched rope pulled back to its length by a tension acting from
/// the step's start along the start-of-step directions (RATTLE, as distance joints). Returns
/// the error before.
pub(super) fn position(joint: &Joint, row: &mut Row, s: &mut Sides, dt: f64, project: bool) -> f64 {
    let rope = Rope::of(joint);
    let Some((ra, rb, ua, ub, err)) = sides(joint, s, rope) else {
        return 0.0;
    };
    let Some(b) = s.b else { return 0.0 };
    if err <= 0.0 {
        return 0.0;
    }
    // The start-of-step directions and arms (`prepare` keeps them in n0 and axis0).
    let (pa, pb, ia, ib) = if project || row.n0 == DVec3::ZERO {
        (ua, ub, ra, rb)
    } else {
        (row.n0, row.axis0, row.ra0, row.rb0)
    };
    let r = rope.ratio;
    let k = ua.dot(reach(&s.bodies[s.a], ra, ia) * pa)
        + r * r * ub.dot(reach(&s.bodies[b], rb, ib) * pb);
    if k > 0.0 {
        let tension = err / (k * dt);
        s.bodies[s.a].apply(-pa * tension, ia, dt);
        s.bodies[b].apply(-pb * (r * tension), ib, dt);
        row.impulse -= pb * (r * tension);
    }
    err
}

/// Velocity phase: a taut rope does not lengthen; it only pulls.
pub(super) fn velocity(joint: &Joint, row: &mut Row, s: &mut Sides) {
    let rope = Rope::of(joint);
    let Some((ra, rb, ua, ub, err)) = sides(joint, s, rope) else {
        return;
    };
    let Some(b) = s.b else { return };
    if err < -1e-9 * rope.length {
        return;
    }
    let (ba, bb) = (&s.bodies[s.a], &s.bodies[b]);
    let r = rope.ratio;
    let lengthening = ua.dot(ba.v + ba.w.cross(ra)) + r * ub.dot(bb.v + bb.w.cross(rb));
    let k = ua.dot(reach(ba, ra, ra) * ua) + r * r * ub.dot(reach(bb, rb, rb) * ub);
    if k <= 0.0 {
        return;
    }
    let tension = (row.rope + lengthening / k).max(0.0);
    let d = tension - row.rope;
    row.rope = tension;
    s.bodies[s.a].apply(-ua * d, ra, 0.0);
    s.bodies[b].apply(-ub * (r * d), rb, 0.0);
    row.impulse -= ub * (r * d);
}
