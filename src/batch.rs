//! Stepping many independent worlds at once, one world per task on a pool of threads.
//!
//! Worlds share nothing, so each one's result is the same whatever the number of threads or the
//! order they run in: bit-identical to stepping it alone.

use crate::error::{Error, Result};
use crate::world::World;
use rayon::prelude::*;

/// Advances every world by `steps` steps, on `threads` threads (None: one per core).
pub fn step_many(worlds: &mut [&mut World], steps: u64, threads: Option<usize>) -> Result<()> {
    let run = |worlds: &mut [&mut World]| {
        worlds
            .par_iter_mut()
            .with_max_len(1)
            .for_each(|w| w.step_n(steps))
    };
    match threads {
        None => run(worlds),
        Some(0) => return Err(Error::invalid("threads", 0, "must be at least 1")),
        Some(1) => worlds.iter_mut().for_each(|w| w.step_n(steps)),
        Some(k) => rayon::ThreadPoolBuilder::new()
            .num_threads(k)
            .build()
            .map_err(|e| {
                Error::invalid("threads", k, &format!("could not start the threads: {e}"))
            })?
            .install(|| run(worlds)),
    }
    Ok(())
}
