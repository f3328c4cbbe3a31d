//! Where a step's time goes: wall-clock seconds of each stage of the last step, so a script
//! can see what a scene costs and why (as Box2D's b2Profile does).

use std::time::Instant;

/// Seconds spent in each stage of the last step (all zero after a step of a world at rest,
/// which runs no stage).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepTimes {
    pub broad_phase: f64,
    pub narrow_phase: f64,
    pub integrate: f64,
    pub solve: f64,
    pub correct: f64,
    pub finish: f64,
    pub sleep: f64,
    pub total: f64,
}

impl StepTimes {
    /// The stages by name, in step order, then the total.
    pub fn named(&self) -> [(&'static str, f64); 8] {
        [
            ("broad_phase", self.broad_phase),
            ("narrow_phase", self.narrow_phase),
            ("integrate", self.integrate),
            ("solve", self.solve),
            ("correct", self.correct),
            ("finish", self.finish),
            ("sleep", self.sleep),
            ("total", self.total),
        ]
    }
}

/// A stopwatch for timing stages one after another.
pub struct Laps {
    start: Instant,
    last: Instant,
}

impl Laps {
    pub fn start() -> Laps {
        let now = Instant::now();
        Laps { start: now, last: now }
    }

    /// Seconds since the previous lap (or the start).
    pub fn lap(&mut self) -> f64 {
        let now = Instant::now();
        let s = (now - self.last).as_secs_f64();
        self.last = now;
        s
    }

    /// Seconds from the start to the last lap.
    pub fn total(&self) -> f64 {
        (self.last - self.start).as_secs_f64()
    }
}
