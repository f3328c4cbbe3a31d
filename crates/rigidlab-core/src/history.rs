//! A rewind history: a world made with one keeps snapshots of its recent past, so that
//! `rewind` can land on any earlier step bit for bit, whatever acted (contacts, friction,
//! joints, damping: all that stepping back cannot undo, reversal.rs). A snapshot is kept every
//! `FRAME_SECONDS` of simulated time and at the first step after any edit; rewinding restores
//! the latest snapshot at or before the step sought and steps forward from it again, which a
//! world does the same way every time. Snapshots older than the history's length are dropped,
//! so the memory is bounded: about 1 / FRAME_SECONDS snapshots per second of history (some
//! 1 kB per body each: 1 000 spheres with 10 s of history took 198 MB).

use std::collections::VecDeque;

use crate::error::{Error, Result};
use crate::snapshot::Snapshot;
use crate::world::World;

/// Simulated time between two kept snapshots (s): a rewind steps at most this far forward again.
pub const FRAME_SECONDS: f64 = 0.05;

#[derive(Clone)]
pub struct History {
    /// How far back it reaches (s).
    pub seconds: f64,
    /// Snapshots by the step (of `steps_since_base`) they were taken at, oldest first.
    frames: VecDeque<(u64, Snapshot)>,
    /// An edit since the last snapshot: the next step keeps one first.
    edited: bool,
}

impl History {
    fn new(seconds: f64) -> History {
        History {
            seconds,
            frames: VecDeque::new(),
            edited: true,
        }
    }

    /// The snapshots kept now.
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }
}

impl World {
    /// Keeps a history of `seconds` (None: none; snapshots kept so far are dropped).
    pub fn set_history(&mut self, seconds: Option<f64>) -> Result<()> {
        if let Some(s) = seconds {
            if !(s.is_finite() && s > 0.0) {
                return Err(Error::invalid(
                    "history",
                    s,
                    "must be a positive number of seconds, or None for no history",
                ));
            }
        }
        self.history = seconds.map(History::new);
        Ok(())
    }

    pub fn history(&self) -> Option<&History> {
        self.history.as_ref()
    }

    /// Notes an edit for the history (the next step keeps a snapshot first).
    pub(crate) fn history_edited(&mut self) {
        if let Some(h) = &mut self.history {
            h.edited = true;
        }
    }

    /// Called at the start of each step, before its first stage: keeps a snapshot when one is
    /// due, and drops those older than the history reaches (all but the newest at or before
    /// its start).
    pub(crate) fn keep_history(&mut self) {
        let Some(h) = &self.history else { return };
        let dt = self.state.settings.dt;
        let step = self.state.steps_since_base;
        let every = (FRAME_SECONDS / dt).round().max(1.0) as u64;
        let due = h.edited || h.frames.back().is_none_or(|&(s, _)| step >= s + every);
        if !due {
            return;
        }
        let snapshot = self.snapshot();
        let h = self.history.as_mut().expect("checked above");
        while h.frames.back().is_some_and(|&(s, _)| s >= step) {
            h.frames.pop_back();
        }
        h.frames.push_back((step, snapshot));
        h.edited = false;
        let reach = (h.seconds / dt).ceil() as u64;
        let horizon = step.saturating_sub(reach);
        while h.frames.len() > 1 && h.frames[1].0 <= horizon {
            h.frames.pop_front();
        }
    }

    /// How far back (s) `rewind` can take the world from here (0 without a history).
    pub fn rewind_reach(&self) -> f64 {
        let now = self.state.steps_since_base;
        self.history
            .as_ref()
            .and_then(|h| h.frames.front())
            .map_or(0.0, |&(s, _)| {
                now.saturating_sub(s) as f64 * self.state.settings.dt
            })
    }

    /// Takes the world back `seconds` (rounded to whole steps): restores the latest snapshot
    /// at or before that step and returns how many steps must be taken again to land on it
    /// (the caller takes them, so that whatever a step asks of it is asked again). Fails,
    /// changing nothing, without a history or past its start.
    pub fn rewind_to(&mut self, seconds: f64) -> Result<u64> {
        if !(seconds.is_finite() && seconds >= 0.0) {
            return Err(Error::invalid(
                "seconds",
                seconds,
                "must be a finite number >= 0",
            ));
        }
        let dt = self.state.settings.dt;
        let Some(h) = &self.history else {
            return Err(Error::invalid(
                "seconds",
                seconds,
                "the world keeps no history: make it with World(history=seconds), or set \
                 world.history",
            ));
        };
        let now = self.state.steps_since_base;
        let back = (seconds / dt).round();
        let oldest = h.frames.front().map_or(now, |&(s, _)| s);
        if back > (now - oldest.min(now)) as f64 {
            return Err(Error::invalid(
                "seconds",
                seconds,
                &format!(
                    "the history reaches back {:.6} s from here; rewind at most that far",
                    (now - oldest.min(now)) as f64 * dt
                ),
            ));
        }
        if back == 0.0 {
            return Ok(0);
        }
        let target = now - back as u64;
        // The future from here is stepped again: its snapshots go, and the newest left is
        // the one to restore.
        let mut h = self.history.take().expect("checked above");
        while h.frames.back().is_some_and(|&(s, _)| s > target) {
            h.frames.pop_back();
        }
        let (step, snapshot) = h
            .frames
            .back()
            .expect("the oldest snapshot is at or before the target");
        let step = *step;
        self.restore(snapshot);
        h.edited = false;
        self.history = Some(h);
        Ok(target - step)
    }

    /// `rewind_to`, and the steps taken again.
    pub fn rewind(&mut self, seconds: f64) -> Result<()> {
        let steps = self.rewind_to(seconds)?;
        self.step_n(steps)
    }
}

#[cfg(test)]
mod tests {
    use crate::body::BodyDesc;
    use crate::math::DVec3;
    use crate::shape::Shape;
    use crate::world::World;

    #[test]
    fn a_rewind_of_nothing_or_before_any_step_is_no_rewind() {
        let mut w = World::default();
        w.add_body(BodyDesc {
            position: DVec3::new(0.0, 1.0, 0.0),
            ..BodyDesc::new(Shape::sphere(0.1).unwrap())
        })
        .unwrap();
        w.set_history(Some(1.0)).unwrap();
        assert_eq!(w.rewind_to(0.0).unwrap(), 0);
        assert!(w.rewind_to(0.1).is_err());
        w.step_n(30).unwrap();
        let x = w.bodies().bodies()[0].position;
        w.step_n(30).unwrap();
        w.rewind(30.0 * w.settings().dt).unwrap();
        assert_eq!(w.bodies().bodies()[0].position, x);
        assert!(w.history().is_some_and(|h| !h.is_empty()));
    }
}
