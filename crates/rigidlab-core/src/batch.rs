//! Stepping many independent worlds at once, one world per task on a pool of threads.
//!
//! Worlds share nothing, so each one's result is the same whatever the number of threads or the
//! order they run in: bit-identical to stepping it alone.

use crate::error::{Error, Result};
use crate::world::World;
use rayon::prelude::*;

/// Advances every world by `steps` steps, on `threads` threads (None: one per core).
pub fn step_many(worlds: &mut [&mut World], steps: u64, threads: Option<usize>) -> Result<()> {
    // Every world runs its steps (or up to the step that fails); the first failing world's
    // error is reported.
    let run = |worlds: &mut [&mut World]| -> Vec<Result<()>> {
        worlds
            .par_iter_mut()
            .with_max_len(1)
            .map(|w| w.step_n(steps))
            .collect()
    };
    let results = match threads {
        None => run(worlds),
        Some(0) => return Err(Error::invalid("threads", 0, "must be at least 1")),
        Some(1) => worlds.iter_mut().map(|w| w.step_n(steps)).collect(),
        Some(k) => crate::collision::pair_contacts::pool_of(k)
            .map_err(|e| {
                Error::invalid("threads", k, &format!("could not start the threads: {e}"))
            })?
            .install(|| run(worlds)),
    };
    results.into_iter().collect()
}
