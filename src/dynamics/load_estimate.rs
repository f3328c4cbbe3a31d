//! A first guess of the loads carried by contacts that have no impulse from the last step to
//! start from: a stack or a pyramid placed at rest, whose contacts are all new.
//!
//! Gauss-Seidel passes load from body to body one contact per iteration, and smooth errors
//! (the weight of a whole column) die out only over a number of iterations that grows with the
//! square of the column's height. Started from zero, a step of a 20-box pyramid leaves the top
//! boxes falling freely, the stack sinks by millimetres over the next steps and sways for
//! hundreds of steps before it settles. Warm starting removes this once contacts persist; for
//! new ones this estimate takes its place: from the top down, each body's weight, with the
//! loads of what rests on it, is shared among the contacts that hold it up, in proportion to
//! how squarely they face up. The solver then iterates from this guess as it would from a warm
//! start, so the guess changes how fast the iterations converge, not what they converge to.
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
}

/// Contacts facing up less than this (steeper than about 84 degrees) hold nothing up.
const LEAST_FACING: f64 = 0.1;

/// The estimate's inputs, result and buffers, reused from step to step.
#[derive(Default)]
pub struct LoadEstimate {
    pub supports: Vec<Support>,
    /// Per body: the downward impulse the smooth forces give it this step (zero for bodies
    /// that cannot move: they pass nothing on; see `weight`), and its height.
    pub weight: Vec<f64>,
    pub height: Vec<f64>,
    /// Per support: its normal impulse.
    pub normal: Vec<f64>,
    /// Per body: the downward impulse it passes on (its own weight and what rests on it), and
    /// the summed facing of the new contacts holding it up (negative when an old one holds it).
    load: Vec<f64>,
    facing: Vec<f64>,
    /// Supports, highest upper body first.
    order: Vec<usize>,
}

impl LoadEstimate {
    /// Empties the inputs.
    pub fn clear(&mut self) {
        self.supports.clear();
        self.weight.clear();
        self.height.clear();
    }

    /// Works out `normal` from `supports`, `weight` and `height`.
    pub fn estimate(&mut self) {
        let (supports, weight, height) = (&self.supports, &self.weight, &self.height);
        self.normal.clear();
        self.normal.resize(supports.len(), 0.0);
        self.load.clear();
        self.load.extend_from_slice(weight);
        self.facing.clear();
        self.facing.resize(weight.len(), 0.0);
        for s in supports.iter().filter(|s| s.facing >= LEAST_FACING) {
            let f = &mut self.facing[s.upper];
            *f = if s.new && *f >= 0.0 { *f + s.facing } else { -1.0 };
        }
        let facing = &self.facing;
        self.order.clear();
        self.order.extend((0..supports.len()).filter(|&i| supports[i].facing >= LEAST_FACING && facing[supports[i].upper] > 0.0));
        // Bodies higher up pass their load on first; ties keep the supports' order.
        self.order.sort_by(|&i, &j| height[supports[j].upper].total_cmp(&height[supports[i].upper]).then(i.cmp(&j)));
        for &i in &self.order {
            let s = supports[i];
            let share = self.load[s.upper] * s.facing / self.facing[s.upper];
            // The normal takes the load's component along it; friction the rest.
            self.normal[i] = share * s.facing;
            if weight[s.lower] > 0.0 {
                self.load[s.lower] += share;
            }
        }
    }
}

/// The downward impulse along `down` of a body whose velocity the smooth forces change from
/// `v0` to `v1`, with inverse mass `inv_mass` (zero when it cannot move or is pushed up).
pub fn weight(v0: DVec3, v1: DVec3, inv_mass: f64, down: DVec3) -> f64 {
    if inv_mass > 0.0 { ((v1 - v0).dot(down) / inv_mass).max(0.0) } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn estimate(supports: &[Support], weight: &[f64], height: &[f64]) -> Vec<f64> {
        let mut e = LoadEstimate { supports: supports.to_vec(), weight: weight.to_vec(), height: height.to_vec(), ..Default::default() };
        e.estimate();
        e.normal
    }

    fn new(upper: usize, lower: usize, facing: f64) -> Support {
        Support { upper, lower, facing, new: true }
    }

    #[test]
    fn a_column_carries_the_weight_of_everything_above() {
        // Body 0 is the floor; 1, 2, 3 a column of unit weights.
        let supports = [new(1, 0, 1.0), new(3, 2, 1.0), new(2, 1, 1.0)];
        assert_eq!(estimate(&supports, &[0.0, 1.0, 1.0, 1.0], &[0.0, 1.0, 2.0, 3.0]), vec![3.0, 1.0, 2.0]);
    }

    #[test]
    fn a_block_on_a_slope_presses_with_its_weight_times_the_cosine() {
        let c = 0.8;
        let normal = estimate(&[new(1, 0, c)], &[0.0, 2.0], &[0.0, 1.0]);
        assert!((normal[0] - 2.0 * c).abs() < 1e-15);
    }

    #[test]
    fn a_body_on_two_supports_shares_its_load_and_walls_hold_nothing() {
        let supports = [new(1, 0, 1.0), new(1, 2, 1.0), new(1, 3, 0.0)];
        assert_eq!(estimate(&supports, &[0.0, 1.0, 0.0, 0.0], &[0.0, 1.0, 0.0, 1.0]), vec![0.5, 0.5, 0.0]);
    }

    #[test]
    fn a_body_already_resting_on_an_old_contact_gets_nothing_on_its_new_ones() {
        // Body 2 rests on body 1 through a new contact; body 1 on the floor through an old one
        // and a new one: 2's weight goes onto its contact, body 1's new contact starts from zero.
        let supports = [Support { upper: 1, lower: 0, facing: 1.0, new: false }, new(1, 0, 1.0), new(2, 1, 1.0)];
        assert_eq!(estimate(&supports, &[0.0, 1.0, 1.0], &[0.0, 1.0, 2.0]), vec![0.0, 0.0, 1.0]);
    }
}
