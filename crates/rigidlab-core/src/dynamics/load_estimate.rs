//! A first guess of the loads carried by contacts that have no impulse from the last step to
//! start from: a stack or a pyramid placed at rest, whose contacts are all new.
//!
//! Gauss-Seidel passes load from body to body one contact per iteration, and smooth errors
//! (the weight of a whole column) die out only over a number of iterations that grows with the
//! square of the column's height. Started from zero, a step of a 20-box pyramid leaves the top
//! boxes falling freely, the stack sinks by millimetres over the next steps and sways for
//! hundreds of steps before it settles. Warm starting removes this once contacts persist; for
//! new ones this estimate takes its place: from the top down, each body's weight, with the
//! loads of what rests on it, is shared among the points of the contacts that hold it up so
//! that the body is in balance: the shares add up to the load, and their moment about the
//! body's centre is the loads' moment (a box carrying one box on its right half presses
//! harder on its right). Of the shares that balance it, the estimate takes the most even
//! (the least squares, each point weighted by how squarely its contact faces up), and only
//! points that push (a load beyond the supports' edge leaves the far ones out). Balanced
//! shares are an equilibrium of rigid bodies: the iterations start from impulses that already
//! hold every body still. An estimate without the moments (each contact's share spread evenly
//! over its points) leaves the bodies under a load off their centre turning, and the
//! iterations pass that error down a pyramid over hundreds of iterations. The solver then
//! iterates from this guess as it would from a warm start, so the guess changes how fast the
//! iterations converge, not what they converge to.
//!
//! Only bodies held up by new contacts alone are estimated: one that already rests on a
//! contact with a load from the last step keeps that, and its new contacts start from zero
//! (given its whole weight, a new contact would push it off its old ones, and the contact
//! would come and go step after step).

use crate::math::DVec3;

/// A contact that may hold `upper` up on `lower`.
#[derive(Clone, Copy, Debug)]
pub struct Support {
    pub upper: usize,
    pub lower: usize,
    /// The cosine of the angle between the contact normal (towards `upper`) and up.
    pub facing: f64,
    /// Whether it is new (has no load from the last step).
    pub new: bool,
    /// Its touching points: `count` of `LoadEstimate::points` from `first`.
    pub first: usize,
    pub count: usize,
}

/// Contacts facing up less than this (steeper than about 84 degrees) hold nothing up.
pub const LEAST_FACING: f64 = 0.1;

/// The estimate's inputs, result and buffers, reused from step to step.
#[derive(Default)]
pub struct LoadEstimate {
    pub supports: Vec<Support>,
    /// The supports' touching points (world positions).
    pub points: Vec<DVec3>,
    /// Per body: the downward impulse the smooth forces give it this step (zero for bodies
    /// that cannot move: they pass nothing on; see `weight`), and its centre of mass.
    pub weight: Vec<f64>,
    pub centre: Vec<DVec3>,
    /// The unit direction of gravity.
    pub down: DVec3,
    /// Per point: its normal impulse.
    pub normal: Vec<f64>,
    /// Per body: the downward impulse it passes on (its own weight and what rests on it), the
    /// sum of those impulses times where they act (their first moment), and the summed facing
    /// of the new contacts holding it up (negative when an old one holds it).
    load: Vec<f64>,
    moment: Vec<DVec3>,
    facing: Vec<f64>,
    /// Supports, highest upper body first, each body's together.
    order: Vec<usize>,
    /// One body's support points: how much each one's share counts (its facing; zero once
    /// left out) and its share.
    trust: Vec<f64>,
    share: Vec<f64>,
}

impl LoadEstimate {
    /// Empties the inputs.
    pub fn clear(&mut self) {
        self.supports.clear();
        self.points.clear();
        self.weight.clear();
        self.centre.clear();
    }

    /// Works out `normal` from the inputs.
    pub fn estimate(&mut self) {
        let (supports, weight, centre) = (&self.supports, &self.weight, &self.centre);
        self.normal.clear();
        self.normal.resize(self.points.len(), 0.0);
        self.load.clear();
        self.load.extend_from_slice(weight);
        self.moment.clear();
        self.moment
            .extend(weight.iter().zip(centre).map(|(&w, &c)| c * w));
        self.facing.clear();
        self.facing.resize(weight.len(), 0.0);
        for s in supports.iter().filter(|s| s.facing >= LEAST_FACING) {
            let f = &mut self.facing[s.upper];
            *f = if s.new && *f >= 0.0 {
                *f + s.facing
            } else {
                -1.0
            };
        }
        let facing = &self.facing;
        self.order.clear();
        self.order
            .extend((0..supports.len()).filter(|&i| {
                supports[i].facing >= LEAST_FACING && facing[supports[i].upper] > 0.0
            }));
        // Bodies higher up pass their load on first; ties keep the supports' order.
        let height = |i: usize| -centre[supports[i].upper].dot(self.down);
        self.order.sort_by(|&i, &j| {
            height(j)
                .total_cmp(&height(i))
                .then(supports[i].upper.cmp(&supports[j].upper))
                .then(i.cmp(&j))
        });
        let mut first = 0;
        while first < self.order.len() {
            let upper = self.supports[self.order[first]].upper;
            let last = first
                + self.order[first..]
                    .iter()
                    .take_while(|&&i| self.supports[i].upper == upper)
                    .count();
            self.balance(first..last);
            first = last;
        }
    }

    /// Shares the load of the upper body of the supports `order[group]` (all the same body's)
    /// among their points, in balance (see the module notes), and passes the shares on.
    fn balance(&mut self, group: std::ops::Range<usize>) {
        let supports = &self.supports;
        let upper = supports[self.order[group.start]].upper;
        let c = self.centre[upper];
        let (e1, e2) = self.down.any_orthonormal_pair();
        // Per point: [1, its horizontal offsets from the centre], the share's part in the
        // balance of force and of the two moments.
        let arm = |p: DVec3| [1.0, (p - c).dot(e1), (p - c).dot(e2)];
        let load = self.load[upper];
        let moment = self.moment[upper] - c * load;
        let goal = [load, moment.dot(e1), moment.dot(e2)];
        let points = || {
            self.order[group.clone()].iter().flat_map(|&i| {
                (supports[i].first..supports[i].first + supports[i].count).map(move |p| (i, p))
            })
        };
        self.trust.clear();
        self.trust.extend(points().map(|(i, _)| supports[i].facing));
        self.share.clear();
        self.share.resize(self.trust.len(), 0.0);
        // The most even shares that balance the body (shares = trust * arm . lambda with
        // (sum of trust * arm arm^T) lambda = goal); a point whose share comes out negative
        // (a load beyond the edge it supports) is left out and the rest balanced again.
        for _ in 0..self.trust.len() {
            let mut g = [[0.0; 3]; 3];
            for ((_, p), &t) in points().zip(&self.trust) {
                let a = arm(self.points[p]);
                for r in 0..3 {
                    for k in 0..3 {
                        g[r][k] += t * a[r] * a[k];
                    }
                }
            }
            let lambda = solve_balance(g, goal);
            for (((_, p), &t), s) in points().zip(&self.trust).zip(self.share.iter_mut()) {
                let a = arm(self.points[p]);
                *s = t * (a[0] * lambda[0] + a[1] * lambda[1] + a[2] * lambda[2]);
            }
            let Some((worst, &least)) = self
                .share
                .iter()
                .enumerate()
                .min_by(|a, b| a.1.total_cmp(b.1))
            else {
                return;
            };
            if least >= -1e-12 * load.abs() {
                break;
            }
            self.trust[worst] = 0.0;
        }
        let lower_weight = |i: usize| self.weight[supports[i].lower];
        for ((i, p), &s) in points().zip(&self.share).filter(|(_, &s)| s > 0.0) {
            let sup = supports[i];
            // The normal takes the load's component along it; friction the rest.
            self.normal[p] = s * sup.facing;
            if lower_weight(i) > 0.0 {
                self.load[sup.lower] += s;
                self.moment[sup.lower] += self.points[p] * s;
            }
        }
    }
}

/// A balance equation whose pivot is no more than this fraction of its diagonal is left out:
/// the supports are that close to a line (or a point), and a moment across it would load them
/// with huge opposite loads. A cut of geometry, not of round-off (dense.rs's policy is for
/// that): 1e-9 leaves out points within about 3e-5 of their spread off a line.
const IN_LINE: f64 = 1e-9;

/// lambda with g lambda = goal, g symmetric positive semidefinite: by elimination in order
/// (force balance first), leaving out an equation whose pivot vanishes (points in a line
/// cannot balance a moment across it; a single point, no moment at all).
fn solve_balance(g: [[f64; 3]; 3], goal: [f64; 3]) -> [f64; 3] {
    let (mut l, mut d) = ([[0.0; 3]; 3], [0.0; 3]);
    for j in 0..3 {
        d[j] = g[j][j] - (0..j).map(|m| l[j][m] * l[j][m] * d[m]).sum::<f64>();
        // Also catches a NaN pivot.
        if d[j].partial_cmp(&(IN_LINE * g[j][j])) != Some(std::cmp::Ordering::Greater) {
            d[j] = 0.0;
            continue;
        }
        for i in j + 1..3 {
            l[i][j] = (g[i][j] - (0..j).map(|m| l[i][m] * l[j][m] * d[m]).sum::<f64>()) / d[j];
        }
    }
    let mut y = [0.0; 3];
    for i in 0..3 {
        y[i] = goal[i] - (0..i).map(|m| l[i][m] * y[m]).sum::<f64>();
    }
    let mut x = [0.0; 3];
    for i in (0..3).rev() {
        x[i] = if d[i] > 0.0 {
            y[i] / d[i] - (i + 1..3).map(|m| l[m][i] * x[m]).sum::<f64>()
        } else {
            0.0
        };
    }
    x
}

/// The downward impulse along `down` of a body whose velocity the smooth forces change from
/// `v0` to `v1`, with inverse mass `inv_mass` (zero when it cannot move or is pushed up).
pub fn weight(v0: DVec3, v1: DVec3, inv_mass: f64, down: DVec3) -> f64 {
    if inv_mass > 0.0 {
        ((v1 - v0).dot(down) / inv_mass).max(0.0)
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bodies' weights and centres, and supports (upper, lower, facing, new, points).
    fn estimate(
        bodies: &[(f64, DVec3)],
        supports: &[(usize, usize, f64, bool, &[DVec3])],
    ) -> Vec<f64> {
        let mut e = LoadEstimate {
            down: DVec3::NEG_Y,
            ..Default::default()
        };
        e.weight.extend(bodies.iter().map(|b| b.0));
        e.centre.extend(bodies.iter().map(|b| b.1));
        for &(upper, lower, facing, new, points) in supports {
            e.supports.push(Support {
                upper,
                lower,
                facing,
                new,
                first: e.points.len(),
                count: points.len(),
            });
            e.points.extend_from_slice(points);
        }
        e.estimate();
        e.normal
    }

    fn at(x: f64, y: f64, z: f64) -> DVec3 {
        DVec3::new(x, y, z)
    }

    /// The four corners of the face at height y spanning x0..x1 and z -0.5..0.5.
    fn face(x0: f64, x1: f64, y: f64) -> [DVec3; 4] {
        [
            at(x0, y, -0.5),
            at(x0, y, 0.5),
            at(x1, y, -0.5),
            at(x1, y, 0.5),
        ]
    }

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    const FLOOR: (f64, DVec3) = (0.0, DVec3::ZERO);

    #[test]
    fn a_column_carries_the_weight_of_everything_above() {
        // Body 0 is the floor; 1, 2, 3 a column of unit weights, each on one point below it.
        let bodies = [
            FLOOR,
            (1.0, at(0.0, 1.0, 0.0)),
            (1.0, at(0.0, 2.0, 0.0)),
            (1.0, at(0.0, 3.0, 0.0)),
        ];
        let supports: [(usize, usize, f64, bool, &[DVec3]); 3] = [
            (1, 0, 1.0, true, &[at(0.0, 0.5, 0.0)]),
            (3, 2, 1.0, true, &[at(0.0, 2.5, 0.0)]),
            (2, 1, 1.0, true, &[at(0.0, 1.5, 0.0)]),
        ];
        assert!(close(&estimate(&bodies, &supports), &[3.0, 1.0, 2.0]));
    }

    #[test]
    fn a_block_on_a_slope_presses_with_its_weight_times_the_cosine() {
        let c = 0.8;
        let normal = estimate(
            &[FLOOR, (2.0, at(0.0, 1.0, 0.0))],
            &[(1, 0, c, true, &face(-0.5, 0.5, 0.5))],
        );
        assert!(close(&normal, &[0.5 * c; 4]), "{normal:?}");
    }

    #[test]
    fn a_body_on_two_supports_shares_its_load_and_walls_hold_nothing() {
        let bodies = [FLOOR, (1.0, at(0.0, 1.0, 0.0)), FLOOR, FLOOR];
        let supports: [(usize, usize, f64, bool, &[DVec3]); 3] = [
            (1, 0, 1.0, true, &[at(-0.5, 0.5, 0.0)]),
            (1, 2, 1.0, true, &[at(0.5, 0.5, 0.0)]),
            (1, 3, 0.0, true, &[at(1.0, 1.0, 0.0)]),
        ];
        assert!(close(&estimate(&bodies, &supports), &[0.5, 0.5, 0.0]));
    }

    #[test]
    fn a_load_off_the_centre_presses_harder_on_its_side() {
        // A unit box carries another on its right half (the upper one's centre over x = 0.25,
        // its face from x = 0 to 0.5): the upper box stands evenly on its four corners; the lower
        // box balances its own weight at x = 0 and the load at x = 0.25 on its four corners at
        // x = -0.5 and 0.5: 2 (0.5 s+ - 0.5 s-) = 0.25, s+ + s- = 1 for each pair, so the right
        // corners carry 0.625 and the left ones 0.375.
        let bodies = [FLOOR, (1.0, at(0.0, 0.5, 0.0)), (1.0, at(0.25, 1.5, 0.0))];
        let normal = estimate(
            &bodies,
            &[
                (1, 0, 1.0, true, &face(-0.5, 0.5, 0.0)),
                (2, 1, 1.0, true, &face(0.0, 0.5, 1.0)),
            ],
        );
        assert!(
            close(
                &normal,
                &[0.375, 0.375, 0.625, 0.625, 0.25, 0.25, 0.25, 0.25]
            ),
            "{normal:?}"
        );
    }

    #[test]
    fn balanced_shares_hold_a_body_still() {
        // A body resting on two faces of different sizes, with its centre off theirs: the shares
        // add up to the weight and have no moment about the centre.
        let c = at(0.1, 1.0, -0.05);
        let (f1, f2) = (face(-0.4, -0.1, 0.5), face(0.2, 0.45, 0.5));
        let normal = estimate(
            &[FLOOR, (3.0, c), FLOOR],
            &[(1, 0, 1.0, true, &f1), (1, 2, 1.0, true, &f2)],
        );
        let points: Vec<DVec3> = f1.iter().chain(&f2).copied().collect();
        let force: f64 = normal.iter().sum();
        let moment: DVec3 = points
            .iter()
            .zip(&normal)
            .map(|(&p, &s)| (p - c).cross(DVec3::Y * s))
            .sum();
        assert!(
            (force - 3.0).abs() < 1e-12 && moment.length() < 1e-12,
            "{force} {moment}"
        );
        assert!(normal.iter().all(|&s| s > 0.0));
    }

    #[test]
    fn a_load_beyond_the_supports_leaves_the_far_points_out() {
        // The centre (x = 0) is left of both supporting lines (x = 0.1 and 0.5): no share can
        // balance it; the near points take it all, none pulls.
        let normal = estimate(
            &[FLOOR, (1.0, at(0.0, 1.0, 0.0))],
            &[(1, 0, 1.0, true, &face(0.1, 0.5, 0.5))],
        );
        assert!(close(&normal, &[0.5, 0.5, 0.0, 0.0]), "{normal:?}");
    }

    #[test]
    fn points_in_a_line_or_a_single_point_carry_the_whole_load() {
        // A lying cylinder on a line across its centre's offset, and a sphere on one point.
        let line = [at(0.2, 0.5, -0.5), at(0.2, 0.5, 0.5)];
        assert!(close(
            &estimate(
                &[FLOOR, (2.0, at(0.0, 1.0, 0.0))],
                &[(1, 0, 1.0, true, &line)]
            ),
            &[1.0, 1.0]
        ));
        assert!(close(
            &estimate(
                &[FLOOR, (2.0, at(0.0, 1.0, 0.0))],
                &[(1, 0, 1.0, true, &[at(0.1, 0.5, 0.1)])]
            ),
            &[2.0]
        ));
    }

    #[test]
    fn a_body_already_resting_on_an_old_contact_gets_nothing_on_its_new_ones() {
        // Body 2 rests on body 1 through a new contact; body 1 on the floor through an old one
        // and a new one: 2's weight goes onto its contact, body 1's new contact starts from zero.
        let bodies = [FLOOR, (1.0, at(0.0, 1.0, 0.0)), (1.0, at(0.0, 2.0, 0.0))];
        let (p, q, r) = (at(0.0, 0.5, 0.0), at(0.1, 0.5, 0.0), at(0.0, 1.5, 0.0));
        assert!(close(
            &estimate(
                &bodies,
                &[
                    (1, 0, 1.0, false, &[p]),
                    (1, 0, 1.0, true, &[q]),
                    (2, 1, 1.0, true, &[r])
                ]
            ),
            &[0.0, 0.0, 1.0]
        ));
    }
}
