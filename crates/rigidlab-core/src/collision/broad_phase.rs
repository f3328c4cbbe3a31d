//! Broad phase: the pairs of bodies whose bounding boxes overlap. Finite boxes are filed in
//! uniform grids (see cell_grid.rs), one grid per size class: the boxes up to twice the
//! median width share a grid whose cell is as wide as the widest of them, the rest are classed
//! the same way among themselves, so a few large bodies (walls, a long plank) do not coarsen the
//! grid of the many small ones. A box finds its own class's neighbours in its cell and the cells
//! around it, and the smaller classes' boxes by looking up the cells it covers. The work grows
//! with the bodies and their overlaps, not with how they spread along an axis (a sweep along
//! one axis of a wide pile tests every body against a whole slab of it). Infinite shapes
//! (planes) are kept aside and tested against every finite body whose box may reach them (a pile
//! resting on a floor plane meets the plane only at its bottom).

use super::cell_grid::CellGrid;
use crate::math::DVec3;
use crate::shape::aabb::Aabb;
use rayon::prelude::*;

#[derive(Default)]
pub struct BroadPhase {
    /// Rows of bodies with finite boxes.
    finite: Vec<u32>,
    /// Rows of bodies with infinite boxes.
    infinite: Vec<u32>,
    /// Body count the lists were built for; a change forces a rebuild.
    built_for: Option<usize>,
    /// One grid per size class, smallest first (only the first `classes` are in use).
    grids: Vec<CellGrid>,
    classes: usize,
    /// Buffers of `classify`: (width, row) of the boxes not classed yet, their widths to
    /// select the median from, and one class's rows.
    widths: Vec<(f64, u32)>,
    selection: Vec<f64>,
    class_rows: Vec<u32>,
    /// Buffers of `sort_pairs`.
    counts: Vec<usize>,
    scratch: Vec<(u32, u32)>,
}

impl BroadPhase {
    /// Forgets the body lists (after bodies were added or removed).
    pub fn invalidate(&mut self) {
        self.built_for = None;
    }

    /// Candidate pairs (row a < row b) whose boxes overlap and of which at least one body is
    /// `awake`, sorted so that the solver sees them in a deterministic order.
    #[cfg(test)]
    pub fn find_pairs(
        &mut self,
        boxes: &[Aabb],
        awake: impl Fn(usize) -> bool,
        pairs: &mut Vec<(u32, u32)>,
    ) {
        self.find_pairs_where(boxes, awake, |_, _| true, |_| None, 1, pairs);
    }

    /// `find_pairs` of the pairs that `allow` (a collision filter) lets collide: the others are
    /// dropped as they are found, before they are sorted. An infinite shape `p` whose `reach(p)`
    /// is a normal n and a height h (a plane, its margin included) is paired only with the finite
    /// boxes whose lowest corner along n lies at most h along it; with None, with every box.
    pub fn find_pairs_where(
        &mut self,
        boxes: &[Aabb],
        awake: impl Fn(usize) -> bool,
        allow: impl Fn(u32, u32) -> bool + Sync,
        reach: impl Fn(u32) -> Option<(DVec3, f64)>,
        threads: usize,
        pairs: &mut Vec<(u32, u32)>,
    ) {
        pairs.clear();
        if self.built_for != Some(boxes.len()) {
            self.finite.clear();
            self.infinite.clear();
            for (i, b) in boxes.iter().enumerate() {
                if b.is_infinite() {
                    self.infinite.push(i as u32)
                } else {
                    self.finite.push(i as u32)
                }
            }
            self.built_for = Some(boxes.len());
        }
        self.classify(boxes, &awake);
        let push = |pairs: &mut Vec<(u32, u32)>, i: u32, j: u32| {
            if allow(i, j) {
                pairs.push((i.min(j), i.max(j)));
            }
        };
        let grids = &self.grids[..self.classes];
        for (k, grid) in grids.iter().enumerate() {
            match grid.shares(threads) {
                // The shares' pairs are joined in any order: they are sorted below.
                Some(shares) => {
                    let found: Vec<Vec<(u32, u32)>> = shares
                        .into_par_iter()
                        .map(|slots| {
                            let mut found = Vec::new();
                            grid.pairs_in(slots, |i, j| push(&mut found, i, j));
                            found
                        })
                        .collect();
                    found.iter().for_each(|f| pairs.extend_from_slice(f));
                }
                None => grid.pairs(|i, j| push(pairs, i, j)),
            }
            // Each larger box looks for the smaller classes' boxes it overlaps.
            for big in grids[k + 1..].iter().flat_map(|g| g.entries()) {
                grid.overlapping(&big.aabb, |small| {
                    if big.awake || small.awake {
                        push(pairs, big.row, small.row);
                    }
                });
            }
        }
        for &p in &self.infinite {
            let reach = reach(p);
            let reaches = |b: &Aabb| reach.is_none_or(|(n, h)| b.lowest_along(n) <= h);
            for (j, bj) in boxes.iter().enumerate() {
                let j = j as u32;
                if j != p
                    && (if bj.is_infinite() { p < j } else { reaches(bj) })
                    && (awake(p as usize) || awake(j as usize))
                {
                    push(pairs, p, j);
                }
            }
        }
        sort_pairs(pairs, boxes.len(), &mut self.counts, &mut self.scratch);
        pairs.dedup();
    }

    /// Files the finite boxes in size classes: the boxes up to twice the median width of those
    /// left, then the same among the rest, each class in a grid as fine as its widest box. Each
    /// class takes at least half of those left, so there are at most log2(n) + 1 classes.
    fn classify(&mut self, boxes: &[Aabb], awake: &impl Fn(usize) -> bool) {
        let width = |b: &Aabb| (b.max - b.min).max_element();
        // (width, row) of the boxes not classed yet, kept in row order so that each grid reads
        // the boxes and fills its table in the order they lie in memory.
        self.widths.clear();
        self.widths
            .extend(self.finite.iter().map(|&r| (width(&boxes[r as usize]), r)));
        self.classes = 0;
        while !self.widths.is_empty() {
            self.selection.clear();
            self.selection.extend(self.widths.iter().map(|w| w.0));
            let mid = self.selection.len() / 2;
            let limit = 2.0 * *self.selection.select_nth_unstable_by(mid, f64::total_cmp).1;
            self.class_rows.clear();
            let mut widest = 0.0f64;
            let class_rows = &mut self.class_rows;
            self.widths.retain(|&(w, r)| {
                let small = w <= limit;
                if small {
                    class_rows.push(r);
                    widest = widest.max(w);
                }
                !small
            });
            if self.grids.len() == self.classes {
                self.grids.push(CellGrid::default());
            }
            // A cell of zero width (points) would put every box in a cell of its own.
            let cell = if widest > 0.0 { widest } else { 1.0 };
            self.grids[self.classes].build(&self.class_rows, boxes, awake, cell);
            self.classes += 1;
        }
    }
}

/// Which row of a pair a counting pass sorts by.
type PairKey = fn(&(u32, u32)) -> u32;

/// Sorts pairs of rows below `rows` by their first row, then their second: two stable counting
/// passes, linear in pairs and rows (a comparison sort of a large pile's pairs cost as much as
/// the rest of the broad phase).
fn sort_pairs(
    pairs: &mut Vec<(u32, u32)>,
    rows: usize,
    counts: &mut Vec<usize>,
    scratch: &mut Vec<(u32, u32)>,
) {
    let keys: [PairKey; 2] = [|p| p.1, |p| p.0];
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::DVec3;

    #[test]
    fn pairs_sort_as_a_comparison_sort_would() {
        let mut seed = 7;
        let rows = 50;
        let mut pairs: Vec<(u32, u32)> = (0..400)
            .map(|_| {
                (
                    (lcg(&mut seed) * rows as f64) as u32,
                    (lcg(&mut seed) * rows as f64) as u32,
                )
            })
            .collect();
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
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Every overlapping pair, by testing all of them.
    fn all_overlapping(boxes: &[Aabb]) -> Vec<(u32, u32)> {
        let n = boxes.len() as u32;
        (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .filter(|&(i, j)| boxes[i as usize].overlaps(&boxes[j as usize]))
            .collect()
    }

    #[test]
    fn finds_exactly_the_overlapping_pairs_as_bodies_move() {
        let mut seed = 7;
        let mut centres: Vec<DVec3> = (0..400)
            .map(|_| DVec3::new(lcg(&mut seed), lcg(&mut seed), lcg(&mut seed)) * 4.0)
            .collect();
        let mut bp = BroadPhase::default();
        let mut pairs = vec![];
        for _ in 0..5 {
            let mut boxes: Vec<Aabb> = centres
                .iter()
                .map(|c| Aabb::around(*c, DVec3::splat(0.1)))
                .collect();
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
        let mut boxes: Vec<Aabb> = (0..400)
            .map(|_| {
                Aabb::around(
                    DVec3::new(lcg(&mut seed), lcg(&mut seed), lcg(&mut seed)) * 3.0,
                    DVec3::splat(0.15),
                )
            })
            .collect();
        boxes.push(Aabb::everything());
        let awake = |i: usize| i % 3 == 0;
        let mut bp = BroadPhase::default();
        let mut pairs = vec![];
        bp.find_pairs(&boxes, awake, &mut pairs);
        let expected: Vec<(u32, u32)> = all_overlapping(&boxes)
            .into_iter()
            .filter(|&(i, j)| awake(i as usize) || awake(j as usize))
            .collect();
        assert!(expected.len() > 400, "{} pairs", expected.len());
        assert_eq!(pairs, expected);
    }

    #[test]
    fn a_plane_pairs_only_with_the_boxes_that_reach_it() {
        // 400 scattered boxes over a tilted plane through the origin (row 400), and a second
        // plane (row 401) that reaches everything: the tilted one pairs with exactly the boxes
        // whose lowest corner lies within 0.05 of it, the other with all.
        let mut seed = 5;
        let mut boxes: Vec<Aabb> = (0..400)
            .map(|_| {
                Aabb::around(
                    DVec3::new(lcg(&mut seed), lcg(&mut seed), lcg(&mut seed)) * 3.0
                        - DVec3::splat(0.5),
                    DVec3::new(0.1, 0.2, 0.05),
                )
            })
            .collect();
        boxes.push(Aabb::everything());
        boxes.push(Aabb::everything());
        let n = DVec3::new(0.3, 1.0, -0.2).normalize();
        let near = |b: &Aabb| b.lowest_along(n) <= 0.05;
        let mut bp = BroadPhase::default();
        let mut pairs = vec![];
        bp.find_pairs_where(
            &boxes,
            |_| true,
            |_, _| true,
            |p| (p == 400).then_some((n, 0.05)),
            1,
            &mut pairs,
        );
        let expected: Vec<(u32, u32)> = all_overlapping(&boxes)
            .into_iter()
            .filter(|&(i, j)| j != 400 || near(&boxes[i as usize]))
            .collect();
        let reaching = pairs.iter().filter(|&&(_, j)| j == 400).count();
        assert!(
            reaching > 20 && reaching < 380,
            "{reaching} boxes reach the plane"
        );
        assert_eq!(pairs, expected);
        // The lowest corner: each coordinate from the side the normal points away from.
        let b = Aabb {
            min: DVec3::new(-1.0, 2.0, 3.0),
            max: DVec3::new(1.0, 4.0, 5.0),
        };
        assert_eq!(b.lowest_along(n), -n.x + 2.0 * n.y + 5.0 * n.z);
    }

    #[test]
    fn a_tall_column_pairs_each_box_with_its_neighbours() {
        // 3 x 3 columns of 200 boxes: only boxes one above the other in a column overlap.
        let mut boxes = vec![];
        for k in 0..1800 {
            let c = DVec3::new((k % 3) as f64, 0.19 * (k / 9) as f64, ((k / 3) % 3) as f64);
            boxes.push(Aabb::around(c, DVec3::splat(0.1)));
        }
        let mut bp = BroadPhase::default();
        let mut pairs = vec![];
        bp.find_pairs(&boxes, |_| true, &mut pairs);
        // Each box overlaps the one above it in its column: 9 columns of 199 pairs.
        assert_eq!(pairs, all_overlapping(&boxes));
        assert_eq!(pairs.len(), 9 * 199);
    }

    /// Boxes of widths spread over three orders of magnitude, a few long slabs among them,
    /// `n` in all, scattered over a region `spread` wide.
    fn mixed_sizes(n: usize, spread: f64, seed: &mut u64) -> Vec<Aabb> {
        (0..n)
            .map(|k| {
                let c = DVec3::new(lcg(seed), lcg(seed), lcg(seed)) * spread;
                let half = if k % 50 == 0 {
                    DVec3::new(spread * 0.4, 0.05, spread * 0.3)
                } else {
                    DVec3::new(lcg(seed), lcg(seed), lcg(seed)) * 10f64.powf(-3.0 + 3.0 * lcg(seed))
                };
                Aabb::around(c, half)
            })
            .collect()
    }

    #[test]
    fn boxes_of_many_sizes_pair_exactly_as_all_pairs_tested() {
        let mut seed = 3;
        let mut boxes = mixed_sizes(600, 3.0, &mut seed);
        boxes.push(Aabb::everything());
        // All awake, half awake (the sleeping boxes look only at awake ones) and a few awake.
        pairs_exactly_with_one_in_every(&boxes, &[1, 2, 7]);
    }

    /// The broad phase's pairs of `boxes` with one box in each of `everies` awake are the
    /// overlapping pairs with an awake box (over 300 of them).
    fn pairs_exactly_with_one_in_every(boxes: &[Aabb], everies: &[usize]) {
        let mut bp = BroadPhase::default();
        let mut pairs = vec![];
        for &every in everies {
            let awake = |i: usize| i % every == 0;
            bp.find_pairs(boxes, awake, &mut pairs);
            let expected: Vec<(u32, u32)> = all_overlapping(boxes)
                .into_iter()
                .filter(|&(i, j)| awake(i as usize) || awake(j as usize))
                .collect();
            assert!(expected.len() > 300, "{} pairs", expected.len());
            assert_eq!(pairs, expected, "one body in {every} awake");
        }
    }

    #[test]
    fn boxes_in_one_plane_pair_exactly_as_all_pairs_tested() {
        // A 2D world's bodies: boxes of many sizes centred on z = 0 (each grid then holds one
        // layer of cells and looks at no layer above or below), all awake and a few awake.
        let mut seed = 5;
        let boxes: Vec<Aabb> = mixed_sizes(600, 3.0, &mut seed)
            .into_iter()
            .map(|b| {
                let (c, half) = ((b.min + b.max) * 0.5, (b.max - b.min) * 0.5);
                Aabb::around(DVec3::new(c.x, c.y, 0.0), half)
            })
            .collect();
        pairs_exactly_with_one_in_every(&boxes, &[1, 7]);
    }

    #[test]
    fn a_packed_pile_pairs_exactly_as_all_pairs_tested() {
        // Boxes as a pile's: on a jittered lattice, close enough that the grid gives every
        // cell of their span a slot of its own (looked up cell by cell), in 3D and in one
        // plane, all awake and half of them.
        let mut seed = 9;
        for layers in [10, 1] {
            let boxes: Vec<Aabb> = (0..1000)
                .map(|k| {
                    let (i, j, l) = (k % 10, (k / 10) % 10, k / 100);
                    let (j, l) = if layers == 1 { (k / 10, 0) } else { (j, l) };
                    let jitter = DVec3::new(lcg(&mut seed), lcg(&mut seed), lcg(&mut seed));
                    let centre = DVec3::new(i as f64, j as f64, l as f64) * 0.1 + jitter * 0.02;
                    let half = 0.05 + 0.02 * lcg(&mut seed);
                    Aabb::around(centre, DVec3::splat(half))
                })
                .collect();
            pairs_exactly_with_one_in_every(&boxes, &[1, 2]);
        }
    }

    #[test]
    fn degenerate_and_far_boxes_pair_exactly() {
        // Points (zero width), boxes on the same spot, and boxes so far out that their cells
        // saturate: the pairs are still exactly the overlapping ones.
        let mut boxes = vec![];
        for k in 0..40 {
            let c = DVec3::new((k % 4) as f64 * 0.5, 0.0, 0.0);
            boxes.push(Aabb::around(c, DVec3::ZERO));
            boxes.push(Aabb::around(
                c + DVec3::splat(1e19 * (k % 3) as f64),
                DVec3::splat(0.3),
            ));
        }
        let mut bp = BroadPhase::default();
        let mut pairs = vec![];
        bp.find_pairs(&boxes, |i| i % 3 != 1, &mut pairs);
        let expected: Vec<(u32, u32)> = all_overlapping(&boxes)
            .into_iter()
            .filter(|&(i, j)| i % 3 != 1 || j % 3 != 1)
            .collect();
        assert!(expected.len() > 100, "{} pairs", expected.len());
        assert_eq!(pairs, expected);
        let only_points: Vec<Aabb> = boxes.iter().step_by(2).copied().collect();
        bp.find_pairs(&only_points, |_| true, &mut pairs);
        assert_eq!(pairs, all_overlapping(&only_points));
    }

    #[test]
    fn shared_out_over_threads_the_pairs_are_the_same() {
        // 3 000 boxes crowded in a column (several to a cell), all awake and a few awake: the
        // grid's search shared over 2 and 3 threads finds what one thread finds.
        let mut seed = 11;
        let boxes: Vec<Aabb> = (0..3000)
            .map(|_| {
                let c = DVec3::new(lcg(&mut seed), 6.0 * lcg(&mut seed), lcg(&mut seed));
                Aabb::around(c, DVec3::splat(0.04 + 0.03 * lcg(&mut seed)))
            })
            .collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        for every in [1, 3] {
            let awake = |i: usize| i % every == 0;
            let mut bp = BroadPhase::default();
            let found = |threads: usize, bp: &mut BroadPhase| {
                let mut pairs = vec![];
                bp.find_pairs_where(&boxes, awake, |_, _| true, |_| None, threads, &mut pairs);
                pairs
            };
            let one = found(1, &mut bp);
            assert!(one.len() > 3000, "{} pairs", one.len());
            assert!(bp.grids[0].shares(2).is_some() || every > 2);
            pool.install(|| {
                assert_eq!(found(2, &mut bp), one);
                assert_eq!(found(3, &mut bp), one);
            });
        }
    }
}
