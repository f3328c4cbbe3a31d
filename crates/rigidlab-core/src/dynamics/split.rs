//! A Gauss-Seidel sweep split over threads. The items (a solver's contacts) are in the colours'
//! order (colours.rs), and the items of one colour change disjoint bodies, so the threads take
//! chunks of a colour as they come and the result is the very one of the sweep on one thread:
//! the same updates of the same items in the same order per body. A chunk of the next colour
//! waits until every chunk before it is done.
//!
//! Chunks are claimed from one counter in sweep order, and a thread only waits for chunks
//! claimed before its own, which threads already work on: a helper that starts late (its pool
//! busy with other worlds) finds the sweep done or joins it where it is, and the calling thread
//! alone finishes any sweep.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Items per chunk: enough that claiming one (an atomic add) is small beside solving it (some
/// 50 to 200 ns an item), few enough that a colour of a few hundred items splits. Measured on
/// two threads, 1 000 dropped cubes and spheres (400 steps): 16 took 10.8 and 4.7 to 5.3 ms a
/// step, 32 took 10.7 and 4.3 to 4.5, 64 took 10.5 and 4.5 to 4.6 (within the machine's spread
/// of 32).
const CHUNK: usize = 32;

/// Items a sweep needs to be split at all, per thread: below, a colour's chunks are too few to
/// share and the waits between colours cost more than the threads bring. (Sweeps are coloured
/// from 1 024 contacts, colours.rs: this decides on five threads or more.)
const LEAST_ITEMS_PER_THREAD: usize = 256;

/// Spins a waiting thread makes (some 10 to 40 ns each) before it yields its core: longer
/// than a chunk takes (a few microseconds), far shorter than a scheduler's time slice.
const SPINS_BEFORE_YIELD: u32 = 2000;

/// Whether a sweep of `items` in colours (`coloured`) is split over `threads` threads.
pub fn splits(threads: usize, coloured: bool, items: usize) -> bool {
    threads > 1 && coloured && items >= LEAST_ITEMS_PER_THREAD * threads
}

/// Sweeps run on the calling thread alone after one whose calling thread spent more than
/// half its time waiting for others (`Split::sweep`): their cores were busy with other work
/// (measured with a test suite running on the same two cores: a step of 1 000 dropped cubes took
/// 49 ms on two threads against 30 on one). Then it tries the threads again.
const SWEEPS_ALONE: u32 = 200;

/// The chunks of a sweep, kept from sweep to sweep.
#[derive(Default)]
pub struct Split {
    /// Item ranges in sweep order, and for each, how many chunks come before its colour's
    /// first.
    chunks: Vec<(Range<usize>, usize)>,
    /// Sweeps left to run on the calling thread alone (`SWEEPS_ALONE`).
    alone: u32,
}

impl Split {
    /// Cuts `runs` (item ranges of one colour each, in sweep order, and whether the run is an
    /// overflow whose items may share bodies) into chunks.
    pub fn plan(&mut self, runs: impl Iterator<Item = (Range<usize>, bool)>) {
        let chunks = &mut self.chunks;
        chunks.clear();
        // Whether the last chunk is one thread's run of small colours.
        let mut alone = false;
        for (run, overflow) in runs {
            // An overflow's items may share bodies: one thread sweeps them. So it does a
            // colour too small to share (greedy colouring leaves a tail of them), together
            // with the small ones after it: one wait instead of one per colour.
            if overflow || run.len() < CHUNK {
                match chunks.last_mut().filter(|_| alone) {
                    Some(last) => last.0.end = run.end,
                    None => chunks.push((run, chunks.len())),
                }
                alone = true;
                continue;
            }
            alone = false;
            let first = chunks.len();
            let mut at = run.start;
            while at < run.end {
                let end = (at + CHUNK).min(run.end);
                chunks.push((at..end, first));
                at = end;
            }
        }
    }

    /// One sweep of the planned chunks on `threads` threads: `update(item)` for every item,
    /// which returns how much it changed. Returns the largest change (NaN ignored, as
    /// `f64::max` does) and how many changed by more than `tolerance`. The result is the same
    /// on any number of threads, the calling thread alone included.
    ///
    /// `update` must touch nothing that another item of its colour touches.
    pub fn sweep(
        &mut self,
        threads: usize,
        tolerance: f64,
        update: impl Fn(usize) -> f64 + Sync,
    ) -> (f64, usize) {
        let threads = if self.alone > 0 {
            self.alone -= 1;
            1
        } else {
            threads
        };
        let (next, done) = (AtomicUsize::new(0), AtomicUsize::new(0));
        // The largest change as bits (changes are never negative, and their bits order as they
        // do), and the count of items changed.
        let (largest, changed) = (AtomicU64::new(0), AtomicUsize::new(0));
        let chunks = &self.chunks;
        // Returns how long it waited for others.
        let work = || {
            let (mut change, mut count) = (0.0f64, 0);
            let mut waited = Duration::ZERO;
            loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some((range, before)) = chunks.get(k) else {
                    break;
                };
                waited += wait_for(&done, *before);
                for item in range.clone() {
                    let c = update(item);
                    count += usize::from(c > tolerance);
                    change = change.max(c);
                }
                done.fetch_add(1, Ordering::Release);
            }
            largest.fetch_max(change.to_bits(), Ordering::Relaxed);
            changed.fetch_add(count, Ordering::Relaxed);
            waited
        };
        let start = Instant::now();
        let waited = rayon::in_place_scope(|scope| {
            for _ in 1..threads {
                scope.spawn(|_| {
                    work();
                });
            }
            work()
        });
        if 2 * waited > start.elapsed() {
            self.alone = SWEEPS_ALONE;
        }
        (f64::from_bits(largest.into_inner()), changed.into_inner())
    }
}

/// Spins until `done` reaches `count`, yielding the core after a while: a thread whose chunk
/// it waits for may have lost its core to another process, and spinning on would keep it off.
/// Returns how long it waited.
fn wait_for(done: &AtomicUsize, count: usize) -> Duration {
    if done.load(Ordering::Acquire) >= count {
        return Duration::ZERO;
    }
    let start = Instant::now();
    let mut spins = 0u32;
    while done.load(Ordering::Acquire) < count {
        if spins < SPINS_BEFORE_YIELD {
            spins += 1;
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
    start.elapsed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU32;

    #[test]
    fn every_item_is_updated_once_and_colours_one_after_the_other() {
        // Three colours of 100, 7 and 300 items; each item records the colours finished
        // before it ran.
        let runs = [(0..100, false), (100..107, false), (107..407, false)];
        let finished = AtomicU32::new(0);
        let seen: Vec<_> = (0..407).map(|_| AtomicU32::new(u32::MAX)).collect();
        let done_in: Vec<_> = runs.iter().map(|_| AtomicUsize::new(0)).collect();
        let mut split = Split::default();
        split.plan(runs.iter().cloned());
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let (largest, count) = pool.install(|| {
            split.sweep(3, 0.5, |i| {
                let colour = runs.iter().position(|(r, _)| r.contains(&i)).unwrap();
                assert!(seen[i]
                    .swap(finished.load(Ordering::SeqCst), Ordering::SeqCst)
                    .eq(&u32::MAX));
                let left = done_in[colour].fetch_add(1, Ordering::SeqCst) + 1;
                if left == runs[colour].0.len() {
                    finished.fetch_add(1, Ordering::SeqCst);
                }
                (i % 10) as f64 / 10.0
            })
        });
        for (colour, (run, _)) in runs.iter().enumerate() {
            for i in run.clone() {
                assert_eq!(seen[i].load(Ordering::SeqCst), colour as u32, "item {i}");
            }
        }
        assert_eq!(largest, 0.9);
        // 0.6 to 0.9: four in every whole ten, and 406.
        assert_eq!(count, 40 * 4 + 1);
    }
}
