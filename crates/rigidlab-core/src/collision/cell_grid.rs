//! A uniform grid of boxes that are no wider than its cells: each box is filed under the cell
//! that holds its centre, so two boxes that overlap sit in the same cell or in neighbouring
//! ones. The boxes are laid out cell after cell by a counting sort (no allocation once warm, no
//! order that depends on anything but the input). When the cells the boxes span are not many
//! more than the boxes, the table has a slot for each cell in x, then y, then z order, so
//! neighbouring cells sit close in memory; otherwise (a few boxes spread far apart) cells are
//! hashed into a table about twice as long as the boxes are many. Cells that share a slot only
//! cost extra box tests; a pair found twice that way is left for the caller to drop with the
//! other repeats.

use crate::math::DVec3;
use crate::shape::aabb::Aabb;

/// A box filed in the grid, with what the pair search needs beside it.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub aabb: Aabb,
    pub row: u32,
    pub awake: bool,
}

type Cell = [i64; 3];

/// The 13 neighbours of a cell that come after it (in x, then y, then z order): visiting those
/// and the cell itself from every cell meets each pair of neighbouring cells once.
const FORWARD: [Cell; 13] = [
    [1, -1, -1],
    [1, -1, 0],
    [1, -1, 1],
    [1, 0, -1],
    [1, 0, 0],
    [1, 0, 1],
    [1, 1, -1],
    [1, 1, 0],
    [1, 1, 1],
    [0, 1, -1],
    [0, 1, 0],
    [0, 1, 1],
    [0, 0, 1],
];

/// `FORWARD`'s neighbours in the cell's own layer of z: all there are when every box lies in
/// one layer (the bodies of a 2D world, whose boxes are centred on z = 0).
const FORWARD_IN_LAYER: [Cell; 4] = [[1, -1, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]];

/// How cells map to slots of the table.
#[derive(Clone, Copy, Debug, Default)]
enum Layout {
    /// A slot per cell of the block from `low` spanning `size` cells: slot = x + y nx + z nx ny.
    Dense { low: Cell, size: [i64; 3] },
    /// Hashed into a table of length mask + 1 (a power of two).
    #[default]
    Hashed,
}

/// Boxes a thread is given at least when a grid's pair search is shared out (`shares`): a
/// share of fewer costs about what handing it to a thread does. Measured on 1 000 dropped
/// spheres and cubes (steps 250 to 550), two threads against one: the broad phase 0.64 ms a
/// step against 0.85, and 0.69 against 0.98.
const LEAST_BOXES_PER_THREAD: usize = 256;

/// At most this many cells per box are given a slot each (Layout::Dense).
const DENSE_CELLS_PER_BOX: i64 = 8;

#[derive(Default)]
pub struct CellGrid {
    /// Cell width: no filed box is wider along any axis.
    cell: f64,
    layout: Layout,
    /// Table length minus one (Layout::Hashed).
    mask: usize,
    /// Where each slot's entries start in `entries` (one more than the slots).
    starts: Vec<u32>,
    /// The filed boxes, slot after slot.
    entries: Vec<Entry>,
    /// The cell, then the slot, of each box, in the order they were given.
    cells: Vec<Cell>,
    slots: Vec<u32>,
    awake: usize,
    /// Whether every box's cell is in one layer of z: no box has a neighbour above or below.
    flat: bool,
}

impl CellGrid {
    /// Files the boxes of `rows`, none wider than `cell` along any axis.
    pub fn build(
        &mut self,
        rows: &[u32],
        boxes: &[Aabb],
        awake: &impl Fn(usize) -> bool,
        cell: f64,
    ) {
        self.cell = cell;
        let table = self.choose_layout(rows, boxes);
        self.starts.clear();
        self.starts.resize(table + 1, 0);
        self.slots.clear();
        for &c in &self.cells {
            let slot = self.slot(c).expect("every box's cell is in the table");
            self.slots.push(slot as u32);
            self.starts[slot + 1] += 1;
        }
        for k in 1..=table {
            self.starts[k] += self.starts[k - 1];
        }
        // Each slot's start serves as its fill cursor, then the starts are shifted back.
        let blank = Entry {
            aabb: Aabb {
                min: DVec3::ZERO,
                max: DVec3::ZERO,
            },
            row: 0,
            awake: false,
        };
        self.entries.clear();
        self.entries.resize(rows.len(), blank);
        self.awake = 0;
        for (&r, &slot) in rows.iter().zip(&self.slots) {
            let at = &mut self.starts[slot as usize];
            let is_awake = awake(r as usize);
            self.awake += is_awake as usize;
            self.entries[*at as usize] = Entry {
                aabb: boxes[r as usize],
                row: r,
                awake: is_awake,
            };
            *at += 1;
        }
        self.starts.copy_within(0..table, 1);
        self.starts[0] = 0;
    }

    /// Finds each box's cell; gives each cell of the boxes' span a slot when they are not many
    /// more than the boxes, else hashes. Returns the table's length.
    fn choose_layout(&mut self, rows: &[u32], boxes: &[Aabb]) -> usize {
        let (mut low, mut high) = ([i64::MAX; 3], [i64::MIN; 3]);
        self.cells.clear();
        for &r in rows {
            let b = &boxes[r as usize];
            let c = self.cell_of((b.min + b.max) * 0.5);
            self.cells.push(c);
            for k in 0..3 {
                low[k] = low[k].min(c[k]);
                high[k] = high[k].max(c[k]);
            }
        }
        self.flat = low[2] == high[2];
        let size = [0, 1, 2].map(|k| high[k].saturating_sub(low[k]).saturating_add(1));
        let cells = size.iter().fold(1i64, |a, &s| a.saturating_mul(s.max(1)));
        if !rows.is_empty()
            && cells
                <= DENSE_CELLS_PER_BOX
                    .saturating_mul(rows.len() as i64)
                    .max(64)
        {
            self.layout = Layout::Dense { low, size };
            cells as usize
        } else {
            self.layout = Layout::Hashed;
            let table = (2 * rows.len()).next_power_of_two().max(16);
            self.mask = table - 1;
            table
        }
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Every pair of filed boxes that overlap, at least one of them awake, as `found(row, row)`.
    /// When most boxes sleep, only the awake ones look around them.
    pub fn pairs(&self, mut found: impl FnMut(u32, u32)) {
        if 2 * self.awake < self.entries.len() {
            self.pairs_of_awake(&mut found);
            return;
        }
        self.pairs_in(0..self.starts.len() - 1, &mut found);
    }

    /// The slots of `threads` shares of `pairs`' work, of about as many boxes each; None when
    /// the work is not to be shared: fewer than `LEAST_BOXES_PER_THREAD` boxes a thread, or
    /// most boxes asleep (then only the awake ones look around them).
    pub fn shares(&self, threads: usize) -> Option<Vec<std::ops::Range<usize>>> {
        let n = self.entries.len();
        if threads < 2 || n < LEAST_BOXES_PER_THREAD * threads || 2 * self.awake < n {
            return None;
        }
        let slots = self.starts.len() - 1;
        let cut = |k: usize| {
            let boxes = (k * n / threads) as u32;
            self.starts[..slots].partition_point(|&s| s < boxes)
        };
        Some(
            (0..threads)
                .map(|k| cut(k)..if k + 1 == threads { slots } else { cut(k + 1) })
                .collect(),
        )
    }

    /// `pairs` found by the boxes of `slots` (each with those after it in its cell and those
    /// of the cells after it): the shares of `shares` find every pair once between them.
    pub fn pairs_in(&self, slots: std::ops::Range<usize>, mut found: impl FnMut(u32, u32)) {
        if let Layout::Dense { size, .. } = self.layout {
            self.dense_pairs_in(slots, size, found);
            return;
        }
        for slot in slots {
            let own = self.slot_range(slot);
            for p in own.clone() {
                let e = &self.entries[p];
                let c = self.cell_of((e.aabb.min + e.aabb.max) * 0.5);
                let mut test = |o: &Entry| {
                    if o.row != e.row && pairs_up(e, o) {
                        found(e.row, o.row);
                    }
                };
                self.entries[p + 1..own.end].iter().for_each(&mut test);
                let forward: &[Cell] = if self.flat {
                    &FORWARD_IN_LAYER
                } else {
                    &FORWARD
                };
                for &d in forward {
                    self.in_cell(add(c, d)).iter().for_each(&mut test);
                }
            }
        }
    }

    /// `pairs_in` on a dense table, cell by cell: a slot is one cell, whose neighbours'
    /// slots follow from its own, so each cell looks its neighbours up once for all its boxes
    /// (a pile of 1 000 spheres has about eight in a cell). The pairs come in another order
    /// than box by box; the caller sorts them.
    fn dense_pairs_in(
        &self,
        slots: std::ops::Range<usize>,
        [nx, ny, nz]: [i64; 3],
        mut found: impl FnMut(u32, u32),
    ) {
        let forward: &[Cell] = if self.flat {
            &FORWARD_IN_LAYER
        } else {
            &FORWARD
        };
        let mut test = |e: &Entry, o: &Entry| {
            if pairs_up(e, o) {
                found(e.row, o.row);
            }
        };
        for slot in slots {
            let own = &self.entries[self.slot_range(slot)];
            if own.is_empty() {
                continue;
            }
            for (k, e) in own.iter().enumerate() {
                own[k + 1..].iter().for_each(|o| test(e, o));
            }
            let s = slot as i64;
            let (x, y, z) = (s % nx, (s / nx) % ny, s / (nx * ny));
            for d in forward {
                let (x, y, z) = (x + d[0], y + d[1], z + d[2]);
                if x < 0 || x >= nx || y < 0 || y >= ny || z < 0 || z >= nz {
                    continue;
                }
                let other = &self.entries[self.slot_range((x + nx * (y + ny * z)) as usize)];
                for e in own {
                    other.iter().for_each(|o| test(e, o));
                }
            }
        }
    }

    /// `pairs` by looking around each awake box at all 27 cells; a pair of two awake boxes is
    /// reported from the one of lower row.
    fn pairs_of_awake(&self, found: &mut impl FnMut(u32, u32)) {
        for e in self.entries.iter().filter(|e| e.awake) {
            let c = self.cell_of((e.aabb.min + e.aabb.max) * 0.5);
            let layers = if self.flat { 0..=0 } else { -1..=1 };
            for dx in -1..=1 {
                for dy in -1..=1 {
                    for dz in layers.clone() {
                        for o in self.in_cell(add(c, [dx, dy, dz])) {
                            if o.row != e.row
                                && !(o.awake && o.row < e.row)
                                && e.aabb.overlaps(&o.aabb)
                            {
                                found(e.row, o.row);
                            }
                        }
                    }
                }
            }
        }
    }

    /// The filed boxes that overlap `b`, a box of any size (each may come more than once).
    pub fn overlapping(&self, b: &Aabb, mut found: impl FnMut(&Entry)) {
        // A filed box that overlaps b has its centre within half a cell of b.
        let half = DVec3::splat(0.5 * self.cell);
        let (mut lo, mut hi) = (self.cell_of(b.min - half), self.cell_of(b.max + half));
        if let Layout::Dense { low, size } = self.layout {
            for k in 0..3 {
                lo[k] = lo[k].max(low[k]);
                hi[k] = hi[k].min(low[k] + size[k] - 1);
            }
        }
        if (0..3).any(|k| lo[k] > hi[k]) {
            return;
        }
        let cells: f64 = (0..3)
            .map(|k| (hi[k] as f64 - lo[k] as f64) + 1.0)
            .product();
        let mut test = |o: &Entry| {
            if b.overlaps(&o.aabb) {
                found(o);
            }
        };
        if cells > self.entries.len() as f64 {
            self.entries.iter().for_each(test);
            return;
        }
        for z in lo[2]..=hi[2] {
            for y in lo[1]..=hi[1] {
                for x in lo[0]..=hi[0] {
                    self.in_cell([x, y, z]).iter().for_each(&mut test);
                }
            }
        }
    }

    /// The entries filed in the slot of cell `c` (those of other cells sharing it included).
    fn in_cell(&self, c: Cell) -> &[Entry] {
        match self.slot(c) {
            Some(slot) => &self.entries[self.slot_range(slot)],
            None => &[],
        }
    }

    fn slot_range(&self, slot: usize) -> std::ops::Range<usize> {
        self.starts[slot] as usize..self.starts[slot + 1] as usize
    }

    /// The cell holding point `p` (coordinates saturate far out, which only crowds cells there).
    fn cell_of(&self, p: DVec3) -> Cell {
        let c = p / self.cell;
        [c.x.floor() as i64, c.y.floor() as i64, c.z.floor() as i64]
    }

    /// The slot of cell `c`; None for a cell outside a dense table (it holds no box).
    fn slot(&self, c: Cell) -> Option<usize> {
        match self.layout {
            Layout::Dense { low, size } => {
                let d = [0, 1, 2].map(|k| c[k].wrapping_sub(low[k]));
                (0..3)
                    .all(|k| (0..size[k]).contains(&d[k]))
                    .then(|| (d[0] + size[0] * (d[1] + size[1] * d[2])) as usize)
            }
            Layout::Hashed => {
                let h = (c[0] as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    ^ (c[1] as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
                    ^ (c[2] as u64).wrapping_mul(0x1656_67B1_9E37_79F9);
                Some((h ^ (h >> 29)) as usize & self.mask)
            }
        }
    }
}

/// Whether two filed boxes make a pair: they overlap and one is awake. Every comparison is
/// made, then one branch: of the boxes in neighbouring cells about one in ten overlaps, and the
/// early outs of `Aabb::overlaps` were mispredicted (on 1 000 spheres landing in the bin, the
/// pair search took 250 us instead of 375).
#[inline(always)]
fn pairs_up(e: &Entry, o: &Entry) -> bool {
    let (a, b) = (&e.aabb, &o.aabb);
    let overlap = (a.min.x <= b.max.x)
        & (b.min.x <= a.max.x)
        & (a.min.y <= b.max.y)
        & (b.min.y <= a.max.y)
        & (a.min.z <= b.max.z)
        & (b.min.z <= a.max.z);
    overlap & (e.awake | o.awake)
}

fn add(c: Cell, d: Cell) -> Cell {
    [
        c[0].wrapping_add(d[0]),
        c[1].wrapping_add(d[1]),
        c[2].wrapping_add(d[2]),
    ]
}
