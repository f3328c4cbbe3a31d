//! Contact manifolds: up to four points per touching pair, kept from step to step so the solver
//! can warm start from last step's impulses.

use arrayvec::ArrayVec;
use rustc_hash::FxHashMap;

use super::refresh::PairFrame;
use crate::body::BodyHandle;
use crate::material::PairCoefficients;
use crate::math::DVec3;

/// Most points a manifold keeps.
pub const MAX_POINTS: usize = 4;

/// One contact point as the narrow phase finds it, in world space.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RawPoint {
    /// The deepest point of A towards B, on A's surface.
    pub on_a: DVec3,
    /// The deepest point of B towards A, on B's surface.
    pub on_b: DVec3,
    /// Signed gap along the normal, negative when overlapping.
    pub separation: f64,
    /// Identifies the feature pair (vertex, face...) so a point can be matched next step.
    pub feature: u64,
}

/// A contact point kept in a manifold.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ContactPoint {
    /// The point on A's surface in A's body frame.
    pub local_a: DVec3,
    /// The point on B's surface in B's body frame.
    pub local_b: DVec3,
    /// World position (midway between the two surface points) at detection.
    pub point: DVec3,
    pub separation: f64,
    pub feature: u64,
    /// Accumulated normal impulse of the last solve (N s), impacts' included.
    pub normal_impulse: f64,
    /// The share of `normal_impulse` that the last step's impacts gave (N s). It stopped or
    /// reversed an approach that is over: carried into the next step, it would push apart
    /// bodies at rest (a column that landed would leap up).
    #[serde(default)]
    pub impact_impulse: f64,
    /// Accumulated friction impulse of the last solve, impacts' included, on B: a world
    /// vector (N s).
    pub tangent_impulse: DVec3,
    /// Whether the point bounced in the last step: an impact's impulses are not a guess for
    /// the next step's, so they are not carried over (see `impact_impulse`).
    pub bounced: bool,
    /// Whether the point's impacts in the last step only stopped its approach (perfectly
    /// inelastic, or below the restitution threshold): it stayed closed from then on.
    #[serde(default)]
    pub stopped: bool,
    /// Whether the point pushed (had a normal impulse) through the step before and stayed
    /// closed: touching from its start, bounced there or not, or stopped by an impact later in
    /// it. A contact that still touches is then resting, not an impact. (A bounce later in the
    /// step may have left the bodies apart.)
    #[serde(default)]
    pub pushed: bool,
    /// When within the last step the point touched (s from the step's start), if it did.
    pub touch_time: Option<f64>,
    /// The speed at which it approached when it touched (m/s), 0 if it did not.
    pub approach_speed: f64,
}

impl ContactPoint {
    /// A point just found, with no impulses yet: `p` in world space between bodies at poses
    /// (x_a, q_a) and (x_b, q_b).
    pub fn found(
        p: &RawPoint,
        (x_a, q_a): (DVec3, crate::math::DQuat),
        (x_b, q_b): (DVec3, crate::math::DQuat),
    ) -> ContactPoint {
        ContactPoint {
            local_a: q_a.inverse() * (p.on_a - x_a),
            local_b: q_b.inverse() * (p.on_b - x_b),
            point: 0.5 * (p.on_a + p.on_b),
            separation: p.separation,
            feature: p.feature,
            normal_impulse: 0.0,
            impact_impulse: 0.0,
            tangent_impulse: DVec3::ZERO,
            bounced: false,
            stopped: false,
            pushed: false,
            touch_time: None,
            approach_speed: 0.0,
        }
    }

    fn warm_start_from(&mut self, old: &ContactPoint) {
        self.pushed = old.normal_impulse > 0.0
            && (!old.bounced || old.stopped || old.touch_time == Some(0.0));
        if !old.bounced {
            self.normal_impulse = old.normal_impulse - old.impact_impulse;
            self.tangent_impulse = old.tangent_impulse;
        }
    }
}

/// A manifold's points, kept in the manifold itself: the stages read every manifold's points
/// in turn, and points on the heap, each list somewhere else, made every manifold a cache miss.
pub type Points = ArrayVec<ContactPoint, MAX_POINTS>;

/// The contact between two bodies: a shared normal (pointing from A to B) and its points.
#[derive(Clone, Debug, PartialEq)]
pub struct Manifold {
    pub a: BodyHandle,
    pub b: BodyHandle,
    /// Rows of A and B in the world's body arrays for the current step.
    pub row_a: usize,
    pub row_b: usize,
    pub normal: DVec3,
    pub points: Points,
    pub coefficients: PairCoefficients,
    /// Whether the surfaces were sliding on each other when the last step ended (None for a
    /// new contact), which sets the friction limit of this step: static or kinetic.
    pub sliding: Option<bool>,
    /// The pair's relative pose when the contact was last found in full, for refreshing it
    /// (see refresh.rs); None for pairs that are always found in full.
    pub frame: Option<PairFrame>,
}

/// Keeps from one step to the next the manifolds of all touching pairs, in a deterministic
/// order (that of the candidate pairs).
#[derive(Default)]
pub struct ContactSet {
    pub manifolds: Vec<Manifold>,
    /// Last step's manifolds, while this step's are found.
    pub last: LastContacts,
}

/// Last step's manifolds, looked up by pair to warm start this step's.
#[derive(Default)]
pub struct LastContacts {
    manifolds: Vec<Manifold>,
    /// Never iterated, so order cannot leak. Rebuilt every step, so it uses a cheap hash (the
    /// default one was a tenth of a resting world's step).
    index: FxHashMap<(BodyHandle, BodyHandle), usize>,
}

impl LastContacts {
    /// How many manifolds last step had.
    pub fn count(&self) -> usize {
        self.manifolds.len()
    }

    /// Last step's manifold of bodies a and b (in that order).
    pub fn get(&self, a: BodyHandle, b: BodyHandle) -> Option<&Manifold> {
        self.index.get(&(a, b)).map(|&i| &self.manifolds[i])
    }

    /// Carries over to a touching pair's new manifold `m` the impulses of the points that were
    /// present in its manifold of last step, `old` (see `get`), for warm starting: matched by
    /// feature id, or else to the nearest unmatched old point within `match_distance` (m, on
    /// body A), since a point clipped at a face's side changes its id when it slides across the
    /// side.
    pub fn warm_start(m: &mut Manifold, old: &Manifold, match_distance: f64) {
        m.sliding = old.sliding;
        let mut taken = [false; MAX_POINTS];
        let mut pending = [false; MAX_POINTS];
        for (k, p) in m.points.iter_mut().enumerate() {
            match old.points.iter().position(|o| o.feature == p.feature) {
                Some(j) if j < MAX_POINTS && !taken[j] => {
                    taken[j] = true;
                    p.warm_start_from(&old.points[j]);
                }
                _ => pending[k] = true,
            }
        }
        for (k, p) in m.points.iter_mut().enumerate() {
            if !pending[k] {
                continue;
            }
            let nearest = (0..old.points.len().min(MAX_POINTS))
                .filter(|&j| !taken[j])
                .map(|j| (j, (old.points[j].local_a - p.local_a).length()))
                .filter(|&(_, d)| d < match_distance)
                .min_by(|x, y| x.1.total_cmp(&y.1));
            if let Some((j, _)) = nearest {
                taken[j] = true;
                p.warm_start_from(&old.points[j]);
            }
        }
    }

    fn clear(&mut self) {
        self.manifolds.clear();
        self.index.clear();
    }
}

impl ContactSet {
    /// Moves this step's manifolds aside to be matched against, and starts an empty list.
    pub fn begin_step(&mut self) {
        let last = &mut self.last;
        std::mem::swap(&mut self.manifolds, &mut last.manifolds);
        self.manifolds.clear();
        last.index.clear();
        for (i, m) in last.manifolds.iter().enumerate() {
            last.index.insert((m.a, m.b), i);
        }
    }

    /// Keeps last step's manifolds that `keep` picks, unchanged (those of sleeping bodies).
    pub fn keep_previous(&mut self, keep: impl Fn(&Manifold) -> bool) {
        self.manifolds
            .extend(self.last.manifolds.iter().filter(|m| keep(m)).cloned());
    }

    /// Takes back `begin_step` and the manifolds added since: last step's are this step's
    /// again, as they were.
    pub fn undo_begin(&mut self) {
        self.manifolds.clear();
        std::mem::swap(&mut self.manifolds, &mut self.last.manifolds);
        self.last.index.clear();
    }

    /// Removes the manifolds at `indices` (ascending), keeping the others' order.
    pub fn remove_sorted(&mut self, indices: &[usize]) {
        if indices.is_empty() {
            return;
        }
        let mut i = 0;
        let mut next = indices.iter().peekable();
        self.manifolds.retain(|_| {
            let drop = next.peek() == Some(&&i);
            if drop {
                next.next();
            }
            i += 1;
            !drop
        });
    }

    /// Forgets every manifold involving the body (when it is removed or changes kind).
    pub fn forget_body(&mut self, h: BodyHandle) {
        self.manifolds.retain(|m| m.a != h && m.b != h);
    }

    /// Forgets the manifolds of a body removed from row `row`; the rows after it move up
    /// one, and so do the manifolds' (those of sleeping pairs are kept as they are).
    pub fn body_removed(&mut self, h: BodyHandle, row: usize) {
        self.forget_body(h);
        for m in &mut self.manifolds {
            m.row_a -= usize::from(m.row_a > row);
            m.row_b -= usize::from(m.row_b > row);
        }
    }

    pub fn clear(&mut self) {
        self.manifolds.clear();
        self.last.clear();
    }
}

/// A copy holds the manifolds, the state a step reads; the lookups of last step's manifolds are
/// rebuilt by the next step.
impl Clone for ContactSet {
    fn clone(&self) -> ContactSet {
        ContactSet {
            manifolds: self.manifolds.clone(),
            ..ContactSet::default()
        }
    }
}

/// Raises `deepest[row]` to the deepest overlap (m, 0 for none) of each body's contact points
/// in `manifolds`; rows beyond `deepest` are left out.
pub fn deepest_overlaps(manifolds: &[Manifold], deepest: &mut [f64]) {
    for m in manifolds {
        let depth = m.points.iter().map(|p| -p.separation).fold(0.0, f64::max);
        for row in [m.row_a, m.row_b] {
            if let Some(d) = deepest.get_mut(row) {
                *d = d.max(depth);
            }
        }
    }
}

/// Reduces a set of points to at most four that keep the deepest point and span the largest
/// area: the deepest, the farthest from it, the one making the largest triangle with those two,
/// and the one adding the most area on the far side of that triangle.
pub fn reduce_to_four(points: &mut Vec<RawPoint>, normal: DVec3) {
    if points.len() <= MAX_POINTS {
        return;
    }
    let deepest = (0..points.len())
        .min_by(|&i, &j| points[i].separation.total_cmp(&points[j].separation))
        .unwrap_or(0);
    let p0 = points[deepest].on_b;
    let far = (0..points.len())
        .max_by(|&i, &j| {
            (points[i].on_b - p0)
                .length_squared()
                .total_cmp(&(points[j].on_b - p0).length_squared())
        })
        .unwrap_or(0);
    let p1 = points[far].on_b;
    let area = |p: DVec3, a: DVec3, b: DVec3| (a - p).cross(b - p).dot(normal);
    let third = (0..points.len())
        .max_by(|&i, &j| {
            area(p0, p1, points[i].on_b)
                .abs()
                .total_cmp(&area(p0, p1, points[j].on_b).abs())
        })
        .unwrap_or(0);
    let p2 = points[third].on_b;
    let side = area(p0, p1, p2).signum();
    // The fourth point: the largest area added outside the triangle, on any edge.
    let fourth = (0..points.len())
        .max_by(|&i, &j| {
            let gain = |p: DVec3| {
                let e = [area(p0, p1, p), area(p1, p2, p), area(p2, p0, p)];
                e.iter().map(|x| -x * side).fold(0.0f64, f64::max)
            };
            gain(points[i].on_b).total_cmp(&gain(points[j].on_b))
        })
        .unwrap_or(0);
    let mut keep = [deepest, far, third, fourth];
    keep.sort_unstable();
    // In place, without allocating: the kept indices are ascending, so each moves down.
    let mut len = 0;
    for (k, &i) in keep.iter().enumerate() {
        if k == 0 || i != keep[k - 1] {
            points[len] = points[i];
            len += 1;
        }
    }
    points.truncate(len);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduction_keeps_the_deepest_point_and_the_corners() {
        // A 3 x 3 grid of points on a square, the centre the deepest.
        let mut pts = vec![];
        for i in 0..3 {
            for j in 0..3 {
                let p = DVec3::new(i as f64, 0.0, j as f64);
                let depth = if (i, j) == (1, 1) { -0.02 } else { -0.01 };
                pts.push(RawPoint {
                    on_a: p,
                    on_b: p,
                    separation: depth,
                    feature: (3 * i + j) as u64,
                });
            }
        }
        reduce_to_four(&mut pts, DVec3::Y);
        assert_eq!(pts.len(), 4);
        assert!(pts.iter().any(|p| p.feature == 4), "deepest point dropped");
        let area: f64 = {
            let q: Vec<DVec3> = pts.iter().map(|p| p.on_b).collect();
            let mut hull_area: f64 = 0.0;
            for a in 0..4 {
                for b in 0..4 {
                    for c in 0..4 {
                        hull_area = hull_area.max(0.5 * (q[b] - q[a]).cross(q[c] - q[a]).length());
                    }
                }
            }
            hull_area
        };
        assert!(
            area >= 1.0 - 1e-12,
            "kept points span too little: largest triangle {area}"
        );
    }
}
