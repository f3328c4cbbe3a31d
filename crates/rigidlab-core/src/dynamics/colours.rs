//! The order of Gauss-Seidel sweeps over contacts (the resting solve's, position
//! correction's): contacts grouped in colours, no two of a colour sharing a body that can move
//! (graph colouring, as Box2D v3 orders its constraints). The contacts of one colour then
//! change disjoint bodies, so what each one does is the same whichever is solved first, and a
//! colour may be split over threads with the very same result (split.rs): the order is the
//! colours', on one thread or many. Bodies that cannot move (floors, walls, sleeping bodies)
//! are read, never changed, and do not separate contacts.

/// Colours a body's blocks may take; a block whose bodies have used them all goes to the
/// overflow, solved last (a body touching more than 64 others moves in no real pile).
const COLOURS: usize = 64;

/// Contacts between bodies that may move, at least, for a sweep's contacts to be coloured
/// (`worth_colouring`); fewer stay in their order, one run swept on one thread. Colouring
/// scatters a sweep's reads of the bodies (measured on one thread, side by side: a resting
/// pyramid of 820 cubes 6% slower, 1 000 dropped cubes 1 to 7%), which pays only where a sweep
/// can be split (split.rs: some 256 blocks per thread at least). The choice depends on the
/// world alone, never on the threads.
pub const LEAST_BLOCKS: usize = 1024;

/// The contacts in sweep order, and the runs of one colour among the blocks made of them.
#[derive(Default)]
pub struct Colours {
    /// Contact indices, colour by colour, each colour in the contacts' order.
    pub order: Vec<u32>,
    /// Per body row: the colours its contacts took so far.
    used: Vec<u64>,
    /// Per contact: its colour.
    colour: Vec<u8>,
    /// Where each run of blocks of one colour starts, and the count of blocks after the last
    /// (`place`).
    starts: Vec<usize>,
    /// The colour of each run.
    run_colour: Vec<u8>,
}

/// Whether a sweep over `moving` contacts of bodies that may move is worth colouring.
pub fn worth_colouring(moving: usize) -> bool {
    moving >= LEAST_BLOCKS
}

impl Colours {
    /// Colours contacts between bodies `pairs` (rows; `movable(row)`: whether the body can
    /// move) among `rows` bodies, greedily in their order: each takes the lowest colour free on
    /// both its bodies; or, unless `coloured` (see `worth_colouring`), leaves them in their
    /// order as one run. Then the blocks made of them are `place`d in `order`.
    pub fn colour(
        &mut self,
        rows: usize,
        pairs: impl Iterator<Item = (usize, usize)>,
        movable: impl Fn(usize) -> bool,
        coloured: bool,
    ) {
        if !coloured {
            self.colour.clear();
            self.colour.extend(pairs.map(|_| COLOURS as u8));
            self.order.clear();
            self.order.extend(0..self.colour.len() as u32);
            self.starts.clear();
            self.run_colour.clear();
            return;
        }
        let Colours {
            order,
            used,
            colour,
            starts,
            run_colour,
        } = self;
        used.clear();
        used.resize(rows, 0);
        colour.clear();
        let mut count = [0usize; COLOURS + 1];
        for (a, b) in pairs {
            let (ma, mb) = (movable(a), movable(b));
            let taken = if ma { used[a] } else { 0 } | if mb { used[b] } else { 0 };
            let c = (!taken).trailing_zeros() as usize;
            if c < COLOURS {
                let bit = 1u64 << c;
                if ma {
                    used[a] |= bit;
                }
                if mb {
                    used[b] |= bit;
                }
            }
            colour.push(c as u8);
            count[c] += 1;
        }
        let mut next = [0usize; COLOURS + 1];
        let mut at = 0;
        for (next, n) in next.iter_mut().zip(count) {
            *next = at;
            at += n;
        }
        order.clear();
        order.resize(at, 0);
        for (i, &c) in colour.iter().enumerate() {
            order[next[c as usize]] = i as u32;
            next[c as usize] += 1;
        }
        starts.clear();
        run_colour.clear();
    }

    /// Notes that the next block is made of contact `i`: blocks are made in `order`, some
    /// contacts making none.
    pub fn place(&mut self, i: usize) {
        let c = self.colour[i];
        if self.run_colour.last() != Some(&c) {
            // The count so far is where the run starts; it is the last entry of `starts`,
            // which `place` keeps as the count of blocks placed.
            let count = self.starts.pop().unwrap_or(0);
            self.starts.extend([count, count]);
            self.run_colour.push(c);
        }
        *self.starts.last_mut().expect("a run is open") += 1;
    }

    /// How many blocks were `place`d.
    pub fn placed(&self) -> usize {
        self.starts.last().copied().unwrap_or(0)
    }

    /// Whether the contacts are coloured (`colour`): split.rs may share out their runs.
    pub fn coloured(&self) -> bool {
        self.run_colour.iter().any(|&c| (c as usize) < COLOURS)
    }

    /// The runs of blocks of one colour, in sweep order, and whether each is the overflow
    /// (whose blocks may share bodies, to be swept one after the other).
    pub fn runs(&self) -> impl Iterator<Item = (std::ops::Range<usize>, bool)> + '_ {
        self.starts
            .windows(2)
            .zip(&self.run_colour)
            .map(|(w, &c)| (w[0]..w[1], c as usize == COLOURS))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_two_blocks_of_a_colour_share_a_body_that_moves() {
        // A chain of bodies resting on a floor (row 0) and on each other: every block shares
        // the floor.
        let mut pairs = vec![];
        for i in 1..=LEAST_BLOCKS {
            pairs.push((0, i));
            if i > 1 {
                pairs.push((i - 1, i));
            }
        }
        let c = coloured(LEAST_BLOCKS + 1, &pairs, |row| row != 0);
        assert!(c.coloured());
        let mut seen = vec![false; pairs.len()];
        for (run, overflow) in c.runs() {
            assert!(!overflow);
            let mut bodies = std::collections::HashSet::new();
            for &i in &c.order[run] {
                assert!(!seen[i as usize], "contact {i} in two colours");
                seen[i as usize] = true;
                let (a, b) = pairs[i as usize];
                for row in [a, b].into_iter().filter(|&r| r != 0) {
                    assert!(bodies.insert(row), "body {row} twice in one colour");
                }
            }
        }
        assert!(seen.iter().all(|&s| s), "every block is swept");
        // A chain needs three colours: a body's two links and its floor contact.
        assert_eq!(c.runs().count(), 3);
    }

    #[test]
    fn blocks_beyond_the_colours_go_to_the_overflow_last() {
        // One body touching 70 others (and enough pairs elsewhere to be coloured): 64
        // colours, then six in the overflow.
        let mut pairs: Vec<_> = (1..=70usize).map(|i| (0, i)).collect();
        pairs.extend((0..LEAST_BLOCKS).map(|i| (100 + 2 * i, 101 + 2 * i)));
        let c = coloured(100 + 2 * LEAST_BLOCKS, &pairs, |_| true);
        let runs: Vec<_> = c.runs().collect();
        assert_eq!(runs.len(), 65);
        assert!(runs[64].1);
        assert_eq!(&c.order[runs[64].0.clone()], &[64, 65, 66, 67, 68, 69]);
    }

    #[test]
    fn few_contacts_stay_in_their_order_as_one_run() {
        let pairs: Vec<_> = (1..LEAST_BLOCKS).map(|i| (i - 1, i)).collect();
        assert!(!worth_colouring(pairs.len()));
        let c = coloured(LEAST_BLOCKS, &pairs, |_| true);
        assert!(!c.coloured());
        assert!(c.order.iter().enumerate().all(|(i, &o)| i == o as usize));
        assert_eq!(c.runs().collect::<Vec<_>>(), vec![(0..pairs.len(), true)]);
    }

    #[test]
    fn contacts_that_make_no_block_leave_no_run() {
        // Bodies on each other in pairs; every other pair's contact makes no block.
        let pairs: Vec<_> = (0..2 * LEAST_BLOCKS).map(|i| (2 * i, 2 * i + 1)).collect();
        let mut c = Colours::default();
        c.colour(4 * LEAST_BLOCKS, pairs.iter().copied(), |_| true, true);
        for &i in &c.order.clone() {
            if i % 2 == 0 {
                c.place(i as usize);
            }
        }
        assert_eq!(c.runs().collect::<Vec<_>>(), vec![(0..LEAST_BLOCKS, false)]);
    }

    /// Colours `pairs` and places a block for each contact.
    fn coloured(rows: usize, pairs: &[(usize, usize)], movable: fn(usize) -> bool) -> Colours {
        let mut c = Colours::default();
        c.colour(
            rows,
            pairs.iter().copied(),
            movable,
            worth_colouring(pairs.len()),
        );
        for &i in &c.order.clone() {
            c.place(i as usize);
        }
        c
    }
}
