//! The narrow phase over all candidate pairs. Each pair's manifold is found (or refreshed, see
//! refresh.rs) and warm started from the two bodies and last step's contacts alone, so a large
//! scene may split the pairs into runs on a pool of threads (`World::set_threads`); the runs'
//! manifolds are joined in pair order, and the result is the same, bit for bit, whatever the
//! number of threads.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use rayon::prelude::*;

use super::manifold::{ContactPoint, LastContacts, Manifold, Points, MAX_POINTS};
use super::narrow_phase::{NarrowPhase, Posed};
use super::refresh::{refresh, PairFrame};
use crate::body::{Body, BodyHandle, BodyKind};
use crate::material::{Material, MaterialRules};

/// Pairs per task; scenes with fewer pairs than two tasks' worth run on the calling thread.
const PAIRS_PER_TASK: usize = 256;

/// What the shared pool (`Threads::Shared`) splits the narrow phase from: this many awake
/// bodies found in contact by separating axes or closest features (3D boxes, hulls and
/// capsules), and as many contacts last step. Joining the threads' manifolds costs about what
/// finding a sphere pair's does, and a pair that does not touch is rejected at its first
/// separating axis, so only scenes of many such bodies in contact gain. Measured on 2 cores:
/// 1 000 dropped cubes and the 3D mixed heap 8 to 10% faster a step, a base-40 pyramid of boxes
/// (820, 1 600 contacts) 4%; 1 000 spheres 4% slower, 2D heaps of discs, boxes, capsules and
/// polygons no faster (a planar pair is cheap to find), and 600 cubes falling apart in a column
/// (some 600 candidate pairs, few touching) 40% slower.
pub const SPLIT_FROM: usize = 500;

/// A pool of `n` threads, made once per process for each `n` and shared by every world and
/// batch that asks for that many: starting threads costs more than a small step.
pub fn pool_of(n: usize) -> Result<Arc<rayon::ThreadPool>, rayon::ThreadPoolBuildError> {
    static POOLS: std::sync::Mutex<std::collections::BTreeMap<usize, Arc<rayon::ThreadPool>>> =
        std::sync::Mutex::new(std::collections::BTreeMap::new());
    let mut pools = POOLS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(pool) = pools.get(&n) {
        return Ok(pool.clone());
    }
    let pool = Arc::new(rayon::ThreadPoolBuilder::new().num_threads(n).build()?);
    pools.insert(n, pool.clone());
    Ok(pool)
}

/// The threads a world's narrow phase may use.
#[derive(Clone, Default)]
pub enum Threads {
    /// The process's shared pool, one thread per core, where it pays (`splits`).
    #[default]
    Shared,
    /// The calling thread only.
    One,
    /// A pool of the world's own.
    Pool(Arc<rayon::ThreadPool>),
}

impl Threads {
    /// n threads: 1 is the calling thread alone; more, a pool of n.
    pub fn new(n: usize) -> Result<Threads, rayon::ThreadPoolBuildError> {
        Ok(if n <= 1 {
            Threads::One
        } else {
            Threads::Pool(pool_of(n)?)
        })
    }

    /// How many threads the narrow phase runs on (None: the shared pool's).
    pub fn count(&self) -> Option<usize> {
        match self {
            Threads::Shared => None,
            Threads::One => Some(1),
            Threads::Pool(pool) => Some(pool.current_num_threads()),
        }
    }

    /// How many threads the step's shared-out work may use beside the narrow phase (the
    /// broad phase's grid search, the contact solver's sweeps, position correction's passes):
    /// a pool of the world's own, all of it; the shared pool's when the step runs on it (see
    /// `World::step`); otherwise the calling thread alone.
    pub fn split_threads(&self) -> usize {
        match self {
            Threads::One => 1,
            Threads::Pool(pool) => pool.current_num_threads(),
            Threads::Shared if rayon::current_thread_index().is_some() => {
                rayon::current_num_threads()
            }
            Threads::Shared => 1,
        }
    }

    /// Whether the narrow phase of `pairs` candidate pairs is split over the threads: always
    /// on a pool of the world's own, and on the shared one where it pays, after a step of
    /// `contacts` contacts, among `costly()` awake bodies of costly pairs (see `SPLIT_FROM`;
    /// counted only when the rest says yes).
    pub fn splits(&self, pairs: usize, contacts: usize, costly: impl FnOnce() -> usize) -> bool {
        let tasks = pairs.div_ceil(PAIRS_PER_TASK);
        tasks >= 2
            && match self {
                Threads::One => false,
                Threads::Pool(pool) => pool.current_num_threads() > 1,
                Threads::Shared => {
                    contacts >= SPLIT_FROM
                        && rayon::current_num_threads() > 1
                        && costly() >= SPLIT_FROM
                }
            }
    }
}

/// What the pairs' contacts are found from.
#[derive(Clone, Copy)]
pub struct PairInputs<'a> {
    pub bodies: &'a [Body],
    pub handles: &'a [BodyHandle],
    /// Per body row: how far apart points may be and still be kept (m).
    pub margins: &'a [f64],
    /// Per body row: how much farther its points with a body that cannot move are kept (m):
    /// its deepest overlap last step, by which position correction may move it.
    pub pressed: &'a [f64],
    /// Last step's contacts.
    pub last: &'a LastContacts,
    /// How far any point of one body may move relative to the other before a contact between
    /// faceted shapes is found in full again (m).
    pub refresh_tolerance: f64,
    /// How far, in the smaller body's bounding radii, a point may be from last step's to take
    /// its impulses for warm starting when their features differ.
    pub match_distance: f64,
    pub materials: &'a MaterialRules,
    /// Per-pair material overrides, by body ids (smaller first).
    pub pair_materials: &'a HashMap<(u64, u64), Material>,
    /// Pairs let pass through each other while they touch, by body ids (smaller first).
    pub passing: &'a BTreeSet<(u64, u64)>,
    /// Whether to note the pairs that begin to touch (for a world that decides on them).
    pub asks: bool,
}

/// What a run of pairs found, in pair order.
#[derive(Default)]
pub struct Found {
    /// The manifolds of the touching pairs, warm started from last step's.
    pub manifolds: Vec<Manifold>,
    /// Indices in `manifolds` of the pairs that begin to touch (noted only when asked).
    pub new: Vec<usize>,
    /// Touching pairs let pass through each other (their manifolds are dropped), by body ids.
    pub still_passing: Vec<(u64, u64)>,
}

impl Found {
    fn clear(&mut self) {
        self.manifolds.clear();
        self.new.clear();
        self.still_passing.clear();
    }

    /// Adds the tasks' findings, in task order, and clears them. The manifolds, the bulk of
    /// it, are copied into place on all threads.
    fn join(&mut self, tasks: &mut [(NarrowPhase, Found)]) {
        let base = self.manifolds.len();
        // Where each task's manifolds start among the joined ones.
        let mut starts = Vec::with_capacity(tasks.len());
        let mut total = 0;
        for (_, run) in tasks.iter() {
            starts.push(total);
            self.new.extend(run.new.iter().map(|i| base + total + i));
            self.still_passing.extend_from_slice(&run.still_passing);
            total += run.manifolds.len();
        }
        self.manifolds
            .par_extend((0..total).into_par_iter().map(|k| {
                let t = starts.partition_point(|&s| s <= k) - 1;
                tasks[t].1.manifolds[k - starts[t]].clone()
            }));
        for (_, run) in tasks.iter_mut() {
            run.clear();
        }
    }
}

/// A narrow phase's buffers per task and what each task found (kept from step to step).
#[derive(Default)]
pub struct PairContacts {
    tasks: Vec<(NarrowPhase, Found)>,
}

impl PairContacts {
    /// Finds the manifold of every pair in `pairs` and adds them to `found` in pair order, on
    /// `threads` when `split` (see `Threads::splits`), else on the calling thread.
    pub fn find(
        &mut self,
        pairs: &[(u32, u32)],
        inputs: PairInputs,
        (threads, split): (&Threads, bool),
        found: &mut Found,
    ) {
        let tasks = pairs.len().div_ceil(PAIRS_PER_TASK).max(1);
        if self.tasks.len() < tasks {
            self.tasks.resize_with(tasks, Default::default);
        }
        if !split || tasks < 2 {
            // Straight into the caller's lists: no copy.
            let narrow = &mut self.tasks[0].0;
            for &pair in pairs {
                find_one(narrow, pair, &inputs, found);
            }
            return;
        }
        let run = |(pairs, (narrow, found)): (&[(u32, u32)], &mut (NarrowPhase, Found))| {
            for &pair in pairs {
                find_one(narrow, pair, &inputs, found);
            }
        };
        let tasks = &mut self.tasks[..tasks];
        let mut job = || {
            pairs
                .par_chunks(PAIRS_PER_TASK)
                .zip(tasks.par_iter_mut())
                .for_each(run);
            found.join(tasks);
        };
        match threads {
            // A world steps inside its pool (see `World::step`), so this splits the work there;
            // from elsewhere it moves to the pool.
            Threads::Pool(pool) => pool.install(job),
            _ => job(),
        }
    }
}

/// The manifold of one pair of body rows, warm started, added to `found`: nothing when they do
/// not touch, only their ids when they are let pass through each other.
fn find_one(narrow: &mut NarrowPhase, (i, j): (u32, u32), inputs: &PairInputs, found: &mut Found) {
    let bodies = inputs.bodies;
    let (mut a, mut b) = (i as usize, j as usize);
    if bodies[a].shape.kind() > bodies[b].shape.kind() {
        std::mem::swap(&mut a, &mut b);
    }
    let (ba, bb) = (&bodies[a], &bodies[b]);
    let posed_a = Posed {
        shape: &ba.shape,
        position: ba.position,
        orientation: ba.orientation,
        planar: ba.planar,
    };
    let posed_b = Posed {
        shape: &bb.shape,
        position: bb.position,
        orientation: bb.orientation,
        planar: bb.planar,
    };
    let margin = inputs.margins[a]
        + inputs.margins[b]
        + match (ba.kind, bb.kind) {
            (BodyKind::Dynamic, BodyKind::Dynamic) => 0.0,
            (BodyKind::Dynamic, _) => inputs.pressed.get(a).copied().unwrap_or(0.0),
            (_, BodyKind::Dynamic) => inputs.pressed.get(b).copied().unwrap_or(0.0),
            _ => 0.0,
        };
    // Two faceted shapes (polyhedra, sharp polygons) that barely moved relative to each other
    // keep their contact, measured again; others are found in full.
    let faceted = ba.shape.is_faceted() && bb.shape.is_faceted();
    let (handle_a, handle_b) = (inputs.handles[a], inputs.handles[b]);
    let previous = inputs.last.get(handle_a, handle_b);
    let refreshed = previous.filter(|_| faceted).and_then(|old| {
        refresh(
            old,
            &posed_a,
            &posed_b,
            inputs.refresh_tolerance,
            margin,
            &mut narrow.points,
        )
        .map(|n| (n, old.frame))
    });
    let (normal, frame) = match refreshed {
        Some(refreshed) => refreshed,
        None => match narrow.collide(posed_a, posed_b, margin) {
            Some(normal) => (
                normal,
                faceted.then(|| PairFrame::new(&posed_a, &posed_b, normal)),
            ),
            None => return,
        },
    };
    let key = (ba.id.min(bb.id), ba.id.max(bb.id));
    if inputs.passing.contains(&key) {
        found.still_passing.push(key);
        return;
    }
    let coefficients =
        inputs
            .materials
            .coefficients(&ba.material, &bb.material, inputs.pair_materials.get(&key));
    if inputs.asks && previous.is_none() {
        found.new.push(found.manifolds.len());
    }
    // Built in its place in the list: a manifold is hundreds of bytes.
    found.manifolds.push(Manifold {
        a: handle_a,
        b: handle_b,
        row_a: a,
        row_b: b,
        normal,
        points: Points::new(),
        coefficients,
        sliding: None,
        frame,
    });
    let manifold = found.manifolds.last_mut().expect("just pushed");
    manifold
        .points
        .extend(narrow.points.iter().take(MAX_POINTS).map(|p| {
            ContactPoint::found(
                p,
                (ba.position, ba.orientation),
                (bb.position, bb.orientation),
            )
        }));
    let match_distance =
        inputs.match_distance * ba.shape.bounding_radius().min(bb.shape.bounding_radius());
    if let Some(old) = previous {
        LastContacts::warm_start(manifold, old, match_distance);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shared_pool_splits_only_many_pairs_of_many_costly_bodies() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        pool.install(|| {
            let many = 4 * PAIRS_PER_TASK;
            let shared = Threads::Shared;
            assert!(shared.splits(many, SPLIT_FROM, || SPLIT_FROM));
            assert!(!shared.splits(many, 10 * SPLIT_FROM, || SPLIT_FROM - 1));
            assert!(!shared.splits(many, SPLIT_FROM - 1, || 10 * SPLIT_FROM));
            assert!(!shared.splits(PAIRS_PER_TASK, 10 * SPLIT_FROM, || 10 * SPLIT_FROM));
            // A pool of the world's own always splits what makes two tasks; one thread never.
            let own = Threads::new(2).unwrap();
            assert!(own.splits(many, 0, || 0));
            assert!(!own.splits(PAIRS_PER_TASK, 0, || 0));
            assert!(!Threads::One.splits(many, 10 * SPLIT_FROM, || 10 * SPLIT_FROM));
        });
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        // On one core the shared pool has nothing to split over.
        one.install(|| {
            assert!(!Threads::Shared.splits(4 * PAIRS_PER_TASK, 4 * SPLIT_FROM, || 4 * SPLIT_FROM))
        });
    }
}
