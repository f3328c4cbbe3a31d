//! Broad phase: incremental sweep and prune along one axis, the one along which the boxes are
//! most spread out (a tall column is swept along its height: along a horizontal axis every
//! body of it would overlap every other). The sorted order is kept from step to step, so
//! re-sorting is an insertion sort over an almost sorted list (linear when bodies move a
//! little per step). Infinite shapes (planes) are kept aside and tested against every finite
//! body.

use super::aabb::Aabb;

#[derive(Default)]
pub struct BroadPhase {
    /// Rows of finite bodies sorted by the minimum of their boxes along `axis`.
    order: Vec<u32>,
    /// The sweep axis (0, 1, 2 for x, y, z).
    axis: usize,
    /// Rows of bodies with infinite boxes.
    infinite: Vec<u32>,
    /// Body count the order was built for; a change forces a rebuild.
    built_for: Option<usize>,
    /// The boxes in sweep order with their rows, so the sweep reads memory in order.
    sorted: Vec<(Aabb, u32)>,
    /// Positions in `sorted` of the awake bodies.
    awake_sorted: Vec<usize>,
    /// Buffers of `sort_pairs`.
    counts: Vec<usize>,
    scratch: Vec<(u32, u32)>,
}

impl BroadPhase {
    /// Forgets the order (after bodies were added or removed).
    pub fn invalidate(&mut self) {
        self.built_for = None;
    }

    /// Candidate pairs (row a < row b) whose boxes overlap and of which at least one body is
    /// `awake`, sorted so that the solver sees them in a deterministic order. A body that is
    /// not awake is swept against the awake ones only, so a world at rest costs a pass over
    /// its bodies rather than over every overlap.
    pub fn find_pairs(&mut self, boxes: &[Aabb], awake: impl Fn(usize) -> bool, pairs: &mut Vec<(u32, u32)>) {
        pairs.clear();
        if self.built_for != Some(boxes.len()) {
            self.order.clear();
            self.infinite.clear();
            for (i, b) in boxes.iter().enumerate() {
                if b.is_infinite() { self.infinite.push(i as u32) } else { self.order.push(i as u32) }
            }
            self.built_for = Some(boxes.len());
        }
        self.choose_axis(boxes);
        let axis = self.axis;
        insertion_sort_by_min(&mut self.order, boxes, axis);
        self.sorted.clear();
        self.sorted.extend(self.order.iter().map(|&i| (boxes[i as usize], i)));
        self.awake_sorted.clear();
        self.awake_sorted.extend((0..self.sorted.len()).filter(|&k| awake(self.sorted[k].1 as usize)));
        // The first awake body after position k.
        let mut next_awake = 0;
        for (k, &(bi, i)) in self.sorted.iter().enumerate() {
            while next_awake < self.awake_sorted.len() && self.awake_sorted[next_awake] <= k {
                next_awake += 1;
            }
            let mut test = |bj: &Aabb, j: u32| {
                if bj.min[axis] > bi.max[axis] {
                    return false;
                }
                if bi.overlaps(bj) {
                    pairs.push((i.min(j), i.max(j)));
                }
                true
            };
            if awake(i as usize) {
                for &(bj, j) in &self.sorted[k + 1..] {
                    if !test(&bj, j) {
                        break;
                    }
                }
            } else {
                for &kj in &self.awake_sorted[next_awake..] {
                    let (bj, j) = self.sorted[kj];
                    if !test(&bj, j) {
                        break;
                    }
                }
            }
        }
        for &p in &self.infinite {
            for (j, bj) in boxes.iter().enumerate() {
                let j = j as u32;
                if j != p && (!bj.is_infinite() || p < j) && (awake(p as usize) || awake(j as usize)) {
                    pairs.push((p.min(j), p.max(j)));
                }
            }
        }
        sort_pairs(pairs, boxes.len(), &mut self.counts, &mut self.scratch);
        pairs.dedup();
    }
}

impl BroadPhase {
    /// Sweeps along the axis of largest variance of the box centres; switches only when
    /// another axis is clearly better (a quarter more), so the order is rarely rebuilt.
    fn choose_axis(&mut self, boxes: &[Aabb]) {
        let n = self.order.len() as f64;
        if n < 2.0 {
            return;
        }
        let centre = |i: u32| {
            let b = &boxes[i as usize];
            (b.min + b.max) * 0.5
        };
        let mean = self.order.iter().map(|&i| centre(i)).sum::<crate::math::DVec3>() / n;
        let var = self.order.iter().map(|&i| (centre(i) - mean) * (centre(i) - mean)).sum::<crate::math::DVec3>();
        let best = (0..3).fold(self.axis, |best, a| if var[a] > var[best] { a } else { best });
        if var[best] > 1.25 * var[self.axis] {
            self.axis = best;
            self.order.sort_by(|&a, &b| boxes[a as usize].min[best].total_cmp(&boxes[b as usize].min[best]).then(a.cmp(&b)));
        }
    }
}

/// Sorts pairs of rows below `rows` by their first row, then their second: two stable counting
/// passes, linear in pairs and rows (a comparison sort of a large pile's pairs cost as much as
/// the rest of the broad phase).
fn sort_pairs(pairs: &mut Vec<(u32, u32)>, rows: usize, counts: &mut Vec<usize>, scratch: &mut Vec<(u32, u32)>) {
    let keys: [fn(&(u32, u32)) -> u32; 2] = [|p| p.1, |p| p.0];
    for key in keys {
        counts.clear();
        counts.resize(rows + 1, 0);
        for p in pairs.iter() {
            counts[key(p) as usize + 1] += 1;
        }
        // Where each row's pairs start.
        for r in 1..=rows {
            counts[r] += counts[r - 1];
        }
        scratch.clear();
        scratch.resize(pairs.len(), (0, 0));
        for p in pairs.iter() {
            let slot = &mut counts[key(p) as usize];
            scratch[*slot] = *p;
            *slot += 1;
        }
        std::mem::swap(pairs, scratch);
    }
}

fn insertion_sort_by_min(order: &mut [u32], boxes: &[Aabb], axis: usize) {
    for i in 1..order.len() {
        let item = order[i];
        let key = boxes[item as usize].min[axis];
        let mut j = i;
        while j > 0 && boxes[order[j - 1] as usize].min[axis] > key {
            order[j] = order[j - 1];
            j -= 1;
        }
        order[j] = item;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::DVec3;

    #[test]
    fn pairs_sort_as_a_comparison_sort_would() {
        let mut seed = 7;
        let rows = 50;
        let mut pairs: Vec<(u32, u32)> = (0..400).map(|_| ((lcg(&mut seed) * rows as f64) as u32, (lcg(&mut seed) * rows as f64) as u32)).collect();
        let mut expected = pairs.clone();
        expected.sort_unstable();
        let (mut counts, mut scratch) = (Vec::new(), Vec::new());
        sort_pairs(&mut pairs, rows, &mut counts, &mut scratch);
        assert_eq!(pairs, expected);
        // Again with the buffers as the first sort left them, and with none.
        sort_pairs(&mut pairs, rows, &mut counts, &mut scratch);
        assert_eq!(pairs, expected);
        let mut none = Vec::new();
        sort_pairs(&mut none, rows, &mut counts, &mut scratch);
        assert!(none.is_empty());
    }

    /// A small deterministic generator, enough to scatter boxes.
    fn lcg(seed: &mut u64) -> f64 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (*seed >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Every overlapping pair, by testing all of them.
    fn all_overlapping(boxes: &[Aabb]) -> Vec<(u32, u32)> {
        let n = boxes.len() as u32;
        (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).filter(|&(i, j)| boxes[i as usize].overlaps(&boxes[j as usize])).collect()
    }

    #[test]
    fn finds_exactly_the_overlapping_pairs_as_bodies_move() {
        let mut seed = 7;
        let mut centres: Vec<DVec3> = (0..400).map(|_| DVec3::new(lcg(&mut seed), lcg(&mut seed), lcg(&mut seed)) * 4.0).collect();
        let mut bp = BroadPhase::default();
        let mut pairs = vec![];
        for _ in 0..5 {
            let mut boxes: Vec<Aabb> = centres.iter().map(|c| Aabb::around(*c, DVec3::splat(0.1))).collect();
            boxes.push(Aabb::everything());
            bp.find_pairs(&boxes, |_| true, &mut pairs);
            assert_eq!(pairs, all_overlapping(&boxes));
            assert!(pairs.len() < 2 * 400 + 200, "{} pairs", pairs.len());
            for c in centres.iter_mut() {
                c.x += 0.3 * (lcg(&mut seed) - 0.5);
            }
        }
    }

    #[test]
    fn bodies_at_rest_pair_only_with_awake_ones() {
        // Every third box awake, among 400 scattered ones and a plane: exactly the overlapping
        // pairs with an awake box.
        let mut seed = 11;
        let mut boxes: Vec<Aabb> = (0..400).map(|_| Aabb::around(DVec3::new(lcg(&mut seed), lcg(&mut seed), lcg(&mut seed)) * 3.0, DVec3::splat(0.15))).collect();
        boxes.push(Aabb::everything());
        let awake = |i: usize| i % 3 == 0;
        let mut bp = BroadPhase::default();
        let mut pairs = vec![];
        bp.find_pairs(&boxes, awake, &mut pairs);
        let expected: Vec<(u32, u32)> = all_overlapping(&boxes).into_iter().filter(|&(i, j)| awake(i as usize) || awake(j as usize)).collect();
        assert!(expected.len() > 400, "{} pairs", expected.len());
        assert_eq!(pairs, expected);
    }

    #[test]
    fn a_tall_column_is_swept_along_its_height() {
        // 3 x 3 columns of 200 boxes: along x every box of a column overlaps every other;
        // along y only its neighbours. The pairs are the same either way.
        let mut boxes = vec![];
        for k in 0..1800 {
            let c = DVec3::new((k % 3) as f64, 0.19 * (k / 9) as f64, ((k / 3) % 3) as f64);
            boxes.push(Aabb::around(c, DVec3::splat(0.1)));
        }
        let mut bp = BroadPhase::default();
        let mut pairs = vec![];
        bp.find_pairs(&boxes, |_| true, &mut pairs);
        assert_eq!(bp.axis, 1);
        // Each box overlaps the one above it in its column: 9 columns of 199 pairs.
        assert_eq!(pairs, all_overlapping(&boxes));
        assert_eq!(pairs.len(), 9 * 199);
    }
}
