//! Disjoint sets of body rows (union-find), in a buffer kept from step to step: the islands of
//! sleeping and of position correction's lift.

#[derive(Default)]
pub struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    /// `n` rows, each its own set.
    pub fn reset(&mut self, n: usize) {
        self.parent.clear();
        self.parent.extend(0..n);
    }

    /// The root of row `i`'s set (halving the path to it).
    pub fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    /// Joins the sets of rows `a` and `b`. The smaller root wins, so the result does not
    /// depend on the order of unions.
    pub fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            self.parent[hi] = lo;
        }
    }
}
