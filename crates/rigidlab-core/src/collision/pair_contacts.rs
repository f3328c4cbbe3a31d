//! The narrow phase over all candidate pairs. Each pair's contact is found (or refreshed, see
//! refresh.rs) from the two bodies and last step's contact alone, into the pair's own slot, so
//! a large scene may split the pairs into chunks on a pool of threads (`World::set_threads`)
//! and the result is the same, bit for bit, whatever the number of threads.

use std::sync::Arc;

use rayon::prelude::*;

use super::manifold::{ContactSet, RawPoint, MAX_POINTS};
use super::narrow_phase::{NarrowPhase, Posed};
use super::refresh::{refresh, PairFrame};
use crate::body::{Body, BodyHandle, BodyKind};
use crate::math::DVec3;
use crate::shape::ShapeKind;

/// Pairs per task; scenes with fewer pairs than two tasks' worth run on the calling thread.
const PAIRS_PER_TASK: usize = 256;
/// Most pairs to find at a time before their manifolds are stored, so the slots stay in the
/// cache (a pile of 16 000 spheres has some 100 000 candidate pairs).
pub const ROUND: usize = 8 * PAIRS_PER_TASK;

/// One pair's contact: the rows of A and B (in narrow-phase order), the normal, the pair's
/// frame for refreshing, and up to four points (`len` of them; none when they do not touch).
#[derive(Clone, Copy, Debug)]
pub struct PairContact {
    pub a: usize,
    pub b: usize,
    pub normal: DVec3,
    pub frame: Option<PairFrame>,
    pub len: usize,
    pub points: [RawPoint; MAX_POINTS],
}

/// One task of the narrow phase: a run of candidate pairs and the slots for their contacts.
type Task<'a> = (&'a [(u32, u32)], &'a mut [PairContact]);

impl PairContact {
    pub fn points(&self) -> &[RawPoint] {
        &self.points[..self.len]
    }
}

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
    /// The process's shared pool, one thread per core.
    Shared,
    /// The calling thread only.
    #[default]
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
    pub previous: &'a ContactSet,
    /// How far any point of one body may move relative to the other before a contact between
    /// polyhedra is found in full again (m).
    pub refresh_tolerance: f64,
}

/// The contacts of the candidate pairs, with a narrow phase's buffers per task (kept from step
/// to step).
#[derive(Default)]
pub struct PairContacts {
    pub found: Vec<PairContact>,
    narrow: Vec<NarrowPhase>,
}

impl PairContacts {
    /// Finds the contact of every pair in `pairs`, into `found` (same order), on `threads`.
    pub fn find(&mut self, pairs: &[(u32, u32)], inputs: PairInputs, threads: &Threads) {
        // Every slot is filled below: only grow the buffer.
        if self.found.len() < pairs.len() {
            self.found.resize(
                pairs.len(),
                PairContact {
                    a: 0,
                    b: 0,
                    normal: DVec3::ZERO,
                    frame: None,
                    len: 0,
                    points: [RawPoint::default(); MAX_POINTS],
                },
            );
        }
        self.found.truncate(pairs.len());
        let tasks = pairs.len().div_ceil(PAIRS_PER_TASK).max(1);
        if self.narrow.len() < tasks {
            self.narrow.resize_with(tasks, NarrowPhase::default);
        }
        let run = |((pairs, found), narrow): (Task, &mut NarrowPhase)| {
            for (&pair, slot) in pairs.iter().zip(found.iter_mut()) {
                find_one(narrow, pair, &inputs, slot);
            }
        };
        let parallel = tasks >= 2 && threads.count().unwrap_or_else(rayon::current_num_threads) > 1;
        if parallel {
            let (found, narrow) = (&mut self.found, &mut self.narrow[..tasks]);
            let mut job = move || {
                pairs
                    .par_chunks(PAIRS_PER_TASK)
                    .zip(found.par_chunks_mut(PAIRS_PER_TASK))
                    .zip(narrow.par_iter_mut())
                    .for_each(run)
            };
            match threads {
                Threads::Pool(pool) => pool.install(job),
                _ => job(),
            }
        } else {
            pairs
                .chunks(PAIRS_PER_TASK)
                .zip(self.found.chunks_mut(PAIRS_PER_TASK))
                .zip(self.narrow.iter_mut())
                .for_each(run);
        }
    }
}

/// The contact of one pair of body rows, into `found` (only `len` is written when they do not
/// touch).
fn find_one(
    narrow: &mut NarrowPhase,
    (i, j): (u32, u32),
    inputs: &PairInputs,
    found: &mut PairContact,
) {
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
    found.len = 0;
    // Two polyhedra that barely moved relative to each other keep their contact, measured
    // again; others are found in full.
    let polyhedra = [ba, bb]
        .iter()
        .all(|b| matches!(b.shape.kind(), ShapeKind::Box | ShapeKind::Convex));
    let previous = if polyhedra {
        inputs
            .previous
            .previous(inputs.handles[a], inputs.handles[b])
    } else {
        None
    };
    let refreshed = previous.and_then(|old| {
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
                polyhedra.then(|| PairFrame::new(&posed_a, &posed_b, normal)),
            ),
            None => return,
        },
    };
    let len = narrow.points.len().min(MAX_POINTS);
    (found.a, found.b, found.normal, found.frame, found.len) = (a, b, normal, frame, len);
    found.points[..len].copy_from_slice(&narrow.points[..len]);
}
